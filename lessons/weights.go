package lessons

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"

	"pdnexplorer/datasets"
	"pdnexplorer/edgekind"
	"pdnexplorer/experiment"
)

// SpreadOf is the spread of the weights w a model of kind put on g's
// edges: NoSpread for a model that learns none (experiment.LearnsEdges).
// GCN's weights are all 1 and GAT's are attention over a node's
// neighbours, not a weight per edge: a sentence read from them would say
// what no pathfinder learned.
func SpreadOf(g *datasets.Graph, kind string, w []float64) Spread {
	if !experiment.LearnsEdges(kind) {
		return NoSpread()
	}
	return WeightSpread(w, g.Kind)
}

// Spread is the distribution of a run's learned edge weights, which
// experiment.ReadWeights puts into a sentence: the deciles on intra- and
// inter-class edges (nil for a kind no edge is of) and the share of all
// edges weighing within experiment.SameBand of 0 or of 1.
type Spread struct {
	Intra, Inter []float64
	Saturated    float64
}

// NoSpread is the spread of a run without edge weights.
func NoSpread() Spread { return Spread{Saturated: math.NaN()} }

// WeightSpread is the spread of the weights w, one per edge, over the
// edges' kinds (an edge of unknown kind, to a node without a class, counts
// in the saturated share only). Each decile is gonum's empirical quantile
// (stat.Empirical): a weight some edge has, with no interpolation between
// two, so the CLI and the page show the same value whatever their rounding.
// Nil w (a model without edge weights) or a w not one per edge is NoSpread.
func WeightSpread(w []float64, kind []edgekind.Kind) Spread {
	if len(w) == 0 || len(w) != len(kind) {
		return NoSpread()
	}
	var intra, inter []float64
	pinned := 0
	for e, k := range kind {
		switch k {
		case edgekind.Intra:
			intra = append(intra, w[e])
		case edgekind.Inter:
			inter = append(inter, w[e])
		}
		if w[e] <= experiment.SameBand || w[e] >= 1-experiment.SameBand {
			pinned++
		}
	}
	return Spread{Intra: deciles(intra), Inter: deciles(inter), Saturated: float64(pinned) / float64(len(w))}
}

// deciles are x's 0th, 10th, …, 100th percentiles (x is sorted in place);
// nil for no values.
func deciles(x []float64) []float64 {
	if len(x) == 0 {
		return nil
	}
	slices.Sort(x)
	out := make([]float64, experiment.Deciles)
	for i := range out {
		out[i] = stat.Quantile(float64(i)/float64(experiment.Deciles-1), stat.Empirical, x, nil)
	}
	return out
}

// Reading is what the spread says (experiment.ReadWeights).
func (s Spread) Reading() experiment.WeightReading {
	return experiment.ReadWeights(s.Intra, s.Inter, s.Saturated)
}
