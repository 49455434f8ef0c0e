package kernels

// Propagation is a graph's normalised adjacency Â, as its kernels read it
// (Kipf and Welling; the pathfinder's learned weights in its coefficients):
// N nodes; node i's neighbours Col[k] for k from RowPtr[i] to RowPtr[i+1],
// each by its undirected edge Eid[k]; each edge's coefficient Coef[e] (Arc
// holds them again in the arcs' row order, for the vector paths) and each
// node's self-loop's Self[i]. Row i of Â h is
//
//	y_i = Self_i·h_i + Coef_{e₁}·h_{j₁} + Coef_{e₂}·h_{j₂} + …
//
// added left to right on every path, so every path gives the same bits.
type Propagation struct {
	N                int
	RowPtr, Col, Eid []int32
	Coef, Arc, Self  []float64
	//lint:ignore U1000 the AVX2 narrow path's padded rows of h (padRowsVec), used when built with GOEXPERIMENT=simd
	rows4 [][4]float64
}

// Pad returns h (N×m) padded for the narrow vector path where it serves
// rows of m values, else nil; give it to Rows for every block of one
// propagation.
func (g *Propagation) Pad(h []float64, m int) [][4]float64 { return g.padRowsVec(h, m) }

// Rows sets rows lo..hi-1 of y = Â h for h of N rows of m values; padded
// is Pad(h, m).
func (g *Propagation) Rows(y, h []float64, m, lo, hi int, padded [][4]float64) {
	y, h = fit(y, hi*m), fit(h, g.N*m)
	switch {
	case simd128:
		wasmPropagateRows(y, h, g.N, m, lo, hi, g.RowPtr, g.Col, g.Eid, g.Coef, g.Self)
	case padded != nil:
		g.propagateNarrowVec(y, padded, m, lo, hi)
	case !g.propagateRowsVec(y, h, m, lo, hi):
		g.propagateRows(y, h, m, lo, hi)
	}
}

// ArcCoefs copies each arc's coefficient in row order for the vector
// paths, which read it with one load rather than two that wait on each
// other; call it whenever Coef changes. It does so in every build that has
// the vector paths, whatever the width now (a width chosen later reads
// it), and in no other.
func (g *Propagation) ArcCoefs() {
	if !Built {
		return
	}
	a := g
	if g.Arc == nil {
		g.Arc = make([]float64, len(a.Eid))
	}
	for k, e := range a.Eid {
		g.Arc[k] = g.Coef[e]
	}
}

// propagateRows sets rows lo..hi-1 of y = Â h. Row i is
//
//	y_i = self_i·h_i + coef_1·h_{j1} + coef_2·h_{j2} + …
//
// added left to right. Four neighbours go in one pass over y_i, which
// loads and stores y_i a quarter as often (it dominated in WebAssembly,
// where a narrow m leaves little else to do), in the same order; the own
// term goes with the first four.
func (g *Propagation) propagateRows(y, h []float64, m, lo, hi int) {
	a := g
	for i := lo; i < hi; i++ {
		yi := y[i*m : (i+1)*m]
		own := rowOf(h, int32(i), m)
		own = own[:len(yi)]
		s := g.Self[i]
		k, end := int(a.RowPtr[i]), int(a.RowPtr[i+1])
		if k+4 > end {
			j := 0
			for ; j < len(yi)-3; j += 4 { // four steps a pass (see MulPair)
				yi[j], yi[j+1], yi[j+2], yi[j+3] = float64(s*own[j]), float64(s*own[j+1]), float64(s*own[j+2]), float64(s*own[j+3])
			}
			for ; j < len(yi); j++ {
				yi[j] = float64(s * own[j])
			}
		} else {
			// The own term and the first four neighbours in one pass.
			c0, c1, c2, c3 := g.Coef[a.Eid[k]], g.Coef[a.Eid[k+1]], g.Coef[a.Eid[k+2]], g.Coef[a.Eid[k+3]]
			h0, h1, h2, h3 := rowOf(h, a.Col[k], m), rowOf(h, a.Col[k+1], m), rowOf(h, a.Col[k+2], m), rowOf(h, a.Col[k+3], m)
			h0, h1, h2, h3 = h0[:len(yi)], h1[:len(yi)], h2[:len(yi)], h3[:len(yi)]
			j := 0
			for ; j < len(yi)-1; j += 2 {
				yi[j] = float64(s*own[j]) + float64(c0*h0[j]) + float64(c1*h1[j]) + float64(c2*h2[j]) + float64(c3*h3[j])
				yi[j+1] = float64(s*own[j+1]) + float64(c0*h0[j+1]) + float64(c1*h1[j+1]) + float64(c2*h2[j+1]) + float64(c3*h3[j+1])
			}
			for ; j < len(yi); j++ {
				yi[j] = float64(s*own[j]) + float64(c0*h0[j]) + float64(c1*h1[j]) + float64(c2*h2[j]) + float64(c3*h3[j])
			}
			k += 4
		}
		for ; k < end-3; k += 4 {
			c0, c1, c2, c3 := g.Coef[a.Eid[k]], g.Coef[a.Eid[k+1]], g.Coef[a.Eid[k+2]], g.Coef[a.Eid[k+3]]
			h0, h1, h2, h3 := rowOf(h, a.Col[k], m), rowOf(h, a.Col[k+1], m), rowOf(h, a.Col[k+2], m), rowOf(h, a.Col[k+3], m)
			h0, h1, h2, h3 = h0[:len(yi)], h1[:len(yi)], h2[:len(yi)], h3[:len(yi)]
			j := 0
			for ; j < len(yi)-3; j += 4 {
				yi[j] = yi[j] + float64(c0*h0[j]) + float64(c1*h1[j]) + float64(c2*h2[j]) + float64(c3*h3[j])
				yi[j+1] = yi[j+1] + float64(c0*h0[j+1]) + float64(c1*h1[j+1]) + float64(c2*h2[j+1]) + float64(c3*h3[j+1])
				yi[j+2] = yi[j+2] + float64(c0*h0[j+2]) + float64(c1*h1[j+2]) + float64(c2*h2[j+2]) + float64(c3*h3[j+2])
				yi[j+3] = yi[j+3] + float64(c0*h0[j+3]) + float64(c1*h1[j+3]) + float64(c2*h2[j+3]) + float64(c3*h3[j+3])
			}
			for ; j < len(yi); j++ {
				yi[j] = yi[j] + float64(c0*h0[j]) + float64(c1*h1[j]) + float64(c2*h2[j]) + float64(c3*h3[j])
			}
		}
		for ; k < end; k++ {
			c := g.Coef[a.Eid[k]]
			hj := rowOf(h, a.Col[k], m)
			hj = hj[:len(yi)]
			j := 0
			for ; j < len(yi)-3; j += 4 {
				yi[j], yi[j+1], yi[j+2], yi[j+3] = yi[j]+float64(c*hj[j]), yi[j+1]+float64(c*hj[j+1]), yi[j+2]+float64(c*hj[j+2]), yi[j+3]+float64(c*hj[j+3])
			}
			for ; j < len(yi); j++ {
				yi[j] += float64(c * hj[j])
			}
		}
	}
}

// rowOf returns row j of h, whose rows hold m values.
func rowOf(h []float64, j int32, m int) []float64 {
	return h[int(j)*m : int(j+1)*m]
}

// The backward pass of y = Â h for coefficients that learn (the
// pathfinder's weights): with dy = ∂L/∂y, for each edge e = {u, v} and
// node i,
//
//	∂L/∂coef_e += dy_u·h_v + dy_v·h_u,   ∂L/∂self_i += dy_i·h_i,
//
// each dot product summed in order from 0. Two ways give the same bits:
// AccumulateEdges and AccumulateSelf beside Rows (∂L/∂h = Â dy), or
// PropagateDots and CombineDots, which read each row of dy once rather
// than three times; FusedDots says which is faster here.

// FusedDots reports whether a platform path runs PropagateDots and
// CombineDots (kernels.wasm): callers take them for the backward pass
// where it does, else Rows, AccumulateEdges and AccumulateSelf. Both
// kernels are whole without it.
func FusedDots() bool { return simd128 }

// AccumulateEdges adds to gCoef[e], for the edges lo..hi-1 of src and dst
// (each below n), dy_u·h_v + dy_v·h_u for dy and h of n rows of m values.
func AccumulateEdges(gCoef, dy, h []float64, n, m, lo, hi int, src, dst []int32) {
	gCoef, dy, h, src, dst = fit(gCoef, hi), fit(dy, n*m), fit(h, n*m), fit(src, hi), fit(dst, hi)
	if simd128 {
		wasmAccumulateEdges(gCoef, dy, h, n, m, lo, hi, src, dst)
		return
	}
	e := lo
	for ; e < hi-1; e += 2 {
		gCoef[e], gCoef[e+1] = edgePair(gCoef, dy, h, m, e, src, dst)
	}
	for ; e < hi; e++ {
		u, v := int(src[e]), int(dst[e])
		gCoef[e] += Dot2(dy[u*m:(u+1)*m], h[v*m:(v+1)*m], dy[v*m:(v+1)*m], h[u*m:(u+1)*m])
	}
}

// edgePair returns gCoef_e and gCoef_{e+1} with the contributions of one
// propagation added. Each of the four dot products is summed in order, as
// Dot does; two edges at a time give four independent chains of additions
// to overlap (in WebAssembly, 1.4× as fast as one edge at a time).
func edgePair(gCoef, dy, h []float64, m, e int, src, dst []int32) (float64, float64) {
	u, v, u2, v2 := int(src[e]), int(dst[e]), int(src[e+1]), int(dst[e+1])
	p, q, r, s := dy[u*m:(u+1)*m], h[v*m:(v+1)*m], dy[v*m:(v+1)*m], h[u*m:(u+1)*m]
	p2, q2, r2, s2 := dy[u2*m:(u2+1)*m], h[v2*m:(v2+1)*m], dy[v2*m:(v2+1)*m], h[u2*m:(u2+1)*m]
	q, r, s = q[:len(p)], r[:len(p)], s[:len(p)]
	p2, q2, r2, s2 = p2[:len(p)], q2[:len(p)], r2[:len(p)], s2[:len(p)]
	var t0, t1, t2, t3 float64
	j := 0
	for ; j < len(p)-1; j += 2 { // two steps a pass (see MulPair)
		t0, t1, t2, t3 = t0+float64(p[j]*q[j]), t1+float64(r[j]*s[j]), t2+float64(p2[j]*q2[j]), t3+float64(r2[j]*s2[j])
		t0, t1, t2, t3 = t0+float64(p[j+1]*q[j+1]), t1+float64(r[j+1]*s[j+1]), t2+float64(p2[j+1]*q2[j+1]), t3+float64(r2[j+1]*s2[j+1])
	}
	for ; j < len(p); j++ {
		t0, t1, t2, t3 = t0+float64(p[j]*q[j]), t1+float64(r[j]*s[j]), t2+float64(p2[j]*q2[j]), t3+float64(r2[j]*s2[j])
	}
	return gCoef[e] + (t0 + t1), gCoef[e+1] + (t2 + t3)
}

// AccumulateSelf adds to gSelf[i] dy_i·h_i for dy and h of n rows of m
// values.
func AccumulateSelf(gSelf, dy, h []float64, n, m int) {
	gSelf, dy, h = fit(gSelf, n), fit(dy, n*m), fit(h, n*m)
	if simd128 {
		wasmAccumulateSelf(gSelf, dy, h, n, m)
		return
	}
	for i := 0; i < n; i++ {
		gSelf[i] += Dot(dy[i*m:(i+1)*m], h[i*m:(i+1)*m])
	}
}

// PropagateDots sets the rows lo..hi-1 of y = Â dy, Â given as Propagation
// holds it (n nodes, rowPtr, col, eid, coef, self), and, for each entry k
// of row u (neighbour v = col[k]), dots[k] = dy_v·h_u, adding dy_u·h_u to
// gSelf[u]: for the edge e, dy_src·h_dst is then the entry of row dst and
// dy_dst·h_src that of row src, which CombineDots adds to ∂L/∂coef_e.
func PropagateDots(y, dy, h []float64, n, m, lo, hi int, rowPtr, col, eid []int32, coef, self, dots, gSelf []float64) {
	y, dy, h, rowPtr = fit(y, hi*m), fit(dy, n*m), fit(h, hi*m), fit(rowPtr, hi+1)
	self, gSelf = fit(self, hi), fit(gSelf, hi)
	if simd128 {
		wasmPropagateDots(y, dy, h, n, m, lo, hi, rowPtr, col, eid, coef, self, dots, gSelf)
		return
	}
	g := Propagation{N: n, RowPtr: rowPtr, Col: col, Eid: eid, Coef: coef, Self: self}
	g.propagateRows(y, dy, m, lo, hi)
	for u := lo; u < hi; u++ {
		hu := h[u*m : (u+1)*m]
		for k := rowPtr[u]; k < rowPtr[u+1]; k++ {
			dots[k] = Dot(rowOf(dy, col[k], m), hu)
		}
		gSelf[u] += Dot(dy[u*m:(u+1)*m], hu)
	}
}

// CombineDots adds to gCoef[e], for the edges lo..hi-1, the dot products
// PropagateDots left at the edge's entries in its two rows: atDst[e] in
// row dst[e] and atSrc[e] in row src[e].
func CombineDots(gCoef, dots []float64, atSrc, atDst []int32, lo, hi int) {
	gCoef, atSrc, atDst = fit(gCoef, hi), fit(atSrc, hi), fit(atDst, hi)
	if simd128 {
		wasmCombineDots(gCoef, dots, atSrc, atDst, lo, hi)
		return
	}
	for e := lo; e < hi; e++ {
		gCoef[e] += dots[atDst[e]] + dots[atSrc[e]]
	}
}
