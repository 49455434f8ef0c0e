package pdn

import (
	"pdnexplorer/datasets"
	"pdnexplorer/pdn/internal/kernels"
)

// The browser's worker is built with the simd128 tag: its hot loops then
// run in kernels.wasm (pdn/internal/kernels/c/kernels.c), a WebAssembly
// module with 128-bit SIMD that shares this program's memory, where it
// loaded (kernels.SIMD128); else, and in every other build, where
// kernels.SIMD128 is a constant false and the compiler drops the branches,
// the Go loops run. Either way the bits are the same (the golden and zoo
// digests check it under Node with the kernels loaded: make test-wasm).
// The functions below hand the kernels the engine's arrays; none of them
// is platform code.

func simdMulABT(c, a, b, bias, keep []float64, n, k, m int) {
	kernels.WasmMulABT(c, a, b, bias, keep, n, k, m)
}

func simdAddATB(c, a, b []float64, n, m, k int) { kernels.WasmAddATB(c, a, b, n, m, k) }

func simdAccumulateEdges(g *gcnNorm, dy, h []float64, m, lo, hi int) {
	kernels.WasmAccumulateEdges(g.gCoef, dy, h, g.adj.n, m, lo, hi, g.adj.src, g.adj.dst)
}

func simdAccumulateSelf(g *gcnNorm, dy, h []float64, m int) {
	kernels.WasmAccumulateSelf(g.gSelf, dy, h, g.adj.n, m)
}

func simdSpMulABT(c []float64, a *datasets.CSR, lo, hi int, bt []float64, m int) {
	kernels.WasmSpMulABT(c, a.Ptr, a.Col, a.Val, a.Cols, lo, hi, bt, m)
}

func simdSpAccumATB(ct, a []float64, b *datasets.CSR, lo, hi, m int) {
	kernels.WasmSpAccumATB(ct, a, b.Ptr, b.Col, b.Val, b.Cols, lo, hi, m)
}

// simdPathfinder1 reports whether the fused kernels serve p: one hidden
// layer of a multiple of 8 units, at most 64.
func simdPathfinder1(p *pathfinder) bool {
	if !kernels.SIMD128() || len(p.layers) != 2 {
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
	kernels.Transpose(l0.wt, l0.w.val, nh, d)
	kernels.WasmPathfinder1Forward(p.acts[1], p.acts[2], p.w, p.acts[0], l0.wt, l0.b.val, l1.w.val, l1.b.val[0], keep, lo, hi, d, nh)
}

// simdPathfinderBackward is p's backward pass from gw for the rows
// lo..hi-1 (lo a multiple of 4).
func simdPathfinderBackward(p *pathfinder, gw []float64, lo, hi int) {
	l0, l1 := p.layers[0], p.layers[1]
	d, nh := l0.in, l0.out
	kernels.WasmPathfinder1Backward(l0.w.grad, l0.b.grad, l1.w.grad, l1.b.grad, gw, p.w, p.acts[1], p.acts[0], l1.w.val, lo, hi, d, nh)
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
	sn := &g.simd
	if len(sn.dots) != 2*a.e {
		sn.dots = make([]float64, 2*a.e)
		sn.atSrc, sn.atDst = a.slots()
	}
	kernels.WasmPropagateDots(y, dy, h, a.n, m, lo, hi, a.rowPtr, a.col, a.eid, g.Coef, g.Self, sn.dots, g.gSelf)
}

// simdCombineDots adds the dot products of the edges lo..hi-1 to gCoef.
func simdCombineDots(g *gcnNorm, lo, hi int) {
	kernels.WasmCombineDots(g.gCoef, g.simd.dots, g.simd.atSrc, g.simd.atDst, lo, hi)
}

// simdDropoutDraw is dropout.draw: the mask of n units from d's stream.
func simdDropoutDraw(d *dropout, n int, thresh uint64, scale float64) {
	kernels.WasmDropoutDraw(d.mask, n, d.rnd, thresh, scale)
}

func simdNormForward(g *gcnNorm, w []float64) {
	a := g.adj
	kernels.WasmNormForward(g.deg, g.r, g.Self, g.Coef, w, a.n, a.e, a.rowPtr, a.eid, a.src, a.dst)
}

func simdNormBackward(g *gcnNorm, gw []float64) {
	a := g.adj
	kernels.WasmNormBackward(gw, g.gR, g.gSelf, g.gCoef, g.r, g.w, a.n, a.e, a.src, a.dst)
}

// simdAddTransposed sets c (m×k) += ctᵀ for ct (k×m).
func simdAddTransposed(c, ct []float64, m, k int) { kernels.WasmAddTransposed(c, ct, m, k) }

// simdAdamStep is adam.step's update of one tensor.
func simdAdamStep(a *adam, p *tensor, m, v []float64, step, bc2 float64) {
	kernels.WasmAdamStep(p.val, p.grad, m, v, a.wd, adamB1, 1-adamB1, adamB2, 1-adamB2, step, bc2, adamEps)
}
