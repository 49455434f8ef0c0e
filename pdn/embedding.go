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
	emb  embedder // nil when the memo had the embedding
	key  embeddingKey
	clf  *logReg
	done bool
	ones []float64
}

func newEmbedNet(g *datasets.Graph, emb embedder) *embedNet {
	return &embedNet{g: g, emb: emb, clf: newLogReg(g.N, emb.dim(), g.C, g.Nodes(datasets.Train), g.Labels)}
}

// embedNetOf is kind's embedNet on g from seed: the embedding the memo
// kept, when it has made the same one before, else one made by newEmb,
// kept once done. Every embedding's model row builds through it.
func embedNetOf[E embedder](kind string, g *datasets.Graph, seed uint64, newEmb func(*datasets.Graph, uint64) E) *embedNet {
	key := embeddings.keyOf(kind, g, seed)
	if x := embeddings.get(key); x != nil {
		m := &embedNet{g: g, key: key, clf: newLogReg(g.N, len(x)/max(g.N, 1), g.C, g.Nodes(datasets.Train), g.Labels)}
		m.clf.setX(x)
		m.done = true
		return m
	}
	m := newEmbedNet(g, newEmb(g, seed))
	m.key = key
	return m
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
	if m.key.kind != "" {
		embeddings.put(m.key, m.emb.embedding())
	}
	return true
}

func (m *embedNet) preparing() float64 {
	if m.done {
		return 1
	}
	return m.emb.preparing()
}

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
