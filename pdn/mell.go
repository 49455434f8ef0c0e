package pdn

import (
	"math/rand/v2"
	"time"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/fmath"
)

func init() {
	register(experiment.MELL, model{cost: func(s Shape, _ experiment.Model) []Part { return mellCost(s) },
		build: func(g *datasets.Graph, _ experiment.Model, _ *rand.Rand, seed uint64) network {
			return embedNetOf(experiment.MELL, g, seed, newMELL)
		}})
}

// MELL's settings, its authors' (their code's example run, main.py): 128
// dimensions (d), 4 negative pairs for each positive one (k), the
// regularisers' λ = 10 (the vectors' norms), β = 1 (a node's vectors
// apart from their mean over the layers) and γ = 1 (the layer vectors'
// norms), 500 steps of Adam at a rate of 0.075.
const (
	MELLDim       = 128
	MELLSteps     = 500
	mellNegatives = 4
	mellLambda    = 10
	mellBeta      = 1
	mellGamma     = 1
	mellRate      = 0.075
)

// streamMELL is the stream of the weight seed MELL draws its vectors and
// negative pairs from.
const streamMELL = 0x6d656c6c

// mellChunk is how many pairs a piece of the set-up takes between looks
// at the deadline.
const mellChunk = 8192

// mell is MELL (Matsuno and Murata, "MELL: Effective Embedding Method for
// Multiplex Networks", WWW 2018 companion), as its authors' code trains
// it. Every node i has, in every layer l, a head vector h_li and a tail
// vector t_li, and every layer a layer vector r_l, all of d = 128
// dimensions; an ordered pair (i, j) of layer l scores
//
//	s_lij = (h_li + r_l) · t_lj
//
// and the loss over the layers' edges (each taken both ways, the
// positives P) and pairs that are no edge of their layer (the negatives)
// is
//
//	Σ_P softplus(−s) + Σ_neg softplus(s) + (λ/N)(‖H‖² + ‖T‖²) + γ‖R‖²
//	  + β Σ_l Σ_i (‖h_li − h̄_i‖² + ‖t_li − t̄_i‖²),   h̄_i = (1/L) Σ_l h_li,
//
// the last term drawing a node's vectors in the layers together (MELL's
// sharing between layers, which lets a sparse layer borrow from the
// others). Each of the 500 steps takes every positive pair and k·|P|
// negatives drawn anew, uniformly among the ordered pairs (l, i, j), i ≠
// j, that are no edge of layer l (the authors draw them without
// replacement from the list of all non-edges; here each by rejection, with
// replacement), then one step of Adam on the whole (full batch) at a rate
// of 0.075 (the engine's Adam, torch's form of it: its ε stands beside
// √v̂ where TensorFlow's stands beside √v, a difference of 10⁻⁸). Every
// vector starts uniform in [−1, 1), as the authors'. A node's embedding is
// h_li + r_l of every layer, concatenated (L·128 columns: the layers'
// embeddings side by side, as §2 of the paper reads the multiplex
// methods), each column standardised as DeepWalk's are. An edge's weight
// in a layer is not read. Made in pieces of pairs: the same bits however
// it is cut.
type mell struct {
	n, layers int
	pos       [][3]int32 // (layer, head, tail) of every positive pair
	edge      map[uint64]bool
	h, t, r   *tensor // L×N×d, L×N×d, L×d
	opt       *adam
	rnd       *rand.Rand
	step      int // Adam's steps taken
	pair      int // pairs of this step taken
	emb       []float64
}

func newMELL(g *datasets.Graph, seed uint64) *mell {
	L, n, d := g.D, g.N, MELLDim
	m := &mell{n: n, layers: L, edge: map[uint64]bool{}, rnd: rand.New(rand.NewPCG(seed, streamMELL)),
		h: newTensor(L * n * d), t: newTensor(L * n * d), r: newTensor(L * d)}
	for l, lg := range layerGraphs(g) {
		for e := range lg.Src {
			u, v := lg.Src[e], lg.Dst[e]
			for _, p := range [][2]int32{{u, v}, {v, u}} {
				if k := m.key(l, p[0], p[1]); !m.edge[k] && p[0] != p[1] {
					m.edge[k] = true
					m.pos = append(m.pos, [3]int32{int32(l), p[0], p[1]})
				}
			}
		}
	}
	for _, p := range []*tensor{m.h, m.t, m.r} {
		for i := range p.val {
			p.val[i] = 2*m.rnd.Float64() - 1
		}
	}
	m.opt = newAdam([]*tensor{m.h, m.t, m.r}, mellRate, 0)
	return m
}

// key names the ordered pair (i, j) of layer l.
func (m *mell) key(l int, i, j int32) uint64 {
	return (uint64(l)*uint64(m.n)+uint64(i))*uint64(m.n) + uint64(j)
}

// pairs is how many pairs a step takes: the positives and their negatives.
func (m *mell) pairs() int { return len(m.pos) * (1 + mellNegatives) }

// negative draws an ordered pair that is no edge of its layer.
func (m *mell) negative() (l int, i, j int32) {
	for {
		l = m.rnd.IntN(m.layers)
		i = int32(m.rnd.IntN(m.n))
		j = int32(m.rnd.IntN(m.n - 1))
		if j >= i {
			j++
		}
		if !m.edge[m.key(l, i, j)] {
			return l, i, j
		}
	}
}

// prepare takes pairs and steps until done or the deadline passes, and
// reports whether the embedding is done.
func (m *mell) prepare(deadline time.Time) bool {
	for m.emb == nil {
		if m.n < 2 || m.layers == 0 {
			m.finish()
			break
		}
		m.take(mellChunk)
		if m.step == MELLSteps {
			m.finish()
			break
		}
		if time.Now().After(deadline) {
			return false
		}
	}
	return true
}

// take adds the gradients of up to k more pairs of this step, and takes
// the step once they are all in.
func (m *mell) take(k int) {
	if m.pair == 0 {
		for _, p := range []*tensor{m.h, m.t, m.r} {
			clear(p.grad)
		}
	}
	for ; k > 0 && m.pair < m.pairs(); k-- {
		if m.pair < len(m.pos) {
			p := m.pos[m.pair]
			m.pairGrad(int(p[0]), p[1], p[2], 1)
		} else {
			l, i, j := m.negative()
			m.pairGrad(l, i, j, 0)
		}
		m.pair++
	}
	if m.pair < m.pairs() {
		return
	}
	m.regularise()
	m.opt.step()
	m.step++
	m.pair = 0
}

// pairGrad adds the gradient of the pair (i, j) of layer l, labelled y
// (1 an edge, 0 not): softplus(−s) for an edge, softplus(s) for none, both
// σ(s) − y times ∂s.
func (m *mell) pairGrad(l int, i, j int32, y float64) {
	d := MELLDim
	hi, gh := m.row(m.h, l, i)
	tj, gt := m.row(m.t, l, j)
	r, gr := m.r.val[l*d:][:d], m.r.grad[l*d:][:d]
	var s float64
	for k := range d {
		s += float64((hi[k] + r[k]) * tj[k])
	}
	g := fmath.Sigmoid(s) - y
	for k := range d {
		gh[k] += float64(g * tj[k])
		gr[k] += float64(g * tj[k])
		gt[k] += float64(g * (hi[k] + r[k]))
	}
}

// row is node i's vector of layer l in p, and its gradient.
func (m *mell) row(p *tensor, l int, i int32) (val, grad []float64) {
	d := MELLDim
	at := (l*m.n + int(i)) * d
	return p.val[at:][:d], p.grad[at:][:d]
}

// regularise adds the regularisers' gradients: 2(λ/N)·h and 2(λ/N)·t,
// 2γ·r, and 2β(h_li − h̄_i), 2β(t_li − t̄_i) (the mean's own dependence
// on h_li sums to 0 over the layers).
func (m *mell) regularise() {
	d, L := MELLDim, m.layers
	norm := 2 * mellLambda / float64(m.n)
	mean := make([]float64, d)
	for _, p := range []*tensor{m.h, m.t} {
		for i := range int32(m.n) {
			clear(mean)
			for l := range L {
				v, _ := m.row(p, l, i)
				for k, x := range v {
					mean[k] += x
				}
			}
			for k := range mean {
				mean[k] /= float64(L)
			}
			for l := range L {
				v, g := m.row(p, l, i)
				for k, x := range v {
					g[k] += float64(norm*x) + float64(2*mellBeta*(x-mean[k]))
				}
			}
		}
	}
	for k, x := range m.r.val {
		m.r.grad[k] += float64(2 * mellGamma * x)
	}
}

// finish makes the embedding: h_li + r_l of every layer l, side by side,
// each column standardised.
func (m *mell) finish() {
	d, w := MELLDim, m.dim()
	m.emb = make([]float64, m.n*w)
	for i := range int32(m.n) {
		for l := range m.layers {
			h, _ := m.row(m.h, l, i)
			for k := range d {
				m.emb[int(i)*w+l*d+k] = h[k] + m.r.val[l*d+k]
			}
		}
	}
	standardise(m.emb, m.n, w)
	m.h, m.t, m.r, m.opt, m.pos, m.edge = nil, nil, nil, nil, nil, nil
}

// preparing returns the share of the steps taken.
func (m *mell) preparing() float64 {
	if m.emb != nil {
		return 1
	}
	return (float64(m.step) + float64(m.pair)/float64(max(m.pairs(), 1))) / MELLSteps
}

func (m *mell) embedding() []float64 { return m.emb }
func (m *mell) dim() int             { return m.layers * MELLDim }

// mellCost is MELL's steps, then its regression. A step takes every
// layer's edges both ways and four negatives for each, 48 units a pair
// and dimension (the score and three gradients are 8 products, in scalar
// float64 loops about six times slower a product than DeepWalk's vector
// kernels, whose units these are: the multiplex graph's set-up, about 70
// s of processor under load, is estimated at 36), and Adam's and the
// regularisers' pass over the vectors; each layer's edges are its own
// (Shape.layerEdges: an edge in five layers is five of its pairs), where
// the union's count missed layers that share their edges.
func mellCost(s Shape) []Part {
	n, L, d := float64(s.N), float64(max(s.D, 1)), float64(MELLDim)
	pairs := 2 * s.layerEdges() * (1 + mellNegatives)
	vectors := (2*L*n + L) * d
	return []Part{
		{What: phrase.New("MELL's layer vectors and embeddings"),
			SetupWork: Work{Dense: MELLSteps * (pairs*48*d + vectors*16), Exp: MELLSteps * pairs},
			Bytes:     4*f64*vectors + 2*s.layerEdges()*(3*4+48) + n*L*d*f64, Fields: []string{"nodes", "edges"}},
		logRegCost(s, L*d),
	}
}
