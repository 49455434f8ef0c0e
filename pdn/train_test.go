package pdn

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"math"
	"strings"
	"testing"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
)

func mustTrainer(t testing.TB, g *datasets.Graph, e experiment.Experiment) *Trainer {
	t.Helper()
	tr, err := NewTrainer(g, e)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// smallRun is the golden run's graph (32 nodes per class, the rest at the
// defaults; its multiplex graph's for a kind that reads layers) and an
// experiment that trains kind on it.
func smallRun(t testing.TB, kind string) (*datasets.Graph, experiment.Experiment) {
	t.Helper()
	e := experiment.Default()
	e.Data.PerClass = 32
	e.Model.Kind = kind
	if experiment.ReadsLayers(kind) {
		// A model that reads layers trains on the multiplex graph of the
		// same nodes: a GCN over the synthetic graph's edge features
		// (Gaussian, signed) would be refused.
		e.Data.Graph = experiment.GraphMultiplex
	}
	g, err := datasets.Build(e.Data)
	if err != nil {
		t.Fatal(err)
	}
	return g, e
}

// forKind is g as kind can train on it: g itself, or for a kind that
// reads layers g with each edge feature read as a layer, 1 where it is
// positive and 0 elsewhere (its Gaussian features are not layers).
func forKind(kind string, g *datasets.Graph) *datasets.Graph {
	if !experiment.ReadsLayers(kind) {
		return g
	}
	out := *g
	out.EdgeX = make([]float64, len(g.EdgeX))
	for i, x := range g.EdgeX {
		if x > 0 {
			out.EdgeX[i] = 1
		}
	}
	return &out
}

func runEpochs(t testing.TB, tr *Trainer, n int) {
	t.Helper()
	for range n {
		if _, err := tr.Step(); err != nil {
			t.Fatal(err)
		}
	}
}

// digest hashes the bits of every parameter and of a snapshot.
func digest(tr *Trainer, s Snapshot) string {
	h := sha256.New()
	put := func(v float64) { binary.Write(h, binary.LittleEndian, math.Float64bits(v)) }
	for _, p := range tr.net.params() {
		for _, v := range p.val {
			put(v)
		}
	}
	for _, v := range []float64{s.Loss, s.TrainAcc, s.TestAcc} {
		put(v)
	}
	for _, v := range s.Weights {
		put(v)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func TestAdamFirstStep(t *testing.T) {
	// After one step from zero moments, m̂/√v̂ = g/|g|: every parameter moves
	// by lr against the sign of its gradient (up to ε).
	p := &tensor{val: []float64{1, -2, 3}, grad: []float64{0.5, -4, 1e-3}}
	a := newAdam([]*tensor{p}, 0.1, 0)
	a.step()
	for i, want := range []float64{0.9, -1.9, 2.9} {
		if math.Abs(p.val[i]-want) > 1e-6 {
			t.Errorf("θ[%d] = %v, want %v", i, p.val[i], want)
		}
	}
	// Weight decay adds λθ to the gradient: a zero gradient still moves.
	q := &tensor{val: []float64{2}, grad: []float64{0}}
	b := newAdam([]*tensor{q}, 0.1, 0.5)
	b.step()
	if math.Abs(q.val[0]-1.9) > 1e-6 {
		t.Errorf("with weight decay θ = %v, want 1.9", q.val[0])
	}
}

func TestSameSeedsSameBits(t *testing.T) {
	g := smallGraph(11, 60, 150, 6, 5, 3)
	e := experiment.Default()
	e.Train.Epochs = 15
	a, b := mustTrainer(t, g, e), mustTrainer(t, g, e)
	runEpochs(t, a, 15)
	runEpochs(t, b, 15)
	da, db := digest(a, a.Evaluate()), digest(b, b.Evaluate())
	if da != db {
		t.Fatalf("same seeds, different runs: %s vs %s", da, db)
	}
	// Reset replays the very same run.
	a.Reset()
	if a.Epoch() != 0 {
		t.Errorf("epoch after Reset = %d", a.Epoch())
	}
	runEpochs(t, a, 15)
	if d := digest(a, a.Evaluate()); d != da {
		t.Errorf("after Reset the run differs: %s vs %s", d, da)
	}
	// Another weight seed is another run.
	e.Train.Seed = 2
	c := mustTrainer(t, g, e)
	runEpochs(t, c, 15)
	if digest(c, c.Evaluate()) == da {
		t.Error("another weight seed gave the same run")
	}
}

func TestEvaluateDoesNotDisturbTraining(t *testing.T) {
	g := smallGraph(12, 40, 90, 4, 3, 2)
	e := experiment.Default()
	a, b := mustTrainer(t, g, e), mustTrainer(t, g, e)
	var s Snapshot
	for range 10 {
		runEpochs(t, a, 1)
		a.EvaluateInto(&s)
		runEpochs(t, b, 1)
	}
	if digest(a, a.Evaluate()) != digest(b, b.Evaluate()) {
		t.Error("evaluating between epochs changed the run")
	}
	if allocs := testing.AllocsPerRun(5, func() { a.EvaluateInto(&s) }); allocs != 0 {
		t.Errorf("EvaluateInto allocates %v times", allocs)
	}
	if allocs := testing.AllocsPerRun(5, func() { runEpochs(t, a, 1) }); allocs != 0 {
		t.Errorf("Step allocates %v times", allocs)
	}
}

func TestSnapshotContents(t *testing.T) {
	g := smallGraph(13, 40, 90, 4, 3, 2)
	for _, tc := range []struct {
		kind    string
		weights int
	}{{experiment.PDN, 90}, {experiment.GCN, 90}, {experiment.MLP, 0}} {
		t.Run(tc.kind, func(t *testing.T) {
			e := experiment.Default()
			e.Model.Kind = tc.kind
			tr := mustTrainer(t, g, e)
			runEpochs(t, tr, 3)
			s := tr.Evaluate()
			if s.Epoch != 3 || math.IsNaN(s.Loss) || len(s.Weights) != tc.weights {
				t.Fatalf("snapshot %+v", s)
			}
			for _, acc := range []float64{s.TrainAcc, s.TestAcc} {
				if acc < 0 || acc > 1 {
					t.Errorf("accuracy %v out of [0, 1]", acc)
				}
			}
			for _, w := range s.Weights {
				if w <= 0 || w > 1 || (tc.kind == experiment.GCN && w != 1) {
					t.Fatalf("edge weight %v", w)
				}
			}
			if tc.kind == experiment.MLP != math.IsNaN(s.WIntra) {
				t.Errorf("WIntra = %v", s.WIntra)
			}
		})
	}
}

func TestDivergenceIsReported(t *testing.T) {
	g := smallGraph(14, 40, 90, 4, 3, 2)
	e := experiment.Default()
	e.Train.LR = 10 // the largest allowed
	tr := mustTrainer(t, g, e)
	for range 50 { // huge steps must not crash anything
		if _, err := tr.Step(); err != nil {
			break
		}
	}
	l2 := tr.net.(*gcnNet).l2
	l2.w.val[0] = math.Inf(1) // a blown-up weight: the loss becomes NaN
	l2.w.val[1] = math.Inf(-1)
	_, err := tr.Step()
	var de *DivergedError
	if !errors.As(err, &de) {
		t.Fatalf("Step after blow-up = %v, want a DivergedError", err)
	}
	if msg := err.Error(); !containsAll(msg, "diverged", "lr", "[1e-06, 10]") {
		t.Errorf("message %q does not say what to change", msg)
	}
	_ = tr.Evaluate() // still usable
	tr.Reset()        // back to the finite initial weights
	if _, err := tr.Step(); err != nil {
		t.Errorf("after Reset: %v", err)
	}
}

func TestNewTrainerRejects(t *testing.T) {
	g := smallGraph(15, 20, 30, 3, 2, 2)
	e := experiment.Default()
	e.Model.Hidden = 0
	if _, err := NewTrainer(g, e); err == nil || !containsAll(err.Error(), "hidden") {
		t.Errorf("hidden 0: %v", err)
	}
	e = experiment.Default()
	noEdgeFeatures := smallGraph(15, 20, 30, 3, 0, 2)
	if _, err := NewTrainer(noEdgeFeatures, e); err == nil {
		t.Error("PDN accepted a graph without edge features")
	}
	bad := smallGraph(15, 20, 30, 3, 2, 2)
	bad.Labels[0] = 9
	if _, err := NewTrainer(bad, e); err == nil || !containsAll(err.Error(), "label") {
		t.Errorf("label out of range: %v", err)
	}
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

func TestPathfinderAndDirectedWeights(t *testing.T) {
	g := smallGraph(16, 40, 90, 4, 2, 2)
	e := experiment.Default()
	e.Model.EdgeHidden = []int{2}
	tr := mustTrainer(t, g, e)
	runEpochs(t, tr, 3)
	s := tr.Evaluate()
	// The pathfinder on an edge's own features gives that edge's weight.
	h, w, ok := tr.Pathfinder(g.EdgeX[0:2])
	if !ok || len(h) != 2 || math.Abs(w-s.Weights[0]) > 1e-12 {
		t.Errorf("Pathfinder = %v, %v, %v; edge 0 weighs %v", h, w, ok, s.Weights[0])
	}
	if _, _, ok := tr.Pathfinder([]float64{1}); ok {
		t.Error("Pathfinder accepted features of the wrong length")
	}
	// So does the linear PDN's attention neuron.
	el := e
	el.Model.Kind = experiment.PDNLinear
	lt := mustTrainer(t, g, el)
	runEpochs(t, lt, 3)
	ls := lt.Evaluate()
	if h, w, ok := lt.Pathfinder(g.EdgeX[2:4]); !ok || h != nil || math.Abs(w-ls.Weights[1]) > 1e-12 {
		t.Errorf("linear Pathfinder = %v, %v, %v; edge 1 weighs %v", h, w, ok, ls.Weights[1])
	}
	to, dw := tr.DirectedWeights()
	if len(to) != 2*g.E() || dw[0] != s.Weights[0] || dw[1] != s.Weights[0] {
		t.Errorf("PDN directed weights: %d entries", len(to))
	}
	if math.IsNaN(s.TrainLoss) || s.TrainLoss <= 0 {
		t.Errorf("TrainLoss = %v", s.TrainLoss)
	}

	// GAT's attention over each neighbourhood sums to one with the self-loop.
	e.Model.Kind = experiment.GAT
	gt := mustTrainer(t, g, e)
	gt.Evaluate()
	to, dw = gt.DirectedWeights()
	if len(to) != 2*g.E() {
		t.Fatalf("GAT directed weights: %d entries, want %d", len(to), 2*g.E())
	}
	sum, deg := make([]float64, g.N), make([]int, g.N)
	for i, n := range to {
		sum[n] += dw[i]
		deg[n]++
	}
	for n, s := range sum {
		if deg[n] > 0 && (s <= 0 || s >= 1) {
			t.Errorf("node %d's attention to its neighbours sums to %v, want in (0, 1)", n, s)
			break
		}
	}
	if _, _, ok := gt.Pathfinder([]float64{0, 1}); ok {
		t.Error("GAT has no pathfinder")
	}
}

func TestVariantsExposeTheirWeights(t *testing.T) {
	g := smallGraph(17, 40, 90, 4, 3, 2)
	e := experiment.Default()
	e.Model.Kind = experiment.PDNLinear
	s := mustTrainer(t, g, e).Evaluate()
	if len(s.Inputs) != g.D || math.Abs(s.Inputs[0]+s.Inputs[1]+s.Inputs[2]-1) > 1e-12 {
		t.Errorf("linear PDN inputs %v: want %d weights summing to 1", s.Inputs, g.D)
	}
	e.Model.Kind = experiment.PDNMultiScale
	s = mustTrainer(t, g, e).Evaluate()
	if len(s.Hops) != e.Model.Hops || math.Abs(s.Hops[0]+s.Hops[1]-1) > 1e-12 || s.Inputs != nil {
		t.Errorf("multi-scale hops %v, inputs %v", s.Hops, s.Inputs)
	}
	e.Model.Kind = experiment.PDN
	if s = mustTrainer(t, g, e).Evaluate(); s.Inputs != nil || s.Hops != nil {
		t.Errorf("PDN exposes %v, %v", s.Inputs, s.Hops)
	}
}

// DropEdge is the pathfinder's regulariser: it changes a PDN's run and
// leaves a baseline's run alone, bit for bit.
func TestEdgeDropoutOnlyForLearnedEdges(t *testing.T) {
	g := smallGraph(12, 60, 150, 6, 5, 3)
	for _, tc := range []struct {
		kind    string
		changes bool
	}{
		{experiment.PDN, true},
		{experiment.PDNLinear, true},
		{experiment.GCN, false},
		{experiment.ClusterGCN, false},
	} {
		run := func(drop float64) string {
			e := experiment.Default()
			e.Model.Kind, e.Model.EdgeDrop = tc.kind, drop
			tr := mustTrainer(t, g, e)
			runEpochs(t, tr, 10)
			return digest(tr, tr.Evaluate())
		}
		if changed := run(0) != run(0.5); changed != tc.changes {
			t.Errorf("%s: edge dropout changed the run: %v, want %v", tc.kind, changed, tc.changes)
		}
	}
}

func TestPredict(t *testing.T) {
	for _, tc := range []struct {
		name   string
		logits []float64
		c      int
		pred   []int
		prob   []float64
	}{
		{"two rows", []float64{0, math.Log(3), 2, 2}, 2, []int{1, 0}, []float64{0.75, 0.5}},
		{"first largest on ties", []float64{1, 1, 1}, 3, []int{0}, []float64{1.0 / 3}},
		{"large logits stay finite", []float64{1000, 0, -1000}, 3, []int{0}, []float64{1}},
		{"no rows", nil, 3, nil, nil},
	} {
		pred, prob := predict(nil, nil, tc.logits, tc.c)
		if len(pred) != len(tc.pred) || len(prob) != len(tc.prob) {
			t.Fatalf("%s: %d predictions, %d probabilities", tc.name, len(pred), len(prob))
		}
		for i := range pred {
			if pred[i] != tc.pred[i] || math.Abs(prob[i]-tc.prob[i]) > 1e-12 {
				t.Errorf("%s: row %d: class %d p %v, want %d p %v", tc.name, i, pred[i], prob[i], tc.pred[i], tc.prob[i])
			}
		}
	}
}

// The predictions agree with the accuracy the snapshot reports.
func TestSnapshotPredictions(t *testing.T) {
	e := experiment.Default()
	e.Data.PerClass = 32
	g, err := datasets.Synthetic(e.Data)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := NewTrainer(g, e)
	if err != nil {
		t.Fatal(err)
	}
	for range 20 {
		tr.Step()
	}
	s := tr.Evaluate()
	if len(s.Pred) != g.N || len(s.Prob) != g.N {
		t.Fatalf("%d predictions, %d probabilities for %d nodes", len(s.Pred), len(s.Prob), g.N)
	}
	right, test := 0, 0
	for i, sp := range g.Splits {
		if sp != datasets.Test {
			continue
		}
		test++
		if s.Pred[i] == g.Labels[i] {
			right++
		}
		if !(s.Prob[i] >= 1/float64(g.C) && s.Prob[i] <= 1) {
			t.Errorf("node %d: probability %v of its predicted class", i, s.Prob[i])
		}
	}
	if acc := float64(right) / float64(test); acc != s.TestAcc {
		t.Errorf("predictions give test accuracy %v, the snapshot %v", acc, s.TestAcc)
	}
}

// sparseRun is the default experiment at 24 nodes a class and its graph
// with the node features sparse (sparsified).
func sparseRun(t *testing.T) (experiment.Experiment, *datasets.Graph) {
	t.Helper()
	e := experiment.Default()
	e.Data.PerClass = 24
	g, err := datasets.Synthetic(e.Data)
	if err != nil {
		t.Fatal(err)
	}
	return e, sparsified(g)
}

// Every model reads sparse node features as it reads the same features
// dense: the same predictions to the bit before training (X·Wᵀ adds the
// same products in the same order), and the same training up to rounding.
func TestSparseFeaturesMatchDense(t *testing.T) {
	e, sparse := sparseRun(t)
	dense := *sparse
	dense.X, dense.XS = sparse.XS.Dense(), nil
	for _, kind := range experiment.Kinds {
		t.Run(kind, func(t *testing.T) {
			e := e
			e.Model.Kind = kind
			if kind == experiment.PDNMultiScale {
				e.Model.Hops = 2
			}
			if kind == experiment.GAT {
				// GAT's input dropout draws a mask per stored value: over
				// N×F values dense, over the non-zeros sparse.
				e.Model.Dropout = 0
			}
			td, ts := mustTrainer(t, forKind(kind, &dense), e), mustTrainer(t, forKind(kind, sparse), e)
			a, b := td.Evaluate(), ts.Evaluate()
			if math.Float64bits(a.Loss) != math.Float64bits(b.Loss) || a.TestAcc != b.TestAcc {
				t.Errorf("before training: dense loss %v acc %v, sparse %v %v", a.Loss, a.TestAcc, b.Loss, b.TestAcc)
			}
			runEpochs(t, td, 5)
			runEpochs(t, ts, 5)
			a, b = td.Evaluate(), ts.Evaluate()
			if math.Abs(a.Loss-b.Loss) > 1e-9*math.Max(1, math.Abs(a.Loss)) {
				t.Errorf("after 5 epochs: dense loss %v, sparse %v", a.Loss, b.Loss)
			}
		})
	}
}

// Every model whose input is sparse node features trains to the same
// bits whether its weight gradient runs through Xᵀ or over X's rows, GAT
// with its input dropout's new mask each epoch among them.
func TestSparseGradientThroughTheTranspose(t *testing.T) {
	e, sparse := sparseRun(t)
	for _, kind := range experiment.Kinds {
		t.Run(kind, func(t *testing.T) {
			e := e
			e.Model.Kind = kind
			if kind == experiment.GAT {
				e.Model.Dropout = 0.6
			}
			run := func(through bool) string {
				defer func(was bool) { transposeSparse = was }(transposeSparse)
				transposeSparse = through
				tr := mustTrainer(t, forKind(kind, sparse), e)
				for range 4 {
					if _, err := tr.Step(); err != nil {
						t.Fatal(err)
					}
					tr.Evaluate() // GAT's input back to the graph's values, then its copy again
				}
				return digest(tr, tr.Evaluate())
			}
			if over, through := run(false), run(true); over != through {
				t.Errorf("through Xᵀ the run ends at %s; over X's rows, %s", through, over)
			}
		})
	}
}

// The homophily figures: a hand-counted graph's edge homophily and the
// share of given weights on its same-class edges; GCN, whose every edge
// weighs 1, learns exactly its input's; PDN, trained on the paper's
// default graph, puts more of its weight on same-class edges than the
// input has of them; an MLP has no learned structure.
func TestHomophily(t *testing.T) {
	g := &datasets.Graph{N: 4, C: 2, Labels: []int{0, 0, 1, 1}, Src: []int32{0, 1, 0}, Dst: []int32{1, 2, 3}}
	if h := homophily(g, nil); h != 1.0/3 {
		t.Errorf("input homophily %v, want 1/3 (one edge of three joins a class)", h)
	}
	if h := homophily(g, []float64{0.5, 0.25, 0.25}); h != 0.5 {
		t.Errorf("learned homophily %v, want 0.5", h)
	}
	if h := homophily(g, []float64{0, 0, 0}); !math.IsNaN(h) {
		t.Errorf("no weight at all: %v, want NaN", h)
	}
	for _, kind := range []string{experiment.GCN, experiment.PDN, experiment.MLP} {
		e := experiment.Default()
		e.Model.Kind = kind
		g, err := datasets.Synthetic(e.Data)
		if err != nil {
			t.Fatal(err)
		}
		tr := mustTrainer(t, g, e)
		runEpochs(t, tr, e.Train.Epochs)
		s := tr.Evaluate()
		switch {
		case math.IsNaN(s.InputHomophily) || s.InputHomophily <= 0 || s.InputHomophily >= 1:
			t.Errorf("%s: input homophily %v", kind, s.InputHomophily)
		case kind == experiment.GCN && s.LearnedHomophily != s.InputHomophily:
			t.Errorf("GCN learned %v, its input %v: every edge weighs 1", s.LearnedHomophily, s.InputHomophily)
		case kind == experiment.PDN && !(s.LearnedHomophily > s.InputHomophily+0.2):
			t.Errorf("PDN learned %v on an input of %v", s.LearnedHomophily, s.InputHomophily)
		case kind == experiment.MLP && !math.IsNaN(s.LearnedHomophily):
			t.Errorf("the MLP learned a structure of homophily %v", s.LearnedHomophily)
		}
	}
}
