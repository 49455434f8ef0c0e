package pdn

import (
	"math"
	"math/rand/v2"

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
// the small SVD.
func truncatedSVD(a linOp, k, iters int, rnd *rand.Rand) (u *mat.Dense, s []float64, v *mat.Dense) {
	r, c := a.Dims()
	l := min(k+svdOversamples, r, c)
	omega := mat.NewDense(c, l, nil)
	for i := range c {
		for j := range l {
			omega.Set(i, j, rnd.NormFloat64())
		}
	}
	y, z := mat.NewDense(r, l, nil), mat.NewDense(c, l, nil)
	a.mul(y, omega)
	q := orthonormal(y)
	for range iters {
		a.mulT(z, q)
		a.mul(y, orthonormal(z))
		q = orthonormal(y)
	}
	// B = QᵀA, as (AᵀQ)ᵀ: l×c.
	a.mulT(z, q)
	var svd mat.SVD
	if !svd.Factorize(z.T(), mat.SVDThin) {
		panic("pdn: truncated SVD: the small matrix's SVD did not converge")
	}
	var ub, vb mat.Dense
	svd.UTo(&ub)
	svd.VTo(&vb)
	vals := svd.Values(nil)
	k = min(k, len(vals))
	u, v = mat.NewDense(r, k, nil), mat.NewDense(c, k, nil)
	u.Mul(q, ub.Slice(0, l, 0, k))
	v.Copy(vb.Slice(0, c, 0, k))
	flipSigns(u, v)
	return u, vals[:k], v
}

// orthonormal is an orthonormal basis of y's columns: the Q of its thin
// QR factorisation.
func orthonormal(y *mat.Dense) *mat.Dense {
	var qr mat.QR
	qr.Factorize(y)
	r, c := y.Dims()
	var q mat.Dense
	qr.QTo(&q)
	out := mat.NewDense(r, c, nil)
	out.Copy(q.Slice(0, r, 0, c))
	return out
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
