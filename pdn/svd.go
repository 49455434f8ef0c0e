package pdn

import (
	"math"
	"math/rand/v2"

	"pdnexplorer/datasets"
	"pdnexplorer/i18n/phrase"

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
// QR factorisation, taken as the transpose of the LQ factorisation of yᵀ
// (LAPACK's dgelqf, then dorglq for y's columns alone). Held by rows, yᵀ's
// reflectors run along contiguous rows, where y's QR ran down strided
// columns, four times slower on Cora's 2,708 rows; and mat.QR's QTo builds
// the whole r×r Q, 59 MB and a billion operations a call there.
func orthonormal(y *mat.Dense) *mat.Dense {
	r, c := y.Dims()
	at := mat.DenseCopyOf(y.T())
	a := at.RawMatrix()
	tau := make([]float64, min(r, c))
	query := []float64{0}
	lapack64.Gelqf(a, tau, query, -1)
	work := make([]float64, int(query[0]))
	lapack64.Gelqf(a, tau, work, len(work))
	lapack64.Orglq(a, tau, query, -1)
	work = make([]float64, int(query[0]))
	lapack64.Orglq(a, tau, work, len(work))
	return mat.DenseCopyOf(at.T())
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

// csrOp is a sparse matrix (datasets.CSR, each row's columns ascending)
// as a linOp: its products run over the stored entries alone by the
// kernels of the sparse node features (spMulABT, spAccumATBCols; the
// worker's SIMD kernels in the browser, rows or columns split across
// threads natively), each product rounded before it is added, in the same
// order on every platform: the same bits.
type csrOp struct{ a *datasets.CSR }

// newCSROp is an r×c matrix of no rows yet, for appendRow.
func newCSROp(r, c int) csrOp {
	return csrOp{&datasets.CSR{Rows: r, Cols: c, Ptr: make([]int, 1, r+1)}}
}

// appendRow adds the next row: its columns, ascending, and values.
func (o csrOp) appendRow(cols []int32, vals []float64) {
	o.a.Col, o.a.Val = append(o.a.Col, cols...), append(o.a.Val, vals...)
	o.a.Ptr = append(o.a.Ptr, len(o.a.Val))
}

func (o csrOp) Dims() (int, int) { return o.a.Rows, o.a.Cols }

func (o csrOp) mul(dst, x *mat.Dense) {
	c, b, m := dst.RawMatrix().Data, x.RawMatrix().Data, x.RawMatrix().Cols
	j := newRowsJob(spMulABTRows, csrRows(o.a, m))
	j.c, j.sx, j.b, j.base, j.m = c, o.a, b, 0, m
	j.split(o.a.Rows, float64(m*o.a.NNZ()))
}

func (o csrOp) mulT(dst, x *mat.Dense) {
	ct, a, m := dst.RawMatrix().Data, x.RawMatrix().Data, x.RawMatrix().Cols
	clear(ct)
	j := newJob(spAccumATBColsJob)
	j.c, j.a, j.sx, j.base, j.n, j.m, j.byCols = ct, a, o.a, 0, o.a.Rows, m, true
	j.split(m, float64(m*o.a.NNZ()))
}

// svdCost is truncatedSVD's of k triplets in iters iterations over a
// matrix of s's N rows and columns with nnz entries, and the transform
// (svdTransform): its products, gathers over the entries, l = k+10
// columns each (A·Ω, Aᵀ·Q and A·Q an iteration, Aᵀ·Q for B, A·V); the QR
// of each product, about 4Nl² each; the small SVD; and its N×l buffers.
func svdCost(what phrase.Text, s Shape, nnz, k float64, iters int) Part {
	n := float64(s.N)
	l := min(k+svdOversamples, n)
	products := float64(2*iters + 3)
	qrs := float64(2*iters + 1)
	return Part{What: what, SetupWork: Work{Gather: products * nnz * l, Dense: qrs*4*n*l*l + 4*n*l*l + n*l*k},
		Bytes: f64 * n * (5*l + k), Fields: []string{"nodes", "edges"}}
}
