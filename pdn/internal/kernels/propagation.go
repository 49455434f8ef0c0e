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
		WasmPropagateRows(y, h, g.N, m, lo, hi, g.RowPtr, g.Col, g.Eid, g.Coef, g.Self)
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
