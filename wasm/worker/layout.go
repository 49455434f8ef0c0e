package main

import (
	"math"
	"math/rand/v2"

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
type layoutJob struct {
	opt  layout.OptimizerR2
	n    int
	last []float32 // the last finite positions
	done bool
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
)

func newLayoutJob(g *datasets.Graph, seed uint64) *layoutJob {
	pull := pullingEdges(g)
	deg := 2 * float64(pull.E()) / float64(max(g.N, 1))
	rate := layoutRate * math.Min(1, layoutDegree/math.Max(deg, 1e-9))
	eades := &layout.EadesR2{Repulsion: layoutRepulsion, Rate: rate, Updates: layoutUpdates, Theta: theta(g.N),
		Src: rand.NewPCG(seed, 0x1a40)}
	return &layoutJob{opt: layout.NewOptimizerR2(datasets.NewUndirected(pull, nil), eades.Update), n: g.N}
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

// read returns the optimiser's positions x₀, y₀, x₁, y₁, ….
func (j *layoutJob) read() []float32 {
	pos := make([]float32, 2*j.n)
	for i := 0; i < j.n; i++ {
		p := j.opt.Coord2(int64(i))
		pos[2*i], pos[2*i+1] = float32(p.X), float32(p.Y)
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
