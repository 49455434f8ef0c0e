//go:build js && wasm && simd128 && !purego

package kernels

import (
	"math/rand/v2"
	"unsafe"
)

// The browser's worker is built with the simd128 tag: its hot loops then
// run in kernels.wasm (c/kernels.c), a WebAssembly module with 128-bit
// SIMD that shares the Go program's memory. The worker's bootstrap provides
// the imports of the module "pdnkernels" below: trampolines to the kernels
// once they load, and abi() = 0 if they did not, in which case the Go
// loops run. Either way the bits are the same: every kernel adds the same
// products in the same order as the Go loop it replaces (the golden and zoo
// digests check it under Node with the kernels loaded: make test-wasm).

//go:wasmimport pdnkernels abi
func kernelsABI() int32

//go:wasmimport pdnkernels set_stack
func kernelsSetStack(top uint32)

//go:wasmimport pdnkernels mul_abt
func kMulABT(c, a, bt, bias, keep unsafe.Pointer, n, k, m int32)

//go:wasmimport pdnkernels mul_abt_narrow
func kMulABTNarrow(c, a, b, bias, keep unsafe.Pointer, n, k int32)

//go:wasmimport pdnkernels add_atb
func kAddATB(c, a, b unsafe.Pointer, n, m, k int32)

//go:wasmimport pdnkernels propagate_rows
func kPropagateRows(y, h unsafe.Pointer, m, lo, hi int32, rowPtr, col, eid, coef, self unsafe.Pointer)

//go:wasmimport pdnkernels accumulate_edges
func kAccumulateEdges(gCoef, dy, h unsafe.Pointer, m, lo, hi int32, src, dst unsafe.Pointer)

//go:wasmimport pdnkernels accumulate_self
func kAccumulateSelf(gSelf, dy, h unsafe.Pointer, m, n int32)

//go:wasmimport pdnkernels sp_mul_abt
func kSpMulABT(c, ptr, col, val unsafe.Pointer, lo, hi int32, bt unsafe.Pointer, m int32)

//go:wasmimport pdnkernels sp_accum_atb
func kSpAccumATB(ct, a, ptr, col, val unsafe.Pointer, lo, hi, m int32)

//go:wasmimport pdnkernels relu
func kRelu(y, x unsafe.Pointer, n int32)

//go:wasmimport pdnkernels relu_backward
func kReluBackward(dx, dy, y unsafe.Pointer, n int32)

//go:wasmimport pdnkernels sum_rows_add
func kSumRowsAdd(c, a unsafe.Pointer, n, m int32)

//go:wasmimport pdnkernels mul_into
func kMulInto(y, x, k unsafe.Pointer, n int32)

//go:wasmimport pdnkernels add_rows
func kAddRows(c, v unsafe.Pointer, n, m int32)

//go:wasmimport pdnkernels sigmoid_kept
func kSigmoidKept(w, s, keep unsafe.Pointer, n int32)

//go:wasmimport pdnkernels pathfinder1_forward
func kPathfinder1Forward(h, s, w, z, w1t, b1, w2 unsafe.Pointer, b2 float64, keep unsafe.Pointer, lo, hi, d, nh int32)

//go:wasmimport pdnkernels pathfinder1_backward
func kPathfinder1Backward(gw1, gb1, gw2, gb2, gw, w, h, z, w2 unsafe.Pointer, lo, hi, d, nh int32)

//go:wasmimport pdnkernels propagate_dots
func kPropagateDots(y, dy, h unsafe.Pointer, m, lo, hi int32, rowPtr, col, eid, coef, self, dots, gSelf unsafe.Pointer)

//go:wasmimport pdnkernels combine_dots
func kCombineDots(gCoef, dots, atSrc, atDst unsafe.Pointer, lo, hi int32)

//go:wasmimport pdnkernels dropout_draw
func kDropoutDraw(mask unsafe.Pointer, n int32, state unsafe.Pointer, thresh uint64, scale float64)

//go:wasmimport pdnkernels norm_forward
func kNormForward(deg, r, self, coef, w unsafe.Pointer, n, ne int32, rowPtr, eid, src, dst unsafe.Pointer)

//go:wasmimport pdnkernels norm_backward
func kNormBackward(gw, gR, gSelf, gCoef, r, w unsafe.Pointer, n, ne int32, src, dst unsafe.Pointer)

//go:wasmimport pdnkernels add_transposed
func kAddTransposed(c, ct unsafe.Pointer, m, k int32)

//go:wasmimport pdnkernels transpose
func kTranspose(t, a unsafe.Pointer, n, m int32)

//go:wasmimport pdnkernels adam_step
func kAdamStep(val, grad, m, v unsafe.Pointer, n int32, wd, b1, c1, b2, c2, step, bc2, eps float64)

// kernelsABIVersion is abi() of the kernels this file calls.
const kernelsABIVersion = 1

// simd128 reports whether the kernels run (SetSIMD128 turns them off for
// tests that compare the two paths).
var simd128 = startKernels()

// loaded reports whether kernels.wasm loaded at start.
var loaded = simd128

// SIMD128 reports whether the WebAssembly kernels run.
func SIMD128() bool { return simd128 }

// SetSIMD128 turns the kernels on (where they loaded) or off, for tests
// that compare them with the Go loops, and returns the last setting.
func SetSIMD128(on bool) bool {
	was := simd128
	simd128 = on && loaded
	return was
}

// kernelsStack is the stack the kernels' C code may use: clang keeps one
// in linear memory, and it must lie inside memory Go owns.
var kernelsStack []byte

func startKernels() bool {
	if kernelsABI() != kernelsABIVersion {
		return false
	}
	kernelsStack = make([]byte, 64<<10)
	top := uintptr(unsafe.Pointer(&kernelsStack[len(kernelsStack)-1])) + 1
	kernelsSetStack(uint32(top &^ 15))
	return true
}

// at is the address of s's first element, nil for an empty slice.
func at[T any](s []T) unsafe.Pointer {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Pointer(&s[0])
}

// need panics, as a Go loop would, unless s holds n values: the kernels
// index memory by the sizes they are given and check nothing.
func need[T any](s []T, n int) {
	if len(s) < n {
		panic("kernels: operand too short")
	}
}

// scratch holds bᵀ for WasmMulABT; the worker has one thread.
var scratch []float64

// WasmMulABT is MulABT (and, with keep, only the rows whose keep is not
// 0) plus the bias (none if nil) of the n rows of a into c.
func WasmMulABT(c, a, b, bias, keep []float64, n, k, m int) {
	if n == 0 {
		return
	}
	need(c, n*m)
	need(a, n*k)
	need(b, m*k)
	if bias != nil {
		need(bias, m)
	}
	if keep != nil {
		need(keep, n)
	}
	if m == 1 { // bᵀ is b
		kMulABTNarrow(at(c), at(a), at(b), at(bias), at(keep), int32(n), int32(k))
		return
	}
	if cap(scratch) < k*m {
		scratch = make([]float64, k*m)
	}
	bt := scratch[:k*m]
	Transpose(bt, b, m, k)
	kMulABT(at(c), at(a), at(bt), at(bias), at(keep), int32(n), int32(k), int32(m))
}

// WasmAddATB is AddATB.
func WasmAddATB(c, a, b []float64, n, m, k int) {
	if n > 0 {
		need(c, m*k)
		need(a, n*m)
		need(b, n*k)
		kAddATB(at(c), at(a), at(b), int32(n), int32(m), int32(k))
	}
}

// WasmPropagateRows sets rows lo..hi-1 of y = Â h for the n×m h, Â given
// by its rows (rowPtr, col, eid), its edges' coefficients and its
// self-loops'.
func WasmPropagateRows(y, h []float64, n, m, lo, hi int, rowPtr, col, eid []int32, coef, self []float64) {
	need(y, hi*m)
	need(h, n*m)
	kPropagateRows(at(y), at(h), int32(m), int32(lo), int32(hi), at(rowPtr), at(col), at(eid), at(coef), at(self))
}

// WasmAccumulateEdges adds to gCoef[e], for the edges lo..hi-1, the
// products of dy and h at its two ends.
func WasmAccumulateEdges(gCoef, dy, h []float64, n, m, lo, hi int, src, dst []int32) {
	need(dy, n*m)
	need(h, n*m)
	need(gCoef, hi)
	kAccumulateEdges(at(gCoef), at(dy), at(h), int32(m), int32(lo), int32(hi), at(src), at(dst))
}

// WasmAccumulateSelf adds to gSelf[i] the product of row i of dy and h.
func WasmAccumulateSelf(gSelf, dy, h []float64, n, m int) {
	need(dy, n*m)
	need(h, n*m)
	kAccumulateSelf(at(gSelf), at(dy), at(h), int32(m), int32(n))
}

// WasmSpMulABT sets the rows lo..hi-1 of c = a·bt for the sparse a (ptr,
// col, val; cols columns) and bt (cols×m).
func WasmSpMulABT(c []float64, ptr []int, col []int32, val []float64, cols, lo, hi int, bt []float64, m int) {
	if hi > lo {
		need(c, (hi-lo)*m)
		need(bt, cols*m)
		need(ptr, hi+1)
		kSpMulABT(at(c), at(ptr), at(col), at(val), int32(lo), int32(hi), at(bt), int32(m))
	}
}

// WasmSpAccumATB adds to ct (cols×m) the rows lo..hi-1 of the sparse b
// (ptr, col, val) transposed times a.
func WasmSpAccumATB(ct, a []float64, ptr []int, col []int32, val []float64, cols, lo, hi, m int) {
	if hi > lo {
		need(ct, cols*m)
		need(a, (hi-lo)*m)
		need(ptr, hi+1)
		kSpAccumATB(at(ct), at(a), at(ptr), at(col), at(val), int32(lo), int32(hi), int32(m))
	}
}

func wasmRelu(y, x []float64)              { kRelu(at(y), at(x), int32(len(x))) }
func wasmReluBackward(dx, dy, y []float64) { kReluBackward(at(dx), at(dy), at(y), int32(len(dx))) }
func wasmSumRowsAdd(c, a []float64, n, m int) {
	kSumRowsAdd(at(c), at(a), int32(n), int32(m))
}
func wasmMulInto(y, x, k []float64)        { kMulInto(at(y), at(x), at(k), int32(len(y))) }
func wasmAddRows(c, v []float64, n, m int) { kAddRows(at(c), at(v), int32(n), int32(m)) }

// WasmSigmoidKept sets w = σ(s) where keep is not 0 (everywhere for nil).
func WasmSigmoidKept(w, s, keep []float64) {
	need(w, len(s))
	if keep != nil {
		need(keep, len(s))
	}
	kSigmoidKept(at(w), at(s), at(keep), int32(len(s)))
}

// WasmPathfinder1Forward is the forward pass of a pathfinder of one hidden
// layer (d inputs, nh units; w1t its weights transposed, b1 its biases, w2
// and b2 the output's) for the rows lo..hi-1 of the edges' features z
// whose keep is not 0 (all for nil): the hidden activations into h, the
// output's sums into s and its sigmoid into w.
func WasmPathfinder1Forward(h, s, w, z, w1t, b1, w2 []float64, b2 float64, keep []float64, lo, hi, d, nh int) {
	need(z, hi*d)
	need(h, hi*nh)
	need(s, hi)
	need(w, hi)
	if keep != nil {
		need(keep, hi)
	}
	kPathfinder1Forward(at(h), at(s), at(w), at(z), at(w1t), at(b1), at(w2), b2, at(keep), int32(lo), int32(hi), int32(d), int32(nh))
}

// WasmPathfinder1Backward is that pathfinder's backward pass from gw, the
// gradient of w, for the rows lo..hi-1 (lo a multiple of 4), adding to the
// gradients gw1, gb1, gw2 and gb2.
func WasmPathfinder1Backward(gw1, gb1, gw2, gb2, gw, w, h, z, w2 []float64, lo, hi, d, nh int) {
	need(gw, hi)
	need(w, hi)
	need(z, hi*d)
	need(h, hi*nh)
	kPathfinder1Backward(at(gw1), at(gb1), at(gw2), at(gb2), at(gw), at(w), at(h), at(z), at(w2), int32(lo), int32(hi), int32(d), int32(nh))
}

// WasmPropagateDots is, for the rows lo..hi-1, y = Â dy and the rows' dot
// products for the coefficients' gradient into dots (one per entry of the
// adjacency), the self-loops' into gSelf (see propagate_dots).
func WasmPropagateDots(y, dy, h []float64, n, m, lo, hi int, rowPtr, col, eid []int32, coef, self, dots, gSelf []float64) {
	need(y, n*m)
	need(dy, n*m)
	need(h, n*m)
	kPropagateDots(at(y), at(dy), at(h), int32(m), int32(lo), int32(hi), at(rowPtr), at(col), at(eid), at(coef), at(self), at(dots), at(gSelf))
}

// WasmCombineDots adds the dot products of the edges lo..hi-1, at their
// two entries atSrc and atDst, to gCoef.
func WasmCombineDots(gCoef, dots []float64, atSrc, atDst []int32, lo, hi int) {
	need(gCoef, hi)
	kCombineDots(at(gCoef), at(dots), at(atSrc), at(atDst), int32(lo), int32(hi))
}

// WasmDropoutDraw draws the mask of n units from rnd: scale where a draw's
// 32 bits are below thresh, else 0. The kernel steps the PCG's state in
// place: math/rand/v2's PCG is the struct {hi, lo uint64}
// (TestKernelsDrawAsPCG checks the draws).
func WasmDropoutDraw(mask []float64, n int, rnd *rand.PCG, thresh uint64, scale float64) {
	need(mask, n)
	kDropoutDraw(at(mask), int32(n), unsafe.Pointer(rnd), thresh, scale)
}

// WasmNormForward is the GCN normalisation of the edge weights w over n
// nodes and ne edges: degrees, their inverse roots r, the self-loops' and
// the edges' coefficients.
func WasmNormForward(deg, r, self, coef, w []float64, n, ne int, rowPtr, eid, src, dst []int32) {
	need(w, ne)
	kNormForward(at(deg), at(r), at(self), at(coef), at(w), int32(n), int32(ne), at(rowPtr), at(eid), at(src), at(dst))
}

// WasmNormBackward is its backward pass into gw.
func WasmNormBackward(gw, gR, gSelf, gCoef, r, w []float64, n, ne int, src, dst []int32) {
	need(gw, ne)
	kNormBackward(at(gw), at(gR), at(gSelf), at(gCoef), at(r), at(w), int32(n), int32(ne), at(src), at(dst))
}

// WasmAddTransposed sets c (m×k) += ctᵀ for ct (k×m).
func WasmAddTransposed(c, ct []float64, m, k int) {
	need(c, m*k)
	need(ct, k*m)
	kAddTransposed(at(c), at(ct), int32(m), int32(k))
}

func wasmTranspose(t, a []float64, n, m int) {
	need(t, m*n)
	need(a, n*m)
	kTranspose(at(t), at(a), int32(n), int32(m))
}

// WasmAdamStep is one step of Adam on one tensor (val, grad; moments m and
// v), weight decay wd, the moments' rates b1 and b2 and their complements
// c1 and c2, step size step, the second moment's bias correction bc2.
func WasmAdamStep(val, grad, m, v []float64, wd, b1, c1, b2, c2, step, bc2, eps float64) {
	n := len(val)
	need(grad, n)
	need(m, n)
	need(v, n)
	kAdamStep(at(val), at(grad), at(m), at(v), int32(n), wd, b1, c1, b2, c2, step, bc2, eps)
}
