package pdn

import (
	"fmt"
	"math/rand/v2"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
)

// GraphSAGE (Hamilton et al.) with the mean aggregator, as PyTorch
// Geometric's SAGEConv computes it: each layer is
//
//	y_i = W_l·mean_{j ∈ N(i)} x_j + b + W_r·x_i,
//
// two layers with a ReLU and dropout between (a polyNet of two terms: T_0
// = x under lin_r, T_1 = the mean under lin_l).
func init() {
	register(experiment.SAGE, model{cost: sageCost,
		build: func(g *datasets.Graph, m experiment.Model, rnd *rand.Rand, _ uint64) network {
			return &sageNet{newPolyNet(g, m, rnd, 2, func(a *adjacency) nodeOp { return newMeanOp(a) }, false)}
		}})
}

var (
	_ named    = (*sageNet)(nil)
	_ streamer = (*sageNet)(nil)
)

// sageNet names a polyNet's weights as SAGEConv does.
type sageNet struct{ *polyNet }

func sageCost(s Shape, m experiment.Model) []Part { return polyNetCost(s, m, 2) }

// named gives SAGEConv's names: lin_l (the mean's, with the bias) and
// lin_r (the node's own, without one).
func (m *sageNet) named() []Parameter {
	var out []Parameter
	for i, l := range []*polyConv{m.l1, m.l2} {
		p := fmt.Sprintf("conv%d.", i+1)
		out = append(out, param(p+"lin_l.weight", l.w[1], l.out, l.in), param(p+"lin_l.bias", l.b, l.out),
			param(p+"lin_r.weight", l.w[0], l.out, l.in))
	}
	return out
}
