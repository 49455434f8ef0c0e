package kernels

import (
	"fmt"
	"math"
)

// Dense kernels over flat row-major slices.
//
// They are plain loops on purpose: under GOOS=js there is no assembly and no
// SIMD, and register-blocked loops like these beat gonum's pure-Go paths
// there; they keep the order of every sum fixed, so results are the same
// bits everywhere (natively, the widest products also have vector paths
// that keep that order: vec_simd.go). Products are wrapped in float64(…) because an
// explicit conversion forbids the compiler to fuse a*b+c into one FMA
// instruction (it does on arm64 and with GOAMD64=v3), which would round
// differently from the browser.

// MulABT sets c (n×m) = a (n×k) · bᵀ for b (m×k): every entry is a dot
// product of two contiguous rows, summed in order of k. It runs two rows at
// a time (MulPair), then the odd last row.
func MulABT(c, a, b []float64, n, k, m int) { MulABTBias(c, a, b, nil, nil, n, k, m, false) }

// MulABTBias is MulABT given also bt = bᵀ for the vector path (see
// mulPairVec), or nil, plus bias (each entry's sum, then + bias[j], as
// AddRows adds it), or no bias if nil, then ReLU if rectify.
func MulABTBias(c, a, b, bt, bias []float64, n, k, m int, rectify bool) {
	c, a, b = fit(c, n*m), fit(a, n*k), fit(b, m*k)
	if simd128 {
		wasmMulABT(c, a, b, bias, nil, n, k, m)
		if rectify {
			Relu(c, c)
		}
		return
	}
	if k < ShortRows {
		if !mulShortWide(c, a, b, n, k, m) {
			mulABTShort(c, a, b, n, k, m)
		}
		if bias != nil {
			AddRows(c, bias, n, m)
		}
		if rectify {
			Relu(c, c)
		}
		return
	}
	i := mulQuadsVec(c, a, bt, bias, n, k, m, rectify) // natively, with AVX-512; else 0
	quads := i
	for ; i < n-1; i += 2 {
		MulPair(c[i*m:(i+1)*m], c[(i+1)*m:(i+2)*m], a[i*k:(i+1)*k], a[(i+1)*k:(i+2)*k], b, bt, bias)
	}
	for ; i < n; i++ {
		MulRow(c[i*m:(i+1)*m], a[i*k:(i+1)*k], b, bias)
	}
	if rectify {
		Relu(c[quads*m:], c[quads*m:])
	}
}

// MulABTKept is MulABTBias for the rows i whose keep[i] is not 0 only,
// leaving the other rows of c as they were (DropEdge's dropped edges):
// kept rows go four at a time where the vectors serve them (quadsVec),
// else in pairs as MulABT pairs rows, the last alone. Each kept row is
// MulABTBias's, bit for bit.
func MulABTKept(c, a, b, bt, bias, keep []float64, n, k, m int, rectify bool) {
	c, a, b, keep = fit(c, n*m), fit(a, n*k), fit(b, m*k), fit(keep, n)
	if bias != nil {
		bias = fit(bias, m)
	}
	if bt != nil {
		bt = fit(bt, k*m)
	}
	if simd128 {
		wasmMulABT(c, a, b, bias, keep, n, k, m)
		if rectify { // the kept rows' ReLU, a run of them at a time
			for i := 0; i < n; {
				if keep[i] == 0 {
					i++
					continue
				}
				end := i + 1
				for end < n && keep[end] != 0 {
					end++
				}
				Relu(c[i*m:end*m], c[i*m:end*m])
				i = end
			}
		}
		return
	}
	row := func(i int) ([]float64, []float64) { return c[i*m : (i+1)*m], a[i*k : (i+1)*k] }
	act := func(c0, c1 []float64) {
		if rectify {
			Relu(c0, c0)
			Relu(c1, c1)
		}
	}
	group := 2
	if quadsVec(bt, k, m) {
		group = 4
	}
	var waiting [4]int // kept rows waiting for the group to fill
	g := 0
	for i := range n {
		if keep[i] == 0 {
			continue
		}
		if waiting[g] = i; g+1 < group {
			g++
			continue
		}
		g = 0
		if group == 4 {
			var cq, aq [4][]float64
			for r, w := range waiting {
				cq[r], aq[r] = row(w)
			}
			MulQuadRows(cq, aq, bt, bias, k, m, rectify)
			continue
		}
		c0, a0 := row(waiting[0])
		c1, a1 := row(waiting[1])
		MulPair(c0, c1, a0, a1, b, bt, bias)
		act(c0, c1)
	}
	for r := 0; r < g; r += 2 {
		c0, a0 := row(waiting[r])
		if r+1 == g {
			MulRow(c0, a0, b, bias)
			act(c0, c0)
			break
		}
		c1, a1 := row(waiting[r+1])
		MulPair(c0, c1, a0, a1, b, bt, bias)
		act(c0, c1)
	}
}

// ShortRows is the k below which MulABT gathers columns (mulABTShort).
const ShortRows = 8

// mulABTShort is MulABT for short rows (k < ShortRows, as in the backward pass of a
// layer with few outputs: the pathfinder's one, the GCN's C classes). Dot
// products of k terms would spend their time entering and leaving loops;
// instead each row of c gathers k scaled columns of b, along m, so that
// every entry is still (((0 + a₀b₀) + a₁b₁) + …) in order of k.
func mulABTShort(c, a, b []float64, n, k, m int) {
	if k == 0 {
		clear(c) // empty sums
		return
	}
	for i := 0; i < n; i++ {
		ci, ai := c[i*m:(i+1)*m], a[i*k:(i+1)*k]
		for p, x := range ai {
			if p == 0 {
				// 0 + a₀b₀, as a dot product starts (a product of −0
				// becomes +0), written over what c held.
				j := 0
				for ; j < len(ci)-3; j += 4 {
					ci[j], ci[j+1] = 0+float64(x*b[j*k]), 0+float64(x*b[(j+1)*k])
					ci[j+2], ci[j+3] = 0+float64(x*b[(j+2)*k]), 0+float64(x*b[(j+3)*k])
				}
				for ; j < len(ci); j++ {
					ci[j] = 0 + float64(x*b[j*k])
				}
				continue
			}
			j := 0
			for ; j < len(ci)-3; j += 4 {
				ci[j] += float64(x * b[j*k+p])
				ci[j+1] += float64(x * b[(j+1)*k+p])
				ci[j+2] += float64(x * b[(j+2)*k+p])
				ci[j+3] += float64(x * b[(j+3)*k+p])
			}
			for ; j < len(ci); j++ {
				ci[j] += float64(x * b[j*k+p])
			}
		}
	}
}

// MulPair sets c0 = a0·bᵀ + bias and c1 = a1·bᵀ + bias (no bias if nil),
// two rows of MulABT; bt = bᵀ lets mulPairVec take the first columns where
// the vectors run, or is nil. The rest go in blocks of 2 rows by 3
// columns: six sums in registers, five loads per six products (the eight
// sums of 2×4 do not fit beside their operands in the registers Go's amd64
// compiler gives them). The loop over k takes eight steps a pass: Go's
// WebAssembly turns every jump back into a trip through the function's
// dispatch table, which cost a third of the time at k = 32 (eight steps:
// 1.4× as fast in the worker, 1.15× natively). Every entry is still one
// sum in order of k.
func MulPair(c0, c1, a0, a1, b, bt, bias []float64) {
	k, m := len(a0), len(c0)
	a1, c1, b = fit(a1, k), fit(c1, m), fit(b, m*k)
	if bias != nil {
		bias = fit(bias, m)
	}
	if bt != nil {
		bt = fit(bt, k*m)
	}
	j := mulPairVec(c0, c1, a0, a1, bt, bias) // natively, with vectors; else 0
	for ; j < m-2; j += 3 {
		b0, b1, b2 := b[j*k:(j+1)*k], b[(j+1)*k:(j+2)*k], b[(j+2)*k:(j+3)*k]
		b0, b1, b2 = b0[:k], b1[:k], b2[:k]
		var s00, s01, s02, s10, s11, s12 float64
		p := 0
		for ; p < k-7; p += 8 {
			y0, y1, y2, x0, x1 := b0[p], b1[p], b2[p], a0[p], a1[p]
			s00, s01, s02 = s00+float64(x0*y0), s01+float64(x0*y1), s02+float64(x0*y2)
			s10, s11, s12 = s10+float64(x1*y0), s11+float64(x1*y1), s12+float64(x1*y2)
			y0, y1, y2, x0, x1 = b0[p+1], b1[p+1], b2[p+1], a0[p+1], a1[p+1]
			s00, s01, s02 = s00+float64(x0*y0), s01+float64(x0*y1), s02+float64(x0*y2)
			s10, s11, s12 = s10+float64(x1*y0), s11+float64(x1*y1), s12+float64(x1*y2)
			y0, y1, y2, x0, x1 = b0[p+2], b1[p+2], b2[p+2], a0[p+2], a1[p+2]
			s00, s01, s02 = s00+float64(x0*y0), s01+float64(x0*y1), s02+float64(x0*y2)
			s10, s11, s12 = s10+float64(x1*y0), s11+float64(x1*y1), s12+float64(x1*y2)
			y0, y1, y2, x0, x1 = b0[p+3], b1[p+3], b2[p+3], a0[p+3], a1[p+3]
			s00, s01, s02 = s00+float64(x0*y0), s01+float64(x0*y1), s02+float64(x0*y2)
			s10, s11, s12 = s10+float64(x1*y0), s11+float64(x1*y1), s12+float64(x1*y2)
			y0, y1, y2, x0, x1 = b0[p+4], b1[p+4], b2[p+4], a0[p+4], a1[p+4]
			s00, s01, s02 = s00+float64(x0*y0), s01+float64(x0*y1), s02+float64(x0*y2)
			s10, s11, s12 = s10+float64(x1*y0), s11+float64(x1*y1), s12+float64(x1*y2)
			y0, y1, y2, x0, x1 = b0[p+5], b1[p+5], b2[p+5], a0[p+5], a1[p+5]
			s00, s01, s02 = s00+float64(x0*y0), s01+float64(x0*y1), s02+float64(x0*y2)
			s10, s11, s12 = s10+float64(x1*y0), s11+float64(x1*y1), s12+float64(x1*y2)
			y0, y1, y2, x0, x1 = b0[p+6], b1[p+6], b2[p+6], a0[p+6], a1[p+6]
			s00, s01, s02 = s00+float64(x0*y0), s01+float64(x0*y1), s02+float64(x0*y2)
			s10, s11, s12 = s10+float64(x1*y0), s11+float64(x1*y1), s12+float64(x1*y2)
			y0, y1, y2, x0, x1 = b0[p+7], b1[p+7], b2[p+7], a0[p+7], a1[p+7]
			s00, s01, s02 = s00+float64(x0*y0), s01+float64(x0*y1), s02+float64(x0*y2)
			s10, s11, s12 = s10+float64(x1*y0), s11+float64(x1*y1), s12+float64(x1*y2)
		}
		for ; p < k; p++ {
			y0, y1, y2, x0, x1 := b0[p], b1[p], b2[p], a0[p], a1[p]
			s00, s01, s02 = s00+float64(x0*y0), s01+float64(x0*y1), s02+float64(x0*y2)
			s10, s11, s12 = s10+float64(x1*y0), s11+float64(x1*y1), s12+float64(x1*y2)
		}
		if bias != nil {
			s00, s01, s02 = s00+bias[j], s01+bias[j+1], s02+bias[j+2]
			s10, s11, s12 = s10+bias[j], s11+bias[j+1], s12+bias[j+2]
		}
		c0[j], c0[j+1], c0[j+2] = s00, s01, s02
		c1[j], c1[j+1], c1[j+2] = s10, s11, s12
	}
	for ; j < m; j++ {
		s0, s1 := dot2rows(a0, a1, b[j*k:(j+1)*k])
		if bias != nil {
			s0, s1 = s0+bias[j], s1+bias[j]
		}
		c0[j], c1[j] = s0, s1
	}
}

// MulRow sets c = a·bᵀ + bias (no bias if nil) for one row a.
func MulRow(c, a, b, bias []float64) {
	k := len(a)
	b = fit(b, len(c)*k)
	if bias != nil {
		bias = fit(bias, len(c))
	}
	for j := range c {
		s := Dot(a, b[j*k:(j+1)*k])
		if bias != nil {
			s += bias[j]
		}
		c[j] = s
	}
}

// dot2rows returns Dot(a0, b) and Dot(a1, b) from one pass over b, four
// steps a pass (see MulPair).
func dot2rows(a0, a1, b []float64) (float64, float64) {
	a1, b = fit(a1, len(a0)), fit(b, len(a0))
	var s, t float64
	p := 0
	for ; p < len(a0)-3; p += 4 {
		s, t = s+float64(a0[p]*b[p]), t+float64(a1[p]*b[p])
		s, t = s+float64(a0[p+1]*b[p+1]), t+float64(a1[p+1]*b[p+1])
		s, t = s+float64(a0[p+2]*b[p+2]), t+float64(a1[p+2]*b[p+2])
		s, t = s+float64(a0[p+3]*b[p+3]), t+float64(a1[p+3]*b[p+3])
	}
	for ; p < len(a0); p++ {
		s, t = s+float64(a0[p]*b[p]), t+float64(a1[p]*b[p])
	}
	return s, t
}

// AddATB adds aᵀ (m×n) · b (n×k) to c (m×k), for a (n×m): the gradient of a
// weight matrix stored out×in, from the output gradient a and the input b.
// Four rows of a and b are folded into c at a time, so each entry of c is
// loaded and stored once per four products.
func AddATB(c, a, b []float64, n, m, k int) { AddATBCols(c, a, b, n, m, k, 0, m) }

// AddATBCols is AddATB for the rows j0..j1 of c only (the columns of a):
// each row of c sums over the rows of a in the same order, whatever the
// range, so ranges can run at once.
func AddATBCols(c, a, b []float64, n, m, k, j0, j1 int) {
	c, a, b = fit(c, m*k), fit(a, n*m), fit(b, n*k)
	if simd128 {
		wasmAddATB(c, a, b, n, m, k, j0, j1)
		return
	}
	if addATBWide(c, a, b, n, m, k, j0, j1) {
		return
	}
	i := 0
	for ; i < n-3; i += 4 {
		b0, b1, b2, b3 := b[i*k:(i+1)*k], b[(i+1)*k:(i+2)*k], b[(i+2)*k:(i+3)*k], b[(i+3)*k:(i+4)*k]
		ai := a[i*m : (i+4)*m]
		for j := j0; j < j1; j++ {
			s0, s1, s2, s3 := ai[j], ai[m+j], ai[2*m+j], ai[3*m+j]
			if AllZero(s0, s1, s2, s3) {
				continue // ReLU and the loss's unlabelled rows leave many zeros
			}
			cj := c[j*k : (j+1)*k]
			b0, b1, b2, b3 := b0[:len(cj)], b1[:len(cj)], b2[:len(cj)], b3[:len(cj)]
			if j+1 < j1 {
				// Two rows of c share each load of b; the next is folded
				// in with this one unless all its four factors are zero.
				t0, t1, t2, t3 := ai[j+1], ai[m+j+1], ai[2*m+j+1], ai[3*m+j+1]
				if !AllZero(t0, t1, t2, t3) {
					cn := c[(j+1)*k : (j+2)*k]
					cn = cn[:len(cj)]
					p := foldPairVec(cj, cn, b0, b1, b2, b3, s0, s1, s2, s3, t0, t1, t2, t3)
					for ; p < len(cj)-3; p += 4 { // four steps a pass (see MulPair)
						x0, x1, x2, x3 := b0[p], b1[p], b2[p], b3[p]
						cj[p] += float64(s0*x0) + float64(s1*x1) + float64(s2*x2) + float64(s3*x3)
						cn[p] += float64(t0*x0) + float64(t1*x1) + float64(t2*x2) + float64(t3*x3)
						x0, x1, x2, x3 = b0[p+1], b1[p+1], b2[p+1], b3[p+1]
						cj[p+1] += float64(s0*x0) + float64(s1*x1) + float64(s2*x2) + float64(s3*x3)
						cn[p+1] += float64(t0*x0) + float64(t1*x1) + float64(t2*x2) + float64(t3*x3)
						x0, x1, x2, x3 = b0[p+2], b1[p+2], b2[p+2], b3[p+2]
						cj[p+2] += float64(s0*x0) + float64(s1*x1) + float64(s2*x2) + float64(s3*x3)
						cn[p+2] += float64(t0*x0) + float64(t1*x1) + float64(t2*x2) + float64(t3*x3)
						x0, x1, x2, x3 = b0[p+3], b1[p+3], b2[p+3], b3[p+3]
						cj[p+3] += float64(s0*x0) + float64(s1*x1) + float64(s2*x2) + float64(s3*x3)
						cn[p+3] += float64(t0*x0) + float64(t1*x1) + float64(t2*x2) + float64(t3*x3)
					}
					for ; p < len(cj); p++ {
						x0, x1, x2, x3 := b0[p], b1[p], b2[p], b3[p]
						cj[p] += float64(s0*x0) + float64(s1*x1) + float64(s2*x2) + float64(s3*x3)
						cn[p] += float64(t0*x0) + float64(t1*x1) + float64(t2*x2) + float64(t3*x3)
					}
					j++
					continue
				}
			}
			p := 0
			for ; p < len(cj)-3; p += 4 {
				cj[p] += float64(s0*b0[p]) + float64(s1*b1[p]) + float64(s2*b2[p]) + float64(s3*b3[p])
				cj[p+1] += float64(s0*b0[p+1]) + float64(s1*b1[p+1]) + float64(s2*b2[p+1]) + float64(s3*b3[p+1])
				cj[p+2] += float64(s0*b0[p+2]) + float64(s1*b1[p+2]) + float64(s2*b2[p+2]) + float64(s3*b3[p+2])
				cj[p+3] += float64(s0*b0[p+3]) + float64(s1*b1[p+3]) + float64(s2*b2[p+3]) + float64(s3*b3[p+3])
			}
			for ; p < len(cj); p++ {
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

// Transpose sets t (m×n) = aᵀ for a (n×m).
func Transpose(t, a []float64, n, m int) {
	t, a = fit(t, m*n), fit(a, n*m)
	if simd128 && n*m >= 256 {
		wasmTranspose(t, a, n, m)
		return
	}
	for i := 0; i < n; i++ {
		ai := a[i*m : (i+1)*m]
		for j, v := range ai {
			t[j*n+i] = v
		}
	}
}

// AddRows adds v (1×m) to every row of c (n×m).
func AddRows(c, v []float64, n, m int) {
	c, v = fit(c, n*m), fit(v, m)
	if simd128 {
		wasmAddRows(c, v, n, m)
		return
	}
	for i := 0; i < n; i++ {
		AddTo(c[i*m:(i+1)*m], v)
	}
}

// SumRowsAdd adds the column sums of a (n×m) to c (1×m): a bias gradient,
// each column summed down the rows in order.
func SumRowsAdd(c, a []float64, n, m int) {
	c, a = fit(c, m), fit(a, n*m)
	if simd128 {
		wasmSumRowsAdd(c, a, n, m)
		return
	}
	if sumRowsAddWide(c, a, n, m) || sumRowsAddVec(c, a, n, m) {
		return
	}
	for i := 0; i < n; i++ {
		AddTo(c, a[i*m:(i+1)*m])
	}
}

// AllZero reports whether all four are ±0, with one branch rather than
// four: ReLU leaves each zero or not as if by a coin, so that a branch on
// each alone was mispredicted about every other time.
func AllZero(s0, s1, s2, s3 float64) bool {
	return (math.Float64bits(s0)|math.Float64bits(s1)|math.Float64bits(s2)|math.Float64bits(s3))<<1 == 0
}

// AddTo sets c += v elementwise, four a pass (see MulPair).
func AddTo(c, v []float64) {
	v = fit(v, len(c))
	i := addToVec(c, v)
	for ; i < len(c)-3; i += 4 {
		c[i], c[i+1], c[i+2], c[i+3] = c[i]+v[i], c[i+1]+v[i+1], c[i+2]+v[i+2], c[i+3]+v[i+3]
	}
	for ; i < len(c); i++ {
		c[i] += v[i]
	}
}

// Blend sets dst = a·x + b·y elementwise, each product rounded before the
// sum (dst may be x or y).
func Blend(dst, x, y []float64, a, b float64) {
	x, y = fit(x, len(dst)), fit(y, len(dst))
	for i := blendVec(dst, x, y, a, b); i < len(dst); i++ {
		dst[i] = float64(a*x[i]) + float64(b*y[i])
	}
}

// Scale sets dst = a·x elementwise (dst may be x).
func Scale(dst, x []float64, a float64) {
	x = fit(x, len(dst))
	for i := scaleVec(dst, x, a); i < len(dst); i++ {
		dst[i] = a * x[i]
	}
}

// Dot returns Σ a[i]·b[i], summed in order, four steps a pass (see MulPair).
func Dot(a, b []float64) float64 {
	b = fit(b, len(a))
	var s float64
	i := 0
	for ; i < len(a)-3; i += 4 {
		s = s + float64(a[i]*b[i]) + float64(a[i+1]*b[i+1]) + float64(a[i+2]*b[i+2]) + float64(a[i+3]*b[i+3])
	}
	for ; i < len(a); i++ {
		s += float64(a[i] * b[i])
	}
	return s
}

// Dot2 returns Dot(a, b) + Dot(c, d), for four slices of one length. The
// two sums run in one loop, each in its own order as Dot takes it, so the
// bits are Dot's; interleaved, the two chains of additions overlap, which
// the processor (or WebAssembly's compiler) does not do across two calls.
func Dot2(a, b, c, d []float64) float64 {
	b, c, d = fit(b, len(a)), fit(c, len(a)), fit(d, len(a))
	var s, t float64
	i := 0
	for ; i < len(a)-1; i += 2 {
		s, t = s+float64(a[i]*b[i]), t+float64(c[i]*d[i])
		s, t = s+float64(a[i+1]*b[i+1]), t+float64(c[i+1]*d[i+1])
	}
	for ; i < len(a); i++ {
		s, t = s+float64(a[i]*b[i]), t+float64(c[i]*d[i])
	}
	return s + t
}

// Relu sets y = max(x, 0) elementwise. It keeps the value where the sign
// bit is clear and writes +0 where it is set, without a branch: the
// builtin max is a call (runtime.fmax64) in WebAssembly, and took a third
// as long as the product before it. A NaN stays NaN, as with max.
func Relu(y, x []float64) {
	y = fit(y, len(x))
	if simd128 {
		wasmRelu(y, x)
		return
	}
	i := reluVec(y, x)
	for ; i < len(x)-3; i += 4 { // four a pass (see MulPair)
		y[i], y[i+1], y[i+2], y[i+3] = ReluOf(x[i]), ReluOf(x[i+1]), ReluOf(x[i+2]), ReluOf(x[i+3])
	}
	for ; i < len(x); i++ {
		y[i] = ReluOf(x[i])
	}
}

// ReluOf is max(v, 0), NaN kept, on bits (see Relu).
func ReluOf(v float64) float64 {
	if v != v {
		return v
	}
	keep := ^uint64(int64(math.Float64bits(v)) >> 63)
	return math.Float64frombits(math.Float64bits(v) & keep)
}

// ReluBackward sets dx = dy where the ReLU's output y is positive, else 0.
// The choice is made on bits, without a branch: half the units are off, in
// no pattern a branch predictor could learn.
func ReluBackward(dx, dy, y []float64) {
	dy, y = fit(dy, len(dx)), fit(y, len(dx))
	if simd128 {
		wasmReluBackward(dx, dy, y)
		return
	}
	i := reluBackwardVec(dx, dy, y)
	for ; i < len(dx)-3; i += 4 {
		dx[i], dx[i+1] = GateOn(dy[i], y[i]), GateOn(dy[i+1], y[i+1])
		dx[i+2], dx[i+3] = GateOn(dy[i+2], y[i+2]), GateOn(dy[i+3], y[i+3])
	}
	for ; i < len(dx); i++ {
		dx[i] = GateOn(dy[i], y[i])
	}
}

// GateOn returns d if y > 0, else +0, for y ≥ 0: then y > 0 exactly when
// the negation of its bits, as an integer, is negative; for y = −0 (which
// ReLU never gives) the negation wraps and d is kept, on every path.
func GateOn(d, y float64) float64 {
	on := uint64(-int64(math.Float64bits(y)) >> 63)
	return math.Float64frombits(math.Float64bits(d) & on)
}

// MulInto sets y = x ⊙ m elementwise.
func MulInto(y, x, m []float64) {
	x, m = fit(x, len(y)), fit(m, len(y))
	if simd128 {
		wasmMulInto(y, x, m)
		return
	}
	i := mulIntoVec(y, x, m)
	for ; i < len(y)-3; i += 4 {
		y[i], y[i+1], y[i+2], y[i+3] = x[i]*m[i], x[i+1]*m[i+1], x[i+2]*m[i+2], x[i+3]*m[i+3]
	}
	for ; i < len(y); i++ {
		y[i] = x[i] * m[i]
	}
}

// QuadsVec reports whether MulQuadRows has a vector path for a product of
// k terms and m columns given bt: callers group rows by four where it does
// (MulQuadRows is whole either way).
func QuadsVec(bt []float64, k, m int) bool { return quadsVec(bt, k, m) }

// MulQuadRows sets c_r = a_r · bt + bias (no bias if nil), then ReLU if
// rectify, for four rows given apart, each of c at least m long and of a
// at least k long; bt = bᵀ (k×m). Each entry is its sum in order of k
// from 0, then the bias, as MulABT sums it.
func MulQuadRows(c, a [4][]float64, bt, bias []float64, k, m int, rectify bool) {
	for r := range 4 {
		c[r], a[r] = fit(c[r], m), fit(a[r], k)
	}
	bt = fit(bt, k*m)
	if bias != nil {
		bias = fit(bias, m)
	}
	if quadsVec(bt, k, m) {
		mulQuadRowsVec(c, a, bt, bias, k, m, rectify)
		return
	}
	bt = fit(bt, k*m)
	for r := range 4 {
		cr, ar := c[r][:m], a[r][:k]
		for j := range cr {
			var s float64
			for p, x := range ar {
				s += float64(x * bt[p*m+j])
			}
			if bias != nil {
				s += bias[j]
			}
			cr[j] = s
		}
		if rectify {
			Relu(cr, cr)
		}
	}
}

// WideBlocks reports whether AddATBBlocks has a vector path splitting a
// fold of k columns into blocks of 32, and how many blocks: callers split
// the work between threads by them where it does.
func WideBlocks(k int) (int, bool) { return wideBlocks(k) }

// AddATBBlocks adds aᵀ (m×n) · b (n×k) to the columns [32·q0, 32·q1) of c
// (m×k), the last cut at k: each entry summed as AddATB sums it (groups of
// four rows of a and b, each group's products left to right and then
// added, a group of four zero factors skipped, the last rows one by one),
// whichever block a thread takes.
func AddATBBlocks(c, a, b []float64, n, m, k, q0, q1 int) {
	c, a, b = fit(c, m*k), fit(a, n*m), fit(b, n*k)
	if _, ok := wideBlocks(k); ok {
		addATBBlocksVec(c, a, b, n, m, k, q0, q1)
		return
	}
	p0, p1 := min(32*q0, k), min(32*q1, k)
	i := 0
	for ; i < n-3; i += 4 {
		for j := 0; j < m; j++ {
			s0, s1, s2, s3 := a[i*m+j], a[(i+1)*m+j], a[(i+2)*m+j], a[(i+3)*m+j]
			if AllZero(s0, s1, s2, s3) {
				continue
			}
			cj := c[j*k+p0 : j*k+p1]
			b0, b1, b2, b3 := b[i*k+p0:i*k+p1], b[(i+1)*k+p0:(i+1)*k+p1], b[(i+2)*k+p0:(i+2)*k+p1], b[(i+3)*k+p0:(i+3)*k+p1]
			for p := range cj {
				cj[p] += float64(s0*b0[p]) + float64(s1*b1[p]) + float64(s2*b2[p]) + float64(s3*b3[p])
			}
		}
	}
	for ; i < n; i++ {
		for j := 0; j < m; j++ {
			s, cj, bi := a[i*m+j], c[j*k+p0:j*k+p1], b[i*k+p0:i*k+p1]
			for p := range cj {
				cj[p] += float64(s * bi[p])
			}
		}
	}
}

// fit is s[:n], where s holds n values: an operand shorter than its
// kernel reads is refused, never read or written past its length into
// what its capacity holds beyond.
func fit[T any](s []T, n int) []T {
	if len(s) < n {
		panic(fmt.Sprintf("kernels: an operand of %d values where %d are read", len(s), n))
	}
	return s[:n]
}
