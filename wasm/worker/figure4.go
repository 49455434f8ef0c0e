package main

import (
	"math"
	"time"

	"pdnexplorer/datasets"
	"pdnexplorer/edgekind"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/lessons"
	"pdnexplorer/pdn"
	"pdnexplorer/wasm/protocol"
)

// figure4Share bounds the share of the worker's time each of Figure 4's
// two kinds of work takes while the run trains: the model trained beside
// the run, and t-SNE. The exact t-SNE of 600 edges costs seconds in the
// browser; spread a step at a time between the run's epochs it slows the
// run by a fifth at most, and stalls neither the run nor the page. At a
// quarter each the graph lab's unpaced run fell from 466 to 290 epochs a
// second at 500 nodes a class; the panels wait for a pause or the run's
// end instead (they keep all the time then).
const figure4Share = 0.1

// figure4 is Figure 4 as the page asked for it (protocol.Command.Embed):
// the embedding under way, what was last embedded of the run (0) and of
// the model beside it (1), and that model.
type figure4 struct {
	beside *besideRun
	job    *embedJob
	last   [2]embedKey
	turn   int          // which of the two the next embedding tries first
	next   [2]time.Time // while the run trains, no training beside (0) or t-SNE step (1) before
}

// embedKey names what an embedding is of: a model, on a graph, at an
// epoch. An embedding is due where the key has moved on.
type embedKey struct {
	tr    lessons.EdgeRepresenter
	g     *datasets.Graph
	epoch int
}

// embedJob is one embedding under way.
type embedJob struct {
	key   embedKey
	which int // 0 the run, 1 the model beside
	model string
	done  bool // the model had trained all its epochs
	run   *lessons.EmbeddingRun
}

// besideRun is the model trained beside the run (protocol.Command.Beside):
// the state it follows and its trainer on the run's graph.
type besideRun struct {
	kind, state string
	g           *datasets.Graph
	tr          *pdn.Trainer
	err         error
	told        int     // 1 + the graph's generation the page was told err of
	run         trainer // the run it was counted beside
}

// wantsFigure4 reports whether the page asked for Figure 4 of this run.
func (s *session) wantsFigure4() bool {
	return s.view.embed && !s.view.quiet && s.tr != nil && s.g != nil
}

// followBeside keeps the model beside the run on the run's graph and rows:
// another graph, or other rows, start it afresh; a run taken back (a
// reset) takes it back too.
func (s *session) followBeside() {
	f := &s.fig
	kind := s.view.beside
	if !s.wantsFigure4() || kind == "" || kind == s.exp.Model.Kind {
		f.beside = nil
		return
	}
	e := s.exp
	e.Model.Kind = kind
	state := e.EncodeEngine()
	if b := f.beside; b != nil && b.g == s.g && b.state == state && s.keepBeside(b) {
		if b.tr != nil && b.tr.Epoch() > s.tr.Epoch() {
			b.tr.Reset() // the run went back: the same epochs again give the same bits
		}
		s.tellBeside(b)
		return
	}
	f.beside = nil // let go of the last before the next is counted or built
	b := &besideRun{kind: kind, state: state, g: s.g, run: s.tr}
	if be, err := experiment.DecodeRun(state); err != nil {
		b.err = err
	} else if b.err = s.affordBeside(be.Model); b.err == nil {
		b.tr, b.err = pdn.NewTrainer(s.g, be)
	}
	f.beside = b
	s.tellBeside(b)
}

// keepBeside reports whether b, the model beside the run on its graph and
// rows, stays: it was counted beside this run, or the browser affords it
// beside the run that replaced that one (it stays trained as far as it
// got). A model refused before is counted again.
func (s *session) keepBeside(b *besideRun) bool {
	if b.run == s.tr {
		return true
	}
	s.fig.beside = nil
	be, err := experiment.DecodeRun(b.state)
	if b.tr == nil || err != nil || s.affordBeside(be.Model) != nil {
		return false
	}
	b.run, s.fig.beside = s.tr, b
	return true
}

// tellBeside tells the page why the model beside is not trained, where it
// is not, once for each graph the page has been sent (an edit sends
// another, and the page forgets the last one's embeddings).
func (s *session) tellBeside(b *besideRun) {
	if b.err == nil || b.told == s.gen+1 {
		return
	}
	b.told = s.gen + 1
	t := phrase.Of(b.err)
	s.post(protocol.Event{Kind: protocol.KindEmbedding, Gen: s.gen, Embedding: &protocol.Embedding{Model: b.kind, Beside: true,
		Hidden: protocol.Num(math.NaN()), Separation: protocol.Num(math.NaN()), Refused: &t}}, nil)
}

// affordBeside refuses a model to be built beside the run that the
// browser cannot afford with what the worker holds on the run's graph
// already (the run, the MLP baseline, the model beside it: heldBeside),
// by the cost model's one rule: all of them within the memory, the graph
// counted once (pdn.Beside), and the model's own epoch within the
// browser's (pdn.BrowserLimits).
func (s *session) affordBeside(m experiment.Model) error {
	shape := pdn.ShapeOf(s.g)
	return pdn.Beside(pdn.Estimate(shape, m), shape, s.heldBeside()...).Check(pdn.BrowserLimits, s.exp.Data.Lever)
}

// heldBeside are the costs of the models the worker holds on the run's
// graph: the run's, the MLP baseline's and the model beside's, those built.
func (s *session) heldBeside() []pdn.Cost {
	var held []pdn.Cost
	if s.tr != nil {
		held = append(held, s.tr.Cost())
	}
	if b := s.baseline; b != nil && b.tr != nil {
		held = append(held, b.tr.Cost())
	}
	if b := s.fig.beside; b != nil && b.tr != nil {
		held = append(held, b.tr.Cost())
	}
	return held
}

// besideBehind reports whether the model beside has epochs to train: up
// to the run's epoch, and to its end once the run has ended.
func (s *session) besideBehind() bool {
	b := s.fig.beside
	if b == nil || b.err != nil || b.tr.Done() {
		return false
	}
	return s.tr.Done() || b.tr.Epoch() < s.tr.Epoch()
}

// figure4Until is until when a kind of Figure 4's work (0 training beside,
// 1 t-SNE) may run in this chunk, and whether it may run at all: while
// the run trains, a quarter of the chunk at most and figure4Share of the
// time; in a paced run, while the run waits for its next epoch; else to
// the deadline.
func (s *session) figure4Until(kind int, deadline time.Time, budget time.Duration) (time.Time, bool) {
	now := s.now()
	switch {
	case s.running && s.view.pace > 0 && now.Before(s.clock.nextEpoch):
		if s.clock.nextEpoch.Before(deadline) {
			return s.clock.nextEpoch, true
		}
		return deadline, true
	case s.running:
		return now.Add(budget / 4), !now.Before(s.fig.next[kind])
	}
	return deadline, true
}

// spent charges a kind of Figure 4's work that began at t0 to its share.
func (s *session) spent(kind int, t0 time.Time) {
	if s.running && s.view.pace == 0 {
		s.fig.next[kind] = s.now().Add(time.Duration(float64(s.now().Sub(t0)) * (1/figure4Share - 1)))
	}
}

// workFigure4 trains the model beside and embeds, each within its share;
// an embedding done is posted.
func (s *session) workFigure4(deadline time.Time, budget time.Duration) {
	if !s.wantsFigure4() || !s.prepared {
		s.fig.job = nil
		return
	}
	s.followBeside()
	if until, ok := s.figure4Until(0, deadline, budget); ok && s.besideBehind() {
		t0, b := s.now(), s.fig.beside
		for s.besideBehind() {
			if _, b.err = b.tr.Step(); b.err != nil || !s.now().Before(until) {
				break
			}
		}
		s.spent(0, t0)
	}
	if s.fig.job != nil && s.stale(s.fig.job) {
		s.fig.job = nil
	}
	if s.fig.job == nil {
		s.fig.job = s.nextEmbedding()
	}
	j := s.fig.job
	if j == nil {
		return
	}
	if until, ok := s.figure4Until(1, deadline, budget); ok {
		t0 := s.now()
		for j.run.Step() && s.now().Before(until) {
		}
		s.spent(1, t0)
	}
	if j.run.Done() {
		s.fig.job = nil
		s.postEmbedding(j.which, j.model, j.key.epoch, j.done, j.run.Result())
	}
}

// embeddable is what an embedding reads of a model: its edges'
// representations, how far it has trained.
type embeddable interface {
	lessons.EdgeRepresenter
	Epoch() int
	Done() bool
}

// embedDue is the model whose embedding is due as which (0 the run, 1
// the model beside), with its kind and key; nil where none is: the latest
// is of its epoch, or the page wants the figure once trained and it has
// not.
func (s *session) embedDue(which int) (embeddable, string, embedKey) {
	var t embeddable
	kind := s.exp.Model.Kind
	if which == 0 {
		t = s.tr
	} else if b := s.fig.beside; b != nil && b.err == nil {
		t, kind = b.tr, b.kind
	}
	if t == nil || (!s.view.embedLive && !t.Done()) {
		return nil, "", embedKey{}
	}
	key := embedKey{tr: t, g: s.g, epoch: t.Epoch()}
	if key == s.fig.last[which] {
		return nil, "", embedKey{}
	}
	return t, kind, key
}

// stale reports whether an embedding under way is of a model or graph the
// run no longer has.
func (s *session) stale(j *embedJob) bool {
	var now lessons.EdgeRepresenter = s.tr
	if j.which == 1 {
		now = nil
		if b := s.fig.beside; b != nil && b.err == nil {
			now = b.tr
		}
	}
	return j.key.g != s.g || j.key.tr != now
}

// nextEmbedding starts the embedding due, the run's and the model
// beside's in turn; nil where none is. A model without edge
// representations is told so at once.
func (s *session) nextEmbedding() *embedJob {
	for i := range 2 {
		which := (s.fig.turn + i) % 2
		t, kind, key := s.embedDue(which)
		if t == nil {
			continue
		}
		s.fig.last[which] = key
		r, ok := lessons.StartEmbedEdges(s.g, t, s.exp.Data.Seed)
		if !ok {
			s.postEmbedding(which, kind, key.epoch, t.Done(), lessons.EdgeEmbedding{Separation: math.NaN(), Hidden: math.NaN()})
			continue
		}
		s.fig.turn = (which + 1) % 2
		return &embedJob{key: key, which: which, model: kind, done: t.Done(), run: r}
	}
	return nil
}

// postEmbedding tells the page an embedding.
func (s *session) postEmbedding(which int, model string, epoch int, done bool, emb lessons.EdgeEmbedding) {
	out := &protocol.Embedding{Model: model, Beside: which == 1, Epoch: epoch, Done: done, Neighbours: lessons.TSNENeighbours,
		Separation: protocol.Num(emb.Separation), Hidden: protocol.Num(emb.Hidden),
		XY: make([]float32, len(emb.XY)), Inter: make([]bool, len(emb.Kinds)),
		OneKind: len(emb.XY) == 0 && lessons.OneKind(s.g)} // why there are no points, where the model has representations
	for i, v := range emb.XY {
		out.XY[i] = float32(v)
	}
	for i, k := range emb.Kinds {
		out.Inter[i] = k == edgekind.Inter
	}
	s.post(protocol.Event{Kind: protocol.KindEmbedding, Gen: s.gen, Embedding: out}, nil)
}

// figure4Busy reports whether Figure 4 has work left: an embedding under
// way or due, or epochs to train beside.
func (s *session) figure4Busy() bool {
	if !s.wantsFigure4() || !s.prepared {
		return false
	}
	if s.fig.job != nil || s.besideBehind() {
		return true
	}
	for which := range 2 {
		if t, _, _ := s.embedDue(which); t != nil {
			return true
		}
	}
	return false
}
