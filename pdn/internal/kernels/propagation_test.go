package kernels

import (
	"math/rand/v2"
	"testing"
)

// TestNarrowPropagationKeepsTheBits checks Â h for rows of 1 to 7 values
// (the narrow path, and the wide one's tails) and of 8 to 64 (AVX-512's)
// against the reference loop, propagateRows, on a graph whose nodes have 0
// to 13 neighbours, the last node among them so that its row, at the end
// of h, is read too.
func TestNarrowPropagationKeepsTheBits(t *testing.T) { eachWidth(t, testNarrowPropagationKeepsTheBits) }

func testNarrowPropagationKeepsTheBits(t *testing.T) {
	rnd := rand.New(rand.NewPCG(4, 4))
	n := 30
	src, dst := unevenEdges(rnd, n, 7)
	src, dst = append(src, 0, 5), append(dst, int32(n-1), int32(n-1))
	g := newPropagation(rnd, n, src, dst)
	for _, m := range []int{1, 2, 3, 4, 5, 6, 7, 8, 16, 24, 32, 40, 64} {
		h := randSlice(rnd, n*m, 1)
		want, got := make([]float64, n*m), make([]float64, n*m)
		g.propagateRows(want, h, m, 0, n)
		g.Rows(got, h, m, 0, n, g.Pad(h, m))
		sameBits(t, got, want)
	}
}

// newPropagation returns Â over the undirected edges src–dst of n nodes,
// listed as the engine lists them (each edge at both its ends, in the
// edges' order), with random coefficients.
func newPropagation(rnd *rand.Rand, n int, src, dst []int32) *Propagation {
	g := &Propagation{N: n, RowPtr: make([]int32, n+1)}
	nb, ids := make([][]int32, n), make([][]int32, n)
	for e := range src {
		nb[src[e]], ids[src[e]] = append(nb[src[e]], dst[e]), append(ids[src[e]], int32(e))
		nb[dst[e]], ids[dst[e]] = append(nb[dst[e]], src[e]), append(ids[dst[e]], int32(e))
	}
	for i := range n {
		g.Col, g.Eid = append(g.Col, nb[i]...), append(g.Eid, ids[i]...)
		g.RowPtr[i+1] = int32(len(g.Col))
	}
	g.Coef, g.Self = randSlice(rnd, len(src), 1), randSlice(rnd, n, 1)
	g.ArcCoefs()
	return g
}
