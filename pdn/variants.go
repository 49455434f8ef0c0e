package pdn

import (
	"math"
	"math/rand/v2"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/fmath"
	"pdnexplorer/pdn/internal/kernels"
)

// softmax sets p = softmax(a).
func init() {
	register(experiment.PDNLinear, model{build: buildGCNNet, cost: gcnNetCost, edgesCost: linearPathfinderCost,
		edges: func(g *datasets.Graph, _ experiment.Model, rnd *rand.Rand) edgeModel {
			return newLinearPathfinder(rnd, g.EdgeX, g.E(), g.D)
		}})
	register(experiment.PDNEdgeConv, model{build: buildGCNNet, cost: gcnNetCost, edgesCost: edgeConvCost,
		edges: func(g *datasets.Graph, m experiment.Model, rnd *rand.Rand) edgeModel {
			return newEdgeConv(rnd, g, m.Hidden)
		}})
}

func softmax(p, a []float64) {
	m := math.Inf(-1)
	for _, v := range a {
		m = max(m, v)
	}
	var s float64
	for i, v := range a {
		p[i] = fmath.Exp(v - m)
		s += p[i]
	}
	for i := range p {
		p[i] /= s
	}
}

// softmaxBackward adds to ga the gradient through p = softmax(a), given
// gp = ∂L/∂p: ∂L/∂a_j = p_j (gp_j − Σ_i p_i gp_i).
func softmaxBackward(ga, p, gp []float64) {
	dotp := kernels.Dot(p, gp)
	for j := range ga {
		ga[j] += p[j] * (gp[j] - dotp)
	}
}

// linearPathfinder is the pathfinder neuron of §3.1 with attention over its
// inputs: β ∈ ℝ^D, p = softmax(β), w_e = σ(Σ_i p_i z_ei). Without a hidden
// layer or bias the weights p read directly as how much each input graph
// counts.
type linearPathfinder struct {
	z     []float64 // E×D
	rows  int
	beta  *tensor
	p, gp []float64
	s, w  []float64
	pc    *pacer
}

func newLinearPathfinder(rnd *rand.Rand, z []float64, rows, d int) *linearPathfinder {
	l := &linearPathfinder{z: z, rows: rows, beta: newTensor(d), p: make([]float64, d), gp: make([]float64, d),
		s: make([]float64, rows), w: make([]float64, rows)}
	l.beta.uniform(rnd, 0.1) // near-uniform attention to start
	return l
}

func (l *linearPathfinder) params() []*tensor  { return []*tensor{l.beta} }
func (l *linearPathfinder) setPacer(pc *pacer) { l.pc = pc }

func (l *linearPathfinder) forward() []float64 {
	softmax(l.p, l.beta.val)
	d := len(l.p)
	for e := 0; e < l.rows; e++ {
		l.s[e] = kernels.Dot(l.z[e*d:(e+1)*d], l.p)
		l.w[e] = fmath.Sigmoid(l.s[e])
	}
	l.pc.tick(float64(l.rows * (d + expUnit)))
	return l.w
}

func (l *linearPathfinder) backward(gw []float64) {
	d := len(l.p)
	clear(l.gp)
	for e, w := range l.w {
		ds := float64(gw[e]*w) * (1 - w)
		ze := l.z[e*d : (e+1)*d]
		for i, v := range ze {
			l.gp[i] += float64(ds * v)
		}
	}
	softmaxBackward(l.beta.grad, l.p, l.gp)
	l.pc.tick(float64(l.rows * d))
}

// inputWeights returns the attention over the inputs, softmax(β).
func (l *linearPathfinder) inputWeights() []float64 { return append([]float64(nil), l.p...) }

// edgeConv is the learned-similarity pathfinder of §6.1 on one input graph:
// node embeddings H = tanh(X W'ᵀ + b'), an edge score ŝ_e = σ(h_u·h_v)
// computed only on existing edges (never N×N), and a pathfinder neuron over
// two input graphs, the learned scores and the plain adjacency:
// w_e = σ(β₁ ŝ_e + β₂).
type edgeConv struct {
	g     *datasets.Graph
	emb   *dense
	beta  *tensor
	h, gh []float64 // N×k
	pre   []float64 // N×k, before tanh
	sc, w []float64 // E
}

func newEdgeConv(rnd *rand.Rand, g *datasets.Graph, k int) *edgeConv {
	c := &edgeConv{g: g, emb: newLinear(rnd, g.F, k), beta: newTensor(2),
		h: make([]float64, g.N*k), gh: make([]float64, g.N*k), pre: make([]float64, g.N*k),
		sc: make([]float64, g.E()), w: make([]float64, g.E())}
	c.beta.val[0] = 1
	c.emb.sx = g.XS
	return c
}

func (c *edgeConv) params() []*tensor  { return append(c.emb.params(), c.beta) }
func (c *edgeConv) setPacer(pc *pacer) { c.emb.pc = pc }

func (c *edgeConv) forward() []float64 {
	g, k := c.g, c.emb.out
	c.emb.forward(c.pre, g.X, g.N)
	for i, v := range c.pre {
		c.h[i] = fmath.Tanh(v)
	}
	b1, b2 := c.beta.val[0], c.beta.val[1]
	for e := range g.Src {
		u, v := int(g.Src[e]), int(g.Dst[e])
		c.sc[e] = fmath.Sigmoid(kernels.Dot(c.h[u*k:(u+1)*k], c.h[v*k:(v+1)*k]))
		c.w[e] = fmath.Sigmoid(float64(b1*c.sc[e]) + b2)
	}
	return c.w
}

func (c *edgeConv) backward(gw []float64) {
	g, k := c.g, c.emb.out
	clear(c.gh)
	b1 := c.beta.val[0]
	for e := range g.Src {
		u, v := int(g.Src[e]), int(g.Dst[e])
		dpre := float64(gw[e]*c.w[e]) * (1 - c.w[e])
		c.beta.grad[0] += float64(dpre * c.sc[e])
		c.beta.grad[1] += dpre
		dt := float64(float64(dpre*b1)*c.sc[e]) * (1 - c.sc[e])
		hu, hv := c.h[u*k:(u+1)*k], c.h[v*k:(v+1)*k]
		gu, gv := c.gh[u*k:(u+1)*k], c.gh[v*k:(v+1)*k]
		for j := range hu {
			gu[j] += float64(dt * hv[j])
			gv[j] += float64(dt * hu[j])
		}
	}
	for i, h := range c.h {
		c.gh[i] = float64(c.gh[i]*(1-h)) * (1 + h) // tanh' = 1 − h²
	}
	c.emb.backward(nil, g.X, c.gh, g.N)
}

// linearPathfinderCost is the linear PDN's one neuron.
func linearPathfinderCost(s Shape, _ experiment.Model) Part {
	e := float64(s.E)
	return Part{What: phrase.New("the linear pathfinder"), EpochWork: Work{Dense: 2 * e * float64(s.D), Exp: e}, Bytes: f64 * 2 * e, Weights: float64(s.D),
		Fields: []string{"edge-features", "edges"}}
}

// edgeConvCost is EdgeConv's node embeddings and their similarities.
func edgeConvCost(s Shape, m experiment.Model) Part {
	n, e, h := float64(s.N), float64(s.E), float64(m.Hidden)
	w, t := layerWeights(float64(s.F), h, 1)
	return Part{What: phrase.New("the EdgeConv embeddings"), EpochWork: s.features(2*h, h).Plus(Work{Gather: 3 * e * h, Exp: 2*e + n*h}),
		Bytes: f64*(3*n*h+2*e) + s.sparseTransposeBytes(s.inputs()), Weights: w + 2, Scratch: t, Fields: []string{"hidden", "node-features", "edges"}}
}
