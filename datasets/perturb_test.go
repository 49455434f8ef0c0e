package datasets

import (
	"math"
	"slices"
	"strings"
	"testing"

	"pdnexplorer/edgekind"
	"pdnexplorer/experiment"
)

func TestPerturbed(t *testing.T) {
	d := experiment.Default().Data
	d.PerClass = 64
	g, err := Synthetic(d)
	if err != nil {
		t.Fatal(err)
	}
	e, f := g.E(), g.F
	pairs := func(h *Graph) map[[2]int32]int {
		out := map[[2]int32]int{}
		for i := range h.Src {
			out[pairKey(h.Src[i], h.Dst[i])] = i
		}
		return out
	}
	old := pairs(g)
	for _, tc := range []struct {
		how        string
		rate       float64
		edges, col int // edges after; masked columns
	}{
		{experiment.PerturbNone, 0.5, e, 0},
		{experiment.PerturbAddEdges, 0, e, 0},
		{experiment.PerturbAddEdges, 0.5, e + int(math.Round(0.5*float64(e))), 0},
		{experiment.PerturbAddInter, 1, 2 * e, 0},
		{experiment.PerturbDrop, 0.25, e - int(math.Round(0.25*float64(e))), 0},
		{experiment.PerturbDrop, 1, 0, 0},
		{experiment.PerturbMask, 0.5, e, f / 2},
		{experiment.PerturbMask, 1, e, f},
	} {
		p, err := perturbed(g, tc.how, tc.rate, d.Seed)
		if err != nil {
			t.Errorf("%s %v: %v", tc.how, tc.rate, err)
			continue
		}
		if p.E() != tc.edges || len(p.Dst) != tc.edges || len(p.EdgeX) != tc.edges*p.D || len(p.Kind) != tc.edges {
			t.Errorf("%s %v: %d edges (%d ends, %d features, %d kinds), want %d", tc.how, tc.rate, p.E(), len(p.Dst), len(p.EdgeX), len(p.Kind), tc.edges)
		}
		if err := p.Check(); err != nil {
			t.Errorf("%s %v: %v", tc.how, tc.rate, err)
		}
		again, _ := perturbed(g, tc.how, tc.rate, d.Seed)
		if again.Digest() != p.Digest() {
			t.Errorf("%s %v: two draws differ", tc.how, tc.rate)
		}
		zero := 0
		for c := range p.F {
			if allZero(p, c) {
				zero++
			}
		}
		if zero != tc.col {
			t.Errorf("%s %v: %d columns zero, want %d", tc.how, tc.rate, zero, tc.col)
		}
		for i := range p.Src {
			j, was := old[pairKey(p.Src[i], p.Dst[i])]
			inter := p.Labels[p.Src[i]] != p.Labels[p.Dst[i]]
			switch {
			case was && i < e && j != i && tc.how != experiment.PerturbDrop:
				t.Fatalf("%s: edge %d moved to %d", tc.how, j, i)
			case !was && tc.how == experiment.PerturbAddInter && !inter:
				t.Fatalf("add-inter added an edge within a class")
			case !was && (p.Kind[i] == edgekind.Inter) != inter:
				t.Fatalf("%s: an added edge's kind %v, its ends' classes differ: %v", tc.how, p.Kind[i], inter)
			case !was && !hasFeaturesOfKind(g, p.EdgeX[i*p.D:(i+1)*p.D], inter):
				t.Fatalf("%s: an added edge's features are no %v edge's of the graph", tc.how, p.Kind[i])
			case !was && tc.how != experiment.PerturbAddEdges && tc.how != experiment.PerturbAddInter:
				t.Fatalf("%s added an edge", tc.how)
			}
		}
	}
	if g.E() != e || g.F != f || !slices.Equal(g.Src, g.Src[:e]) {
		t.Error("perturbed changed the graph it was given")
	}
}

func allZero(g *Graph, c int) bool {
	for i := range g.N {
		if g.X[i*g.F+c] != 0 {
			return false
		}
	}
	return true
}

// hasFeaturesOfKind says whether x is the features of an edge of g
// within (or, if inter, between) classes.
func hasFeaturesOfKind(g *Graph, x []float64, inter bool) bool {
	for e := range g.Src {
		if (g.Labels[g.Src[e]] != g.Labels[g.Dst[e]]) == inter && slices.Equal(g.EdgeX[e*g.D:(e+1)*g.D], x) {
			return true
		}
	}
	return false
}

// Adding more edges than half the free pairs is refused, naming the rate
// allowed; an unknown perturbation or a rate out of range is refused too.
func TestPerturbedRefuses(t *testing.T) {
	g := &Graph{N: 6, C: 2, Labels: []int{0, 0, 0, 1, 1, 1}, Splits: make([]Split, 6), Src: []int32{0, 0, 1, 3, 3, 4}, Dst: []int32{1, 2, 2, 4, 5, 5}}
	for _, tc := range []struct {
		how  string
		rate float64
		want string
	}{
		{experiment.PerturbAddInter, 1, "1 of the 6 edges is 6 new pairs, more than half of the 9 free ones; allowed here: up to 0.667"},
		{experiment.PerturbAddInter, 0.5, ""},
		{experiment.PerturbAddEdges, 0.5, ""},
		{experiment.PerturbAddEdges, 1.5, "outside [0, 1]"},
		{"shuffle", 0.5, "want one of none"},
	} {
		_, err := perturbed(g, tc.how, tc.rate, 1)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s %v: %v, want %q", tc.how, tc.rate, err, tc.want)
		}
	}
}

func TestQuantileBins(t *testing.T) {
	for _, tc := range []struct {
		vals []float64
		k    int
		want []int
	}{
		{[]float64{5, 1, 4, 2, 3, 6}, 3, []int{2, 0, 1, 0, 1, 2}},
		{[]float64{1, 1, 1, 2, 3, 4}, 2, []int{0, 0, 0, 1, 1, 1}},
		{[]float64{7, 7, 7, 7}, 3, []int{0, 0, 0, 0}}, // one value: one bin
		{[]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 5, []int{0, 0, 1, 1, 2, 2, 3, 3, 4, 4}},
	} {
		if got := QuantileBins(tc.vals, tc.k); !slices.Equal(got, tc.want) {
			t.Errorf("QuantileBins(%v, %d) = %v, want %v", tc.vals, tc.k, got, tc.want)
		}
	}
}
