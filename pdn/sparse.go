package pdn

import (
	"math"

	"pdnexplorer/pdn/internal/kernels"
)

// adjacency is the graph in compressed sparse rows, both directions of every
// undirected edge, without self-loops (they are implicit). Row i lists the
// neighbours j of i and the undirected edge e that joins them, so that the
// learned weight w_e is shared by both directions.
type adjacency struct {
	n, e   int
	rowPtr []int32 // len n+1
	col    []int32 // len 2e: neighbour
	eid    []int32 // len 2e: undirected edge
	src    []int32 // len e
	dst    []int32 // len e
}

// rowWork is the work of the propagation's rows, unit a node and a
// neighbour each: a hub's row many times another's.
func (a *adjacency) rowWork(unit float64) rowWork {
	return rowWork{ptr32: a.rowPtr, self: 1, unit: unit}
}

func newAdjacency(n int, src, dst []int32) *adjacency {
	a := &adjacency{n: n, e: len(src), src: src, dst: dst,
		rowPtr: make([]int32, n+1), col: make([]int32, 2*len(src)), eid: make([]int32, 2*len(src))}
	for e := range src {
		a.rowPtr[src[e]+1]++
		a.rowPtr[dst[e]+1]++
	}
	for i := 0; i < n; i++ {
		a.rowPtr[i+1] += a.rowPtr[i]
	}
	next := append([]int32(nil), a.rowPtr[:n]...)
	for e := range src {
		u, v := src[e], dst[e]
		a.col[next[u]], a.eid[next[u]] = v, int32(e)
		next[u]++
		a.col[next[v]], a.eid[next[v]] = u, int32(e)
		next[v]++
	}
	return a
}

// gcnNorm is the symmetric normalisation of a weighted graph with one
// self-loop of weight 1 per node (Kipf & Welling; PyG's gcn_norm):
//
//	d_i    = 1 + Σ_{e ∋ i} w_e
//	r_i    = d_i^{-1/2}            (0 where d_i ≤ 0)
//	coef_e = r_u · w_e · r_v      for e = {u, v}
//	self_i = r_i²
//
// so that Â = D^{-1/2} (G + I) D^{-1/2} has Â_uv = coef_e and Â_ii = self_i.
//
// With meanLoop (experiment.SelfLoopMean) node i's self-loop weighs the
// mean of its k_i edges' weights, S_i/k_i (1 where it has none), as PyG's
// add_self_loops(fill_value="mean") gives it:
//
//	S_i    = Σ_{e ∋ i} w_e,   d_i = S_i + S_i/k_i
//	self_i = (S_i/k_i)·r_i² = 1/(k_i+1)
//
// so a node keeps GCN's share of itself whatever the scale of its learned
// weights, and only their ratios move its messages: weights that fall
// together no longer turn a node towards itself (docs/benchmarks.md).
type gcnNorm struct {
	// Â as the kernels read it: Coef (e), Arc (2e: Coef of each arc of
	// adj, in its order; vector paths only) and Self (n).
	kernels.Propagation
	adj *adjacency
	w   []float64 // edge weights, shared with the caller
	deg []float64 // n
	r   []float64 // n
	// meanLoop gives each self-loop the mean of the node's edge weights.
	meanLoop bool
	// Gradients, accumulated over every propagation that used Â.
	gCoef, gSelf, gR []float64
	pc               *pacer
	// The fused backward pass's dot products, one per entry of adj, and
	// where each edge's two entries lie (propagateDots).
	dots         []float64
	atSrc, atDst []int32
}

func newGCNNorm(adj *adjacency) *gcnNorm {
	return &gcnNorm{adj: adj,
		Propagation: kernels.Propagation{N: adj.n, RowPtr: adj.rowPtr, Col: adj.col, Eid: adj.eid,
			Self: make([]float64, adj.n), Coef: make([]float64, adj.e)},
		deg: make([]float64, adj.n), r: make([]float64, adj.n), gCoef: make([]float64, adj.e),
		gSelf: make([]float64, adj.n), gR: make([]float64, adj.n)}
}

// forward computes Â from the edge weights w (len e) and clears the
// gradient accumulators.
func (g *gcnNorm) forward(w []float64) {
	a := g.adj
	g.w = w
	if g.meanLoop {
		g.forwardMeanLoop(w)
		g.ArcCoefs()
		clear(g.gCoef)
		clear(g.gSelf)
		return
	}
	kernels.NormForward(g.deg, g.r, g.Self, g.Coef, w, a.n, a.e, a.rowPtr, a.eid, a.src, a.dst)
	g.ArcCoefs()
	clear(g.gCoef)
	clear(g.gSelf)
}

// forwardMeanLoop is forward under meanLoop, which kernels.NormForward
// (the weight-1 rule alone) does not hold. It is Go on every platform, the
// browser's worker too, so the bits are the same everywhere; it is
// O(n + e), beside propagations of O(e·m).
func (g *gcnNorm) forwardMeanLoop(w []float64) {
	a := g.adj
	for i := 0; i < a.n; i++ {
		lo, hi := a.rowPtr[i], a.rowPtr[i+1]
		d, self := 1.0, 1.0
		if hi > lo {
			s := 0.0
			for k := lo; k < hi; k++ {
				s += w[a.eid[k]]
			}
			k := float64(hi - lo)
			d, self = s+s/k, 1/(k+1)
		}
		g.deg[i] = d
		g.r[i] = 0
		if d > 0 {
			g.r[i] = 1 / math.Sqrt(d)
		}
		g.Self[i] = self
	}
	for e := 0; e < a.e; e++ {
		g.Coef[e] = float64(g.r[a.src[e]]*w[e]) * g.r[a.dst[e]]
	}
}

// propagate sets y (n×m) = Â h (n×m), in blocks of rows.
func (g *gcnNorm) propagate(y, h []float64, m int) {
	a := g.adj
	rows := a.rowWork(gatherUnit * float64(m))
	padded := g.Pad(h, m)
	for lo := 0; lo < a.n; {
		hi := g.pc.blockEndRows(lo, a.n, rows)
		j := newRowsJob(propagateRowsJob, rows)
		j.g, j.c, j.a, j.m, j.base, j.padded = g, y, h, m, lo, padded
		work := rows.at(hi) - rows.at(lo)
		j.split(hi-lo, work/gatherUnit)
		g.pc.tick(work)
		lo = hi
	}
}

// propagateAccumulate is propagate(y, dy, m) followed by accumulate(dy,
// h, m): the backward pass of a layer that learns its edges, in one pass
// over the neighbours where the fused kernels are the faster
// (kernels.FusedDots), with the same bits.
func (g *gcnNorm) propagateAccumulate(y, dy, h []float64, m int) {
	if kernels.FusedDots() {
		g.propagateDots(y, dy, h, m)
		return
	}
	g.propagate(y, dy, m)
	g.accumulate(dy, h, m)
}

// propagateDots is propagateAccumulate by the fused kernels, which read
// each row of dy once instead of three times: y = Â dy and each entry's
// dot product, in blocks of rows, then each edge's two, in blocks of
// edges.
func (g *gcnNorm) propagateDots(y, dy, h []float64, m int) {
	a := g.adj
	if len(g.dots) != 2*a.e {
		g.dots = make([]float64, 2*a.e)
		g.atSrc, g.atDst = a.slots()
	}
	rows := a.rowWork(gatherUnit * float64(2*m))
	for lo := 0; lo < a.n; {
		hi := g.pc.blockEndRows(lo, a.n, rows)
		j := newRowsJob(propagateDotsJob, rows)
		j.g, j.c, j.a, j.b, j.m, j.base = g, y, dy, h, m, lo
		work := rows.at(hi) - rows.at(lo)
		j.split(hi-lo, work/gatherUnit)
		g.pc.tick(work)
		lo = hi
	}
	for lo := 0; lo < a.e; {
		hi := g.pc.blockEnd(lo, a.e, 2)
		j := newJob(combineDotsJob)
		j.g, j.base = g, lo
		j.split(hi-lo, float64(hi-lo)*2)
		g.pc.tick(float64(hi-lo) * 2)
		lo = hi
	}
}

// slots returns, for every edge e, the entry of row src[e] that lists
// dst[e] and the entry of row dst[e] that lists src[e], as newAdjacency
// placed them.
func (a *adjacency) slots() (atSrc, atDst []int32) {
	atSrc, atDst = make([]int32, a.e), make([]int32, a.e)
	next := append([]int32(nil), a.rowPtr[:a.n]...)
	for e := range a.src {
		u, v := a.src[e], a.dst[e]
		atSrc[e] = next[u]
		next[u]++
		atDst[e] = next[v]
		next[v]++
	}
	return atSrc, atDst
}

// accumulate adds to the gradients of coef and self the contribution of one
// propagation y = Â h whose output gradient is dy:
//
//	∂L/∂coef_e += dy_u·h_v + dy_v·h_u,   ∂L/∂self_i += dy_i·h_i.
func (g *gcnNorm) accumulate(dy, h []float64, m int) {
	a := g.adj
	per := gatherUnit * float64(2*m)
	for lo := 0; lo < a.e; {
		hi := g.pc.blockEnd(lo, a.e, per)
		j := newJob(accumulateEdgesJob)
		j.g, j.a, j.b, j.m, j.base = g, dy, h, m, lo
		j.split(hi-lo, float64(hi-lo)*per/gatherUnit)
		g.pc.tick(float64(hi-lo) * per)
		lo = hi
	}
	kernels.AccumulateSelf(g.gSelf, dy, h, a.n, m)
}

// backward turns the accumulated gradients of Â into gw, the gradient of the
// edge weights (len e, overwritten):
//
//	∂r_i/∂d_i = -r_i³/2,   ∂d_u/∂w_e = ∂d_v/∂w_e = 1.
func (g *gcnNorm) backward(gw []float64) {
	a := g.adj
	if g.meanLoop {
		g.backwardMeanLoop(gw)
		return
	}
	kernels.NormBackward(gw, g.gR, g.gSelf, g.gCoef, g.r, g.w, a.n, a.e, a.src, a.dst)
}

// backwardMeanLoop is backward under meanLoop: self_i = 1/(k_i+1) is
// constant, and ∂d_i/∂w_e = 1 + 1/k_i for each edge e at i.
func (g *gcnNorm) backwardMeanLoop(gw []float64) {
	a := g.adj
	clear(g.gR)
	kernels.CoefGrads(g.gR, gw, g.gCoef, g.r, g.w, a.n, a.e, a.src, a.dst)
	for i := 0; i < a.n; i++ { // gR becomes ∂L/∂S_i
		ri, k := g.r[i], float64(a.rowPtr[i+1]-a.rowPtr[i])
		if k == 0 {
			continue
		}
		g.gR[i] = float64(float64(-0.5*g.gR[i])*float64(ri*ri)*ri) * (1 + 1/k)
	}
	for e := 0; e < a.e; e++ {
		gw[e] += g.gR[a.src[e]] + g.gR[a.dst[e]]
	}
}
