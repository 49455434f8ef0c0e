package main

import (
	"strconv"
	"testing"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
)

// The worker builds the graph every data row draws as the command line
// does (datasets.Build): each row of the data group set to another value,
// on a graph that reads it, gives the worker's session the graph of the
// same digest. A new data row without a value here fails, so that no row
// reaches the command line's graph and not the page's.
func TestWorkerBuildsTheGraphBuildBuilds(t *testing.T) {
	others := map[string]string{
		"layers": "90,10,33", "layer": "B", "layer-degree": "6", experiment.EditsRow: "r0-1",
		"perturb": "drop-edges", "perturb-rate": "0.2", "data": experiment.GraphMultiplex,
		"shots": "5", "seed": "2",
	}
	for _, p := range experiment.Params {
		if p.Group != experiment.GroupData || p.Columns() {
			continue // the columns of one's own files: no generated graph reads them
		}
		t.Run(p.Name, func(t *testing.T) {
			e := small()
			if len(p.Graphs) > 0 && !p.Applies(e.Data) {
				e.Data.Graph = p.Graphs[0]
			}
			if e.Data.Graph == experiment.GraphLocal {
				e.Data.Graph = experiment.GraphMultiplex // the other graph the layer row reads
			}
			v, ok := others[p.Name]
			if !ok && p.Choices == nil {
				v, ok = strconv.FormatFloat(p.Min, 'f', -1, 64), true
			}
			if !ok {
				t.Fatalf("no other value for %s: give the test one", p.Name)
			}
			if p.Name == experiment.EditsRow {
				g, _ := datasets.Build(e.Data)
				v = "r" + strconv.Itoa(int(g.Src[0])) + "-" + strconv.Itoa(int(g.Dst[0]))
			}
			if p.Name == "perturb-rate" {
				e.Data.Perturb = "drop-edges"
			}
			if err := p.Set(&e, v); err != nil {
				t.Fatal(err)
			}
			want, err := datasets.Build(e.Data)
			if err != nil {
				t.Fatal(err)
			}
			s, _ := newTestSession()
			set(s, e)
			if s.g == nil || s.g.Digest() != want.Digest() {
				t.Errorf("%s=%s: the worker's graph is not the one Build draws", p.Name, v)
			}
		})
	}
}
