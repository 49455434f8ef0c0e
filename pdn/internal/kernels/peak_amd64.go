//go:build goexperiment.simd && peak && !purego

package kernels

// fmaChainsWide runs n rounds of twelve independent chains of eight-lane
// fused multiply-adds (peak_amd64.s): the core's peak, for
// BenchmarkFMAPeak; built with the peak tag only (make bench), as the
// engine never fuses.
//
//go:noescape
func fmaChainsWide(n int)

// fmaChains is fmaChainsWide with four lanes (AVX2 and FMA).
//
//go:noescape
func fmaChains(n int)
