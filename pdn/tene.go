package pdn

import (
	"math/rand/v2"
	"slices"
	"time"

	"gonum.org/v1/gonum/mat"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/pdn/internal/kernels"
)

func init() {
	register(experiment.TENE, model{cost: func(s Shape, _ experiment.Model) []Part { return teneCost(s) },
		build: func(g *datasets.Graph, _ experiment.Model, _ *rand.Rand, seed uint64) network {
			return embedNetOf(experiment.TENE, g, seed, newTENE)
		}})
}

// TENE's settings, Karate Club's defaults (karateclub.TENE, v1.3): 32
// dimensions, 200 iterations of multiplicative updates, the weights of
// the two couplings α = β = 0.1, and every factor's entries held at
// 10⁻¹⁵ or above (lower_control).
const (
	TENEDim   = 32    // dimensions
	TENEIters = 200   // iterations
	TENEAlpha = 0.1   // alpha
	TENEBeta  = 0.1   // beta
	TENELower = 1e-15 // lower_control
)

// streamTENE is the weight seed's stream of TENE's first factors.
const streamTENE = 0x74656e65

// tene is TENE (Yang, Pan, Zhang and Zhou, "Enhanced Network Embedding
// with Text Information", ICPR 2018), as Karate Club's TENE makes it, the
// embedder of an embedNet. The graph, with a self-loop at every node
// (Karate Club adds them to every graph it embeds, and networkx counts a
// loop twice in a degree: δ_i = d_i + 2), gives the row-normalised
// adjacency X = Δ⁻¹(A + I), N×N; the node features are the text T, N×F,
// dense or sparse, used as they are. Five non-negative factors, M, U, Q
// (N×32), V (F×32) and C (32×32), are drawn uniformly from [0, 1) and
// then, 200 times, each updated in turn by the multiplicative rule of
// the joint factorisation
//
//	min ‖X − MUᵀ‖² + α‖Q − UCᵀ‖² + β‖T − QVᵀ‖²:
//
//	M ← M ⊙ (XU) ⊘ (M·UᵀU)
//	V ← V ⊙ (TᵀQ) ⊘ (V·QᵀQ)
//	C ← C ⊙ (QᵀU) ⊘ (C·UᵀU)
//	U ← U ⊙ (XᵀM + αQC) ⊘ (U·(MᵀM + αCᵀC))
//	Q ← Q ⊙ (αUCᵀ + βTV) ⊘ (αQ + βQ·VᵀV)
//
// each factor's entries below 10⁻¹⁵ raised to it after its update (a
// negative feature can make a ratio negative), each update reading the
// factors the ones before it made. The embedding is [M | Q], N×64, used as
// it is, unstandardised, as Karate Club hands it to scikit-learn. M's
// entries end about a thousandth of Q's on Cora and Citeseer (5·10⁻⁵
// against 0.04 on Cora): M's first update divides by UᵀU, whose entries
// are about N/4 for U drawn from [0, 1), which leaves M at X's scale over
// N, and U stays near where it was drawn; the regression then reads Q
// nearly alone, as it does in Karate Club.
//
// Karate Club seeds numpy with 42; here the factors draw from the weight
// seed, in Karate Club's order (M, U, Q, V, C, each by rows). It is made
// in pieces (prepare): X and the factors first, then one update at a
// time, five an iteration, every product through the kernels (X's and a
// sparse T's by kernels.SpMulABT and SpAccumATBCols, the dense ones by
// kernels.MulABT and AddATB), each entry one sum in one fixed order and
// every product rounded before it is added: the same bits however it is
// cut, natively and in the browser.
type tene struct {
	g          *datasets.Graph
	rnd        *rand.Rand
	x          *datasets.CSR // X, each row's columns ascending
	m, u, q    []float64     // N×32
	v          []float64     // V, F×32
	c          []float64     // C, 32×32
	num, den   []float64     // an update's ratio, N×32
	fnum, fden []float64     // V's, F×32
	vt         []float64     // Vᵀ, 32×F, for dense features
	uu         []float64     // UᵀU, 32×32, as M's update left it for C's
	kk, kt, kd []float64     // 32×32 scratch
	emb        []float64
	st         teneStep
	it         int // iterations done
}

// teneStep is a stage of TENE's set-up: X and the factors, then an
// iteration's five updates, in Karate Club's order.
type teneStep int

const (
	teneStart teneStep = iota // X and the first factors
	teneM
	teneV
	teneC
	teneU
	teneQ
	teneDone
)

// teneUpdates is the number of updates an iteration makes.
const teneUpdates = int(teneQ - teneM + 1)

func newTENE(g *datasets.Graph, seed uint64) *tene {
	return &tene{g: g, rnd: rand.New(rand.NewPCG(seed, streamTENE))}
}

func (m *tene) dim() int { return 2 * TENEDim }

func (m *tene) embedding() []float64 { return m.emb }

// preparing is the share done: the start and each update count one each.
func (m *tene) preparing() float64 {
	if m.emb != nil {
		return 1
	}
	if m.st == teneStart {
		return 0
	}
	return float64(1+m.it*teneUpdates+int(m.st-teneM)) / float64(1+TENEIters*teneUpdates)
}

// prepare makes the embedding until done or the deadline passes, and
// reports whether it is done: an update a look at the deadline, about
// 1.5 ms of one core on Cora.
func (m *tene) prepare(deadline time.Time) bool {
	for m.emb == nil {
		switch m.st {
		case teneStart:
			m.start()
		case teneM:
			m.updateM()
		case teneV:
			m.updateV()
		case teneC:
			m.updateC()
		case teneU:
			m.updateU()
		case teneQ:
			m.updateQ()
		}
		if m.emb == nil && time.Now().After(deadline) {
			return false
		}
	}
	return true
}

// teneAdjacency is X = Δ⁻¹(A + I) of g with a self-loop at every node, as
// Karate Club's _create_base_matrix makes it: row i holds 1/δ_i, δ_i = d_i
// + 2, at i and at each of its neighbours, its columns ascending.
func teneAdjacency(g *datasets.Graph) *datasets.CSR {
	adj := newAdjacency(g.N, g.Src, g.Dst)
	x := &datasets.CSR{Rows: g.N, Cols: g.N, Ptr: make([]int, 1, g.N+1)}
	var cols []int32
	for i := range g.N {
		cols = append(append(cols[:0], int32(i)), adj.col[adj.rowPtr[i]:adj.rowPtr[i+1]]...)
		slices.Sort(cols)
		w := 1 / float64(len(cols)+1)
		for _, j := range cols {
			x.Col, x.Val = append(x.Col, j), append(x.Val, w)
		}
		x.Ptr = append(x.Ptr, len(x.Val))
	}
	return x
}

// start makes X, draws the factors as numpy's uniform fills them, each by
// rows, and the buffers.
func (m *tene) start() {
	n, f, k := m.g.N, m.g.F, TENEDim
	m.x = teneAdjacency(m.g)
	draw := func(size int) []float64 {
		out := make([]float64, size)
		for i := range out {
			out[i] = m.rnd.Float64()
		}
		return out
	}
	m.m, m.u, m.q, m.v, m.c = draw(n*k), draw(n*k), draw(n*k), draw(f*k), draw(k*k)
	m.num, m.den = make([]float64, n*k), make([]float64, n*k)
	m.fnum, m.fden = make([]float64, f*k), make([]float64, f*k)
	if m.g.XS == nil {
		m.vt = make([]float64, k*f)
	}
	m.uu, m.kk, m.kt, m.kd = make([]float64, k*k), make([]float64, k*k), make([]float64, k*k), make([]float64, k*k)
	m.st = teneM
}

// The products, over all their rows at once: a pacer of none splits them
// across threads natively, with the same bits as one thread.

// teneMulABT sets c (n×m) = a (n×k)·bᵀ for b (m×k).
func teneMulABT(c, a, b []float64, n, k, m int) { (*pacer)(nil).mulABT(c, a, b, n, k, m) }

// teneGram sets c (k×k) = aᵀ·b for a and b n×k.
func teneGram(c, a, b []float64, n, k int) {
	clear(c)
	(*pacer)(nil).addATB(c, a, b, n, k, k)
}

// mulSym sets c (n×k) = a (n×k)·s for s (k×k), through sᵀ in scratch t.
func (m *tene) mulSym(c, a, s []float64, n int) {
	kernels.Transpose(m.kt, s, TENEDim, TENEDim)
	teneMulABT(c, a, m.kt, n, TENEDim, TENEDim)
}

// teneRatio is x ← x ⊙ num ⊘ den, each entry below TENELower raised to
// it: numpy's x * (num / den), then x[x < lower] = lower.
func teneRatio(x, num, den []float64) {
	num, den = num[:len(x)], den[:len(x)]
	for i, v := range x {
		v *= num[i] / den[i]
		if v < TENELower {
			v = TENELower
		}
		x[i] = v
	}
}

// teneMat is a slice as an r×c gonum matrix, for csrOp.
func teneMat(r, c int, a []float64) *mat.Dense { return mat.NewDense(r, c, a[:r*c]) }

// updateM is M ← M ⊙ XU ⊘ M·UᵀU.
func (m *tene) updateM() {
	n, k := m.g.N, TENEDim
	teneGram(m.uu, m.u, m.u, n, k)
	csrOp{m.x}.mul(teneMat(n, k, m.num), teneMat(n, k, m.u))
	m.mulSym(m.den, m.m, m.uu, n)
	teneRatio(m.m, m.num, m.den)
	m.st = teneV
}

// updateV is V ← V ⊙ TᵀQ ⊘ V·QᵀQ.
func (m *tene) updateV() {
	g, n, k := m.g, m.g.N, TENEDim
	teneGram(m.kk, m.q, m.q, n, k)
	if g.XS != nil {
		csrOp{g.XS}.mulT(teneMat(g.F, k, m.fnum), teneMat(n, k, m.q))
	} else {
		clear(m.fnum)
		(*pacer)(nil).addATB(m.fnum, g.X, m.q, n, g.F, k)
	}
	m.mulSym(m.fden, m.v, m.kk, g.F)
	teneRatio(m.v, m.fnum, m.fden)
	m.st = teneC
}

// updateC is C ← C ⊙ QᵀU ⊘ C·UᵀU, UᵀU as M's update made it (U has not
// changed since).
func (m *tene) updateC() {
	n, k := m.g.N, TENEDim
	teneGram(m.kk, m.q, m.u, n, k)
	m.mulSym(m.kd, m.c, m.uu, k)
	teneRatio(m.c, m.kk, m.kd)
	m.st = teneU
}

// updateU is U ← U ⊙ (XᵀM + αQC) ⊘ U·(MᵀM + αCᵀC).
func (m *tene) updateU() {
	n, k := m.g.N, TENEDim
	csrOp{m.x}.mulT(teneMat(n, k, m.num), teneMat(n, k, m.m))
	kernels.Transpose(m.kt, m.c, k, k)
	teneMulABT(m.den, m.q, m.kt, n, k, k) // QC
	for i, v := range m.den {
		m.num[i] += float64(TENEAlpha * v)
	}
	teneGram(m.kk, m.m, m.m, n, k)
	teneGram(m.kt, m.c, m.c, k, k)
	for i, v := range m.kt {
		m.kk[i] += float64(TENEAlpha * v)
	}
	m.mulSym(m.den, m.u, m.kk, n)
	teneRatio(m.u, m.num, m.den)
	m.st = teneQ
}

// updateQ is Q ← Q ⊙ (αUCᵀ + βTV) ⊘ (αQ + βQ·VᵀV).
func (m *tene) updateQ() {
	g, n, k := m.g, m.g.N, TENEDim
	teneMulABT(m.den, m.u, m.c, n, k, k) // UCᵀ
	if g.XS != nil {
		csrOp{g.XS}.mul(teneMat(n, k, m.num), teneMat(g.F, k, m.v))
	} else {
		kernels.Transpose(m.vt, m.v, g.F, k)
		teneMulABT(m.num, g.X, m.vt, n, g.F, k)
	}
	for i, v := range m.den {
		m.num[i] = float64(TENEAlpha*v) + float64(TENEBeta*m.num[i])
	}
	teneGram(m.kk, m.v, m.v, g.F, k)
	m.mulSym(m.den, m.q, m.kk, n)
	for i, v := range m.q {
		m.den[i] = float64(TENEAlpha*v) + float64(TENEBeta*m.den[i])
	}
	teneRatio(m.q, m.num, m.den)
	m.it++
	m.st = teneM
	if m.it == TENEIters {
		m.finish()
	}
}

// finish lays out [M | Q] and frees the rest.
func (m *tene) finish() {
	n, k := m.g.N, TENEDim
	emb := make([]float64, n*2*k)
	for i := range n {
		copy(emb[i*2*k:], m.m[i*k:][:k])
		copy(emb[i*2*k+k:], m.q[i*k:][:k])
	}
	m.emb, m.st = emb, teneDone
	m.x, m.m, m.u, m.q, m.v, m.c = nil, nil, nil, nil, nil, nil
	m.num, m.den, m.fnum, m.fden, m.vt, m.uu, m.kk, m.kt, m.kd = nil, nil, nil, nil, nil, nil, nil, nil, nil
}

// teneCost is X, the iterations, then the regression. An iteration's
// products: X·U and XᵀM over X's N + 2E entries, TᵀQ and TV over the
// features, nine of N×32 by 32×32 (the Gram matrices UᵀU, QᵀQ, QᵀU, MᵀM
// and the products M·UᵀU, QC, U·(MᵀM + αCᵀC), UCᵀ, Q·VᵀV), two of
// F×32 by 32×32 (V·QᵀQ, VᵀV), and the elementwise ratios. It holds the
// embedding, N×64, once made; while it is made, the five factors, two
// N×32 and two F×32 buffers (and Vᵀ for dense features) and X.
func teneCost(s Shape) []Part {
	n, f, k := float64(s.N), float64(s.F), float64(TENEDim)
	nnz := n + 2*float64(s.E)
	iter := s.features(2*k, k).Plus(Work{Gather: 2 * nnz * k,
		Dense: 9*n*k*k + 2*f*k*k + 3*k*k*k + 12*n*k + 2*f*k})
	setup := Work{Gather: nnz, Dense: 3*n*k + f*k}.Plus(iter.Times(TENEIters))
	held := f64 * (5*n*k + 3*f*k + 5*k*k)
	if s.NNZ == 0 {
		held += f64 * f * k
	}
	return []Part{
		{What: phrase.New("TENE's joint factorisation"), SetupWork: setup,
			Bytes: f64 * n * 2 * k, SetupBytes: held + 12*nnz + 8*n,
			Fields: []string{"nodes", "node-features", "edges"}},
		logRegCost(s, 2*k),
	}
}
