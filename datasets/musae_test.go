package datasets

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"pdnexplorer/internal/numtext"
)

// tinyMUSAE is a valid MUSAE folder of four nodes, in the published form:
// target.csv out of order, an edge listed both ways and a self-loop.
var tinyMUSAE = map[string]string{
	"target.csv":    "id,facebook_id,page_name,page_type\n1,145647315578475,The Voice of China,tvshow\n0,145647315578476,\"Capitol, Hill\",politician\n3,1,x,company\n2,2,y,tvshow\n",
	"edges.csv":     "id_1,id_2\n0,1\n1,0\n1,2\n3,3\n2,3\n",
	"features.json": `{"0": [1, 4], "1": [4, 4, 0], "2": [], "3": [2]}`,
}

func musaeFS(over map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{}
	for k, v := range tinyMUSAE {
		fsys[k] = &fstest.MapFile{Data: []byte(v)}
	}
	for k, v := range over {
		if v == "<none>" {
			delete(fsys, k)
			continue
		}
		fsys[k] = &fstest.MapFile{Data: []byte(v)}
	}
	return fsys
}

func TestReadMUSAE(t *testing.T) {
	fsys := musaeFS(nil)
	if !IsMUSAE(fsys) {
		t.Fatal("not recognised")
	}
	g, err := ReadMUSAEFS(fsys, Columns{})
	if err != nil {
		t.Fatal(err)
	}
	// Classes by name in sorted order: company 0, politician 1, tvshow 2.
	if g.N != 4 || g.C != 3 || !reflect.DeepEqual(g.Labels, []int{1, 2, 2, 0}) {
		t.Errorf("N %d C %d labels %v", g.N, g.C, g.Labels)
	}
	if !reflect.DeepEqual(g.Src, []int32{0, 1, 2}) || !reflect.DeepEqual(g.Dst, []int32{1, 2, 3}) {
		t.Errorf("edges %v %v", g.Src, g.Dst)
	}
	// Node 1 lists feature 4 twice: summed, as karateclub reads it.
	want := []float64{0, 1, 0, 0, 1, 1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0}
	if g.F != 5 || !reflect.DeepEqual(g.DenseX(), want) {
		t.Errorf("F %d features %v", g.F, g.DenseX())
	}
	if !hasNote(g, "features.json: 1 features listed again for their node were summed") {
		t.Errorf("notes %v: want the repeat summed and said", g.Notes)
	}
	if !reflect.DeepEqual(g.ClassNames, []string{"company", "politician", "tvshow"}) {
		t.Errorf("class names %v", g.ClassNames)
	}
}

// badMUSAE are MUSAE folders a reader refuses, with the message.
var badMUSAE = []struct {
	name, file, body, want string
}{
	{"features not an object", "features.json", `[1, 2]`, "features.json:1:1: want an object of node ids"},
	{"features syntax error on line 2", "features.json", "{\"0\": [1],\n\"1\": [2,,]}", "features.json:2:10: want an object"},
	{"features cut short", "features.json", "{\"0\": [1],\n\"1\": [2", "features.json:2:8: the file ends in the middle of its JSON (cut short?)"},
	{"feature not a node", "features.json", `{"7": [1]}`, `features.json: node "7" is not an id in target.csv's column "id", the column the reader took for the node ids: if another column holds the ids the other files use, name it (-id-column, id-column in the link)`},
	{"feature negative", "features.json", `{"0": [-1]}`, `features.json:1:8: node "0": feature "-1" is not a whole number`},
	{"feature fractional", "features.json", `{"0": [1.5]}`, `features.json:1:8: node "0": feature "1.5" is not a whole number`},
	{"feature huge", "features.json", `{"0": [1e300]}`, `feature "1e300" is not a whole number in [0, 1048575]`},
	{"feature a whole number written with a point", "features.json", "{\"0\": [1],\n \"1\": [2, 1.0]}", `features.json:2:11: node "1": feature "1.0" is not a whole number in [0, 1048575], written as one`},
	{"feature a number as text", "features.json", "{\"0\": [\"3\"]}", `features.json:1:8: node "0": feature "\"3\"" is not a whole number`},
	{"feature true", "features.json", "{\"0\": [1, true]}", `features.json:1:11: node "0": feature "true" is not a whole number`},
	{"feature a list", "features.json", "{\"0\": [[1]], \"1\": [2]}", `features.json:1:8: node "0": feature "[1]" is not a whole number`},
	{"features UTF-16 without its mark", "features.json", "{\x00\"\x000\x00\"\x00:\x00[\x00]\x00}\x00", "features.json:1: is UTF-16 text without a byte-order mark"},
	{"one class", "target.csv", "node,class\n0,a\n1,a\n2,a\n3,a\n", "target.csv: column class: holds one value for every node"},
	{"target id twice", "target.csv", "id,page_type\n0,a\n1,b\n0,c\n", "target.csv:4:1: column id: node \"0\" was listed on line 2 already"},
	{"a line repeated", "target.csv", "id,page_type\n" + strings.Repeat("0,a\n", 100000), "target.csv:3:"},
	{"target id missing", "target.csv", "id,page_type\n0,a\n2,b\n1,b\n", `features.json: node "3" is not an id in target.csv's column "id"`},
	{"target short row", "target.csv", "id,page_type\n0\n", "target.csv:2: missing column"},
	{"target empty", "target.csv", "id,page_type\n", "target.csv: no nodes"},
	{"target UTF-16", "target.csv", "i\x00d\x00,\x00t\x00\n\x00", "target.csv:1: is UTF-16 text"},
	{"continuous target", "target.csv", "id,target\n0,1.5\n1,2.25\n2,3\n3,4\n", "target.csv: column target: holds fractions (measurements"},
	{"edge not a node", "edges.csv", "id_1,id_2\n0,9\n", `edges.csv:2:3: column id_2: "9" is not a node of target.csv`},
	{"edge not a number", "edges.csv", "id_1,id_2\nx,1\n", `edges.csv:2:1: column id_1: "x" is not a node of target.csv`},
	{"edge weight not a number", "edges.csv", "id_1,id_2,w\n0,1,x\n", `edges.csv:2:5: column w: "x" is not a decimal number`},
	{"edges mostly repeats", "edges.csv", "id_1,id_2\n" + strings.Repeat("0,1\n", 5000), "edges.csv:1004: 1,002 of 1,003 lines so far repeat a pair"},
	{"one column of edges", "edges.csv", "id_1\n0\n", "edges.csv:1: one column"},
}

func TestReadMUSAERejects(t *testing.T) {
	for _, tc := range badMUSAE {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadMUSAEFS(musaeFS(map[string]string{tc.file: tc.body}), Columns{})
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") || !namesAFile(err) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// namesAFile reports whether a reader's error is one that names a file.
func namesAFile(err error) bool {
	var be *BundleError
	var ce *ColumnsError
	return errors.As(err, &be) || errors.As(err, &ce) || strings.HasPrefix(err.Error(), "graph: ")
}

// The MUSAE families and FEATHER folders as published: the id column is
// found (Twitch's new_id, not its id), the class column by its name (mature,
// ml_target, target), or named; a continuous target is refused by name,
// and an id column at the end is never taken for the class.
func TestReadMUSAEFamilies(t *testing.T) {
	twitch := map[string]string{
		"musae_ENGB_target.csv":    "id,days,mature,views,partner,new_id\n37905227,1920,True,5051,False,2\n2145,9,False,100,False,0\n55,42,True,9000,True,1\n88,100,False,7,False,3\n",
		"musae_ENGB_edges.csv":     "from,to\n0,1\n1,2\n2,3\n",
		"musae_ENGB_features.json": `{"0": [1], "1": [2], "2": [0], "3": [1, 2]}`,
	}
	feather := map[string]string{
		"edges.csv":    "node_1,node_2\n0,1\n1,2\n",
		"features.csv": "node_id,feature_id,value\n0,0,1\n1,3,2.5\n2,1,1\n",
		"target.csv":   "id,target\n0,1\n1,0\n2,1\n",
	}
	github := map[string]string{
		"edges.csv":     "id_1,id_2\n0,1\n",
		"features.json": `{"0": [0], "1": [1], "2": [1]}`,
		"target.csv":    "id,name,ml_target\n0,alice,0\n1,bob,1\n2,carol,1\n",
	}
	lastIsID := map[string]string{
		"edges.csv":     "id_1,id_2\n0,1\n",
		"features.json": `{}`,
		"target.csv":    "name,club,new_id\n" + numberedRows(60, func(i int) string { return fmt.Sprintf("n%d,%s,%d", i, []string{"a", "b", "c"}[i%3], i) }),
	}
	for _, tc := range []struct {
		name   string
		files  map[string]string
		cols   Columns
		labels []int
		names  []string
		f      int
	}{
		{"twitch", twitch, Columns{}, []int{0, 1, 1, 0}, []string{"False", "True"}, 3},
		{"twitch, partner named", twitch, Columns{Target: "partner"}, []int{0, 1, 0, 0}, []string{"False", "True"}, 3},
		{"twitch, by numbers", twitch, Columns{ID: "6", Target: "3"}, []int{0, 1, 1, 0}, []string{"False", "True"}, 3},
		{"feather", feather, Columns{}, []int{1, 0, 1}, nil, 4},
		{"github", github, Columns{}, []int{0, 1, 1}, nil, 2},
	} {
		g, err := ReadMUSAEFS(mapFS(tc.files), tc.cols)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if !reflect.DeepEqual(g.Labels, tc.labels) || !reflect.DeepEqual(g.ClassNames, tc.names) || g.F != tc.f || g.Check() != nil {
			t.Errorf("%s: labels %v names %v F %d", tc.name, g.Labels, g.ClassNames, g.F)
		}
	}
	g, err := ReadMUSAEFS(mapFS(lastIsID), Columns{})
	if err != nil || g.C != 3 || g.N != 60 {
		t.Errorf("an id column at the end: %v, %v", g, err)
	}
	for _, tc := range []struct {
		name  string
		files map[string]string
		cols  Columns
		want  string
	}{
		{"twitch, days named", twitch, Columns{Target: "days"}, ""}, // four values for four nodes
		{"no such column", twitch, Columns{Target: "maturity"}, "column maturity: no such column (target names it): the columns are id, days, mature, views, partner, new_id"},
		{"id as the class", twitch, Columns{ID: "new_id", Target: "new_id"}, `-id-column "new_id" and -target "new_id" (id-column and target in a link) name this one column`},
		{"id repeats", twitch, Columns{ID: "mature"}, "node \"True\" was listed on line 2 already"},
		{"continuous", map[string]string{"edges.csv": "id_1,id_2\n0,1\n", "features.json": "{}", "target.csv": "id,target\n0,0.5\n1,1.5\n2,2\n"}, Columns{}, "column target: holds fractions (measurements"},
		{"ambiguous", map[string]string{"edges.csv": "id_1,id_2\n0,1\n", "features.json": "{}",
			"target.csv": "id,colour,shape\n0,red,round\n1,red,square\n2,blue,round\n3,blue,square\n"}, Columns{}, "which column is the class? name it with -target (target in a link): colour (2 classes: blue 2, red 2); shape (2 classes: round 2, square 2)"},
	} {
		_, err := ReadMUSAEFS(mapFS(tc.files), tc.cols)
		if tc.want == "" {
			if err == nil {
				t.Errorf("%s: accepted", tc.name)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) || !namesAFile(err) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	var ce *ColumnsError
	_, err = ReadMUSAEFS(mapFS(map[string]string{"edges.csv": "id_1,id_2\n0,1\n", "features.json": "{}",
		"target.csv": "id,colour,shape\n0,red,round\n1,red,square\n2,blue,round\n3,blue,square\n"}), Columns{})
	if !errors.As(err, &ce) || len(ce.Choices) != 2 || len(ce.Sample) != 4 || ce.Header[1] != "colour" {
		t.Errorf("the chooser's choices: %+v", ce)
	}
}

// mapFS is a folder of the files given.
func mapFS(files map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{}
	for k, v := range files {
		fsys[k] = &fstest.MapFile{Data: []byte(v)}
	}
	return fsys
}

// numberedRows writes n rows, row(i) each.
func numberedRows(n int, row func(i int) string) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(row(i) + "\n")
	}
	return b.String()
}

func hasNote(g *Graph, want string) bool {
	for _, n := range g.Notes {
		if strings.Contains(n.String(), want) {
			return true
		}
	}
	return false
}

// The karate club library's Twitch folder repeats (node, feature) pairs in
// its features.csv (535 of them, value 1 each): karateclub reads them into
// a SciPy COO matrix, which sums repeats, and so does the explorer.
func TestFeatherRepeatsSummed(t *testing.T) {
	fsys := fstest.MapFS{
		"edges.csv":    {Data: []byte("node_1,node_2\n0,1\n1,2\n")},
		"target.csv":   {Data: []byte("id,target\n0,0\n1,1\n2,0\n")},
		"features.csv": {Data: []byte("node_id,feature_id,value\n0,3,1\n1,0,1\n0,3,1\n2,1,0.5\n2,1,0.25\n")},
	}
	g, err := ReadMUSAEFS(fsys, Columns{})
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{0, 0, 0, 2, 1, 0, 0, 0, 0, 0.75, 0, 0}
	if !reflect.DeepEqual(g.DenseX(), want) {
		t.Errorf("features %v, want %v", g.DenseX(), want)
	}
	if !hasNote(g, "features.csv: 2 (node, feature) pairs given again (the first on line 4) were summed") {
		t.Errorf("notes %v", g.Notes)
	}
}

// A node is one node however each file of the folder writes its number:
// MUSAE's readers take target.csv and edges.csv through pandas (a column
// of whole numbers is int64) and features.json's keys through int(), so
// "01", "+1" and " 1" are node 1 in each. A column that is not all whole
// numbers keeps its ids as text, and GraphML's ids stay text.
func TestMUSAENamesANodeByItsNumber(t *testing.T) {
	same := []struct{ name, file, body string }{
		{"feature keys", "features.json", `{"00": [1, 4], " 1": [4, 4, 0], "+2": [], "03": [2]}`},
		{"edge ends", "edges.csv", "id_1,id_2\n00,+1\n01,0\n1,002\n3, 3\n2,03\n"},
		{"target ids", "target.csv", "id,facebook_id,page_name,page_type\n01,145647315578475,The Voice of China,tvshow\n+0,145647315578476,\"Capitol, Hill\",politician\n003,1,x,company\n 2,2,y,tvshow\n"},
	}
	want, err := ReadMUSAEFS(musaeFS(nil), Columns{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range same {
		t.Run(tc.name, func(t *testing.T) {
			g, err := ReadMUSAEFS(musaeFS(map[string]string{tc.file: tc.body}), Columns{})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(g.Labels, want.Labels) || !reflect.DeepEqual(g.Src, want.Src) || !reflect.DeepEqual(g.Dst, want.Dst) || !reflect.DeepEqual(g.DenseX(), want.DenseX()) {
				t.Errorf("read as another graph: labels %v edges %v %v features %v", g.Labels, g.Src, g.Dst, g.DenseX())
			}
		})
	}
	refused := []struct{ name, file, body, want string }{
		{"a feature key twice by its number", "features.json", `{"0": [1], "1": [2], "01": [3], "2": [], "3": []}`, `features.json: node "1" is listed twice, as "01" and as "1"`},
		{"a target id twice by its number", "target.csv", "id,page_type\n0,a\n1,b\n01,c\n2,a\n3,b\n", `target.csv:4: column id: node "01" was listed on line 3 already, as "1"`},
		// The id column is chosen by its text, then its numbers are
		// checked: another column is never taken for the ids instead.
		{"not another column for the ids", "target.csv", "node_id,id,target\n1,2,x\n01,3,y\n2,1,x\n3,5,y\n", `target.csv:3: column node_id: node "01" was listed on line 2 already, as "1"`},
		{"the one column that names the nodes", "target.csv", "user,target\n1,x\n01,y\n2,x\n3,y\n", `target.csv:3: column user: node "01" was listed on line 2 already, as "1"`},
		{"a number past int64", "target.csv", "id,t\n0,a\n1,b\n2,a\n3,b\n01,a\n9223372036854775808,b\n", `target.csv:6: column id: node "01" was listed on line 3 already, as "1"`},
		{"a whole number written as a decimal", "target.csv", "id,t\n0,a\n1,b\n2,a\n3,b\n3.0,a\n", `target.csv:6: column id: node "3.0" was listed on line 5 already, as "3"`},
		{"a node without an id", "target.csv", "id,t\n0,a\n1,b\n2,a\n3,b\n,a\n", `target.csv:6: column id: a node without an id: "" is a missing value to pandas`},
		{"a node whose id is NA", "target.csv", "id,t\n0,a\n1,b\nNA,a\n2,a\n3,b\n", `target.csv:4: column id: a node without an id: "NA" is a missing value to pandas`},
		{"a first line of edges naming no node", "edges.csv", "0,9\n1,2\n", `edges.csv:1:3: column 2: "9" is not a node of target.csv`},
	}
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := Open(musaeFS(map[string]string{tc.file: tc.body}), Columns{})
			if err == nil || !strings.Contains(err.Error(), tc.want) || !namesAFile(err) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
	t.Run("an edge list and its labels file", func(t *testing.T) {
		g, _, err := Open(mapFS(map[string]string{
			"labels.csv": "id,label\n00,x\n01,y\n02,x\n03,y\n",
			"edges.csv":  "0,+1\n 2,3\n",
		}), Columns{})
		if err != nil {
			t.Fatal(err)
		}
		if g.N != 4 || !reflect.DeepEqual(g.Src, []int32{0, 2}) || !reflect.DeepEqual(g.Dst, []int32{1, 3}) {
			t.Errorf("N %d edges %v %v: want nodes found by their numbers", g.N, g.Src, g.Dst)
		}
	})
	t.Run("a headerless labels file", func(t *testing.T) {
		_, _, err := Open(mapFS(map[string]string{"labels.txt": "1 a 0\n01 b 1\n2 a 2\n3 b 3\n", "edges.txt": "1 2\n2 3\n"}), Columns{})
		if want := `labels.txt:2: column 1: node "01" was listed on line 1 already, as "1"`; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v, want %q", err, want)
		}
	})
	t.Run("a Matrix Market labels file", func(t *testing.T) {
		_, _, err := Open(mapFS(map[string]string{"g.mtx": "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 2\n", "g.node_labels": "1,a\n2,b\n3,a\n01,b\n"}), Columns{})
		if want := `g.node_labels:4`; err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), `node "01" was listed on line 1 already, as "1"`) {
			t.Errorf("error %v, want it at %q", err, want)
		}
	})
	t.Run("GraphML's ids are text as written", func(t *testing.T) {
		g, _, err := Open(mapFS(map[string]string{"g.graphml": `<?xml version="1.0"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns"><key id="c" for="node" attr.name="club" attr.type="string"/>
<graph edgedefault="undirected"><node id="1"><data key="c">a</data></node><node id=" 1"><data key="c">b</data></node><node id="2"><data key="c">a</data></node><node id="3"><data key="c">b</data></node>
<edge source="1" target=" 1"/><edge source="2" target="3"/><edge source="1" target="3"/></graph></graphml>`}), Columns{})
		if err != nil {
			t.Fatal(err)
		}
		if g.N != 4 || g.E() != 3 {
			t.Errorf("%d nodes, %d edges: want 4 and 3, as NetworkX reads them", g.N, g.E())
		}
	})
	t.Run("ids that are not all numbers are text", func(t *testing.T) {
		g, err := ReadMUSAEFS(musaeFS(map[string]string{
			"target.csv":    "id,page_type\nx,a\n1,b\n01,a\n2,b\n",
			"edges.csv":     "id_1,id_2\n01,1\nx,2\n",
			"features.json": `{"x": [0], "1": [1], "01": [2], "2": [3]}`,
		}), Columns{})
		if err != nil {
			t.Fatal(err)
		}
		if g.N != 4 || !reflect.DeepEqual(g.Src, []int32{1, 0}) || !reflect.DeepEqual(g.Dst, []int32{2, 3}) {
			t.Errorf("N %d edges %v %v: want 1 and 01 two nodes", g.N, g.Src, g.Dst)
		}
	})
}

// A graph's features are as wide as a file declares or its largest index
// makes them; where most of that width is never non-zero (an index or a
// width written wrong), it is said, whatever the format.
func TestFeaturesFarWiderThanUsedAreSaid(t *testing.T) {
	const said = "the node features are %s columns wide, but only %s of those columns are non-zero for any node"
	for _, tc := range []struct {
		name       string
		files      map[string]string
		width, use int
	}{
		{"a MUSAE index", mergedMaps(tinyMUSAE, map[string]string{"features.json": `{"0": [1, 4], "1": [1048575], "2": [], "3": [2]}`}), 1 << 20, 4},
		{"a bundle's declared width", map[string]string{"meta.json": `{"name": "s", "features": 5001}`, "nodes.csv": sparseNodes, "features.csv": "node,feature\n0,1\n2,3000\n", "edges.csv": "source,target\n0,1\n1,2\n"}, 5001, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, _, err := Open(mapFS(tc.files), Columns{})
			if err != nil {
				t.Fatal(err)
			}
			if want := fmt.Sprintf(said, numtext.Group(tc.width), numtext.Group(tc.use)); g.F != tc.width || !hasNote(g, want) {
				t.Errorf("F %d notes %v: want %q", g.F, g.Notes, want)
			}
		})
	}
	g, _, err := Open(mapFS(tinyMUSAE), Columns{})
	if err != nil {
		t.Fatal(err)
	}
	if hasNote(g, "columns wide") {
		t.Errorf("notes %v: a width the file uses is not said", g.Notes)
	}
}

// mergedMaps is a with b's entries over it.
func mergedMaps(a, b map[string]string) map[string]string {
	out := maps.Clone(a)
	maps.Copy(out, b)
	return out
}

// Every reader finds a node another file names through nodeKeys.node, the
// one rule: the map of keys is read nowhere else (a reader that looked an
// id up itself, trimmed or not, would name a node its own way again).
func TestNodesAreFoundByOneRule(t *testing.T) {
	fset := token.NewFileSet()
	names, err := fs.Glob(os.DirFS("."), "*.go")
	if err != nil {
		t.Fatal(err)
	}
	owners := map[string]bool{"node": true, "nodeIDs": true}
	var uses []string
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			ast.Inspect(fd, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "byKey" && !owners[fd.Name.Name] {
					uses = append(uses, fset.Position(sel.Pos()).String()+" in "+fd.Name.Name)
				}
				return true
			})
		}
	}
	if len(uses) > 0 {
		t.Errorf("node ids looked up outside nodeKeys.node: %v", uses)
	}
}
