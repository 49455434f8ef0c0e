//go:build js && wasm && simd128

package pdn

import (
	"unsafe"

	"pdnexplorer/datasets"
)

// The browser's worker is built with the simd128 tag: its hot loops then
// run in kernels.wasm (simd/kernels.c), a WebAssembly module with 128-bit
// SIMD that shares this program's memory. The worker's bootstrap provides
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

// simd128 reports whether the kernels run. Tests turn it off to compare
// the two paths.
var simd128 = startKernels()

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
		panic("pdn: kernel operand too short")
	}
}

// simdScratch holds bᵀ for simdMulABT; the worker has one thread.
var simdScratch []float64

// simdMulABT is mulABT (and, with keep, mulABTKept's rows plus the bias)
// of the n rows of a into c.
func simdMulABT(c, a, b, bias, keep []float64, n, k, m int) {
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
	if cap(simdScratch) < k*m {
		simdScratch = make([]float64, k*m)
	}
	bt := simdScratch[:k*m]
	transpose(bt, b, m, k)
	kMulABT(at(c), at(a), at(bt), at(bias), at(keep), int32(n), int32(k), int32(m))
}

func simdAddATB(c, a, b []float64, n, m, k int) {
	if n > 0 {
		need(c, m*k)
		need(a, n*m)
		need(b, n*k)
		kAddATB(at(c), at(a), at(b), int32(n), int32(m), int32(k))
	}
}

func simdPropagateRows(g *gcnNorm, y, h []float64, m, lo, hi int) {
	a := g.adj
	need(y, hi*m)
	need(h, a.n*m)
	kPropagateRows(at(y), at(h), int32(m), int32(lo), int32(hi), at(a.rowPtr), at(a.col), at(a.eid), at(g.coef), at(g.self))
}

func simdAccumulateEdges(g *gcnNorm, dy, h []float64, m, lo, hi int) {
	need(dy, g.adj.n*m)
	need(h, g.adj.n*m)
	need(g.gCoef, hi)
	kAccumulateEdges(at(g.gCoef), at(dy), at(h), int32(m), int32(lo), int32(hi), at(g.adj.src), at(g.adj.dst))
}

func simdAccumulateSelf(g *gcnNorm, dy, h []float64, m int) {
	need(dy, g.adj.n*m)
	need(h, g.adj.n*m)
	kAccumulateSelf(at(g.gSelf), at(dy), at(h), int32(m), int32(g.adj.n))
}

func simdSpMulABT(c []float64, a *datasets.CSR, lo, hi int, bt []float64, m int) {
	if hi > lo {
		need(c, (hi-lo)*m)
		need(bt, a.Cols*m)
		need(a.Ptr, hi+1)
		kSpMulABT(at(c), at(a.Ptr), at(a.Col), at(a.Val), int32(lo), int32(hi), at(bt), int32(m))
	}
}

func simdSpAccumATB(ct, a []float64, b *datasets.CSR, lo, hi, m int) {
	if hi > lo {
		need(ct, b.Cols*m)
		need(a, (hi-lo)*m)
		need(b.Ptr, hi+1)
		kSpAccumATB(at(ct), at(a), at(b.Ptr), at(b.Col), at(b.Val), int32(lo), int32(hi), int32(m))
	}
}

func simdRelu(y, x []float64)              { kRelu(at(y), at(x), int32(len(x))) }
func simdReluBackward(dx, dy, y []float64) { kReluBackward(at(dx), at(dy), at(y), int32(len(dx))) }
func simdSumRowsAdd(c, a []float64, n, m int) {
	kSumRowsAdd(at(c), at(a), int32(n), int32(m))
}
func simdMulInto(y, x, k []float64)        { kMulInto(at(y), at(x), at(k), int32(len(y))) }
func simdAddRows(c, v []float64, n, m int) { kAddRows(at(c), at(v), int32(n), int32(m)) }

// simdSigmoidKept sets w = σ(s) where keep is not 0 (everywhere for nil).
func simdSigmoidKept(w, s, keep []float64) {
	need(w, len(s))
	if keep != nil {
		need(keep, len(s))
	}
	kSigmoidKept(at(w), at(s), at(keep), int32(len(s)))
}

// simdPathfinder1 reports whether the fused kernels serve p: one hidden
// layer of a multiple of 8 units, at most 64.
func simdPathfinder1(p *pathfinder) bool {
	if !simd128 || len(p.layers) != 2 {
		return false
	}
	h := p.layers[0].out
	return h%8 == 0 && h <= 64 && p.layers[1].out == 1
}

// simdPathfinderForward is p's forward pass for the rows lo..hi-1 whose
// keep is not 0 (all for nil).
func simdPathfinderForward(p *pathfinder, keep []float64, lo, hi int) {
	l0, l1 := p.layers[0], p.layers[1]
	d, nh := l0.in, l0.out
	need(p.acts[0], hi*d)
	need(p.acts[1], hi*nh)
	need(p.acts[2], hi)
	need(p.w, hi)
	if keep != nil {
		need(keep, hi)
	}
	transpose(l0.wt, l0.w.val, nh, d)
	kPathfinder1Forward(at(p.acts[1]), at(p.acts[2]), at(p.w), at(p.acts[0]), at(l0.wt), at(l0.b.val), at(l1.w.val), l1.b.val[0],
		at(keep), int32(lo), int32(hi), int32(d), int32(nh))
}

// simdPathfinderBackward is p's backward pass from gw for the rows
// lo..hi-1 (lo a multiple of 4).
func simdPathfinderBackward(p *pathfinder, gw []float64, lo, hi int) {
	l0, l1 := p.layers[0], p.layers[1]
	d, nh := l0.in, l0.out
	need(gw, hi)
	need(p.w, hi)
	need(p.acts[0], hi*d)
	need(p.acts[1], hi*nh)
	kPathfinder1Backward(at(l0.w.grad), at(l0.b.grad), at(l1.w.grad), at(l1.b.grad), at(gw), at(p.w), at(p.acts[1]), at(p.acts[0]),
		at(l1.w.val), int32(lo), int32(hi), int32(d), int32(nh))
}

// simdNorm holds the dot products of accumulate, one per entry of the
// adjacency, and where each edge's two entries lie.
type simdNorm struct {
	dots         []float64
	atSrc, atDst []int32
}

// slots returns, for every edge e, the entry of row src[e] that lists
// dst[e] and the entry of row dst[e] that lists src[e], as newAdjacency
// placed them.
func (a *adjacency) slots() (atSrc, atDst []int32) {
	atSrc, atDst = make([]int32, a.e), make([]int32, a.e)
	next := append([]int32(nil), a.rowPtr[:a.n]...)
	for e := range a.src {
		u, v := a.src[e], a.dst[e]
		atSrc[e] = next[u]
		next[u]++
		atDst[e] = next[v]
		next[v]++
	}
	return atSrc, atDst
}

// simdPropagateDots is, for the rows lo..hi-1, y = Â dy and the rows'
// dot products for accumulate (see propagate_dots); g.dots holds them.
func simdPropagateDots(g *gcnNorm, y, dy, h []float64, m, lo, hi int) {
	a := g.adj
	need(y, a.n*m)
	need(dy, a.n*m)
	need(h, a.n*m)
	sn := &g.simd
	if len(sn.dots) != 2*a.e {
		sn.dots = make([]float64, 2*a.e)
		sn.atSrc, sn.atDst = a.slots()
	}
	kPropagateDots(at(y), at(dy), at(h), int32(m), int32(lo), int32(hi), at(a.rowPtr), at(a.col), at(a.eid), at(g.coef), at(g.self),
		at(sn.dots), at(g.gSelf))
}

// simdCombineDots adds the dot products of the edges lo..hi-1 to gCoef.
func simdCombineDots(g *gcnNorm, lo, hi int) {
	need(g.gCoef, hi)
	sn := &g.simd
	kCombineDots(at(g.gCoef), at(sn.dots), at(sn.atSrc), at(sn.atDst), int32(lo), int32(hi))
}

// simdDropoutDraw is dropout.draw: the mask of n units from d's stream.
// The kernel steps the PCG's state in place: math/rand/v2's PCG is the
// struct {hi, lo uint64} (TestKernelsDrawAsPCG checks the draws).
func simdDropoutDraw(d *dropout, n int, thresh uint64, scale float64) {
	need(d.mask, n)
	kDropoutDraw(at(d.mask), int32(n), unsafe.Pointer(d.rnd), thresh, scale)
}

func simdNormForward(g *gcnNorm, w []float64) {
	a := g.adj
	need(w, a.e)
	kNormForward(at(g.deg), at(g.r), at(g.self), at(g.coef), at(w), int32(a.n), int32(a.e), at(a.rowPtr), at(a.eid), at(a.src), at(a.dst))
}

func simdNormBackward(g *gcnNorm, gw []float64) {
	a := g.adj
	need(gw, a.e)
	kNormBackward(at(gw), at(g.gR), at(g.gSelf), at(g.gCoef), at(g.r), at(g.w), int32(a.n), int32(a.e), at(a.src), at(a.dst))
}

// simdAddTransposed sets c (m×k) += ctᵀ for ct (k×m).
func simdAddTransposed(c, ct []float64, m, k int) {
	need(c, m*k)
	need(ct, k*m)
	kAddTransposed(at(c), at(ct), int32(m), int32(k))
}

func simdTranspose(t, a []float64, n, m int) {
	need(t, m*n)
	need(a, n*m)
	kTranspose(at(t), at(a), int32(n), int32(m))
}

// simdAdamStep is adam.step's update of one tensor.
func simdAdamStep(a *adam, p *tensor, m, v []float64, step, bc2 float64) {
	n := len(p.val)
	need(p.grad, n)
	need(m, n)
	need(v, n)
	kAdamStep(at(p.val), at(p.grad), at(m), at(v), int32(n), a.wd, adamB1, 1-adamB1, adamB2, 1-adamB2, step, bc2, adamEps)
}
