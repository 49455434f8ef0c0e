package pdn

import (
	"math"
	"runtime"
	"testing"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
)

// goldenDigest is the SHA-256 of every weight and of the snapshot after 20
// epochs of PDN on a small synthetic graph (n = 32, other parameters at
// their defaults, seed 1). `make test` runs this test natively and under
// GOOS=js in Node: both must give these very bits. When a change to the
// engine is meant to change results, update it, and say so in the commit.
//
// officialDigest is the same run with the official semantics, without
// DropEdge: the one the PyTorch peer has. sparseDigest is the golden run
// with two thirds of the node features zeroed and the rest held sparse.
const (
	goldenDigest   = "300bac282c4b21e5167f481d523e9cc2da324876088184f63f417848ce96c35b"
	officialDigest = "99a4f8c1263babaa8ee36322a0a114e402230981fc108be849543f0562336117"
	sparseDigest   = "2e7c22a073031b177e331cb8da40020d27105e43083d7911a935a435600ab12a"
)

// pinned returns the digest this build must give for name: the pins
// above, the bits of the browser and of the Makefile's builds (-tags
// noasm), or, where gonum runs its assembly kernels (a plain go test),
// that build's own pins (asmPins), which differ because the generator's
// draws go through gonum's BLAS. A build whose pins are not known skips
// the test and says so.
func pinned(t *testing.T, name, noasm string) string {
	t.Helper()
	if !gonumAsm {
		return noasm
	}
	want, ok := asmPins[name]
	if !ok {
		t.Skipf("no pin of %s for gonum's assembly kernels on %s: run with -tags noasm, as the Makefile does", name, runtime.GOARCH)
	}
	return want
}

func TestGoldenDigestSameEverywhere(t *testing.T) {
	for _, tc := range []struct {
		edgeDrop float64
		sparse   bool
		want     string
	}{{experiment.Default().Model.EdgeDrop, false, pinned(t, "golden", goldenDigest)}, {0, false, pinned(t, "official", officialDigest)},
		{experiment.Default().Model.EdgeDrop, true, pinned(t, "sparse", sparseDigest)}} {
		if got := goldenRun(t, tc.edgeDrop, tc.sparse); got != tc.want {
			t.Errorf("edge dropout %v, sparse %v: digest %s, want %s", tc.edgeDrop, tc.sparse, got, tc.want)
		}
	}
}

// goldenRun is the digest of the golden run: 20 epochs of PDN at n = 32,
// with the edge dropout given, its node features dense or sparse.
func goldenRun(t *testing.T, edgeDrop float64, sparse bool) string {
	t.Helper()
	g, e := smallRun(t, experiment.PDN)
	e.Model.EdgeDrop = edgeDrop
	if sparse {
		g = sparsified(g)
	}
	tr := mustTrainer(t, g, e)
	runEpochs(t, tr, 20)
	return digest(tr, tr.Evaluate())
}

// TestDefaultScenarioSeed1 pins one seed's result at the paper's default
// scenario, so that any regression in the generator or the engine shows.
func TestDefaultScenarioSeed1(t *testing.T) {
	if testing.Short() {
		t.Skip("trains 200 epochs on 1500 nodes")
	}
	e := experiment.Default()
	g, err := datasets.Synthetic(e.Data)
	if err != nil {
		t.Fatal(err)
	}
	tr := mustTrainer(t, g, e)
	runEpochs(t, tr, e.Train.Epochs)
	s := tr.Evaluate()
	t.Logf("PDN seed 1: test %.4f, train %.4f, w_intra %.4f, w_inter %.4f", s.TestAcc, s.TrainAcc, s.WIntra, s.WInter)
	if s.TestAcc < 0.9 {
		t.Errorf("test accuracy %.4f < 0.90", s.TestAcc)
	}
	if s.WInter > 0.25*s.WIntra {
		t.Errorf("w_inter %.4f > 0.25 × w_intra %.4f", s.WInter, s.WIntra)
	}
	if !gonumAsm {
		const wantTest, wantIntra, wantInter = 283.0 / 300, 0.4248, 0.0376
		if s.TestAcc != wantTest || math.Abs(s.WIntra-wantIntra) > 5e-5 || math.Abs(s.WInter-wantInter) > 5e-5 {
			t.Errorf("seed 1 moved: test %v, w_intra %.4f, w_inter %.4f; pinned %v, %.4f, %.4f",
				s.TestAcc, s.WIntra, s.WInter, wantTest, wantIntra, wantInter)
		}
	}
}

// The products split across goroutines give the same bits at any number
// of threads: the golden runs, dense and sparse, with every product split
// however small, on 1 to 5 threads, end at their digests.
func TestThreadsKeepTheBits(t *testing.T) {
	golden, sparse := pinned(t, "golden", goldenDigest), pinned(t, "sparse", sparseDigest)
	defer func(n int, w float64) { threads, minSplitWork = n, w }(threads, minSplitWork)
	minSplitWork = 0
	for _, n := range []int{1, 2, 3, 5} {
		threads = n
		for _, tc := range []struct {
			sparse bool
			want   string
		}{{false, golden}, {true, sparse}} {
			if got := goldenRun(t, experiment.Default().Model.EdgeDrop, tc.sparse); got != tc.want {
				t.Errorf("%d threads, sparse %v: digest %s, want %s", n, tc.sparse, got, tc.want)
			}
		}
	}
}

// zooDigests pin the bits of every other model after 10 epochs on the
// golden run's graph (n = 32), so that a faster kernel which changed a
// result (GAT's softmax, DeepWalk's skip-gram, the sparse products) is
// caught natively and, under GOOS=js, in the browser's runtime.
var zooDigests = map[string]string{
	"pdn-linear":     "ff17d5a074d890016d2b0c6da436eedc15c170cc22082c496b74cd7ab445c1a5",
	"pdn-edgeconv":   "19f25bb1558e7c73f981c67a4259b1aa613f093b75b4e064fc61d8d43b591294",
	"pdn-multiscale": "7d0d17c710539024a60079d7d9355a4b3f1248d734023f1c049ef11c3ecce17a",
	"gcn":            "89210dbfbbf1ebda7a9b8b7acf5e44662769aec4ee1ce10e3845ca66f69f6fec",
	"gat":            "3910d4403266a156f3c27f6640ce29efe210a634bb68005351037055122731a2",
	"appnp":          "efb068f2af9cbb50354f9623df4ec0144306e15368f63ca26d0e9a7b36c36f0f",
	"sgc":            "ba24fa293430cc95f6a0deefd47ae111b88eb8e73e3d5a8da18ce72f42450a9b",
	"clustergcn":     "7277796980987ff84674d25608649c6d0868975472a613bf174211db07c146df",
	"deepwalk":       "c446118282977769f1fc7557212f0e1bc0c58e09988e2c6ea825920f693dd8ec",
	"mlp":            "5266f615e8a1fe6439e031a214067335a430817778681e384a8f1f4cb6588bf5",
	"sage":           "7c5b988784b087641998c32f6a6bad80b6f7ec14871e34c4d68f1a7cba2b8e43",
	"cheb":           "343fe0989715165528ac64b77fc28ccb2a4e146431814d532a64166bc1797f9e",
}

func TestZooDigestsSameEverywhere(t *testing.T) { eachWidth(t, testZooDigestsSameEverywhere) }

func testZooDigestsSameEverywhere(t *testing.T) {
	for _, kind := range experiment.Kinds {
		if kind == experiment.PDN {
			continue // the golden run
		}
		want := pinned(t, kind, zooDigests[kind])
		g, e := smallRun(t, kind)
		tr := mustTrainer(t, g, e)
		runEpochs(t, tr, 10)
		got := digest(tr, tr.Evaluate())
		if got != want {
			t.Errorf("%s: digest %s, want %s", kind, got, want)
		}
	}
}

// An evaluation between two epochs changes nothing in the training: the
// next step may take the pathfinder's weights from it (reuseEvaluation),
// and ends at the same bits as a run that never evaluated, for every model,
// with DropEdge and without.
func TestEvaluatingKeepsTheBits(t *testing.T) {
	for _, kind := range experiment.Kinds {
		for _, edgeDrop := range []float64{experiment.Default().Model.EdgeDrop, 0} {
			run := func(evaluate bool) string {
				g, e := smallRun(t, kind)
				e.Model.EdgeDrop = edgeDrop
				tr := mustTrainer(t, g, e)
				for range 8 {
					if _, err := tr.Step(); err != nil {
						t.Fatal(err)
					}
					if evaluate {
						tr.Evaluate()
					}
				}
				return digest(tr, tr.Evaluate())
			}
			if quiet, watched := run(false), run(true); quiet != watched {
				t.Errorf("%s, edge dropout %v: evaluating every epoch gives %s, not %s", kind, edgeDrop, watched, quiet)
			}
		}
	}
}
