package datasets

import (
	"cmp"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/graph/graphs/gen"
	"gonum.org/v1/gonum/graph/simple"
	"gonum.org/v1/gonum/stat/distuv"

	"pdnexplorer/edgekind"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
)

// edgesOf returns the edges of a gonum graph, each pair once, sorted, so
// that the map order inside simple graphs cannot change the result.
func edgesOf(g *simple.UndirectedGraph) (src, dst []int32) {
	type pair struct{ u, v int32 }
	var ps []pair
	it := g.Edges()
	for it.Next() {
		e := it.Edge()
		u, v := int32(e.From().ID()), int32(e.To().ID())
		ps = append(ps, pair{min(u, v), max(u, v)})
	}
	slices.SortFunc(ps, func(a, b pair) int { return cmp.Or(cmp.Compare(a.u, b.u), cmp.Compare(a.v, b.v)) })
	for _, p := range ps {
		src, dst = append(src, p.u), append(dst, p.v)
	}
	return src, dst
}

// SmallWorld is the graph of the paper's runtime experiment (Appendix E):
// a Watts–Strogatz small world from gonum's generator (n nodes, edgesPerNode
// edges per node, rewired with probability rewire), N(0, 1) node and edge
// features, and C labels drawn uniformly.
func SmallWorld(n, edgesPerNode int, rewire float64, f, d, c int, seed uint64) (*Graph, error) {
	sw := simple.NewUndirectedGraph()
	if err := gen.SmallWorldsBB(sw, n, edgesPerNode, rewire, rand.NewPCG(seed, 1)); err != nil {
		return nil, phrase.Errorf("small world: %w", err)
	}
	g := &Graph{N: n, F: f, C: c, D: d, Meta: map[string]any{"name": "small-world", "edges_per_node": edgesPerNode, "rewire": rewire, "seed": seed}}
	g.Src, g.Dst = edgesOf(sw)
	std := distuv.Normal{Mu: 0, Sigma: 1, Src: rand.NewPCG(seed, 2)}
	g.X = make([]float64, n*f)
	for i := range g.X {
		g.X[i] = std.Rand()
	}
	g.EdgeX = make([]float64, len(g.Src)*d)
	for i := range g.EdgeX {
		g.EdgeX[i] = std.Rand()
	}
	rnd := rand.New(rand.NewPCG(seed, 3))
	g.Labels = make([]int, n)
	for i := range g.Labels {
		g.Labels[i] = rnd.IntN(c)
	}
	g.Splits = randomSplit(n, 0.8, rand.NewPCG(seed, 4))
	return g, g.Check()
}

// ScaleFree is the synthetic graph of d with its edges replaced by a
// preferential-attachment graph (gonum's generator, m edges per new node):
// the same nodes, features and labels, but a skewed degree distribution.
// Edge features follow the synthetic rule: N(0, 1) within a class,
// N(0, σD²) across.
func ScaleFree(d experiment.Data, m int) (*Graph, error) {
	g, err := Synthetic(d)
	if err != nil {
		return nil, err
	}
	pa := simple.NewUndirectedGraph()
	if err := gen.PreferentialAttachment(pa, g.N, m, rand.NewPCG(d.Seed, 7)); err != nil {
		return nil, phrase.Errorf("preferential attachment: %w", err)
	}
	g.Src, g.Dst = edgesOf(pa)
	g.Kind = make([]edgekind.Kind, len(g.Src))
	for e := range g.Src {
		g.Kind[e] = KindInter
		if g.Labels[g.Src[e]] == g.Labels[g.Dst[e]] {
			g.Kind[e] = KindIntra
		}
	}
	g.EdgeX = edgeFeatures(g.Kind, d.EdgeFeatures, d.SigmaD, stream(d.Seed, streamEdgeFeatures))
	g.Meta["name"], g.Meta["edges_per_new_node"] = "scale-free", m
	return g, g.Check()
}
