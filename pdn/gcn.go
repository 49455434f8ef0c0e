package pdn

import (
	"fmt"
	"math/rand/v2"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/pdn/internal/kernels"
)

func init() {
	register(experiment.GCN, model{build: buildGCNNet, cost: gcnNetCost})
	register(experiment.MLP, model{build: buildGCNNet, cost: gcnNetCost})
}

var _ named = (*gcnNet)(nil)

// buildGCNNet builds the gcnNet of m on g (PDN and its variants, GCN and
// the MLP), its loss on the training nodes.
func buildGCNNet(g *datasets.Graph, m experiment.Model, rnd *rand.Rand, _ uint64) network {
	return newGCNNet(g, g.Nodes(datasets.Train), m, rnd, nil)
}

// edgeModel learns one weight per edge: the pathfinder layer and its
// variants.
type edgeModel interface {
	params() []*tensor
	forward() []float64 // the weights, one per edge
	backward(gw []float64)
	setPacer(pc *pacer)
}

// gcnNet is a two-layer network over a graph:
//
//	PDN: w = edge model (MLP, linear softmax or EdgeConv),  Â = norm(w)
//	GCN: w = 1,  Â = norm(1)
//	     logits = Â·drop(ReLU(Â·X·W₁ᵀ + b₁))·W₂ᵀ + b₂
//	MLP: logits = drop(ReLU(X·W₁ᵀ + b₁))·W₂ᵀ + b₂
type gcnNet struct {
	cfg    experiment.Model
	g      *datasets.Graph
	rows   []int // the loss's rows
	edges  edgeModel
	norm   *gcnNorm
	ones   []float64
	l1, l2 *conv
	drop   *dropout
	ps     []*tensor

	a1, d1, logits []float64
	in2            []float64 // what the second layer saw: a1, or a1 after dropout
	ga1, gd1       []float64
	gw             []float64
	edgeDrop       *dropout  // DropEdge: a mask over the edges' weights
	wd             []float64 // the weights after DropEdge
	// evaluated says the buffers hold an evaluation under the weights the
	// next training step starts from (reuseEvaluation).
	evaluated bool
}

// reuseEvaluation tells the network that an evaluation ran under its
// current weights: the next training pass takes from it what does not
// depend on dropout, the first layer's X·W₁ᵀ and the pathfinder's edge
// weights, instead of computing them again. They are the same bits; the
// weights of the edges DropEdge drops enter the step only multiplied by a
// mask of zero.
func (m *gcnNet) reuseEvaluation() {
	m.evaluated = m.norm != nil
}

// newGCNNet builds the network on g. shared, if not nil, holds the two
// layers' weights to use instead of new ones (ClusterGCN's subgraphs).
func newGCNNet(g *datasets.Graph, rows []int, cfg experiment.Model, rnd *rand.Rand, shared *gcnNet) *gcnNet {
	m := &gcnNet{cfg: cfg, g: g, rows: rows}
	kind := models[cfg.Kind]
	learns, graph := kind.edges != nil, experiment.UsesGraph(cfg.Kind)
	if graph {
		m.norm = newGCNNorm(newAdjacency(g.N, g.Src, g.Dst))
		m.norm.meanLoop = meanLoop(cfg)
	}
	switch {
	case learns:
		m.edges = kind.edges(g, cfg, rnd)
	case graph:
		m.ones = fixedWeights(g)
	}
	if m.edges != nil {
		m.ps = append(m.ps, m.edges.params()...)
		m.gw = make([]float64, g.E())
	}
	h, n := cfg.Hidden, g.N
	if shared != nil {
		m.l1 = shared.l1.withGraph(n, m.norm)
		m.l2 = shared.l2.withGraph(n, m.norm)
	} else {
		m.l1 = newConv(rnd, n, g.F, h, m.norm, learns)
		m.l2 = newConv(rnd, n, h, g.C, m.norm, learns)
	}
	m.l1.sx = g.XS
	m.ps = append(m.ps, m.l1.params()...)
	m.ps = append(m.ps, m.l2.params()...)
	m.a1, m.d1 = make([]float64, n*h), make([]float64, n*h)
	m.ga1, m.gd1 = make([]float64, n*h), make([]float64, n*h)
	m.logits = make([]float64, n*g.C)
	m.drop = newDropout(cfg.Dropout, n*h)
	// DropEdge regularises the pathfinder, so only models that learn their
	// edges use it; the baselines keep the paper's settings.
	if cfg.EdgeDrop > 0 && learns {
		m.edgeDrop, m.wd = newDropout(cfg.EdgeDrop, g.E()), make([]float64, g.E())
	}
	return m
}

func (m *gcnNet) params() []*tensor { return m.ps }
func (m *gcnNet) setPacer(pc *pacer) {
	m.l1.pc, m.l2.pc = pc, pc
	if m.norm != nil {
		m.norm.pc = pc
	}
	if m.edges != nil {
		m.edges.setPacer(pc)
	}
}
func (m *gcnNet) reseed(seed uint64) {
	m.drop.reseed(seed)
	if m.edgeDrop != nil {
		m.edgeDrop.reseed(seed ^ 0xed9e)
	}
}
func (m *gcnNet) lossRows() (rows, labels []int) { return m.rows, m.g.Labels }

// edgeWeights returns the weights of the last forward pass.
func (m *gcnNet) edgeWeights() []float64 {
	if m.norm == nil {
		return nil
	}
	return m.norm.w
}

func (m *gcnNet) forward(training bool) []float64 {
	g := m.g
	reuse := m.evaluated && training
	m.evaluated = false
	_, isPathfinder := m.edges.(*pathfinder)
	reuseEdges := reuse && isPathfinder
	switch {
	case m.norm == nil:
	case reuseEdges && m.edgeDrop == nil:
		m.norm.forward(m.norm.w)
	case m.edgeDrop != nil:
		// DropEdge zeroes a random share of the edges and scales the rest,
		// as dropout does units; evaluation sees every edge as it is. The
		// pathfinder, told the mask first, skips the edges it drops.
		if pf, ok := m.edges.(*pathfinder); ok && training && m.edgeDrop.p > 0 {
			m.edgeDrop.draw(len(m.wd))
			w := pf.w
			if !reuseEdges {
				w = pf.forwardKept(m.edgeDrop.mask)
			}
			m.norm.forward(m.edgeDrop.applyDrawn(m.wd, w))
			break
		}
		w := m.ones
		if m.edges != nil {
			w = m.edges.forward()
		}
		m.norm.forward(m.edgeDrop.apply(m.wd, w, training))
	case m.edges != nil:
		m.norm.forward(m.edges.forward())
	case m.norm.w == nil:
		m.norm.forward(m.ones) // fixed: compute once
	}
	if reuse {
		m.l1.forwardFrom(m.a1, g.N) // X·W₁ᵀ as the evaluation left it
	} else {
		m.l1.forward(m.a1, g.X, g.N)
	}
	kernels.Relu(m.a1, m.a1)
	m.in2 = m.drop.apply(m.d1, m.a1, training)
	m.l2.forward(m.logits, m.in2, g.N)
	return m.logits
}

func (m *gcnNet) backward(glogits []float64) {
	g := m.g
	m.l2.backward(m.gd1, m.in2, glogits, g.N)
	m.drop.backward(m.gd1, m.gd1)
	kernels.ReluBackward(m.ga1, m.gd1, m.a1)
	m.l1.backward(nil, g.X, m.ga1, g.N)
	if m.edges != nil {
		m.norm.backward(m.gw)
		if m.edgeDrop != nil {
			m.edgeDrop.backward(m.gw, m.gw)
		}
		m.edges.backward(m.gw)
	}
}

// inputWeights passes on the linear pathfinder's attention over its
// inputs; nil for other edge models.
func (m *gcnNet) inputWeights() []float64 {
	if a, ok := m.edges.(inputsAttention); ok {
		return a.inputWeights()
	}
	return nil
}

func (m *gcnNet) streams() []*rand.PCG {
	s := []*rand.PCG{m.drop.rnd}
	if m.edgeDrop != nil {
		s = append(s, m.edgeDrop.rnd)
	}
	return s
}

func (m *gcnNet) named() []Parameter {
	var out []Parameter
	switch e := m.edges.(type) {
	case *pathfinder:
		for i, l := range e.layers { // Linear, ReLU, Linear, …: the linear layers are every other module
			out = append(out, linearParams(fmt.Sprintf("pathfinder.%d", 2*i), l)...)
		}
	case *linearPathfinder:
		out = append(out, param("pathfinder.beta", e.beta, len(e.beta.val)))
	}
	if m.norm == nil { // the MLP
		return append(out,
			param("lin1.weight", m.l1.w, m.l1.out, m.l1.in), param("lin1.bias", m.l1.b, m.l1.out),
			param("lin2.weight", m.l2.w, m.l2.out, m.l2.in), param("lin2.bias", m.l2.b, m.l2.out))
	}
	return append(out,
		param("conv1.lin.weight", m.l1.w, m.l1.out, m.l1.in), param("conv1.bias", m.l1.b, m.l1.out),
		param("conv2.lin.weight", m.l2.w, m.l2.out, m.l2.in), param("conv2.bias", m.l2.b, m.l2.out))
}

// gcnNetCost is gcnNet: an edge model (PDN and its variants), two
// convolutions, and the buffers between them.
func gcnNetCost(s Shape, m experiment.Model) []Part {
	n, e := float64(s.N), float64(s.E)
	h, c := float64(m.Hidden), float64(s.C)
	kind := models[m.Kind]
	learn, graph := kind.edges != nil, experiment.UsesGraph(m.Kind)
	ge := e
	if !graph {
		ge = -1
	}
	e1, b1, w1, t1 := convCost(n, ge, float64(s.F), h, s.features(1, h), false, learn)
	e2, b2, w2, t2 := convCost(n, ge, h, c, Work{Dense: n * h}, true, learn)
	parts := []Part{
		{What: phrase.New("the first layer over the node features"), EpochWork: e1, Bytes: b1 + f64*6*n*h + s.sparseTransposeBytes(s.inputs()), Weights: w1, Scratch: t1, Fields: []string{"hidden", "node-features", "nodes", "edges"}},
		{What: phrase.New("the second layer"), EpochWork: e2, Bytes: b2 + f64*3*n*c, Weights: w2, Scratch: t2, Fields: []string{"hidden", "nodes", "edges"}},
	}
	if graph {
		// Â: the adjacency both ways (int32), degrees, coefficients and
		// their gradients, the edge weights, DropEdge's mask.
		parts = append(parts, Part{What: phrase.New("the normalised adjacency"), EpochWork: Work{Gather: 8 * (n + e)},
			Bytes: 4*(n+4*e) + f64*(5*n+6*e), Fields: []string{"edges", "nodes"}})
	}
	if kind.edgesCost != nil {
		parts = append(parts, kind.edgesCost(s, m))
	}
	return parts
}
