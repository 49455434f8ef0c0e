package datasets

import (
	"archive/zip"
	"bytes"
	"errors"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"pdnexplorer/experiment"
)

// FuzzReadBundle reads any three files as a bundle. It must never panic;
// what it refuses it refuses with a one-line message that names the file;
// what it accepts is a consistent graph whose classes are its labels'.
func FuzzReadBundle(f *testing.F) {
	f.Add(`{"name": "tiny", "classes": 2}`,
		"id,label,split,x0,x1\n0,0,train,1,2\n1,1,test,3,4\n2,1,val,5,6\n",
		"source,target,kind,e0\n0,1,inter,0.5\n1,2,intra,1.5\n")
	for _, tc := range badBundles {
		files := map[string]string{
			"meta.json": `{"name": "tiny", "classes": 2}`,
			"nodes.csv": "id,label,split,x0,x1\n0,0,train,1,2\n1,1,test,3,4\n2,1,val,5,6\n",
			"edges.csv": "source,target,kind,e0\n0,1,inter,0.5\n1,2,intra,1.5\n",
		}
		files[tc.file] = tc.body
		f.Add(files["meta.json"], files["nodes.csv"], files["edges.csv"])
	}
	f.Fuzz(func(t *testing.T, meta, nodes, edges string) {
		fsys := fstest.MapFS{
			"meta.json": {Data: []byte(meta)},
			"nodes.csv": {Data: []byte(nodes)},
			"edges.csv": {Data: []byte(edges)},
		}
		g, err := ReadBundleFS(fsys)
		if err != nil {
			msg := err.Error()
			var be *BundleError
			if strings.Contains(msg, "\n") {
				t.Fatalf("a message over several lines: %q", msg)
			}
			if !errors.As(err, &be) && !strings.HasPrefix(msg, "graph: ") {
				t.Fatalf("an error that names no file: %q", msg)
			}
			return
		}
		if err := g.Check(); err != nil {
			t.Fatalf("accepted an inconsistent graph: %v", err)
		}
		top := 0
		for _, l := range g.Labels {
			top = max(top, l)
		}
		if g.C != top+1 || g.C > MaxClasses {
			t.Fatalf("C = %d for labels up to %d", g.C, top)
		}
	})
}

// FuzzReadFeatures reads any meta.json and features.csv beside three
// nodes without x columns: never a panic, a one-line message naming a file,
// or consistent sparse features.
func FuzzReadFeatures(f *testing.F) {
	f.Add(`{"name": "s"}`, "node,feature\n2,0\n0,3\n0,1\n")
	for _, tc := range badFeatures {
		meta := tc.meta
		if meta == "" {
			meta = `{"name": "s"}`
		}
		f.Add(meta, tc.features)
	}
	f.Fuzz(func(t *testing.T, meta, features string) {
		fsys := fstest.MapFS{
			"meta.json":    {Data: []byte(meta)},
			"nodes.csv":    {Data: []byte(sparseNodes)},
			"edges.csv":    {Data: []byte("source,target\n0,1\n1,2\n")},
			"features.csv": {Data: []byte(features)},
		}
		g, err := ReadBundleFS(fsys)
		if err != nil {
			var be *BundleError
			if msg := err.Error(); strings.Contains(msg, "\n") || !errors.As(err, &be) && !strings.HasPrefix(msg, "graph: ") {
				t.Fatalf("message %q", msg)
			}
			return
		}
		if err := g.Check(); err != nil || g.XS == nil || g.F < 1 || g.F > MaxFeatures {
			t.Fatalf("accepted F = %d, %v", g.F, err)
		}
	})
}

// FuzzReadMUSAE reads any three files as a MUSAE folder: never a panic, a
// one-line message naming a file, or a consistent graph.
func FuzzReadMUSAE(f *testing.F) {
	f.Add(tinyMUSAE["target.csv"], tinyMUSAE["edges.csv"], tinyMUSAE["features.json"], uint8(0))
	f.Add("id,target\n0,120\n1,7\n2,7\n3,4005\n4,88\n5,88\n", tinyMUSAE["edges.csv"], tinyMUSAE["features.json"], uint8(3))
	for _, tc := range badMUSAE {
		files := map[string]string{}
		for k, v := range tinyMUSAE {
			files[k] = v
		}
		files[tc.file] = tc.body
		f.Add(files["target.csv"], files["edges.csv"], files["features.json"], uint8(0))
	}
	// bins, the row's 0 to 20: a measured target cut into classes.
	f.Fuzz(func(t *testing.T, target, edges, features string, bins uint8) {
		g, err := ReadMUSAEFS(fstest.MapFS{
			"target.csv":    {Data: []byte(target)},
			"edges.csv":     {Data: []byte(edges)},
			"features.json": {Data: []byte(features)},
		}, Columns{Bins: int(bins % 21)})
		if err != nil {
			if msg := err.Error(); strings.Contains(msg, "\n") || !namesAFile(err) {
				t.Fatalf("message %q", msg)
			}
			return
		}
		if err := g.Check(); err != nil || g.F > 0 && g.XS == nil || g.C > MaxClasses {
			t.Fatalf("accepted an inconsistent graph: %v", err)
		}
	})
}

// FuzzOpenFiles opens any bytes as a zip archive the user dropped: no
// panic, no allocation beyond the limit; a refusal is one line; what opens
// is a consistent graph with edge features and a kind per edge.
func FuzzOpenFiles(f *testing.F) {
	var ok bytes.Buffer
	d := experiment.Default().Data
	d.PerClass, d.P, d.NodeFeatures, d.EdgeFeatures = 16, 0.0625, 4, 4
	g, err := Build(d)
	if err != nil {
		f.Fatal(err)
	}
	if err := WriteBundleZip(&ok, "tiny", g); err != nil {
		f.Fatal(err)
	}
	f.Add(ok.Bytes())
	var musae bytes.Buffer
	zw := zip.NewWriter(&musae)
	for name, body := range tinyMUSAE {
		w, _ := zw.Create(name)
		w.Write([]byte(body))
	}
	zw.Close()
	f.Add(musae.Bytes())
	f.Add([]byte("PK\x03\x04 not really"))
	// OGB's gzip members, one of them inflating a thousandfold; its raw/
	// files alone; SNAP's commented edge lists; FEATHER's repeated pairs.
	ogb := map[string]string{}
	for k, v := range tinyOGB(f) {
		ogb["ogb/"+k] = v
	}
	f.Add(zipOf(f, ogb))
	ogb["ogb/raw/node-feat.csv.gz"] = gz(strings.Repeat("0,0,0,0,0,0,0,0\n", 1<<14))
	f.Add(zipOf(f, ogb))
	flat := map[string]string{}
	for k, v := range tinyOGB(f) {
		if after, ok := strings.CutPrefix(k, "raw/"); ok {
			flat[after] = v
		}
	}
	f.Add(zipOf(f, flat))
	f.Add(zipOf(f, map[string]string{"g-edges.txt": "# SNAP\n# FromNodeId\tToNodeId\n0\t1\n1\t2\n2\t3\n", "g-labels.txt": "# labels\n0\ta\n1\tb\n2\ta\n3\tb\n"}))
	f.Add(zipOf(f, map[string]string{"edges.csv": "node_1,node_2\n0,1\n1,2\n", "target.csv": "id,target\n0,0\n1,1\n2,0\n", "features.csv": "node_id,feature_id,value\n0,3,1\n0,3,1\n2,1,0.5\n"}))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, _, err := OpenFiles([]File{{Name: "dropped.zip", Data: data}}, Columns{})
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("message %q", err)
			}
			return
		}
		if err := g.Check(); err != nil || g.D == 0 || len(g.Kind) != g.E() {
			t.Fatalf("opened an inconsistent graph: %v", err)
		}
	})
}

// FuzzEdited applies any edit list to a small graph. It must never panic;
// a list it refuses is refused with one line naming the edits; a list it
// applies makes a consistent graph, the same when written as the page
// writes it, without touching the one given.
func FuzzEdited(f *testing.F) {
	d := experiment.Default().Data
	d.PerClass, d.P, d.Q, d.EdgeFeatures = 16, 1.0/16, 1.0/32, 4
	g, err := Build(d)
	if err != nil {
		f.Fatal(err)
	}
	u, v := g.Src[0], g.Dst[0]
	for _, s := range []string{"", "a0-47", "r0-1", "a0-47_r47-0", "s1-2f0~0.5", "s1-2c3-4", "a1-2c" + itoa(int(u)) + "-" + itoa(int(v)),
		"r" + itoa(int(u)) + "-" + itoa(int(v)), "s" + itoa(int(v)) + "-" + itoa(int(u)) + "f3~-0.25", "x", "a1-1", "a01-2", "s1-2f9~1e999"} {
		f.Add(s)
	}
	src, edgeX := append([]int32(nil), g.Src...), append([]float64(nil), g.EdgeX...)
	f.Fuzz(func(t *testing.T, text string) {
		h, err := edited(g, text)
		if err != nil {
			if msg := err.Error(); !strings.HasPrefix(msg, "edits: ") || strings.Contains(msg, "\n") {
				t.Fatalf("edited(%q): %q", text, msg)
			}
			return
		}
		// The list as the page writes it makes the same graph.
		es, _ := experiment.ParseEdits(text)
		again, err := edited(g, es.String())
		if err != nil || !slices.Equal(again.Src, h.Src) || !slices.Equal(again.Dst, h.Dst) || !slices.Equal(again.EdgeX, h.EdgeX) {
			t.Fatalf("%q written as %q makes another graph (%v)", text, es.String(), err)
		}
		if err := h.Check(); err != nil {
			t.Fatalf("edited(%q) made an inconsistent graph: %v", text, err)
		}
		if !slices.Equal(g.Src, src) || !slices.Equal(g.EdgeX, edgeX) {
			t.Fatalf("edited(%q) changed the graph it was given", text)
		}
	})
}

// fuzzReader checks what a reader made of fuzzed files: a one-line
// message naming a file, or a consistent graph.
func fuzzReader(t *testing.T, g *Graph, err error) {
	if err != nil {
		if msg := err.Error(); strings.Contains(msg, "\n") || !namesAFile(err) {
			t.Fatalf("message %q", msg)
		}
		return
	}
	if err := g.Check(); err != nil || g.C > MaxClasses || g.F < 1 || g.D < 1 || len(g.Kind) != g.E() {
		t.Fatalf("accepted an inconsistent graph (F %d, D %d): %v", g.F, g.D, err)
	}
	for _, vs := range [][]float64{g.FeatureValues(), g.EdgeX} {
		for _, v := range vs {
			if math.IsInf(v, 0) || math.IsNaN(v) {
				t.Fatalf("accepted a feature %v", v)
			}
		}
	}
}

// FuzzReadOGB reads any edges, labels and node features as an OGB folder.
func FuzzReadOGB(f *testing.F) {
	ok := tinyOGB(f)
	f.Add("0,1\n1,0\n1,2\n3,4\n2,4\n", "0\n1\n2\n1\n0\n", "0.1,0.2\n0.3,0.4\n0.5,0.6\n0.7,0.8\n0.9,1.0\n")
	for _, tc := range badOGB {
		f.Add(tc.body, "0\n1\n2\n1\n0\n", "1\n2\n3\n4\n5\n")
	}
	f.Fuzz(func(t *testing.T, edges, labels, feat string) {
		files := map[string]string{}
		for k, v := range ok {
			files[k] = v
		}
		files["raw/edge.csv.gz"], files["raw/node-label.csv.gz"], files["raw/node-feat.csv.gz"] = gz(edges), gz(labels), gz(feat)
		delete(files, "raw/edge-feat.csv.gz")
		g, _, err := Open(mapFS(files), Columns{})
		fuzzReader(t, g, err)
	})
}

// FuzzReadGraphML reads any text as a GraphML file.
func FuzzReadGraphML(f *testing.F) {
	f.Add(tinyGraphML)
	for _, tc := range badGraphML {
		f.Add(tc.body)
	}
	f.Fuzz(func(t *testing.T, body string) {
		g, _, err := Open(mapFS(map[string]string{"g.graphml": body}), Columns{})
		fuzzReader(t, g, err)
	})
}

// FuzzReadGEXF reads any text as a GEXF file.
func FuzzReadGEXF(f *testing.F) {
	f.Add(tinyGEXF)
	for _, tc := range badGEXF {
		f.Add(tc.body)
	}
	f.Fuzz(func(t *testing.T, body string) {
		g, _, err := Open(mapFS(map[string]string{"g.gexf": body}), Columns{})
		fuzzReader(t, g, err)
	})
}

// FuzzReadNodeLink reads any text as node-link JSON.
func FuzzReadNodeLink(f *testing.F) {
	f.Add(tinyNodeLink)
	f.Add(`{"nodes": [{"group": "a"}, {"group": "b"}, {"group": "a"}], "links": [{"source": 0, "target": 1}]}`)
	for _, tc := range badNodeLink {
		f.Add(tc.body)
	}
	f.Fuzz(func(t *testing.T, body string) {
		g, _, err := Open(mapFS(map[string]string{"g.json": body}), Columns{})
		fuzzReader(t, g, err)
	})
}

// FuzzReadPlain reads any labels file and edge list as a plain graph.
func FuzzReadPlain(f *testing.F) {
	f.Add("node,group,size\nx,red,1\ny,blue,2\nz,red,3\nw,blue,4\n", "from\tto\tweight\nx\ty\t0.5\ny\tz\t2\n")
	f.Add("1 0 a\n2 1 b\n3 0 a\n4 1 b\n", "1 2\n2 3\n")
	f.Add("id;label\n0;\"a\"\n1;b\n", "0;1\n")
	f.Add("# labels\n# id class\n1 a\n2 b\n% konect\n3 a\n", "# edges\n1 2\n2 3\n")
	f.Add("id,label\n"+strings.Repeat("0,1\n", 3), "#c\n0,0\n")
	f.Fuzz(func(t *testing.T, labels, edges string) {
		g, _, err := Open(mapFS(map[string]string{"labels.csv": labels, "edges.csv": edges}), Columns{})
		fuzzReader(t, g, err)
	})
}

// FuzzReadFeather reads any features.csv of a karate club FEATHER folder,
// whose published files repeat (node, feature) pairs (summed).
func FuzzReadFeather(f *testing.F) {
	f.Add("node_id,feature_id,value\n0,3,1\n1,0,1\n0,3,1\n2,1,0.5\n2,1,0.25\n")
	f.Add("node_id,feature_id\n0,1\n0,1\n1,2\n")
	f.Add("node_id,feature_id,value\n0,1048575,1e308\n0,1048575,1e308\n")
	f.Fuzz(func(t *testing.T, features string) {
		g, _, err := Open(mapFS(map[string]string{
			"edges.csv":    "node_1,node_2\n0,1\n1,2\n2,0\n",
			"target.csv":   "id,target\n0,0\n1,1\n2,0\n",
			"features.csv": features,
		}), Columns{})
		fuzzReader(t, g, err)
	})
}

// UnmarshalBinary, which reads the graph a worker hands to the others,
// never panics, and what it accepts fits its sizes and writes back to the
// same bytes.
func FuzzUnmarshalBinary(f *testing.F) {
	g, err := Synthetic(defaultData())
	if err != nil {
		f.Fatal(err)
	}
	good, err := g.MarshalBinary()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:len(good)/3])
	f.Add([]byte(binaryMagic))
	f.Fuzz(func(t *testing.T, b []byte) {
		var h Graph
		if h.UnmarshalBinary(b) != nil {
			return
		}
		if err := h.checkShape(); err != nil {
			t.Fatalf("accepted a graph that does not fit its sizes: %v", err)
		}
		if _, err := h.MarshalBinary(); err != nil {
			t.Fatalf("an accepted graph does not write back: %v", err)
		}
	})
}

// FuzzPerturbed shakes a small graph in any way at any rate and seed: no
// panic; a refusal is one line naming the row; what it makes is a
// consistent graph, the same for the same seed, the graph given untouched.
func FuzzPerturbed(f *testing.F) {
	d := experiment.Default().Data
	d.PerClass, d.P, d.Q, d.NodeFeatures, d.EdgeFeatures = 16, 0.0625, 0.03, 4, 4
	g, err := Build(d)
	if err != nil {
		f.Fatal(err)
	}
	digest := g.Digest()
	for _, p := range experiment.Perturbations {
		f.Add(p.Name, 0.5, uint64(1))
	}
	f.Add(experiment.PerturbAddInter, 1.0, uint64(7))
	f.Add("shuffle", 0.5, uint64(1))
	f.Fuzz(func(t *testing.T, how string, rate float64, seed uint64) {
		p, err := perturbed(g, how, rate, seed)
		if err != nil {
			if msg := err.Error(); strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "perturb") {
				t.Fatalf("message %q", msg)
			}
			return
		}
		if err := p.Check(); err != nil || len(p.Kind) != p.E() {
			t.Fatalf("an inconsistent graph: %v", err)
		}
		if again, _ := perturbed(g, how, rate, seed); again.Digest() != p.Digest() {
			t.Fatal("two draws of one seed differ")
		}
		if g.Digest() != digest {
			t.Fatal("the graph given changed")
		}
	})
}

// FuzzReadNPZ reads any bytes as a .npz file: bytes that open as a zip
// does (PK) are the file; others are one of its arrays' .npy (the key-th
// of a good file's, its zip then made around them, so that its checksums
// hold and the reader reads what the fuzzer wrote).
func FuzzReadNPZ(f *testing.F) {
	base := tinyNPZArrays()
	f.Add([]byte(npzOf(f, base)), uint8(0))
	for i, a := range base {
		f.Add(a.npyBytes(), uint8(i))
	}
	for _, tc := range badNPZ() {
		f.Add([]byte(tc.body), uint8(0))
	}
	if b, err := os.ReadFile("testdata/npz/karate.npz"); err == nil {
		f.Add(b, uint8(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, key uint8) {
		body := string(data)
		if !bytes.HasPrefix(data, []byte("PK")) {
			arrays := slices.Clone(base)
			arrays[int(key)%len(arrays)].raw = data
			body = npzOf(t, arrays)
		}
		g, _, err := Open(mapFS(map[string]string{"g.npz": body}), Columns{})
		fuzzReader(t, g, err)
	})
}

// FuzzReadMatrixMarket reads any text as a Matrix Market file, and any
// labels file beside it.
func FuzzReadMatrixMarket(f *testing.F) {
	labels := "1,a\n2,b\n3,a\n4,b\n5,a\n"
	f.Add(tinyMTX, labels)
	f.Add("%%MatrixMarket matrix array real symmetric\n3 3\n0\n1\n0\n0\n2.5\n0\n", "a\nb\na\n")
	f.Add("%%MatrixMarket matrix coordinate integer skew-symmetric\n5 5 2\n2 1 4\n5 3 -1\n", "node label\n1 a\n3 b\n4 a\n")
	for _, tc := range badMTX {
		f.Add(tc.mtx, labels)
	}
	f.Fuzz(func(t *testing.T, mtx, labels string) {
		g, _, err := Open(mapFS(map[string]string{"g.mtx": mtx, "g.node_labels": labels}), Columns{})
		fuzzReader(t, g, err)
	})
}
