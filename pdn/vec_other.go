//go:build !(goexperiment.simd && amd64)

package pdn

// vectors is false without GOEXPERIMENT=simd on amd64 (and always in
// WebAssembly): the scalar loops do all the work.
const vectors = false

// foldPairVec does nothing here (see vec_simd.go).
func foldPairVec(cj, cn, b0, b1, b2, b3 []float64, s0, s1, s2, s3, t0, t1, t2, t3 float64) int {
	return 0
}

// mulPairVec does nothing here (see vec_simd.go).
func mulPairVec(c0, c1, a0, a1, bt, bias []float64) int { return 0 }

// transposedForVectors is nil here: no vectors run.
func transposedForVectors(b []float64, m, k int) ([]float64, *[]float64) { return nil, nil }

func releaseTransposed(*[]float64) {}
