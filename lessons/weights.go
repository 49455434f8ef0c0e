package lessons

import (
	"math"
	"math/bits"
	"math/rand/v2"
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

// deciles are x's 0th, 10th, …, 100th percentiles, as gonum's empirical
// quantile reads them from x sorted (x is reordered in place); nil for no
// values.
//
// They are found by selection, not by sorting: the page reads them from
// every snapshot, and sorting a Facebook-sized graph's 171,000 weights in
// the browser took 7% of an epoch. Neither the standard library nor
// gonum selects a rank, so selectRanks does, by hand. With a NaN every
// decile is NaN, as gonum's quantile has it; with a −0, which a sort may
// put on either side of a +0, they are read from x sorted, as before.
func deciles(x []float64) []float64 {
	if len(x) == 0 {
		return nil
	}
	out := make([]float64, experiment.Deciles)
	if slices.ContainsFunc(x, math.IsNaN) {
		for i := range out {
			out[i] = math.NaN()
		}
		return out
	}
	if slices.ContainsFunc(x, negativeZero) {
		slices.Sort(x)
		for i := range out {
			out[i] = stat.Quantile(decile(i), stat.Empirical, x, nil)
		}
		return out
	}
	ranks := make([]int, len(out))
	for i := range ranks {
		ranks[i] = empiricalRank(decile(i), len(x))
	}
	if !slices.IsSorted(x) { // sorted already, x is read as it is
		selectRanks(x, slices.Clone(ranks), 2*bits.Len(uint(len(x))), rand.NewPCG(uint64(len(x)), 0))
	}
	for i, r := range ranks {
		out[i] = x[r]
	}
	return out
}

// negativeZero reports whether v is −0.
func negativeZero(v float64) bool { return v == 0 && math.Signbit(v) }

// decile is the i-th decile's probability, i/10.
func decile(i int) float64 { return float64(i) / float64(experiment.Deciles-1) }

// empiricalRank is the index in n sorted values whose value gonum's
// stat.Quantile(p, stat.Empirical, x, nil) returns: the first i with
// i+1 ≥ p·n.
func empiricalRank(p float64, n int) int {
	return max(int(math.Ceil(p*float64(n)))-1, 0)
}

// selectRanks reorders x (no NaN) so that x[r], for each r of ranks
// (ascending), is the value x sorted has there: quickselect over all the
// ranks at once, each pass splitting x about a pivot into the values
// below it, equal to it and above it, and going on only into the parts
// that hold a rank. Equal values end at the ranks a sort gives them. The
// pivot is the median of three values drawn at random (rnd, seeded by
// the caller, so a run is the same every time), so that no order of the
// input, rising, falling or rising then falling, defeats it; and past
// limit passes on the way to a part (2·log₂ n at the start) the part is
// sorted instead, as introsort does, so that the time stays within a
// sort's, O(n log n), and the depth within limit. ranks are shifted in
// place as the parts are.
func selectRanks(x []float64, ranks []int, limit int, rnd *rand.PCG) {
	for ; len(ranks) > 0; limit-- {
		if len(x) <= 32 || limit == 0 {
			slices.Sort(x)
			return
		}
		lt, gt := partition3(x, pivotOf(x, rnd))
		below := 0
		for below < len(ranks) && ranks[below] < lt {
			below++
		}
		above := below
		for above < len(ranks) && ranks[above] < gt {
			above++
		}
		selectRanks(x[:lt], ranks[:below], limit-1, rnd)
		rest := ranks[above:]
		for i := range rest {
			rest[i] -= gt
		}
		x, ranks = x[gt:], rest
	}
}

// pivotOf is the median of three of x's values drawn by rnd.
func pivotOf(x []float64, rnd *rand.PCG) float64 {
	n := uint64(len(x))
	a, b, c := x[rnd.Uint64()%n], x[rnd.Uint64()%n], x[rnd.Uint64()%n]
	if a > b {
		a, b = b, a
	}
	if b > c {
		b = c
	}
	return max(a, b)
}

// partition3 reorders x into the values below v, those equal to it and
// those above, and returns where the equal ones start and end.
func partition3(x []float64, v float64) (lt, gt int) {
	lt, i, gt := 0, 0, len(x)
	for i < gt {
		switch {
		case x[i] < v:
			x[lt], x[i] = x[i], x[lt]
			lt++
			i++
		case x[i] > v:
			gt--
			x[i], x[gt] = x[gt], x[i]
		default:
			i++
		}
	}
	return lt, gt
}

// Reading is what the spread says (experiment.ReadWeights).
func (s Spread) Reading() experiment.WeightReading {
	return experiment.ReadWeights(s.Intra, s.Inter, s.Saturated)
}
