package datasets

import (
	"cmp"
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
	for _, f := range formats() {
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
	for _, f := range formats() {
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

// repeatCase is a graph whose pair of nodes 0 and 1 is listed more than
// once with several weights, and the weight its format's library gives
// the pair.
type repeatCase struct {
	name   string
	files  map[string]string
	weight float64
	note   string
}

// nodeLinkRepeat is a node-link graph of the links given (source, target,
// weight), directed or a multigraph.
func nodeLinkRepeat(directed, multi bool, links ...[3]int) map[string]string {
	var ls []string
	for _, l := range links {
		ls = append(ls, fmt.Sprintf(`{"weight": %d, "source": %d, "target": %d}`, l[2], l[0], l[1]))
	}
	return map[string]string{"g.json": fmt.Sprintf(`{"directed": %v, "multigraph": %v, "graph": {}, "nodes": [{"c": 0, "id": 0}, {"c": 1, "id": 1}, {"c": 0, "id": 2}, {"c": 1, "id": 3}], "links": [%s, {"weight": 2, "source": 1, "target": 2}, {"weight": 3, "source": 2, "target": 3}]}`, directed, multi, strings.Join(ls, ", "))}
}

func gexfRepeat(directed bool, edges ...[3]int) map[string]string {
	var b strings.Builder
	kind := "undirected"
	if directed {
		kind = "directed"
	}
	fmt.Fprintf(&b, "<?xml version='1.0' encoding='utf-8'?>\n<gexf xmlns=\"http://www.gexf.net/1.2draft\" version=\"1.2\">\n<graph defaultedgetype=%q mode=\"static\">\n<attributes mode=\"static\" class=\"node\"><attribute id=\"0\" title=\"c\" type=\"long\"/></attributes>\n<nodes>\n", kind)
	for n := range 4 {
		fmt.Fprintf(&b, "<node id=\"%d\" label=\"%d\"><attvalues><attvalue for=\"0\" value=\"%d\"/></attvalues></node>\n", n, n, n%2)
	}
	b.WriteString("</nodes>\n<edges>\n")
	for i, e := range append(edges, [3]int{1, 2, 2}, [3]int{2, 3, 3}) {
		fmt.Fprintf(&b, "<edge id=\"%d\" source=\"%d\" target=\"%d\" weight=\"%d\"/>\n", i, e[0], e[1], e[2])
	}
	b.WriteString("</edges>\n</graph>\n</gexf>\n")
	return map[string]string{"g.gexf": b.String()}
}

func graphmlRepeat(directed bool, edges ...[3]int) map[string]string {
	var b strings.Builder
	kind := "undirected"
	if directed {
		kind = "directed"
	}
	fmt.Fprintf(&b, "<?xml version='1.0' encoding='utf-8'?>\n<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n<key id=\"d1\" for=\"edge\" attr.name=\"weight\" attr.type=\"double\"/>\n<key id=\"d0\" for=\"node\" attr.name=\"c\" attr.type=\"long\"/>\n<graph edgedefault=%q>\n", kind)
	for n := range 4 {
		fmt.Fprintf(&b, "<node id=\"%d\"><data key=\"d0\">%d</data></node>\n", n, n%2)
	}
	for _, e := range append(edges, [3]int{1, 2, 2}, [3]int{2, 3, 3}) {
		fmt.Fprintf(&b, "<edge source=\"%d\" target=\"%d\"><data key=\"d1\">%d</data></edge>\n", e[0], e[1], e[2])
	}
	b.WriteString("</graph>\n</graphml>\n")
	return map[string]string{"g.graphml": b.String()}
}

const nxLast = "1 pairs are listed again with other values: each value is the last given"

// repeatCases are, by format row, pairs listed again with other weights,
// merged as the row's library merges them: NetworkX's simple Graph keeps
// the attributes given last (nx.Graph(D) of a directed graph, node by
// node: 1→0 after 0→1 whatever the file's order), SciPy sums an entry
// listed twice, as does PyG's coalesce an OGB edge's features.
var repeatCases = map[string][]repeatCase{
	"node-link JSON": {
		{"directed both ways", nodeLinkRepeat(true, false, [3]int{0, 1, 1}, [3]int{1, 0, 9}), 9, nxLast},
		{"directed both ways, the later node's first", nodeLinkRepeat(true, false, [3]int{1, 0, 9}, [3]int{0, 1, 1}), 9, nxLast},
		{"a multigraph's two edges", nodeLinkRepeat(false, true, [3]int{0, 1, 1}, [3]int{0, 1, 9}), 9, nxLast},
		{"an undirected graph's pair listed again", nodeLinkRepeat(false, false, [3]int{0, 1, 1}, [3]int{1, 0, 9}), 9, nxLast},
	},
	"GEXF": {
		{"directed both ways", gexfRepeat(true, [3]int{0, 1, 1}, [3]int{1, 0, 9}), 9, nxLast},
		{"directed both ways, the later node's first", gexfRepeat(true, [3]int{1, 0, 9}, [3]int{0, 1, 1}), 9, nxLast},
		{"two undirected edges", gexfRepeat(false, [3]int{0, 1, 1}, [3]int{0, 1, 9}), 9, nxLast},
	},
	"GraphML": {
		{"directed both ways", graphmlRepeat(true, [3]int{0, 1, 1}, [3]int{1, 0, 9}), 9, nxLast},
		{"directed both ways, the later node's first", graphmlRepeat(true, [3]int{1, 0, 9}, [3]int{0, 1, 1}), 9, nxLast},
		{"two undirected edges (a MultiGraph)", graphmlRepeat(false, [3]int{0, 1, 1}, [3]int{0, 1, 9}), 9, nxLast},
	},
	"edge list": {
		{"a pair listed again, reversed", map[string]string{
			"edges.csv":  "0,1,1\n1,2,2\n1,0,9\n2,3,3\n",
			"labels.csv": "0,0\n1,1\n2,0\n3,1\n",
		}, 9, "edges.csv: " + nxLast + ", as NetworkX's Graph keeps the attributes given last"},
	},
	"MUSAE": {
		{"a pair listed again", map[string]string{
			"edges.csv":  "id_1,id_2,w\n0,1,1\n1,2,2\n0,1,9\n2,3,3\n",
			"target.csv": "id,target\n0,0\n1,1\n2,0\n3,1\n",
		}, 9, "edges.csv: " + nxLast},
	},
	"OGB": {
		{"an edge given both ways", map[string]string{
			"raw/edge.csv.gz":          gz("0,1\n1,2\n1,0\n2,3\n"),
			"raw/edge-feat.csv.gz":     gz("1\n2\n9\n3\n"),
			"raw/node-label.csv.gz":    gz("0\n1\n0\n1\n"),
			"raw/num-node-list.csv.gz": gz("4\n"),
		}, 10, "raw/edge.csv.gz: 1 pairs are listed again with values: their values were summed, as PyG's coalesce sums them"},
	},
	"Matrix Market": {
		{"symmetric, listed both ways", map[string]string{
			"g.mtx":         "%%MatrixMarket matrix coordinate real symmetric\n4 4 4\n1 2 1\n2 1 3\n3 2 2\n4 3 3\n",
			"g.node_labels": "1,0\n2,1\n3,0\n4,1\n",
		}, 4, "g.mtx: 1 entries are listed again at a place listed before or at its mirror (the matrix is symmetric"},
		{"general, an entry twice and its mirror", map[string]string{
			"g.mtx":         "%%MatrixMarket matrix coordinate real general\n4 4 5\n1 2 1.0\n1 2 2.0\n2 1 5\n2 3 2\n3 4 3\n",
			"g.node_labels": "1,0\n2,1\n3,0\n4,1\n",
		}, 3, "g.mtx: 1 entries are listed again at a place listed before: their values were summed"},
		{"general, both ways with two weights", map[string]string{
			"g.mtx":         "%%MatrixMarket matrix coordinate real general\n4 4 4\n1 2 1.0\n2 1 5\n2 3 2\n3 4 3\n",
			"g.node_labels": "1,0\n2,1\n3,0\n4,1\n",
		}, 1, "g.mtx: 1 pairs are listed both ways with two weights: the direction listed first was kept"},
	},
}

func TestRepeatedPairsMergedAsTheirLibraryDoes(t *testing.T) {
	for _, f := range formats() {
		cases, ok := repeatCases[f.name]
		if want := f.merges == lastKept || f.merges == summed; ok != want {
			t.Errorf("format %s: a case: %v; want one where its edges carry values (merges %d)", f.name, ok, f.merges)
		}
		for _, c := range cases {
			t.Run(f.name+"/"+c.name, func(t *testing.T) {
				g, _, err := Open(mapFS(c.files), Columns{Target: cmp.Or(map[bool]string{true: "c"}[f.holdsItems], "")})
				if err != nil {
					t.Fatal(err)
				}
				e := slices.IndexFunc(g.Src, func(s int32) bool { return s == 0 })
				if e < 0 || g.Dst[e] != 1 || g.E() != 3 || g.D != 1 {
					t.Fatalf("edges %v–%v, D %d; want 3, the pair 0–1 once, one weight", g.Src, g.Dst, g.D)
				}
				if g.EdgeX[e] != c.weight {
					t.Errorf("pair 0–1 weighs %g; want %g", g.EdgeX[e], c.weight)
				}
				if !hasNote(g, c.note) {
					t.Errorf("notes %q; want one saying %q", g.Notes, c.note)
				}
			})
		}
	}
}

// twoNamedAlikeCases are, by format row, a file declaring two node
// attributes under one name: refused at the second, naming the first's
// line, as a key declared twice is (NetworkX would keep the last one's
// values, and -target would take the first).
var twoNamedAlikeCases = map[string]struct {
	files map[string]string
	want  string
}{
	"GEXF": {map[string]string{"g.gexf": `<?xml version="1.0" encoding="UTF-8"?>
<gexf xmlns="http://www.gexf.net/1.2draft" version="1.2">
  <graph defaultedgetype="undirected">
    <attributes class="node">
      <attribute id="0" title="cls" type="integer"/>
      <attribute id="1" title="cls" type="integer"/>
    </attributes>
    <nodes><node id="a"><attvalues><attvalue for="0" value="0"/><attvalue for="1" value="1"/></attvalues></node></nodes>
    <edges/>
  </graph>
</gexf>
`}, `g.gexf:6:7: a second node attribute named "cls" (the first on line 5, column 7)`},
	"GraphML": {map[string]string{"g.graphml": `<?xml version="1.0" encoding="UTF-8"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
<key id="d0" for="node" attr.name="cls" attr.type="long"/>
<key id="d1" for="all" attr.name="cls" attr.type="long"/>
<graph edgedefault="undirected"><node id="a"><data key="d0">0</data></node></graph>
</graphml>
`}, `g.graphml:4:1: a second node attribute named "cls" (the first on line 3, column 1)`},
}

func TestTwoAttributesOneNameRefused(t *testing.T) {
	for _, f := range formats() {
		c, ok := twoNamedAlikeCases[f.name]
		if want := f.holdsItems && f.name != "node-link JSON"; ok != want {
			t.Errorf("format %s: a case: %v; want %v (node-link JSON refuses a key given twice in an object, input.JSON's rule)", f.name, ok, want)
		}
		if !ok {
			continue
		}
		for _, s := range surfaces {
			t.Run(f.name+"/"+s.name, func(t *testing.T) {
				_, err := s.open(t, c.files)
				if err == nil || !strings.Contains(err.Error(), c.want) {
					t.Errorf("got %v; want %q", err, c.want)
				}
			})
		}
	}
}

// gexfWeightless is a GEXF path a–b–c–d whose edge c–d gives no weight,
// with the edge attributes declared and the edges' own parts given.
func gexfWeightless(declared string, ab, bc string) map[string]string {
	return map[string]string{"g.gexf": `<?xml version="1.0" encoding="UTF-8"?>
<gexf xmlns="http://www.gexf.net/1.2draft" version="1.2">
  <graph defaultedgetype="undirected">
    <attributes class="node"><attribute id="0" title="cls" type="integer"/></attributes>
    <attributes class="edge">` + declared + `</attributes>
    <nodes>
      <node id="a"><attvalues><attvalue for="0" value="0"/></attvalues></node>
      <node id="b"><attvalues><attvalue for="0" value="1"/></attvalues></node>
      <node id="c"><attvalues><attvalue for="0" value="0"/></attvalues></node>
      <node id="d"><attvalues><attvalue for="0" value="1"/></attvalues></node>
    </nodes>
    <edges>
      <edge source="a" target="b"` + ab + `
      <edge source="b" target="c"` + bc + `
      <edge source="c" target="d"/>
    </edges>
  </graph>
</gexf>
`}
}

// weightlessEdgeCases are, by format row, graphs with an edge that gives
// no weight where others do: it weighs what the row's publisher says
// (GEXF's default weight, 1, as Gephi reads it), however the weight is
// declared.
var weightlessEdgeCases = map[string][]struct {
	name  string
	files map[string]string
}{
	"GEXF": {
		{"weight= alone", gexfWeightless("", ` weight="2"/>`, ` weight="3"/>`)},
		{"an attribute titled weight, and weight=", gexfWeightless(`<attribute id="w" title="weight" type="double"/>`, ` weight="2"/>`, ` weight="3"/>`)},
		{"an attribute titled weight, its values alone", gexfWeightless(`<attribute id="w" title="weight" type="double"/>`, `><attvalues><attvalue for="w" value="2"/></attvalues></edge>`, `><attvalues><attvalue for="w" value="3"/></attvalues></edge>`)},
	},
}

func TestAnEdgeWithoutAWeightWeighsItsFormatsDefault(t *testing.T) {
	for name, cases := range weightlessEdgeCases {
		if !slices.ContainsFunc(formats(), func(f format) bool { return f.name == name }) {
			t.Errorf("no format row %s", name)
		}
		for _, c := range cases {
			t.Run(name+"/"+c.name, func(t *testing.T) {
				g, _, err := Open(mapFS(c.files), Columns{Target: "cls"})
				if err != nil {
					t.Fatal(err)
				}
				w := slices.Index(g.EdgeNames, "weight")
				if w < 0 || g.E() != 3 {
					t.Fatalf("edge features %q, %d edges; want a weight on 3", g.EdgeNames, g.E())
				}
				var got []float64
				for e := range g.E() {
					got = append(got, g.EdgeX[e*g.D+w])
				}
				if fmt.Sprint(got) != "[2 3 1]" {
					t.Errorf("weights %v; want [2 3 1]: c–d gives none, and weighs 1", got)
				}
			})
		}
	}
}

// TestAClassLeftOutIsNoZero: a node that leaves out only its class (a
// number) gets no note of numeric attributes read as 0: it is a node
// without a class, the class builder's note, in every format of the
// GraphML reader.
func TestAClassLeftOutIsNoZero(t *testing.T) {
	left := map[string]func() map[string]string{
		"GraphML": func() map[string]string {
			fs := graphmlRepeat(false, [3]int{0, 1, 1})
			fs["g.graphml"] = strings.Replace(fs["g.graphml"], `<node id="1"><data key="d0">1</data></node>`, `<node id="1"/>`, 1)
			return fs
		},
		"GEXF": func() map[string]string {
			fs := gexfRepeat(false, [3]int{0, 1, 1})
			fs["g.gexf"] = strings.Replace(fs["g.gexf"], `<node id="1" label="1"><attvalues><attvalue for="0" value="1"/></attvalues></node>`, `<node id="1" label="1"/>`, 1)
			return fs
		},
		"node-link JSON": func() map[string]string {
			fs := nodeLinkRepeat(false, false, [3]int{0, 1, 1})
			fs["g.json"] = strings.Replace(fs["g.json"], `{"c": 1, "id": 1}`, `{"id": 1}`, 1)
			return fs
		},
	}
	for _, f := range formats() {
		files, ok := left[f.name]
		if ok != f.holdsItems {
			t.Errorf("format %s: a case: %v; want %v", f.name, ok, f.holdsItems)
		}
		if !ok {
			continue
		}
		t.Run(f.name, func(t *testing.T) {
			g, _, err := Open(mapFS(files()), Columns{Target: "c"})
			if err != nil {
				t.Fatal(err)
			}
			if g.Labels[1] != NoClass {
				t.Fatalf("labels %v; want node 1 without a class", g.Labels)
			}
			for _, n := range g.Notes {
				if strings.Contains(n.String(), "numeric node attributes are left out") {
					t.Errorf("note %q: the class left out is no numeric attribute read as 0", n)
				}
			}
		})
	}
}

// TestEdgesInOneOrder: every format's graph, on every surface, lists its
// edges as the graphs drawn and shipped do, each pair (min, max), sorted,
// so that the same graph gets the same bits however its file lists its
// edges (PDN's draws per edge follow their order).
func TestEdgesInOneOrder(t *testing.T) {
	canonical := func(g *Graph) bool {
		for e := range g.Src {
			if g.Src[e] >= g.Dst[e] || e > 0 && cmp.Or(cmp.Compare(g.Src[e-1], g.Src[e]), cmp.Compare(g.Dst[e-1], g.Dst[e])) >= 0 {
				return false
			}
		}
		return true
	}
	fixtures := faultFixtures(t)
	// Listed out of order and backwards: 3–1 first, 2–1 after 1–2's pair.
	fixtures["GraphML"] = append(fixtures["GraphML"], faultFixture{name: "edges out of order", files: graphmlRepeat(false, [3]int{3, 1, 4}, [3]int{2, 0, 5})})
	fixtures["node-link JSON"] = append(fixtures["node-link JSON"], faultFixture{name: "edges out of order", files: nodeLinkRepeat(false, false, [3]int{3, 1, 4}, [3]int{2, 0, 5})})
	for _, f := range formats() {
		for _, fx := range fixtures[f.name] {
			for _, s := range surfaces {
				t.Run(f.name+"/"+fx.name+"/"+s.name, func(t *testing.T) {
					g, err := s.open(t, fx.files)
					if err != nil {
						t.Fatal(err)
					}
					if !canonical(g) {
						t.Errorf("edges %v–%v; want each pair (min, max), sorted", g.Src, g.Dst)
					}
				})
			}
		}
	}
}
