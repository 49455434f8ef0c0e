package pdn

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
)

// ErrRegraph says a trainer cannot carry on over another graph because
// its model's set-up reads the edges (DeepWalk's walks, ClusterGCN's
// partition) or chose the weights on the old graph (the restart remedy, a
// PDN's learned graph handed over): such a model starts over on the
// edited graph.
var ErrRegraph = errors.New("pdn: this model's set-up reads the graph's edges, so it starts over on an edited graph")

// streamer is a network with random streams of its own (dropout masks),
// which Regraph carries over so that training goes on as it would have.
type streamer interface{ streams() []*rand.PCG }

// Regraph returns a trainer that carries on from t over g, a graph with
// t's nodes, features, labels and split and other edges (an edited
// graph, datasets.Make): the same weights, Adam state, random streams,
// epoch and losses. Its first evaluation is the forward pass of t's
// weights over g, so it shows what the edit changes, and training goes on
// from there; Reset goes back to the seed's weights, on g. t is left as
// it was. It returns ErrRegraph for a model that cannot carry on (see
// there), a *GraphError for a graph it cannot train on, and a *CostError
// past NativeLimits.
func (t *Trainer) Regraph(g *datasets.Graph) (*Trainer, error) {
	kind := t.exp.Model.Kind
	if m, _ := experiment.ModelNamed(kind); t.restarts != nil || t.transfer != nil || m.SetupReadsEdges {
		return nil, ErrRegraph
	}
	if g.N != t.g.N || g.F != t.g.F || g.C != t.g.C || g.D != t.g.D {
		return nil, fmt.Errorf("pdn: regraph onto a graph of N=%d, F=%d, C=%d, D=%d from N=%d, F=%d, C=%d, D=%d: only the edges may change",
			g.N, g.F, g.C, g.D, t.g.N, t.g.F, t.g.C, t.g.D)
	}
	if err := checkTrainable(g, t.exp.Data, t.exp.Model); err != nil {
		return nil, err
	}
	cost := Estimate(ShapeOf(g), t.exp.Model)
	if err := cost.Check(NativeLimits, nil); err != nil {
		return nil, err
	}
	t.prepared()
	n := newTrainer(g, t.exp, cost)
	if err := carryWeights(n, t); err != nil {
		return nil, err
	}
	n.epoch, n.loss, n.firstLoss, n.unstable = t.epoch, t.loss, t.firstLoss, t.unstable
	return n, nil
}

// carryWeights copies t's weights, Adam state and random streams to n,
// a trainer of the same model.
func carryWeights(n, t *Trainer) error {
	ps, qs := t.net.params(), n.net.params()
	if len(ps) != len(qs) {
		return ErrRegraph
	}
	for k := range ps {
		if len(ps[k].val) != len(qs[k].val) {
			return ErrRegraph
		}
		copy(qs[k].val, ps[k].val)
		copy(n.opt.mom[k], t.opt.mom[k])
		copy(n.opt.second[k], t.opt.second[k])
	}
	n.opt.b1t, n.opt.b2t = t.opt.b1t, t.opt.b2t
	from, _ := t.net.(streamer)
	to, _ := n.net.(streamer)
	if (from == nil) != (to == nil) {
		return ErrRegraph
	}
	if from != nil {
		a, b := from.streams(), to.streams()
		if len(a) != len(b) {
			return ErrRegraph
		}
		for i := range a {
			state, err := a[i].MarshalBinary()
			if err == nil {
				err = b[i].UnmarshalBinary(state)
			}
			if err != nil {
				return err
			}
		}
	}
	return nil
}
