package pdn

import "math"

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
type gcnNorm struct {
	adj  *adjacency
	w    []float64 // edge weights, shared with the caller
	deg  []float64 // n
	r    []float64 // n
	coef []float64 // e
	self []float64 // n
	// Gradients, accumulated over every propagation that used Â.
	gCoef, gSelf, gR []float64
	pc               *pacer
}

func newGCNNorm(adj *adjacency) *gcnNorm {
	return &gcnNorm{adj: adj,
		deg: make([]float64, adj.n), r: make([]float64, adj.n), self: make([]float64, adj.n),
		coef: make([]float64, adj.e), gCoef: make([]float64, adj.e),
		gSelf: make([]float64, adj.n), gR: make([]float64, adj.n)}
}

// forward computes Â from the edge weights w (len e) and clears the
// gradient accumulators.
func (g *gcnNorm) forward(w []float64) {
	a := g.adj
	g.w = w
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
		g.self[i] = float64(g.r[i] * g.r[i])
	}
	for e := 0; e < a.e; e++ {
		g.coef[e] = float64(g.r[a.src[e]]*w[e]) * g.r[a.dst[e]]
	}
	clear(g.gCoef)
	clear(g.gSelf)
}

// propagate sets y (n×m) = Â h (n×m), in blocks of rows.
func (g *gcnNorm) propagate(y, h []float64, m int) {
	a := g.adj
	per := gatherUnit * float64(m) * (1 + float64(2*a.e)/float64(max(a.n, 1)))
	for lo := 0; lo < a.n; {
		hi := g.pc.blockEnd(lo, a.n, per)
		g.propagateRows(y, h, m, lo, hi)
		g.pc.tick(float64(hi-lo) * per)
		lo = hi
	}
}

// propagateRows sets rows lo..hi-1 of y = Â h.
func (g *gcnNorm) propagateRows(y, h []float64, m, lo, hi int) {
	a := g.adj
	for i := lo; i < hi; i++ {
		yi := y[i*m : (i+1)*m]
		hi := h[i*m : (i+1)*m]
		s := g.self[i]
		for j := range yi {
			yi[j] = float64(s * hi[j])
		}
		for k := a.rowPtr[i]; k < a.rowPtr[i+1]; k++ {
			c := g.coef[a.eid[k]]
			hj := h[int(a.col[k])*m : int(a.col[k]+1)*m]
			for j := range yi {
				yi[j] += float64(c * hj[j])
			}
		}
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
		for e := lo; e < hi; e++ {
			u, v := int(a.src[e]), int(a.dst[e])
			g.gCoef[e] += dot(dy[u*m:(u+1)*m], h[v*m:(v+1)*m]) + dot(dy[v*m:(v+1)*m], h[u*m:(u+1)*m])
		}
		g.pc.tick(float64(hi-lo) * per)
		lo = hi
	}
	for i := 0; i < a.n; i++ {
		g.gSelf[i] += dot(dy[i*m:(i+1)*m], h[i*m:(i+1)*m])
	}
}

// backward turns the accumulated gradients of Â into gw, the gradient of the
// edge weights (len e, overwritten):
//
//	∂r_i/∂d_i = -r_i³/2,   ∂d_u/∂w_e = ∂d_v/∂w_e = 1.
func (g *gcnNorm) backward(gw []float64) {
	a := g.adj
	for i := 0; i < a.n; i++ {
		g.gR[i] = float64(2*g.gSelf[i]) * g.r[i]
	}
	for e := 0; e < a.e; e++ {
		u, v := a.src[e], a.dst[e]
		gc := float64(g.gCoef[e] * g.w[e])
		g.gR[u] += float64(gc * g.r[v])
		g.gR[v] += float64(gc * g.r[u])
		gw[e] = float64(g.gCoef[e]*g.r[u]) * g.r[v]
	}
	for i := 0; i < a.n; i++ { // gR becomes ∂L/∂d_i
		ri := g.r[i]
		g.gR[i] = float64(-0.5*g.gR[i]) * float64(ri*ri) * ri
	}
	for e := 0; e < a.e; e++ {
		gw[e] += g.gR[a.src[e]] + g.gR[a.dst[e]]
	}
}
