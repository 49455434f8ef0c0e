//go:build goexperiment.simd && amd64 && !purego

package kernels

import (
	"simd/archsimd"

	"pdnexplorer/internal/fmath"
)

// leakyWide is leaky of eight values.
func leakyWide(x archsimd.Float64x8) archsimd.Float64x8 {
	return x.Merge(x.Mul(archsimd.BroadcastFloat64x8(LeakySlope)), x.Greater(archsimd.BroadcastFloat64x8(0)))
}

// leakyVec is leaky of four values: x above 0, else LeakySlope·x.
func leakyVec(x archsimd.Float64x4) archsimd.Float64x4 {
	return x.Merge(x.Mul(archsimd.BroadcastFloat64x4(LeakySlope)), x.Greater(archsimd.BroadcastFloat64x4(0)))
}

// softmaxVec is softmax for node i's neighbourhood arcs lo..hi, four heads
// at a time: each lane does, for its head, the scalar loop's operations in
// its order (see Attention.softmax), so the same bits. It reports false
// where it does not run (no AVX2, or heads not in fours).
func (l *Attention) softmaxVec(i, lo, hi int) bool {
	H := l.Heads
	if vectors && H == 1 {
		l.softmaxArcs(i, lo, hi)
		return true
	}
	if !vectors || H%4 != 0 {
		return false
	}
	g := l
	if wide && H == 8 {
		l.softmaxWide(i, lo, hi)
		return true
	}
	for h0 := 0; h0 < H; h0 += 4 {
		ti := archsimd.LoadFloat64x4Slice(l.T[i*H+h0:])
		m := archsimd.BroadcastFloat64x4(-1e300)
		for k := lo; k < hi; k++ {
			p := archsimd.LoadFloat64x4Slice(l.S[int(g.Col[k])*H+h0:]).Add(ti)
			p.StoreSlice(l.Pre[k*H+h0:])
			lp := leakyVec(p)
			m = lp.Merge(m, lp.Greater(m))
		}
		sum := archsimd.BroadcastFloat64x4(0)
		for k := lo; k < hi; k++ {
			a := expLanes(leakyVec(archsimd.LoadFloat64x4Slice(l.Pre[k*H+h0:])).Sub(m))
			a.StoreSlice(l.Alpha[k*H+h0:])
			sum = sum.Add(a)
		}
		for k := lo; k < hi; k++ {
			archsimd.LoadFloat64x4Slice(l.Alpha[k*H+h0:]).Div(sum).StoreSlice(l.Alpha[k*H+h0:])
		}
	}
	archsimd.ClearAVXUpperBits()
	return true
}

// softmaxArcs is softmax for a single head (the output layer's), whose
// arcs lie side by side: the exponentials four or eight arcs at a time,
// the maximum and the sum arc after arc as softmax takes them, so the
// same bits.
func (l *Attention) softmaxArcs(i, lo, hi int) {
	g := l
	t := l.T[i]
	pre, alpha := l.Pre[lo:hi], l.Alpha[lo:hi]
	if wide {
		for k, j := range g.Col[lo:hi] {
			pre[k] = l.S[j] + t
		}
		l.softmaxArcsWide(pre, alpha, maxLeakyWide(pre))
		return
	}
	m := -1e300
	for k, j := range g.Col[lo:hi] {
		p := l.S[j] + t
		pre[k] = p
		if lp := Leaky(p); lp > m { // see softmax
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
		alpha[k] = fmath.Exp(Leaky(pre[k]) - m)
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
// largest Leaky(p) above −1e300, eight arcs a vector, each lane keeping
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
func (l *Attention) softmaxArcsWide(pre, alpha []float64, m float64) {
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
func (l *Attention) softmaxWide(i, lo, hi int) {
	g := l
	ti := archsimd.LoadFloat64x8(at8(l.T, i*8))
	m := archsimd.BroadcastFloat64x8(-1e300)
	for k := lo; k < hi; k++ {
		p := archsimd.LoadFloat64x8(at8(l.S, int(g.Col[k])*8)).Add(ti)
		p.Store(at8(l.Pre, k*8))
		lp := leakyWide(p)
		m = lp.Merge(m, lp.Greater(m))
	}
	sum := archsimd.BroadcastFloat64x8(0)
	for k := lo; k < hi; k++ {
		a := expLanesWide(leakyWide(archsimd.LoadFloat64x8(at8(l.Pre, k*8))).Sub(m))
		a.Store(at8(l.Alpha, k*8))
		sum = sum.Add(a)
	}
	for k := lo; k < hi; k++ {
		ak := at8(l.Alpha, k*8)
		archsimd.LoadFloat64x8(ak).Div(sum).Store(ak)
	}
	archsimd.ClearAVXUpperBits()
}

// aggregate8Vec is aggregate for heads of 8 features: the 8 sums in two
// vectors, each lane's the scalar loop's (see Attention.aggregate). With
// AVX-512 an 8×8 layer takes aggregateHeadsWide instead; a single head of
// 8 (the output layer of an 8-class graph) still comes here.
func (l *Attention) aggregate8Vec(y []float64, i, h int) bool {
	if !vectors {
		return false
	}
	g, H := l, l.Heads
	ho := H * 8
	lo, hi := int(g.RowPtr[i]), int(g.RowPtr[i+1])
	s0, s1 := archsimd.LoadFloat64x4Slice(y), archsimd.LoadFloat64x4Slice(y[4:])
	for k := lo; k < hi; k++ {
		a := archsimd.BroadcastFloat64x4(l.Alpha[k*H+h])
		w := l.WH[int(g.Col[k])*ho+h*8:]
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
func (l *Attention) aggregateNarrowVec(y []float64, i int) bool {
	O := l.O
	if !vectors || l.Heads != 1 || O >= 4 {
		return false
	}
	g := l
	lo, hi := int(g.RowPtr[i]), int(g.RowPtr[i+1])
	v := archsimd.LoadFloat64x4SlicePart(y[:O])
	for k, j := range g.Col[lo:hi] {
		v = v.Add(archsimd.BroadcastFloat64x4(l.Alpha[lo+k]).Mul(narrowRow(l.WH, j, O)))
	}
	v.StoreSlicePart(y[:O])
	archsimd.ClearAVXUpperBits()
	return true
}

// scatterNarrowVec is scatter for a single head of fewer than four features
// (the output layer's classes), four arcs at a time, and returns the arc
// where it stopped and Σ α dα so far: the four neighbours' rows are loaded
// and transposed, so that each lane sums its arc's dα = dyh·W h_j in Dot's
// order, (0 + d₀w₀) + d₁w₁ + …; then, arc after arc, α dα is added to the
// sum and α dyh to ∂(W h_j), under a mask. The same bits as scatter's loop.
func (l *Attention) scatterNarrowVec(dyh []float64, i int) (int, float64) {
	g, O := l, l.O
	lo, hi := int(g.RowPtr[i]), int(g.RowPtr[i+1])
	if !vectors || l.Heads != 1 || O >= 4 || O == 0 {
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
		col := g.Col[k : k+4]
		c0, c1, c2, c3 := transpose4(narrowRow(l.WH, col[0], O), narrowRow(l.WH, col[1], O), narrowRow(l.WH, col[2], O), narrowRow(l.WH, col[3], O))
		c := [4]archsimd.Float64x4{c0, c1, c2, c3}
		acc := zero
		for o := range dyh {
			acc = acc.Add(d[o].Mul(c[o]))
		}
		da := l.GAlpha[k : k+4]
		acc.StoreSlice(da)
		for q, x := range da {
			a := l.Alpha[k+q]
			dsum += float64(a * x)
			gj := l.GWH[int(col[q])*O:][:O]
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
func (l *Attention) scatter8Vec(dyh []float64, i, h int) (int, float64) {
	g, H := l, l.Heads
	lo, hi := int(g.RowPtr[i]), int(g.RowPtr[i+1])
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
		cols := (*[4]int32)(g.Col[k : k+4])
		r0, r1 := at8(l.WH, int(cols[0])*ho+h*8), at8(l.WH, int(cols[1])*ho+h*8)
		r2, r3 := at8(l.WH, int(cols[2])*ho+h*8), at8(l.WH, int(cols[3])*ho+h*8)
		c0, c1, c2, c3 := transpose4(lo4(r0), lo4(r1), lo4(r2), lo4(r3))
		c4, c5, c6, c7 := transpose4(hi4(r0), hi4(r1), hi4(r2), hi4(r3))
		acc := zero.Add(d0.Mul(c0)).Add(d1.Mul(c1)).Add(d2.Mul(c2)).Add(d3.Mul(c3))
		acc = acc.Add(d4.Mul(c4)).Add(d5.Mul(c5)).Add(d6.Mul(c6)).Add(d7.Mul(c7))
		acc.Store(&da)
		for q, x := range da {
			kq := k + q
			l.GAlpha[kq*H+h] = x
			a := l.Alpha[kq*H+h]
			dsum += float64(a * x)
			gj := at8(l.GWH, int(cols[q])*ho+h*8)
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
func (l *Attention) attnGradVec(i, lo, hi int) bool {
	H := l.Heads
	if wide && H == 1 {
		l.attnGradArcs(i, lo, hi)
		return true
	}
	if !vectors || H%4 != 0 {
		return false
	}
	g := l
	if wide && H == 8 {
		zero, slope := archsimd.BroadcastFloat64x8(0), archsimd.BroadcastFloat64x8(LeakySlope)
		ds := archsimd.LoadFloat64x8(at8(l.DSum, 0))
		gti := archsimd.LoadFloat64x8(at8(l.GT, i*8))
		for k := lo; k < hi; k++ {
			de := archsimd.LoadFloat64x8(at8(l.Alpha, k*8)).Mul(archsimd.LoadFloat64x8(at8(l.GAlpha, k*8)).Sub(ds))
			de = de.Mul(slope).Merge(de, archsimd.LoadFloat64x8(at8(l.Pre, k*8)).LessEqual(zero))
			gs := at8(l.GS, int(g.Col[k])*8)
			archsimd.LoadFloat64x8(gs).Add(de).Store(gs)
			gti = gti.Add(de)
		}
		gti.Store(at8(l.GT, i*8))
		archsimd.ClearAVXUpperBits()
		return true
	}
	zero, slope := archsimd.BroadcastFloat64x4(0), archsimd.BroadcastFloat64x4(LeakySlope)
	for h0 := 0; h0 < H; h0 += 4 {
		ds := archsimd.LoadFloat64x4Slice(l.DSum[h0:])
		gti := archsimd.LoadFloat64x4Slice(l.GT[i*H+h0:])
		for k := lo; k < hi; k++ {
			de := archsimd.LoadFloat64x4Slice(l.Alpha[k*H+h0:]).Mul(archsimd.LoadFloat64x4Slice(l.GAlpha[k*H+h0:]).Sub(ds))
			de = de.Mul(slope).Merge(de, archsimd.LoadFloat64x4Slice(l.Pre[k*H+h0:]).LessEqual(zero))
			gs := l.GS[int(g.Col[k])*H+h0:]
			archsimd.LoadFloat64x4Slice(gs).Add(de).StoreSlice(gs)
			gti = gti.Add(de)
		}
		gti.StoreSlice(l.GT[i*H+h0:])
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
func (l *Attention) attnGradArcs(i, lo, hi int) {
	g := l
	zero, slope := archsimd.BroadcastFloat64x8(0), archsimd.BroadcastFloat64x8(LeakySlope)
	ds := archsimd.BroadcastFloat64x8(l.DSum[0])
	gt := l.GT[i]
	var de [8]float64
	for k := lo; k < hi; k += 8 {
		end := min(k+8, hi)
		v := archsimd.LoadFloat64x8SlicePart(l.Alpha[k:end]).Mul(archsimd.LoadFloat64x8SlicePart(l.GAlpha[k:end]).Sub(ds))
		v = v.Mul(slope).Merge(v, archsimd.LoadFloat64x8SlicePart(l.Pre[k:end]).LessEqual(zero))
		v.Store(&de)
		for q, j := range g.Col[k:end] {
			l.GS[j] += de[q]
			gt += de[q]
		}
	}
	l.GT[i] = gt
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
func (l *Attention) headsWide() bool { return wide && l.Heads == 8 && l.O == 8 }

// scoresHeadsWide sets the scores s = a_srcᵀ W h and t = a_dstᵀ W h for
// eight heads of 8 features, with AVX-512, from W h kept head-minor
// (forward): each node's s and t for the eight heads are one vector each,
// lane h its head's dot in Dot's order, ((0 + a₀w₀) + a₁w₁) + …, so the
// same bits.
func (l *Attention) scoresHeadsWide(aSrc, aDst []float64) {
	n := l.N
	var as, ad [64]float64
	transpose8(&as, (*[64]float64)(aSrc[:64]))
	transpose8(&ad, (*[64]float64)(aDst[:64]))
	zero := archsimd.BroadcastFloat64x8(0)
	for j := 0; j < n; j++ {
		w := (*[64]float64)(l.WHT[j*64 : j*64+64])
		s, t := zero, zero
		for o := 0; o < 8; o++ {
			wo := q64(w, o)
			s, t = s.Add(q64(&as, o).Mul(wo)), t.Add(q64(&ad, o).Mul(wo))
		}
		s.Store(at8(l.S, j*8))
		t.Store(at8(l.T, j*8))
	}
	archsimd.ClearAVXUpperBits()
}

// paramGradsHeadsWide is backward's loop over the nodes for eight heads
// of 8 features kept head-minor (forward): a_src's and a_dst's
// gradients, head-minor in registers, add s·W h and t·W h node after node,
// and W h's gradient adds s·a_src + t·a_dst, each value the scalar loop's
// operations in its order, so the same bits.
func (l *Attention) paramGradsHeadsWide(aSrc, aDst, gaSrc, gaDst []float64) {
	var as, ad, gas, gad [64]float64
	transpose8(&as, (*[64]float64)(aSrc[:64]))
	transpose8(&ad, (*[64]float64)(aDst[:64]))
	transpose8(&gas, (*[64]float64)(gaSrc[:64]))
	transpose8(&gad, (*[64]float64)(gaDst[:64]))
	for o := 0; o < 8; o++ {
		As, Ad := q64(&as, o), q64(&ad, o)
		Gs, Gd := q64(&gas, o), q64(&gad, o)
		for j := 0; j < l.N; j++ {
			w := q64((*[64]float64)(l.WHT[j*64:j*64+64]), o)
			S, T := archsimd.LoadFloat64x8(at8(l.GS, j*8)), archsimd.LoadFloat64x8(at8(l.GT, j*8))
			Gs, Gd = Gs.Add(S.Mul(w)), Gd.Add(T.Mul(w))
			gj := e64((*[64]float64)(l.GWHT[j*64:j*64+64]), o)
			archsimd.LoadFloat64x8(gj).Add(S.Mul(As).Add(T.Mul(Ad))).Store(gj)
		}
		Gs.Store(e64(&gas, o))
		Gd.Store(e64(&gad, o))
	}
	transpose8((*[64]float64)(gaSrc[:64]), &gas)
	transpose8((*[64]float64)(gaDst[:64]), &gad)
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
func (l *Attention) aggregateHeadsWide(y []float64, i int) bool {
	if !l.headMinor { // as the last forward chose
		return false
	}
	g := l
	lo, hi := int(g.RowPtr[i]), int(g.RowPtr[i+1])
	var yt [64]float64
	s0 := archsimd.BroadcastFloat64x8(0)
	s1, s2, s3, s4, s5, s6, s7 := s0, s0, s0, s0, s0, s0, s0
	for k := lo; k < hi; k++ {
		w := (*[64]float64)(l.WHT[int(g.Col[k])*64 : int(g.Col[k])*64+64])
		a := archsimd.LoadFloat64x8(at8(l.Alpha, k*8))
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
func (l *Attention) scatterHeadsWide(dyi []float64, i int) bool {
	if !l.headMinor { // as the last forward chose
		return false
	}
	g := l
	lo, hi := int(g.RowPtr[i]), int(g.RowPtr[i+1])
	var dt [64]float64
	transpose8(&dt, (*[64]float64)(dyi[:64]))
	d0, d1, d2, d3 := q64(&dt, 0), q64(&dt, 1), q64(&dt, 2), q64(&dt, 3)
	d4, d5, d6, d7 := q64(&dt, 4), q64(&dt, 5), q64(&dt, 6), q64(&dt, 7)
	zero := archsimd.BroadcastFloat64x8(0)
	dsum := zero
	for k := lo; k < hi; k++ {
		j := int(g.Col[k])
		w := (*[64]float64)(l.WHT[j*64 : j*64+64])
		da := zero.Add(d0.Mul(q64(w, 0))).Add(d1.Mul(q64(w, 1))).Add(d2.Mul(q64(w, 2))).Add(d3.Mul(q64(w, 3)))
		da = da.Add(d4.Mul(q64(w, 4))).Add(d5.Mul(q64(w, 5))).Add(d6.Mul(q64(w, 6))).Add(d7.Mul(q64(w, 7)))
		da.Store(at8(l.GAlpha, k*8))
		a := archsimd.LoadFloat64x8(at8(l.Alpha, k*8))
		dsum = dsum.Add(a.Mul(da))
		gw := (*[64]float64)(l.GWHT[j*64 : j*64+64])
		q64(gw, 0).Add(a.Mul(d0)).Store(e64(gw, 0))
		q64(gw, 1).Add(a.Mul(d1)).Store(e64(gw, 1))
		q64(gw, 2).Add(a.Mul(d2)).Store(e64(gw, 2))
		q64(gw, 3).Add(a.Mul(d3)).Store(e64(gw, 3))
		q64(gw, 4).Add(a.Mul(d4)).Store(e64(gw, 4))
		q64(gw, 5).Add(a.Mul(d5)).Store(e64(gw, 5))
		q64(gw, 6).Add(a.Mul(d6)).Store(e64(gw, 6))
		q64(gw, 7).Add(a.Mul(d7)).Store(e64(gw, 7))
	}
	dsum.Store(at8(l.DSum, 0))
	archsimd.ClearAVXUpperBits()
	return true
}
