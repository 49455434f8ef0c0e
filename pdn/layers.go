package pdn

import (
	"math"
	"math/rand/v2"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/internal/fmath"
)

// tensor is one trainable array and its gradient.
type tensor struct {
	val, grad []float64
}

func newTensor(n int) *tensor {
	return &tensor{val: make([]float64, n), grad: make([]float64, n)}
}

// glorot fills t with U(-a, a), a = √(6/(fanIn+fanOut)) (Glorot & Bengio),
// the initialisation of PyG's GCNConv weights.
func (t *tensor) glorot(rnd *rand.Rand, fanIn, fanOut int) {
	t.uniform(rnd, math.Sqrt(6/float64(fanIn+fanOut)))
}

// uniform fills t with U(-a, a). With a = 1/√fanIn it is torch.nn.Linear's
// default for both weight and bias.
func (t *tensor) uniform(rnd *rand.Rand, a float64) {
	for i := range t.val {
		t.val[i] = a * (2*rnd.Float64() - 1)
	}
}

// dense is the affine map y = x·Wᵀ + b of x (rows×in), with W (out×in)
// stored as torch.nn.Linear stores it, and b (out).
type dense struct {
	in, out int
	w, b    *tensor
	wt      []float64     // Wᵀ, scratch for the input gradient
	sx      *datasets.CSR // the input, when it is the graph's sparse node features
	pc      *pacer
}

// newLinear makes a dense layer initialised as torch.nn.Linear.
func newLinear(rnd *rand.Rand, in, out int) *dense {
	l := &dense{in: in, out: out, w: newTensor(in * out), b: newTensor(out), wt: make([]float64, in*out)}
	a := 1 / math.Sqrt(float64(in))
	l.w.uniform(rnd, a)
	l.b.uniform(rnd, a)
	return l
}

func (l *dense) params() []*tensor { return []*tensor{l.w, l.b} }

func (l *dense) forward(y, x []float64, rows int) {
	l.pc.affineForward(y, x, l.sx, l.w.val, l.wt, l.b.val, rows, l.in, l.out)
}

// backward adds dyᵀ·x to ∂W and Σdy to ∂b, and sets dx = dy·W unless dx is
// nil (the layer's input is data).
func (l *dense) backward(dx, x, dy []float64, rows int) {
	l.pc.affineBackward(dx, x, l.sx, dy, l.w, l.b, l.wt, rows, l.in, l.out)
}

// pathfinder is the pathfinder layer of §3.1 as in the official code: an MLP
// applied to each edge's D features,
//
//	h⁰ = z_e,  hˡ = ReLU(hˡ⁻¹Wˡ + bˡ),  w_e = σ(hᴸ⁻¹Wᴸ + bᴸ),
//
// once per undirected edge; both GCN layers then share w.
type pathfinder struct {
	rows   int
	layers []*dense
	acts   [][]float64 // acts[0] is the input; acts[l] the output of layer l (the last before σ)
	grads  [][]float64 // gradient with respect to acts[l], l ≥ 1
	w      []float64   // σ of the last activation: the learned edge weights
}

// aliveBias is the initial hidden bias of experiment.InitAlive: with inputs
// and weights of order 1, a unit whose bias starts at +0.5 is active on
// some input, so it cannot start dead everywhere and never learn.
const aliveBias = 0.5

func newPathfinder(rnd *rand.Rand, z []float64, rows, d int, hidden []int, init string) *pathfinder {
	p := &pathfinder{rows: rows, acts: [][]float64{z}, grads: [][]float64{nil}, w: make([]float64, rows)}
	in := d
	for li, h := range append(append([]int(nil), hidden...), 1) {
		l := newLinear(rnd, in, h)
		if init == experiment.InitAlive && li < len(hidden) {
			for i := range l.b.val {
				l.b.val[i] = aliveBias
			}
		}
		p.layers = append(p.layers, l)
		p.acts = append(p.acts, make([]float64, rows*h))
		p.grads = append(p.grads, make([]float64, rows*h))
		in = h
	}
	return p
}

func (p *pathfinder) setPacer(pc *pacer) {
	for _, l := range p.layers {
		l.pc = pc
	}
}

func (p *pathfinder) params() []*tensor {
	var out []*tensor
	for _, l := range p.layers {
		out = append(out, l.params()...)
	}
	return out
}

// forwardKept computes p.w as forward does, for the edges whose keep is
// not zero: DropEdge's mask, drawn before. The weights of the others are
// left as they were (DropEdge multiplies them by 0, and their gradient is
// 0), which spares a fifth of the pathfinder's work at the default rate;
// every weight computed is the same bits as forward's.
func (p *pathfinder) forwardKept(keep []float64) []float64 {
	if simdPathfinder1(p) {
		return p.forwardFused(keep)
	}
	last := len(p.layers)
	for l, layer := range p.layers {
		y := p.acts[l+1]
		layer.pc.mulABTKept(y, p.acts[l], layer.w.val, layer.b.val, keep, p.rows, layer.in, layer.out)
		if l+1 < last {
			relu(y, y)
		}
	}
	keep = keep[:len(p.w)]
	if simd128 {
		simdSigmoidKept(p.w, p.acts[last], keep)
		return p.w
	}
	for e, s := range p.acts[last] {
		if keep[e] != 0 {
			p.w[e] = fmath.Sigmoid(s)
		}
	}
	return p.w
}

// forwardFused is forwardKept (forward for a nil keep) in one pass over
// the edges, by the WebAssembly kernels: the same bits.
func (p *pathfinder) forwardFused(keep []float64) []float64 {
	pc := p.layers[0].pc
	per := float64((p.layers[0].in + 1) * p.layers[0].out)
	for lo := 0; lo < p.rows; {
		hi := pc.blockEnd(lo, p.rows, per)
		simdPathfinderForward(p, keep, lo, hi)
		pc.tick(float64(hi-lo) * per)
		lo = hi
	}
	return p.w
}

// forward computes the edge weights p.w.
func (p *pathfinder) forward() []float64 {
	if simdPathfinder1(p) {
		return p.forwardFused(nil)
	}
	last := len(p.layers)
	for l, layer := range p.layers {
		y := p.acts[l+1]
		layer.forward(y, p.acts[l], p.rows)
		if l+1 < last {
			relu(y, y)
		}
	}
	if simd128 {
		simdSigmoidKept(p.w, p.acts[last], nil)
		return p.w
	}
	for e, s := range p.acts[last] {
		p.w[e] = fmath.Sigmoid(s)
	}
	return p.w
}

// backward takes ∂L/∂w and accumulates the layers' gradients.
func (p *pathfinder) backward(gw []float64) {
	if simdPathfinder1(p) {
		pc := p.layers[0].pc
		per := float64(2 * (p.layers[0].in + 2) * p.layers[0].out)
		for lo := 0; lo < p.rows; {
			hi := pc.blockEnd(lo, p.rows, per)
			simdPathfinderBackward(p, gw, lo, hi)
			pc.tick(float64(hi-lo) * per)
			lo = hi
		}
		return
	}
	last := len(p.layers)
	g := p.grads[last]
	for e, w := range p.w {
		g[e] = float64(gw[e]*w) * (1 - w)
	}
	for l := last - 1; l >= 0; l-- {
		var dx []float64
		if l > 0 {
			dx = p.grads[l]
		}
		p.layers[l].backward(dx, p.acts[l], p.grads[l+1], p.rows)
		if dx != nil {
			reluBackward(dx, dx, p.acts[l])
		}
	}
}

// conv is one graph convolution y = Â·(x·Wᵀ) + b (Kipf & Welling, with
// PyG's order: transform, propagate, then add the bias), or, without a
// graph, the dense layer y = x·Wᵀ + b. W is out×in.
type conv struct {
	in, out int
	w, b    *tensor
	wt      []float64
	norm    *gcnNorm // nil: no graph
	learn   bool     // accumulate the gradient of Â (PDN)
	xw, gxw []float64
	sx      *datasets.CSR // the input, when it is the graph's sparse node features
	pc      *pacer
}

func newConv(rnd *rand.Rand, rows, in, out int, norm *gcnNorm, learn bool) *conv {
	c := &conv{in: in, out: out, w: newTensor(in * out), b: newTensor(out), wt: make([]float64, in*out), norm: norm, learn: learn}
	if norm == nil { // an MLP layer, initialised as torch.nn.Linear
		a := 1 / math.Sqrt(float64(in))
		c.w.uniform(rnd, a)
		c.b.uniform(rnd, a)
		return c
	}
	c.w.glorot(rnd, in, out) // PyG's GCNConv: Glorot weights, zero bias
	c.xw, c.gxw = make([]float64, rows*out), make([]float64, rows*out)
	return c
}

func (c *conv) params() []*tensor { return []*tensor{c.w, c.b} }

// withGraph returns a layer that shares c's weights but works on another
// graph of rows nodes (ClusterGCN trains one set of weights on subgraphs).
func (c *conv) withGraph(rows int, norm *gcnNorm) *conv {
	d := &conv{in: c.in, out: c.out, w: c.w, b: c.b, wt: make([]float64, len(c.wt)), norm: norm, learn: c.learn}
	if norm != nil {
		d.xw, d.gxw = make([]float64, rows*c.out), make([]float64, rows*c.out)
	}
	return d
}

func (c *conv) forward(y, x []float64, rows int) {
	if c.norm == nil {
		c.pc.affineForward(y, x, c.sx, c.w.val, c.wt, c.b.val, rows, c.in, c.out)
		return
	}
	c.pc.xMulWT(c.xw, x, c.sx, c.w.val, c.wt, rows, c.in, c.out)
	c.forwardFrom(y, rows)
}

// forwardFrom is forward from x·Wᵀ as the last forward pass left it in
// c.xw: for an input and weights that have not changed since.
func (c *conv) forwardFrom(y []float64, rows int) {
	c.norm.propagate(y, c.xw, c.out)
	addRows(y, c.b.val, rows, c.out)
}

// backward accumulates ∂W, ∂b (and ∂Â when learning edges) and sets
// dx = ∂L/∂x unless dx is nil. Â is symmetric, so ∂L/∂(xWᵀ) = Â·dy.
func (c *conv) backward(dx, x, dy []float64, rows int) {
	if c.norm == nil {
		c.pc.affineBackward(dx, x, c.sx, dy, c.w, c.b, c.wt, rows, c.in, c.out)
		return
	}
	sumRowsAdd(c.b.grad, dy, rows, c.out)
	if c.learn {
		c.norm.propagateAccumulate(c.gxw, dy, c.xw, c.out)
	} else {
		c.norm.propagate(c.gxw, dy, c.out)
	}
	c.pc.addGTX(c.w.grad, c.gxw, x, c.sx, c.wt, rows, c.out, c.in)
	if dx != nil {
		transpose(c.wt, c.w.val, c.out, c.in)
		c.pc.mulABT(dx, c.gxw, c.wt, rows, c.out, c.in)
	}
}

// logSoftmaxNLL returns the mean negative log-likelihood of the labels of
// the given rows of logits (n×c) and, if grad is not nil, sets grad to its
// gradient, (softmax − onehot)/|rows| on those rows and 0 elsewhere.
//
// Per row, with m its largest logit, s = Σ exp(z − m) summed in order and
// lse = m + log s, the loss is lse − z_label and the gradient exp(z − lse)
// scaled. The exponentials of a block of rows are taken together, in one
// flat slice, so that vectors take them (exps: fmath.Exp's bits); the sums
// and logs stay in each row's order, so the bits are those of a row at a
// time.
func logSoftmaxNLL(grad, logits []float64, c int, rows, labels []int) float64 {
	if grad != nil {
		clear(grad)
	}
	const span = 256
	var stack [span]float64
	var lse [span]float64
	t := stack[:]
	if c > span {
		t = make([]float64, c)
	}
	per := len(t) / c
	var loss float64
	inv := 1 / float64(len(rows))
	for b := 0; b < len(rows); b += per {
		block := rows[b:min(b+per, len(rows))]
		t := t[:len(block)*c]
		for r, i := range block {
			z := logits[i*c : (i+1)*c]
			m := z[0]
			for _, v := range z[1:] {
				m = max(m, v)
			}
			for j, v := range z {
				t[r*c+j] = v - m
			}
			lse[r] = m
		}
		exps(t, t)
		for r, i := range block {
			var s float64
			for _, e := range t[r*c : (r+1)*c] {
				s += e
			}
			lse[r] += fmath.Log(s)
			loss += lse[r] - logits[i*c+labels[i]]
		}
		if grad == nil {
			continue
		}
		for r, i := range block {
			for j, v := range logits[i*c : (i+1)*c] {
				t[r*c+j] = v - lse[r]
			}
		}
		exps(t, t)
		for r, i := range block {
			g := grad[i*c : (i+1)*c]
			for j, e := range t[r*c : (r+1)*c] {
				g[j] = e * inv
			}
			g[labels[i]] -= inv
		}
	}
	return loss * inv
}

// exps sets dst = fmath.Exp(src) elementwise, by vectors where they run.
func exps(dst, src []float64) {
	src = src[:len(dst)]
	for i := expsVec(dst, src); i < len(dst); i++ {
		dst[i] = fmath.Exp(src[i])
	}
}
