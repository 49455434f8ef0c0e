package pdn

import (
	"errors"
	"strings"
	"testing"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
)

// A graph without edges is refused naming the rows that draw its edges
// on that graph (experiment.Data.Lever), not p and q on every graph: a
// multiplex graph's are layer-degree and layers, a scale-free graph's
// attach, and a real graph has none to name.
func TestEdgelessNamesTheGraphsOwnRows(t *testing.T) {
	for _, c := range []struct{ graph, field, words string }{
		{experiment.GraphSynthetic, "q", "raise one of q, p, per-class"}, // at 16 a class more pairs lie between classes
		{experiment.GraphMultiplex, "layer-degree", "raise one of layer-degree, layers, per-class"},
		{experiment.GraphScaleFree, "attach", "raise one of attach, per-class"},
		{experiment.GraphCora, "", "or a graph with edges"},
	} {
		e := experiment.Default()
		e.Data.Graph, e.Data.PerClass = c.graph, 16
		g, err := datasets.Build(e.Data)
		if err != nil {
			t.Fatal(err)
		}
		empty := *g
		empty.Src, empty.Dst, empty.EdgeX, empty.Kind = nil, nil, nil, nil
		_, err = NewTrainer(&empty, e)
		var ge *GraphError
		if !errors.As(err, &ge) || ge.Field != c.field || !strings.Contains(err.Error(), c.words) {
			t.Errorf("%s without edges: %v (field %q); want field %q and %q", c.graph, err, fieldOf(ge), c.field, c.words)
		}
	}
}

func fieldOf(e *GraphError) string {
	if e == nil {
		return ""
	}
	return e.Field
}
