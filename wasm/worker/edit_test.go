package main

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"pdnexplorer/experiment"
	"pdnexplorer/wasm/protocol"
)

// An edit carries the run on: the page gets the edited graph, marked as
// such, and a snapshot of the same epoch with one more weight; taking
// the edge out again gives every weight, prediction and probability back
// to the bit; training goes on from the epoch it had reached.
func TestSessionEditCarriesOn(t *testing.T) {
	s, r := newTestSession()
	e := small()
	set(s, e)
	drain(t, s)
	for range 5 {
		s.handle(protocol.Command{Op: protocol.OpStep})
	}
	drain(t, s)
	before, raw0 := r.lastRaw(protocol.KindSnapshot)
	g, _ := r.last(protocol.KindGraph)
	u, v := 0, 119 // of classes 0 and 2
	if g.Graph.Labels[u] == g.Graph.Labels[v] {
		t.Fatal("the pair is of one class")
	}

	e.Data.Edits = fmt.Sprintf("a%d-%d", u, v)
	set(s, e)
	if got := r.kinds(); !strings.HasSuffix(got, "graph,snapshot") {
		t.Fatalf("after the edit: %s", got)
	}
	eg, _ := r.last(protocol.KindGraph)
	mid, w := r.last(protocol.KindSnapshot)
	if !eg.Graph.Edited || len(eg.Graph.Src) != len(g.Graph.Src)+1 || eg.Gen != mid.Gen {
		t.Errorf("the edited graph: edited %v, %d edges (%d before), gen %d/%d", eg.Graph.Edited, len(eg.Graph.Src), len(g.Graph.Src), eg.Gen, mid.Gen)
	}
	if mid.Snap.Epoch != before.Snap.Epoch || len(w) != len(eg.Graph.Src) {
		t.Errorf("after the edit: epoch %d (was %d), %d weights", mid.Snap.Epoch, before.Snap.Epoch, len(w))
	}

	// The run saved for PyTorch Geometric names the edited graph's link.
	s.handle(protocol.Command{Op: protocol.OpExport, Format: protocol.FormatPyG})
	if f, _ := r.last(protocol.KindFile); f.File == nil || !bytes.Contains(unzipped(t, f.File.Data, "run_pyg.py"), []byte("edits="+e.Data.Edits)) {
		t.Errorf("the PyG export's link lacks the edits %s", e.Data.Edits)
	}

	e.Data.Edits = ""
	set(s, e)
	after, raw1 := r.lastRaw(protocol.KindSnapshot)
	if after.Snap.Epoch != before.Snap.Epoch || len(raw1) != len(raw0) {
		t.Fatalf("after the removal: epoch %d, %d values (%d before)", after.Snap.Epoch, len(raw1), len(raw0))
	}
	for i := range raw0 {
		if raw0[i] != raw1[i] {
			t.Fatalf("value %d: %v before the edit, %v after it was undone", i, raw0[i], raw1[i])
		}
	}
	s.handle(protocol.Command{Op: protocol.OpStart})
	drain(t, s)
	if done, _ := r.last(protocol.KindSnapshot); done.Snap.Epoch != e.Train.Epochs {
		t.Errorf("training after edits ends at epoch %d", done.Snap.Epoch)
	}
}

// An edit that does not apply changes nothing and names the edits row; a
// link with one opens its graph without the edits; a model whose set-up
// reads the edges starts over.
func TestSessionEditRefusedOrRestarted(t *testing.T) {
	s, r := newTestSession()
	e := small()
	set(s, e)
	drain(t, s)
	s.handle(protocol.Command{Op: protocol.OpStep})
	drain(t, s)
	n := len(r.events)
	bad := e
	bad.Data.Edits = fmt.Sprintf("r%d-%d_a0-500", s.g.Src[0], s.g.Dst[0])
	set(s, bad)
	ev, _ := r.last(protocol.KindError)
	if r.lastIndex(protocol.KindError) < n || ev.Field != "edits" || !strings.Contains(ev.Error, "node 500 is out of range") {
		t.Fatalf("a bad edit: %+v", ev)
	}
	if r.lastIndex(protocol.KindGraph) >= n || s.exp.Data.Edits != "" {
		t.Errorf("a bad edit changed the graph (edits now %q)", s.exp.Data.Edits)
	}

	fresh, r2 := newTestSession()
	fresh.handle(protocol.Command{Op: protocol.OpSet, State: bad.Encode(), Run: 7})
	ev, _ = r2.last(protocol.KindError)
	g, _ := r2.last(protocol.KindGraph)
	if ev.Field != "edits" || g.Graph == nil || strings.Contains(g.Graph.State, "edits=r") {
		t.Errorf("a link with a bad edit: error %+v, graph of %v", ev, g.Graph != nil)
	}
	// The notice says the edit before the bad one went too: a list
	// applies whole or not at all.
	if want := "edits: edit 2 (a0-500): node 500 is out of range"; !strings.Contains(ev.Error, want) || !strings.Contains(ev.Error, "none of the 2 edits was applied") || !strings.Contains(ev.Error, "the graph opens unedited") {
		t.Errorf("a link with a bad edit says %q; want %q, and that none of the 2 was applied", ev.Error, want)
	}

	cl := small()
	cl.Model.Kind = experiment.ClusterGCN
	set(s, cl)
	drain(t, s)
	s.handle(protocol.Command{Op: protocol.OpStep})
	drain(t, s)
	cl.Data.Edits = "a0-119"
	set(s, cl)
	if snap, w := r.last(protocol.KindSnapshot); snap.Snap.Epoch != 0 || len(w) != len(s.g.Src) {
		t.Errorf("ClusterGCN after an edit: epoch %d, %d weights", snap.Snap.Epoch, len(w))
	}
}

// The editor reads an edge's features and their ranges with every
// snapshot while it follows the edge, and learns when the edge is gone.
func TestSessionFollowsAnEdge(t *testing.T) {
	s, r := newTestSession()
	e := small()
	set(s, e)
	drain(t, s)
	u, v := int(s.g.Src[2]), int(s.g.Dst[2])
	s.handle(protocol.Command{Op: protocol.OpEdge, Ends: []int{v, u}})
	snap, _ := r.last(protocol.KindSnapshot)
	st := snap.Snap.Edge
	if st == nil || st.Index != 2 || len(st.Features) != s.g.D || len(st.Lo) != s.g.D || len(st.Hi) != s.g.D {
		t.Fatalf("followed edge: %+v", st)
	}
	for k := range st.Features {
		if float64(st.Features[k]) != s.g.EdgeX[2*s.g.D+k] || st.Features[k] < st.Lo[k] || st.Features[k] > st.Hi[k] {
			t.Errorf("feature %d: %v in [%v, %v]", k, st.Features[k], st.Lo[k], st.Hi[k])
		}
	}
	e.Data.Edits = fmt.Sprintf("r%d-%d", u, v)
	set(s, e)
	if snap, _ := r.last(protocol.KindSnapshot); snap.Snap.Edge == nil || snap.Snap.Edge.Index != -1 {
		t.Errorf("a removed edge: %+v", snap.Snap.Edge)
	}
	s.handle(protocol.Command{Op: protocol.OpEdge})
	if snap, _ := r.last(protocol.KindSnapshot); snap.Snap.Edge != nil {
		t.Error("an edge followed after the page let go")
	}
}

// unzipped is the file of the zip archive data whose name ends in name.
func unzipped(t *testing.T, data []byte, name string) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range zr.File {
		if strings.HasSuffix(f.Name, name) {
			rc, _ := f.Open()
			b, _ := io.ReadAll(rc)
			rc.Close()
			return b
		}
	}
	t.Fatalf("no %s in the archive", name)
	return nil
}
