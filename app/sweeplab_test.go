package app

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/experiment"
	"pdnexplorer/internal/testwait"
	"pdnexplorer/wasm/protocol"
)

// The sweep's results go into the link as they come; a link's results
// are kept, and play goes on from the first run not yet trained; pause
// holds the runs under way and play resumes them; an error is a run
// without a result, said once; Clear empties the link.
func TestSweepLabResultsLinkPauseAndClear(t *testing.T) {
	rm, l, conns, d := mountLab(t, "sweep", "lab=sweep&reps=1&results=9100.8000")
	c := rm.(*SweepLab)
	var saved experiment.Experiment
	l.page.save = func(e experiment.Experiment) { saved = e }
	if c.done() != 2 || c.results()[1].Acc != 0.8 {
		t.Fatalf("the link's results: %d done, %+v", c.done(), c.results()[:2])
	}
	doIn(d, c, func() { c.do(cmdPlay) })
	first := (*conns)[0].sent
	if len(first) != 2 || !strings.Contains(first[0].State, "q=0.001953125") || !strings.Contains(first[0].State, "model=pdn") {
		t.Fatalf("play after two results sent %+v", first)
	}
	doIn(d, c, func() { c.do(cmdPlay) }) // pause
	for i, f := range *conns {
		if f.sent[len(f.sent)-1].Op != protocol.OpPause {
			t.Errorf("worker %d: %s; want a pause last", i, f.ops())
		}
	}
	doIn(d, c, func() { c.do(cmdPlay) }) // resume
	(*conns)[0].play(protocol.Event{Kind: protocol.KindSnapshot, Snap: &protocol.Snapshot{Epoch: 200, Epochs: 200, TestAcc: 0.97129}}, nil)
	(*conns)[1].play(protocol.Event{Kind: protocol.KindError, Error: "the loss diverged"}, nil)
	d.Consume()
	if saved.View.Results != "9100.8000.9713.x" {
		t.Errorf("the link holds results %q", saved.View.Results)
	}
	if h := app.HTMLString(c); !strings.Contains(h, "1 run(s) gave no result: the loss diverged") {
		t.Error("the run without a result is not told")
	}
	doIn(d, c, func() { c.do(cmdReset) })
	if saved.View.Results != "" || c.done() != 0 || c.playing {
		t.Errorf("after clear: results %q, %d done, playing %v", saved.View.Results, c.done(), c.playing)
	}
	// A change of the sweep drops results that are not its.
	doIn(d, c, func() { c.setParam("lr", "0.02") })
	if saved.View.Results != "" {
		t.Errorf("a new lr kept results %q", saved.View.Results)
	}
}

// Results of another sweep in a link are left out, with a word of why.
func TestSweepLabRefusesOtherResults(t *testing.T) {
	rm, l, _, _ := mountLab(t, "sweep", "lab=sweep&reps=1&models=pdn,gcn&results="+strings.Repeat("5000.", 20)+"5000")
	c := rm.(*SweepLab)
	if c.done() != 0 || !strings.Contains(strings.Join(l.page.board.Texts(), "; "), "but the sweep lab trains 14 runs to their end") {
		t.Errorf("%d done; notices %q", c.done(), strings.Join(l.page.board.Texts(), "; "))
	}
}

// Scenario 6 sweeps only the edges' own features, which GCN and SGC do not
// read: each trains once a rep and its result stands for every value, and
// no worker is given a run that would train to the same bits as one under
// way; the PDN trains at every value.
func TestSweepLabTrainsEachRunKeyOnce(t *testing.T) {
	started := func(conns []*fakeConn) (runs []string) {
		for _, f := range conns {
			for _, cmd := range f.sent {
				if cmd.Op == protocol.OpSet {
					runs = append(runs, cmd.State)
				}
			}
		}
		return runs
	}
	rm, l, conns, d := mountLab(t, "sweep", "lab=sweep&scenario=6&models=gcn,sgc&reps=1")
	c := rm.(*SweepLab)
	var saved experiment.Experiment
	l.page.save = func(e experiment.Experiment) { saved = e }
	doIn(d, c, func() { c.do(cmdPlay) })
	if n := len(started(*conns)); n != 2 {
		t.Fatalf("%d runs started for two run keys, want 2", n)
	}
	(*conns)[0].play(protocol.Event{Kind: protocol.KindSnapshot, Snap: &protocol.Snapshot{Epoch: 200, Epochs: 200, TestAcc: 0.5432}}, nil)
	(*conns)[1].play(protocol.Event{Kind: protocol.KindSnapshot, Snap: &protocol.Snapshot{Epoch: 200, Epochs: 200, TestAcc: 0.1234}}, nil)
	d.Consume()
	if want := strings.Repeat("5432.1234.", 4) + "5432.1234"; c.done() != 10 || saved.View.Results != want || len(started(*conns)) != 2 {
		t.Errorf("after two runs: %d done, results %q, %d runs started; want all 10 results from 2 runs", c.done(), saved.View.Results, len(started(*conns)))
	}

	// A link's results from before runs were shared are shared as they
	// come, each marked as the link's.
	rm, l, conns, d = mountLab(t, "sweep", "lab=sweep&scenario=6&models=gcn,sgc&reps=1&results=5432.1234")
	c = rm.(*SweepLab)
	doIn(d, c, func() { c.do(cmdPlay) })
	if want := strings.Repeat("5432.1234.", 4) + "5432.1234"; c.done() != 10 || l.st.View.Results != want || len(started(*conns)) != 0 {
		t.Errorf("play after a link's two results: %d done, results %q, %d runs started; want all 10, none trained", c.done(), l.st.View.Results, len(started(*conns)))
	}
	if linked, _ := c.fromLink(); linked != 10 {
		t.Errorf("%d results marked as the link's; want the 10 its two gave", linked)
	}

	rm, _, conns, d = mountLab(t, "sweep", "lab=sweep&scenario=6&models=pdn,gcn&reps=1")
	c = rm.(*SweepLab)
	doIn(d, c, func() { c.do(cmdPlay) })
	(*conns)[1].play(protocol.Event{Kind: protocol.KindError, Error: "the loss diverged"}, nil)
	d.Consume()
	if c.done() != 5 || !strings.Contains(app.HTMLString(c), "5 run(s) gave no result: the loss diverged") {
		t.Errorf("after GCN failed: %d done; want its 5 runs without a result, told", c.done())
	}
	if h := app.HTMLString(c); !strings.Contains(h, "Trained once a graph: gcn, which") {
		t.Error("the figure's note does not say GCN trains once a graph, or says it of the PDN too")
	}
	runs := started(*conns)
	if len(runs) != 3 || !strings.Contains(runs[2], "model=pdn") || !strings.Contains(runs[2], "edge-features=8") {
		t.Errorf("runs started %q; want the PDN at D = 4, GCN, then the PDN at D = 8", runs)
	}
}

// The sweep asks the engine how long its runs will take: a sweep of more
// than a few minutes says so before it starts and waits for a second
// press; the time left is the estimate, scaled by the runs measured. A
// link's results are marked as such, with a way to train them here.
func TestSweepLabSaysHowLongAndWhatCameWithTheLink(t *testing.T) {
	rm, l, conns, d := mountLab(t, "sweep", "lab=sweep&reps=1&models=pdn,gcn&results=9100.x")
	c := rm.(*SweepLab)
	l.page.save = func(experiment.Experiment) {}
	w := (*conns)[0]
	if len(w.asked) != 1 || len(w.asked[0].States) != len(c.queue) {
		t.Fatalf("asked %+v for %d runs", w.asked, len(c.queue))
	}
	h := app.HTMLString(c)
	if !strings.Contains(h, "2 of these results came with the link: they were not trained in this page. 1 of them have no result") || !strings.Contains(h, `id="train-here"`) {
		t.Errorf("the link's results are not marked: %s", h)
	}
	secs := make([]float64, len(c.queue))
	for i := range secs {
		secs[i] = 60 // 14 runs left of a minute each, on 2 workers: 7 min
	}
	doIn(d, c, func() { w.onEvent(protocol.Event{Kind: protocol.KindEstimate, Seconds: secs}, nil) })
	if left := text(app.HTMLString(c), "sweep-left"); !strings.Contains(left, "about 6 min (estimate)") && !strings.Contains(left, "about 7 min (estimate)") {
		t.Errorf("time left %q before play", left)
	}
	doIn(d, c, func() { c.do(cmdPlay) })
	if c.playing || !strings.Contains(strings.Join(l.page.board.Texts(), "|"), "This sweep will take about") {
		t.Fatalf("a long sweep started without a word: playing %v, %q", c.playing, l.page.board.Texts())
	}
	doIn(d, c, func() { c.do(cmdPlay) })
	if !c.playing {
		t.Fatal("the second press did not start it")
	}
	if strings.Contains(strings.Join(l.page.board.Texts(), "|"), "This sweep will take about") {
		t.Error("the question stays above a sweep that has started")
	}
	doIn(d, c, func() { c.trainHere() })
	if linked, _ := c.fromLink(); linked != 0 || c.done() != 0 {
		t.Errorf("train here left %d linked, %d done", linked, c.done())
	}
}

// text is the text of the element of id in html, roughly: what follows
// its opening tag up to the next tag.
func text(html, id string) string {
	i := strings.Index(html, `id="`+id+`"`)
	if i < 0 {
		return ""
	}
	rest := html[i:]
	rest = rest[strings.Index(rest, ">")+1:]
	if j := strings.Index(rest, "<"); j >= 0 {
		rest = rest[:j]
	}
	return rest
}

// Audit case 136: the sweep's results come to the page in one render a
// flush: ten runs that end together cost one dispatch, not ten.
func TestSweepLabRendersOnceAFlush(t *testing.T) {
	rm, l, _, d := mountLab(t, "sweep", "lab=sweep&reps=1&models=pdn,gcn")
	c := rm.(*SweepLab)
	l.page.save = func(experiment.Experiment) {}
	c.unpaced = false
	c.lastFlush = time.Now() // a flush just went: the next waits
	s := &sweepSlot{job: -1}
	for job := range 10 {
		c.enqueueEvent(sweepEvent{s, job, protocol.Event{Kind: protocol.KindProgress, Progress: &protocol.Progress{Phase: protocol.PhaseRun, Done: 0.5}}})
	}
	if len(c.events) != 10 {
		t.Fatalf("%d events wait; want the ten kept for one flush", len(c.events))
	}
	testwait.Until(t, "the flush", 10*time.Millisecond, func() bool { d.Consume(); return len(c.events) == 0 },
		func() string { return fmt.Sprintf("%d events left", len(c.events)) })
}

// A sweep's run opens in the compare lab by a link the compare lab reads
// whole, whichever model's dot it was: no row it does not read.
func TestSweepLabsCompareLinksOpenWithoutANotice(t *testing.T) {
	rm, _, _, _ := mountLab(t, "sweep", "lab=sweep&scenario=4&reps=2&models=gcn,pdn-multiscale,mlp")
	c := rm.(*SweepLab)
	for m, kind := range c.sw.Models {
		link := c.compareLink(1, 1, m)
		e, err := experiment.Decode(link)
		if err != nil || e.View.Lab != "compare" || e.View.Models[0] != kind || e.Data.Seed != 2 {
			t.Errorf("%s's link %s: %v", kind, link, err)
		}
	}
}
