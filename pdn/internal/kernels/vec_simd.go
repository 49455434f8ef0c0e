//go:build goexperiment.simd && amd64 && !purego

package kernels

import (
	"simd/archsimd"
	"sync"

	"pdnexplorer/internal/fmath"
)

// vectors reports whether the AVX2 paths run: built with GOEXPERIMENT=simd
// (the Makefile's CLI and benchmarks are) on a processor that has AVX2.
var vectors = archsimd.X86.AVX2()

// wide reports whether the AVX-512 paths run: eight lanes of float64
// rather than four, for the loops that gained (on a 2-core AMD EPYC, GCN's
// epoch 1.2 → 0.87 ms, PDN's 3.2 → 2.7, GAT's 5.2 → 4.2–4.4). Every lane
// still runs its scalar loop's operations in order, so the bits are those
// of AVX2 and of no vectors at all. The eight-lane loops repeat their
// four-lane forms line for line: archsimd's vector types of different
// widths share no interface a generic function could take.
var wide = archsimd.X86.AVX512()

// setWide turns the AVX-512 paths on (where the processor has them) or
// off, for tests that check both, and returns the last setting.
func setWide(on bool) bool {
	was := wide
	wide = on && archsimd.X86.AVX512()
	return was
}

// foldPairVec is the vector body of AddATBCols' two-row fold: for p in
// steps of four it adds (((s₀x₀ + s₁x₁) + s₂x₂) + s₃x₃) to cj[p] and the
// same with t to cn[p], x_r = b_r[p], and returns where it stopped. Four
// lanes run the scalar loop's operations on four p at once: multiplies and
// adds, never fused, in the same order, so the bits are the scalar loop's
// (TestVectorsKeepTheBits), 3.5× as fast.
func foldPairVec(cj, cn, b0, b1, b2, b3 []float64, s0, s1, s2, s3, t0, t1, t2, t3 float64) int {
	if !vectors {
		return 0
	}
	b0, b1, b2, b3, cn = b0[:len(cj)], b1[:len(cj)], b2[:len(cj)], b3[:len(cj)], cn[:len(cj)]
	S0, S1 := archsimd.BroadcastFloat64x4(s0), archsimd.BroadcastFloat64x4(s1)
	S2, S3 := archsimd.BroadcastFloat64x4(s2), archsimd.BroadcastFloat64x4(s3)
	T0, T1 := archsimd.BroadcastFloat64x4(t0), archsimd.BroadcastFloat64x4(t1)
	T2, T3 := archsimd.BroadcastFloat64x4(t2), archsimd.BroadcastFloat64x4(t3)
	p := 0
	if wide {
		p = foldPairWide(cj, cn, b0, b1, b2, b3, s0, s1, s2, s3, t0, t1, t2, t3)
	}
	for ; p < len(cj)-3; p += 4 {
		x0, x1 := archsimd.LoadFloat64x4Slice(b0[p:]), archsimd.LoadFloat64x4Slice(b1[p:])
		x2, x3 := archsimd.LoadFloat64x4Slice(b2[p:]), archsimd.LoadFloat64x4Slice(b3[p:])
		u := S0.Mul(x0).Add(S1.Mul(x1)).Add(S2.Mul(x2)).Add(S3.Mul(x3))
		archsimd.LoadFloat64x4Slice(cj[p:]).Add(u).StoreSlice(cj[p:])
		v := T0.Mul(x0).Add(T1.Mul(x1)).Add(T2.Mul(x2)).Add(T3.Mul(x3))
		archsimd.LoadFloat64x4Slice(cn[p:]).Add(v).StoreSlice(cn[p:])
	}
	// Leaving AVX for the scalar SSE code: without this, the upper halves
	// left dirty made every scalar kernel after it 1.3–3× as slow.
	archsimd.ClearAVXUpperBits()
	return p
}

// mulPairVec sets c0 = a0·bᵀ + bias and c1 = a1·bᵀ + bias (no bias if
// nil), as MulPair does, for the first columns of c, and returns how many
// it set; bt = bᵀ (k×m, from TransposedForVectors). The lanes run across
// columns, so that every entry is still its own sum (((0 + x₀y₀) + x₁y₁) +
// …) in order of k, then the bias: the bits of the scalar loop.
func mulPairVec(c0, c1, a0, a1, bt, bias []float64) int {
	if bt == nil {
		return 0
	}
	k, m := len(a0), len(c0)
	a1, c1, bt = a1[:k], c1[:m], bt[:k*m]
	j := 0
	if wide {
		j = mulPairWide(c0, c1, a0, a1, bt, bias)
	}
	for ; j < m-15; j += 16 {
		var s00, s01, s02, s03, s10, s11, s12, s13 archsimd.Float64x4
		for p := 0; p < k; p++ {
			row := bt[p*m+j : p*m+j+16]
			y0, y1 := archsimd.LoadFloat64x4Slice(row), archsimd.LoadFloat64x4Slice(row[4:])
			y2, y3 := archsimd.LoadFloat64x4Slice(row[8:]), archsimd.LoadFloat64x4Slice(row[12:])
			x0, x1 := archsimd.BroadcastFloat64x4(a0[p]), archsimd.BroadcastFloat64x4(a1[p])
			s00, s01, s02, s03 = s00.Add(x0.Mul(y0)), s01.Add(x0.Mul(y1)), s02.Add(x0.Mul(y2)), s03.Add(x0.Mul(y3))
			s10, s11, s12, s13 = s10.Add(x1.Mul(y0)), s11.Add(x1.Mul(y1)), s12.Add(x1.Mul(y2)), s13.Add(x1.Mul(y3))
		}
		if bias != nil {
			b := bias[j : j+16]
			b0, b1 := archsimd.LoadFloat64x4Slice(b), archsimd.LoadFloat64x4Slice(b[4:])
			b2, b3 := archsimd.LoadFloat64x4Slice(b[8:]), archsimd.LoadFloat64x4Slice(b[12:])
			s00, s01, s02, s03 = s00.Add(b0), s01.Add(b1), s02.Add(b2), s03.Add(b3)
			s10, s11, s12, s13 = s10.Add(b0), s11.Add(b1), s12.Add(b2), s13.Add(b3)
		}
		s00.StoreSlice(c0[j:])
		s01.StoreSlice(c0[j+4:])
		s02.StoreSlice(c0[j+8:])
		s03.StoreSlice(c0[j+12:])
		s10.StoreSlice(c1[j:])
		s11.StoreSlice(c1[j+4:])
		s12.StoreSlice(c1[j+8:])
		s13.StoreSlice(c1[j+12:])
	}
	for ; j < m-3; j += 4 {
		var s0, s1 archsimd.Float64x4
		for p := 0; p < k; p++ {
			y := archsimd.LoadFloat64x4Slice(bt[p*m+j : p*m+j+4])
			s0 = s0.Add(archsimd.BroadcastFloat64x4(a0[p]).Mul(y))
			s1 = s1.Add(archsimd.BroadcastFloat64x4(a1[p]).Mul(y))
		}
		if bias != nil {
			b := archsimd.LoadFloat64x4Slice(bias[j : j+4])
			s0, s1 = s0.Add(b), s1.Add(b)
		}
		s0.StoreSlice(c0[j:])
		s1.StoreSlice(c1[j:])
	}
	archsimd.ClearAVXUpperBits()
	return j
}

// TransposedForVectors returns bᵀ (k×m) for b (m×k), for mulPairVec, in a
// pooled buffer to give back with ReleaseTransposed; nil where the vectors
// do not run, the rows are too short to fill them or the product takes
// mulABTShort, which does not use it.
func TransposedForVectors(b []float64, m, k int) ([]float64, *[]float64) {
	if !vectors || m < 4 || k < ShortRows {
		return nil, nil
	}
	buf := transposes.Get().(*[]float64)
	if cap(*buf) < m*k {
		*buf = make([]float64, m*k)
	}
	t := (*buf)[:m*k]
	Transpose(t, b, m, k)
	return t, buf
}

func ReleaseTransposed(buf *[]float64) {
	if buf != nil {
		transposes.Put(buf)
	}
}

var transposes = sync.Pool{New: func() any { return new([]float64) }}

// expVec is fmath.Exp of four values, lane by lane the same operations in
// the same order (never fused), so the same bits. It reports false, with
// nothing computed, where a lane needs one of exp's special cases (NaN,
// overflow, underflow, or a power of two Ldexp must build), for the caller
// to take the four one by one.
func expVec(x archsimd.Float64x4) (archsimd.Float64x4, bool) {
	if fusedGo { // fmath.Exp fuses here: its lanes one by one (fused_on.go)
		return x, false
	}
	special := x.IsNaN().Or(x.Greater(archsimd.BroadcastFloat64x4(fmath.Overflow))).Or(x.Less(archsimd.BroadcastFloat64x4(fmath.Underflow)))
	if special.ToBits() != 0 {
		return x, false
	}
	zero := archsimd.BroadcastFloat64x4(0)
	half := archsimd.BroadcastFloat64x4(0.5)
	half = half.Merge(archsimd.BroadcastFloat64x4(-0.5), x.GreaterEqual(zero))
	kf := archsimd.BroadcastFloat64x4(fmath.Log2e).Mul(x).Add(half).Trunc()
	if kf.LessEqual(archsimd.BroadcastFloat64x4(-1021)).Or(kf.GreaterEqual(archsimd.BroadcastFloat64x4(1022))).ToBits() != 0 {
		return x, false
	}
	hi := x.Sub(kf.Mul(archsimd.BroadcastFloat64x4(fmath.Ln2Hi)))
	lo := kf.Mul(archsimd.BroadcastFloat64x4(fmath.Ln2Lo))
	r := hi.Sub(lo)
	t := r.Mul(r)
	poly := archsimd.BroadcastFloat64x4(fmath.P4).Add(t.Mul(archsimd.BroadcastFloat64x4(fmath.P5)))
	poly = archsimd.BroadcastFloat64x4(fmath.P3).Add(t.Mul(poly))
	poly = archsimd.BroadcastFloat64x4(fmath.P2).Add(t.Mul(poly))
	poly = archsimd.BroadcastFloat64x4(fmath.P1).Add(t.Mul(poly))
	c := r.Sub(t.Mul(poly))
	two := archsimd.BroadcastFloat64x4(2)
	y := archsimd.BroadcastFloat64x4(1).Sub(lo.Sub(r.Mul(c).Div(two.Sub(c))).Sub(hi))
	scale := kf.ConvertToInt32().ExtendToInt64().Add(archsimd.BroadcastInt64x4(1023)).ShiftAllLeft(52).AsFloat64x4()
	out := y.Mul(scale)
	near := x.Greater(archsimd.BroadcastFloat64x4(-fmath.NearZero)).And(x.Less(archsimd.BroadcastFloat64x4(fmath.NearZero)))
	return archsimd.BroadcastFloat64x4(1).Add(x).Merge(out, near), true
}

// expLanes is fmath.Exp of four values, by expVec where it can.
func expLanes(x archsimd.Float64x4) archsimd.Float64x4 {
	if y, ok := expVec(x); ok {
		return y
	}
	var a [4]float64
	x.Store(&a)
	for i, v := range a {
		a[i] = fmath.Exp(v)
	}
	return archsimd.LoadFloat64x4(&a)
}

// expWide is expVec for eight values, with AVX-512: the same operations,
// lane by lane, so the same bits; Trunc is a scaled truncation to no
// fraction bits, the same instruction family (see wide on why it is
// written out again).
func expWide(x archsimd.Float64x8) (archsimd.Float64x8, bool) {
	if fusedGo { // as in expVec
		return x, false
	}
	special := x.IsNaN().Or(x.Greater(archsimd.BroadcastFloat64x8(fmath.Overflow))).Or(x.Less(archsimd.BroadcastFloat64x8(fmath.Underflow)))
	if special.ToBits() != 0 {
		return x, false
	}
	zero := archsimd.BroadcastFloat64x8(0)
	half := archsimd.BroadcastFloat64x8(0.5)
	half = half.Merge(archsimd.BroadcastFloat64x8(-0.5), x.GreaterEqual(zero))
	kf := archsimd.BroadcastFloat64x8(fmath.Log2e).Mul(x).Add(half).TruncScaled(0)
	if kf.LessEqual(archsimd.BroadcastFloat64x8(-1021)).Or(kf.GreaterEqual(archsimd.BroadcastFloat64x8(1022))).ToBits() != 0 {
		return x, false
	}
	hi := x.Sub(kf.Mul(archsimd.BroadcastFloat64x8(fmath.Ln2Hi)))
	lo := kf.Mul(archsimd.BroadcastFloat64x8(fmath.Ln2Lo))
	r := hi.Sub(lo)
	t := r.Mul(r)
	poly := archsimd.BroadcastFloat64x8(fmath.P4).Add(t.Mul(archsimd.BroadcastFloat64x8(fmath.P5)))
	poly = archsimd.BroadcastFloat64x8(fmath.P3).Add(t.Mul(poly))
	poly = archsimd.BroadcastFloat64x8(fmath.P2).Add(t.Mul(poly))
	poly = archsimd.BroadcastFloat64x8(fmath.P1).Add(t.Mul(poly))
	c := r.Sub(t.Mul(poly))
	two := archsimd.BroadcastFloat64x8(2)
	y := archsimd.BroadcastFloat64x8(1).Sub(lo.Sub(r.Mul(c).Div(two.Sub(c))).Sub(hi))
	scale := kf.ConvertToInt32().ExtendToInt64().Add(archsimd.BroadcastInt64x8(1023)).ShiftAllLeft(52).AsFloat64x8()
	out := y.Mul(scale)
	near := x.Greater(archsimd.BroadcastFloat64x8(-fmath.NearZero)).And(x.Less(archsimd.BroadcastFloat64x8(fmath.NearZero)))
	return archsimd.BroadcastFloat64x8(1).Add(x).Merge(out, near), true
}

// sigmoidsVec sets w[e] = fmath.Sigmoid(s[e]) over w's first entries
// whose keep is not zero (every one for a nil keep), eight at a time with
// AVX-512, and returns where it stopped. Each lane takes Sigmoid's branch:
// 1/(1 + Exp(−x)) for x ≥ 0, else e/(1 + e) with e = Exp(x); the
// exponential is expLanesWide's (fmath.Exp's bits), −x flips the sign
// bit as Go's negation does, and the division is IEEE's, as the scalar
// one: the same bits (TestSigmoidsKeepTheBits).
func sigmoidsVec(w, s, keep []float64) int {
	if !wide {
		return 0
	}
	s = s[:len(w)]
	if keep != nil {
		keep = keep[:len(w)]
	}
	zero, one := archsimd.BroadcastFloat64x8(0), archsimd.BroadcastFloat64x8(1)
	sign := archsimd.BroadcastInt64x8(-1 << 63)
	i := 0
	for ; i+8 <= len(w); i += 8 {
		x := archsimd.LoadFloat64x8(at8(s, i))
		pos := x.GreaterEqual(zero)
		e := expLanesWide(x.AsInt64x8().Xor(sign).AsFloat64x8().Merge(x, pos))
		y := one.Div(one.Add(e)).Merge(e.Div(one.Add(e)), pos)
		if keep != nil {
			y = y.Merge(archsimd.LoadFloat64x8(at8(w, i)), archsimd.LoadFloat64x8(at8(keep, i)).NotEqual(zero))
		}
		y.Store(at8(w, i))
	}
	archsimd.ClearAVXUpperBits()
	return i
}

// expLanesWide is fmath.Exp of eight values, by expWide where it can.
func expLanesWide(x archsimd.Float64x8) archsimd.Float64x8 {
	if y, ok := expWide(x); ok {
		return y
	}
	var a [8]float64
	x.StoreSlice(a[:])
	for i, v := range a {
		a[i] = fmath.Exp(v)
	}
	return archsimd.LoadFloat64x8Slice(a[:])
}

// eluGradVec multiplies g[i] by ELU's derivative at x[i], four at a time,
// given y = elu(x), and returns where it stopped: 1 above 0, else y[i] + 1,
// the same bits as the scalar loop in gat.backward without its branch,
// which the signs of x defeat half the time.
func eluGradVec(g, x, y []float64) int {
	if !vectors {
		return 0
	}
	g, y = g[:len(x)], y[:len(x)]
	zero, one := archsimd.BroadcastFloat64x4(0), archsimd.BroadcastFloat64x4(1)
	i := 0
	for ; i+4 <= len(x); i += 4 {
		gv := archsimd.LoadFloat64x4Slice(g[i:])
		d := gv.Mul(archsimd.LoadFloat64x4Slice(y[i:]).Add(one))
		d.Merge(gv, archsimd.LoadFloat64x4Slice(x[i:]).LessEqual(zero)).StoreSlice(g[i:])
	}
	archsimd.ClearAVXUpperBits()
	return i
}

// eluVec sets dst[i] = elu(x[i]) four at a time (eight with AVX-512) and
// returns where it stopped: x above 0, else Exp(x) − 1, the same bits as elu.
func eluVec(dst, x []float64) int {
	if !vectors {
		return 0
	}
	i := 0
	if wide {
		dst = dst[:len(x)]
		zero, one := archsimd.BroadcastFloat64x8(0), archsimd.BroadcastFloat64x8(1)
		for ; i+8 <= len(x); i += 8 {
			v := archsimd.LoadFloat64x8(at8(x, i))
			pos := v.Greater(zero)
			e := expLanesWide(zero.Merge(v, pos))
			v.Merge(e.Sub(one), pos).Store(at8(dst, i))
		}
	}
	zero, one := archsimd.BroadcastFloat64x4(0), archsimd.BroadcastFloat64x4(1)
	for ; i+4 <= len(x); i += 4 {
		v := archsimd.LoadFloat64x4Slice(x[i:])
		pos := v.Greater(zero)
		e := expLanes(zero.Merge(v, pos)) // no exponential of what stays as it is
		v.Merge(e.Sub(one), pos).StoreSlice(dst[i:])
	}
	archsimd.ClearAVXUpperBits()
	return i
}

// transpose4 returns the columns of the 4×4 matrix whose rows are r0–r3.
func transpose4(r0, r1, r2, r3 archsimd.Float64x4) (c0, c1, c2, c3 archsimd.Float64x4) {
	t0 := r0.SelectFromPairGrouped(0, 2, r1) // r0[0] r1[0] r0[2] r1[2]
	t1 := r0.SelectFromPairGrouped(1, 3, r1) // r0[1] r1[1] r0[3] r1[3]
	t2 := r2.SelectFromPairGrouped(0, 2, r3)
	t3 := r2.SelectFromPairGrouped(1, 3, r3)
	return t0.Select128FromPair(0, 2, t2), t1.Select128FromPair(0, 2, t3), t0.Select128FromPair(1, 3, t2), t1.Select128FromPair(1, 3, t3)
}

// foldPairWide is foldPairVec's loop eight lanes at a time, with AVX-512;
// it returns where it stopped, for foldPairVec to go on.
func foldPairWide(cj, cn, b0, b1, b2, b3 []float64, s0, s1, s2, s3, t0, t1, t2, t3 float64) int {
	S0, S1 := archsimd.BroadcastFloat64x8(s0), archsimd.BroadcastFloat64x8(s1)
	S2, S3 := archsimd.BroadcastFloat64x8(s2), archsimd.BroadcastFloat64x8(s3)
	T0, T1 := archsimd.BroadcastFloat64x8(t0), archsimd.BroadcastFloat64x8(t1)
	T2, T3 := archsimd.BroadcastFloat64x8(t2), archsimd.BroadcastFloat64x8(t3)
	p := 0
	for ; p+8 <= len(cj); p += 8 {
		x0, x1 := archsimd.LoadFloat64x8Slice(b0[p:]), archsimd.LoadFloat64x8Slice(b1[p:])
		x2, x3 := archsimd.LoadFloat64x8Slice(b2[p:]), archsimd.LoadFloat64x8Slice(b3[p:])
		u := S0.Mul(x0).Add(S1.Mul(x1)).Add(S2.Mul(x2)).Add(S3.Mul(x3))
		archsimd.LoadFloat64x8Slice(cj[p:]).Add(u).StoreSlice(cj[p:])
		v := T0.Mul(x0).Add(T1.Mul(x1)).Add(T2.Mul(x2)).Add(T3.Mul(x3))
		archsimd.LoadFloat64x8Slice(cn[p:]).Add(v).StoreSlice(cn[p:])
	}
	return p
}

// mulPairWide is mulPairVec's blocks with AVX-512: 32 columns of both rows
// in eight registers, then 16 in four, then eight in two; it returns how
// many columns it set, for mulPairVec to go on. Each entry is still its own
// sum in order of k, then the bias.
func mulPairWide(c0, c1, a0, a1, bt, bias []float64) int {
	k, m := len(a0), len(c0)
	a1 = a1[:k]
	j := 0
	for ; j+32 <= m; j += 32 {
		var s00, s01, s02, s03, s10, s11, s12, s13 archsimd.Float64x8
		for p := 0; p < k; p++ {
			row := (*[32]float64)(bt[p*m+j : p*m+j+32])
			y0, y1, y2, y3 := q8(row, 0), q8(row, 1), q8(row, 2), q8(row, 3)
			x0, x1 := archsimd.BroadcastFloat64x8(a0[p]), archsimd.BroadcastFloat64x8(a1[p])
			s00, s01, s02, s03 = s00.Add(x0.Mul(y0)), s01.Add(x0.Mul(y1)), s02.Add(x0.Mul(y2)), s03.Add(x0.Mul(y3))
			s10, s11, s12, s13 = s10.Add(x1.Mul(y0)), s11.Add(x1.Mul(y1)), s12.Add(x1.Mul(y2)), s13.Add(x1.Mul(y3))
		}
		if bias != nil {
			b := (*[32]float64)(bias[j : j+32])
			b0, b1, b2, b3 := q8(b, 0), q8(b, 1), q8(b, 2), q8(b, 3)
			s00, s01, s02, s03 = s00.Add(b0), s01.Add(b1), s02.Add(b2), s03.Add(b3)
			s10, s11, s12, s13 = s10.Add(b0), s11.Add(b1), s12.Add(b2), s13.Add(b3)
		}
		r0, r1 := (*[32]float64)(c0[j:j+32]), (*[32]float64)(c1[j:j+32])
		s00.Store(p8(r0, 0))
		s01.Store(p8(r0, 1))
		s02.Store(p8(r0, 2))
		s03.Store(p8(r0, 3))
		s10.Store(p8(r1, 0))
		s11.Store(p8(r1, 1))
		s12.Store(p8(r1, 2))
		s13.Store(p8(r1, 3))
	}
	for ; j+16 <= m; j += 16 {
		var s00, s01, s10, s11 archsimd.Float64x8
		for p := 0; p < k; p++ {
			row := (*[16]float64)(bt[p*m+j : p*m+j+16])
			y0, y1 := archsimd.LoadFloat64x8((*[8]float64)(row[:8])), archsimd.LoadFloat64x8((*[8]float64)(row[8:]))
			x0, x1 := archsimd.BroadcastFloat64x8(a0[p]), archsimd.BroadcastFloat64x8(a1[p])
			s00, s01, s10, s11 = s00.Add(x0.Mul(y0)), s01.Add(x0.Mul(y1)), s10.Add(x1.Mul(y0)), s11.Add(x1.Mul(y1))
		}
		if bias != nil {
			b0, b1 := archsimd.LoadFloat64x8(at8(bias, j)), archsimd.LoadFloat64x8(at8(bias, j+8))
			s00, s01, s10, s11 = s00.Add(b0), s01.Add(b1), s10.Add(b0), s11.Add(b1)
		}
		s00.Store(at8(c0, j))
		s01.Store(at8(c0, j+8))
		s10.Store(at8(c1, j))
		s11.Store(at8(c1, j+8))
	}
	for ; j+8 <= m; j += 8 {
		var s0, s1 archsimd.Float64x8
		for p := 0; p < k; p++ {
			y := archsimd.LoadFloat64x8(at8(bt, p*m+j))
			s0 = s0.Add(archsimd.BroadcastFloat64x8(a0[p]).Mul(y))
			s1 = s1.Add(archsimd.BroadcastFloat64x8(a1[p]).Mul(y))
		}
		if bias != nil {
			b := archsimd.LoadFloat64x8(at8(bias, j))
			s0, s1 = s0.Add(b), s1.Add(b)
		}
		s0.Store(at8(c0, j))
		s1.Store(at8(c1, j))
	}
	return j
}

// addATBWide is AddATBCols with AVX-512 for k a multiple of 32: 32
// columns of a row of c stay in four registers while a tile of rows of a
// and b (one that stays in the first-level cache) is folded in, four rows
// at a time, and are stored once a tile, rather than loaded and stored
// again for every four rows. Each entry still adds the same folds in the
// same order, skips the same all-zero groups and takes the last rows one
// by one, so the bits are AddATBCols' (TestVectorsKeepTheBits).
func addATBWide(c, a, b []float64, n, m, k, j0, j1 int) bool {
	if !wide || k%32 != 0 {
		return false
	}
	foldWide(c, a, b, n, m, k, j0, j1, 0, k)
	return true
}

// addATBBlocksVec is addATBWide for every row of c and the columns
// [32·q0, 32·q1) of b (and c): the split by columns of b that two threads
// share a wide fold by, each reading its own half of b's rows rather than
// all of them (the pathfinder's fold over 131k edges, k = 128, was bound
// by memory read twice). Each entry's sum is the same whichever thread
// takes it, so the bits stay.
func addATBBlocksVec(c, a, b []float64, n, m, k, q0, q1 int) {
	foldWide(c, a, b, n, m, k, 0, m, 32*q0, 32*q1)
	archsimd.ClearAVXUpperBits()
}

// wideBlocks reports whether addATBBlocksVec folds c (m×k) += aᵀb by
// blocks of 32 of b's columns, and how many: with AVX-512, and at least
// two blocks.
func wideBlocks(k int) (int, bool) { return k / 32, wide && k%32 == 0 && k >= 64 }

// foldWide folds rows [j0, j1) and columns [p0, p1) of c (p0, p1
// multiples of 32) over all n rows of a and b, a tile of rows at a time:
// two rows of c at a time by foldTileWide, over the tile's whole groups of
// four rows; the last rows of the last tile, and an odd last row of c, by
// foldRowWide.
func foldWide(c, a, b []float64, n, m, k, j0, j1, p0, p1 int) {
	// 32 rows: at 64, a block's rows (1 kB apart at k = 128) fell on
	// fewer sets of the first-level cache than it has ways for them, and
	// the block left it between rows of c (the fold at 57 GFLOP/s from the
	// cache, not 88).
	const tile = 32
	even := (j1 - j0) &^ 1
	var col [tile]float64 // a column of a's tile, for foldRowWide
	for i0 := 0; i0 < n; i0 += tile {
		i1 := min(i0+tile, n)
		groups := (i1 - i0) / 4
		// A block of 32 of b's columns serves every row of c before the
		// next block: the tile's whole width (32 kB at k = 128) read
		// again for each row of c left the first-level cache. Each
		// entry's sum is over the same rows in the same order whichever
		// comes first, so the bits stay.
		for pb := p0; pb < p1; pb += 32 {
			if even > 0 && groups > 0 {
				_, _ = c[(j0+even-1)*k+pb:][:32], a[(i0+4*groups-1)*m+j0:][:even]
				_ = b[(i0+4*groups-1)*k+pb:][:32]
				var next *float64 // the next tile's block, fetched meanwhile
				if i1+tile <= n {
					next = &b[i1*k+pb]
				}
				foldTileWide(&c[j0*k+pb], &a[i0*m+j0], &b[i0*k+pb], next, even, groups, k, m, tile)
			}
			for j := j0; j < j1; j++ {
				from := i0
				if j-j0 < even {
					from += 4 * groups
				}
				aj := col[:i1-from]
				for i := range aj {
					aj[i] = a[(from+i)*m+j]
				}
				if len(aj) > 0 {
					foldRowWide(c[j*k+pb:][:32], aj, b[from*k+pb:], k)
				}
			}
		}
	}
	archsimd.ClearAVXUpperBits()
}

// outputBackwardVec is the backward pass of the pathfinder's output layer
// (H → 1, H a multiple of 32) over its hidden layer's ReLU, in one pass
// over the hidden activations h (rows × H) where four passes went: it
// adds to ∂W (1×H) the fold gᵀh in AddATB's order (groups of four rows,
// each group's products summed left to right, then added; a group whose
// four g are zero skipped; the last rows one by one); sets dx = ReLU'(h)
// ⊙ (g·W), each entry 0 + g_i·W_j as mulABTShort sums it, then
// ReluBackward's gate; and adds dx's rows in order to below, the bias
// gradient of the layer under (SumRowsAdd's sum, which the caller then
// skips). The bits are those of affineBackward, ReluBackward and
// SumRowsAdd (TestOutputBackwardKeepsTheBits). It reports false, and does
// nothing, without AVX-512 or for other shapes.
func outputBackwardVec(wGrad, bGrad, wVal, below, dx, h, g []float64, in, rows int) bool {
	if !wide || in%32 != 0 || dx == nil || len(below) != in {
		return false
	}
	H := in
	h, dx, g = h[:rows*H], dx[:rows*H], g[:rows]
	SumRowsAdd(bGrad, g, rows, 1)
	// A chunk of rows is gated and summed, then folded, while its h is in
	// the first-level cache: two loops, as one would hold more vectors
	// than Go gives registers.
	const chunk = 32
	for q := 0; q < H; q += 32 {
		c, v := (*[32]float64)(wGrad[q:q+32]), (*[32]float64)(below[q:q+32])
		for lo := 0; lo < rows; lo += chunk {
			hi := min(lo+chunk, rows)
			gateRows(v, dx, h, g, (*[32]float64)(wVal[q:q+32]), lo, hi, q, H)
			foldRowWide(c[:], g[lo:hi], h[lo*H+q:], H) // lo is a multiple of four
		}
	}
	archsimd.ClearAVXUpperBits()
	return true
}

// gateRows sets dx's 32 columns from q of rows [lo, hi) to 0 + g_i·w_j
// where GateOn keeps it (h > 0, or h = −0), else +0, and adds each row to
// v in order.
func gateRows(v *[32]float64, dx, h, g []float64, w *[32]float64, lo, hi, q, H int) {
	zero, off := archsimd.BroadcastFloat64x8(0), archsimd.BroadcastInt64x8(0)
	w0, w1, w2, w3 := q8(w, 0), q8(w, 1), q8(w, 2), q8(w, 3)
	v0, v1, v2, v3 := q8(v, 0), q8(v, 1), q8(v, 2), q8(v, 3)
	for i := lo; i < hi; i++ {
		r, d := (*[32]float64)(h[i*H+q:][:32]), (*[32]float64)(dx[i*H+q:][:32])
		G := archsimd.BroadcastFloat64x8(g[i])
		d0 := zero.Add(G.Mul(w0)).Masked(off.Sub(q8(r, 0).AsInt64x8()).Less(off))
		d1 := zero.Add(G.Mul(w1)).Masked(off.Sub(q8(r, 1).AsInt64x8()).Less(off))
		d2 := zero.Add(G.Mul(w2)).Masked(off.Sub(q8(r, 2).AsInt64x8()).Less(off))
		d3 := zero.Add(G.Mul(w3)).Masked(off.Sub(q8(r, 3).AsInt64x8()).Less(off))
		d0.Store(p8(d, 0))
		d1.Store(p8(d, 1))
		d2.Store(p8(d, 2))
		d3.Store(p8(d, 3))
		v0, v1, v2, v3 = v0.Add(d0), v1.Add(d1), v2.Add(d2), v3.Add(d3)
	}
	v0.Store(p8(v, 0))
	v1.Store(p8(v, 1))
	v2.Store(p8(v, 2))
	v3.Store(p8(v, 3))
}

// foldRowWide adds to cj (32 columns of a row of c) its folds over a tile
// of rows: aj holds the row of c's factors, row i's in aj[i], and b the
// rows' 32 columns at b[i·k:]. Rows past the last four are taken one by
// one, as only the last tile has them.
func foldRowWide(cj, aj, b []float64, k int) {
	c := (*[32]float64)(cj)
	u0, u1, u2, u3 := q8(c, 0), q8(c, 1), q8(c, 2), q8(c, 3)
	i := 0
	for ; i+4 <= len(aj); i += 4 {
		f := (*[4]float64)(aj[i : i+4])
		s0, s1, s2, s3 := f[0], f[1], f[2], f[3]
		if AllZero(s0, s1, s2, s3) {
			continue // ReLU and the loss's unlabelled rows leave many zeros
		}
		r0, r1 := (*[32]float64)(b[i*k:i*k+32]), (*[32]float64)(b[(i+1)*k:(i+1)*k+32])
		r2, r3 := (*[32]float64)(b[(i+2)*k:(i+2)*k+32]), (*[32]float64)(b[(i+3)*k:(i+3)*k+32])
		S0, S1, S2, S3 := archsimd.BroadcastFloat64x8(s0), archsimd.BroadcastFloat64x8(s1), archsimd.BroadcastFloat64x8(s2), archsimd.BroadcastFloat64x8(s3)
		u0 = u0.Add(S0.Mul(q8(r0, 0)).Add(S1.Mul(q8(r1, 0))).Add(S2.Mul(q8(r2, 0))).Add(S3.Mul(q8(r3, 0))))
		u1 = u1.Add(S0.Mul(q8(r0, 1)).Add(S1.Mul(q8(r1, 1))).Add(S2.Mul(q8(r2, 1))).Add(S3.Mul(q8(r3, 1))))
		u2 = u2.Add(S0.Mul(q8(r0, 2)).Add(S1.Mul(q8(r1, 2))).Add(S2.Mul(q8(r2, 2))).Add(S3.Mul(q8(r3, 2))))
		u3 = u3.Add(S0.Mul(q8(r0, 3)).Add(S1.Mul(q8(r1, 3))).Add(S2.Mul(q8(r2, 3))).Add(S3.Mul(q8(r3, 3))))
	}
	for ; i < len(aj); i++ {
		r := (*[32]float64)(b[i*k : i*k+32])
		S := archsimd.BroadcastFloat64x8(aj[i])
		u0, u1 = u0.Add(S.Mul(q8(r, 0))), u1.Add(S.Mul(q8(r, 1)))
		u2, u3 = u2.Add(S.Mul(q8(r, 2))), u3.Add(S.Mul(q8(r, 3)))
	}
	u0.Store(p8(c, 0))
	u1.Store(p8(c, 1))
	u2.Store(p8(c, 2))
	u3.Store(p8(c, 3))
}

// at8 is s's eight values from o, for loads and stores without bounds
// checks (see p8).
func at8(s []float64, o int) *[8]float64 { return (*[8]float64)(s[o : o+8]) }

// lo4 and hi4 load the first and last four of p's eight values.
func lo4(p *[8]float64) archsimd.Float64x4 { return archsimd.LoadFloat64x4((*[4]float64)(p[:4])) }
func hi4(p *[8]float64) archsimd.Float64x4 { return archsimd.LoadFloat64x4((*[4]float64)(p[4:])) }

// p8 is the q-th eight of p's 32 values. Loads and stores through array
// pointers with constant bounds need no bounds check and no pointer
// masking, which a load through a slice costs afresh each time: in a loop
// of loads and adds, 2.4× as fast.
func p8(p *[32]float64, q int) *[8]float64 { return (*[8]float64)(p[8*q : 8*q+8]) }

// q64 loads the q-th eight of p's 64 values (see p8).
func q64(p *[64]float64, q int) archsimd.Float64x8 { return archsimd.LoadFloat64x8(e64(p, q)) }

// e64 is the q-th eight of p's 64 values (see p8).
func e64(p *[64]float64, q int) *[8]float64 { return (*[8]float64)(p[8*q : 8*q+8]) }

// q8 loads the q-th eight of p's 32 values (see p8).
func q8(p *[32]float64, q int) archsimd.Float64x8 { return archsimd.LoadFloat64x8(p8(p, q)) }

// mulShortWide is mulABTShort with AVX-512, for m a multiple of eight: b is
// transposed, so that each of its k columns lies along m, and a row of c,
// 32 columns at a time in four registers, sums (((0 + a₀b₀) + a₁b₁) + …)
// in order of k, as mulABTShort does.
func mulShortWide(c, a, b []float64, n, k, m int) bool {
	if !wide || m%8 != 0 || k == 0 {
		return false
	}
	buf := transposes.Get().(*[]float64)
	defer transposes.Put(buf)
	if cap(*buf) < m*k {
		*buf = make([]float64, m*k)
	}
	bt := (*buf)[:m*k]
	Transpose(bt, b, m, k)
	zero := archsimd.BroadcastFloat64x8(0)
	for i := range n {
		ai, ci := a[i*k:][:k], c[i*m:][:m]
		j := 0
		for ; j+32 <= m; j += 32 {
			s0, s1, s2, s3 := zero, zero, zero, zero
			for p, x := range ai {
				X, y := archsimd.BroadcastFloat64x8(x), bt[p*m+j:][:32]
				s0, s1 = s0.Add(X.Mul(archsimd.LoadFloat64x8Slice(y))), s1.Add(X.Mul(archsimd.LoadFloat64x8Slice(y[8:])))
				s2, s3 = s2.Add(X.Mul(archsimd.LoadFloat64x8Slice(y[16:]))), s3.Add(X.Mul(archsimd.LoadFloat64x8Slice(y[24:])))
			}
			cj := ci[j:][:32]
			s0.StoreSlice(cj)
			s1.StoreSlice(cj[8:])
			s2.StoreSlice(cj[16:])
			s3.StoreSlice(cj[24:])
		}
		for ; j < m; j += 8 {
			s := zero
			for p, x := range ai {
				s = s.Add(archsimd.BroadcastFloat64x8(x).Mul(archsimd.LoadFloat64x8Slice(bt[p*m+j:][:8])))
			}
			s.StoreSlice(ci[j:][:8])
		}
	}
	archsimd.ClearAVXUpperBits()
	return true
}

// transpose8 sets d to the transpose of the 8×8 matrix s (rows of 8, d
// and s apart), with AVX-512, in three rounds of two-source permutes:
// pairs of rows interleave their values, then pairs of those their pairs,
// then halves; 24 permutes, where four 4×4 blocks took 32 shuffles and
// twice the loads and stores.
func transpose8(d, s *[64]float64) {
	lo, hi := archsimd.LoadUint64x8(&permInterleaveLo), archsimd.LoadUint64x8(&permInterleaveHi)
	r0, r1, r2, r3 := q64(s, 0), q64(s, 1), q64(s, 2), q64(s, 3)
	r4, r5, r6, r7 := q64(s, 4), q64(s, 5), q64(s, 6), q64(s, 7)
	t0, t1 := r0.ConcatPermute(r1, lo), r0.ConcatPermute(r1, hi) // r0[0] r1[0] r0[2] r1[2] …; r0[1] r1[1] …
	t2, t3 := r2.ConcatPermute(r3, lo), r2.ConcatPermute(r3, hi)
	t4, t5 := r4.ConcatPermute(r5, lo), r4.ConcatPermute(r5, hi)
	t6, t7 := r6.ConcatPermute(r7, lo), r6.ConcatPermute(r7, hi)
	lo, hi = archsimd.LoadUint64x8(&permPairsLo), archsimd.LoadUint64x8(&permPairsHi)
	u0, u2 := t0.ConcatPermute(t2, lo), t0.ConcatPermute(t2, hi) // rows 0–3 of columns 0 and 4; of 2 and 6
	u1, u3 := t1.ConcatPermute(t3, lo), t1.ConcatPermute(t3, hi) // of 1 and 5; of 3 and 7
	u4, u6 := t4.ConcatPermute(t6, lo), t4.ConcatPermute(t6, hi) // rows 4–7
	u5, u7 := t5.ConcatPermute(t7, lo), t5.ConcatPermute(t7, hi)
	lo, hi = archsimd.LoadUint64x8(&permHalvesLo), archsimd.LoadUint64x8(&permHalvesHi)
	u0.ConcatPermute(u4, lo).Store(e64(d, 0))
	u0.ConcatPermute(u4, hi).Store(e64(d, 4))
	u1.ConcatPermute(u5, lo).Store(e64(d, 1))
	u1.ConcatPermute(u5, hi).Store(e64(d, 5))
	u2.ConcatPermute(u6, lo).Store(e64(d, 2))
	u2.ConcatPermute(u6, hi).Store(e64(d, 6))
	u3.ConcatPermute(u7, lo).Store(e64(d, 3))
	u3.ConcatPermute(u7, hi).Store(e64(d, 7))
}

// The permutes of transpose8, indices into x then y (0–7, 8–15).
var (
	permInterleaveLo = [8]uint64{0, 8, 2, 10, 4, 12, 6, 14}
	permInterleaveHi = [8]uint64{1, 9, 3, 11, 5, 13, 7, 15}
	permPairsLo      = [8]uint64{0, 1, 8, 9, 4, 5, 12, 13}
	permPairsHi      = [8]uint64{2, 3, 10, 11, 6, 7, 14, 15}
	permHalvesLo     = [8]uint64{0, 1, 2, 3, 8, 9, 10, 11}
	permHalvesHi     = [8]uint64{4, 5, 6, 7, 12, 13, 14, 15}
)

// built says this build has vector kernels.
const built = true

// widths are the widths this processor runs, narrowest first.
func widths() []string {
	w := []string{Scalar}
	if archsimd.X86.AVX2() {
		w = append(w, AVX2)
	}
	if archsimd.X86.AVX512() {
		w = append(w, AVX512)
	}
	return w
}

// setVectors turns the AVX2 paths on (where the processor has them) or
// off, and returns the last setting.
func setVectors(on bool) bool {
	was := vectors
	vectors = on && archsimd.X86.AVX2()
	return was
}

// narrowRow loads row j of h (m < 4 values) into the low lanes.
func narrowRow(h []float64, j int32, m int) archsimd.Float64x4 {
	at := int(j) * m
	if at+4 <= len(h) {
		return archsimd.LoadFloat64x4((*[4]float64)(h[at : at+4]))
	}
	return archsimd.LoadFloat64x4SlicePart(h[at : at+m])
}
