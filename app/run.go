package app

import (
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/wasm/protocol"
)

// run is one model training on the engine as a lab follows it: its row
// (name, heading, experiment), its handle on the engine, the graph the
// engine built and its layouts, the snapshot the views show with its
// arrays, the history of every snapshot, the progress of a long epoch or
// set-up, and whether it trains. apply takes every event of the engine
// about it; a lab reads the rest.
type run struct {
	experiment.Run
	engine *Handle

	gen   int // the graph's generation: events of an older graph are stale
	graph *protocol.Graph
	facts experiment.GraphFacts // what the intro says of graph (factsOf)
	// used is how many classes graph's labels use (the largest plus one),
	// counted once a graph as facts is: a render walks no graph.
	used int
	// baseline is the MLP that measures the graph, as its worker last
	// said (nil before): the lab reads it against the state's (chance).
	baseline *protocol.Baseline
	pos      []float32 // the layout every graph gets, if its worker makes one
	learned  []float32 // the layout pulled by the learned weights, if asked for

	snap                protocol.Snapshot // the latest, or the one rewound to
	snapped             bool              // a snapshot has come for this graph
	weights, pred, prob []float32         // its arrays: one weight per edge, a class and its probability per node
	hist                history
	running             bool
	progress            *protocol.Progress // nil when no long epoch or set-up is under way
	warned              string             // the instability warning already told
	answered            bool               // the engine has sent a graph, or said why it cannot

	frames *rewind // the snapshots kept for rewinding; nil where the lab keeps none
	// embedded is Figure 4 of the run [0] and of the model trained beside
	// it [1], the latest its worker sent (nil before).
	embedded [2]*protocol.Embedding
}

// change says what events did to a lab's runs, so that the lab redraws
// what changed and no more.
type change uint8

const (
	newGraph     change = 1 << iota // a run has a new graph: all drawn of the old one goes
	newLayout                       // a run's graph has new positions
	newSnapshot                     // a run has new figures
	newState                        // the lab has a new state: draw all
	drawNow                         // draw at once what waited, whatever the pace
	newEdges                        // a run's graph has its edges edited: the nodes stay
	newEmbedding                    // a run's edges have a new embedding (Figure 4)

	// drawAll draws every figure again, now: the page's language or the
	// width the figures are shown at changed.
	drawAll = newState | newSnapshot | drawNow
)

// apply applies one event of the engine to the run and says what it
// changed. Errors and warnings are the lab's to tell.
func (r *run) apply(ev protocol.Event, f32 []float32) change {
	switch ev.Kind {
	case protocol.KindGraph:
		if g := ev.Graph; g != nil && g.Edited && r.graph != nil && g.Nodes == r.graph.Nodes {
			return r.edited(ev.Gen, g)
		}
		r.gen, r.graph, r.pos, r.learned = ev.Gen, ev.Graph, nil, nil
		r.snapped, r.weights, r.pred, r.prob, r.progress = false, nil, nil, nil, nil
		r.facts, r.baseline, r.embedded = factsOf(ev.Graph), nil, [2]*protocol.Embedding{}
		r.used, _ = labelCounts(ev.Graph)
		r.hist.reset()
		if r.frames != nil {
			r.frames.reset()
		}
		return newGraph
	case protocol.KindLayout:
		if ev.Gen != r.gen || r.graph == nil {
			return 0
		}
		if ev.Layout == experiment.LayoutLearned {
			r.learned = f32
		} else {
			r.pos = f32
		}
		return newLayout
	case protocol.KindSnapshot:
		if ev.Gen != r.gen || ev.Snap == nil {
			return 0
		}
		return r.take(*ev.Snap, f32)
	case protocol.KindProgress:
		if ev.Gen == r.gen && ev.Progress != nil {
			r.progress, r.running = ev.Progress, ev.Progress.Running
		}
	case protocol.KindEmbedding:
		if ev.Gen == r.gen && ev.Embedding != nil {
			r.embedded[b2i(ev.Embedding.Beside)] = ev.Embedding
			return newEmbedding
		}
	case protocol.KindBaseline:
		if ev.Gen == r.gen && ev.Baseline != nil {
			r.baseline = ev.Baseline
			return newSnapshot
		}
	}
	return 0
}

// factsOf is what the intro says of the graph the engine built: its row
// (read from the state that made it), the name one's own files gave it,
// its counts.
func factsOf(g *protocol.Graph) experiment.GraphFacts {
	if g == nil {
		return experiment.GraphFacts{}
	}
	e, _ := experiment.Decode(g.State)
	_, unlabelled := labelCounts(g)
	return experiment.GraphFacts{Graph: e.Data.Graph, Name: g.Name, Classes: g.Classes, Nodes: g.Nodes, Edges: len(g.Src),
		Features: g.Features, EdgeFeatures: g.EdgeFeatures, Unlabelled: unlabelled, Scores: g.Scores}
}

// labelCounts is how many classes g's labels use (the largest plus one)
// and how many of its nodes have none (a negative label).
func labelCounts(g *protocol.Graph) (used, unlabelled int) {
	if g == nil {
		return 0, 0
	}
	for _, c := range g.Labels {
		if c < 0 {
			unlabelled++
		}
		used = max(used, c+1)
	}
	return used, unlabelled
}

// edited takes the run's graph with its edges edited: the nodes stay
// where they are drawn and the history goes on; the weights, which were
// the old edges', wait for the snapshot that follows, and the frames kept
// for rewinding, of the old edges, go.
func (r *run) edited(gen int, g *protocol.Graph) change {
	r.gen, r.graph, r.weights, r.facts = gen, g, nil, factsOf(g)
	r.used, _ = labelCounts(g)
	r.embedded = [2]*protocol.Embedding{} // the old edges'
	if r.frames != nil {
		r.frames.reset()
	}
	return newEdges
}

// take adds a snapshot to the history and the frames, and shows it, unless
// the views are rewound and it is the pause a rewind asked for.
func (r *run) take(s protocol.Snapshot, f32 []float32) change {
	w, pred, prob := s.Split(f32)
	r.hist.add(s, r.graph)
	if r.frames != nil && r.frames.keep(s, w, pred, prob) {
		r.running = false
		return 0
	}
	r.snap, r.snapped, r.weights, r.pred, r.prob, r.running = s, true, w, pred, prob, s.Running
	if p := r.progress; p != nil && (p.Phase == protocol.PhaseSetup || s.Epoch > p.Epoch || !s.Running) {
		r.progress = nil // the epoch or set-up it told of is over
	}
	return newSnapshot
}

// warning is the snapshot's warning if it is one the run has not told yet.
func (r *run) warning() *phrase.Text {
	if w := r.snap.Warning; w != nil && w.String() != r.warned {
		r.warned = w.String()
		return w
	}
	return nil
}

// number formats one of the run's figures: a dash before the engine has
// sent any.
func (r *run) number(x float64, digits int) string {
	if !r.snapped {
		return "–"
	}
	return num(x, digits)
}

// sameRuns reports whether runs are the runs the specs name.
func sameRuns(specs []experiment.Run, runs []*run) bool {
	if len(specs) != len(runs) {
		return false
	}
	for i := range specs {
		if specs[i].Name != runs[i].Name {
			return false
		}
	}
	return true
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
