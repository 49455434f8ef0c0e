package lessons

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat"

	"pdnexplorer/edgekind"
	"pdnexplorer/experiment"
)

// The deciles are weights some edge has, by kind, lowest to highest; an
// edge of unknown kind counts in the saturated share alone.
func TestWeightSpread(t *testing.T) {
	// Intra: 0.00, 0.05, …, 1.00 (21 values); inter: 0.5 ten times; one
	// unknown edge at 0.995.
	var w []float64
	var kind []edgekind.Kind
	for i := range 21 {
		w, kind = append(w, float64(20-i)/20), append(kind, edgekind.Intra) // given highest first: sorted by the spread
	}
	for range 10 {
		w, kind = append(w, 0.5), append(kind, edgekind.Inter)
	}
	w, kind = append(w, 0.995), append(kind, edgekind.Unknown)
	before := slices.Clone(w)
	sp := WeightSpread(w, kind)
	wantIntra := []float64{0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1}
	for i := range wantIntra {
		if math.Abs(sp.Intra[i]-wantIntra[i]) > 1e-12 {
			t.Fatalf("intra deciles %v, want %v", sp.Intra, wantIntra)
		}
	}
	if !slices.Equal(sp.Inter, slices.Repeat([]float64{0.5}, experiment.Deciles)) {
		t.Errorf("inter deciles %v", sp.Inter)
	}
	// Pinned: intra's 0 and 1, and the unknown edge's 0.995.
	if want := 3.0 / 32; sp.Saturated != want {
		t.Errorf("saturated share %v, want %v", sp.Saturated, want)
	}
	if !slices.Equal(w, before) {
		t.Error("the weights were reordered")
	}
	if r := sp.Reading(); r.Kind != experiment.WeightsSame {
		t.Errorf("reading %+v, want same", r)
	}
}

// A model without edge weights, a graph without kinds or without one of
// them reports no spread and no sentence, never a made-up one.
func TestNoWeightsNoSentence(t *testing.T) {
	g, e := small(t)
	for _, tc := range []struct {
		name string
		sp   Spread
	}{
		{"gcn, whose weights are all 1", SpreadOf(g, experiment.GCN, slices.Repeat([]float64{1}, g.E()))},
		{"gat's attention", SpreadOf(g, experiment.GAT, slices.Repeat([]float64{0.3}, g.E()))},
		{"pdn without weights", WeightSpread(nil, g.Kind)},
		{"pdn on a graph without kinds", WeightSpread(slices.Repeat([]float64{0.5}, g.E()), nil)},
	} {
		if !math.IsNaN(tc.sp.Saturated) || tc.sp.Intra != nil || tc.sp.Inter != nil {
			t.Errorf("%s: spread %+v", tc.name, tc.sp)
		}
		if r := tc.sp.Reading(); r.Kind != experiment.WeightsNone {
			t.Errorf("%s: reading %+v", tc.name, r)
		}
	}
	onlyIntra := WeightSpread([]float64{0.2, 0.4}, []edgekind.Kind{edgekind.Intra, edgekind.Intra})
	if onlyIntra.Inter != nil || onlyIntra.Reading().Kind != experiment.WeightsNone {
		t.Errorf("a graph without inter-class edges: %+v", onlyIntra)
	}

	// Trained: the figures of a GCN carry no deciles; a PDN's do.
	for _, kind := range []string{experiment.GCN, experiment.PDN} {
		e := e
		e.Model.Kind = kind
		tr, err := TrainAll(g, e)
		if err != nil {
			t.Fatal(err)
		}
		f := FiguresOf(g, tr)
		got, _ := f.WeightReading()
		if learns := kind == experiment.PDN; learns != (got != experiment.WeightsNone) || learns != (len(f.IntraDeciles) == experiment.Deciles) {
			t.Errorf("%s: reading %q, deciles %v", kind, got, f.IntraDeciles)
		}
	}
}

// The deciles by selection are those gonum's empirical quantile reads
// from the values sorted, bit for bit: on values drawn from few levels
// (many ties) and from many, of every length up to 3,000, with and
// without a NaN or a −0; and on orders that defeat the pivots (rising,
// falling, rising then falling), whose passes the limit cuts short.
func TestDecilesAreGonumsOfTheSorted(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for n := 1; n <= 3000; n += 1 + n/7 {
		for _, levels := range []int{1, 3, 50, 0} {
			x := make([]float64, n)
			for i := range x {
				if levels == 0 {
					x[i] = rnd.NormFloat64()
				} else {
					x[i] = float64(rnd.IntN(levels)) / float64(levels)
				}
			}
			switch n % 5 {
			case 0:
				x[rnd.IntN(n)] = math.NaN()
			case 1:
				x[rnd.IntN(n)] = math.Copysign(0, -1) // beside +0s where levels draws them
			}
			sorted := slices.Clone(x)
			slices.Sort(sorted)
			got := deciles(slices.Clone(x))
			for i, g := range got {
				want := stat.Quantile(decile(i), stat.Empirical, sorted, nil)
				if math.Float64bits(g) != math.Float64bits(want) {
					t.Fatalf("n = %d, %d levels: decile %d = %v, gonum's of the sorted %v", n, levels, i, g, want)
				}
			}
		}
	}
}

func TestDecilesOnOrdersThatDefeatPivots(t *testing.T) {
	const n = 20000
	orders := map[string]func(i int) float64{
		"rising":           func(i int) float64 { return float64(i) },
		"falling":          func(i int) float64 { return float64(n - i) },
		"rising, falling":  func(i int) float64 { return float64(min(i, n-i)) },
		"falling, rising":  func(i int) float64 { return float64(max(i, n-i)) },
		"two values, sawn": func(i int) float64 { return float64(i % 2) },
	}
	for name, at := range orders {
		x := make([]float64, n)
		for i := range x {
			x[i] = at(i)
		}
		sorted := slices.Clone(x)
		slices.Sort(sorted)
		got := deciles(x)
		for i, g := range got {
			if want := stat.Quantile(decile(i), stat.Empirical, sorted, nil); g != want {
				t.Errorf("%s: decile %d = %v, gonum's of the sorted %v", name, i, g, want)
			}
		}
	}
}
