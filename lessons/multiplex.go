package lessons

import (
	"math"

	"pdnexplorer/datasets"
	"pdnexplorer/edgekind"
	"pdnexplorer/experiment"
)

// Layer is what one layer of a multiplex graph holds, and the weight a
// pathfinder learned for it: the layer of a graph whose edge features are
// its layers (one column a layer, non-zero where the layer holds the
// edge), as a generated multiplex graph's and IMDB's MAM and MDM are.
type Layer struct {
	Name  string
	Edges int // edges the layer holds
	// Within is the share of its edges that join two nodes of one class,
	// over its edges of known kind (NaN where none is).
	Within float64
	// Weight is the mean learned weight of its edges, NaN without weights
	// (a model that learns none) or edges.
	Weight float64
}

// Layers are g's layers, each with the mean of the weights w (one per
// edge, nil for none) on the edges it holds. An edge in two layers counts
// in both: its weight is one, and each layer's mean says what the edges
// it brings weigh.
func Layers(g *datasets.Graph, w []float64) []Layer {
	names := g.InputNames()
	out := make([]Layer, g.D)
	within, known, sum := make([]int, g.D), make([]int, g.D), make([]float64, g.D)
	weighs := len(w) == g.E()
	for e := range g.Src {
		for l := range g.D {
			if g.EdgeX[e*g.D+l] == 0 {
				continue
			}
			out[l].Edges++
			if g.Kind != nil && g.Kind[e] != edgekind.Unknown {
				known[l]++
				if g.Kind[e] == edgekind.Intra {
					within[l]++
				}
			}
			if weighs {
				sum[l] += w[e]
			}
		}
	}
	for l := range out {
		out[l].Name = names[l]
		out[l].Within, out[l].Weight = math.NaN(), math.NaN()
		if known[l] > 0 {
			out[l].Within = float64(within[l]) / float64(known[l])
		}
		if weighs && out[l].Edges > 0 {
			out[l].Weight = sum[l] / float64(out[l].Edges)
		}
	}
	return out
}

// WeightsOf is w where a model of kind learns edge weights, else nil:
// GAT's attention is a node's over its neighbours, not an edge's weight.
func WeightsOf(kind string, w []float64) []float64 {
	if !experiment.LearnsEdges(kind) {
		return nil
	}
	return w
}
