package datasets

import (
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"pdnexplorer/experiment"
	"pdnexplorer/internal/outdir"
)

func TestBundleRoundTrip(t *testing.T) {
	d := defaultData()
	d.PerClass = 40
	g, err := Synthetic(d)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := writeBundleTo(dir, g); err != nil {
		t.Fatal(err)
	}
	h, err := ReadBundle(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g.X, h.X) || !reflect.DeepEqual(g.EdgeX, h.EdgeX) || !reflect.DeepEqual(g.Src, h.Src) ||
		!reflect.DeepEqual(g.Dst, h.Dst) || !reflect.DeepEqual(g.Kind, h.Kind) || !reflect.DeepEqual(g.Labels, h.Labels) ||
		!reflect.DeepEqual(g.Splits, h.Splits) || g.C != h.C {
		t.Error("the bundle did not read back to the same graph, bit for bit")
	}
	if h.Meta["name"] != "synthetic" {
		t.Errorf("meta name = %v", h.Meta["name"])
	}
}

// writeFiles writes a tiny valid bundle with the given overrides.
func writeFiles(t *testing.T, over map[string]string) string {
	files := map[string]string{
		"meta.json": `{"name": "tiny", "classes": 2}`,
		"nodes.csv": "id,label,split,x0,x1\n0,0,train,1,2\n1,1,test,3,4\n2,1,val,5,6\n",
		"edges.csv": "source,target,kind,e0\n0,1,inter,0.5\n1,2,intra,1.5\n",
	}
	for k, v := range over {
		files[k] = v
	}
	dir := t.TempDir()
	for name, body := range files {
		if body == "<none>" {
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestReadBundleAcceptsTiny(t *testing.T) {
	g, err := ReadBundle(writeFiles(t, nil))
	if err != nil {
		t.Fatal(err)
	}
	if g.N != 3 || g.F != 2 || g.E() != 2 || g.D != 1 || g.C != 2 || g.Splits[2] != Val || g.Kind[1] != KindIntra {
		t.Errorf("read %v", g)
	}
	g, err = ReadBundle(writeFiles(t, map[string]string{"edges.csv": "source,target,e0,e1\n0,2,1,2\n"}))
	if err != nil || g.Kind != nil || g.D != 2 {
		t.Errorf("bundle without kind: %v, %v", g, err)
	}
}

// badBundles is the bundle part of the catalogue of bad inputs: each case
// overrides one file of a tiny valid bundle and names the message it must
// give, with the file, the line as an editor counts it, the column where the
// field starts and the column's name.
var badBundles = []struct {
	name, file, body, want string
}{
	{"missing column", "nodes.csv", "id,label,split,x0,x1\n0,0,train,1\n", "nodes.csv:2: missing column"},
	{"extra column", "edges.csv", "source,target,kind,e0\n0,1,inter,0.5,9\n", "edges.csv:2: extra column"},
	{"non-numeric", "nodes.csv", "id,label,split,x0,x1\n0,0,train,1,abc\n", `nodes.csv:2:13: column x1: "abc" is not a decimal number`},
	{"NaN", "edges.csv", "source,target,kind,e0\n0,1,inter,NaN\n", `edges.csv:2:11: column e0: "NaN" is not a decimal number`},
	{"Inf", "nodes.csv", "id,label,split,x0,x1\n0,0,train,+Inf,1\n", `nodes.csv:2:11: column x0: "+Inf" is not a decimal number`},
	{"hex float", "nodes.csv", "id,label,split,x0,x1\n0,0,train,0x1p-2,1\n", `nodes.csv:2:11: column x0: "0x1p-2" is not a decimal number`},
	{"1e400", "edges.csv", "source,target,kind,e0\n0,1,inter,1e400\n", `edges.csv:2:11: column e0: "1e400" is too large to be a finite number`},
	{"id out of range", "edges.csv", "source,target,kind,e0\n0,7,inter,0.5\n", "edges.csv:2:3: column target: 7 is out of range [0, 2]"},
	{"negative id", "edges.csv", "source,target,kind,e0\n-1,1,inter,0.5\n", "edges.csv:2:1: column source: -1 is out of range [0, 2]"},
	{"float id", "edges.csv", "source,target,kind,e0\n0,1.0,inter,0.5\n", `edges.csv:2:3: column target: "1.0" is not a whole number in [0, 2]`},
	{"self-loop", "edges.csv", "source,target,kind,e0\n0,1,inter,1\n2,2,intra,1\n", "edges.csv:3:3: column target: self-loop on node 2"},
	{"repeated pair", "edges.csv", "source,target,kind,e0\n0,1,inter,1\n1,0,inter,1\n", "edges.csv:3:3: column target: the pair (1,0) repeats line 2"},
	{"label out of range", "nodes.csv", "id,label,split,x0,x1\n0,2,train,1,2\n", "nodes.csv:2:3: column label: 2 is out of range [0, 1]"},
	{"huge label, no classes", "meta.json", `{"name": "tiny"}`, ""}, // see TestHugeLabel
	{"ids out of order", "nodes.csv", "id,label,split,x0,x1\n1,0,train,1,2\n", `nodes.csv:2:1: column id: ids must be 0..N-1 in order: want 0, got "1"`},
	{"bad split", "nodes.csv", "id,label,split,x0,x1\n0,0,dev,1,2\n", `nodes.csv:2:5: column split: "dev" is not train, test, val or unlabelled`},
	{"bad kind", "edges.csv", "source,target,kind,e0\n0,1,both,1\n", `edges.csv:2:5: column kind: "both" is not intra or inter`},
	{"bad header", "nodes.csv", "id,label,x0\n0,0,1\n", "nodes.csv:1: header must start with id,label,split"},
	{"bad feature name", "edges.csv", "source,target,e1\n0,1,1\n", "edges.csv:1: column e1: want e0"},
	{"garbled feature name", "edges.csv", "source,target,\"e\n0\"\n0,1,1\n", `edges.csv:1: column "e\n0": an edge feature's name holds a line break`},
	{"no meta", "meta.json", "<none>", "meta.json: cannot open: missing"},
	{"meta without name", "meta.json", `{"classes": 2}`, "meta.json: key name: missing or not a string"},
	{"meta not json", "meta.json", `{`, "not a JSON object: unexpected end"},
	{"meta an array", "meta.json", `[1, 2]`, "meta.json:1: not a JSON object"},
	{"meta syntax error on line 3", "meta.json", "{\n\"name\": \"x\",\n\"classes\": 2,,\n}", "meta.json:3: not a JSON object"},
	{"meta classes huge", "meta.json", `{"name": "x", "classes": 1000000}`, "meta.json: key classes: 1000000 is not a whole number in [1, 1000]"},
	{"meta classes 1e400", "meta.json", `{"name": "x", "classes": 1e400}`, "meta.json:1: not a JSON object"},
	{"meta classes fractional", "meta.json", `{"name": "x", "classes": 2.5}`, "meta.json: key classes: 2.5 is not a whole number"},
	{"meta classes a string", "meta.json", `{"name": "x", "classes": "2"}`, "meta.json: key classes: is text (\"2\"), not a number: write it without quotes"},
	{"no nodes file", "nodes.csv", "<none>", "nodes.csv: cannot open: missing"},
	{"empty nodes", "nodes.csv", "", "nodes.csv:1: empty file, want a header"},
	{"header only", "nodes.csv", "id,label,split,x0,x1\n", "nodes.csv: no nodes"},
	{"no edges file", "edges.csv", "<none>", "edges.csv: cannot open"},
	{"bad quote", "edges.csv", "source,target,kind,e0\n0,1,\"inter,1\n", "edges.csv:2:"},
	{"bad value after blank lines", "nodes.csv", "id,label,split,x0,x1\n\n0,0,train,1,2\n\n\n1,1,test,3,oops\n", `nodes.csv:6:12: column x1: "oops" is not a decimal number`},
	{"CRLF lines", "nodes.csv", "id,label,split,x0,x1\r\n0,0,train,1,2\r\n1,1,test,3,x\r\n", `nodes.csv:3:12: column x1: "x" is not a decimal number`},
	{"long cell", "nodes.csv", "id,label,split,x0,x1\n0,0,train,1," + strings.Repeat("9z", 5000) + "\n", `column x1: "9z9z9z9z9z9z9z9z9z9z9z9z9z9z9z9z9z9z9z9z"… (10000 characters) is not a decimal number`},
}

func TestReadBundleRejects(t *testing.T) {
	for _, tc := range badBundles {
		if tc.want == "" {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadBundle(writeFiles(t, map[string]string{tc.file: tc.body}))
			if err == nil {
				t.Fatal("accepted")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want it to contain %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q spans several lines", err)
			}
		})
	}
}

// A label of 2,000,000,000 with no classes in meta.json once sized the model
// to that many classes and ran out of memory.
func TestHugeLabel(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"meta.json": `{"name": "tiny"}`,
		"nodes.csv": "id,label,split,x0\n0,0,train,1\n1,2000000000,test,2\n",
		"edges.csv": "source,target,e0\n0,1,1\n",
	})
	_, err := ReadBundle(dir)
	if err == nil || !strings.Contains(err.Error(), "nodes.csv:3:3: column label: 2000000000 is out of range [0, 999]") {
		t.Errorf("error %v", err)
	}
}

// The classes are the labels': C = the largest label + 1. A count
// meta.json gives that the files contradict (a file cut short, or edited)
// is refused naming the key and both numbers.
func TestClassesComeFromLabels(t *testing.T) {
	g, err := ReadBundle(writeFiles(t, map[string]string{"meta.json": `{"name": "tiny"}`}))
	if err != nil || g.C != 2 {
		t.Fatalf("C = %v with labels 0 and 1, want 2: %v", g, err)
	}
	_, err = ReadBundle(writeFiles(t, map[string]string{"meta.json": `{"name": "tiny", "classes": 5}`}))
	if want := "meta.json: key classes: says 5, but nodes.csv's labels hold 2 classes (0 to 1)"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("meta classes 5 for labels 0 and 1: %v; want %q", err, want)
	}
}

func TestByteOrderMarks(t *testing.T) {
	const bom = "\ufeff"
	g, err := ReadBundle(writeFiles(t, map[string]string{
		"meta.json": bom + `{"name": "tiny", "classes": 2}`,
		"nodes.csv": bom + "id,label,split,x0,x1\n0,0,train,1,2\n1,1,test,3,4\n2,1,val,5,6\n",
		"edges.csv": bom + "source,target,kind,e0\n0,1,inter,0.5\n1,2,intra,1.5\n",
	}))
	if err != nil || g.N != 3 || g.E() != 2 {
		t.Errorf("a bundle saved with byte-order marks: %v, %v", g, err)
	}
}

func TestReadBundleDirectoryProblems(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "meta.json")
	os.WriteFile(file, []byte("{}"), 0o644)
	for _, tc := range []struct{ path, want string }{
		{file, "meta.json: is a file; a bundle is a directory holding meta.json, nodes.csv and edges.csv"},
		{filepath.Join(dir, "nope"), "nope: cannot read the bundle: missing"},
	} {
		_, err := ReadBundle(tc.path)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ReadBundle(%s) = %v, want %q", tc.path, err, tc.want)
		}
	}
}

// Sparse node features go through features.csv and come back the same.
func TestSparseBundleRoundTrip(t *testing.T) {
	d := defaultData()
	d.PerClass = 20
	g, err := Synthetic(d)
	if err != nil {
		t.Fatal(err)
	}
	for i := range g.X {
		if i%4 != 0 {
			g.X[i] = 0
		}
	}
	g.XS, g.X = SparseOf(g.X, g.N, g.F), nil
	dir := t.TempDir()
	if err := writeBundleTo(dir, g); err != nil {
		t.Fatal(err)
	}
	h, err := ReadBundle(dir)
	if err != nil {
		t.Fatal(err)
	}
	if h.X != nil || h.F != g.F || !reflect.DeepEqual(g.XS, h.XS) || !reflect.DeepEqual(g.EdgeX, h.EdgeX) {
		t.Error("the sparse bundle did not read back to the same features, bit for bit")
	}
	if h.Meta["features"] != float64(g.F) {
		t.Errorf("meta features = %v", h.Meta["features"])
	}
}

// Features stored dense but mostly zero are held sparse on reading.
func TestMostlyZeroFeaturesReadSparse(t *testing.T) {
	g, err := ReadBundle(writeFiles(t, map[string]string{"nodes.csv": "id,label,split,x0,x1,x2,x3,x4\n0,0,train,0,0,1,0,0\n1,1,test,0,0,0,0,0\n2,1,val,2,0,0,0,0\n"}))
	if err != nil {
		t.Fatal(err)
	}
	if g.X != nil || g.XS == nil || g.XS.NNZ() != 2 || g.F != 5 {
		t.Errorf("X %v, XS %+v", g.X, g.XS)
	}
	g, err = ReadBundle(writeFiles(t, nil))
	if err != nil || g.XS != nil || len(g.X) != 6 {
		t.Errorf("dense features: %v, %v", g, err)
	}
}

const sparseNodes = "id,label,split\n0,0,train\n1,1,test\n2,1,val\n"

func TestReadSparseFeatures(t *testing.T) {
	for _, tc := range []struct {
		name, meta, features string
		f                    int
		dense                []float64
	}{
		{"binary, any order", `{"name": "s"}`, "node,feature\n2,0\n0,3\n0,1\n", 4, []float64{0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0}},
		{"values, width from meta", `{"name": "s", "features": 5}`, "node,feature,value\n1,2,0.5\n1,0,-2\n", 5, []float64{0, 0, 0, 0, 0, -2, 0, 0.5, 0, 0, 0, 0, 0, 0, 0}},
		{"explicit zero dropped", `{"name": "s"}`, "node,feature,value\n0,1,0\n2,1,3\n", 2, []float64{0, 0, 0, 0, 0, 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := ReadBundle(writeFiles(t, map[string]string{"meta.json": tc.meta, "nodes.csv": sparseNodes, "features.csv": tc.features}))
			if err != nil {
				t.Fatal(err)
			}
			if g.F != tc.f || g.XS == nil || !reflect.DeepEqual(g.XS.Dense(), tc.dense) {
				t.Errorf("F = %d, features %v; want %d, %v", g.F, g.DenseX(), tc.f, tc.dense)
			}
		})
	}
}

// badFeatures are sparse feature files a reader refuses, with the message.
var badFeatures = []struct {
	name, meta, features, want string
}{
	{"x columns too", "", "<dense nodes>", "features.csv: nodes.csv already has 2 feature columns"},
	{"bad header", "", "node,feat\n0,1\n", "features.csv:1: header must be node,feature or node,feature,value"},
	{"node out of range", "", "node,feature\n0,1\n3,0\n", "features.csv:3:1: column node: 3 is out of range [0, 2]"},
	{"feature beyond meta", `{"name": "s", "features": 4}`, "node,feature\n0,4\n", "features.csv:2:3: column feature: 4 is out of range [0, 3]"},
	{"huge feature", "", "node,feature\n0,2000000000\n", "features.csv:2:3: column feature: 2000000000 is out of range [0, 1048575]"},
	{"negative feature", "", "node,feature\n0,-1\n", "column feature: -1 is out of range"},
	{"bad value", "", "node,feature,value\n0,1,x\n", `features.csv:2:5: column value: "x" is not a decimal number`},
	{"NaN value", "", "node,feature,value\n0,1,NaN\n", `column value: "NaN" is not a decimal number`},
	{"missing value", "", "node,feature,value\n0,1\n", "features.csv:2: missing column"},
	{"header only", "", "node,feature\n", "features.csv: no features"},
	{"meta features fractional", `{"name": "s", "features": 2.5}`, "node,feature\n0,1\n", "meta.json: key features: 2.5 is not a whole number in [1, 1048576]"},
}

func TestReadSparseFeaturesRejects(t *testing.T) {
	for _, tc := range badFeatures {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"nodes.csv": sparseNodes, "features.csv": tc.features}
			if tc.meta != "" {
				files["meta.json"] = tc.meta
			}
			if tc.features == "<dense nodes>" {
				files = map[string]string{"features.csv": "node,feature\n0,1\n"}
			}
			_, err := ReadBundle(writeFiles(t, files))
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// The shipped real graphs read back at the sizes Planetoid's files have,
// and the shot split labels shots nodes of each class.
func TestBuiltinGraphs(t *testing.T) {
	for _, tc := range []struct {
		name                    string
		nodes, edges, f, nnz, c int
	}{
		{experiment.GraphCora, 2708, 5278, 1433, 49216, 7},
		{experiment.GraphCiteseer, 3327, 4552, 3703, 105165, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := experiment.Default().Data
			d.Graph = tc.name
			g, err := Build(d)
			if err != nil {
				t.Fatal(err)
			}
			if g.N != tc.nodes || g.E() != tc.edges || g.F != tc.f || g.XS == nil || g.XS.NNZ() != tc.nnz || g.C != tc.c || g.D != len(TieStrengthNames) {
				t.Errorf("N %d E %d F %d C %d D %d", g.N, g.E(), g.F, g.C, g.D)
			}
			s, err := ShapeOfBuiltin(tc.name)
			if err != nil || s != (BuiltinShape{tc.nodes, tc.edges, tc.f, tc.nnz, tc.c}) {
				t.Errorf("meta.json's shape %+v, %v", s, err)
			}
			train := make([]int, g.C)
			for i, sp := range g.Splits {
				if sp == Train {
					train[g.Labels[i]]++
				}
			}
			for c, n := range train {
				if n != d.Shots {
					t.Errorf("class %d has %d labelled nodes, want %d", c, n, d.Shots)
				}
			}
			if len(g.Nodes(Test)) != g.N-d.Shots*g.C {
				t.Errorf("%d test nodes", len(g.Nodes(Test)))
			}
			d.Seed++
			h, _ := Build(d)
			if reflect.DeepEqual(g.Splits, h.Splits) {
				t.Error("another seed drew the same split")
			}
		})
	}
	if _, err := Builtin("pubmed"); err == nil {
		t.Error("pubmed is not shipped")
	}
}

// writeBundleTo writes g's bundle into dir, as a test's fixture.
func writeBundleTo(dir string, g *Graph) error {
	tree, err := outdir.NewTree(dir)
	if err != nil {
		return err
	}
	return WriteBundle(g, func(name string) (io.WriteCloser, error) { return tree.Create(name, 0o644) })
}
