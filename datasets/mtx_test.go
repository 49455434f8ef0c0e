package datasets

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"pdnexplorer/experiment"
	"pdnexplorer/internal/numtext"
)

// testdata/mtx/karate.mtx (coordinate pattern symmetric, with
// karate.node_labels: a node and its club a line) and
// testdata/mtx-weighted/karate.mtx (coordinate real general, with
// labels.csv) were written by scipy.io.mmwrite (scipy 1.10), the second
// holding each edge both ways with the weight (u + v) % 5 + 1 that
// testdata/karate's edge list gives it:
//
//	scipy.io.mmwrite('karate.mtx', sp.coo_matrix(A), field='pattern', symmetry='symmetric')
//	scipy.io.mmwrite('karate.mtx', sp.coo_matrix(W), field='real', symmetry='general')
//
// testdata/mtx-latin1 is testdata/mtx with two comment lines more, in
// Latin-1 (« », é, ©, ï, ±: bytes that are not UTF-8), as an editor on
// Windows saves a note: mmread skips % lines whatever their bytes.

// A Matrix Market file and its labels file are the same graph as the
// same graph given as an edge list and a labels file: nodes, classes,
// edges, and the weights, where the matrix has values.
func TestMatrixMarketReadsAsTheEdgeList(t *testing.T) {
	want := loadDir(t, "testdata/karate")
	weights := map[[2]int32]float64{}
	for e := range want.Src {
		weights[[2]int32{min(want.Src[e], want.Dst[e]), max(want.Src[e], want.Dst[e])}] = want.EdgeX[e]
	}
	for _, dir := range []string{"testdata/mtx", "testdata/mtx-weighted", "testdata/mtx-latin1"} {
		g := loadDir(t, dir)
		if g.Meta["format"] != "Matrix Market" {
			t.Errorf("%s: read as %v", dir, g.Meta["format"])
		}
		if g.N != want.N || g.C != want.C || !slices.Equal(g.Labels, want.Labels) || !slices.Equal(g.ClassNames, want.ClassNames) {
			t.Errorf("%s: N %d C %d labels %v %q; want N %d C %d labels %v %q", dir, g.N, g.C, g.Labels, g.ClassNames, want.N, want.C, want.Labels, want.ClassNames)
		}
		if !slices.Equal(edgeSet(g), edgeSet(want)) {
			t.Errorf("%s: edges differ", dir)
		}
		if dir != "testdata/mtx-weighted" {
			if g.D != 11 || len(g.Notes) != 1 {
				t.Errorf("%s: a pattern matrix: D %d (%v), notes %v; want the tie-strength scores, and the degrees' note alone", dir, g.D, g.EdgeNames, g.Notes)
			}
			continue
		}
		if g.D != 1 || g.EdgeNames[0] != "weight" {
			t.Fatalf("%s: edge features %v; want weight", dir, g.EdgeNames)
		}
		for e := range g.Src {
			if w := weights[[2]int32{g.Src[e], g.Dst[e]}]; g.EdgeX[e] != w {
				t.Errorf("%s: edge %d–%d weighs %v; want %v", dir, g.Src[e], g.Dst[e], g.EdgeX[e], w)
			}
		}
		if hasNote(g, "one direction only") {
			t.Errorf("%s: a general matrix holding both directions: notes %v", dir, g.Notes)
		}
	}
}

const tinyMTX = "%%MatrixMarket matrix coordinate real general\n% a comment\n5 5 5\n1 2 1.5\n2 3 2\n3 1 1\n4 4 9\n3 2 7\n"

// What scipy's mmread reads: comments, both directions, the diagonal,
// an array, a skew-symmetric matrix; classes from a labels file of one
// column or of nodes and classes, a node left out.
func TestMatrixMarketReads(t *testing.T) {
	labels := "1,a\n2,b\n3,a\n4,b\n5,a\n"
	for _, tc := range []struct {
		name  string
		files map[string]string
		check func(g *Graph) bool
		note  string
	}{
		{"general, a pair both ways", map[string]string{"g.mtx": tinyMTX, "g.node_labels": labels}, func(g *Graph) bool { return g.N == 5 && g.E() == 3 && g.EdgeX[2] == 2 }, /* 2–3, the third pair in order */
			"g.mtx: the matrix is general (not symmetric), and 2 of its 3 pairs are listed in one direction only: read as undirected"},
		{"the diagonal", map[string]string{"g.mtx": tinyMTX, "g.node_labels": labels}, func(g *Graph) bool { return true },
			"g.mtx: dropped 1 self-loops and 0 pairs listed again (the edges are undirected, each pair once)"},
		{"two weights for a pair", map[string]string{"g.mtx": tinyMTX, "g.node_labels": labels}, func(g *Graph) bool { return true },
			"g.mtx: 1 pairs are listed both ways with two weights: the direction listed first was kept"},
		{"labels of one column", map[string]string{"g.mtx": tinyMTX, "labels.txt": "a\nb\na\nb\na\n"}, func(g *Graph) bool { return g.C == 2 && g.Labels[1] == 1 }, ""},
		{"a node left out", map[string]string{"g.mtx": tinyMTX, "g_labels.txt": "1 a\n2 b\n3 a\n5 b\n"}, func(g *Graph) bool { return g.Labels[3] == NoClass && g.Splits[3] == Unlabelled },
			"g_labels.txt lists 4 of the 5 nodes of g.mtx: the others have no class"},
		{"a header, an extra numeric column", map[string]string{"g.mtx": tinyMTX, "labels.csv": "node,label,age\n1,a,3\n2,b,4\n3,a,5\n4,b,6\n5,a,7\n"}, func(g *Graph) bool { return g.F == 1 && g.DenseX()[4] == 7 }, ""},
		{"integer, symmetric", map[string]string{"g.mtx.gz": gz("%%MatrixMarket matrix coordinate integer symmetric\n5 5 2\n2 1 4\n5 3 -1\n"), "g.node_labels": labels}, func(g *Graph) bool { return g.E() == 2 && g.EdgeX[1] == -1 }, ""},
		{"array, symmetric", map[string]string{"g.mtx": "%%MatrixMarket matrix array real symmetric\n3 3\n0\n1\n0\n0\n2.5\n0\n", "g.node_labels": "1,a\n2,b\n3,a\n"}, func(g *Graph) bool {
			return g.E() == 2 && g.EdgeX[0] == 1 && g.EdgeX[1] == 2.5 && g.Src[1] == 1 && g.Dst[1] == 2
		}, ""},
		{"skew-symmetric", map[string]string{"g.mtx": "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n2 1 4\n3 2 -1\n", "g.node_labels": "1,a\n2,b\n3,a\n"}, func(g *Graph) bool { return g.E() == 2 },
			"g.mtx: the matrix is skew-symmetric: each edge's weight is the value its triangle stores"},
		{"a node without edges", map[string]string{"g.mtx": "%%MatrixMarket matrix coordinate pattern symmetric\n4 4 2\n2 1\n3 2\n", "g.node_labels": "1,a\n2,b\n3,a\n4,b\n"}, func(g *Graph) bool { return g.N == 4 && g.E() == 2 }, ""},
	} {
		g, _, err := Open(mapFS(tc.files), Columns{})
		switch {
		case err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case g.Meta["format"] != "Matrix Market" || !tc.check(g):
			t.Errorf("%s: read as %v: %s %v", tc.name, g.Meta["format"], fingerprint(g), g.EdgeX)
		case tc.note != "" && !hasNote(g, tc.note):
			t.Errorf("%s: notes %v; want %q", tc.name, g.Notes, tc.note)
		}
	}
}

// badMTX are Matrix Market graphs the reader refuses, and the message's
// start.
var badMTX = []struct{ name, mtx, labels, want string }{
	{"no banner", "5 5 1\n1 2\n", "", "g.mtx:1:1: not a Matrix Market file: its first line is not the banner"},
	{"complex", "%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 2 1 0\n", "", "g.mtx:1:1: a complex (or hermitian) matrix"},
	{"hermitian", "%%MatrixMarket matrix coordinate real hermitian\n2 2 1\n1 2 1\n", "", "g.mtx:1:1: a complex (or hermitian) matrix"},
	{"not square", "%%MatrixMarket matrix coordinate pattern general\n3 2 1\n1 2\n", "", "g.mtx:2:1: a matrix of 3 rows and 2 columns: a graph's adjacency is square"},
	{"array of pattern", "%%MatrixMarket matrix array pattern general\n2 2\n", "", "g.mtx:1:1: an array of pattern"},
	{"a vector", "%%MatrixMarket vector coordinate real general\n2 2 1\n", "", `g.mtx:1:1: the banner names a "vector", not a matrix`},
	{"no size line", "%%MatrixMarket matrix coordinate real general\n% only comments\n", "", "g.mtx:3: no size line"},
	{"a node 0", "%%MatrixMarket matrix coordinate pattern general\n5 5 1\n0 2\n", "", `g.mtx:3:1: "0" is not a node: want a whole number in [1, 5] (Matrix Market counts from 1)`},
	{"a node beyond N", "%%MatrixMarket matrix coordinate pattern general\n5 5 1\n1 6\n", "", `g.mtx:3:3: "6" is not a node`},
	{"NaN", "%%MatrixMarket matrix coordinate real general\n5 5 1\n1 2 NaN\n", "", `g.mtx:3:5: "NaN" is not a decimal number`},
	{"a hexadecimal float", "%%MatrixMarket matrix coordinate real general\n5 5 1\n1 2 0x1p-2\n", "", `g.mtx:3:5: "0x1p-2" is not a decimal number`},
	{"a decimal in an integer matrix", "%%MatrixMarket matrix coordinate integer general\n5 5 1\n1 2 1.5\n", "", `g.mtx:3:5: "1.5" is not a whole number (the banner says integer)`},
	{"a value missing", "%%MatrixMarket matrix coordinate real general\n5 5 1\n1 2\n", "", "g.mtx:3:1: 2 fields; a real entry is a row, a column and a value"},
	{"cut short", "%%MatrixMarket matrix coordinate pattern general\n5 5 3\n1 2\n", "", "g.mtx:4: the file ends after 1 entries, and its size line (line 2) gives 3: cut short?"},
	{"an entry too many", "%%MatrixMarket matrix coordinate pattern general\n5 5 1\n1 2\n2 3\n", "", "g.mtx:4:1: an entry beyond the 1 its size line (line 2) gives"},
	{"two files joined", tinyMTX + tinyMTX, "", "g.mtx:9:1: a second banner (%%MatrixMarket …): were two files joined into one?"},
	{"Latin-1 in an entry", strings.Replace(tinyMTX, "2 3 2\n", "2 3 2 \xe9t\xe9\n", 1), "", `g.mtx:5:7: byte 0xE9 is not UTF-8: the file looks like Latin-1 or Windows-1252 text (where this byte is "é")`},
	{"Latin-1 in the banner", "%%MatrixMarket matrix coordinate r\xe9al general\n5 5 1\n1 2 1\n", "", `g.mtx:1:35: byte 0xE9 is not UTF-8`},
	{"Latin-1 in the size line", strings.Replace(tinyMTX, "5 5 5\n", "5 5 5 \xb1\n", 1), "", `g.mtx:3:7: byte 0xB1 is not UTF-8`},
	{"Latin-1 in a comment, two files joined", tinyMTX + "% caf\xe9\n" + tinyMTX, "", "g.mtx:10:1: a second banner (%%MatrixMarket …): were two files joined into one?"},
	{"no labels file", tinyMTX, "-", "g.mtx: a Matrix Market file holds the edges, not the classes: put a labels file beside it"},
	{"a label for node 6", tinyMTX, "1,a\n2,b\n6,a\n", `g.node_labels:3: column 1: "6" is not a node of g.mtx: its nodes are numbered 1..5`},
	{"one column, too few lines", tinyMTX, "a\nb\na\n", "g.node_labels: one column of 3 classes, and g.mtx gives 5 nodes"},
}

func TestMatrixMarketRefuses(t *testing.T) {
	for _, tc := range badMTX {
		files := map[string]string{"g.mtx": tc.mtx, "g.node_labels": "1,a\n2,b\n3,a\n4,b\n5,a\n"}
		switch tc.labels {
		case "-":
			delete(files, "g.node_labels")
		case "":
		default:
			files["g.node_labels"] = tc.labels
		}
		_, _, err := Open(mapFS(files), Columns{})
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || !namesAFile(err) {
			t.Errorf("%s: %v\nwant %q", tc.name, err, tc.want)
		}
	}
}

// In a labels file of one column, line i is node i's class: a blank line
// would move every class after it, so it is refused.
func TestMatrixMarketOneColumnBlankLine(t *testing.T) {
	_, _, err := Open(mapFS(map[string]string{"g.mtx": tinyMTX, "labels.txt": "a\nb\n\na\nb\na\n"}), Columns{})
	if err == nil || !strings.HasPrefix(err.Error(), "labels.txt:4: a blank line or a comment before this line") {
		t.Errorf("%v", err)
	}
}

// A refusal for size names the bound that refused and sends the user
// where more is read: the browser to the command line, and the command
// line, which reads the most, to a part of the graph, never to itself.
func TestTooManySaysTheBoundAndWhereToGo(t *testing.T) {
	files := mapFS(map[string]string{"g.mtx": "%%MatrixMarket matrix coordinate pattern general\n5 5 1000000000000\n1 2\n", "g_labels.txt": "1 a\n2 b\n3 a\n4 b\n5 a\n"})
	for _, tc := range []struct {
		lim       limits
		want, not string
	}{
		{nativeLimits, "g.mtx:2: holds 1,000,000,000,000 entries, more than 67,108,864 edges, more than the explorer reads: keep a part of the graph", "pdn train"},
		{pageLimits, "g.mtx:2: holds 1,000,000,000,000 entries, more than " + numtext.Group(MaxPageEdges) + " edges, more than the browser reads: the command line, pdn train -data, reads it", "keep a part"},
	} {
		_, _, err := Open(limitedTo(files, tc.lim), Columns{})
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), tc.not) {
			t.Errorf("%v, want %q", err, tc.want)
		}
	}
}

// A Matrix Market file named alone by its path is a graph's one file of
// two: the user is sent to the folder that holds it and its labels, not
// told to put beside it the labels file that is there.
func TestMatrixMarketPathIsItsFolder(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"g.mtx": tinyMTX, "g_labels.txt": "1 a\n2 b\n3 a\n4 b\n5 a\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, err := Load(filepath.Join(dir, "g.mtx"), experiment.Default().Data, false)
	if err == nil || !strings.Contains(err.Error(), "g.mtx: a graph of this format is several files (a Matrix Market file and a labels file), read together: give the folder that holds them, "+quote(dir)) {
		t.Errorf("%v", err)
	}
	if g, err := Load(dir, experiment.Default().Data, false); err != nil || g.N != 5 {
		t.Errorf("the folder: %v", err)
	}
}

// A size line declares its nodes, which a file of 80 bytes can do by
// the million (16,777,216 nodes allocated 2.4 GB in the page): the count
// is met against the cells a reading holds before a node is allocated.
func TestMatrixMarketDeclaredNodesWithinLimits(t *testing.T) {
	lim := pageLimits
	lim.cells = 1000
	files := mapFS(map[string]string{"g.mtx": "%%MatrixMarket matrix coordinate pattern symmetric\n5000 5000 2\n2 1\n3 2\n", "g_labels.txt": "1 a\n2 b\n3 a\n4 b\n"})
	_, _, err := Open(limitedTo(files, lim), Columns{})
	if want := "g.mtx:2: holds 5,000 nodes (each a row of classes and features), more than 1,000 cells, more than the browser reads"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("%v, want %q", err, want)
	}
	if g, _, err := Open(files, Columns{}); err != nil || g.N != 5000 {
		t.Errorf("the command line: %v", err)
	}
}

// Two labels files beside a matrix: which holds its classes cannot be
// told, and the message says so, naming them, where it said to put a
// labels file beside it.
func TestMatrixMarketTwoLabelsFiles(t *testing.T) {
	labels := "1 a\n2 b\n3 a\n4 b\n5 a\n"
	for _, files := range []map[string]string{
		{"g.mtx": tinyMTX, "g.node_labels": labels, "g_labels.txt": labels},
		{"g.mtx": tinyMTX, "classes.csv": labels, "nodes.tsv": labels},
	} {
		_, _, err := Open(mapFS(files), Columns{})
		if err == nil || !strings.Contains(err.Error(), "are beside it, and which of them holds its classes cannot be told") {
			t.Errorf("%v", err)
		}
	}
}

// A headerless labels file names its nodes in its first column, though
// its class column numbers 0..n−1 (a file labelling one node of each
// class): the classes are not taken for the nodes, for a Matrix Market
// file (numbered from 1) nor an edge list.
func TestLabelsFirstColumnIsTheNodes(t *testing.T) {
	g, _, err := Open(mapFS(map[string]string{"g.mtx": tinyMTX, "g_labels.txt": "2 0\n5 1\n"}), Columns{})
	if err != nil || g.Labels[1] != 0 || g.Labels[4] != 1 || g.Labels[0] != NoClass {
		t.Errorf("Matrix Market: %v", err)
	}
	g, _, err = Open(mapFS(map[string]string{"g.edges": "5 17\n17 30\n30 5\n", "g_labels.txt": "5 0\n17 1\n30 2\n"}), Columns{})
	if err != nil || g.N != 3 || g.C != 3 {
		t.Errorf("an edge list: %v", err)
	}
}
