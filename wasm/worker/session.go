package main

import (
	"errors"
	"fmt"
	"math"
	"time"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/pdn"
	"pdnexplorer/wasm/protocol"
)

// maxBrowserEdges bounds the graphs the worker will build: beyond it an
// epoch takes seconds and the weights outgrow a comfortable page. The CLI
// has no such bound.
const maxBrowserEdges = 200_000

// snapshotEvery throttles snapshots to about 20 a second.
const snapshotEvery = 50 * time.Millisecond

// layoutEvery is how often a layout in progress is shown, so the picture
// settles before the user's eyes instead of appearing after a wait.
const layoutEvery = 700 * time.Millisecond

// trainer is what the session needs of a pdn.Trainer; tests wrap one.
type trainer interface {
	Prepare(budget time.Duration) bool
	Step() (float64, error)
	EvaluateInto(*pdn.Snapshot)
	Reset()
	Done() bool
}

func newPDNTrainer(g *datasets.Graph, e experiment.Experiment) (trainer, error) {
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

	exp      experiment.Experiment
	g        *datasets.Graph
	gen      int
	tr       trainer
	prepared bool // the trainer's slow set-up is done (see pdn.Trainer.Prepare)
	layout   *layoutJob
	running  bool

	snap       pdn.Snapshot
	w32        []float32
	lastPost   time.Time
	lastLayout time.Time
	rate       float64 // epochs per second over the last chunk
}

func newSession(post poster) *session {
	return &session{post: post, now: time.Now, newTrainer: newPDNTrainer, rate: math.NaN()}
}

// handle applies one command from the page.
func (s *session) handle(c protocol.Command) {
	switch c.Op {
	case protocol.OpSet, protocol.OpRegenerate:
		s.set(c.State, c.Op == protocol.OpRegenerate)
	case protocol.OpStart:
		if s.tr == nil {
			return
		}
		if s.tr.Done() {
			s.tr.Reset() // play after the end starts over
		}
		s.running = true
		s.postSnapshot()
	case protocol.OpPause:
		s.running = false
		s.postSnapshot()
	case protocol.OpStep:
		s.running = false
		if s.tr != nil && s.prepared && !s.tr.Done() {
			s.trainEpoch()
		}
		s.postSnapshot()
	case protocol.OpReset:
		s.running = false
		if s.tr != nil {
			s.tr.Reset()
		}
		s.postSnapshot()
	default:
		s.fail(fmt.Errorf("unknown command %q", c.Op), "")
	}
}

// set adopts a new experiment: a new graph if its data differ (or always,
// to regenerate), else a new model if the model or training differ.
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
	modelChanged := dataChanged || e.Encode() != s.exp.Encode()
	if dataChanged {
		if err := checkSize(e.Data); err != nil {
			s.fail(err, err.field)
			return
		}
		g, err := datasets.Synthetic(e.Data)
		if err != nil {
			s.fail(err, "")
			return
		}
		s.g = g
		s.gen++
		s.layout = newLayoutJob(g, e.Data.Seed)
		s.lastLayout = s.now()
		s.post(protocol.Event{Kind: protocol.KindGraph, Gen: s.gen, Graph: graphInfo(g, e)}, nil)
	}
	s.exp = e
	if modelChanged {
		tr, err := s.newTrainer(s.g, e)
		if err != nil {
			s.fail(err, "")
			return
		}
		s.tr = tr
		s.prepared = tr.Prepare(0)
		s.postSnapshot()
	}
}

type sizeError struct {
	error
	field string
}

// checkSize refuses graphs too large for a browser, naming what to lower.
func checkSize(d experiment.Data) *sizeError {
	n := float64(d.PerClass)
	intra := float64(d.Classes) * n * (n - 1) / 2 * d.P
	inter := float64(d.Classes*(d.Classes-1)) / 2 * n * n * d.Q
	if intra+inter <= maxBrowserEdges {
		return nil
	}
	field := "q"
	if intra > inter {
		field = "p"
	}
	return &sizeError{fmt.Errorf("these parameters make about %.0f edges; the browser handles up to %d: lower %s, or per-class (n = %d)",
		intra+inter, maxBrowserEdges, field, d.PerClass), field}
}

func graphInfo(g *datasets.Graph, e experiment.Experiment) *protocol.Graph {
	test := make([]bool, g.N)
	for i, sp := range g.Splits {
		test[i] = sp != datasets.Train
	}
	return &protocol.Graph{Nodes: g.N, Src: g.Src, Dst: g.Dst, Labels: g.Labels, Kinds: g.Kind, Test: test, State: e.Encode()}
}

// work advances the layout and, if running, training, for about budget.
// It reports whether there is more to do without a new command.
func (s *session) work(budget time.Duration) bool {
	start := s.now()
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
	if s.tr != nil && !s.prepared {
		// A model with slow set-up gets it done a chunk at a time, so that
		// commands are still answered in between.
		if s.prepared = s.tr.Prepare(deadline.Sub(s.now())); !s.prepared {
			return true
		}
		s.postSnapshot()
	}
	if s.running && s.tr != nil {
		t0, epochs := s.now(), 0
		for s.running && s.now().Before(deadline) {
			if !s.trainEpoch() {
				break
			}
			epochs++
			if s.tr.Done() {
				s.running = false
			}
		}
		if dt := s.now().Sub(t0).Seconds(); epochs > 0 && dt > 0 {
			s.rate = float64(epochs) / dt
		}
		if !s.running || s.now().Sub(s.lastPost) >= snapshotEvery {
			s.postSnapshot()
		}
	}
	return s.layout != nil || s.running || (s.tr != nil && !s.prepared)
}

// trainEpoch trains one epoch; a diverged run stops and is reported.
func (s *session) trainEpoch() bool {
	if _, err := s.tr.Step(); err != nil {
		s.running = false
		var de *pdn.DivergedError
		field := ""
		if errors.As(err, &de) {
			field = "lr"
		}
		s.fail(err, field)
		return false
	}
	return true
}

// postSnapshot posts the trainer's state, if it is ready to be read.
func (s *session) postSnapshot() {
	if s.tr == nil || !s.prepared {
		return
	}
	s.tr.EvaluateInto(&s.snap)
	sn := &s.snap
	s.w32 = s.w32[:0]
	for _, w := range sn.Weights {
		s.w32 = append(s.w32, float32(w))
	}
	var w32 []float32
	if s.exp.Model.UsesGraph() {
		w32 = s.w32
	}
	s.post(protocol.Event{Kind: protocol.KindSnapshot, Gen: s.gen, Snap: &protocol.Snapshot{
		Epoch: sn.Epoch, Epochs: s.exp.Train.Epochs, Loss: protocol.Num(sn.Loss),
		TrainAcc: protocol.Num(sn.TrainAcc), TestAcc: protocol.Num(sn.TestAcc),
		WIntra: protocol.Num(sn.WIntra), WInter: protocol.Num(sn.WInter),
		Running: s.running, EpochsPerSec: protocol.Num(s.rate), Model: s.exp.Model.Kind,
		Inputs: sn.Inputs, Hops: sn.Hops,
	}}, w32)
	s.lastPost = s.now()
}

func (s *session) fail(err error, field string) {
	s.post(protocol.Event{Kind: protocol.KindError, Gen: s.gen, Error: err.Error(), Field: field}, nil)
}
