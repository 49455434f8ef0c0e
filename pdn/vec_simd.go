//go:build goexperiment.simd && amd64 && !purego

package pdn

import (
	"simd/archsimd"

	"pdnexplorer/internal/fmath"
	"pdnexplorer/pdn/internal/kernels"
)

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
	if kernels.Vectors() && H == 1 {
		l.softmaxArcs(i, lo, hi)
		return true
	}
	if !kernels.Vectors() || H%4 != 0 {
		return false
	}
	g := l.g
	if kernels.Wide() && H == 8 {
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
			a := kernels.ExpLanes(leakyVec(archsimd.LoadFloat64x4Slice(l.pre[k*H+h0:])).Sub(m))
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
	if kernels.Wide() {
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
		kernels.ExpLanes(leakyVec(archsimd.LoadFloat64x4Slice(pre[k:])).Sub(M)).StoreSlice(alpha[k:])
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
		kernels.ExpLanesWide(leakyWide(archsimd.LoadFloat64x8SlicePart(pre[k:])).Sub(M)).StoreSlicePart(alpha[k:])
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
	ti := archsimd.LoadFloat64x8(kernels.At8(l.t, i*8))
	m := archsimd.BroadcastFloat64x8(-1e300)
	for k := lo; k < hi; k++ {
		p := archsimd.LoadFloat64x8(kernels.At8(l.s, int(g.col[k])*8)).Add(ti)
		p.Store(kernels.At8(l.pre, k*8))
		lp := leakyWide(p)
		m = lp.Merge(m, lp.Greater(m))
	}
	sum := archsimd.BroadcastFloat64x8(0)
	for k := lo; k < hi; k++ {
		a := kernels.ExpLanesWide(leakyWide(archsimd.LoadFloat64x8(kernels.At8(l.pre, k*8))).Sub(m))
		a.Store(kernels.At8(l.alpha, k*8))
		sum = sum.Add(a)
	}
	for k := lo; k < hi; k++ {
		ak := kernels.At8(l.alpha, k*8)
		archsimd.LoadFloat64x8(ak).Div(sum).Store(ak)
	}
	archsimd.ClearAVXUpperBits()
}

// aggregate8Vec is aggregate for heads of 8 features: the 8 sums in two
// vectors, each lane's the scalar loop's (see gatLayer.aggregate). With
// AVX-512 an 8×8 layer takes aggregateHeadsWide instead; a single head of
// 8 (the output layer of an 8-class graph) still comes here.
func (l *gatLayer) aggregate8Vec(y []float64, i, h int) bool {
	if !kernels.Vectors() {
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
	if !kernels.Vectors() || l.heads != 1 || O >= 4 {
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
	if !kernels.Vectors() || l.heads != 1 || O >= 4 || O == 0 {
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
		c0, c1, c2, c3 := kernels.Transpose4(narrowRow(l.wh, col[0], O), narrowRow(l.wh, col[1], O), narrowRow(l.wh, col[2], O), narrowRow(l.wh, col[3], O))
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
	if !kernels.Vectors() || hi-lo < 4 {
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
		r0, r1 := kernels.At8(l.wh, int(cols[0])*ho+h*8), kernels.At8(l.wh, int(cols[1])*ho+h*8)
		r2, r3 := kernels.At8(l.wh, int(cols[2])*ho+h*8), kernels.At8(l.wh, int(cols[3])*ho+h*8)
		c0, c1, c2, c3 := kernels.Transpose4(kernels.Lo4(r0), kernels.Lo4(r1), kernels.Lo4(r2), kernels.Lo4(r3))
		c4, c5, c6, c7 := kernels.Transpose4(kernels.Hi4(r0), kernels.Hi4(r1), kernels.Hi4(r2), kernels.Hi4(r3))
		acc := zero.Add(d0.Mul(c0)).Add(d1.Mul(c1)).Add(d2.Mul(c2)).Add(d3.Mul(c3))
		acc = acc.Add(d4.Mul(c4)).Add(d5.Mul(c5)).Add(d6.Mul(c6)).Add(d7.Mul(c7))
		acc.Store(&da)
		for q, x := range da {
			kq := k + q
			l.galpha[kq*H+h] = x
			a := l.alpha[kq*H+h]
			dsum += float64(a * x)
			gj := kernels.At8(l.gwh, int(cols[q])*ho+h*8)
			av := archsimd.BroadcastFloat64x4(a)
			kernels.Lo4(gj).Add(av.Mul(dl)).Store((*[4]float64)(gj[:4]))
			kernels.Hi4(gj).Add(av.Mul(dh)).Store((*[4]float64)(gj[4:]))
		}
	}
	archsimd.ClearAVXUpperBits()
	return k, dsum
}

// attnGradVec is attnGrad for four heads at a time, each lane the scalar
// loop's operations in its order, so the same bits.
func (l *gatLayer) attnGradVec(i, lo, hi int) bool {
	H := l.heads
	if kernels.Wide() && H == 1 {
		l.attnGradArcs(i, lo, hi)
		return true
	}
	if !kernels.Vectors() || H%4 != 0 {
		return false
	}
	g := l.g
	if kernels.Wide() && H == 8 {
		zero, slope := archsimd.BroadcastFloat64x8(0), archsimd.BroadcastFloat64x8(gatLeakySlope)
		ds := archsimd.LoadFloat64x8(kernels.At8(l.dsum, 0))
		gti := archsimd.LoadFloat64x8(kernels.At8(l.gt, i*8))
		for k := lo; k < hi; k++ {
			de := archsimd.LoadFloat64x8(kernels.At8(l.alpha, k*8)).Mul(archsimd.LoadFloat64x8(kernels.At8(l.galpha, k*8)).Sub(ds))
			de = de.Mul(slope).Merge(de, archsimd.LoadFloat64x8(kernels.At8(l.pre, k*8)).LessEqual(zero))
			gs := kernels.At8(l.gs, int(g.col[k])*8)
			archsimd.LoadFloat64x8(gs).Add(de).Store(gs)
			gti = gti.Add(de)
		}
		gti.Store(kernels.At8(l.gt, i*8))
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
	if !kernels.Vectors() || len(whj) != 8 {
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

// trainDistinctVec is trainDistinct's pass over the dimensions, eight at a
// time (sixteen with AVX-512): each lane runs the scalar loop's operations
// for its dimension in the same order, so the same bits.
func trainDistinctVec(vc, o0, o1, o2, o3, o4, o5 []float32, gk *[1 + WalkNegatives]float32) bool {
	if !kernels.Vectors() || len(vc)%16 != 0 {
		return false
	}
	d := len(vc)
	o0, o1, o2, o3, o4, o5 = o0[:d], o1[:d], o2[:d], o3[:d], o4[:d], o5[:d]
	if kernels.Wide() && d == WalkDim {
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
	if !kernels.Vectors() || len(vc) != WalkDim {
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

// padRowsVec returns h's rows of fewer than four values (the classes of
// the paper's graphs, 3 by default, which APPNP propagates twenty times an
// epoch and GCN's second layer twice) each in an array of four, in g's
// scratch, for propagateNarrowVec; nil for wider rows or without vectors.
// The lanes past m hold whatever they held and are never stored.
func (g *gcnNorm) padRowsVec(h []float64, m int) [][4]float64 {
	n := g.adj.n
	if !kernels.Vectors() || m >= 4 || m == 0 || len(h) < n*m {
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
	if !kernels.Vectors() {
		return false
	}
	if m < 4 {
		return false // propagateNarrowVec's, from padded rows
	}
	if kernels.Wide() && m%8 == 0 {
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
func (l *gatLayer) headsWide() bool { return kernels.Wide() && l.heads == 8 && l.o == 8 }

// scoresHeadsWide sets the scores s = a_srcᵀ W h and t = a_dstᵀ W h for
// eight heads of 8 features, with AVX-512, from W h kept head-minor
// (forward): each node's s and t for the eight heads are one vector each,
// lane h its head's dot in dot's order, ((0 + a₀w₀) + a₁w₁) + …, so the
// same bits.
func (l *gatLayer) scoresHeadsWide() {
	n := l.g.n
	var as, ad [64]float64
	kernels.Transpose8(&as, (*[64]float64)(l.aSrc.val[:64]))
	kernels.Transpose8(&ad, (*[64]float64)(l.aDst.val[:64]))
	zero := archsimd.BroadcastFloat64x8(0)
	for j := 0; j < n; j++ {
		w := (*[64]float64)(l.whT[j*64 : j*64+64])
		s, t := zero, zero
		for o := 0; o < 8; o++ {
			wo := kernels.Q64(w, o)
			s, t = s.Add(kernels.Q64(&as, o).Mul(wo)), t.Add(kernels.Q64(&ad, o).Mul(wo))
		}
		s.Store(kernels.At8(l.s, j*8))
		t.Store(kernels.At8(l.t, j*8))
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
	kernels.Transpose8(&as, (*[64]float64)(l.aSrc.val[:64]))
	kernels.Transpose8(&ad, (*[64]float64)(l.aDst.val[:64]))
	kernels.Transpose8(&gas, (*[64]float64)(l.aSrc.grad[:64]))
	kernels.Transpose8(&gad, (*[64]float64)(l.aDst.grad[:64]))
	for o := 0; o < 8; o++ {
		As, Ad := kernels.Q64(&as, o), kernels.Q64(&ad, o)
		Gs, Gd := kernels.Q64(&gas, o), kernels.Q64(&gad, o)
		for j := 0; j < l.g.n; j++ {
			w := kernels.Q64((*[64]float64)(l.whT[j*64:j*64+64]), o)
			S, T := archsimd.LoadFloat64x8(kernels.At8(l.gs, j*8)), archsimd.LoadFloat64x8(kernels.At8(l.gt, j*8))
			Gs, Gd = Gs.Add(S.Mul(w)), Gd.Add(T.Mul(w))
			gj := kernels.E64((*[64]float64)(l.gwhT[j*64:j*64+64]), o)
			archsimd.LoadFloat64x8(gj).Add(S.Mul(As).Add(T.Mul(Ad))).Store(gj)
		}
		Gs.Store(kernels.E64(&gas, o))
		Gd.Store(kernels.E64(&gad, o))
	}
	kernels.Transpose8((*[64]float64)(l.aSrc.grad[:64]), &gas)
	kernels.Transpose8((*[64]float64)(l.aDst.grad[:64]), &gad)
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
		a := archsimd.LoadFloat64x8(kernels.At8(l.alpha, k*8))
		s0, s1 = s0.Add(a.Mul(kernels.Q64(w, 0))), s1.Add(a.Mul(kernels.Q64(w, 1)))
		s2, s3 = s2.Add(a.Mul(kernels.Q64(w, 2))), s3.Add(a.Mul(kernels.Q64(w, 3)))
		s4, s5 = s4.Add(a.Mul(kernels.Q64(w, 4))), s5.Add(a.Mul(kernels.Q64(w, 5)))
		s6, s7 = s6.Add(a.Mul(kernels.Q64(w, 6))), s7.Add(a.Mul(kernels.Q64(w, 7)))
	}
	for q, v := range [8]archsimd.Float64x8{s0, s1, s2, s3, s4, s5, s6, s7} {
		v.Store(kernels.E64(&yt, q))
	}
	kernels.Transpose8((*[64]float64)(y[:64]), &yt)
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
	kernels.Transpose8(&dt, (*[64]float64)(dyi[:64]))
	d0, d1, d2, d3 := kernels.Q64(&dt, 0), kernels.Q64(&dt, 1), kernels.Q64(&dt, 2), kernels.Q64(&dt, 3)
	d4, d5, d6, d7 := kernels.Q64(&dt, 4), kernels.Q64(&dt, 5), kernels.Q64(&dt, 6), kernels.Q64(&dt, 7)
	zero := archsimd.BroadcastFloat64x8(0)
	dsum := zero
	for k := lo; k < hi; k++ {
		j := int(g.col[k])
		w := (*[64]float64)(l.whT[j*64 : j*64+64])
		da := zero.Add(d0.Mul(kernels.Q64(w, 0))).Add(d1.Mul(kernels.Q64(w, 1))).Add(d2.Mul(kernels.Q64(w, 2))).Add(d3.Mul(kernels.Q64(w, 3)))
		da = da.Add(d4.Mul(kernels.Q64(w, 4))).Add(d5.Mul(kernels.Q64(w, 5))).Add(d6.Mul(kernels.Q64(w, 6))).Add(d7.Mul(kernels.Q64(w, 7)))
		da.Store(kernels.At8(l.galpha, k*8))
		a := archsimd.LoadFloat64x8(kernels.At8(l.alpha, k*8))
		dsum = dsum.Add(a.Mul(da))
		gw := (*[64]float64)(l.gwhT[j*64 : j*64+64])
		kernels.Q64(gw, 0).Add(a.Mul(d0)).Store(kernels.E64(gw, 0))
		kernels.Q64(gw, 1).Add(a.Mul(d1)).Store(kernels.E64(gw, 1))
		kernels.Q64(gw, 2).Add(a.Mul(d2)).Store(kernels.E64(gw, 2))
		kernels.Q64(gw, 3).Add(a.Mul(d3)).Store(kernels.E64(gw, 3))
		kernels.Q64(gw, 4).Add(a.Mul(d4)).Store(kernels.E64(gw, 4))
		kernels.Q64(gw, 5).Add(a.Mul(d5)).Store(kernels.E64(gw, 5))
		kernels.Q64(gw, 6).Add(a.Mul(d6)).Store(kernels.E64(gw, 6))
		kernels.Q64(gw, 7).Add(a.Mul(d7)).Store(kernels.E64(gw, 7))
	}
	dsum.Store(kernels.At8(l.dsum, 0))
	archsimd.ClearAVXUpperBits()
	return true
}
