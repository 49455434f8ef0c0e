package pdn

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
)

// TestRowsThatDoNotMatterChangeNothing trains every model with each model
// row changed: a row Matters says nothing for must give the same bits (the
// page hides it), and one it says matters must change them (the page may
// not hide a row that does something).
func TestRowsThatDoNotMatterChangeNothing(t *testing.T) {
	other := map[string]string{
		"edge-hidden": "2", "edge-init": experiment.InitAlive, "hidden": "8", "dropout": "0.2",
		"hops": "3", "edge-dropout": "0.5", "restarts": "2", "restart-epochs": "4", "graph-from": experiment.FromPDN,
		"self-loop": experiment.SelfLoopMean, "pathfinder-seed": "7",
	}
	type base struct{ kind, from string }
	var bases []base
	for _, kind := range experiment.Kinds {
		bases = append(bases, base{kind, experiment.FromInput})
		if experiment.TakesWeights(kind) { // and over a PDN's graph, which reads the PDN's rows
			bases = append(bases, base{kind, experiment.FromPDN})
		}
	}
	for _, b := range bases {
		kind := b.kind
		for _, p := range experiment.Params {
			// Over a PDN's graph, that PDN trains to its end, so the restarts'
			// epochs change it only through which restart is kept, here the
			// same one: the row matters, and these bits need not show it.
			if p.Group != experiment.GroupModel || p.Name == "model" || b.from == experiment.FromPDN && (p.Name == "graph-from" || p.Name == "restart-epochs") {
				continue
			}
			t.Run(kind+"/"+b.from+"/"+p.Name, func(t *testing.T) {
				g, e := smallRun(t, kind)
				e.Model.GraphFrom = b.from
				if p.Name == "restart-epochs" {
					e.Model.Restarts, e.Model.RestartEpochs = 2, 2
				}
				changed := e
				if err := p.Set(&changed, other[p.Name]); err != nil {
					t.Fatal(err)
				}
				same := losses(t, g, e) == losses(t, g, changed)
				if matters := p.Matters(e.Model); same == matters {
					t.Errorf("%s=%s: the same training %v, but Matters says %v", p.Name, other[p.Name], same, matters)
				}
			})
		}
	}
}

// losses trains three epochs and returns the bits of their losses.
func losses(t *testing.T, g *datasets.Graph, e experiment.Experiment) [3]uint64 {
	t.Helper()
	tr := mustTrainer(t, g, e)
	var out [3]uint64
	for i := range out {
		l, err := tr.Step()
		if err != nil {
			t.Fatal(err)
		}
		out[i] = math.Float64bits(l)
	}
	return out
}

// TestFixedRowsAreTheEngines holds the model table's Fixed to the
// engine's constants: a refusal of hops for Chebyshev says K is fixed at
// what ChebConv here mixes.
func TestFixedRowsAreTheEngines(t *testing.T) {
	want := map[string]map[string]float64{
		experiment.Cheb:  {"hops": ChebTerms},
		experiment.SGC:   {"hops": SGCHops},
		experiment.APPNP: {"hops": APPNPSteps},
	}
	for _, m := range experiment.Models {
		if len(m.Fixed) != len(want[m.Name]) {
			t.Errorf("%s fixes %v, the engine %v", m.Name, m.Fixed, want[m.Name])
		}
		for row, v := range want[m.Name] {
			if m.Fixed[row] != v {
				t.Errorf("%s fixes %s at %v, the engine at %v", m.Name, row, m.Fixed[row], v)
			}
		}
	}
}

// TestEdgeRowsChangeNothingWithoutTheGraph holds the state table's Edges
// to the truth: a data row that changes only the graph's edges (the
// edits: an edge removed, one added, another's features set) leaves a
// model that passes no messages (ModelKind.Graph false: the MLP) training
// to the same bits, so that the rows rule may refuse it there, and
// changes the training of every model that passes them.
func TestEdgeRowsChangeNothingWithoutTheGraph(t *testing.T) {
	// The other edge rows' values: each draws other edges of its graph.
	others := map[string]string{"layers": "90,10,33", "layer-degree": "6", "layer": "B"}
	for _, p := range experiment.Params {
		if !p.Edges {
			continue
		}
		for _, kind := range experiment.Kinds {
			t.Run(p.Name+"/"+kind, func(t *testing.T) {
				g, e := smallRun(t, kind)
				v, ok := others[p.Name]
				if p.Name == experiment.EditsRow {
					v, ok = fmt.Sprintf("r%d-%d_a0-%d_s%d-%dc%d-%d", g.Src[0], g.Dst[0], g.N-1, g.Src[1], g.Dst[1], g.Src[2], g.Dst[2]), true
				}
				if !ok {
					t.Fatalf("no edge-only value for row %s: give the test one", p.Name)
				}
				if len(p.Graphs) > 0 && !slices.Contains(p.Graphs, e.Data.Graph) {
					e.Data.Graph = p.Graphs[0] // a graph that reads the row
					var err error
					if g, err = datasets.Build(e.Data); err != nil {
						t.Fatal(err)
					}
				}
				changed := e
				if err := p.Set(&changed, v); err != nil {
					t.Fatal(err)
				}
				// The graph the changed rows draw, altered as every road
				// to a graph alters it.
				ge, err := datasets.Build(changed.Data)
				if err != nil {
					t.Fatal(err)
				}
				same := losses(t, g, e) == losses(t, ge, changed)
				if same == experiment.UsesGraph(kind) {
					t.Errorf("%s=%s: the same training %v, but the model passes messages: %v", p.Name, v, same, experiment.UsesGraph(kind))
				}
			})
		}
	}
}
