package main

import (
	"math"
	"strings"
	"testing"
	"time"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/pdn"
	"pdnexplorer/viz"
	"pdnexplorer/wasm/protocol"
)

// recorder collects what a session posts, with a fake clock that advances
// a little at every reading, so chunks of work end after a few epochs.
type recorder struct {
	events []protocol.Event
	f32    [][]float32 // a snapshot's weights, a layout's positions
	raw    [][]float32 // the array as posted
	clock  time.Time
}

func (r *recorder) post(ev protocol.Event, f32 []float32) {
	r.events = append(r.events, ev)
	raw := append([]float32(nil), f32...)
	r.raw = append(r.raw, raw)
	if ev.Kind == protocol.KindSnapshot {
		raw, _, _ = ev.Snap.Split(raw)
	}
	r.f32 = append(r.f32, raw)
}

func (r *recorder) now() time.Time {
	r.clock = r.clock.Add(2 * time.Millisecond)
	return r.clock
}

func (r *recorder) kinds() string {
	var k []string
	for _, e := range r.events {
		k = append(k, e.Kind)
	}
	return strings.Join(k, ",")
}

func (r *recorder) last(kind string) (protocol.Event, []float32) {
	if i := r.lastIndex(kind); i >= 0 {
		return r.events[i], r.f32[i]
	}
	return protocol.Event{}, nil
}

// lastRaw is last with the array as posted.
func (r *recorder) lastRaw(kind string) (protocol.Event, []float32) {
	if i := r.lastIndex(kind); i >= 0 {
		return r.events[i], r.raw[i]
	}
	return protocol.Event{}, nil
}

func (r *recorder) lastIndex(kind string) int {
	for i := len(r.events) - 1; i >= 0; i-- {
		if r.events[i].Kind == kind {
			return i
		}
	}
	return -1
}

func small() experiment.Experiment {
	e := experiment.Default()
	e.Data.PerClass = 40
	e.Train.Epochs = 30
	return e
}

func newTestSession() (*session, *recorder) {
	r := &recorder{clock: time.Unix(0, 0)}
	s := newSession(r.post)
	s.now = r.now
	return s, r
}

func set(s *session, e experiment.Experiment) {
	s.handle(protocol.Command{Op: protocol.OpSet, State: e.Encode()})
}

// drain runs work until the session is idle.
func drain(t *testing.T, s *session) {
	t.Helper()
	for i := 0; s.work(50 * time.Millisecond); i++ {
		if i > 10000 {
			t.Fatal("the session never went idle")
		}
	}
}

func TestSessionSetMakesGraphLayoutAndSnapshot(t *testing.T) {
	s, r := newTestSession()
	set(s, small())
	if got := r.kinds(); got != "graph,snapshot" {
		t.Fatalf("after set: %s", got)
	}
	g, _ := r.last(protocol.KindGraph)
	if g.Graph.Nodes != 120 || len(g.Graph.Src) == 0 || len(g.Graph.Kinds) != len(g.Graph.Src) {
		t.Errorf("graph event %+v", g.Graph)
	}
	drain(t, s) // only the layout is pending
	ev, pos := r.last(protocol.KindLayout)
	if ev.Gen != g.Gen || len(pos) != 2*120 {
		t.Errorf("layout: gen %d (graph %d), %d coordinates", ev.Gen, g.Gen, len(pos))
	}
	snap, w := r.last(protocol.KindSnapshot)
	if snap.Snap.Epoch != 0 || snap.Snap.Running || len(w) != len(g.Graph.Src) {
		t.Errorf("first snapshot %+v with %d weights", snap.Snap, len(w))
	}
}

func TestSessionTrainsPausesStepsResets(t *testing.T) {
	s, r := newTestSession()
	set(s, small())
	drain(t, s)
	first, w0 := r.last(protocol.KindSnapshot)

	s.handle(protocol.Command{Op: protocol.OpStart})
	s.work(20 * time.Millisecond)
	s.handle(protocol.Command{Op: protocol.OpPause})
	paused, _ := r.last(protocol.KindSnapshot)
	if paused.Snap.Running || paused.Snap.Epoch == 0 || paused.Snap.Epoch >= 30 {
		t.Fatalf("after a short run and pause: %+v", paused.Snap)
	}
	if s.work(50 * time.Millisecond) {
		t.Error("a paused session still has work")
	}
	if again, _ := r.last(protocol.KindSnapshot); again.Snap.Epoch != paused.Snap.Epoch {
		t.Errorf("training went on after pause: epoch %d, then %d", paused.Snap.Epoch, again.Snap.Epoch)
	}

	s.handle(protocol.Command{Op: protocol.OpStep})
	drain(t, s) // a step right after the pause's snapshot: its own comes at the pace
	if st, _ := r.last(protocol.KindSnapshot); st.Snap.Epoch != paused.Snap.Epoch+1 || st.Snap.Running {
		t.Errorf("step: %+v", st.Snap)
	}

	s.handle(protocol.Command{Op: protocol.OpReset})
	reset, w := r.last(protocol.KindSnapshot)
	if reset.Snap.Epoch != 0 || reset.Snap.TestAcc != first.Snap.TestAcc {
		t.Errorf("reset: %+v, at the start: %+v", reset.Snap, first.Snap)
	}
	if rate := float64(reset.Snap.EpochsPerSec); !math.IsNaN(rate) {
		t.Errorf("after reset the snapshot still says %v epochs a second, the last run's", rate)
	}
	for i := range w {
		if w[i] != w0[i] {
			t.Fatalf("after reset, weight %d is %v, at the start it was %v", i, w[i], w0[i])
		}
	}

	s.handle(protocol.Command{Op: protocol.OpStart})
	drain(t, s)
	done, _ := r.last(protocol.KindSnapshot)
	if done.Snap.Epoch != 30 || done.Snap.Running || !(done.Snap.TestAcc >= 0) {
		t.Errorf("a full run ends at epoch 30, stopped: %+v", done.Snap)
	}
	// Play after the end starts over.
	s.handle(protocol.Command{Op: protocol.OpStart})
	if st, _ := r.last(protocol.KindSnapshot); st.Snap.Epoch != 0 || !st.Snap.Running {
		t.Errorf("play after the end: %+v", st.Snap)
	}
}

// A burst of steps trains an epoch each and tells the page at a running
// run's pace: the first at once, the rest no more often than snapshotEvery,
// the last when the burst ends.
func TestSessionPacesTheSnapshotsOfSteps(t *testing.T) {
	s, r := newTestSession()
	set(s, small())
	drain(t, s)
	before := len(r.events)
	for range 20 {
		s.handle(protocol.Command{Op: protocol.OpStep})
	}
	posted := 0
	for _, ev := range r.events[before:] {
		if ev.Kind == protocol.KindSnapshot {
			posted++
		}
	}
	if posted == 0 || posted >= 20 || !s.out.owed {
		t.Errorf("20 quick steps posted %d snapshots, owed %v", posted, s.out.owed)
	}
	drain(t, s)
	if last, _ := r.last(protocol.KindSnapshot); last.Snap.Epoch != 20 || s.out.owed {
		t.Errorf("after the burst the page was told epoch %d, owed %v", last.Snap.Epoch, s.out.owed)
	}
}

func TestSessionThrottlesSnapshots(t *testing.T) {
	s, r := newTestSession()
	set(s, small())
	drain(t, s)
	before := len(r.events)
	s.handle(protocol.Command{Op: protocol.OpStart})
	drain(t, s)
	snaps := 0
	for _, e := range r.events[before:] {
		if e.Kind == protocol.KindSnapshot {
			snaps++
		}
	}
	// 30 epochs; the fake clock makes each chunk a few epochs long.
	if snaps >= 30 || snaps < 2 {
		t.Errorf("%d snapshots for 30 epochs: want fewer than one per epoch, more than one", snaps)
	}
}

func TestSessionModelChangeKeepsGraph(t *testing.T) {
	s, r := newTestSession()
	e := small()
	set(s, e)
	drain(t, s)
	gens := strings.Count(r.kinds(), "graph")
	e.Model.Kind = experiment.GCN
	set(s, e)
	if strings.Count(r.kinds(), "graph") != gens {
		t.Error("changing the model rebuilt the graph")
	}
	snap, w := r.last(protocol.KindSnapshot)
	if snap.Snap.Model != experiment.GCN || len(w) == 0 || w[0] != 1 {
		t.Errorf("GCN snapshot %+v, weights %v…", snap.Snap, w[:1])
	}
	e.Model.Kind = experiment.MLP
	set(s, e)
	if _, w := r.last(protocol.KindSnapshot); len(w) != 0 {
		t.Errorf("MLP snapshot carries %d weights", len(w))
	}
	s.handle(protocol.Command{Op: protocol.OpRegenerate, State: e.Encode()})
	if strings.Count(r.kinds(), "graph") != gens+1 {
		t.Error("regenerate made no new graph")
	}
}

func TestSessionReportsErrors(t *testing.T) {
	s, r := newTestSession()
	huge := small()
	// The most edges the sliders draw train at the defaults in a browser
	// (the cost model bounds a graph, not an edge count); under a hidden
	// layer of 512, an epoch is too long.
	huge.Data.Classes, huge.Data.PerClass, huge.Data.Q = 6, 1024, 1.0/16
	huge.Model.Hidden = 512
	set(s, huge)
	ev, _ := r.last(protocol.KindError)
	if ev.Field != "hidden" || !strings.Contains(ev.Error, "lower hidden") || !strings.Contains(ev.Error, "q or p") {
		t.Errorf("too large a graph: %+v", ev)
	}
	s.handle(protocol.Command{Op: protocol.OpStart}) // no graph: nothing to do, no crash
	if s.work(time.Millisecond) {
		t.Error("a session without a graph has work")
	}
	set(s, small()) // and it recovers
	if _, w := r.last(protocol.KindSnapshot); len(w) == 0 {
		t.Error("no snapshot after a good experiment")
	}
	s.handle(protocol.Command{Op: "explode"})
	if ev, _ := r.last(protocol.KindError); !strings.Contains(ev.Error, "explode") {
		t.Errorf("unknown command: %+v", ev)
	}
	s.handle(protocol.Command{Op: protocol.OpSet, State: "classes=99"})
	if ev, _ := r.last(protocol.KindError); !strings.Contains(ev.Error, "classes") {
		t.Errorf("bad state: %+v", ev)
	}
}

// diverging is a real trainer whose loss blows up at epoch at.
type diverging struct {
	*pdn.Trainer
	at int
}

func (d *diverging) Step() (float64, error) {
	if d.Epoch()+1 == d.at {
		return math.NaN(), &pdn.DivergedError{Epoch: d.at, Loss: math.NaN(), LR: 0.01}
	}
	return d.Trainer.Step()
}

func TestSessionReportsDivergence(t *testing.T) {
	s, r := newTestSession()
	s.newTrainer = func(g *datasets.Graph, e experiment.Experiment) (trainer, error) {
		tr, err := pdn.NewTrainer(g, e)
		return &diverging{tr, 5}, err
	}
	set(s, small())
	s.handle(protocol.Command{Op: protocol.OpStart})
	drain(t, s)
	ev, _ := r.last(protocol.KindError)
	if ev.Field != "lr" || !strings.Contains(ev.Error, "diverged") {
		t.Errorf("divergence: %+v", ev)
	}
	if snap, _ := r.last(protocol.KindSnapshot); snap.Snap.Running || snap.Snap.Epoch != 4 {
		t.Errorf("a diverged run should stop at epoch 4: %+v", snap.Snap)
	}
}

func TestSessionRunsEveryModel(t *testing.T) {
	for _, kind := range experiment.Kinds {
		t.Run(kind, func(t *testing.T) {
			s, r := newTestSession()
			e := small()
			e.Model.Kind = kind
			if experiment.ReadsLayers(kind) { // the synthetic graph's edge features are not layers
				e.Data.Graph = experiment.GraphMultiplex
			}
			refused := checkSize(e, s.expectedShape(e.Data))
			set(s, e)
			drain(t, s) // the layout, and DeepWalk's embeddings
			s.handle(protocol.Command{Op: protocol.OpStep})
			drain(t, s) // the step's snapshot, owed until the pace allows (postSoon)
			ev, _ := r.last(protocol.KindError)
			if refused != nil {
				// A model the page cannot afford at this size (MNE's set-up,
				// minutes in a browser) is refused before it costs, with the
				// cost model's reason, and the session goes on (its bits in
				// the browser's runtime are pdn's tests under GOOS=js).
				if ev.Kind == "" || ev.Error != refused.Error() {
					t.Fatalf("the page cannot afford %s here (%v), and the session posted %+v", kind, refused, ev)
				}
				checkStillServes(t, s, r)
				return
			}
			if ev.Kind != "" {
				t.Fatalf("error: %s", ev.Error)
			}
			snap, raw := r.lastRaw(protocol.KindSnapshot)
			if snap.Snap.Epoch != 1 || snap.Snap.Model != kind {
				t.Errorf("after a step: %+v", snap.Snap)
			}
			g, _ := r.last(protocol.KindGraph)
			w, pred, prob := snap.Snap.Split(raw)
			if len(w) != 0 && len(w) != len(g.Graph.Src) {
				t.Errorf("%d weights for %d edges", len(w), len(g.Graph.Src))
			}
			if len(pred) != g.Graph.Nodes || len(prob) != g.Graph.Nodes {
				t.Errorf("%d predictions and %d probabilities for %d nodes", len(pred), len(prob), g.Graph.Nodes)
			}
			for i, k := range pred {
				if k != float32(int(k)) || k < 0 || int(k) >= e.Data.Classes || !(prob[i] > 0 && prob[i] <= 1) {
					t.Fatalf("node %d: predicted class %v with probability %v", i, k, prob[i])
				}
			}
			if (kind == experiment.PDNLinear) != (len(snap.Snap.Inputs) == e.Data.EdgeFeatures) {
				t.Errorf("input attention %v", snap.Snap.Inputs)
			}
			if (kind == experiment.PDNMultiScale) != (len(snap.Snap.Hops) == e.Model.Hops) {
				t.Errorf("hop weights %v", snap.Snap.Hops)
			}
		})
	}
}

func TestSessionPreparesSlowModelsInChunks(t *testing.T) {
	s, r := newTestSession()
	e := small()
	e.Model.Kind = experiment.DeepWalk
	set(s, e)
	if s.prepared {
		t.Fatal("DeepWalk's embeddings were trained in one go")
	}
	if ev, _ := r.last(protocol.KindSnapshot); ev.Snap != nil {
		t.Error("a snapshot was posted before the model was ready")
	}
	s.handle(protocol.Command{Op: protocol.OpStart}) // remembered while preparing
	chunks := 0
	for !s.prepared {
		s.work(time.Millisecond)
		chunks++
	}
	if chunks < 2 {
		t.Errorf("prepared in %d chunk", chunks)
	}
	drain(t, s)
	if snap, _ := r.last(protocol.KindSnapshot); snap.Snap == nil || snap.Snap.Epoch != e.Train.Epochs {
		t.Errorf("after preparing, the run should have gone to the end: %+v", snap.Snap)
	}
}

// Events name the run the worker serves; commands from another run are
// ignored until one of its own sets a state.
func TestSessionServesOneRun(t *testing.T) {
	s, r := newTestSession()
	s.handle(protocol.Command{Op: protocol.OpSet, State: small().Encode(), Run: 7})
	drain(t, s)
	for _, ev := range r.events {
		if ev.Run != 7 {
			t.Fatalf("a %s event names run %d, want 7", ev.Kind, ev.Run)
		}
	}
	s.handle(protocol.Command{Op: protocol.OpStep, Run: 3}) // another run
	if snap, _ := r.last(protocol.KindSnapshot); snap.Snap.Epoch != 0 {
		t.Errorf("a step from run 3 trained run 7 to epoch %d", snap.Snap.Epoch)
	}
	s.handle(protocol.Command{Op: protocol.OpStep, Run: 7})
	if snap, _ := r.last(protocol.KindSnapshot); snap.Snap.Epoch != 1 {
		t.Errorf("a step from run 7 left epoch %d", snap.Snap.Epoch)
	}
	s.handle(protocol.Command{Op: protocol.OpSet, State: small().Encode(), Run: 3})
	if ev := r.events[len(r.events)-1]; ev.Run != 3 {
		t.Errorf("after run 3 set its state, events name run %d", ev.Run)
	}
}

// lastLearned returns the last learned layout posted after event from.
func (r *recorder) lastLearned(from int) ([]float32, int) {
	var pos []float32
	n := 0
	for i := from; i < len(r.events); i++ {
		if ev := r.events[i]; ev.Kind == protocol.KindLayout && ev.Layout == experiment.LayoutLearned {
			pos, n = r.f32[i], n+1
		}
	}
	return pos, n
}

// TestSessionLearnedLayout checks the learned layout: asked for, it lays
// the graph out with the classes on top of each other before training;
// trained, the pathfinder's weights pull them apart; it stops when the
// view leaves it, starts again on a new graph, and a new run does not
// inherit it.
func TestSessionLearnedLayout(t *testing.T) {
	s, r := newTestSession()
	e := experiment.Default() // a smaller graph falls apart into pieces that no layout groups by class
	set(s, e)
	drain(t, s)
	from := len(r.events)
	s.handle(protocol.Command{Op: protocol.OpLayout, Layout: experiment.LayoutLearned})
	drain(t, s)
	g, _ := r.last(protocol.KindGraph)
	before, n := r.lastLearned(from)
	if n == 0 || len(before) != 2*g.Graph.Nodes {
		t.Fatalf("after asking for the learned layout: %d learned layouts, the last with %d coordinates", n, len(before))
	}
	s.handle(protocol.Command{Op: protocol.OpStart})
	drain(t, s)
	after, _ := r.lastLearned(from)
	sepBefore, sepAfter := viz.OwnCentreShare(before, g.Graph.Labels), viz.OwnCentreShare(after, g.Graph.Labels)
	snap, _ := r.last(protocol.KindSnapshot)
	t.Logf("own-centre share %.3f before training, %.3f after (test accuracy %.3f, w_intra %.3f, w_inter %.3f)",
		sepBefore, sepAfter, snap.Snap.TestAcc, snap.Snap.WIntra, snap.Snap.WInter)
	if sepAfter < 0.9 || sepAfter-sepBefore < 0.2 {
		t.Errorf("own-centre share %.3f before training, %.3f after: want ≥ 0.9 after and 0.2 above", sepBefore, sepAfter)
	}

	s.handle(protocol.Command{Op: protocol.OpLayout, Layout: experiment.LayoutClasses})
	s.handle(protocol.Command{Op: protocol.OpReset})
	from = len(r.events)
	drain(t, s)
	if _, n := r.lastLearned(from); n != 0 {
		t.Errorf("the view left the learned layout, yet %d more came", n)
	}

	s.handle(protocol.Command{Op: protocol.OpLayout, Layout: experiment.LayoutLearned})
	e.Data.Seed++
	set(s, e)
	from = len(r.events)
	drain(t, s)
	newGraph, _ := r.last(protocol.KindGraph)
	if pos, n := r.lastLearned(from); n == 0 || len(pos) != 2*newGraph.Graph.Nodes {
		t.Errorf("a new graph shown in the learned layout: %d learned layouts", n)
	}

	s.handle(protocol.Command{Op: protocol.OpSet, State: e.Encode(), Run: 9})
	from = len(r.events)
	drain(t, s)
	if _, n := r.lastLearned(from); n != 0 {
		t.Errorf("a new run inherited the learned layout: %d came", n)
	}
}

// checkStillServes is a session after a refusal: it trains a GCN on the
// same page.
func checkStillServes(t *testing.T, s *session, r *recorder) {
	t.Helper()
	e := small()
	e.Model.Kind = experiment.GCN
	set(s, e)
	drain(t, s)
	s.handle(protocol.Command{Op: protocol.OpStep})
	drain(t, s)
	if snap, _ := r.last(protocol.KindSnapshot); snap.Snap.Epoch != 1 || snap.Snap.Model != experiment.GCN {
		t.Errorf("after the refusal, a GCN's step gave %+v", snap.Snap)
	}
}

// A run set beside others takes its share of the threads the page offers
// the worker, no more than the state's threads row asks, at least one, and
// its snapshots say how many it has; OpThreads changes the share mid-run.
func TestRunsAlongsideShareTheThreads(t *testing.T) {
	defer pdn.SetThreads(pdn.SetThreads(1))
	for _, c := range []struct{ offered, asked, alongside, want int }{
		{4, 0, 0, 4}, {4, 0, 1, 4}, {4, 0, 2, 2}, {3, 0, 2, 1}, {2, 0, 4, 1}, {1, 0, 1, 1},
		{4, 2, 1, 2}, {4, 1, 0, 1}, {2, 4, 1, 2}, {4, 3, 2, 1}, {1, 4, 1, 1},
	} {
		s, r := newTestSession()
		s.offered = c.offered
		s.handle(protocol.Command{Op: protocol.OpSet, State: small().Encode(), Alongside: c.alongside, Threads: c.asked})
		snap, _ := r.last(protocol.KindSnapshot)
		if s.threads != c.want || pdn.Threads() != c.want || snap.Snap == nil || snap.Snap.Threads != c.want {
			t.Errorf("offered %d, %d asked, beside %d runs: %d threads (pdn %d, snapshot %+v), want %d", c.offered, c.asked, c.alongside, s.threads, pdn.Threads(), snap.Snap, c.want)
		}
		// The row lowered to one thread mid-run: the run keeps going on one.
		s.handle(protocol.Command{Op: protocol.OpThreads, Run: s.serving, Threads: 1, Alongside: c.alongside})
		if snap, _ := r.last(protocol.KindSnapshot); s.threads != 1 || pdn.Threads() != 1 || snap.Snap == nil || snap.Snap.Threads != 1 {
			t.Errorf("offered %d, then one thread asked: %d threads (pdn %d, snapshot %+v)", c.offered, s.threads, pdn.Threads(), snap.Snap)
		}
	}
}
