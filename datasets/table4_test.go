package datasets

import (
	"math"
	"slices"
	"testing"

	"pdnexplorer/experiment"
)

// A cell is marked beyond when the paper's number is more than 2 of our
// standard deviations from our mean, and never guessed from one result.
func TestPaperMark(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		name            string
		n               int
		mean, sd, paper float64
		want            Mark
	}{
		{"no paper number", 10, 0.85, 0.01, nan, MarkNoPaper},
		{"on the paper's number", 10, 0.868, 0.01, 0.868, MarkWithin},
		{"just inside 2 SD", 10, 0.85, 0.01, 0.869, MarkWithin},
		{"just beyond 2 SD", 10, 0.85, 0.01, 0.871, MarkBeyond},
		{"beyond, above the paper", 10, 0.90, 0.01, 0.868, MarkBeyond},
		{"one result: no SD", 1, 0.85, 0, 0.868, MarkUnknown},
		{"no result", 0, nan, nan, 0.868, MarkUnknown},
		{"no SD though two results", 2, 0.85, nan, 0.868, MarkUnknown},
		{"two equal results, off the paper", 2, 0.85, 0, 0.868, MarkBeyond},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := PaperMark(c.n, c.mean, c.sd, c.paper); got != c.want {
				t.Errorf("PaperMark(%d, %v, %v, %v) = %q, want %q", c.n, c.mean, c.sd, c.paper, got, c.want)
			}
		})
	}
}

// A graph is the paper's column by its nodes and classes, whatever its
// folder is called; every column has the paper's numbers.
func TestPaperColumn(t *testing.T) {
	for _, c := range []struct {
		name       string
		n, classes int
		want       string
	}{
		{"Facebook Page-Page", 22470, 4, "facebook"},
		{"Cora", 2708, 7, "cora"},
		{"Citeseer", 3327, 6, "citeseer"},
		{"Deezer Europe", 28281, 2, "deezer"},
		{"Facebook's nodes, other classes", 22470, 3, ""},
		{"a graph of one's own", 500, 3, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			col, ok := PaperColumn(&Graph{N: c.n, C: c.classes})
			if col.Key != c.want || ok != (c.want != "") {
				t.Errorf("PaperColumn(%d nodes, %d classes) = %q, %v; want %q", c.n, c.classes, col.Key, ok, c.want)
			}
		})
	}
	for _, p := range PaperColumns {
		if len(Table4[p.Key]) == 0 {
			t.Errorf("column %s has no numbers in Table4", p.Key)
		}
		for _, m := range Table4Models {
			if _, ok := Table4[p.Key][m]; !ok {
				t.Errorf("column %s has no number for %s, which table4 trains", p.Key, m)
			}
		}
	}
}

// pdn table4 trains every row of the paper's Table 4 the model table has,
// in the paper's order, and nothing else.
func TestTable4ModelsAreEveryRowTheZooHas(t *testing.T) {
	var want []string
	for _, kind := range table4Order {
		if _, ok := Table4["cora"][kind]; !ok {
			t.Errorf("%s is in Table 4's order but has no number of the paper's", kind)
		}
		if slices.Contains(experiment.Kinds, kind) {
			want = append(want, kind)
		}
	}
	for _, kind := range experiment.Kinds {
		if _, inPaper := Table4["cora"][kind]; inPaper && !slices.Contains(table4Order, kind) {
			t.Errorf("%s has a number in Table 4 but no place in its order", kind)
		}
	}
	if !slices.Equal(Table4Models, want) {
		t.Errorf("Table4Models = %v, want %v", Table4Models, want)
	}
}
