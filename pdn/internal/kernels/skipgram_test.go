package kernels

import (
	"math"
	"math/rand/v2"
	"testing"
)

// SkipGramScores (scoresVec's vectors where they run) must give WalkDot's bits.
func TestScoresVecIsWalkDot(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	row := func() []float32 { return embeddingRow(rnd) }
	for range 100 {
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
	dims := []int{WalkDim, 128, 16, 40} // DeepWalk's, LINE's, 16 (eight lanes at either width), 40 (the loop alone)
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

// embeddingRow is a random skip-gram vector of DeepWalk's.
func embeddingRow(rnd *rand.Rand) []float32 { return embeddingRowOf(rnd, WalkDim) }

// embeddingRowOf is a random skip-gram vector of d values.
func embeddingRowOf(rnd *rand.Rand, d int) []float32 {
	r := make([]float32, d)
	for i := range r {
		r[i] = float32(rnd.NormFloat64())
	}
	return r
}
