package pdn

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The alias table must give each node its share of the noise
// distribution, c^¾ / Σ c^¾, exactly up to rounding: slot i keeps i with
// probability prob[i] and gives the rest to alias[i], each slot 1/n of the
// draws. Nodes that never occur (count 0) must never be drawn, and the
// draws must follow the shares.
func TestNoiseIsTheNoiseDistribution(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name   string
		counts []int
	}{
		{"one node", []int{3}},
		{"even", []int{1, 1, 1, 1}},
		{"skewed", []int{1000, 1, 1, 0, 0, 5, 1}},
		{"zeros at the ends", []int{0, 0, 2, 7, 0, 0}},
		{"random", randomCounts(rnd, 500)},
	} {
		var ws [][]int32
		for v, c := range tc.counts {
			for range c {
				ws = append(ws, []int32{int32(v)})
			}
		}
		n := len(tc.counts)
		nz := newNoise(n, ws)
		var total float64
		for _, c := range tc.counts {
			total += math.Pow(float64(c), 0.75)
		}
		mass := make([]float64, n)
		for i, slot := range nz.slots {
			mass[i] += slot.prob / float64(n)
			mass[slot.alias] += (1 - slot.prob) / float64(n)
		}
		draws := make([]int, n)
		const many = 200000
		for range many {
			draws[nz.draw(rnd.Float64())]++
		}
		for i, c := range tc.counts {
			want := math.Pow(float64(c), 0.75) / total
			if math.Abs(mass[i]-want) > 1e-12 {
				t.Errorf("%s: node %d has %v of the table, want %v", tc.name, i, mass[i], want)
			}
			if c == 0 && draws[i] > 0 {
				t.Errorf("%s: node %d never occurs but was drawn %d times", tc.name, i, draws[i])
			}
			// Five standard deviations of a binomial count.
			if got, sd := float64(draws[i])/many, math.Sqrt(want*(1-want)/many); math.Abs(got-want) > 5*sd+1e-9 {
				t.Errorf("%s: node %d drawn %v of the time, want %v", tc.name, i, got, want)
			}
		}
		if got := nz.draw(math.Nextafter(1, 0)); got < 0 || int(got) >= n {
			t.Errorf("%s: the last uniform drew node %d of %d", tc.name, got, n)
		}
	}
}

// tabledSigmoid must be word2vec's: σ at the step below x inside [−6, 6],
// 0 and 1 outside, and 0 for NaN; never off the table.
func TestTabledSigmoid(t *testing.T) {
	for _, tc := range []struct{ x, want float32 }{
		{0, 0.5}, {7, 1}, {-7, 0}, {float32(math.Inf(1)), 1}, {float32(math.Inf(-1)), 0}, {float32(math.NaN()), 0},
	} {
		if got := tabledSigmoid(tc.x); got != tc.want {
			t.Errorf("σ(%v) = %v, want %v", tc.x, got, tc.want)
		}
	}
	for x := float32(-6); x <= 6; x += 0.001 {
		got, want := tabledSigmoid(x), 1/(1+math.Exp(-float64(x)))
		if math.Abs(float64(got)-want) > 0.0031 { // σ' ≤ ¼ over a step of 0.012
			t.Fatalf("σ(%v) = %v, want %v within a step", x, got, want)
		}
	}
	if got := tabledSigmoid(6); got != sigmoidTable[sigmoidSteps] {
		t.Errorf("σ(6) = %v, want the table's last entry %v", got, sigmoidTable[sigmoidSteps])
	}
}

// walkDot's scalar order and scoresVec's vectors must give the same bits.
func TestScoresVecIsWalkDot(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	row := func() []float32 { return embeddingRow(rnd) }
	for range 100 {
		vc, o := row(), [6][]float32{row(), row(), row(), row(), row(), row()}
		var got [1 + WalkNegatives]float32
		if !scoresVec(&got, vc, o[0], o[1], o[2], o[3], o[4], o[5]) {
			t.Skip("no vector path in this build")
		}
		for k := range got {
			if want := walkDot(vc, o[k]); math.Float32bits(got[k]) != math.Float32bits(want) {
				t.Fatalf("target %d: %v, want %v", k, got[k], want)
			}
		}
	}
}

// trainDistinct's vectors (eight lanes, or sixteen with AVX-512) must
// give the bits of its scalar loop, written out here: each dimension's
// gradient sums the six targets' terms in order, each target moves by its
// own step, then the centre by the gradient.
func TestTrainDistinctKeepsTheBits(t *testing.T) { eachWidth(t, testTrainDistinctKeepsTheBits) }

func testTrainDistinctKeepsTheBits(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 6))
	row := func() []float32 { return embeddingRow(rnd) }
	for range 50 {
		vc, o := row(), [6][]float32{row(), row(), row(), row(), row(), row()}
		var gk [1 + WalkNegatives]float32
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
		if !trainDistinctVec(vc, o[0], o[1], o[2], o[3], o[4], o[5], &gk) {
			t.Skip("no vector path in this build")
		}
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

// embeddingRow is a random skip-gram vector.
func embeddingRow(rnd *rand.Rand) []float32 {
	r := make([]float32, WalkDim)
	for i := range r {
		r[i] = float32(rnd.NormFloat64())
	}
	return r
}

func randomCounts(rnd *rand.Rand, n int) []int {
	c := make([]int, n)
	for i := range c {
		c[i] = rnd.IntN(50) * rnd.IntN(3)
	}
	return c
}
