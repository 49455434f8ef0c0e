package pdn

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"
)

// negativeAt must draw what a binary search draws, for every x: at each
// cumulative count, just either side of it, and at random, on tables with
// nodes that never occur (steps of zero) and with one node.
func TestNegativeAtIsTheBinarySearch(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name   string
		counts []float64
	}{
		{"one node", []float64{3}},
		{"even", []float64{1, 1, 1, 1}},
		{"skewed", []float64{1000, 1, 1, 0, 0, 5, 1}},
		{"zeros at the ends", []float64{0, 0, 2, 7, 0, 0}},
		{"random", randomCounts(rnd, 500)},
	} {
		cum := make([]float64, len(tc.counts))
		var s float64
		for i, c := range tc.counts {
			if c > 0 {
				s += math.Pow(c, 0.75)
			}
			cum[i] = s
		}
		hint := negativeHints(cum)
		var xs []float64
		for _, c := range cum {
			xs = append(xs, c, math.Nextafter(c, 0), math.Nextafter(c, math.Inf(1)))
		}
		for range 10000 {
			xs = append(xs, rnd.Float64()*s)
		}
		for _, x := range xs {
			if x < 0 || x >= s {
				continue // outside the draw's range [0, total)
			}
			if got, want := negativeAt(cum, hint, x), sort.SearchFloat64s(cum, x); int(got) != want {
				t.Errorf("%s: x = %v: node %d, want %d", tc.name, x, got, want)
			}
		}
	}
}

func randomCounts(rnd *rand.Rand, n int) []float64 {
	c := make([]float64, n)
	for i := range c {
		c[i] = float64(rnd.IntN(50) * rnd.IntN(3))
	}
	return c
}
