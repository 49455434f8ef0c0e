package kernels

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// eachWidth runs test at every vector width this processor has: with
// AVX-512 and without it (AVX2), or once where it has no AVX-512.
func eachWidth(t *testing.T, test func(t *testing.T)) {
	was := SetWide(true)
	defer SetWide(was)
	if !SetWide(true) { // still off: no AVX-512 here
		test(t)
		return
	}
	t.Run("avx512", test)
	SetWide(false)
	t.Run("avx2", test)
}

// randSlice returns n normal draws times scale.
func randSlice(rnd *rand.Rand, n int, scale float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = scale * rnd.NormFloat64()
	}
	return out
}

// sameBits fails unless got and want hold the same bits.
func sameBits(t *testing.T, got, want []float64) {
	t.Helper()
	for i := range want {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
			t.Fatalf("[%d] = %v, want %v, bit for bit", i, got[i], want[i])
		}
	}
}

// unevenEdges returns edges from each node i of n to i mod most random
// nodes: degrees from none to many, as groups of four and their rests want.
func unevenEdges(rnd *rand.Rand, n, most int) (src, dst []int32) {
	for i := range n {
		for range i % most {
			src, dst = append(src, int32(i)), append(dst, int32(rnd.IntN(n)))
		}
	}
	return src, dst
}

// newAttention returns the arrays of an attention layer of H heads of O
// features over the undirected edges src–dst of n nodes: each node's
// arcs to its neighbours in the edges' order, then to itself, as the
// engine lists them.
func newAttention(n int, src, dst []int32, H, O int) *Attention {
	nb := make([][]int32, n)
	for e := range src {
		nb[src[e]] = append(nb[src[e]], dst[e])
		nb[dst[e]] = append(nb[dst[e]], src[e])
	}
	l := &Attention{N: n, Heads: H, O: O, RowPtr: make([]int32, n+1)}
	for i := range n {
		l.Col = append(append(l.Col, nb[i]...), int32(i))
		l.RowPtr[i+1] = int32(len(l.Col))
	}
	m, ho := len(l.Col), H*O
	l.WH, l.S, l.T = make([]float64, n*ho), make([]float64, n*H), make([]float64, n*H)
	l.Pre, l.Alpha, l.GAlpha = make([]float64, m*H), make([]float64, m*H), make([]float64, m*H)
	l.GWH, l.GS, l.GT, l.DSum = make([]float64, n*ho), make([]float64, n*H), make([]float64, n*H), make([]float64, H)
	return l
}

// adjacency is a graph of n nodes and e undirected edges src–dst as the
// engine lists it (pdn's newAdjacency): each edge at both its ends, in
// the edges' order, row i's entries k from rowPtr[i] to rowPtr[i+1]
// naming the neighbour col[k] and the edge eid[k]; atSrc[e] and atDst[e]
// are edge e's entries in the rows of src[e] and of dst[e] (pdn's slots).
type adjacency struct {
	n, e                       int
	src, dst, rowPtr, col, eid []int32
	atSrc, atDst               []int32
}

func adjacencyOf(n int, src, dst []int32) *adjacency {
	g := &adjacency{n: n, e: len(src), src: src, dst: dst, rowPtr: make([]int32, n+1)}
	for e := range src {
		g.rowPtr[src[e]+1]++
		g.rowPtr[dst[e]+1]++
	}
	for i := range n {
		g.rowPtr[i+1] += g.rowPtr[i]
	}
	g.col, g.eid = make([]int32, 2*g.e), make([]int32, 2*g.e)
	g.atSrc, g.atDst = make([]int32, g.e), make([]int32, g.e)
	next := slices.Clone(g.rowPtr[:n])
	for e := range src {
		u, v := src[e], dst[e]
		g.col[next[u]], g.eid[next[u]], g.atSrc[e] = v, int32(e), next[u]
		next[u]++
		g.col[next[v]], g.eid[next[v]], g.atDst[e] = u, int32(e), next[v]
		next[v]++
	}
	return g
}
