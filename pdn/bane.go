package pdn

import (
	"math/rand/v2"
	"slices"
	"time"

	"gonum.org/v1/gonum/mat"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
)

func init() {
	register(experiment.BANE, model{cost: func(s Shape, _ experiment.Model) []Part { return baneCost(s) },
		build: func(g *datasets.Graph, _ experiment.Model, _ *rand.Rand, seed uint64) network {
			return embedNetOf(experiment.BANE, g, seed, newBANE)
		}})
}

// BANE's settings, Karate Club's defaults (karateclub.BANE, v1.3): 32
// dimensions, a truncated SVD of 20 power iterations, the kernel's ridge
// α = 0.3, 20 rounds of binarisation, each of 100 sweeps of cyclic
// coordinate descent.
const (
	BANEDim     = 32  // dimensions
	BANESVDIter = 20  // svd_iterations
	BANEAlpha   = 0.3 // alpha
	BANERounds  = 20  // binarization_iterations
	BANESweeps  = 100 // iterations
)

// streamBANE is the weight seed's stream of BANE's truncated SVD and of
// B's first signs.
const streamBANE = 0x62616e65

// bane is BANE (Yang et al., "Binarized Attributed Network Embedding",
// ICDM 2018), as Karate Club's BANE makes it, the embedder of an
// embedNet: the node features X propagated one step over Karate Club's
// normalised adjacency (karateWeights, TADW's), reduced by a truncated SVD
// to its 32 leading directions (TruncatedSVD.fit_transform, U·Σ), and that
// matrix P̃ (N×32) approximated by binary codes B ∈ {−1, 1}^(N×32):
//
//	P̃ = U·Σ of Â·X,   B = sign(N(0, 1)) to start, then 20 rounds of
//	G = (BᵀB + αI)⁻¹ BᵀP̃,  Q = P̃Gᵀ,  K = G·G,
//	and 100 sweeps, d = 1 … 32:  B_:d = sign(Q_:d − Σ_{e≠d} B_:e K_ed),
//
// K = G·G as Karate Club's B[:, sel]·G[sel, :]·G[:, d] multiplies it (the
// paper's CCD reads GGᵀ). The embedding is B, used as it is. A row's
// sweeps read that row alone, so each row is swept on its own, and once a
// sweep changes none of its signs the 100 are done: every later sweep
// would find the same. Karate Club's SVD refuses fewer than 32 features;
// here the SVD keeps as many as there are.
//
// Karate Club seeds numpy and the SVD with 42; here both draw from the
// weight seed. It is made in pieces (prepare): Â·X a block of rows at a
// time, the SVD a power iteration at a time, each round's sweeps a block
// of rows at a time, every sum in a fixed order and every product rounded
// before it is added: the same bits however it is cut, natively and in
// the browser.
type bane struct {
	g    *datasets.Graph
	rnd  *rand.Rand
	k    int
	p    *datasets.CSR
	px   linOp // Â·X, made by rows
	sx   csrOp // its rows, when X is sparse
	dx   []float64
	svd  *svdRun
	red  []float64 // P̃, N×k
	b    []float64 // B, N×k
	gm   []float64 // this round's G, k×k
	kk   []float64 // K = G·G, k×k
	emb  []float64
	st   baneStep
	rd   int // rounds done
	row  int // the next row of the current stage
	acc  []float64
	seen []bool
}

// baneStep is a stage of BANE's set-up, in order.
type baneStep int

const (
	banePropagate baneStep = iota // Â·X's rows
	baneReduce                    // the SVD's steps, then P̃ and B
	baneRound                     // G, Q and K, then the sweeps by rows
	baneDone
)

func newBANE(g *datasets.Graph, seed uint64) *bane {
	m := &bane{g: g, k: min(BANEDim, g.N, g.F), rnd: rand.New(rand.NewPCG(seed, streamBANE)), p: karateWeights(g)}
	if g.XS != nil {
		m.sx = newCSROp(g.N, g.F)
		m.acc, m.seen = make([]float64, g.F), make([]bool, g.F)
	} else {
		m.dx = make([]float64, g.N*g.F)
	}
	return m
}

func (m *bane) dim() int { return m.k }

func (m *bane) embedding() []float64 { return m.emb }

// baneRows is how many rows a piece of Â·X or of a round's sweeps makes
// between two looks at the deadline.
const baneRows = 128

// preparing is the share done: Â·X, the SVD and each round count one
// each, the SVD's by its steps, the others' by their rows.
func (m *bane) preparing() float64 {
	if m.emb != nil {
		return 1
	}
	steps := float64(2 + BANERounds)
	rows := float64(m.row) / float64(max(m.g.N, 1))
	switch m.st {
	case banePropagate:
		return rows / steps
	case baneReduce:
		if m.svd == nil {
			return 1 / steps
		}
		return (1 + m.svd.share()) / steps
	}
	return (float64(2+m.rd) + rows) / steps
}

// prepare makes the embedding until done or the deadline passes, and
// reports whether it is done.
func (m *bane) prepare(deadline time.Time) bool {
	for m.emb == nil {
		switch m.st {
		case banePropagate:
			m.propagateRows(baneRows)
		case baneReduce:
			m.reduceStep()
		case baneRound:
			if m.row == 0 && m.gm == nil {
				m.kernel()
			}
			m.sweepRows(baneRows)
		}
		if m.emb == nil && time.Now().After(deadline) {
			return false
		}
	}
	return true
}

// propagateRows makes the next k rows of Â·X: row i is Σ_j Â_ij X_j over
// Â's row i, in its order (sparse, its columns then sorted).
func (m *bane) propagateRows(k int) {
	g, p := m.g, m.p
	for ; k > 0 && m.row < g.N; k-- {
		i := m.row
		if g.XS == nil {
			out := m.dx[i*g.F:][:g.F]
			for q := p.Ptr[i]; q < p.Ptr[i+1]; q++ {
				a := p.Val[q]
				for c, x := range g.X[int(p.Col[q])*g.F:][:g.F] {
					out[c] += float64(a * x)
				}
			}
		} else {
			var cols []int32
			xs := g.XS
			for q := p.Ptr[i]; q < p.Ptr[i+1]; q++ {
				a, j := p.Val[q], p.Col[q]
				for q2 := xs.Ptr[j]; q2 < xs.Ptr[j+1]; q2++ {
					c := xs.Col[q2]
					if !m.seen[c] {
						m.seen[c] = true
						cols = append(cols, c)
					}
					m.acc[c] += float64(a * xs.Val[q2])
				}
			}
			slices.Sort(cols)
			vals := make([]float64, len(cols))
			for n, c := range cols {
				vals[n] = m.acc[c]
				m.acc[c], m.seen[c] = 0, false
			}
			m.sx.appendRow(cols, vals)
		}
		m.row++
	}
	if m.row < g.N {
		return
	}
	if g.XS == nil {
		m.px = denseOp{mat.NewDense(g.N, g.F, m.dx)}
	} else {
		m.px = m.sx
	}
	m.st, m.row, m.p, m.acc, m.seen = baneReduce, 0, nil, nil, nil
}

// reduceStep takes the next step of the SVD: its start, a power
// iteration, or the last, and then P̃ = U·Σ and B's first signs.
func (m *bane) reduceStep() {
	if m.svd == nil {
		m.svd = newSVDRun(m.px, m.k, BANESVDIter, m.rnd)
		return
	}
	if !m.svd.step() {
		return
	}
	n, k := m.g.N, m.k
	u := m.svd.u.RawMatrix()
	m.red = make([]float64, n*k)
	for i := range n {
		for j := range k {
			m.red[i*k+j] = float64(u.Data[i*u.Stride+j] * m.svd.s[j])
		}
	}
	m.svd, m.px, m.sx, m.dx = nil, nil, csrOp{}, nil
	m.b = make([]float64, n*k)
	for i := range m.b {
		m.b[i] = sign(m.rnd.NormFloat64())
	}
	m.st, m.row = baneRound, 0
}

// sign is numpy's: −1, 0 or 1.
func sign(x float64) float64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// kernel makes the round's G = (BᵀB + αI)⁻¹ BᵀP̃ and K = G·G.
func (m *bane) kernel() {
	n, k := m.g.N, m.k
	btb, btp := mat.NewDense(k, k, nil), mat.NewDense(k, k, nil)
	bb, bp := btb.RawMatrix().Data, btp.RawMatrix().Data
	for i := range n {
		bi, pi := m.b[i*k:][:k], m.red[i*k:][:k]
		for d, x := range bi {
			for e := range k {
				bb[d*k+e] += float64(x * bi[e])
				bp[d*k+e] += float64(x * pi[e])
			}
		}
	}
	for d := range k {
		bb[d*k+d] += BANEAlpha
	}
	var inv, g mat.Dense
	if err := inv.Inverse(btb); err != nil {
		panic("pdn: BANE: BᵀB + αI is singular: " + err.Error())
	}
	g.Mul(&inv, btp)
	m.gm, m.kk = make([]float64, k*k), make([]float64, k*k)
	for d := range k {
		for e := range k {
			m.gm[d*k+e] = g.At(d, e)
			var s float64
			for j := range k {
				s += float64(g.At(d, j) * g.At(j, e))
			}
			m.kk[d*k+e] = s
		}
	}
}

// sweepRows sweeps the next k rows: Q_i = P̃_i Gᵀ, then up to 100 sweeps
// over its signs, stopping at the first that changes none.
func (m *bane) sweepRows(rows int) {
	n, k := m.g.N, m.k
	q := make([]float64, k)
	for ; rows > 0 && m.row < n; rows-- {
		i := m.row
		pi, bi := m.red[i*k:][:k], m.b[i*k:][:k]
		for d := range k {
			q[d] = dotInOrder(pi, m.gm[d*k:][:k]) // (P̃Gᵀ)_id
		}
		for range BANESweeps {
			changed := false
			for d := range k {
				s := q[d]
				for e, x := range bi {
					if e != d {
						s -= float64(x * m.kk[e*k+d])
					}
				}
				if v := sign(s); v != bi[d] {
					bi[d], changed = v, true
				}
			}
			if !changed {
				break
			}
		}
		m.row++
	}
	if m.row < n {
		return
	}
	m.rd++
	m.row, m.gm, m.kk = 0, nil, nil
	if m.rd == BANERounds {
		m.emb, m.st, m.red, m.b = m.b, baneDone, nil, nil
	}
}

// baneCost is Â·X, its SVD, the rounds, then the regression. Â·X's rows
// hold the features of a node and its neighbours: N·F values at most,
// sparse the features' non-zeros (N + 2E)/N times over. A row's sweeps
// stop at the first that changes no sign: on Cora and Citeseer a round
// takes about baneSweepsSeen sweeps a row on average, of the 100 allowed.
func baneCost(s Shape) []Part {
	n, e, f := float64(s.N), float64(s.E), float64(s.F)
	k := float64(min(BANEDim, s.N, s.F))
	l := min(k+svdOversamples, n, f)
	work, bytes := Work{Dense: (n + 2*e) * f}, f64*n*f
	nnz := n * f
	if s.NNZ > 0 {
		nnz = min(n*f, float64(s.NNZ)*(n+2*e)/n)
		work, bytes = Work{Gather: (n + 2*e) * float64(s.NNZ) / n}, 12*nnz
	}
	svd := Work{Gather: float64(2*BANESVDIter+3) * nnz * l,
		Dense: 4 * l * l * (float64(BANESVDIter+1)*n + BANESVDIter*f + l)}
	if s.NNZ == 0 {
		svd = Work{Dense: float64(2*BANESVDIter+3)*nnz*l + svd.Dense}
	}
	rounds := Work{Dense: BANERounds * n * k * (3*k + baneSweepsSeen*(k-1))}
	return []Part{
		{What: phrase.New("BANE's binary codes"), SetupWork: work.Plus(svd).Plus(rounds),
			Bytes: f64 * 2 * n * k, SetupBytes: bytes + f64*(3*(n+f)*l+n*k),
			Fields: []string{"nodes", "node-features", "edges"}},
		logRegCost(s, k),
	}
}

// baneSweepsSeen is the mean number of sweeps a row takes in a round,
// rounded up from the most measured: 18.2, 20.2 and 20.2 on Cora and
// 31.9, 29.7 and 33.1 on Citeseer at seeds 1–3 (a guess of 4 had held
// the rounds' work five to eight times short).
const baneSweepsSeen = 33
