package pdn

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"gonum.org/v1/gonum/mat"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
)

func init() {
	register(experiment.AANE, model{cost: func(s Shape, _ experiment.Model) []Part { return aaneCost(s) },
		build: func(g *datasets.Graph, _ experiment.Model, _ *rand.Rand, seed uint64) network {
			return embedNetOf(experiment.AANE, g, seed, newAANE)
		}})
}

// AANE's settings. Karate Club (v1.3) has no AANE, so these are its
// authors' code's defaults (Huang, Li and Hu's AANE_fun, in Python and
// MATLAB, called without options): λ = 0.1, ρ = 5, two iterations, the
// start from the adjacency matrix's SVD; and 128 dimensions, as Appendix D
// gives every embedding. The SVD's power iterations are the engine's: as
// many as take the randomized SVD to the subspace that svds (ARPACK)
// converges to on Cora, where the 128th and 129th singular values are
// 3.713 and 3.707 (HOPE's 60 likewise).
const (
	AANEDim    = 128
	AANELambda = 0.1 // lambd: the weight of the graph's term
	AANERho    = 5.0 // rho: ADMM's penalty
	AANEIters  = 2   // maxiter: H, then Z and U, then H again
	aaneSVDIts = 60
)

// streamAANE is the weight seed's stream of AANE's SVD test matrix.
const streamAANE = 0x5a01

// aane is AANE, accelerated attributed network embedding (Huang, Li and
// Hu, SDM 2017), as its authors' AANE_fun makes it, the embedder of an
// embedNet. With S = ÂÂᵀ the cosine similarity of the nodes' features
// (Â the features with each row scaled to unit length; a row of zeros
// stays zero) and w_ij the edges' weights (1), it seeks H (N×d) solving
//
//	min ‖S − H Hᵀ‖²_F + λ Σ_(i,j)∈E w_ij ‖h_i − h_j‖₂
//
// by ADMM over the split H = Z: each row of H, and then of Z, is the
// solution of a d×d linear system given the other matrix,
//
//	(2ZᵀZ + (ρ + Σ_j c_ij) I) h_i = 2(S Z)_i + Σ_j c_ij z_j + ρ (z_i − u_i),
//	c_ij = λ w_ij / ‖z_j − h_i‖  over i's neighbours j with z_j ≠ h_i,
//
// (Z's the same with H and Z swapped and ρ(h_i + u_i)), then U += H − Z.
// It starts from H = Z the d leading left singular vectors of A's columns
// of the 10·d nodes of highest degree (ties to the lower index, as Python's
// stable sort leaves them), U = 0; takes H's update, then Z's, U's and
// H's (AANEIters = 2); and the embedding is H, as AANE_fun returns it.
//
// S is never formed: S·Z = Â(ÂᵀZ), through the features' kernels (csrOp).
// Each system is solved through the eigendecomposition 2ZᵀZ + ρI = QΛQᵀ,
// taken once an update: h_i = Q (Λ + Σ_j c_ij)⁻¹ Qᵀ r_i, 2d² a row where a
// factorisation is d³/6. The SVD is truncatedSVD's, whose columns may come
// rotated against svds's within the subspace: AANE's updates turn with
// them (H Q for any orthogonal Q), and the classifier sees the same
// embedding up to the signs and order of its columns where the singular
// values are distinct. Made in pieces (prepare): the SVD a power iteration
// at a time, then each update a block of rows at a time, every sum in a
// fixed order, each product rounded before it is added: the same bits
// natively and in the browser, however it is cut.
type aane struct {
	g    *datasets.Graph
	d    int
	rnd  *rand.Rand
	adj  *adjacency
	svd  *svdRun
	feat linOp // Â
	h, z []float64
	u    []float64
	// The update under way: its step (0 is H's first), its system's
	// eigenvectors (d×d, row-major) and values, 2S·B for B the matrix it
	// reads, and the next row.
	step  int
	q     []float64
	lam   []float64
	sums  []float64
	from  []float64 // the matrix the update reads
	row   int
	ready bool // the update's eigendecomposition and sums are made
	emb   []float64
	tmp   []float64
}

// aaneSteps are the updates: H, then Z (with U after it), then H.
const aaneSteps = 2*AANEIters - 1

func newAANE(g *datasets.Graph, seed uint64) *aane {
	return &aane{g: g, d: min(AANEDim, g.N), rnd: rand.New(rand.NewPCG(seed, streamAANE))}
}

func (m *aane) dim() int { return m.d }

func (m *aane) embedding() []float64 { return m.emb }

// aaneRows is how many rows an update makes between two looks at the
// deadline: a few ms on Cora.
const aaneRows = 64

// prepare makes the embedding until done or the deadline passes, and
// reports whether it is done.
func (m *aane) prepare(deadline time.Time) bool {
	for m.emb == nil {
		switch {
		case m.h == nil:
			m.svdStep()
		case !m.ready:
			m.startUpdate()
		default:
			m.updateRows(aaneRows)
		}
		if m.emb == nil && time.Now().After(deadline) {
			return false
		}
	}
	return true
}

// preparing is the share done: the SVD's steps as one stage, each update
// as another.
func (m *aane) preparing() float64 {
	const stages = aaneSteps + 1
	switch {
	case m.emb != nil:
		return 1
	case m.h == nil && m.svd != nil:
		return m.svd.share() / stages
	case m.h == nil:
		return 0
	}
	return (1 + float64(m.step) + float64(m.row)/float64(max(m.g.N, 1))) / stages
}

// aaneColumns is the number of A's columns AANE's start reads, and the
// rank it takes of them: 10·d and d, at most n each.
func aaneColumns(n int) (cols, rank int) {
	d := min(AANEDim, n)
	return min(10*d, n), d
}

// svdStep takes the next step of the start: the SVD's first, a power
// iteration, or H = Z = U_d and the features' Â.
func (m *aane) svdStep() {
	g := m.g
	if m.svd == nil {
		m.adj = newAdjacency(g.N, g.Src, g.Dst)
		m.svd = newSVDRun(m.topColumns(), m.d, aaneSVDIts, m.rnd)
		return
	}
	if !m.svd.step() {
		return
	}
	m.h = slices.Clone(m.svd.u.RawMatrix().Data)
	m.z = slices.Clone(m.h)
	m.u = make([]float64, len(m.h))
	m.svd = nil
	m.feat = unitRows(g)
}

// topColumns is A (a Graph has no self-loops nor repeated pairs: A's
// diagonal is zero, its entries 1) restricted to the columns of
// the nodes of highest degree, in that order, as a CSR of N rows.
func (m *aane) topColumns() linOp {
	n := m.g.N
	cols, _ := aaneColumns(n)
	deg := func(v int) int32 { return m.adj.rowPtr[v+1] - m.adj.rowPtr[v] }
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(deg(b), deg(a)) })
	at := make([]int32, n) // a node's column, or −1
	for i := range at {
		at[i] = -1
	}
	for c, v := range order[:cols] {
		at[v] = int32(c)
	}
	op := newCSROp(n, cols)
	var cs []int32
	var vs []float64
	for i := range n {
		cs, vs = cs[:0], vs[:0]
		for _, j := range m.adj.col[m.adj.rowPtr[i]:m.adj.rowPtr[i+1]] {
			if c := at[j]; c >= 0 {
				cs = append(cs, c)
			}
		}
		slices.Sort(cs)
		for range cs {
			vs = append(vs, 1)
		}
		op.appendRow(cs, vs)
	}
	return op
}

// unitRows is g's node features with each row scaled to unit Euclidean
// length (a row of zeros left zero), as a CSR of the stored values.
func unitRows(g *datasets.Graph) linOp {
	op := newCSROp(g.N, g.F)
	x := g.X
	var cs []int32
	var vs []float64
	for i := range g.N {
		cs, vs = cs[:0], vs[:0]
		if g.XS != nil {
			for p := g.XS.Ptr[i]; p < g.XS.Ptr[i+1]; p++ {
				if v := g.XS.Val[p]; v != 0 {
					cs, vs = append(cs, g.XS.Col[p]), append(vs, v)
				}
			}
		} else {
			for j, v := range x[i*g.F : (i+1)*g.F] {
				if v != 0 {
					cs, vs = append(cs, int32(j)), append(vs, v)
				}
			}
		}
		var sq float64
		for _, v := range vs {
			sq += float64(v * v)
		}
		r := 1 / math.Sqrt(sq)
		for k := range vs {
			vs[k] *= r
		}
		op.appendRow(cs, vs)
	}
	return op
}

// startUpdate makes what every row of the next update reads: 2BᵀB + ρI's
// eigendecomposition and 2S·B, for B the matrix it reads (Z when H is
// updated, H when Z is).
func (m *aane) startUpdate() {
	n, d := m.g.N, m.d
	m.from = m.z
	if m.step%2 == 1 {
		m.from = m.h
	}
	b := m.from
	// BᵀB's upper triangle, each entry summed over the rows in order.
	acc := make([]float64, d*d)
	for i := range n {
		bi := b[i*d : (i+1)*d]
		for r, x := range bi {
			row := acc[r*d : (r+1)*d]
			for c := r; c < d; c++ {
				row[c] += float64(x * bi[c])
			}
		}
	}
	gram := mat.NewSymDense(d, nil)
	for r := range d {
		for c := r; c < d; c++ {
			v := 2 * acc[r*d+c]
			if r == c {
				v += AANERho
			}
			gram.SetSym(r, c, v)
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(gram, true) {
		panic("pdn: AANE: the system's eigendecomposition did not converge")
	}
	var q mat.Dense
	eig.VectorsTo(&q)
	m.q = slices.Clone(q.RawMatrix().Data)
	m.lam = eig.Values(nil)
	// 2S·B = 2Â(ÂᵀB).
	_, f := m.feat.Dims()
	atb := mat.NewDense(f, d, nil)
	m.feat.mulT(atb, mat.NewDense(n, d, b))
	sb := mat.NewDense(n, d, nil)
	m.feat.mul(sb, atb)
	m.sums = sb.RawMatrix().Data
	for k := range m.sums {
		m.sums[k] *= 2
	}
	m.tmp = make([]float64, 2*d)
	m.ready = true
}

// updateRows solves the next k rows' systems of the update under way,
// and once every row is solved ends it: U's update after Z's, the
// embedding after the last.
func (m *aane) updateRows(k int) {
	n, d := m.g.N, m.d
	to, sign := m.h, -1.0 // H's update aims at z_i − u_i, Z's at h_i + u_i
	if m.step%2 == 1 {
		to, sign = m.z, 1
	}
	b := m.from
	r, w := m.tmp[:d], m.tmp[d:]
	for ; k > 0 && m.row < n; k-- {
		i := m.row
		m.row++
		ai := to[i*d : (i+1)*d]
		copy(r, m.sums[i*d:(i+1)*d])
		var c float64
		lo, hi := m.adj.rowPtr[i], m.adj.rowPtr[i+1]
		for _, j := range m.adj.col[lo:hi] {
			bj := b[int(j)*d : (int(j)+1)*d]
			var sq float64
			for t := range d {
				diff := bj[t] - ai[t]
				sq += float64(diff * diff)
			}
			if sq == 0 {
				continue
			}
			cij := AANELambda / math.Sqrt(sq)
			c += cij
			for t := range d {
				r[t] += float64(cij * bj[t])
			}
		}
		bi, ui := b[i*d:(i+1)*d], m.u[i*d:(i+1)*d]
		for t := range d {
			r[t] += float64(AANERho * (bi[t] + float64(sign*ui[t])))
		}
		// a_i = Q (Λ + c)⁻¹ Qᵀ r, Qᵀr's entries each summed over t in
		// order, a row of Q at a time.
		clear(w)
		for t, rt := range r {
			for s, q := range m.q[t*d : (t+1)*d] {
				w[s] += float64(q * rt)
			}
		}
		for s := range w {
			w[s] /= m.lam[s] + c
		}
		for t := range d {
			var v float64
			for s, q := range m.q[t*d : (t+1)*d] {
				v += float64(q * w[s])
			}
			ai[t] = v
		}
	}
	if m.row < n {
		return
	}
	if m.step%2 == 1 {
		for k := range m.u {
			m.u[k] += m.h[k] - m.z[k]
		}
	}
	m.step, m.row = m.step+1, 0
	m.ready, m.q, m.lam, m.sums, m.from = false, nil, nil, nil, nil
	if m.step == aaneSteps {
		m.emb = m.h
		m.z, m.u, m.adj, m.feat, m.tmp = nil, nil, nil, nil, nil
	}
}

// aaneCost is AANE's SVD of A's top columns and its three updates, then
// its regression. An update's work: 2BᵀB (N·d² a half), its
// eigendecomposition (about 9d³), Â(ÂᵀB) over the features, the
// neighbours' distances and sums (2E·2d), and each row's solve (2d²).
func aaneCost(s Shape) []Part {
	n, e := float64(s.N), float64(s.E)
	cols, rank := aaneColumns(s.N)
	d := float64(rank)
	svd := svdCost(phrase.New("AANE's truncated SVD"), s, 2*e, d, aaneSVDIts)
	svd.SetupBytes, svd.Bytes = svd.Bytes, 0 // freed before the updates
	upd := s.features(2*d, d)
	upd.Dense += n*d*d/2 + 9*d*d*d + 2*n*d*d
	upd.Gather += 2 * e * 2 * d
	admm := Part{What: phrase.New("AANE's ADMM updates"), SetupWork: upd.Times(aaneSteps),
		// H, Z, U and S·B's N×d; ÂᵀB's F×d, and Â's copy of the features.
		Bytes:      f64*(4*n*d+float64(s.F)*d) + 12*s.inputs() + 8*(n+2*e),
		SetupBytes: f64 * float64(cols) * d,
		Fields:     []string{"nodes", "node-features", "edges"}}
	return []Part{svd, admm, logRegCost(s, d)}
}
