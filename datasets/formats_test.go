package datasets

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"pdnexplorer/experiment"
	"pdnexplorer/internal/pagemem"
)

// gz gzips text, as OGB publishes its files.
func gz(text string) string {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(text))
	zw.Close()
	return b.String()
}

// tinyOGB is an OGB node-property folder of five nodes: a directed edge
// given both ways, edge features, a split and named classes.
func tinyOGB(t testing.TB) map[string]string {
	return map[string]string{
		"raw/edge.csv.gz":             gz("0,1\n1,0\n1,2\n3,4\n2,4\n"),
		"raw/edge-feat.csv.gz":        gz("1,0\n9,9\n0,1\n1,1\n0.5,0.5\n"),
		"raw/node-feat.csv.gz":        gz("0.1,0.2\n0.3,0.4\n0.5,0.6\n0.7,0.8\n0.9,1.0\n"),
		"raw/node-label.csv.gz":       gz("0\n1\n2\n1\n0\n"),
		"raw/num-node-list.csv.gz":    gz("5\n"),
		"split/time/train.csv.gz":     gz("0\n1\n"),
		"split/time/valid.csv.gz":     gz("2\n"),
		"split/time/test.csv.gz":      gz("3\n4\n"),
		"mapping/labelidx2cat.csv.gz": gz("label idx,category\n0,cs.AI\n1,cs.LG\n2,cs.CL\n"),
	}
}

func TestReadOGB(t *testing.T) {
	g, resplit, err := Open(mapFS(tinyOGB(t)), Columns{})
	if err != nil {
		t.Fatal(err)
	}
	if resplit || g.N != 5 || g.C != 3 || g.F != 2 || g.D != 2 || g.E() != 4 {
		t.Fatalf("resplit %v N %d C %d F %d D %d E %d", resplit, g.N, g.C, g.F, g.D, g.E())
	}
	if !reflect.DeepEqual(g.Splits, []Split{Train, Train, Val, Test, Test}) || !reflect.DeepEqual(g.ClassNames, []string{"cs.AI", "cs.LG", "cs.CL"}) {
		t.Errorf("splits %v names %v", g.Splits, g.ClassNames)
	}
	// The pair 0–1 has the features of its two lines (0,1 and 1,0) summed,
	// as PyG's coalesce sums them.
	if !slices.Equal(g.EdgeX[:2], []float64{10, 9}) || len(g.Notes) != 2 || !strings.Contains(g.Notes[0].String(), "1 pairs listed again") || !strings.Contains(g.Notes[1].String(), "their values were summed") {
		t.Errorf("edge features %v notes %v", g.EdgeX, g.Notes)
	}
}

// badOGB are OGB folders the reader refuses, with the message.
var badOGB = []struct{ name, file, body, want string }{
	{"several labels", "raw/node-label.csv.gz", "0,1\n1,0\n0,0\n1,1\n0,1\n", "raw/node-label.csv.gz:1: 2 values a line: a task with several labels a node"},
	{"label not a class", "raw/node-label.csv.gz", "0\n1\n2.5\n1\n0\n", `raw/node-label.csv.gz:3:1: "2.5" is not a class`},
	{"labels short", "raw/node-label.csv.gz", "0\n1\n", "raw/node-label.csv.gz: 2 lines, and raw/num-node-list.csv.gz gives 5 nodes"},
	{"edge out of range", "raw/edge.csv.gz", "0,1\n1,7\n", "raw/edge.csv.gz:2:3: column 2: 7 is out of range [0, 4]"},
	{"edge of one end", "raw/edge.csv.gz", "0\n1\n", "raw/edge.csv.gz:1: 1 values a line"},
	// OGB's files have no header: a ragged row is told against the first.
	{"features ragged", "raw/node-feat.csv.gz", "1,2\n3\n", "raw/node-feat.csv.gz:2: missing column: 1 values, and the first row (line 1) has 2"},
	{"features ragged, wider", "raw/node-feat.csv.gz", "1,2\n3,4,5\n", "raw/node-feat.csv.gz:2: extra column: 3 values, and the first row (line 1) has 2"},
	{"split node out of range", "split/time/test.csv.gz", "3\n40\n", "split/time/test.csv.gz:2:1: 40 is not a node"},
	{"not gzip", "raw/edge.csv.gz", "", "raw/edge.csv.gz: is not gzip data"},
	{"edge features short", "raw/edge-feat.csv.gz", "1,0\n", "raw/edge-feat.csv.gz: has 1 lines, and raw/edge.csv.gz has more"},
}

func TestReadOGBRejects(t *testing.T) {
	for _, tc := range badOGB {
		files := tinyOGB(t)
		files[tc.file] = gz(tc.body)
		if tc.name == "not gzip" {
			files[tc.file] = "plain text"
		}
		_, _, err := Open(mapFS(files), Columns{})
		if err == nil || !strings.Contains(err.Error(), tc.want) || !namesAFile(err) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	// A gzip bomb stops at the folder's limit.
	files := tinyOGB(t)
	files["raw/node-feat.csv.gz"] = gz(strings.Repeat("0,0\n", 1<<20))
	lim := nativeLimits
	lim.gunzip = 1 << 10
	_, err := readNumbers(limitedTo(mapFS(files), lim), "raw/node-feat.csv.gz", anyLines("node"), 2)
	if err == nil || !strings.Contains(err.Error(), "inflates to more than 1,024 bytes") {
		t.Errorf("a bomb: %v", err)
	}
}

// The page's limits are met while reading, before memory is spent: the
// audit's OGB folder whose node-feat.csv.gz is 2,708 lines of 60,000 zeros
// (1000× packed) is refused at its first line, naming the file; an edge
// list one edge over the page's bound stops at that line; a node table or
// sparse features past their bounds likewise. The command line reads all.
func TestPageLimitsMetWhileReading(t *testing.T) {
	line := strings.TrimSuffix(strings.Repeat("0,", 60000), ",") + "\n"
	var labels strings.Builder
	for i := range 2708 {
		fmt.Fprintf(&labels, "%d\n", i%7)
	}
	var bomb bytes.Buffer
	zw := gzip.NewWriter(&bomb)
	for range 2708 {
		zw.Write([]byte(line))
	}
	zw.Close()
	files := []File{
		{Name: "ogb/raw/edge.csv", Data: []byte("0,1\n1,2\n")},
		{Name: "ogb/raw/node-label.csv", Data: []byte(labels.String())},
		{Name: "ogb/raw/node-feat.csv.gz", Data: bomb.Bytes()},
	}
	if ratio := 2708 * len(line) / bomb.Len(); ratio < 500 {
		t.Fatalf("the bomb packs only %d×", ratio)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, _, err := OpenFiles(files, Columns{})
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "raw/node-feat.csv.gz:1: holds 60,000 numbers a line for 2,708 nodes") {
		t.Errorf("the bomb: %v", err)
	}
	if spent := after.TotalAlloc - before.TotalAlloc; spent > 64<<20 {
		t.Errorf("refusing the bomb allocated %d MB", spent>>20)
	}

	// The edge bound is pagemem's (millions); the rule is met at any
	// bound, so a small one stands for it here.
	lim := pageLimits
	lim.edges = 1000
	openWithin := func(files []File) (*Graph, error) {
		fsys, err := filesFS(files, lim)
		if err != nil {
			return nil, err
		}
		g, _, err := Open(fsys, Columns{})
		return g, err
	}
	var edges strings.Builder
	for i := range lim.edges + 1 {
		fmt.Fprintf(&edges, "%d %d\n", i, i+1)
	}
	var few strings.Builder
	for i := range lim.edges + 2 {
		fmt.Fprintf(&few, "%d %d\n", i, i%2)
	}
	_, err = openWithin([]File{{Name: "g.edges", Data: []byte(edges.String())}, {Name: "g.labels", Data: []byte(few.String())}})
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("g.edges:%d: holds more than 1,000 edges, more than the browser reads", lim.edges+1)) {
		t.Errorf("one edge too many: %v", err)
	}
	// Audit case 154: exactly as many edges as the bound open.
	exact := edges.String()
	exact = exact[:strings.LastIndex(strings.TrimSuffix(exact, "\n"), "\n")+1]
	g, err := openWithin([]File{{Name: "g.edges", Data: []byte(exact)}, {Name: "g.labels", Data: []byte(few.String())}})
	if err != nil || g.E() != lim.edges {
		t.Errorf("exactly %d edges: %v", lim.edges, err)
	}
	// A bundle's edges.csv meets the edges and their features as it reads
	// them, as every reader does.
	var nodes, bundleEdges strings.Builder
	nodes.WriteString("id,label,split,x0\n")
	for i := range 60 {
		fmt.Fprintf(&nodes, "%d,%d,train,1\n", i, i%2)
	}
	bundleEdges.WriteString("source,target,e0,e1\n")
	for i := range 60 {
		for j := i + 1; j < 60; j++ {
			fmt.Fprintf(&bundleEdges, "%d,%d,0.5,1\n", i, j)
		}
	}
	bundle := []File{{Name: "g/meta.json", Data: []byte(`{"name": "g", "classes": 2}`)}, {Name: "g/nodes.csv", Data: []byte(nodes.String())}, {Name: "g/edges.csv", Data: []byte(bundleEdges.String())}}
	if _, err := openWithin(bundle); err == nil || !strings.Contains(err.Error(), "edges.csv:1002: holds more than 1,000 edges, more than the browser reads") {
		t.Errorf("a bundle's edges past the bound: %v", err)
	}
	lim.edges, lim.valueBytes = 10000, 1000*csvValueBytes
	if _, err := openWithin(bundle); err == nil || !strings.Contains(err.Error(), "edges.csv:502: holds more than 1,000 edge feature values, more than the browser reads") {
		t.Errorf("a bundle's edge features past the bound: %v", err)
	}
}

// The page's edge bound is where the graph alone fills the page's memory
// by the cost model's bytes an edge: no constant of its own.
func TestPageEdgesFollowMemory(t *testing.T) {
	if MaxPageEdges != pagemem.Bytes/pagemem.GraphEdgeBytes(len(TieStrengthNames)) {
		t.Errorf("the page reads %d edges; its memory holds %d", MaxPageEdges, pagemem.Bytes/pagemem.GraphEdgeBytes(len(TieStrengthNames)))
	}
	if pagemem.TieStrengthScores != len(TieStrengthNames) {
		t.Errorf("pagemem counts %d tie-strength scores, the graph computes %d", pagemem.TieStrengthScores, len(TieStrengthNames))
	}
}

// tinyGraphML is what NetworkX's write_graphml writes of a four-node
// graph with a club, a numeric attribute and two named edge layers.
const tinyGraphML = `<?xml version='1.0' encoding='utf-8'?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
  <key id="d0" for="node" attr.name="club" attr.type="string"/>
  <key id="d1" for="node" attr.name="age" attr.type="double"><default>1</default></key>
  <key id="d2" for="node" attr.name="x" attr.type="double"/>
  <key id="d3" for="edge" attr.name="actor" attr.type="double"/>
  <key id="d4" for="edge" attr.name="director" attr.type="double"/>
  <key id="d5" for="edge" attr.name="note" attr.type="string"/>
  <graph edgedefault="undirected">
    <node id="a"><data key="d0">Mr. Hi</data><data key="d1">3</data><data key="d2">5</data></node>
    <node id="b"><data key="d0">Officer</data><data key="d2">5</data></node>
    <node id="c"><data key="d0">Mr. Hi</data><data key="d1">4</data><data key="d2">5</data></node>
    <node id="d"><data key="d0">Officer</data><data key="d1">2</data><data key="d2">5</data></node>
    <edge source="a" target="b"><data key="d3">1</data><data key="d5">x</data></edge>
    <edge source="b" target="c"><data key="d4">1</data></edge>
    <edge source="c" target="a"><data key="d3">1</data><data key="d4">1</data></edge>
    <edge source="a" target="a"/>
  </graph>
</graphml>`

// A directed GraphML graph (edgedefault, or an edge's own directed
// attribute) is read undirected, as the models are, and the note says so,
// counting the edges listed one way only.
func TestGraphMLDirectedIsReadUndirectedAndSaid(t *testing.T) {
	for _, tc := range []struct{ name, body, want string }{
		{"edgedefault directed", strings.Replace(tinyGraphML, `edgedefault="undirected"`, `edgedefault="directed"`, 1),
			"club.graphml: 4 of its edges are directed (edgedefault=\"directed\", or directed=\"true\"), and were read as undirected, as the models are trained on undirected graphs; 3 of them were listed in one direction only"},
		{"one edge directed, its reverse listed", strings.Replace(strings.Replace(tinyGraphML, `<edge source="a" target="b">`, `<edge source="a" target="b" directed="true">`, 1), `<edge source="a" target="a"/>`, `<edge source="b" target="a" directed="true"/>`, 1),
			"club.graphml: 2 of its edges are directed (edgedefault=\"directed\", or directed=\"true\"), and were read as undirected, as the models are trained on undirected graphs; 0 of them were listed in one direction only"},
	} {
		g, _, err := Open(mapFS(map[string]string{"club.graphml": tc.body}), Columns{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if g.E() != 3 || !hasNote(g, tc.want) {
			t.Errorf("%s: %d edges, notes %v; want %q", tc.name, g.E(), g.Notes, tc.want)
		}
	}
	g, _, err := Open(mapFS(map[string]string{"club.graphml": tinyGraphML}), Columns{})
	if err != nil || hasNote(g, "edges are directed") {
		t.Errorf("an undirected graph: %v, notes %v", err, g.Notes)
	}
}

// NetworkX's write_graphml gives a multigraph's edges their keys as ids
// (id="0" on every pair's first edge), and read_graphml takes an id as
// the key of its pair's edge: the same id on other pairs is read, on the
// same pair again (the same edge of a directed pair: u→v, not v→u)
// refused where it comes again.
func TestGraphMLMultigraphKeysAsIDs(t *testing.T) {
	ids := func(s string, pairs ...string) string {
		for i := 0; i < len(pairs); i += 2 {
			s = strings.Replace(s, pairs[i], pairs[i+1], 1)
		}
		return s
	}
	keyed := ids(tinyGraphML, `<edge source="a" target="b">`, `<edge source="a" target="b" id="0">`,
		`<edge source="b" target="c">`, `<edge source="b" target="c" id="0">`, `<edge source="c" target="a">`, `<edge source="c" target="a" id="0">`)
	directed := ids(strings.Replace(keyed, `edgedefault="undirected"`, `edgedefault="directed"`, 1), `<edge source="c" target="a" id="0">`, `<edge source="b" target="a" id="0">`)
	for _, tc := range []struct{ name, file, want string }{
		{"every pair's key 0", keyed, ""},
		{"a directed pair's two ways, each key 0", directed, ""},
		{"a directed pair's one way twice", strings.Replace(directed, `<edge source="b" target="a" id="0">`, `<edge source="a" target="b" id="0">`, 1), `g.graphml:16:5: edge id "0" is given twice, at 14:5 and at 16:5`},
	} {
		g, _, err := Open(mapFS(map[string]string{"g.graphml": tc.file}), Columns{})
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want == "" && (g.N != 4 || g.E() < 2):
			t.Errorf("%s: N %d E %d", tc.name, g.N, g.E())
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: %v; want %q", tc.name, err, tc.want)
		}
	}
}

func TestReadGraphML(t *testing.T) {
	g, resplit, err := Open(mapFS(map[string]string{"club.graphml": tinyGraphML}), Columns{})
	if err != nil {
		t.Fatal(err)
	}
	if !resplit || g.N != 4 || g.C != 2 || !reflect.DeepEqual(g.ClassNames, []string{"Mr. Hi", "Officer"}) || !reflect.DeepEqual(g.Labels, []int{0, 1, 0, 1}) {
		t.Errorf("resplit %v N %d names %v labels %v", resplit, g.N, g.ClassNames, g.Labels)
	}
	// age is a feature (b takes the default); x is Gephi's drawing.
	if g.F != 1 || !slices.Equal(g.DenseX(), []float64{3, 1, 4, 2}) {
		t.Errorf("features %v", g.DenseX())
	}
	if !reflect.DeepEqual(g.EdgeNames, []string{"actor", "director"}) || g.E() != 3 || !slices.Equal(g.EdgeX, []float64{1, 0, 1, 1, 0, 1}) { // edges in order: a–b, a–c, b–c
		t.Errorf("edge names %v edges %v %v features %v", g.EdgeNames, g.Src, g.Dst, g.EdgeX)
	}
}

// NetworkX's write_graphml writes a node's attribute only where it has
// one, so a sparse bag of words leaves its zeros out (with or without a
// default declared); Gephi writes its drawing (x, y, size, r, g, b) beside
// the class. Both open on their real features and class.
func TestReadGraphMLSparseAndGephi(t *testing.T) {
	const head = `<?xml version='1.0' encoding='utf-8'?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
<key id="d0" for="node" attr.name="subject" attr.type="string"/>
<key id="d1" for="node" attr.name="w0" attr.type="long"/>
<key id="d2" for="node" attr.name="w1" attr.type="long"/>
<key id="d3" for="node" attr.name="y" attr.type="double"/>
<key id="d4" for="node" attr.name="x" attr.type="double"/>
<graph edgedefault="undirected">
`
	nodes := ""
	for i, c := range []string{"ai", "db", "ai", "db", "ai", "db"} {
		nodes += fmt.Sprintf(`<node id="%d"><data key="d0">%s</data>`, i, c)
		if i%2 == 0 {
			nodes += `<data key="d1">1</data>`
		}
		if i == 3 {
			nodes += `<data key="d2">2</data>`
		}
		nodes += fmt.Sprintf(`<data key="d3">%d.5</data><data key="d4">%d</data></node>`, i*7, i) + "\n"
	}
	body := head + nodes + `<edge source="0" target="1"/><edge source="1" target="2"/><edge source="2" target="3"/></graph></graphml>`
	g, _, err := Open(mapFS(map[string]string{"cora.graphml": body}), Columns{})
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{1, 0, 0, 0, 1, 0, 0, 2, 1, 0, 0, 0}
	if g.C != 2 || !reflect.DeepEqual(g.ClassNames, []string{"ai", "db"}) || g.F != 2 || !slices.Equal(g.DenseX(), want) {
		t.Errorf("C %d names %v F %d X %v", g.C, g.ClassNames, g.F, g.DenseX())
	}
	if !hasNote(g, "2 numeric node attributes are left out on some nodes") || !hasNote(g, "the node attributes x, y are the drawing's") {
		t.Errorf("notes %v", g.Notes)
	}
}

var badGraphML = []struct{ name, body, want string }{
	{"not XML", "<graphml><graph>", "club.graphml:1: not well-formed XML"},
	{"no nodes", "<graphml><graph></graph></graphml>", "club.graphml: no nodes"},
	{"edge to nowhere", strings.Replace(tinyGraphML, `target="c"`, `target="z"`, 1), `club.graphml:15:5: edge target "z" is not a node`},
	{"node twice", strings.Replace(tinyGraphML, `<node id="b">`, `<node id="a">`, 1), `club.graphml:11:5: node "a" was declared on line 10 already`},
	{"edge weight not a number", strings.Replace(tinyGraphML, `<data key="d4">1</data></edge>`, `<data key="d4">heavy</data></edge>`, 1), `club.graphml:15:5: edge attribute director: "heavy" is not a finite number`},
	{"hyperedge", strings.Replace(tinyGraphML, "</graph>", "<hyperedge/></graph>", 1), "a hyperedge"},
	{"UTF-16 without its mark", "<\x00g\x00r\x00a\x00p\x00h\x00", "club.graphml:1: is UTF-16 text without a byte-order mark"},
	{"no class", strings.ReplaceAll(tinyGraphML, "Officer", "Mr. Hi"), "column club: holds one value for every node"},
}

func TestReadGraphMLRejects(t *testing.T) {
	for _, tc := range badGraphML {
		_, _, err := Open(mapFS(map[string]string{"club.graphml": tc.body}), Columns{})
		if err == nil || !strings.Contains(err.Error(), tc.want) || !namesAFile(err) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// Planetoid's raw files are a plain graph: cora.content (id, 0/1 words,
// the class last, apart by tabs, no header) and cora.cites (an edge list).
func TestReadPlain(t *testing.T) {
	content := "31336\t0\t1\t0\tNeural_Networks\n1061127\t1\t0\t0\tRule_Learning\n1106406\t0\t0\t1\tNeural_Networks\n13195\t1\t1\t0\tRule_Learning\n"
	cites := "31336\t1061127\n1061127\t1106406\n13195\t31336\n"
	g, resplit, err := Open(mapFS(map[string]string{"cora.content": content, "cora.cites": cites}), Columns{})
	if err != nil {
		t.Fatal(err)
	}
	if !resplit || g.N != 4 || g.F != 3 || !reflect.DeepEqual(g.ClassNames, []string{"Neural_Networks", "Rule_Learning"}) || g.E() != 3 {
		t.Errorf("N %d F %d names %v E %d", g.N, g.F, g.ClassNames, g.E())
	}
	// A labels CSV with a header and an edge list with a weight column.
	g, _, err = Open(mapFS(map[string]string{
		"labels.csv": "node,group,size\nx,red,1\ny,blue,2\nz,red,3\nw,blue,4\n",
		"edges.tsv":  "from\tto\tweight\nx\ty\t0.5\ny\tz\t2\n",
	}), Columns{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g.ClassNames, []string{"blue", "red"}) || !reflect.DeepEqual(g.EdgeNames, []string{"weight"}) || g.F != 1 || !slices.Equal(g.EdgeX, []float64{0.5, 2}) {
		t.Errorf("names %v edge names %v F %d", g.ClassNames, g.EdgeNames, g.F)
	}
	// An edge list by itself has no classes: the message says what was found.
	_, _, err = Open(mapFS(map[string]string{"edges.csv": "0,1\n"}), Columns{})
	if err == nil || !strings.Contains(err.Error(), "the files hold edges.csv, which is not a graph") {
		t.Errorf("an edge list alone: %v", err)
	}
}

// SNAP's edge lists open with # comment lines (NetworkX's readers skip
// them); KONECT's with %. The SNAP files of the audit: both files
// commented, tab-separated, the labels file with a comment mid-way.
func TestReadPlainComments(t *testing.T) {
	for _, tc := range []struct{ name, edges, labels string }{
		{"snap", "# Undirected graph: cora\n# Nodes: 4 Edges: 3\n# FromNodeId\tToNodeId\n1\t2\n2\t3\n3\t4\n",
			"# node labels\n# NodeId\tClass\tX\n1\ta\t0.5\n2\tb\t1\n# a comment mid-way\n3\ta\t2\n4\tb\t3\n"},
		{"konect", "% sym unweighted\n% 3 4 4\n1 2\n2 3\n3 4\n", "id,class,x\n1,a,0.5\n2,b,1\n3,a,2\n4,b,3\n"},
		{"csv", "#source,target\n1,2\n2,3\n3,4\n", "#id,class,x\n1,a,0.5\n2,b,1\n3,a,2\n4,b,3\n"},
		{"% before commas", "% sym unweighted\n1,2\n2,3\n3,4\n", "% node labels\nid,class,x\n1,a,0.5\n% mid-way\n2,b,1\n3,a,2\n4,b,3\n"},
		{"% before tabs", "% sym unweighted\n1\t2\n2\t3\n3\t4\n", "% 4 nodes\n1\ta\t0.5\n2\tb\t1\n3\ta\t2\n4\tb\t3\n"},
		// NetworkX's read_edgelist cuts a line at its first #.
		{"# after the fields", "1 2 # a note\n2 3\t# another\n3 4#\n", "1 a 0.5 # first\n2 b 1\n3 a 2\n4 b 3\n"},
	} {
		g, _, err := Open(mapFS(map[string]string{"cora-edges.txt": tc.edges, "cora-labels.txt": tc.labels}), Columns{})
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if g.N != 4 || g.E() != 3 || g.C != 2 || g.F != 1 || !slices.Equal(g.DenseX(), []float64{0.5, 1, 2, 3}) {
			t.Errorf("%s: N %d E %d C %d F %d X %v", tc.name, g.N, g.E(), g.C, g.F, g.DenseX())
		}
	}
	// A Matrix Market file's labels file, commented as the matrix is.
	g, _, err := Open(mapFS(map[string]string{"g.mtx": tinyMTX, "g.node_labels": "% node,label\n1,a\n2,b\n3,a\n4,b\n5,a\n"}), Columns{})
	if err != nil || g.N != 5 || g.C != 2 || g.Labels[1] != 1 {
		t.Errorf("a Matrix Market labels file: %v", err)
	}
}

// A graph without node features gets its degrees, and says so.
func TestDegreeFeatures(t *testing.T) {
	g, _, err := Open(mapFS(map[string]string{
		"labels.csv": "id,label\na,x\nb,y\nc,x\nd,y\n",
		"edges.csv":  "a,b\na,c\na,d\n",
	}), Columns{})
	if err != nil {
		t.Fatal(err)
	}
	// degrees 3, 1, 1, 1: buckets 2, 1, 1, 1
	if g.F != 3 || !slices.Equal(g.DenseX(), []float64{0, 0, 1, 0, 1, 0, 0, 1, 0, 0, 1, 0}) || len(g.Notes) != 1 || !strings.Contains(g.Notes[0].String(), "no node features") {
		t.Errorf("F %d features %v notes %v", g.F, g.DenseX(), g.Notes)
	}
}

// A bundle's edge columns may be named (a multiplex graph's layers) and
// its classes named in meta.json; both survive a write and a read.
func TestBundleNames(t *testing.T) {
	fsys := fstest.MapFS{
		"meta.json": {Data: []byte(`{"name": "movies", "class_names": ["action", "drama"]}`)},
		"nodes.csv": {Data: []byte("id,label,split,x0\n0,0,train,1\n1,1,test,2\n2,1,train,3\n")},
		"edges.csv": {Data: []byte("source,target,MAM,MDM\n0,1,1,0\n1,2,0,1\n")},
	}
	g, err := ReadBundleFS(fsys)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g.EdgeNames, []string{"MAM", "MDM"}) || !reflect.DeepEqual(g.ClassNames, []string{"action", "drama"}) {
		t.Fatalf("names %v %v", g.EdgeNames, g.ClassNames)
	}
	dir := t.TempDir()
	if err := writeBundleTo(dir, g); err != nil {
		t.Fatal(err)
	}
	back, err := Load(dir, experiment.Default().Data, false)
	if err != nil || !reflect.DeepEqual(back.EdgeNames, g.EdgeNames) || !reflect.DeepEqual(back.ClassNames, g.ClassNames) || back.D != 2 {
		t.Errorf("read back: %v %v %v", back, back.EdgeNames, err)
	}
	for _, tc := range []struct{ meta, edges, want string }{
		{`{"name": "m", "class_names": [1, 2]}`, "", "meta.json: key class_names: want a list of the classes' names"},
		{`{"name": "m", "class_names": ["a"]}`, "", "meta.json: key class_names: names 1 classes, and nodes.csv's labels hold 2 (0 to 1)"},
		{"", "source,target,MAM,MAM\n0,1,1,0\n", "edges.csv:1: column MAM: is named twice in the header (columns 3 and 4)"},
		{"", "source,target,MAM,\n0,1,1,0\n", "edges.csv:1: edge feature 1 has no name"},
	} {
		bad := fstest.MapFS{"meta.json": fsys["meta.json"], "nodes.csv": fsys["nodes.csv"], "edges.csv": fsys["edges.csv"]}
		if tc.meta != "" {
			bad["meta.json"] = &fstest.MapFile{Data: []byte(tc.meta)}
		}
		if tc.edges != "" {
			bad["edges.csv"] = &fstest.MapFile{Data: []byte(tc.edges)}
		}
		if _, err := ReadBundleFS(bad); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v, want %q", err, tc.want)
		}
	}
}

// OGB's raw/ holds files its loader reads beside the graph's
// (ogbn-arxiv's num-edge-list.csv.gz and node_year.csv.gz): the folder,
// its raw/ files alone, a zip of them or the page's files read as one
// graph, and a num-edge-list that disagrees with edge.csv (OGB's loader
// would read only its count of edges) is refused naming both files.
func TestOGBRawFilesAsPublished(t *testing.T) {
	published := tinyOGB(t)
	published["raw/num-edge-list.csv.gz"] = gz("5\n")
	published["raw/node_year.csv.gz"] = gz("2001\n2002\n2003\n2004\n2005\n")
	flat := map[string]string{}
	for name, body := range published {
		if after, ok := strings.CutPrefix(name, "raw/"); ok {
			flat[after] = body
		}
	}
	miscount := cloneFiles(published)
	miscount["raw/num-edge-list.csv.gz"] = gz("3\n")
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"the folder", published, ""},
		{"its raw/ files alone", flat, ""},
		{"a num-edge-list that disagrees", miscount, "raw/num-edge-list.csv.gz:1: gives 3 edges, and raw/edge.csv.gz has 5 lines"},
	} {
		for _, s := range surfaces {
			g, err := s.open(t, tc.files)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("%s, %s: %v", tc.name, s.name, err)
			case tc.want == "" && (g.N != 5 || g.E() != 4 || g.F != 2 || !hasNote(g, "node_year.csv.gz")):
				t.Errorf("%s, %s: N %d E %d F %d notes %v", tc.name, s.name, g.N, g.E(), g.F, g.Notes)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("%s, %s: %v; want %q", tc.name, s.name, err, tc.want)
			}
		}
	}
}

// Audit case 54: OGB's raw/ files picked alone, as a file picker gives
// them, open as the folder would (a split drawn, and said), not as
// "not a graph".
func TestOGBRawFilesAlone(t *testing.T) {
	files := tinyOGB(t)
	flat := []File{}
	for name, body := range files {
		if after, ok := strings.CutPrefix(name, "raw/"); ok {
			flat = append(flat, File{Name: after, Data: []byte(body)})
		}
	}
	g, resplit, err := OpenFiles(flat, Columns{})
	if err != nil {
		t.Fatal(err)
	}
	if !resplit || g.N == 0 || !hasNote(g, "without OGB's split/") {
		t.Errorf("resplit %v, N %d, notes %v", resplit, g.N, g.Notes)
	}
}

// Audit case 168: a European CSV (byte-order mark, CRLF, semicolons) reads
// its decimal commas as numbers, and a column of text is named in a note
// as no feature, never dropped without a word.
func TestEuropeanCSV(t *testing.T) {
	g, _, err := Open(mapFS(map[string]string{
		"edges.csv":  "\ufeffsource;target\r\n0;1\r\n1;2\r\n2;3\r\n3;0\r\n",
		"labels.csv": "\ufeffid;label;score;note\r\n0;a;0,5;x\r\n1;b;1,25;y\r\n2;a;2;z\r\n3;b;0,125;w\r\n",
	}), Columns{})
	if err != nil {
		t.Fatal(err)
	}
	if g.F != 1 || !slices.Equal(g.DenseX(), []float64{0.5, 1.25, 2, 0.125}) || !hasNote(g, `labels.csv: column note holds text ("x" on line 2), so it is no node feature`) {
		t.Errorf("F %d X %v notes %v", g.F, g.DenseX(), g.Notes)
	}
}

// Audit case 120: the command line has no edge bound: an edge list of
// 800,001 edges (one more than the page read when its bound was a
// constant) opens from its path.
func TestCommandLineReadsPastThePagesEdges(t *testing.T) {
	if nativeLimits.edges != math.MaxInt {
		t.Errorf("the command line reads at most %d edges", nativeLimits.edges)
	}
	if testing.Short() {
		t.Skip("writes and reads 800,001 edges")
	}
	dir := t.TempDir()
	var edges, labels strings.Builder
	n, e := 200000, 800_001
	for i := range e {
		fmt.Fprintf(&edges, "%d %d\n", i%n, (i/n+1+i)%n)
	}
	for i := range n {
		fmt.Fprintf(&labels, "%d %d\n", i, i%2)
	}
	os.WriteFile(filepath.Join(dir, "g.edges"), []byte(edges.String()), 0o644)
	os.WriteFile(filepath.Join(dir, "g.labels"), []byte(labels.String()), 0o644)
	g, err := Load(dir, experiment.Default().Data, false)
	if err != nil {
		t.Fatal(err)
	}
	if g.E() != e {
		t.Errorf("%d edges read, want %d", g.E(), e)
	}
}

// A split the files give that trains on no node of a class is said in
// the graph's notes, naming the class and its test nodes; a split that
// trains on every class says nothing of it.
func TestOpenSaysAClassIsNeverTrained(t *testing.T) {
	for _, c := range []struct {
		nodes, want string
	}{
		{"id,label,split,x0\n0,0,train,1\n1,1,test,2\n2,2,train,3\n3,1,test,4\n4,2,test,5\n", "the split the files give trains on no node of drama: no model learns it, and its 2 test nodes count as errors"},
		{"id,label,split,x0\n0,0,train,1\n1,1,train,2\n2,2,train,3\n3,1,test,4\n4,2,test,5\n", ""},
	} {
		fsys := fstest.MapFS{
			"meta.json": {Data: []byte(`{"name": "movies", "class_names": ["action", "drama", "comedy"]}`)},
			"nodes.csv": {Data: []byte(c.nodes)},
			"edges.csv": {Data: []byte("source,target\n0,1\n1,2\n2,3\n3,4\n")},
		}
		g, resplit, err := Open(fsys, Columns{})
		if err != nil || resplit {
			t.Fatalf("%v, resplit %v", err, resplit)
		}
		var said string
		for _, n := range g.Notes {
			if strings.Contains(n.String(), "trains on no node") {
				said = n.String()
			}
		}
		if c.want == "" && said != "" || !strings.Contains(said, c.want) {
			t.Errorf("notes %q; want %q", said, c.want)
		}
	}
}
