package kernels

import (
	"math"
	"math/rand/v2"
	"testing"
)

// SkipGramScores (scoresVec's vectors where they run) must give WalkDot's
// bits, at DeepWalk's 64 dimensions and at the others' (M2V's 32, LINE's
// 128, MNE's 200).
func TestScoresVecIsWalkDot(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	dims := []int{WalkDim, 32, 128, 200}
	for i := range 100 {
		d := dims[i%len(dims)]
		row := func() []float32 { return embeddingRowOf(rnd, d) }
		vc, o := row(), [6][]float32{row(), row(), row(), row(), row(), row()}
		var got [WalkTargets]float32
		SkipGramScores(&got, vc, o[0], o[1], o[2], o[3], o[4], o[5])
		for k := range got {
			if want := WalkDot(vc, o[k]); math.Float32bits(got[k]) != math.Float32bits(want) {
				t.Fatalf("target %d: %v, want %v", k, got[k], want)
			}
		}
	}
}

// SkipGramStep's vectors (eight lanes, or sixteen with AVX-512) must
// give the bits of its reference loop, written out here: each dimension's
// gradient sums the six targets' terms in order, each target moves by its
// own step, then the centre by the gradient.
func TestTrainDistinctKeepsTheBits(t *testing.T) { eachWidth(t, testTrainDistinctKeepsTheBits) }

func testTrainDistinctKeepsTheBits(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 6))
	dims := []int{WalkDim, 128, 16, 200, 36} // DeepWalk's, LINE's, 16 (eight lanes at either width), MNE's 200 (eight lanes), 36 (the loop alone)
	for i := range 50 {
		d := dims[i%len(dims)]
		row := func() []float32 { return embeddingRowOf(rnd, d) }
		vc, o := row(), [6][]float32{row(), row(), row(), row(), row(), row()}
		var gk [WalkTargets]float32
		for k := range gk {
			gk[k] = float32(rnd.NormFloat64() / 40)
		}
		wantC, wantO := append([]float32(nil), vc...), [6][]float32{}
		for k := range o {
			wantO[k] = append([]float32(nil), o[k]...)
		}
		for d := range wantC {
			var g float32
			for k := range wantO {
				y := wantO[k][d]
				g += float32(gk[k] * y)
				wantO[k][d] = y + float32(gk[k]*wantC[d])
			}
			wantC[d] += g
		}
		SkipGramStep(vc, o[0], o[1], o[2], o[3], o[4], o[5], &gk)
		for d := range vc {
			if math.Float32bits(vc[d]) != math.Float32bits(wantC[d]) {
				t.Fatalf("centre, dimension %d: %v, want %v", d, vc[d], wantC[d])
			}
			for k := range o {
				if math.Float32bits(o[k][d]) != math.Float32bits(wantO[k][d]) {
					t.Fatalf("target %d, dimension %d: %v, want %v", k, d, o[k][d], wantO[k][d])
				}
			}
		}
	}
}

// embeddingRowOf is a random skip-gram vector of d values.
func embeddingRowOf(rnd *rand.Rand, d int) []float32 {
	r := make([]float32, d)
	for i := range r {
		r[i] = float32(rnd.NormFloat64())
	}
	return r
}

// SkipGramGrad's vectors must give the bits of its reference loop, written
// out here: the gradient sums the six targets' terms in order, each target
// moves by its own step, and the centre stays as it is.
func TestSkipGramGradKeepsTheBits(t *testing.T) { eachWidth(t, testSkipGramGradKeepsTheBits) }

func testSkipGramGradKeepsTheBits(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 8))
	for i, d := range []int{200, WalkDim, 16, 36, 200, 128} {
		row := func() []float32 { return embeddingRowOf(rnd, d) }
		vc, o := row(), [6][]float32{row(), row(), row(), row(), row(), row()}
		var gk [WalkTargets]float32
		for k := range gk {
			gk[k] = float32(rnd.NormFloat64() / 40)
		}
		centre, wantO, wantG := append([]float32(nil), vc...), [6][]float32{}, make([]float32, d)
		for k := range o {
			wantO[k] = append([]float32(nil), o[k]...)
		}
		for j := range wantG {
			for k := range wantO {
				y := wantO[k][j]
				wantG[j] += float32(gk[k] * y)
				wantO[k][j] = y + float32(gk[k]*centre[j])
			}
		}
		grad := make([]float32, d)
		SkipGramGrad(grad, vc, o[0], o[1], o[2], o[3], o[4], o[5], &gk)
		for j := range grad {
			if math.Float32bits(grad[j]) != math.Float32bits(wantG[j]) || math.Float32bits(vc[j]) != math.Float32bits(centre[j]) {
				t.Fatalf("case %d, dimension %d: gradient %v, want %v; centre %v, was %v", i, j, grad[j], wantG[j], vc[j], centre[j])
			}
			for k := range o {
				if math.Float32bits(o[k][j]) != math.Float32bits(wantO[k][j]) {
					t.Fatalf("case %d, target %d, dimension %d: %v, want %v", i, k, j, o[k][j], wantO[k][j])
				}
			}
		}
	}
}
