package pdn

import (
	"fmt"
	"testing"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
)

// The golden run is every weight and the snapshot, hashed (digest), after
// 20 epochs of PDN on a small synthetic graph (n = 32, other parameters at
// their defaults, seed 1). `make test` runs these tests natively and under
// GOOS=js in Node: each build must give its pins (pins_test.go), the
// browser's bits wherever gonum runs its pure Go and no product is fused.
// When a change to the engine is meant to change results, update them,
// and say so in the commit. "official" is the same run with the official
// semantics, without DropEdge: the one the PyTorch peer has; "sparse" is
// the golden run with two thirds of the node features zeroed and the rest
// held sparse; "mean-loop" is "sparse" with each self-loop weighing the
// mean of its node's learned weights, the bag-of-words recipe's rule
// (experiment.SelfLoopMean), which runs in Go in the browser's worker too.

func TestGoldenDigestSameEverywhere(t *testing.T) {
	drop := experiment.Default().Model.EdgeDrop
	for _, tc := range []struct {
		pin      string
		edgeDrop float64
		sparse   bool
		selfLoop string
	}{{"golden", drop, false, ""}, {"official", 0, false, ""}, {"sparse", drop, true, ""}, {"mean-loop", drop, true, experiment.SelfLoopMean}} {
		checkPin(t, tc.pin, goldenRun(t, tc.edgeDrop, tc.sparse, tc.selfLoop))
	}
}

// goldenRun is the digest of the golden run: 20 epochs of PDN at n = 32,
// with the edge dropout given, its node features dense or sparse, its
// self-loops by the rule given ("" the state table's default).
func goldenRun(t *testing.T, edgeDrop float64, sparse bool, selfLoop string) string {
	t.Helper()
	g, e := smallRun(t, experiment.PDN)
	e.Model.EdgeDrop = edgeDrop
	if selfLoop != "" {
		e.Model.SelfLoop = selfLoop
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
	checkPin(t, "seed1", digest(tr, s))
}

// The products split across goroutines give the same bits at any number
// of threads: the golden runs, dense and sparse, with every product split
// however small, on 1 to 5 threads, end at their digests.
func TestThreadsKeepTheBits(t *testing.T) {
	defer func(n int, w float64) { threads, minSplitWork = n, w }(threads, minSplitWork)
	minSplitWork = 0
	for _, n := range []int{1, 2, 3, 5} {
		threads = n
		t.Run(fmt.Sprintf("%d threads", n), func(t *testing.T) {
			checkPin(t, "golden", goldenRun(t, experiment.Default().Model.EdgeDrop, false, ""))
			checkPin(t, "sparse", goldenRun(t, experiment.Default().Model.EdgeDrop, true, ""))
			checkPin(t, "mean-loop", goldenRun(t, experiment.Default().Model.EdgeDrop, true, experiment.SelfLoopMean))
		})
	}
}

// The zoo: every other model after 10 epochs on the golden run's graph
// (n = 32), pinned by its kind, so that a faster kernel which changed a
// result (GAT's softmax, DeepWalk's skip-gram, the sparse products) is
// caught natively and, under GOOS=js, in the browser's runtime.
func TestZooDigestsSameEverywhere(t *testing.T) { eachWidth(t, testZooDigestsSameEverywhere) }

func testZooDigestsSameEverywhere(t *testing.T) {
	for _, kind := range experiment.Kinds {
		if kind == experiment.PDN {
			continue // the golden run
		}
		g, e := smallRun(t, kind)
		tr := mustTrainer(t, g, e)
		runEpochs(t, tr, 10)
		checkPin(t, kind, digest(tr, tr.Evaluate()))
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
