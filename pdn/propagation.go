package pdn

import (
	"pdnexplorer/datasets"
)

// fixedNorm returns Â for the graph with its fixed edge weights
// (fixedWeights); its w are those weights, which models over the fixed
// graph report as their own.
func fixedNorm(g *datasets.Graph) *gcnNorm {
	n := newGCNNorm(newAdjacency(g.N, g.Src, g.Dst))
	n.forward(fixedWeights(g))
	return n
}

// fixedWeights are the weights a fixed-graph model propagates with: the
// graph's own (a PDN's learned graph, handed over), else 1 on every edge.
func fixedWeights(g *datasets.Graph) []float64 {
	if g.Weight != nil {
		return g.Weight
	}
	return ones(g.E())
}

func ones(n int) []float64 {
	w := make([]float64, n)
	for i := range w {
		w[i] = 1
	}
	return w
}
