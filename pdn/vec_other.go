//go:build !(goexperiment.simd && amd64) || purego

package pdn

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
