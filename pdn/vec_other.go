//go:build !(goexperiment.simd && amd64)

package pdn

import "time"

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
func outputBackwardVec(l *dense, below, dx, h, g []float64, rows int) bool { return false }

// mulQuadsVec sets no rows here (see wide_asm.go).
func mulQuadsVec(c, a, bt, bias []float64, n, k, m int, rectify bool) int { return 0 }

// quadsVec is false here: mulQuadRows serves nothing (see wide_asm.go).
func quadsVec(bt []float64, k, m int) bool { return false }

func mulQuadRows(c, a [4][]float64, bt, bias []float64, k, m int, rectify bool) {
	panic("pdn: no vectors")
}

// transposedForVectors is nil here: no vectors run.
func transposedForVectors(b []float64, m, k int) ([]float64, *[]float64) { return nil, nil }

func releaseTransposed(*[]float64) {}

// softmaxVec does nothing here (see vec_simd.go).
func (l *gatLayer) softmaxVec(i, lo, hi int) bool { return false }

// aggregate8Vec does nothing here (see vec_simd.go).
func (l *gatLayer) aggregate8Vec(y []float64, i, h int) bool { return false }

// aggregateNarrowVec does nothing here (see vec_simd.go).
func (l *gatLayer) aggregateNarrowVec(y []float64, i int) bool { return false }

// scatterNarrowVec leaves every arc to scatter here (see vec_simd.go).
func (l *gatLayer) scatterNarrowVec(dyh []float64, i int) (int, float64) {
	return int(l.g.rowPtr[i]), 0
}

// scatter8Vec leaves every neighbour to scatter here (see vec_simd.go).
func (l *gatLayer) scatter8Vec(dyh []float64, i, h int) (int, float64) { return int(l.g.rowPtr[i]), 0 }

// attnGradVec does nothing here (see vec_simd.go).
func (l *gatLayer) attnGradVec(i, lo, hi int) bool { return false }

// attnParamGrad8Vec does nothing here (see vec_simd.go).
func attnParamGrad8Vec(gas, gad, gj, whj, as, ad []float64, s, t float64) bool { return false }

// eluGradVec does nothing here (see vec_simd.go).
func eluGradVec(g, x, y []float64) int { return 0 }

// eluVec does nothing here (see vec_simd.go).
func eluVec(dst, x []float64) int { return 0 }

// trainDistinctVec does nothing here (see vec_simd.go).
func trainDistinctVec(vc, o0, o1, o2, o3, o4, o5 []float32, gk *[1 + WalkNegatives]float32) bool {
	return false
}

// scoresVec does nothing here (see vec_simd.go).
func scoresVec(score *[1 + WalkNegatives]float32, vc, o0, o1, o2, o3, o4, o5 []float32) bool {
	return false
}

// padRowsVec is nil here: no vectors run.
func (g *gcnNorm) padRowsVec(h []float64, m int) [][4]float64 { return nil }

// propagateNarrowVec is never called here: padRowsVec is nil.
func (g *gcnNorm) propagateNarrowVec(y []float64, rows [][4]float64, m, lo, hi int) {}

// propagateRowsVec does nothing here (see vec_simd.go).
func (g *gcnNorm) propagateRowsVec(y, h []float64, m, lo, hi int) bool { return false }

// addATBWide does nothing here (see vec_simd.go).
func addATBWide(c, a, b []float64, n, m, k, j0, j1 int) bool { return false }

// mulShortWide does nothing here (see vec_simd.go).
func mulShortWide(c, a, b []float64, n, k, m int) bool { return false }

// mulIntoVec does nothing here (see vec_elem.go).
func mulIntoVec(y, x, m []float64) int { return 0 }

// blendVec and scaleVec do nothing here (see vec_elem.go).
func blendVec(dst, x, y []float64, a, b float64) int { return 0 }
func scaleVec(dst, x []float64, a float64) int       { return 0 }

// sumRowsAddWide does nothing here (see vec_elem.go).
func sumRowsAddWide(c, a []float64, n, m int) bool { return false }

// addToVec does nothing here (see vec_elem.go).
func addToVec(c, v []float64) int { return 0 }

// sumRowsAddVec does nothing here (see vec_elem.go).
func sumRowsAddVec(c, a []float64, n, m int) bool { return false }

// reluVec does nothing here (see vec_elem.go).
func reluVec(y, x []float64) int { return 0 }

// reluBackwardVec does nothing here (see vec_elem.go).
func reluBackwardVec(dx, dy, y []float64) int { return 0 }

// expsVec does nothing here (see vec_elem.go).
func expsVec(dst, src []float64) int { return 0 }

// dropoutMaskVec does nothing here (see vec_elem.go).
func dropoutMaskVec(mask []float64, raw []uint64, thresh uint64, scale float64) int { return 0 }

// headsWide is false here: no AVX-512 paths run.
func (l *gatLayer) headsWide() bool { return false }

// scoresHeadsWide is never called here: headsWide is false.
func (l *gatLayer) scoresHeadsWide() {}

// scatterHeadsWide does nothing here (see vec_simd.go).
func (l *gatLayer) scatterHeadsWide(dyi []float64, i int) bool { return false }

// attnParamGradHeadsWide is never called here: headsWide is false.
func (l *gatLayer) attnParamGradHeadsWide() {}

// aggregateHeadsWide does nothing here (see vec_simd.go).
func (l *gatLayer) aggregateHeadsWide(y []float64, i int) bool { return false }

// chooseWidth does nothing here: the scalar loops are the only ones.
func chooseWidth() {}

// vectorKernels says this build has no vector kernels (vectorsSetting).
const vectorKernels = false

// vectorWidths are the widths this build runs: scalar only.
func vectorWidths() []string { return []string{widthScalar} }

// VectorWidth is "scalar" here: no vectors are built in.
func VectorWidth() (string, map[string]time.Duration) { return "scalar", nil }

// wideBlocks is false here: no AVX-512 paths (see vec_simd.go).
func wideBlocks(int) (int, bool) { return 0, false }

// addATBWideBlocks is never called here (see wideBlocks).
func addATBWideBlocks(c, a, b []float64, n, m, k, q0, q1 int) {}
