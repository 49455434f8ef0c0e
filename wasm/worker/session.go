package main

import (
	"errors"
	"fmt"
	"math"
	"time"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/internal/numtext"
	"pdnexplorer/pdn"
	"pdnexplorer/viz/force"
	"pdnexplorer/wasm/protocol"
)

// maxBrowserEdges bounds the graphs the worker will build.
const maxBrowserEdges = protocol.MaxEdges

// chunk is how much work runs between two turns of the event loop: pause
// and every other command act within it.
const chunk = 50 * time.Millisecond

// snapshotEvery throttles snapshots to about 20 a second; a snapshot costs
// an evaluation, so on a large graph they come no more often than twice an
// evaluation's time, to keep that cost under a third of the work (an
// epoch costs about three evaluations, so a long run still shows each).
const snapshotEvery = 50 * time.Millisecond

// layoutEvery is how often a layout in progress is shown, so the picture
// settles before the user's eyes instead of appearing after a wait.
const layoutEvery = 700 * time.Millisecond

// progressEvery is how often a long epoch or set-up reports its progress;
// an epoch reports none before progressAfter, so that at the default size,
// where an epoch takes 16 ms, nothing flickers.
const (
	progressEvery = 100 * time.Millisecond
	progressAfter = 250 * time.Millisecond
)

// trainer is what the session needs of a pdn.Trainer; tests wrap one.
type trainer interface {
	Prepare(budget time.Duration) bool
	Preparing() float64
	Step() (float64, error)
	EvaluateInto(*pdn.Snapshot)
	Reset()
	Done() bool
	Epoch() int
	SetPace(func(done float64))
	Cost() pdn.Cost
}

// newPDNTrainer builds e's model on g, behind the restart remedy if e asks
// for restarts.
func newPDNTrainer(g *datasets.Graph, e experiment.Experiment) (trainer, error) {
	if e.Model.Restarts > 0 {
		return newRestartTrainer(g, e)
	}
	return pdn.NewTrainer(g, e)
}

// poster sends one event, with its float32 array (may be nil), to the page.
type poster func(ev protocol.Event, f32 []float32)

// session is the worker's whole state: the current graph, its trainer and
// whether it is running. Commands change it; work advances it in chunks.
// It is pure Go, so it is tested natively; main_js.go wires it to the page.
type session struct {
	post       poster
	now        func() time.Time
	newTrainer func(*datasets.Graph, experiment.Experiment) (trainer, error)
	// cmds brings the page's commands; yield gives the event loop a turn,
	// so that they can arrive. Both are used inside a long epoch too.
	cmds  chan protocol.Command
	yield func()

	serving  int // the run id of the last set or regenerate command
	exp      experiment.Experiment
	g        *datasets.Graph
	deg      []int // each node's degree in g, once a lab needs it
	gen      int
	tr       trainer
	prepared bool // the trainer's slow set-up is done (see pdn.Trainer.Prepare)
	layout   *layoutJob
	noLayout bool          // the page draws no graph (protocol.LayoutNone)
	every    time.Duration // the page's least time between snapshots
	running  bool
	// learned is the learned layout, run while the page shows it
	// (showLearned).
	learned     *learnedJob
	showLearned bool

	// Inside an epoch: holding is a pause that came in mid-epoch, later the
	// commands that must wait for the epoch to end, epochStart when it began.
	holding    bool
	later      []protocol.Command
	local      *localGraph // the user's own graph, once opened
	epochStart time.Time
	inEpoch    bool

	snap         pdn.Snapshot
	f32          []float32 // a snapshot's arrays, reused
	lastPost     time.Time
	lastLayout   time.Time
	lastProgress time.Time
	sliceStart   time.Time
	evalCost     time.Duration // how long the last evaluation took
	rate         float64       // epochs per second over the last chunk
}

func newSession(post poster) *session {
	s := &session{now: time.Now, newTrainer: newPDNTrainer, rate: math.NaN(),
		cmds: make(chan protocol.Command, 256), yield: func() {}}
	// Every event names the run the worker serves.
	s.post = func(ev protocol.Event, f32 []float32) {
		ev.Run = s.serving
		post(ev, f32)
	}
	return s
}

// run is the worker's loop: apply the commands that came in, do a chunk of
// work, give the event loop a turn; with nothing to do, sleep until a
// command arrives.
func (s *session) run() {
	for {
		s.drain()
		if s.work(chunk) {
			s.yield()
			continue
		}
		s.handle(<-s.cmds)
	}
}

// drain applies the commands deferred during an epoch, then those waiting.
func (s *session) drain() {
	for len(s.later) > 0 {
		c := s.later[0]
		s.later = s.later[1:]
		s.handle(c)
	}
	for {
		select {
		case c := <-s.cmds:
			s.handle(c)
		default:
			return
		}
	}
}

// handle applies one command from the page.
func (s *session) handle(c protocol.Command) {
	switch c.Op {
	case protocol.OpSet, protocol.OpRegenerate:
		// A new run starts from nothing: it gets its graph, layout and
		// model afresh, even where the state is the one the worker has.
		fresh := c.Run != s.serving
		s.serving = c.Run
		s.noLayout = c.Layout == protocol.LayoutNone
		s.every = min(time.Duration(max(c.Every, 0))*time.Millisecond, 2*time.Second)
		if s.noLayout {
			s.layout = nil
		}
		if fresh {
			s.learned, s.showLearned = nil, false // a new run asks for its own layout
		}
		s.set(c.State, c.Op == protocol.OpRegenerate || fresh)
		return
	case protocol.OpLoad:
		s.load(c.Files)
		return
	}
	if c.Run != s.serving {
		return // a run the worker no longer serves
	}
	switch c.Op {
	case protocol.OpStart:
		if s.tr == nil {
			return
		}
		if s.tr.Done() {
			s.reset() // play after the end starts over
		}
		s.running = true
		s.postSnapshot()
	case protocol.OpPause:
		s.running = false
		s.postSnapshot()
	case protocol.OpLayout:
		s.showLearned = c.Layout == experiment.LayoutLearned
		s.startLearned()
	case protocol.OpStep:
		s.running = false
		if s.tr != nil && s.prepared && !s.tr.Done() {
			s.trainEpoch()
		}
		s.postSnapshot()
	case protocol.OpReset:
		s.running = false
		if s.tr != nil {
			s.reset()
		}
		s.postSnapshot()
	case protocol.OpExport:
		s.export(c.Format)
	default:
		s.fail(fmt.Errorf("unknown command %s", experiment.Quote(c.Op)), "")
	}
}

// reset takes the trainer back to epoch 0; a set-up that starts over (the
// restart remedy's) runs again.
func (s *session) reset() {
	s.tr.Reset()
	s.prepared = s.tr.Prepare(0)
}

// set adopts a new experiment: a new graph if its data differ (or always,
// to regenerate), else a new model if the model or training differ. It
// refuses, naming the field to lower, what would not fit the browser,
// before anything is allocated.
func (s *session) set(state string, regenerate bool) {
	e, err := experiment.Decode(state)
	if err != nil {
		s.fail(err, "") // Decode kept the defaults for the bad fields
	}
	if err := e.Validate(); err != nil {
		s.fail(err, "")
		return
	}
	dataChanged := regenerate || s.g == nil || e.Data != s.exp.Data
	modelChanged := dataChanged || e.EncodeRun() != s.exp.EncodeRun()
	shape := s.expectedShape(e.Data)
	if !dataChanged {
		shape = pdn.ShapeOf(s.g)
	}
	if err := checkSize(e, shape); err != nil {
		s.fail(err, err.field)
		return
	}
	if dataChanged {
		g, err := s.buildData(e.Data)
		if err != nil {
			field := ""
			if errors.Is(err, errNoLocal) {
				field = "data"
			}
			s.fail(err, field)
			return
		}
		s.g, s.deg = g, nil
		s.gen++
		s.tr = nil
		s.running = false
		s.layout = nil
		if !s.noLayout {
			s.layout = newLayoutJob(g, e.Data.Seed)
		}
		s.lastLayout = s.now()
		s.snap.Weights = s.snap.Weights[:0] // the old graph's
		s.post(protocol.Event{Kind: protocol.KindGraph, Gen: s.gen, Graph: graphInfo(g, e)}, nil)
	}
	s.exp = e
	if dataChanged {
		s.startLearned()
	}
	if modelChanged {
		s.tr, s.running = nil, false
		tr, err := s.newTrainer(s.g, e)
		if err != nil {
			s.fail(err, errorField(err))
			return
		}
		s.tr = tr
		s.tr.SetPace(s.pace)
		s.prepared = tr.Prepare(0)
		s.postSnapshot()
	}
}

type sizeError struct {
	error
	field string
}

// checkSize refuses graphs and models too large for a browser, naming
// what to lower.
func checkSize(e experiment.Experiment, shape pdn.Shape) *sizeError {
	if shape.E > maxBrowserEdges {
		lever := e.Data.Lever("edges")
		return &sizeError{fmt.Errorf("these parameters make about %s edges; the browser handles up to %s: lower %s, %s or %s",
			numtext.Group(shape.E), numtext.Group(maxBrowserEdges), lever[0], lever[1], lever[2]), lever[0]}
	}
	err := pdn.Estimate(shape, e.Model).Check(pdn.BrowserLimits, e.Data.Lever)
	var ce *pdn.CostError
	if errors.As(err, &ce) {
		return &sizeError{err, ce.Field}
	}
	return nil
}

// errorField names the parameter to change for an error of the engine.
func errorField(err error) string {
	var (
		ge *pdn.GraphError
		ce *pdn.CostError
		de *pdn.DivergedError
	)
	switch {
	case errors.As(err, &ge):
		return ge.Field
	case errors.As(err, &ce):
		return ce.Field
	case errors.As(err, &de):
		return "lr"
	}
	return ""
}

func graphInfo(g *datasets.Graph, e experiment.Experiment) *protocol.Graph {
	test := make([]bool, g.N)
	for i, sp := range g.Splits {
		test[i] = sp != datasets.Train
	}
	info := &protocol.Graph{Nodes: g.N, Src: g.Src, Dst: g.Dst, Labels: g.Labels, Kinds: g.Kind, Test: test, State: e.EncodeRun()}
	if g.Meta["edge_features"] == datasets.TieStrengthMeta {
		info.Inputs = datasets.TieStrengthNames
	}
	return info
}

// work advances the layout and, if running, training, for about budget:
// the layout gets half of it while training runs, and training at least
// one epoch however long a layout update took. It reports whether there
// is more to do without a new command.
func (s *session) work(budget time.Duration) bool {
	start := s.now()
	s.sliceStart = start
	deadline := start.Add(budget)
	if s.layout != nil {
		layoutDeadline := start.Add(budget / 2)
		if !s.running {
			layoutDeadline = deadline
		}
		for s.now().Before(layoutDeadline) {
			if !s.layout.step() {
				s.post(protocol.Event{Kind: protocol.KindLayout, Gen: s.gen}, s.layout.positions())
				s.layout = nil
				break
			}
		}
		if s.layout != nil && s.now().Sub(s.lastLayout) >= layoutEvery {
			s.post(protocol.Event{Kind: protocol.KindLayout, Gen: s.gen}, s.layout.positions())
			s.lastLayout = s.now()
		}
	}
	s.workLearned(deadline)
	if s.tr != nil && !s.prepared {
		// A model with slow set-up gets it done a chunk at a time, so that
		// commands are still answered in between.
		if s.prepared = s.tr.Prepare(max(deadline.Sub(s.now()), budget/2)); !s.prepared {
			s.postProgress(protocol.PhaseSetup, s.tr.Preparing(), false)
			return true
		}
		s.postSnapshot()
	}
	if s.running && s.tr != nil {
		t0, epochs := s.now(), 0
		if s.tr.Done() {
			s.finish() // a set-up can end where the run does (restarts as long as the epochs)
		}
		for s.running && (epochs == 0 || s.now().Before(deadline)) {
			if !s.trainEpoch() {
				break
			}
			epochs++
			if s.tr.Done() {
				s.finish()
			}
		}
		if dt := s.now().Sub(t0).Seconds(); epochs > 0 && dt > 0 {
			s.rate = float64(epochs) / dt
		}
		if !s.running || s.now().Sub(s.lastPost) >= max(snapshotEvery, s.every, 2*s.evalCost) {
			s.postSnapshot()
		}
	}
	return s.layout != nil || s.running || (s.tr != nil && !s.prepared) || (s.learned != nil && s.learned.layout.Hot())
}

// finish stops a run that has trained all its epochs. While it trained,
// the learned layout had a share of the time and a little warmth per
// epoch; now it gets the whole schedule again, from where it stands, to
// settle on the final weights.
func (s *session) finish() {
	s.running = false
	if s.learned != nil {
		s.learned.layout.Heat(force.Start)
	}
}

// workLearned moves the learned layout, if it is shown and hot: while
// training runs, one step at a time and no more than learnedShare of the
// time; otherwise until deadline.
func (s *session) workLearned(deadline time.Time) {
	j := s.learned
	if j == nil || !j.layout.Hot() {
		return
	}
	w := s.learnedWeights()
	if s.running {
		if s.now().Before(j.next) {
			return
		}
		t0 := s.now()
		j.layout.Step(w)
		j.next = s.now().Add(time.Duration(float64(s.now().Sub(t0)) * (1/learnedShare - 1)))
	} else {
		for j.layout.Step(w) && s.now().Before(deadline) {
		}
	}
	if !j.layout.Hot() || s.now().Sub(j.shown) >= learnedEvery {
		s.post(protocol.Event{Kind: protocol.KindLayout, Gen: s.gen, Layout: experiment.LayoutLearned}, j.layout.Positions(nil))
		j.shown = s.now()
	}
}

// learnedWeights are the weights the learned layout follows: the latest
// snapshot's, or nil (every edge alike) for a model without them.
func (s *session) learnedWeights() []float64 {
	if s.tr == nil || !s.exp.Model.UsesGraph() || s.g == nil || len(s.snap.Weights) != s.g.E() {
		return nil
	}
	return s.snap.Weights
}

// startLearned lays the graph out afresh by its learned weights, if the
// page shows that layout.
func (s *session) startLearned() {
	s.learned = nil
	if s.showLearned && s.g != nil {
		s.learned = newLearnedJob(s.g, s.exp.Data.Seed)
		s.followWeights()
	}
}

// followWeights warms the learned layout up for the latest snapshot's epoch.
func (s *session) followWeights() {
	if s.learned != nil && s.tr != nil && s.prepared {
		s.learned.follow(s.snap.Epoch)
	}
}

// trainEpoch trains one epoch; a diverged run stops and is reported.
func (s *session) trainEpoch() bool {
	s.holding, s.epochStart, s.inEpoch = false, s.now(), true
	_, err := s.tr.Step()
	s.inEpoch = false
	if err != nil {
		s.running = false
		s.fail(err, errorField(err))
		return false
	}
	return true
}

// pace runs inside a training step, about every million units of work.
// Once a chunk has passed it reports the epoch's progress, gives the event
// loop a turn and reads what came in: a pause holds the epoch right there
// until play or step; any other command waits for the epoch to end. The
// trainer's state is untouched while it waits, so the run's bits do not
// depend on when the user paused.
func (s *session) pace(done float64) {
	if s.now().Sub(s.sliceStart) < chunk {
		return
	}
	long := s.now().Sub(s.epochStart) >= progressAfter
	if long {
		s.postProgress(protocol.PhaseEpoch, done, false)
	}
	s.yield()
	s.sliceStart = s.now()
	for {
		var c protocol.Command
		select {
		case c = <-s.cmds:
		default:
			if !s.holding {
				return
			}
			c = <-s.cmds // paused mid-epoch: sleep until the next command
		}
		if c.Run != s.serving && c.Op != protocol.OpSet && c.Op != protocol.OpRegenerate {
			continue // a run the worker no longer serves
		}
		switch c.Op {
		case protocol.OpPause:
			s.running, s.holding = false, true
		case protocol.OpStart:
			s.running, s.holding = true, false
		case protocol.OpStep:
			s.running, s.holding = false, false // finish this epoch, then stop
		default:
			s.later = append(s.later, c)
			s.holding = false // finish the epoch, then apply it
		}
		if long || s.holding {
			s.postProgress(protocol.PhaseEpoch, done, true)
		}
		s.sliceStart = s.now()
	}
}

// postProgress tells the page how far a long epoch or set-up has got, at
// most every progressEvery unless now is set (a pause or play to show).
func (s *session) postProgress(phase string, done float64, now bool) {
	if !now && s.now().Sub(s.lastProgress) < progressEvery {
		return
	}
	epoch := 0
	if s.tr != nil {
		epoch = s.tr.Epoch()
	}
	p := &protocol.Progress{Phase: phase, Epoch: epoch, Done: done, Running: s.running}
	if phase == protocol.PhaseSetup {
		p.Restarts = restartsOf(s.tr)
	}
	s.post(protocol.Event{Kind: protocol.KindProgress, Gen: s.gen, Progress: p}, nil)
	s.lastProgress = s.now()
}

// postSnapshot posts the trainer's state, if it is ready to be read.
func (s *session) postSnapshot() {
	if s.tr == nil || !s.prepared {
		return
	}
	t0 := s.now()
	s.tr.EvaluateInto(&s.snap)
	s.evalCost = s.now().Sub(t0)
	s.followWeights()
	sn := &s.snap
	s.f32 = s.f32[:0]
	if s.exp.Model.UsesGraph() {
		for _, w := range sn.Weights {
			s.f32 = append(s.f32, float32(w))
		}
	}
	weights := len(s.f32)
	for _, k := range sn.Pred {
		s.f32 = append(s.f32, float32(k))
	}
	for _, p := range sn.Prob {
		s.f32 = append(s.f32, float32(p))
	}
	epochSec, _ := s.tr.Cost().Seconds(pdn.BrowserLimits)
	ps := &protocol.Snapshot{
		Epoch: sn.Epoch, Epochs: s.exp.Train.Epochs, Loss: protocol.Num(sn.Loss),
		TrainAcc: protocol.Num(sn.TrainAcc), TestAcc: protocol.Num(sn.TestAcc),
		WIntra: protocol.Num(sn.WIntra), WInter: protocol.Num(sn.WInter),
		Running: s.running, EpochsPerSec: protocol.Num(s.rate), Model: s.exp.Model.Kind,
		Inputs: sn.Inputs, Hops: sn.Hops, SecondsPerEpoch: protocol.Num(epochSec),
		Weights: weights, Nodes: len(sn.Pred),
	}
	if sn.Unstable != nil {
		ps.Warning, ps.WarningField = sn.Unstable.Error(), "lr"
	}
	s.addLesson(ps)
	s.post(protocol.Event{Kind: protocol.KindSnapshot, Gen: s.gen, Snap: ps}, s.f32)
	s.lastPost = s.now()
}

func (s *session) fail(err error, field string) {
	s.post(protocol.Event{Kind: protocol.KindError, Gen: s.gen, Error: err.Error(), Field: field}, nil)
}
