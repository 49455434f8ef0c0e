package pdn

import (
	"math"
	"slices"

	"pdnexplorer/datasets"

	"pdnexplorer/pdn/internal/kernels"
)

// A first layer whose input is the graph's sparse node features
// (datasets.CSR): X·Wᵀ and the weight gradient gᵀ·X by the sparse kernels
// (kernels.SpMulABT, SpAccumATBCols), which cost O(nnz·m) instead of
// O(n·k·m) and give the dense products' bits.

// xMulWT sets c (n×m) = x·Wᵀ for a layer's input, dense x (n×k) or sparse
// sx, and W (m×k); wt (k×m) is scratch for Wᵀ.
func (pc *pacer) xMulWT(c, x []float64, sx *datasets.CSR, w, wt []float64, n, k, m int) {
	if sx == nil {
		pc.mulABT(c, x, w, n, k, m)
		return
	}
	kernels.Transpose(wt, w, m, k)
	rows := csrRows(sx, m)
	for lo := 0; lo < n; {
		hi := pc.blockEndRows(lo, n, rows)
		j := newRowsJob(spMulABTRows, rows)
		j.c, j.sx, j.b, j.base, j.m = c[lo*m:hi*m], sx, wt, lo, m
		work := rows.at(hi) - rows.at(lo)
		j.split(hi-lo, work)
		pc.tick(work)
		lo = hi
	}
}

// addGTX adds gᵀ·x (m×k) to c, the gradient of W for the output gradient g
// (n×m) and the layer's input, dense x or sparse sx; ct (k×m) is scratch.
// With xt (the layer's transpose of sx; nil keeps none) the sparse
// product runs as xt's rows times g: see transposed.
func (pc *pacer) addGTX(c, g, x []float64, sx *datasets.CSR, xt *transposed, ct []float64, n, m, k int) {
	switch {
	case sx == nil:
		pc.addATB(c, g, x, n, m, k)
		return
	case xt != nil && n == sx.Rows && sx.NNZ() <= math.MaxInt32 && transposeSparse:
		pc.xtMulG(ct, g, xt.of(sx), m)
	default:
		pc.accumGTX(ct, g, sx, n, m, k)
	}
	kernels.AddTransposed(c, ct, m, k)
}

// transposeSparse turns the sparse weight gradient's path through Xᵀ on;
// tests compare it with the path over X's rows.
var transposeSparse = true

// xtMulG sets ct (k×m) = xt·g for xt = Xᵀ (k×n) and g (n×m): blocks of
// xt's rows (features), each split by rows across the threads.
func (pc *pacer) xtMulG(ct, g []float64, xt *datasets.CSR, m int) {
	rows := csrRows(xt, m)
	for lo := 0; lo < xt.Rows; {
		hi := pc.blockEndRows(lo, xt.Rows, rows)
		j := newRowsJob(spMulABTRows, rows)
		j.c, j.sx, j.b, j.base, j.m = ct[lo*m:hi*m], xt, g, lo, m
		work := rows.at(hi) - rows.at(lo)
		j.split(hi-lo, work)
		pc.tick(work)
		lo = hi
	}
}

// accumGTX sets ct (k×m) = (gᵀ·sx)ᵀ over the rows of sx in order, split
// by the columns of ct: each piece reads every non-zero.
func (pc *pacer) accumGTX(ct, g []float64, sx *datasets.CSR, n, m, k int) {
	clear(ct[:k*m])
	rows := csrRows(sx, m)
	for lo := 0; lo < n; {
		hi := pc.blockEndRows(lo, n, rows)
		j := newJob(spAccumATBColsJob)
		j.c, j.a, j.sx, j.base, j.n, j.m, j.byCols = ct, g[lo*m:hi*m], sx, lo, hi-lo, m, true
		work := rows.at(hi) - rows.at(lo)
		j.split(m, work)
		pc.tick(work)
		lo = hi
	}
}

// transposed is a layer's copy of its sparse input X (n×k) transposed,
// for the weight gradient: (gᵀ·X)ᵀ = Xᵀ·g. Summed over X's rows in order,
// as accumGTX does, each entry of feature f adds the products of f's
// non-zeros in order of their rows; Xᵀ's row f holds those non-zeros in
// that order, and SpMulABT sums a row's in order from 0: the same sums,
// the same bits. But Xᵀ·g splits by features, each piece reading its own
// non-zeros, where accumGTX's pieces each read all of them (on 2 threads
// in the page the product took 4 times the single thread's work).
//
// X's pattern is the graph's and does not change. Its values are
// gathered when they may have: at the first use, when X's values are
// another slice (GAT's input dropout trains on a copy of them and
// evaluates on the graph's), or after changed (the dropout's new mask in
// that copy).
type transposed struct {
	src  *datasets.CSR // the X t was built from,
	col  *int32        // with this pattern
	val  *float64      // and the values gathered last
	t    datasets.CSR
	from []int32 // t.Val[q] is X.Val[from[q]]
}

// of returns Xᵀ with x's values, building its pattern at the first use
// (or when x is another matrix).
func (xt *transposed) of(x *datasets.CSR) *datasets.CSR {
	if xt.src != x || xt.col != first(x.Col) || len(xt.from) != x.NNZ() {
		xt.build(x)
	}
	if v := first(x.Val); xt.val != v {
		for q, p := range xt.from {
			xt.t.Val[q] = x.Val[p]
		}
		xt.val = v
	}
	return &xt.t
}

// changed says X's values changed in place: the next use gathers them.
func (xt *transposed) changed() { xt.val = nil }

// build counts each column's non-zeros, then places them row by row: a
// column's entries land in order of their rows.
func (xt *transposed) build(x *datasets.CSR) {
	nnz := x.NNZ()
	t := datasets.CSR{Rows: x.Cols, Cols: x.Rows, Ptr: make([]int, x.Cols+1), Col: make([]int32, nnz), Val: make([]float64, nnz)}
	for _, j := range x.Col {
		t.Ptr[j+1]++
	}
	for j := range x.Cols {
		t.Ptr[j+1] += t.Ptr[j]
	}
	next := slices.Clone(t.Ptr[:x.Cols])
	from := make([]int32, nnz)
	for i := range x.Rows {
		for p := x.Ptr[i]; p < x.Ptr[i+1]; p++ {
			j := x.Col[p]
			q := next[j]
			next[j]++
			t.Col[q], from[q] = int32(i), int32(p)
		}
	}
	xt.src, xt.col, xt.val, xt.t, xt.from = x, first(x.Col), nil, t, from
}

// first is &s[0], or nil for an empty s: which array a slice starts.
func first[T any](s []T) *T {
	if len(s) == 0 {
		return nil
	}
	return &s[0]
}
