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
// product of two contiguous rows, summed in order of k. It runs two rows at
// a time (mulPair), then the odd last row.
func mulABT(c, a, b []float64, n, k, m int) {
	c, a, b = c[:n*m], a[:n*k], b[:m*k]
	i := 0
	for ; i+2 <= n; i += 2 {
		mulPair(c[i*m:(i+1)*m], c[(i+1)*m:(i+2)*m], a[i*k:(i+1)*k], a[(i+1)*k:(i+2)*k], b)
	}
	for ; i < n; i++ {
		mulRow(c[i*m:(i+1)*m], a[i*k:(i+1)*k], b)
	}
}

// mulPair sets c0 = a0·bᵀ and c1 = a1·bᵀ, two rows of mulABT, in register
// blocks whose best shape depends on the machine (see mulTile): there are
// two tilings, and both give every entry the same ordered sum, so the
// same bits.
func mulPair(c0, c1, a0, a1, b []float64) {
	if mulTile == 3 {
		mulPair2x3(c0, c1, a0, a1, b)
		return
	}
	mulPair2x4(c0, c1, a0, a1, b)
}

// mulRow sets c = a·bᵀ for one row a.
func mulRow(c, a, b []float64) {
	k := len(a)
	for j := range c {
		c[j] = dot(a, b[j*k:(j+1)*k])
	}
}

// mulPair2x4 is mulPair in blocks of 2 rows by 4 columns: eight sums in
// registers, six loads per eight products.
func mulPair2x4(c0, c1, a0, a1, b []float64) {
	k, m := len(a0), len(c0)
	a1, c1 = a1[:k], c1[:m]
	j := 0
	for ; j+4 <= m; j += 4 {
		b0, b1, b2, b3 := b[j*k:(j+1)*k], b[(j+1)*k:(j+2)*k], b[(j+2)*k:(j+3)*k], b[(j+3)*k:(j+4)*k]
		b0, b1, b2, b3 = b0[:len(a0)], b1[:len(a0)], b2[:len(a0)], b3[:len(a0)]
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
		c0[j], c1[j] = dot2rows(a0, a1, b[j*k:(j+1)*k])
	}
}

// mulPair2x3 is mulPair in blocks of 2 rows by 3 columns. On amd64 the
// eight sums of 2×4 do not fit beside their operands in the registers Go's
// compiler gives them: one is kept in memory, and its store and load sit
// in the chain of additions every step. Six sums fit, and run 1.5–1.8×
// as fast. (In WebAssembly the engine allocates the registers, and 2×4 is
// the faster.)
func mulPair2x3(c0, c1, a0, a1, b []float64) {
	k, m := len(a0), len(c0)
	a1, c1 = a1[:k], c1[:m]
	j := 0
	for ; j+3 <= m; j += 3 {
		b0, b1, b2 := b[j*k:(j+1)*k], b[(j+1)*k:(j+2)*k], b[(j+2)*k:(j+3)*k]
		b0, b1, b2 = b0[:len(a0)], b1[:len(a0)], b2[:len(a0)]
		var s00, s01, s02, s10, s11, s12 float64
		for p, x0 := range a0 {
			x1 := a1[p]
			y0, y1, y2 := b0[p], b1[p], b2[p]
			s00 += float64(x0 * y0)
			s01 += float64(x0 * y1)
			s02 += float64(x0 * y2)
			s10 += float64(x1 * y0)
			s11 += float64(x1 * y1)
			s12 += float64(x1 * y2)
		}
		c0[j], c0[j+1], c0[j+2] = s00, s01, s02
		c1[j], c1[j+1], c1[j+2] = s10, s11, s12
	}
	for ; j < m; j++ {
		c0[j], c1[j] = dot2rows(a0, a1, b[j*k:(j+1)*k])
	}
}

// dot2rows returns dot(a0, b) and dot(a1, b) from one pass over b.
func dot2rows(a0, a1, b []float64) (float64, float64) {
	a1, b = a1[:len(a0)], b[:len(a0)]
	var s, t float64
	for p, x := range a0 {
		s += float64(x * b[p])
		t += float64(a1[p] * b[p])
	}
	return s, t
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
		ai := a[i*m : (i+4)*m]
		for j := j0; j < j1; j++ {
			s0, s1, s2, s3 := ai[j], ai[m+j], ai[2*m+j], ai[3*m+j]
			if s0 == 0 && s1 == 0 && s2 == 0 && s3 == 0 {
				continue // ReLU and the loss's unlabelled rows leave many zeros
			}
			cj := c[j*k : (j+1)*k]
			b0, b1, b2, b3 := b0[:len(cj)], b1[:len(cj)], b2[:len(cj)], b3[:len(cj)]
			if j+1 < j1 {
				// Two rows of c share each load of b; the next is folded
				// in with this one unless all its four factors are zero.
				t0, t1, t2, t3 := ai[j+1], ai[m+j+1], ai[2*m+j+1], ai[3*m+j+1]
				if t0 != 0 || t1 != 0 || t2 != 0 || t3 != 0 {
					cn := c[(j+1)*k : (j+2)*k]
					cn = cn[:len(cj)]
					for p := range cj {
						x0, x1, x2, x3 := b0[p], b1[p], b2[p], b3[p]
						cj[p] += float64(s0*x0) + float64(s1*x1) + float64(s2*x2) + float64(s3*x3)
						cn[p] += float64(t0*x0) + float64(t1*x1) + float64(t2*x2) + float64(t3*x3)
					}
					j++
					continue
				}
			}
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

// dot2 returns dot(a, b) + dot(c, d), for four slices of one length. The
// two sums run in one loop, each in its own order as dot takes it, so the
// bits are dot's; interleaved, the two chains of additions overlap, which
// the processor (or WebAssembly's compiler) does not do across two calls.
func dot2(a, b, c, d []float64) float64 {
	b, c, d = b[:len(a)], c[:len(a)], d[:len(a)]
	var s, t float64
	for i, v := range a {
		s += float64(v * b[i])
		t += float64(c[i] * d[i])
	}
	return s + t
}

// relu sets y = max(x, 0) elementwise. It keeps the value where the sign
// bit is clear and writes +0 where it is set, without a branch: the
// builtin max is a call (runtime.fmax64) in WebAssembly, and took a third
// as long as the product before it. A NaN stays NaN, as with max.
func relu(y, x []float64) {
	y = y[:len(x)]
	for i, v := range x {
		if v != v {
			y[i] = v
			continue
		}
		keep := ^uint64(int64(math.Float64bits(v)) >> 63)
		y[i] = math.Float64frombits(math.Float64bits(v) & keep)
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
