package pdn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"pdnexplorer/experiment"
)

// dmgiRun trains DMGI on twoLayers(k) for epochs, its node features made
// to say the class faintly (a shift of 0.5 of one column, under noise of
// 1), and returns the trainer.
func dmgiRun(t *testing.T, k, epochs int) *Trainer {
	t.Helper()
	g := twoLayers(k, 7)
	for i := range g.N {
		g.X[i*g.F] += 0.5 * float64(g.Labels[i])
	}
	e := experiment.Default()
	e.Model.Kind, e.Model.Dropout = experiment.DMGI, 0.5
	e.Train.LR, e.Train.WeightDecay, e.Train.Seed = 0.01, 0.0001, 3
	tr := mustTrainer(t, g, e)
	runEpochs(t, tr, epochs)
	return tr
}

// On two cliques beside random pairs, DMGI's discriminator learns to tell
// the real patches from the corrupted ones (every layer's real patches
// score higher on the mean, its cross-entropy under the log 2 of a coin it
// starts at: 0.665 here, which the consensus term, unbounded below, lets
// wander), and the consensus embedding's regression, trained on half the
// nodes, labels the other half as the cliques are.
func TestDMGILearnsTheLayers(t *testing.T) {
	tr := dmgiRun(t, 20, 300)
	m := tr.net.(*dmgi)
	tr.step() // a training pass, to read its scores
	var bce float64
	for _, l := range m.layers {
		var pos, neg float64
		for i := range m.n {
			pos, neg = pos+l.pos[i], neg+l.negs[i]
			bce += softplus(-l.pos[i]) + softplus(l.negs[i])
		}
		if pos <= neg {
			t.Errorf("a layer's real patches score %.3f on the mean, its corrupted ones %.3f", pos/float64(m.n), neg/float64(m.n))
		}
	}
	bce /= float64(2 * m.n * len(m.layers))
	s := tr.Evaluate()
	t.Logf("cross-entropy %.3f a layer, test accuracy %.3f", bce, s.TestAcc)
	if bce >= math.Ln2 || s.TestAcc < 0.9 {
		t.Errorf("cross-entropy %.3f a layer (log 2 = 0.693 at chance), test accuracy %.3f: want under log 2 and 0.9 or more", bce, s.TestAcc)
	}
}

// The corruption is drawn from the weight seed: two runs of one seed are
// the same bits, another seed's are not, and Reset repeats the first run.
func TestDMGICorruptionFollowsTheSeed(t *testing.T) {
	run := func() *Trainer { return dmgiRun(t, 8, 5) }
	a, b := run(), run()
	sameBits(t, a.Evaluate().Prob, b.Evaluate().Prob)
	first := a.Evaluate().Prob
	a.Reset()
	runEpochs(t, a, 5)
	sameBits(t, a.Evaluate().Prob, first)
	m := a.net.(*dmgi)
	before := append([]int(nil), m.perm...)
	m.reseed(4)
	m.forward(true)
	moved := 0
	for i := range before {
		if m.perm[i] != before[i] {
			moved++
		}
	}
	if moved == 0 || math.IsNaN(m.auxLoss()) {
		t.Errorf("another seed draws the same permutation (%d of %d rows moved), or a loss of %v", moved, len(before), m.auxLoss())
	}
}

// DMGI's own terms alone, the infomax cross-entropies through the
// readout and the bilinear discriminator and the consensus regulariser,
// checked by finite differences apart from the labels' (whose gradient is
// held at zero): every parameter but the regression's.
func TestGradDMGIOwnTerms(t *testing.T) {
	g := forKind(experiment.DMGI, smallGraph(12, 24, 50, 5, 3, 3))
	net := newNetwork(g, experiment.Model{Kind: experiment.DMGI, Dropout: 0.5}, 5).(*dmgi)
	rnd := rand.New(rand.NewPCG(12, 12))
	for _, p := range net.params() {
		for i := range p.val {
			p.val[i] += 0.1 * rnd.NormFloat64()
		}
	}
	loss := func() float64 {
		net.reseed(3)
		net.forward(true)
		return net.auxLoss()
	}
	loss()
	net.backward(make([]float64, len(net.logits)))
	ps := net.params()
	for i, p := range ps[:len(ps)-2] {
		checkGrad(t, fmt.Sprintf("param%d", i), p.val, slices.Clone(p.grad), loss)
	}
}
