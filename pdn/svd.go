package pdn

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// linOp is a matrix A the truncated SVD reads only through products: A·X
// and Aᵀ·X for a dense X of a few columns. A sparse or implicit matrix
// (a power of the transition matrix, a node-feature CSR) is never formed.
type linOp interface {
	Dims() (r, c int)
	mul(dst, x *mat.Dense)  // dst = A·x
	mulT(dst, x *mat.Dense) // dst = Aᵀ·x
}

// denseOp is a dense matrix as a linOp.
type denseOp struct{ a *mat.Dense }

func (o denseOp) Dims() (int, int)       { return o.a.Dims() }
func (o denseOp) mul(dst, x *mat.Dense)  { dst.Mul(o.a, x) }
func (o denseOp) mulT(dst, x *mat.Dense) { dst.Mul(o.a.T(), x) }

// svdOversamples and svdIters are scikit-learn's randomized_svd defaults
// for TruncatedSVD: 10 extra columns, 5 power iterations (Karate Club's
// methods pass their own iterations).
const svdOversamples = 10

// truncatedSVD is A's k leading singular triplets by the randomized range
// finder of Halko, Martinsson and Tropp (2011), as scikit-learn's
// randomized_svd computes them (TruncatedSVD's default algorithm): a
// Gaussian test matrix of k+10 columns drawn from rnd, iters power
// iterations each re-orthonormalised (by QR: scikit-learn's LU is a
// cheaper normaliser of the same range), the small matrix B = QᵀA's SVD,
// and each singular vector's sign fixed so that the entry of largest
// magnitude of its left vector is positive (svd_flip). It returns U (r×k),
// the singular values (k, descending) and V (c×k). gonum does the QR and
// the small SVD. It is svdRun's steps, all at once.
func truncatedSVD(a linOp, k, iters int, rnd *rand.Rand) (u *mat.Dense, s []float64, v *mat.Dense) {
	run := newSVDRun(a, k, iters, rnd)
	for !run.step() {
	}
	return run.u, run.s, run.v
}

// svdRun is truncatedSVD in steps, for an embedding made in pieces: the
// test matrix and its first product when made, then one power iteration a
// step, and the small SVD in the last. The steps are the same however
// many a piece takes, and so are the bits.
type svdRun struct {
	a        linOp
	k, iters int
	it       int        // power iterations done
	q        *mat.Dense // an orthonormal basis of A's range as found so far, r×l
	y, z     *mat.Dense // A·X (r×l) and Aᵀ·X (c×l)
	u, v     *mat.Dense // the result, once done
	s        []float64
}

func newSVDRun(a linOp, k, iters int, rnd *rand.Rand) *svdRun {
	r, c := a.Dims()
	l := min(k+svdOversamples, r, c)
	omega := mat.NewDense(c, l, nil)
	for i := range c {
		for j := range l {
			omega.Set(i, j, rnd.NormFloat64())
		}
	}
	run := &svdRun{a: a, k: k, iters: iters, y: mat.NewDense(r, l, nil), z: mat.NewDense(c, l, nil)}
	a.mul(run.y, omega)
	run.q = orthonormal(run.y)
	return run
}

// done reports whether the triplets are found.
func (run *svdRun) done() bool { return run.u != nil }

// share is the share of the steps done, in [0, 1].
func (run *svdRun) share() float64 {
	if run.done() {
		return 1
	}
	return float64(run.it) / float64(run.iters+1)
}

// step takes the next power iteration, or after the last the small SVD,
// and reports whether the triplets are found.
func (run *svdRun) step() bool {
	if run.done() {
		return true
	}
	if run.it < run.iters {
		run.a.mulT(run.z, run.q)
		run.a.mul(run.y, orthonormal(run.z))
		run.q = orthonormal(run.y)
		run.it++
		return false
	}
	// B = QᵀA, as (AᵀQ)ᵀ: l×c.
	q, z := run.q, run.z
	run.a.mulT(z, q)
	r, l := q.Dims()
	c, _ := z.Dims()
	var svd mat.SVD
	if !svd.Factorize(z.T(), mat.SVDThin) {
		panic("pdn: truncated SVD: the small matrix's SVD did not converge")
	}
	var ub, vb mat.Dense
	svd.UTo(&ub)
	svd.VTo(&vb)
	vals := svd.Values(nil)
	k := min(run.k, len(vals))
	run.u, run.v = mat.NewDense(r, k, nil), mat.NewDense(c, k, nil)
	run.u.Mul(q, ub.Slice(0, l, 0, k))
	run.v.Copy(vb.Slice(0, c, 0, k))
	flipSigns(run.u, run.v)
	run.s = vals[:k]
	run.q, run.y, run.z = nil, nil, nil
	return true
}

// orthonormal is an orthonormal basis of y's columns: the thin Q of its
// QR factorisation (LAPACK's dgeqrf, then dorgqr for y's columns alone:
// mat.QR's QTo builds the whole r×r Q, 59 MB and a billion operations a
// call on Cora's 2,708 rows).
func orthonormal(y *mat.Dense) *mat.Dense {
	_, c := y.Dims()
	q := mat.DenseCopyOf(y)
	a := q.RawMatrix()
	tau := make([]float64, c)
	query := []float64{0}
	lapack64.Geqrf(a, tau, query, -1)
	work := make([]float64, int(query[0]))
	lapack64.Geqrf(a, tau, work, len(work))
	lapack64.Orgqr(a, tau, query, -1)
	work = make([]float64, int(query[0]))
	lapack64.Orgqr(a, tau, work, len(work))
	return q
}

// flipSigns makes the entry of largest magnitude of each column of u
// positive, negating v's column with it (scikit-learn's svd_flip), so
// that the decomposition's signs are fixed.
func flipSigns(u, v *mat.Dense) {
	r, k := u.Dims()
	vr, _ := v.Dims()
	for j := range k {
		best := 0
		for i := range r {
			if math.Abs(u.At(i, j)) > math.Abs(u.At(best, j)) {
				best = i
			}
		}
		if u.At(best, j) >= 0 {
			continue
		}
		for i := range r {
			u.Set(i, j, -u.At(i, j))
		}
		for i := range vr {
			v.Set(i, j, -v.At(i, j))
		}
	}
}
