package main

import (
	"archive/zip"
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/graph/formats/dot"
	"gonum.org/v1/gonum/graph/formats/dot/ast"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n"
	"pdnexplorer/internal/numtext"
	"pdnexplorer/wasm/protocol"
)

// bundleZip is a small synthetic graph's bundle as the page saves it.
func bundleZip(t *testing.T) ([]byte, *datasets.Graph) {
	t.Helper()
	g, err := datasets.Build(small().Data)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := datasets.WriteBundleZip(&b, "mine", g); err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), g
}

func local() experiment.Experiment {
	e := small()
	e.Data.Graph = experiment.GraphLocal
	return e
}

// A bundle opened as a zip trains as data=local; a run that names the
// user's graph in a worker without it is told to open the files again.
func TestSessionLoadsTheUsersGraph(t *testing.T) {
	s, r := newTestSession()
	set(s, local())
	if ev, _ := r.last(protocol.KindError); ev.Field != "data" || !strings.Contains(ev.Error, "open them again") {
		t.Errorf("data=local without files: %+v", ev)
	}
	data, g := bundleZip(t)
	s.handle(protocol.Command{Op: protocol.OpLoad, Files: []protocol.File{{Name: "mine.zip", Data: data}}})
	ev, _ := r.last(protocol.KindLoaded)
	if !ev.Load || ev.Memory == 0 {
		t.Errorf("the answer to the files does not say it is one (load %v), or the memory reading took (%d)", ev.Load, ev.Memory)
	}
	if ev.Loaded == nil || ev.Loaded.Nodes != g.N || ev.Loaded.Edges != g.E() || ev.Loaded.EdgeFeatures != g.D || ev.Loaded.Resplit ||
		ev.Loaded.Recipe != experiment.RecipePaper { // the synthetic graph's Gaussian features keep the paper's defaults
		t.Fatalf("loaded: %+v", ev.Loaded)
	}
	set(s, local())
	gr, _ := r.last(protocol.KindGraph)
	if gr.Graph == nil || gr.Graph.Nodes != g.N || len(gr.Graph.Src) != g.E() {
		t.Fatalf("the graph event after data=local: %+v", gr.Graph)
	}
	s.handle(protocol.Command{Op: protocol.OpStart})
	drain(t, s)
	if snap, w := r.last(protocol.KindSnapshot); snap.Snap.Epoch != 30 || len(w) != g.E() {
		t.Errorf("trained the user's graph to epoch %d with %d weights", snap.Snap.Epoch, len(w))
	}
	// Its saved files carry its own name, not "local".
	s.handle(protocol.Command{Op: protocol.OpExport, Format: protocol.FormatPyG})
	if f, _ := r.last(protocol.KindFile); f.File == nil || strings.Contains(f.File.Name, "local") || !strings.HasPrefix(f.File.Name, "pdn-"+s.graphName()+"-") {
		t.Errorf("the user's graph saved as %+v (its name %q)", f.File, s.local.name)
	}
}

// A malformed file is refused with the reader's message (file, line,
// column), and the graph in use stays.
func TestSessionRefusesAMalformedBundle(t *testing.T) {
	s, r := newTestSession()
	set(s, small())
	before := s.g
	files := []protocol.File{
		{Name: "meta.json", Data: []byte(`{"name": "broken"}`)},
		{Name: "nodes.csv", Data: []byte("id,label,split,x0\n0,0,train,1\n1,zero,test,2\n")},
		{Name: "edges.csv", Data: []byte("source,target,e0\n0,1,1\n")},
	}
	s.handle(protocol.Command{Op: protocol.OpLoad, Files: files})
	ev, _ := r.last(protocol.KindError)
	if !strings.Contains(ev.Error, "nodes.csv") || !strings.Contains(ev.Error, "nodes.csv:3:3") {
		t.Errorf("a bad label: %q", ev.Error)
	}
	if s.g != before || s.local != nil {
		t.Error("a refused file changed the graph")
	}
	big := make([]byte, datasets.MaxLocalBytes+1)
	s.handle(protocol.Command{Op: protocol.OpLoad, Files: []protocol.File{{Name: "huge.csv", Data: big}}})
	if ev, _ := r.last(protocol.KindError); !strings.Contains(ev.Error, numtext.Group(datasets.MaxLocalBytes)) {
		t.Errorf("files over the limit: %q", ev.Error)
	}
	if protocol.MaxFileBytes != datasets.MaxLocalBytes {
		t.Errorf("the page's limit %d is not the reader's %d", protocol.MaxFileBytes, datasets.MaxLocalBytes)
	}
}

// The graph saves as DOT that gonum's parser reads, with a weight per
// edge, and as a bundle that reads back to the same graph.
func TestSessionExports(t *testing.T) {
	s, r := newTestSession()
	set(s, small())
	s.handle(protocol.Command{Op: protocol.OpStep})
	s.handle(protocol.Command{Op: protocol.OpExport, Format: protocol.FormatDOT})
	ev, _ := r.last(protocol.KindFile)
	if ev.File == nil || !strings.HasSuffix(ev.File.Name, ".dot") {
		t.Fatalf("DOT: %+v", ev.File)
	}
	f, err := dot.ParseBytes(ev.File.Data)
	if err != nil || len(f.Graphs) != 1 {
		t.Fatalf("gonum cannot parse the DOT: %v", err)
	}
	edges := 0
	for _, st := range f.Graphs[0].Stmts {
		if es, ok := st.(*ast.EdgeStmt); ok {
			edges++
			if !strings.Contains(es.String(), "weight=") {
				t.Fatalf("an edge without its weight: %s", es)
			}
		}
	}
	if edges != s.g.E() {
		t.Errorf("DOT holds %d edges, the graph %d", edges, s.g.E())
	}
	s.handle(protocol.Command{Op: protocol.OpExport, Format: protocol.FormatBundle})
	ev, _ = r.last(protocol.KindFile)
	zr, err := zip.NewReader(bytes.NewReader(ev.File.Data), int64(len(ev.File.Data)))
	if err != nil {
		t.Fatal(err)
	}
	back, _, err := datasets.OpenFiles([]datasets.File{{Name: ev.File.Name, Data: ev.File.Data}}, datasets.Columns{})
	if err != nil || back.N != s.g.N || back.E() != s.g.E() || len(zr.File) != 3 {
		t.Errorf("the bundle reads back as %v (%d files): %v", back, len(zr.File), err)
	}
	s.handle(protocol.Command{Op: protocol.OpExport, Format: protocol.FormatPyG})
	ev, _ = r.last(protocol.KindFile)
	if want := "pdn-" + s.graphName() + "-" + s.exp.Model.Kind + "-pyg.zip"; ev.File.Name != want || strings.Contains(ev.File.Name, "local") {
		t.Fatalf("PyG export: %q, want %q (the graph's own name and the model)", ev.File.Name, want)
	}
	if zr, err := zip.NewReader(bytes.NewReader(ev.File.Data), int64(len(ev.File.Data))); err != nil || zr.File[0].Modified.Year() < 2020 {
		t.Errorf("the export's entries are dated %v: %v", zr.File[0].Modified, err)
	}
	back, _, err = datasets.OpenFiles([]datasets.File{{Name: ev.File.Name, Data: ev.File.Data}}, datasets.Columns{})
	if err != nil || back.N != s.g.N || back.E() != s.g.E() {
		t.Errorf("the export's graph reads back as %v: %v", back, err)
	}
	s.handle(protocol.Command{Op: protocol.OpExport, Format: "png"})
	if ev, _ := r.last(protocol.KindError); !strings.Contains(ev.Error, "png") {
		t.Errorf("an unknown format: %q", ev.Error)
	}
}

// A graph the model as set cannot train in a browser is refused when it is
// opened, with the graph's own sizes named (no generator row applies to
// it), not said to have opened and then refused at Play while the lab
// still trains the graph before it.
func TestLoadRefusesWhatTheModelCannotTrainHere(t *testing.T) {
	s, r := newTestSession()
	e := small()
	e.Model.EdgeHidden = []int{256, 256, 256}
	e.Model.Hidden = 1024
	set(s, e)
	drain(t, s)
	big := small()
	big.Data.PerClass = 1024
	big.Data.P = 0.02
	g, err := datasets.Build(big.Data)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := datasets.WriteBundleZip(&b, "mine", g); err != nil {
		t.Fatal(err)
	}
	r.events = nil
	s.handle(protocol.Command{Op: protocol.OpLoad, Files: []protocol.File{{Name: "mine.zip", Data: b.Bytes()}}})
	if strings.Contains(r.kinds(), protocol.KindLoaded) {
		t.Fatalf("a graph too large for the model here was said to open: %s", r.kinds())
	}
	ev, _ := r.last(protocol.KindError)
	if !ev.Load || !strings.Contains(ev.Error, "Your graph was not opened") || !strings.Contains(ev.Error, "the browser") ||
		strings.Contains(ev.Error, "per-class") || strings.Contains(ev.Error, " q ") {
		t.Errorf("the refusal: %q", ev.Error)
	}
	if s.local != nil {
		t.Error("the refused graph was kept")
	}
}

// A graph refused for what it costs says what its reader noted of it: a
// features.json whose one index of 1,048,575 makes every node's features
// that wide is refused with the note that says so, not with the cost alone.
func TestLoadRefusalSaysTheReadersNotes(t *testing.T) {
	s, r := newTestSession()
	set(s, small())
	drain(t, s)
	var target, edges strings.Builder
	target.WriteString("id,page_type\n")
	edges.WriteString("id_1,id_2\n")
	for i := range 400 {
		fmt.Fprintf(&target, "%d,%c\n", i, 'a'+i%2)
		fmt.Fprintf(&edges, "%d,%d\n", i, (i+1)%400)
	}
	files := []protocol.File{
		{Name: "target.csv", Data: []byte(target.String())},
		{Name: "edges.csv", Data: []byte(edges.String())},
		{Name: "features.json", Data: []byte(`{"0": [1], "1": [1048575], "2": [2]}`)},
	}
	r.events = nil
	s.handle(protocol.Command{Op: protocol.OpLoad, Files: files})
	ev, _ := r.last(protocol.KindError)
	if !ev.Load || !strings.Contains(ev.Error, "the browser allows") || !strings.Contains(ev.Error, "What the reader noted of the files: the node features are 1,048,576 columns wide, but only 3") {
		t.Errorf("the refusal: %q", ev.Error)
	}
	// Each part is a message of the catalogues, the cost model's too, so
	// the page says the whole refusal in its language.
	if ev.Say == nil {
		t.Fatal("the refusal has no message to say")
	}
	for _, line := range strings.Split(ev.Say.In(func(key string) string { return i18n.T("es", key) }), "\n") {
		if strings.Contains(line, "per epoch") || strings.Contains(line, "What the reader") || strings.Contains(line, "not opened") {
			t.Errorf("a part of the refusal is left in English: %q", line)
		}
	}
}

// Audit case 195: a link's id-column that does not fit the files opened
// (Twitch's own ids, not the new_id its edges use) does not keep them from
// opening: they are read with the columns the reader finds, and a note
// says why; the page's state takes the columns the answer names.
func TestLinksColumnsThatDoNotFitAreSaid(t *testing.T) {
	s, r := newTestSession()
	files := []protocol.File{
		{Name: "target.csv", Data: []byte("id,mature,new_id\n900,True,1\n901,False,0\n902,True,3\n903,False,2\n")},
		{Name: "edges.csv", Data: []byte("from,to\n0,1\n1,2\n2,3\n")},
		{Name: "features.json", Data: []byte(`{"0": [1], "1": [0], "2": [1], "3": [0]}`)},
	}
	s.handle(protocol.Command{Op: protocol.OpLoad, Files: files, IDColumn: "id"})
	ev, _ := r.last(protocol.KindLoaded)
	if ev.Loaded == nil || ev.Loaded.IDColumn != "" {
		t.Fatalf("the files did not open: %s", r.kinds())
	}
	said := false
	for _, n := range ev.Loaded.Notes {
		said = said || strings.Contains(n.String(), "the link's columns (id-column=id) did not fit these files")
	}
	if !said {
		t.Errorf("notes %v", ev.Loaded.Notes)
	}
	// Audit case 181: a link's bins on files whose class column holds
	// names, not numbers, is said and dropped as id-column is.
	s.handle(protocol.Command{Op: protocol.OpLoad, Files: files, Bins: 5})
	ev, _ = r.last(protocol.KindLoaded)
	if ev.Loaded == nil || ev.Loaded.Bins != 0 || ev.Loaded.Classes != 2 {
		t.Fatalf("bins=5 kept the class-labelled files from opening: %s", r.kinds())
	}
	said = false
	for _, n := range ev.Loaded.Notes {
		said = said || strings.Contains(n.String(), "the link's columns (bins=5) did not fit these files (target.csv:2: column mature: holds")
	}
	if !said {
		t.Errorf("notes %v", ev.Loaded.Notes)
	}
	// Files that fail without the link's columns too are refused with both
	// errors: the columns', and the files' own.
	broken := slices.Clone(files)
	broken[1] = protocol.File{Name: "edges.csv", Data: []byte("from,to\n0,1\n1,zz\n")}
	r.events = nil
	s.handle(protocol.Command{Op: protocol.OpLoad, Files: broken, Bins: 5})
	if ev, _ := r.last(protocol.KindError); !ev.Load || !strings.Contains(ev.Error, "bins=5 cuts") || !strings.Contains(ev.Error, "without the link's columns (bins=5): edges.csv:3") {
		t.Errorf("broken files with bins=5: %+v", ev)
	}
	// A link's target the files lack, in files that leave the class open:
	// the chooser asks, as it would without the link.
	files[0].Data = []byte("id,form,hue\n0,round,red\n1,square,blue\n2,round,blue\n3,square,red\n")
	s.handle(protocol.Command{Op: protocol.OpLoad, Files: files, Target: "colour"})
	if ev, _ := r.last(protocol.KindError); !ev.Load || ev.Columns == nil {
		t.Errorf("a link's target the files lack: %+v", ev)
	}
}

// Files are read by one worker; the others take the graph it read
// (protocol.Command.Parsed) and train on the same bits as the reader: a
// saved bundle, and a MUSAE folder that comes without a split (each worker
// draws the same one from shots and seed) and with a note.
func TestHandedGraphTrainsOnTheSameBits(t *testing.T) {
	zipped, _ := bundleZip(t)
	musae, _ := datasets.Build(small().Data)
	var edges, target, feats strings.Builder
	edges.WriteString("id_1,id_2\n")
	for e := range musae.Src {
		fmt.Fprintf(&edges, "%d,%d\n", musae.Src[e], musae.Dst[e])
	}
	target.WriteString("id,target\n")
	feats.WriteString("{")
	for i := range musae.N {
		fmt.Fprintf(&target, "%d,%d\n", i, musae.Labels[i])
		if i > 0 {
			feats.WriteString(",")
		}
		fmt.Fprintf(&feats, `"%d": [%d, %d]`, i, i%7, 7+i%5)
	}
	feats.WriteString("}")
	fmt.Fprintf(&edges, "%d,%d\n", musae.Dst[0], musae.Src[0]) // a repeat, kept once, with a note
	for name, files := range map[string][]protocol.File{
		"a bundle": {{Name: "mine.zip", Data: zipped}},
		"a MUSAE folder": {{Name: "musae_edges.csv", Data: []byte(edges.String())},
			{Name: "musae_target.csv", Data: []byte(target.String())}, {Name: "musae_features.json", Data: []byte(feats.String())}},
	} {
		reader, rr := newTestSession()
		reader.handle(protocol.Command{Op: protocol.OpLoad, Files: files})
		read, _ := rr.last(protocol.KindLoaded)
		if read.Loaded == nil || read.Parsed == nil {
			t.Fatalf("%s: the reader's answer has no graph to hand on: %s", name, rr.kinds())
		}
		if musaeFolder := strings.HasPrefix(name, "a MUSAE"); musaeFolder && (!read.Loaded.Resplit || len(read.Loaded.Notes) == 0) {
			t.Errorf("%s: read without its drawn split or its note: %+v", name, read.Loaded)
		}
		other, ro := newTestSession()
		other.handle(protocol.Command{Op: protocol.OpLoad, Files: files, Parsed: read.Parsed})
		took, _ := ro.last(protocol.KindLoaded)
		if took.Loaded == nil || took.Parsed != nil || !reflect.DeepEqual(took.Loaded, read.Loaded) {
			t.Fatalf("%s: the graph handed on is told as %+v, the one read as %+v", name, took.Loaded, read.Loaded)
		}
		if other.local.g.Digest() != reader.local.g.Digest() {
			t.Errorf("%s: the graph handed on has another digest", name)
		}
		var weights [2][]float32
		var acc [2]protocol.Num
		for i, w := range []*session{reader, other} {
			r := []*recorder{rr, ro}[i]
			set(w, local())
			w.handle(protocol.Command{Op: protocol.OpStart})
			drain(t, w)
			snap, f32 := r.last(protocol.KindSnapshot)
			weights[i], acc[i] = f32, snap.Snap.TestAcc
		}
		if len(weights[0]) == 0 || !reflect.DeepEqual(weights[0], weights[1]) || acc[0] != acc[1] {
			t.Errorf("%s: the reader and the worker it handed the graph to trained apart: test accuracy %v and %v", name, acc[0], acc[1])
		}
	}
	// A damaged hand-off is refused and loses nothing.
	s, r := newTestSession()
	s.handle(protocol.Command{Op: protocol.OpLoad, Files: []protocol.File{{Name: "mine.zip", Data: zipped}}, Parsed: []byte("not a graph")})
	if ev, _ := r.last(protocol.KindError); !ev.Load || !strings.Contains(ev.Error, "came damaged") || s.local != nil {
		t.Errorf("a damaged hand-off: %+v", ev)
	}
}

// A graph whose format names none is named by what the user opened: the
// folder picked, else the file (a zip with its extension).
func TestGraphsAreNamedByWhatWasOpened(t *testing.T) {
	for _, c := range []struct {
		files []datasets.File
		want  string
	}{
		{[]datasets.File{{Name: "musae_facebook/edges.csv"}, {Name: "musae_facebook/target.csv"}}, "musae_facebook"},
		{[]datasets.File{{Name: "ogbn_tiny.zip"}}, "ogbn_tiny.zip"},
		{[]datasets.File{{Name: "edges.csv"}, {Name: "labels.csv"}}, "edges.csv"},
	} {
		if got := nameOfFiles(c.files); got != c.want {
			t.Errorf("%v named %q, want %q", c.files[0].Name, got, c.want)
		}
	}
}

// The graph handed to the other workers comes back whole: its name, the
// columns it was read with (a file's bytes, UTF-8 or not), whether it
// draws its split, and the graph itself; a damaged handoff is refused with
// the page's words, never read as a graph.
func TestHandoffComesBackWhole(t *testing.T) {
	_, g := bundleZip(t)
	for _, l := range []*localGraph{
		{g: g, name: "mine", resplit: true, cols: datasets.Columns{ID: "node\xff", Target: "page_type", Bins: 5}},
		{g: g},
	} {
		b, err := l.handoff()
		if err != nil {
			t.Fatal(err)
		}
		back, err := handedLocal(b, nil)
		if err != nil {
			t.Fatal(err)
		}
		if back.name != l.name || back.resplit != l.resplit || back.cols != l.cols || back.g.Digest() != l.g.Digest() || !reflect.DeepEqual(back.g, l.g) {
			t.Errorf("handed %q %v %+v, took %q %v %+v (the same graph: %v)", l.name, l.resplit, l.cols, back.name, back.resplit, back.cols, reflect.DeepEqual(back.g, l.g))
		}
		for _, cut := range []int{0, 1, 4, len(b) / 2, len(b) - 1} {
			if _, err := handedLocal(b[:cut], nil); err == nil || !strings.Contains(err.Error(), "open the files again") {
				t.Errorf("the handoff cut at %d of %d bytes: %v", cut, len(b), err)
			}
		}
	}
}
