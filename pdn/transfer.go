package pdn

import (
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
)

// transfer is the set-up of a fixed-graph model over a PDN's learned graph
// (experiment.FromPDN, OpenGSL's generalisability question): a PDN with
// the experiment's rows trains to its end on the input graph, its edge
// weights, read without dropout, are frozen as the graph's weights
// (datasets.Graph.Weight), and the model trains over that graph from its
// own seed. Prepare trains the PDN an epoch at a time, as it runs the
// restart remedy, so a caller with a frame to keep can share out the
// work; the restart remedy, the pathfinder's, goes to the PDN.
type transfer struct {
	from *Trainer              // the PDN whose learned graph the model takes
	e    experiment.Experiment // the model's, without restarts
	g    *datasets.Graph
	cost Cost
}

// newTransfer plans e's model over the graph a PDN of e's rows learns on g,
// or, induced (experiment.Model.Induced), on the graph the generator draws
// from e's rows at the pathfinder's seed.
func newTransfer(g *datasets.Graph, e experiment.Experiment, cost Cost) (*Trainer, error) {
	src := e
	src.Model.Kind, src.Model.GraphFrom, src.Model.PathfinderSeed, src.Model.PathfinderRows = experiment.PDN, experiment.FromInput, 0, ""
	srcG := g
	if e.Model.Induced(e.Data) {
		if e.Data.Real() {
			return nil, &GraphError{Field: "pathfinder-seed", Msg: phrase.New("pathfinder-seed %d: a real graph has one draw; induction trains the pathfinder on another graph of the generator's rows", e.Model.PathfinderSeed)}
		}
		var err error
		if src.Data, err = e.Model.PathfinderData(e.Data); err != nil {
			return nil, &GraphError{Field: "pathfinder-rows", Msg: phrase.New("pathfinder-rows: %s", err)} // err a message of its own, kept so, translated
		}
		if srcG, err = datasets.Build(src.Data); err != nil {
			return nil, err
		}
		if srcG.D != g.D {
			return nil, &GraphError{Field: "pathfinder-rows", Msg: phrase.New("pathfinder-rows: %s", phrase.New("the pathfinder's graph has %d edge features and this one %d: a pathfinder reads as many as it learned on", srcG.D, g.D))}
		}
	}
	from, err := NewTrainer(srcG, src)
	if err != nil {
		return nil, err
	}
	target := e
	target.Model.Restarts = 0
	return &Trainer{exp: e, g: g, cost: cost, pc: &pacer{}, loss: math.NaN(), firstLoss: math.NaN(),
		inputHomophily: homophily(g, nil), transfer: &transfer{from: from, e: target, g: g, cost: cost}}, nil
}

// share is the part of the PDN's epochs done, in [0, 1].
func (tr *transfer) share() float64 {
	return float64(tr.from.Epoch()) / float64(max(tr.from.exp.Train.Epochs, 1))
}

// prepareTransfer trains the PDN until the deadline (at least one epoch),
// and once it is done makes t the model over its learned graph. It reports
// whether the set-up is done.
func (t *Trainer) prepareTransfer(deadline time.Time) bool {
	tr := t.transfer
	if t.net != nil {
		return true
	}
	for !tr.from.Done() {
		if !tr.from.Prepare(time.Until(deadline)) {
			return false
		}
		if _, err := tr.from.Step(); err != nil {
			break // a PDN that diverged hands over the weights it reached
		}
		if !time.Now().Before(deadline) && !tr.from.Done() {
			return false
		}
	}
	g := *tr.g
	if tr.from.g == tr.g {
		g.Weight = slices.Clone(tr.from.Evaluate().Weights)
	} else {
		g.Weight = tr.from.weightsOn(tr.g)
	}
	pc, exp := t.pc, t.exp
	*t = *newTrainer(&g, tr.e, tr.cost)
	t.pc, t.exp, t.transfer = pc, exp, tr
	t.inputHomophily = homophily(tr.g, nil) // the input's, not the learned graph's
	t.net.setPacer(pc)
	return true
}

// GraphWeights returns the weights the trainer's model propagates each
// edge with: PDN's learned graph, frozen, for a model over it (finishing
// the set-up first); nil for a model over the input graph.
func (t *Trainer) GraphWeights() []float64 {
	if t.transfer == nil {
		return nil
	}
	t.prepared()
	return t.g.Weight
}

// LearnedFrom returns the PDN whose learned graph the trainer's model
// propagates over, nil for a model over the input graph.
func (t *Trainer) LearnedFrom() *Trainer {
	if t.transfer == nil {
		return nil
	}
	return t.transfer.from
}

// weightsOn applies t's pathfinder, as trained, to the edge features of g,
// a graph it did not train on: one weight per edge of g, as the trainer's
// evaluation gives its own graph's (no DropEdge). t is a PDN whose edge
// model reads only the edges' own features, so any graph of the same D
// will do.
func (t *Trainer) weightsOn(g *datasets.Graph) []float64 {
	t.prepared()
	net, ok := t.net.(*gcnNet)
	if !ok || net.edges == nil {
		panic("pdn: weightsOn of a model without a pathfinder: " + t.exp.Model.Kind)
	}
	em := models[t.exp.Model.Kind].edges(g, t.exp.Model, rand.New(rand.NewPCG(0, 0)))
	for i, p := range em.params() {
		copy(p.val, net.edges.params()[i].val)
	}
	return slices.Clone(em.forward())
}
