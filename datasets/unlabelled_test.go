package datasets

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"pdnexplorer/edgekind"
	"pdnexplorer/experiment"
)

// The rule for nodes without a class holds by construction: every format
// Open reads, given a graph whose every 10th node has no class written in
// that format's own way, reads the same graph (the same labels, the same
// count without a class, no class named '', -1 or nan), and so does each
// format zipped. The list of formats is read from the package's source
// (every format{…} row formatOf returns), so a new reader without its
// fixture fails here, and one that makes its classes without the class
// builder (setClasses) fails the assertions: see also internal/rules.

// unlabelledN is the fixtures' node count; every 10th node (9, 19, …)
// has no class, the others class i%3.
const unlabelledN = 60

func noClassAt(i int) bool { return i%10 == 9 }

// fixtureEdges is a ring with chords, as "u,v" lines.
func fixtureEdges(sep string) string {
	var b strings.Builder
	for i := range unlabelledN {
		fmt.Fprintf(&b, "%d%s%d\n", i, sep, (i+1)%unlabelledN)
		if i%4 == 0 {
			fmt.Fprintf(&b, "%d%s%d\n", i, sep, (i+7)%unlabelledN)
		}
	}
	return b.String()
}

// unlabelledFixtures are, by format name, the fixture graph written in
// that format, its nodes without a class marked in the format's own way.
var unlabelledFixtures = map[string][]struct {
	name  string
	files func(t testing.TB) map[string]string
}{
	"bundle": {{"label -1, split unlabelled", func(t testing.TB) map[string]string {
		var nodes strings.Builder
		nodes.WriteString("id,label,split,x0\n")
		for i := range unlabelledN {
			label, split := strconv.Itoa(i%3), []string{"train", "test"}[i%2]
			if noClassAt(i) {
				label, split = "-1", "unlabelled"
			}
			fmt.Fprintf(&nodes, "%d,%s,%s,%d\n", i, label, split, i%5)
		}
		return map[string]string{"meta.json": `{"name": "g"}`, "nodes.csv": nodes.String(), "edges.csv": "source,target\n" + fixtureEdges(",")}
	}}},
	"OGB": {
		{"folder: node-label nan", func(t testing.TB) map[string]string {
			files := ogbFixture(t, "raw/")
			var train, valid, test strings.Builder
			for i := range unlabelledN {
				switch {
				case noClassAt(i):
				case i%3 == 0:
					fmt.Fprintf(&train, "%d\n", i)
				case i%5 == 0:
					fmt.Fprintf(&valid, "%d\n", i)
				default:
					fmt.Fprintf(&test, "%d\n", i)
				}
			}
			files["split/random/train.csv.gz"] = gz(train.String())
			files["split/random/valid.csv.gz"] = gz(valid.String())
			files["split/random/test.csv.gz"] = gz(test.String())
			return files
		}},
		{"raw files alone: node-label nan", func(t testing.TB) map[string]string { return ogbFixture(t, "") }},
	},
	"MUSAE": {
		{"MUSAE: empty target", func(t testing.TB) map[string]string {
			var target, feats strings.Builder
			target.WriteString("id,page_name,page_type\n")
			feats.WriteString("{")
			for i := range unlabelledN {
				class := "c" + strconv.Itoa(i%3)
				if noClassAt(i) {
					class = ""
				}
				fmt.Fprintf(&target, "%d,page %d,%s\n", i, i, class)
				if i > 0 {
					feats.WriteString(", ")
				}
				fmt.Fprintf(&feats, `"%d": [%d]`, i, i%4)
			}
			feats.WriteString("}")
			return map[string]string{"musae_x_target.csv": target.String(), "musae_x_edges.csv": "id_1,id_2\n" + fixtureEdges(","), "musae_x_features.json": feats.String()}
		}},
		{"FEATHER: target NA", func(t testing.TB) map[string]string {
			var target, feats strings.Builder
			target.WriteString("id,target\n")
			feats.WriteString("node_id,feature_id,value\n")
			for i := range unlabelledN {
				class := strconv.Itoa(i % 3)
				if noClassAt(i) {
					class = "NA"
				}
				fmt.Fprintf(&target, "%d,%s\n", i, class)
				fmt.Fprintf(&feats, "%d,%d,1\n", i, i%4)
			}
			return map[string]string{"lastfm_asia_target.csv": target.String(), "lastfm_asia_edges.csv": "node_1,node_2\n" + fixtureEdges(","), "lastfm_asia_features.csv": feats.String()}
		}},
	},
	"GraphML": {{"no data for the class key, no default", func(t testing.TB) map[string]string {
		var b strings.Builder
		b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
<key id="d0" for="node" attr.name="club" attr.type="string"/>
<key id="d1" for="node" attr.name="age" attr.type="long"/>
<graph edgedefault="undirected">
`)
		for i := range unlabelledN {
			club := fmt.Sprintf(`<data key="d0">c%d</data>`, i%3)
			if noClassAt(i) {
				club = ""
			}
			fmt.Fprintf(&b, `<node id="n%d">%s<data key="d1">%d</data></node>`+"\n", i, club, i%5)
		}
		for _, line := range strings.Split(strings.TrimSpace(fixtureEdges(",")), "\n") {
			u, v, _ := strings.Cut(line, ",")
			fmt.Fprintf(&b, `<edge source="n%s" target="n%s"/>`+"\n", u, v)
		}
		b.WriteString("</graph>\n</graphml>\n")
		return map[string]string{"club.graphml": b.String()}
	}}},
	"GEXF":           {{"no attvalue for the class, no default", unlabelledGEXF}},
	"node-link JSON": {{"the class left out (NetworkX's None)", unlabelledNodeLink(false)}, {"the class null", unlabelledNodeLink(true)}},
	"edge list": {{"labels file: every NA value and -1 in turn", func(t testing.TB) map[string]string {
		var labels strings.Builder
		labels.WriteString("node,label\n")
		marks := append(slices.Clone(naValues), "-1", " -1 ", "-1.0", " NA ")
		for i := range unlabelledN {
			class := strconv.Itoa(i % 3)
			if noClassAt(i) {
				class = marks[(i/10)%len(marks)]
				if strings.ContainsAny(class, ",\"") {
					class = strconv.Quote(class)
				}
			}
			fmt.Fprintf(&labels, "%d,%s\n", i, class)
		}
		return map[string]string{"labels.csv": labels.String(), "edges.csv": fixtureEdges(",")}
	}}},
	"npz": {{"labels -1", func(t testing.TB) map[string]string {
		return map[string]string{"g.npz": npzOf(t, unlabelledNPZ())}
	}}},
	"Matrix Market": {
		{"node_labels: a node left out, NA, -1", func(t testing.TB) map[string]string {
			var labels strings.Builder
			for i := range unlabelledN {
				switch {
				case noClassAt(i) && i%20 == 9:
					continue // left out: no class
				case noClassAt(i) && i%30 == 19:
					fmt.Fprintf(&labels, "%d,NA\n", i+1)
				case noClassAt(i):
					fmt.Fprintf(&labels, "%d,-1\n", i+1)
				default:
					fmt.Fprintf(&labels, "%d,%d\n", i+1, i%3)
				}
			}
			return map[string]string{"g.mtx": mtxOf(fixtureEdges(" ")), "g.node_labels": labels.String()}
		}},
		{"one column, NA cells", func(t testing.TB) map[string]string {
			var labels strings.Builder
			labels.WriteString("label\n")
			for i := range unlabelledN {
				if noClassAt(i) {
					labels.WriteString("NA\n")
					continue
				}
				fmt.Fprintf(&labels, "c%d\n", i%3)
			}
			return map[string]string{"g.mtx": mtxOf(fixtureEdges(" ")), "labels.csv": labels.String()}
		}},
	},
}

// mtxOf is the fixture's edges (0-based "u v" lines) as a Matrix Market
// pattern matrix, numbered from 1.
func mtxOf(edges string) string {
	lines := strings.Split(strings.TrimSpace(edges), "\n")
	var b strings.Builder
	fmt.Fprintf(&b, "%%%%MatrixMarket matrix coordinate pattern general\n%d %d %d\n", unlabelledN, unlabelledN, len(lines))
	for _, l := range lines {
		var u, v int
		fmt.Sscan(l, &u, &v)
		fmt.Fprintf(&b, "%d %d\n", u+1, v+1)
	}
	return b.String()
}

// unlabelledNPZ is the fixture as the benchmark's .npz: its edges both
// ways in CSR, labels -1 where a node has no class.
func unlabelledNPZ() []npyArr {
	adj := make([][]int, unlabelledN)
	for _, l := range strings.Split(strings.TrimSpace(fixtureEdges(" ")), "\n") {
		var u, v int
		fmt.Sscan(l, &u, &v)
		adj[u], adj[v] = append(adj[u], v), append(adj[v], u)
	}
	var indices, indptr, labels []int
	indptr = append(indptr, 0)
	for i, ns := range adj {
		slices.Sort(ns)
		indices = append(indices, ns...)
		indptr = append(indptr, len(indices))
		labels = append(labels, i%3)
		if noClassAt(i) {
			labels[i] = -1
		}
	}
	ones := make([]float64, len(indices))
	for i := range ones {
		ones[i] = 1
	}
	return []npyArr{
		{key: "adj_data", descr: "<f4", shape: []int{len(indices)}, data: f4(ones...)},
		{key: "adj_indices", descr: "<i4", shape: []int{len(indices)}, data: i4(indices...)},
		{key: "adj_indptr", descr: "<i4", shape: []int{len(indptr)}, data: i4(indptr...)},
		{key: "adj_shape", descr: "<i8", shape: []int{2}, data: i8(unlabelledN, unlabelledN)},
		{key: "labels", descr: "<i8", shape: []int{unlabelledN}, data: i8(labels...)},
	}
}

// ogbFixture is the fixture's OGB raw/ files under dir, node-label nan
// where a node has no class.
func ogbFixture(t testing.TB, dir string) map[string]string {
	var labels, feat strings.Builder
	for i := range unlabelledN {
		if noClassAt(i) {
			labels.WriteString("nan\n")
		} else {
			fmt.Fprintf(&labels, "%d\n", i%3)
		}
		fmt.Fprintf(&feat, "%d\n", i%5)
	}
	return map[string]string{
		dir + "edge.csv.gz":       gz(fixtureEdges(",")),
		dir + "node-label.csv.gz": gz(labels.String()),
		dir + "node-feat.csv.gz":  gz(feat.String()),
	}
}

// formatNames are the names of the formats table's rows: a new row
// without a fixture here fails.
func formatNames(t *testing.T) []string {
	t.Helper()
	var names []string
	for _, f := range formats() {
		if !slices.Contains(names, f.name) {
			names = append(names, f.name)
		}
	}
	if len(names) < 5 {
		t.Fatalf("found only the formats %v", names)
	}
	return names
}

// checkUnlabelled asserts the fixture graph's classes: 3 classes, every
// 10th node without one, in the Unlabelled split, said in a note.
func checkUnlabelled(t *testing.T, g *Graph) {
	t.Helper()
	if g.N != unlabelledN || g.C != 3 || g.Unlabelled() != unlabelledN/10 {
		t.Fatalf("N %d, C %d, %d without a class; want %d, 3, %d", g.N, g.C, g.Unlabelled(), unlabelledN, unlabelledN/10)
	}
	for _, name := range g.ClassNames {
		if IsNoClass(name) || strings.EqualFold(strings.TrimSpace(name), "nan") {
			t.Errorf("a class named %q: %q", name, g.ClassNames)
		}
	}
	for i, l := range g.Labels {
		if noClassAt(i) != (l == NoClass) || noClassAt(i) != (g.Splits[i] == Unlabelled) {
			t.Errorf("node %d: label %d, split %v", i, l, g.Splits[i])
		}
	}
	if !hasNote(g, fmt.Sprintf("%d nodes have no class (empty, NA, -1…): they stay in the graph, not trained or tested on", unlabelledN/10)) {
		t.Errorf("notes %q", g.Notes)
	}
	for e := range g.Src {
		end := noClassAt(int(g.Src[e])) || noClassAt(int(g.Dst[e]))
		if end != (g.Kind[e] == edgekind.Unknown) {
			t.Errorf("edge %d–%d: kind %v", g.Src[e], g.Dst[e], g.Kind[e])
		}
	}
	if err := g.Check(); err != nil {
		t.Error(err)
	}
	// A drawn split leaves them out; so does the validation draw.
	ShotSplit(g, 5, 1)
	HoldOut(g, 4, 1)
	for i, sp := range g.Splits {
		if noClassAt(i) != (sp == Unlabelled) {
			t.Errorf("after ShotSplit and HoldOut node %d is in %v", i, sp)
		}
	}
	if counts := g.ClassCounts(); !slices.Equal(counts, []int{18, 18, 18}) {
		t.Errorf("class counts %v", counts)
	}
}

// unlabelledCells are the class "values that mean unlabelled" on one
// format: each of its fixtures with every 10th node without a class in
// the format's own way, read plain and zipped (TestEveryClassOnEveryFormat
// runs them for every row of formats).
func unlabelledCells(t *testing.T, format string) {
	fixtures := unlabelledFixtures[format]
	if len(fixtures) == 0 {
		t.Fatalf("format %q has no fixture with nodes without a class: add one to unlabelledFixtures", format)
	}
	for _, fx := range fixtures {
		t.Run(fx.name, func(t *testing.T) {
			files := fx.files(t)
			if f, ok := formatOf(mapFS(files)); !ok || f.name != format {
				t.Fatalf("the fixture reads as %q, not %q", f.name, format)
			}
			g, _, err := Open(mapFS(files), Columns{})
			if err != nil {
				t.Fatal(err)
			}
			checkUnlabelled(t, g)
			z, _, err := OpenFiles([]File{{Name: "g.zip", Data: zipOf(t, prefixed("g/", files))}}, Columns{})
			if err != nil {
				t.Fatalf("zipped: %v", err)
			}
			checkUnlabelled(t, z)
		})
	}
}

// Every format's fixture without classes for the same nodes gives the
// same labels: the rule is one, however the graph comes.
func TestUnlabelledAlikeInEveryFormat(t *testing.T) {
	var labels [][]int
	for _, format := range formatNames(t) {
		for _, fx := range unlabelledFixtures[format] {
			g, _, err := Open(mapFS(fx.files(t)), Columns{})
			if err != nil {
				t.Fatalf("%s %s: %v", format, fx.name, err)
			}
			labels = append(labels, slices.Clone(g.Labels))
		}
	}
	for i := 1; i < len(labels); i++ {
		if !slices.Equal(labels[i], labels[0]) {
			t.Errorf("fixture %d's labels %v differ from the first's %v", i, labels[i], labels[0])
		}
	}
}

func prefixed(dir string, files map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range files {
		out[dir+k] = v
	}
	return out
}

// One class left once the nodes without one are out, or none, is refused
// as one class is, naming how many have none, in every format.
func TestUnlabelledLeaveTooFewClasses(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"labels: one class", map[string]string{"labels.csv": "id,label\n0,a\n1,\n2,a\n3,-1\n", "edges.csv": "0,1\n1,2\n2,3\n"},
			"labels.csv: column label: holds one class for every node that has one (2 nodes have none): one class leaves nothing to learn"},
		{"labels: none", map[string]string{"labels.csv": "id,label\n0,NA\n1,\n2,-1\n3,nan\n", "edges.csv": "0,1\n1,2\n2,3\n"},
			"labels.csv: column label: no node has a class (all 4 are empty, NA, -1"},
		{"bundle: one class", map[string]string{"meta.json": `{"name": "g"}`, "nodes.csv": "id,label,split\n0,0,train\n1,-1,unlabelled\n2,0,test\n", "edges.csv": "source,target\n0,1\n1,2\n"},
			"nodes.csv: column label: holds one class for every node that has one (1 nodes have none)"},
		{"OGB: none", map[string]string{"raw/edge.csv": "0,1\n1,2\n", "raw/node-label.csv": "nan\nnan\nnan\n"},
			"raw/node-label.csv: no node has a class (all 3 are empty, NA, -1"},
		{"GraphML: one class", map[string]string{"g.graphml": `<graphml><key id="c" for="node" attr.name="club" attr.type="string"/><graph><node id="a"><data key="c">x</data></node><node id="b"/><node id="c"><data key="c">x</data></node><edge source="a" target="b"/></graph></graphml>`},
			"g.graphml: column club: holds one class for every node that has one (1 nodes have none)"},
	} {
		_, _, err := Open(mapFS(tc.files), Columns{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// A bundle with nodes without a class writes them as label -1 in the
// split unlabelled and reads them back the same; the binary form carries
// them bit for bit, and the graph's digest is the same however it came.
func TestUnlabelledRoundTrip(t *testing.T) {
	g, _, err := Open(mapFS(unlabelledFixtures["edge list"][0].files(t)), Columns{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := writeBundleTo(dir, g); err != nil {
		t.Fatal(err)
	}
	nodes, _ := os.ReadFile(filepath.Join(dir, "nodes.csv"))
	if !strings.Contains(string(nodes), "\n9,-1,unlabelled\n") {
		t.Errorf("nodes.csv: %.200s", nodes)
	}
	back, err := ReadBundle(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(back.Labels, g.Labels) || !slices.Equal(back.Splits, g.Splits) || back.C != g.C || back.Digest() != g.Digest() {
		t.Errorf("read back: labels %v splits %v", back.Labels, back.Splits)
	}
	b, err := g.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var bin Graph
	if err := bin.UnmarshalBinary(b); err != nil || !reflect.DeepEqual(bin.Labels, g.Labels) || !reflect.DeepEqual(bin.Splits, g.Splits) {
		t.Errorf("binary: %v", err)
	}
	dot, err := DOT(g, "g", nil)
	if err != nil || !strings.Contains(string(dot), "split=unlabelled") {
		t.Errorf("DOT: %v %.300s", err, dot)
	}
	// Edges added between classes never touch a node without one.
	p, err := perturbed(g, "add-inter", 0.5, 1)
	if err != nil {
		t.Fatal(err)
	}
	for e := g.E(); e < p.E(); e++ {
		if p.Labels[p.Src[e]] == NoClass || p.Labels[p.Dst[e]] == NoClass || p.Kind[e] != edgekind.Inter {
			t.Errorf("added edge %d–%d of kind %v", p.Src[e], p.Dst[e], p.Kind[e])
		}
	}
}

// The cells that mean no class, and the bins' missing values: -1 is a
// number there.
func TestNoClassCells(t *testing.T) {
	for _, cell := range append(slices.Clone(naValues), "-1", " -1", "-1.0", "-1e0", " nan ", "\tNULL") {
		if !IsNoClass(cell) {
			t.Errorf("IsNoClass(%q) is false", cell)
		}
	}
	for _, cell := range []string{"0", "1", "-2", "none", "NAN", "n.a.", "-", "?", "na", "Nan", "class -1"} {
		if IsNoClass(cell) {
			t.Errorf("IsNoClass(%q) is true", cell)
		}
	}
	if IsMissing("-1") || !IsMissing("NaN") {
		t.Error("IsMissing: -1 is a number, NaN is missing")
	}
	// A measurement cut into bins: its NA cells have no class, its -1 is a value.
	var labels strings.Builder
	labels.WriteString("id,traffic\n")
	for i := range 40 {
		v := strconv.Itoa(i - 1)
		if i%10 == 5 {
			v = "NA"
		}
		fmt.Fprintf(&labels, "%d,%s\n", i, v)
	}
	g, _, err := Open(mapFS(map[string]string{"labels.csv": labels.String(), "edges.csv": "0,1\n1,2\n"}), Columns{Bins: 4})
	if err != nil {
		t.Fatal(err)
	}
	if g.Unlabelled() != 4 || g.Labels[0] != 0 || g.C != 4 || !hasNote(g, "4 nodes have no class") || !hasNote(g, "cut by quantile into 4 classes of 9 to 9 nodes") {
		t.Errorf("bins: %d without a class, node 0 (-1) in %d, C %d, notes %q", g.Unlabelled(), g.Labels[0], g.C, g.Notes)
	}
}

// A file holding two graphs, ids given twice, splits that overlap,
// conflict or come twice: each read by its publisher's stated rule and
// said, or refused naming the file and line.
// structureCells are the class "a file holding two graphs, repeated ids,
// splits that overlap, conflict or come twice" on one format: each case
// of the format refused naming the file and line, or read by the
// publisher's rule and said (TestEveryClassOnEveryFormat runs them for
// every row of formats, and wants at least one case a row).
func structureCells(t *testing.T, format string) {
	two := strings.Replace(tinyGraphML, "</graph>", `</graph>
  <graph edgedefault="undirected"><node id="x"/><node id="y"/><edge source="x" target="y"/></graph>`, 1)
	if format == "GraphML" {
		g, _, err := Open(mapFS(map[string]string{"club.graphml": two}), Columns{})
		if err != nil || g.N != 4 || !hasNote(g, "club.graphml holds 2 graphs: the first was read, and the second (from line 19)") {
			t.Errorf("two graphs: %v, %v", err, g)
		}
	}

	ogb := func(over map[string]string) map[string]string {
		files := tinyOGB(t)
		for k, v := range over {
			files[k] = gz(v)
		}
		return files
	}
	cases := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"GraphML: nested graph", map[string]string{"g.graphml": `<graphml><graph><node id="a"><graph><node id="b"/></graph></node></graph></graphml>`},
			`g.graphml:1:30: a <graph> inside a <node> or <edge> (a nested, hierarchical graph)`},
		{"GraphML: node twice", map[string]string{"g.graphml": strings.Replace(tinyGraphML, `<node id="b">`, `<node id="a">`, 1)},
			`g.graphml:11:5: node "a" was declared on line 10 already`},
		{"OGB: test repeats train", ogb(map[string]string{"split/time/test.csv.gz": "3\n0\n4\n"}),
			"split/time/test.csv.gz:2:1: node 0 is listed already, on line 1 of split/time/train.csv.gz"},
		{"OGB: train lists a node twice", ogb(map[string]string{"split/time/train.csv.gz": "0\n1\n0\n"}),
			"split/time/train.csv.gz:3:1: node 0 is listed already, on line 1 of split/time/train.csv.gz"},
		{"OGB: two splits", ogb(map[string]string{"split/aaa/train.csv.gz": "0\n", "split/aaa/valid.csv.gz": "1\n", "split/aaa/test.csv.gz": "2\n"}),
			"split/: holds 2 splits (split/aaa, split/time), and nothing in the folder says which is the task's: keep the one to train on under split/ and move the others out"},
		{"OGB: a split lists a node without a class", ogb(map[string]string{"raw/node-label.csv.gz": "0\nnan\n2\n1\n0\n"}),
			`split/time/train.csv.gz:2:1: node 1 has no class ("nan" on line 2 of raw/node-label.csv.gz)`},
		{"bundle: unknown split", map[string]string{"meta.json": `{"name": "g"}`, "nodes.csv": "id,label,split\n0,0,train\n1,1,unlabeled\n", "edges.csv": "source,target\n0,1\n"},
			`nodes.csv:3:5: column split: "unlabeled" is not train, test, val or unlabelled`},
		{"bundle: no class, but a split", map[string]string{"meta.json": `{"name": "g"}`, "nodes.csv": "id,label,split\n0,0,train\n1,-1,test\n2,1,test\n", "edges.csv": "source,target\n0,1\n"},
			`nodes.csv:3:3: column label: "-1" says the node has no class, but its split is test`},
		{"bundle: a class, but unlabelled", map[string]string{"meta.json": `{"name": "g"}`, "nodes.csv": "id,label,split\n0,0,train\n1,1,unlabelled\n", "edges.csv": "source,target\n0,1\n"},
			`nodes.csv:3:5: column split: the split unlabelled is for a node without a class (label -1)`},
		{"bundle: an id twice", map[string]string{"meta.json": `{"name": "g"}`, "nodes.csv": "id,label,split\n0,0,train\n0,1,test\n", "edges.csv": "source,target\n0,1\n"},
			`nodes.csv:3:1: column id: ids must be 0..N-1 in order: want 1, got "0"`},
		{"labels file: an id twice", map[string]string{"labels.csv": "id,label\n0,a\n1,b\n2,a\n1,b\n", "edges.csv": "0,1\n1,2\n"},
			`labels.csv:5:1: column id: node "1" was listed on line 3 already`},
		{"labels file without a header: an id twice", map[string]string{"g.labels": "0 a\n1 b\n2 a\n1 c\n", "g.edges": "0 1\n1 2\n"},
			`g.labels:4:1: column 1: node "1" was listed on line 2 already`},
		{"labels file: the named id column twice", map[string]string{"labels.csv": "key,label\nx,a\ny,b\nx,c\n", "edges.csv": "x,y\n"},
			`labels.csv:4:1: column key: node "x" was listed on line 2 already`},
		{"MUSAE: an id twice", map[string]string{"target.csv": "id,page_type\n0,a\n1,b\n0,a\n2,b\n", "edges.csv": "id_1,id_2\n0,1\n"},
			`target.csv:4:1: column id: node "0" was listed on line 2 already`},
		{"MUSAE: a node's features twice", map[string]string{"target.csv": "id,page_type\n0,a\n1,b\n2,a\n3,b\n", "edges.csv": "id_1,id_2\n0,1\n", "features.json": "{\"0\": [1],\n\"1\": [2],\n\"0\": [3]}"},
			`features.json:3:1: the key "0" is given twice in one object (first on line 1)`},
		{"MUSAE: a node's features under two keys", map[string]string{"target.csv": "id,page_type\n0,a\n1,b\n2,a\n3,b\n", "edges.csv": "id_1,id_2\n0,1\n", "features.json": `{"0": [1], " 0": [3]}`},
			`features.json: node "0" is listed twice, as " 0" and as "0"`},
		{"MUSAE: the class column named twice", map[string]string{"target.csv": "id,target,target\n0,a,b\n1,b,a\n2,a,b\n3,b,a\n", "edges.csv": "id_1,id_2\n0,1\n"},
			`target.csv:1: column target: is named twice in the header (columns 2 and 3)`},
		{"labels file: the class column named twice", map[string]string{"labels.csv": "id,label,label\n0,a,b\n1,b,a\n2,a,b\n", "edges.csv": "0,1\n1,2\n"},
			`labels.csv:1: column label: is named twice in the header (columns 2 and 3)`},
		{"bundle: a key twice, one down", map[string]string{"meta.json": "{\"name\": \"g\", \"source\": {\"url\": \"a\",\n \"url\": \"b\"}}", "nodes.csv": "id,label,split\n0,0,train\n1,1,test\n", "edges.csv": "source,target\n0,1\n"},
			`meta.json:2:2: the key "url" is given twice in one object (first on line 1)`},
		{"bundle: class_names twice", map[string]string{"meta.json": "{\"name\": \"g\",\n\"class_names\": [\"a\", \"b\"],\n\"class_names\": [\"b\", \"a\"]}", "nodes.csv": "id,label,split\n0,0,train\n1,1,test\n", "edges.csv": "source,target\n0,1\n"},
			`meta.json:3:1: the key "class_names" is given twice in one object (first on line 2)`},
		{"bundle: class_names naming a class twice", map[string]string{"meta.json": `{"name": "g", "class_names": ["a", "a"]}`, "nodes.csv": "id,label,split\n0,0,train\n1,1,test\n", "edges.csv": "source,target\n0,1\n"},
			`meta.json: key class_names: names classes 0 and 1 both "a"`},
		{"bundle: class_names naming a class twice, spelled two ways", map[string]string{"meta.json": `{"name": "g", "class_names": ["caf\u00e9", "cafe\u0301"]}`, "nodes.csv": "id,label,split\n0,0,train\n1,1,test\n", "edges.csv": "source,target\n0,1\n"},
			`meta.json: key class_names: names classes 0 and 1 both "café"`},
		{"bundle: class_names naming more classes than the labels hold", map[string]string{"meta.json": `{"name": "g", "class_names": ["a", "b", "c"]}`, "nodes.csv": "id,label,split\n0,0,train\n1,1,test\n", "edges.csv": "source,target\n0,1\n"},
			`meta.json: key class_names: names 3 classes, and nodes.csv's labels hold 2 (0 to 1)`},
		{"OGB: more names than classes", ogb(map[string]string{"mapping/labelidx2cat.csv.gz": "label idx,category\n0,a\n1,b\n2,c\n3,d\n"}),
			`mapping/labelidx2cat.csv.gz: names 4 classes, and raw/node-label.csv.gz's labels hold 3 (0 to 2)`},
		{"bundle: nodes counted past the file (cut short)", map[string]string{"meta.json": `{"name": "g", "nodes": 4800}`, "nodes.csv": "id,label,split\n0,0,train\n1,1,test\n", "edges.csv": "source,target\n0,1\n"},
			`meta.json: key nodes: says 4,800, but nodes.csv holds 2 nodes`},
		{"bundle: edges counted past the file", map[string]string{"meta.json": `{"name": "g", "edges": 11}`, "nodes.csv": "id,label,split\n0,0,train\n1,1,test\n", "edges.csv": "source,target\n0,1\n"},
			`meta.json: key edges: says 11, but edges.csv holds 1 edges`},
		{"bundle: features counted as PyG names them", map[string]string{"meta.json": `{"name": "g", "node_features": 5}`, "nodes.csv": "id,label,split,x0,x1\n0,0,train,1,2\n1,1,test,3,4\n", "edges.csv": "source,target\n0,1\n"},
			`meta.json: key node_features: says 5, but the node features are 2 wide`},
		{"bundle: a count misspelt", map[string]string{"meta.json": `{"name": "g", "clases": 9}`, "nodes.csv": "id,label,split\n0,0,train\n1,1,test\n", "edges.csv": "source,target\n0,1\n"},
			`meta.json: key clases: is no key the explorer reads: did you mean classes?`},
		{"bundle: a count as text", map[string]string{"meta.json": `{"name": "g", "classes": "3"}`, "nodes.csv": "id,label,split\n0,0,train\n1,1,test\n", "edges.csv": "source,target\n0,1\n"},
			`meta.json: key classes: is text ("3"), not a number`},
		{"OGB: a class named twice", ogb(map[string]string{"mapping/labelidx2cat.csv.gz": "label idx,category\n0,a\n1,a\n2,b\n"}),
			`mapping/labelidx2cat.csv.gz: names classes 0 and 1 both "a"`},
		{"OGB: fewer names than classes", ogb(map[string]string{"mapping/labelidx2cat.csv.gz": "label idx,category\n0,a\n1,b\n"}),
			`mapping/labelidx2cat.csv.gz: names 2 classes, and raw/node-label.csv.gz's labels hold 3 (0 to 2)`},
		{"OGB: an empty line among the labels (pandas skips it: every later label moves up one)", ogb(map[string]string{"raw/node-label.csv.gz": "0\n1\n\n1\n0\n", "raw/num-node-list.csv.gz": "5\n"}),
			"raw/node-label.csv.gz:3: the line is empty, and each line is one node's value: pandas (as OGB reads the file) would skip it"},
		{"OGB: an empty line among the node features", ogb(map[string]string{"raw/node-feat.csv.gz": "0.1,0.2\n\n0.3,0.4\n0.5,0.6\n0.7,0.8\n0.9,1.0\n"}),
			"raw/node-feat.csv.gz:2: the line is empty, and each line is one node's value"},
		{"OGB: an empty line among the edge features", ogb(map[string]string{"raw/edge-feat.csv.gz": "1,0\n9,9\n\n0,1\n1,1\n0.5,0.5\n"}),
			"raw/edge-feat.csv.gz:3: the line is empty, and each line is one edge's value"},
		{"OGB: an empty line in the raw files alone, without num-node-list", map[string]string{"edge.csv.gz": gz("0,1\n1,2\n"), "node-label.csv.gz": gz("0\n\n1\n2\n")},
			"raw/node-label.csv.gz:2: the line is empty"},
		{"OGB: labels fewer than num-node-list counts", ogb(map[string]string{"raw/node-label.csv.gz": "0\n1\n2\n1\n"}),
			"raw/node-label.csv.gz: 4 lines, and raw/num-node-list.csv.gz gives 5 nodes"},
		{"OGB: node features more than num-node-list counts", ogb(map[string]string{"raw/node-feat.csv.gz": "0.1,0.2\n0.3,0.4\n0.5,0.6\n0.7,0.8\n0.9,1.0\n1,1\n"}),
			"raw/node-feat.csv.gz:6: more lines than the 5 nodes raw/num-node-list.csv.gz gives"},
		{"OGB: num-node-list counts two graphs' nodes", ogb(map[string]string{"raw/num-node-list.csv.gz": "5\n5\n"}),
			"raw/num-node-list.csv.gz:2: a second graph's node count: a line is one graph's"},
		{"OGB: node features fewer than num-node-list counts", ogb(map[string]string{"raw/node-feat.csv.gz": "0.1,0.2\n0.3,0.4\n0.5,0.6\n0.7,0.8\n"}),
			"raw/node-feat.csv.gz: 4 lines, and raw/num-node-list.csv.gz gives 5 nodes"},
		{"OGB: a split lists a node whose class is -1", ogb(map[string]string{"raw/node-label.csv.gz": "0\n-1\n2\n1\n0\n"}),
			`split/time/train.csv.gz:2:1: node 1 has no class ("-1" on line 2 of raw/node-label.csv.gz)`},
		{"OGB: a graph-property dataset (ogbg)", map[string]string{"raw/edge.csv.gz": gz("0,1\n1,2\n"), "raw/graph-label.csv.gz": gz("1\n"), "raw/num-node-list.csv.gz": gz("3\n"), "raw/num-edge-list.csv.gz": gz("2\n")},
			`raw/graph-label.csv.gz: an OGB graph-property dataset (ogbg-…)`},
		{"OGB: a graph-property dataset's raw files alone", map[string]string{"edge.csv.gz": gz("0,1\n1,2\n"), "graph-label.csv.gz": gz("1\n"), "num-node-list.csv.gz": gz("3\n"), "num-edge-list.csv.gz": gz("2\n")},
			`raw/graph-label.csv.gz: an OGB graph-property dataset (ogbg-…)`},
		{"OGB: a link-property dataset (ogbl)", map[string]string{"raw/edge.csv.gz": gz("0,1\n1,2\n"), "raw/num-node-list.csv.gz": gz("3\n"), "raw/node-feat.csv.gz": gz("1\n2\n3\n")},
			`raw/node-label.csv.gz: missing: an OGB node-property dataset (ogbn-…) gives each node's class there, and a folder without it is of OGB's link-property kind (ogbl-…)`},
		{"OGB: a link-property dataset's raw files alone", map[string]string{"edge.csv.gz": gz("0,1\n1,2\n"), "num-node-list.csv.gz": gz("3\n")},
			`raw/node-label.csv.gz: missing: an OGB node-property dataset (ogbn-…)`},
		{"GraphML: a node's data for one key twice", map[string]string{"g.graphml": strings.Replace(tinyGraphML, `<data key="d0">Officer</data>`, `<data key="d0">Officer</data><data key="d0">Mr. Hi</data>`, 1)},
			`g.graphml:11:47: a <node> gives data for the key "d0" twice (first on line 11)`},
		{"GraphML: an edge's data for one key twice", map[string]string{"g.graphml": strings.Replace(tinyGraphML, `<data key="d4">1</data></edge>`, `<data key="d4">1</data><data key="d4">2</data></edge>`, 1)},
			`g.graphml:15:56: a <edge> gives data for the key "d4" twice (first on line 15)`},
		{"GraphML: a key of a type GraphML has not", map[string]string{"g.graphml": strings.Replace(tinyGraphML, `attr.name="x" attr.type="double"`, `attr.name="x" attr.type="quaternion"`, 1)},
			`g.graphml:5:3: the key "d2" has attr.type "quaternion", which is none of GraphML's types (boolean, int, long, float, double, string)`},
		{"GraphML: data for a key never declared", map[string]string{"g.graphml": strings.Replace(tinyGraphML, `<data key="d2">5</data></node>
    <node id="b">`, `<data key="zz">5</data></node>
    <node id="b">`, 1)},
			`g.graphml:10:69: <data key="zz"> names a key no <key> element declares (NetworkX raises "no key zz")`},
		{"GraphML: one pair's edge id given twice", map[string]string{"g.graphml": strings.Replace(strings.Replace(tinyGraphML, `<edge source="a" target="b">`, `<edge id="e1" source="a" target="b">`, 1), `<edge source="c" target="a">`, `<edge id="e1" source="b" target="a">`, 1)},
			`g.graphml:16:5: edge id "e1" is given twice, at 14:5 and at 16:5 (line:column)`},
		{"GraphML: a key declared twice", map[string]string{"g.graphml": strings.Replace(tinyGraphML, `<key id="d2"`, `<key id="d0"`, 1)},
			`g.graphml:5:3: the key "d0" is declared twice (first on line 3)`},
		{"GraphML: two files joined", map[string]string{"g.graphml": tinyGraphML + "\n" + tinyGraphML},
			`g.graphml:21:1: not well-formed XML: a second root element, <graphml>, after the document's end: were two files joined into one?`},
		{"npz: two files joined", map[string]string{"g.npz": npzOf(t, tinyNPZArrays()) + npzOf(t, tinyNPZArrays())},
			`g.npz: holds bytes before or after its zip archive (two files joined into one, or a download written twice?)`},
		{"npz: an array twice", map[string]string{"g.npz": npzOf(t, append(tinyNPZArrays(), npyArr{key: "labels", descr: "<i8", shape: []int{4}, data: i8(1, 1, 0, 0)}))},
			`g.npz: holds the array labels twice: which one numpy reads cannot be told`},
		{"Matrix Market: two files joined", map[string]string{"g.mtx": tinyMTX + tinyMTX, "g.node_labels": "1,a\n2,b\n3,a\n4,b\n5,a\n"},
			`g.mtx:9:1: a second banner (%%MatrixMarket …): were two files joined into one?`},
		{"Matrix Market: a node's class given twice", map[string]string{"g.mtx": tinyMTX, "g.node_labels": "1,a\n1,b\n2,a\n3,b\n5,a\n"},
			`g.node_labels:2:1: column 1: node "1" was listed on line 1 already`},
	}
	cases = append(cases, nxStructureCases...)
	n := 0
	for _, tc := range cases {
		f, _ := formatOf(mapFS(tc.files))
		if f.name != format {
			continue
		}
		n++
		_, _, err := Open(mapFS(tc.files), Columns{})
		if err == nil || !strings.Contains(err.Error(), tc.want) || !namesAFile(err) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	if n == 0 {
		t.Errorf("no structure case for %s", format)
	}
}

// Class names that spell one class alike (é as one letter and as e with a
// combining accent; a zero-width space a copy brought) are one class, and
// the notes say so; the name shown is the composed one.
func TestClassNamesThatSpellAlike(t *testing.T) {
	var labels strings.Builder
	labels.WriteString("node,label\n")
	for i := range 60 {
		name := []string{"café", "cafe\u0301", "th\u200bé", "thé"}[i%4]
		fmt.Fprintf(&labels, "%d,%s\n", i, name)
	}
	var edges strings.Builder
	for i := range 60 {
		fmt.Fprintf(&edges, "%d,%d\n", i, (i+1)%60)
	}
	g, _, err := Open(mapFS(map[string]string{"labels.csv": labels.String(), "edges.csv": edges.String()}), Columns{})
	if err != nil {
		t.Fatal(err)
	}
	if g.C != 2 || !slices.Equal(g.ClassNames, []string{"café", "thé"}) || !hasNote(g, "30 class names were written with invisible characters") {
		t.Errorf("C %d names %q notes %v", g.C, g.ClassNames, g.Notes)
	}
}

// A folder holding, beside the files its format's reader reads, a file a
// graph is made of (another graph in another format, a file out of
// place) is refused naming it, on every way files come; a README or an
// OGB folder's release note may stand beside a graph.
func TestOneGraphOfOneFormatAFolder(t *testing.T) {
	ogb := tinyOGB(t)
	edgeList := map[string]string{"labels.csv": "id,label\na,x\nb,y\nc,x\nd,y\n", "edges.csv": "a,b\nb,c\nc,d\n"}
	with := func(base map[string]string, more map[string]string) map[string]string {
		out := cloneFiles(base)
		for k, v := range more {
			out[k] = v
		}
		return out
	}
	bundle := map[string]string{"meta.json": `{"name": "g"}`, "nodes.csv": "id,label,split\n0,0,train\n1,1,test\n", "edges.csv": "source,target\n0,1\n"}
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string // "" reads
	}{
		{"an edge list beside a GraphML file", with(edgeList, map[string]string{"club.graphml": tinyGraphML}), "edges.csv, labels.csv, which the GraphML it read does not read"},
		{"loose tables beside an OGB folder", with(ogb, edgeList), "edges.csv, labels.csv, which the OGB it read does not read"},
		{"a stray labels file beside a bundle", with(bundle, map[string]string{"labels.csv": "id,label\n0,a\n"}), "labels.csv, which the bundle it read does not read"},
		{"an OGB folder with its release note", with(ogb, map[string]string{"RELEASE_v1.txt": "v1\n", "README.md": "# arxiv\n"}), ""},
		{"an edge list with a README", with(edgeList, map[string]string{"README.md": "mine\n"}), ""},
	} {
		for _, s := range surfaces {
			g, err := s.open(t, tc.files)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("%s, %s: %v", tc.name, s.name, err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("%s, %s: %v (read %v); want %q", tc.name, s.name, err, g, tc.want)
			}
		}
	}
}

// A column of numbers names its classes by number, as pandas reads it: 1
// and 1.0 are one class, and the classes sort by value.
func TestNumberClassesAreNumbers(t *testing.T) {
	var labels, edges strings.Builder
	labels.WriteString("node,label\n")
	for i := range 60 {
		fmt.Fprintf(&labels, "%d,%s\n", i, []string{"0", "0.0", "1", "1.0", "2", "2e0", "10"}[i%7])
		fmt.Fprintf(&edges, "%d,%d\n", i, (i+1)%60)
	}
	g, _, err := Open(mapFS(map[string]string{"labels.csv": labels.String(), "edges.csv": edges.String()}), Columns{})
	if err != nil {
		t.Fatal(err)
	}
	if g.C != 4 || g.ClassName(3) != "10" || g.ClassName(1) != "1" {
		t.Errorf("C %d names %q", g.C, g.ClassNames)
	}
}

// planetoidFiles are a Planetoid graph's own files, as Planetoid publishes
// them (pickles: their bytes are no matter here).
func planetoidFiles(name string) map[string]string {
	files := map[string]string{}
	for _, part := range planetoidParts {
		files["ind."+name+"."+part] = "\x80\x02cnumpy"
	}
	return files
}

// Files that come near a format say what keeps them from it: two GraphML
// files, a bundle's files without its meta.json, Planetoid's own files
// (in a folder, the page's files, a zip, or one named on the command
// line).
func TestNearMissesSayWhy(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"two GraphML files", map[string]string{"a.graphml": tinyGraphML, "b.graphml": tinyGraphML}, "a.graphml, b.graphml are 2 GraphML files, and a GraphML file is one graph"},
		{"a bundle without meta.json", map[string]string{"nodes.csv": "id,label,split,x0\n0,0,train,1\n1,1,test,2\n", "edges.csv": "source,target,kind,e0\n0,1,inter,0.5\n"}, "meta.json: missing: nodes.csv and edges.csv are a bundle's"},
		{"Planetoid's own files (audit 3's 24)", planetoidFiles("pubmed"), "Planetoid's own files (ind.pubmed.x, .y, .tx, .ty, .allx, .ally, .graph, .test.index: Python pickles of its matrices), which the explorer does not read: it ships cora and citeseer made from them (-data cora, -data citeseer; Cora and Citeseer in the page), and python3 scripts/planetoid.py FOLDER pubmed OUT writes a bundle"},
		{"one of Planetoid's files", map[string]string{"ind.cora.graph": "\x80\x02}q\x00"}, "Planetoid's own files (ind.cora.x"},
	} {
		for _, s := range surfaces {
			if _, err := s.open(t, tc.files); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s, %s: %v; want %q", tc.name, s.name, err, tc.want)
			}
		}
		if len(tc.files) == 1 {
			for name, body := range tc.files {
				p := filepath.Join(t.TempDir(), name)
				mustWrite(t, p, []byte(body))
				if _, err := Load(p, experiment.Default().Data, false); err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("%s, named alone: %v; want %q", tc.name, err, tc.want)
				}
			}
		}
	}
}
