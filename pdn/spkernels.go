package pdn

import (
	"pdnexplorer/datasets"

	"pdnexplorer/pdn/internal/kernels"
)

// Kernels for a first layer whose input is the graph's sparse node
// features (datasets.CSR): X·Wᵀ and the weight gradient gᵀ·X cost
// O(nnz·m) instead of O(n·k·m). Plain loops, as the dense kernels, so that
// native and wasm give the same bits.

// spMulABT sets the rows lo..hi of c (n×m) = a·bᵀ, for sparse a (n×k) and b
// (m×k) given as bt = bᵀ (k×m): row i of c sums v·bt[j] over the row's
// non-zeros (j, v) in column order. mulABT's dense sum adds the same
// non-zero products in the same order, and its other terms are exact
// zeros, which change no sum: the result has the same bits.
func spMulABT(c []float64, a *datasets.CSR, lo, hi int, bt []float64, m int) {
	for i := lo; i < hi; i++ {
		ci := c[(i-lo)*m : (i-lo+1)*m]
		clear(ci)
		for p := a.Ptr[i]; p < a.Ptr[i+1]; p++ {
			v, j := a.Val[p], int(a.Col[p])
			row := bt[j*m : (j+1)*m]
			row = row[:len(ci)]
			for o := range ci {
				ci[o] += float64(v * row[o])
			}
		}
	}
}

// spAccumATBCols adds to the columns o0..o1 of ct (k×m) the rows lo..hi
// of bᵀ·a, for sparse b (n×k) and dense a (n×m) whose rows lo..hi are
// given: the transposed weight gradient, one contiguous row of ct per
// feature. Each entry sums over the rows in the same order, whatever the
// range of columns, so ranges can run at once.
func spAccumATBCols(ct, a []float64, b *datasets.CSR, lo, hi, m, o0, o1 int) {
	for i := lo; i < hi; i++ {
		ai := a[(i-lo)*m+o0 : (i-lo)*m+o1]
		for p := b.Ptr[i]; p < b.Ptr[i+1]; p++ {
			v, j := b.Val[p], int(b.Col[p])
			row := ct[j*m+o0 : j*m+o1]
			row = row[:len(ai)]
			for o, g := range ai {
				row[o] += float64(v * g)
			}
		}
	}
}

// perRow is the mean work of a sparse row times m, for the pacer.
func perRow(a *datasets.CSR, m int) float64 {
	return float64(m) * float64(a.NNZ()) / float64(max(a.Rows, 1))
}

// xMulWT sets c (n×m) = x·Wᵀ for a layer's input, dense x (n×k) or sparse
// sx, and W (m×k); wt (k×m) is scratch for Wᵀ.
func (pc *pacer) xMulWT(c, x []float64, sx *datasets.CSR, w, wt []float64, n, k, m int) {
	if sx == nil {
		pc.mulABT(c, x, w, n, k, m)
		return
	}
	kernels.Transpose(wt, w, m, k)
	per := perRow(sx, m)
	for lo := 0; lo < n; {
		hi := pc.blockEnd(lo, n, per)
		if kernels.SIMD128() {
			simdSpMulABT(c[lo*m:hi*m], sx, lo, hi, wt, m)
		} else {
			j := newJob(spMulABTRows)
			j.c, j.sx, j.b, j.base, j.m = c[lo*m:hi*m], sx, wt, lo, m
			j.split(hi-lo, float64(hi-lo)*per)
		}
		pc.tick(float64(hi-lo) * per)
		lo = hi
	}
}

// addGTX adds gᵀ·x (m×k) to c, the gradient of W for the output gradient g
// (n×m) and the layer's input, dense x or sparse sx; ct (k×m) is scratch.
func (pc *pacer) addGTX(c, g, x []float64, sx *datasets.CSR, ct []float64, n, m, k int) {
	if sx == nil {
		pc.addATB(c, g, x, n, m, k)
		return
	}
	clear(ct[:k*m])
	per := perRow(sx, m)
	for lo := 0; lo < n; {
		hi := pc.blockEnd(lo, n, per)
		if kernels.SIMD128() {
			simdSpAccumATB(ct, g[lo*m:hi*m], sx, lo, hi, m)
		} else {
			j := newJob(spAccumATBColsJob)
			j.c, j.a, j.sx, j.base, j.n, j.m = ct, g[lo*m:hi*m], sx, lo, hi-lo, m
			j.split(m, float64(hi-lo)*per)
		}
		pc.tick(float64(hi-lo) * per)
		lo = hi
	}
	if kernels.SIMD128() {
		simdAddTransposed(c, ct, m, k)
		return
	}
	for o := 0; o < m; o++ {
		co := c[o*k : (o+1)*k]
		for j := range co {
			co[j] += ct[j*m+o]
		}
	}
}
