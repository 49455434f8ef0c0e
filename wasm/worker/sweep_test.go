package main

import (
	"fmt"
	"strings"
	"testing"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/lessons"
	"pdnexplorer/pdn"
	"pdnexplorer/wasm/protocol"
)

// A sweep's run trains quietly: no graph, no layout, one snapshot at its
// end without arrays, whose test accuracy is the one pdn sweep gets for
// the same run, bit for bit. Two runs in a row on one worker (the second
// on the first's graph) are each their own.
func TestQuietRunIsTheCLIsRun(t *testing.T) {
	base := experiment.ForLab("sweep")
	base.Train.Epochs = 12
	base.Data.PerClass = 40
	sw, err := experiment.SweepOf(base)
	if err != nil {
		t.Fatal(err)
	}
	s, r := newTestSession()
	for _, i := range []int{sw.Index(2, 1, 0), sw.Index(2, 1, 1), sw.Index(3, 0, 0)} {
		v, rep, m := sw.Place(i)
		e, _ := sw.Exp(v, rep, sw.Models[m])
		r.events, r.f32, r.raw = nil, nil, nil
		s.handle(protocol.Command{Op: protocol.OpSet, Run: 7, State: e.EncodeRun(), Quiet: true})
		s.handle(protocol.Command{Op: protocol.OpStart, Run: 7})
		drain(t, s)
		if got := r.kinds(); got != "snapshot" {
			t.Fatalf("run %d posted %s; want one snapshot", i, got)
		}
		ev, f32 := r.lastRaw(protocol.KindSnapshot)
		if ev.Snap.Epoch != e.Train.Epochs || ev.Snap.Running || len(f32) != 0 || ev.Run != 7 {
			t.Errorf("run %d: epoch %d, running %v, %d floats, run %d", i, ev.Snap.Epoch, ev.Snap.Running, len(f32), ev.Run)
		}
		want := cliAccuracy(t, e)
		if got := float64(ev.Snap.TestAcc); got != want {
			t.Errorf("run %d: the worker's test accuracy %v, the CLI's %v", i, got, want)
		}
	}
}

// cliAccuracy trains e as pdn sweep does.
func cliAccuracy(t *testing.T, e experiment.Experiment) float64 {
	t.Helper()
	g, err := datasets.Synthetic(e.Data)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := pdn.NewTrainer(g, e)
	if err != nil {
		t.Fatal(err)
	}
	if err := lessons.Train(tr, 1<<30, nil); err != nil {
		t.Fatal(err)
	}
	return tr.Evaluate().TestAcc
}

// A node's trace comes with every snapshot once asked for, from the live
// model, and goes with -1; a node beyond the graph says why it has none.
func TestTraceFollowsSnapshots(t *testing.T) {
	s, r := newTestSession()
	e := small()
	set(s, e)
	drain(t, s)
	s.handle(protocol.Command{Op: protocol.OpTrace, Node: 5})
	ev, _ := r.last(protocol.KindSnapshot)
	tr := ev.Snap.Trace
	if tr == nil || tr.Node != 5 || len(tr.Hidden) != e.Model.Hidden || len(tr.Prob) != e.Data.Classes {
		t.Fatalf("trace %+v", tr)
	}
	if len(tr.Edges) > protocol.MaxTraceEdges || float64(tr.InterShareGCN) < 0 || float64(tr.InterShareGCN) > 1 {
		t.Errorf("%d edges, GCN share %v", len(tr.Edges), tr.InterShareGCN)
	}
	s.handle(protocol.Command{Op: protocol.OpStep})
	drain(t, s)
	if ev, _ := r.last(protocol.KindSnapshot); ev.Snap.Trace == nil || ev.Snap.Epoch != 1 {
		t.Error("the trace does not follow a step")
	}
	s.handle(protocol.Command{Op: protocol.OpTrace, Node: 10000})
	if ev, _ := r.last(protocol.KindSnapshot); ev.Snap.Trace != nil || !strings.Contains(ev.Snap.TraceError.String(), "not in the graph") {
		t.Errorf("a node beyond the graph: %q", ev.Snap.TraceError)
	}
	s.handle(protocol.Command{Op: protocol.OpTrace, Node: -1})
	if ev, _ := r.last(protocol.KindSnapshot); ev.Snap.Trace != nil || ev.Snap.TraceError != nil {
		t.Error("the trace goes on after -1")
	}
}

// The engine says how long runs will take by its cost model: a larger
// graph or more epochs take longer, and a state that does not decode has
// no estimate (-1). It answers whatever run it serves.
func TestEstimateRuns(t *testing.T) {
	small := experiment.ForLab("sweep")
	big := small
	big.Data.PerClass *= 2
	long := small
	long.Train.Epochs *= 10
	s, r := newTestSession()
	s.handle(protocol.Command{Op: protocol.OpEstimate, States: []string{small.EncodeRun(), big.EncodeRun(), long.EncodeRun(), "lr=-1"}})
	ev, _ := r.last(protocol.KindEstimate)
	sec := ev.Seconds
	if len(sec) != 4 || sec[0] <= 0 || sec[1] <= sec[0] || sec[2] < 9*sec[0] || sec[3] != -1 {
		t.Errorf("estimates %v", sec)
	}
}

// Audit cases 97, 99, 100 and 101: the trace of a node without edges is its own
// message alone (d = 1, â = 1, a share of 0 from other classes); a node of
// degree 2,000 shows its heaviest edges and sums the rest as one row;
// Cora's node 0 shows its three; and
// a model that passes no messages over one learned graph says why it has
// no trace, naming the models that have one.
func TestTraceOfAnIsolatedNodeAHubAndModelsWithout(t *testing.T) {
	const n = 2101 // node 0 joined to 1..2000; node 2100 alone
	var edges, labels strings.Builder
	edges.WriteString("source,target\n")
	labels.WriteString("node,label\n")
	for j := 1; j <= 2000; j++ {
		fmt.Fprintf(&edges, "0,%d\n", j)
	}
	for j := 1; j < 2000; j += 2 {
		fmt.Fprintf(&edges, "%d,%d\n", j, j+1)
	}
	for i := range n {
		fmt.Fprintf(&labels, "%d,%d\n", i, i%2)
	}
	s, r := newTestSession()
	s.handle(protocol.Command{Op: protocol.OpLoad, Files: []protocol.File{{Name: "edges.csv", Data: []byte(edges.String())}, {Name: "labels.csv", Data: []byte(labels.String())}}})
	if ev, _ := r.last(protocol.KindLoaded); ev.Loaded == nil || ev.Loaded.Nodes != n {
		t.Fatalf("the hub did not open: %s", r.kinds())
	}
	e := local()
	e.Train.Epochs = 3
	set(s, e)
	drain(t, s)
	s.handle(protocol.Command{Op: protocol.OpTrace, Node: 0})
	ev, _ := r.last(protocol.KindSnapshot)
	if tr := ev.Snap.Trace; tr == nil || len(tr.Edges) != protocol.MaxTraceEdges || tr.Rest.Edges != 2000-protocol.MaxTraceEdges {
		t.Fatalf("the hub's trace: %+v (%s)", tr, ev.Snap.TraceError)
	} else if tr.Edges[0].Norm < tr.Edges[len(tr.Edges)-1].Norm || float64(tr.Rest.Norm) <= 0 {
		t.Errorf("the hub's edges are not the heaviest first, or the rest weighs nothing: first %v, last %v, rest %v", tr.Edges[0].Norm, tr.Edges[len(tr.Edges)-1].Norm, tr.Rest.Norm)
	}
	s.handle(protocol.Command{Op: protocol.OpTrace, Node: n - 1})
	ev, _ = r.last(protocol.KindSnapshot)
	if tr := ev.Snap.Trace; tr == nil || len(tr.Edges) != 0 || tr.Rest.Edges != 0 || tr.Degree != 1 || tr.Self != 1 || tr.InterShare != 0 {
		t.Errorf("the isolated node's trace: %+v (%s)", tr, ev.Snap.TraceError)
	}
	// Audit case 101: Cora's node 0 and its three citations.
	cora := small()
	cora.Data.Graph = experiment.GraphCora
	cora.Train.Epochs = 3
	set(s, cora)
	drain(t, s)
	s.handle(protocol.Command{Op: protocol.OpTrace, Node: 0})
	ev, _ = r.last(protocol.KindSnapshot)
	if tr := ev.Snap.Trace; tr == nil || len(tr.Edges) != 3 || tr.Rest.Edges != 0 || float64(tr.Degree) <= 1 {
		t.Errorf("Cora's node 0: %+v (%s)", tr, ev.Snap.TraceError)
	}
	for _, kind := range []string{"pdn-multiscale", "appnp", "sgc", "clustergcn", "deepwalk"} {
		e.Model.Kind = kind
		set(s, e)
		drain(t, s)
		s.handle(protocol.Command{Op: protocol.OpTrace, Node: 0})
		ev, _ := r.last(protocol.KindSnapshot)
		if ev.Snap.Trace != nil || !strings.Contains(ev.Snap.TraceError.String(), "traced for the models that pass messages over one learned graph (pdn, pdn-linear, pdn-edgeconv, gcn) and for gat, not "+kind) {
			t.Errorf("%s's trace: %q", kind, ev.Snap.TraceError)
		}
	}
}
