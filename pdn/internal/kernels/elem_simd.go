//go:build goexperiment.simd && amd64 && !purego

package kernels

import "simd/archsimd"

// The elementwise kernels below run four lanes of the scalar loop at once,
// eight with AVX-512.
// Each entry is one operation on its own inputs, so lanes cannot reorder
// anything: the bits are the scalar loop's (TestElementwiseKeepsTheBits).
// Each returns how many entries it did; the caller's scalar loop does the
// rest. Go does not vectorise loops itself, and these ran scalar in every
// epoch of every model (about 7% of a sweep's time).

// mulIntoVec sets y = x ⊙ m over y's first entries.
func mulIntoVec(y, x, m []float64) int {
	if !vectors {
		return 0
	}
	x, m = x[:len(y)], m[:len(y)]
	i := 0
	if wide {
		for ; i+8 <= len(y); i += 8 {
			archsimd.LoadFloat64x8(at8(x, i)).Mul(archsimd.LoadFloat64x8(at8(m, i))).Store(at8(y, i))
		}
	}
	for ; i+4 <= len(y); i += 4 {
		archsimd.LoadFloat64x4Slice(x[i:]).Mul(archsimd.LoadFloat64x4Slice(m[i:])).StoreSlice(y[i:])
	}
	archsimd.ClearAVXUpperBits()
	return i
}

// blendVec sets dst = a·x + b·y over dst's first entries, each product
// rounded before the sum, eight lanes at a time with AVX-512.
func blendVec(dst, x, y []float64, a, b float64) int {
	if !vectors {
		return 0
	}
	x, y = x[:len(dst)], y[:len(dst)]
	i := 0
	if wide {
		A, B := archsimd.BroadcastFloat64x8(a), archsimd.BroadcastFloat64x8(b)
		for ; i+8 <= len(dst); i += 8 {
			A.Mul(archsimd.LoadFloat64x8(at8(x, i))).Add(B.Mul(archsimd.LoadFloat64x8(at8(y, i)))).Store(at8(dst, i))
		}
	}
	A, B := archsimd.BroadcastFloat64x4(a), archsimd.BroadcastFloat64x4(b)
	for ; i+4 <= len(dst); i += 4 {
		A.Mul(archsimd.LoadFloat64x4Slice(x[i:])).Add(B.Mul(archsimd.LoadFloat64x4Slice(y[i:]))).StoreSlice(dst[i:])
	}
	archsimd.ClearAVXUpperBits()
	return i
}

// scaleVec sets dst = a·x over dst's first entries, eight lanes at a time
// with AVX-512.
func scaleVec(dst, x []float64, a float64) int {
	if !vectors {
		return 0
	}
	x = x[:len(dst)]
	i := 0
	if wide {
		A := archsimd.BroadcastFloat64x8(a)
		for ; i+8 <= len(dst); i += 8 {
			A.Mul(archsimd.LoadFloat64x8(at8(x, i))).Store(at8(dst, i))
		}
	}
	A := archsimd.BroadcastFloat64x4(a)
	for ; i+4 <= len(dst); i += 4 {
		A.Mul(archsimd.LoadFloat64x4Slice(x[i:])).StoreSlice(dst[i:])
	}
	archsimd.ClearAVXUpperBits()
	return i
}

// addToVec sets c += v over c's first entries.
func addToVec(c, v []float64) int {
	if !vectors {
		return 0
	}
	v = v[:len(c)]
	i := 0
	if wide {
		for ; i+8 <= len(c); i += 8 {
			archsimd.LoadFloat64x8(at8(c, i)).Add(archsimd.LoadFloat64x8(at8(v, i))).Store(at8(c, i))
		}
	}
	for ; i+4 <= len(c); i += 4 {
		archsimd.LoadFloat64x4Slice(c[i:]).Add(archsimd.LoadFloat64x4Slice(v[i:])).StoreSlice(c[i:])
	}
	archsimd.ClearAVXUpperBits()
	return i
}

// sumRowsAddWide is SumRowsAdd with AVX-512 for m a multiple of eight:
// 32 columns at a time in four registers, then eight in one, across all
// the rows, each column still summed down the rows in order. Row by row,
// the sums had gone to memory and back for every row.
func sumRowsAddWide(c, a []float64, n, m int) bool {
	if !wide || m%8 != 0 {
		return false
	}
	a = a[:n*m]
	j := 0
	for ; j+32 <= m; j += 32 {
		cj := (*[32]float64)(c[j : j+32])
		s0, s1, s2, s3 := q8(cj, 0), q8(cj, 1), q8(cj, 2), q8(cj, 3)
		for i := 0; i < n; i++ {
			r := (*[32]float64)(a[i*m+j : i*m+j+32])
			s0, s1, s2, s3 = s0.Add(q8(r, 0)), s1.Add(q8(r, 1)), s2.Add(q8(r, 2)), s3.Add(q8(r, 3))
		}
		s0.Store(p8(cj, 0))
		s1.Store(p8(cj, 1))
		s2.Store(p8(cj, 2))
		s3.Store(p8(cj, 3))
	}
	for ; j+8 <= m; j += 8 {
		s := archsimd.LoadFloat64x8(at8(c, j))
		for i := 0; i < n; i++ {
			s = s.Add(archsimd.LoadFloat64x8(at8(a, i*m+j)))
		}
		s.Store(at8(c, j))
	}
	archsimd.ClearAVXUpperBits()
	return true
}

// sumRowsAddVec is SumRowsAdd with up to 16 columns held in four vectors
// across all the rows, each column still summed down the rows in order;
// it reports false, doing nothing, for other widths.
func sumRowsAddVec(c, a []float64, n, m int) bool {
	if !vectors || m%4 != 0 || m > 16 {
		return false
	}
	a = a[:n*m]
	var acc [4]archsimd.Float64x4
	for q := 0; q < m/4; q++ {
		acc[q] = archsimd.LoadFloat64x4Slice(c[4*q:])
	}
	for i := 0; i < n; i++ {
		ai := a[i*m : (i+1)*m]
		for q := 0; q < m/4; q++ {
			acc[q] = acc[q].Add(archsimd.LoadFloat64x4Slice(ai[4*q:]))
		}
	}
	for q := 0; q < m/4; q++ {
		acc[q].StoreSlice(c[4*q:])
	}
	archsimd.ClearAVXUpperBits()
	return true
}

// reluVec is Relu over y's first entries: ReluOf's choice on bits, a lane
// kept where its sign bit is clear or it is NaN, else +0.
func reluVec(y, x []float64) int {
	if !vectors {
		return 0
	}
	x = x[:len(y)]
	i := 0
	if wide {
		minus := archsimd.BroadcastInt64x8(-1)
		for ; i+8 <= len(y); i += 8 {
			v := archsimd.LoadFloat64x8(at8(x, i))
			v.Masked(v.AsInt64x8().Greater(minus).Or(v.IsNaN())).Store(at8(y, i))
		}
	}
	minus := archsimd.BroadcastInt64x4(-1)
	for ; i+4 <= len(y); i += 4 {
		v := archsimd.LoadFloat64x4Slice(x[i:])
		v.Masked(v.AsInt64x4().Greater(minus).Or(v.IsNaN())).StoreSlice(y[i:])
	}
	archsimd.ClearAVXUpperBits()
	return i
}

// reluBackwardVec is ReluBackward over dx's first entries: GateOn's
// choice, lane by lane its very expression, dy kept where the negation of
// y's bits as an integer (wrapping) is negative, else +0: positive bits,
// and −0's, whose negation wraps to itself.
func reluBackwardVec(dx, dy, y []float64) int {
	if !vectors {
		return 0
	}
	dy, y = dy[:len(dx)], y[:len(dx)]
	i := 0
	if wide {
		zero := archsimd.BroadcastInt64x8(0)
		for ; i+8 <= len(dx); i += 8 {
			on := zero.Sub(archsimd.LoadFloat64x8(at8(y, i)).AsInt64x8()).Less(zero)
			archsimd.LoadFloat64x8(at8(dy, i)).Masked(on).Store(at8(dx, i))
		}
	}
	zero := archsimd.BroadcastInt64x4(0)
	for ; i+4 <= len(dx); i += 4 {
		on := zero.Sub(archsimd.LoadFloat64x4Slice(y[i:]).AsInt64x4()).Less(zero)
		archsimd.LoadFloat64x4Slice(dy[i:]).Masked(on).StoreSlice(dx[i:])
	}
	archsimd.ClearAVXUpperBits()
	return i
}

// expsVec sets dst = fmath.Exp(src) over dst's first entries, eight or
// four at a time by expLanesWide and expLanes (fmath.Exp's bits).
func expsVec(dst, src []float64) int {
	if !vectors {
		return 0
	}
	src = src[:len(dst)]
	i := 0
	if wide {
		for ; i+8 <= len(dst); i += 8 {
			expLanesWide(archsimd.LoadFloat64x8Slice(src[i:])).StoreSlice(dst[i:])
		}
	}
	for ; i+4 <= len(dst); i += 4 {
		expLanes(archsimd.LoadFloat64x4Slice(src[i:])).StoreSlice(dst[i:])
	}
	archsimd.ClearAVXUpperBits()
	return i
}

// dropoutMaskVec sets mask[2k] and mask[2k+1] from the low and high 32
// bits of raw[k], as dropout.draw's scalar loop does: scale where the bits
// are below thresh (< 2³³), else +0 (the scalar loop's scale·0). It
// returns how many entries it set, four draws at a time (eight with
// AVX-512).
func dropoutMaskVec(mask []float64, raw []uint64, thresh uint64, scale float64) int {
	if !vectors {
		return 0
	}
	k := 0
	if wide {
		t, zero := archsimd.BroadcastInt64x8(int64(thresh)), archsimd.BroadcastInt64x8(0)
		s := archsimd.BroadcastFloat64x8(scale)
		for ; k+8 <= len(raw) && 2*k+16 <= len(mask); k += 8 {
			halves := archsimd.LoadUint64x8((*[8]uint64)(raw[k : k+8])).AsUint32x16() // lo₀ hi₀ lo₁ hi₁ …
			lo := halves.GetLo().ExtendToUint64().AsInt64x8().Sub(t)
			hi := halves.GetHi().ExtendToUint64().AsInt64x8().Sub(t)
			s.Masked(lo.Less(zero)).Store(at8(mask, 2*k))
			s.Masked(hi.Less(zero)).Store(at8(mask, 2*k+8))
		}
	}
	t := archsimd.BroadcastInt64x4(int64(thresh))
	zero := archsimd.BroadcastInt64x4(0)
	s := archsimd.BroadcastFloat64x4(scale)
	for ; k+4 <= len(raw) && 2*k+8 <= len(mask); k += 4 {
		halves := archsimd.LoadUint64x4Slice(raw[k:]).AsUint32x8() // lo₀ hi₀ lo₁ hi₁ …
		lo := halves.GetLo().ExtendToUint64().AsInt64x4().Sub(t)
		hi := halves.GetHi().ExtendToUint64().AsInt64x4().Sub(t)
		s.Masked(lo.Less(zero)).StoreSlice(mask[2*k:])
		s.Masked(hi.Less(zero)).StoreSlice(mask[2*k+4:])
	}
	archsimd.ClearAVXUpperBits()
	return 2 * k
}
