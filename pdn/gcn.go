package pdn

import (
	"math/rand/v2"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
)

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
	learns := kind.edges != nil
	if kind.graph {
		m.norm = newGCNNorm(newAdjacency(g.N, g.Src, g.Dst))
	}
	switch {
	case learns:
		m.edges = kind.edges(g, cfg, rnd)
	case kind.graph:
		m.ones = ones(g.E())
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
	relu(m.a1, m.a1)
	m.in2 = m.drop.apply(m.d1, m.a1, training)
	m.l2.forward(m.logits, m.in2, g.N)
	return m.logits
}

func (m *gcnNet) backward(glogits []float64) {
	g := m.g
	m.l2.backward(m.gd1, m.in2, glogits, g.N)
	m.drop.backward(m.gd1, m.gd1)
	reluBackward(m.ga1, m.gd1, m.a1)
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
