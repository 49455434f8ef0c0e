//go:build !(goexperiment.simd && amd64) || purego

package kernels

// vectors is false without GOEXPERIMENT=simd on amd64 (and always in
// WebAssembly): the scalar loops do all the work.
const vectors = false

// setWide does nothing here: there are no AVX-512 paths (see vec_simd.go).
func setWide(bool) bool { return false }

// foldPairVec does nothing here (see vec_simd.go).
func foldPairVec(cj, cn, b0, b1, b2, b3 []float64, s0, s1, s2, s3, t0, t1, t2, t3 float64) int {
	return 0
}

// mulPairVec does nothing here (see vec_simd.go).
func mulPairVec(c0, c1, a0, a1, bt, bias []float64) int { return 0 }

// sigmoidsVec sets none here (see vec_simd.go).
func sigmoidsVec(w, s, keep []float64) int { return 0 }

// outputBackwardVec does nothing here (see vec_simd.go).
func outputBackwardVec(wGrad, bGrad, wVal, below, dx, h, g []float64, in, rows int) bool {
	return false
}

// mulQuadsVec sets no rows here (see wide_asm.go).
func mulQuadsVec(c, a, bt, bias []float64, n, k, m int, rectify bool) int { return 0 }

// quadsVec is false here: mulQuadRowsVec serves nothing (see wide_asm.go).
func quadsVec(bt []float64, k, m int) bool { return false }

// mulQuadRowsVec is never called here: quadsVec is false.
func mulQuadRowsVec(c, a [4][]float64, bt, bias []float64, k, m int, rectify bool) {}

// TransposedForVectors is nil here: no vectors run.
func TransposedForVectors(b []float64, m, k int) ([]float64, *[]float64) { return nil, nil }

// ReleaseTransposed gives nothing back here.
func ReleaseTransposed(*[]float64) {}

// eluGradVec does nothing here (see vec_simd.go).
func eluGradVec(g, x, y []float64) int { return 0 }

// eluVec does nothing here (see vec_simd.go).
func eluVec(dst, x []float64) int { return 0 }

// addATBWide does nothing here (see vec_simd.go).
func addATBWide(c, a, b []float64, n, m, k, j0, j1 int) bool { return false }

// mulShortWide does nothing here (see vec_simd.go).
func mulShortWide(c, a, b []float64, n, k, m int) bool { return false }

// mulIntoVec does nothing here (see elem_simd.go).
func mulIntoVec(y, x, m []float64) int { return 0 }

// blendVec and scaleVec do nothing here (see elem_simd.go).
func blendVec(dst, x, y []float64, a, b float64) int { return 0 }
func scaleVec(dst, x []float64, a float64) int       { return 0 }

// sumRowsAddWide does nothing here (see elem_simd.go).
func sumRowsAddWide(c, a []float64, n, m int) bool { return false }

// addToVec does nothing here (see elem_simd.go).
func addToVec(c, v []float64) int { return 0 }

// sumRowsAddVec does nothing here (see elem_simd.go).
func sumRowsAddVec(c, a []float64, n, m int) bool { return false }

// reluVec does nothing here (see elem_simd.go).
func reluVec(y, x []float64) int { return 0 }

// reluBackwardVec does nothing here (see elem_simd.go).
func reluBackwardVec(dx, dy, y []float64) int { return 0 }

// expsVec does nothing here (see elem_simd.go).
func expsVec(dst, src []float64) int { return 0 }

// dropoutMaskVec does nothing here (see elem_simd.go).
func dropoutMaskVec(mask []float64, raw []uint64, thresh uint64, scale float64) int { return 0 }

// wideBlocks is false here: no AVX-512 paths (see vec_simd.go).
func wideBlocks(int) (int, bool) { return 0, false }

// addATBBlocksVec is never called here: wideBlocks is false.
func addATBBlocksVec(c, a, b []float64, n, m, k, q0, q1 int) {}

// built says this build has no vector kernels.
const built = false

// widths are the widths this build runs: scalar only.
func widths() []string { return []string{Scalar} }

// setVectors does nothing here: there are no vector paths.
func setVectors(bool) bool { return false }
