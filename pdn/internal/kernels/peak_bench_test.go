//go:build goexperiment.simd && amd64 && peak && !purego

package kernels

import (
	"testing"

	"simd/archsimd"
)

// BenchmarkFMAPeak measures one core's double-precision peak: twelve
// independent chains of fused multiply-adds, eight lanes each with AVX-512
// (four with AVX2), so that neither the latency of one chain nor memory
// bounds it. It reports GFLOP/s (a multiply-add is two), the figure beside
// which BenchmarkPathfinderGFLOPS reads. The chains are in assembly
// (fmaChainsWide): Go's compiler kept them on the stack between steps, a
// third of the peak. (The engine itself never fuses: its bits are the
// scalar loops'.)
func BenchmarkFMAPeak(b *testing.B) {
	const rounds = 1 << 20
	var lanes float64
	switch {
	case archsimd.X86.AVX512():
		lanes = 8
		for b.Loop() {
			fmaChainsWide(rounds)
		}
	case archsimd.X86.AVX2() && archsimd.X86.FMA():
		lanes = 4
		for b.Loop() {
			fmaChains(rounds)
		}
	default:
		b.Skip("no AVX2 here")
	}
	b.ReportMetric(2*lanes*12*rounds*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}
