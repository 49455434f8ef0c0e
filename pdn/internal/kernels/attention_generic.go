//go:build !(goexperiment.simd && amd64) || purego

package kernels

// softmaxVec does nothing here (see attention_simd.go).
func (l *Attention) softmaxVec(i, lo, hi int) bool { return false }

// aggregate8Vec does nothing here (see attention_simd.go).
func (l *Attention) aggregate8Vec(y []float64, i, h int) bool { return false }

// aggregateNarrowVec does nothing here (see attention_simd.go).
func (l *Attention) aggregateNarrowVec(y []float64, i int) bool { return false }

// scatterNarrowVec leaves every arc to scatter here (see attention_simd.go).
func (l *Attention) scatterNarrowVec(dyh []float64, i int) (int, float64) {
	return int(l.RowPtr[i]), 0
}

// scatter8Vec leaves every neighbour to scatter here (see attention_simd.go).
func (l *Attention) scatter8Vec(dyh []float64, i, h int) (int, float64) { return int(l.RowPtr[i]), 0 }

// attnGradVec does nothing here (see attention_simd.go).
func (l *Attention) attnGradVec(i, lo, hi int) bool { return false }

// attnParamGrad8Vec does nothing here (see attention_simd.go).
func attnParamGrad8Vec(gas, gad, gj, whj, as, ad []float64, s, t float64) bool { return false }

// headsWide is false here: no AVX-512 paths run.
func (l *Attention) headsWide() bool { return false }

// scoresHeadsWide is never called here: headsWide is false.
func (l *Attention) scoresHeadsWide(aSrc, aDst []float64) {}

// scatterHeadsWide does nothing here (see attention_simd.go).
func (l *Attention) scatterHeadsWide(dyi []float64, i int) bool { return false }

// paramGradsHeadsWide is never called here: headsWide is false.
func (l *Attention) paramGradsHeadsWide(aSrc, aDst, gaSrc, gaDst []float64) {}

// aggregateHeadsWide does nothing here (see attention_simd.go).
func (l *Attention) aggregateHeadsWide(y []float64, i int) bool { return false }
