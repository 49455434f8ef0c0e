//go:build goexperiment.simd && amd64

package pdn

import (
	"simd/archsimd"
	"sync"
)

// vectors reports whether the AVX2 paths run: built with GOEXPERIMENT=simd
// (the Makefile's CLI and benchmarks are) on a processor that has AVX2.
var vectors = archsimd.X86.AVX2()

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
