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
	// The WebAssembly kernels' scratch (simdPropagateDots).
	simd simdNorm
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
	if kernels.SIMD128() {
		simdNormForward(g, w)
		clear(g.gCoef)
		clear(g.gSelf)
		return
	}
	for i := 0; i < a.n; i++ {
		d := 1.0
		for k := a.rowPtr[i]; k < a.rowPtr[i+1]; k++ {
			d += w[a.eid[k]]
		}
		g.deg[i] = d
		if d > 0 {
			g.r[i] = 1 / math.Sqrt(d)
		} else {
			g.r[i] = 0
		}
		g.Self[i] = float64(g.r[i] * g.r[i])
	}
	for e := 0; e < a.e; e++ {
		g.Coef[e] = float64(g.r[a.src[e]]*w[e]) * g.r[a.dst[e]]
	}
	g.ArcCoefs()
	clear(g.gCoef)
	clear(g.gSelf)
}

// forwardMeanLoop is forward under meanLoop. It is Go on every platform,
// the browser's worker too (its kernels hold only the weight-1 rule), so
// the bits are the same everywhere; it is O(n + e), beside propagations
// of O(e·m).
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
	per := gatherUnit * float64(m) * (1 + float64(2*a.e)/float64(max(a.n, 1)))
	padded := g.Pad(h, m)
	for lo := 0; lo < a.n; {
		hi := g.pc.blockEnd(lo, a.n, per)
		g.Rows(y, h, m, lo, hi, padded)
		g.pc.tick(float64(hi-lo) * per)
		lo = hi
	}
}

// propagateAccumulate is propagate(y, dy, m) followed by accumulate(dy,
// h, m): the backward pass of a layer that learns its edges. The
// WebAssembly kernels do both in one pass over the neighbours, which reads
// each row of dy once instead of three times.
func (g *gcnNorm) propagateAccumulate(y, dy, h []float64, m int) {
	if !kernels.SIMD128() {
		g.propagate(y, dy, m)
		g.accumulate(dy, h, m)
		return
	}
	a := g.adj
	per := gatherUnit * float64(2*m) * (1 + float64(2*a.e)/float64(max(a.n, 1)))
	for lo := 0; lo < a.n; {
		hi := g.pc.blockEnd(lo, a.n, per)
		simdPropagateDots(g, y, dy, h, m, lo, hi)
		g.pc.tick(float64(hi-lo) * per)
		lo = hi
	}
	for lo := 0; lo < a.e; {
		hi := g.pc.blockEnd(lo, a.e, 2)
		simdCombineDots(g, lo, hi)
		g.pc.tick(float64(hi-lo) * 2)
		lo = hi
	}
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
		if kernels.SIMD128() {
			simdAccumulateEdges(g, dy, h, m, lo, hi)
			g.pc.tick(float64(hi-lo) * per)
			lo = hi
			continue
		}
		e := lo
		for ; e < hi-1; e += 2 {
			g.gCoef[e], g.gCoef[e+1] = g.edgePair(dy, h, m, e)
		}
		for ; e < hi; e++ {
			u, v := int(a.src[e]), int(a.dst[e])
			g.gCoef[e] += kernels.Dot2(dy[u*m:(u+1)*m], h[v*m:(v+1)*m], dy[v*m:(v+1)*m], h[u*m:(u+1)*m])
		}
		g.pc.tick(float64(hi-lo) * per)
		lo = hi
	}
	if kernels.SIMD128() {
		simdAccumulateSelf(g, dy, h, m)
		return
	}
	for i := 0; i < a.n; i++ {
		g.gSelf[i] += kernels.Dot(dy[i*m:(i+1)*m], h[i*m:(i+1)*m])
	}
}

// edgePair returns gCoef_e and gCoef_{e+1} with the contributions of one
// propagation added. Each of the four dot products is summed in order, as
// dot does; two edges at a time give four independent chains of additions
// to overlap (in WebAssembly, 1.4× as fast as one edge at a time).
func (g *gcnNorm) edgePair(dy, h []float64, m, e int) (float64, float64) {
	a := g.adj
	u, v, u2, v2 := int(a.src[e]), int(a.dst[e]), int(a.src[e+1]), int(a.dst[e+1])
	p, q, r, s := dy[u*m:(u+1)*m], h[v*m:(v+1)*m], dy[v*m:(v+1)*m], h[u*m:(u+1)*m]
	p2, q2, r2, s2 := dy[u2*m:(u2+1)*m], h[v2*m:(v2+1)*m], dy[v2*m:(v2+1)*m], h[u2*m:(u2+1)*m]
	q, r, s = q[:len(p)], r[:len(p)], s[:len(p)]
	p2, q2, r2, s2 = p2[:len(p)], q2[:len(p)], r2[:len(p)], s2[:len(p)]
	var t0, t1, t2, t3 float64
	j := 0
	for ; j < len(p)-1; j += 2 { // two steps a pass (see kernels.MulPair)
		t0, t1, t2, t3 = t0+float64(p[j]*q[j]), t1+float64(r[j]*s[j]), t2+float64(p2[j]*q2[j]), t3+float64(r2[j]*s2[j])
		t0, t1, t2, t3 = t0+float64(p[j+1]*q[j+1]), t1+float64(r[j+1]*s[j+1]), t2+float64(p2[j+1]*q2[j+1]), t3+float64(r2[j+1]*s2[j+1])
	}
	for ; j < len(p); j++ {
		t0, t1, t2, t3 = t0+float64(p[j]*q[j]), t1+float64(r[j]*s[j]), t2+float64(p2[j]*q2[j]), t3+float64(r2[j]*s2[j])
	}
	return g.gCoef[e] + (t0 + t1), g.gCoef[e+1] + (t2 + t3)
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
	if kernels.SIMD128() {
		simdNormBackward(g, gw)
		return
	}
	for i := 0; i < a.n; i++ {
		g.gR[i] = float64(2*g.gSelf[i]) * g.r[i]
	}
	g.coefGrads(gw)
	for i := 0; i < a.n; i++ { // gR becomes ∂L/∂d_i
		ri := g.r[i]
		g.gR[i] = float64(-0.5*g.gR[i]) * float64(ri*ri) * ri
	}
	for e := 0; e < a.e; e++ {
		gw[e] += g.gR[a.src[e]] + g.gR[a.dst[e]]
	}
}

// coefGrads adds each coefficient's gradient through r_u and r_v into
// gR, ∂L/∂r, and sets gw to its part through w_e itself:
//
//	coef_e = r_u · w_e · r_v.
func (g *gcnNorm) coefGrads(gw []float64) {
	a := g.adj
	for e := 0; e < a.e; e++ {
		u, v := a.src[e], a.dst[e]
		gc := float64(g.gCoef[e] * g.w[e])
		g.gR[u] += float64(gc * g.r[v])
		g.gR[v] += float64(gc * g.r[u])
		gw[e] = float64(g.gCoef[e]*g.r[u]) * g.r[v]
	}
}

// backwardMeanLoop is backward under meanLoop: self_i = 1/(k_i+1) is
// constant, and ∂d_i/∂w_e = 1 + 1/k_i for each edge e at i.
func (g *gcnNorm) backwardMeanLoop(gw []float64) {
	a := g.adj
	clear(g.gR)
	g.coefGrads(gw)
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
