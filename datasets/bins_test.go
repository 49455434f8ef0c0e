package datasets

import (
	"fmt"
	"strings"
	"testing"
)

// bins reads a measured target as classes in every node table (a MUSAE
// folder's target.csv, an edge list's labels file, GraphML's attributes);
// a bundle, whose classes are its own, refuses it by name.
func TestBinsInEveryNodeTable(t *testing.T) {
	var target, edges, labels strings.Builder
	var gml strings.Builder
	target.WriteString("id,target\n")
	labels.WriteString("node,traffic\n")
	edges.WriteString("id_1,id_2\n")
	gml.WriteString(`<?xml version="1.0"?><graphml xmlns="http://graphml.graphdrawing.org/xmlns"><key id="d0" for="node" attr.name="traffic" attr.type="long"/><graph edgedefault="undirected">`)
	for i := range 30 {
		v := 100 + 37*i
		fmt.Fprintf(&target, "%d,%d\n", i, v)
		fmt.Fprintf(&labels, "%d,%d\n", i, v)
		fmt.Fprintf(&edges, "%d,%d\n", i, (i+1)%30)
		fmt.Fprintf(&gml, `<node id="n%d"><data key="d0">%d</data></node>`, i, v)
	}
	for i := range 30 {
		fmt.Fprintf(&gml, `<edge source="n%d" target="n%d"/>`, i, (i+1)%30)
	}
	gml.WriteString(`</graph></graphml>`)
	for name, files := range map[string]map[string]string{
		"MUSAE":     {"edges.csv": edges.String(), "target.csv": target.String(), "features.json": "{}"},
		"edge list": {"edges.csv": edges.String(), "labels.csv": labels.String()},
		"GraphML":   {"g.graphml": gml.String()},
	} {
		if _, _, err := Open(mapFS(files), Columns{}); err == nil || !strings.Contains(err.Error(), "-bins K") {
			t.Errorf("%s without bins: %v; want it refused, naming -bins K", name, err)
		}
		g, _, err := Open(mapFS(files), Columns{Bins: 3})
		if err != nil {
			t.Errorf("%s with bins=3: %v", name, err)
			continue
		}
		counts := make([]int, g.C)
		for _, l := range g.Labels {
			counts[l]++
		}
		if g.C != 3 || counts[0] != 10 || counts[1] != 10 || counts[2] != 10 || !strings.Contains(fmt.Sprint(g.Notes), "3 classes of 10 to 10 nodes") {
			t.Errorf("%s with bins=3: %d classes %v, notes %v", name, g.C, counts, g.Notes)
		}
	}
}
