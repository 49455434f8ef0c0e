package datasets

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// The publishers' conventions, one rule each in one place, on every
// surface: each case is keyed by the format row whose rule it holds to,
// and a row that states a rule without its case fails.

// bareClassCases are, by format row, a graph whose node table has no
// header and several columns that could each be the class: the class is
// the column the row's bareClass says, read on every surface.
var bareClassCases = map[string]struct {
	files  map[string]string
	names  []string // the class names the row's column gives
	labels []int
}{
	// Network Repository's NAME.node_labels: node,label, then features.
	"Matrix Market": {
		files: map[string]string{
			"club.mtx":         "%%MatrixMarket matrix coordinate pattern symmetric\n6 6 5\n2 1\n3 2\n4 3\n5 4\n6 5\n",
			"club.node_labels": "1,0,0,7\n2,1,0,7\n3,0,1,7\n4,1,1,8\n5,0,2,8\n6,1,2,8\n",
		},
		labels: []int{0, 1, 0, 1, 0, 1}, // classes numbered 0..K−1 keep no names
	},
	// Planetoid's .content: id, features…, class.
	"edge list": {
		files: map[string]string{
			"club.content": "a,0,0,7\nb,1,0,7\nc,0,1,7\nd,1,1,8\ne,0,2,8\nf,1,2,8\n",
			"club.cites":   "a,b\nb,c\nc,d\nd,e\ne,f\n",
		},
		names: []string{"7", "8"}, labels: []int{0, 0, 0, 1, 1, 1},
	},
}

func TestAHeaderlessTableKeepsItsRowsClassColumn(t *testing.T) {
	for _, f := range formats {
		c, ok := bareClassCases[f.name]
		if ok != (f.bareClass != askClass) {
			t.Errorf("format %s: bareClass %d, and a case: %v; a row that places a headerless table's class needs its case here, and only such a row", f.name, f.bareClass, ok)
		}
		if !ok {
			continue
		}
		for _, s := range surfaces {
			t.Run(f.name+"/"+s.name, func(t *testing.T) {
				g, err := s.open(t, c.files)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(g.ClassNames, c.names) || len(g.ClassNames) != len(c.names) || fmt.Sprint(g.Labels) != fmt.Sprint(c.labels) {
					t.Errorf("classes %q, labels %v; want %q, %v (the row's column)", g.ClassNames, g.Labels, c.names, c.labels)
				}
			})
		}
	}
}

// attributeOrderCases are, by format row, a graph of four nodes whose
// node attributes (class, then w0…w10, each node's in that order) are
// declared in reverse, under ids that sort otherwise (d0, d1, d10, d11, d2,
// …), as nx.write_graphml declares them: NetworkX's readers give each
// node's attributes in the order its file gives its values, and so are
// its features, w0 first, in every format alike.
var attributeOrderCases = map[string]func() map[string]string{
	"GraphML": func() map[string]string {
		var b strings.Builder
		b.WriteString(`<?xml version='1.0' encoding='utf-8'?>` + "\n" + `<graphml xmlns="http://graphml.graphdrawing.org/xmlns">` + "\n")
		for k := 11; k >= 1; k-- {
			fmt.Fprintf(&b, "<key id=\"d%d\" for=\"node\" attr.name=\"w%d\" attr.type=\"double\"/>\n", k, k-1)
		}
		b.WriteString("<key id=\"d0\" for=\"node\" attr.name=\"class\" attr.type=\"string\"/>\n<graph edgedefault=\"undirected\">\n")
		for n := range 4 {
			fmt.Fprintf(&b, "<node id=\"%d\"><data key=\"d0\">%s</data>", n, "ab"[n%2:n%2+1])
			for k := range 11 {
				fmt.Fprintf(&b, "<data key=\"d%d\">%d</data>", k+1, attributeValue(n, k))
			}
			b.WriteString("</node>\n")
		}
		b.WriteString("<edge source=\"0\" target=\"1\"/><edge source=\"1\" target=\"2\"/><edge source=\"2\" target=\"3\"/>\n</graph>\n</graphml>\n")
		return map[string]string{"g.graphml": b.String()}
	},
	"GEXF": func() map[string]string {
		var b strings.Builder
		b.WriteString(`<?xml version='1.0' encoding='utf-8'?>` + "\n" + `<gexf xmlns="http://www.gexf.net/1.2draft" version="1.2">` + "\n" + `<graph defaultedgetype="undirected" mode="static">` + "\n<attributes mode=\"static\" class=\"node\">\n")
		for k := 11; k >= 1; k-- {
			fmt.Fprintf(&b, "<attribute id=\"%d\" title=\"w%d\" type=\"double\"/>\n", k, k-1)
		}
		b.WriteString("<attribute id=\"0\" title=\"class\" type=\"string\"/>\n</attributes>\n<nodes>\n")
		for n := range 4 {
			fmt.Fprintf(&b, "<node id=\"%d\" label=\"%d\"><attvalues><attvalue for=\"0\" value=\"%s\"/>", n, n, "ab"[n%2:n%2+1])
			for k := range 11 {
				fmt.Fprintf(&b, "<attvalue for=\"%d\" value=\"%d\"/>", k+1, attributeValue(n, k))
			}
			b.WriteString("</attvalues></node>\n")
		}
		b.WriteString("</nodes>\n<edges>\n<edge id=\"0\" source=\"0\" target=\"1\"/><edge id=\"1\" source=\"1\" target=\"2\"/><edge id=\"2\" source=\"2\" target=\"3\"/>\n</edges>\n</graph>\n</gexf>\n")
		return map[string]string{"g.gexf": b.String()}
	},
	"node-link JSON": func() map[string]string {
		var b strings.Builder
		b.WriteString(`{"directed": false, "multigraph": false, "graph": {}, "nodes": [`)
		for n := range 4 {
			if n > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, `{"class": %q`, "ab"[n%2:n%2+1])
			for k := range 11 {
				fmt.Fprintf(&b, `, "w%d": %d`, k, attributeValue(n, k))
			}
			fmt.Fprintf(&b, `, "id": %d}`, n)
		}
		b.WriteString(`], "links": [{"source": 0, "target": 1}, {"source": 1, "target": 2}, {"source": 2, "target": 3}]}` + "\n")
		return map[string]string{"g.json": b.String()}
	},
}

// attributeValue is node n's attribute wk: none 0, none alike.
func attributeValue(n, k int) int { return 100*n + k + 1 }

func TestAttributesInNetworkXsOrder(t *testing.T) {
	for _, f := range formats {
		files, ok := attributeOrderCases[f.name]
		if ok != f.holdsItems {
			t.Errorf("format %s: holdsItems %v, and a case: %v; every row read by the GraphML reader's keys (holdsItems) needs its case here", f.name, f.holdsItems, ok)
		}
		if !ok {
			continue
		}
		for _, s := range surfaces {
			t.Run(f.name+"/"+s.name, func(t *testing.T) {
				g, err := s.open(t, files())
				if err != nil {
					t.Fatal(err)
				}
				if g.F != 11 || g.X == nil {
					t.Fatalf("F %d, dense %v; want 11 dense features", g.F, g.X != nil)
				}
				for n := range 4 {
					for k := range 11 {
						if got := g.X[n*g.F+k]; got != float64(attributeValue(n, k)) {
							t.Fatalf("node %d feature %d is %g; want w%d, %d: the order NetworkX's reader gives", n, k, got, k, attributeValue(n, k))
						}
					}
				}
			})
		}
	}
}
