package main

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/graph/layout"

	"pdnexplorer/datasets"
)

// interPull is the layout weight of an inter-class edge (intra-class: 1):
// none, so the classes settle apart. The generator's ground truth only
// places the drawing; training never sees it.
const interPull = 0

// layoutWeight is the pull of edge e in the layout.
func layoutWeight(g *datasets.Graph) func(e int) float64 {
	if g.Kind == nil {
		return nil
	}
	return func(e int) float64 {
		if g.Kind[e] == datasets.KindInter {
			return interPull
		}
		return 1
	}
}

// layoutJob runs gonum's Eades force-directed layout a few updates at a
// time, so the worker can answer messages in between.
type layoutJob struct {
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
	u := datasets.NewUndirected(g, layoutWeight(g))
	eades := &layout.EadesR2{Repulsion: layoutRepulsion, Rate: layoutRate, Updates: layoutUpdates, Theta: 0.5,
		Src: rand.NewPCG(seed, 0x1a40)}
	return &layoutJob{opt: layout.NewOptimizerR2(u, eades.Update), n: g.N}
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
