package main

import (
	"archive/zip"
	"bytes"
	"slices"
	"strings"
	"testing"

	"pdnexplorer/experiment"
	"pdnexplorer/wasm/protocol"
)

// The page cases of the audit of 28 November 2026 that the worker answers
// (cmd/pdn's audit1128Tests names every case's test).

// zipNamed is a zip of files under the names given, in that order.
func zipNamed(t *testing.T, names []string, files map[string][]byte) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, n := range names {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: n, Method: zip.Deflate})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(files[n])
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// Audit case 25: Open files… with a Finder zip (__MACOSX, ._ files,
// .DS_Store), then a Windows zip (backslashed names, Thumbs.db,
// desktop.ini), then a zip holding the first zip, one after another in
// one page: each opens as the graph it holds.
func TestAudit1128ZipsOpenInTurn(t *testing.T) {
	graph := fileGraph(60, abc)
	zipUnder := func(prefix string, extra map[string][]byte) []byte {
		files := map[string][]byte{}
		for k, v := range graph {
			files[prefix+k] = v
		}
		for k, v := range extra {
			files[k] = v
		}
		names := make([]string, 0, len(files))
		for k := range files {
			names = append(names, k)
		}
		slices.Sort(names)
		return zipNamed(t, names, files)
	}
	finder := zipUnder("twitch/", map[string][]byte{"__MACOSX/twitch/._edges.csv": {0, 5, 22, 7}, "twitch/.DS_Store": {0}, "__MACOSX/._twitch": {0}})
	windows := zipUnder(`twitch\`, map[string][]byte{`twitch\Thumbs.db`: []byte("x"), `twitch\desktop.ini`: []byte("[x]")})
	nested := zipNamed(t, []string{"finder.zip"}, map[string][]byte{"finder.zip": finder})
	s, r := newTestSession()
	for _, z := range []protocol.File{{Name: "finder.zip", Data: finder}, {Name: "windows.zip", Data: windows}, {Name: "nested.zip", Data: nested}} {
		r.events = nil
		s.handle(protocol.Command{Op: protocol.OpLoad, Files: []protocol.File{z}})
		ev, _ := r.last(protocol.KindLoaded)
		if ev.Loaded == nil || ev.Loaded.Nodes != 60 || ev.Loaded.Classes != 3 || !slices.Equal(ev.Loaded.ClassNames, []string{"a", "b", "c"}) {
			e, _ := r.last(protocol.KindError)
			t.Errorf("%s: loaded %+v, error %q", z.Name, ev.Loaded, e.Error)
		}
	}
}

// Audit case 178: a link's graph-from=pdn with model=gcn trains GCN over
// PDN's learned graph, to its last epoch, without a word.
func TestAudit1128GCNOverPDNsGraphTrains(t *testing.T) {
	s, r := newTestSession()
	st, err := experiment.Decode("lab=graph&model=gcn&graph-from=pdn&per-class=40&epochs=20")
	if err != nil {
		t.Fatalf("the link: %v", err)
	}
	s.handle(protocol.Command{Op: protocol.OpSet, State: st.EncodeEngine()})
	s.handle(protocol.Command{Op: protocol.OpStart})
	drain(t, s)
	if ev, _ := r.last(protocol.KindError); ev.Kind != "" {
		t.Fatalf("error: %s", ev.Error)
	}
	snap, _ := r.last(protocol.KindSnapshot)
	if snap.Snap == nil || snap.Snap.Epoch != 20 || snap.Snap.Model != experiment.GCN || !(snap.Snap.TestAcc > 0) {
		t.Errorf("the last snapshot: %+v", snap.Snap)
	}
	if !strings.Contains(st.EncodeEngine(), "graph-from=pdn") {
		t.Errorf("the engine's state lost the row: %s", st.EncodeEngine())
	}
}
