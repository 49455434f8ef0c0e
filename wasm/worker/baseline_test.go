package main

import (
	"math"
	"testing"
	"time"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/lessons"
	"pdnexplorer/wasm/protocol"
)

// A run asked for its baseline (the page asks one run of a lab) gets its
// graph's majority class with the graph and, trained beside it, the MLP's
// test accuracy: the very numbers pdn train reports (lessons.ChanceOf), on
// a run that trains meanwhile as on one that waits. A run not asked trains
// none; an edit of the edges keeps the baseline, another lr trains it
// again.
func TestSessionTrainsTheBaselineAsTheCLIDoes(t *testing.T) {
	e := small()
	g, err := datasets.Build(e.Data)
	if err != nil {
		t.Fatal(err)
	}
	want, err := lessons.ChanceOf(g, e, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, running := range []bool{false, true} {
		s, r := newTestSession()
		s.handle(protocol.Command{Op: protocol.OpSet, State: e.Encode(), Baseline: true})
		if running {
			s.handle(protocol.Command{Op: protocol.OpStart})
		}
		drain(t, s)
		gev, _ := r.last(protocol.KindGraph)
		if float64(gev.Graph.Majority) != want.Majority || gev.Graph.TestNodes != want.Tests || gev.Graph.Classes != 3 || gev.Graph.Features != e.Data.NodeFeatures {
			t.Errorf("running %v: the graph says majority %v of %d test nodes, %d classes, %d features; want %v of %d", running,
				gev.Graph.Majority, gev.Graph.TestNodes, gev.Graph.Classes, gev.Graph.Features, want.Majority, want.Tests)
		}
		b, _ := r.last(protocol.KindBaseline)
		if b.Baseline == nil || float64(b.Baseline.TestAcc) != want.MLP || b.Baseline.State != experiment.Baseline(e).EncodeRun() {
			t.Fatalf("running %v: baseline %+v, want the MLP's %v", running, b.Baseline, want.MLP)
		}
		if snap, _ := r.last(protocol.KindSnapshot); running && snap.Snap.Epoch != e.Train.Epochs {
			t.Errorf("the run stopped at epoch %d beside its baseline", snap.Snap.Epoch)
		}
	}

	s, r := newTestSession()
	set(s, e)
	drain(t, s)
	if i := r.lastIndex(protocol.KindBaseline); i >= 0 {
		t.Error("a run not asked for a baseline trained one")
	}

	s, r = newTestSession()
	s.handle(protocol.Command{Op: protocol.OpSet, State: e.Encode(), Baseline: true})
	drain(t, s)
	edited := e
	edited.Data.Edits = "r0-1"
	if g.EdgeIndex(0, 1) < 0 {
		edited.Data.Edits = "a0-1"
	}
	n := len(r.events)
	s.handle(protocol.Command{Op: protocol.OpSet, State: edited.Encode(), Baseline: true})
	drain(t, s)
	for _, ev := range r.events[n:] {
		if ev.Kind == protocol.KindBaseline {
			t.Error("an edit of the edges trained the baseline again")
		}
	}
	lr := e
	lr.Train.LR = 0.02
	s.handle(protocol.Command{Op: protocol.OpSet, State: lr.Encode(), Baseline: true})
	drain(t, s)
	if b, _ := r.last(protocol.KindBaseline); b.Baseline.State != experiment.Baseline(lr).EncodeRun() || math.IsNaN(float64(b.Baseline.TestAcc)) {
		t.Errorf("another lr: baseline %+v", b.Baseline)
	}
}

// A paced run leaves the baseline the time it waits between epochs: the
// baseline ends while the run is still early in its epochs.
func TestBaselineFillsAPacedRunsWaits(t *testing.T) {
	e := small()
	e.Train.Epochs = 200
	s, r := newTestSession()
	s.handle(protocol.Command{Op: protocol.OpSet, State: e.Encode(), Baseline: true, Pace: 1})
	s.handle(protocol.Command{Op: protocol.OpStart})
	for i := 0; i < 10000 && r.lastIndex(protocol.KindBaseline) < 0; i++ {
		s.work(50 * time.Millisecond)
	}
	b, _ := r.last(protocol.KindBaseline)
	snap, _ := r.last(protocol.KindSnapshot)
	if b.Baseline == nil || snap.Snap.Epoch >= 20 {
		t.Errorf("at 1 epoch a second, the baseline %+v came at epoch %d", b.Baseline, snap.Snap.Epoch)
	}
}
