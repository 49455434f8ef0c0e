package main

import (
	"math"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/lessons"
	"pdnexplorer/pdn"
	"pdnexplorer/wasm/protocol"
	"time"
)

// graphInfo is what the page draws of g and what its intro and chance
// line say of it; its features stay here.
func (s *session) graphInfo(g *datasets.Graph, e experiment.Experiment) *protocol.Graph {
	test := make([]bool, g.N) // a node without a class is neither: its label, -1, says so
	for i, sp := range g.Splits {
		test[i] = sp == datasets.Test || sp == datasets.Val
	}
	info := &protocol.Graph{Nodes: g.N, Src: g.Src, Dst: g.Dst, Labels: g.Labels, Kinds: g.Kind, Test: test, State: e.EncodeRun()}
	info.Inputs, info.ClassNames = g.EdgeNames, g.ClassNames
	info.Classes, info.Features, info.EdgeFeatures = g.C, g.F, g.D
	info.Scores = g.Meta["edge_features"] == datasets.TieStrengthMeta
	if e.Data.Graph == experiment.GraphLocal && s.local != nil {
		info.Name = s.local.name
	}
	majority, tests := lessons.Majority(g)
	info.Majority, info.TestNodes = protocol.Num(majority), tests
	return info
}

// postSnapshot posts the trainer's state, if it is ready to be read: the
// figures as JSON, the edge weights, predicted classes and their
// probabilities as one float32 array.
func (s *session) postSnapshot() {
	if s.tr == nil || !s.prepared {
		return
	}
	if s.view.quiet && !s.tr.Done() {
		s.postRunProgress()
		return
	}
	t0 := s.now()
	s.tr.EvaluateInto(&s.out.snap)
	s.followWeights()
	ps := s.snapshotOf(&s.out.snap)
	f32 := s.out.f32
	if s.view.quiet {
		ps.Weights, ps.Nodes, f32 = 0, 0, nil
	}
	s.post(protocol.Event{Kind: protocol.KindSnapshot, Gen: s.gen, Snap: ps}, f32)
	s.clock.post, s.out.owed = s.now(), false
	s.out.snapCost = s.clock.post.Sub(t0)
}

// quietProgressEvery is how often a quiet run says how far it has got:
// a sweep of long runs shows its runs under way, not nothing for hours.
const quietProgressEvery = time.Second

// postRunProgress tells the page how far a quiet run has got, at most
// every quietProgressEvery: its epochs, not its figures.
func (s *session) postRunProgress() {
	now := s.now()
	if now.Sub(s.clock.quiet) < quietProgressEvery {
		return
	}
	s.clock.quiet = now
	epochs := max(s.exp.Train.Epochs, 1)
	s.post(protocol.Event{Kind: protocol.KindProgress, Gen: s.gen, Progress: &protocol.Progress{
		Phase: protocol.PhaseRun, Epoch: s.tr.Epoch(), Done: float64(s.tr.Epoch()) / float64(epochs), Running: s.running}}, nil)
}

// snapshotOf encodes sn for the page, its arrays into s.out.f32.
func (s *session) snapshotOf(sn *pdn.Snapshot) *protocol.Snapshot {
	f32 := s.out.f32[:0]
	if pdn.UsesGraph(s.exp.Model.Kind) {
		for _, w := range sn.Weights {
			f32 = append(f32, float32(w))
		}
	}
	weights := len(f32)
	for _, k := range sn.Pred {
		f32 = append(f32, float32(k))
	}
	for _, p := range sn.Prob {
		f32 = append(f32, float32(p))
	}
	s.out.f32 = f32
	epochSec, _ := s.tr.Cost().Seconds(pdn.BrowserLimits)
	ps := &protocol.Snapshot{
		Epoch: sn.Epoch, Epochs: s.exp.Train.Epochs, Loss: protocol.Num(sn.Loss),
		TrainAcc: protocol.Num(sn.TrainAcc), TestAcc: protocol.Num(sn.TestAcc),
		WIntra: protocol.Num(sn.WIntra), WInter: protocol.Num(sn.WInter),
		InputHomophily: protocol.Num(sn.InputHomophily), LearnedHomophily: protocol.Num(sn.LearnedHomophily),
		Running: s.running, EpochsPerSec: protocol.Num(s.out.rate), Threads: s.threads, Model: s.exp.Model.Kind,
		Inputs: sn.Inputs, Hops: sn.Hops, SecondsPerEpoch: protocol.Num(epochSec),
		Weights: weights, Nodes: len(sn.Pred), Restarts: restartsOf(s.tr),
	}
	if sn.Unstable != nil {
		w := sn.Unstable.Phrase()
		ps.Warning, ps.WarningField = &w, "lr"
	}
	s.addLesson(ps)
	ps.Spread = spreadOf(lessons.SpreadOf(s.g, s.exp.Model.Kind, sn.Weights))
	if s.view.tracing && !s.view.quiet {
		t, err := s.tr.Trace(s.view.node)
		if err != nil {
			why := phrase.Of(err)
			ps.TraceError = &why
		} else {
			ps.Trace = traceOf(t)
		}
	}
	if len(s.view.ends) == 2 && !s.view.quiet {
		ps.Edge = s.edgeState(s.view.ends[0], s.view.ends[1])
	}
	return ps
}

// spreadOf is the learned weights' distribution for the page, nil for a
// model without edge weights. It is computed at every snapshot (a sort of
// the weights): the snapshots' pace follows their cost (snapshotPace), so
// a large graph's costs it fewer of them, never the training's time.
func spreadOf(sp lessons.Spread) *protocol.Spread {
	if math.IsNaN(sp.Saturated) {
		return nil
	}
	return &protocol.Spread{Intra: nums(sp.Intra), Inter: nums(sp.Inter), Saturated: protocol.Num(sp.Saturated)}
}

// edgeState is edge u–v as the page's editor reads it.
func (s *session) edgeState(u, v int) *protocol.EdgeState {
	g := s.g
	if s.ranges[0] == nil {
		s.ranges[0], s.ranges[1] = datasets.FeatureRanges(s.base)
	}
	out := &protocol.EdgeState{Ends: [2]int{u, v}, Index: g.EdgeIndex(u, v), Lo: nums(s.ranges[0]), Hi: nums(s.ranges[1])}
	if e := out.Index; e >= 0 {
		out.Features = nums(g.EdgeX[e*g.D : (e+1)*g.D])
	}
	return out
}

// traceOf is a node's update as the page shows it: its heaviest edges,
// the others summed.
func traceOf(t *pdn.Trace) *protocol.Trace {
	out := &protocol.Trace{Node: t.Node, Label: t.Label, Pred: t.Pred, Degree: protocol.Num(t.Degree), Self: protocol.Num(t.Self),
		Msg1: nums(t.SelfMsg1), Msg2: nums(t.SelfMsg2), Bias1: nums(t.Bias1), Bias2: nums(t.Bias2), Pre1: nums(t.Pre1),
		Hidden: nums(t.Hidden), Logits: nums(t.Logits), Prob: nums(t.Prob),
		InterShare: protocol.Num(t.InterShare), InterShareGCN: protocol.Num(t.InterShareGCN), Attention: t.Attention}
	var rest1, rest2 []float64
	var restNorm float64
	for k, e := range t.Edges {
		if k < protocol.MaxTraceEdges {
			out.Edges = append(out.Edges, protocol.TraceEdge{Neighbour: e.Neighbour, Label: e.Label, Features: nums(e.Features),
				PathHidden: nums(e.PathHidden), Alpha: protocol.Num(e.Alpha), Degree: protocol.Num(e.Degree),
				Norm: protocol.Num(e.Norm), NormGCN: protocol.Num(e.NormGCN), Msg1: nums(e.Msg1), Msg2: nums(e.Msg2)})
			continue
		}
		if rest1 == nil {
			rest1, rest2 = make([]float64, len(e.Msg1)), make([]float64, len(e.Msg2))
		}
		for x := range rest1 {
			rest1[x] += e.Msg1[x]
		}
		for x := range rest2 {
			rest2[x] += e.Msg2[x]
		}
		restNorm += e.Norm
		out.Rest.Edges++
	}
	out.Rest.Norm, out.Rest.Msg1, out.Rest.Msg2 = protocol.Num(restNorm), nums(rest1), nums(rest2)
	return out
}

// restartsOf describes the initialisations the restart remedy has tried,
// nil for a run without it.
func restartsOf(tr trainer) *protocol.Restarts {
	r := tr.Restarts()
	if r == nil {
		return nil
	}
	out := &protocol.Restarts{Chosen: r.Chosen, Epochs: r.Epochs}
	for _, x := range r.Tried {
		out.Seeds, out.Losses = append(out.Seeds, x.Seed), append(out.Losses, protocol.Num(x.Loss))
	}
	return out
}

func (s *session) fail(err error, field string) {
	ev := protocol.Failure(err)
	ev.Gen, ev.Field = s.gen, field
	s.post(ev, nil)
}

func nums(xs []float64) []protocol.Num {
	out := make([]protocol.Num, len(xs))
	for i, x := range xs {
		out[i] = protocol.Num(x)
	}
	return out
}
