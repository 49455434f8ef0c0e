package app

import (
	"math"
	"slices"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/experiment"
	"pdnexplorer/wasm/protocol"
)

// runPool trains a queue of runs, each to its end on a graph of its own,
// on a pool of the page's workers a few at a time, through the one
// scheduler (experiment.Queue): the sweep lab's Figure 3 and the structure
// lab's robustness curves and transfer table. The lab that holds it says
// what a result means (finished) and draws.
type runPool struct {
	l     *lab
	runs  []experiment.Run  // the runs, in their order
	sched *experiment.Queue // over their results
	slots []*sweepSlot      // the workers training, one run each

	playing bool
	// events wait for the next flush (enqueueEvent); flushed is when the
	// last flush was.
	events  []sweepEvent
	flushed time.Time
	// finished hears each run's end, after the queue recorded its result
	// (shared is how many other runs of its key got it too); progressed
	// hears a run's progress. Either may be nil.
	finished   func(job int, ev protocol.Event, shared int)
	progressed func()
}

// sweepSlot is one worker of the pool and the run it trains (-1 for
// none). Each run has a handle of its own, so an event of a run the slot
// has left is dropped by the engine. done is the share of its epochs the
// run has trained, as its worker last said.
type sweepSlot struct {
	h    *Handle
	job  int
	done float64
}

// sweepEvent is an event of run job on slot s, queued for the UI.
type sweepEvent struct {
	s   *sweepSlot
	job int
	ev  protocol.Event
}

// newPool schedules runs, whose results res holds (a link's, or none).
func newPool(l *lab, runs []experiment.Run, res []experiment.Result) runPool {
	keys := make([]string, len(runs))
	for i, r := range runs {
		keys[i] = experiment.RunKey(r.Exp)
	}
	return runPool{l: l, runs: runs, sched: experiment.NewQueue(keys, nil, res, nil)}
}

// results are the runs' results so far.
func (p *runPool) results() []experiment.Result {
	if p.sched == nil {
		return nil
	}
	return p.sched.Results()
}

// run fills the pool to workers and sets each idle worker a run; the
// runs paused go on.
func (p *runPool) run(workers int) {
	p.playing = true
	for len(p.slots) < workers {
		p.slots = append(p.slots, &sweepSlot{job: -1})
	}
	for _, s := range p.slots {
		if s.job >= 0 {
			s.h.Send(protocol.Command{Op: protocol.OpStart})
		} else {
			p.assign(s)
		}
	}
}

// hold pauses the runs under way where they are.
func (p *runPool) hold() {
	p.playing = false
	for _, s := range p.slots {
		if s.job >= 0 {
			s.h.Send(protocol.Command{Op: protocol.OpPause})
		}
	}
}

// halt ends the runs under way, whose results are lost, and frees the
// workers for other labs.
func (p *runPool) halt() {
	p.playing = false
	for _, s := range p.slots {
		if s.h != nil {
			s.h.Close()
		}
		if s.job >= 0 && p.sched != nil {
			p.sched.Drop(s.job) // its result is lost: it trains again
		}
	}
	p.slots = nil
}

// assign gives the slot the next run that is neither trained nor under
// way, on a run handle of its own; with none left, the slot's worker is
// freed, and the pool stops with the last.
func (p *runPool) assign(s *sweepSlot) {
	if s.h != nil {
		s.h.Close()
		s.h = nil
	}
	s.job = -1
	runs, ok := p.sched.Take()
	if !ok {
		p.playing = p.playing && p.sched.UnderWay() > 0
		return
	}
	next := runs[0] // each run is a group of its own
	s.job = next
	s.h = p.l.page.engine.Open(func(ev protocol.Event, _ []float32) { p.enqueueEvent(sweepEvent{s, next, ev}) })
	p.start(s, next)
}

// start sets run job's state on slot s's worker and trains it.
func (p *runPool) start(s *sweepSlot, job int) {
	s.h.Send(protocol.Command{Op: protocol.OpSet, State: p.runs[job].Exp.EncodeEngine(), Layout: protocol.LayoutNone, Quiet: true})
	s.h.Send(protocol.Command{Op: protocol.OpStart})
}

// enqueueEvent keeps an event for the UI: one dispatch takes every event
// that came meanwhile, at most every severalFlush, so that a sweep of
// hundreds of small runs on four workers costs the page one render a
// flush, not one a result (280 runs held the main thread for over a
// second at a time on a loaded machine).
func (p *runPool) enqueueEvent(e sweepEvent) {
	ctx := p.l.ctx
	if ctx == nil {
		return
	}
	p.events = append(p.events, e)
	if len(p.events) > 1 {
		return // a flush is on its way
	}
	wait := p.l.wait(p.flushed, severalFlush)
	flush := func() {
		ctx.Dispatch(func(app.Context) {
			p.flushed = time.Now()
			q := p.events
			p.events = nil
			for _, e := range q {
				p.takeRunEvent(e.s, e.job, e.ev)
			}
		})
	}
	if wait <= 0 {
		flush()
		return
	}
	time.AfterFunc(wait, flush) // a plain timer, as lab.enqueue's
}

// takeRunEvent applies an event of run job: its last snapshot is its
// result (the test accuracy and learned homophily at its last epoch), an
// error says it has none (it diverged, or its graph has no edges).
func (p *runPool) takeRunEvent(s *sweepSlot, job int, ev protocol.Event) {
	if p.l.ctx == nil || s.job != job || !slices.Contains(p.slots, s) {
		return // a run stopped meanwhile
	}
	var shared int
	switch {
	case ev.Kind == protocol.KindRestarted: // its worker died: the run starts again on the new one
		p.l.page.board.Add(sayFailure(ev), true)
		s.done = 0
		p.start(s, job)
		return
	case ev.Kind == protocol.KindProgress && ev.Progress != nil && ev.Progress.Phase == protocol.PhaseRun:
		s.done = ev.Progress.Done
		if p.progressed != nil {
			p.progressed()
		}
		return
	case ev.Kind == protocol.KindSnapshot && ev.Snap != nil && !ev.Snap.Running && ev.Snap.Epoch >= ev.Snap.Epochs:
		shared = p.sched.Finish(job, experiment.Result{Acc: experiment.Round4(float64(ev.Snap.TestAcc)), Homophily: experiment.Round4(float64(ev.Snap.LearnedHomophily))})
	case ev.Kind == protocol.KindError:
		shared = p.sched.Finish(job, experiment.Result{Acc: math.NaN(), Homophily: math.NaN()})
	default:
		return
	}
	s.done = 0
	if p.finished != nil {
		p.finished(job, ev, shared)
	}
	if p.playing {
		p.assign(s)
	} else {
		s.h.Close()
		s.h, s.job = nil, -1
	}
}
