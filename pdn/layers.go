package pdn

import (
	"math"
	"math/rand/v2"

	"pdnexplorer/datasets"
	"pdnexplorer/internal/fmath"
	"pdnexplorer/pdn/internal/kernels"
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
	xt      transposed    // sx transposed, for W's gradient
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
	l.pc.affineForward(y, x, l.sx, l.w.val, l.wt, l.b.val, rows, l.in, l.out, false)
}

// forwardReLU is forward then ReLU(y), in one pass where the products allow.
func (l *dense) forwardReLU(y, x []float64, rows int) {
	l.pc.affineForward(y, x, l.sx, l.w.val, l.wt, l.b.val, rows, l.in, l.out, true)
}

// backward adds dyᵀ·x to ∂W and Σdy to ∂b, and sets dx = dy·W unless dx is
// nil (the layer's input is data).
func (l *dense) backward(dx, x, dy []float64, rows int) {
	l.pc.affineBackward(dx, x, l.sx, &l.xt, dy, l.w, l.b, l.wt, rows, l.in, l.out)
}

// backwardWeights is backward without Σdy, for a bias whose gradient was
// summed where dy was made (outputBackwardVec).
func (l *dense) backwardWeights(dx, x, dy []float64, rows int) {
	l.pc.affineBackward(dx, x, l.sx, &l.xt, dy, l.w, nil, l.wt, rows, l.in, l.out)
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
	xt      transposed    // sx transposed, for W's gradient
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
// It shares c's Wᵀ too: scratch, written before every read, and the
// layers on the subgraphs run one at a time, so ten batches hold one
// weight-sized copy, not eleven.
func (c *conv) withGraph(rows int, norm *gcnNorm) *conv {
	d := &conv{in: c.in, out: c.out, w: c.w, b: c.b, wt: c.wt, norm: norm, learn: c.learn}
	if norm != nil {
		d.xw, d.gxw = make([]float64, rows*c.out), make([]float64, rows*c.out)
	}
	return d
}

func (c *conv) forward(y, x []float64, rows int) {
	if c.norm == nil {
		c.pc.affineForward(y, x, c.sx, c.w.val, c.wt, c.b.val, rows, c.in, c.out, false)
		return
	}
	c.pc.xMulWT(c.xw, x, c.sx, c.w.val, c.wt, rows, c.in, c.out)
	c.forwardFrom(y, rows)
}

// forwardFrom is forward from x·Wᵀ as the last forward pass left it in
// c.xw: for an input and weights that have not changed since.
func (c *conv) forwardFrom(y []float64, rows int) {
	c.norm.propagate(y, c.xw, c.out)
	kernels.AddRows(y, c.b.val, rows, c.out)
}

// backward accumulates ∂W, ∂b (and ∂Â when learning edges) and sets
// dx = ∂L/∂x unless dx is nil. Â is symmetric, so ∂L/∂(xWᵀ) = Â·dy.
func (c *conv) backward(dx, x, dy []float64, rows int) {
	if c.norm == nil {
		c.pc.affineBackward(dx, x, c.sx, &c.xt, dy, c.w, c.b, c.wt, rows, c.in, c.out)
		return
	}
	kernels.SumRowsAdd(c.b.grad, dy, rows, c.out)
	if c.learn {
		c.norm.propagateAccumulate(c.gxw, dy, c.xw, c.out)
	} else {
		c.norm.propagate(c.gxw, dy, c.out)
	}
	c.pc.addGTX(c.w.grad, c.gxw, x, c.sx, &c.xt, c.wt, rows, c.out, c.in)
	if dx != nil {
		kernels.Transpose(c.wt, c.w.val, c.out, c.in)
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
	kernels.Exps(dst, src)
}
