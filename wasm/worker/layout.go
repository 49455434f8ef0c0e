package main

import (
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/graph/layout"

	"pdnexplorer/datasets"
)

// layoutJob runs gonum's Eades force-directed layout a few updates at a
// time, so the worker can answer messages in between.
//
// Only intra-class edges pull (the generator's ground truth places the
// drawing so the classes settle apart; training never sees it), and at most
// maxLayoutEdges of them, evenly spaced: the view draws no more than that,
// and an Eades update costs a map entry per edge. Eades' attraction on a
// node sums over its edges, so the rate shrinks with the mean degree: with
// the rate that suits the default scenario (5 pulling edges a node), a
// graph of 64 diverged to infinity, and gonum's Barnes–Hut tree then
// recursed without end on the NaN positions. Positions are checked after
// every update anyway, and the last finite ones are kept.
//
// A graph of more than maxLayoutNodes nodes is laid out by a sample of
// them, drawn with the seed, (the layout moves those, and the pulling edges among them); every
// other node is drawn beside an anchor that was laid out, a neighbour of
// its class if it has one, else a node of its class, a little apart. An
// Eades update costs about the nodes it moves (natively 1 s at 131,539
// nodes, the page's largest graph, and three times that in the browser,
// for 200 updates), and a region per class is drawn as well from a sample.
type layoutJob struct {
	opt    layout.OptimizerR2
	n      int
	laid   []int32   // the nodes the layout moves; nil for all
	anchor []int32   // per node, the index in laid it is drawn beside; -1 for a laid node
	offset []float32 // per node drawn beside an anchor, its offset (x, y), in units of the drawing's size
	last   []float32 // the last finite positions
	done   bool
}

// Eades' settings, chosen by sweeping them on the default scenario for a
// stable layout whose class regions separate (rates above 0.02 or
// repulsion above 0.1 make it diverge there).
const (
	layoutUpdates   = 200
	layoutRate      = 0.01
	layoutRepulsion = 0.01
	layoutDegree    = 5 // the mean pulling degree layoutRate suits
	maxLayoutEdges  = 15000
	maxLayoutNodes  = 20000
	anchorSpread    = 0.01 // a node drawn beside its anchor, as a share of the drawing's size
)

func newLayoutJob(g *datasets.Graph, seed uint64) *layoutJob {
	j := &layoutJob{n: g.N}
	laidOut := g
	if g.N > maxLayoutNodes {
		laidOut = j.sample(g, rand.New(rand.NewPCG(seed, 0x1a41)))
	}
	pull := pullingEdges(laidOut)
	deg := 2 * float64(pull.E()) / float64(max(laidOut.N, 1))
	rate := layoutRate * math.Min(1, layoutDegree/math.Max(deg, 1e-9))
	eades := &layout.EadesR2{Repulsion: layoutRepulsion, Rate: rate, Updates: layoutUpdates, Theta: theta(laidOut.N),
		Src: rand.NewPCG(seed, 0x1a40)}
	j.opt = layout.NewOptimizerR2(datasets.NewUndirected(pull, nil), eades.Update)
	return j
}

// sample chooses the nodes the layout moves, maxLayoutNodes drawn at
// random (an even sample would follow any order the nodes' numbers have,
// classes that take turns, say), and an anchor among them for every other
// node; it
// returns the graph the layout runs on: the sampled nodes (numbered in
// order), their labels, and the edges between them with their kinds.
func (j *layoutJob) sample(g *datasets.Graph, rnd *rand.Rand) *datasets.Graph {
	j.anchor = make([]int32, g.N)
	for i := range j.anchor {
		j.anchor[i] = -1
	}
	chosen := rnd.Perm(g.N)[:maxLayoutNodes]
	slices.Sort(chosen)
	for _, v := range chosen {
		j.anchor[v] = int32(len(j.laid))
		j.laid = append(j.laid, int32(v))
	}
	byClass := map[int][]int32{} // the laid nodes of each class
	for k, v := range j.laid {
		byClass[g.Labels[v]] = append(byClass[g.Labels[v]], int32(k))
	}
	sub := &datasets.Graph{N: len(j.laid), Labels: make([]int, len(j.laid))}
	for k, v := range j.laid {
		sub.Labels[k] = g.Labels[v]
	}
	for e := range g.Src {
		u, v := g.Src[e], g.Dst[e]
		a, b := j.anchor[u], j.anchor[v]
		switch {
		case a >= 0 && b >= 0:
			sub.Src, sub.Dst = append(sub.Src, a), append(sub.Dst, b)
			if g.Kind != nil {
				sub.Kind = append(sub.Kind, g.Kind[e])
			}
		case a >= 0 && b < 0 && g.Labels[v] == g.Labels[u]:
			j.anchor[v] = -2 - a // a neighbour of its class, for now
		case b >= 0 && a < 0 && g.Labels[u] == g.Labels[v]:
			j.anchor[u] = -2 - b
		}
	}
	j.offset = make([]float32, 2*g.N)
	for v, a := range j.anchor {
		switch {
		case a >= 0 && j.laid[a] == int32(v):
			continue // laid out itself
		case a <= -2:
			j.anchor[v] = -2 - a
		default:
			same := byClass[g.Labels[v]]
			if len(same) == 0 {
				same = []int32{0}
			}
			j.anchor[v] = same[rnd.IntN(len(same))]
		}
		angle, r := 2*math.Pi*rnd.Float64(), anchorSpread*math.Sqrt(rnd.Float64())
		j.offset[2*v], j.offset[2*v+1] = float32(r*math.Cos(angle)), float32(r*math.Sin(angle))
	}
	for _, v := range j.laid {
		j.anchor[v] = -1
	}
	return sub
}

// pullingEdges returns a graph with g's nodes and the edges that pull in
// the layout: the intra-class ones when kinds are known, at most
// maxLayoutEdges of them.
func pullingEdges(g *datasets.Graph) *datasets.Graph {
	var idx []int
	for e := range g.Src {
		if g.Kind == nil || g.Kind[e] != datasets.KindInter {
			idx = append(idx, e)
		}
	}
	if len(idx) > maxLayoutEdges {
		even := make([]int, maxLayoutEdges)
		for i := range even {
			even[i] = idx[int(int64(i)*int64(len(idx))/maxLayoutEdges)]
		}
		idx = even
	}
	p := &datasets.Graph{N: g.N, Src: make([]int32, len(idx)), Dst: make([]int32, len(idx))}
	for i, e := range idx {
		p.Src[i], p.Dst[i] = g.Src[e], g.Dst[e]
	}
	return p
}

// step runs one update and reports whether more remain. An update that
// leaves any position non-finite ends the layout at the last finite one.
func (j *layoutJob) step() bool {
	if j.done {
		return false
	}
	more := j.opt.Update()
	pos := j.read()
	for _, v := range pos {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			j.done = true
			return false
		}
	}
	j.last = pos
	j.done = !more
	return more
}

// read returns the positions x₀, y₀, x₁, y₁, …: the optimiser's, and for
// a sampled layout every other node's beside its anchor.
func (j *layoutJob) read() []float32 {
	pos := make([]float32, 2*j.n)
	if j.laid == nil {
		for i := 0; i < j.n; i++ {
			p := j.opt.Coord2(int64(i))
			pos[2*i], pos[2*i+1] = float32(p.X), float32(p.Y)
		}
		return pos
	}
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for k, v := range j.laid {
		p := j.opt.Coord2(int64(k))
		pos[2*v], pos[2*v+1] = float32(p.X), float32(p.Y)
		minX, maxX, minY, maxY = min(minX, p.X), max(maxX, p.X), min(minY, p.Y), max(maxY, p.Y)
	}
	size := float32(max(maxX-minX, maxY-minY, 1e-9))
	for v, a := range j.anchor {
		if a < 0 {
			continue
		}
		u := j.laid[a]
		pos[2*v] = pos[2*u] + size*j.offset[2*v]
		pos[2*v+1] = pos[2*u+1] + size*j.offset[2*v+1]
	}
	return pos
}

// positions returns the last finite positions.
func (j *layoutJob) positions() []float32 {
	if j.last == nil {
		return j.read() // before the first update: the random start
	}
	return j.last
}

// theta is Barnes–Hut's accuracy: 0.5 for the default scenario's 1,500
// nodes, coarser for more, so that one update, which cannot be cut into
// pieces, stays short (at 6,144 nodes an update took 40 ms natively with
// 0.5 and most of it was the repulsion).
func theta(n int) float64 {
	if n <= 2000 {
		return 0.5
	}
	return 1
}
