package app

import (
	"slices"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/edgekind"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/tiestrength"
	"pdnexplorer/wasm/protocol"
)

// The editor adds an edge from the selected node as an edit of the state,
// which goes to the engine; the edited graph keeps the selection, and the
// first snapshot over it tells which predictions changed. An edit the
// engine refuses takes the state back to the edits of the graph it has.
func TestGraphEditor(t *testing.T) {
	rm, l, conns, d := mountLab(t, "graph", "lab=graph")
	c := rm.(*GraphLab)
	f := (*conns)[0]
	graph := func(gen int, src, dst []int32, edits string) protocol.Event {
		kinds := make([]edgekind.Kind, len(src))
		return protocol.Event{Kind: protocol.KindGraph, Gen: gen, Graph: &protocol.Graph{Nodes: 3, Src: src, Dst: dst,
			Labels: []int{0, 1, 1}, Kinds: kinds, Test: []bool{false, true, true}, State: "edits=" + edits, Edited: edits != ""}}
	}
	snap := func(gen, weights int) protocol.Event {
		return protocol.Event{Kind: protocol.KindSnapshot, Gen: gen, Snap: &protocol.Snapshot{Epoch: 5, Epochs: 200, Model: "pdn", Weights: weights, Nodes: 3}}
	}
	f.play(graph(1, []int32{0}, []int32{1}, ""), nil)
	f.play(snap(1, 1), []float32{0.4, 0, 1, 1, 0.9, 0.8, 0.7})
	f.play(protocol.Event{Kind: protocol.KindLayout, Gen: 1}, []float32{0, 0, 1, 1, 1, 0})
	d.Consume()

	doIn(d, c, func() { c.selectNode(0) })
	h := app.HTMLString(rm)
	if !strings.Contains(h, `id="edit-to"`) || !strings.Contains(h, "to node 1 · ") {
		t.Fatal("with a node selected, the editor offers no edge to add or to change")
	}
	doIn(d, c, func() { c.ed.to = "1"; c.addEdge() })
	if !strings.Contains(c.ed.toErr, "joined already") {
		t.Errorf("adding an edge the graph has: %q", c.ed.toErr)
	}
	// Audit case 85: what is not a node of the graph is said under the
	// box, with the range, and nothing is sent.
	before := len(f.sent)
	for to, want := range map[string]string{"99999": "Type a node number from 0 to 2.", "-1": "Type a node number from 0 to 2.",
		"1.5": "Type a node number from 0 to 2.", "": "Type a node number from 0 to 2.", "0": "An edge joins two different nodes."} {
		doIn(d, c, func() { c.ed.to = to; c.addEdge() })
		if c.ed.toErr != want {
			t.Errorf("adding an edge to %q: %q, want %q", to, c.ed.toErr, want)
		}
	}
	if len(f.sent) != before {
		t.Errorf("edges refused were sent: %+v", f.sent[before:])
	}
	doIn(d, c, func() { c.ed.to = "2"; c.addEdge() })
	sent := f.sent[len(f.sent)-2]
	if sent.Op != protocol.OpSet || !strings.Contains(sent.State, "edits=a0-2&") || l.st.Data.Edits != "a0-2" {
		t.Fatalf("the add sent %+v (state's edits %q)", sent, l.st.Data.Edits)
	}
	if last := f.sent[len(f.sent)-1]; last.Op != protocol.OpEdge || len(last.Ends) != 2 || last.Ends[1] != 2 {
		t.Errorf("the editor does not follow the new edge: %+v", last)
	}

	f.play(graph(2, []int32{0, 0}, []int32{1, 2}, "a0-2"), nil)
	f.play(snap(2, 2), []float32{0.4, 0.25, 0, 1, 0, 0.9, 0.8, 0.6})
	d.Consume()
	h = app.HTMLString(rm)
	if c.insp.selected != 0 || !hasMetric(h, "edit-changed-predictions", "", "1") || !strings.Contains(h, "node 2 from class 1 to class 0") ||
		!strings.Contains(h, "Added edge 0–2 with the features of the first edge of its kind") || !hasMetric(h, "edit-alpha", "", "0.25") {
		t.Errorf("after the edit: selected %d; the card says %q", c.insp.selected, between(h, `id="edit"`, `</ol>`))
	}

	doIn(d, c, func() { c.takeBack(0) })
	if l.st.Data.Edits != "" {
		t.Fatalf("taking the edit back left %q", l.st.Data.Edits)
	}
	f.play(protocol.Event{Kind: protocol.KindError, Gen: 2, Error: "edits: refused", Field: experiment.EditsRow}, nil)
	d.Consume()
	if l.st.Data.Edits != "a0-2" {
		t.Errorf("a refused edit left the state's edits at %q, the graph's are a0-2", l.st.Data.Edits)
	}

	// Another graph drops the edits, and says so.
	doIn(d, c, func() { c.setParam("seed", "2") })
	if texts := l.page.board.Texts(); l.st.Data.Edits != "" || !slices.ContainsFunc(texts, func(s string) bool { return strings.Contains(s, "The edit of the graph was for the graph before") }) {
		t.Errorf("a new seed kept the edits %q; the notices say %q", l.st.Data.Edits, texts)
	}
}

// between is h from the first from to the next to after it.
func between(h, from, to string) string {
	i := strings.Index(h, from)
	if i < 0 {
		return ""
	}
	j := strings.Index(h[i:], to)
	if j < 0 {
		return h[i:]
	}
	return h[i : i+j]
}

// Audit case 209: the editor names an edge's features as the attention
// lab does, the tie-strength scores by their names, not "feature 0".
func TestEditorNamesTheEdgeFeatures(t *testing.T) {
	rm, _, conns, d := mountLab(t, "graph", "lab=graph&data=cora")
	c := rm.(*GraphLab)
	playRun((*conns)[0], 0)
	d.Consume()
	names := c.featureNames(2)
	if names[0] != tiestrength.Label("degree-product") || names[1] != tiestrength.Label("jaccard") { // the fake graph of playRun
		t.Errorf("the editor names the features %q", names)
	}
	if got := c.featureNames(3); got[2] != "feature 2" {
		t.Errorf("features without names: %q", got)
	}
}

// Audit case 165: the file picker filters no extension: edge lists come
// as .edgelist, .el, .dat or with none, and a dialog that honoured a
// filter hid them.
func TestFilePickerFiltersNothing(t *testing.T) {
	c, _, _ := mount(t)
	h := html(c)
	i := strings.Index(h, `id="open-files"`)
	if i < 0 {
		t.Fatal("no file picker")
	}
	tag := h[strings.LastIndex(h[:i], "<"):]
	tag = tag[:strings.Index(tag, ">")]
	if strings.Contains(tag, "accept") {
		t.Errorf("the picker filters: %s", tag)
	}
}

// Audit case 77: state that belongs to one graph is not carried onto the
// next. An edit made on the synthetic graph, then files opened: the state
// the engine gets for the files holds no edits, the notice says the edit
// went, and the editor lets go of what it said of the last edit (whose
// classes were the graph before's). Each way another graph arrives goes
// through lab.arrive: a control, the next data seed, files opened.
func TestAnotherGraphDropsWhatBelongedToTheGraphBefore(t *testing.T) {
	for _, tc := range []struct {
		name   string
		arrive func(c *GraphLab)
	}{
		{"files opened", func(c *GraphLab) {
			c.opening = true
			c.page.engine.Load(c.handle(), []protocol.File{{Name: "zip_r.zip"}}, c.st.Data)
			lastReader(t).play(protocol.Event{Kind: protocol.KindLoaded, Load: true, Loaded: &protocol.Loaded{Name: "zip_r.zip",
				Nodes: 7126, Edges: 35324, Classes: 2, ClassNames: []string{"False", "True"}, Features: 3, ClassColumn: "mature", Recipe: experiment.RecipePaper}}, nil)
		}},
		{"a control", func(c *GraphLab) { c.setParam("q", "0.02") }},
		{"the next data seed", func(c *GraphLab) { c.do(cmdNewGraph) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rm, l, conns, d := mountLab(t, "graph", "lab=graph")
			c := rm.(*GraphLab)
			f := (*conns)[0]
			g := &protocol.Graph{Nodes: 3, Src: []int32{0}, Dst: []int32{1}, Labels: []int{0, 1, 2}, Kinds: []edgekind.Kind{edgekind.Inter}, Test: []bool{false, true, true}}
			f.play(protocol.Event{Kind: protocol.KindGraph, Gen: 1, Graph: g}, nil)
			f.play(protocol.Event{Kind: protocol.KindSnapshot, Gen: 1, Snap: &protocol.Snapshot{Epoch: 5, Epochs: 200, Model: "pdn", Weights: 1, Nodes: 3}}, []float32{0.4, 0, 1, 2, 0.9, 0.8, 0.7})
			d.Consume()
			doIn(d, c, func() { c.selectNode(0); c.ed.to = "2"; c.addEdge() })
			edited := *g
			edited.Src, edited.Dst, edited.Kinds, edited.Edited = []int32{0, 0}, []int32{1, 2}, []edgekind.Kind{edgekind.Inter, edgekind.Inter}, true
			f.play(protocol.Event{Kind: protocol.KindGraph, Gen: 2, Graph: &edited}, nil)
			f.play(protocol.Event{Kind: protocol.KindSnapshot, Gen: 2, Snap: &protocol.Snapshot{Epoch: 5, Epochs: 200, Model: "pdn", Weights: 2, Nodes: 3}}, []float32{0.4, 0.3, 2, 1, 2, 0.9, 0.8, 0.7})
			d.Consume()
			if l.st.Data.Edits != "a0-2" || !strings.Contains(app.HTMLString(rm), "The last edit changed the predicted class of") {
				t.Fatalf("the edit did not take: %q", l.st.Data.Edits)
			}

			doIn(d, c, func() { tc.arrive(c) })
			last := f.sent[len(f.sent)-1]
			if l.st.Data.Edits != "" || strings.Contains(last.State, "edits=a0-2") {
				t.Errorf("the edit went on to the next graph: state's edits %q, sent %s %q", l.st.Data.Edits, last.Op, last.State)
			}
			if texts := l.page.board.Texts(); !slices.ContainsFunc(texts, func(s string) bool {
				return strings.Contains(s, "The edit of the graph was for the graph before; this one starts unedited.")
			}) {
				t.Errorf("the notices do not say the edit went: %q", texts)
			}
			next := &protocol.Graph{Nodes: 4, Src: []int32{0}, Dst: []int32{3}, Labels: []int{0, 1, 1, 0}, Kinds: []edgekind.Kind{edgekind.Inter}, Test: []bool{false, true, true, true}, ClassNames: []string{"False", "True"}}
			f.play(protocol.Event{Kind: protocol.KindGraph, Gen: 3, Graph: next}, nil)
			d.Consume()
			if h := app.HTMLString(rm); strings.Contains(h, "The last edit changed") || strings.Contains(h, "Added edge 0–2") || c.ed.ok || c.ed.pending {
				t.Errorf("the editor still speaks of the graph before: %s", between(h, `id="edit"`, `</ol>`))
			}
		})
	}
}

// Every row that belongs to one graph has the words that say it went.
func TestEveryOneGraphRowIsSaid(t *testing.T) {
	for _, row := range experiment.OneGraphRows {
		if droppedWords[row] == nil {
			t.Errorf("row %s belongs to one graph but the page has no words for its going", row)
		}
	}
}

// Audit case 181: a link's bins (and target, id-column) show in the card
// that opens one's own graph, with a way to clear them; files the reader
// opened without them (the worker says why) leave the state's columns as
// the reader used them.
func TestLinksColumnsShowAndClear(t *testing.T) {
	rm, l, _, d := mountLab(t, "graph", "lab=graph&bins=5&target=mature")
	c := rm.(*GraphLab)
	h := app.HTMLString(rm)
	if !strings.Contains(h, "Your files are read with target=mature, bins=5") || !strings.Contains(h, `id="forget-columns"`) {
		t.Fatalf("the card does not say the link's columns: %s", between(h, `id="open-graph"`, `</fieldset>`))
	}
	doIn(d, c, func() { c.forgetColumns() })
	if l.st.Data.Bins != 0 || l.st.Data.Target != "" || strings.Contains(app.HTMLString(rm), `id="forget-columns"`) {
		t.Errorf("after Let the reader choose: bins %d, target %q", l.st.Data.Bins, l.st.Data.Target)
	}

	rm, l, _, d = mountLab(t, "graph", "lab=graph&bins=5")
	c = rm.(*GraphLab)
	doIn(d, c, func() {
		c.opening = true
		c.page.engine.Load(c.handle(), []protocol.File{{Name: "musae_twitch_engb.zip"}}, c.st.Data)
		lastReader(t).play(protocol.Event{Kind: protocol.KindLoaded, Load: true, Loaded: &protocol.Loaded{Name: "musae_twitch_engb", Nodes: 7126, Edges: 35324,
			Classes: 2, ClassNames: []string{"False", "True"}, ClassColumn: "mature", Recipe: experiment.RecipePaper,
			Notes: []phrase.Text{phrase.New("the link's columns (%s) did not fit these files (%s): they were read with the columns the reader finds", "bins=5", "target.csv:2: column mature: holds \"False\", which is no number")}}}, nil)
	})
	d.Consume()
	if l.st.Data.Bins != 0 || l.st.Data.Graph != experiment.GraphLocal {
		t.Errorf("the files opened without bins, the state keeps bins=%d (data %s)", l.st.Data.Bins, l.st.Data.Graph)
	}
	if texts := strings.Join(l.page.board.Texts(), "|"); !strings.Contains(texts, "bins=5") || !strings.Contains(texts, "Opened musae_twitch_engb") {
		t.Errorf("notices %q", texts)
	}
}
