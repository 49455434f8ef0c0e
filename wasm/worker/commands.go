package main

import (
	"errors"
	"math"
	"time"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/pdn"
	"pdnexplorer/wasm/protocol"
)

// handle applies one command from the page.
func (s *session) handle(c protocol.Command) {
	switch c.Op {
	case protocol.OpSet, protocol.OpRegenerate:
		// A new run starts from nothing: it gets its graph, layout and
		// model afresh, even where the state is the one the worker has.
		fresh := c.Run != s.serving
		s.serving = c.Run
		s.view.noLayout = c.Layout == protocol.LayoutNone || c.Quiet
		s.view.quiet = c.Quiet
		s.threads = pdn.UseThreads(share(s.offered, c.Threads, c.Alongside))
		s.view.baseline = c.Baseline && !c.Quiet
		s.view.embed = c.Embed && !c.Quiet
		s.view.embedLive, s.view.beside = c.EmbedLive, c.Beside
		if fresh {
			s.fig = figure4{} // what another run embedded is not this one's
		}
		if fresh || !s.view.baseline {
			s.baseline = nil // another run's, or none asked for
		}
		s.clock.quiet = s.now() // its first progress a second in
		s.view.every = time.Duration(min(max(c.Every, 0), 2000)) * time.Millisecond
		s.setPace(c.Pace)
		if s.view.noLayout {
			s.layout = nil
		}
		if fresh {
			s.learned, s.view.showLearned = nil, false // a new run asks for its own layout
			s.view.tracing, s.view.ends = false, nil   // and its own node and edge
		}
		s.set(c.State, c.Op == protocol.OpRegenerate || fresh)
		return
	case protocol.OpLoad:
		s.load(c.Files, datasets.Columns{ID: c.IDColumn, Target: c.Target, Bins: c.Bins}, c.Parsed, c.State)
		return
	case protocol.OpPace:
		s.setPace(c.Pace)
		return
	case protocol.OpEstimate:
		s.post(protocol.Event{Kind: protocol.KindEstimate, Seconds: s.estimate(c.States)}, nil)
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
		s.view.showLearned = c.Layout == experiment.LayoutLearned
		s.startLearned()
	case protocol.OpStep:
		s.running = false
		if s.tr != nil && s.prepared && !s.tr.Done() {
			s.clock.slice = s.now() // a step is a slice of its own
			s.trainEpoch()
		}
		s.postSoon()
	case protocol.OpReset:
		s.running = false
		if s.tr != nil {
			s.reset()
		}
		s.postSnapshot()
	case protocol.OpExport:
		s.export(c.Format)
	case protocol.OpThreads:
		s.threads = pdn.UseThreads(share(s.offered, c.Threads, c.Alongside))
		s.postSnapshot()
	case protocol.OpTrace:
		s.view.tracing, s.view.node = c.Node >= 0, c.Node
		s.postSnapshot()
	case protocol.OpEdge:
		s.view.ends = nil
		if len(c.Ends) == 2 {
			s.view.ends = c.Ends
		}
		s.postSnapshot()
	default:
		s.fail(phrase.Errorf("unknown command %s", experiment.Quote(c.Op)), "")
	}
}

// reset takes the trainer back to epoch 0; a set-up that starts over (the
// restart remedy's) runs again.
func (s *session) reset() {
	s.tr.Reset()
	s.prepared = s.tr.Prepare(0)
	s.out.rate = math.NaN() // no epoch of this start has been timed: the page shows none, not the last run's
}

// set adopts a new experiment: a new graph if its data differ (or always,
// to regenerate), else a new model if the model or training differ. It
// refuses, naming the field to lower, what would not fit the browser,
// before anything is allocated.
func (s *session) set(state string, regenerate bool) {
	// DecodeRun checks every row against the state table, and refuses a
	// row the run's model or graph does not read, keeping the default of
	// each such or bad row, so the state it gives is valid: the one check
	// on the way from the page (the trainer checks again for its other
	// callers).
	e, err := experiment.DecodeRun(state)
	if err != nil {
		s.fail(err, "") // DecodeRun kept the defaults for the bad fields
	}
	dataChanged := regenerate || s.g == nil || e.Data != s.exp.Data
	if dataChanged && !regenerate && s.editable(e) {
		s.edit(e)
		return
	}
	modelChanged := dataChanged || e.EncodeRun() != s.exp.EncodeRun()
	shape := s.expectedShape(e.Data)
	if !dataChanged {
		shape = pdn.ShapeOf(s.g)
	}
	if err := checkSize(e, shape); err != nil {
		s.fail(err, err.field)
		return
	}
	if dataChanged && !s.newGraph(&e) {
		return
	}
	s.exp = e
	if dataChanged {
		s.startLearned()
	}
	if modelChanged {
		s.newModel(e)
	}
	s.followBaseline(dataChanged)
}

// newGraph builds the graph e names and tells the page; it reports whether
// it could. Edits that do not apply to the graph are reported and left
// out (e's edits with them), so that a link with a bad edit still opens.
func (s *session) newGraph(e *experiment.Experiment) bool {
	base, err := s.buildData(e.Data.Unaltered())
	if err != nil {
		field := ""
		if errors.Is(err, errNoLocal) {
			field = "data"
		}
		s.fail(err, field)
		return false
	}
	// An alteration the graph cannot take (a layer it has not, a
	// perturbation) refuses the graph; edits that do not apply are left
	// out, and the graph made without them.
	g, err := datasets.Make(e.Data, datasets.Given(base))
	var ae *datasets.AlterError
	if errors.As(err, &ae) && ae.Row == experiment.EditsRow {
		s.fail(noneApplied(ae.Err, e.Data.Edits), experiment.EditsRow)
		e.Data.Edits = ""
		g, err = datasets.Make(e.Data, datasets.Given(base))
	}
	if err != nil {
		field := ""
		if errors.As(err, &ae) {
			field = ae.Row
		}
		s.fail(err, field)
		return false
	}
	s.base, s.g, s.deg, s.ranges = base, g, nil, [2][]float64{}
	s.gen++
	s.tr, s.running, s.layout = nil, false, nil
	if !s.view.noLayout {
		s.layout = newLayoutJob(g, e.Data.Seed)
	}
	s.clock.layout = s.now()
	s.out.snap.Weights = s.out.snap.Weights[:0] // the old graph's
	if !s.view.quiet {
		info := s.graphInfo(g, *e)
		s.post(protocol.Event{Kind: protocol.KindGraph, Gen: s.gen, Graph: info}, info.PackArrays(nil))
	}
	return true
}

// noneApplied says, of an edit list the graph refused (err names the edit
// that failed), that none of its edits was applied: the list applies
// whole or not at all. Those before the one that failed are left out
// too, rather than applied: they would make a graph the link does not
// describe (an edit may have been made for one after it), and the link
// would have to be rewritten to a list its author never wrote, where an
// unedited graph is one the link names.
func noneApplied(err error, edits string) error {
	es, perr := experiment.ParseEdits(edits)
	if perr != nil || len(es) < 2 {
		return phrase.Errorf("%w; the graph opens unedited", err)
	}
	return phrase.Errorf("%w; none of the %d edits was applied (a list applies whole or not at all), so the graph opens unedited", err, len(es))
}

// newModel builds e's model on the graph and posts its first snapshot.
func (s *session) newModel(e experiment.Experiment) {
	s.tr, s.running, s.out.rate = nil, false, math.NaN() // the rate was the old model's
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

// sizeError is the cost model's refusal with the field to lower. It says
// itself as the refusal does (Phrase), so the page shows it in its
// language: an embedded error lends only its Error, and the page showed a
// graph refused for its size in English whatever it spoke.
type sizeError struct {
	error
	field string
}

func (e *sizeError) Phrase() phrase.Text { return phrase.Of(e.error) }
func (e *sizeError) Unwrap() error       { return e.error }

// checkSize refuses graphs and models too large for a browser, naming
// what to lower: by the cost model alone, whose graph part bounds the
// edges as the page's reader does (package pagemem).
func checkSize(e experiment.Experiment, shape pdn.Shape) *sizeError {
	err := pdn.Estimate(shape, e.Model).Check(pdn.BrowserLimits, e.Data.Lever)
	var ce *pdn.CostError
	if errors.As(err, &ce) {
		return &sizeError{err, ce.Field}
	}
	return nil
}

// estimate is how long each state's run would take to its end in a
// browser, by the engine's cost model: its epochs at the modelled pace
// plus its set-up; -1 for a state that does not decode.
func (s *session) estimate(states []string) []float64 {
	out := make([]float64, len(states))
	for i, st := range states {
		e, err := experiment.DecodeRun(st)
		if err != nil {
			out[i] = -1
			continue
		}
		epoch, setup := pdn.Estimate(s.expectedShape(e.Data), e.Model).Seconds(pdn.BrowserLimits)
		out[i] = epoch*float64(e.Train.Epochs) + setup
	}
	return out
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

// share is a run's share of the offered threads: those the state asks
// (0: all), no more than offered, split among the runs trained alongside
// (0 counts as 1), at least one.
func share(offered, asked, alongside int) int {
	if asked > 0 {
		offered = min(offered, asked)
	}
	return max(offered/max(alongside, 1), 1)
}
