package datasets

import (
	"math"
	"slices"
	"strings"
	"testing"

	"pdnexplorer/experiment"
)

func TestHoldOut(t *testing.T) {
	d := experiment.Default().Data
	d.PerClass = 100
	for _, c := range []struct {
		n, want int
		note    bool
	}{{20, 20, false}, {0, 0, false}, {10000, 0, true}} {
		g, err := Synthetic(d)
		if err != nil {
			t.Fatal(err)
		}
		test := len(g.Nodes(Test))
		want := c.want
		if c.note {
			want = test / 2
		}
		got := HoldOut(g, c.n, 3)
		if got != want || len(g.Nodes(Val)) != want || len(g.Nodes(Test)) != test-want {
			t.Errorf("HoldOut(%d): moved %d (%d val, %d test), want %d of %d", c.n, got, len(g.Nodes(Val)), len(g.Nodes(Test)), want, test)
		}
		if hasNote := len(g.Notes) > 0 && strings.HasPrefix(g.Notes[len(g.Notes)-1].String(), "validation:"); hasNote != c.note {
			t.Errorf("HoldOut(%d): notes %v", c.n, g.Notes)
		}
	}
	a, _ := Synthetic(d)
	b, _ := Synthetic(d)
	HoldOut(a, 40, 9)
	HoldOut(b, 40, 9)
	for i := range a.Splits {
		if a.Splits[i] != b.Splits[i] {
			t.Fatal("the same seed holds out other nodes")
		}
	}
}

func TestRowNormalise(t *testing.T) {
	dense := &Graph{N: 3, F: 2, X: []float64{1, 3, 0, 0, 2, 2}}
	RowNormalise(dense)
	want := []float64{0.25, 0.75, 0, 0, 0.5, 0.5}
	for i, v := range dense.X {
		if math.Abs(v-want[i]) > 1e-15 {
			t.Fatalf("dense rows: %v, want %v", dense.X, want)
		}
	}
	sparse := &Graph{N: 2, F: 3, XS: &CSR{Rows: 2, Cols: 3, Ptr: []int{0, 3, 3}, Col: []int32{0, 1, 2}, Val: []float64{1, 1, 2}}}
	RowNormalise(sparse)
	if v := sparse.XS.Val; v[0] != 0.25 || v[1] != 0.25 || v[2] != 0.5 {
		t.Errorf("sparse rows: %v", v)
	}
}

// RowNormalised gives a row-normalised copy and leaves the graph it was
// given as it was: table4 trains some models on each.
func TestRowNormalisedLeavesTheGraph(t *testing.T) {
	for _, c := range []struct {
		name     string
		g        *Graph
		features func(*Graph) []float64
		want     []float64
	}{
		{"dense", &Graph{N: 2, F: 2, X: []float64{1, 3, 2, 2}}, func(g *Graph) []float64 { return g.X }, []float64{0.25, 0.75, 0.5, 0.5}},
		{"sparse", &Graph{N: 2, F: 3, XS: &CSR{Rows: 2, Cols: 3, Ptr: []int{0, 2, 3}, Col: []int32{0, 2, 1}, Val: []float64{1, 3, 4}}},
			func(g *Graph) []float64 { return g.XS.Val }, []float64{0.25, 0.75, 1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := append([]float64(nil), c.features(c.g)...)
			n := RowNormalised(c.g)
			if got := c.features(n); !slices.Equal(got, c.want) {
				t.Errorf("the copy's features %v, want %v", got, c.want)
			}
			if got := c.features(c.g); !slices.Equal(got, before) {
				t.Errorf("the graph's features became %v, were %v", got, before)
			}
		})
	}
}
