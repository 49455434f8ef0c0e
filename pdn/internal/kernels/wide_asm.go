//go:build goexperiment.simd && amd64 && !purego

package kernels

import "unsafe"

// The pathfinder's two products, the edges' features times the first
// layer's weights and that layer's weight gradient, are written for AVX-512
// by hand (wide_amd64.s): Go's compiler gives vectors sixteen registers
// and moves broadcasts through the floating-point pipes, so its loops
// spilled the sums of a 2×32 block to the stack every step and ran at a
// fifth of the core's peak. In assembly a block of 4 rows × 32 columns
// keeps its 16 sums beside their operands in the 32 registers, and the
// fold keeps two rows of the gradient while a tile of rows streams past.
// Each does the multiplies and adds of mulPairWide and foldRowWide, never
// fused, in their order, so the bits stay (TestVectorsKeepTheBits).

//go:noescape
func mulQuadWide(c0, c1, c2, c3, a0, a1, a2, a3, bt, bias *float64, k, m int, rectify bool)

//go:noescape
func foldTileWide(c, a, b, next *float64, rows, groups, k, m, fetch int)

// mulQuadsVec sets rows [0, 4·⌊n/4⌋) of c (n×m) = a (n×k) · bt + bias
// (no bias if nil), then ReLU if rectify, four rows a call, and returns how
// many rows it set: 0 unless quadsVec serves the shapes.
func mulQuadsVec(c, a, bt, bias []float64, n, k, m int, rectify bool) int {
	if !quadsVec(bt, k, m) || n < 4 {
		return 0
	}
	rows := n &^ 3
	c, a, bt = c[:rows*m], a[:rows*k], bt[:k*m]
	var b *float64
	if bias != nil {
		b = &bias[:m][0]
	}
	for i := 0; i < rows; i += 4 {
		c0, a0 := &c[i*m], &a[i*k]
		mulQuadWide(c0, past(c0, m), past(c0, 2*m), past(c0, 3*m), a0, past(a0, k), past(a0, 2*k), past(a0, 3*k), &bt[0], b, k, m, rectify)
	}
	return rows
}

// past is p advanced by n values; the callers check the bounds first.
func past(p *float64, n int) *float64 { return (*float64)(unsafe.Add(unsafe.Pointer(p), 8*n)) }

// mulQuadRowsVec sets c_r = a_r · bt + bias (then ReLU if rectify) for four
// rows given apart, each of c at least m long and of a at least k long,
// when quadsVec serves the shapes.
func mulQuadRowsVec(c, a [4][]float64, bt, bias []float64, k, m int, rectify bool) {
	for r := range 4 {
		c[r], a[r] = c[r][:m], a[r][:k]
	}
	bt = bt[:k*m]
	var b *float64
	if bias != nil {
		b = &bias[:m][0]
	}
	mulQuadWide(&c[0][0], &c[1][0], &c[2][0], &c[3][0], &a[0][0], &a[1][0], &a[2][0], &a[3][0], &bt[0], b, k, m, rectify)
}

// quadsVec reports whether mulQuadRowsVec serves a product c = a·bt of k
// terms and m columns: with AVX-512, bt given, and m a multiple of 32.
func quadsVec(bt []float64, k, m int) bool { return wide && bt != nil && m%32 == 0 && m > 0 && k > 0 }
