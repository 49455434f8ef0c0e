package kernels

// Products with a sparse matrix in compressed sparse rows (the graph's
// node features, datasets.CSR): row i's non-zeros are val[p] in the
// columns col[p] (each below cols) for p from ptr[i] to ptr[i+1]. X·Wᵀ
// and the weight gradient gᵀ·X then cost O(nnz·m) rather than O(n·k·m).
// Each sum adds the non-zero products in the order the dense sum adds
// them, whose other terms are exact zeros, which change no sum: the bits
// are the dense kernels'.

// SpMulABT sets the rows lo..hi-1 of a·bᵀ, for the sparse a and b (m×cols)
// given as bt = bᵀ (cols×m), into c ((hi−lo)×m, from its first row): row i
// sums v·bt[j] over the row's non-zeros (j, v) in order, from 0.
func SpMulABT(c []float64, ptr []int, col []int32, val []float64, cols, lo, hi int, bt []float64, m int) {
	c, ptr, bt = fit(c, (hi-lo)*m), fit(ptr, hi+1), fit(bt, cols*m)
	if simd128 {
		wasmSpMulABT(c, ptr, col, val, cols, lo, hi, bt, m)
		return
	}
	for i := lo; i < hi; i++ {
		ci := c[(i-lo)*m : (i-lo+1)*m]
		clear(ci)
		for p := ptr[i]; p < ptr[i+1]; p++ {
			v, j := val[p], int(col[p])
			row := bt[j*m : (j+1)*m]
			row = row[:len(ci)]
			for o := range ci {
				ci[o] += float64(v * row[o])
			}
		}
	}
}

// SpAccumATBCols adds to the columns o0..o1 of ct (cols×m) the rows
// lo..hi-1 of bᵀ·a, for the sparse b and dense a ((hi−lo)×m, from its
// first row): the transposed weight gradient, one contiguous row of ct
// per feature. Each entry sums over the rows in the same order, whatever
// the range of columns, so ranges can run at once.
func SpAccumATBCols(ct, a []float64, ptr []int, col []int32, val []float64, cols, lo, hi, m, o0, o1 int) {
	ct, a, ptr = fit(ct, cols*m), fit(a, (hi-lo)*m), fit(ptr, hi+1)
	if simd128 {
		wasmSpAccumATB(ct, a, ptr, col, val, cols, lo, hi, m, o0, o1)
		return
	}
	for i := lo; i < hi; i++ {
		ai := a[(i-lo)*m+o0 : (i-lo)*m+o1]
		for p := ptr[i]; p < ptr[i+1]; p++ {
			v, j := val[p], int(col[p])
			row := ct[j*m+o0 : j*m+o1]
			row = row[:len(ai)]
			for o, g := range ai {
				row[o] += float64(v * g)
			}
		}
	}
}

// AddTransposed sets c (m×k) += ctᵀ for ct (k×m): the weight gradient
// SpAccumATBCols summed transposed, in W's layout.
func AddTransposed(c, ct []float64, m, k int) {
	c, ct = fit(c, m*k), fit(ct, k*m)
	if simd128 {
		wasmAddTransposed(c, ct, m, k)
		return
	}
	for o := 0; o < m; o++ {
		co := c[o*k : (o+1)*k]
		for j := range co {
			co[j] += ct[j*m+o]
		}
	}
}
