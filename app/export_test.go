package app

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"io"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/experiment"
	"pdnexplorer/viz"
	"pdnexplorer/wasm/protocol"
)

// Each export writes a file its reader accepts, holding what the page shows.
func TestExports(t *testing.T) {
	c, f, d := mount(t)
	tiny(f, d)
	do(d, c, func() {
		snapshot(f, 1, true, 0.5, 0.5, 0.5)
		snapshot(f, 2, false, 0.9, 0.1, 0.2)
	})
	files := map[string][]byte{}
	for _, x := range exports {
		if x.Write != nil { // the engine's and the pictures' are tested end to end
			files[x.ID] = x.Write(c)
		}
	}
	history, err := csv.NewReader(bytes.NewReader(files["export-history"])).ReadAll()
	if err != nil || len(history) != 3 || history[2][0] != "2" || history[2][3] != "0.875" {
		t.Errorf("history %v, %v", history, err)
	}
	weights, err := csv.NewReader(bytes.NewReader(files["export-weights"])).ReadAll()
	if err != nil || len(weights) != 4 || weights[1][2] != "intra" || weights[2][3] != "0.1" {
		t.Errorf("weights %v, %v", weights, err)
	}
	var state struct {
		Permalink string            `json:"permalink"`
		State     map[string]string `json:"state"`
	}
	if err := json.Unmarshal(files["export-state"], &state); err != nil || state.State["model"] != "pdn" || state.Permalink == "" {
		t.Errorf("state %+v, %v", state, err)
	}
	for _, id := range []string{"export-graph", "export-curves"} {
		dec := xml.NewDecoder(bytes.NewReader(files[id]))
		elements := 0
		for {
			tok, err := dec.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", id, err)
			}
			if _, ok := tok.(xml.StartElement); ok {
				elements++
			}
		}
		if elements < 5 {
			t.Errorf("%s: %d elements", id, elements)
		}
	}
}

// The engine writes the graph's DOT and bundle: the buttons ask for them.
func TestExportsAskTheEngine(t *testing.T) {
	c, f, d := mount(t)
	tiny(f, d)
	for _, x := range exports {
		if x.Format == "" {
			continue
		}
		x.do(c)
		if last := f.sent[len(f.sent)-1]; last.Op != protocol.OpExport || last.Format != x.Format {
			t.Errorf("%s sent %+v", x.ID, last)
		}
	}
}

// Files the engine has read switch the lab to data=local with a new graph;
// the files go to every worker, and to a worker started later.
func TestOpenedGraphBecomesTheData(t *testing.T) {
	c, f, d := mount(t)
	tiny(f, d)
	files := []protocol.File{{Name: "nodes.csv", Data: []byte("id")}}
	do(d, c, func() { c.opening = true; c.page.engine.Load(c.handle(), files, c.st.Data) })
	if last := lastReader(t).sent[len(lastReader(t).sent)-1]; last.Op != protocol.OpLoad || len(last.Files) != 1 || !strings.Contains(last.State, "model=") {
		t.Fatalf("the files were sent to the reader as %+v, want them with the run's state", last)
	}
	if f.ops() != "set" {
		t.Fatalf("the engine worker got %q before the reader read the files", f.ops())
	}
	do(d, c, func() {
		lastReader(t).play(protocol.Event{Kind: protocol.KindLoaded, Load: true, Loaded: &protocol.Loaded{Name: "mine", Nodes: 4, Edges: 3, Classes: 2}}, nil)
	})
	if c.st.Data.Graph != experiment.GraphLocal {
		t.Fatalf("data is %s after the graph was read", c.st.Data.Graph)
	}
	if last := f.sent[len(f.sent)-1]; last.Op != protocol.OpRegenerate || !strings.Contains(last.State, "data=local") {
		t.Errorf("then sent %+v", last)
	}
	if h := html(c); !strings.Contains(h, "Opened mine") || !strings.Contains(h, "a link to it opens without it") {
		t.Error("the page does not say what was opened, or that the link cannot carry it")
	}
	var late *fakeConn
	e := c.page.engine
	e.dial = func(ev EventFunc) Conn { late = started(&fakeConn{onEvent: ev}); return late }
	c.one().engine.Close()
	e.Open(func(protocol.Event, []float32) {})
	e.Open(func(protocol.Event, []float32) {})
	if late == nil || len(late.sent) == 0 || late.sent[0].Op != protocol.OpLoad {
		t.Errorf("a worker started later did not get the files first")
	}
}

// The user's files are read by a reader of their own, not by an engine
// worker: once it has read them every engine worker gets the graph it
// read, so files no browser holds take down the reader, not a run, and
// none parses them again; the reader is closed once it has answered. A
// reader that dies reading is said and the graph in use stays; an engine
// worker that dies is replaced: the new one gets the files in use, the
// run is told and sets its state again.
func TestWorkersSurviveWhatTheyAreSent(t *testing.T) {
	_, l, conns, d := mountLab(t, "compare", "lab=compare")
	if len(*conns) < 2 {
		t.Fatalf("%d workers", len(*conns))
	}
	first, second := (*conns)[0], (*conns)[1]
	good := []protocol.File{{Name: "nodes.csv", Data: []byte("good")}}
	e := l.page.engine
	h := l.runs[0].engine
	do := func(f func()) {
		d.Dispatch(app.Dispatch{Mode: app.Update, Source: l.fig.(app.Composer), Function: func(app.Context) { f() }})
		d.Consume()
	}
	do(func() { e.Load(h, good, l.st.Data) })
	reader := lastReader(t)
	if strings.Contains(first.ops(), protocol.OpLoad) || strings.Contains(second.ops(), protocol.OpLoad) || reader.ops() != protocol.OpLoad {
		t.Fatalf("the files went to %q and %q, and the reader got %q", first.ops(), second.ops(), reader.ops())
	}
	do(func() {
		reader.play(protocol.Event{Kind: protocol.KindLoaded, Load: true, Loaded: &protocol.Loaded{Name: "g"}, Parsed: []byte("graph read"), ParsedBuffer: "the buffer it came in"}, nil)
	})
	for i, w := range []*fakeConn{first, second} {
		if !strings.HasSuffix(w.ops(), protocol.OpLoad) {
			t.Fatalf("engine worker %d did not get the files once read: %q", i, w.ops())
		}
		got := w.sent[len(w.sent)-1]
		if string(got.Parsed) != "graph read" || len(got.Files) != 0 {
			t.Errorf("engine worker %d got %d files and the graph %q: want the graph read from them and no files (it reads none)", i, len(got.Files), got.Parsed)
		}
		// In the browser the graph read stays in the buffer it came in,
		// which the page passes on and never copies into its own memory.
		if got.ParsedBuffer != "the buffer it came in" {
			t.Errorf("engine worker %d got the graph read without the buffer it came in (%v): the page would copy it", i, got.ParsedBuffer)
		}
	}
	if !reader.closed {
		t.Error("the reader was left open once it had answered: it holds the files and the graph")
	}
	// An engine worker's own answer to the graph handed it is not the
	// run's news: the reader's was.
	notices := len(l.page.board.Texts())
	do(func() {
		first.play(protocol.Event{Kind: protocol.KindLoaded, Load: true, Loaded: &protocol.Loaded{Name: "g"}}, nil)
	})
	if len(l.page.board.Texts()) != notices {
		t.Errorf("a worker taking the graph read was said again: %q", l.page.board.Texts())
	}

	bomb := []protocol.File{{Name: "nodes.csv.gz", Data: []byte("bomb")}}
	do(func() { e.Load(h, bomb, l.st.Data) })
	do(func() { lastReader(t).play(protocol.Event{Kind: protocol.KindExited, Error: "2"}, nil) })
	if first.closed || second.closed || !lastReader(t).closed {
		t.Fatalf("a reader that died closed an engine worker, or was left open")
	}
	if b := strings.Join(l.page.board.Texts(), " | "); !strings.Contains(b, "its reader stopped while reading it (its program ended with code 2)") {
		t.Errorf("the page says %q", b)
	}

	do(func() { first.play(protocol.Event{Kind: protocol.KindExited, Error: "2"}, nil) })
	fresh := (*conns)[len(*conns)-1]
	if !first.closed || fresh == first || fresh == second {
		t.Fatalf("the dead worker was not replaced")
	}
	ops := fresh.ops()
	if !strings.HasPrefix(ops, protocol.OpLoad+","+protocol.OpSet) || len(fresh.sent[0].Files) != 0 || string(fresh.sent[0].Parsed) != "graph read" {
		t.Errorf("the new worker got %q, want the graph in use (not its files), then the run's state", ops)
	}
	// The new worker serves the run: its events reach it.
	do(func() { playRun(fresh, 0) })
	if l.runs[0].snap.Epoch != 3 {
		t.Errorf("the run does not hear its new worker")
	}
}

// Files whose reader asks which column holds the classes are the ones read
// again with the column chosen, not the graph in use before them.
func TestChosenColumnRereadsTheFilesAsked(t *testing.T) {
	_, l, _, d := mountLab(t, "graph", "lab=graph")
	e := l.page.engine
	h := l.runs[0].engine
	do := func(f func()) {
		d.Dispatch(app.Dispatch{Mode: app.Update, Source: l.fig.(app.Composer), Function: func(app.Context) { f() }})
		d.Consume()
	}
	old := []protocol.File{{Name: "old.zip", Data: []byte("old")}}
	do(func() { e.Load(h, old, l.st.Data) })
	do(func() {
		lastReader(t).play(protocol.Event{Kind: protocol.KindLoaded, Load: true, Loaded: &protocol.Loaded{Name: "old"}}, nil)
	})
	asked := []protocol.File{{Name: "shapes.zip", Data: []byte("new")}}
	do(func() { e.Load(h, asked, l.st.Data) })
	do(func() {
		lastReader(t).play(protocol.Event{Kind: protocol.KindError, Load: true, Error: "which column?", Columns: &protocol.Columns{File: "target.csv"}}, nil)
	})
	dd := l.st.Data
	dd.Target = "colour"
	do(func() { e.Reload(h, dd) })
	last := lastReader(t).sent[len(lastReader(t).sent)-1]
	if last.Op != protocol.OpLoad || last.Target != "colour" || len(last.Files) != 1 || last.Files[0].Name != "shapes.zip" {
		t.Errorf("the chosen column reads %+v", last)
	}
}

// Audit case 190: a graph read with nodes without a class says how many
// in its "Opened …" notice.
func TestOpenedNoticeCountsUnlabelled(t *testing.T) {
	c, f, d := mount(t)
	tiny(f, d)
	do(d, c, func() {
		c.opening = true
		c.page.engine.Load(c.handle(), []protocol.File{{Name: "labels.csv", Data: []byte("id")}}, c.st.Data)
	})
	do(d, c, func() {
		lastReader(t).play(protocol.Event{Kind: protocol.KindLoaded, Load: true, Loaded: &protocol.Loaded{Name: "labels", Nodes: 300, Edges: 1200, Classes: 3,
			Unlabelled: 30, ClassNames: []string{"a", "b", "c"}, ClassColumn: "label"}}, nil)
	})
	b := strings.Join(c.page.board.Texts(), " | ")
	if !strings.Contains(b, "Opened labels: 300 nodes, 1,200 edges, 3 classes (a, b, c) from the column label (30 nodes have no class: they stay in the graph, not trained or tested on)") {
		t.Errorf("the notice: %s", b)
	}
}

// The legend lists the grey of the nodes without a class where the graph
// has some, and only then.
func TestLegendListsNodesWithoutAClass(t *testing.T) {
	with, without := app.HTMLString(legend([]string{"a", "b"}, 5)), app.HTMLString(legend([]string{"a", "b"}, 0))
	if !strings.Contains(with, "no class (5 nodes, not trained or tested on)") || !strings.Contains(with, viz.NoClassColor) || strings.Contains(without, "no class") {
		t.Errorf("legend with 5 nodes without a class: %s; without: %s", with, without)
	}
	g := &protocol.Graph{Labels: []int{0, -1}, ClassNames: []string{"a"}}
	if className(g, -1) != "no class" || className(g, 0) != "a" {
		t.Errorf("class names %q, %q", className(g, -1), className(g, 0))
	}
}
