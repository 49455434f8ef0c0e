package pdn

import (
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
	register(experiment.TADW, model{cost: func(s Shape, _ experiment.Model) []Part { return tadwCost(s) },
		build: func(g *datasets.Graph, _ experiment.Model, _ *rand.Rand, seed uint64) network {
			return embedNetOf(experiment.TADW, g, seed, newTADW)
		}})
}

// TADW's settings, Karate Club's defaults (karateclub.TADW, v1.3): 32
// dimensions, node features reduced to 64 by a truncated SVD of 20 power
// iterations, 10 iterations of gradient descent at a rate of 0.01, the
// regularisation λ = 10.
const (
	TADWDim       = 32   // dimensions
	TADWReduction = 64   // reduction_dimensions
	TADWSVDIters  = 20   // svd_iterations
	TADWIters     = 10   // iterations
	TADWRate      = 0.01 // alpha
	TADWLambda    = 10.0 // lambd
)

// streamTADW is the weight seed's stream of TADW's truncated SVD and of W
// and H's first values.
const streamTADW = 0x74616477

// tadw is TADW (Yang et al., "Network Representation Learning with Rich
// Text Information", IJCAI 2015), as Karate Club's TADW makes it, the
// embedder of an embedNet. The paper factorises M = (A + A²)/2, A the
// transition matrix, as M ≈ WᵀHT, T the node features reduced by an SVD;
// Karate Club factorises the square of its own normalised adjacency
// instead (karateWeights):
//
//	Â = karateWeights(g),  M = Â²,  T = (X·V)ᵀ  (r×N, V X's r leading right singular vectors),
//
// W (32×N) and H (32×r) drawn uniformly from [0, 1), then 10 times, each
// over M's stored entries S alone and both by the ℓ2 norm's gradient
// λ·W/‖W‖ (not the squared norm's):
//
//	W ← W − α(λW/‖W‖ − ((M − S_W)·(HT)ᵀ)ᵀ / Σ s²),  s_rc = (HT)_r · W_c  over S,
//	H ← H − α(λH/‖H‖ − W·(M − S_H)·Tᵀ / Σ s²),     s_rc = (HT)_c · W_r  over S,
//
// S_W and S_H those scores at M's entries, the second pass reading the W
// the first made. The embedding is [Wᵀ | (HT)ᵀ], N×64, used as it is,
// unstandardised, as Karate Club hands it to scikit-learn. X is reduced as
// FEATHER's is (TruncatedSVD's transform, truncatedSVD): where it has 64
// columns or fewer (Karate Club's TruncatedSVD refuses them) T is X itself.
//
// Karate Club seeds numpy and the SVD with 42; here both draw from the
// weight seed. It is made in pieces (prepare): M a block of rows at a
// time, the SVD a power iteration at a time, each pass of each iteration a
// block of rows at a time, every sum in a fixed order and every product
// rounded before it is added: the same bits however it is cut, natively
// and in the browser.
type tadw struct {
	g      *datasets.Graph
	rnd    *rand.Rand
	r      int // reduced features
	p      *datasets.CSR
	target csrOp // M, made by rows
	op     linOp
	svd    *svdRun
	red    []float64 // Tᵀ, N×r
	wt, ht []float64 // Wᵀ and (HT)ᵀ, N×32
	h      []float64 // H, 32×r
	gradW  []float64 // W's main gradient, transposed: N×32
	gradH  []float64 // H's: 32×r
	dr     []float64 // a row of (M − S_H)·Tᵀ
	sumsq  float64   // Σ s² of the pass so far
	emb    []float64
	st     tadwStep
	it     int // iterations done
	row    int // the next row of the current stage
}

// tadwStep is a stage of TADW's set-up, in order; an iteration is its two
// passes, each its rows and then its update.
type tadwStep int

const (
	tadwTarget tadwStep = iota // M's rows
	tadwReduce                 // the SVD's steps, then T
	tadwPassW                  // W's gradient, by rows
	tadwPassH                  // H's gradient, by rows
	tadwDone
)

func newTADW(g *datasets.Graph, seed uint64) *tadw {
	return &tadw{g: g, r: tadwReduced(g.N, g.F), rnd: rand.New(rand.NewPCG(seed, streamTADW)),
		p: karateWeights(g), target: newCSROp(g.N, g.N)}
}

// tadwReduced is the number of features TADW keeps of n nodes' f: all of
// them up to TADWReduction, else the SVD's, TADWReduction or n if fewer.
func tadwReduced(n, f int) int {
	if f <= TADWReduction {
		return f
	}
	return min(TADWReduction, n)
}

func (m *tadw) dim() int { return 2 * TADWDim }

func (m *tadw) embedding() []float64 { return m.emb }

// tadwRows is how many rows a piece of M or of a pass makes between two
// looks at the deadline: about a millisecond's work on Cora.
const tadwRows = 256

// preparing is the share done: M, the SVD and each pass count one each,
// the SVD's by its steps, the others' by their rows.
func (m *tadw) preparing() float64 {
	if m.emb != nil {
		return 1
	}
	steps := float64(2 + 2*TADWIters)
	rows := float64(m.row) / float64(max(m.g.N, 1))
	switch m.st {
	case tadwTarget:
		return rows / steps
	case tadwReduce:
		if m.svd == nil {
			return 1 / steps
		}
		return (1 + m.svd.share()) / steps
	}
	return (float64(2+2*m.it+int(m.st-tadwPassW)) + rows) / steps
}

// prepare makes the embedding until done or the deadline passes, and
// reports whether it is done.
func (m *tadw) prepare(deadline time.Time) bool {
	for m.emb == nil {
		switch m.st {
		case tadwTarget:
			m.targetRows(tadwRows)
		case tadwReduce:
			m.reduceStep()
		case tadwPassW:
			m.passWRows(tadwRows)
		case tadwPassH:
			m.passHRows(tadwRows)
		}
		if m.emb == nil && time.Now().After(deadline) {
			return false
		}
	}
	return true
}

// targetRows makes the next k rows of M = Â², each row's columns
// ascending: row i is Σ_k Â_ik Â_k over Â's row i, in its order.
func (m *tadw) targetRows(k int) {
	p, n := m.p, m.g.N
	acc := make([]float64, n)
	seen := make([]bool, n)
	var cols []int32
	var vals []float64
	for ; k > 0 && m.row < n; k-- {
		i := m.row
		cols = cols[:0]
		for q := p.Ptr[i]; q < p.Ptr[i+1]; q++ {
			a := p.Val[q]
			kk := p.Col[q]
			for q2 := p.Ptr[kk]; q2 < p.Ptr[kk+1]; q2++ {
				j := p.Col[q2]
				if !seen[j] {
					seen[j] = true
					cols = append(cols, j)
				}
				acc[j] += float64(a * p.Val[q2])
			}
		}
		slices.Sort(cols)
		vals = vals[:0]
		for _, j := range cols {
			vals = append(vals, acc[j])
			acc[j], seen[j] = 0, false
		}
		m.target.appendRow(cols, vals)
		m.row++
	}
	if m.row == n {
		m.st, m.row, m.p = tadwReduce, 0, nil
	}
}

// reduceStep takes the next step of the reduction: the SVD's start, a
// power iteration, or T = X·V (X itself when it is not reduced), and then
// W and H's first values.
func (m *tadw) reduceStep() {
	g := m.g
	if g.F > TADWReduction {
		if m.svd == nil {
			m.op = featureOp(g)
			m.svd = newSVDRun(m.op, m.r, TADWSVDIters, m.rnd)
			return
		}
		if !m.svd.step() {
			return
		}
		red := mat.NewDense(g.N, m.r, nil)
		m.op.mul(red, m.svd.v)
		m.red = red.RawMatrix().Data
		m.svd, m.op = nil, nil
	} else {
		m.red = denseFeatures(g)
	}
	// W, then H, by rows, as numpy's uniform fills them.
	w := make([]float64, TADWDim*g.N)
	for i := range w {
		w[i] = m.rnd.Float64()
	}
	m.wt = make([]float64, g.N*TADWDim)
	for i := range TADWDim {
		for c := range g.N {
			m.wt[c*TADWDim+i] = w[i*g.N+c]
		}
	}
	m.h = make([]float64, TADWDim*m.r)
	for i := range m.h {
		m.h[i] = m.rnd.Float64()
	}
	m.ht = make([]float64, g.N*TADWDim)
	m.transform()
	m.gradW, m.gradH = make([]float64, g.N*TADWDim), make([]float64, TADWDim*m.r)
	m.dr = make([]float64, m.r)
	m.st, m.row = tadwPassW, 0
}

// transform makes (HT)ᵀ: row c is Σ_k T_kc H_:k, k in order.
func (m *tadw) transform() {
	r := m.r
	for c := range m.g.N {
		out := m.ht[c*TADWDim:][:TADWDim]
		x := m.red[c*r:][:r]
		for i := range TADWDim {
			var s float64
			for k, h := range m.h[i*r:][:r] {
				s += float64(h * x[k])
			}
			out[i] = s
		}
	}
}

// dotInOrder is Σ a_i b_i over i in order, each product rounded.
func dotInOrder(a, b []float64) float64 {
	var s float64
	for i, x := range a {
		s += float64(x * b[i])
	}
	return s
}

// passWRows adds the next k rows of W's gradient: row r of
// (M − S_W)·(HT)ᵀ, s_rc = (HT)_r · W_c, and their scores' squares.
func (m *tadw) passWRows(k int) {
	t := m.target.a
	for ; k > 0 && m.row < m.g.N; k-- {
		r := m.row
		hr := m.ht[r*TADWDim:][:TADWDim]
		out := m.gradW[r*TADWDim:][:TADWDim]
		for q := t.Ptr[r]; q < t.Ptr[r+1]; q++ {
			c := int(t.Col[q])
			s := dotInOrder(hr, m.wt[c*TADWDim:][:TADWDim])
			m.sumsq += float64(s * s)
			diff := t.Val[q] - s
			for i, v := range m.ht[c*TADWDim:][:TADWDim] {
				out[i] += float64(diff * v)
			}
		}
		m.row++
	}
	if m.row < m.g.N {
		return
	}
	tadwUpdate(m.wt, m.gradW, m.sumsq)
	clear(m.gradW)
	m.st, m.row, m.sumsq = tadwPassH, 0, 0
}

// passHRows adds the next k rows' share of H's gradient: for row r,
// W_r ⊗ (row r of (M − S_H)·Tᵀ), s_rc = (HT)_c · W_r.
func (m *tadw) passHRows(k int) {
	t, r := m.target.a, m.r
	for ; k > 0 && m.row < m.g.N; k-- {
		i := m.row
		wr := m.wt[i*TADWDim:][:TADWDim]
		clear(m.dr)
		for q := t.Ptr[i]; q < t.Ptr[i+1]; q++ {
			c := int(t.Col[q])
			s := dotInOrder(m.ht[c*TADWDim:][:TADWDim], wr)
			m.sumsq += float64(s * s)
			diff := t.Val[q] - s
			for j, x := range m.red[c*r:][:r] {
				m.dr[j] += float64(diff * x)
			}
		}
		for d, w := range wr {
			out := m.gradH[d*r:][:r]
			for j, x := range m.dr {
				out[j] += float64(w * x)
			}
		}
		m.row++
	}
	if m.row < m.g.N {
		return
	}
	tadwUpdate(m.h, m.gradH, m.sumsq)
	m.transform()
	clear(m.gradH)
	m.it++
	m.st, m.row, m.sumsq = tadwPassW, 0, 0
	if m.it == TADWIters {
		m.finish()
	}
}

// tadwUpdate is Karate Club's update of a factor x (W or H, in any layout) by
// its main gradient g over the scores' Σ s²: x ← x − α(λx/‖x‖ − g/Σ s²),
// ‖x‖ the Frobenius norm of x before the update.
func tadwUpdate(x, g []float64, sumsq float64) {
	var ss float64
	for _, v := range x {
		ss += float64(v * v)
	}
	scale := TADWLambda / math.Sqrt(ss)
	for i, v := range x {
		x[i] = v - float64(TADWRate*(float64(scale*v)-g[i]/sumsq))
	}
}

// finish lays out [Wᵀ | (HT)ᵀ] and frees the rest.
func (m *tadw) finish() {
	n := m.g.N
	emb := make([]float64, n*2*TADWDim)
	for c := range n {
		copy(emb[c*2*TADWDim:], m.wt[c*TADWDim:][:TADWDim])
		copy(emb[c*2*TADWDim+TADWDim:], m.ht[c*TADWDim:][:TADWDim])
	}
	m.emb, m.st = emb, tadwDone
	m.target, m.red, m.wt, m.ht, m.h, m.gradW, m.gradH, m.dr = csrOp{}, nil, nil, nil, nil, nil, nil, nil
}

// karateWeights is the normalised adjacency TADW and BANE build in Karate
// Club (their _create_target_matrix) of g with a self-loop at every node
// (Karate Club adds them to every graph it embeds, and networkx counts a
// loop twice in a degree: δ_i = d_i + 2). Each pair u, v is weighted
// 1/δ_u and then 1/δ_v in an undirected networkx graph, whose second
// weight replaces the first: the matrix is symmetric, Â_uv = Â_vu = 1/δ_v
// for v the later of the two in the order networkx lists the edges, the
// nodes in the order of their ids: 1/δ of the larger id (1/δ_u on the
// loop). Each row's columns ascending, as csrOp reads them.
func karateWeights(g *datasets.Graph) *datasets.CSR {
	adj := newAdjacency(g.N, g.Src, g.Dst)
	inv := make([]float64, g.N)
	for i := range inv {
		inv[i] = 1 / float64(adj.rowPtr[i+1]-adj.rowPtr[i]+2)
	}
	p := &datasets.CSR{Rows: g.N, Cols: g.N, Ptr: make([]int, 1, g.N+1)}
	var cols []int32
	for i := range g.N {
		cols = append(append(cols[:0], int32(i)), adj.col[adj.rowPtr[i]:adj.rowPtr[i+1]]...)
		slices.Sort(cols)
		for _, j := range cols {
			p.Col = append(p.Col, j)
			p.Val = append(p.Val, inv[max(int32(i), j)])
		}
		p.Ptr = append(p.Ptr, len(p.Val))
	}
	return p
}

// featureSVDCost is a truncated SVD of k triplets by iters power
// iterations over the node features of s, and its reduction R = X·V (N×k):
// the products with X (two a power iteration, the first, B's and R's),
// the QR factorisations and their Qs (two a power iteration and the
// first), about 4·rows·l² each; and the bytes its buffers hold while it
// runs. Nothing where the features are k or fewer, used as they are.
func featureSVDCost(s Shape, k, iters int) (Work, float64) {
	if s.F <= k {
		return Work{}, 0
	}
	n, f := float64(s.N), float64(s.F)
	r := float64(min(k, s.N))
	l := float64(min(k+svdOversamples, s.N, s.F))
	w := s.features(float64(2*iters+3)*l, l)
	w.Dense += 4 * l * l * (float64(iters+1)*n + float64(iters)*f + l)
	return w, f64 * (3*(n+f)*l + n*r)
}

// tadwCost is M, the features' SVD and the iterations, then the
// regression. M's entries are the pairs within two steps, counted from
// the degrees (Shape.twoStepPairs: a few hubs make M near dense, where
// the mean degree said N·(d+1)², and on a ring with two hubs of 8,000
// nodes the set-up took 40 times and the memory 3.2 times what that
// estimated); before the graph is built its memory is charged at the
// bound, N² pairs, as NetMF's is.
func tadwCost(s Shape) []Part {
	n := float64(s.N)
	walks, nnz, mBytes := s.twoStepPairs()
	r := float64(tadwReduced(s.N, s.F))
	setup, svdBytes := featureSVDCost(s, TADWReduction, TADWSVDIters)
	setup.Gather += walks + TADWIters*nnz*(4*TADWDim+r)
	setup.Dense += TADWIters * 2 * n * r * TADWDim
	return []Part{
		{What: phrase.New("TADW's factorisation"), SetupWork: setup,
			Bytes: mBytes + f64*n*(4*TADWDim+r) + 12*(n+2*float64(s.E)), SetupBytes: svdBytes,
			Fields: []string{"nodes", "node-features", "edges"}},
		logRegCost(s, 2*TADWDim),
	}
}
