//go:build !(js && wasm && simd128) || purego

package pdn

import (
	"pdnexplorer/datasets"
)

// simd128 is false outside the browser worker's simd128 build: the Go
// loops do all the work (see simd128_on.go). The functions below are never
// called here; the compiler drops every branch that would.
const simd128 = false

// simdNorm is the kernels' scratch in a gcnNorm: none here.
//
//lint:ignore U1000 the gcnNorm field of this type is used in the simd128 build
type simdNorm struct{}

func simdMulABT(c, a, b, bias, keep []float64, n, k, m int)                      { panic(noKernels) }
func simdAddATB(c, a, b []float64, n, m, k int)                                  { panic(noKernels) }
func simdAccumulateEdges(g *gcnNorm, dy, h []float64, m, lo, hi int)             { panic(noKernels) }
func simdAccumulateSelf(g *gcnNorm, dy, h []float64, m int)                      { panic(noKernels) }
func simdSpMulABT(c []float64, a *datasets.CSR, lo, hi int, bt []float64, m int) { panic(noKernels) }
func simdSpAccumATB(ct, a []float64, b *datasets.CSR, lo, hi, m int)             { panic(noKernels) }

func simdPathfinder1(p *pathfinder) bool                              { return false }
func simdPathfinderForward(p *pathfinder, keep []float64, lo, hi int) { panic(noKernels) }
func simdPathfinderBackward(p *pathfinder, gw []float64, lo, hi int)  { panic(noKernels) }
func simdPropagateDots(g *gcnNorm, y, dy, h []float64, m, lo, hi int) { panic(noKernels) }
func simdCombineDots(g *gcnNorm, lo, hi int)                          { panic(noKernels) }
func simdDropoutDraw(d *dropout, n int, thresh uint64, scale float64) { panic(noKernels) }
func simdNormForward(g *gcnNorm, w []float64)                         { panic(noKernels) }
func simdNormBackward(g *gcnNorm, gw []float64)                       { panic(noKernels) }
func simdAddTransposed(c, ct []float64, m, k int)                     { panic(noKernels) }

func simdAdamStep(a *adam, p *tensor, m, v []float64, step, bc2 float64) { panic(noKernels) }

const noKernels = "pdn: the WebAssembly kernels are not in this build"
