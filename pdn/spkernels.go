package pdn

import (
	"pdnexplorer/datasets"

	"pdnexplorer/pdn/internal/kernels"
)

// A first layer whose input is the graph's sparse node features
// (datasets.CSR): X·Wᵀ and the weight gradient gᵀ·X by the sparse kernels
// (kernels.SpMulABT, SpAccumATBCols), which cost O(nnz·m) instead of
// O(n·k·m) and give the dense products' bits.

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
		j := newJob(spMulABTRows)
		j.c, j.sx, j.b, j.base, j.m = c[lo*m:hi*m], sx, wt, lo, m
		j.split(hi-lo, float64(hi-lo)*per)
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
		j := newJob(spAccumATBColsJob)
		j.c, j.a, j.sx, j.base, j.n, j.m, j.byCols = ct, g[lo*m:hi*m], sx, lo, hi-lo, m, true
		j.split(m, float64(hi-lo)*per)
		pc.tick(float64(hi-lo) * per)
		lo = hi
	}
	kernels.AddTransposed(c, ct, m, k)
}
