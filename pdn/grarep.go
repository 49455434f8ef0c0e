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
	register(experiment.GraRep, model{cost: func(s Shape, _ experiment.Model) []Part { return graRepCost(s) },
		build: func(g *datasets.Graph, _ experiment.Model, _ *rand.Rand, seed uint64) network {
			return embedNetOf(experiment.GraRep, g, seed, newGraRep)
		}})
}

// GraRep's settings, Karate Club's defaults (karateclub.GraRep, v1.3): 32
// dimensions for each of 5 orders (160 in all), 10 power iterations of
// each truncated SVD.
const (
	graRepDim   = 32
	graRepIters = 10
	graRepOrder = 5
)

// streamGraRep is the weight seed's stream of GraRep's SVD test matrices:
// each order's drawn from its start, as Karate Club seeds each of its
// SVDs with the same seed.
const streamGraRep = 0x67726170

// graRep is GraRep (Cao et al., CIKM 2015), as Karate Club's GraRep makes
// it: on the graph with a self-loop at every node (δ_i = d_i + 2, as
// networkx counts a loop twice), the transition matrix Â = Δ⁻¹(A + I);
// for each k of 2…6, the matrix
//
//	T_k = log(Â^k) − log N   where Â^k > 0, and 0 elsewhere,
//
// its 32 leading singular directions by the randomized truncated SVD
// (truncatedSVD, scikit-learn's TruncatedSVD), and T_k times its right
// singular vectors (TruncatedSVD.transform); the embedding is the five
// side by side, 160 columns. Karate Club's powers start at Â² (its first
// step multiplies Â by itself before the first SVD), and its logarithm
// keeps every entry the walks reach, each below 0, where the paper's
// keeps the positive entries of log(Â^k/τ_k), τ_k the column sums over N:
// this is Karate Club's, whose numbers the paper reports.
//
// Â^k fills in within a few steps (Cora's Â⁶ joins 49% of the pairs), so
// it is held dense, N×N, and each step's rows are made in place (row i of
// Â^{k+1} is row i of Â^k times Â); T_k is held sparse (csrOp) beside it,
// the reached pairs alone, made once the power is and so at its size.
// Everything is float64, where Karate Club holds T_k in single precision.
// It is made in pieces: 16 rows of a power or 64 of T_k at a time, then a
// power iteration of its SVD at a time. On Cora the SVDs' products are
// most of it (3.6 million entries in T_6, 23 products of 42 columns each).
type graRep struct {
	n      int
	adj    *adjacency
	inv    []float64 // 1/δ_i
	logN   float64
	pow    []float64 // Â^k, N×N, row-major
	buf    []float64 // a row of Â^{k+1} as it is made
	order  int       // the orders done
	row    int       // the rows of this order's power made
	nnz    int       // the entries of this order's power
	target csrOp     // T_k, once the power is made
	cols   []int32   // a row of T_k, as it is made
	vals   []float64
	seed   uint64
	svd    *svdRun
	emb    []float64 // N×(5·32), the orders done filled in
	done   bool
}

func newGraRep(g *datasets.Graph, seed uint64) *graRep {
	adj := newAdjacency(g.N, g.Src, g.Dst)
	m := &graRep{n: g.N, adj: adj, inv: make([]float64, g.N), logN: fmath.Log(float64(g.N)), seed: seed}
	for i := range m.inv {
		m.inv[i] = 1 / float64(adj.rowPtr[i+1]-adj.rowPtr[i]+2)
	}
	return m
}

// rank is the SVD's columns an order: 32, at most N.
func (m *graRep) rank() int { return min(graRepDim, m.n) }

func (m *graRep) dim() int { return graRepOrder * m.rank() }

func (m *graRep) embedding() []float64 {
	if !m.done {
		return nil
	}
	return m.emb
}

// preparing is the share done: each order's power counts one step, as do
// its T_k, each of its SVD's power iterations, its last step and the
// transform.
func (m *graRep) preparing() float64 {
	if m.done {
		return 1
	}
	steps := float64(graRepIters + 4)
	var in float64
	switch {
	case m.target.a == nil:
		in = float64(m.row) / float64(max(m.n, 1))
	case m.svd == nil:
		in = 1 + float64(len(m.target.a.Ptr)-1)/float64(max(m.n, 1))
	default:
		in = 2 + m.svd.share()*(graRepIters+1)
	}
	return (float64(m.order) + in/steps) / graRepOrder
}

// prepare makes the embedding until done or the deadline passes, and
// reports whether it is done.
func (m *graRep) prepare(deadline time.Time) bool {
	for !m.done {
		switch {
		case m.pow == nil:
			m.start()
		case m.row < m.n:
			for end := min(m.row+16, m.n); m.row < end; m.row++ {
				m.nnz += m.powerRow(m.row)
			}
		case m.target.a == nil:
			m.target = newCSROp(m.n, m.n)
			m.target.a.Col, m.target.a.Val = make([]int32, 0, m.nnz), make([]float64, 0, m.nnz)
		case len(m.target.a.Ptr) <= m.n:
			for end := min(len(m.target.a.Ptr)-1+64, m.n); len(m.target.a.Ptr)-1 < end; {
				m.targetRow(len(m.target.a.Ptr) - 1)
			}
		case m.svd == nil:
			m.svd = newSVDRun(m.target, m.rank(), graRepIters, rand.New(rand.NewPCG(m.seed, streamGraRep)))
		case !m.svd.done():
			m.svd.step()
		default:
			m.transform()
		}
		if !m.done && time.Now().After(deadline) {
			return false
		}
	}
	return true
}

// start sets pow to Â and the embedding's buffer.
func (m *graRep) start() {
	n, adj := m.n, m.adj
	m.pow, m.buf = make([]float64, n*n), make([]float64, n)
	m.emb = make([]float64, n*m.dim())
	for i := range n {
		row := m.pow[i*n : (i+1)*n]
		row[i] = m.inv[i]
		for _, j := range adj.col[adj.rowPtr[i]:adj.rowPtr[i+1]] {
			row[j] = m.inv[i]
		}
	}
}

// powerRow makes row i of the next power, Â^k's row times Â, in place,
// and returns its entries.
func (m *graRep) powerRow(i int) int {
	n, adj := m.n, m.adj
	row, buf := m.pow[i*n:(i+1)*n], m.buf
	for j, v := range row {
		if v == 0 {
			continue
		}
		p := float64(v * m.inv[j]) // Â_jl for each l of j's, its loop too
		buf[j] += p
		for _, l := range adj.col[adj.rowPtr[j]:adj.rowPtr[j+1]] {
			buf[l] += p
		}
	}
	nnz := 0
	for j, v := range buf {
		row[j], buf[j] = v, 0
		if v != 0 {
			nnz++
		}
	}
	return nnz
}

// targetRow appends row i of T_k, from the power's row. T_k is made once
// the power is, its entries known: held at its size, never grown by
// appending, which would hold it twice over for a moment.
func (m *graRep) targetRow(i int) {
	cols, vals := m.cols[:0], m.vals[:0]
	for j, v := range m.pow[i*m.n : (i+1)*m.n] {
		if v == 0 {
			continue
		}
		if t := fmath.Log(v) - m.logN; t < 0 {
			cols, vals = append(cols, int32(j)), append(vals, t)
		}
	}
	m.target.appendRow(cols, vals)
	m.cols, m.vals = cols, vals
}

// transform writes T_k·V into this order's columns of the embedding and
// moves to the next order.
func (m *graRep) transform() {
	k, d := m.rank(), m.dim()
	x := svdTransform(m.target, m.svd.v)
	for i := range m.n {
		copy(m.emb[i*d+m.order*k:i*d+(m.order+1)*k], x[i*k:(i+1)*k])
	}
	m.order++
	m.row, m.nnz, m.svd, m.target = 0, 0, nil, csrOp{}
	if m.order == graRepOrder {
		m.done = true
		m.pow, m.buf, m.adj, m.cols, m.vals = nil, nil, nil, nil, nil
	}
}

// graRepCost is GraRep's five powers and their SVDs, then the regression
// over 160 columns. Row i of Â^{k+1} scans Â^k's row and spreads each of
// its entries over a node's neighbours, and T_k's row scans it again; T_k's
// entries, by which the SVD's products are counted, are about
// N·min(N, w·d^(k-1)) for d the mean degree with the loop and w the
// degree a walk meets (Shape.walkedDegree), which spreads Â's rows to
// Â²'s: a hub's rows reach every node from the second power on, where
// d^k counted a star's rows as a few and took an eighth of the time it
// ran (a star of 2,000 nodes: 23.6 s estimated, 23.7 s run; Cora 22 s for 12 s,
// Citeseer, whose components are small, 20 s for 5 s).
// Its memory is the dense power, 8 bytes a pair, and T_k charged at its
// bound, 12 bytes a pair: 20·N² bytes, 147 MB on Cora, so the browser
// refuses a graph of more than about 7,300 nodes for its memory, and one
// of Cora's mean degree and more than about 6,300 nodes (4,800 at degree
// 6) for its set-up, estimated past two minutes (Cora's at 33 s, its
// SVDs' products counted over 2.3 times the entries made there).
func graRepCost(s Shape) []Part {
	n := float64(s.N)
	k := float64(min(graRepDim, s.N))
	d := 2*float64(s.E)/max(n, 1) + 1
	walked := s.walkedDegree(d)
	var nnz, spread float64
	reach := d // a row's entries in Â^k, k = 1 first
	for k := range graRepOrder {
		spread += n * min(reach*walked, n*d)
		grow := d
		if k == 0 {
			grow = walked // Â²'s rows: the walks of two steps, hubs and all
		}
		reach = min(n, reach*grow)
		nnz += n * reach
	}
	svd := svdCost(phrase.New("GraRep's truncated SVDs"), s, nnz/graRepOrder, k, graRepIters)
	svd.SetupWork = svd.SetupWork.Times(graRepOrder)
	return []Part{
		{What: phrase.New("GraRep's powers of the transition matrix"), SetupWork: Work{Dense: 2 * graRepOrder * n * n, Gather: spread, Exp: nnz},
			Bytes: 20*n*n + f64*n, Fields: []string{"nodes"}},
		svd,
		logRegCost(s, graRepOrder*k),
	}
}
