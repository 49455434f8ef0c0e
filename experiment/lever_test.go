package experiment

import "testing"

// TestLeverNamesOnlyRowsTheGraphReads: a message that says what to lower
// names rows the graph's form shows, never p or q on a graph that draws
// its edges by other rows.
func TestLeverNamesOnlyRowsTheGraphReads(t *testing.T) {
	for _, g := range generatorGraphs {
		d := Default().Data
		d.Graph = g
		for _, size := range []string{"nodes", "edges", "edge-features", "training-nodes"} {
			for _, r := range d.Lever(size) {
				if p, ok := Lookup(r); ok && !p.Applies(d) && len(d.Lever(size)) > 1 {
					t.Errorf("%s: Lever(%q) = %v names %s, which it does not read", g, size, d.Lever(size), r)
				}
			}
		}
	}
	d := Default().Data
	d.Graph = GraphMultiplex
	if got := d.Lever("edges"); got[0] != "layer-degree" {
		t.Errorf("multiplex: Lever(edges) = %v, want layer-degree first", got)
	}
}

// A real graph's training nodes are its shots a class: the row a message
// names when a cost grows with them (the embeddings' regression), where
// its other sizes are the graph's own.
func TestLeverOfARealGraphsTrainingNodesIsShots(t *testing.T) {
	d := Default().Data
	d.Graph = GraphCora
	if got := d.Lever("training-nodes"); len(got) != 1 || got[0] != "shots" {
		t.Errorf("cora: Lever(training-nodes) = %v, want shots", got)
	}
	if got := d.Lever("nodes"); len(got) != 1 || got[0] != "the graph's nodes" {
		t.Errorf("cora: Lever(nodes) = %v", got)
	}
}
