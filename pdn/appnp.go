package pdn

import (
	"math/rand/v2"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/pdn/internal/kernels"
)

func init() {
	register(experiment.APPNP, model{cost: appnpCost,
		build: func(g *datasets.Graph, m experiment.Model, rnd *rand.Rand, _ uint64) network {
			return newAPPNP(g, m, rnd)
		}})
}

var _ named = (*appnp)(nil)

// appnp is APPNP (Klicpera et al.): an MLP's predictions H, then K = 10
// steps of personalised PageRank, Z ← (1−α) Â Z + α H with α = 0.2.
type appnp struct {
	g        *datasets.Graph
	rows     []int
	norm     *gcnNorm
	l1, l2   *dense
	drop     *dropout
	a1, d1   []float64
	ga1, gd1 []float64
	h, gh    []float64
	z        [][]float64 // Z⁰ … Z^K
	gz, gz2  []float64
	in2      []float64 // what the second layer saw
}

// APPNP's settings (Appendix A).
const (
	APPNPSteps    = 10
	APPNPTeleport = 0.2
)

func newAPPNP(g *datasets.Graph, cfg experiment.Model, rnd *rand.Rand) *appnp {
	n, h, c := g.N, cfg.Hidden, g.C
	m := &appnp{g: g, rows: g.Nodes(datasets.Train), norm: fixedNorm(g, cfg),
		l1: newLinear(rnd, g.F, h), l2: newLinear(rnd, h, c), drop: newDropout(cfg.Dropout, n*h),
		a1: make([]float64, n*h), d1: make([]float64, n*h), ga1: make([]float64, n*h), gd1: make([]float64, n*h),
		h: make([]float64, n*c), gh: make([]float64, n*c), gz: make([]float64, n*c), gz2: make([]float64, n*c)}
	for range APPNPSteps + 1 {
		m.z = append(m.z, make([]float64, n*c))
	}
	m.l1.sx = g.XS
	return m
}

func (m *appnp) params() []*tensor              { return append(m.l1.params(), m.l2.params()...) }
func (m *appnp) reseed(seed uint64)             { m.drop.reseed(seed) }
func (m *appnp) setPacer(pc *pacer)             { m.norm.pc, m.l1.pc, m.l2.pc = pc, pc, pc }
func (m *appnp) lossRows() (rows, labels []int) { return m.rows, m.g.Labels }
func (m *appnp) edgeWeights() []float64         { return m.norm.w }

func (m *appnp) forward(training bool) []float64 {
	g := m.g
	m.l1.forward(m.a1, g.X, g.N)
	kernels.Relu(m.a1, m.a1)
	m.in2 = m.drop.apply(m.d1, m.a1, training)
	m.l2.forward(m.h, m.in2, g.N)
	copy(m.z[0], m.h)
	for k := 1; k <= APPNPSteps; k++ {
		m.norm.propagate(m.z[k], m.z[k-1], g.C)
		kernels.Blend(m.z[k], m.z[k], m.h, 1-APPNPTeleport, APPNPTeleport)
	}
	return m.z[APPNPSteps]
}

// backward walks the propagation back: with dZ^K given, each step adds
// α dZ^k to dH and passes (1−α) Â dZ^k to dZ^{k−1}; dZ⁰ adds to dH.
func (m *appnp) backward(glogits []float64) {
	g := m.g
	copy(m.gz, glogits)
	clear(m.gh)
	for k := APPNPSteps; k >= 1; k-- {
		kernels.Blend(m.gh, m.gh, m.gz, 1, APPNPTeleport) // 1·gh is gh
		m.norm.propagate(m.gz2, m.gz, g.C)
		kernels.Scale(m.gz, m.gz2, 1-APPNPTeleport)
	}
	kernels.AddTo(m.gh, m.gz)
	m.l2.backward(m.gd1, m.in2, m.gh, g.N)
	m.drop.backward(m.gd1, m.gd1)
	kernels.ReluBackward(m.ga1, m.gd1, m.a1)
	m.l1.backward(nil, g.X, m.ga1, g.N)
}

func (m *appnp) streams() []*rand.PCG { return []*rand.PCG{m.drop.rnd} }

func (m *appnp) named() []Parameter {
	return append(linearParams("lin1", m.l1), linearParams("lin2", m.l2)...)
}

// appnpCost is APPNP: an MLP, then the propagation's steps.
func appnpCost(s Shape, m experiment.Model) []Part {
	n, e := float64(s.N), float64(s.E)
	h, c := float64(m.Hidden), float64(s.C)
	w1, t1 := layerWeights(float64(s.F), h, 1)
	w2, t2 := layerWeights(h, c, 1)
	return []Part{
		{What: phrase.New("the MLP over the node features"), EpochWork: s.features(2*h, h).Plus(Work{Dense: 3 * n * h * c}), Bytes: f64*(6*n*h+3*n*c) + s.sparseTransposeBytes(s.inputs()), Weights: w1 + w2, Scratch: t1 + t2,
			Fields: []string{"hidden", "node-features", "nodes"}},
		{What: phrase.New("the propagation"), EpochWork: Work{Gather: 2 * APPNPSteps * (n + 2*e) * c, Dense: 4 * APPNPSteps * n * c}, Bytes: f64 * (APPNPSteps + 4) * n * c,
			Fields: []string{"edges", "nodes"}},
		{What: phrase.New("the normalised adjacency"), Bytes: 4*(n+4*e) + f64*(5*n+3*e), Fields: []string{"edges", "nodes"}},
	}
}
