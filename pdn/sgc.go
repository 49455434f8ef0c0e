package pdn

import (
	"math/rand/v2"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
)

func init() {
	register(experiment.SGC, model{cost: func(s Shape, _ experiment.Model) []Part { return sgcCost(s) },
		build: func(g *datasets.Graph, m experiment.Model, rnd *rand.Rand, _ uint64) network {
			return newSGC(g, m, rnd)
		}})
}

var _ named = (*sgc)(nil)

// sgc is the simplified graph convolution (Wu et al.): logits = Â^K X Wᵀ + b
// with K = 2, Â^K X computed once.
type sgc struct {
	g      *datasets.Graph
	rows   []int
	w      []float64 // every edge weighs 1
	x      []float64 // Â² X
	lin    *dense
	logits []float64
}

// SGCHops is SGConv's K (Appendix A: the 2nd order proximity).
const SGCHops = 2

func newSGC(g *datasets.Graph, cfg experiment.Model, rnd *rand.Rand) *sgc {
	norm := fixedNorm(g, cfg)
	// Â²X is dense whatever X is.
	x := g.OwnDenseX()
	tmp := make([]float64, len(x))
	for range SGCHops {
		norm.propagate(tmp, x, g.F)
		x, tmp = tmp, x
	}
	return &sgc{g: g, rows: g.Nodes(datasets.Train), w: norm.w, x: x, lin: newLinear(rnd, g.F, g.C), logits: make([]float64, g.N*g.C)}
}

func (m *sgc) params() []*tensor              { return m.lin.params() }
func (m *sgc) reseed(uint64)                  {}
func (m *sgc) setPacer(pc *pacer)             { m.lin.pc = pc }
func (m *sgc) lossRows() (rows, labels []int) { return m.rows, m.g.Labels }
func (m *sgc) edgeWeights() []float64         { return m.w }
func (m *sgc) backward(glogits []float64)     { m.lin.backward(nil, m.x, glogits, m.g.N) }
func (m *sgc) forward(training bool) []float64 {
	m.lin.forward(m.logits, m.x, m.g.N)
	return m.logits
}

func (m *sgc) named() []Parameter { return linearParams("conv.lin", m.lin) }

// sgcCost is SGC: Â²X once, then one linear layer.
func sgcCost(s Shape) []Part {
	n, e, f, c := float64(s.N), float64(s.E), float64(s.F), float64(s.C)
	return []Part{
		{What: phrase.New("the propagated features Â²X"), SetupWork: Work{Gather: SGCHops * (n + 2*e) * f}, Bytes: f64 * 2 * n * f,
			Fields: []string{"node-features", "edges", "nodes"}},
		{What: phrase.New("the linear layer"), EpochWork: Work{Dense: 2 * n * f * c}, Bytes: f64 * 3 * n * c, Weights: (f + 1) * c, Scratch: f * c, Fields: []string{"node-features", "nodes"}},
		{What: phrase.New("the normalised adjacency"), Bytes: 4*(n+4*e) + f64*(5*n+3*e), Fields: []string{"edges", "nodes"}},
	}
}
