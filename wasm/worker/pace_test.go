package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/internal/testwait"
	"pdnexplorer/pdn"
	"pdnexplorer/wasm/protocol"
)

// live runs a session's real loop in a goroutine and hands its events to
// the test through a channel, as the page would receive them. inject, if
// set, runs on the session's goroutine at its first turn of the event loop
// inside an epoch: commands it sends arrive exactly there.
type live struct {
	s       *session
	events  chan protocol.Event
	f32     chan []float32
	inEpoch bool // a trainer's Step is under way
}

// stepping is a trainer that says when its Step runs.
type stepping struct {
	*pdn.Trainer
	in *bool
}

func (s stepping) Step() (float64, error) {
	*s.in = true
	defer func() { *s.in = false }()
	return s.Trainer.Step()
}

func startLive(t *testing.T, inject func(cmds chan<- protocol.Command)) *live {
	l := &live{events: make(chan protocol.Event, 4096), f32: make(chan []float32, 4096)}
	l.s = newSession(func(ev protocol.Event, f32 []float32) {
		l.events <- ev
		f32 = append([]float32(nil), f32...)
		if ev.Kind == protocol.KindSnapshot {
			f32, _, _ = ev.Snap.Split(f32) // the weights
		}
		l.f32 <- f32
	})
	l.s.newTrainer = func(g *datasets.Graph, e experiment.Experiment) (trainer, error) {
		tr, err := pdn.NewTrainer(g, e)
		return stepping{tr, &l.inEpoch}, err
	}
	l.s.yield = func() {
		if inject != nil && l.inEpoch {
			inject(l.s.cmds)
			inject = nil
		}
	}
	go l.s.run()
	return l
}

func (l *live) send(op, state string) { l.s.cmds <- protocol.Command{Op: op, State: state} }

// next waits for the next event that matches.
func (l *live) next(t *testing.T, what string, match func(protocol.Event) bool) (protocol.Event, []float32) {
	t.Helper()
	ctx, cancel := testwait.Bound(t, context.Background()) // as long as the test may run
	defer cancel()
	for {
		select {
		case ev := <-l.events:
			f32 := <-l.f32
			if ev.Kind == protocol.KindError {
				t.Fatalf("waiting for %s: error %s", what, ev.Error)
			}
			if match(ev) {
				return ev, f32
			}
		case <-ctx.Done():
			t.Fatalf("no %s before the test's time ran out", what)
		}
	}
}

// longEpochs is a model whose epoch takes a few tenths of a second
// natively and in the browser, many chunks: the browser's estimate puts
// it at 0.42 s (47,164 edges under a pathfinder of 128 and 128).
func longEpochs() experiment.Experiment {
	e, _ := experiment.Decode("per-class=1024&p=0.02&edge-hidden=128,128&epochs=3")
	return e
}

// A pause that arrives inside an epoch holds the epoch right there; step
// finishes it; the weights are those of a run that never paused.
func TestPauseActsInsideAnEpoch(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a large model")
	}
	e := longEpochs()
	l := startLive(t, func(cmds chan<- protocol.Command) { cmds <- protocol.Command{Op: protocol.OpPause} })
	l.send(protocol.OpSet, e.Encode())
	l.next(t, "the first snapshot", func(ev protocol.Event) bool { return ev.Kind == protocol.KindSnapshot })
	l.send(protocol.OpStart, "")
	held, _ := l.next(t, "the pause", func(ev protocol.Event) bool { return ev.Kind == protocol.KindProgress })
	if held.Progress.Running || held.Progress.Epoch != 0 || held.Progress.Phase != protocol.PhaseEpoch || !(held.Progress.Done < 1) {
		t.Fatalf("after pause, inside epoch 1: %+v", held.Progress)
	}
	l.send(protocol.OpStep, "")
	done, w := l.next(t, "the end of the step", func(ev protocol.Event) bool { return ev.Kind == protocol.KindSnapshot })
	if done.Snap.Epoch != 1 || done.Snap.Running {
		t.Fatalf("after step: %+v", done.Snap)
	}
	g, _ := datasets.Synthetic(e.Data)
	tr, _ := pdn.NewTrainer(g, e)
	tr.Step()
	want := tr.Evaluate().Weights
	for i := range want {
		if w[i] != float32(want[i]) {
			t.Fatalf("weight %d is %v after a paused epoch, %v without a pause", i, w[i], float32(want[i]))
		}
	}
}

// Commands other than pause, play and step that arrive inside an epoch
// wait for it to end, and are then applied in order.
func TestCommandsInsideAnEpochWait(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a large model")
	}
	e := longEpochs()
	gcn := e
	gcn.Model.Kind = experiment.GCN
	l := startLive(t, func(cmds chan<- protocol.Command) {
		cmds <- protocol.Command{Op: protocol.OpPause}
		cmds <- protocol.Command{Op: protocol.OpSet, State: gcn.EncodeEngine()} // as the page sends it
	})
	l.send(protocol.OpSet, e.Encode())
	l.next(t, "the first snapshot", func(ev protocol.Event) bool { return ev.Kind == protocol.KindSnapshot })
	l.send(protocol.OpStart, "")
	l.next(t, "the start", func(ev protocol.Event) bool { return ev.Kind == protocol.KindSnapshot && ev.Snap.Running })
	end, _ := l.next(t, "the end of the epoch", func(ev protocol.Event) bool { return ev.Kind == protocol.KindSnapshot })
	if end.Snap.Model != experiment.PDN || end.Snap.Epoch != 1 || end.Snap.Running {
		t.Errorf("the epoch in progress was not finished first: %+v", end.Snap)
	}
	snap, _ := l.next(t, "the new model", func(ev protocol.Event) bool { return ev.Kind == protocol.KindSnapshot })
	if snap.Snap.Model != experiment.GCN || snap.Snap.Epoch != 0 || snap.Snap.Running {
		t.Errorf("after the epoch, the new model: %+v", snap.Snap)
	}
}

// The page's bound on edges is the cost model's, not a constant: the most
// edges the sliders draw (1.18 million) train at the defaults, as the
// engine affords them in a browser, and so does a graph of ogbn-arxiv's
// size opened as files.
func TestEdgesAreBoundByTheCostModel(t *testing.T) {
	e, err := experiment.Decode("classes=6&per-class=1024&p=0.0625&q=0.0625")
	if err != nil {
		t.Fatal(err)
	}
	if shape := pdn.ExpectedShape(e.Data); shape.E < 1_000_000 {
		t.Fatalf("the sliders' most edges: %d", shape.E)
	} else if err := checkSize(e, shape); err != nil {
		t.Errorf("%d edges refused: %v", shape.E, err)
	}
	arxiv := pdn.Shape{N: 169343, E: 1166243, F: 128, D: len(datasets.TieStrengthNames), C: 40}
	local := experiment.Default()
	local.Data.Graph = experiment.GraphLocal
	if err := checkSize(local, arxiv); err != nil {
		t.Errorf("ogbn-arxiv's size refused: %v", err)
	}
}

func TestSessionRefusesWhatTheBrowserCannotDo(t *testing.T) {
	for _, tc := range []struct {
		name, state, field, want string
	}{
		{"the link that hung the browser", "classes=6&per-class=1024&p=0.058&q=0.0009765625&node-features=64&edge-features=64&edge-hidden=256,256,256&hidden=512&epochs=5",
			"edge-hidden", "GB of memory (the browser allows 2.0 GB), most of it for the pathfinder MLP over"},
		{"an epoch too long", "classes=6&per-class=1024&p=0.03&edge-features=64&edge-hidden=128,128",
			"edge-hidden", "per epoch (the browser allows 1.0 s)"},
		{"the most edges the sliders draw, under a wide pathfinder", "classes=6&per-class=1024&p=0.0625&q=0.0625&edge-features=64&edge-hidden=64",
			"edge-hidden", "per epoch (the browser allows 1.0 s), most of it for the pathfinder MLP over 1,179,456 edges: lower edge-hidden, edge-features, q, p or per-class"},
		{"ClusterGCN's partition", "classes=6&per-class=1024&p=0.01&model=clustergcn", "q", "to set up (the browser allows 3.0 s), most of it for the Louvain partition: lower q, p, per-class or classes"},
		{"no edges", "classes=2&per-class=16&p=0.0009765625&q=0.0009765625&seed=3", "q", "the graph has no edges"}, // the row first of those that draw its edges: 256 pairs between classes, 240 within
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, r := newTestSession()
			s.handle(protocol.Command{Op: protocol.OpSet, State: tc.state})
			ev, _ := r.last(protocol.KindError)
			if ev.Field != tc.field || !strings.Contains(ev.Error, tc.want) {
				t.Errorf("error %+v, want field %s and %q", ev, tc.field, tc.want)
			}
			set(s, small()) // the page stays usable
			if _, w := r.last(protocol.KindSnapshot); len(w) == 0 {
				t.Error("no snapshot after a good experiment")
			}
		})
	}
}

func TestSessionWarnsOfAnUnstableRun(t *testing.T) {
	s, r := newTestSession()
	e := small()
	e.Train.LR = 10
	set(s, e)
	s.handle(protocol.Command{Op: protocol.OpStart})
	drain(t, s)
	snap, _ := r.last(protocol.KindSnapshot)
	if snap.Snap.WarningField != "lr" || (snap.Snap.Warning == nil || !strings.Contains(snap.Snap.Warning.String(), "lower lr (now 10;")) {
		t.Errorf("last snapshot %+v", snap.Snap)
	}
}

// insideShortEpochs is a session whose clock jumps 10 ms a reading, on
// the paper's default graph, whose epochs the cost model calls short: its
// pacing yields inside every epoch, where inject sends its commands, once.
func insideShortEpochs(t *testing.T, inject ...protocol.Command) (*session, *recorder) {
	t.Helper()
	s, r := newTestSession()
	s.now = func() time.Time { r.clock = r.clock.Add(10 * time.Millisecond); return r.clock }
	e := experiment.Default()
	e.Train.Epochs = 50
	s.handle(protocol.Command{Op: protocol.OpSet, State: e.Encode(), Layout: protocol.LayoutNone})
	if s.slowEpochs() {
		t.Fatal("the default graph's epochs are not short")
	}
	var in bool
	tr := s.tr.(*pdn.Trainer)
	s.tr = stepping{tr, &in}
	s.yield = func() {
		if in && inject != nil {
			for _, c := range inject {
				s.cmds <- c
			}
			inject = nil
		}
	}
	return s, r
}

// A step that arrives while another step's epoch runs is one more epoch:
// every press of S is an epoch.
func TestStepsInsideAStepAreEpochs(t *testing.T) {
	if testing.Short() {
		t.Skip("trains the default graph")
	}
	s, r := insideShortEpochs(t, protocol.Command{Op: protocol.OpStep}, protocol.Command{Op: protocol.OpStep})
	s.handle(protocol.Command{Op: protocol.OpStep})
	s.drain()
	if snap, _ := r.last(protocol.KindSnapshot); s.tr.Epoch() != 3 || snap.Snap.Epoch != 3 || snap.Snap.Running {
		t.Errorf("three steps: the model at epoch %d, the page told %d", s.tr.Epoch(), snap.Snap.Epoch)
	}
}

// A pause inside a short epoch ends the epoch first, and the pause's
// snapshot is of the epoch the model stopped at, so a step after it shows
// exactly one epoch more.
func TestPauseInsideAShortEpochShowsWhereItStopped(t *testing.T) {
	if testing.Short() {
		t.Skip("trains the default graph")
	}
	s, r := insideShortEpochs(t, protocol.Command{Op: protocol.OpPause})
	s.handle(protocol.Command{Op: protocol.OpStart})
	for i := 0; s.work(chunk); i++ {
		s.drain()
		if i > 100 {
			t.Fatal("the run never stopped")
		}
	}
	snap, _ := r.last(protocol.KindSnapshot)
	if s.running || snap.Snap.Running || snap.Snap.Epoch != s.tr.Epoch() || s.tr.Epoch() == 0 {
		t.Fatalf("paused: the model at epoch %d, the page told %d (running %v)", s.tr.Epoch(), snap.Snap.Epoch, snap.Snap.Running)
	}
	if p, _ := r.last(protocol.KindProgress); p.Progress != nil {
		t.Errorf("a short epoch was held mid-way: %+v", p.Progress)
	}
	s.handle(protocol.Command{Op: protocol.OpStep})
	if after, _ := r.last(protocol.KindSnapshot); after.Snap.Epoch != snap.Snap.Epoch+1 {
		t.Errorf("a step after the pause at %d shows %d", snap.Snap.Epoch, after.Snap.Epoch)
	}
}

// The decisions a command makes inside an epoch, one by one.
func TestPaceCommand(t *testing.T) {
	for _, tc := range []struct {
		name                   string
		running, holding, long bool
		op                     string
		wantRunning, wantHold  bool
		later                  int
	}{
		{"pause in a long epoch holds it", true, false, true, protocol.OpPause, false, true, 0},
		{"pause in a short epoch ends it", true, false, false, protocol.OpPause, false, false, 0},
		{"play goes on", false, true, true, protocol.OpStart, true, false, 0},
		{"step while training stops after the epoch", true, false, false, protocol.OpStep, false, false, 0},
		{"step while held finishes the epoch", false, true, true, protocol.OpStep, false, false, 0},
		{"step inside a step is one more", false, false, false, protocol.OpStep, false, false, 1},
		{"reset waits for the epoch", true, false, false, protocol.OpReset, true, false, 1},
		{"reset while held finishes the epoch", false, true, true, protocol.OpReset, false, false, 1},
		{"threads while held keep it held", false, true, true, protocol.OpThreads, false, true, 1},
		{"pace while held keeps it held", false, true, true, protocol.OpPace, false, true, 1},
		{"threads while training wait for the epoch", true, false, false, protocol.OpThreads, true, false, 1},
	} {
		s := &session{running: tc.running, epoch: epochState{holding: tc.holding}}
		s.paceCommand(protocol.Command{Op: tc.op}, tc.long)
		if s.running != tc.wantRunning || s.epoch.holding != tc.wantHold || len(s.epoch.later) != tc.later {
			t.Errorf("%s: running %v, holding %v, %d later", tc.name, s.running, s.epoch.holding, len(s.epoch.later))
		}
	}
}

// In the worker's own loop, the last of a burst of steps reaches the page
// though no command follows it: the loop sleeps until it is due.
func TestOwedSnapshotArrivesByItself(t *testing.T) {
	l := startLive(t, nil)
	e := small()
	e.Train.Epochs = 50
	l.s.cmds <- protocol.Command{Op: protocol.OpSet, State: e.Encode(), Layout: protocol.LayoutNone}
	l.next(t, "the first snapshot", func(ev protocol.Event) bool { return ev.Kind == protocol.KindSnapshot })
	for range 12 {
		l.send(protocol.OpStep, "")
	}
	l.next(t, "the burst's last epoch", func(ev protocol.Event) bool { return ev.Kind == protocol.KindSnapshot && ev.Snap.Epoch == 12 })
}

// A paced run (OpSet's Pace, then OpPace) shows every epoch in turn and
// ends on the very weights of a run at full speed: the pace only waits
// between epochs.
func TestPacedRunShowsEveryEpochAndKeepsTheBits(t *testing.T) {
	e, _ := experiment.Decode("per-class=32&epochs=12")
	l := startLive(t, nil)
	l.s.cmds <- protocol.Command{Op: protocol.OpSet, State: e.Encode(), Pace: 200}
	l.next(t, "the first snapshot", func(ev protocol.Event) bool { return ev.Kind == protocol.KindSnapshot })
	l.send(protocol.OpStart, "")
	seen := map[int]bool{}
	for !seen[8] {
		ev, _ := l.next(t, "a paced epoch", func(ev protocol.Event) bool { return ev.Kind == protocol.KindSnapshot && ev.Snap.Epoch > 0 })
		seen[ev.Snap.Epoch] = true
	}
	var last []float32
	l.s.cmds <- protocol.Command{Op: protocol.OpPace} // full speed from here
	for {
		ev, w := l.next(t, "the end", func(ev protocol.Event) bool { return ev.Kind == protocol.KindSnapshot })
		seen[ev.Snap.Epoch], last = true, w
		if ev.Snap.Epoch == 12 && !ev.Snap.Running {
			break
		}
	}
	for k := 1; k <= 8; k++ {
		if !seen[k] {
			t.Errorf("the paced run never showed epoch %d", k)
		}
	}
	g, _ := datasets.Synthetic(e.Data)
	tr, _ := pdn.NewTrainer(g, e)
	for range 12 {
		tr.Step()
	}
	want := tr.Evaluate().Weights
	for i := range want {
		if last[i] != float32(want[i]) {
			t.Fatalf("weight %d is %v after a paced run, %v at full speed", i, last[i], float32(want[i]))
		}
	}
}

// The user's files that arrive inside an epoch of a run the worker serves
// are read once the epoch ends: an OpLoad concerns the worker, not a run,
// and one that came mid-epoch was dropped as another run's command, so
// the page waited for its answer for ever (the audit's open after an edit
// while a 3,072-node graph trained).
func TestFilesInsideAnEpochAreRead(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a large model")
	}
	data, g := bundleZip(t)
	l := startLive(t, func(cmds chan<- protocol.Command) {
		cmds <- protocol.Command{Op: protocol.OpLoad, Files: []protocol.File{{Name: "mine.zip", Data: data}}}
	})
	l.s.cmds <- protocol.Command{Op: protocol.OpSet, Run: 5, State: longEpochs().Encode()}
	l.next(t, "the first snapshot", func(ev protocol.Event) bool { return ev.Kind == protocol.KindSnapshot })
	l.s.cmds <- protocol.Command{Op: protocol.OpStart, Run: 5}
	ev, _ := l.next(t, "the answer to the files", func(ev protocol.Event) bool { return ev.Kind == protocol.KindLoaded })
	if !ev.Load || ev.Loaded.Nodes != g.N || ev.Run != 5 {
		t.Errorf("the answer: %+v", ev)
	}
}
