package pdn

import (
	"pdnexplorer/datasets"
)

// fixedNorm returns Â for the graph with every edge weight 1; its w are
// those weights, which models over the fixed graph report as their own.
func fixedNorm(g *datasets.Graph) *gcnNorm {
	n := newGCNNorm(newAdjacency(g.N, g.Src, g.Dst))
	n.forward(ones(g.E()))
	return n
}

func ones(n int) []float64 {
	w := make([]float64, n)
	for i := range w {
		w[i] = 1
	}
	return w
}
