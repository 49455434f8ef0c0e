package datasets

import (
	"math"
	"strings"
	"testing"

	"pdnexplorer/edgekind"
)

// path4 is the path 0–1–2–3 plus the edge 0–2: a triangle with a tail.
func path4() *Graph {
	return &Graph{N: 4, F: 0, C: 1, X: []float64{}, Labels: []int{0, 0, 0, 0}, Splits: make([]Split, 4),
		Src: []int32{0, 1, 2, 0}, Dst: []int32{1, 2, 3, 2}}
}

func TestTieStrengthByHand(t *testing.T) {
	g := TieStrength(path4())
	if g.D != 11 || len(g.EdgeX) != 4*11 {
		t.Fatalf("D = %d, %d features", g.D, len(g.EdgeX))
	}
	// Edge 0 is 0–1: N(0) = {1, 2}, N(1) = {0, 2}, common {2}, |N(2)| = 3, n = 4.
	want := []float64{1 / math.Log(3), 1.0 / 4, 1, 1.0 / 2, 4, 1.0 / 3, 1.0 / 2, 1.0 / 2, math.Sqrt2 / math.Sqrt(8),
		(4*1 - 4) / (math.Sqrt(8-4) * math.Sqrt(8-4)), 1.0 / 3}
	for i, w := range want {
		if got := g.EdgeX[i]; math.Abs(got-w) > 1e-12 {
			t.Errorf("%s(0–1) = %v, want %v", TieStrengthNames[i], got, w)
		}
	}
	// Edge 2 is 2–3: no common neighbour, so every overlap score is 0,
	// never NaN or infinite.
	row := g.EdgeX[2*11 : 3*11]
	for i, v := range row {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Errorf("%s(2–3) = %v", TieStrengthNames[i], v)
		}
	}
	if row[2] != 0 || row[6] != 0 || row[7] != 0 || row[4] != 3 {
		t.Errorf("2–3: %v", row)
	}
	if err := g.Check(); err != nil {
		t.Error(err)
	}
}

func TestTieStrengthExtremes(t *testing.T) {
	// A star: the centre is joined to every other node, the leaves share no
	// neighbour. Pearson is (n·0 − 2·1)/(√(3·2−4)·√(3·1−1)) = −1.
	g := &Graph{N: 3, C: 1, Labels: []int{0, 0, 0}, Splits: make([]Split, 3), Src: []int32{0, 0}, Dst: []int32{1, 2}}
	ts := TieStrength(g)
	if p := ts.EdgeX[9]; math.Abs(p+1) > 1e-12 {
		t.Errorf("Pearson of a star's edge = %v, want -1", p)
	}
	for _, c := range [][2]float64{{1, 0}, {0, 0}, {1, math.NaN()}, {3, 2}} {
		want := 0.0
		if c[1] == 2 {
			want = 1.5
		}
		if got := div(c[0], c[1]); got != want {
			t.Errorf("div(%v, %v) = %v, want %v", c[0], c[1], got, want)
		}
	}
}

func TestMultiplex(t *testing.T) {
	base := path4()
	base.Kind = []edgekind.Kind{KindIntra}
	g, err := Multiplex(base, [][]WeightedPair{{{0, 1, 1}, {1, 2, 0.5}}, {{1, 0, 2}, {2, 3, 1}}})
	if err != nil {
		t.Fatal(err)
	}
	if g.E() != 3 || g.D != 2 {
		t.Fatalf("E = %d, D = %d", g.E(), g.D)
	}
	want := []float64{1, 2, 0.5, 0, 0, 1}
	for i, w := range want {
		if g.EdgeX[i] != w {
			t.Errorf("features %v, want %v", g.EdgeX, want)
			break
		}
	}
	if _, err := Multiplex(base, [][]WeightedPair{{{0, 0, 1}}}); err == nil || !strings.Contains(err.Error(), "self-loop") {
		t.Errorf("a self-loop in a layer: %v", err)
	}
}
