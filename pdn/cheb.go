package pdn

import (
	"fmt"
	"math/rand/v2"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
)

// ChebTerms is ChebConv's K, the terms of the Chebyshev polynomial each
// layer mixes: T_0 = x, T_1 = L̂x, T_2 = 2L̂T_1 − x, a filter of order 2
// (Kipf & Welling's "Chebyshev, K = 2", their best on Cora).
const ChebTerms = 3

// The Chebyshev spectral convolutions of Defferrard et al., as PyTorch
// Geometric's ChebConv computes them with its defaults (the symmetric
// normalisation, λ_max = 2, so L̂ = −D^{-1/2} A D^{-1/2}): each layer is
//
//	y = Σ_{k<K} T_k(L̂)·x·W_kᵀ + b,
//
// two layers with a ReLU and dropout between (a polyNet of ChebTerms
// terms).
func init() {
	register(experiment.Cheb, model{cost: chebCost,
		build: func(g *datasets.Graph, m experiment.Model, rnd *rand.Rand, _ uint64) network {
			return &chebNet{newPolyNet(g, m, rnd, ChebTerms, func(a *adjacency) nodeOp { return newLapOp(a) }, true)}
		}})
}

var (
	_ named    = (*chebNet)(nil)
	_ streamer = (*chebNet)(nil)
)

// chebNet names a polyNet's weights as ChebConv does.
type chebNet struct{ *polyNet }

func chebCost(s Shape, m experiment.Model) []Part { return polyNetCost(s, m, ChebTerms) }

// named gives ChebConv's names: one bias-free linear map a term
// (lins.k), and the layer's bias.
func (m *chebNet) named() []Parameter {
	var out []Parameter
	for i, l := range []*polyConv{m.l1, m.l2} {
		p := fmt.Sprintf("conv%d.", i+1)
		for k, w := range l.w {
			out = append(out, param(fmt.Sprintf("%slins.%d.weight", p, k), w, l.out, l.in))
		}
		out = append(out, param(p+"bias", l.b, l.out))
	}
	return out
}
