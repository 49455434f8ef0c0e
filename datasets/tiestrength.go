package datasets

import (
	"math"
	"slices"

	"pdnexplorer/edgekind"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/fmath"
	"pdnexplorer/tiestrength"
)

// TieStrengthNames are the 11 tie-strength scores of Appendix F, Table 5,
// in the order TieStrength writes them.
var TieStrengthNames = tiestrength.Names

// TieStrengthMeta is what a graph's meta says of edge features TieStrength
// made: they are TieStrengthNames, in order, scaled as scaleTieStrength
// scales them.
const TieStrengthMeta = "tie strength (Appendix F), scaled: log1p of the unbounded scores, then each standardised over the graph's edges"

// TieStrength replaces g's edge features with the 11 tie-strength scores of
// Appendix F (Table 5), computed from the topology alone (rawTieStrength)
// and scaled so that none saturates the pathfinder (scaleTieStrength), for
// graphs that come without edge features. It is the one place scores are
// made: the shipped graphs (Real), one's own files (Open), the CLI's
// -tie-strength and the page's worker all call it, and the PyTorch
// Geometric export writes the scores it made, so run_pyg.py reads them
// scaled and scales nothing.
func TieStrength(g *Graph) *Graph {
	out := rawTieStrength(g)
	scaleTieStrength(out.EdgeX)
	return out
}

// unboundedScores are the columns of the scores without an upper bound:
// the counts (common neighbours, the degree product) and the sums over
// common neighbours (Adamic–Adar, resource allocation). On a social graph
// with heavy-tailed degrees the degree product reaches tens of thousands,
// and standardised as it is its tail still sits tens of standard
// deviations out; log1p brings it in. The other seven lie in [0, 1] or
// [−1, 1].
var unboundedScores = []string{"adamic-adar", "common-neighbours", "degree-product", "resource-allocation"}

// scaleTieStrength scales the E×11 scores x (TieStrengthNames' order) in
// place: log1p of the unbounded ones (unboundedScores), then each column
// standardised over the graph's edges, z = (x − mean)/sd with the
// population SD (as NumPy's std, which the PyTorch Geometric peer uses), a
// constant column set to 0. The statistics are the graph's own, so the
// same graph gives the same bits however it arrives.
//
// Why: fed raw, the scores saturate the pathfinder's sigmoid on a social
// graph (Facebook Page-Page: 96% of the edges weigh within 0.01 of 1), so
// PDN is a GCN that costs more. docs/benchmarks.md has the measurements
// that chose log1p-then-standardise over standardising alone and over raw.
func scaleTieStrength(x []float64) {
	d := len(TieStrengthNames)
	rows := len(x) / d
	for k := 0; k < d; k++ {
		if slices.Contains(unboundedScores, TieStrengthNames[k]) {
			for r := 0; r < rows; r++ {
				x[r*d+k] = fmath.Log(1 + x[r*d+k])
			}
		}
		standardise(x, d, k, rows)
	}
}

// standardise sets column k of the rows×d matrix x to its z-scores, each
// product rounded on its own (no fused multiply-add) so that every
// platform gives the same bits.
func standardise(x []float64, d, k, rows int) {
	var sum float64
	for r := 0; r < rows; r++ {
		sum += x[r*d+k]
	}
	mean := sum / float64(rows)
	var sq float64
	for r := 0; r < rows; r++ {
		dev := x[r*d+k] - mean
		sq += float64(dev * dev)
	}
	sd := math.Sqrt(sq / float64(rows))
	for r := 0; r < rows; r++ {
		if sd == 0 {
			x[r*d+k] = 0
			continue
		}
		x[r*d+k] = (x[r*d+k] - mean) / sd
	}
}

// saturatingEdge is where a graph's own edge feature stops being a few
// units: past it the pathfinder's first layer, initialised at about
// ±1/√D, hands its sigmoid inputs of tens, and the learned weights pin at
// 0 or 1 (the raw tie-strength scores did so on Facebook Page-Page).
const saturatingEdge = 100

// noteSaturating says, in g.Notes, which of a graph's own edge features
// run past saturatingEdge. They are the user's data and stay as given
// (scaling them would make a generated graph read back from its bundle
// another graph than the one generated); the note says what to do.
func noteSaturating(g *Graph) {
	var names []string
	largest := 0.0
	for k := 0; k < g.D; k++ {
		top := 0.0
		for e := range g.Src {
			top = math.Max(top, math.Abs(g.EdgeX[e*g.D+k]))
		}
		if top > saturatingEdge {
			names = append(names, plainOrQuoted(edgeHeader(g.D, false, g.EdgeNames)[2+k]))
			largest = math.Max(largest, top)
		}
	}
	if len(names) > 0 {
		g.Notes = append(g.Notes, phrase.New("edge features %s reach |x| = %.4g: the pathfinder saturates on inputs past a few units, so PDN's learned weights would stay pinned at 0 or 1; scale them first (the log of a count, or z-scores over the edges)", someOf(names), largest))
	}
}

// rawTieStrength is g with the 11 tie-strength scores of Appendix F
// (Table 5) as its edge features, unscaled. For an edge (u, v) with
// neighbourhoods N(u), N(v), common neighbours c = |N(u) ∩ N(v)| and |V| = n:
//
//	Adamic-Adar           Σ_{w ∈ N(u)∩N(v)} 1/log|N(w)|
//	Association strength  c / (|N(u)|·|N(v)|)
//	Common neighbours     c
//	Cosine                c / √(|N(u)|·|N(v)|)
//	Degree product        |N(u)|·|N(v)|
//	Jaccard               c / |N(u) ∪ N(v)|
//	Max overlap           c / max(|N(u)|, |N(v)|)
//	Min overlap           c / min(|N(u)|, |N(v)|)
//	N-measure             √2·c / √(|N(u)|² + |N(v)|²)
//	Pearson               (n·c − |N(u)||N(v)|) / (√(n|N(u)| − |N(u)|²)·√(n|N(v)| − |N(v)|²))
//	Resource allocation   Σ_{w ∈ N(u)∩N(v)} 1/|N(w)|
//
// Every score is defined everywhere: a division by zero gives 0. Only
// Jaccard's and the overlaps' denominators could be 0, and only for an
// isolated endpoint; Pearson's is 0 only at degree 0 or n, and a common
// neighbour of degree 1 would make Adamic-Adar's 1/log 1 infinite. None of
// these can happen for an edge of a simple graph (an endpoint has degree
// ≥ 1 and ≤ n−1, a common neighbour degree ≥ 2); the guards keep the code
// total for any input.
//
// Max and Min Overlap: the paper's Table 5 writes max(|N(u)|,|N(v)|)/c and
// min(…)/c, which is infinite for the many edges without common neighbours
// and falls as overlap grows. The usual definitions (Opsahl's and those of
// the link-prediction literature the paper cites) are the inverses, c/max
// and c/min, in [0, 1] and growing with overlap like every other score
// here. We use those.
func rawTieStrength(g *Graph) *Graph {
	out := *g
	nbr := neighbourSets(g)
	n := float64(g.N)
	out.D = len(TieStrengthNames)
	out.EdgeX = make([]float64, g.E()*out.D)
	for e := range g.Src {
		u, v := g.Src[e], g.Dst[e]
		du, dv := float64(len(nbr[u])), float64(len(nbr[v]))
		var c, aa, ra float64
		forCommon(nbr[u], nbr[v], func(w int32) {
			c++
			dw := float64(len(nbr[w]))
			if dw > 1 {
				aa += 1 / math.Log(dw)
			}
			ra += 1 / dw
		})
		row := out.EdgeX[e*out.D : (e+1)*out.D]
		row[0] = aa
		row[1] = div(c, du*dv)
		row[2] = c
		row[3] = div(c, math.Sqrt(du*dv))
		row[4] = du * dv
		row[5] = div(c, du+dv-c)
		row[6] = div(c, math.Max(du, dv))
		row[7] = div(c, math.Min(du, dv))
		row[8] = div(math.Sqrt2*c, math.Sqrt(du*du+dv*dv))
		row[9] = div(n*c-du*dv, math.Sqrt(n*du-du*du)*math.Sqrt(n*dv-dv*dv))
		row[10] = ra
	}
	out.Meta = map[string]any{}
	for k, v := range g.Meta {
		out.Meta[k] = v
	}
	out.Meta["edge_features"] = TieStrengthMeta
	out.EdgeNames = TieStrengthNames
	return &out
}

// div returns a/b, or 0 where b is 0.
func div(a, b float64) float64 {
	if b == 0 || math.IsNaN(b) {
		return 0
	}
	return a / b
}

// neighbourSets returns each node's neighbours, sorted.
func neighbourSets(g *Graph) [][]int32 {
	nbr := make([][]int32, g.N)
	for e := range g.Src {
		u, v := g.Src[e], g.Dst[e]
		nbr[u] = append(nbr[u], v)
		nbr[v] = append(nbr[v], u)
	}
	for _, s := range nbr {
		slices.Sort(s)
	}
	return nbr
}

// forCommon calls f for each element of both sorted lists.
func forCommon(a, b []int32, f func(int32)) {
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			f(a[i])
			i++
			j++
		}
	}
}

// Multiplex joins several layers of edges over one node set into one graph
// whose edges are the union of the layers and whose features are one column
// per layer: the layer's weight of the edge, 0 where the layer lacks it.
// Each layer lists (u, v, weight) triples; a pair repeated within a layer
// keeps its last weight.
func Multiplex(base *Graph, layers [][]WeightedPair) (*Graph, error) {
	out := *base
	out.D = len(layers)
	index := map[[2]int32]int{}
	out.Src, out.Dst, out.Kind = nil, nil, nil
	var rows [][]float64
	for l, layer := range layers {
		for _, p := range layer {
			key := [2]int32{min(p.U, p.V), max(p.U, p.V)}
			e, ok := index[key]
			if !ok {
				e = len(out.Src)
				index[key] = e
				out.Src, out.Dst = append(out.Src, key[0]), append(out.Dst, key[1])
				rows = append(rows, make([]float64, len(layers)))
			}
			rows[e][l] = p.W
		}
	}
	out.EdgeX = make([]float64, 0, len(rows)*len(layers))
	for _, r := range rows {
		out.EdgeX = append(out.EdgeX, r...)
	}
	if base.Kind != nil {
		out.Kind = make([]edgekind.Kind, len(out.Src))
		for e := range out.Src {
			out.Kind[e] = edgekind.Of(base.Labels[out.Src[e]], base.Labels[out.Dst[e]])
		}
	}
	return &out, out.Check()
}

// WeightedPair is one edge of a multiplex layer.
type WeightedPair struct {
	U, V int32
	W    float64
}
