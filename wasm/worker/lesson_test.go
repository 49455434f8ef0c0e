package main

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"pdnexplorer/datasets"
	"pdnexplorer/edgekind"
	"pdnexplorer/experiment"
	"pdnexplorer/lessons"
	"pdnexplorer/pdn"
	"pdnexplorer/wasm/protocol"
)

// The XOR graph's snapshots carry its edge states and the pathfinder as a
// function; with restarts, the set-up reports each initialisation tried
// and the snapshot the one kept. Reset tries them all again, to the same
// choice.
func TestSessionXORLessonWithRestarts(t *testing.T) {
	s, r := newTestSession()
	e := experiment.ForLab("xor")
	e.Data.PerClass, e.Train.Epochs = 32, 20
	e.Model.EdgeHidden, e.Model.Restarts, e.Model.RestartEpochs = []int{2}, 3, 5
	set(s, e)
	// Right after set, one epoch of the first initialisation has run: the
	// piece of the set-up that Prepare(0) does.
	s.postProgress(protocol.PhaseSetup, s.tr.Preparing(), true)
	prog, _ := r.last(protocol.KindProgress)
	if p := prog.Progress; p == nil || p.Restarts == nil || len(p.Restarts.Seeds) != 3 || p.Restarts.Chosen != -1 || !math.IsNaN(float64(p.Restarts.Losses[0])) || p.Done != 1.0/15 {
		t.Fatalf("set-up progress %+v", prog.Progress)
	}
	drain(t, s)
	ev, _ := r.last(protocol.KindSnapshot)
	sn := ev.Snap
	if sn.Restarts == nil || sn.Restarts.Chosen < 0 || sn.Epoch != 5 || sn.Restarts.Epochs != 5 {
		t.Fatalf("snapshot after the restarts: epoch %d, %+v", sn.Epoch, sn.Restarts)
	}
	chosen := sn.Restarts.Chosen
	for i, l := range sn.Restarts.Losses {
		if math.IsNaN(float64(l)) || l < sn.Restarts.Losses[chosen] {
			t.Errorf("restart %d loss %v, chosen %d's %v", i, l, chosen, sn.Restarts.Losses[chosen])
		}
	}
	x := sn.XOR
	if x == nil || x.Size != surfaceSize || len(x.Surface) != surfaceSize*surfaceSize || len(x.Alpha) != 4 || len(x.Hidden[1]) != 2 {
		t.Fatalf("XOR view %+v", x)
	}
	if x.Surface[surfaceSize-1] != x.Alpha[2] { // (a, b) = (1, 0)
		t.Errorf("surface corner %v, table %v", x.Surface[surfaceSize-1], x.Alpha[2])
	}
	var share float64
	for _, v := range x.Share {
		share += float64(v)
	}
	if math.Abs(share-1) > 1e-9 {
		t.Errorf("shares sum to %v", share)
	}
	s.handle(protocol.Command{Op: protocol.OpReset})
	drain(t, s)
	again, _ := r.last(protocol.KindSnapshot)
	if again.Snap.Restarts.Chosen != chosen || again.Snap.Epoch != 5 {
		t.Errorf("after reset: chose %d at epoch %d, before %d", again.Snap.Restarts.Chosen, again.Snap.Epoch, chosen)
	}

	// GCN has no pathfinder: every edge weighs 1, and there is no surface.
	e.Model.Kind, e.Model.Restarts = experiment.GCN, 0
	set(s, e)
	drain(t, s)
	ev, _ = r.last(protocol.KindSnapshot)
	if x := ev.Snap.XOR; x == nil || x.Mean != [4]protocol.Num{1, 1, 1, 1} || x.Surface != nil || ev.Snap.Restarts != nil {
		t.Errorf("GCN's XOR view %+v, restarts %+v", x, ev.Snap.Restarts)
	}
}

// On the scale-free graph GAT's weights fall with the receiving node's
// degree, as its softmax makes them.
func TestSessionDegreeLesson(t *testing.T) {
	s, r := newTestSession()
	e := experiment.ForLab("degree")
	e.Data.PerClass, e.Model.Kind = 64, experiment.GAT
	set(s, e)
	drain(t, s)
	ev, _ := r.last(protocol.KindSnapshot)
	bins := ev.Snap.Degree
	if len(bins) < 3 || bins[0].MinDegree > 8 {
		t.Fatalf("degree bins %+v", bins)
	}
	first, last := bins[0], bins[len(bins)-1]
	if float64(last.Mean) >= float64(first.Mean)/2 || float64(last.Mean) > 1/float64(last.MinDegree) {
		t.Errorf("GAT's mean weight %v at degree %d, %v at %d: no fall as 1/degree", first.Mean, first.MinDegree, last.Mean, last.MinDegree)
	}
}

// Restarts as long as the run are refused, naming both rows (the state
// table's rule of rows in conflict, experiment.Conflicts: the restarts
// would spend the whole run), and the state the engine takes holds no
// conflict; restarts shorter than the run leave it done at its last
// epoch: play trains no epoch past the end.
func TestSessionRestartsAsLongAsTheRun(t *testing.T) {
	s, r := newTestSession()
	e := experiment.ForLab("xor")
	e.Data.PerClass, e.Train.Epochs = 32, 6
	e.Model.EdgeHidden, e.Model.Restarts, e.Model.RestartEpochs = []int{2}, 2, 40
	set(s, e)
	if ev, _ := r.last(protocol.KindError); !strings.Contains(ev.Error, "restart-epochs (40) is not below epochs (6)") || len(s.exp.Conflicts()) > 0 {
		t.Errorf("restarts of 40 epochs in a run of 6: %q, the engine holds %v", ev.Error, s.exp.Conflicts())
	}
	s, r = newTestSession()
	e.Model.RestartEpochs = 5
	set(s, e)
	s.handle(protocol.Command{Op: protocol.OpStart})
	drain(t, s)
	ev, _ := r.last(protocol.KindSnapshot)
	if ev.Snap.Epoch != 6 || ev.Snap.Running {
		t.Errorf("after play: epoch %d, running %v; want 6, stopped", ev.Snap.Epoch, ev.Snap.Running)
	}
}

// Figure 4 comes once a run has trained: its number always (what the
// claims read, as pdn claims computes it), its embedding where the page
// asks (Command.Embed), neither for a quiet run; the same as lessons
// computes natively.
func TestSessionEmbedsTheEdgesOnceTrained(t *testing.T) {
	e := experiment.Default()
	e.Data.PerClass, e.Train.Epochs = 32, 5
	g, err := datasets.Synthetic(e.Data)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := lessons.TrainAll(g, e)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := lessons.EmbedEdges(g, tr, e.Data.Seed)
	for _, c := range []struct {
		name         string
		embed, quiet bool
	}{{"asked", true, false}, {"not asked", false, false}, {"quiet", true, true}} {
		t.Run(c.name, func(t *testing.T) {
			s, r := newTestSession()
			s.handle(protocol.Command{Op: protocol.OpSet, Run: 3, State: e.EncodeRun(), Embed: c.embed, Quiet: c.quiet})
			s.handle(protocol.Command{Op: protocol.OpStart, Run: 3})
			drain(t, s)
			ev, _ := r.lastRaw(protocol.KindSnapshot)
			snap := ev.Snap
			if snap.Epoch != e.Train.Epochs {
				t.Fatalf("epoch %d", snap.Epoch)
			}
			sep := float64(snap.Separation)
			if c.quiet != math.IsNaN(sep) || !c.quiet && sep != want.Hidden {
				t.Errorf("separation %v, want %v (NaN for a quiet run)", sep, want.Hidden)
			}
			ems := embeddings(r, false)
			if got := len(ems); got != b2i(c.embed && !c.quiet) {
				t.Fatalf("%d embeddings", got)
			}
			if len(ems) == 1 {
				sameEmbedding(t, "pdn", ems[0], want, e.Train.Epochs)
			}
		})
	}
}

// The graph lab's Figure 4 is live: the worker embeds the run's edges as
// it trains (Command.EmbedLive), each time at the epoch reached, and
// trains GAT beside it (Command.Beside), never ahead of it; once both
// have trained, the last embeddings are pdn tsne's, the same bits as
// lessons computes natively.
func TestSessionEmbedsLiveBesideGAT(t *testing.T) {
	e := experiment.Default()
	e.Data.PerClass, e.Train.Epochs = 32, 40
	g, err := datasets.Synthetic(e.Data)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]lessons.EdgeEmbedding{}
	for _, k := range []string{experiment.PDN, experiment.GAT} {
		ke := e
		ke.Model.Kind = k
		tr, err := lessons.TrainAll(g, ke)
		if err != nil {
			t.Fatal(err)
		}
		want[k], _ = lessons.EmbedEdges(g, tr, e.Data.Seed)
	}
	s, r := newTestSession()
	s.handle(protocol.Command{Op: protocol.OpSet, Run: 1, State: e.EncodeEngine(), Embed: true, EmbedLive: true, Beside: experiment.GAT, Pace: 10})
	drain(t, s)
	for _, beside := range []bool{false, true} {
		if ems := embeddings(r, beside); len(ems) != 1 || ems[0].Epoch != 0 || ems[0].Done {
			t.Fatalf("before play, beside %v: %d embeddings, want one of epoch 0", beside, len(ems))
		}
	}
	s.handle(protocol.Command{Op: protocol.OpStart, Run: 1})
	drain(t, s)
	for _, beside := range []bool{false, true} {
		ems := embeddings(r, beside)
		var epochs []int
		for _, em := range ems {
			epochs = append(epochs, em.Epoch)
		}
		if len(ems) < 3 || !slices.IsSorted(epochs) {
			t.Fatalf("beside %v: embeddings at epochs %v; want 0, some while it trained, then %d", beside, epochs, e.Train.Epochs)
		}
		t.Logf("beside %v: embedded at epochs %v", beside, epochs)
		last, kind := ems[len(ems)-1], experiment.PDN
		if beside {
			kind = experiment.GAT
		}
		sameEmbedding(t, kind, last, want[kind], e.Train.Epochs)
	}
	s.handle(protocol.Command{Op: protocol.OpReset, Run: 1})
	drain(t, s)
	if em := embeddings(r, false); em[len(em)-1].Epoch != 0 {
		t.Errorf("after a reset, the run's last embedding is of epoch %d, want 0", em[len(em)-1].Epoch)
	}
}

// embeddings are the embeddings posted of the run, or of the model beside.
func embeddings(r *recorder, beside bool) []*protocol.Embedding {
	var out []*protocol.Embedding
	for _, ev := range r.events {
		if ev.Kind == protocol.KindEmbedding && ev.Embedding.Beside == beside {
			out = append(out, ev.Embedding)
		}
	}
	return out
}

// sameEmbedding checks a posted embedding against lessons': the model
// trained all epochs, the same agreements and points.
func sameEmbedding(t *testing.T, kind string, em *protocol.Embedding, want lessons.EdgeEmbedding, epochs int) {
	t.Helper()
	if em.Model != kind || em.Epoch != epochs || !em.Done {
		t.Errorf("%s's last embedding: model %s, epoch %d, done %v; want epoch %d, done", kind, em.Model, em.Epoch, em.Done, epochs)
	}
	if float64(em.Separation) != want.Separation || float64(em.Hidden) != want.Hidden || len(em.XY) != len(want.XY) || len(em.Inter) != len(want.Edges) {
		t.Errorf("%s: separation %v and %v, %d coordinates, %d kinds; lessons %v and %v, %d, %d", kind, em.Separation, em.Hidden, len(em.XY), len(em.Inter), want.Separation, want.Hidden, len(want.XY), len(want.Edges))
		return
	}
	for i, v := range em.XY {
		if v != float32(want.XY[i]) {
			t.Fatalf("%s: coordinate %d: %v, lessons %v", kind, i, v, want.XY[i])
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// A graph without edges of one kind (every inter-class edge removed by
// the edits) has nothing for Figure 4 to embed, whatever the model: the
// worker says so (Embedding.OneKind), so that the page does not say PDN
// or GAT has no edge representations, which both have.
func TestSessionSaysTheGraphLacksAKindOfEdge(t *testing.T) {
	e := experiment.Default()
	e.Data.PerClass, e.Train.Epochs = 16, 3
	g, err := datasets.Synthetic(e.Data)
	if err != nil {
		t.Fatal(err)
	}
	var edits []string
	for i, k := range g.Kind {
		if k == edgekind.Inter {
			edits = append(edits, fmt.Sprintf("r%d-%d", g.Src[i], g.Dst[i]))
		}
	}
	if len(edits) == 0 {
		t.Fatal("no inter-class edges to remove")
	}
	e.Data.Edits = strings.Join(edits, "_")
	s, r := newTestSession()
	s.handle(protocol.Command{Op: protocol.OpSet, Run: 1, State: e.EncodeEngine(), Embed: true, EmbedLive: true, Beside: experiment.GAT, Pace: 10})
	drain(t, s)
	for _, beside := range []bool{false, true} {
		ems := embeddings(r, beside)
		if len(ems) == 0 || len(ems[0].XY) != 0 || !ems[0].OneKind {
			t.Errorf("beside %v: %d embeddings, the first not one without points of a graph of one kind of edge: %+v", beside, len(ems), ems)
		}
	}
}

// A model beside the run that the browser cannot afford with it (GAT's
// eight heads over the most edges the sliders draw: an epoch of 1.7 s in
// a browser, where PDN's is 0.3 s) is not built,
// by the cost model's rule for every run, and the worker says why, where
// the page shows the model's Figure 4.
func TestSessionSaysWhyNothingTrainsBeside(t *testing.T) {
	e, err := experiment.Decode("classes=6&per-class=1024&p=0.0625&q=0.0625&epochs=1")
	if err != nil {
		t.Fatal(err)
	}
	s, r := newTestSession()
	s.handle(protocol.Command{Op: protocol.OpSet, Run: 1, State: e.EncodeEngine(), Embed: true, EmbedLive: true, Beside: experiment.GAT, Pace: 10})
	// Until the page is told of the model beside (no further: the run's
	// own embedding of so large a graph takes long in a test).
	for i := 0; len(embeddings(r, true)) == 0 && s.work(50*time.Millisecond); i++ {
		if i > 1000 {
			t.Fatal("nothing said of the model beside")
		}
	}
	besides := embeddings(r, true)
	if len(besides) != 1 || besides[0].Refused == nil || len(besides[0].XY) != 0 {
		t.Fatalf("beside: %d embeddings, want one that says why GAT is not trained: %+v", len(besides), besides)
	}
	if got := besides[0].Refused.String(); !strings.Contains(got, "per epoch (the browser allows 1.0 s), most of it for") {
		t.Errorf("GAT refused with %q", got)
	}
	if s.fig.beside == nil || s.fig.beside.tr != nil {
		t.Error("GAT was built beside the run")
	}
}

// costly is a run whose cost model says it holds bytes.
type costly struct {
	*pdn.Trainer
	bytes float64
}

func (c *costly) Cost() pdn.Cost {
	k := c.Trainer.Cost()
	k.Bytes = c.bytes
	return k
}

// The model beside the run and the MLP baseline are counted again
// whenever the run changes (another model, other rows, on the same
// graph): beside a run that fills the memory, GAT is let go and the page
// told why; beside a small one again, it is built again, and the MLP
// stays where it still fits.
func TestSessionCountsTheModelsBesideEachRun(t *testing.T) {
	e := experiment.Default()
	e.Data.PerClass, e.Train.Epochs = 16, 3
	s, r := newTestSession()
	s.handle(protocol.Command{Op: protocol.OpSet, Run: 1, State: e.EncodeEngine(), Embed: true, EmbedLive: true, Beside: experiment.GAT, Baseline: true, Pace: 10})
	drain(t, s)
	run := s.tr.(*pdn.Trainer)
	if s.fig.beside == nil || s.fig.beside.tr == nil || s.baseline == nil || s.baseline.tr == nil {
		t.Fatal("GAT and the MLP not built beside a small run")
	}
	s.tr = &costly{run, 3 << 30}
	s.followBaseline(false)
	s.followBeside()
	if b := s.fig.beside; b == nil || b.tr != nil || b.err == nil {
		t.Fatalf("GAT beside a run of 3 GiB: %+v", b)
	}
	if b := s.baseline; b == nil || b.tr != nil || b.err == nil {
		t.Errorf("the MLP beside a run of 3 GiB: %+v", b)
	}
	besides := embeddings(r, true)
	if last := besides[len(besides)-1]; last.Refused == nil || !strings.Contains(last.Refused.String(), "GB of memory (the browser allows 2.0 GB)") {
		t.Errorf("the page was told %+v", last)
	}
	s.tr = &costly{run, run.Cost().Bytes}
	s.followBaseline(false)
	s.followBeside()
	if b := s.fig.beside; b == nil || b.tr == nil || b.err != nil {
		t.Errorf("GAT beside a small run again: %+v", b)
	}
	if b := s.baseline; b == nil || b.tr == nil || b.err != nil {
		t.Errorf("the MLP beside a small run again: %+v", b)
	}
}
