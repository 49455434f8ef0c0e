package pdn

import (
	"math/rand/v2"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/pdn/internal/kernels"
)

func init() {
	register(experiment.PDNMultiScale, model{cost: multiScaleCost,
		build: func(g *datasets.Graph, m experiment.Model, rnd *rand.Rand, _ uint64) network {
			return newMultiScale(g, m, rnd)
		}})
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
	xt      transposed    // sx transposed, for W's gradient
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
	kernels.AddRows(y, l.b.val, n, l.out)
}

// backward adds to gp the gradient of P, ⟨dy, Z_i⟩, and walks dy back
// through the powers: dZ_K = P_K dy, dZ_{i−1} = Â dZ_i (+ P_{i−1} dy).
func (l *msLayer) backward(dx, x, dy []float64, n int, norm *gcnNorm, p, gp []float64) {
	kernels.SumRowsAdd(l.b.grad, dy, n, l.out)
	k := len(p)
	for i := 1; i <= k; i++ {
		gp[i-1] += kernels.Dot(dy[:n*l.out], l.z[i])
	}
	clear(l.gz[k])
	for i := k; i >= 1; i-- {
		gi := l.gz[i]
		for j, v := range dy[:n*l.out] {
			gi[j] += float64(p[i-1] * v)
		}
		norm.propagate(l.gz[i-1], gi, l.out) // Â is symmetric
	}
	l.pc.addGTX(l.w.grad, l.gz[0], x, l.sx, &l.xt, l.wt, n, l.out, l.in)
	if dx != nil {
		kernels.Transpose(l.wt, l.w.val, l.out, l.in)
		l.pc.mulABT(dx, l.gz[0], l.wt, n, l.out, l.in)
	}
}

func newMultiScale(g *datasets.Graph, cfg experiment.Model, rnd *rand.Rand) *multiScale {
	h, n, k := cfg.Hidden, g.N, max(cfg.Hops, 1)
	m := &multiScale{g: g, rows: g.Nodes(datasets.Train), norm: fixedNorm(g, cfg), alpha: newTensor(k),
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
	kernels.Relu(m.a1, m.a1)
	m.in2 = m.drop.apply(m.d1, m.a1, training)
	m.l2.forward(m.logits, m.in2, g.N, m.norm, m.p)
	return m.logits
}

func (m *multiScale) backward(glogits []float64) {
	g := m.g
	clear(m.gp)
	m.l2.backward(m.gd1, m.in2, glogits, g.N, m.norm, m.p, m.gp)
	m.drop.backward(m.gd1, m.gd1)
	kernels.ReluBackward(m.ga1, m.gd1, m.a1)
	m.l1.backward(nil, g.X, m.ga1, g.N, m.norm, m.p, m.gp)
	softmaxBackward(m.alpha.grad, m.p, m.gp)
}

func (m *multiScale) streams() []*rand.PCG { return []*rand.PCG{m.drop.rnd} }

// multiScaleCost is the multi-scale PDN: two layers of K powers of Â.
func multiScaleCost(s Shape, m experiment.Model) []Part {
	n, e := float64(s.N), float64(s.E)
	h, c := float64(m.Hidden), float64(s.C)
	k := float64(max(m.Hops, 1))
	layer := func(xw Work, out float64, withDx bool) Work {
		w := xw.Times(2 * out).Plus(Work{Gather: 2 * k * (n + 2*e) * out, Dense: 3 * k * n * out})
		if withDx {
			w = w.Plus(xw.Times(out))
		}
		return w
	}
	w1, t1 := layerWeights(float64(s.F), h, 1)
	w2, t2 := layerWeights(h, c, 1)
	return []Part{
		{What: phrase.New("the first multi-scale layer"), EpochWork: layer(s.features(1, h), h, false), Bytes: f64*(2*(k+1)*n*h+4*n*h) + s.sparseTransposeBytes(s.inputs()), Weights: w1 + k, Scratch: t1,
			Fields: []string{"hidden", "node-features", "nodes", "edges"}},
		{What: phrase.New("the second multi-scale layer"), EpochWork: layer(Work{Dense: n * h}, c, true), Bytes: f64 * 2 * (k + 1) * n * c, Weights: w2, Scratch: t2,
			Fields: []string{"hidden", "nodes", "edges"}},
		{What: phrase.New("the normalised adjacency"), Bytes: 4*(n+4*e) + f64*(5*n+3*e), Fields: []string{"edges", "nodes"}},
	}
}
