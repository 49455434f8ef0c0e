package main

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/iterator"
	"gonum.org/v1/gonum/graph/layout"
	"gonum.org/v1/gonum/graph/simple"

	"pdnexplorer/datasets"
)

// undirected adapts a datasets.Graph to gonum's graph.Graph with node and
// neighbour iteration in id order. gonum's simple graphs iterate maps, so a
// layout over them would differ from run to run; a shared permalink must
// draw the same picture.
//
// It is weighted: Eades pulls the ends of an edge together in proportion to
// its weight. Where the generator's ground truth is known, inter-class edges
// pull with interPull, so the classes settle into regions and the edges the
// pathfinder learns to drop run visibly between them. That truth only places
// the drawing; training never sees it.
type undirected struct {
	n      int
	rowPtr []int
	nbr    []int64
	weight []float64
}

// interPull is the layout weight of an inter-class edge (intra-class: 1):
// none, so the classes settle apart.
const interPull = 0

func newUndirected(g *datasets.Graph) *undirected {
	u := &undirected{n: g.N, rowPtr: make([]int, g.N+1), nbr: make([]int64, 2*g.E()), weight: make([]float64, 2*g.E())}
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
		if g.Kind != nil && g.Kind[e] == datasets.KindInter {
			w = interPull
		}
		u.nbr[next[s]], u.weight[next[s]] = int64(d), w
		next[s]++
		u.nbr[next[d]], u.weight[next[d]] = int64(s), w
		next[d]++
	}
	return u
}

func (u *undirected) Node(id int64) graph.Node {
	if id < 0 || id >= int64(u.n) {
		return nil
	}
	return simple.Node(id)
}

func (u *undirected) Nodes() graph.Nodes {
	return iterator.NewImplicitNodes(0, u.n, func(id int) graph.Node { return simple.Node(id) })
}

func (u *undirected) From(id int64) graph.Nodes {
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

// find returns the CSR index of the edge x–y, or -1.
func (u *undirected) find(x, y int64) int {
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

func (u *undirected) HasEdgeBetween(x, y int64) bool { return u.find(x, y) >= 0 }

func (u *undirected) Edge(x, y int64) graph.Edge { return u.WeightedEdge(x, y) }

func (u *undirected) WeightedEdge(x, y int64) graph.WeightedEdge {
	k := u.find(x, y)
	if k < 0 {
		return nil
	}
	return simple.WeightedEdge{F: simple.Node(x), T: simple.Node(y), W: u.weight[k]}
}

// Weight returns the layout weight of the edge x–y.
func (u *undirected) Weight(x, y int64) (float64, bool) {
	k := u.find(x, y)
	if k < 0 {
		return 0, false
	}
	return u.weight[k], true
}

// layoutJob runs gonum's Eades force-directed layout a few updates at a
// time, so the worker can answer messages in between.
type layoutJob struct {
	g   *undirected
	opt layout.OptimizerR2
	n   int
}

// Eades' settings, chosen by sweeping them on the default scenario for a
// stable layout whose class regions separate (rates above 0.02 or
// repulsion above 0.1 make it diverge on graphs this dense).
const (
	layoutUpdates   = 200
	layoutRate      = 0.01
	layoutRepulsion = 0.01
)

func newLayoutJob(g *datasets.Graph, seed uint64) *layoutJob {
	u := newUndirected(g)
	eades := &layout.EadesR2{Repulsion: layoutRepulsion, Rate: layoutRate, Updates: layoutUpdates, Theta: 0.5,
		Src: rand.NewPCG(seed, 0x1a40)}
	return &layoutJob{g: u, opt: layout.NewOptimizerR2(u, eades.Update), n: g.N}
}

// step runs one update and reports whether more remain.
func (j *layoutJob) step() bool { return j.opt.Update() }

// positions returns x₀, y₀, x₁, y₁, ….
func (j *layoutJob) positions() []float32 {
	pos := make([]float32, 2*j.n)
	for i := 0; i < j.n; i++ {
		p := j.opt.Coord2(int64(i))
		pos[2*i], pos[2*i+1] = float32(p.X), float32(p.Y)
	}
	return pos
}
