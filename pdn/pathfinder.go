package pdn

import (
	"math/rand/v2"
	"slices"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/numtext"
	"pdnexplorer/pdn/internal/kernels"
)

func init() {
	register(experiment.PDN, model{build: buildGCNNet, cost: gcnNetCost, edgesCost: pathfinderCost,
		edges: func(g *datasets.Graph, m experiment.Model, rnd *rand.Rand) edgeModel {
			return newPathfinder(rnd, g.EdgeX, g.E(), g.D, m.EdgeHidden, m.EdgeInit)
		}})
}

// pathfinder is the pathfinder layer of §3.1 as in the official code: an MLP
// applied to each edge's D features,
//
//	h⁰ = z_e,  hˡ = ReLU(hˡ⁻¹Wˡ + bˡ),  w_e = σ(hᴸ⁻¹Wᴸ + bᴸ),
//
// once per undirected edge; both GCN layers then share w.
type pathfinder struct {
	rows   int
	layers []*dense
	acts   [][]float64 // acts[0] is the input; acts[l] the output of layer l (the last before σ)
	grads  [][]float64 // gradient with respect to acts[l], l ≥ 1
	w      []float64   // σ of the last activation: the learned edge weights
}

// aliveBias is the initial hidden bias of experiment.InitAlive: with inputs
// and weights of order 1, a unit whose bias starts at +0.5 is active on
// some input, so it cannot start dead everywhere and never learn.
const aliveBias = 0.5

func newPathfinder(rnd *rand.Rand, z []float64, rows, d int, hidden []int, init string) *pathfinder {
	p := &pathfinder{rows: rows, acts: [][]float64{z}, grads: [][]float64{nil}, w: make([]float64, rows)}
	in := d
	for li, h := range append(append([]int(nil), hidden...), 1) {
		l := newLinear(rnd, in, h)
		if init == experiment.InitAlive && li < len(hidden) {
			for i := range l.b.val {
				l.b.val[i] = aliveBias
			}
		}
		p.layers = append(p.layers, l)
		p.acts = append(p.acts, make([]float64, rows*h))
		p.grads = append(p.grads, make([]float64, rows*h))
		in = h
	}
	return p
}

func (p *pathfinder) setPacer(pc *pacer) {
	for _, l := range p.layers {
		l.pc = pc
	}
}

func (p *pathfinder) params() []*tensor {
	var out []*tensor
	for _, l := range p.layers {
		out = append(out, l.params()...)
	}
	return out
}

// forwardKept computes p.w as forward does, for the edges whose keep is
// not zero: DropEdge's mask, drawn before. The weights of the others are
// left as they were (DropEdge multiplies them by 0, and their gradient is
// 0), which spares a fifth of the pathfinder's work at the default rate;
// every weight computed is the same bits as forward's.
func (p *pathfinder) forwardKept(keep []float64) []float64 {
	if p.fused() {
		return p.forwardFused(keep)
	}
	return p.forwardLayers(keep)
}

// forwardLayers is forwardKept a layer at a time.
func (p *pathfinder) forwardLayers(keep []float64) []float64 {
	last := len(p.layers)
	for l, layer := range p.layers {
		y := p.acts[l+1]
		// The hidden layers' ReLU as the rows are stored; the rows not
		// kept hold what they did, ReLU's already.
		layer.pc.mulABTKept(y, p.acts[l], layer.w.val, layer.b.val, keep, p.rows, layer.in, layer.out, l+1 < last)
	}
	keep = keep[:len(p.w)]
	kernels.Sigmoids(p.w, p.acts[last], keep)
	return p.w
}

// fused reports whether p is the pathfinder the fused kernels take (one
// hidden layer) and they are the faster for its hidden units
// (kernels.FusedPathfinder): the layers' passes give the same bits.
func (p *pathfinder) fused() bool {
	return len(p.layers) == 2 && p.layers[1].out == 1 && kernels.FusedPathfinder(p.layers[0].out)
}

// forwardFused is forwardKept (forward for a nil keep) of a pathfinder of
// one hidden layer in one pass over the edges, split across the threads by
// edges (each edge's weight its own): the same bits.
func (p *pathfinder) forwardFused(keep []float64) []float64 {
	l0 := p.layers[0]
	d, nh := l0.in, l0.out
	pc := l0.pc
	per := float64((d + 1) * nh)
	kernels.Transpose(l0.wt, l0.w.val, nh, d)
	for lo := 0; lo < p.rows; {
		hi := pc.blockEnd(lo, p.rows, per)
		j := newJob(pathfinderForwardEdges)
		j.pf, j.keep, j.base = p, keep, lo
		j.split(hi-lo, float64(hi-lo)*per)
		pc.tick(float64(hi-lo) * per)
		lo = hi
	}
	return p.w
}

// backwardFused is backward of a pathfinder of one hidden layer in one
// pass over the edges, in blocks of a multiple of 4 edges, split across
// the threads by hidden units, eight at a time (a cache line of each
// gradient's row; the last group holds what is left of nh): each
// gradient's entry one sum over the edges in order, the same bits.
func (p *pathfinder) backwardFused(gw []float64) {
	l0 := p.layers[0]
	d, nh := l0.in, l0.out
	pc := l0.pc
	per := float64(2 * (d + 2) * nh)
	for lo := 0; lo < p.rows; {
		hi := pc.blockEnd(lo, p.rows, per)
		j := newJob(pathfinderBackwardUnits)
		j.pf, j.a, j.base, j.n, j.byCols = p, gw, lo, hi-lo, true
		j.split((nh+7)/8, float64(hi-lo)*per)
		pc.tick(float64(hi-lo) * per)
		lo = hi
	}
}

// forward computes the edge weights p.w.
func (p *pathfinder) forward() []float64 {
	if p.fused() {
		return p.forwardFused(nil)
	}
	last := len(p.layers)
	for l, layer := range p.layers {
		y := p.acts[l+1]
		if l+1 < last {
			layer.forwardReLU(y, p.acts[l], p.rows)
			continue
		}
		layer.forward(y, p.acts[l], p.rows)
	}
	kernels.Sigmoids(p.w, p.acts[last], nil)
	return p.w
}

// backward takes ∂L/∂w and accumulates the layers' gradients.
func (p *pathfinder) backward(gw []float64) {
	if p.fused() {
		p.backwardFused(gw)
		return
	}
	p.backwardLayers(gw)
}

// backwardLayers is backward a layer at a time.
func (p *pathfinder) backwardLayers(gw []float64) {
	last := len(p.layers)
	g := p.grads[last]
	for e, w := range p.w {
		g[e] = float64(gw[e]*w) * (1 - w)
	}
	summed := false // the bias gradient of the layer under the output
	for l := last - 1; l >= 0; l-- {
		var dx []float64
		if l > 0 {
			dx = p.grads[l]
		}
		if l == last-1 && l > 0 && outputBackward(p.layers[l], p.layers[l-1].b.grad, dx, p.acts[l], p.grads[l+1], p.rows) {
			// The output layer, its input's ReLU and the bias gradient
			// of the layer below in one pass over the hidden units.
			summed = true
			continue
		}
		if summed && l == last-2 {
			p.layers[l].backwardWeights(dx, p.acts[l], p.grads[l+1], p.rows)
		} else {
			p.layers[l].backward(dx, p.acts[l], p.grads[l+1], p.rows)
		}
		if dx != nil {
			kernels.ReluBackward(dx, dx, p.acts[l])
		}
	}
}

// pathfinderCost is the pathfinder MLP over the edges' features.
func pathfinderCost(s Shape, m experiment.Model) Part {
	e := float64(s.E)
	var w Work
	var acts, params, scratch float64
	in := float64(s.D)
	sizes := append(slices.Clone(m.EdgeHidden), 1)
	for i, hs := range sizes {
		out := float64(hs)
		w.Dense += 2 * e * in * out // forward and the weights' gradient
		if i > 0 {
			w.Dense += e * in * out // the input's gradient
		}
		acts += out
		lw, lt := layerWeights(in, out, 1)
		params, scratch = params+lw, scratch+lt
		in = out
	}
	w.Exp += e
	return Part{What: phrase.New("the pathfinder MLP over %s edges", numtext.Group(s.E)), EpochWork: w,
		Bytes: f64 * (2*e*acts + e), Weights: params, Scratch: scratch, Fields: []string{"edge-hidden", "edge-features", "edges"}}
}

// outputBackward is the fused backward pass of the output layer l (one
// unit) over its hidden layer's ReLU where the kernels have one
// (kernels.OutputBackward), adding dx's rows to below, the bias gradient
// of the layer under; it reports false, doing nothing, where they do not.
func outputBackward(l *dense, below, dx, h, g []float64, rows int) bool {
	if l.out != 1 || l.sx != nil || !kernels.OutputBackward(l.w.grad, l.b.grad, l.w.val, below, dx, h, g, l.in, rows) {
		return false
	}
	l.pc.tick(float64(3 * rows * l.in))
	return true
}
