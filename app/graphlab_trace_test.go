package app

import (
	"math"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/edgekind"
	"pdnexplorer/wasm/protocol"
)

// openTrace mounts the graph lab at link, plays a run on its engine,
// selects node 1 and opens its trace.
func openTrace(t *testing.T, link string) (room, *GraphLab, *fakeConn, app.ClientDispatcher) {
	rm, _, conns, d := mountLab(t, "graph", link)
	c := rm.(*GraphLab)
	f := (*conns)[0]
	playRun(f, 0)
	d.Consume()
	doIn(d, c, func() { c.selectNode(1) })
	doIn(d, c, func() { c.toggleTrace() })
	return rm, c, f, d
}

// Opening "How this node is updated" asks the engine for the selected
// node's trace, a new selection for its own, closing it for none; the
// view shows the trace's weights, messages and prediction, a step at a
// time, and the share of the message from other classes per run.
func TestNodeTraceView(t *testing.T) {
	rm, c, f, d := openTrace(t, "lab=graph")
	if last := f.sent[len(f.sent)-1]; last.Op != protocol.OpTrace || last.Node != 1 {
		t.Fatalf("opening the view sent %+v", last)
	}
	tr := &protocol.Trace{Node: 1, Label: 1, Pred: 0, Degree: 1.5, Self: 0.66, Msg1: []protocol.Num{0.1, -0.2}, Msg2: []protocol.Num{0.3, 0.1},
		Bias1: []protocol.Num{0, 0}, Bias2: []protocol.Num{0, 0}, Pre1: []protocol.Num{0.2, -0.1}, Hidden: []protocol.Num{0.2, 0},
		Logits: []protocol.Num{1, 0}, Prob: []protocol.Num{0.73, 0.27}, InterShare: 0.25, InterShareGCN: 0.4,
		Edges: []protocol.TraceEdge{{Neighbour: 0, Label: 0, Alpha: 0.5, Degree: 1.5, Norm: 0.33, NormGCN: 0.5, Msg1: []protocol.Num{0.1, 0.1}, Msg2: []protocol.Num{0.2, -0.1}}}}
	f.play(protocol.Event{Kind: protocol.KindSnapshot, Gen: 1, Snap: &protocol.Snapshot{Epoch: 4, Epochs: 200, Model: "pdn", Trace: tr, Weights: 1, Nodes: 2}}, []float32{0.5, 0, 0, 0.7, 0.7})
	d.Consume()
	h := app.HTMLString(rm)
	if !hasMetric(h, "inter-class-message-share", "pdn", "0.25") || !hasMetric(h, "inter-class-message-share", "gcn", "0.4") || !hasMetric(h, "trace-alpha", "0", "0.5") {
		t.Error("the view misses the shares or the edge's α")
	}
	for range 3 {
		doIn(d, c, func() { c.moveStep(1) })
	}
	if h := app.HTMLString(rm); !hasMetric(h, "trace-prediction", "", "0") || !hasMetric(h, "trace-probability", "0", "0.73") {
		t.Error("the last step misses the prediction")
	}
	doIn(d, c, func() { c.selectNode(0) })
	if last := f.sent[len(f.sent)-1]; last.Op != protocol.OpTrace || last.Node != 0 {
		t.Errorf("a new selection sent %+v", last)
	}
	doIn(d, c, func() { c.toggleTrace() })
	if last := f.sent[len(f.sent)-1]; last.Op != protocol.OpTrace || last.Node != -1 || strings.Contains(app.HTMLString(rm), `id="node-trace"`) {
		t.Errorf("closing the view sent %+v", last)
	}
}

// GAT's trace says its weights are attention, with no degree, and its
// activation the ELU.
func TestNodeTraceViewOfGAT(t *testing.T) {
	rm, c, f, d := openTrace(t, "lab=graph&model=gat")
	tr := &protocol.Trace{Node: 1, Label: 1, Pred: 1, Degree: protocol.Num(math.NaN()), Self: 0.6, Msg1: []protocol.Num{0.1, -0.2}, Msg2: []protocol.Num{0.3, 0.1},
		Bias1: []protocol.Num{0, 0}, Bias2: []protocol.Num{0, 0}, Pre1: []protocol.Num{-0.5, 0.1}, Hidden: []protocol.Num{-0.39, 0.1},
		Logits: []protocol.Num{0, 1}, Prob: []protocol.Num{0.27, 0.73}, InterShare: 0.4, InterShareGCN: 0.5, Attention: true,
		Edges: []protocol.TraceEdge{{Neighbour: 0, Label: 0, Alpha: 0.4, Degree: protocol.Num(math.NaN()), Norm: 0.4, NormGCN: 0.5, Msg1: []protocol.Num{0.1, 0.1}, Msg2: []protocol.Num{0.2, -0.1}}}}
	f.play(protocol.Event{Kind: protocol.KindSnapshot, Gen: 1, Snap: &protocol.Snapshot{Epoch: 4, Epochs: 200, Model: "gat", Trace: tr, Weights: 1, Nodes: 2}}, []float32{0.4, 1, 1, 0.7, 0.7})
	d.Consume()
	if h := app.HTMLString(rm); !strings.Contains(h, "GAT learns its weights from the nodes") || !hasMetric(h, "trace-alpha", "0", "0.4") ||
		!hasMetric(h, "inter-class-message-share", "gat", "0.4") || !strings.Contains(h, "Here the learned weights lower it") {
		t.Error("GAT's first step does not speak of attention")
	}
	doIn(d, c, func() { c.moveStep(1); c.moveStep(1) })
	if h := between(app.HTMLString(rm), `id="node-trace"`, `id="edit"`); !strings.Contains(h, "<mi>ELU</mi>") || strings.Contains(h, "<mi>ReLU</mi>") {
		t.Error("GAT's activation is not the ELU")
	}
}

// Audit case 98: the trace opened at epoch 5, then the views rewound to
// an epoch whose snapshot came before it: that frame holds no update and
// nothing is being asked, so the card says so instead of waiting for
// ever.
func TestTraceAtAnEpochWithoutOne(t *testing.T) {
	c, f, d := mount(t)
	tiny(f, d)
	do(d, c, func() {
		for e := 1; e <= 5; e++ {
			snapshot(f, e, false, 0.5, 0.5, 0.5)
		}
	})
	do(d, c, func() { c.selectNode(1); c.toggleTrace() })
	do(d, c, func() { c.rewindTo(0) })
	if h := html(c); !strings.Contains(h, `id="trace-none"`) || strings.Contains(h, "Asking the engine for the node") {
		t.Error("a rewound frame without the trace still asks the engine")
	}
}

// The share sentence says why no weight can move the share where none
// can: a node without edges hears only itself (the audit's isolated node,
// whose trace said its weights "do not yet tell the classes apart"), a
// node without a class has no other classes, and a node whose neighbours
// are all of its class hears none of another. Step 1 says the node has no
// edge to weigh instead of an empty table.
func TestNodeTraceSaysWhyNoWeightMovesTheShare(t *testing.T) {
	edge := protocol.TraceEdge{Neighbour: 0, Label: 1, Alpha: 0.5, Degree: 1.5, Norm: 0.33, NormGCN: 0.5, Msg1: []protocol.Num{0.1, 0.1}, Msg2: []protocol.Num{0.2, -0.1}}
	other := edge
	other.Label = 0
	nan := protocol.Num(math.NaN())
	for _, tc := range []struct {
		name                string
		label               int
		share, gcn          protocol.Num
		edges               []protocol.TraceEdge
		rest                int
		want, wantNot, step string
	}{
		{name: "isolated", label: 1, edges: nil, want: "It has no edges", step: "has no edges, so there is no edge to weigh"},
		{name: "isolated without a class", label: -1, share: nan, gcn: nan, want: "It has no edges", step: "has no edges"},
		{name: "no class", label: -1, share: nan, gcn: nan, edges: []protocol.TraceEdge{edge}, want: "It has no class"},
		{name: "all of its class", label: 1, edges: []protocol.TraceEdge{edge}, want: "All of its neighbours are of its own class"},
		{name: "all of its class, lighter edges summed", label: 1, rest: 3, want: "All of its neighbours are of its own class"},
		{name: "weights alike", label: 1, share: 0.4, gcn: 0.4, edges: []protocol.TraceEdge{other}, want: "do not yet tell the classes apart"},
		{name: "weighed down", label: 1, share: 0.2, gcn: 0.4, edges: []protocol.TraceEdge{other}, want: "Here the learned weights lower it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rm, _, f, d := openTrace(t, "lab=graph")
			tr := &protocol.Trace{Node: 1, Label: tc.label, Degree: 1, Self: 1, Msg1: []protocol.Num{0.1, -0.2}, Msg2: []protocol.Num{0.3, 0.1},
				Bias1: []protocol.Num{0, 0}, Bias2: []protocol.Num{0, 0}, Pre1: []protocol.Num{0.2, -0.1}, Hidden: []protocol.Num{0.2, 0},
				Logits: []protocol.Num{1, 0}, Prob: []protocol.Num{0.73, 0.27}, InterShare: tc.share, InterShareGCN: tc.gcn, Edges: tc.edges,
				Rest: protocol.TraceRest{Edges: tc.rest, Msg1: []protocol.Num{0, 0}, Msg2: []protocol.Num{0, 0}}}
			f.play(protocol.Event{Kind: protocol.KindSnapshot, Gen: 1, Snap: &protocol.Snapshot{Epoch: 100, Epochs: 200, Model: "pdn", Trace: tr, Weights: 1, Nodes: 2}}, []float32{0.5, 0, 0, 0.7, 0.7})
			d.Consume()
			h := between(app.HTMLString(rm), `class="trace-share"`, `class="trace-nav"`)
			if !strings.Contains(h, tc.want) {
				t.Errorf("the share says %q; want %q", h, tc.want)
			}
			if tc.want != "do not yet tell the classes apart" && strings.Contains(h, "do not yet tell the classes apart") {
				t.Errorf("the share blames the weights where none can move it: %q", h)
			}
			if step := between(app.HTMLString(rm), `class="trace-nav"`, `id="edit"`); tc.step != "" && !strings.Contains(step, tc.step) {
				t.Errorf("step 1 says %q; want %q", step, tc.step)
			}
		})
	}
}

// The inspector says a node without edges has none, not that none of its
// edges is drawn (a large graph draws some of its edges only).
func TestInspectorSaysAnIsolatedNodeHasNoEdges(t *testing.T) {
	c, f, d := mount(t)
	f.play(protocol.Event{Kind: protocol.KindGraph, Gen: 1, Graph: &protocol.Graph{
		Nodes: 3, Src: []int32{0}, Dst: []int32{1}, Labels: []int{0, 1, 1},
		Kinds: []edgekind.Kind{edgekind.Inter}, Test: []bool{false, false, true}}}, nil)
	f.play(protocol.Event{Kind: protocol.KindLayout, Gen: 1}, []float32{0, 0, 1, 0, 1, 1})
	f.play(protocol.Event{Kind: protocol.KindSnapshot, Gen: 1, Snap: &protocol.Snapshot{Epoch: 3, Epochs: 200, TestAcc: 0.5,
		Model: "pdn", Weights: 1, Nodes: 3}}, []float32{0.4, 0, 0, 0, 0.5, 0.5, 0.5})
	d.Consume()
	do(d, c, func() { c.selectNode(2) })
	if h := html(c); !strings.Contains(h, "It has no edges: only its own features reach its update.") || strings.Contains(h, "No edge of this node is drawn.") {
		t.Errorf("node 2, without edges, is described %s", between(h, "Node 2", "</p>"))
	}
	do(d, c, func() { c.selectNode(0) })
	if h := html(c); !strings.Contains(h, "Its edges, heaviest first: to 1") {
		t.Errorf("node 0's edge is not listed: %s", between(h, "Node 0", "</p>"))
	}
}
