package pdn

import (
	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
)

// fixedNorm returns Â for the graph with its fixed edge weights
// (fixedWeights), under cfg's self-loop rule (meanLoop); its w are those
// weights, which models over the fixed graph report as their own.
func fixedNorm(g *datasets.Graph, cfg experiment.Model) *gcnNorm {
	n := newGCNNorm(newAdjacency(g.N, g.Src, g.Dst))
	n.meanLoop = meanLoop(cfg)
	n.forward(fixedWeights(g))
	return n
}

// meanLoop reports whether a model set up as cfg propagates with mean
// self-loops (experiment.SelfLoopMean): one that learns its edges, and one
// over a PDN's learned graph, which takes that PDN's rule with its weights
// (under the mean only their ratios mean anything: their scale drifts
// freely, and weight-1 self-loops beside them would turn each node
// towards itself). A graph of weights 1 keeps GCN's Â either way.
func meanLoop(cfg experiment.Model) bool {
	if cfg.SelfLoop != experiment.SelfLoopMean {
		return false
	}
	return models[cfg.Kind].edges != nil || cfg.GraphFrom == experiment.FromPDN && experiment.TakesWeights(cfg.Kind)
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
