package pdn

import (
	"math"
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

func TestGoldenDigestSameEverywhere(t *testing.T) {
	if gonumAsm {
		t.Skip("gonum's assembly kernels round differently from the browser's pure Go: run with -tags noasm, as the Makefile does")
	}
	for _, tc := range []struct {
		edgeDrop float64
		sparse   bool
		want     string
	}{{experiment.Default().Model.EdgeDrop, false, goldenDigest}, {0, false, officialDigest}, {experiment.Default().Model.EdgeDrop, true, sparseDigest}} {
		if got := goldenRun(t, tc.edgeDrop, tc.sparse); got != tc.want {
			t.Errorf("edge dropout %v, sparse %v: digest %s, want %s", tc.edgeDrop, tc.sparse, got, tc.want)
		}
	}
}

// goldenRun is the digest of the golden run: 20 epochs of PDN at n = 32,
// with the edge dropout given, its node features dense or sparse.
func goldenRun(t *testing.T, edgeDrop float64, sparse bool) string {
	t.Helper()
	e := experiment.Default()
	e.Data.PerClass = 32
	e.Model.EdgeDrop = edgeDrop
	g, err := datasets.Synthetic(e.Data)
	if err != nil {
		t.Fatal(err)
	}
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
	if gonumAsm {
		t.Skip("gonum's assembly kernels round differently from the browser's pure Go: run with -tags noasm, as the Makefile does")
	}
	defer func(n int, w float64) { threads, minSplitWork = n, w }(threads, minSplitWork)
	minSplitWork = 0
	for _, n := range []int{1, 2, 3, 5} {
		threads = n
		for _, tc := range []struct {
			sparse bool
			want   string
		}{{false, goldenDigest}, {true, sparseDigest}} {
			if got := goldenRun(t, experiment.Default().Model.EdgeDrop, tc.sparse); got != tc.want {
				t.Errorf("%d threads, sparse %v: digest %s, want %s", n, tc.sparse, got, tc.want)
			}
		}
	}
}
