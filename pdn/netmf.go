package pdn

import (
	"math/rand/v2"
	"slices"
	"time"

	"gonum.org/v1/gonum/mat"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/fmath"
)

func init() {
	register(experiment.NetMF, model{cost: func(s Shape, _ experiment.Model) []Part { return netMFCost(s) },
		build: func(g *datasets.Graph, _ experiment.Model, _ *rand.Rand, seed uint64) network {
			return embedNetOf(experiment.NetMF, g, seed, newNetMF)
		}})
}

// NetMF's settings, Karate Club's defaults (karateclub.NetMF, v1.3): 32
// dimensions, 10 power iterations of the truncated SVD, the transition
// matrix's powers pooled up to T = 2, b = 1 negative sample.
const (
	netMFDim       = 32
	netMFIters     = 10
	netMFOrder     = 2
	netMFNegatives = 1
)

// streamNetMF is the weight seed's stream of NetMF's SVD test matrix.
const streamNetMF = 0x6e6d66

// netMF is NetMF (Qiu et al., WSDM 2018), the embedding DeepWalk factorises
// implicitly, made explicit, as Karate Club's NetMF makes it: on the graph
// with a self-loop added at every node (Karate Club adds them to every
// graph it embeds, and networkx counts a loop twice in a degree, so
// δ_i = d_i + 2), the transition matrix Â = Δ⁻¹(A + I), the matrix
//
//	M = vol/(T·b) · (Σ_{r=1..T} Â^r) · Δ⁻¹,   vol = |E| + N,
//
// its truncated logarithm log(max(M, 1)) element by element (entries of M
// at most 1, and the pairs no walk of T steps joins, are 0), and that
// matrix's 32 leading singular directions by the randomized truncated SVD
// (truncatedSVD, scikit-learn's TruncatedSVD): the embedding is the matrix
// times its right singular vectors (TruncatedSVD.transform), U·Σ up to the
// range finder's residual. vol is Karate Club's networkx edge count, the
// loops once each, where the paper's vol(G) is the sum of the degrees.
//
// Karate Club holds the log matrix in single precision; here everything
// is float64. The matrix is held sparse (csrOp): its entries are the pairs
// within T steps whose M exceeds 1, 72,050 of Cora's 7.3 million pairs
// (1%; 99,596 pairs are within two steps), and the SVD reads it through
// products only. It is made in pieces: the matrix 64 rows at a time, then
// a power iteration at a time. The SVD's test matrix is drawn from the
// weight seed, where Karate Club's is scikit-learn's seeded 42.
type netMF struct {
	n      int
	adj    *adjacency
	inv    []float64 // 1/δ_i
	vol    float64
	target csrOp
	row    int // the rows of target made
	walk   *rowWalker
	cols   []int32 // a row's, as it is made
	vals   []float64
	seed   uint64
	svd    *svdRun
	emb    []float64
}

func newNetMF(g *datasets.Graph, seed uint64) *netMF {
	adj := newAdjacency(g.N, g.Src, g.Dst)
	inv := make([]float64, g.N)
	for i := range inv {
		inv[i] = 1 / float64(adj.rowPtr[i+1]-adj.rowPtr[i]+2)
	}
	return &netMF{n: g.N, adj: adj, inv: inv, vol: float64(g.E() + g.N), target: newCSROp(g.N, g.N),
		walk: newRowWalker(adj, inv), seed: seed}
}

func (m *netMF) dim() int { return min(netMFDim, m.n) }

func (m *netMF) embedding() []float64 { return m.emb }

// preparing is the share done: the matrix, each of the SVD's power
// iterations and its last step, and the transform count one each.
func (m *netMF) preparing() float64 {
	if m.emb != nil {
		return 1
	}
	steps := float64(netMFIters + 3)
	if m.svd == nil {
		return float64(m.row) / float64(max(m.n, 1)) / steps
	}
	return (1 + m.svd.share()*(netMFIters+1)) / steps
}

// prepare makes the embedding until done or the deadline passes, and
// reports whether it is done.
func (m *netMF) prepare(deadline time.Time) bool {
	for m.emb == nil {
		switch {
		case m.row < m.n:
			for end := min(m.row+64, m.n); m.row < end; m.row++ {
				m.targetRow(m.row)
			}
		case m.svd == nil:
			m.walk = nil
			m.svd = newSVDRun(m.target, m.dim(), netMFIters, rand.New(rand.NewPCG(m.seed, streamNetMF)))
		case !m.svd.done():
			m.svd.step()
		default:
			m.emb = svdTransform(m.target, m.svd.v)
			m.target, m.svd, m.adj, m.cols, m.vals = csrOp{}, nil, nil, nil, nil
		}
		if m.emb == nil && time.Now().After(deadline) {
			return false
		}
	}
	return true
}

// targetRow makes row i of log(max(M, 1)), its columns in order.
func (m *netMF) targetRow(i int) {
	pool := m.walk.pooled(i, netMFOrder)
	scale := m.vol / float64(netMFOrder*netMFNegatives)
	cols, vals := m.cols[:0], m.vals[:0]
	for _, j := range pool {
		v := float64(float64(scale*m.walk.pool[j]) * m.inv[j])
		if v > 1 {
			cols, vals = append(cols, j), append(vals, fmath.Log(v))
		}
	}
	m.target.appendRow(cols, vals)
	m.cols, m.vals = cols, vals
	m.walk.clear()
}

// svdTransform is a·v, N×k, row-major: scikit-learn's
// TruncatedSVD.transform of the matrix it was fitted to.
func svdTransform(a linOp, v *mat.Dense) []float64 {
	r, _ := a.Dims()
	_, k := v.Dims()
	out := mat.NewDense(r, k, nil)
	a.mul(out, v)
	return out.RawMatrix().Data
}

// rowWalker computes one row at a time of the powers of the transition
// matrix Â = Δ⁻¹(A + I) of a graph with a self-loop at every node, Δ the
// degrees with each loop counted twice (Karate Club's, networkx's), as
// sparse vectors: step r's row is step r−1's times Â. Each dense buffer
// is N long and cleared where it was written.
type rowWalker struct {
	adj         *adjacency
	inv         []float64
	cur, next   []float64 // this step's row and the next
	pool        []float64 // the steps' rows summed
	curNodes    []int32   // where cur is not 0, in the order found
	nextNodes   []int32
	poolNodes   []int32
	seen, seen2 []bool
	inPool      []bool
}

func newRowWalker(adj *adjacency, inv []float64) *rowWalker {
	n := adj.n
	return &rowWalker{adj: adj, inv: inv, cur: make([]float64, n), next: make([]float64, n), pool: make([]float64, n),
		seen: make([]bool, n), seen2: make([]bool, n), inPool: make([]bool, n)}
}

// pooled sums rows i of Â, Â², …, Â^order into pool and returns the
// columns where it is not 0, ascending; clear undoes it.
func (w *rowWalker) pooled(i, order int) []int32 {
	w.cur[i], w.seen[i] = 1, true
	w.curNodes = append(w.curNodes[:0], int32(i))
	for range order {
		w.step()
		for _, j := range w.curNodes {
			if !w.inPool[j] {
				w.inPool[j] = true
				w.poolNodes = append(w.poolNodes, j)
			}
			w.pool[j] += w.cur[j]
		}
	}
	slices.Sort(w.poolNodes)
	return w.poolNodes
}

// step makes cur·Â the current row.
func (w *rowWalker) step() {
	adj := w.adj
	for _, k := range w.curNodes {
		p := float64(w.cur[k] * w.inv[k]) // Â_kj for each j of k's, its loop too
		w.spread(k, p)
		for _, j := range adj.col[adj.rowPtr[k]:adj.rowPtr[k+1]] {
			w.spread(j, p)
		}
	}
	for _, k := range w.curNodes {
		w.cur[k], w.seen[k] = 0, false
	}
	w.cur, w.next = w.next, w.cur
	w.seen, w.seen2 = w.seen2, w.seen
	w.curNodes, w.nextNodes = w.nextNodes, w.curNodes[:0]
}

func (w *rowWalker) spread(j int32, p float64) {
	if !w.seen2[j] {
		w.seen2[j] = true
		w.nextNodes = append(w.nextNodes, j)
	}
	w.next[j] += p
}

// clear zeroes the buffers pooled wrote.
func (w *rowWalker) clear() {
	for _, j := range w.curNodes {
		w.cur[j], w.seen[j] = 0, false
	}
	for _, j := range w.poolNodes {
		w.pool[j], w.inPool[j] = 0, false
	}
	w.curNodes, w.poolNodes = w.curNodes[:0], w.poolNodes[:0]
}

// netMFCost is NetMF's matrix, its SVD and the transform, then the
// regression. The matrix's entries are the pairs within two steps
// (Cora: 72,050 made, and 99,596 pairs within two steps), counted, with
// their memory, from the graph's degrees where it is built
// (Shape.twoStepPairs), as a graph's hubs make them many more than its mean
// degree says; before it is built (a shipped or generated graph's
// expected shape) the memory is charged at the bound, N² pairs, 12 bytes
// a pair: Cora is charged 88 MB there for the 0.9 MB it holds, and the
// page refuses a graph of more than about 9,400 nodes before building it.
func netMFCost(s Shape) []Part {
	n := float64(s.N)
	k := float64(min(netMFDim, s.N))
	walks, nnz, mBytes := s.twoStepPairs() // Â²'s pairs hold Â's
	return []Part{
		{What: phrase.New("NetMF's matrix"), SetupWork: Work{Gather: walks, Exp: nnz},
			Bytes: mBytes + 3*f64*n, Fields: []string{"nodes"}},
		svdCost(phrase.New("NetMF's truncated SVD"), s, nnz, k, netMFIters),
		logRegCost(s, k),
	}
}
