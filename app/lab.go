package app

import (
	"math"
	"slices"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/wasm/protocol"
)

// Several runs share the two cores with the page, so a lab of several
// asks each for fewer snapshots and redraws its figures less often: the
// main thread keeps its frames while four workers train.
const (
	severalSnapshotMs = 150
	severalRedraw     = 500 * time.Millisecond
	severalFlush      = 100 * time.Millisecond
)

// page is what the shell lends each lab: the engine, the notices, and the
// address, which only the shell writes.
type page struct {
	engine *Engine
	board  *Board
	// save puts a state the lab made into the address without a
	// navigation, so that the address is always the permalink.
	save func(experiment.Experiment)
	// verdicts tells the shell that a claim's verdict in the lab's runs
	// changed (a tour's question reveals its answer); nil for none.
	verdicts func()
}

// figures are a lab's own views, drawn from its runs; each lab's component
// implements it. draw redraws them after events changed the runs, or after
// a new state (newState).
type figures interface {
	draw(what change)
}

// Hooks a lab's component implements where it needs them, as go-app's
// components implement its lifecycle interfaces (Mounter, Dismounter):
// each lab's file asserts at compile time the hooks it means to implement
// (var _ EventTaker = (*GraphLab)(nil)), so a method with a hook's name and
// another signature cannot go unseen. The core's own methods are promoted
// to the component, so none of these names may be one of the core's.
type (
	// EventTaker takes the events the core leaves to the lab (the user's
	// graph read, a file to save, the layouts) after the run applied them.
	EventTaker interface {
		TakeEvent(r *run, ev protocol.Event, f32 []float32) change
	}
	// ViewFollower follows a change of the view's rows (layout,
	// threshold, projector mode), which the engine never hears of.
	ViewFollower interface {
		ViewChanged(before experiment.View)
	}
	// Commander carries out the keyboard's commands that are the lab's own.
	Commander interface {
		Command(cmd command) bool
	}
	// Releaser frees what the lab holds in the browser as it goes.
	Releaser interface {
		Release()
	}
	// RunsOpener is told of runs just opened, to ask their engines for
	// more than a state.
	RunsOpener interface {
		RunsOpened()
	}
	// Driver drives a lab that trains its runs itself (the sweep's, on
	// its queue): it takes the toolbar's and the keys' commands first,
	// and says whether it did and whether the lab must be drawn again.
	Driver interface {
		Drive(cmd command) (done, redraw bool)
	}
	// EditFollower adjusts a state the user's control made before the
	// lab adopts it (a sweep's results go when the sweep changes).
	EditFollower interface {
		FollowEdit(before experiment.Experiment, next *experiment.Experiment)
	}
	// WeightSayer says what its runs' learned weights say among its own
	// figures (weightSentence: the graph lab under its graph, the compare
	// lab under each view); the core says it, in a card of its own, for
	// a lab that is none.
	WeightSayer interface {
		SaysWeights()
	}
	// LiveRunner says which runs of a state the core opens side by side,
	// where they are not the lab row's (a lab that trains its runs itself
	// opens none).
	LiveRunner interface {
		LiveRuns(e experiment.Experiment) []experiment.Run
	}
	// PoolHolder holds a pool that trains runs each to its end (the
	// lab's Trains): the claims its results decide are stated on the
	// lab's card with their verdicts (claims.go).
	PoolHolder interface {
		Pool() *runPool
	}
)

// lab is the core every lab's component embeds: its row of the lab table,
// its state and the controls of its rows, its runs on the engine with the
// queue of their events, and the commands that drive them. A lab of one
// run (the graph lab) and a lab of several are the same core; the
// component adds its figures. The core's OnMount, OnDismount, show and do
// are the component's, so a lab's file holds its figures and nothing more.
type lab struct {
	page *page
	row  experiment.Lab
	st   experiment.Experiment
	controls
	runs []*run
	fig  figures

	// drawsGraph says the first run's worker lays its graph out for a
	// view; rewinds that the runs keep frames for the scrubber.
	drawsGraph, rewinds bool
	// embeds says the lab draws Figure 4: its runs' workers embed their
	// edges once trained (protocol.Command.Embed).
	embeds bool
	// embedLive says it draws Figure 4 as the runs train
	// (protocol.Command.EmbedLive); besideModel names the model the first run's
	// worker trains beside it for the figure (protocol.Command.Beside).
	embedLive   bool
	besideModel string

	ctx    app.Context // nil before the lab mounts
	queued []runEvent
	// lastDraw and lastFlush are when the figures were last drawn and
	// the queued events last taken.
	lastDraw, lastFlush time.Time
	// drawing says a draw is scheduled for when the pace allows; unpaced
	// draws every event at once (native tests, which have no frames to
	// keep).
	drawing, unpaced bool
	// claimsOn are its claims checked on its state (onState); baseline
	// the MLP baseline's state its first run calls for (baselineState).
	claimsOn perState[*claimsOnState]
	baseline perState[string]
	// keyWords are what the keys line says of a command where the lab
	// says otherwise than the key table ("" leaves the command out).
	keyWords map[command]string
	// verdictSig is the verdicts of the lab's claims as last told the
	// shell (noteVerdicts).
	verdictSig string
	// allControls says the controls beyond the lab's story are shown.
	allControls bool
	// start is the state the lab opens with (experiment.ForLab).
	start experiment.Experiment
	// unfolded says a narrow screen shows the controls, which it folds
	// away by default lest they push the figure off the first screen (wide
	// screens always show them).
	unfolded bool
	opened   bool // the runs are opened (before, the lab is settling)
	// toolbarOpen says a narrow screen shows the whole toolbar: it keeps
	// to Play, Step, Reset, the epoch and the test accuracy by default,
	// lest the sticky bar cover the figure (wide screens show it all).
	toolbarOpen bool
}

// runEvent is an event of one run, queued for the UI.
type runEvent struct {
	r   *run
	ev  protocol.Event
	f32 []float32
}

// init makes l the lab called name of the table, drawn by fig.
func (l *lab) init(p *page, name string, fig figures) {
	row, ok := experiment.LabNamed(name)
	if !ok {
		panic("app: no lab " + name + " in experiment.Labs")
	}
	l.page, l.row, l.fig, l.st = p, row, fig, experiment.ForLab(name)
	l.start = l.st
	l.controls.init(&l.st, l.setParam)
	l.controls.models = l.models
	l.controls.more = l.renderMore
}

// OnMount opens the runs of the state the shell gave the lab.
func (l *lab) OnMount(ctx app.Context) {
	l.ctx = ctx
	l.openRuns()
	// The figures drawn before the lab was on the page guessed the width
	// they are shown at: they are drawn again once the page's observer
	// reports it, and whenever it changes (projector mode, a tour's panel
	// come or gone, the window resized; layout.go).
	sizes.owner = l
	sizes.refit = func(all bool) {
		ctx.Dispatch(func(app.Context) { l.fit(all) })
	}
	// Once this turn's renders have put the lab's views on the page, the
	// observer watches them: a lab that trains nothing on opening (the
	// sweep's) has no snapshot to do it.
	ctx.Defer(func(app.Context) { l.fit(false) })
}

// The lab core is go-app's Resizer for every lab's component.
var _ app.Resizer = (*lab)(nil)

// OnResize draws the figures again for the window's new size: go-app
// calls it a quarter of a second after the window's last resize and
// after a phone turned, whether or not runs train. The widths the figures
// are shown at come from the page's observer; the window's height is
// read here (a window made only taller resizes no element).
func (l *lab) OnResize(app.Context) {
	readLayoutNow(nil)
	l.fit(false)
}

// fit draws every figure again where the width it is shown at, or the
// screen it is on, changed since the figures were drawn (legible), or
// where all says so: a figure drawn for a width of its own (figuresWidth).
func (l *lab) fit(all bool) {
	if l.ctx == nil {
		return
	}
	ch := l.legible()
	if all {
		ch |= drawAll
	}
	if ch != 0 {
		l.fig.draw(ch)
	}
}

// legible sets the legibility every figure drawn now meets, for the page
// as laid out now (setLegibility, the one rule), and says to draw every
// figure again (drawAll) where it changed: those drawn before were drawn
// for another width or screen. Every draw of the core asks it first.
func (l *lab) legible() change {
	if setLegibility(l.st.View.Present == 1) {
		return drawAll
	}
	return 0
}

// OnPreRender stands the runs of the state in, unopened, where the page is
// drawn on the server (see Shell.OnPreRender): the lab then shows its
// figures' places, with dashes for numbers, as it does while its engine
// starts.
func (l *lab) OnPreRender(app.Context) {
	for _, spec := range l.liveRuns(l.st) {
		l.runs = append(l.runs, &run{Run: spec})
	}
}

// OnDismount ends the runs.
func (l *lab) OnDismount() {
	l.ctx = nil // a draw scheduled meanwhile is dropped
	if sizes.owner == l {
		sizes.owner, sizes.refit = nil, nil
	}
	l.closeRuns()
	if r, ok := l.fig.(Releaser); ok {
		r.Release()
	}
}

// show makes st the lab's state: the shell read it from the address, with
// err saying what the address held that it could not use. Before the lab
// mounts, its runs open with it.
func (l *lab) show(st experiment.Experiment, err error) {
	if err != nil {
		// Each problem says what its row keeps: the lab's start, not the
		// table's default. It stays after the reader moves on, among the
		// earlier notices: what a link could not use is never lost.
		l.page.board.AddList(phrase.New("This link has values the explorer cannot use:"), phrase.Lines(err), false)
	}
	l.linkResults(&st)
	clear(l.fieldErr)
	clear(l.typed)
	if l.ctx == nil {
		l.st = st
		return
	}
	l.adopt(st, protocol.OpSet)
}

// relabel draws the lab's figures again, now, with the words of the
// page's language (their titles and axes are drawn into them); the runs
// go on as they were.
func (l *lab) relabel() {
	if l.ctx != nil {
		l.fig.draw(drawAll)
	}
}

// do carries out a command of the keyboard; it reports whether the lab
// must be drawn again (the engine's answer draws the rest).
func (l *lab) do(cmd command) bool {
	if d, ok := l.fig.(Driver); ok {
		if done, redraw := d.Drive(cmd); done {
			return redraw
		}
	}
	switch cmd {
	case cmdPlay:
		return l.togglePlay()
	case cmdStep:
		l.sendAll(protocol.OpStep)
	case cmdReset:
		l.sendAll(protocol.OpReset)
	case cmdNewGraph:
		l.regenerate()
		return true
	case cmdSlower, cmdFaster:
		l.setParam("speed", nextSpeed(l.st.View.Speed, cmd == cmdFaster))
		return true
	default:
		if c, ok := l.fig.(Commander); ok {
			return c.Command(cmd)
		}
	}
	return false
}

// setParam validates and applies one control's new value; a bad value is
// reported beside its control and changes nothing.
func (l *lab) setParam(name, value string) {
	next, _, changed := l.apply(l.st, name, value)
	if f, ok := l.fig.(EditFollower); ok && changed {
		f.FollowEdit(l.st, &next)
		l.sayResultsDropped(name, next)
	}
	if changed {
		if !l.st.Data.SameGraph(next.Data) {
			l.arrive(&next)
		}
		next.FollowData(l.st.Data)
		next = l.settle(l.st, next) // no row left set that no one reads
	}
	if changed {
		l.page.save(next)
		l.adopt(next, protocol.OpSet)
	}
}

// settle is next, the state one change made of prev (a control, files
// opened), with every row no one reads now back at its start
// (experiment.Lab.Settle): the one place where a change puts rows back,
// and says so in one notice, naming each row, the value it had and why
// nothing reads it now, so that none goes without a word.
func (l *lab) settle(prev, next experiment.Experiment) experiment.Experiment {
	settled, reset := l.row.SettleSaid(prev, next, l.start)
	if len(reset) == 0 {
		return settled
	}
	items := make([]phrase.Text, len(reset))
	for i, r := range reset {
		p, _ := experiment.Lookup(r.Row)
		items[i] = phrase.New("%s was %s, now %s: %s", r.Row, p.Get(&next), p.Get(&settled), r.Why)
	}
	l.page.board.AddList(phrase.New("Rows that nothing reads now went back to their start (set them again once they are read):"), items, false)
	return settled
}

// arrive is the one place that decides what of the state stays as another
// graph arrives: next's data rows make another graph than the state's (a
// control, the next data seed), or files were opened. The rows that
// belong to the graph before (experiment.OneGraphRows: its edits) are
// dropped from next, and the notice says so. A link is a whole state: the
// edits it carries are its own graph's, and the engine refuses those that
// do not fit it.
func (l *lab) arrive(next *experiment.Experiment) {
	before := next.Data
	var dropped []string
	next.Data, dropped = next.Data.ForNextGraph()
	for _, row := range dropped {
		l.page.board.Add(droppedWords[row](before), false)
	}
}

// droppedWords say, for each row that belongs to one graph, what went as
// another graph arrived (before is the data that held it): a row of
// experiment.OneGraphRows without its words fails a test.
var droppedWords = map[string]func(before experiment.Data) phrase.Text{
	experiment.EditsRow: func(before experiment.Data) phrase.Text {
		es, _ := experiment.ParseEdits(before.Edits)
		if len(es) == 1 {
			return phrase.New("The edit of the graph was for the graph before; this one starts unedited.")
		}
		return phrase.New("The %d edits of the graph were for the graph before; this one starts unedited.", len(es))
	},
}

// syncEdits follows the engine where it left edits out: a link's edits
// that did not apply to its graph, or an edit it refused. state is the
// experiment of the graph the run has ("" for none yet).
func (l *lab) syncEdits(state string) {
	if state == "" {
		return
	}
	e, _ := experiment.Decode(state)
	if e.Data.Edits == l.st.Data.Edits {
		return
	}
	l.st.Data.Edits = e.Data.Edits
	l.page.save(l.st)
}

// regenerate draws a new graph from the next data seed.
func (l *lab) regenerate() {
	next := l.st
	next.Data.Seed = nextSeed(l.st.Data.Seed)
	l.arrive(&next)
	l.page.save(next)
	l.adopt(next, protocol.OpRegenerate)
}

// nextSeed is the data seed after seed, within the seed row's range.
func nextSeed(seed uint64) uint64 {
	p, _ := experiment.Lookup("seed")
	if float64(seed+1) > p.Max {
		return 0
	}
	return seed + 1
}

// adopt makes next the state and tells the engine what changed: new runs
// where the runs themselves change (the compare lab's models), else the
// new state to each run whose experiment changed, or to every run for op
// regenerate. What the engine said of the old state no longer holds.
func (l *lab) adopt(next experiment.Experiment, op string) {
	before := l.st.View
	l.st = next
	specs := l.liveRuns(next)
	if !sameRuns(specs, l.runs) {
		l.forgetEngineNotes()
		l.closeRuns()
		l.openRuns()
	} else {
		for i, spec := range specs {
			r := l.runs[i]
			if op == protocol.OpRegenerate || spec.Exp.EncodeEngine() != r.Exp.EncodeEngine() {
				l.forgetEngineNotes()
				if op == protocol.OpRegenerate || graphOf(spec.Exp) != graphOf(r.Exp) {
					r.answered = false // a new graph comes, and the intro's counts with it
				}
				r.engine.Send(l.stateCommand(i, len(specs), spec, op))
			}
			r.Run = spec
		}
	}
	if before.Speed != next.View.Speed {
		for _, r := range l.runs {
			r.engine.Send(protocol.Command{Op: protocol.OpPace, Pace: next.View.Speed})
		}
	}
	if before.Threads != next.View.Threads {
		l.reshare()
	}
	if f, ok := l.fig.(ViewFollower); ok {
		f.ViewChanged(before)
	}
	l.fig.draw(newState | l.legible())
}

// alongside is how many runs train at once beside the lab's n own: its
// pool's workers too, while the pool plays (the structure lab trains both
// at once), each a worker that takes its share of the cores.
func (l *lab) alongside(n int) int {
	if h, ok := l.fig.(PoolHolder); ok && h.Pool().playing {
		n += len(h.Pool().slots)
	}
	return n
}

// reshare tells each run of the lab, its own and its pool's, its share of
// its worker's threads again: the threads row changed, or the runs beside
// them did (its pool started or stopped).
func (l *lab) reshare() {
	for _, r := range l.runs {
		r.engine.Send(l.threadsCommand(protocol.OpThreads, len(l.runs)))
	}
	if h, ok := l.fig.(PoolHolder); ok {
		for _, s := range h.Pool().slots {
			if s.h != nil {
				s.h.Send(l.threadsCommand(protocol.OpThreads, len(l.runs)))
			}
		}
	}
}

// threadsCommand is op with a run's share of the threads, beside the
// lab's n own runs (the runs it is opening, as it opens them) and its
// pool's: what the threads row asks, among every run training at once.
// Every command that sets a run's share takes it from here.
func (l *lab) threadsCommand(op string, n int) protocol.Command {
	return protocol.Command{Op: op, Threads: l.st.View.Threads, Alongside: l.alongside(n)}
}

// forgetEngineNotes takes away what the engine said of an earlier state.
func (l *lab) forgetEngineNotes() {
	l.page.board.ClearEngine()
	clear(l.engineErr)
}

// openRuns opens a run per spec of the state, each on a worker of its own.
func (l *lab) openRuns() {
	specs := l.liveRuns(l.st)
	for i, spec := range specs {
		r := &run{Run: spec}
		if l.rewinds {
			r.frames = &rewind{}
		}
		r.engine = l.page.engine.Open(func(ev protocol.Event, f32 []float32) { l.enqueue(r, ev, f32) })
		r.engine.Send(l.stateCommand(i, len(specs), spec, protocol.OpSet))
		l.runs = append(l.runs, r)
	}
	l.opened = true
	if o, ok := l.fig.(RunsOpener); ok {
		o.RunsOpened()
	}
	l.fig.draw(newState)
}

// setAgain sends run r's state to its worker again: a new worker took the
// place of one that died, and knows nothing of it.
func (l *lab) setAgain(r *run) {
	specs := l.liveRuns(l.st)
	i := slices.IndexFunc(specs, func(s experiment.Run) bool { return s.Name == r.Name })
	if i < 0 {
		return
	}
	r.Run = specs[i]
	r.engine.Send(l.stateCommand(i, len(specs), specs[i], protocol.OpSet))
}

// liveRuns are the runs of state e the lab opens side by side: the lab
// row's, unless the lab says otherwise (LiveRunner).
func (l *lab) liveRuns(e experiment.Experiment) []experiment.Run {
	if lr, ok := l.fig.(LiveRunner); ok {
		return lr.LiveRuns(e)
	}
	return l.row.Runs(e)
}

// stateCommand tells run i of n its state, in the engine's form (the
// rows its model and graph do not read at their defaults: the compare
// lab's GCN takes no pathfinder): one layout at most serves a lab (the
// first run's, where the lab draws a graph; the other workers make none),
// and several runs ask for fewer snapshots each.
func (l *lab) stateCommand(i, n int, spec experiment.Run, op string) protocol.Command {
	c := protocol.Command{Op: op, State: spec.Exp.EncodeEngine(), Layout: protocol.LayoutNone}
	if l.drawsGraph && i == 0 {
		c.Layout = ""
	}
	// The first run's worker measures the graph the runs share against
	// chance (the MLP baseline), beside its run.
	c.Baseline = i == 0
	c.Embed = l.embeds
	if l.embeds {
		c.EmbedLive = l.embedLive
		if i == 0 {
			c.Beside = l.besideModel
		}
	}
	if n > 1 {
		c.Every = severalSnapshotMs
	}
	share := l.threadsCommand(op, n)
	c.Alongside, c.Threads = share.Alongside, share.Threads
	c.Pace = l.st.View.Speed
	return c
}

// closeRuns ends the runs: their workers pause and serve the next runs.
// A run drawn on the server was never opened (see OnPreRender).
func (l *lab) closeRuns() {
	for _, r := range l.runs {
		if r.engine != nil {
			r.engine.Close()
		}
	}
	l.runs, l.queued = nil, nil
}

// enqueue keeps an event for the UI: one dispatch takes all that came in
// meanwhile, so four runs' snapshots, or a burst of one run's, cost the
// page one render. A lab of several runs takes them at most every
// severalFlush: each of its renders lays out and paints a page of four
// runs' numbers and tables, and four workers' snapshots, each taken as
// it came, left the page too few frames (XOR lab: frame p95 50–67 ms).
func (l *lab) enqueue(r *run, ev protocol.Event, f32 []float32) {
	if l.ctx == nil {
		return // the lab has gone
	}
	l.queued = append(l.queued, runEvent{r, ev, f32})
	if len(l.queued) > 1 {
		return // a flush is on its way
	}
	ctx := l.ctx
	wait := time.Duration(0)
	if len(l.runs) > 1 {
		wait = l.wait(l.lastFlush, severalFlush)
	}
	if wait <= 0 {
		ctx.Dispatch(func(app.Context) { l.flush() })
		return
	}
	// A plain timer, as drawLater's: ctx.After is waited out by tests.
	time.AfterFunc(wait, func() { ctx.Dispatch(func(app.Context) { l.flush() }) })
}

// flush applies the queued events in order, then lets the lab redraw.
func (l *lab) flush() {
	if l.ctx == nil {
		return // the lab went while the flush waited
	}
	l.lastFlush = time.Now()
	q := l.queued
	l.queued = nil
	ch := l.legible()
	for _, e := range q {
		if slices.Contains(l.runs, e.r) { // not a run closed meanwhile
			ch |= l.takeEvent(e.r, e.ev, e.f32)
		}
	}
	l.fig.draw(ch)
	l.noteVerdicts()
}

// takeEvent applies one event to its run and tells what the engine said;
// the component takes it then, if it has a use for it.
func (l *lab) takeEvent(r *run, ev protocol.Event, f32 []float32) change {
	if ev.Kind == protocol.KindStartFailed {
		ev.Kind = protocol.KindError // the run's answer: why it has none
	}
	ch := r.apply(ev, f32)
	switch ev.Kind {
	case protocol.KindGraph, protocol.KindError, protocol.KindRestarted:
		r.answered = true // the graph, or why there is none
	}
	switch {
	case ev.Kind == protocol.KindRestarted:
		l.tell(r, failure(ev), "")
		l.setAgain(r)
	case ev.Kind == protocol.KindError:
		l.tell(r, failure(ev), ev.Field)
		if ev.Field == experiment.EditsRow && r.graph != nil {
			l.syncEdits(r.graph.State)
		}
		l.dropUncontrolled(ev.Field)
	case ev.Kind == protocol.KindGraph && ev.Graph != nil && !ev.Graph.Edited && r == l.runs[0]:
		l.syncEdits(ev.Graph.State)
	case ch&newSnapshot != 0:
		if w := r.warning(); w != nil {
			l.tell(r, *w, r.snap.WarningField)
		}
	}
	if t, ok := l.fig.(EventTaker); ok {
		ch |= t.TakeEvent(r, ev, f32)
	}
	return ch
}

// dropUncontrolled sets back to its default a row the engine refused
// that the lab has no control for (a free-text row a link set: layer=E on
// a graph of four layers), saying so: else the graph is never drawn and
// nothing on the page can set the row right. The edits sync themselves
// (syncEdits); a row with a control shows the engine's message beside it.
func (l *lab) dropUncontrolled(field string) {
	p, ok := experiment.Lookup(field)
	if !ok || field == experiment.EditsRow || l.row.Shows(p) && p.Form == "" {
		return
	}
	v := p.Get(&l.st)
	if v == p.Default {
		return
	}
	l.page.board.Add(phrase.New("%s=%s is left out: nothing on this page can set it right; the graph is drawn without it", p.Name, experiment.Quote(v)), false)
	l.setParam(field, p.Default)
}

// tell shows what the engine said of a run, naming the run where the lab
// has several, and beside the field to blame.
func (l *lab) tell(r *run, msg phrase.Text, field string) {
	if field != "" {
		l.engineErr[field] = msg
	}
	if len(l.runs) > 1 {
		msg = phrase.New("%s: %s", phrase.New(r.Title), msg)
	}
	l.page.board.Add(msg, true)
}

// due reports whether the lab's figures, drawn no more often than every,
// should be drawn now: at once for a new state or graph, else when every
// has passed since the last draw. When they are not due, a draw is
// scheduled for when they will be (drawLater).
func (l *lab) due(ch change, every time.Duration) bool {
	if ch&(newState|newGraph|drawNow) == 0 {
		if wait := l.wait(l.lastDraw, every); wait > 0 {
			l.drawLater(wait)
			return false
		}
	}
	l.lastDraw = time.Now()
	return true
}

// wait is how long figures last drawn at last wait before they may be
// drawn again, drawn no more often than every.
func (l *lab) wait(last time.Time, every time.Duration) time.Duration {
	if l.unpaced {
		return 0
	}
	return every - time.Since(last)
}

// drawLater draws the lab's figures after wait, once however often it is
// asked meanwhile, so that the last of a burst of events (a run that
// stopped, steps pressed in a row) is drawn though no event follows it. A
// lab whose runs train needs none: their next snapshots draw it. A plain
// timer, not go-app's ctx.After, which the engine's Consume and Close
// wait out.
func (l *lab) drawLater(wait time.Duration) {
	if l.drawing || l.ctx == nil || l.running() {
		return
	}
	l.drawing = true
	ctx := l.ctx
	time.AfterFunc(wait, func() {
		ctx.Dispatch(func(app.Context) {
			l.drawing = false
			if l.ctx != nil { // still on view
				l.fig.draw(newSnapshot | drawNow)
			}
		})
	})
}

// running reports whether any run trains.
func (l *lab) running() bool {
	return slices.ContainsFunc(l.runs, func(r *run) bool { return r.running })
}

// sendAll sends op to every run.
func (l *lab) sendAll(op string) {
	for _, r := range l.runs {
		r.engine.Send(protocol.Command{Op: op})
	}
}

// togglePlay pauses the runs, or starts them: from the end, if the views
// were rewound. It reports whether the views changed.
func (l *lab) togglePlay() bool {
	if l.running() {
		l.sendAll(protocol.OpPause)
		return false
	}
	back := false
	for _, r := range l.runs {
		back = r.goLive() || back
	}
	if back {
		l.fig.draw(newSnapshot | drawNow) // the run as it is, at once
	}
	l.sendAll(protocol.OpStart)
	return back
}

// layOut is a lab's page: the toolbar (with what the lab puts under it),
// the controls beside the views, and the keys line.
func (l *lab) layOut(class string, underToolbar, controls app.UI, views ...app.UI) app.HTMLDiv {
	var under []app.UI
	if underToolbar != nil {
		under = append(under, underToolbar)
	}
	return app.Div().Class("lab "+class+l.foldClass()).Aria("busy", l.settling()).Body(
		l.renderIntro(),
		l.renderToolbar(under...),
		l.renderFoldRow(),
		l.renderChance(),
		app.Div().Class("main").Body(controls, app.Section().Class("views").Body(append(views, l.renderWeightsSaid(), l.renderClaims())...)),
		l.renderKeys(),
	)
}

// graphOf is the graph a run of e trains on, as its worker reads e (the
// state sent, decoded as the engine decodes it, its rows the graph does
// not read at their defaults): the worker builds and sends a new graph
// when, and only when, this changes.
func graphOf(e experiment.Experiment) experiment.Data {
	d, _ := experiment.DecodeRun(e.EncodeEngine()) // a bad row keeps its default, as in the worker
	return d.Data
}

// settling reports whether the lab still waits for its graph: until its
// runs are opened and every run's engine has sent the graph its state
// names (or said why it cannot), the intro and the
// chance line say what the state tells, and what is below them moves
// when the graph's counts come. The lab is aria-busy meanwhile, so a
// screen reader, and a test, know to wait for the page to settle.
func (l *lab) settling() bool {
	return !l.row.Queue && (!l.opened || slices.ContainsFunc(l.runs, func(r *run) bool { return !r.answered }))
}

// models are the models the lab's state trains, one per run: the rows
// none of them reads are hidden.
func (l *lab) models() []experiment.Model {
	var out []experiment.Model
	for _, r := range l.row.Runs(l.st) {
		out = append(out, r.Exp.Model)
	}
	return out
}

// foldClass tells the styles whether a narrow screen shows the controls.
func (l *lab) foldClass() string {
	if l.unfolded {
		return " unfolded"
	}
	return ""
}

// visible reports whether the lab shows row p's control now: a row it
// offers that the link does not hide, of its story unless all controls
// are shown.
func (l *lab) visible(p experiment.Param) bool {
	if !l.row.Shows(p) || l.st.View.Hidden(p.Name) {
		return false
	}
	// Beyond the story, a row the state holds away from the lab's start
	// (a link's, the recipe's) or that has something wrong shows too.
	return l.allControls || l.row.Story == nil || slices.Contains(l.row.Story, p.Name) ||
		p.Get(&l.st) != p.Get(&l.start) || !l.fieldErr[p.Name].IsZero() || !l.engineErr[p.Name].IsZero()
}

// renderMore is the button that shows the controls beyond the lab's
// story, or folds them again; none where the story shows them all.
func (l *lab) renderMore() app.UI {
	more := 0
	for _, p := range experiment.Params {
		if l.row.Shows(p) && !l.st.View.Hidden(p.Name) && p.Applies(l.st.Data) && !slices.Contains(l.row.Story, p.Name) && p.Get(&l.st) == p.Get(&l.start) {
			more++
		}
	}
	if l.row.Story == nil || more == 0 {
		return app.Div()
	}
	label := trf("All controls (%d more)", more)
	if l.allControls {
		label = tr("Fewer controls")
	}
	return app.Button().ID("all-controls").Class("more").Aria("expanded", l.allControls).Text(label).
		OnClick(func(ctx app.Context, e app.Event) { l.allControls = !l.allControls })
}

// renderIntro is what the lab's first screen says before any control:
// the graph its runs train on, written from that graph (experiment's
// IntroOf, the one place that writes it), then what the lab does.
func (l *lab) renderIntro() app.UI {
	in := l.row.IntroOf(l.graphFacts())
	var graph app.UI = app.Span().ID("intro-graph") // a lab of many graphs says none
	if !in.Graph.IsZero() {
		graph = app.Span().ID("intro-graph").Text(say(in.Graph) + " ")
	}
	return app.P().ID("intro").Class("intro").Body(graph, app.Text(say(in.Lab)))
}

// graphFacts are the facts of the graph the lab's runs train on: the
// engine's graph once it has sent it (a graph of the state's data row),
// else what the state tells.
func (l *lab) graphFacts() experiment.GraphFacts {
	if len(l.runs) > 0 && l.runs[0].graph != nil && l.runs[0].facts.Graph == l.st.Data.Graph {
		return l.runs[0].facts
	}
	return experiment.FactsOfState(l.st.Data)
}

// renderFoldRow is what a phone keeps out of the sticky toolbar, under it:
// the button that unfolds the controls, a new graph, and the button that
// opens the rest of the toolbar (the styles show the row on narrow
// screens only).
func (l *lab) renderFoldRow() app.UI {
	return app.Div().Class("fold-row").Body(
		l.renderFold(),
		app.Button().ID("regenerate-phone").Class("fold").Title(tr("A new graph from the next data seed (G)")).Text(tr("New graph")).
			OnClick(func(ctx app.Context, e app.Event) { l.do(cmdNewGraph) }),
		l.renderToolbarMore(),
	)
}

// renderFold is the button that opens or folds the controls on a narrow
// screen (the styles show it there only).
func (l *lab) renderFold() app.UI {
	label := tr("⚙ Controls")
	if l.unfolded {
		label = tr("✕ Hide controls")
	}
	return app.Button().ID("controls-toggle").Class("fold").Aria("expanded", l.unfolded).Aria("controls", "controls").
		Title(tr("Show or hide the graph, model and training controls")).Text(label).
		OnClick(func(ctx app.Context, e app.Event) { l.unfolded = !l.unfolded })
}

// runNamed is the run called name, nil for none.
func (l *lab) runNamed(name string) *run {
	for _, r := range l.runs {
		if r.Name == name {
			return r
		}
	}
	return nil
}

// dataRun is the name a run's figures carry in data-run: none where the
// lab shows one run.
func (l *lab) dataRun(r *run) string {
	if len(l.runs) > 1 {
		return r.Name
	}
	return ""
}

// metricOf is a figure of run r: a dash before its first snapshot.
func (l *lab) metricOf(r *run, name string, value float64, digits int) app.HTMLSpan {
	text := r.number(value, digits)
	if !r.snapped {
		value = math.NaN()
	}
	return metric(name, l.dataRun(r), value, text)
}

// epochs is the longest run's epochs, for a shared x axis.
func (l *lab) epochs() float64 {
	e := 1
	for _, r := range l.runs {
		e = max(e, r.Exp.Train.Epochs)
	}
	return float64(e)
}

// classNames are the classes' names, as the legend and the inspector
// give them: the data's own, else "class k".
func (l *lab) classNames() []string {
	var g *protocol.Graph
	if len(l.runs) > 0 {
		g = l.runs[0].graph
	}
	names := make([]string, l.classes())
	for k := range names {
		names[k] = className(g, k)
	}
	return names
}

// className is class k's name in g: the data's, else "class k"; "no
// class" for a node without one (a negative label).
func className(g *protocol.Graph, k int) string {
	switch {
	case k < 0:
		return tr("no class")
	case g != nil && k < len(g.ClassNames):
		return g.ClassNames[k]
	}
	return trf("class %d", k)
}

// unlabelled counts the nodes of the runs' graph without a class,
// counted once a graph (labelCounts): a render walks no graph.
func (l *lab) unlabelled() int {
	if len(l.runs) > 0 && l.runs[0].graph != nil {
		return l.runs[0].facts.Unlabelled
	}
	return 0
}

// classes is the number of classes of the runs' graph: those its labels
// use once the engine has sent it (counted once a graph), else the
// state's.
func (l *lab) classes() int {
	if len(l.runs) > 0 && l.runs[0].graph != nil {
		return l.runs[0].used
	}
	return l.st.Data.Classes
}
