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
	register(experiment.HOPE, model{cost: func(s Shape, _ experiment.Model) []Part { return hopeCost(s) },
		build: func(g *datasets.Graph, _ experiment.Model, _ *rand.Rand, seed uint64) network {
			return embedNetOf(experiment.HOPE, g, seed, newHOPE)
		}})
}

// HOPE's settings: Karate Club's default of 128 dimensions (karateclub.HOPE,
// v1.3), half from the left singular vectors and half from the right; and
// the power iterations that take the randomized SVD to the leading
// singular triplets that Karate Club's ARPACK (scipy's svds) converges to.
const (
	hopeDim   = 128
	hopeIters = 60
)

// streamHOPE is the weight seed's stream of HOPE's SVD test matrix.
const streamHOPE = 0x686f7065

// hope is HOPE (Ou et al., KDD 2016), as Karate Club's HOPE makes it: the
// proximity S = Â·Â of the adjacency matrix with a self-loop at every node
// (Karate Club adds them to every graph it embeds), Â = A + I, so S_ij is
// the number of nodes that are i's or its neighbours and j's or its
// neighbours (the paper's common-neighbours proximity, of closed
// neighbourhoods); its 64 leading singular triplets (U, σ, V); and the
// embedding [U·√σ, V·√σ], 128 columns. S is symmetric and positive
// semi-definite (a square), so U = V and the halves are equal: Karate
// Club's too, as its svds gives them to rounding.
//
// S is never formed: the SVD reads it as Â(Â·X) (hopeOp), 2(2E+N) terms a
// column. Karate Club's svds is ARPACK's Lanczos method, to convergence;
// here it is the randomized SVD (truncatedSVD) with 40 power iterations,
// which meet svds's singular values to single precision on Cora and
// Citeseer (TestHOPEMatchesKarateClub). Its columns come in the order of
// the singular values, descending, where svds gives them ascending. It is
// made in pieces, a power iteration at a time.
type hope struct {
	n    int
	op   *hopeOp
	seed uint64
	svd  *svdRun
	emb  []float64
}

func newHOPE(g *datasets.Graph, seed uint64) *hope {
	return &hope{n: g.N, op: &hopeOp{adj: newAdjacency(g.N, g.Src, g.Dst)}, seed: seed}
}

// rank is the number of singular triplets: half the dimensions, at
// most N.
func (m *hope) rank() int { return min(hopeDim/2, m.n) }

func (m *hope) dim() int { return 2 * m.rank() }

func (m *hope) embedding() []float64 { return m.emb }

// preparing is the share of the SVD's steps done, the test matrix's
// product and the last step counted with the iterations.
func (m *hope) preparing() float64 {
	switch {
	case m.emb != nil:
		return 1
	case m.svd == nil:
		return 0
	}
	return (1 + m.svd.share()*(hopeIters+1)) / (hopeIters + 3)
}

// prepare makes the embedding until done or the deadline passes, and
// reports whether it is done.
func (m *hope) prepare(deadline time.Time) bool {
	for m.emb == nil {
		switch {
		case m.svd == nil:
			m.svd = newSVDRun(m.op, m.rank(), hopeIters, rand.New(rand.NewPCG(m.seed, streamHOPE)))
		case !m.svd.done():
			m.svd.step()
		default:
			m.emb = hopeEmbedding(m.svd.u, m.svd.s, m.svd.v)
			m.svd, m.op = nil, nil
		}
		if m.emb == nil && time.Now().After(deadline) {
			return false
		}
	}
	return true
}

// hopeEmbedding is [U·√σ, V·√σ], row-major.
func hopeEmbedding(u *mat.Dense, s []float64, v *mat.Dense) []float64 {
	n, k := u.Dims()
	out := make([]float64, n*2*k)
	for i := range n {
		row := out[i*2*k : (i+1)*2*k]
		for j, sj := range s {
			r := math.Sqrt(sj)
			row[j], row[k+j] = float64(u.At(i, j)*r), float64(v.At(i, j)*r)
		}
	}
	return out
}

// hopeOp is S = Â·Â, Â = A + I, as a linOp: Â·X twice, each row of Â·X
// the row of X and its neighbours' summed in the adjacency's order (sums
// of ones' products, exact but for the additions' rounding). S is
// symmetric, so Sᵀ·X is S·X.
type hopeOp struct {
	adj *adjacency
	tmp *mat.Dense // Â·X, N×l
}

func (o *hopeOp) Dims() (int, int) { return o.adj.n, o.adj.n }

func (o *hopeOp) mul(dst, x *mat.Dense) {
	n, l := x.Dims()
	if o.tmp == nil {
		o.tmp = mat.NewDense(n, l, nil)
	}
	o.apply(o.tmp, x)
	o.apply(dst, o.tmp)
}

func (o *hopeOp) mulT(dst, x *mat.Dense) { o.mul(dst, x) }

// apply sets dst = Â·x.
func (o *hopeOp) apply(dst, x *mat.Dense) {
	adj := o.adj
	xr, dr := x.RawMatrix(), dst.RawMatrix()
	l := xr.Cols
	for i := range adj.n {
		d := dr.Data[i*dr.Stride:][:l]
		copy(d, xr.Data[i*xr.Stride:][:l])
		for _, j := range adj.col[adj.rowPtr[i]:adj.rowPtr[i+1]] {
			xj := xr.Data[int(j)*xr.Stride:][:l]
			for t := range d {
				d[t] += xj[t]
			}
		}
	}
}

// hopeCost is HOPE's SVD, over S = Â·Â read as two passes over Â's 2E+N
// entries, then the regression over its 128 columns. Nothing of N² is
// held: the SVD's N×l buffers and Â·X.
func hopeCost(s Shape) []Part {
	n := float64(s.N)
	k := float64(min(hopeDim/2, s.N))
	passes := 2 * (2*float64(s.E) + n)
	p := svdCost(phrase.New("HOPE's truncated SVD"), s, passes, k, hopeIters)
	p.Bytes += f64 * n * min(k+svdOversamples, n)
	return []Part{p, logRegCost(s, 2*k)}
}
