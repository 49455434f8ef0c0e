package datasets

import (
	"gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/iterator"
	"gonum.org/v1/gonum/graph/simple"
)

// Undirected adapts a Graph to gonum's graph.Undirected and graph.Weighted,
// with nodes and neighbours iterated in id order. gonum's simple graphs
// iterate maps, so an algorithm run over them (a layout, a community
// detection) could differ from run to run; the explorer and the CLI must
// give the same result for the same seed.
type Undirected struct {
	n      int
	rowPtr []int
	nbr    []int64
	weight []float64
}

// NewUndirected returns g as a gonum graph whose edge e has weight(e), or
// 1 for every edge when weight is nil.
func NewUndirected(g *Graph, weight func(e int) float64) *Undirected {
	u := &Undirected{n: g.N, rowPtr: make([]int, g.N+1), nbr: make([]int64, 2*g.E()), weight: make([]float64, 2*g.E())}
	for e := range g.Src {
		u.rowPtr[g.Src[e]+1]++
		u.rowPtr[g.Dst[e]+1]++
	}
	for i := 0; i < g.N; i++ {
		u.rowPtr[i+1] += u.rowPtr[i]
	}
	next := append([]int(nil), u.rowPtr[:g.N]...)
	for e := range g.Src {
		s, d := g.Src[e], g.Dst[e]
		w := 1.0
		if weight != nil {
			w = weight(e)
		}
		u.nbr[next[s]], u.weight[next[s]] = int64(d), w
		next[s]++
		u.nbr[next[d]], u.weight[next[d]] = int64(s), w
		next[d]++
	}
	return u
}

// Node returns the node with the given id, or nil.
func (u *Undirected) Node(id int64) graph.Node {
	if id < 0 || id >= int64(u.n) {
		return nil
	}
	return simple.Node(id)
}

// Nodes returns every node in id order.
func (u *Undirected) Nodes() graph.Nodes {
	return iterator.NewImplicitNodes(0, u.n, func(id int) graph.Node { return simple.Node(id) })
}

// From returns the neighbours of id in the order the edges were listed.
func (u *Undirected) From(id int64) graph.Nodes {
	if id < 0 || id >= int64(u.n) {
		return graph.Empty
	}
	ids := u.nbr[u.rowPtr[id]:u.rowPtr[id+1]]
	nodes := make([]graph.Node, len(ids))
	for i, v := range ids {
		nodes[i] = simple.Node(v)
	}
	return iterator.NewOrderedNodes(nodes)
}

// find returns the index of the edge x–y among x's, or -1.
func (u *Undirected) find(x, y int64) int {
	if x < 0 || x >= int64(u.n) {
		return -1
	}
	for k := u.rowPtr[x]; k < u.rowPtr[x+1]; k++ {
		if u.nbr[k] == y {
			return k
		}
	}
	return -1
}

// HasEdgeBetween reports whether x and y are joined.
func (u *Undirected) HasEdgeBetween(x, y int64) bool { return u.find(x, y) >= 0 }

// Edge returns the edge x–y, or nil.
func (u *Undirected) Edge(x, y int64) graph.Edge {
	if e := u.WeightedEdge(x, y); e != nil {
		return e
	}
	return nil
}

// EdgeBetween is Edge: the graph is undirected.
func (u *Undirected) EdgeBetween(x, y int64) graph.Edge { return u.Edge(x, y) }

// WeightedEdge returns the edge x–y with its weight, or nil.
func (u *Undirected) WeightedEdge(x, y int64) graph.WeightedEdge {
	k := u.find(x, y)
	if k < 0 {
		return nil
	}
	return simple.WeightedEdge{F: simple.Node(x), T: simple.Node(y), W: u.weight[k]}
}

// WeightedEdgeBetween is WeightedEdge.
func (u *Undirected) WeightedEdgeBetween(x, y int64) graph.WeightedEdge { return u.WeightedEdge(x, y) }

// Weight returns the weight of the edge x–y.
func (u *Undirected) Weight(x, y int64) (float64, bool) {
	k := u.find(x, y)
	if k < 0 {
		return 0, false
	}
	return u.weight[k], true
}
