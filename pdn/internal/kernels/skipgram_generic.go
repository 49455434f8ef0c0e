//go:build !(goexperiment.simd && amd64) || purego

package kernels

// trainDistinctVec does nothing here (see skipgram_simd.go).
func trainDistinctVec(vc, o0, o1, o2, o3, o4, o5 []float32, gk *[WalkTargets]float32) bool {
	return false
}

// scoresVec does nothing here (see skipgram_simd.go).
func scoresVec(score *[WalkTargets]float32, vc, o0, o1, o2, o3, o4, o5 []float32) bool {
	return false
}

// gradVec does nothing here (see skipgram_simd.go).
func gradVec(grad, vc, o0, o1, o2, o3, o4, o5 []float32, gk *[WalkTargets]float32) bool {
	return false
}
