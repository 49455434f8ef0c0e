package app

import (
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/edgekind"
	"pdnexplorer/experiment"
	"pdnexplorer/wasm/protocol"
)

// fakeConn records commands and lets a test play the engine. Questions
// about no run (protocol.OpEstimate) are kept apart, in asked.
type fakeConn struct {
	sent    []protocol.Command
	asked   []protocol.Command
	onEvent EventFunc
	closed  bool
}

func (f *fakeConn) Send(c protocol.Command) {
	if c.Op == protocol.OpEstimate {
		f.asked = append(f.asked, c)
		return
	}
	f.sent = append(f.sent, c)
}

// started is f as a worker whose program has started: it says so first,
// as the worker's Go program does (KindReady).
func started(f *fakeConn) *fakeConn {
	f.onEvent(protocol.Event{Kind: protocol.KindReady}, nil)
	return f
}

// play sends ev as the worker would: about the run that last set a state.
func (f *fakeConn) play(ev protocol.Event, f32 []float32) {
	for i := len(f.sent) - 1; i >= 0 && ev.Run == 0; i-- {
		if f.sent[i].Op == protocol.OpSet || f.sent[i].Op == protocol.OpRegenerate {
			ev.Run = f.sent[i].Run
		}
	}
	f.onEvent(ev, f32)
}
func (f *fakeConn) Close() { f.closed = true }

// dialStarted dials fake engine workers that have started, kept in conns.
func dialStarted(conns *[]*fakeConn) func(EventFunc) Conn {
	return func(ev EventFunc) Conn {
		f := started(&fakeConn{onEvent: ev})
		*conns = append(*conns, f)
		return f
	}
}

// readers are the fake readers of files the tests' engines dialed, the
// last dialed last.
var readers []*fakeConn

// dialFakeReader dials a fake reader of files, which has started.
func dialFakeReader(ev EventFunc) Conn {
	f := &fakeConn{onEvent: ev}
	readers = append(readers, f)
	return started(f)
}

// lastReader is the reader of files last dialed.
func lastReader(t *testing.T) *fakeConn {
	t.Helper()
	if len(readers) == 0 {
		t.Fatal("no reader of files was started")
	}
	return readers[len(readers)-1]
}

func (f *fakeConn) ops() string {
	var ops []string
	for _, c := range f.sent {
		ops = append(ops, c.Op)
	}
	return strings.Join(ops, ",")
}

// mount renders the shell, wired to a fake engine, and returns the lab it
// shows (the graph lab).
func mount(t *testing.T) (*GraphLab, *fakeConn, app.ClientDispatcher) {
	t.Helper()
	f := &fakeConn{}
	sh := &Shell{Dial: func(ev EventFunc) Conn { f.onEvent = ev; return started(f) }, DialReader: dialFakeReader}
	d := app.NewClientTester(sh)
	t.Cleanup(d.Close)
	d.Consume()
	c, ok := sh.room.(*GraphLab)
	if !ok {
		t.Fatalf("the shell shows %T, want the graph lab", sh.room)
	}
	shells[c] = sh
	c.unpaced = true
	doIn(d, c, func() { c.allControls = true }) // these tests read every control the table gives
	return c, f, d
}

// shells are the shells of the mounted labs, for html.
var shells = map[*GraphLab]*Shell{}

// html is the page as the shell renders it around the lab.
func html(c *GraphLab) string { return app.HTMLString(shells[c]) }

// do runs f as an event handler would: then the page renders again.
func do(d app.ClientDispatcher, c *GraphLab, f func()) {
	d.Dispatch(app.Dispatch{Mode: app.Update, Source: c, Function: func(app.Context) { f() }})
	d.Consume()
}

// tiny is a 4-node graph with a layout, as the engine would send them.
func tiny(f *fakeConn, d app.ClientDispatcher) {
	f.play(protocol.Event{Kind: protocol.KindGraph, Gen: 1, Graph: &protocol.Graph{
		Nodes: 4, Src: []int32{0, 1, 0}, Dst: []int32{1, 2, 3}, Labels: []int{0, 0, 1, 1},
		Kinds: []edgekind.Kind{edgekind.Intra, edgekind.Inter, edgekind.Inter}, Test: []bool{false, false, true, false}}}, nil)
	f.play(protocol.Event{Kind: protocol.KindLayout, Gen: 1}, []float32{0, 0, 1, 0, 1, 1, 0, 1})
	d.Consume()
}

// snapshot sends a snapshot of the tiny graph with weights w, in which
// the model predicts class 0 for every node with probability 0.75; its
// mean weights on each kind are those of w on the tiny graph (one
// intra-class edge, then two inter-class), as the engine's would be.
func snapshot(f *fakeConn, epoch int, running bool, w ...float32) {
	f32 := append(append([]float32(nil), w...), 0, 0, 0, 0, 0.75, 0.75, 0.75, 0.75)
	wIntra, wInter := protocol.Num(0.8), protocol.Num(0.1)
	if len(w) == 3 {
		wIntra, wInter = protocol.Num(w[0]), protocol.Num((float64(w[1])+float64(w[2]))/2)
	}
	f.play(protocol.Event{Kind: protocol.KindSnapshot, Gen: 1, Snap: &protocol.Snapshot{
		Epoch: epoch, Epochs: 200, Loss: 0.5, TrainAcc: 0.9, TestAcc: 0.875, WIntra: wIntra, WInter: wInter,
		Running: running, EpochsPerSec: 60, Model: experiment.PDN, Weights: len(w), Nodes: 4}}, f32)
}

func TestMountStartsEngineWithState(t *testing.T) {
	_, f, _ := mount(t)
	if len(f.sent) != 1 || f.sent[0].Op != protocol.OpSet {
		t.Fatalf("on mount sent %s, want set", f.ops())
	}
	e, err := experiment.Decode(f.sent[0].State)
	if err != nil || e.Encode() != experiment.Default().Encode() {
		t.Errorf("mount sent %q (%v), want the default experiment", f.sent[0].State, err)
	}
}

// The data rows shown are those that apply to the graph: a real graph's
// seed, shots and perturbation only (its rate once there is one).
func TestControlsFollowTheGraph(t *testing.T) {
	c, _, d := mount(t)
	doIn(d, c, func() { c.setParam("data", experiment.GraphCora) })
	h := html(c)
	for _, p := range experiment.Params {
		if p.Group != experiment.GroupData {
			continue
		}
		if shown := strings.Contains(h, `id="ctl-`+p.Name+`"`); shown != (p.Name == "data" || p.Name == "shots" || p.Name == "seed" || p.Name == "perturb") {
			t.Errorf("cora: control for %s shown %v", p.Name, shown)
		}
	}
}

func TestControlsComeFromTheTable(t *testing.T) {
	c, _, _ := mount(t)
	h := html(c)
	for _, p := range experiment.Params {
		id := `id="ctl-` + p.Name + `"`
		switch {
		case p.Name == "lab":
			id = `id="lab-graph"` // the navigation
		case p.Name == "models" || p.Name == "scenario" || p.Name == "reps" || p.Name == "results":
			continue // the compare lab's and the sweep lab's
		case p.Name == experiment.EditsRow:
			id = `id="edit"` // the graph lab's editor
		case p.Name == "embed":
			id = `id="share"` // the share panel offers the embed code
		case p.Name == "hide":
			continue // a teacher's row of the link: no control
		case !p.Matters(experiment.Default().Model):
			if strings.Contains(h, id) {
				t.Errorf("control for %s shown, though %s does not use it", p.Name, experiment.Default().Model.Kind)
			}
			continue
		case p.Group == experiment.GroupView:
			id = `id="` + p.Name + `"` // in the graph card
		}
		if applies := p.Applies(experiment.Default().Data) && (p.Group == experiment.GroupView || !p.Idle(experiment.Default())); strings.Contains(h, id) != applies {
			t.Errorf("control for %s shown %v, applies to the default graph %v", p.Name, !applies, applies)
		}
		if p.Log && !strings.Contains(h, `id="ctl-`+p.Name+`-slider"`) {
			t.Errorf("%s is swept in powers of two but has no log slider", p.Name)
		}
	}
	for _, id := range []string{"play", "step", "reset", "regenerate", "epoch", "test-acc", "threshold"} {
		if !strings.Contains(h, `id="`+id+`"`) {
			t.Errorf("no element #%s", id)
		}
	}
}

func TestSetParamValidatesInOnePlace(t *testing.T) {
	c, f, d := mount(t)
	do(d, c, func() { c.setParam("classes", "9") })
	if len(f.sent) != 1 {
		t.Errorf("a bad value was sent: %s", f.ops())
	}
	if msg := say(c.fieldErr["classes"]); !strings.Contains(msg, "[2, 6]") {
		t.Errorf("field error %q does not give the range", msg)
	}
	if !strings.Contains(html(c), "field-error") {
		t.Error("the error is not shown beside the control")
	}
	c.setParam("classes", "4")
	d.Consume()
	if len(f.sent) != 2 || !strings.Contains(f.sent[1].State, "classes=4") || say(c.fieldErr["classes"]) != "" {
		t.Errorf("a good value: sent %v, error %q", f.sent, say(c.fieldErr["classes"]))
	}
	c.setParam("classes", "4") // no change, nothing to send
	if len(f.sent) != 2 {
		t.Error("an unchanged value was sent again")
	}
	c.setParam("edge-hidden", "32,16")
	if !strings.Contains(f.sent[len(f.sent)-1].State, "edge-hidden=32%2C16") {
		t.Errorf("sizes: %s", f.sent[len(f.sent)-1].State)
	}
}

// A control's change never leaves a row set that no one reads: a model
// switched puts the rows only the old one read back at their start, a
// perturbation chosen at rate 0 takes its first rate, one set to none puts
// the rate back; the engine is sent the state, and its link opens without
// a notice (experiment.Lab.Settle).
func TestControlsLeaveNoRowUnread(t *testing.T) {
	c, f, d := mount(t)
	for _, step := range []struct {
		row, value string
		check      func(e experiment.Experiment) bool
	}{
		{"edge-hidden", "32,16", func(e experiment.Experiment) bool { return experiment.FormatSizes(e.Model.EdgeHidden) == "32,16" }},
		{"model", experiment.Cheb, func(e experiment.Experiment) bool { return experiment.FormatSizes(e.Model.EdgeHidden) == "16" }},
		{"perturb", experiment.PerturbDrop, func(e experiment.Experiment) bool { return e.Data.PerturbRate == 0.2 }},
		{"perturb-rate", "0.4", func(e experiment.Experiment) bool { return e.Data.PerturbRate == 0.4 }},
		{"perturb", experiment.PerturbNone, func(e experiment.Experiment) bool { return e.Data.PerturbRate == 0 }},
		{"data", experiment.GraphScaleFree, func(e experiment.Experiment) bool { return e.Data.Graph == experiment.GraphScaleFree }},
	} {
		do(d, c, func() { c.setParam(step.row, step.value) })
		if !step.check(c.st) {
			t.Errorf("%s=%s: the state is %s", step.row, step.value, c.st.EncodeShort())
		}
		if _, err := experiment.Decode(c.st.Encode()); err != nil {
			t.Errorf("%s=%s: its link is refused: %v", step.row, step.value, err)
		}
		if last := f.sent[len(f.sent)-1]; last.State != c.st.EncodeEngine() {
			t.Errorf("%s=%s: the engine was sent %s", step.row, step.value, last.State)
		}
	}
}

func TestEventsDriveTheViews(t *testing.T) {
	c, f, d := mount(t)
	tiny(f, d)
	if len(c.nodes.paths) == 0 || c.strokes == nil {
		t.Fatal("no graph drawn after the layout")
	}
	snapshot(f, 5, false, 0.9, 0.05, 0.1) // paused: the graph redraws at once
	d.Consume()
	h := html(c)
	for _, want := range []string{"5 / 200", "0.875", "data-metric=\"inter-edges-drawn\"", "Loss and accuracy"} {
		if !strings.Contains(h, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if h := c.one().hist; math.Abs(h.share[len(h.share)-1]-0.15/1.05) > 1e-6 {
		t.Errorf("inter share %v, want %v", h.share, 0.15/1.05)
	}
	// A layout or snapshot of a replaced graph is ignored.
	f.play(protocol.Event{Kind: protocol.KindSnapshot, Gen: 0, Snap: &protocol.Snapshot{Epoch: 99}}, nil)
	d.Consume()
	if c.one().snap.Epoch != 5 {
		t.Errorf("a stale snapshot was applied: epoch %d", c.one().snap.Epoch)
	}
}

func TestSnapshotsAreCoalesced(t *testing.T) {
	c, f, d := mount(t)
	tiny(f, d)
	for e := 1; e <= 10; e++ {
		snapshot(f, e, true, 0.5, 0.5, 0.5)
	}
	if len(c.queued) != 10 {
		t.Fatalf("%d snapshots queued before the UI caught up, want 10", len(c.queued))
	}
	d.Consume()
	if r := c.one(); r.snap.Epoch != 10 || len(r.hist.epoch) != 10 || len(c.queued) != 0 {
		t.Errorf("after catching up: epoch %d, %d points, %d queued", r.snap.Epoch, len(r.hist.epoch), len(c.queued))
	}
	snapshot(f, 0, false, 0.5, 0.5, 0.5) // a reset starts the curves over
	d.Consume()
	if n := len(c.one().hist.epoch); n != 1 {
		t.Errorf("after a reset the curves have %d points", n)
	}
}

func TestButtonsSendCommands(t *testing.T) {
	c, f, d := mount(t)
	tiny(f, d)
	snapshot(f, 3, false)
	d.Consume()
	c.do(cmdPlay)
	snapshot(f, 4, true)
	d.Consume()
	c.do(cmdPlay)
	c.do(cmdStep)
	c.do(cmdReset)
	c.do(cmdNewGraph)
	if got := f.ops(); got != "set,start,pause,step,reset,regenerate" {
		t.Errorf("sent %s", got)
	}
	if c.st.Data.Seed != 2 || !strings.Contains(f.sent[len(f.sent)-1].State, "seed=2&") {
		t.Errorf("regenerate: seed %d, sent %s", c.st.Data.Seed, f.sent[len(f.sent)-1].State)
	}
}

func TestEngineErrorsAreShown(t *testing.T) {
	c, f, d := mount(t)
	f.play(protocol.Event{Kind: protocol.KindError, Error: "training diverged at epoch 3", Field: "lr"}, nil)
	d.Consume()
	if !strings.Contains(html(c), "training diverged at epoch 3") || say(c.engineErr["lr"]) == "" {
		t.Error("the engine's error is not shown, or not beside lr")
	}
	c.page.board.Dismiss(0)
	if len(c.page.board.notices) != 0 {
		t.Error("dismiss left the notice")
	}
}

// A row the engine refuses that the lab has no control for (a link's
// layer=E on a graph of four layers) goes back to its default, saying so,
// so that the graph is drawn; one with a control keeps its value beside
// the engine's message.
func TestRefusedRowsWithoutControlsGo(t *testing.T) {
	c, f, d := mount(t)
	c.setParam("data", experiment.GraphMultiplex)
	c.setParam("layer", "E")
	d.Consume()
	f.play(protocol.Event{Kind: protocol.KindError, Error: "layer: \"E\" is not one of this graph's layers", Field: "layer"}, nil)
	d.Consume()
	if c.st.Data.Layer != "" || !strings.Contains(html(c), "layer=&#34;E&#34; is left out") {
		t.Errorf("layer %q; the page says %q", c.st.Data.Layer, c.page.board.Texts())
	}
	c.setParam("lr", "5")
	d.Consume()
	f.play(protocol.Event{Kind: protocol.KindError, Error: "training diverged at epoch 3", Field: "lr"}, nil)
	d.Consume()
	if c.st.Train.LR != 5 {
		t.Errorf("lr, which has a control, went to %v", c.st.Train.LR)
	}
}

func TestThresholdHidesEdges(t *testing.T) {
	c, f, d := mount(t)
	tiny(f, d)
	snapshot(f, 1, false, 0.9, 0.05, 0.3)
	d.Consume()
	count := func() int {
		n := 0
		for _, st := range c.strokes {
			n += st.Count
		}
		return n
	}
	all, sent := count(), len(f.sent)
	c.setParam("threshold", "0.2")
	if got := count(); got >= all || c.st.View.Threshold != 0.2 {
		t.Errorf("threshold 0.2 drew %d edges of %d", got, all)
	}
	c.setParam("threshold", "5") // refused: the state table's range
	if c.st.View.Threshold != 0.2 || !strings.Contains(say(c.fieldErr["threshold"]), "want [0, 1]") {
		t.Errorf("threshold %v after 5, error %q", c.st.View.Threshold, say(c.fieldErr["threshold"]))
	}
	if len(f.sent) != sent {
		t.Error("a change of view was sent to the engine")
	}
}

func TestDismountStopsEngine(t *testing.T) {
	_, f, d := mount(t)
	d.Close()
	if !f.closed {
		t.Error("the engine was left running")
	}
}

func TestAttentionCardForVariants(t *testing.T) {
	c, f, d := mount(t)
	tiny(f, d)
	if strings.Contains(html(c), `id="attention"`) {
		t.Error("an attention card without a variant that has one")
	}
	f.play(protocol.Event{Kind: protocol.KindSnapshot, Gen: 1, Snap: &protocol.Snapshot{Epoch: 1, Epochs: 200,
		Model: experiment.PDNMultiScale, Hops: []float64{0.7, 0.3}}}, nil)
	d.Consume()
	h := html(c)
	if !strings.Contains(h, `id="attention"`) || !strings.Contains(h, "Â^2") {
		t.Error("no hop weights shown for the multi-scale PDN")
	}
}

// Switching the layout redraws the view and leaves the engine alone, so
// training goes on.
func TestLayoutSwitchKeepsTraining(t *testing.T) {
	c, f, d := mount(t)
	tiny(f, d)
	snapshot(f, 1, true, 0.9, 0.05, 0.3)
	d.Consume()
	sent, before := len(f.sent), c.view
	c.setParam("layout", "input")
	if len(f.sent) != sent || c.st.View.Layout != "input" || c.view == before || c.strokes == nil {
		t.Errorf("after the switch: %d commands sent, layout %q, view rebuilt %v", len(f.sent)-sent, c.st.View.Layout, c.view != before)
	}
	c.setParam("layout", "spiral") // not a layout: nothing changes
	if c.st.View.Layout != "input" {
		t.Errorf("layout %q after a bad value", c.st.View.Layout)
	}
	if !strings.Contains(c.st.Encode(), "layout=input") {
		t.Errorf("the permalink %q lacks the layout", c.st.Encode())
	}
}

// Pointing at a node or an edge tells what it is; a chosen node lists its
// edges, heaviest first.
func TestInspectNodesAndEdges(t *testing.T) {
	c, f, d := mount(t)
	tiny(f, d)
	snapshot(f, 3, false, 0.9, 0.05, 0.3)
	d.Consume()
	if !strings.Contains(html(c), "Point at a node") {
		t.Error("no hint before anything is inspected")
	}
	// Node 2 is class 1, a test node of degree 1; the model says class 0.
	do(d, c, func() { c.inspectAt(c.view.NodeAt(2)) })
	h := html(c)
	for _, want := range []string{"Node 2", "class 1, a test node, degree", "predicts class 0 with probability", "wrong"} {
		if !strings.Contains(h, want) {
			t.Errorf("pointing at node 2: the page lacks %q", want)
		}
	}
	if v := metricValue(h, "inspected-degree"); v != "1" {
		t.Errorf("inspected-degree %q, want 1", v)
	}
	if !strings.Contains(c.insp.overlay, "highlight-node") {
		t.Error("node 2 is not ringed")
	}
	// Half-way along edge 1 (nodes 1–2, inter-class, weight 0.05).
	x1, y1 := c.view.NodeAt(1)
	x2, y2 := c.view.NodeAt(2)
	do(d, c, func() { c.inspectAt((x1+x2)/2, (y1+y2)/2) })
	h = html(c)
	for _, want := range []string{"Edge 1–2", "inter-class"} {
		if !strings.Contains(h, want) {
			t.Errorf("pointing at edge 1–2: the page lacks %q", want)
		}
	}
	if v := metricValue(h, "inspected-weight"); !strings.HasPrefix(v, "0.05") {
		t.Errorf("inspected-weight %q, want 0.05", v)
	}
	do(d, c, func() { c.leave(); c.selectNode(0) })
	if h = html(c); !strings.Contains(h, "Its edges, heaviest first: to 1 (intra-class, 0.90), to 3 (inter-class, 0.30)") {
		t.Errorf("node 0's edges are not listed by weight: %s", h)
	}
	do(d, c, func() { c.selectNode(0) }) // again: let go
	if c.insp.selected != -1 || c.insp.overlay != "" {
		t.Error("choosing the chosen node did not let it go")
	}
}

var tagRE = regexp.MustCompile(`<[a-z]+ [^>]*>`)
var valueRE = regexp.MustCompile(`data-value="([^"]*)"`)

// metricValue returns the data-value of the element whose data-metric is
// name (go-app writes attributes in any order), "" if there is none.
func metricValue(h, name string) string {
	for _, tag := range tagRE.FindAllString(h, -1) {
		if strings.Contains(tag, `data-metric="`+name+`"`) {
			if m := valueRE.FindStringSubmatch(tag); m != nil {
				return m[1]
			}
		}
	}
	return ""
}

// Cards that mean nothing for a model say why in one line.
func TestCardsSayWhyTheyAreEmpty(t *testing.T) {
	c, f, d := mount(t)
	tiny(f, d)
	f32 := []float32{1, 1, 1, 0, 0, 0, 0, 0.5, 0.5, 0.5, 0.5}
	f.play(protocol.Event{Kind: protocol.KindSnapshot, Gen: 1, Snap: &protocol.Snapshot{Epoch: 1, Epochs: 200,
		Model: experiment.GCN, Weights: 3, Nodes: 4}}, f32)
	d.Consume()
	if h := html(c); !strings.Contains(h, "gcn gives every edge the same weight, 1") {
		t.Error("GCN's histogram does not say why it is empty")
	}
	f.play(protocol.Event{Kind: protocol.KindSnapshot, Gen: 1, Snap: &protocol.Snapshot{Epoch: 2, Epochs: 200,
		Model: experiment.PDNLinear, Inputs: []float64{0.5, 0.5}, Weights: 3, Nodes: 4}}, []float32{0.2, 0.9, 0.4, 0, 0, 0, 0, 0.5, 0.5, 0.5, 0.5})
	d.Consume()
	h := html(c)
	if !strings.Contains(h, "so no input is worth more than another") {
		t.Error("the linear PDN's attention card does not say why it shows nothing here")
	}
	if strings.Contains(h, "gives every edge the same weight") {
		t.Error("weights that differ are called equal")
	}
}

// With Q above P the controls say the graph is heterophilic, and only then.
func TestControlsSayQAboveP(t *testing.T) {
	c, _, d := mount(t)
	if strings.Contains(html(c), `id="note-q"`) {
		t.Error("the default graph (Q below P) is called heterophilic")
	}
	doIn(d, c, func() { c.setParam("q", "0.02") })
	if h := html(c); !strings.Contains(h, `id="note-q"`) || !strings.Contains(h, "more edges between classes than within") {
		t.Error("Q = 0.02 above P = 0.01 says nothing of heterophily")
	}
}
