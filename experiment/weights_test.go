package experiment

import (
	"math"
	"strings"
	"testing"
)

// spread is deciles from lo to hi in even steps.
func spread(lo, hi float64) []float64 {
	out := make([]float64, Deciles)
	for i := range out {
		out[i] = lo + (hi-lo)*float64(i)/float64(Deciles-1)
	}
	return out
}

// constant is deciles all at x.
func constant(x float64) []float64 { return spread(x, x) }

// Each reading of the rule, from the deciles alone, with its factor and the
// words of its sentence.
func TestReadWeights(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		name         string
		intra, inter []float64
		saturated    float64
		kind         string
		factor       float64 // NaN: none
		words        string  // in the sentence; "" for none
	}{
		{"same: Cora's medians 0.588 and 0.579 within a fifth of their spread", spread(0.41, 0.61), spread(0.41, 0.61), 0.007, WeightsSame, nan, "the same on edges within and between classes"},
		{"same: a difference under the 0.01 band, with no spread", constant(0.5), constant(0.505), 0, WeightsSame, nan, "carries no class information"},
		{"same: 10% apart but inside a wide spread", spread(0.1, 0.9), spread(0.05, 0.85), 0, WeightsSame, nan, "the same"},
		{"down: the generator's intra 0.44 against inter 0.011", spread(0.18, 0.65), spread(0.0004, 0.1), 0.24, WeightsDown, 0.415 / 0.0502, "times less weight"},
		{"up: a heterophilic graph's inter-class edges weigh more", spread(0.05, 0.25), spread(0.4, 0.8), 0, WeightsUp, 0.6 / 0.15, "times more weight"},
		{"down past 1000: inter-class weights underflowed to 0", constant(1), constant(0), 1, WeightsDown, math.Inf(1), "over 1000 times less"},
		{"down, pinned: XOR's best, intra at 1, inter at 0.0005", constant(1), constant(0.0005), 1, WeightsDown, 2000, "over 1000 times less"},
		{"down by 1000 exactly is said as its factor", constant(1), constant(0.001), 1, WeightsDown, 1000, "1000.0 times less"},
		{"up past 1000: intra-class weights underflowed to 0", constant(0), constant(0.9), 0.5, WeightsUp, math.Inf(1), "over 1000 times more"},
		{"saturated at 1: Facebook's raw scores", append(spread(0.67, 1)[:1], constant(1)[1:]...), append(spread(0.67, 1)[:1], constant(1)[1:]...), 0.95, WeightsSaturated, nan, "95% of the edges"},
		{"saturated at 0: medians 5e-28 and 6e-21, a huge ratio inside the band", constant(5e-28), constant(6e-21), 0.88, WeightsSaturated, nan, "the pathfinder is saturated"},
		{"under the factor: 0.99 against 0.97 is no sentence of 1.0 times", constant(0.99), constant(0.97), 0.3, WeightsSame, nan, "the same"},
		{"none: no inter-class edges", spread(0, 1), nil, 0.1, WeightsNone, nan, ""},
		{"none: no intra-class edges", nil, spread(0, 1), 0.1, WeightsNone, nan, ""},
		{"none: a diverged run's NaN", spread(nan, nan), spread(0, 1), nan, WeightsNone, nan, ""},
		{"none: not 11 deciles", []float64{0.1, 0.5, 0.9}, []float64{0.1, 0.5, 0.9}, 0, WeightsNone, nan, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := ReadWeights(tc.intra, tc.inter, tc.saturated)
			if r.Kind != tc.kind {
				t.Fatalf("kind %q, want %q (%+v)", r.Kind, tc.kind, r)
			}
			if math.IsNaN(tc.factor) != math.IsNaN(r.Factor) || !math.IsNaN(tc.factor) && math.Abs(r.Factor-tc.factor) > 1e-9*math.Max(1, tc.factor) && !(math.IsInf(tc.factor, 1) && math.IsInf(r.Factor, 1)) {
				t.Errorf("factor %v, want %v", r.Factor, tc.factor)
			}
			text, ok := r.Sentence()
			if ok != (tc.words != "") || !strings.Contains(text.String(), tc.words) {
				t.Errorf("sentence %q (%v), want one with %q", text.String(), ok, tc.words)
			}
		})
	}
}

// A run's figures without deciles (a model without edge weights, Figures'
// zero value) read as none: no kind, no factor, no sentence.
func TestFiguresWithoutWeightsSayNothing(t *testing.T) {
	for name, f := range map[string]Figures{
		"zero":                 {},
		"NaN saturated":        {Saturated: math.NaN()},
		"means but no deciles": {WIntra: 0.9, WInter: 0.1, Saturated: math.NaN()},
	} {
		kind, factor := f.WeightReading()
		if _, ok := f.LearnedWeights().Sentence(); kind != WeightsNone || !math.IsNaN(factor) || ok {
			t.Errorf("%s: kind %q, factor %v, sentence %v", name, kind, factor, ok)
		}
	}
	f := Figures{IntraDeciles: spread(0.5, 0.9), InterDeciles: spread(0.01, 0.1)}
	if kind, factor := f.WeightReading(); kind != WeightsDown || math.Abs(factor-0.7/0.055) > 1e-12 {
		t.Errorf("figures with deciles: %q %v", kind, factor)
	}
}
