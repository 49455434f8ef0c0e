package main

import (
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/internal/outdir"
	"pdnexplorer/pyg/pygtest"
)

// The audit of November 2026 tried 222 cases on the explorer as a new user
// and a tester of bad input would; testdata/audit-2026-11.jsonl holds the
// 212 it published, one JSON object a line (surface, action, observed,
// class). Each of its command-line cases is a row of auditCLI below, on
// files built to the case's description (smaller, where the size was not
// the point), asserting the clear message or the right result; the page's
// cases are tests of the app and e2e packages, named in auditElsewhere.
// TestAuditIsCovered keeps the two in step with the file.

// auditFiles builds the audit's folders under root, by name.
func auditFiles(t *testing.T, root string) map[string]string {
	t.Helper()
	dirs := map[string]string{}
	put := func(name string, files map[string][]byte) string {
		dir := filepath.Join(root, name)
		for f, body := range files {
			p := filepath.Join(dir, filepath.FromSlash(f))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, body, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		dirs[name] = dir
		return dir
	}
	put("fb", musaeFacebook(60))
	put("tw", twitchFolder(60))
	put("kc", featherTwitch())
	put("cham", chameleon(150))
	put("planetoid", planetoid())
	put("choose2", chooseTwo())
	put("snap", map[string][]byte{
		"cora-edges.txt":  []byte("# Undirected graph: cora\n# Nodes: 40 Edges: 40\n# FromNodeId\tToNodeId\n" + ring(40, "\t")),
		"cora-labels.txt": []byte("# node labels\n# NodeId\tClass\tX\n" + labelRows(40, "\t", func(i int) string { return fmt.Sprintf("c%d\t%d", i%2, i%5) })),
	})
	put("european", map[string][]byte{
		"edges.csv":  []byte("\ufeffsource;target\r\n" + strings.ReplaceAll(ring(40, ";"), "\n", "\r\n")),
		"labels.csv": []byte("\ufeffid;label;score\r\n" + strings.ReplaceAll(labelRows(40, ";", func(i int) string { return fmt.Sprintf("c%d;0,%d", i%2, i) }), "\n", "\r\n")),
	})
	put("three", map[string][]byte{"edges.csv": []byte(ring(20, ",")), "labels.csv": []byte(labelRows(20, ",", classOf2)), "readme.txt": []byte("my graph\n")})
	put("ab", map[string][]byte{"a.csv": []byte(ring(20, ",")), "b.csv": []byte(labelRows(20, ",", classOf2))})
	twoTargets := twitchFolder(30)
	twoTargets["musae_ENGB_target.csv"] = twoTargets["target.csv"]
	put("twotargets", twoTargets)
	top := map[string][]byte{"README.md": []byte("# data\n")}
	for k, v := range twitchFolder(30) {
		top["data/twitch/"+k] = v
	}
	put("readme_top", top)
	unrelated := map[string][]byte{}
	for i := range 12 {
		unrelated[fmt.Sprintf("notes%d.log", i)] = []byte("x")
	}
	put("unrelated", unrelated)
	put("classes101", map[string][]byte{"edges.csv": []byte(ring(505, ",")), "labels.csv": []byte("id,label\n" + labelRows(505, ",", func(i int) string { return fmt.Sprint(i % 101) }))})
	put("classes10k", map[string][]byte{"edges.csv": []byte(ring(20000, ",")), "labels.csv": []byte("id,label\n" + labelRows(20000, ",", func(i int) string { return fmt.Sprint(i % 10000) }))})
	put("one", map[string][]byte{"labels.csv": []byte("id,label\n0,0\n"), "edges.csv": []byte("")})
	put("two", map[string][]byte{"labels.csv": []byte("0,0\n1,1\n"), "edges.csv": []byte("0,1\n")})
	put("disc", map[string][]byte{"edges.csv": []byte(ring(50, ",") + shifted(ring(50, ","), 50)), "labels.csv": []byte(labelRows(100, ",", classOf2))})
	put("nx", map[string][]byte{"cora.graphml": []byte(graphML(40, false, true))})
	put("nxplain", map[string][]byte{"cora.graphml": []byte(graphML(40, false, false))})
	put("gephi", map[string][]byte{"cora_gephi.graphml": []byte(graphML(40, true, false))})
	put("ogb", ogbFolder(t, 60, false))
	put("ogbempty", ogbFolder(t, 60, true))
	put("strid", map[string][]byte{"edges.csv": []byte(strings.ReplaceAll(ring(20, ","), "", "")), "labels.csv": []byte("user,group\n" + labelRows(20, ",", func(i int) string { return fmt.Sprintf("g%d", i%3) }))})
	put("quoted", map[string][]byte{"edges.csv": []byte(ring(20, ",")), "labels.csv": []byte("id,label\n" + labelRows(20, ",", func(i int) string { return fmt.Sprintf("\"Class, %d\"", i%2) }))})
	put("utf16", map[string][]byte{"edges.csv": []byte(ring(20, ",")), "labels.txt": utf16("id,label\n" + labelRows(20, ",", classOf2))})
	put("wtime", map[string][]byte{"edges.csv": []byte("source,target,weight,timestamp\n" + strings.ReplaceAll(ring(20, ","), "\n", ",0.5,1700000000\n")), "labels.csv": []byte(labelRows(20, ",", classOf2))})
	put("dupw", map[string][]byte{"edges.csv": []byte("source,target,weight\n0,1,0.5\n1,0,9.0\n" + strings.ReplaceAll(ring(20, ",")[4:], "\n", ",1\n")), "labels.csv": []byte(labelRows(20, ",", classOf2))})
	put("gz", map[string][]byte{"edges.csv.gz": gzipped(ring(20, ",")), "labels.csv": []byte(labelRows(20, ",", classOf2))})
	put("stray", map[string][]byte{"edges.csv": []byte(ring(20, ",") + "3,999\n"), "labels.csv": []byte(labelRows(20, ",", classOf2))})
	bad := musaeFacebook(30)
	bad["features.json"] = []byte(`{"0": [-3], "1": [1]}`)
	put("negfeat", bad)
	rep := musaeFacebook(30)
	rep["target.csv"] = append(rep["target.csv"], []byte("0,1000,page 0,tvshow\n")...)
	put("reprow", rep)
	loops := musaeFacebook(30)
	loops["edges.csv"] = append(loops["edges.csv"], []byte(strings.Repeat("0,1\n", 3000))...)
	put("repeats", loops)
	arr := musaeFacebook(30)
	arr["features.json"] = []byte(`[1, 2, 3]`)
	put("arrjson", arr)
	comma := musaeFacebook(30)
	comma["features.json"] = bytes.Replace(comma["features.json"], []byte("], "), []byte("],, "), 1)
	put("commajson", comma)
	cut := musaeFacebook(30)
	cut["features.json"] = cut["features.json"][:len(cut["features.json"])/2]
	put("cutjson", cut)
	put("npz", map[string][]byte{"acm.npz": []byte("PK\x03\x04not really")})
	put("classes100", map[string][]byte{"edges.csv": []byte(ring(300, ",")), "labels.csv": []byte("id,label\n" + labelRows(300, ",", func(i int) string { return fmt.Sprint(i % 100) }))})
	wide := musaeFacebook(30)
	wide["features.json"] = bytes.Replace(wide["features.json"], []byte(`"0": [0, 4]`), []byte(`"0": [0, 99999]`), 1)
	put("feat100k", wide)
	var dense strings.Builder
	dense.WriteString("id,label")
	for k := range 100000 {
		fmt.Fprintf(&dense, ",f%d", k)
	}
	dense.WriteString("\n")
	for i := range 10 {
		fmt.Fprintf(&dense, "%d,%d", i, i%2)
		for k := range 100000 {
			dense.WriteString([]string{",0", ",1"}[(i+k)%7/6])
		}
		dense.WriteString("\n")
	}
	put("dense100k", map[string][]byte{"edges.csv": []byte(ring(10, ",")), "labels.csv": []byte(dense.String())})
	put("graphml_repeats", map[string][]byte{"club.graphml": []byte(strings.Replace(graphML(40, true, false), "</graph>", `<edge source="0" target="1"><data key="weight">2.0</data></edge><edge source="2" target="1"><data key="weight">2.0</data></edge></graph>`, 1))})
	put("graphml_default", map[string][]byte{"club.graphml": []byte(strings.Replace(strings.Replace(graphML(40, false, false), `attr.type="string"/>`, `attr.type="string"><default>cX</default></key>`, 1), `<data key="s">AI</data>`, "", 5))})
	put("graphml_entity", map[string][]byte{"entity.graphml": []byte(`<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]><graphml><graph><node id="a"><data key="c">&lol2;</data></node></graph></graphml>`)})
	put("graphml_typed", map[string][]byte{"club.graphml": []byte(strings.Replace(strings.Replace(graphML(40, false, false), `<graph edgedefault`, `<key id="age" for="node" attr.name="age" attr.type="int"/><key id="vip" for="node" attr.name="vip" attr.type="boolean"/><graph edgedefault`, 1), `</data></node>`, `</data><data key="age">33</data><data key="vip">true</data></node>`, -1))})
	return dirs
}

func classOf2(i int) string { return fmt.Sprint(i % 2) }

// ring is an edge list of a ring of n nodes, sep between the ends.
func ring(n int, sep string) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "%d%s%d\n", i, sep, (i+1)%n)
	}
	return b.String()
}

// shifted adds k to every node id of an edge list written by ring.
func shifted(edges string, k int) string {
	var b strings.Builder
	sc := bufio.NewScanner(strings.NewReader(edges))
	for sc.Scan() {
		var u, v int
		fmt.Sscanf(strings.ReplaceAll(sc.Text(), ",", " "), "%d %d", &u, &v)
		fmt.Fprintf(&b, "%d,%d\n", u+k, v+k)
	}
	return b.String()
}

// labelRows is a labels file's rows: a node id, sep, class(i).
func labelRows(n int, sep string, class func(int) string) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "%d%s%s\n", i, sep, class(i))
	}
	return b.String()
}

func gzipped(s string) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(s))
	zw.Close()
	return b.Bytes()
}

// utf16 is s as a spreadsheet's "Unicode text": UTF-16 LE with its mark.
func utf16(s string) []byte {
	out := []byte{0xff, 0xfe}
	for _, r := range s {
		out = append(out, byte(r), byte(r>>8))
	}
	return out
}

// musaeFacebook is a MUSAE Facebook folder of n pages: four page types, a
// self-loop and an edge listed both ways, page names with a repeat.
func musaeFacebook(n int) map[string][]byte {
	types := []string{"politician", "company", "government", "tvshow"}
	var target, edges, feat strings.Builder
	target.WriteString("id,facebook_id,page_name,page_type\n")
	edges.WriteString("id_1,id_2\n0,0\n1,0\n")
	feat.WriteString("{")
	for i := range n {
		name := fmt.Sprintf("page %d", i)
		if i == n-1 {
			name = "page 0" // two pages of one name, as the published file has
		}
		fmt.Fprintf(&target, "%d,%d,%s,%s\n", i, 145647315578475+7*i, name, types[i%4])
		fmt.Fprintf(&edges, "%d,%d\n%d,%d\n", i, (i+1)%n, i, (i+4)%n)
		if i > 0 {
			feat.WriteString(", ")
		}
		fmt.Fprintf(&feat, "\"%d\": [%d, %d]", i, i%4, 4+i%3)
	}
	feat.WriteString("}")
	return map[string][]byte{"target.csv": []byte(target.String()), "edges.csv": []byte(edges.String()), "features.json": []byte(feat.String())}
}

// twitchFolder is a MUSAE Twitch folder: id is Twitch's own id, new_id the
// node id its edges and features use (a permutation), mature the class.
func twitchFolder(n int) map[string][]byte {
	var target, edges, feat strings.Builder
	target.WriteString("id,days,mature,views,partner,new_id\n")
	edges.WriteString("from,to\n")
	feat.WriteString("{")
	for i := range n {
		newID := (i*7 + 3) % n
		fmt.Fprintf(&target, "%d,%d,%v,%d,%v,%d\n", 37905227+i*13, 100+i*3, i%2 == 0, 5000+i*11, i%5 == 0, newID)
		fmt.Fprintf(&edges, "%d,%d\n", i, (i+1)%n)
		if i > 0 {
			feat.WriteString(",")
		}
		fmt.Fprintf(&feat, "\"%d\": [%d]", i, i%6)
	}
	feat.WriteString("}")
	return map[string][]byte{"target.csv": []byte(target.String()), "edges.csv": []byte(edges.String()), "features.json": []byte(feat.String())}
}

// featherTwitch is the karate club's Twitch folder: features.csv as
// node_id,feature_id,value with (node, feature) pairs repeated, as the
// published one repeats 535.
func featherTwitch() map[string][]byte {
	var target, edges, feat strings.Builder
	target.WriteString("id,target\n")
	edges.WriteString("node_1,node_2\n")
	feat.WriteString("node_id,feature_id,value\n")
	for i := range 40 {
		fmt.Fprintf(&target, "%d,%d\n", i, i%2)
		fmt.Fprintf(&edges, "%d,%d\n", i, (i+1)%40)
		fmt.Fprintf(&feat, "%d,%d,1\n%d,%d,1\n", i, i%7, i, 7+i%5)
		if i%4 == 1 {
			fmt.Fprintf(&feat, "%d,%d,1\n", i, i%7) // again
		}
	}
	return map[string][]byte{"target.csv": []byte(target.String()), "edges.csv": []byte(edges.String()), "features.csv": []byte(feat.String())}
}

// chameleon is a MUSAE Wikipedia folder: its target is monthly traffic,
// many whole numbers that are no run of class numbers.
func chameleon(n int) map[string][]byte {
	f := musaeFacebook(n)
	var target strings.Builder
	target.WriteString("id,target\n")
	for i := range n {
		fmt.Fprintf(&target, "%d,%d\n", i, 500+37*i)
	}
	f["target.csv"] = []byte(target.String())
	return f
}

// planetoid is Planetoid's raw Cora form: cora.content (paper id, 0/1
// words, the class last, tabs, no header) and cora.cites.
func planetoid() map[string][]byte {
	classes := []string{"Neural_Networks", "Rule_Learning", "Theory"}
	var content, cites strings.Builder
	for i := range 45 {
		fmt.Fprintf(&content, "%d\t%d\t%d\t%d\t%s\n", 31336+i*17, i%2, (i/2)%2, (i/3)%2, classes[i%3])
		fmt.Fprintf(&cites, "%d\t%d\n", 31336+i*17, 31336+((i+1)%45)*17)
	}
	return map[string][]byte{"cora.content": []byte(content.String()), "cora.cites": []byte(cites.String())}
}

// chooseTwo is a MUSAE folder whose target.csv has two columns that
// could each be the class.
func chooseTwo() map[string][]byte {
	f := musaeFacebook(40)
	kinds := []string{"company", "shop", "club", "band"}
	conts := []string{"Asia", "Europe", "Americas"}
	var target strings.Builder
	target.WriteString("id,kind,continent\n")
	for i := range 40 {
		fmt.Fprintf(&target, "%d,%s,%s\n", i, kinds[i%4], conts[i%3])
	}
	f["target.csv"] = []byte(target.String())
	return f
}

// graphML is Cora-like GraphML of n nodes as NetworkX writes it (numeric
// attributes w0..w5 only where non-zero, when sparse) or as Gephi exports
// it (a unique label, the class, and its drawing: x, y, size, r, g, b).
func graphML(n int, gephi, sparse bool) string {
	var b strings.Builder
	b.WriteString(`<?xml version='1.0' encoding='utf-8'?>` + "\n" + `<graphml xmlns="http://graphml.graphdrawing.org/xmlns">` + "\n")
	b.WriteString(`<key id="s" for="node" attr.name="subject" attr.type="string"/>` + "\n")
	if sparse {
		for k := range 6 {
			fmt.Fprintf(&b, `<key id="w%d" for="node" attr.name="w%d" attr.type="long"/>`+"\n", k, k)
		}
	}
	if gephi {
		b.WriteString(`<key id="label" for="node" attr.name="label" attr.type="string"/>` + "\n")
		for _, k := range []string{"x", "y", "size"} {
			fmt.Fprintf(&b, `<key id="%s" for="node" attr.name="%s" attr.type="float"/>`+"\n", k, k)
		}
		for _, k := range []string{"r", "g", "b"} {
			fmt.Fprintf(&b, `<key id="%s" for="node" attr.name="%s" attr.type="int"/>`+"\n", k, k)
		}
		b.WriteString(`<key id="weight" for="edge" attr.name="weight" attr.type="double"/>` + "\n")
	}
	b.WriteString(`<graph edgedefault="undirected">` + "\n")
	for i := range n {
		fmt.Fprintf(&b, `<node id="%d"><data key="s">%s</data>`, i, []string{"AI", "DB", "ML"}[i%3])
		if sparse {
			fmt.Fprintf(&b, `<data key="w%d">1</data>`, i%3)
		}
		if gephi {
			fmt.Fprintf(&b, `<data key="label">paper %d</data><data key="x">%d.5</data><data key="y">%d.25</data><data key="size">10.0</data><data key="r">%d</data><data key="g">1</data><data key="b">2</data>`, i, i, i*3, i%255)
		}
		b.WriteString("</node>\n")
	}
	for i := range n {
		fmt.Fprintf(&b, `<edge source="%d" target="%d">`, i, (i+1)%n)
		if gephi {
			b.WriteString(`<data key="weight">1.0</data>`)
		}
		b.WriteString("</edge>\n")
	}
	b.WriteString("</graph></graphml>\n")
	return b.String()
}

// ogbFolder is an OGB node-property folder of n nodes as published, its
// files gzipped; emptyValid leaves split/random/valid.csv.gz empty.
func ogbFolder(t *testing.T, n int, emptyValid bool) map[string][]byte {
	var edges, labels, feat, train, valid, test strings.Builder
	for i := range n {
		fmt.Fprintf(&edges, "%d,%d\n", i, (i+1)%n)
		fmt.Fprintf(&labels, "%d\n", i%3)
		fmt.Fprintf(&feat, "%d.5,%d,-1.25\n", i%4, i%3)
		switch i / 3 % 3 { // not i % 3, the label: each split holds every class
		case 0:
			fmt.Fprintf(&train, "%d\n", i)
		case 1:
			fmt.Fprintf(&valid, "%d\n", i)
		default:
			fmt.Fprintf(&test, "%d\n", i)
		}
	}
	if emptyValid {
		valid.Reset()
	}
	return map[string][]byte{
		"raw/edge.csv.gz": gzipped(edges.String()), "raw/node-label.csv.gz": gzipped(labels.String()),
		"raw/node-feat.csv.gz": gzipped(feat.String()), "raw/num-node-list.csv.gz": gzipped(fmt.Sprintf("%d\n", n)),
		"split/random/train.csv.gz": gzipped(train.String()), "split/random/valid.csv.gz": gzipped(valid.String()),
		"split/random/test.csv.gz":        gzipped(test.String()),
		"mapping/labelidx2subject.csv.gz": gzipped("label idx,subject\n0,ai\n1,db\n2,ml\n"),
	}
}

// zipOf is a zip archive of files, by name, in the order given.
func zipOf(t *testing.T, names []string, files map[string][]byte) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, name := range names {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(files[name])
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// auditZips writes the audit's archives of the Twitch folder into root.
func auditZips(t *testing.T, root string) {
	t.Helper()
	tw := twitchFolder(30)
	under := func(prefix string) ([]string, map[string][]byte) {
		var names []string
		out := map[string][]byte{}
		for k, v := range tw {
			names = append(names, prefix+k)
			out[prefix+k] = v
		}
		slices.Sort(names)
		return names, out
	}
	write := func(name string, data []byte) {
		if err := os.WriteFile(filepath.Join(root, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	names, files := under("twitch/")
	zr := zipOf(t, names, files)
	write("zip_r.zip", zr)
	fn, ff := under("twitch/")
	ff["__MACOSX/twitch/._edges.csv"], ff["twitch/.DS_Store"], ff["__MACOSX/._twitch"] = []byte{0, 5, 22, 7}, []byte{0}, []byte{0}
	fn = append(fn, "__MACOSX/twitch/._edges.csv", "twitch/.DS_Store", "__MACOSX/._twitch")
	write("finder.zip", zipOf(t, fn, ff))
	wn, wf := under("twitch\\")
	wf["twitch\\Thumbs.db"], wf["twitch\\desktop.ini"] = []byte("x"), []byte("[x]")
	write("windows.zip", zipOf(t, append(wn, "twitch\\Thumbs.db", "twitch\\desktop.ini"), wf))
	nested := zipOf(t, []string{"twitch.zip"}, map[string][]byte{"twitch.zip": zr})
	write("nested.zip", nested)
	write("nested2.zip", zipOf(t, []string{"nested.zip"}, map[string][]byte{"nested.zip": nested}))
	an, af := under("a/")
	bn, bf := under("b/")
	for k, v := range bf {
		af[k] = v
	}
	write("two.zip", zipOf(t, append(an, bn...), af))
	dn, df := under("twitch/")
	df["../evil.txt"] = []byte("x")
	write("dotdot.zip", zipOf(t, append(dn, "../evil.txt"), df))
	abn, abf := under("/tmp/twitch/")
	write("abs.zip", zipOf(t, abn, abf))
	fln, flf := under("")
	write("flat.zip", zipOf(t, fln, flf))
	write("empty.zip", zipOf(t, nil, nil))
	write("onlymac.zip", zipOf(t, []string{"__MACOSX/._x"}, map[string][]byte{"__MACOSX/._x": {0}}))
	write("dup.zip", zipOf(t, append(fln, "edges.csv"), flf))
	write("fake.zip", []byte("not a zip"))
	write("trunc.zip", zr[:len(zr)/2])
}

// auditCLI are the audit's command-line cases: args (DIR/name is the
// folder or file auditFiles or auditZips made of that name), and the exit
// code and the text wanted on stderr (code 2) or in the JSON's notes or
// stdout (code 0).
var auditCLI = []struct {
	row  int
	args []string
	code int
	want string
}{
	{0, []string{"train", "-data", "DIR/fb"}, 0, "edges.csv: dropped 1 self-loops and 1 pairs listed again"},
	{1, []string{"train", "-data", "DIR/tw"}, 0, `"nodes":60`},
	{2, []string{"train", "-data", "DIR/tw", "-shots", "5"}, 0, `"nodes":60`},
	{3, []string{"train", "-data", "DIR/kc"}, 0, "features.csv: 10 (node, feature) pairs given again (the first on line 6) were summed"},
	{4, []string{"train", "-data", "DIR/cham"}, 2, "target.csv: column target: holds 150 different whole numbers that are not class numbers 0 to K-1"},
	{5, []string{"train", "-data", "DIR/cham"}, 2, "the file has no other column that could be the class"},
	{6, []string{"train", "-data", "DIR/cham", "-target", "1"}, 2, "target.csv: column id: is the column of node ids; the class must be another (target)"},
	{7, []string{"train", "-data", "DIR/cham", "-target", "3"}, 2, "target.csv:1: column 3: no such column (target names it): the columns are id, target, or their numbers 1 to 2"},
	{8, []string{"train", "-data", "DIR/fb", "-target", "page_name"}, 2, "column page_name: holds 59 values for 60 nodes: it names nodes, not classes"},
	{9, []string{"train", "-data", "DIR/fb", "-target", "facebook_id"}, 2, "column facebook_id: holds 60 values for 60 nodes: it names nodes, not classes"},
	{10, []string{"train", "-data", "DIR/fb", "-target", "4"}, 0, `"nodes":60`},
	{11, []string{"train", "-data", "DIR/fb", "-id-column", "page_name"}, 2, `column page_name: node "page 0" was listed on line 2 already`},
	{12, []string{"train", "-data", "DIR/fb", "-id-column", "facebook_id"}, 2, `features.json: node "0" is not an id in target.csv's column "facebook_id", which you chose as the node ids`},
	{13, []string{"train", "-data", "DIR/tw", "-id-column", "id"}, 2, `is not an id in target.csv's column "id", which you chose as the node ids (-id-column, id-column in the link)`},
	{14, []string{"train", "-data", "DIR/tw", "-target", "days"}, 2, "column days: holds 60 values for 60 nodes: it names nodes, not classes"},
	{15, []string{"train", "-data", "DIR/tw", "-target", "partner"}, 0, `"nodes":60`},
	{16, []string{"train", "-data", "DIR/tw", "-target", "new_id"}, 2, "column new_id: is the column of node ids; the class must be another (target)"},
	{17, []string{"train", "-data", "DIR/planetoid"}, 0, `"nodes":45`},
	{18, []string{"train", "-data", "DIR/nxplain"}, 0, "the graph has no node features: each node was given its degree"},
	{19, []string{"train", "-data", "DIR/gephi"}, 0, "cora_gephi.graphml: the node attributes b, g, r, size, x, y are the drawing's (positions, size, colour), not node features or classes"},
	{20, []string{"train", "-data", "DIR/gephi", "-target", "subject"}, 0, `"nodes":40`},
	{21, []string{"train", "-data", "DIR/nx"}, 0, "cora.graphml: 6 numeric node attributes are left out on some nodes"},
	{22, []string{"train", "-data", "DIR/ogbempty"}, 2, "split/random/valid.csv.gz: empty file"},
	{23, []string{"train", "-data", "DIR/ogb"}, 0, `"nodes":60`},
	{24, []string{"train", "-data", "DIR/strid"}, 0, `"nodes":20`},
	{25, []string{"train", "-data", "DIR/snap"}, 0, `"nodes":40`},
	{26, []string{"train", "-data", "DIR/zip_r.zip"}, 0, `"nodes":30`},
	{27, []string{"train", "-data", "DIR/finder.zip"}, 0, `"nodes":30`},
	{28, []string{"train", "-data", "DIR/windows.zip"}, 0, `"nodes":30`},
	{29, []string{"train", "-data", "DIR/nested.zip"}, 0, `"nodes":30`},
	{30, []string{"train", "-data", "DIR/nested2.zip"}, 2, "twitch.zip: a zip inside a zip inside a zip: unpack it first"},
	{31, []string{"train", "-data", "DIR/two.zip"}, 2, "two.zip: holds 2 graphs (a/, b/): open one graph at a time"},
	{32, []string{"train", "-data", "DIR/dotdot.zip"}, 2, `dotdot.zip: the name "../evil.txt" leaves its folder (..): refused`},
	{33, []string{"train", "-data", "DIR/abs.zip"}, 0, `"nodes":30`},
	{34, []string{"train", "-data", "DIR/flat.zip"}, 0, `"nodes":30`},
	{35, []string{"train", "-data", "DIR/onlymac.zip"}, 2, "onlymac.zip: is empty (or holds only folders and hidden files): zip the graph's files"},
	{36, []string{"train", "-data", "DIR/readme_top"}, 0, `"nodes":30`},
	{37, []string{"train", "-data", "DIR/dup.zip"}, 2, "dup.zip: holds the name edges.csv twice, as two files"},
	{38, []string{"train", "-data", "DIR/fake.zip"}, 2, "fake.zip: is not a zip archive the explorer can read"},
	{49, []string{"train", "-data", "DIR/choose2"}, 2, "target.csv: which column is the class? name it with -target (target in a link)"},
	{57, []string{"sweep", "-scenario", "4", "-reps", "1", "-models", "gcn", "-shard", "4/3", "-out", "DIR/x"}, 2, `invalid value "4/3" for flag -shard: want i/n, the i-th of n parts, 1 ≤ i ≤ n ≤ 100000 (as 2/8)`},
	{74, []string{"table4", "-datasets", "cora", "-reps", "2", "-shard", "3/2", "-out", "DIR/x"}, 2, `invalid value "3/2" for flag -shard`},
	{75, []string{"train", "-epochs", "1", "-edits", "a0-1"}, 0, `"edges":7430`},
	{76, []string{"train", "-edits", "a0-0"}, 2, `edit 1 ("a0-0"): edge 0-0 joins a node to itself`},
	{77, []string{"train", "-edits", "a0-99999"}, 2, "node 99999 is out of range: the graph's nodes are 0 to 1499"},
	{78, []string{"train", "-epochs", "1", "-edits", "a0-1_r0-1"}, 0, `"edges":7429`},
	{79, []string{"train", "-epochs", "1", "-edits", "r0-2_a0-2"}, 0, `"edges":7429`},
	{80, []string{"train", "-epochs", "1", "-edits", hundredEdits()}, 0, `"edges":7529`},
	{81, []string{"train", "-edits", strings.TrimSuffix(strings.Repeat("a0-700_", 101), "_")}, 2, "for flag -edits: 101 edits; at most 100"},
	{82, []string{"train", "-edits", "a0-1" + strings.Repeat("0", 10000)}, 2, "for flag -edits: edit 1 ("},
	{83, []string{"train", "-data", "cora", "-epochs", "1", "-edits", "a0-1_s0-1f0~0.5"}, 0, `"edges":5279`},
	{111, []string{"train", "-data", "DIR/classes101"}, 0, `"nodes":505`},
	{112, []string{"train", "-data", "DIR/classes10k"}, 2, "labels.csv: column label: 10,000 classes; at most 1000"},
	{114, []string{"train", "-data", "DIR/one"}, 2, "labels.csv: column label: holds one value for every node: one class leaves nothing to learn"},
	{115, []string{"train", "-data", "DIR/two"}, 0, "a class of one node (class 0, class 1) is trained on and never tested"},
	{116, []string{"train", "-data", "DIR/disc"}, 0, `"nodes":100`},
	{122, []string{"gen", "-data", "DIR/tw", "-out", "DIR/tw", "-force"}, 2, "lies inside the -data folder"},
	{129, []string{"train", "-data", "DIR/ogb", "-target", "nosuch"}, 2, `-target (target in a link) "nosuch": an OGB folder has no columns to choose`},
	{130, []string{"train", "-data", "DIR/nx", "-target", strings.Repeat("x", 101)}, 2, "101 characters: at most 100"},
	{131, []string{"train", "-data", "DIR/nonexistent"}, 2, "nonexistent: cannot read the graph: missing"},
	{132, []string{"train", "-data", "DIR/unrelated"}, 2, "the files hold notes0.log, notes1.log, notes10.log, notes11.log, notes2.log, notes3.log and 6 more, which is not a graph: open a bundle"},
	{133, []string{"train", "-data", "DIR/zip_r.zip", "-per-class", "64"}, 2, "flag -per-class: graph local (your own files) does not read it"},
	{167, []string{"train", "-data", "DIR/strid"}, 0, `"nodes":20`},
	{168, []string{"train", "-data", "DIR/european"}, 0, `"nodes":40`},
	{169, []string{"train", "-data", "DIR/quoted"}, 0, `"nodes":20`},
	// UTF-16 with its byte-order mark is read as the mark says, and said (audit 2026-11-28, case 151).
	{170, []string{"train", "-data", "DIR/utf16"}, 0, "labels.txt: read as UTF-16 text, as its byte-order mark says"},
	{171, []string{"train", "-data", "DIR/wtime"}, 0, `"nodes":20`},
	{172, []string{"train", "-data", "DIR/dupw"}, 0, "edges.csv: dropped 0 self-loops and 1 pairs listed again"},
	{173, []string{"train", "-data", "DIR/gz"}, 0, `"nodes":20`},
	{174, []string{"train", "-data", "DIR/stray"}, 2, `edges.csv:21:3: column 2: "999" is not a node of labels.csv`},
	{175, []string{"train", "-data", "DIR/three"}, 2, "an edge list and a labels file are two table files, and there are 3 (edges.csv, labels.csv, readme.txt)"},
	{176, []string{"train", "-data", "DIR/ab"}, 2, "of two table files, the edge list is the one whose name says so"},
	{184, []string{"train", "-data", "DIR/negfeat"}, 2, `features.json:1:8: node "0": feature "-3" is not a whole number in [0, 1048575]`},
	{185, []string{"train", "-data", "DIR/reprow"}, 2, `target.csv:32:1: column id: node "0" was listed on line 2 already`},
	{186, []string{"train", "-data", "DIR/twotargets"}, 2, "musae_ENGB_target.csv, target.csv all end in target.csv, and a MUSAE or FEATHER folder holds one such file"},
	{188, []string{"train", "-data", "DIR/repeats"}, 2, "repeat a pair or join a node to itself: is this an edge list?"},
	{189, []string{"train", "-data", "DIR/arrjson"}, 2, "features.json:1:1: want an object of node ids to lists of feature indices"},
	{190, []string{"train", "-data", "DIR/commajson"}, 2, "features.json:1:"},
	{190, []string{"train", "-data", "DIR/cutjson"}, 2, "the file ends in the middle of its JSON (cut short?)"},
	{197, []string{"train", "-data", "DIR/npz/acm.npz"}, 2, "acm.npz: is not a .npz file the explorer can read (numpy's zip of .npy arrays)"},
	{58, []string{"sweep", "-scenario", "4", "-reps", "1", "-models", "gcn", "-epochs", "2", "-shard", " 1/3", "-out", "DIR/s58"}, 0, "scenario4, shard 1/3"},
	{63, []string{"merge", "-out", "DIR/mx", "DIR/nonexistent"}, 2, "nonexistent\": no such shard folder or file"},
	{92, []string{"train", "-model", "pdn-edgeconv", "-export", "DIR/syn_ec"}, 2, "flag -export: model pdn-edgeconv has no PyTorch Geometric counterpart to export to"},
	{113, []string{"train", "-data", "DIR/classes100"}, 0, `"nodes":300`},
	{117, []string{"train", "-data", "DIR/feat100k"}, 0, `"nodes":30`},
	{118, []string{"train", "-data", "DIR/dense100k"}, 0, `"nodes":10`},
	{123, []string{"gen", "-data", "DIR/tw", "-out", "DIR/fb"}, 2, "which pdn did not write"},
	{177, []string{"train", "-data", "DIR/graphml_repeats"}, 0, "club.graphml: dropped 0 self-loops and 2 pairs listed again"},
	{178, []string{"train", "-data", "DIR/graphml_default"}, 0, "cX (5 nodes)"},
	{180, []string{"train", "-data", "DIR/graphml_entity"}, 2, "entity.graphml:1: not well-formed XML: invalid character entity &lol2;"},
	{181, []string{"train", "-data", "DIR/graphml_typed", "-epochs", "1"}, 0, `"nodes":40`},
	{205, []string{"sweep", "-scenario", "1", "-reps", "1", "-models", "gcn", "-init-seed", "7", "-out", "DIR/w7"}, 2, "-init-seed"},
}

// hundredEdits adds the edges 0-700 … 99-799: the most a link may hold.
func hundredEdits() string {
	edits := make([]string, 100)
	for i := range edits {
		edits[i] = fmt.Sprintf("a%d-%d", i, 700+i)
	}
	return strings.Join(edits, "_")
}

// runAuditCase runs an audit's command line, its DIR/ the folder root
// holding the audit's files; train runs 2 epochs (unless it says) and
// quietly, in JSON (unless -json=false). It gives what the command says:
// its output on success, else its errors.
func runAuditCase(t *testing.T, root string, caseArgs []string) (string, int) {
	t.Helper()
	args := make([]string, len(caseArgs))
	for i, a := range caseArgs {
		args[i] = strings.ReplaceAll(a, "DIR/", root+string(filepath.Separator))
	}
	if args[0] == "train" {
		args = append(args, "-quiet")
		if !slices.Contains(args, "-json=false") {
			args = append(args, "-json")
		}
		if !slices.Contains(args, "-epochs") {
			args = append(args, "-epochs", "2")
		}
	}
	out, errOut, code := runCLI(t, args...)
	if code == 0 {
		return out, code
	}
	return errOut, code
}

// TestAuditCLI runs the audit's command-line cases.
func TestAuditCLI(t *testing.T) {
	root := t.TempDir()
	auditFiles(t, root)
	auditZips(t, root)
	for _, c := range auditCLI {
		got, code := runAuditCase(t, root, c.args)
		if code != c.code || !strings.Contains(got, c.want) {
			t.Errorf("audit case %d, pdn %s: exit %d, %s\nwant exit %d and %q", c.row, strings.Join(c.args, " "), code, strings.TrimSpace(got), c.code, c.want)
		}
	}
}

// auditRow is one case of the audit file.
type auditRow struct {
	Surface, Action, Observed, Class string
}

// TestAuditIsCovered keeps the tests in step with the audit: every case,
// the faults (crash, hang, freeze, data lost, silent, unclear) and what
// was fine or clear alike, has a test here or elsewhere, and the counts
// are the file's.
func TestAuditIsCovered(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "audit-2026-11.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []auditRow
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var r auditRow
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, r)
	}
	if len(rows) != 212 {
		t.Fatalf("%d cases, want the audit's 212", len(rows))
	}
	tested := map[int]bool{}
	for _, c := range auditCLI {
		tested[c.row] = true
	}
	for row := range auditElsewhere {
		tested[row] = true
	}
	for i, r := range rows {
		if !tested[i] {
			t.Errorf("audit case %d (%s, %s) has no test: %s", i, r.Class, r.Surface, r.Action)
		}
	}
	for row := range auditElsewhere {
		if row < 0 || row >= len(rows) {
			t.Errorf("auditElsewhere names case %d; the audit has 0 to %d", row, len(rows)-1)
		}
	}
}

// auditElsewhere names the test of each audit case tested outside
// auditCLI: the page's in the app and e2e packages, the shards' and the
// exports' where they need more than one command.
var auditElsewhere = map[int]string{
	44:  "datasets.TestFeatherRepeatsSummed (the page reads with the same readers); TestAuditCLI case 3",
	45:  "TestAuditCLI case 5 (the same reader and message)",
	52:  "datasets.TestReadGraphMLSparseAndGephi",
	54:  "datasets.TestOGBRawFilesAlone",
	56:  "datasets.TestReadPlainComments",
	59:  "TestShardsMergeIntoTheWhole",
	60:  "TestMergeRefusesIncompleteShards",
	61:  "TestMergeRefusesIncompleteShards",
	64:  "TestMergeRefusesIncompleteShards (a missing folder)",
	65:  "TestMergeRefusesIncompleteShards (not a shard file: its command is named)",
	66:  "TestMergeRefusesShardsThatDoNotMix",
	67:  "TestMergeRefusesShardsThatDoNotMix",
	69:  "TestMergeRefusesShardsThatDoNotMix",
	62:  "TestAuditMergeCases",
	68:  "TestAuditMergeCases",
	70:  "TestAuditMergeCases",
	71:  "TestAuditMergeCases",
	72:  "TestShardsMergeIntoTheWhole",
	73:  "TestAuditMergeCases",
	121: "TestTrainRealGraphs (gen from a folder trains to the folder's bits)",
	179: "datasets.TestReadGraphMLRejects",
	182: "datasets.TestReadOGBRejects",
	183: "datasets.TestReadOGBRejects",
	187: "TestOwnFormatsCLI (musae_DE_*.csv and .json)",
	199: "TestAuditMergeCases",
	200: "TestAuditMergeCases",
	203: "TestTrainExportRunsInPyG",
	204: "TestTrainExportRunsInPyG",
	91:  "TestTrainExportRunsInPyG",
	98:  "app.TestTraceAtAnEpochWithoutOne",
	105: "app.TestSweepLabSaysHowLongAndWhatCameWithTheLink",
	106: "app.TestSweepLabSaysHowLongAndWhatCameWithTheLink",
	107: "app.TestSweepLabSaysHowLongAndWhatCameWithTheLink",
	124: "TestNothingWrittenWhereItIsRead",
	125: "TestNothingWrittenWhereItIsRead",
	126: "TestMetaSaysTheSplitItHolds",
	134: "app.TestSweepLabSaysHowLongAndWhatCameWithTheLink",
	87:  "app.TestCatalogueLinks",
	89:  "app.TestCatalogueLinks",
	103: "app.TestCatalogueLinks",
	104: "app.TestCatalogueLinks",
	136: "app.TestSweepLabRendersOnceAFlush",
	141: "app.TestCatalogueLinks",
	145: "app.TestCatalogueLinks",
	196: "app.TestCatalogueLinks",
	144: "e2e.TestPrintedLabIsOnePage",
	155: "worker.TestLoadRefusesWhatTheModelCannotTrainHere",
	156: "worker.TestLoadRefusesWhatTheModelCannotTrainHere",
	157: "TestAuditCLI case 111/112 (the same reader)",
	162: "worker.TestFilesInsideAnEpochAreRead",
	165: "app.TestFilePickerFiltersNothing",
	191: "app.TestSweepLabSaysHowLongAndWhatCameWithTheLink",
	195: "worker.TestLinksColumnsThatDoNotFitAreSaid",
	198: "TestMergeRefusesShardsThatDoNotMix",
	201: "TestTrainExportRunsInPyG",
	202: "TestTrainExportRunsInPyG",
	206: "TestAuditCLI case 205: a sweep refuses -init-seed",
	208: "worker.TestSessionEditCarriesOn",
	209: "app.TestEditorNamesTheEdgeFeatures",
	211: "e2e.TestEngineSurvivesWhatItIsSent",
	41:  "e2e.TestOpenWhileTraining (a Finder zip, picked and dropped, while training)",
	42:  "e2e.TestZipLayoutsInThePage",
	46:  "e2e.TestOpenWhileTraining (the column chooser)",
	47:  "e2e.TestOpenWhileTraining (choose-column-1, kept in the link)",
	95:  "e2e.TestNodeTraceFollowsTraining",
	96:  "e2e.TestNodeTraceOfGAT",
	102: "e2e.TestSweepLabIsTheCLIsSweep",
	110: "e2e.TestSweepDotOpensTheCompareLab",
	139: "e2e.TestEmbedTwoLabs",
	140: "e2e.TestEmbedTwoLabs",
	143: "e2e.TestPrintedLabIsOnePage",
	146: "e2e.TestMessagesInThePageLanguage",
	147: "app.TestLanguageChangeKeepsTheRuns",
	148: "e2e.TestMessagesInThePageLanguage",
	153: "datasets.TestPageLimitsMetWhileReading",
	158: "TestAuditCLI cases 117 and 118 (the page reads with the same readers)",
	159: "TestAuditCLI cases 114 to 116 (the same readers)",
	160: "e2e.TestExportToPyG",
	164: "e2e.TestOpenWhileTraining (drops)",
	166: "e2e.TestExportToPyG",
	210: "app.TestLanguageChangeKeepsTheRuns",
	43:  "datasets.TestZipLayouts",
	150: "worker.TestSessionRefusesAMalformedBundle (files over the limit)",
	152: "datasets.TestZipLayouts",
	168: "datasets.TestEuropeanCSV",
	39:  "e2e.TestAuditPageCases (a MUSAE folder's three files)",
	40:  "e2e.TestAuditPageCases (a MUSAE folder's three files)",
	48:  "e2e.TestAuditPageCases (a link's target between two class columns)",
	194: "e2e.TestAuditPageCases (a link's target between two class columns)",
	50:  "e2e.TestAuditPageCases (Planetoid's raw files)",
	51:  "e2e.TestAuditPageCases (NetworkX's GraphML without numeric attributes)",
	53:  "e2e.TestAuditPageCases (an OGB folder with its split and class names)",
	55:  "e2e.TestAuditPageCases (a space-separated edge list and labels)",
	142: "e2e.TestAuditPageCases (data=local in an embed)",
	149: "e2e.TestAuditPageCases (a browser whose languages are es-ES, es)",
	161: "e2e.TestAuditPageCases (ClusterGCN asked for its PyG export)",
	109: "e2e.TestAuditPageCases (a sweep left and come back to)",
	84:  "app.TestGraphEditor; e2e.TestEditTheGraph",
	85:  "app.TestGraphEditor (99999, -1, 1.5, empty, the node itself, an edge the graph has)",
	86:  "app.TestGraphEditor (take back, a refused edit, another graph); e2e.TestEditTheGraph (remove, the link, a reload)",
	88:  "datasets.TestEditedErrors (each fault, with the range); worker.TestSessionEditRefusedOrRestarted (a link's bad edit in the page)",
	90:  "app.TestEditorNamesTheEdgeFeatures (data=cora); worker.TestSessionEditCarriesOn",
	163: "worker.TestSessionEditCarriesOn (training goes on from the epoch it reached)",
	207: "worker.TestSessionEditCarriesOn (the PyG export's link carries the edits)",
	193: "app.TestEditWhileRewoundGoesLive",
	97:  "worker.TestTraceOfAnIsolatedNodeAHubAndModelsWithout",
	99:  "worker.TestTraceOfAnIsolatedNodeAHubAndModelsWithout",
	100: "worker.TestTraceOfAnIsolatedNodeAHubAndModelsWithout",
	101: "worker.TestTraceOfAnIsolatedNodeAHubAndModelsWithout",
	108: "app.TestSweepLabResultsLinkPauseAndClear",
	135: "TestSweepGraphWithoutEdges; app.TestSweepLabResultsLinkPauseAndClear (the note under the figure)",
	119: "TestAuditMillionNodes",
	127: "TestOwnGraphsExportToPyG (a bundle: sparse features, two edge features, validation nodes; pdn-linear)",
	128: "TestOwnGraphsExportToPyG (an OGB folder with its validation split; gat)",
	137: "viz.TestQRDrawsEveryModule",
	138: "viz.TestQRDrawsEveryModule (a sweep's 280 results, 100 edits)",
	151: "datasets.TestOpenFiles (exactly the limit)",
	154: "datasets.TestPageLimitsMetWhileReading (exactly as many edges as the bound)",
	192: "app.TestShareSaysTheFilesStay",
	93:  "TestOwnGraphsExportToPyG",
	94:  "TestOwnGraphsExportToPyG",
	120: "datasets.TestCommandLineReadsPastThePagesEdges",
}

// Audit cases 124 and 125: no command writes where it reads, however the
// paths nest. gen's -data names the folder above the graph, which the
// reader descends into, and -out the graph's own folder; train -export
// names the folder the -data graph lies in. Both are refused by name and
// the files read stay byte for byte.
func TestNothingWrittenWhereItIsRead(t *testing.T) {
	root := t.TempDir()
	parent := filepath.Join(root, "parent")
	musae := writeFolder(t, filepath.Join(parent, "musae"), map[string]string{
		"target.csv": string(twitchFolder(30)["target.csv"]), "edges.csv": string(twitchFolder(30)["edges.csv"]), "features.json": string(twitchFolder(30)["features.json"]),
	})
	before, _ := os.ReadFile(filepath.Join(musae, "edges.csv"))
	_, errOut, code := runCLI(t, "gen", "-data", parent, "-out", musae, "-force")
	after, _ := os.ReadFile(filepath.Join(musae, "edges.csv"))
	if code != 2 || !strings.Contains(errOut, "flag -out") || !bytes.Equal(before, after) {
		t.Errorf("gen into the folder its -data descends into: exit %d, %s; edges.csv kept: %v", code, errOut, bytes.Equal(before, after))
	}

	run1 := filepath.Join(root, "run1")
	if _, errOut, code := runCLI(t, "train", "-data", "cora", "-epochs", "1", "-quiet", "-export", run1); code != 0 {
		t.Fatalf("the first export: exit %d: %s", code, errOut)
	}
	nodes := filepath.Join(run1, "graph", "nodes.csv")
	before, _ = os.ReadFile(nodes)
	_, errOut, code = runCLI(t, "train", "-data", filepath.Join(run1, "graph"), "-shots", "5", "-epochs", "1", "-quiet", "-export", run1)
	after, _ = os.ReadFile(nodes)
	if code != 2 || !strings.Contains(errOut, "flag -export") || !bytes.Equal(before, after) {
		t.Errorf("an export over the graph it reads: exit %d, %s; nodes.csv kept: %v", code, errOut, bytes.Equal(before, after))
	}
}

// Audit case 126: a saved graph's meta.json says the split its nodes.csv
// holds, not the one the graph was published with.
func TestMetaSaysTheSplitItHolds(t *testing.T) {
	out := filepath.Join(t.TempDir(), "gcora")
	if _, errOut, code := runCLI(t, "gen", "-data", "cora", "-shots", "5", "-out", out); code != 0 {
		t.Fatalf("gen: exit %d: %s", code, errOut)
	}
	meta, _ := os.ReadFile(filepath.Join(out, "meta.json"))
	nodes, _ := os.ReadFile(filepath.Join(out, "nodes.csv"))
	train := strings.Count(string(nodes), ",train")
	if train != 35 || !strings.Contains(string(meta), `"split": "5 labelled nodes per class drawn with seed 1: 35 train, 2673 test"`) {
		t.Errorf("%d train nodes; meta.json: %s", train, meta)
	}
}

// The audit's merge cases that take several commands: shards of a job
// with a shard of another split (68), a run taken out or moved (70), runs
// without a result (71), more shards than runs (73), one graph read from
// two mount points (199) and the JSON summary (200).
func TestAuditMergeCases(t *testing.T) {
	root := t.TempDir()
	sweep := []string{"sweep", "-scenario", "4", "-reps", "1", "-models", "gcn", "-epochs", "2"}
	shards := filepath.Join(root, "s")
	for _, part := range []string{"1/3", "2/3", "3/3"} {
		if _, errOut, code := runCLI(t, append(sweep, "-shard", part, "-out", shards)...); code != 0 {
			t.Fatal(errOut)
		}
	}
	other := filepath.Join(root, "o")
	runCLI(t, append(sweep, "-shard", "2/2", "-out", other)...)
	mixn := filepath.Join(root, "mixn")
	os.MkdirAll(mixn, 0o755)
	for _, f := range []string{shardOf(t, shards, "scenario4", 1, 3), shardOf(t, shards, "scenario4", 3, 3), shardOf(t, other, "scenario4", 2, 2)} {
		copyFile(t, f, filepath.Join(mixn, filepath.Base(f)))
	}
	_, errOut, code := runCLI(t, "merge", "-out", filepath.Join(root, "m68"), mixn)
	if code != 2 || !strings.Contains(errOut, "scenario4-") || !strings.Contains(errOut, "shard 2/2 of a job split in 3") {
		t.Errorf("68: exit %d: %s", code, errOut)
	}

	renamed := filepath.Join(root, "ren")
	os.MkdirAll(renamed, 0o755)
	for i := 1; i <= 3; i++ {
		f := shardOf(t, shards, "scenario4", i, 3)
		copyFile(t, f, filepath.Join(renamed, filepath.Base(f)))
	}
	copyFile(t, shardOf(t, shards, "scenario4", 1, 3), filepath.Join(renamed, "copy.shard-9-of-9.json"))
	_, errOut, code = runCLI(t, "merge", "-out", filepath.Join(root, "m62"), renamed)
	// The copy's name says shard 9 of 9, and it holds shard 1/3: refused
	// for its name, naming it, before it could be taken for shard 1 again.
	if code != 2 || !strings.Contains(errOut, "its name is not the one pdn gives the shard it holds, shard 1/3") || !strings.Contains(errOut, "copy.shard-9-of-9.json") {
		t.Errorf("62, a renamed copy: exit %d: %s", code, errOut)
	}

	edit := func(name string, change func(*shardFile)) string {
		dir := filepath.Join(root, name)
		os.MkdirAll(dir, 0o755)
		for i := 1; i <= 3; i++ {
			f := shardOf(t, shards, "scenario4", i, 3)
			b, _ := os.ReadFile(f)
			if i == 1 {
				var sf shardFile
				json.Unmarshal(b, &sf)
				change(&sf)
				b, _ = json.Marshal(sf)
			}
			os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o644)
		}
		return dir
	}
	_, errOut, code = runCLI(t, "merge", "-out", filepath.Join(root, "m70"), edit("less", func(f *shardFile) { f.Runs = f.Runs[1:] }))
	if code != 2 || !strings.Contains(errOut, "scenario 4: the shards hold 6 runs, the job has 7") {
		t.Errorf("70, a run taken out: exit %d: %s", code, errOut)
	}
	_, errOut, code = runCLI(t, "merge", "-out", filepath.Join(root, "m70b"), edit("moved", func(f *shardFile) { f.Runs[0].At = 999 }))
	if code != 2 || !strings.Contains(errOut, "field runs[0].at: run 999 is not one of the job's 7") {
		t.Errorf("70, a run moved: exit %d: %s", code, errOut)
	}
	out, errOut, code := runCLI(t, "merge", "-json", "-out", filepath.Join(root, "m71"), edit("null", func(f *shardFile) {
		for i := range f.Runs {
			f.Runs[i].Acc = nil
		}
	}))
	if code != 0 || !strings.Contains(out, "the others diverged, or had no edges to train on") || !strings.HasPrefix(strings.TrimSpace(out[strings.LastIndex(strings.TrimSpace(out), "\n")+1:]), "{") {
		t.Errorf("71 and 200: exit %d: %s%s", code, out, errOut)
	}

	many := filepath.Join(root, "many")
	for i := 1; i <= 20; i++ {
		if _, errOut, code := runCLI(t, append(sweep, "-shard", fmt.Sprintf("%d/20", i), "-out", many)...); code != 0 {
			t.Fatal(errOut)
		}
	}
	if _, errOut, code := runCLI(t, "merge", "-out", filepath.Join(root, "m73"), many); code != 0 {
		t.Errorf("73, more shards than runs: exit %d: %s", code, errOut)
	}

	// One graph from two mount points: its shards name it by content.
	a := writeFolder(t, filepath.Join(root, "mnt1", "b_tw"), map[string]string{"target.csv": string(twitchFolder(30)["target.csv"]), "edges.csv": string(twitchFolder(30)["edges.csv"]), "features.json": string(twitchFolder(30)["features.json"])})
	b := writeFolder(t, filepath.Join(root, "mnt2", "b_tw"), map[string]string{"target.csv": string(twitchFolder(30)["target.csv"]), "edges.csv": string(twitchFolder(30)["edges.csv"]), "features.json": string(twitchFolder(30)["features.json"])})
	t4 := filepath.Join(root, "t4")
	for i, dir := range []string{a, b} {
		if _, errOut, code := runCLI(t, "table4", "-datasets", dir, "-reps", "2", "-epochs", "2", "-models", "gcn", "-shots", "3", "-shard", fmt.Sprintf("%d/2", i+1), "-out", t4); code != 0 {
			t.Fatal(errOut)
		}
	}
	if _, errOut, code := runCLI(t, "merge", "-out", filepath.Join(root, "m199"), t4); code != 0 {
		t.Errorf("199, one graph at two mount points: exit %d: %s", code, errOut)
	}
}

// The audit's multiplex names: a bundle whose edge columns are e0,e1 is
// reported by pdn attention as e0 and e1, its files' names.
func TestAttentionNamesABundlesColumns(t *testing.T) {
	root := t.TempDir()
	bundle := filepath.Join(root, "b")
	if _, errOut, code := runCLI(t, "gen", "-per-class", "16", "-edge-features", "4", "-out", bundle); code != 0 {
		t.Fatal(errOut)
	}
	out, errOut, code := runCLI(t, "attention", "-datasets", bundle, "-reps", "1", "-epochs", "2", "-out", filepath.Join(root, "att"), "-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var sum attentionSummary
	json.Unmarshal([]byte(out[strings.LastIndex(strings.TrimSpace(out), "\n")+1:]), &sum)
	if got := sum.Graphs["b"].Inputs; !slices.Equal(got, []string{"e0", "e1", "e2", "e3"}) {
		t.Errorf("the inputs are %v, want the bundle's e0 … e3", got)
	}
}

// Audit cases 93, 94, 127 and 128: a run on one's own graph (a MUSAE
// folder with sparse features, Planetoid's raw Cora form, a bundle with
// sparse features, two edge features and validation nodes, an OGB folder
// with its validation split) exported for PyTorch Geometric gives, from
// the explorer's weights, the explorer's accuracy.
func TestOwnGraphsExportToPyG(t *testing.T) {
	python, env := pygtest.Python(t)
	root := t.TempDir()
	dirs := auditFiles(t, root)
	dirs["bundle"] = sparseValBundle(t, root)
	for _, c := range []struct{ name, model string }{{"tw", "pdn"}, {"planetoid", "gcn"}, {"bundle", "pdn-linear"}, {"ogb", "gat"}} {
		run := filepath.Join(root, "run-"+c.name)
		out, errOut, code := runCLI(t, "train", "-data", dirs[c.name], "-model", c.model, "-shots", "5", "-epochs", "20", "-quiet", "-json", "-export", run)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.name, code, errOut)
		}
		want := lastJSON(t, out)["test_accuracy"].(float64)
		res := pygtest.Run(t, python, env, filepath.Join(run, "run_pyg.py"), "--epochs", "2")
		if got, _ := res["exported_test_accuracy"].(float64); got < want-1e-4 || got > want+1e-4 {
			t.Errorf("%s: the exported weights give %v in PyG; the CLI printed %v", c.name, res["exported_test_accuracy"], want)
		}
	}
}

// sparseValBundle writes a bundle of the generator's graph whose
// features are mostly zeros (held sparse), with two edge features and a
// tenth of its nodes for validation, and returns its folder.
func sparseValBundle(t *testing.T, root string) string {
	e := experiment.Default()
	e.Data.PerClass = 40
	g, err := datasets.Synthetic(e.Data)
	if err != nil {
		t.Fatal(err)
	}
	for i := range g.X {
		if i%5 != 0 {
			g.X[i] = 0
		}
	}
	g.XS, g.X = datasets.SparseOf(g.X, g.N, g.F), nil
	for i := range g.Splits {
		if i%10 == 3 {
			g.Splits[i] = datasets.Val
		}
	}
	dir := filepath.Join(root, "bundle")
	tree, err := outdir.NewTree(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := datasets.WriteBundle(g, func(name string) (io.WriteCloser, error) { return tree.Create(name, 0o644) }); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Audit case 119: the command line has no bound of the page's: an edge
// list of 700,000 edges over 1,000,000 nodes with its labels (18 MB)
// trains, its nodes without features given their degrees. About 20 s and
// 2.2 GB; -short skips it.
func TestAuditMillionNodes(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: a million nodes take about 20 s and 2.2 GB")
	}
	dir := t.TempDir()
	var edges, labels bytes.Buffer
	edges.WriteString("source,target\n")
	for k := range 700_000 {
		a := (k * 7919) % 1_000_000
		b := (a + 1 + (k*104729)%999_999) % 1_000_000
		fmt.Fprintf(&edges, "%d,%d\n", a, b)
	}
	labels.WriteString("node,label\n")
	for i := range 1_000_000 {
		fmt.Fprintf(&labels, "%d,%d\n", i, i%3)
	}
	for name, b := range map[string][]byte{"edges.csv": edges.Bytes(), "labels.csv": labels.Bytes()} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, errOut, code := runCLI(t, "train", "-data", dir, "-model", "gcn", "-epochs", "1", "-quiet", "-json")
	if code != 0 || !strings.Contains(out, `"nodes":1000000`) || !strings.Contains(out, "each node was given its degree") {
		t.Errorf("a million nodes: exit %d, %s%s", code, out, errOut)
	}
}
