package pdn

import (
	"math"
	"math/rand/v2"
	"time"

	"gonum.org/v1/gonum/mat"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
)

func init() {
	register(experiment.MGCN, model{cost: mgcnCost,
		build: func(g *datasets.Graph, m experiment.Model, rnd *rand.Rand, seed uint64) network {
			return newMGCN(g, m, rnd, seed)
		}})
}

// Multi-GCN's settings. The subspace analysis is Dong et al.'s (SC-ML,
// "Clustering on multi-layer graphs via subspace analysis on Grassmann
// manifolds", IEEE TSP 2014), which Multi-GCN merges its views by: k, the
// subspaces' dimension, is the number of classes (Dong et al.'s number of
// clusters), and α, the weight of the subspaces' agreement against the
// layers' smoothness, 0.5. The eigenvectors are found by the randomized
// truncated SVD with 20 power iterations, which on these matrices (k of a
// few, 10 extra columns) is the exact decomposition to many digits.
const (
	mgcnAlpha = 0.5
	mgcnIters = 20
)

// streamMGCN is the weight seed's stream of Multi-GCN's SVD test matrices.
const streamMGCN = 0x6d67636e

// mgcn is Multi-GCN (Khan and Blumenstock, "Multi-GCN: Graph Convolutional
// Networks for Multi-View Networks, with Applications to Global Poverty",
// AAAI 2019): the views of a multi-view (multiplex) graph merged into one
// graph by subspace analysis, then a GCN over it, trained with the labels.
// Here the views are the layers (column l of the edge features, a layer
// holding an edge where it is not 0, its value the edge's weight). For
// each layer l, with S_l = D_l^{-1/2} A_l D_l^{-1/2} (a node without an
// edge in it has a row of zeros) and L_l = I − S_l its normalised
// Laplacian, U_l (N×k) are L_l's k eigenvectors of least eigenvalue; the
// merged subspace U is the k eigenvectors of least eigenvalue of
//
//	L_mod = Σ_l L_l − α Σ_l U_l U_lᵀ,
//
// the solution of min_U Σ_l tr(Uᵀ L_l U) + α Σ_l (k − tr(UUᵀ U_l U_lᵀ)),
// UᵀU = I: smooth on every layer and near every layer's own subspace on
// the Grassmann manifold. Both are found as the leading singular vectors
// of positive semi-definite matrices with the same eigenvectors, (I + S_l)/2
// and (2M·I − L_mod)/2M for M layers, by the randomized truncated SVD over
// their products (truncatedSVD's steps; neither is formed).
//
// The merged graph keeps the union's edges, each weighted by how alike its
// two ends are in the merged subspace: the cosine of their rows of U, or 0
// (the edge pruned) where it is not positive. Multi-GCN prunes its merged
// graph by a manifold ranking (Zhou et al.) of its nodes, whose settings
// its paper does not give in a form we could carry over: this is that
// step's stand-in, which keeps the graph as sparse as its layers. The GCN
// is ours, Kipf and Welling's two layers (gcnNet), over that weighted graph
// with a self-loop of weight 1 at every node.
//
// The set-up reads no labels and is made in pieces (prepare), a power
// iteration at a time, each product rounded before it is added and summed
// in a fixed order, from the weight seed's stream: the same bits natively
// and in the browser, however it is cut.
type mgcn struct {
	*gcnNet
	g      *datasets.Graph
	k      int
	seed   uint64
	layers []*mgcnLayer
	cur    int // the layer whose subspace is being found; len(layers): the merge
	svd    *svdRun
	merged *mgcnMerged
	w      []float64 // the merged graph's weights, the GCN's graph's
	done   bool
}

// mgcnLayer is one layer's S_l (by its arcs) and, once found, U_l.
type mgcnLayer struct {
	n    int
	ptr  []int32
	col  []int32
	coef []float64 // S_l's entry of each arc
	u    *mat.Dense
}

func newMGCN(g *datasets.Graph, cfg experiment.Model, rnd *rand.Rand, seed uint64) *mgcn {
	m := &mgcn{g: g, k: min(g.C, g.N), seed: seed, w: make([]float64, g.E())}
	merged := *g
	merged.Weight = m.w
	m.gcnNet = newGCNNet(&merged, g.Nodes(datasets.Train), cfg, rnd, nil)
	for l := range g.D {
		m.layers = append(m.layers, newMGCNLayer(g, l))
	}
	return m
}

// newMGCNLayer is S_l of layer l of g.
func newMGCNLayer(g *datasets.Graph, l int) *mgcnLayer {
	var src, dst []int32
	var w []float64
	for e := range g.Src {
		if v := g.EdgeX[e*g.D+l]; v != 0 {
			src, dst, w = append(src, g.Src[e]), append(dst, g.Dst[e]), append(w, v)
		}
	}
	adj := newAdjacency(g.N, src, dst)
	deg := make([]float64, g.N)
	for i := range g.N {
		for k := adj.rowPtr[i]; k < adj.rowPtr[i+1]; k++ {
			deg[i] += w[adj.eid[k]]
		}
	}
	r := make([]float64, g.N)
	for i, d := range deg {
		if d > 0 {
			r[i] = 1 / math.Sqrt(d)
		}
	}
	coef := make([]float64, len(adj.col))
	for i := range g.N {
		for k := adj.rowPtr[i]; k < adj.rowPtr[i+1]; k++ {
			coef[k] = float64(r[i]*w[adj.eid[k]]) * r[adj.col[k]]
		}
	}
	return &mgcnLayer{n: g.N, ptr: adj.rowPtr, col: adj.col, coef: coef}
}

func (o *mgcnLayer) Dims() (int, int)       { return o.n, o.n }
func (o *mgcnLayer) mulT(dst, x *mat.Dense) { o.mul(dst, x) }

// mul is dst = (I + S_l)·x / 2.
func (o *mgcnLayer) mul(dst, x *mat.Dense) {
	_, c := x.Dims()
	xs, ds := x.RawMatrix(), dst.RawMatrix()
	for i := range o.n {
		di := ds.Data[i*ds.Stride : i*ds.Stride+c]
		copy(di, xs.Data[i*xs.Stride:i*xs.Stride+c])
		for k := o.ptr[i]; k < o.ptr[i+1]; k++ {
			a, xj := o.coef[k], xs.Data[int(o.col[k])*xs.Stride:]
			for j := range di {
				di[j] += float64(a * xj[j])
			}
		}
		for j := range di {
			di[j] *= 0.5
		}
	}
}

// mgcnMerged is (2M·I − L_mod)/2M = (1/M) Σ_l ((I + S_l)/2 + (α/2)·U_l U_lᵀ),
// by its products.
type mgcnMerged struct {
	layers []*mgcnLayer
	tmp    *mat.Dense // a layer's product
	small  *mat.Dense // U_lᵀ·x
}

func (o *mgcnMerged) Dims() (int, int)       { n := o.layers[0].n; return n, n }
func (o *mgcnMerged) mulT(dst, x *mat.Dense) { o.mul(dst, x) }

func (o *mgcnMerged) mul(dst, x *mat.Dense) {
	r, c := x.Dims()
	if tr, tc := o.tmp.Dims(); tr != r || tc != c {
		o.tmp = mat.NewDense(r, c, nil)
	}
	ds := dst.RawMatrix()
	for i := range r {
		clear(ds.Data[i*ds.Stride : i*ds.Stride+c])
	}
	inv := 1 / float64(len(o.layers))
	for _, l := range o.layers {
		l.mul(o.tmp, x)
		_, k := l.u.Dims()
		if sr, sc := o.small.Dims(); sr != k || sc != c {
			o.small = mat.NewDense(k, c, nil)
		}
		mulATB(o.small, l.u, x)
		ts, us, ss := o.tmp.RawMatrix(), l.u.RawMatrix(), o.small.RawMatrix()
		for i := range r {
			ti, ui := ts.Data[i*ts.Stride:i*ts.Stride+c], us.Data[i*us.Stride:i*us.Stride+k]
			for j := range ti {
				var s float64
				for q, v := range ui {
					s += float64(v * ss.Data[q*ss.Stride+j])
				}
				ti[j] += float64(mgcnAlpha / 2 * s)
			}
			di := ds.Data[i*ds.Stride : i*ds.Stride+c]
			for j, v := range ti {
				di[j] += v
			}
		}
	}
	for i := range r {
		for j := range c {
			ds.Data[i*ds.Stride+j] *= inv
		}
	}
}

// mulATB sets dst = aᵀ·b (a r×k, b r×c), summing over the rows in order.
func mulATB(dst, a, b *mat.Dense) {
	r, k := a.Dims()
	_, c := b.Dims()
	as, bs, ds := a.RawMatrix(), b.RawMatrix(), dst.RawMatrix()
	for q := range k {
		clear(ds.Data[q*ds.Stride : q*ds.Stride+c])
	}
	for i := range r {
		ai, bi := as.Data[i*as.Stride:i*as.Stride+k], bs.Data[i*bs.Stride:i*bs.Stride+c]
		for q, v := range ai {
			dq := ds.Data[q*ds.Stride : q*ds.Stride+c]
			for j, x := range bi {
				dq[j] += float64(v * x)
			}
		}
	}
}

// preparing is the share done: each layer's SVD, the merge's and the
// weights count one each.
func (m *mgcn) preparing() float64 {
	if m.done {
		return 1
	}
	steps := float64(len(m.layers) + 2)
	s := float64(m.cur)
	if m.svd != nil {
		s += m.svd.share()
	}
	return s / steps
}

// prepare merges the layers until done or the deadline passes, and
// reports whether it is done.
func (m *mgcn) prepare(deadline time.Time) bool {
	for !m.done {
		switch {
		case len(m.layers) == 0: // no layers to merge: the union, each edge 1
			copy(m.w, ones(len(m.w)))
			m.done = true
		case m.svd == nil && m.cur < len(m.layers):
			m.svd = newSVDRun(m.layers[m.cur], m.k, mgcnIters, m.rnd(m.cur))
		case m.svd == nil:
			m.merged = &mgcnMerged{layers: m.layers, tmp: &mat.Dense{}, small: &mat.Dense{}}
			m.svd = newSVDRun(m.merged, m.k, mgcnIters, m.rnd(m.cur))
		case !m.svd.done():
			m.svd.step()
		case m.cur < len(m.layers):
			m.layers[m.cur].u = m.svd.u
			m.svd = nil
			m.cur++
		default:
			m.weigh(m.svd.u)
			m.svd, m.merged, m.layers = nil, nil, nil
			m.done = true
		}
		if !m.done && time.Now().After(deadline) {
			return false
		}
	}
	return true
}

// rnd is the stream of the test matrix of SVD i (the layers', then the
// merge's).
func (m *mgcn) rnd(i int) *rand.Rand { return rand.New(rand.NewPCG(m.seed, streamMGCN+uint64(i))) }

// weigh sets each of the union's edges' weight to the cosine of its ends'
// rows of u, or 0 where it is not positive.
func (m *mgcn) weigh(u *mat.Dense) {
	g := m.g
	_, k := u.Dims()
	us := u.RawMatrix()
	norm := make([]float64, g.N)
	for i := range g.N {
		var s float64
		for _, v := range us.Data[i*us.Stride : i*us.Stride+k] {
			s += float64(v * v)
		}
		norm[i] = math.Sqrt(s)
	}
	for e := range g.Src {
		a, b := int(g.Src[e]), int(g.Dst[e])
		if norm[a] == 0 || norm[b] == 0 {
			m.w[e] = 0
			continue
		}
		var s float64
		ua, ub := us.Data[a*us.Stride:a*us.Stride+k], us.Data[b*us.Stride:b*us.Stride+k]
		for q := range ua {
			s += float64(ua[q] * ub[q])
		}
		m.w[e] = max(0, s/float64(norm[a]*norm[b]))
	}
}

func (m *mgcn) forward(training bool) []float64 {
	m.prepare(farFuture)
	return m.gcnNet.forward(training)
}

// mgcnCost is the layers' SVDs and the merge's, then a GCN over the
// merged graph. Each layer holds at most the union's edges.
func mgcnCost(s Shape, m experiment.Model) []Part {
	n, e, d := float64(s.N), float64(s.E), float64(max(s.D, 1))
	k := float64(min(s.C, s.N))
	what := phrase.New("Multi-GCN's merging of the layers")
	layer, merge := svdCost(what, s, n+2*e, k, mgcnIters), svdCost(what, s, d*(n+2*e+2*n*k), k, mgcnIters)
	setup := Part{What: what, SetupWork: Work{Gather: d*layer.SetupWork.Gather + merge.SetupWork.Gather,
		Dense: (d+1)*layer.SetupWork.Dense + d*2*k*n*(k+svdOversamples)*float64(2*mgcnIters+3)},
		SetupBytes: d*(4*(n+2*e)+f64*(2*e+n*k)) + layer.Bytes, Bytes: f64 * e, Fields: []string{"nodes", "edges", "edge-features"}}
	return append(gcnNetCost(s, m), setup)
}
