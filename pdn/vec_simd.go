//go:build goexperiment.simd && amd64

package pdn

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

// foldPairVec is the vector body of addATBCols' two-row fold: for p in
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
// nil), as mulPair does, for the first columns of c, and returns how many
// it set; bt = bᵀ (k×m, from transposedForVectors). The lanes run across
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

// transposedForVectors returns bᵀ (k×m) for b (m×k), for mulPairVec, in a
// pooled buffer to give back with releaseTransposed; nil where the vectors
// do not run, the rows are too short to fill them or the product takes
// mulABTShort, which does not use it.
func transposedForVectors(b []float64, m, k int) ([]float64, *[]float64) {
	if !vectors || m < 4 || k < shortRows {
		return nil, nil
	}
	buf := transposes.Get().(*[]float64)
	if cap(*buf) < m*k {
		*buf = make([]float64, m*k)
	}
	t := (*buf)[:m*k]
	transpose(t, b, m, k)
	return t, buf
}

func releaseTransposed(buf *[]float64) {
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

// leakyWide is leaky of eight values.
func leakyWide(x archsimd.Float64x8) archsimd.Float64x8 {
	return x.Merge(x.Mul(archsimd.BroadcastFloat64x8(gatLeakySlope)), x.Greater(archsimd.BroadcastFloat64x8(0)))
}

// leakyVec is leaky of four values: x above 0, else gatLeakySlope·x.
func leakyVec(x archsimd.Float64x4) archsimd.Float64x4 {
	return x.Merge(x.Mul(archsimd.BroadcastFloat64x4(gatLeakySlope)), x.Greater(archsimd.BroadcastFloat64x4(0)))
}

// softmaxVec is softmax for node i's neighbourhood arcs lo..hi, four heads
// at a time: each lane does, for its head, the scalar loop's operations in
// its order (see gatLayer.softmax), so the same bits. It reports false
// where it does not run (no AVX2, or heads not in fours).
func (l *gatLayer) softmaxVec(i, lo, hi int) bool {
	H := l.heads
	if vectors && H == 1 {
		l.softmaxArcs(i, lo, hi)
		return true
	}
	if !vectors || H%4 != 0 {
		return false
	}
	g := l.g
	if wide && H == 8 {
		l.softmaxWide(i, lo, hi)
		return true
	}
	for h0 := 0; h0 < H; h0 += 4 {
		ti := archsimd.LoadFloat64x4Slice(l.t[i*H+h0:])
		m := archsimd.BroadcastFloat64x4(-1e300)
		for k := lo; k < hi; k++ {
			p := archsimd.LoadFloat64x4Slice(l.s[int(g.col[k])*H+h0:]).Add(ti)
			p.StoreSlice(l.pre[k*H+h0:])
			lp := leakyVec(p)
			m = lp.Merge(m, lp.Greater(m))
		}
		sum := archsimd.BroadcastFloat64x4(0)
		for k := lo; k < hi; k++ {
			a := expLanes(leakyVec(archsimd.LoadFloat64x4Slice(l.pre[k*H+h0:])).Sub(m))
			a.StoreSlice(l.alpha[k*H+h0:])
			sum = sum.Add(a)
		}
		for k := lo; k < hi; k++ {
			archsimd.LoadFloat64x4Slice(l.alpha[k*H+h0:]).Div(sum).StoreSlice(l.alpha[k*H+h0:])
		}
	}
	archsimd.ClearAVXUpperBits()
	return true
}

// softmaxArcs is softmax for a single head (the output layer's), whose
// arcs lie side by side: the exponentials four or eight arcs at a time,
// the maximum and the sum arc after arc as softmax takes them, so the
// same bits.
func (l *gatLayer) softmaxArcs(i, lo, hi int) {
	g := l.g
	t := l.t[i]
	pre, alpha := l.pre[lo:hi], l.alpha[lo:hi]
	if wide {
		for k, j := range g.col[lo:hi] {
			pre[k] = l.s[j] + t
		}
		l.softmaxArcsWide(pre, alpha, maxLeakyWide(pre))
		return
	}
	m := -1e300
	for k, j := range g.col[lo:hi] {
		p := l.s[j] + t
		pre[k] = p
		if lp := leaky(p); lp > m { // see softmax
			m = lp
		}
	}
	k := 0
	M := archsimd.BroadcastFloat64x4(m)
	for ; k+4 <= len(pre); k += 4 {
		expLanes(leakyVec(archsimd.LoadFloat64x4Slice(pre[k:])).Sub(M)).StoreSlice(alpha[k:])
	}
	archsimd.ClearAVXUpperBits()
	for ; k < len(pre); k++ {
		alpha[k] = fmath.Exp(leaky(pre[k]) - m)
	}
	var sum float64
	for _, a := range alpha {
		sum += a
	}
	for k := range alpha {
		alpha[k] /= sum
	}
}

// maxLeakyWide is softmax's m for one head's arcs, with AVX-512: the
// largest leaky(p) above −1e300, eight arcs a vector, each lane keeping
// its largest as softmax does (a NaN never), then the largest lane. The
// lanes can leave m a zero of the other sign than softmax's; that changes
// only the sign of a zero x − m, whose exponential is 1 either way: the
// same α. Arc after arc, softmax's test on the sign of p was mispredicted
// about every other arc.
func maxLeakyWide(pre []float64) float64 {
	m := archsimd.BroadcastFloat64x8(-1e300)
	lane := archsimd.LoadInt64x8(&lanes8)
	for k := 0; k < len(pre); k += 8 {
		lp := leakyWide(archsimd.LoadFloat64x8SlicePart(pre[k:]))
		in := lane.Less(archsimd.BroadcastInt64x8(int64(len(pre) - k))) // the lanes past the end stay out
		m = lp.Merge(m, lp.Greater(m).And(in))
	}
	var l [8]float64
	m.Store(&l)
	archsimd.ClearAVXUpperBits()
	best := l[0]
	for _, v := range l[1:] {
		if v > best {
			best = v
		}
	}
	return best
}

// lanes8 is each lane's number.
var lanes8 = [8]int64{0, 1, 2, 3, 4, 5, 6, 7}

// softmaxArcsWide is softmaxArcs's exponentials and division with
// AVX-512, eight arcs at a time, the last fewer than eight in a vector
// filled out with zeros that is stored only in part: every lane is
// fmath.Exp's bits and a division is exact to the rounding, so the same
// bits without a scalar tail.
func (l *gatLayer) softmaxArcsWide(pre, alpha []float64, m float64) {
	M := archsimd.BroadcastFloat64x8(m)
	for k := 0; k < len(pre); k += 8 {
		expLanesWide(leakyWide(archsimd.LoadFloat64x8SlicePart(pre[k:])).Sub(M)).StoreSlicePart(alpha[k:])
	}
	var sum float64
	for _, a := range alpha {
		sum += a
	}
	S := archsimd.BroadcastFloat64x8(sum)
	for k := 0; k < len(alpha); k += 8 {
		archsimd.LoadFloat64x8SlicePart(alpha[k:]).Div(S).StoreSlicePart(alpha[k:])
	}
	archsimd.ClearAVXUpperBits()
}

// softmaxWide is softmaxVec for eight heads, one vector, with AVX-512.
func (l *gatLayer) softmaxWide(i, lo, hi int) {
	g := l.g
	ti := archsimd.LoadFloat64x8(at8(l.t, i*8))
	m := archsimd.BroadcastFloat64x8(-1e300)
	for k := lo; k < hi; k++ {
		p := archsimd.LoadFloat64x8(at8(l.s, int(g.col[k])*8)).Add(ti)
		p.Store(at8(l.pre, k*8))
		lp := leakyWide(p)
		m = lp.Merge(m, lp.Greater(m))
	}
	sum := archsimd.BroadcastFloat64x8(0)
	for k := lo; k < hi; k++ {
		a := expLanesWide(leakyWide(archsimd.LoadFloat64x8(at8(l.pre, k*8))).Sub(m))
		a.Store(at8(l.alpha, k*8))
		sum = sum.Add(a)
	}
	for k := lo; k < hi; k++ {
		ak := at8(l.alpha, k*8)
		archsimd.LoadFloat64x8(ak).Div(sum).Store(ak)
	}
	archsimd.ClearAVXUpperBits()
}

// aggregate8Vec is aggregate for heads of 8 features: the 8 sums in two
// vectors, each lane's the scalar loop's (see gatLayer.aggregate). With
// AVX-512 an 8×8 layer takes aggregateHeadsWide instead; a single head of
// 8 (the output layer of an 8-class graph) still comes here.
func (l *gatLayer) aggregate8Vec(y []float64, i, h int) bool {
	if !vectors {
		return false
	}
	g, H := l.g, l.heads
	ho := H * 8
	lo, hi := int(g.rowPtr[i]), int(g.rowPtr[i+1])
	s0, s1 := archsimd.LoadFloat64x4Slice(y), archsimd.LoadFloat64x4Slice(y[4:])
	for k := lo; k < hi; k++ {
		a := archsimd.BroadcastFloat64x4(l.alpha[k*H+h])
		w := l.wh[int(g.col[k])*ho+h*8:]
		s0 = s0.Add(a.Mul(archsimd.LoadFloat64x4Slice(w)))
		s1 = s1.Add(a.Mul(archsimd.LoadFloat64x4Slice(w[4:])))
	}
	s0.StoreSlice(y)
	s1.StoreSlice(y[4:])
	archsimd.ClearAVXUpperBits()
	return true
}

// aggregateNarrowVec is aggregate for a single head of fewer than four
// features (the output layer's classes): y's row stays in the low lanes of
// one vector, each lane adding its feature's terms in aggregate's order,
// and is stored once, under a mask (see propagateNarrowVec).
func (l *gatLayer) aggregateNarrowVec(y []float64, i int) bool {
	O := l.o
	if !vectors || l.heads != 1 || O >= 4 {
		return false
	}
	g := l.g
	lo, hi := int(g.rowPtr[i]), int(g.rowPtr[i+1])
	v := archsimd.LoadFloat64x4SlicePart(y[:O])
	for k, j := range g.col[lo:hi] {
		v = v.Add(archsimd.BroadcastFloat64x4(l.alpha[lo+k]).Mul(narrowRow(l.wh, j, O)))
	}
	v.StoreSlicePart(y[:O])
	archsimd.ClearAVXUpperBits()
	return true
}

// scatterNarrowVec is scatter for a single head of fewer than four features
// (the output layer's classes), four arcs at a time, and returns the arc
// where it stopped and Σ α dα so far: the four neighbours' rows are loaded
// and transposed, so that each lane sums its arc's dα = dyh·W h_j in dot's
// order, (0 + d₀w₀) + d₁w₁ + …; then, arc after arc, α dα is added to the
// sum and α dyh to ∂(W h_j), under a mask. The same bits as scatter's loop.
func (l *gatLayer) scatterNarrowVec(dyh []float64, i int) (int, float64) {
	g, O := l.g, l.o
	lo, hi := int(g.rowPtr[i]), int(g.rowPtr[i+1])
	if !vectors || l.heads != 1 || O >= 4 || O == 0 {
		return lo, 0
	}
	dyh = dyh[:O]
	var d [4]archsimd.Float64x4
	for o, x := range dyh {
		d[o] = archsimd.BroadcastFloat64x4(x)
	}
	dv := archsimd.LoadFloat64x4SlicePart(dyh)
	zero := archsimd.BroadcastFloat64x4(0)
	var dsum float64
	k := lo
	for ; k+4 <= hi; k += 4 {
		col := g.col[k : k+4]
		c0, c1, c2, c3 := transpose4(narrowRow(l.wh, col[0], O), narrowRow(l.wh, col[1], O), narrowRow(l.wh, col[2], O), narrowRow(l.wh, col[3], O))
		c := [4]archsimd.Float64x4{c0, c1, c2, c3}
		acc := zero
		for o := range dyh {
			acc = acc.Add(d[o].Mul(c[o]))
		}
		da := l.galpha[k : k+4]
		acc.StoreSlice(da)
		for q, x := range da {
			a := l.alpha[k+q]
			dsum += float64(a * x)
			gj := l.gwh[int(col[q])*O:][:O]
			archsimd.LoadFloat64x4SlicePart(gj).Add(archsimd.BroadcastFloat64x4(a).Mul(dv)).StoreSlicePart(gj)
		}
	}
	archsimd.ClearAVXUpperBits()
	return k, dsum
}

// scatter8Vec is scatter for a head of 8 features (with AVX-512 an 8×8
// layer takes scatterHeadsWide; a single head of 8 still comes here), four
// neighbours at a time, and
// returns the arc where it stopped and Σ α dα so far. The four neighbours'
// rows of W h are loaded and transposed, so that each lane sums one
// neighbour's dα = dyh·W h_j over the features in the scalar loop's order;
// then, neighbour after neighbour as the loop goes, dα is stored, α dα
// added to the sum and α dyh to ∂(W h_j) in two vectors. The same bits
// (TestScatterVecKeepsTheBits), without eight additions in a chain for
// every neighbour.
func (l *gatLayer) scatter8Vec(dyh []float64, i, h int) (int, float64) {
	g, H := l.g, l.heads
	lo, hi := int(g.rowPtr[i]), int(g.rowPtr[i+1])
	if !vectors || hi-lo < 4 {
		return lo, 0
	}
	ho := H * 8
	dyh = dyh[:8]
	dl, dh := archsimd.LoadFloat64x4Slice(dyh), archsimd.LoadFloat64x4Slice(dyh[4:])
	d0, d1 := archsimd.BroadcastFloat64x4(dyh[0]), archsimd.BroadcastFloat64x4(dyh[1])
	d2, d3 := archsimd.BroadcastFloat64x4(dyh[2]), archsimd.BroadcastFloat64x4(dyh[3])
	d4, d5 := archsimd.BroadcastFloat64x4(dyh[4]), archsimd.BroadcastFloat64x4(dyh[5])
	d6, d7 := archsimd.BroadcastFloat64x4(dyh[6]), archsimd.BroadcastFloat64x4(dyh[7])
	zero := archsimd.BroadcastFloat64x4(0)
	var dsum float64
	var da [4]float64
	k := lo
	for ; k+4 <= hi; k += 4 {
		cols := (*[4]int32)(g.col[k : k+4])
		r0, r1 := at8(l.wh, int(cols[0])*ho+h*8), at8(l.wh, int(cols[1])*ho+h*8)
		r2, r3 := at8(l.wh, int(cols[2])*ho+h*8), at8(l.wh, int(cols[3])*ho+h*8)
		c0, c1, c2, c3 := transpose4(lo4(r0), lo4(r1), lo4(r2), lo4(r3))
		c4, c5, c6, c7 := transpose4(hi4(r0), hi4(r1), hi4(r2), hi4(r3))
		acc := zero.Add(d0.Mul(c0)).Add(d1.Mul(c1)).Add(d2.Mul(c2)).Add(d3.Mul(c3))
		acc = acc.Add(d4.Mul(c4)).Add(d5.Mul(c5)).Add(d6.Mul(c6)).Add(d7.Mul(c7))
		acc.Store(&da)
		for q, x := range da {
			kq := k + q
			l.galpha[kq*H+h] = x
			a := l.alpha[kq*H+h]
			dsum += float64(a * x)
			gj := at8(l.gwh, int(cols[q])*ho+h*8)
			av := archsimd.BroadcastFloat64x4(a)
			lo4(gj).Add(av.Mul(dl)).Store((*[4]float64)(gj[:4]))
			hi4(gj).Add(av.Mul(dh)).Store((*[4]float64)(gj[4:]))
		}
	}
	archsimd.ClearAVXUpperBits()
	return k, dsum
}

// attnGradVec is attnGrad for four heads at a time, each lane the scalar
// loop's operations in its order, so the same bits.
func (l *gatLayer) attnGradVec(i, lo, hi int) bool {
	H := l.heads
	if wide && H == 1 {
		l.attnGradArcs(i, lo, hi)
		return true
	}
	if !vectors || H%4 != 0 {
		return false
	}
	g := l.g
	if wide && H == 8 {
		zero, slope := archsimd.BroadcastFloat64x8(0), archsimd.BroadcastFloat64x8(gatLeakySlope)
		ds := archsimd.LoadFloat64x8(at8(l.dsum, 0))
		gti := archsimd.LoadFloat64x8(at8(l.gt, i*8))
		for k := lo; k < hi; k++ {
			de := archsimd.LoadFloat64x8(at8(l.alpha, k*8)).Mul(archsimd.LoadFloat64x8(at8(l.galpha, k*8)).Sub(ds))
			de = de.Mul(slope).Merge(de, archsimd.LoadFloat64x8(at8(l.pre, k*8)).LessEqual(zero))
			gs := at8(l.gs, int(g.col[k])*8)
			archsimd.LoadFloat64x8(gs).Add(de).Store(gs)
			gti = gti.Add(de)
		}
		gti.Store(at8(l.gt, i*8))
		archsimd.ClearAVXUpperBits()
		return true
	}
	zero, slope := archsimd.BroadcastFloat64x4(0), archsimd.BroadcastFloat64x4(gatLeakySlope)
	for h0 := 0; h0 < H; h0 += 4 {
		ds := archsimd.LoadFloat64x4Slice(l.dsum[h0:])
		gti := archsimd.LoadFloat64x4Slice(l.gt[i*H+h0:])
		for k := lo; k < hi; k++ {
			de := archsimd.LoadFloat64x4Slice(l.alpha[k*H+h0:]).Mul(archsimd.LoadFloat64x4Slice(l.galpha[k*H+h0:]).Sub(ds))
			de = de.Mul(slope).Merge(de, archsimd.LoadFloat64x4Slice(l.pre[k*H+h0:]).LessEqual(zero))
			gs := l.gs[int(g.col[k])*H+h0:]
			archsimd.LoadFloat64x4Slice(gs).Add(de).StoreSlice(gs)
			gti = gti.Add(de)
		}
		gti.StoreSlice(l.gt[i*H+h0:])
	}
	archsimd.ClearAVXUpperBits()
	return true
}

// attnGradArcs is attnGrad for a single head (the output layer's), whose
// arcs lie side by side, with AVX-512: each arc's de, and the slope where
// p ≤ 0, eight arcs at a time (the last fewer in a vector filled out with
// zeros and never used), then added to s's gradient at each neighbour and
// to t's at i arc after arc, in attnGrad's order, so the same bits. The
// sign of p is a coin toss, and attnGrad's branch on it was mispredicted
// about every other arc.
func (l *gatLayer) attnGradArcs(i, lo, hi int) {
	g := l.g
	zero, slope := archsimd.BroadcastFloat64x8(0), archsimd.BroadcastFloat64x8(gatLeakySlope)
	ds := archsimd.BroadcastFloat64x8(l.dsum[0])
	gt := l.gt[i]
	var de [8]float64
	for k := lo; k < hi; k += 8 {
		end := min(k+8, hi)
		v := archsimd.LoadFloat64x8SlicePart(l.alpha[k:end]).Mul(archsimd.LoadFloat64x8SlicePart(l.galpha[k:end]).Sub(ds))
		v = v.Mul(slope).Merge(v, archsimd.LoadFloat64x8SlicePart(l.pre[k:end]).LessEqual(zero))
		v.Store(&de)
		for q, j := range g.col[k:end] {
			l.gs[j] += de[q]
			gt += de[q]
		}
	}
	l.gt[i] = gt
	archsimd.ClearAVXUpperBits()
}

// attnParamGrad8Vec is backward's last loop for one node and a head of 8
// features: gas += s·whj, gad += t·whj, gj += s·as + t·ad.
func attnParamGrad8Vec(gas, gad, gj, whj, as, ad []float64, s, t float64) bool {
	if !vectors || len(whj) != 8 {
		return false
	}
	S, T := archsimd.BroadcastFloat64x4(s), archsimd.BroadcastFloat64x4(t)
	for o := 0; o < 8; o += 4 {
		w := archsimd.LoadFloat64x4Slice(whj[o:])
		archsimd.LoadFloat64x4Slice(gas[o:]).Add(S.Mul(w)).StoreSlice(gas[o:])
		archsimd.LoadFloat64x4Slice(gad[o:]).Add(T.Mul(w)).StoreSlice(gad[o:])
		u := S.Mul(archsimd.LoadFloat64x4Slice(as[o:])).Add(T.Mul(archsimd.LoadFloat64x4Slice(ad[o:])))
		archsimd.LoadFloat64x4Slice(gj[o:]).Add(u).StoreSlice(gj[o:])
	}
	archsimd.ClearAVXUpperBits()
	return true
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

// trainDistinctVec is trainDistinct's pass over the dimensions, eight at a
// time (sixteen with AVX-512): each lane runs the scalar loop's operations
// for its dimension in the same order, so the same bits.
func trainDistinctVec(vc, o0, o1, o2, o3, o4, o5 []float32, gk *[1 + WalkNegatives]float32) bool {
	if !vectors || len(vc)%16 != 0 {
		return false
	}
	d := len(vc)
	o0, o1, o2, o3, o4, o5 = o0[:d], o1[:d], o2[:d], o3[:d], o4[:d], o5[:d]
	if wide && d == WalkDim {
		trainDistinctWide(vc, o0, o1, o2, o3, o4, o5, gk)
		return true
	}
	g0, g1, g2 := archsimd.BroadcastFloat32x8(gk[0]), archsimd.BroadcastFloat32x8(gk[1]), archsimd.BroadcastFloat32x8(gk[2])
	g3, g4, g5 := archsimd.BroadcastFloat32x8(gk[3]), archsimd.BroadcastFloat32x8(gk[4]), archsimd.BroadcastFloat32x8(gk[5])
	zero := archsimd.BroadcastFloat32x8(0)
	for t := 0; t < d; t += 8 {
		x := archsimd.LoadFloat32x8Slice(vc[t:])
		y := archsimd.LoadFloat32x8Slice(o0[t:])
		g := zero.Add(g0.Mul(y))
		y.Add(g0.Mul(x)).StoreSlice(o0[t:])
		y = archsimd.LoadFloat32x8Slice(o1[t:])
		g = g.Add(g1.Mul(y))
		y.Add(g1.Mul(x)).StoreSlice(o1[t:])
		y = archsimd.LoadFloat32x8Slice(o2[t:])
		g = g.Add(g2.Mul(y))
		y.Add(g2.Mul(x)).StoreSlice(o2[t:])
		y = archsimd.LoadFloat32x8Slice(o3[t:])
		g = g.Add(g3.Mul(y))
		y.Add(g3.Mul(x)).StoreSlice(o3[t:])
		y = archsimd.LoadFloat32x8Slice(o4[t:])
		g = g.Add(g4.Mul(y))
		y.Add(g4.Mul(x)).StoreSlice(o4[t:])
		y = archsimd.LoadFloat32x8Slice(o5[t:])
		g = g.Add(g5.Mul(y))
		y.Add(g5.Mul(x)).StoreSlice(o5[t:])
		x.Add(g).StoreSlice(vc[t:])
	}
	archsimd.ClearAVXUpperBits()
	return true
}

// trainDistinctWide is trainDistinctVec sixteen dimensions at a time.
func trainDistinctWide(vc, o0, o1, o2, o3, o4, o5 []float32, gk *[1 + WalkNegatives]float32) {
	c, r0, r1, r2, r3, r4, r5 := dim(vc), dim(o0), dim(o1), dim(o2), dim(o3), dim(o4), dim(o5)
	g0, g1, g2 := archsimd.BroadcastFloat32x16(gk[0]), archsimd.BroadcastFloat32x16(gk[1]), archsimd.BroadcastFloat32x16(gk[2])
	g3, g4, g5 := archsimd.BroadcastFloat32x16(gk[3]), archsimd.BroadcastFloat32x16(gk[4]), archsimd.BroadcastFloat32x16(gk[5])
	zero := archsimd.BroadcastFloat32x16(0)
	for q := range WalkDim / 16 {
		xp := sixteenth(c, q)
		x := archsimd.LoadFloat32x16(xp)
		p := sixteenth(r0, q)
		y := archsimd.LoadFloat32x16(p)
		g := zero.Add(g0.Mul(y))
		y.Add(g0.Mul(x)).Store(p)
		p = sixteenth(r1, q)
		y = archsimd.LoadFloat32x16(p)
		g = g.Add(g1.Mul(y))
		y.Add(g1.Mul(x)).Store(p)
		p = sixteenth(r2, q)
		y = archsimd.LoadFloat32x16(p)
		g = g.Add(g2.Mul(y))
		y.Add(g2.Mul(x)).Store(p)
		p = sixteenth(r3, q)
		y = archsimd.LoadFloat32x16(p)
		g = g.Add(g3.Mul(y))
		y.Add(g3.Mul(x)).Store(p)
		p = sixteenth(r4, q)
		y = archsimd.LoadFloat32x16(p)
		g = g.Add(g4.Mul(y))
		y.Add(g4.Mul(x)).Store(p)
		p = sixteenth(r5, q)
		y = archsimd.LoadFloat32x16(p)
		g = g.Add(g5.Mul(y))
		y.Add(g5.Mul(x)).Store(p)
		x.Add(g).Store(xp)
	}
	archsimd.ClearAVXUpperBits()
}

// scoresVec sets the six skip-gram scores vc·o_k in walkDot's order, its
// eight lanes a vector for each target.
func scoresVec(score *[1 + WalkNegatives]float32, vc, o0, o1, o2, o3, o4, o5 []float32) bool {
	if !vectors || len(vc) != WalkDim {
		return false
	}
	x, r0, r1, r2, r3, r4, r5 := dim(vc), dim(o0), dim(o1), dim(o2), dim(o3), dim(o4), dim(o5)
	var a0, a1, a2, a3, a4, a5 archsimd.Float32x8
	for q := range WalkDim / 8 {
		v := eighth(x, q)
		a0, a1 = a0.Add(v.Mul(eighth(r0, q))), a1.Add(v.Mul(eighth(r1, q)))
		a2, a3 = a2.Add(v.Mul(eighth(r2, q))), a3.Add(v.Mul(eighth(r3, q)))
		a4, a5 = a4.Add(v.Mul(eighth(r4, q))), a5.Add(v.Mul(eighth(r5, q)))
	}
	// laneSum of the six at once, as in a transpose: first l + l₄₊ of
	// two targets side by side, then (l₀+l₄) + (l₂+l₆) and (l₁+l₅) +
	// (l₃+l₇) of four, then those two added for all six (a float sum of
	// two is the same either way round). Stored and summed lane by lane,
	// the six had been 48 loads and 42 scalar additions.
	half := func(x, y archsimd.Float32x8) archsimd.Float32x8 {
		return x.Select128FromPair(0, 2, y).Add(x.Select128FromPair(1, 3, y))
	}
	u01, u23, u45 := half(a0, a1), half(a2, a3), half(a4, a5)
	v := u01.SelectFromPairGrouped(0, 1, 4, 5, u23).Add(u01.SelectFromPairGrouped(2, 3, 6, 7, u23)) // p₀ p₁ of 0, 2 | of 1, 3
	w := u45.SelectFromPairGrouped(0, 1, 4, 5, u45).Add(u45.SelectFromPairGrouped(2, 3, 6, 7, u45)) // of 4, 4 | of 5, 5
	var r [8]float32
	v.SelectFromPairGrouped(0, 2, 4, 6, w).Add(v.SelectFromPairGrouped(1, 3, 5, 7, w)).Store(&r) // 0 2 4 4 | 1 3 5 5
	archsimd.ClearAVXUpperBits()
	*score = [1 + WalkNegatives]float32{r[0], r[4], r[1], r[5], r[2], r[6]}
	return true
}

// dim is an embedding as an array pointer, and eighth and sixteenth load
// parts of it: through array pointers, loads need neither bounds checks
// nor pointer masking (see p8).
func dim(v []float32) *[WalkDim]float32 { return (*[WalkDim]float32)(v) }

func eighth(v *[WalkDim]float32, q int) archsimd.Float32x8 {
	return archsimd.LoadFloat32x8((*[8]float32)(v[8*q : 8*q+8]))
}

func sixteenth(v *[WalkDim]float32, q int) *[16]float32 { return (*[16]float32)(v[16*q : 16*q+16]) }

// transpose4 returns the columns of the 4×4 matrix whose rows are r0–r3.
func transpose4(r0, r1, r2, r3 archsimd.Float64x4) (c0, c1, c2, c3 archsimd.Float64x4) {
	t0 := r0.SelectFromPairGrouped(0, 2, r1) // r0[0] r1[0] r0[2] r1[2]
	t1 := r0.SelectFromPairGrouped(1, 3, r1) // r0[1] r1[1] r0[3] r1[3]
	t2 := r2.SelectFromPairGrouped(0, 2, r3)
	t3 := r2.SelectFromPairGrouped(1, 3, r3)
	return t0.Select128FromPair(0, 2, t2), t1.Select128FromPair(0, 2, t3), t0.Select128FromPair(1, 3, t2), t1.Select128FromPair(1, 3, t3)
}

// padRowsVec returns h's rows of fewer than four values (the classes of
// the paper's graphs, 3 by default, which APPNP propagates twenty times an
// epoch and GCN's second layer twice) each in an array of four, in g's
// scratch, for propagateNarrowVec; nil for wider rows or without vectors.
// The lanes past m hold whatever they held and are never stored.
func (g *gcnNorm) padRowsVec(h []float64, m int) [][4]float64 {
	n := g.adj.n
	if !vectors || m >= 4 || m == 0 || len(h) < n*m {
		return nil
	}
	if len(g.rows4) < n {
		g.rows4 = make([][4]float64, n)
	}
	rows := g.rows4[:n]
	i := 0
	for ; i < n && i*m+4 <= len(h); i++ {
		archsimd.LoadFloat64x4((*[4]float64)(h[i*m : i*m+4])).Store(&rows[i])
	}
	for ; i < n; i++ {
		copy(rows[i][:m], h[i*m:(i+1)*m])
	}
	archsimd.ClearAVXUpperBits()
	return rows
}

// propagateNarrowVec is propagateRows for rows of fewer than four values,
// from h's rows padded to four lanes (padRowsVec): a row of y stays in the
// low lanes of one vector from its first term to its last and is stored
// once, under a mask; each lane adds its column's terms in propagateRows'
// order, so the same bits (TestNarrowPropagationKeepsTheBits). Padded, a
// neighbour's row is one load at a shifted index, with no test of where it
// ends. Two rows go side by side, each its own chain of additions, for as
// many neighbours as both have, then each the rest of its own: one row's
// chain, an addition after another, left the adder idle.
func (g *gcnNorm) propagateNarrowVec(y []float64, rows [][4]float64, m, lo, hi int) {
	a := g.adj
	term := func(v archsimd.Float64x4, c float64, j int32) archsimd.Float64x4 {
		return v.Add(archsimd.BroadcastFloat64x4(c).Mul(archsimd.LoadFloat64x4(&rows[j])))
	}
	i := lo
	for ; i+2 <= hi; i += 2 {
		va := archsimd.BroadcastFloat64x4(g.self[i]).Mul(archsimd.LoadFloat64x4(&rows[i]))
		vb := archsimd.BroadcastFloat64x4(g.self[i+1]).Mul(archsimd.LoadFloat64x4(&rows[i+1]))
		k, mid, end := int(a.rowPtr[i]), int(a.rowPtr[i+1]), int(a.rowPtr[i+2])
		ca, aa := a.col[k:mid], g.arc[k:mid]
		cb, ab := a.col[mid:end], g.arc[mid:end]
		aa, ab = aa[:len(ca)], ab[:len(cb)]
		both := min(len(ca), len(cb))
		for q := range both {
			va, vb = term(va, aa[q], ca[q]), term(vb, ab[q], cb[q])
		}
		for q := both; q < len(ca); q++ {
			va = term(va, aa[q], ca[q])
		}
		for q := both; q < len(cb); q++ {
			vb = term(vb, ab[q], cb[q])
		}
		va.StoreSlicePart(y[i*m : (i+1)*m])
		vb.StoreSlicePart(y[(i+1)*m : (i+2)*m])
	}
	for ; i < hi; i++ {
		v := archsimd.BroadcastFloat64x4(g.self[i]).Mul(archsimd.LoadFloat64x4(&rows[i]))
		k, end := int(a.rowPtr[i]), int(a.rowPtr[i+1])
		for q, j := range a.col[k:end] {
			v = term(v, g.arc[k+q], j)
		}
		v.StoreSlicePart(y[i*m : (i+1)*m])
	}
	archsimd.ClearAVXUpperBits()
}

// narrowRow loads row j of h (m < 4 values) into the low lanes.
func narrowRow(h []float64, j int32, m int) archsimd.Float64x4 {
	at := int(j) * m
	if at+4 <= len(h) {
		return archsimd.LoadFloat64x4((*[4]float64)(h[at : at+4]))
	}
	return archsimd.LoadFloat64x4SlicePart(h[at : at+m])
}

// propagateRowsVec is propagateRows with four columns to a lane group:
// each lane adds its column's terms in propagateRows' order (the own term
// with the first four neighbours, then fours, then one by one), so the
// same bits; the last m mod 4 columns go through the same expressions one
// at a time. Rows narrower than four go to propagateNarrowVec (see
// gcnNorm.propagate).
func (g *gcnNorm) propagateRowsVec(y, h []float64, m, lo, hi int) bool {
	if !vectors {
		return false
	}
	if m < 4 {
		return false // propagateNarrowVec's, from padded rows
	}
	if wide && m%8 == 0 {
		for i := lo; i < hi; i++ {
			g.propagateRowWide(y[i*m:(i+1)*m], h, i, m)
		}
		archsimd.ClearAVXUpperBits()
		return true
	}
	a := g.adj
	m4 := m - m%4
	for i := lo; i < hi; i++ {
		yi := y[i*m : (i+1)*m]
		own := rowOf(h, int32(i), m)[:m]
		s := g.self[i]
		S := archsimd.BroadcastFloat64x4(s)
		k, end := int(a.rowPtr[i]), int(a.rowPtr[i+1])
		if k+4 > end {
			for j := 0; j < m4; j += 4 {
				S.Mul(archsimd.LoadFloat64x4Slice(own[j:])).StoreSlice(yi[j:])
			}
			for j := m4; j < m; j++ {
				yi[j] = float64(s * own[j])
			}
		} else {
			c0, c1, c2, c3 := g.arc[k], g.arc[k+1], g.arc[k+2], g.arc[k+3]
			h0, h1, h2, h3 := rowOf(h, a.col[k], m)[:m], rowOf(h, a.col[k+1], m)[:m], rowOf(h, a.col[k+2], m)[:m], rowOf(h, a.col[k+3], m)[:m]
			C0, C1 := archsimd.BroadcastFloat64x4(c0), archsimd.BroadcastFloat64x4(c1)
			C2, C3 := archsimd.BroadcastFloat64x4(c2), archsimd.BroadcastFloat64x4(c3)
			for j := 0; j < m4; j += 4 {
				v := S.Mul(archsimd.LoadFloat64x4Slice(own[j:])).Add(C0.Mul(archsimd.LoadFloat64x4Slice(h0[j:])))
				v = v.Add(C1.Mul(archsimd.LoadFloat64x4Slice(h1[j:]))).Add(C2.Mul(archsimd.LoadFloat64x4Slice(h2[j:])))
				v.Add(C3.Mul(archsimd.LoadFloat64x4Slice(h3[j:]))).StoreSlice(yi[j:])
			}
			for j := m4; j < m; j++ {
				yi[j] = float64(s*own[j]) + float64(c0*h0[j]) + float64(c1*h1[j]) + float64(c2*h2[j]) + float64(c3*h3[j])
			}
			k += 4
		}
		for ; k < end-3; k += 4 {
			c0, c1, c2, c3 := g.arc[k], g.arc[k+1], g.arc[k+2], g.arc[k+3]
			h0, h1, h2, h3 := rowOf(h, a.col[k], m)[:m], rowOf(h, a.col[k+1], m)[:m], rowOf(h, a.col[k+2], m)[:m], rowOf(h, a.col[k+3], m)[:m]
			C0, C1 := archsimd.BroadcastFloat64x4(c0), archsimd.BroadcastFloat64x4(c1)
			C2, C3 := archsimd.BroadcastFloat64x4(c2), archsimd.BroadcastFloat64x4(c3)
			for j := 0; j < m4; j += 4 {
				v := archsimd.LoadFloat64x4Slice(yi[j:]).Add(C0.Mul(archsimd.LoadFloat64x4Slice(h0[j:])))
				v = v.Add(C1.Mul(archsimd.LoadFloat64x4Slice(h1[j:]))).Add(C2.Mul(archsimd.LoadFloat64x4Slice(h2[j:])))
				v.Add(C3.Mul(archsimd.LoadFloat64x4Slice(h3[j:]))).StoreSlice(yi[j:])
			}
			for j := m4; j < m; j++ {
				yi[j] = yi[j] + float64(c0*h0[j]) + float64(c1*h1[j]) + float64(c2*h2[j]) + float64(c3*h3[j])
			}
		}
		for ; k < end; k++ {
			c := g.arc[k]
			hj := rowOf(h, a.col[k], m)[:m]
			C := archsimd.BroadcastFloat64x4(c)
			for j := 0; j < m4; j += 4 {
				archsimd.LoadFloat64x4Slice(yi[j:]).Add(C.Mul(archsimd.LoadFloat64x4Slice(hj[j:]))).StoreSlice(yi[j:])
			}
			for j := m4; j < m; j++ {
				yi[j] += float64(c * hj[j])
			}
		}
	}
	archsimd.ClearAVXUpperBits()
	return true
}

// propagateRowWide sets y = row i of Â h, for m a multiple of eight, with
// AVX-512: in propagateRows' order each entry is self_i·h_i plus each
// neighbour's term in turn, so thirty-two columns at a time stay in four
// registers from the first term to the last and are stored once.
func (g *gcnNorm) propagateRowWide(y, h []float64, i, m int) {
	a := g.adj
	lo, hi := int(a.rowPtr[i]), int(a.rowPtr[i+1])
	col, arc := a.col[lo:hi], g.arc[lo:hi]
	S := archsimd.BroadcastFloat64x8(g.self[i])
	j := 0
	for ; j+32 <= m; j += 32 {
		own := h[i*m+j:][:32]
		v0, v1 := S.Mul(archsimd.LoadFloat64x8Slice(own)), S.Mul(archsimd.LoadFloat64x8Slice(own[8:]))
		v2, v3 := S.Mul(archsimd.LoadFloat64x8Slice(own[16:])), S.Mul(archsimd.LoadFloat64x8Slice(own[24:]))
		for k, c := range col {
			C := archsimd.BroadcastFloat64x8(arc[k])
			r := h[int(c)*m+j:][:32]
			v0, v1 = v0.Add(C.Mul(archsimd.LoadFloat64x8Slice(r))), v1.Add(C.Mul(archsimd.LoadFloat64x8Slice(r[8:])))
			v2, v3 = v2.Add(C.Mul(archsimd.LoadFloat64x8Slice(r[16:]))), v3.Add(C.Mul(archsimd.LoadFloat64x8Slice(r[24:])))
		}
		yj := y[j:][:32]
		v0.StoreSlice(yj)
		v1.StoreSlice(yj[8:])
		v2.StoreSlice(yj[16:])
		v3.StoreSlice(yj[24:])
	}
	for ; j < m; j += 8 {
		v := S.Mul(archsimd.LoadFloat64x8Slice(h[i*m+j:][:8]))
		for k, c := range col {
			v = v.Add(archsimd.BroadcastFloat64x8(arc[k]).Mul(archsimd.LoadFloat64x8Slice(h[int(c)*m+j:][:8])))
		}
		v.StoreSlice(y[j:][:8])
	}
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

// addATBWide is addATBCols with AVX-512 for k a multiple of 32: 32
// columns of a row of c stay in four registers while a tile of rows of a
// and b (one that stays in the first-level cache) is folded in, four rows
// at a time, and are stored once a tile, rather than loaded and stored
// again for every four rows. Each entry still adds the same folds in the
// same order, skips the same all-zero groups and takes the last rows one
// by one, so the bits are addATBCols' (TestVectorsKeepTheBits).
func addATBWide(c, a, b []float64, n, m, k, j0, j1 int) bool {
	if !wide || k%32 != 0 {
		return false
	}
	foldWide(c, a, b, n, m, k, j0, j1, 0, k)
	return true
}

// addATBWideBlocks is addATBWide for every row of c and the columns
// [32·q0, 32·q1) of b (and c): the split by columns of b that two threads
// share a wide fold by, each reading its own half of b's rows rather than
// all of them (the pathfinder's fold over 131k edges, k = 128, was bound
// by memory read twice). Each entry's sum is the same whichever thread
// takes it, so the bits stay.
func addATBWideBlocks(c, a, b []float64, n, m, k, q0, q1 int) {
	foldWide(c, a, b, n, m, k, 0, m, 32*q0, 32*q1)
	archsimd.ClearAVXUpperBits()
}

// wideBlocks reports whether addATB folds c (m×k) += aᵀb by blocks of 32
// of b's columns, and how many: with AVX-512, and at least two blocks.
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
// adds to ∂W (1×H) the fold gᵀh in addATB's order (groups of four rows,
// each group's products summed left to right, then added; a group whose
// four g are zero skipped; the last rows one by one); sets dx = ReLU'(h)
// ⊙ (g·W), each entry 0 + g_i·W_j as mulABTShort sums it, then
// reluBackward's gate; and adds dx's rows in order to below, the bias
// gradient of the layer under (sumRowsAdd's sum, which the caller then
// skips). The bits are those of affineBackward, reluBackward and
// sumRowsAdd (TestOutputBackwardKeepsTheBits). It reports false, and does
// nothing, without AVX-512 or for other shapes.
func outputBackwardVec(l *dense, below, dx, h, g []float64, rows int) bool {
	if !wide || l.out != 1 || l.in%32 != 0 || l.sx != nil || dx == nil || len(below) != l.in {
		return false
	}
	H := l.in
	h, dx, g = h[:rows*H], dx[:rows*H], g[:rows]
	sumRowsAdd(l.b.grad, g, rows, 1)
	// A chunk of rows is gated and summed, then folded, while its h is in
	// the first-level cache: two loops, as one would hold more vectors
	// than Go gives registers.
	const chunk = 32
	for q := 0; q < H; q += 32 {
		c, v := (*[32]float64)(l.w.grad[q:q+32]), (*[32]float64)(below[q:q+32])
		for lo := 0; lo < rows; lo += chunk {
			hi := min(lo+chunk, rows)
			gateRows(v, dx, h, g, (*[32]float64)(l.w.val[q:q+32]), lo, hi, q, H)
			foldRowWide(c[:], g[lo:hi], h[lo*H+q:], H) // lo is a multiple of four
		}
	}
	archsimd.ClearAVXUpperBits()
	l.pc.tick(float64(3 * rows * H))
	return true
}

// gateRows sets dx's 32 columns from q of rows [lo, hi) to 0 + g_i·w_j
// where h > 0, else +0, and adds each row to v in order.
func gateRows(v *[32]float64, dx, h, g []float64, w *[32]float64, lo, hi, q, H int) {
	zero, off := archsimd.BroadcastFloat64x8(0), archsimd.BroadcastInt64x8(0)
	w0, w1, w2, w3 := q8(w, 0), q8(w, 1), q8(w, 2), q8(w, 3)
	v0, v1, v2, v3 := q8(v, 0), q8(v, 1), q8(v, 2), q8(v, 3)
	for i := lo; i < hi; i++ {
		r, d := (*[32]float64)(h[i*H+q:][:32]), (*[32]float64)(dx[i*H+q:][:32])
		G := archsimd.BroadcastFloat64x8(g[i])
		d0 := zero.Add(G.Mul(w0)).Masked(q8(r, 0).AsInt64x8().Greater(off))
		d1 := zero.Add(G.Mul(w1)).Masked(q8(r, 1).AsInt64x8().Greater(off))
		d2 := zero.Add(G.Mul(w2)).Masked(q8(r, 2).AsInt64x8().Greater(off))
		d3 := zero.Add(G.Mul(w3)).Masked(q8(r, 3).AsInt64x8().Greater(off))
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
		if allZero(s0, s1, s2, s3) {
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
	transpose(bt, b, m, k)
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

// headsWide reports whether the layer's eight heads of 8 features take the
// head-minor AVX-512 paths: forward then keeps W h head-minor, each
// node's 8×8 block with the heads along the lanes (whT: node j's feature
// o for the eight heads at 64j + 8o, one vector), as x·W'ᵀ with W' W's
// rows in that order (headMinorW). Each of W h's values is the same sum
// in the same order, and so are its gradient's and W's (weightGradHeads),
// so the bits are the same; and every arc, in the aggregation and in
// backward's scatter, finds a neighbour's eight heads in the lanes of
// eight vectors, where each head's 8 features had been gathered through
// two 4×4 transposes for every four arcs.
func (l *gatLayer) headsWide() bool { return wide && l.heads == 8 && l.o == 8 }

// scoresHeadsWide sets the scores s = a_srcᵀ W h and t = a_dstᵀ W h for
// eight heads of 8 features, with AVX-512, from W h kept head-minor
// (forward): each node's s and t for the eight heads are one vector each,
// lane h its head's dot in dot's order, ((0 + a₀w₀) + a₁w₁) + …, so the
// same bits.
func (l *gatLayer) scoresHeadsWide() {
	n := l.g.n
	var as, ad [64]float64
	transpose8(&as, (*[64]float64)(l.aSrc.val[:64]))
	transpose8(&ad, (*[64]float64)(l.aDst.val[:64]))
	zero := archsimd.BroadcastFloat64x8(0)
	for j := 0; j < n; j++ {
		w := (*[64]float64)(l.whT[j*64 : j*64+64])
		s, t := zero, zero
		for o := 0; o < 8; o++ {
			wo := q64(w, o)
			s, t = s.Add(q64(&as, o).Mul(wo)), t.Add(q64(&ad, o).Mul(wo))
		}
		s.Store(at8(l.s, j*8))
		t.Store(at8(l.t, j*8))
	}
	archsimd.ClearAVXUpperBits()
}

// attnParamGradHeadsWide is backward's loop over the nodes for eight heads
// of 8 features kept head-minor (forward): a_src's and a_dst's
// gradients, head-minor in registers, add s·W h and t·W h node after node,
// and W h's gradient adds s·a_src + t·a_dst, each value the scalar loop's
// operations in its order, so the same bits.
func (l *gatLayer) attnParamGradHeadsWide() {
	var as, ad, gas, gad [64]float64
	transpose8(&as, (*[64]float64)(l.aSrc.val[:64]))
	transpose8(&ad, (*[64]float64)(l.aDst.val[:64]))
	transpose8(&gas, (*[64]float64)(l.aSrc.grad[:64]))
	transpose8(&gad, (*[64]float64)(l.aDst.grad[:64]))
	for o := 0; o < 8; o++ {
		As, Ad := q64(&as, o), q64(&ad, o)
		Gs, Gd := q64(&gas, o), q64(&gad, o)
		for j := 0; j < l.g.n; j++ {
			w := q64((*[64]float64)(l.whT[j*64:j*64+64]), o)
			S, T := archsimd.LoadFloat64x8(at8(l.gs, j*8)), archsimd.LoadFloat64x8(at8(l.gt, j*8))
			Gs, Gd = Gs.Add(S.Mul(w)), Gd.Add(T.Mul(w))
			gj := e64((*[64]float64)(l.gwhT[j*64:j*64+64]), o)
			archsimd.LoadFloat64x8(gj).Add(S.Mul(As).Add(T.Mul(Ad))).Store(gj)
		}
		Gs.Store(e64(&gas, o))
		Gd.Store(e64(&gad, o))
	}
	transpose8((*[64]float64)(l.aSrc.grad[:64]), &gas)
	transpose8((*[64]float64)(l.aDst.grad[:64]), &gad)
	archsimd.ClearAVXUpperBits()
}

// aggregateHeadsWide is aggregate for all eight heads of 8 features of
// node i at once, with AVX-512, from W h kept head-minor (headsWide):
// feature o's sum for the eight heads is one vector, and
// each arc adds α's eight heads times the neighbour's feature o, in
// aggregate's order, so the same bits. As forward calls it, y is zero on
// entry, so the sums start from zero, and y's block is transposed once, on
// the way out. Head by head, each sum was one chain of dependent additions,
// as long as the node's degree; eight independent chains keep the adder
// busy.
func (l *gatLayer) aggregateHeadsWide(y []float64, i int) bool {
	if !l.transposed { // as the last forward chose
		return false
	}
	g := l.g
	lo, hi := int(g.rowPtr[i]), int(g.rowPtr[i+1])
	var yt [64]float64
	s0 := archsimd.BroadcastFloat64x8(0)
	s1, s2, s3, s4, s5, s6, s7 := s0, s0, s0, s0, s0, s0, s0
	for k := lo; k < hi; k++ {
		w := (*[64]float64)(l.whT[int(g.col[k])*64 : int(g.col[k])*64+64])
		a := archsimd.LoadFloat64x8(at8(l.alpha, k*8))
		s0, s1 = s0.Add(a.Mul(q64(w, 0))), s1.Add(a.Mul(q64(w, 1)))
		s2, s3 = s2.Add(a.Mul(q64(w, 2))), s3.Add(a.Mul(q64(w, 3)))
		s4, s5 = s4.Add(a.Mul(q64(w, 4))), s5.Add(a.Mul(q64(w, 5)))
		s6, s7 = s6.Add(a.Mul(q64(w, 6))), s7.Add(a.Mul(q64(w, 7)))
	}
	for q, v := range [8]archsimd.Float64x8{s0, s1, s2, s3, s4, s5, s6, s7} {
		v.Store(e64(&yt, q))
	}
	transpose8((*[64]float64)(y[:64]), &yt)
	archsimd.ClearAVXUpperBits()
	return true
}

// scatterHeadsWide is scatter for all eight heads of 8 features of node i
// at once, with AVX-512, from W h kept head-minor (headsWide), and
// sets dsum: with dyᵢ transposed, each arc's dα for the eight heads is one
// vector, lane h summing its head's products in scatter's order; α dα is
// added to the eight sums and α dy to the neighbour's transposed gradient
// (gwhT), feature by feature, so the same bits.
func (l *gatLayer) scatterHeadsWide(dyi []float64, i int) bool {
	if !l.transposed { // as the last forward chose
		return false
	}
	g := l.g
	lo, hi := int(g.rowPtr[i]), int(g.rowPtr[i+1])
	var dt [64]float64
	transpose8(&dt, (*[64]float64)(dyi[:64]))
	d0, d1, d2, d3 := q64(&dt, 0), q64(&dt, 1), q64(&dt, 2), q64(&dt, 3)
	d4, d5, d6, d7 := q64(&dt, 4), q64(&dt, 5), q64(&dt, 6), q64(&dt, 7)
	zero := archsimd.BroadcastFloat64x8(0)
	dsum := zero
	for k := lo; k < hi; k++ {
		j := int(g.col[k])
		w := (*[64]float64)(l.whT[j*64 : j*64+64])
		da := zero.Add(d0.Mul(q64(w, 0))).Add(d1.Mul(q64(w, 1))).Add(d2.Mul(q64(w, 2))).Add(d3.Mul(q64(w, 3)))
		da = da.Add(d4.Mul(q64(w, 4))).Add(d5.Mul(q64(w, 5))).Add(d6.Mul(q64(w, 6))).Add(d7.Mul(q64(w, 7)))
		da.Store(at8(l.galpha, k*8))
		a := archsimd.LoadFloat64x8(at8(l.alpha, k*8))
		dsum = dsum.Add(a.Mul(da))
		gw := (*[64]float64)(l.gwhT[j*64 : j*64+64])
		q64(gw, 0).Add(a.Mul(d0)).Store(e64(gw, 0))
		q64(gw, 1).Add(a.Mul(d1)).Store(e64(gw, 1))
		q64(gw, 2).Add(a.Mul(d2)).Store(e64(gw, 2))
		q64(gw, 3).Add(a.Mul(d3)).Store(e64(gw, 3))
		q64(gw, 4).Add(a.Mul(d4)).Store(e64(gw, 4))
		q64(gw, 5).Add(a.Mul(d5)).Store(e64(gw, 5))
		q64(gw, 6).Add(a.Mul(d6)).Store(e64(gw, 6))
		q64(gw, 7).Add(a.Mul(d7)).Store(e64(gw, 7))
	}
	dsum.Store(at8(l.dsum, 0))
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
