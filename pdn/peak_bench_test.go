//go:build goexperiment.simd && amd64

package pdn

import (
	"testing"

	"simd/archsimd"
)

// BenchmarkFMAPeak measures one core's double-precision peak: twelve
// independent chains of fused multiply-adds, eight lanes each with
// AVX-512 (four with AVX2), so that neither the latency of one chain nor
// memory bounds it. It reports GFLOP/s (a multiply-add is two), the figure
// beside which BenchmarkPathfinderGFLOPS reads. (The engine itself never
// fuses: its bits are the scalar loops'.)
func BenchmarkFMAPeak(b *testing.B) {
	defer SetThreads(SetThreads(1))
	const iters = 1 << 20
	flops := 0.0
	switch {
	case archsimd.X86.AVX512():
		x, y := archsimd.BroadcastFloat64x8(0.999999), archsimd.BroadcastFloat64x8(1e-9)
		for b.Loop() {
			a0, a1, a2, a3 := archsimd.BroadcastFloat64x8(0), archsimd.BroadcastFloat64x8(1), archsimd.BroadcastFloat64x8(2), archsimd.BroadcastFloat64x8(3)
			a4, a5, a6, a7 := archsimd.BroadcastFloat64x8(4), archsimd.BroadcastFloat64x8(5), archsimd.BroadcastFloat64x8(6), archsimd.BroadcastFloat64x8(7)
			a8, a9, a10, a11 := archsimd.BroadcastFloat64x8(8), archsimd.BroadcastFloat64x8(9), archsimd.BroadcastFloat64x8(10), archsimd.BroadcastFloat64x8(11)
			for range iters {
				a0, a1, a2, a3 = a0.MulAdd(x, y), a1.MulAdd(x, y), a2.MulAdd(x, y), a3.MulAdd(x, y)
				a4, a5, a6, a7 = a4.MulAdd(x, y), a5.MulAdd(x, y), a6.MulAdd(x, y), a7.MulAdd(x, y)
				a8, a9, a10, a11 = a8.MulAdd(x, y), a9.MulAdd(x, y), a10.MulAdd(x, y), a11.MulAdd(x, y)
			}
			a0.Add(a1).Add(a2).Add(a3).Add(a4).Add(a5).Add(a6).Add(a7).Add(a8).Add(a9).Add(a10).Add(a11).StoreSlice(sink[:])
			flops += 2 * 8 * 12 * iters
		}
	case archsimd.X86.AVX2():
		x, y := archsimd.BroadcastFloat64x4(0.999999), archsimd.BroadcastFloat64x4(1e-9)
		for b.Loop() {
			a0, a1, a2, a3 := archsimd.BroadcastFloat64x4(0), archsimd.BroadcastFloat64x4(1), archsimd.BroadcastFloat64x4(2), archsimd.BroadcastFloat64x4(3)
			a4, a5, a6, a7 := archsimd.BroadcastFloat64x4(4), archsimd.BroadcastFloat64x4(5), archsimd.BroadcastFloat64x4(6), archsimd.BroadcastFloat64x4(7)
			a8, a9, a10, a11 := archsimd.BroadcastFloat64x4(8), archsimd.BroadcastFloat64x4(9), archsimd.BroadcastFloat64x4(10), archsimd.BroadcastFloat64x4(11)
			for range iters {
				a0, a1, a2, a3 = a0.MulAdd(x, y), a1.MulAdd(x, y), a2.MulAdd(x, y), a3.MulAdd(x, y)
				a4, a5, a6, a7 = a4.MulAdd(x, y), a5.MulAdd(x, y), a6.MulAdd(x, y), a7.MulAdd(x, y)
				a8, a9, a10, a11 = a8.MulAdd(x, y), a9.MulAdd(x, y), a10.MulAdd(x, y), a11.MulAdd(x, y)
			}
			a0.Add(a1).Add(a2).Add(a3).Add(a4).Add(a5).Add(a6).Add(a7).Add(a8).Add(a9).Add(a10).Add(a11).StoreSlice(sink[:])
			flops += 2 * 4 * 12 * iters
		}
	default:
		b.Skip("no AVX2 here")
	}
	b.ReportMetric(flops/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

var sink [8]float64 // what the chains computed, so that they are not dropped
