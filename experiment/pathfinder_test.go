package experiment

import (
	"strings"
	"testing"
)

// The pathfinder's graph is this graph's rows at the pathfinder's seed,
// with the rows pathfinder-rows changes, without this graph's edits; a row
// it may not change (the edge features' number, the seed, the graph), one
// given twice, or a value its row refuses is refused, naming it.
func TestPathfinderData(t *testing.T) {
	e := Default()
	e.Data.Edits = "a0-1"
	e.Model.GraphFrom, e.Model.PathfinderSeed, e.Model.PathfinderRows = FromPDN, 99, "sigma-d=8; q=0.02"
	d, err := e.Model.PathfinderData(e.Data)
	if err != nil {
		t.Fatal(err)
	}
	if d.Seed != 99 || d.SigmaD != 8 || d.Q != 0.02 || d.Edits != "" || d.P != e.Data.P {
		t.Errorf("the pathfinder's graph: %+v", d)
	}
	if !e.Model.Induced(e.Data) {
		t.Error("not induced")
	}
	for _, c := range []struct{ rows, want string }{
		{"edge-features=8", "edge-features=8"},
		{"seed=3", "seed=3"},
		{"sigma-d=8;sigma-d=4", "sigma-d=4"},
		{"sigma-d", "sigma-d"},
		{"sigma-d=100", "sigma-d"},
		{"q=0.02&p=0.01", "0.02&p=0.01"},
	} {
		p, _ := Lookup("pathfinder-rows")
		x := Default()
		if err := p.Set(&x, c.rows); err == nil || !strings.HasPrefix(err.Error(), "pathfinder-rows: ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("pathfinder-rows=%s: %v", c.rows, err)
		}
	}
}

// A row the graph does not read (Param.Applies) changes nothing of the
// pathfinder's graph: it is refused, naming the row and the graph, not
// trained as if it were the same graph.
func TestPathfinderDataRefusesRowsTheGraphIgnores(t *testing.T) {
	for _, c := range []struct{ graph, rows string }{
		{GraphSynthetic, "attach=3"},
		{GraphSynthetic, "layer-degree=3"},
		{GraphMultiplex, "sigma-d=4"},
		{GraphXOR, "sigma-d=16"},
		{GraphScaleFree, "q=0.02"},
	} {
		e := Default()
		e.Data.Graph = c.graph
		e.Model.GraphFrom, e.Model.PathfinderSeed, e.Model.PathfinderRows = FromPDN, 99, c.rows
		k, _, _ := strings.Cut(c.rows, "=")
		if _, err := e.Model.PathfinderData(e.Data); err == nil || !strings.Contains(err.Error(), k) || !strings.Contains(err.Error(), c.graph) {
			t.Errorf("graph %s, pathfinder-rows=%s: %v", c.graph, c.rows, err)
		}
	}
	e := Default()
	e.Data.Graph = GraphMultiplex
	e.Model.GraphFrom, e.Model.PathfinderSeed, e.Model.PathfinderRows = FromPDN, 99, "layer-degree=2;per-class=128"
	if _, err := e.Model.PathfinderData(e.Data); err != nil {
		t.Error(err)
	}
}
