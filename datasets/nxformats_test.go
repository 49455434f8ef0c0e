package datasets

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/input"
)

// The karate club files in testdata were written by NetworkX 2.8.8 from
// one graph, so that each of its writers' files is read as the same graph
// (CI has no Python; the files are kept):
//
//	import json, networkx as nx
//	G = nx.karate_club_graph()
//	for v in G:
//	    G.nodes[v]["age"] = round(20 + (v * 7) % 13 + 0.25 * (v % 4), 2)
//	nx.write_graphml(G, "karate.graphml")
//	nx.write_gexf(G, "karate.gexf")
//	d = nx.node_link_data(G)
//	json.dump(d, open("karate-links.json", "w"))
//	d["edges"] = d.pop("links")  # as NetworkX 3.4's node_link_data(G, edges="edges")
//	json.dump(d, open("karate-edges.json", "w"), indent=1)

// wholeGraph is what two readings of one graph share: its nodes in
// order, classes, features, edges and edge features.
func wholeGraph(g *Graph) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\nlabels %v\nnames %q\nX %v\n", fingerprint(g), g.Labels, g.ClassNames, g.X)
	if g.XS != nil {
		fmt.Fprintf(&b, "XS %v %v %v\n", g.XS.Ptr, g.XS.Col, g.XS.Val)
	}
	fmt.Fprintf(&b, "src %v\ndst %v\nedge names %q\nedgeX %v\n", g.Src, g.Dst, g.EdgeNames, g.EdgeX)
	return b.String()
}

func TestGEXFAndNodeLinkReadAsGraphML(t *testing.T) {
	read := func(file string) *Graph {
		t.Helper()
		body, err := os.ReadFile("testdata/" + file)
		if err != nil {
			t.Fatal(err)
		}
		g, _, err := Open(mapFS(map[string]string{file: string(body)}), Columns{})
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		return g
	}
	want := read("karate.graphml")
	if want.N != 34 || want.E() != 78 || want.C != 2 || want.F != 1 || !slices.Equal(want.EdgeNames, []string{"weight"}) {
		t.Fatalf("karate.graphml: %s, edge names %q", fingerprint(want), want.EdgeNames)
	}
	for _, file := range []string{"karate.gexf", "karate-links.json", "karate-edges.json"} {
		g := read(file)
		if got, w := wholeGraph(g), wholeGraph(want); got != w {
			t.Errorf("%s reads\n%s\nkarate.graphml\n%s", file, got, w)
		}
		if g.Meta["class_column"] != "club" {
			t.Errorf("%s: class column %v", file, g.Meta["class_column"])
		}
	}
}

// tinyGEXF is what NetworkX's write_gexf (GEXF 1.2) writes of the graph
// tinyGraphML holds, with Gephi's drawing on a node and weights on edges.
const tinyGEXF = `<?xml version='1.0' encoding='utf-8'?>
<gexf xmlns="http://www.gexf.net/1.2draft" xmlns:viz="http://www.gexf.net/1.2draft/viz" version="1.2">
  <graph defaultedgetype="undirected" mode="static" name="club">
    <attributes mode="static" class="node">
      <attribute id="0" title="club" type="string" />
      <attribute id="1" title="age" type="double"><default>1</default></attribute>
    </attributes>
    <attributes mode="static" class="edge">
      <attribute id="0" title="actor" type="double" />
      <attribute id="1" title="note" type="string" />
    </attributes>
    <nodes>
      <node id="a" label="Anne"><attvalues><attvalue for="0" value="Mr. Hi" /><attvalue for="1" value="3" /></attvalues><viz:position x="1" y="2" z="0" /><viz:size value="5" /></node>
      <node id="b" label="Bob"><attvalues><attvalue for="0" value="Officer" /></attvalues></node>
      <node id="c" label="Cy"><attvalues><attvalue for="0" value="Mr. Hi" /><attvalue for="1" value="4" /></attvalues></node>
      <node id="d" label="Di"><attvalues><attvalue for="0" value="Officer" /><attvalue for="1" value="2" /></attvalues></node>
    </nodes>
    <edges>
      <edge id="0" source="a" target="b" weight="2"><attvalues><attvalue for="0" value="1" /><attvalue for="1" value="x" /></attvalues></edge>
      <edge id="1" source="b" target="c" />
      <edge id="2" source="c" target="a" weight="3"><attvalues><attvalue for="0" value="1" /></attvalues></edge>
      <edge id="3" source="a" target="a" />
    </edges>
  </graph>
</gexf>
`

// tinyNodeLink is what json.dump(nx.node_link_data(G)) writes of the
// graph tinyGraphML holds (indented): b gives no age, as NetworkX leaves
// out an attribute a node has not.
const tinyNodeLink = `{"directed": false, "multigraph": false, "graph": {},
 "nodes": [
  {"club": "Mr. Hi", "age": 3, "id": "a"},
  {"club": "Officer", "id": "b"},
  {"club": "Mr. Hi", "age": 4, "id": "c"},
  {"club": "Officer", "age": 2, "id": "d"}
 ],
 "links": [
  {"actor": 1, "note": "x", "source": "a", "target": "b"},
  {"director": 1, "source": "b", "target": "c"},
  {"actor": 1, "director": 1, "source": "c", "target": "a"},
  {"source": "a", "target": "a"}
 ]}
`

func TestReadGEXF(t *testing.T) {
	g, resplit, err := Open(mapFS(map[string]string{"club.gexf": tinyGEXF}), Columns{})
	if err != nil {
		t.Fatal(err)
	}
	if !resplit || g.N != 4 || g.C != 2 || !slices.Equal(g.ClassNames, []string{"Mr. Hi", "Officer"}) || !slices.Equal(g.Labels, []int{0, 1, 0, 1}) {
		t.Errorf("resplit %v N %d names %v labels %v", resplit, g.N, g.ClassNames, g.Labels)
	}
	// age is a feature (b takes the default); the label is no column.
	if g.F != 1 || !slices.Equal(g.DenseX(), []float64{3, 1, 4, 2}) {
		t.Errorf("features %v", g.DenseX())
	}
	// weight= is the edge's "weight", 1 where left out; note is text.
	if !slices.Equal(g.EdgeNames, []string{"actor", "weight"}) || g.E() != 3 || !slices.Equal(g.EdgeX, []float64{1, 2, 1, 3, 0, 1}) /* a–b, a–c, b–c */ {
		t.Errorf("edge names %v edges %v %v features %v", g.EdgeNames, g.Src, g.Dst, g.EdgeX)
	}
	if !hasNote(g, "club.gexf: its viz: elements (viz:position, viz:size) are the drawing's (positions, size, colour), not node features or classes") ||
		!hasNote(g, "club.gexf: dropped 1 self-loops and 0 pairs listed again") {
		t.Errorf("notes %v", g.Notes)
	}
	// An attribute declared below the nodes that use it: NetworkX reads it.
	later := strings.Replace(strings.Replace(tinyGEXF, `<attribute id="0" title="club" type="string" />`, ``, 1),
		`</nodes>`, `</nodes><attributes class="node"><attribute id="0" title="club" type="string" /></attributes>`, 1)
	if g, _, err := Open(mapFS(map[string]string{"club.gexf": later}), Columns{}); err != nil || !slices.Equal(g.ClassNames, []string{"Mr. Hi", "Officer"}) || !slices.Equal(g.DenseX(), []float64{3, 1, 4, 2}) {
		t.Errorf("an attribute declared after its use: %v", err)
	}
	for _, ns := range []string{`xmlns="http://gexf.net/1.3"`, `xmlns="http://www.gexf.net/1.1draft"`, ``} {
		body := strings.Replace(tinyGEXF, `xmlns="http://www.gexf.net/1.2draft"`, ns, 1)
		if g, _, err := Open(mapFS(map[string]string{"club.gexf": body}), Columns{}); err != nil || g.N != 4 {
			t.Errorf("namespace %s: %v", ns, err)
		}
	}
}

// labelledGEXF is a GEXF graph whose only classes are its nodes'
// label=, with two numeric attributes that are no class.
const labelledGEXF = `<?xml version="1.0" encoding="UTF-8"?>
<gexf xmlns="http://www.gexf.net/1.2draft" version="1.2">
  <graph defaultedgetype="undirected">
    <attributes class="node"><attribute id="0" title="x" type="float"/><attribute id="1" title="y" type="float"/></attributes>
    <nodes>
      <node id="a" label="red"><attvalues><attvalue for="0" value="0.1"/><attvalue for="1" value="1"/></attvalues></node>
      <node id="b" label="red"><attvalues><attvalue for="0" value="0.2"/><attvalue for="1" value="2"/></attvalues></node>
      <node id="c" label="blue"><attvalues><attvalue for="0" value="0.3"/><attvalue for="1" value="3"/></attvalues></node>
      <node id="d" label="blue"><attvalues><attvalue for="0" value="0.4"/><attvalue for="1" value="4"/></attvalues></node>
    </nodes>
    <edges><edge source="a" target="b"/><edge source="c" target="d"/><edge source="b" target="c"/></edges>
  </graph>
</gexf>
`

// A GEXF node's label= is no class unless -target label names it; where
// no class is found and the labels could be classes, the message says
// how to take them.
func TestGEXFLabelIsTheClassWhenNamed(t *testing.T) {
	files := mapFS(map[string]string{"g.gexf": labelledGEXF})
	_, _, err := Open(files, Columns{})
	if err == nil || !strings.Contains(err.Error(), "the nodes' label= (4 of them, 2 values) is each node's name in the drawing") || !strings.Contains(err.Error(), "-target label") {
		t.Errorf("no class: %v; want the label's hint", err)
	}
	g, _, err := Open(files, Columns{Target: "label"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(g.ClassNames, []string{"blue", "red"}) && !slices.Equal(g.ClassNames, []string{"red", "blue"}) || g.F != 2 {
		t.Errorf("-target label: classes %v, F %d; want red and blue, x and y features", g.ClassNames, g.F)
	}
	// Labels that name each node are no classes: no hint.
	names := strings.NewReplacer(`id="b" label="red"`, `id="b" label="b"`, `id="d" label="blue"`, `id="d" label="d"`).Replace(labelledGEXF)
	if _, _, err := Open(mapFS(map[string]string{"g.gexf": names}), Columns{}); err == nil || strings.Contains(err.Error(), "label=") {
		t.Errorf("labels that name nodes: %v; want no hint", err)
	}
	// An attribute titled label is what -target label names.
	titled := strings.Replace(labelledGEXF, `title="y"`, `title="label"`, 1)
	if g, _, err := Open(mapFS(map[string]string{"g.gexf": titled}), Columns{Target: "label"}); err == nil {
		t.Errorf("-target label with an attribute titled label (4 values): classes %v; want its own refusal", g.ClassNames)
	}
}

// A directed multigraph (node-link JSON's "multigraph": true, a GraphML
// or GEXF file that lists u→v twice, which NetworkX reads as a
// MultiDiGraph) is made simple by nx.Graph as from_dict_of_dicts does:
// of u→v and v→u, the edges from the node listed first are kept, each
// value the last they give, and the other direction's are dropped; in a
// simple directed graph the node listed later comes last. The values are
// NetworkX 2.8.8's (nx.Graph of each file as written by node_link_data,
// write_graphml and write_gexf).
func TestDirectedMultigraphKeepsTheFirstNodesEdges(t *testing.T) {
	// Nodes 2, 0, 1 in that order; 0→1 w=1, 1→0 w=2, 0→1 w=3, 2→1 w=4, 1→2 w=5.
	const nodeLink = `{"directed": true, "multigraph": true, "graph": {}, "nodes": [{"c": "a", "id": 2}, {"c": "b", "id": 0}, {"c": "a", "id": 1}],
 "links": [{"w": 1.0, "source": 0, "target": 1, "key": 0}, {"w": 3.0, "source": 0, "target": 1, "key": 1}, {"w": 2.0, "source": 1, "target": 0, "key": 0},
  {"w": 5.0, "source": 1, "target": 2, "key": 0}, {"w": 4.0, "source": 2, "target": 1, "key": 0}]}`
	graphml := `<?xml version='1.0' encoding='utf-8'?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
<key id="d1" for="edge" attr.name="w" attr.type="double"/>
<key id="d0" for="node" attr.name="c" attr.type="string"/>
<graph edgedefault="directed">
<node id="2"><data key="d0">a</data></node>
<node id="0"><data key="d0">b</data></node>
<node id="1"><data key="d0">a</data></node>
<edge source="0" target="1" id="0"><data key="d1">1.0</data></edge>
<edge source="0" target="1" id="1"><data key="d1">3.0</data></edge>
<edge source="1" target="0" id="0"><data key="d1">2.0</data></edge>
<edge source="1" target="2" id="0"><data key="d1">5.0</data></edge>
<edge source="2" target="1" id="0"><data key="d1">4.0</data></edge>
</graph></graphml>`
	for _, tc := range []struct {
		name, file, body string
		want             []float64 // w of 0–1, then of 1–2
	}{
		{"node-link JSON, a multigraph", "g.json", nodeLink, []float64{3, 4}},
		{"GraphML listing 0→1 twice", "g.graphml", graphml, []float64{3, 4}},
		// Without the second 0→1 the file is a simple DiGraph: the node
		// listed later comes last, node "1" after node "2" (the ids' order
		// is not the nodes').
		{"GraphML, simple", "g.graphml", strings.Replace(graphml, `<edge source="0" target="1" id="1"><data key="d1">3.0</data></edge>`, "", 1), []float64{2, 5}},
		{"node-link JSON, simple", "g.json", strings.ReplaceAll(strings.Replace(strings.Replace(nodeLink, `"multigraph": true`, `"multigraph": false`, 1), `{"w": 3.0, "source": 0, "target": 1, "key": 1}, `, "", 1), `, "key": 0`, ""), []float64{2, 5}},
	} {
		g, _, err := Open(mapFS(map[string]string{tc.file: tc.body}), Columns{})
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if !slices.Equal(g.EdgeX, tc.want) {
			t.Errorf("%s: edges %v %v, w %v; want %v", tc.name, g.Src, g.Dst, g.EdgeX, tc.want)
		}
	}
}

// A directed GEXF graph is read undirected and said; mutual edges are
// undirected ones.
func TestGEXFDirectedIsReadUndirectedAndSaid(t *testing.T) {
	for _, tc := range []struct{ name, body, want string }{
		{"defaultedgetype directed", strings.Replace(tinyGEXF, `defaultedgetype="undirected"`, `defaultedgetype="directed"`, 1),
			`club.gexf: 4 of its edges are directed (defaultedgetype="directed", or type="directed"), and were read as undirected, as the models are trained on undirected graphs; 3 of them were listed in one direction only`},
		{"one edge directed", strings.Replace(tinyGEXF, `<edge id="1" source="b" target="c" />`, `<edge id="1" source="b" target="c" type="directed" />`, 1),
			`club.gexf: 1 of its edges are directed (defaultedgetype="directed", or type="directed")`},
	} {
		g, _, err := Open(mapFS(map[string]string{"club.gexf": tc.body}), Columns{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if g.E() != 3 || !hasNote(g, tc.want) {
			t.Errorf("%s: %d edges, notes %v; want %q", tc.name, g.E(), g.Notes, tc.want)
		}
	}
	mutual := strings.Replace(strings.Replace(tinyGEXF, `defaultedgetype="undirected"`, `defaultedgetype="mutual"`, 1), `<edge id="1" source="b" target="c" />`, `<edge id="1" source="b" target="c" type="mutual" />`, 1)
	if g, _, err := Open(mapFS(map[string]string{"club.gexf": mutual}), Columns{}); err != nil || hasNote(g, "edges are directed") {
		t.Errorf("mutual: %v, notes %v", err, g.Notes)
	}
}

var badGEXF = []struct{ name, body, want string }{
	{"not XML", "<gexf><graph>", "club.gexf:1: not well-formed XML"},
	{"no nodes", "<gexf><graph></graph></gexf>", "club.gexf: no nodes"},
	{"not GEXF", "<graphml><graph/></graphml>", "club.gexf:1:1: the root element is <graphml>, not <gexf>"},
	{"a namespace of none of GEXF's", strings.Replace(tinyGEXF, "http://www.gexf.net/1.2draft\"", "http://example.org/gexf\"", 1),
		`club.gexf:2:1: the namespace "http://example.org/gexf" is none of GEXF's (http://www.gexf.net/1.1draft, http://www.gexf.net/1.2draft, http://gexf.net/1.3)`},
	{"a type outside GEXF's", strings.Replace(tinyGEXF, `title="age" type="double"`, `title="age" type="decimal"`, 1),
		`club.gexf:6:7: the attribute "1" has type "decimal", which is none of GEXF's types`},
	{"an attvalue for no attribute", strings.Replace(tinyGEXF, `<attvalue for="1" value="4" />`, `<attvalue for="7" value="4" />`, 1),
		`club.gexf:15:77: <attvalue for="7"> names no node attribute <attributes class="node"> declares (NetworkX raises "No attribute defined for=7.`},
	{"edge to nowhere", strings.Replace(tinyGEXF, `target="c" />`, `target="z" />`, 1), `club.gexf:20:7: edge target "z" is not a node`},
	{"node twice", strings.Replace(tinyGEXF, `<node id="b"`, `<node id="a"`, 1), `club.gexf:14:7: node "a" was declared on line 13 already`},
	{"age not a number", strings.Replace(tinyGEXF, `value="4"`, `value="old"`, 1), `club.gexf:15:7: node attribute age (of type double): "old" is not a finite decimal number`},
	{"weight not a number", strings.Replace(tinyGEXF, `weight="3"`, `weight="heavy"`, 1), `club.gexf:21:7: edge attribute weight: "heavy" is not a finite number`},
	{"dynamic", strings.Replace(tinyGEXF, `mode="static" name="club"`, `mode="dynamic" name="club"`, 1), `club.gexf:3:3: <graph mode="dynamic">: a dynamic graph: the explorer trains on the graph at one time`},
	{"spells", strings.Replace(tinyGEXF, `<node id="b" label="Bob">`, `<node id="b" label="Bob"><spells><spell start="1" end="2"/></spells>`, 1), `club.gexf:14:32: <spells>: a dynamic graph`},
	{"an attvalue in time", strings.Replace(tinyGEXF, `<attvalue for="1" value="4" />`, `<attvalue for="1" value="4" start="2001" />`, 1), `club.gexf:15:77: an <attvalue> with start or end: a dynamic graph`},
	{"a hierarchy", strings.Replace(tinyGEXF, `<node id="b" label="Bob">`, `<node id="b" label="Bob"><nodes><node id="b1"/></nodes>`, 1), `club.gexf:14:32: a <nodes> inside a <node> (a hierarchy of nodes)`},
	{"attributes of a graph", strings.Replace(tinyGEXF, `class="edge"`, `class="graph"`, 1), `club.gexf:8:5: <attributes class="graph">: the class is node or edge`},
	{"two graphs", strings.Replace(tinyGEXF, "</gexf>", "<graph/></gexf>", 1), `club.gexf:25:1: a second <graph>: a GEXF file holds one graph`},
	{"two files joined", tinyGEXF + tinyGEXF, "club.gexf:27:1: not well-formed XML"},
	{"UTF-16 without its mark", "<\x00g\x00e\x00x\x00f\x00", "club.gexf:1: is UTF-16 text without a byte-order mark"},
	{"no class", strings.ReplaceAll(tinyGEXF, "Officer", "Mr. Hi"), "column club: holds one value for every node"},
}

func TestReadGEXFRejects(t *testing.T) {
	for _, tc := range badGEXF {
		_, _, err := Open(mapFS(map[string]string{"club.gexf": tc.body}), Columns{})
		if err == nil || !strings.Contains(err.Error(), tc.want) || !namesAFile(err) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestReadNodeLink(t *testing.T) {
	for _, tc := range []struct{ name, file, body string }{
		{"links", "club.json", tinyNodeLink},
		{"edges (NetworkX 3.4)", "club.json", strings.Replace(tinyNodeLink, `"links"`, `"edges"`, 1)},
		{"gzipped", "club.json.gz", gz(tinyNodeLink)},
		{"beside a README", "club.json", tinyNodeLink},
	} {
		files := map[string]string{tc.file: tc.body}
		if strings.HasPrefix(tc.name, "beside") {
			files["README.md"] = "the club"
		}
		g, resplit, err := Open(mapFS(files), Columns{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !resplit || g.N != 4 || g.C != 2 || !slices.Equal(g.ClassNames, []string{"Mr. Hi", "Officer"}) || !slices.Equal(g.Labels, []int{0, 1, 0, 1}) {
			t.Errorf("%s: resplit %v N %d names %v labels %v", tc.name, resplit, g.N, g.ClassNames, g.Labels)
		}
		// age left out on b is 0 there, as GraphML's without a default.
		if g.F != 1 || !slices.Equal(g.DenseX(), []float64{3, 0, 4, 2}) || !hasNote(g, tc.file+": 1 numeric node attributes are left out on some nodes") {
			t.Errorf("%s: features %v, notes %v", tc.name, g.DenseX(), g.Notes)
		}
		if !slices.Equal(g.EdgeNames, []string{"actor", "director"}) || g.E() != 3 || !slices.Equal(g.EdgeX, []float64{1, 0, 1, 1, 0, 1}) { // a–b, a–c, b–c
			t.Errorf("%s: edge names %v edges %v %v features %v", tc.name, g.EdgeNames, g.Src, g.Dst, g.EdgeX)
		}
	}
}

// d3's files: nodes without ids are their place in the list, as
// NetworkX numbers them; d3's simulation fields are the drawing's.
// A directed multigraph is read undirected, its repeated pairs dropped,
// each said.
func TestReadNodeLinkD3AndDirected(t *testing.T) {
	d3 := `{"nodes": [{"group": "a", "x": 1.5, "y": 2, "vx": 0, "vy": 0, "index": 0}, {"group": "b", "x": 3, "y": 4, "vx": 0, "vy": 0, "index": 1}, {"group": "a", "x": 5, "y": 6, "vx": 0, "vy": 0, "index": 2}],
"links": [{"source": 0, "target": 1, "value": 2}, {"source": 1, "target": 2, "value": 1}]}`
	g, _, err := Open(mapFS(map[string]string{"miserables.json": d3}), Columns{})
	if err != nil {
		t.Fatal(err)
	}
	if g.N != 3 || g.C != 2 || g.E() != 2 || !slices.Equal(g.EdgeX, []float64{2, 1}) || !hasNote(g, "miserables.json: the node attributes index, vx, vy, x, y are the drawing's") {
		t.Errorf("d3: %s edges %v notes %v", fingerprint(g), g.EdgeX, g.Notes)
	}
	multi := strings.Replace(strings.Replace(tinyNodeLink, `"directed": false, "multigraph": false`, `"directed": true, "multigraph": true`, 1),
		`{"source": "a", "target": "a"}`, `{"source": "b", "target": "a", "key": 1}`, 1)
	g, _, err = Open(mapFS(map[string]string{"club.json": multi}), Columns{})
	if err != nil {
		t.Fatal(err)
	}
	if g.E() != 3 || !hasNote(g, `club.json: 4 of its edges are directed ("directed": true), and were read as undirected`) || !hasNote(g, "club.json: dropped 0 self-loops and 1 pairs listed again") {
		t.Errorf("directed multigraph: %d edges, notes %v", g.E(), g.Notes)
	}
}

// A d3 file whose links name their nodes by their place in the list
// (d3's force layout does) while its nodes have ids of their own is told
// so, at the link: NetworkX's node_link_graph, which the explorer follows,
// matches ids. Nodes without ids are named by their place, as before; an
// end that is no place in the list, or a string, is no node as in any
// format.
func TestNodeLinkD3Indices(t *testing.T) {
	d3 := func(nodes, links string) string {
		return `{"nodes": [` + nodes + `],` + "\n" + `"links": [` + links + `]}`
	}
	named := `{"id": "Myriel", "group": 1}, {"id": "Napoleon", "group": 1}, {"id": "Mlle.Baptistine", "group": 2}, {"id": "Mme.Magloire", "group": 2}`
	for _, tc := range []struct{ name, body, want string }{
		{"indices, nodes with ids", d3(named, `{"source": "Napoleon", "target": "Myriel"}, {"source": 2, "target": 0}`),
			`club.json:2:55: link source 2 is no node's "id", but it is the place of node "Mlle.Baptistine" in the list of nodes, counting from 0: d3's force layout refers to nodes by their place, and NetworkX's node_link_graph, which the explorer follows, by their "id": write the nodes' ids in the links ("Mlle.Baptistine" for 2), or leave out every node's "id"`},
		{"the target an index", d3(named, `{"source": "Napoleon", "target": 3}`), `club.json:2:11: link target 3 is no node's "id", but it is the place of node "Mme.Magloire"`},
		{"an index written 1.0", d3(named, `{"source": "Napoleon", "target": 1.0}`), `club.json:2:11: link target 1 is no node's "id", but it is the place of node "Napoleon"`},
		{"numeric ids, indices", d3(`{"id": 10, "g": "a"}, {"id": 20, "g": "b"}, {"id": 30, "g": "a"}`, `{"source": 10, "target": 1}`), `club.json:2:11: link target 1 is no node's "id", but it is the place of node "20"`},
		{"past the list", d3(named, `{"source": "Napoleon", "target": 4}`), `club.json:2:11: edge target "4" is not a node`},
		{"a string, no index", d3(named, `{"source": "Napoleon", "target": "2"}`), `club.json:2:11: edge target "2" is not a node`},
		{"nodes without ids", d3(`{"group": 1}, {"group": 2}, {"group": 1}, {"group": 2}`, `{"source": 2, "target": 0}, {"source": 1, "target": 3}`), ""},
	} {
		_, _, err := Open(mapFS(map[string]string{"club.json": tc.body}), Columns{})
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

var badNodeLink = []struct{ name, body, want string }{
	{"not JSON", `{"nodes": [`, "club.json:1:12: the file ends in the middle of its JSON (cut short?)"},
	{"NaN, as Python writes it", strings.Replace(tinyNodeLink, `"age": 4`, `"age": NaN`, 1), `club.json:5:29: not JSON at "NaN": Python's json writes NaN and Infinity for floats that are no number, and JSON has none`},
	{"no links", `{"nodes": [{"id": 1}]}`, `club.json: has no top-level "links" key (it has "nodes")`},
	{"an empty list of nodes", `{"nodes":` + "\n" + ` [], "links": []}`, `club.json:1:2: no nodes: "nodes" is an empty list`},
	{"links and edges", `{"nodes": [{"id": 1}], "links": [], "edges": []}`, `club.json:1:37: gives both "links" and "edges"`},
	{"a list", `[1, 2]`, "club.json is JSON, but no node-link data"},
	{"nodes not a list", `{"nodes": {"a": 1}, "links": []}`, `club.json:1:2: "nodes" is not a list`},
	{"a node not an object", `{"nodes": [{"id": 1},` + "\n" + ` 7], "links": []}`, `club.json:2:2: an element of "nodes" is "7", not an object`},
	{"an id that is a list", strings.Replace(tinyNodeLink, `"id": "c"`, `"id": ["c", 1]`, 1), `club.json:5:3: node id "[\"c\", 1]" is neither a number nor a string`},
	{"1 and \"1\"", `{"nodes": [{"id": 1, "c": "x"}, {"id": "1", "c": "y"}], "links": []}`, `club.json:1:33: node id "1" is given as a number and as a string`},
	{"node twice", strings.Replace(tinyNodeLink, `"id": "c"`, `"id": "a"`, 1), `club.json:5:3: node "a" was declared on line 3 already`},
	{"a link to nowhere", strings.Replace(tinyNodeLink, `"target": "c"`, `"target": "z"`, 1), `club.json:10:3: edge target "z" is not a node`},
	{"a link without a target", strings.Replace(tinyNodeLink, `, "target": "c"`, ``, 1), `club.json:10:3: a link without a "target"`},
	{"directed not a flag", strings.Replace(tinyNodeLink, `"directed": false`, `"directed": "no"`, 1), `club.json:1:2: "directed" is "\"no\"": want true or false`},
	{"a key twice", strings.Replace(tinyNodeLink, `"age": 4,`, `"age": 4, "age": 5,`, 1), `club.json:5:32: the key "age" is given twice in one object`},
	{"age a number too big", strings.Replace(tinyNodeLink, `"age": 4`, `"age": 1e999`, 1), `club.json:5:3: node attribute age (of type double): "1e999" is not a finite decimal number`},
	{"an attribute nested 101 deep", strings.Replace(tinyNodeLink, `"age": 4`, `"age": `+strings.Repeat("[", 101)+strings.Repeat("]", 101), 1), `club.json:5:128: lists or objects nested more than 100 levels deep, the most the explorer reads: a graph's attribute holds a number, a string or a list of them; flatten the attribute`},
	{"an attribute nested past encoding/json's bound", strings.Replace(tinyNodeLink, `"age": 4`, `"age": `+strings.Repeat("[", 10001)+strings.Repeat("]", 10001), 1), `club.json:5:128: lists or objects nested more than 100 levels deep, the most the explorer reads`},
	{"two files joined", tinyNodeLink + tinyNodeLink, `club.json:14:1: a second JSON document after the first's end: were two files joined into one?`},
}

func TestReadNodeLinkRejects(t *testing.T) {
	for _, tc := range badNodeLink {
		_, _, err := Open(mapFS(map[string]string{"club.json": tc.body}), Columns{})
		if err == nil || !strings.Contains(err.Error(), tc.want) || !namesAFile(err) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// The file streams, and what is wrong with it is met where it is; but a
// file with two faults is told the one it was told when it was read whole
// (its JSON, its structure, its flags, its limits, its lists, its nodes,
// its links), whatever their places: the first met is kept, the file read
// on, and the faults said in that order.
func TestNodeLinkFaultsInTheirOrder(t *testing.T) {
	badID := strings.Replace(tinyNodeLink, `"id": "c"`, `"id": ["c", 1]`, 1)
	lim := nativeLimits
	lim.edges = 2 // the file's three edges and a loop, which counts none
	for _, tc := range []struct {
		name, body, want string
		lim              limits
	}{
		{"a node, then malformed JSON", badID + "x\n", `club.json:14:1: a second JSON document after the first's end`, nativeLimits},
		{"a node, then a flag", strings.Replace(strings.Replace(badID, `"directed": false, `, ``, 1), ` ]}`, ` ], "directed": "no"}`, 1), `club.json:13:5: "directed" is "\"no\"": want true or false`, nativeLimits},
		{"a node, then an element no object", strings.Replace(badID, `"age": 2, "id": "d"}`, `"age": 2, "id": "d"}, 7`, 1), `club.json:6:45: an element of "nodes" is "7", not an object`, nativeLimits},
		{"a node, then too many links", badID, `club.json:11:3: holds more than 2 edges`, lim},
		{"a link, then a node (links first)", `{"links": [{"source": "a"}], "nodes": [{"id": ["a"]}]}`, `club.json:1:40: node id "[\"a\"]" is neither a number nor a string`, nativeLimits},
		{"a link no object, then nodes not a list", `{"links": [7], "nodes": 2}`, `club.json:1:16: "nodes" is not a list`, nativeLimits},
	} {
		_, _, err := Open(limitedTo(mapFS(map[string]string{"club.json": tc.body}), tc.lim), Columns{})
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// A JSON file is node-link data by its name (one JSON file at the root,
// neither meta.json nor a MUSAE features file) and by its keys (a
// top-level list of nodes, links or edges). Files that come near are said
// why they are not.
func TestNodeLinkIsFoundAndNearMisses(t *testing.T) {
	labels := "id,label\na,x\nb,y\nc,x\n"
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string // the format read, or the error
	}{
		{"alone", map[string]string{"g.json": tinyNodeLink}, "node-link JSON"},
		{"beside an edge list, by its keys", map[string]string{"g.json": tinyNodeLink, "edges.csv": "a,b\n", "labels.csv": labels}, "the folder holds edges.csv, labels.csv, which the node-link JSON it read does not read"},
		{"a settings file beside an edge list", map[string]string{"settings.json": `{"seed": 1}`, "edges.csv": "a,b\nb,c\n", "labels.csv": labels}, "the folder holds settings.json, which the edge list it read does not read"},
		{"a JSON file of other keys", map[string]string{"settings.json": `{"seed": 1}`}, `settings.json is JSON, but no node-link data (NetworkX's node_link_data, d3's): it has no top-level "nodes", "links" or "edges" list`},
		{"two", map[string]string{"a.json": tinyNodeLink, "b.json": tinyNodeLink}, "a.json, b.json are 2 JSON files, and a graph in node-link JSON is one file: open one at a time"},
		{"a MUSAE features file alone", map[string]string{"musae_x_features.json": `{"0": [1]}`}, "musae_x_features.json is a MUSAE features file, and a MUSAE folder holds an edges.csv and a target.csv beside it"},
		{"a bundle's meta.json is the bundle's", map[string]string{"meta.json": `{"name": "g"}`, "nodes.csv": "id,label,split\n0,0,train\n1,1,test\n", "edges.csv": "source,target\n0,1\n"}, "bundle"},
		{"two GEXF files", map[string]string{"a.gexf": tinyGEXF, "b.gexf": tinyGEXF}, "a.gexf, b.gexf are 2 GEXF files, and a GEXF file is one graph"},
	} {
		g, _, err := Open(mapFS(tc.files), Columns{})
		switch {
		case err != nil && !strings.Contains(err.Error(), tc.want):
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		case err == nil && g.Meta["format"] != tc.want:
			t.Errorf("%s: read as %v, want %q", tc.name, g.Meta["format"], tc.want)
		}
	}
}

// nxStructureCases are the structure class's cases of GEXF and node-link
// JSON (structureCells): ids given twice, values given twice, a file
// holding two graphs.
var nxStructureCases = []struct {
	name  string
	files map[string]string
	want  string
}{
	{"GEXF: node twice", map[string]string{"g.gexf": strings.Replace(tinyGEXF, `<node id="b"`, `<node id="a"`, 1)},
		`g.gexf:14:7: node "a" was declared on line 13 already`},
	{"GEXF: a node's value for one attribute twice", map[string]string{"g.gexf": strings.Replace(tinyGEXF, `<attvalue for="0" value="Officer" />`, `<attvalue for="0" value="Officer" /><attvalue for="0" value="Mr. Hi" />`, 1)},
		`g.gexf:14:79: a <node> gives a value for the attribute "0" twice (first on line 14)`},
	{"GEXF: an attribute declared twice", map[string]string{"g.gexf": strings.Replace(tinyGEXF, `<attribute id="1" title="age"`, `<attribute id="0" title="age"`, 1)},
		`g.gexf:6:7: the node attribute "0" is declared twice`},
	{"GEXF: two edges with one id", map[string]string{"g.gexf": strings.Replace(tinyGEXF, `<edge id="1"`, `<edge id="0"`, 1)},
		`g.gexf:20:7: edge id "0" is given twice, at 19:7 and at 20:7 (line:column)`},
	{"GEXF: two graphs", map[string]string{"g.gexf": strings.Replace(tinyGEXF, "</gexf>", "<graph/></gexf>", 1)},
		`g.gexf:25:1: a second <graph>: a GEXF file holds one graph`},
	{"node-link JSON: node twice", map[string]string{"g.json": strings.Replace(tinyNodeLink, `"id": "c"`, `"id": "a"`, 1)},
		`g.json:5:3: node "a" was declared on line 3 already`},
	{"node-link JSON: a key twice in a node", map[string]string{"g.json": strings.Replace(tinyNodeLink, `"age": 4,`, `"age": 4, "age": 5,`, 1)},
		`g.json:5:32: the key "age" is given twice in one object (first on line 5)`},
	{"node-link JSON: links and edges", map[string]string{"g.json": strings.Replace(tinyNodeLink, `"graph": {}`, `"graph": {}, "edges": []`, 1)},
		`g.json:8:2: gives both "links" and "edges"`},
}

// unlabelledGEXF is the unlabelled fixture as NetworkX's write_gexf writes
// it: a node without a club has no attvalue for it.
func unlabelledGEXF(t testing.TB) map[string]string {
	var b strings.Builder
	b.WriteString(`<?xml version='1.0' encoding='utf-8'?>
<gexf xmlns="http://www.gexf.net/1.2draft" version="1.2">
<graph defaultedgetype="undirected" mode="static">
<attributes mode="static" class="node"><attribute id="0" title="club" type="string" /><attribute id="1" title="age" type="long" /></attributes>
<nodes>
`)
	for i := range unlabelledN {
		club := fmt.Sprintf(`<attvalue for="0" value="c%d" />`, i%3)
		if noClassAt(i) {
			club = ""
		}
		fmt.Fprintf(&b, `<node id="%d" label="%d"><attvalues>%s<attvalue for="1" value="%d" /></attvalues></node>`+"\n", i, i, club, i%5)
	}
	b.WriteString("</nodes>\n<edges>\n")
	for i, line := range strings.Split(strings.TrimSpace(fixtureEdges(",")), "\n") {
		u, v, _ := strings.Cut(line, ",")
		fmt.Fprintf(&b, `<edge source="%s" target="%s" id="%d" />`+"\n", u, v, i)
	}
	b.WriteString("</edges>\n</graph>\n</gexf>\n")
	return map[string]string{"club.gexf": b.String()}
}

// unlabelledNodeLink is the unlabelled fixture as node_link_data writes
// it: a node without a club leaves the key out (null: a None given).
func unlabelledNodeLink(null bool) func(testing.TB) map[string]string {
	return func(testing.TB) map[string]string {
		var b strings.Builder
		b.WriteString(`{"directed": false, "multigraph": false, "graph": {}, "nodes": [`)
		for i := range unlabelledN {
			club := fmt.Sprintf(`"club": "c%d", `, i%3)
			switch {
			case noClassAt(i) && null:
				club = `"club": null, `
			case noClassAt(i):
				club = ""
			}
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, `{%s"age": %d, "id": %d}`, club, i%5, i)
		}
		b.WriteString(`], "links": [`)
		for i, line := range strings.Split(strings.TrimSpace(fixtureEdges(",")), "\n") {
			u, v, _ := strings.Cut(line, ",")
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, `{"source": %s, "target": %s}`, u, v)
		}
		b.WriteString("]}")
		return map[string]string{"club.json": b.String()}
	}
}

// An export's weights.json, above the graph it holds in graph/, is not
// taken for node-link data: the graph below is read.
func TestNodeLinkNotAnExportsWeights(t *testing.T) {
	g, _, err := OpenFiles([]File{{Name: "export/weights.json", Data: []byte(`{"model": "pdn", "nodes": 4, "parameters": []}`)}, {Name: "export/README.txt", Data: []byte("run it")}, {Name: "export/graph/club.json", Data: []byte(tinyNodeLink)}}, Columns{})
	if err != nil || g.N != 4 || g.Meta["format"] != "node-link JSON" {
		t.Errorf("%v, %v", g, err)
	}
}

// The limits of where a file is read are met while it is read, at the
// line of the first edge beyond them, before the edges are held.
func TestGEXFAndNodeLinkLimits(t *testing.T) {
	lim := nativeLimits
	lim.edges, lim.where = 2, phrase.New("the test")
	for _, tc := range []struct{ file, body, want string }{
		{"club.gexf", tinyGEXF, "club.gexf:22:7: holds more than 2 edges, more than the test reads"},
		{"club.json", tinyNodeLink, "club.json:11:3: holds more than 2 edges, more than the test reads"},
	} {
		_, _, err := Open(limitedFS{input.FS{FS: mapFS(map[string]string{tc.file: tc.body})}, lim}, Columns{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.file, err, tc.want)
		}
	}
	// A loop, which no graph keeps, counts against no bound: each file at
	// the bound of its own three edges opens, loops before and among them.
	lim.edges = 3
	loopGEXF := strings.Replace(tinyGEXF, `<edge id="0" `, `<edge id="8" source="d" target="d" /><edge id="9" source="b" target="b" /><edge id="0" `, 1)
	for file, body := range map[string]string{"club.gexf": loopGEXF, "club.json": tinyNodeLink} {
		g, _, err := Open(limitedFS{input.FS{FS: mapFS(map[string]string{file: body})}, lim}, Columns{})
		if err != nil || g.E() != 3 {
			t.Errorf("%s at the bound of its 3 edges and a loop: %v", file, err)
		}
	}
}

// write_gexf writes a multigraph's edge keys as the edge attribute
// networkx_key; read_gexf takes it back for the key, no attribute: it is
// no edge feature here either.
func TestGEXFMultigraphKeyIsNoFeature(t *testing.T) {
	multi := strings.Replace(strings.Replace(tinyGEXF,
		`<attribute id="1" title="note" type="string" />`, `<attribute id="1" title="note" type="string" /><attribute id="2" title="networkx_key" type="long" />`, 1),
		`<edge id="1" source="b" target="c" />`, `<edge id="1" source="b" target="c"><attvalues><attvalue for="2" value="0" /></attvalues></edge><edge id="4" source="b" target="c"><attvalues><attvalue for="2" value="1" /></attvalues></edge>`, 1)
	g, _, err := Open(mapFS(map[string]string{"club.gexf": multi}), Columns{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(g.EdgeNames, []string{"actor", "weight"}) || g.E() != 3 {
		t.Errorf("edge names %v, %d edges", g.EdgeNames, g.E())
	}
}

// A node-link file is costed by its nodes and links: each is held (an
// item, a row of the node table) till the graph is made, so the page
// refuses more than it holds at once, at the first past the budget,
// naming the count (the elements past the budget counted, not held) and
// what reads it; the command line does.
func TestNodeLinkElementsWithinLimits(t *testing.T) {
	files := mapFS(map[string]string{"club.json": tinyNodeLink})
	lim := pageLimits
	lim.elements = 3
	_, _, err := Open(limitedTo(files, lim), Columns{})
	if want := "club.json:6:3: holds 8 nodes and edges, more than the 3 the browser holds at once (each is kept, with its values, until the graph is made): open the graph with the command line (pdn train -data), or save it as an edge list and a labels file"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("%v", err)
	}
	if _, _, err := Open(files, Columns{}); err != nil {
		t.Errorf("the command line: %v", err)
	}
}

// Elements nested past maxXMLDepth are refused where the first past it
// starts, in GraphML and GEXF alike, read or skipped: encoding/xml holds
// every open element, and a file nested millions deep took 20 times its
// size; 64 levels, past the formats' 5 or 6, are read.
func TestXMLNestedTooDeep(t *testing.T) {
	nest := func(n int) string { return strings.Repeat("<a>", n) + strings.Repeat("</a>", n) }
	for _, tc := range []struct{ name, file, body, want string }{
		{"graphml, skipped", "club.graphml", strings.Replace(tinyGraphML, `<node id="b">`, `<node id="b"><desc>`+nest(100)+`</desc>`, 1), "club.graphml:11:204: <a> is nested more than 64 elements deep, and GraphML and GEXF need 5 or 6 levels"},
		{"graphml, in data", "club.graphml", strings.Replace(tinyGraphML, `<data key="d0">Officer`, `<data key="d0">Officer`+nest(100), 1), "club.graphml:11:220: <a> is nested more than 64 elements deep"},
		{"gexf", "club.gexf", strings.Replace(tinyGEXF, `<node id="a" label="Anne">`, `<node id="a" label="Anne">`+nest(100), 1), "club.gexf:13:213: <a> is nested more than 64 elements deep"},
		{"graphml, 64 deep", "club.graphml", strings.Replace(tinyGraphML, `<node id="b">`, `<node id="b"><desc>`+nest(60)+`</desc>`, 1), ""},
	} {
		_, _, err := Open(mapFS(map[string]string{tc.file: tc.body}), Columns{})
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}
