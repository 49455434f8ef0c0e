package datasets

import (
	"maps"
	"math"
	"math/rand/v2"
	"slices"

	"pdnexplorer/edgekind"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/numtext"
)

// streamPerturb is the data seed's stream a perturbation draws from, so
// that it moves nothing the graph itself drew.
const streamPerturb = 9

// perturbed returns g shaken as GSLB's robustness questions shake a graph
// (experiment.Perturbations), drawn from the data seed; g itself is left as
// it was, and returned as it is at rate 0 or for none. With E edges, F
// node features and rate r:
//
//   - add-edges joins round(r·E) pairs of nodes not yet joined, drawn
//     uniformly; add-inter only pairs of two classes (an attacker who knows
//     the classes; a node without a class is of none). An added edge takes the features of an edge of its kind
//     (within or between classes) drawn from g, so the features say what
//     they said of such edges: the attacker forges edges that look like
//     the graph's own.
//   - drop-edges removes round(r·E) edges drawn uniformly, keeping the
//     order of the rest.
//   - mask-features sets round(r·F) node-feature columns, drawn uniformly,
//     to zero for every node (GSLB's and GRACE's feature masking).
//
// Edges added never exceed half the free pairs, which keeps the drawing
// quick; more is refused, naming the rate allowed.
func perturbed(g *Graph, how string, rate float64, seed uint64) (*Graph, error) {
	if how == experiment.PerturbNone || how == "" || rate == 0 {
		return g, nil
	}
	if !(rate > 0 && rate <= 1) {
		return nil, phrase.Errorf("perturb-rate: %v is outside [0, 1]", rate)
	}
	rnd := rand.New(stream(seed, streamPerturb))
	out := *g
	out.Meta = maps.Clone(g.Meta)
	if out.Meta == nil {
		out.Meta = map[string]any{}
	}
	out.Meta["perturb"], out.Meta["perturb_rate"] = how, rate
	switch how {
	case experiment.PerturbAddEdges, experiment.PerturbAddInter:
		return &out, out.addEdges(rnd, int(math.Round(rate*float64(g.E()))), how == experiment.PerturbAddInter, rate)
	case experiment.PerturbDrop:
		out.dropEdges(rnd, int(math.Round(rate*float64(g.E()))))
	case experiment.PerturbMask:
		out.maskColumns(rnd, int(math.Round(rate*float64(g.F))))
	default:
		return nil, phrase.Errorf("perturb: %s is not allowed; want one of none, add-edges, add-inter, drop-edges, mask-features", experiment.Quote(how))
	}
	return &out, nil
}

// freePairs counts the pairs of nodes not joined yet: all of them, or
// those of two classes (nodes without a class left out).
func (g *Graph) freePairs(inter bool) float64 {
	n := float64(g.N)
	all := n * (n - 1) / 2
	joined := float64(g.E())
	if inter {
		n -= float64(g.Unlabelled())
		all = n * (n - 1) / 2
		for _, c := range g.ClassCounts() {
			all -= float64(c) * float64(c-1) / 2
		}
		joined = 0
		for e := range g.Src {
			if edgekind.Of(g.Labels[g.Src[e]], g.Labels[g.Dst[e]]) == edgekind.Inter {
				joined++
			}
		}
	}
	return all - joined
}

// addEdges joins k new pairs (of two classes, if inter), each with the
// features of a drawn edge of its kind; the edges keep their order and the
// new ones follow.
func (g *Graph) addEdges(rnd *rand.Rand, k int, inter bool, rate float64) error {
	if k == 0 {
		return nil
	}
	if free := g.freePairs(inter); float64(k) > free/2 {
		most := math.Floor(free/2) / float64(g.E())
		return phrase.Errorf("perturb-rate: %v of the %s edges is %s new pairs, more than half of the %s free ones; allowed here: up to %.3g",
			rate, numtext.Group(g.E()), numtext.Group(k), numtext.Group(int(free)), most)
	}
	joined := make(map[[2]int32]bool, g.E()+k)
	var byKind [3][]int // the edges of each kind (edgekind.Kind), whose features new ones take
	for e := range g.Src {
		joined[pairKey(g.Src[e], g.Dst[e])] = true
		kind := edgekind.Of(g.Labels[g.Src[e]], g.Labels[g.Dst[e]])
		byKind[kind] = append(byKind[kind], e)
	}
	e0 := g.E()
	g.Src, g.Dst = slices.Grow(slices.Clone(g.Src), k), slices.Grow(slices.Clone(g.Dst), k)
	g.EdgeX = slices.Grow(slices.Clone(g.EdgeX), k*g.D)
	if g.Kind != nil {
		g.Kind = slices.Clone(g.Kind)
	}
	if g.Weight != nil {
		g.Weight = slices.Clone(g.Weight)
	}
	for g.E() < e0+k {
		u, v := int32(rnd.IntN(g.N)), int32(rnd.IntN(g.N))
		kind := edgekind.Of(g.Labels[u], g.Labels[v])
		if u == v || inter && kind != edgekind.Inter || joined[pairKey(u, v)] {
			continue
		}
		joined[pairKey(u, v)] = true
		like := byKind[kind]
		if len(like) == 0 {
			like = slices.Concat(byKind[edgekind.Intra], byKind[edgekind.Inter], byKind[edgekind.Unknown])
		}
		g.Src, g.Dst = append(g.Src, u), append(g.Dst, v)
		if g.D > 0 {
			f := like[rnd.IntN(len(like))]
			g.EdgeX = append(g.EdgeX, g.EdgeX[f*g.D:(f+1)*g.D]...)
		}
		if g.Kind != nil {
			g.Kind = append(g.Kind, kind)
		}
		if g.Weight != nil {
			g.Weight = append(g.Weight, 1)
		}
	}
	return nil
}

func pairKey(u, v int32) [2]int32 { return [2]int32{min(u, v), max(u, v)} }

// dropEdges removes k edges drawn uniformly, the rest in their order.
func (g *Graph) dropEdges(rnd *rand.Rand, k int) {
	drop := make([]bool, g.E())
	for _, e := range rnd.Perm(g.E())[:k] {
		drop[e] = true
	}
	var src, dst []int32
	var ex, w []float64
	var kinds []edgekind.Kind
	for e := range g.Src {
		if drop[e] {
			continue
		}
		src, dst = append(src, g.Src[e]), append(dst, g.Dst[e])
		ex = append(ex, g.EdgeX[e*g.D:(e+1)*g.D]...)
		if g.Kind != nil {
			kinds = append(kinds, g.Kind[e])
		}
		if g.Weight != nil {
			w = append(w, g.Weight[e])
		}
	}
	g.Src, g.Dst, g.EdgeX = src, dst, ex
	if g.Kind != nil {
		g.Kind = kinds
	}
	if g.Weight != nil {
		g.Weight = w
	}
}

// maskColumns sets k node-feature columns, drawn uniformly, to zero.
func (g *Graph) maskColumns(rnd *rand.Rand, k int) {
	masked := make([]bool, g.F)
	for _, c := range rnd.Perm(g.F)[:k] {
		masked[c] = true
	}
	if g.XS != nil {
		xs := &CSR{Rows: g.XS.Rows, Cols: g.XS.Cols, Ptr: make([]int, 1, g.XS.Rows+1)}
		for i := range g.XS.Rows {
			for j := g.XS.Ptr[i]; j < g.XS.Ptr[i+1]; j++ {
				if !masked[g.XS.Col[j]] {
					xs.Col, xs.Val = append(xs.Col, g.XS.Col[j]), append(xs.Val, g.XS.Val[j])
				}
			}
			xs.Ptr = append(xs.Ptr, len(xs.Col))
		}
		g.XS = xs
		return
	}
	g.X = slices.Clone(g.X)
	for i := range g.N {
		for c, m := range masked {
			if m {
				g.X[i*g.F+c] = 0
			}
		}
	}
}
