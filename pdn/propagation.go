package pdn

import (
	"math/rand/v2"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
)

// fixedNorm returns Â for the graph with every edge weight 1; its w are
// those weights, which models over the fixed graph report as their own.
func fixedNorm(g *datasets.Graph) *gcnNorm {
	n := newGCNNorm(newAdjacency(g.N, g.Src, g.Dst))
	n.forward(ones(g.E()))
	return n
}

func ones(n int) []float64 {
	w := make([]float64, n)
	for i := range w {
		w[i] = 1
	}
	return w
}

// multiScale is the multi-scale PDN of §6.2: the learned graph is
// Ĝ = Σ_{i=1..K} P_i Â^i with P = softmax(α), applied without ever forming a
// power of Â (Algorithm 1): Z₀ = X W, Z_i = Â Z_{i−1}, Z = Σ P_i Z_i. Both
// layers of the GCN share P. K is the model's Hops.
type multiScale struct {
	g     *datasets.Graph
	rows  []int
	norm  *gcnNorm
	alpha *tensor
	p, gp []float64
	l1    *msLayer
	l2    *msLayer
	drop  *dropout

	a1, d1, ga1, gd1, logits []float64
	in2                      []float64 // what the second layer saw
}

// msLayer is one layer Z = Σ_i P_i Â^i (x Wᵀ) + b.
type msLayer struct {
	in, out int
	w, b    *tensor
	wt      []float64
	z       [][]float64 // Z₀ … Z_K
	gz      [][]float64
	sx      *datasets.CSR // the input, when it is the graph's sparse node features
	pc      *pacer
}

func newMSLayer(rnd *rand.Rand, n, in, out, k int) *msLayer {
	l := &msLayer{in: in, out: out, w: newTensor(in * out), b: newTensor(out), wt: make([]float64, in*out)}
	l.w.glorot(rnd, in, out)
	for range k + 1 {
		l.z = append(l.z, make([]float64, n*out))
		l.gz = append(l.gz, make([]float64, n*out))
	}
	return l
}

func (l *msLayer) forward(y, x []float64, n int, norm *gcnNorm, p []float64) {
	l.pc.xMulWT(l.z[0], x, l.sx, l.w.val, l.wt, n, l.in, l.out)
	clear(y[:n*l.out])
	for i := 1; i <= len(p); i++ {
		norm.propagate(l.z[i], l.z[i-1], l.out)
		for j, v := range l.z[i] {
			y[j] += float64(p[i-1] * v)
		}
	}
	addRows(y, l.b.val, n, l.out)
}

// backward adds to gp the gradient of P, ⟨dy, Z_i⟩, and walks dy back
// through the powers: dZ_K = P_K dy, dZ_{i−1} = Â dZ_i (+ P_{i−1} dy).
func (l *msLayer) backward(dx, x, dy []float64, n int, norm *gcnNorm, p, gp []float64) {
	sumRowsAdd(l.b.grad, dy, n, l.out)
	k := len(p)
	for i := 1; i <= k; i++ {
		gp[i-1] += dot(dy[:n*l.out], l.z[i])
	}
	clear(l.gz[k])
	for i := k; i >= 1; i-- {
		gi := l.gz[i]
		for j, v := range dy[:n*l.out] {
			gi[j] += float64(p[i-1] * v)
		}
		norm.propagate(l.gz[i-1], gi, l.out) // Â is symmetric
	}
	l.pc.addGTX(l.w.grad, l.gz[0], x, l.sx, l.wt, n, l.out, l.in)
	if dx != nil {
		transpose(l.wt, l.w.val, l.out, l.in)
		l.pc.mulABT(dx, l.gz[0], l.wt, n, l.out, l.in)
	}
}

func newMultiScale(g *datasets.Graph, cfg experiment.Model, rnd *rand.Rand) *multiScale {
	h, n, k := cfg.Hidden, g.N, max(cfg.Hops, 1)
	m := &multiScale{g: g, rows: g.Nodes(datasets.Train), norm: fixedNorm(g), alpha: newTensor(k),
		p: make([]float64, k), gp: make([]float64, k),
		l1: newMSLayer(rnd, n, g.F, h, k), l2: newMSLayer(rnd, n, h, g.C, k), drop: newDropout(cfg.Dropout, n*h),
		a1: make([]float64, n*h), d1: make([]float64, n*h), ga1: make([]float64, n*h), gd1: make([]float64, n*h),
		logits: make([]float64, n*g.C)}
	m.l1.sx = g.XS
	return m
}

func (m *multiScale) params() []*tensor {
	return []*tensor{m.alpha, m.l1.w, m.l1.b, m.l2.w, m.l2.b}
}
func (m *multiScale) reseed(seed uint64)             { m.drop.reseed(seed) }
func (m *multiScale) setPacer(pc *pacer)             { m.norm.pc, m.l1.pc, m.l2.pc = pc, pc, pc }
func (m *multiScale) lossRows() (rows, labels []int) { return m.rows, m.g.Labels }
func (m *multiScale) edgeWeights() []float64         { return m.norm.w }

// hopWeights returns P, the weight of each power of Â.
func (m *multiScale) hopWeights() []float64 {
	softmax(m.p, m.alpha.val)
	return append([]float64(nil), m.p...)
}

func (m *multiScale) forward(training bool) []float64 {
	g := m.g
	softmax(m.p, m.alpha.val)
	m.l1.forward(m.a1, g.X, g.N, m.norm, m.p)
	relu(m.a1, m.a1)
	m.in2 = m.drop.apply(m.d1, m.a1, training)
	m.l2.forward(m.logits, m.in2, g.N, m.norm, m.p)
	return m.logits
}

func (m *multiScale) backward(glogits []float64) {
	g := m.g
	clear(m.gp)
	m.l2.backward(m.gd1, m.in2, glogits, g.N, m.norm, m.p, m.gp)
	m.drop.backward(m.gd1, m.gd1)
	reluBackward(m.ga1, m.gd1, m.a1)
	m.l1.backward(nil, g.X, m.ga1, g.N, m.norm, m.p, m.gp)
	softmaxBackward(m.alpha.grad, m.p, m.gp)
}

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
	norm := fixedNorm(g)
	// Â²X is dense whatever X is.
	x := append([]float64(nil), g.DenseX()...)
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
	m := &appnp{g: g, rows: g.Nodes(datasets.Train), norm: fixedNorm(g),
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
	relu(m.a1, m.a1)
	m.in2 = m.drop.apply(m.d1, m.a1, training)
	m.l2.forward(m.h, m.in2, g.N)
	copy(m.z[0], m.h)
	for k := 1; k <= APPNPSteps; k++ {
		m.norm.propagate(m.z[k], m.z[k-1], g.C)
		blend(m.z[k], m.z[k], m.h, 1-APPNPTeleport, APPNPTeleport)
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
		blend(m.gh, m.gh, m.gz, 1, APPNPTeleport) // 1·gh is gh
		m.norm.propagate(m.gz2, m.gz, g.C)
		scale(m.gz, m.gz2, 1-APPNPTeleport)
	}
	addTo(m.gh, m.gz)
	m.l2.backward(m.gd1, m.in2, m.gh, g.N)
	m.drop.backward(m.gd1, m.gd1)
	reluBackward(m.ga1, m.gd1, m.a1)
	m.l1.backward(nil, g.X, m.ga1, g.N)
}
