package main

import (
	"errors"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/pdn"
	"pdnexplorer/wasm/protocol"
)

// editable reports whether e differs from the run's state in its edits
// alone, so that the run carries on over the edited graph (edit) instead
// of starting over.
func (s *session) editable(e experiment.Experiment) bool {
	if s.g == nil || s.base == nil || s.tr == nil || e.Data.WithoutEdits() != s.exp.Data.WithoutEdits() {
		return false
	}
	was := e
	was.Data = s.exp.Data
	return was.EncodeRun() == s.exp.EncodeRun()
}

// edit applies e's edits to the graph and carries the model on over it:
// the page gets the edited graph (same nodes, so it keeps its layout),
// then a snapshot of the same weights over it, the forward pass that shows
// what the edit changed; training, if it ran, goes on. An edit that does
// not apply changes nothing and is reported. A model whose set-up reads
// the edges starts over on the edited graph (pdn.ErrRegraph).
func (s *session) edit(e experiment.Experiment) {
	g, err := datasets.Make(e.Data, datasets.Given(s.base))
	if err != nil {
		s.fail(err, experiment.EditsRow)
		return
	}
	tr, err := s.tr.Regraph(g)
	if err != nil && !errors.Is(err, pdn.ErrRegraph) {
		s.fail(err, errorField(err))
		return
	}
	s.exp, s.g, s.deg = e, g, nil
	s.gen++
	s.out.snap.Weights = s.out.snap.Weights[:0] // the old edges'
	if !s.view.quiet {
		info := s.graphInfo(g, e)
		info.Edited = true
		s.post(protocol.Event{Kind: protocol.KindGraph, Gen: s.gen, Graph: info}, info.PackArrays(nil))
	}
	if s.learned != nil {
		s.learned.layout.SetEdges(g.Src, g.Dst)
		s.learned.layout.Heat(learnedReheat)
	}
	if tr == nil {
		s.newModel(e) // it starts over; newModel posts its first snapshot
		return
	}
	s.tr = tr
	s.tr.SetPace(s.pace)
	s.postSnapshot()
}
