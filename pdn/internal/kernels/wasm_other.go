//go:build !(js && wasm && simd128) || purego

package kernels

import "math/rand/v2"

// simd128 is false outside the browser worker's simd128 build: the Go
// loops do all the work (see wasm_simd128.go). The functions below are
// never called here; the compiler drops every branch that would.
const simd128 = false

// SIMD128 reports whether the WebAssembly kernels run: never here.
func SIMD128() bool { return false }

// SetSIMD128 does nothing here: there are no kernels to turn on.
func SetSIMD128(bool) bool { return false }

func wasmMulABT(c, a, b, bias, keep []float64, n, k, m int) { panic(noKernels) }
func wasmAddATB(c, a, b []float64, n, m, k, j0, j1 int)     { panic(noKernels) }
func wasmPropagateRows(y, h []float64, n, m, lo, hi int, rowPtr, col, eid []int32, coef, self []float64) {
	panic(noKernels)
}
func wasmAccumulateEdges(gCoef, dy, h []float64, n, m, lo, hi int, src, dst []int32) {
	panic(noKernels)
}
func wasmAccumulateSelf(gSelf, dy, h []float64, n, m int) { panic(noKernels) }
func wasmSpMulABT(c []float64, ptr []int, col []int32, val []float64, cols, lo, hi int, bt []float64, m int) {
	panic(noKernels)
}
func wasmSpAccumATB(ct, a []float64, ptr []int, col []int32, val []float64, cols, lo, hi, m, o0, o1 int) {
	panic(noKernels)
}
func wasmSigmoidKept(w, s, keep []float64) { panic(noKernels) }
func wasmPathfinder1Forward(h, s, w, z, w1t, b1, w2 []float64, b2 float64, keep []float64, lo, hi, d, nh int) {
	panic(noKernels)
}
func wasmPathfinder1Backward(gw1, gb1, gw2, gb2, gw, w, h, z, w2 []float64, lo, hi, d, nh, j0, j1 int) {
	panic(noKernels)
}
func wasmPropagateDots(y, dy, h []float64, n, m, lo, hi int, rowPtr, col, eid []int32, coef, self, dots, gSelf []float64) {
	panic(noKernels)
}
func wasmCombineDots(gCoef, dots []float64, atSrc, atDst []int32, lo, hi int) { panic(noKernels) }
func wasmDropoutDraw(mask []float64, n int, rnd *rand.PCG, thresh uint64, scale float64) {
	panic(noKernels)
}
func wasmNormForward(deg, r, self, coef, w []float64, n, ne int, rowPtr, eid, src, dst []int32) {
	panic(noKernels)
}
func wasmNormBackward(gw, gR, gSelf, gCoef, r, w []float64, n, ne int, src, dst []int32) {
	panic(noKernels)
}
func wasmAddTransposed(c, ct []float64, m, k int) { panic(noKernels) }
func wasmAdamStep(val, grad, m, v []float64, wd, b1, c1, b2, c2, step, bc2, eps float64) {
	panic(noKernels)
}
func wasmRelu(y, x []float64)                 { panic(noKernels) }
func wasmReluBackward(dx, dy, y []float64)    { panic(noKernels) }
func wasmSumRowsAdd(c, a []float64, n, m int) { panic(noKernels) }
func wasmMulInto(y, x, k []float64)           { panic(noKernels) }
func wasmAddRows(c, v []float64, n, m int)    { panic(noKernels) }
func wasmTranspose(t, a []float64, n, m int)  { panic(noKernels) }

const noKernels = "kernels: the WebAssembly kernels are not in this build"

// Pooled reports whether a split product runs on the WebAssembly pool:
// never here, where pieces are goroutines (pdn's job.split).
func Pooled(int) bool { return false }

// Batch is never called here (Pooled says no).
func Batch(int, int, func(int)) { panic(noKernels) }

// SetPool does nothing here: there is no pool.
func SetPool(bool) bool { return false }

// PoolHelped is 0 here: there is no pool.
func PoolHelped() int { return 0 }

// PoolHelpers is 0 here: there is no pool.
func PoolHelpers() int { return 0 }
