package pdn

import (
	"time"

	"pdnexplorer/datasets"
)

// embedder is a node embedding learned without labels (DeepWalk's, and
// Table 4's others): slow to make, so made in pieces, each prepare working
// until its deadline; the same bits however it is cut.
type embedder interface {
	prepare(deadline time.Time) bool // reports whether it is done
	preparing() float64              // the share done, in [0, 1]
	embedding() []float64            // N×dim, once done
	dim() int
}

// embedNet is an embedding and its downstream classifier (logReg), as the
// paper's Appendix D evaluates every node embedding: the embedding made
// once, from the weight seed, without the labels; then the classifier
// fitted on the training nodes' embeddings, an epoch a few of its steps.
type embedNet struct {
	g    *datasets.Graph
	emb  embedder
	clf  *logReg
	done bool
	ones []float64
}

func newEmbedNet(g *datasets.Graph, emb embedder) *embedNet {
	return &embedNet{g: g, emb: emb, clf: newLogReg(g.N, emb.dim(), g.C, g.Nodes(datasets.Train), g.Labels)}
}

// prepare makes the embedding until done or the deadline passes, and
// reports whether it is done.
func (m *embedNet) prepare(deadline time.Time) bool {
	if m.done {
		return true
	}
	if !m.emb.prepare(deadline) {
		return false
	}
	m.clf.setX(m.emb.embedding())
	m.done = true
	return true
}

func (m *embedNet) preparing() float64 { return m.emb.preparing() }

func (m *embedNet) params() []*tensor              { return m.clf.lin.params() }
func (m *embedNet) reseed(uint64)                  {}
func (m *embedNet) setPacer(pc *pacer)             { m.clf.lin.pc = pc }
func (m *embedNet) lossRows() (rows, labels []int) { return m.clf.rows, m.g.Labels }

// edgeWeights is 1 for every edge: an embedding weighs no edge.
func (m *embedNet) edgeWeights() []float64 {
	if m.ones == nil {
		m.ones = ones(m.g.E())
	}
	return m.ones
}

func (m *embedNet) forward(bool) []float64 {
	m.prepare(farFuture)
	return m.clf.forward()
}

// backward adds the mean loss's gradient to the classifier's, which its
// own steps (trainStep) do not read: the trainer's gradient checks do.
func (m *embedNet) backward(glogits []float64) {
	m.clf.lin.backward(nil, m.clf.x, glogits, m.g.N)
}

// trainStep is the classifier's steps of one epoch (selfStepper).
func (m *embedNet) trainStep() float64 {
	m.prepare(farFuture)
	return m.clf.trainStep()
}

// resetSteps returns the classifier to its start (selfStepper).
func (m *embedNet) resetSteps() { m.clf.reset() }
