package app

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/experiment"
	"pdnexplorer/wasm/protocol"
)

// The speed row reaches every run's worker: with its state when a run
// opens, and as OpPace when it changes (the run itself is untouched); the
// keys step it through experiment.Speeds.
func TestSpeedReachesTheWorkers(t *testing.T) {
	_, l, conns, d := mountLab(t, "degree", "lab=degree&speed=5")
	if len(*conns) != 2 {
		t.Fatalf("%d workers", len(*conns))
	}
	for _, f := range *conns {
		if c := f.sent[0]; c.Op != protocol.OpSet || c.Pace != 5 {
			t.Errorf("the run opened with %+v", c)
		}
	}
	doIn(d, l.fig.(app.Composer), func() { l.do(cmdSlower) })
	for _, f := range *conns {
		if c := f.sent[len(f.sent)-1]; c.Op != protocol.OpPace || c.Pace != 1 {
			t.Errorf("after -: %+v", c)
		}
	}
	doIn(d, l.fig.(app.Composer), func() { l.do(cmdFaster); l.do(cmdFaster); l.do(cmdFaster); l.do(cmdFaster) })
	if l.st.View.Speed != 0 {
		t.Errorf("four steps faster from 1 reach %v, want 0 (full speed)", l.st.View.Speed)
	}
	for _, f := range *conns {
		for _, c := range f.sent[1:] {
			if c.Op == protocol.OpSet || c.Op == protocol.OpRegenerate {
				t.Errorf("a change of pace sent %+v, which restarts the run", c)
			}
		}
	}
}

// The trace's sentence on the share from other classes says what its two
// numbers show, for a node with a neighbour of another class.
func TestShareSentenceReadsTheNumbers(t *testing.T) {
	for _, tc := range []struct {
		kind      string
		ours, gcn float64
		epoch     int
		want      string
	}{
		{experiment.PDN, 0.10, 0.50, 20, "lower it"},
		{experiment.PDN, 0.263, 0.248, 20, "raise it"},
		{experiment.PDN, 0.500, 0.502, 20, "about where GCN has it"},
		{experiment.PDN, 0.10, 0.50, 0, "nothing is learned yet"}, // the initial weights: nothing learned lowers it
		{experiment.GAT, 0.10, 0.50, 0, "nothing is learned yet"},
		{experiment.GAT, 0.10, 0.50, 20, "lower it"},
		{experiment.GCN, 0.50, 0.50, 0, "training does not move it"}, // no weights to learn, at any epoch
		{experiment.GCN, 0.50, 0.50, 20, "training does not move it"},
	} {
		got := shareSentence(&protocol.Trace{InterShare: protocol.Num(tc.ours), InterShareGCN: protocol.Num(tc.gcn), Edges: []protocol.TraceEdge{{Neighbour: 1, Label: 1}}}, tc.kind, tc.epoch)
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s at epoch %d, %v against GCN's %v: %q, want %q", tc.kind, tc.epoch, tc.ours, tc.gcn, got, tc.want)
		}
	}
}

// A fast epoch's time reads in milliseconds, never "0.0 s".
func TestEpochTimeNeverReadsZero(t *testing.T) {
	for _, tc := range []struct {
		sec  float64
		want string
	}{{0.033, " · 33 ms an epoch"}, {0.0004, " · 0 ms an epoch"}, {0.25, " · 0.2 s an epoch"}, {3, " · 3.0 s an epoch"}} {
		if got := epochTime(tc.sec); got != tc.want && !(tc.sec == 0.25 && got == " · 0.3 s an epoch") {
			t.Errorf("%v s: %q, want %q", tc.sec, got, tc.want)
		}
	}
}

// The learned weights' caption speaks of σD only for the generator's
// graphs, which draw the edge features by it.
func TestHistogramCaptionFitsTheGraph(t *testing.T) {
	for _, tc := range []struct {
		graph string
		sigma bool
	}{{"synthetic", true}, {"scale-free", true}, {"xor", false}, {"cora", false}, {"local", false}} {
		h := app.HTMLString(explainHistogram(experiment.Data{Graph: tc.graph}))
		if strings.Contains(h, "σD") != tc.sigma {
			t.Errorf("%s: the caption %q", tc.graph, h)
		}
	}
}

// The threads row reaches every run's worker: with its state when a run
// opens, beside the runs alongside it, and as OpThreads when it changes
// (the run itself is untouched).
func TestThreadsReachTheWorkers(t *testing.T) {
	rm, l, conns, d := mountLab(t, "compare", "lab=compare&threads=2")
	if len(*conns) != 2 {
		t.Fatalf("%d workers", len(*conns))
	}
	for _, f := range *conns {
		if c := f.sent[0]; c.Op != protocol.OpSet || c.Threads != 2 || c.Alongside != 2 {
			t.Errorf("the run opened with %+v, want 2 threads asked beside 2 runs", c)
		}
	}
	next := l.st
	next.View.Threads = 1
	doIn(d, l.fig.(app.Composer), func() { rm.show(next, nil) })
	for _, f := range *conns {
		c := f.sent[len(f.sent)-1]
		if c.Op != protocol.OpThreads || c.Threads != 1 || c.Alongside != 2 {
			t.Errorf("after threads=1: %+v", c)
		}
		for _, c := range f.sent[1:] {
			if c.Op == protocol.OpSet || c.Op == protocol.OpRegenerate {
				t.Errorf("a change of threads sent %+v, which restarts the run", c)
			}
		}
	}
}

// The structure lab's own runs and its pool's train at once: while the
// pool plays, each own run's share of the threads counts the pool's
// workers beside it (OpThreads), and has the cores back once it halts.
func TestStructureRunsShareTheThreadsWithThePool(t *testing.T) {
	rm, l, conns, d := mountLab(t, "structure", "lab=structure&threads=4")
	c := rm.(*StructureLab)
	live := len(*conns)
	lastOf := func(f *fakeConn) protocol.Command { return f.sent[len(f.sent)-1] }
	doIn(d, rm, func() { c.toggleSide() })
	for _, f := range (*conns)[:live] {
		if got := lastOf(f); got.Op != protocol.OpThreads || got.Threads != 4 || got.Alongside != live+sweepWorkers() {
			t.Errorf("with the pool playing, an own run got %+v; want its share beside %d runs", got, live+sweepWorkers())
		}
	}
	for _, f := range (*conns)[live:] {
		if set := f.sent[len(f.sent)-2]; set.Op != protocol.OpSet || set.Alongside != live+sweepWorkers() {
			t.Errorf("a pool worker got %+v; want its share beside %d runs", set, live+sweepWorkers())
		}
	}
	// The row changed while the pool plays reaches the pool's workers too.
	next := l.st
	next.View.Threads = 2
	doIn(d, rm, func() { rm.show(next, nil) })
	for i, f := range *conns {
		if got := lastOf(f); got.Op != protocol.OpThreads || got.Threads != 2 || got.Alongside != live+sweepWorkers() {
			t.Errorf("after threads=2, worker %d got %+v; want 2 threads beside %d runs", i, got, live+sweepWorkers())
		}
	}
	for _, stop := range []struct {
		how string
		do  func()
	}{{"paused", c.side.hold}, {"halted", c.side.halt}} {
		doIn(d, rm, stop.do)
		for _, f := range (*conns)[:live] {
			if got := lastOf(f); got.Op != protocol.OpThreads || got.Alongside != len(l.runs) {
				t.Errorf("after the pool %s, an own run got %+v; want its share beside its lab's %d", stop.how, got, len(l.runs))
			}
		}
	}
}
