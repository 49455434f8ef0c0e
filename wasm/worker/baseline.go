package main

import (
	"math"
	"time"

	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/pdn"
	"pdnexplorer/wasm/protocol"
)

// baselineShare bounds the share of the worker's time the MLP baseline
// takes while the run trains: it is done in a fraction of the run's time
// (an MLP reads no edge), so it only slows the run's first epochs.
const baselineShare = 0.25

// baselineJob is the MLP that measures the run's graph
// (experiment.Baseline), trained beside the run, a chunk at a time, to its
// end: the same run `pdn train` trains for its mlp_accuracy.
type baselineJob struct {
	state string // its state, in the engine's form
	tr    *pdn.Trainer
	next  time.Time // while the run trains, no step before
	err   error     // why it could not train
	done  bool      // its answer is posted
	run   trainer   // the run it was counted beside
}

// followBaseline starts the baseline the state calls for, if the page
// asked for one: a new graph (fresh) or other rows the MLP reads start it
// again; an edit of the edges, which no MLP reads, keeps it.
func (s *session) followBaseline(fresh bool) {
	if !s.view.baseline || s.g == nil {
		s.baseline = nil
		return
	}
	e := experiment.Baseline(s.exp)
	state := e.EncodeRun()
	if b := s.baseline; !fresh && b != nil && b.state == state {
		if b.run == s.tr {
			return
		}
		// Another run on the same graph: the baseline stays, trained as
		// far as it got, where the browser affords it beside the new run.
		s.baseline = nil
		if b.tr != nil && s.affordBeside(e.Model) == nil {
			b.run = s.tr
			s.baseline = b
			return
		}
	}
	s.baseline = nil // let go of the last before the next is counted or built
	b := &baselineJob{state: state, run: s.tr}
	if b.err = s.affordBeside(e.Model); b.err == nil {
		b.tr, b.err = pdn.NewTrainer(s.g, e)
	}
	s.baseline = b
}

// workBaseline trains the baseline until deadline; while the run trains,
// for at most a quarter of the chunk (budget) and baselineShare of the
// time, or, in a paced run, while the run waits for its next epoch. At
// its end it tells the page.
func (s *session) workBaseline(deadline time.Time, budget time.Duration) {
	b := s.baseline
	if b == nil || b.done {
		return
	}
	now, until := s.now(), deadline
	paced := s.running && s.view.pace > 0 && now.Before(s.clock.nextEpoch)
	switch {
	case paced:
		if s.clock.nextEpoch.Before(deadline) {
			until = s.clock.nextEpoch
		}
	case s.running:
		if now.Before(b.next) {
			return
		}
		until = now.Add(budget / 4)
	}
	t0 := s.now()
	for b.err == nil && !b.tr.Done() {
		if _, b.err = b.tr.Step(); b.err != nil || !s.now().Before(until) {
			break
		}
	}
	if s.running && !paced {
		b.next = s.now().Add(time.Duration(float64(s.now().Sub(t0)) * (1/baselineShare - 1)))
	}
	if b.err == nil && !b.tr.Done() {
		return
	}
	b.done = true
	out := &protocol.Baseline{State: b.state, TestAcc: protocol.Num(math.NaN())}
	if b.err != nil {
		t := phrase.Of(b.err)
		out.Error, out.Say = b.err.Error(), &t
	} else {
		out.TestAcc = protocol.Num(b.tr.Evaluate().TestAcc)
	}
	s.post(protocol.Event{Kind: protocol.KindBaseline, Gen: s.gen, Baseline: out}, nil)
}

// baselineBusy reports whether the baseline has work left.
func (s *session) baselineBusy() bool { return s.baseline != nil && !s.baseline.done }
