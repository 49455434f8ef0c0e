package pdn

import (
	"math/rand/v2"
	"time"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
)

func init() {
	register(experiment.M2V, model{cost: func(s Shape, _ experiment.Model) []Part { return m2vCost(s) },
		build: func(g *datasets.Graph, _ experiment.Model, _ *rand.Rand, seed uint64) network {
			return embedNetOf(experiment.M2V, g, seed, newM2V)
		}})
}

// M2V's settings. The embedding's 128 dimensions (Appendix D's, and
// mvn2vec's D, which its authors share equally among the views, D/|V|
// each, as their independent baseline does) are cut to a multiple of 8 a
// layer (m2vViewDim). The walks, window and negatives are DeepWalk's here
// (WalksPerNode, WalkLength, WalkWindow, WalkNegatives): mvn2vec builds on
// DeepWalk's skip-gram, and the walk settings and γ of its experiments
// could not be read from the copies of the paper at hand. γ weighs the
// collaboration term against the skip-gram's: 0.1 pulls a node's view
// vectors about a factor e toward their mean over a pass (each centre is
// stepped ≈ 400 times at a mean rate of 0.0125, 400 × 2γ × 0.0125 = 1),
// between the independent views of γ = 0 and one shared space.
const (
	M2VDim   = 128
	m2vGamma = 0.1
)

// streamM2V is the first of M2V's streams of the weight seed: layer l
// walks from streamM2V+2l and trains from streamM2V+2l+1.
const streamM2V = 0x6d327600

// m2v is mvn2vec-reg (Shi, Han, He, He, Yang, Luo and Han, "mvn2vec:
// Preservation and Collaboration in Multi-View Network Embedding", 2018,
// §4). Of its two variants this is -reg, whose collaboration is a
// regulariser on both of a node's vectors, and the one a public
// re-implementation trains (mvn2vec-reg.py, in PyTorch, by the MANE
// authors); -con instead mixes the context vectors of the views by a
// weight θ. Each view (a multiplex graph's layer: the edges whose column
// l of the edge features is not 0) has its own centre vectors f_u^v and
// context vectors f̃_u^v, trained by DeepWalk's skip-gram with negative
// sampling on the view's own random walks (preservation), and the
// objective adds, for γ > 0,
//
//	γ Σ_v Σ_u ( ‖f_u^v − f̄_u‖² + ‖f̃_u^v − f̃̄_u‖² ),   f̄_u = (1/|V|) Σ_v f_u^v
//
// which pulls a node's vectors in the views toward their mean
// (collaboration). It is trained as the skip-gram is, by stochastic
// steps: the views' walks are read in turn, one walk of each view after
// another, and after the skip-gram steps of each centre u of a walk of
// view v its two vectors take the regulariser's step, f ← f − ρ·2γ(f −
// f̄), at the skip-gram's rate ρ. A node's embedding is its centre vectors
// of every view, concatenated (|V|·D/|V| columns), each column
// standardised as DeepWalk's are. Where this departs from that
// re-implementation (Adam on batches of pairs): plain SGD at word2vec's
// falling rate, DeepWalk's, one step a pair; an edge's weight in a layer
// is not read (the walks are uniform over the layer's edges). Made in
// pieces of walks: the same bits however it is cut.
type m2v struct {
	n, dv, w int // nodes, a view's dimensions, all of them
	views    []*skipGrammer
	mean     []float32 // scratch: one node's mean vector
	emb      []float64 // nil until done
}

// m2vViewDim is a view's share of M2VDim for a graph of layers layers: a
// multiple of 8, as the skip-gram's dot products take them, and 8 at
// least.
func m2vViewDim(layers int) int {
	return max(8, M2VDim/max(layers, 1)/8*8)
}

func newM2V(g *datasets.Graph, seed uint64) *m2v {
	layers := layerGraphs(g)
	m := &m2v{n: g.N, dv: m2vViewDim(len(layers))}
	m.w = len(layers) * m.dv
	m.mean = make([]float32, m.dv)
	for l, lg := range layers {
		ws := randomWalks(lg, rand.New(rand.NewPCG(seed, streamM2V+2*uint64(l))), WalksPerNode, WalkLength)
		sg := newSkipGram(g.N, m.dv, WalkWindow, ws, rand.NewPCG(seed, streamM2V+2*uint64(l)+1))
		sg.visited = func(u int32, lr float32) { m.pull(l, u, lr) }
		m.views = append(m.views, sg)
	}
	return m
}

// layerGraphs returns g's layers, each a graph on g's nodes of the edges
// whose edge feature l is not 0 (datasets' oneLayer), one a column.
func layerGraphs(g *datasets.Graph) []*datasets.Graph {
	out := make([]*datasets.Graph, g.D)
	for l := range out {
		lg := &datasets.Graph{N: g.N}
		for e := range g.Src {
			if g.EdgeX[e*g.D+l] != 0 {
				lg.Src, lg.Dst = append(lg.Src, g.Src[e]), append(lg.Dst, g.Dst[e])
			}
		}
		out[l] = lg
	}
	return out
}

// pull is the regulariser's step of node u's vectors in view v, each
// toward its mean over the views, at the rate lr.
func (m *m2v) pull(v int, u int32, lr float32) {
	k := float32(2 * m2vGamma * lr)
	inv := 1 / float32(len(m.views))
	d := m.dv
	for _, table := range []func(*skipGrammer) []float32{
		func(s *skipGrammer) []float32 { return s.in },
		func(s *skipGrammer) []float32 { return s.out },
	} {
		clear(m.mean)
		for _, s := range m.views {
			row := table(s)[int(u)*d:][:d]
			for t, x := range row {
				m.mean[t] += x
			}
		}
		row := table(m.views[v])[int(u)*d:][:d]
		for t, x := range row {
			row[t] = x - float32(k*(x-float32(m.mean[t]*inv)))
		}
	}
}

// prepare trains the views until done or the deadline passes, and
// reports whether the embedding is done.
func (m *m2v) prepare(deadline time.Time) bool {
	for m.emb == nil {
		for range 16 {
			for _, s := range m.views {
				s.run(1)
			}
		}
		done := true
		for _, s := range m.views {
			done = done && s.done()
		}
		if done {
			m.finish()
			break
		}
		if time.Now().After(deadline) {
			return false
		}
	}
	return true
}

// finish joins the views' centre vectors into the embedding, each column
// standardised.
func (m *m2v) finish() {
	views := make([][]float32, len(m.views))
	for v, s := range m.views {
		views[v] = s.in
	}
	m.emb = sideBySide(views, m.n, m.dv)
	m.views = nil
}

// preparing returns the share of the views' walks trained on.
func (m *m2v) preparing() float64 {
	if m.emb != nil {
		return 1
	}
	var done, all int
	for _, s := range m.views {
		done, all = done+s.next, all+len(s.ws)
	}
	return float64(done) / float64(max(all, 1))
}

func (m *m2v) embedding() []float64 { return m.emb }

func (m *m2v) dim() int { return m.w }

// m2vCost is M2V's walks and embeddings, a DeepWalk a layer in its share
// of the dimensions, then its regression. Its set-up is counted as
// DeepWalk's is but at 18 units a target and dimension where DeepWalk's
// are 6: a layer's 32 dimensions take the skip-gram kernels' scalar loop,
// not their vector path of 64 (the multiplex graph's set-up, about 6 s of
// processor, against 1.7 s at DeepWalk's rate); and the regulariser's mean
// over the layers at each centre.
func m2vCost(s Shape) []Part {
	n, views := float64(s.N), float64(max(s.D, 1))
	dv := float64(m2vViewDim(s.D))
	centres := views * n * WalksPerNode * WalkLength
	pairs := centres * float64(WalkWindow+1) // centre–context pairs, both sides
	return []Part{
		{What: phrase.New("M2V's walks and embeddings"),
			SetupWork: Work{Dense: pairs*(WalkNegatives+1)*18*dv + centres*2*(views+3)*dv, Exp: pairs * (WalkNegatives + 1)},
			Bytes:     views*n*(4*WalksPerNode*WalkLength+4*3*dv) + n*f64*views*dv, Fields: []string{"nodes", "edges"}},
		logRegCost(s, views*dv),
	}
}
