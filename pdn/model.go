package pdn

import (
	"fmt"
	"math/rand/v2"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
)

// Streams of the weight seed.
const (
	streamInit = iota + 1
	streamDropout
)

// model is a two-layer network over a graph:
//
//	PDN: w = pathfinder(Z),  Â = norm(w)
//	GCN: w = 1,              Â = norm(1)
//	     logits = Â·drop(ReLU(Â·X·W₁ + b₁))·W₂ + b₂
//	MLP: logits = drop(ReLU(X·W₁ + b₁))·W₂ + b₂
//
// with dropout drop active only in training.
type model struct {
	cfg   experiment.Model
	g     *datasets.Graph
	train []int

	pf     *pathfinder // PDN only
	norm   *gcnNorm    // PDN and GCN
	ones   []float64   // GCN's fixed edge weights
	l1, l2 *conv
	params []*tensor

	// Activations and their gradients, n×hidden or n×classes.
	a1, d1, mask, logits []float64
	ga1, gd1, glogits    []float64
	gw                   []float64 // ∂L/∂w, PDN only
	dropRnd              *rand.Rand
}

func newModel(g *datasets.Graph, cfg experiment.Model, seed uint64) (*model, error) {
	if err := g.Check(); err != nil {
		return nil, err
	}
	if cfg.LearnsEdges() && g.D == 0 {
		return nil, fmt.Errorf("model pdn needs edge features, and the graph has none")
	}
	m := &model{cfg: cfg, g: g, train: g.Nodes(datasets.Train)}
	if len(m.train) == 0 {
		return nil, fmt.Errorf("the graph has no training nodes")
	}
	rnd := rand.New(rand.NewPCG(seed, streamInit))
	if cfg.UsesGraph() {
		m.norm = newGCNNorm(newAdjacency(g.N, g.Src, g.Dst))
	}
	if cfg.LearnsEdges() {
		m.pf = newPathfinder(rnd, g.EdgeX, g.E(), g.D, cfg.EdgeHidden)
		m.params = append(m.params, m.pf.params()...)
		m.gw = make([]float64, g.E())
	} else if cfg.UsesGraph() {
		m.ones = make([]float64, g.E())
		for i := range m.ones {
			m.ones[i] = 1
		}
	}
	h, n := cfg.Hidden, g.N
	m.l1 = newConv(rnd, n, g.F, h, m.norm, cfg.LearnsEdges())
	m.l2 = newConv(rnd, n, h, g.C, m.norm, cfg.LearnsEdges())
	m.params = append(m.params, m.l1.params()...)
	m.params = append(m.params, m.l2.params()...)
	m.a1, m.d1, m.mask = make([]float64, n*h), make([]float64, n*h), make([]float64, n*h)
	m.ga1, m.gd1 = make([]float64, n*h), make([]float64, n*h)
	m.logits, m.glogits = make([]float64, n*g.C), make([]float64, n*g.C)
	m.resetDropout(seed)
	return m, nil
}

func (m *model) resetDropout(seed uint64) {
	m.dropRnd = rand.New(rand.NewPCG(seed, streamDropout))
}

// weights returns the edge weights in use (nil for the MLP).
func (m *model) weights() []float64 {
	switch {
	case m.pf != nil:
		return m.pf.w
	case m.norm != nil:
		return m.ones
	}
	return nil
}

// forward computes the logits; with training set, it applies dropout.
func (m *model) forward(training bool) {
	g := m.g
	if m.pf != nil {
		m.norm.forward(m.pf.forward())
	} else if m.norm != nil && m.norm.w == nil {
		m.norm.forward(m.ones) // fixed: compute once
	}
	m.l1.forward(m.a1, g.X, g.N)
	relu(m.a1, m.a1)
	in := m.a1
	if training && m.cfg.Dropout > 0 {
		m.drawMask()
		mulInto(m.d1, m.a1, m.mask)
		in = m.d1
	}
	m.l2.forward(m.logits, in, g.N)
}

// drawMask draws inverted dropout: each unit is kept with probability
// 1−p and then scaled by 1/(1−p).
func (m *model) drawMask() {
	keep := 1 - m.cfg.Dropout
	thresh := uint64(keep * (1 << 32))
	scale := 1 / keep
	for i := 0; i < len(m.mask); i += 2 {
		r := m.dropRnd.Uint64()
		m.mask[i] = scale * below(r&0xffffffff, thresh)
		if i+1 < len(m.mask) {
			m.mask[i+1] = scale * below(r>>32, thresh)
		}
	}
}

// below returns 1 if x < t and 0 otherwise, for x, t < 2³³, without a
// branch: x − t wraps around, setting the top bit, exactly when x < t.
func below(x, t uint64) float64 {
	return float64((x - t) >> 63)
}

// lossAndBackward returns the training loss of the last forward pass and
// sets every parameter's gradient.
func (m *model) lossAndBackward() float64 {
	g := m.g
	for _, p := range m.params {
		clear(p.grad)
	}
	loss := logSoftmaxNLL(m.glogits, m.logits, g.C, m.train, g.Labels)
	in := m.a1
	dropped := m.cfg.Dropout > 0
	if dropped {
		in = m.d1
	}
	m.l2.backward(m.gd1, in, m.glogits, g.N)
	if dropped {
		mulInto(m.gd1, m.gd1, m.mask)
	}
	reluBackward(m.ga1, m.gd1, m.a1)
	m.l1.backward(nil, g.X, m.ga1, g.N)
	if m.pf != nil {
		m.norm.backward(m.gw)
		m.pf.backward(m.gw)
	}
	return loss
}
