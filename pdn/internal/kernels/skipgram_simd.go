//go:build goexperiment.simd && amd64 && !purego

package kernels

import "simd/archsimd"

// trainDistinctVec is trainDistinct's pass over the dimensions, eight at a
// time (sixteen with AVX-512): each lane runs the scalar loop's operations
// for its dimension in the same order, so the same bits.
func trainDistinctVec(vc, o0, o1, o2, o3, o4, o5 []float32, gk *[WalkTargets]float32) bool {
	if !vectors || len(vc)%8 != 0 {
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

// gradVec is SkipGramGrad's pass over the dimensions, eight at a time,
// each lane the scalar loop's operations for its dimension in order.
func gradVec(grad, vc, o0, o1, o2, o3, o4, o5 []float32, gk *[WalkTargets]float32) bool {
	if !vectors || len(vc)%8 != 0 {
		return false
	}
	d := len(vc)
	grad, o0, o1, o2, o3, o4, o5 = grad[:d], o0[:d], o1[:d], o2[:d], o3[:d], o4[:d], o5[:d]
	g0, g1, g2 := archsimd.BroadcastFloat32x8(gk[0]), archsimd.BroadcastFloat32x8(gk[1]), archsimd.BroadcastFloat32x8(gk[2])
	g3, g4, g5 := archsimd.BroadcastFloat32x8(gk[3]), archsimd.BroadcastFloat32x8(gk[4]), archsimd.BroadcastFloat32x8(gk[5])
	zero := archsimd.BroadcastFloat32x8(0)
	for t := 0; t < d; t += 8 {
		x := archsimd.LoadFloat32x8Slice(vc[t:])
		g := zero
		for k, o := range [...][]float32{o0, o1, o2, o3, o4, o5} {
			gk := [...]archsimd.Float32x8{g0, g1, g2, g3, g4, g5}[k]
			y := archsimd.LoadFloat32x8Slice(o[t:])
			g = g.Add(gk.Mul(y))
			y.Add(gk.Mul(x)).StoreSlice(o[t:])
		}
		g.StoreSlice(grad[t:])
	}
	archsimd.ClearAVXUpperBits()
	return true
}

// trainDistinctWide is trainDistinctVec sixteen dimensions at a time.
func trainDistinctWide(vc, o0, o1, o2, o3, o4, o5 []float32, gk *[WalkTargets]float32) {
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

// scoresVec sets the six skip-gram scores vc·o_k in WalkDot's order, its
// eight lanes a vector for each target (any multiple of 8 dimensions:
// DeepWalk's 64 through array pointers, others, as MNE's 200, by slices).
func scoresVec(score *[WalkTargets]float32, vc, o0, o1, o2, o3, o4, o5 []float32) bool {
	if !vectors || len(vc)%8 != 0 {
		return false
	}
	var a0, a1, a2, a3, a4, a5 archsimd.Float32x8
	if len(vc) == WalkDim {
		x, r0, r1, r2, r3, r4, r5 := dim(vc), dim(o0), dim(o1), dim(o2), dim(o3), dim(o4), dim(o5)
		for q := range WalkDim / 8 {
			v := eighth(x, q)
			a0, a1 = a0.Add(v.Mul(eighth(r0, q))), a1.Add(v.Mul(eighth(r1, q)))
			a2, a3 = a2.Add(v.Mul(eighth(r2, q))), a3.Add(v.Mul(eighth(r3, q)))
			a4, a5 = a4.Add(v.Mul(eighth(r4, q))), a5.Add(v.Mul(eighth(r5, q)))
		}
	} else {
		d := len(vc)
		o0, o1, o2, o3, o4, o5 = o0[:d], o1[:d], o2[:d], o3[:d], o4[:d], o5[:d]
		load := archsimd.LoadFloat32x8Slice
		for t := 0; t < d; t += 8 {
			v := load(vc[t:])
			a0, a1 = a0.Add(v.Mul(load(o0[t:]))), a1.Add(v.Mul(load(o1[t:])))
			a2, a3 = a2.Add(v.Mul(load(o2[t:]))), a3.Add(v.Mul(load(o3[t:])))
			a4, a5 = a4.Add(v.Mul(load(o4[t:]))), a5.Add(v.Mul(load(o5[t:])))
		}
	}
	*score = laneSums(a0, a1, a2, a3, a4, a5)
	return true
}

// laneSums is laneSum of the six at once, as in a transpose: first l +
// l₄₊ of two targets side by side, then (l₀+l₄) + (l₂+l₆) and (l₁+l₅) +
// (l₃+l₇) of four, then those two added for all six (a float sum of two
// is the same either way round). Stored and summed lane by lane, the six
// had been 48 loads and 42 scalar additions.
func laneSums(a0, a1, a2, a3, a4, a5 archsimd.Float32x8) [WalkTargets]float32 {
	half := func(x, y archsimd.Float32x8) archsimd.Float32x8 {
		return x.Select128FromPair(0, 2, y).Add(x.Select128FromPair(1, 3, y))
	}
	u01, u23, u45 := half(a0, a1), half(a2, a3), half(a4, a5)
	v := u01.SelectFromPairGrouped(0, 1, 4, 5, u23).Add(u01.SelectFromPairGrouped(2, 3, 6, 7, u23)) // p₀ p₁ of 0, 2 | of 1, 3
	w := u45.SelectFromPairGrouped(0, 1, 4, 5, u45).Add(u45.SelectFromPairGrouped(2, 3, 6, 7, u45)) // of 4, 4 | of 5, 5
	var r [8]float32
	v.SelectFromPairGrouped(0, 2, 4, 6, w).Add(v.SelectFromPairGrouped(1, 3, 5, 7, w)).Store(&r) // 0 2 4 4 | 1 3 5 5
	archsimd.ClearAVXUpperBits()
	return [WalkTargets]float32{r[0], r[4], r[1], r[5], r[2], r[6]}
}

// dim is an embedding as an array pointer, and eighth and sixteenth load
// parts of it: through array pointers, loads need neither bounds checks
// nor pointer masking (see p8).
func dim(v []float32) *[WalkDim]float32 { return (*[WalkDim]float32)(v) }

func eighth(v *[WalkDim]float32, q int) archsimd.Float32x8 {
	return archsimd.LoadFloat32x8((*[8]float32)(v[8*q : 8*q+8]))
}

func sixteenth(v *[WalkDim]float32, q int) *[16]float32 { return (*[16]float32)(v[16*q : 16*q+16]) }
