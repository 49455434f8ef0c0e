package datasets

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"pdnexplorer/experiment"
)

// testdata/npz/karate.npz and testdata/npz-object/karate.npz were written
// by np.savez (numpy 1.24) as the GNN benchmark writes its files: the
// karate club's adjacency and three binary attributes as CSR arrays, the
// clubs as labels, class_names as text (in npz-object, as an array of
// Python objects); testdata/karate holds the same graph as an edge list
// and a labels file (NetworkX 2.8.8's karate_club_graph, its nodes
// numbered from 1 there). The Python that wrote them:
//
//	A = sp.csr_matrix(nx.to_scipy_sparse_array(G, weight=None)).astype(np.float32)
//	np.savez(path, adj_data=A.data, adj_indices=A.indices, adj_indptr=A.indptr,
//	    adj_shape=A.shape, attr_data=X.data, attr_indices=X.indices,
//	    attr_indptr=X.indptr, attr_shape=X.shape, labels=labels,
//	    class_names=np.array(['Mr. Hi', 'Officer']),  # dtype=object in npz-object
//	    attr_names=np.array(['degree>4', 'even', 'third']))
//
// where X's columns are degree > 4, an even node and a node divisible by 3.

// npyArr is one array of a .npz a test writes: its key, descr, shape and
// little-endian data.
type npyArr struct {
	key, descr string
	shape      []int
	data       []byte
	raw        []byte // the whole .npy, where a test spoils its header
}

// npyBytes is a as np.save writes it: version 1.0, its header padded to
// 64 bytes with spaces and a line break.
func (a npyArr) npyBytes() []byte {
	if a.raw != nil {
		return a.raw
	}
	dims := make([]string, len(a.shape))
	for i, d := range a.shape {
		dims[i] = fmt.Sprint(d)
	}
	shape := "(" + strings.Join(dims, ", ") + ")"
	if len(a.shape) == 1 {
		shape = "(" + dims[0] + ",)"
	}
	hdr := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': %s, }", a.descr, shape)
	for (10+len(hdr)+1)%64 != 0 {
		hdr += " "
	}
	hdr += "\n"
	b := []byte("\x93NUMPY\x01\x00")
	b = binary.LittleEndian.AppendUint16(b, uint16(len(hdr)))
	return append(append(b, hdr...), a.data...)
}

// f2 is float16 values, as their bits.
func f2(bits ...uint16) []byte {
	var b []byte
	for _, v := range bits {
		b = binary.LittleEndian.AppendUint16(b, v)
	}
	return b
}

func f4(vs ...float64) []byte {
	var b []byte
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(v)))
	}
	return b
}

func i4(vs ...int) []byte {
	var b []byte
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint32(b, uint32(int32(v)))
	}
	return b
}

func i8(vs ...int) []byte {
	var b []byte
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint64(b, uint64(int64(v)))
	}
	return b
}

func u7(names ...string) []byte {
	var b []byte
	for _, n := range names {
		rs := []rune(n)
		for i := range 7 {
			r := rune(0)
			if i < len(rs) {
				r = rs[i]
			}
			b = binary.LittleEndian.AppendUint32(b, uint32(r))
		}
	}
	return b
}

// npzOf is a .npz of arrays, as np.savez writes it (stored, not
// deflated).
func npzOf(t testing.TB, arrays []npyArr) string {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, a := range arrays {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: a.key + ".npy", Method: zip.Store})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(a.npyBytes())
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// tinyNPZArrays are a graph of 4 nodes as the benchmark writes one: the
// path 0–1–2–3 both ways, 2 attributes, 2 classes named in text.
func tinyNPZArrays() []npyArr {
	return []npyArr{
		{key: "adj_data", descr: "<f4", shape: []int{6}, data: f4(1, 1, 1, 1, 1, 1)},
		{key: "adj_indices", descr: "<i4", shape: []int{6}, data: i4(1, 0, 2, 1, 3, 2)},
		{key: "adj_indptr", descr: "<i4", shape: []int{5}, data: i4(0, 1, 3, 5, 6)},
		{key: "adj_shape", descr: "<i8", shape: []int{2}, data: i8(4, 4)},
		{key: "attr_data", descr: "<f4", shape: []int{4}, data: f4(1, 1, 1, 1)},
		{key: "attr_indices", descr: "<i4", shape: []int{4}, data: i4(0, 1, 0, 1)},
		{key: "attr_indptr", descr: "<i4", shape: []int{5}, data: i4(0, 1, 2, 3, 4)},
		{key: "attr_shape", descr: "<i8", shape: []int{2}, data: i8(4, 2)},
		{key: "labels", descr: "<i8", shape: []int{4}, data: i8(0, 1, 0, 1)},
		{key: "class_names", descr: "<U7", shape: []int{2}, data: u7("café", "thé")},
	}
}

// withArray is arrays with a replaced (by key; added if new, dropped if
// a.descr is "-").
func withArray(arrays []npyArr, a npyArr) []npyArr {
	out := slices.Clone(arrays)
	i := slices.IndexFunc(out, func(b npyArr) bool { return b.key == a.key })
	switch {
	case i < 0:
		return append(out, a)
	case a.descr == "-":
		return slices.Delete(out, i, i+1)
	}
	out[i] = a
	return out
}

func edgeSet(g *Graph) [][2]int32 {
	var out [][2]int32
	for e := range g.Src {
		out = append(out, [2]int32{min(g.Src[e], g.Dst[e]), max(g.Src[e], g.Dst[e])})
	}
	slices.SortFunc(out, cmpPair)
	return out
}

func cmpPair(a, b [2]int32) int {
	if a[0] != b[0] {
		return int(a[0] - b[0])
	}
	return int(a[1] - b[1])
}

func loadDir(t *testing.T, dir string) *Graph {
	t.Helper()
	fsys, err := openPath(dir)
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := Open(fsys, Columns{})
	if err != nil {
		t.Fatalf("%s: %v", dir, err)
	}
	return g
}

// The benchmark's .npz, written by numpy, is the same graph as the same
// graph given as an edge list and a labels file: its nodes, classes and
// their names, its attributes, its edges.
func TestNPZReadsAsTheEdgeList(t *testing.T) {
	want := loadDir(t, "testdata/karate")
	for _, dir := range []string{"testdata/npz", "testdata/npz-object"} {
		g := loadDir(t, dir)
		if g.Meta["format"] != "npz" {
			t.Errorf("%s: read as %v", dir, g.Meta["format"])
		}
		if g.N != want.N || g.C != want.C || !slices.Equal(g.Labels, want.Labels) {
			t.Errorf("%s: N %d C %d labels %v; want N %d C %d labels %v", dir, g.N, g.C, g.Labels, want.N, want.C, want.Labels)
		}
		if !slices.Equal(g.DenseX(), want.DenseX()) || g.F != want.F {
			t.Errorf("%s: features differ: %v\nwant %v", dir, g.DenseX(), want.DenseX())
		}
		if !slices.Equal(edgeSet(g), edgeSet(want)) {
			t.Errorf("%s: edges differ", dir)
		}
		if g.D != 11 || g.EdgeNames[0] != "adamic-adar" {
			t.Errorf("%s: edge features %v; want the tie-strength scores", dir, g.EdgeNames)
		}
	}
	if g := loadDir(t, "testdata/npz"); !slices.Equal(g.ClassNames, want.ClassNames) {
		t.Errorf("class names %q; want %q", g.ClassNames, want.ClassNames)
	}
	// An array of Python objects is a pickle: never unpickled, said so.
	g := loadDir(t, "testdata/npz-object")
	if g.ClassNames != nil || !hasNote(g, "karate.npz: class_names is an array of Python objects (dtype=object, a pickle), which is code, and the explorer never runs one: the classes are numbered") {
		t.Errorf("object class_names: names %q notes %v", g.ClassNames, g.Notes)
	}
}

// A .npz is one graph file, not an archive of graph files, on the page,
// alone or in a zip, and on the command line.
func TestNPZIsOneFileNotAnArchive(t *testing.T) {
	b, err := os.ReadFile("testdata/npz/karate.npz")
	if err != nil {
		t.Fatal(err)
	}
	for _, files := range [][]File{
		{{Name: "karate.npz", Data: b}},
		{{Name: "graph/karate.npz", Data: b}},
		{{Name: "g.zip", Data: zipOf(t, map[string]string{"karate.npz": string(b)})}},
	} {
		g, _, err := OpenFiles(files, Columns{})
		if err != nil || g.Meta["format"] != "npz" || g.N != 34 {
			t.Errorf("%s: %v, %v", files[0].Name, err, g)
		}
	}
	g, err := Load("testdata/npz/karate.npz", experiment.Default().Data, false)
	if err != nil || g.Meta["format"] != "npz" {
		t.Errorf("the command line: %v", err)
	}
}

// What the benchmark's files may hold besides the graph: labels -1 (no
// class), several classes' names, attributes that are counts (PyG's
// read_npz makes them 0 or 1: a note says so), a dense attr_matrix, a
// directed adjacency with self-loops.
func TestNPZReads(t *testing.T) {
	base := tinyNPZArrays()
	for _, tc := range []struct {
		name   string
		arrays []npyArr
		check  func(g *Graph) bool
		note   string
	}{
		{"as written", base, func(g *Graph) bool {
			return g.N == 4 && g.E() == 3 && g.F == 2 && slices.Equal(g.ClassNames, []string{"café", "thé"})
		}, ""},
		{"counts", withArray(base, npyArr{key: "attr_data", descr: "<f4", shape: []int{4}, data: f4(3, 1, 1, 0.5)}), func(g *Graph) bool { return g.DenseX()[0] == 3 },
			"g.npz: 2 attribute values are above 0 and not 1: read as they are, as the benchmark's load_npz reads them; PyG's read_npz sets every value above 0 to 1"},
		{"dense attr_matrix", withArray(withArray(withArray(withArray(withArray(base,
			npyArr{key: "attr_data", descr: "-"}), npyArr{key: "attr_indices", descr: "-"}), npyArr{key: "attr_indptr", descr: "-"}), npyArr{key: "attr_shape", descr: "-"}),
			npyArr{key: "attr_matrix", descr: "<f4", shape: []int{4, 3}, data: f4(1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1)}), func(g *Graph) bool { return g.F == 3 && g.DenseX()[4] == 1 }, ""},
		{"no attributes: degrees", withArray(withArray(withArray(withArray(base,
			npyArr{key: "attr_data", descr: "-"}), npyArr{key: "attr_indices", descr: "-"}), npyArr{key: "attr_indptr", descr: "-"}), npyArr{key: "attr_shape", descr: "-"}),
			func(g *Graph) bool { return g.F > 0 }, "the graph has no node features"},
		{"float16 attributes", withArray(base, npyArr{key: "attr_data", descr: "<f2", shape: []int{4}, data: f2(0x3c00, 0x3800, 0x4200, 0x0001)}), func(g *Graph) bool {
			x := g.DenseX()
			return slices.Contains(x, 0.5) && slices.Contains(x, 3) && slices.Contains(x, math.Ldexp(1, -24))
		}, ""},
		{"label -1", withArray(base, npyArr{key: "labels", descr: "<i8", shape: []int{4}, data: i8(0, 1, -1, 1)}), func(g *Graph) bool { return g.Labels[2] == NoClass && g.Splits[2] == Unlabelled },
			"g.npz, column labels: 1 nodes have no class"},
		{"directed, a self-loop", withArray(withArray(base,
			npyArr{key: "adj_indices", descr: "<i4", shape: []int{6}, data: i4(1, 1, 2, 2, 3, 2)}),
			npyArr{key: "adj_indptr", descr: "<i4", shape: []int{5}, data: i4(0, 1, 3, 5, 6)}), func(g *Graph) bool { return g.E() == 3 },
			"g.npz: dropped 2 self-loops, as the benchmark's standardize and PyG's read_npz drop them"},
		{"directed, one way", withArray(withArray(withArray(base,
			npyArr{key: "adj_indices", descr: "<i4", shape: []int{3}, data: i4(1, 2, 3)}),
			npyArr{key: "adj_indptr", descr: "<i4", shape: []int{5}, data: i4(0, 1, 2, 3, 3)}),
			npyArr{key: "adj_data", descr: "<f4", shape: []int{3}, data: f4(1, 1, 1)}), func(g *Graph) bool { return g.E() == 3 },
			"g.npz: 3 of its 3 edges are listed in one direction only (the adjacency is not symmetric): read as undirected"},
		{"unused names and an unknown array", withArray(withArray(base,
			npyArr{key: "node_names", descr: "<U7", shape: []int{4}, data: u7("a", "b", "c", "d")}),
			npyArr{key: "extra", descr: "<i8", shape: []int{1}, data: i8(1)}), func(g *Graph) bool { return g.N == 4 },
			"g.npz: the arrays extra are no part of the GNN benchmark's graph: left out"},
	} {
		g, _, err := Open(mapFS(map[string]string{"g.npz": npzOf(t, tc.arrays)}), Columns{})
		switch {
		case err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case !tc.check(g):
			t.Errorf("%s: read %s", tc.name, fingerprint(g))
		case tc.note != "" && !hasNote(g, tc.note):
			t.Errorf("%s: notes %v; want %q", tc.name, g.Notes, tc.note)
		}
	}
}

// numberedLabels is what a .npz file whose labels are text (class names,
// or Python objects: a pickle) is told to save: numbers, and the names
// beside them as text, in class_names, where the benchmark keeps them.
const numberedLabels = "a label is its class's number (0, 1, 2…; -1 for a node without one): number the classes and save their names beside them as text, in class_names, where the GNN benchmark's files keep them: class_names, labels = np.unique(labels, return_inverse=True), then np.savez(path, …, labels=labels, class_names=class_names.astype(str))"

// badNPZ are .npz files the reader refuses, and the message's start.
func badNPZ() []struct{ name, body, want string } {
	base := tinyNPZArrays()
	hdr := npyArr{key: "labels", descr: "<i8", shape: []int{4}, data: i8(0, 1, 0, 1)}.npyBytes()
	noBreak := bytes.Clone(hdr)
	noBreak[len(noBreak)-32-1] = ' '
	huge := bytes.Clone(hdr)
	binary.LittleEndian.PutUint16(huge[8:], 0xffff)
	v2 := append([]byte("\x93NUMPY\x02\x00\xff\xff\xff\xff"), hdr[10:]...)
	return []struct{ name, body, want string }{
		{"not a zip", "hello", "g.npz: is not a .npz file the explorer can read (numpy's zip of .npy arrays): zip: not a valid zip file"},
		{"no labels", npzOf(nil, withArray(base, npyArr{key: "labels", descr: "-"})), "g.npz: holds no labels array: a .npz graph has adj_data, adj_indices, adj_indptr and adj_shape"},
		{"multi-label", npzOf(nil, append(withArray(base, npyArr{key: "labels", descr: "-"}), npyArr{key: "labels_data", descr: "<f4", shape: []int{1}, data: f4(1)})), "g.npz: holds labels_data: a matrix of labels, several per node (multi-label)"},
		{"one-hot labels", npzOf(nil, withArray(base, npyArr{key: "labels", descr: "<i8", shape: []int{4, 2}, data: i8(1, 0, 0, 1, 1, 0, 0, 1)})), "g.npz: labels: has the shape (4, 2): a matrix of labels"},
		{"labels of Python objects", npzOf(nil, withArray(base, npyArr{key: "labels", descr: "|O", shape: []int{4}, data: []byte("\x80\x04N.")})), "g.npz: labels: is an array of Python objects (dtype=object): a pickle, which is code, and the explorer never runs one: " + numberedLabels},
		{"labels of text", npzOf(nil, withArray(base, npyArr{key: "labels", descr: "<U7", shape: []int{4}, data: u7("Mr. Hi", "Officer", "Mr. Hi", "Officer")})), `g.npz: labels: is an array of text ("<U7"): ` + numberedLabels},
		{"attributes of Python objects", npzOf(nil, withArray(base, npyArr{key: "attr_data", descr: "|O", shape: []int{4}, data: []byte("\x80\x04N.")})), "g.npz: attr_data: is an array of Python objects (dtype=object): a pickle, which is code, and the explorer never runs one: save it as numbers with np.savez"},
		{"a label -2", npzOf(nil, withArray(base, npyArr{key: "labels", descr: "<i8", shape: []int{4}, data: i8(0, 1, -2, 1)})), "g.npz: labels: value 2 (at [2]) is -2; want a whole number in [-1, 999]"},
		{"not square", npzOf(nil, withArray(base, npyArr{key: "adj_shape", descr: "<i8", shape: []int{2}, data: i8(4, 5)})), "g.npz: adj_shape: is 4 × 5: an adjacency matrix is square"},
		{"a column out of range", npzOf(nil, withArray(base, npyArr{key: "adj_indices", descr: "<i4", shape: []int{6}, data: i4(1, 0, 2, 1, 9, 2)})), "g.npz: adj_indices: value 4 (at [4]) is 9; want a whole number in [0, 3]"},
		{"indptr backwards", npzOf(nil, withArray(base, npyArr{key: "adj_indptr", descr: "<i4", shape: []int{5}, data: i4(0, 3, 1, 5, 6)})), "g.npz: adj_indptr: value 2 (1) is below the one before it (3): row 1 would end before it starts"},
		{"indptr short", npzOf(nil, withArray(base, npyArr{key: "adj_indptr", descr: "<i4", shape: []int{4}, data: i4(0, 1, 3, 6)})), "g.npz: adj_indptr: has 4 values; want 5 (rows + 1, as adj_shape gives)"},
		{"NaN attribute", npzOf(nil, withArray(base, npyArr{key: "attr_data", descr: "<f4", shape: []int{4}, data: f4(1, math.NaN(), 1, 1)})), "g.npz: attr_data: value 1 (at [1]) is NaN: want finite numbers"},
		{"a billion attributes: one range said", npzOf(nil, withArray(base, npyArr{key: "attr_shape", descr: "<i8", shape: []int{2}, data: i8(4, 1e9)})), "g.npz: attr_shape: gives 1,000,000,000 attributes: more than 1,048,576"},
		{"attributes for 3 nodes", npzOf(nil, withArray(base, npyArr{key: "attr_shape", descr: "<i8", shape: []int{2}, data: i8(3, 2)})), "g.npz: attr_shape: gives 3 rows, and the adjacency 4 nodes: want a row per node"},
		{"a complex array", npzOf(nil, withArray(base, npyArr{key: "adj_data", descr: "<c8", shape: []int{6}, data: make([]byte, 48)})), `g.npz: adj_data: is an array of "<c8", which the explorer does not read`},
		{"data cut short", npzOf(nil, withArray(base, npyArr{key: "labels", descr: "<i8", shape: []int{4}, data: i8(0, 1, 0)})), "g.npz: labels: its header gives the shape (4,) of <i8, 32 bytes of data, and the file holds 24 bytes: cut short or damaged"},
		{"a shape of billions", npzOf(nil, withArray(base, npyArr{key: "adj_indices", descr: "<i4", shape: []int{1 << 30}, data: i4(1)})), "g.npz: adj_indices: its header gives the shape (1,073,741,824,) of <i4"},
		{"header without its line break", npzOf(nil, withArray(base, npyArr{key: "labels", raw: noBreak})), "g.npz: labels: is not a .npy array numpy writes (its header is not the dictionary numpy writes"},
		{"header of 64 KiB", npzOf(nil, withArray(base, npyArr{key: "labels", raw: huge})), "g.npz: labels: is not a .npy array numpy writes (it is cut short in its header)"},
		{"header of 4 GiB (version 2)", npzOf(nil, withArray(base, npyArr{key: "labels", raw: v2})), "g.npz: labels: is not a .npy array numpy writes (a header longer than 64 KiB)"},
		{"no numpy mark", npzOf(nil, withArray(base, npyArr{key: "labels", raw: []byte("0,1,0,1\n1,0,1,0\n")})), "g.npz: labels: is not a .npy array numpy writes (it does not open with numpy's mark"},
		{"two files joined", npzOf(nil, base) + npzOf(nil, base), "g.npz: holds bytes before or after its zip archive (two files joined into one"},
		{"two files joined, a line break after each", npzOf(nil, base) + "\n" + npzOf(nil, base) + "\n", "g.npz: holds bytes before or after its zip archive"},
		{"class names of numbers", npzOf(nil, withArray(base, npyArr{key: "class_names", descr: "<i8", shape: []int{2}, data: i8(5, 6)})), `g.npz: class_names: is an array of "<i8" and the shape (2,); want the classes' names as text`},
	}
}

func TestNPZRefuses(t *testing.T) {
	for _, tc := range badNPZ() {
		_, _, err := Open(mapFS(map[string]string{"g.npz": tc.body}), Columns{})
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || !namesAFile(err) {
			t.Errorf("%s: %v\nwant %q", tc.name, err, tc.want)
		}
	}
}

// A zip bomb inside a .npz (an array that inflates past what the page
// unpacks) is refused by its declared size, before it is inflated; one
// that lies about its size fails as it inflates.
func TestNPZBomb(t *testing.T) {
	base := tinyNPZArrays()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, a := range base {
		w, _ := zw.CreateHeader(&zip.FileHeader{Name: a.key + ".npy", Method: zip.Deflate})
		if a.key == "adj_indices" {
			n := (pageGunzipLimit + 1024) / 4
			w.Write(npyArr{key: a.key, descr: "<i4", shape: []int{n}}.npyBytes())
			zeros := make([]byte, 1<<20)
			for left := n * 4; left > 0; left -= len(zeros) {
				w.Write(zeros[:min(left, len(zeros))])
			}
			continue
		}
		w.Write(a.npyBytes())
	}
	zw.Close()
	if b.Len() > 1<<20 {
		t.Fatalf("the bomb is %d bytes", b.Len())
	}
	_, _, err := OpenFiles([]File{{Name: "g.npz", Data: b.Bytes()}}, Columns{})
	if err == nil || !strings.HasPrefix(err.Error(), "g.npz: adj_indices: unpacks to ") {
		t.Errorf("a zip bomb on the page: %v", err)
	}
	p := filepath.Join(t.TempDir(), "g.npz")
	mustWrite(t, p, b.Bytes())
	if _, err := Load(p, experiment.Default().Data, false); err == nil || !strings.Contains(err.Error(), "adj_indices") {
		t.Errorf("a zip bomb on the command line: %v", err)
	}
}

// A .npy header is read as numpy writes it, and anything else is no
// header: its three keys' plain values taken, nothing evaluated.
func TestParseNPYHeader(t *testing.T) {
	for _, tc := range []struct {
		hdr     string
		descr   string
		fortran bool
		shape   []int
		ok      bool
	}{
		{"{'descr': '<f8', 'fortran_order': False, 'shape': (34, 2), }          \n", "'<f8'", false, []int{34, 2}, true},
		{"{'descr': '|b1', 'fortran_order': True, 'shape': (5,), }\n", "'|b1'", true, []int{5}, true},
		{"{'descr': '<U7', 'fortran_order': False, 'shape': (), }\n", "'<U7'", false, nil, true},
		{"'descr': '<f8', 'fortran_order': False, 'shape': (34,), }\n", "", false, nil, false}, // no {
		{"{'descr': '<f8', 'fortran_order': False, 'shape': (34,), \n", "", false, nil, false}, // no }
		{"{'descr': '<f8', 'fortran_order': False, 'shape': (34,), }", "", false, nil, false},  // no line end
		{"{'descr': '<f8', 'fortran_order': Maybe, 'shape': (34,), }\n", "", false, nil, false},
		{"{'descr': '<f8', 'fortran_order': False, 'shape': (-1,), }\n", "", false, nil, false},
		{"{'descr': '<f8', 'fortran_order': False, 'shape': 34, }\n", "", false, nil, false},
		{"{'descr': <f8, 'fortran_order': False, 'shape': (34,), }\n", "", false, nil, false},
		{"{'fortran_order': False, 'shape': (34,), }\n", "", false, nil, false},
	} {
		descr, fortran, shape, ok := parseNPYHeader(tc.hdr)
		if ok != tc.ok || descr != tc.descr || fortran != tc.fortran || !slices.Equal(shape, tc.shape) {
			t.Errorf("%q: %q %v %v %v, want %q %v %v %v", tc.hdr, descr, fortran, shape, ok, tc.descr, tc.fortran, tc.shape, tc.ok)
		}
	}
}

// numpy's float16 values, as np.float16(x).view(np.uint16) gives their bits.
func TestHalfFloat(t *testing.T) {
	for bits, want := range map[uint16]float64{0x3c00: 1, 0xc000: -2, 0x3555: 0.333251953125, 0x7bff: 65504, 0x0400: math.Ldexp(1, -14), 0x03ff: math.Ldexp(1023, -24), 0x8000: 0, 0x7c00: math.Inf(1)} {
		if got := halfFloat(bits); got != want {
			t.Errorf("%#04x: %v, want %v", bits, got, want)
		}
	}
	if !math.IsNaN(halfFloat(0x7e00)) {
		t.Errorf("0x7e00 is NaN")
	}
}

// A .npz packed again (karate.npz.gz) is no graph numpy reads: the user
// is told to unpack it, on the page and on the command line, not handed
// the list of every format, the .npz among them.
func TestNPZPackedAgainSaysUnpack(t *testing.T) {
	b, err := os.ReadFile("testdata/npz/karate.npz")
	if err != nil {
		t.Fatal(err)
	}
	want := "karate.npz.gz is a .npz file packed again (gzip, bzip2): a .npz is a zip archive already"
	_, _, err = OpenFiles([]File{{Name: "karate.npz.gz", Data: []byte(gz(string(b)))}}, Columns{})
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("the page: %v", err)
	}
	p := filepath.Join(t.TempDir(), "karate.npz.gz")
	if err := os.WriteFile(p, []byte(gz(string(b))), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(p, experiment.Default().Data, false); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("the command line: %v", err)
	}
}

// adj_shape declares the nodes, and savez_compressed packs the offsets of
// 16,777,216 rows without edges into 82 kB (1.4 GB held before the
// engine's cost refused it): the count is met against the cells a reading
// holds before a node is allocated.
func TestNPZDeclaredNodesWithinLimits(t *testing.T) {
	lim := pageLimits
	lim.cells = 3
	files := mapFS(map[string]string{"g.npz": npzOf(t, tinyNPZArrays())})
	_, _, err := Open(limitedTo(files, lim), Columns{})
	if want := "g.npz: adj_shape: holds 4 nodes (each a row of classes and features), more than 3 cells, more than the browser reads"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("%v, want %q", err, want)
	}
	if g, _, err := Open(files, Columns{}); err != nil || g.N != 4 {
		t.Errorf("the command line: %v", err)
	}
}
