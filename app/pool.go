package app

import (
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/wasm/protocol"
)

// runPool trains a queue of runs, each to its end on a graph of its own,
// on a pool of the page's workers a few at a time, through the one
// scheduler (experiment.Queue): the sweep lab's Figure 3 and the structure
// lab's robustness curves and transfer table. It starts from the results
// the state's results row carries (linkResults), marks those as the
// link's until they are trained here, and writes every result into the
// row as it comes. The lab that holds it says what a result means
// (finished) and draws.
type runPool struct {
	l     *lab
	runs  []experiment.Run  // the runs, in their order
	keys  []string          // their experiment.RunKey: runs of one key are trained once
	sched *experiment.Queue // over their results
	slots []*sweepSlot      // the workers training, one run each
	// linked says a run's result came with the link: it was not trained
	// in this page, and the lab says so (renderFromLink).
	linked []bool

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

	// est is each run's time to its end in this browser, by the engine's
	// cost model (protocol.OpEstimate); nil until the engine answers.
	est []float64
	// since is when the runs were last started, estDone the estimated
	// seconds of the runs trained since then (timeLeft).
	since   time.Time
	estDone float64
	// told says the page has said how long the runs will take, so a
	// second press starts them; warned is what it said, which goes once
	// they start.
	told   bool
	warned phrase.Text

	// checks are the claims the pool's runs decide, by claim (check).
	checks map[string]pooledCheck
}

// pooledCheck is a claim's check on the pool and, for each of its runs,
// the pool's run (experiment.PoolCheck); ok false where the pool does
// not train them all.
type pooledCheck struct {
	k  experiment.Checked
	at map[string]int
	ok bool
}

// longRuns is how long a pool's runs may take before the page says so and
// waits for a second press.
const longRuns = 3 * time.Minute

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

// linkResults is the one place a link's results row enters a lab: the row
// read for the runs the lab trains each to its end (experiment.Lab.Results,
// the lab table's Trains). A row the lab cannot use (a lab that trains no
// runs to their end, results of more runs than the lab's) is left out of
// the state and its link, with a notice that names the row and says why.
// The shell's link passes here first (show); a pool then starts from the
// results the row holds (newPool), each marked as the link's.
func (l *lab) linkResults(st *experiment.Experiment) []experiment.Result {
	res, err := l.row.Results(*st)
	if err != nil {
		l.page.board.Add(phrase.New("The link's results were left out: %s", phrase.Of(err)), true)
		st.View.Results = ""
		l.page.save(*st)
		res, _ = l.row.Results(*st)
	}
	return res
}

// sayResultsDropped says, once, that the change of row name to next's
// value dropped the results the lab's runs had trained (the lab's
// FollowEdit clears them when they are of other runs than next's): how
// many, and the value they were for. A sweep's results go away with a
// change of its epochs, and the sweep stops; without a word the user
// found an empty figure.
func (l *lab) sayResultsDropped(name string, next experiment.Experiment) {
	if next.View.Results != "" || l.st.View.Results == "" {
		return
	}
	res, _ := l.row.Results(l.st)
	done := 0
	for _, r := range res {
		if r.Done {
			done++
		}
	}
	if done == 0 {
		return
	}
	p, _ := experiment.Lookup(name)
	l.page.board.Add(phrase.New("The %d results were for %s=%s; with %s=%s they are other runs' results, so they were cleared and any run under way stopped.",
		done, name, p.Get(&l.st), name, p.Get(&next)), false)
}

// forgetResults drops e's results row: its runs are no longer those the
// results were of (a control changed them), or the lab clears them.
func forgetResults(e *experiment.Experiment) { e.View.Results = "" }

// newPool schedules runs, the lab's Trains for its state, from the results
// its results row holds (linkResults): each is marked as the link's, and
// is shared with the runs of its key (a run key trains once).
func newPool(l *lab, runs []experiment.Run) runPool {
	keys := make([]string, len(runs))
	for i, r := range runs {
		keys[i] = experiment.RunKey(r.Exp)
	}
	res := l.linkResults(&l.st)
	if len(res) != len(runs) {
		res = make([]experiment.Result, len(runs)) // not the lab's runs: none of theirs
	}
	p := runPool{l: l, runs: runs, keys: keys, sched: experiment.NewQueue(keys, nil, res, nil), linked: make([]bool, len(runs))}
	shared := 0
	for i, r := range slices.Clone(res) {
		if r.Done {
			shared += p.sched.Share(i)
		}
	}
	for i, r := range res {
		p.linked[i] = r.Done
	}
	if shared > 0 {
		p.save()
	}
	return p
}

// results are the runs' results so far.
func (p *runPool) results() []experiment.Result {
	if p.sched == nil {
		return nil
	}
	return p.sched.Results()
}

// holds reports whether the results row text is the pool's results: a
// state whose row is not brings other results.
func (p *runPool) holds(text string) bool {
	return p.sched != nil && text == experiment.EncodeResults(p.results())
}

// save puts the results in the lab's state and its link.
func (p *runPool) save() {
	p.l.st.View.Results = experiment.EncodeResults(p.results())
	p.l.page.save(p.l.st)
}

// fromLink counts the results that came with the link, and those of them
// without a result (marked x: they failed where they were trained).
func (p *runPool) fromLink() (linked, none int) {
	for i, r := range p.results() {
		if p.linked[i] && r.Done {
			linked++
			if math.IsNaN(r.Acc) {
				none++
			}
		}
	}
	return linked, none
}

// forgetLinked stops the runs under way and clears the results that came
// with the link, so that they train in this page.
func (p *runPool) forgetLinked() {
	p.halt()
	res := p.results()
	for i := range res {
		if p.linked[i] {
			res[i], p.linked[i] = experiment.Result{}, false
		}
	}
	p.save()
}

// renderLinkedCount is how many results came with the link, for the lab's
// count of runs done, in the class the count's other words have; nothing
// when none did.
func (p *runPool) renderLinkedCount(class string) app.UI {
	n, _ := p.fromLink()
	return app.If(n > 0, app.Span().ID("linked-count").Class(class).Text(trf("%d from the link, not trained here", n)))
}

// renderFromLink says which results came with the link, and offers to
// train them here (train); nothing when none did.
func (p *runPool) renderFromLink(train func()) app.UI {
	linked, none := p.fromLink()
	if linked == 0 {
		return app.Div()
	}
	text := trf("%d of these results came with the link: they were not trained in this page.", linked)
	if none > 0 {
		text += trf(" %d of them have no result (the link marks them x: they failed where they were trained).", none)
	}
	return app.P().ID("from-link").Class("note from-link").DataSet("metric", "from-link").DataSet("value", strconv.Itoa(linked)).Body(
		app.Text(text+" "),
		app.Button().ID("train-here").Class("small").Text(tr("Train them here")).
			OnClick(func(ctx app.Context, e app.Event) { train() }),
	)
}

// run fills the pool to workers and sets each idle worker a run; the
// runs paused go on.
func (p *runPool) run(workers int) {
	p.playing = true
	for len(p.slots) < workers {
		p.slots = append(p.slots, &sweepSlot{job: -1})
	}
	p.reshareLab() // the lab's own runs, beside the pool's
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
	p.setPlaying(false)
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
	p.reshareLab()
}

// setPlaying says whether the pool plays; a change gives the lab's own
// runs their share of the threads again (the cores are theirs while the
// pool does not play).
func (p *runPool) setPlaying(on bool) {
	if p.playing != on {
		p.playing = on
		p.reshareLab()
	}
}

// reshareLab gives the lab's own runs their share of the threads again,
// now that the pool's workers beside them changed.
func (p *runPool) reshareLab() {
	if p.l != nil {
		p.l.reshare()
	}
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
		p.setPlaying(p.playing && p.sched.UnderWay() > 0)
		return
	}
	next := runs[0] // each run is a group of its own
	s.job = next
	s.h = p.l.page.engine.Open(func(ev protocol.Event, _ []float32) { p.enqueueEvent(sweepEvent{s, next, ev}) })
	p.start(s, next)
}

// start sets run job's state on slot s's worker and trains it, beside
// the pool's other workers and the lab's own runs (the structure lab
// trains both at once), each a worker that takes its share of the cores.
func (p *runPool) start(s *sweepSlot, job int) {
	share := p.l.threadsCommand(protocol.OpSet, len(p.l.runs))
	s.h.Send(protocol.Command{Op: protocol.OpSet, State: p.runs[job].Exp.EncodeEngine(), Layout: protocol.LayoutNone, Quiet: true, Alongside: share.Alongside, Threads: share.Threads})
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
	case ev.Kind == protocol.KindStartFailed:
		// The engine is down: no run has a result, and none is started
		// (each would be told the same); the runs stay to train.
		p.l.page.board.Add(failure(ev), true)
		p.halt()
		return
	case ev.Kind == protocol.KindRestarted: // its worker died: the run starts again on the new one
		p.l.page.board.Add(failure(ev), true)
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
		sn := ev.Snap
		shared = p.sched.Finish(job, experiment.Result{Acc: experiment.Round4(float64(sn.TestAcc)), Homophily: experiment.Round4(float64(sn.LearnedHomophily)),
			WIntra: experiment.Round4(float64(sn.WIntra)), WInter: experiment.Round4(float64(sn.WInter))})
	case ev.Kind == protocol.KindError:
		shared = p.sched.Finish(job, experiment.Result{Acc: math.NaN(), Homophily: math.NaN(), WIntra: math.NaN(), WInter: math.NaN()})
	default:
		return
	}
	s.done = 0
	p.linked[job] = false // trained here
	if p.est != nil && p.est[job] > 0 {
		p.estDone += p.est[job] // its estimate spent
	}
	p.save()
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

// askEstimate asks the engine how long each of the pool's runs will take;
// the answer is the pool's, and redraws the lab, unless another pool has
// taken its place meanwhile.
func (p *runPool) askEstimate(redraw func()) {
	p.est = nil
	states := make([]string, len(p.runs))
	for i, r := range p.runs {
		states[i] = r.Exp.EncodeEngine()
	}
	asked := p.sched // a new pool has a queue of its own
	p.l.page.engine.Estimate(states, func(seconds []float64) {
		if ctx := p.l.ctx; ctx != nil {
			ctx.Dispatch(func(app.Context) {
				if p.sched == asked && len(seconds) == len(p.runs) {
					p.est = seconds
					redraw()
				}
			})
		}
	})
}

// estimateLeft is how long the runs not yet trained will take on the
// pool, by the engine's estimate (a run whose result another will share
// counted once, a run under way for what it has left); false before the
// engine has answered.
func (p *runPool) estimateLeft() (time.Duration, bool) {
	if p.est == nil {
		return 0, false
	}
	sum, seen := 0.0, map[string]bool{}
	for i, r := range p.results() {
		if r.Done || seen[p.keys[i]] || p.est[i] < 0 {
			continue
		}
		seen[p.keys[i]] = true
		left := 1.0
		for _, s := range p.slots {
			if s.job == i {
				left = 1 - s.done
			}
		}
		sum += p.est[i] * left
	}
	return time.Duration(sum / float64(sweepWorkers()) * float64(time.Second)), true
}

// timeLeft is the time the runs not yet trained will take: the engine's
// estimate, scaled, once runs have trained since they were started, by
// how long they took against their estimate (a busy machine is slower
// than the model says). Runs cost what their graphs cost, not the same: a
// sweep does its small graphs first, so the pace of the runs done says
// little of those left. estimated says no run has yet measured the scale.
func (p *runPool) timeLeft() (left time.Duration, estimated, ok bool) {
	base, ok := p.estimateLeft()
	if !ok {
		return 0, false, false
	}
	if !p.playing || p.estDone <= 0 {
		return base, true, true
	}
	took := time.Since(p.since).Seconds()
	done := p.estDone
	for _, s := range p.slots {
		if s.job >= 0 && s.job < len(p.est) && p.est[s.job] > 0 {
			done += p.est[s.job] * s.done // the runs under way have spent time too
		}
	}
	scale := min(max(took/(done/float64(sweepWorkers())), 0.2), 20)
	// The first seconds measure the workers' start as much as the runs:
	// the measured scale takes over from the estimate as they pass.
	trust := min(took/scaleSettles.Seconds(), 1)
	return time.Duration(float64(base) * (1 + trust*(scale-1))), false, true
}

// scaleSettles is how long a pool runs before the time left is its
// measured pace's alone: the first run's "about 87 s" for a 14 s sweep
// came of one run's start-up.
const scaleSettles = 10 * time.Second

// sayTimeLeft is the time left in words, "about 6 min (estimate)" before a
// run has measured the pace; a dash before the engine has answered, and
// once every run is trained.
func (p *runPool) sayTimeLeft() string {
	t, estimated, ok := p.timeLeft()
	if !ok || p.sched == nil || p.sched.Done() == len(p.runs) {
		return "–"
	}
	if estimated {
		return trf("about %s (estimate)", duration(t))
	}
	return trf("about %s", duration(t))
}

// launch starts the runs not yet trained, or resumes those paused, on the
// page's workers. Runs the engine estimates at more than longRuns are
// first said (warn words it, from the time and the runs left), and start
// on the next press.
func (p *runPool) launch(warn func(left time.Duration, runs int) phrase.Text) {
	if left, ok := p.estimateLeft(); ok && left > longRuns && !p.told && len(p.slots) == 0 {
		p.told = true
		p.warned = warn(left, len(p.runs)-p.sched.Done())
		p.l.page.board.Add(p.warned, false)
		return
	}
	p.l.page.board.Remove(p.warned) // answered: the runs start
	p.warned = phrase.Text{}
	p.since, p.estDone = time.Now(), 0
	p.run(sweepWorkers())
}

// check is claim c's check on the pool's results, at the seeds of the
// state the pool's runs are of (experiment.PoolCheck), made once a pool:
// a new state makes a new pool.
func (p *runPool) check(c experiment.Claim) (experiment.Checked, map[string]int, bool) {
	if p.sched == nil {
		return experiment.Checked{}, nil, false
	}
	if pc, ok := p.checks[c.ID]; ok {
		return pc.k, pc.at, pc.ok
	}
	if p.checks == nil {
		p.checks = map[string]pooledCheck{}
	}
	k, at, ok := experiment.PoolCheck(c, p.l.st.Data.Seed, p.l.st.Train.Seed, p.keys)
	p.checks[c.ID] = pooledCheck{k, at, ok}
	return k, at, ok
}

// figuresOf are the figures of the pool's runs at (a claim's run name →
// the pool's run) that have their result.
func (p *runPool) figuresOf(at map[string]int) map[string]experiment.Figures {
	res := p.results()
	figs := map[string]experiment.Figures{}
	for name, i := range at {
		if res[i].Done {
			figs[name] = experiment.ResultFigures(p.runs[i], res[i])
		}
	}
	return figs
}
