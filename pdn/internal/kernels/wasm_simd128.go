//go:build js && wasm && simd128 && !purego

package kernels

import (
	"fmt"
	"math"
	"math/rand/v2"
	"unsafe"
)

// The browser's worker is built with the simd128 tag: its hot loops then
// run in kernels.wasm (c/kernels.c), a WebAssembly module with 128-bit
// SIMD that shares the Go program's memory. The worker's bootstrap provides
// the imports of the module "pdnkernels" below: trampolines to the kernels
// once they load, and abi() = 0 if they did not, in which case the
// reference loops run. Either way the bits are the same: every function
// adds the same products in the same order as the reference loop of the
// kernel that calls it (each kernel's row of TestKernelsKeepTheirBandsAndBits,
// and the golden and zoo digests, check it under Node with the kernels
// loaded: make test-wasm). The wrappers below are those kernels' paths:
// nothing outside the package calls them.

//go:wasmimport pdnkernels abi
func kernelsABI() int32

//go:wasmimport pdnkernels set_stack
func kernelsSetStack(top uint32)

//go:wasmimport pdnkernels mul_abt
func kMulABT(c, a, bt, bias, keep unsafe.Pointer, n, k, m int32)

//go:wasmimport pdnkernels mul_abt_narrow
func kMulABTNarrow(c, a, b, bias, keep unsafe.Pointer, n, k int32)

//go:wasmimport pdnkernels add_atb
func kAddATB(c, a, b unsafe.Pointer, n, m, k, j0, j1 int32)

//go:wasmimport pdnkernels propagate_rows
func kPropagateRows(y, h unsafe.Pointer, m, lo, hi int32, rowPtr, col, eid, coef, self unsafe.Pointer)

//go:wasmimport pdnkernels accumulate_edges
func kAccumulateEdges(gCoef, dy, h unsafe.Pointer, m, lo, hi int32, src, dst unsafe.Pointer)

//go:wasmimport pdnkernels accumulate_self
func kAccumulateSelf(gSelf, dy, h unsafe.Pointer, m, n int32)

//go:wasmimport pdnkernels sp_mul_abt
func kSpMulABT(c, ptr, col, val unsafe.Pointer, lo, hi int32, bt unsafe.Pointer, m int32)

//go:wasmimport pdnkernels sp_accum_atb
func kSpAccumATB(ct, a, ptr, col, val unsafe.Pointer, lo, hi, m, o0, o1 int32)

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
func kPathfinder1Backward(gw1, gb1, gw2, gb2, gw, w, h, z, w2 unsafe.Pointer, lo, hi, d, nh, j0, j1 int32)

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

//go:wasmimport pdnkernels max_index
func kMaxIndex(idx unsafe.Pointer, n int32) uint32

//go:wasmimport pdnkernels ordered_i32
func kOrderedI32(p unsafe.Pointer, n int32) int32

//go:wasmimport pdnkernels ordered_i64
func kOrderedI64(p unsafe.Pointer, n int32) int32

// kernelsABIVersion is abi() of the kernels this file calls: 5 since the
// pool knows which helpers hold a piece and pool_helper_died which died.
const kernelsABIVersion = 5

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

// ---- No address reaches a kernel unchecked ----
//
// The kernels index memory by the sizes, row pointers and indices they are
// given and check nothing: one out of range reads or writes outside its
// operand, into whatever Go keeps beside it, where the Go loop would have
// panicked. So every address a kernel gets comes from at (or opt, or
// state), which panics unless its operand holds every value the kernel
// touches (each wrapper's comment lists these extents, read off
// c/kernels.c); every size, row and edge range passes size or span; and
// before the call rowPtrs and indices check every value the kernel reads
// from an index array: row pointers from 0 up, never decreasing, ending
// within the index arrays they point into, and each index within the
// operand it picks from. A wrapper given a wrong operand panics, naming
// it, as the Go loop's own bounds check would (TestWasmBounds tries each
// wrapper; TestWasmAddressesChecked keeps every kernel's address arguments
// on these helpers).
//
// The scans are O(e) a call beside the graph kernels' O(e·m): each
// wrapper's comment gives their share of its kernel's time, under Node
// (BenchmarkWasmChecks). They run in kernels.c (max_index, ordered_i32,
// ordered_i64: they only read, and only what at has checked), four lanes
// at a time: about 0.05 ns an index and 0.15 a row pointer, against 0.5
// and 1.5 for the Go scans (BenchmarkWasmScans), which remain the
// reference: they run for a few values, where a call into the kernels
// costs more, they name the bad value, and the tests compare the two on
// every position (TestWasmIndices, TestWasmRowPtrs, TestWasmBounds). In
// Go the scans added about a tenth to PDN's and GCN's epoch on a graph of
// Facebook Page-Page's shape (BenchmarkCost); in kernels.c, 6-8 times as
// fast, one or two hundredths.

// boundsError is what a wrapper panics with: a runtime error, as from the
// Go loop's own bounds check.
type boundsError string

func (e boundsError) Error() string { return "kernels: " + string(e) }
func (boundsError) RuntimeError()   {}

// outOfBounds panics with a boundsError; it is called only on the way to
// a panic, so the checks' fast paths build no message.
//
//go:noinline
func outOfBounds(format string, args ...any) {
	panic(boundsError(fmt.Sprintf(format, args...)))
}

// at is the address of s's first element (nil for an empty s) for a
// kernel that touches its first n values: it panics, naming the operand,
// unless s holds them.
func at[T any](s []T, n int, name string) unsafe.Pointer {
	need(s, n, name)
	if len(s) == 0 {
		return nil
	}
	return unsafe.Pointer(&s[0])
}

// need panics, naming the operand, unless s holds n values: at's check,
// for an operand the kernel reads through a copy (wasmMulABT's b).
func need[T any](s []T, n int, name string) {
	if n < 0 || len(s) < n {
		outOfBounds("%s: slice bounds out of range [:%d] with length %d", name, n, len(s))
	}
}

// opt is at for an operand the kernel may go without: nil for a nil s,
// which the kernel takes as absent.
func opt[T any](s []T, n int, name string) unsafe.Pointer {
	if s == nil {
		return nil
	}
	return at(s, n, name)
}

// state is the address of the PCG's state {hi, lo}, the 16 bytes
// dropout_draw reads and writes: it panics for a nil rnd.
func state(rnd *rand.PCG, name string) unsafe.Pointer {
	if rnd == nil {
		outOfBounds("%s is nil", name)
	}
	return unsafe.Pointer(rnd)
}

// rand.PCG is those 16 bytes: a PCG of another size fails to compile here
// (TestKernelsDrawAsPCG checks their order).
var (
	_ [unsafe.Sizeof(rand.PCG{}) - 16]byte
	_ [16 - unsafe.Sizeof(rand.PCG{})]byte
)

// size is v as the kernels' int (32 bits): it panics unless
// 0 ≤ v ≤ MaxInt32.
func size(v int, name string) int32 {
	if uint(v) > math.MaxInt32 {
		outOfBounds("%s = %d out of range [0, %d]", name, v, math.MaxInt32)
	}
	return int32(v)
}

// span is the range lo..hi-1 of n rows (or edges) as the kernels' ints:
// it panics unless 0 ≤ lo ≤ hi ≤ n ≤ MaxInt32.
func span(lo, hi, n int, name string) (int32, int32) {
	if lo < 0 || hi < lo || hi > n || n > math.MaxInt32 {
		outOfBounds("%s: slice bounds out of range [%d:%d] with length %d", name, lo, hi, n)
	}
	return int32(lo), int32(hi)
}

// scanCFrom is the fewest values rowPtrs and indices scan in kernels.c,
// where the kernels loaded (none where they did not): a call into the
// kernels costs about as much as the Go scan of 100 indices or of 40 row
// pointers (BenchmarkWasmScans, under Node). Tests set it to 0 or MaxInt
// to run one scan or the other, the Go scan being the reference, and
// compare the two.
var scanCFrom = func() int {
	if loaded {
		return 64
	}
	return math.MaxInt
}()

// rowPtrs checks the row pointers ptr[lo..hi] a kernel reads (at has
// checked that ptr holds them) and returns the first and the last: it
// panics unless the first is 0 or more and none is below the one before,
// so that every row's entries lie in first..last-1, which at then checks
// the index arrays hold.
//
// ordered_i32 (ordered_i64 for Go's int) answers whether none decreases;
// where it says one does, or for fewer than scanCFrom, the Go loop looks.
func rowPtrs[I int32 | int](ptr []I, lo, hi int, name string) (first, last int) {
	p := ptr[lo : hi+1]
	if p[0] < 0 {
		outOfBounds("%s[%d] = %d is negative", name, lo, p[0])
	}
	if len(p) < scanCFrom || !ordered(p, name) {
		for k := 1; k < len(p); k++ {
			if p[k] < p[k-1] {
				outOfBounds("%s[%d] = %d is below %s[%d] = %d: row pointers must not decrease", name, lo+k, p[k], name, lo+k-1, p[k-1])
			}
		}
		if len(p) >= scanCFrom { // the kernel is wrong: refuse all the same
			outOfBounds("%s[%d:%d]: ordered found a decrease which the Go scan does not find", name, lo, hi+1)
		}
	}
	return int(p[0]), int(p[len(p)-1])
}

// ordered reports whether no value of p is below the one before it, in
// kernels.c.
func ordered[I int32 | int](p []I, name string) bool {
	n := size(len(p), name)
	pp := at(p, len(p), name)
	if unsafe.Sizeof(p[0]) == 4 {
		return kOrderedI32(pp, n) != 0
	}
	return kOrderedI64(pp, n) != 0
}

// indices checks the values idx[lo..hi-1] a kernel reads (at has checked
// that idx holds them): it panics unless each lies in [0, n), within the
// n rows (or values) of the operand it picks from.
//
// It takes the values' largest as unsigned, a negative one then above any
// n: max_index in kernels.c, four lanes at a time, or, for fewer than
// scanCFrom, maxIndex. Only where that is n or more does it look, in Go,
// for the value to name.
func indices(idx []int32, lo, hi, n int, name string) {
	s := idx[lo:hi]
	if len(s) == 0 {
		return
	}
	u := min(uint(max(n, 0)), 1<<31) // every int32 in [0, n) is below it as a uint32, no other
	var m uint32
	if len(s) >= scanCFrom {
		m = kMaxIndex(at(s, len(s), name), size(len(s), name))
	} else {
		m = maxIndex(s)
	}
	if uint(m) >= u {
		for k, v := range s {
			if uint(uint32(v)) >= u {
				outOfBounds("%s[%d] = %d: index out of range [%d] with length %d", name, lo+k, v, v, n)
			}
		}
		// max_index is wrong: refuse all the same.
		outOfBounds("%s[%d:%d]: max_index found %d, out of range [0, %d), which the Go scan does not find", name, lo, hi, m, n)
	}
}

// maxIndex is max_index in Go: the largest of s as unsigned, 0 for an
// empty s. Sixteen a pass into four maxima, without a branch: Go's
// WebAssembly pays for every turn of a loop and every branch. It takes
// 0.4-0.6 ns an index under Node, half a plain loop's time.
func maxIndex(s []int32) uint32 {
	var m0, m1, m2, m3 uint64
	k := 0
	for ; k+16 <= len(s); k += 16 {
		q := s[k : k+16 : k+16]
		m0 = max(m0, uint64(uint32(q[0])), uint64(uint32(q[1])), uint64(uint32(q[2])), uint64(uint32(q[3])))
		m1 = max(m1, uint64(uint32(q[4])), uint64(uint32(q[5])), uint64(uint32(q[6])), uint64(uint32(q[7])))
		m2 = max(m2, uint64(uint32(q[8])), uint64(uint32(q[9])), uint64(uint32(q[10])), uint64(uint32(q[11])))
		m3 = max(m3, uint64(uint32(q[12])), uint64(uint32(q[13])), uint64(uint32(q[14])), uint64(uint32(q[15])))
	}
	for ; k < len(s); k++ {
		m0 = max(m0, uint64(uint32(s[k])))
	}
	return uint32(max(m0, m1, m2, m3)) // each below 2³²
}

// scratch holds bᵀ for wasmMulABT; the worker has one thread.
var scratch []float64

// wasmMulABT is MulABT (and, with keep, only the rows whose keep is not
// 0) plus the bias (none if nil) of the n rows of a into c.
//
// mul_abt touches c n·m, a n·k, bt k·m, bias m, keep n; mul_abt_narrow
// (m = 1) c n, a n·k, b k, bias 1, keep n.
func wasmMulABT(c, a, b, bias, keep []float64, n, k, m int) {
	const op = "wasmMulABT: "
	n32, k32, m32 := size(n, op+"n"), size(k, op+"k"), size(m, op+"m")
	if n == 0 {
		return
	}
	if m == 1 { // bᵀ is b
		mulABTNarrowCall(at(c, n, op+"c"), at(a, n*k, op+"a"), at(b, k, op+"b"), opt(bias, 1, op+"bias"), opt(keep, n, op+"keep"), n32, k32)
		return
	}
	if cap(scratch) < k*m {
		scratch = make([]float64, k*m)
	}
	bt := scratch[:k*m]
	need(b, m*k, op+"b") // the kernel reads bt, its copy
	Transpose(bt, b, m, k)
	mulABTCall(at(c, n*m, op+"c"), at(a, n*k, op+"a"), at(bt, k*m, op+"bt"), opt(bias, m, op+"bias"), opt(keep, n, op+"keep"), n32, k32, m32)
}

// wasmAddATB is AddATBCols: the rows j0..j1-1 of c.
//
// add_atb touches c m·k (its rows j0..j1-1), a n·m, b n·k.
func wasmAddATB(c, a, b []float64, n, m, k, j0, j1 int) {
	const op = "wasmAddATB: "
	n32, m32, k32 := size(n, op+"n"), size(m, op+"m"), size(k, op+"k")
	j032, j132 := span(j0, j1, m, op+"rows of c")
	if n > 0 && j1 > j0 {
		addATBCall(at(c, m*k, op+"c"), at(a, n*m, op+"a"), at(b, n*k, op+"b"), n32, m32, k32, j032, j132)
	}
}

// wasmPropagateRows sets rows lo..hi-1 of y = Â h for the n×m h, Â given
// by its rows (rowPtr, col, eid), its edges' coefficients and its
// self-loops'.
//
// propagate_rows touches y hi·m, h n·m (its own rows i < hi ≤ n and the
// rows col[k]), rowPtr lo..hi, col and eid rowPtr[lo]..rowPtr[hi]-1, coef
// at every eid[k], self hi. The scans read hi−lo+1 row pointers and 2
// indices per entry, O(e) for all rows, the kernel m multiply-adds per
// entry, O(e·m): under Node they take 0.11 of the kernel's time at m = 1,
// 0.07 at 4, 0.05 at 16, 0.02 at 64 (BenchmarkWasmChecks, 20 entries a
// row; 0.7, 0.5, 0.2 and 0.05 with the scans in Go).
func wasmPropagateRows(y, h []float64, n, m, lo, hi int, rowPtr, col, eid []int32, coef, self []float64) {
	const op = "wasmPropagateRows: "
	m32 := size(m, op+"m")
	lo32, hi32 := span(lo, hi, n, op+"rows")
	pRow := at(rowPtr, hi+1, op+"rowPtr")
	first, last := rowPtrs(rowPtr, lo, hi, op+"rowPtr")
	pCol, pEid := at(col, last, op+"col"), at(eid, last, op+"eid")
	indices(col, first, last, n, op+"col")
	indices(eid, first, last, len(coef), op+"eid")
	propagateRowsCall(at(y, hi*m, op+"y"), at(h, n*m, op+"h"), m32, lo32, hi32, pRow, pCol, pEid, at(coef, len(coef), op+"coef"), at(self, hi, op+"self"))
}

// wasmAccumulateEdges adds to gCoef[e], for the edges lo..hi-1, the
// products of dy and h at its two ends.
//
// accumulate_edges touches gCoef hi, src and dst lo..hi-1, and the rows
// src[e] and dst[e] (< n) of dy and h, n·m each. The scans read 2 indices
// per edge, the kernel 2·m multiply-adds: 0.06 of its time at m = 1, 0.02
// at 4, 0.01 at 16, 0.005 at 64.
func wasmAccumulateEdges(gCoef, dy, h []float64, n, m, lo, hi int, src, dst []int32) {
	const op = "wasmAccumulateEdges: "
	size(n, op+"n")
	m32 := size(m, op+"m")
	lo32, hi32 := span(lo, hi, math.MaxInt32, op+"edges")
	pSrc, pDst := at(src, hi, op+"src"), at(dst, hi, op+"dst")
	indices(src, lo, hi, n, op+"src")
	indices(dst, lo, hi, n, op+"dst")
	accumulateEdgesCall(at(gCoef, hi, op+"gCoef"), at(dy, n*m, op+"dy"), at(h, n*m, op+"h"), m32, lo32, hi32, pSrc, pDst)
}

// wasmAccumulateSelf adds to gSelf[i] the product of row i of dy and h.
//
// accumulate_self touches gSelf n, dy n·m, h n·m.
func wasmAccumulateSelf(gSelf, dy, h []float64, n, m int) {
	const op = "wasmAccumulateSelf: "
	n32, m32 := size(n, op+"n"), size(m, op+"m")
	kAccumulateSelf(at(gSelf, n, op+"gSelf"), at(dy, n*m, op+"dy"), at(h, n*m, op+"h"), m32, n32)
}

// wasmSpMulABT sets the rows lo..hi-1 of c = a·bt for the sparse a (ptr,
// col, val; cols columns) and bt (cols×m).
//
// sp_mul_abt touches c (hi−lo)·m, ptr lo..hi, col and val
// ptr[lo]..ptr[hi]-1, bt cols·m (the rows col[p] < cols). The scans read
// hi−lo+1 row pointers and 1 index per non-zero, the kernel m
// multiply-adds: 0.03 of its time at m = 4 and 16, 0.013 at 64 (20
// non-zeros a row).
func wasmSpMulABT(c []float64, ptr []int, col []int32, val []float64, cols, lo, hi int, bt []float64, m int) {
	if hi > lo {
		const op = "wasmSpMulABT: "
		size(cols, op+"cols")
		m32 := size(m, op+"m")
		lo32, hi32 := span(lo, hi, math.MaxInt32, op+"rows")
		pPtr := at(ptr, hi+1, op+"ptr")
		first, last := rowPtrs(ptr, lo, hi, op+"ptr")
		pCol, pVal := at(col, last, op+"col"), at(val, last, op+"val")
		indices(col, first, last, cols, op+"col")
		spMulABTCall(at(c, (hi-lo)*m, op+"c"), pPtr, pCol, pVal, lo32, hi32, at(bt, cols*m, op+"bt"), m32)
	}
}

// wasmSpAccumATB adds to the columns o0..o1-1 of ct (cols×m) the rows
// lo..hi-1 of the sparse b (ptr, col, val) transposed times a.
//
// sp_accum_atb touches ct cols·m (the rows col[p] < cols), a (hi−lo)·m,
// ptr lo..hi, col and val ptr[lo]..ptr[hi]-1. The scans are
// wasmSpMulABT's, beside as much work in the kernel.
func wasmSpAccumATB(ct, a []float64, ptr []int, col []int32, val []float64, cols, lo, hi, m, o0, o1 int) {
	const op = "wasmSpAccumATB: "
	m32 := size(m, op+"m")
	o032, o132 := span(o0, o1, m, op+"columns of ct")
	if hi > lo && o1 > o0 {
		size(cols, op+"cols")
		lo32, hi32 := span(lo, hi, math.MaxInt32, op+"rows")
		pPtr := at(ptr, hi+1, op+"ptr")
		first, last := rowPtrs(ptr, lo, hi, op+"ptr")
		pCol, pVal := at(col, last, op+"col"), at(val, last, op+"val")
		indices(col, first, last, cols, op+"col")
		spAccumATBCall(at(ct, cols*m, op+"ct"), at(a, (hi-lo)*m, op+"a"), pPtr, pCol, pVal, lo32, hi32, m32, o032, o132)
	}
}

// relu touches y and x n = len(x).
func wasmRelu(y, x []float64) {
	const op = "wasmRelu: "
	n := len(x)
	reluCall(at(y, n, op+"y"), at(x, n, op+"x"), size(n, op+"n"))
}

// relu_backward touches dx, dy and y n = len(dx).
func wasmReluBackward(dx, dy, y []float64) {
	const op = "wasmReluBackward: "
	n := len(dx)
	kReluBackward(at(dx, n, op+"dx"), at(dy, n, op+"dy"), at(y, n, op+"y"), size(n, op+"n"))
}

// sum_rows_add touches c m, a n·m.
func wasmSumRowsAdd(c, a []float64, n, m int) {
	const op = "wasmSumRowsAdd: "
	n32, m32 := size(n, op+"n"), size(m, op+"m")
	kSumRowsAdd(at(c, m, op+"c"), at(a, n*m, op+"a"), n32, m32)
}

// mul_into touches y, x and k n = len(y).
func wasmMulInto(y, x, k []float64) {
	const op = "wasmMulInto: "
	n := len(y)
	kMulInto(at(y, n, op+"y"), at(x, n, op+"x"), at(k, n, op+"k"), size(n, op+"n"))
}

// add_rows touches c n·m, v m.
func wasmAddRows(c, v []float64, n, m int) {
	const op = "wasmAddRows: "
	n32, m32 := size(n, op+"n"), size(m, op+"m")
	kAddRows(at(c, n*m, op+"c"), at(v, m, op+"v"), n32, m32)
}

// wasmSigmoidKept sets w = σ(s) where keep is not 0 (everywhere for nil).
//
// sigmoid_kept touches w, s and keep n = len(s).
func wasmSigmoidKept(w, s, keep []float64) {
	const op = "wasmSigmoidKept: "
	n := len(s)
	kSigmoidKept(at(w, n, op+"w"), at(s, n, op+"s"), opt(keep, n, op+"keep"), size(n, op+"n"))
}

// hidden checks the pathfinder's hidden units for its fused kernels: a
// multiple of 8 (pf1_pair's lanes go eight at a time), at most 64 (the
// backward pass's dh holds 4×64 on the kernels' stack).
func hidden(nh int, name string) int32 {
	if nh < 0 || nh%8 != 0 || nh > 64 {
		outOfBounds("%s = %d: the fused pathfinder takes a multiple of 8 up to 64", name, nh)
	}
	return int32(nh)
}

// wasmPathfinder1Forward is the forward pass of a pathfinder of one hidden
// layer (d inputs, nh units; w1t its weights transposed, b1 its biases, w2
// and b2 the output's) for the rows lo..hi-1 of the edges' features z
// whose keep is not 0 (all for nil): the hidden activations into h, the
// output's sums into s and its sigmoid into w.
//
// pathfinder1_forward touches h hi·nh, s hi, w hi, z hi·d, w1t d·nh,
// b1 nh, w2 nh, keep hi; nh a multiple of 8 (and, as for the backward
// pass, at most 64).
func wasmPathfinder1Forward(h, s, w, z, w1t, b1, w2 []float64, b2 float64, keep []float64, lo, hi, d, nh int) {
	const op = "wasmPathfinder1Forward: "
	lo32, hi32 := span(lo, hi, math.MaxInt32, op+"rows")
	d32, nh32 := size(d, op+"d"), hidden(nh, op+"nh")
	pathfinder1ForwardCall(at(h, hi*nh, op+"h"), at(s, hi, op+"s"), at(w, hi, op+"w"), at(z, hi*d, op+"z"),
		at(w1t, d*nh, op+"w1t"), at(b1, nh, op+"b1"), at(w2, nh, op+"w2"), b2, opt(keep, hi, op+"keep"), lo32, hi32, d32, nh32)
}

// wasmPathfinder1Backward is that pathfinder's backward pass from gw, the
// gradient of w, for the rows lo..hi-1 (lo a multiple of 4) and the
// hidden units j0..j1-1, adding to the gradients gw1, gb1, gw2 and gb2.
//
// pathfinder1_backward touches gw1 nh·d, gb1 nh, gw2 nh, gb2 1, gw hi,
// w hi, h hi·nh, z hi·d, w2 nh; nh a multiple of 8 up to 64, j0 and j1
// even (its lanes take two units at a time).
func wasmPathfinder1Backward(gw1, gb1, gw2, gb2, gw, w, h, z, w2 []float64, lo, hi, d, nh, j0, j1 int) {
	const op = "wasmPathfinder1Backward: "
	lo32, hi32 := span(lo, hi, math.MaxInt32, op+"rows")
	d32, nh32 := size(d, op+"d"), hidden(nh, op+"nh")
	j032, j132 := span(j0, j1, nh, op+"hidden units")
	if j0%2 != 0 || j1%2 != 0 {
		outOfBounds("%shidden units %d..%d: the bounds must be even", op, j0, j1)
	}
	pathfinder1BackwardCall(at(gw1, nh*d, op+"gw1"), at(gb1, nh, op+"gb1"), at(gw2, nh, op+"gw2"), at(gb2, 1, op+"gb2"),
		at(gw, hi, op+"gw"), at(w, hi, op+"w"), at(h, hi*nh, op+"h"), at(z, hi*d, op+"z"), at(w2, nh, op+"w2"), lo32, hi32, d32, nh32, j032, j132)
}

// wasmPropagateDots is, for the rows lo..hi-1, y = Â dy and the rows' dot
// products for the coefficients' gradient into dots (one per entry of the
// adjacency), the self-loops' into gSelf (see propagate_dots).
//
// propagate_dots touches y hi·m, dy n·m (its rows i < hi ≤ n and col[k]),
// h hi·m, rowPtr lo..hi, col, eid and dots rowPtr[lo]..rowPtr[hi]-1, coef
// at every eid[k], self hi, gSelf hi. The scans are wasmPropagateRows',
// the kernel 2·m multiply-adds per entry: 0.06 of its time at m = 1, 0.05
// at 4, 0.03 at 16, 0.008 at 64.
func wasmPropagateDots(y, dy, h []float64, n, m, lo, hi int, rowPtr, col, eid []int32, coef, self, dots, gSelf []float64) {
	const op = "wasmPropagateDots: "
	m32 := size(m, op+"m")
	lo32, hi32 := span(lo, hi, n, op+"rows")
	pRow := at(rowPtr, hi+1, op+"rowPtr")
	first, last := rowPtrs(rowPtr, lo, hi, op+"rowPtr")
	pCol, pEid := at(col, last, op+"col"), at(eid, last, op+"eid")
	indices(col, first, last, n, op+"col")
	indices(eid, first, last, len(coef), op+"eid")
	propagateDotsCall(at(y, hi*m, op+"y"), at(dy, n*m, op+"dy"), at(h, hi*m, op+"h"), m32, lo32, hi32, pRow, pCol, pEid,
		at(coef, len(coef), op+"coef"), at(self, hi, op+"self"), at(dots, last, op+"dots"), at(gSelf, hi, op+"gSelf"))
}

// wasmCombineDots adds the dot products of the edges lo..hi-1, at their
// two entries atSrc and atDst, to gCoef.
//
// combine_dots touches gCoef hi, atSrc and atDst lo..hi-1, dots at every
// atSrc[e] and atDst[e]. The scans read the 2 indices per edge the kernel
// reads, which adds one pair: they take 0.12 of its time, beside
// propagate_dots' 2·m multiply-adds per entry in the same backward pass.
func wasmCombineDots(gCoef, dots []float64, atSrc, atDst []int32, lo, hi int) {
	const op = "wasmCombineDots: "
	lo32, hi32 := span(lo, hi, math.MaxInt32, op+"edges")
	pSrc, pDst := at(atSrc, hi, op+"atSrc"), at(atDst, hi, op+"atDst")
	indices(atSrc, lo, hi, len(dots), op+"atSrc")
	indices(atDst, lo, hi, len(dots), op+"atDst")
	combineDotsCall(at(gCoef, hi, op+"gCoef"), at(dots, len(dots), op+"dots"), pSrc, pDst, lo32, hi32)
}

// wasmDropoutDraw draws the mask of n units from rnd: scale where a draw's
// 32 bits are below thresh, else 0. The kernel steps the PCG's state in
// place: math/rand/v2's PCG is the struct {hi, lo uint64}
// (TestKernelsDrawAsPCG checks the draws).
//
// dropout_draw touches mask n and rnd's 16 bytes.
func wasmDropoutDraw(mask []float64, n int, rnd *rand.PCG, thresh uint64, scale float64) {
	const op = "wasmDropoutDraw: "
	n32 := size(n, op+"n")
	kDropoutDraw(at(mask, n, op+"mask"), n32, state(rnd, op+"rnd"), thresh, scale)
}

// wasmNormForward is the GCN normalisation of the edge weights w over n
// nodes and ne edges: degrees, their inverse roots r, the self-loops' and
// the edges' coefficients.
//
// norm_forward touches deg, r and self n, coef and w ne, rowPtr n+1, eid
// rowPtr[0]..rowPtr[n]-1 (each < ne), src and dst ne (each < n). The
// scans read the n+1 + 4·ne indices the kernel reads, which does a few
// operations on each: they take 0.12 of its time, once an epoch, beside
// the propagations' m multiply-adds per entry.
func wasmNormForward(deg, r, self, coef, w []float64, n, ne int, rowPtr, eid, src, dst []int32) {
	const op = "wasmNormForward: "
	n32, ne32 := size(n, op+"n"), size(ne, op+"ne")
	pRow := at(rowPtr, n+1, op+"rowPtr")
	first, last := rowPtrs(rowPtr, 0, n, op+"rowPtr")
	pEid, pSrc, pDst := at(eid, last, op+"eid"), at(src, ne, op+"src"), at(dst, ne, op+"dst")
	indices(eid, first, last, ne, op+"eid")
	indices(src, 0, ne, n, op+"src")
	indices(dst, 0, ne, n, op+"dst")
	kNormForward(at(deg, n, op+"deg"), at(r, n, op+"r"), at(self, n, op+"self"), at(coef, ne, op+"coef"), at(w, ne, op+"w"),
		n32, ne32, pRow, pEid, pSrc, pDst)
}

// wasmNormBackward is its backward pass into gw.
//
// norm_backward touches gw, gCoef and w ne, gR, gSelf and r n, src and
// dst ne (each < n). The scans read 2·ne indices, the kernel them twice
// and 8·ne values: 0.035 of its time.
func wasmNormBackward(gw, gR, gSelf, gCoef, r, w []float64, n, ne int, src, dst []int32) {
	const op = "wasmNormBackward: "
	n32, ne32 := size(n, op+"n"), size(ne, op+"ne")
	pSrc, pDst := at(src, ne, op+"src"), at(dst, ne, op+"dst")
	indices(src, 0, ne, n, op+"src")
	indices(dst, 0, ne, n, op+"dst")
	kNormBackward(at(gw, ne, op+"gw"), at(gR, n, op+"gR"), at(gSelf, n, op+"gSelf"), at(gCoef, ne, op+"gCoef"), at(r, n, op+"r"), at(w, ne, op+"w"),
		n32, ne32, pSrc, pDst)
}

// wasmAddTransposed sets c (m×k) += ctᵀ for ct (k×m).
//
// add_transposed touches c m·k, ct k·m.
func wasmAddTransposed(c, ct []float64, m, k int) {
	const op = "wasmAddTransposed: "
	m32, k32 := size(m, op+"m"), size(k, op+"k")
	kAddTransposed(at(c, m*k, op+"c"), at(ct, k*m, op+"ct"), m32, k32)
}

// transpose touches t m·n, a n·m.
func wasmTranspose(t, a []float64, n, m int) {
	const op = "wasmTranspose: "
	n32, m32 := size(n, op+"n"), size(m, op+"m")
	kTranspose(at(t, m*n, op+"t"), at(a, n*m, op+"a"), n32, m32)
}

// wasmAdamStep is one step of Adam on one tensor (val, grad; moments m and
// v), weight decay wd, the moments' rates b1 and b2 and their complements
// c1 and c2, step size step, the second moment's bias correction bc2.
//
// adam_step touches val, grad, m and v n = len(val).
func wasmAdamStep(val, grad, m, v []float64, wd, b1, c1, b2, c2, step, bc2, eps float64) {
	const op = "wasmAdamStep: "
	n := len(val)
	kAdamStep(at(val, n, op+"val"), at(grad, n, op+"grad"), at(m, n, op+"m"), at(v, n, op+"v"), size(n, op+"n"),
		wd, b1, c1, b2, c2, step, bc2, eps)
}
