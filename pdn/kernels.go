package pdn

import "math"

// Dense kernels over flat row-major slices.
//
// They are plain loops on purpose: under GOOS=js there is no assembly and no
// SIMD, and register-blocked loops like these beat gonum's pure-Go paths
// there; natively they keep the order of every sum fixed, so results are the
// same bits everywhere. Products are wrapped in float64(…) because an
// explicit conversion forbids the compiler to fuse a*b+c into one FMA
// instruction (it does on arm64 and with GOAMD64=v3), which would round
// differently from the browser.

// mulABT sets c (n×m) = a (n×k) · bᵀ for b (m×k): every entry is a dot
// product of two contiguous rows, summed in order of k. Blocks of 2 rows by
// 4 columns keep eight sums in registers.
func mulABT(c, a, b []float64, n, k, m int) {
	c, a, b = c[:n*m], a[:n*k], b[:m*k]
	i := 0
	for ; i+2 <= n; i += 2 {
		a0, a1 := a[i*k:(i+1)*k], a[(i+1)*k:(i+2)*k]
		c0, c1 := c[i*m:(i+1)*m], c[(i+1)*m:(i+2)*m]
		j := 0
		for ; j+4 <= m; j += 4 {
			b0, b1, b2, b3 := b[j*k:(j+1)*k], b[(j+1)*k:(j+2)*k], b[(j+2)*k:(j+3)*k], b[(j+3)*k:(j+4)*k]
			b0, b1, b2, b3 = b0[:len(a0)], b1[:len(a0)], b2[:len(a0)], b3[:len(a0)]
			a1 := a1[:len(a0)]
			var s00, s01, s02, s03, s10, s11, s12, s13 float64
			for p, x0 := range a0 {
				x1 := a1[p]
				s00 += float64(x0 * b0[p])
				s01 += float64(x0 * b1[p])
				s02 += float64(x0 * b2[p])
				s03 += float64(x0 * b3[p])
				s10 += float64(x1 * b0[p])
				s11 += float64(x1 * b1[p])
				s12 += float64(x1 * b2[p])
				s13 += float64(x1 * b3[p])
			}
			c0[j], c0[j+1], c0[j+2], c0[j+3] = s00, s01, s02, s03
			c1[j], c1[j+1], c1[j+2], c1[j+3] = s10, s11, s12, s13
		}
		for ; j < m; j++ {
			bj := b[j*k : (j+1)*k]
			c0[j], c1[j] = dot(a0, bj), dot(a1, bj)
		}
	}
	for ; i < n; i++ {
		ai, ci := a[i*k:(i+1)*k], c[i*m:(i+1)*m]
		for j := range ci {
			ci[j] = dot(ai, b[j*k:(j+1)*k])
		}
	}
}

// addATB adds aᵀ (m×n) · b (n×k) to c (m×k), for a (n×m): the gradient of a
// weight matrix stored out×in, from the output gradient a and the input b.
// Four rows of a and b are folded into c at a time, so each entry of c is
// loaded and stored once per four products.
func addATB(c, a, b []float64, n, m, k int) { addATBCols(c, a, b, n, m, k, 0, m) }

// addATBCols is addATB for the rows j0..j1 of c only (the columns of a):
// each row of c sums over the rows of a in the same order, whatever the
// range, so ranges can run at once.
func addATBCols(c, a, b []float64, n, m, k, j0, j1 int) {
	c, a, b = c[:m*k], a[:n*m], b[:n*k]
	i := 0
	for ; i+4 <= n; i += 4 {
		b0, b1, b2, b3 := b[i*k:(i+1)*k], b[(i+1)*k:(i+2)*k], b[(i+2)*k:(i+3)*k], b[(i+3)*k:(i+4)*k]
		for j := j0; j < j1; j++ {
			s0, s1, s2, s3 := a[i*m+j], a[(i+1)*m+j], a[(i+2)*m+j], a[(i+3)*m+j]
			if s0 == 0 && s1 == 0 && s2 == 0 && s3 == 0 {
				continue // ReLU and the loss's unlabelled rows leave many zeros
			}
			cj := c[j*k : (j+1)*k]
			b0, b1, b2, b3 := b0[:len(cj)], b1[:len(cj)], b2[:len(cj)], b3[:len(cj)]
			for p := range cj {
				cj[p] += float64(s0*b0[p]) + float64(s1*b1[p]) + float64(s2*b2[p]) + float64(s3*b3[p])
			}
		}
	}
	for ; i < n; i++ {
		bi := b[i*k : (i+1)*k]
		for j := j0; j < j1; j++ {
			s := a[i*m+j]
			cj := c[j*k : (j+1)*k]
			bi := bi[:len(cj)]
			for p := range cj {
				cj[p] += float64(s * bi[p])
			}
		}
	}
}

// transpose sets t (m×n) = aᵀ for a (n×m).
func transpose(t, a []float64, n, m int) {
	t, a = t[:m*n], a[:n*m]
	for i := 0; i < n; i++ {
		ai := a[i*m : (i+1)*m]
		for j, v := range ai {
			t[j*n+i] = v
		}
	}
}

// addRows adds v (1×m) to every row of c (n×m).
func addRows(c, v []float64, n, m int) {
	v = v[:m]
	for i := 0; i < n; i++ {
		ci := c[i*m : (i+1)*m]
		for j := range ci {
			ci[j] += v[j]
		}
	}
}

// sumRowsAdd adds the column sums of a (n×m) to c (1×m): a bias gradient.
func sumRowsAdd(c, a []float64, n, m int) {
	c = c[:m]
	for i := 0; i < n; i++ {
		ai := a[i*m : (i+1)*m]
		ai = ai[:len(c)]
		for j := range c {
			c[j] += ai[j]
		}
	}
}

// dot returns Σ a[i]·b[i], summed in order.
func dot(a, b []float64) float64 {
	b = b[:len(a)]
	var s float64
	for i, v := range a {
		s += float64(v * b[i])
	}
	return s
}

// relu sets y = max(x, 0) elementwise.
func relu(y, x []float64) {
	y = y[:len(x)]
	for i, v := range x {
		y[i] = max(v, 0)
	}
}

// reluBackward sets dx = dy where the ReLU's output y is positive, else 0.
// The choice is made on bits, without a branch: half the units are off, in
// no pattern a branch predictor could learn.
func reluBackward(dx, dy, y []float64) {
	dy, y = dy[:len(dx)], y[:len(dx)]
	for i := range dx {
		// y ≥ 0, so y > 0 exactly when its bits, as an integer, are > 0.
		on := uint64(-int64(math.Float64bits(y[i])) >> 63)
		dx[i] = math.Float64frombits(math.Float64bits(dy[i]) & on)
	}
}

// mulInto sets y = x ⊙ m elementwise.
func mulInto(y, x, m []float64) {
	x, m = x[:len(y)], m[:len(y)]
	for i := range y {
		y[i] = x[i] * m[i]
	}
}
