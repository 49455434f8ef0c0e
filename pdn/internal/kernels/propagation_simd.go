//go:build goexperiment.simd && amd64 && !purego

package kernels

import "simd/archsimd"

// padRowsVec returns h's rows of fewer than four values (the classes of
// the paper's graphs, 3 by default, which APPNP propagates twenty times an
// epoch and GCN's second layer twice) each in an array of four, in g's
// scratch, for propagateNarrowVec; nil for wider rows or without vectors.
// The lanes past m hold whatever they held and are never stored.
func (g *Propagation) padRowsVec(h []float64, m int) [][4]float64 {
	n := g.N
	if !vectors || m >= 4 || m == 0 || len(h) < n*m {
		return nil
	}
	if len(g.rows4) < n {
		g.rows4 = make([][4]float64, n)
	}
	rows := g.rows4[:n]
	i := 0
	for ; i < n && i*m+4 <= len(h); i++ {
		archsimd.LoadFloat64x4((*[4]float64)(h[i*m : i*m+4])).Store(&rows[i])
	}
	for ; i < n; i++ {
		copy(rows[i][:m], h[i*m:(i+1)*m])
	}
	archsimd.ClearAVXUpperBits()
	return rows
}

// propagateNarrowVec is propagateRows for rows of fewer than four values,
// from h's rows padded to four lanes (padRowsVec): a row of y stays in the
// low lanes of one vector from its first term to its last and is stored
// once, under a mask; each lane adds its column's terms in propagateRows'
// order, so the same bits (TestNarrowPropagationKeepsTheBits). Padded, a
// neighbour's row is one load at a shifted index, with no test of where it
// ends. Two rows go side by side, each its own chain of additions, for as
// many neighbours as both have, then each the rest of its own: one row's
// chain, an addition after another, left the adder idle.
func (g *Propagation) propagateNarrowVec(y []float64, rows [][4]float64, m, lo, hi int) {
	a := g
	term := func(v archsimd.Float64x4, c float64, j int32) archsimd.Float64x4 {
		return v.Add(archsimd.BroadcastFloat64x4(c).Mul(archsimd.LoadFloat64x4(&rows[j])))
	}
	i := lo
	for ; i+2 <= hi; i += 2 {
		va := archsimd.BroadcastFloat64x4(g.Self[i]).Mul(archsimd.LoadFloat64x4(&rows[i]))
		vb := archsimd.BroadcastFloat64x4(g.Self[i+1]).Mul(archsimd.LoadFloat64x4(&rows[i+1]))
		k, mid, end := int(a.RowPtr[i]), int(a.RowPtr[i+1]), int(a.RowPtr[i+2])
		ca, aa := a.Col[k:mid], g.Arc[k:mid]
		cb, ab := a.Col[mid:end], g.Arc[mid:end]
		aa, ab = aa[:len(ca)], ab[:len(cb)]
		both := min(len(ca), len(cb))
		for q := range both {
			va, vb = term(va, aa[q], ca[q]), term(vb, ab[q], cb[q])
		}
		for q := both; q < len(ca); q++ {
			va = term(va, aa[q], ca[q])
		}
		for q := both; q < len(cb); q++ {
			vb = term(vb, ab[q], cb[q])
		}
		va.StoreSlicePart(y[i*m : (i+1)*m])
		vb.StoreSlicePart(y[(i+1)*m : (i+2)*m])
	}
	for ; i < hi; i++ {
		v := archsimd.BroadcastFloat64x4(g.Self[i]).Mul(archsimd.LoadFloat64x4(&rows[i]))
		k, end := int(a.RowPtr[i]), int(a.RowPtr[i+1])
		for q, j := range a.Col[k:end] {
			v = term(v, g.Arc[k+q], j)
		}
		v.StoreSlicePart(y[i*m : (i+1)*m])
	}
	archsimd.ClearAVXUpperBits()
}

// propagateRowsVec is propagateRows with AVX-512, for rows of a multiple
// of eight values (propagateRowWide), each lane adding its column's terms
// in propagateRows' order, so the same bits; it reports false, doing
// nothing, for other rows and widths. Rows narrower than four go to
// propagateNarrowVec (see Rows). A four-lane path for the rest measured
// 10–15 times slower than the scalar loop on this Xeon (m = 4: 10.1
// against 0.66 ms a propagation over 117,000 arcs), each coefficient's
// scalar load between the vector operations paying for leaving AVX: it
// is gone, and those rows take the reference loop.
func (g *Propagation) propagateRowsVec(y, h []float64, m, lo, hi int) bool {
	if !wide || m%8 != 0 {
		return false
	}
	for i := lo; i < hi; i++ {
		g.propagateRowWide(y[i*m:(i+1)*m], h, i, m)
	}
	archsimd.ClearAVXUpperBits()
	return true
}

// propagateRowWide sets y = row i of Â h, for m a multiple of eight, with
// AVX-512: in propagateRows' order each entry is self_i·h_i plus each
// neighbour's term in turn, so thirty-two columns at a time stay in four
// registers from the first term to the last and are stored once.
func (g *Propagation) propagateRowWide(y, h []float64, i, m int) {
	a := g
	lo, hi := int(a.RowPtr[i]), int(a.RowPtr[i+1])
	col, arc := a.Col[lo:hi], g.Arc[lo:hi]
	S := archsimd.BroadcastFloat64x8(g.Self[i])
	j := 0
	for ; j+32 <= m; j += 32 {
		own := h[i*m+j:][:32]
		v0, v1 := S.Mul(archsimd.LoadFloat64x8Slice(own)), S.Mul(archsimd.LoadFloat64x8Slice(own[8:]))
		v2, v3 := S.Mul(archsimd.LoadFloat64x8Slice(own[16:])), S.Mul(archsimd.LoadFloat64x8Slice(own[24:]))
		for k, c := range col {
			C := archsimd.BroadcastFloat64x8(arc[k])
			r := h[int(c)*m+j:][:32]
			v0, v1 = v0.Add(C.Mul(archsimd.LoadFloat64x8Slice(r))), v1.Add(C.Mul(archsimd.LoadFloat64x8Slice(r[8:])))
			v2, v3 = v2.Add(C.Mul(archsimd.LoadFloat64x8Slice(r[16:]))), v3.Add(C.Mul(archsimd.LoadFloat64x8Slice(r[24:])))
		}
		yj := y[j:][:32]
		v0.StoreSlice(yj)
		v1.StoreSlice(yj[8:])
		v2.StoreSlice(yj[16:])
		v3.StoreSlice(yj[24:])
	}
	for ; j < m; j += 8 {
		v := S.Mul(archsimd.LoadFloat64x8Slice(h[i*m+j:][:8]))
		for k, c := range col {
			v = v.Add(archsimd.BroadcastFloat64x8(arc[k]).Mul(archsimd.LoadFloat64x8Slice(h[int(c)*m+j:][:8])))
		}
		v.StoreSlice(y[j:][:8])
	}
}
