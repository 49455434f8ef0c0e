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

func randomCounts(rnd *rand.Rand, n int) []int {
	c := make([]int, n)
	for i := range c {
		c[i] = rnd.IntN(50) * rnd.IntN(3)
	}
	return c
}
