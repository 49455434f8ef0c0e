package kernels

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestScatterVecKeepsTheBits checks GAT's backward scatter for heads of 8
// features and for a single head of 1 to 3 (the output layer's), whose
// neighbours go four at a time through the vector paths when built with
// GOEXPERIMENT=simd, against the scalar loop's order: each dα
// summed over the features from zero, Σ α dα over the neighbours in order,
// and each neighbour's α dyh added to its gradient in turn (a neighbour
// listed twice, by a repeated edge, gets both). Nodes of 0 to 13
// neighbours take the groups of four and the rest one by one.
func TestScatterVecKeepsTheBits(t *testing.T) { eachWidth(t, testScatterVecKeepsTheBits) }

func testScatterVecKeepsTheBits(t *testing.T) {
	// The hidden layer's heads of 8 and the output layer's single head of
	// a few classes.
	for _, shape := range []struct{ heads, o int }{{8, 8}, {1, 3}, {1, 2}, {1, 1}} {
		rnd := rand.New(rand.NewPCG(3, 5))
		n := 40
		src, dst := unevenEdges(rnd, n, 14)
		src, dst = append(src, 3, 3), append(dst, 7, 7)
		H, O := shape.heads, shape.o
		l := newAttention(n, src, dst, H, O)
		g := l
		ho, m := H*O, len(g.Col)
		l.WH, l.Alpha = randSlice(rnd, n*ho, 1), randSlice(rnd, m*H, 1)
		l.Alpha[0] = 0 // a product of −0
		start := randSlice(rnd, n*ho, 1)
		dy := randSlice(rnd, n*ho, 1)
		wantG, wantA := append([]float64(nil), start...), make([]float64, m*H)
		copy(l.GWH, start)
		for i := range n {
			for h := range H {
				d := dy[i*ho+h*O:][:O]
				var want float64
				for k := g.RowPtr[i]; k < g.RowPtr[i+1]; k++ {
					j := int(g.Col[k])
					var da float64
					for o := range O {
						da += float64(d[o] * l.WH[j*ho+h*O+o])
					}
					wantA[int(k)*H+h] = da
					a := l.Alpha[int(k)*H+h]
					want += float64(a * da)
					for o := range O {
						wantG[j*ho+h*O+o] += float64(a * d[o])
					}
				}
				if got := l.scatter(d, i, h); math.Float64bits(got) != math.Float64bits(want) {
					t.Fatalf("%d heads of %d: node %d head %d: Σ α dα = %v, want %v", H, O, i, h, got, want)
				}
			}
		}
		sameBits(t, l.GAlpha, wantA)
		sameBits(t, l.GWH, wantG)
	}
}

// TestAggregateKeepsTheBits checks GAT's forward aggregation, which with
// AVX-512 takes the eight heads of 8 features of a node together, against
// each output summed over the neighbours in order, head by head, on nodes
// of 0 to 13 neighbours (one listed twice by a repeated edge) and
// attention that includes −0.
func TestAggregateKeepsTheBits(t *testing.T) { eachWidth(t, testAggregateKeepsTheBits) }

func testAggregateKeepsTheBits(t *testing.T) {
	l := headsLayer(rand.New(rand.NewPCG(3, 6)), 1)
	g, n, H, O := l, l.N, l.Heads, l.O
	ho := H * O
	keepHeadMinor(l) // with AVX-512
	want, got := make([]float64, n*ho), make([]float64, n*ho)
	for i := range n {
		for h := range H {
			for k := g.RowPtr[i]; k < g.RowPtr[i+1]; k++ {
				a, j := l.Alpha[int(k)*H+h], int(g.Col[k])
				for o := range O {
					want[i*ho+h*O+o] += float64(a * l.WH[j*ho+h*O+o])
				}
			}
		}
		yi := got[i*ho : (i+1)*ho]
		if !l.aggregateHeadsWide(yi, i) {
			for h := range H {
				l.aggregate(yi[h*O:(h+1)*O], i, h)
			}
		}
	}
	sameBits(t, got, want)
}

// TestSoftmaxKeepsTheBits checks GAT's attention softmax on its vector
// paths (eight heads at once, or a single head's arcs eight or four at a
// time with a tail) against softmax head by head, on nodes of 1 to 14
// arcs (one neighbour listed twice), with scores that make some
// exponentials underflow and the largest far from zero.
func TestSoftmaxKeepsTheBits(t *testing.T) { eachWidth(t, testSoftmaxKeepsTheBits) }

func testSoftmaxKeepsTheBits(t *testing.T) {
	for _, H := range []int{8, 1} {
		rnd := rand.New(rand.NewPCG(8, uint64(H)))
		l := unevenGATLayer(rnd, H, 3)
		g, n := l, l.N
		l.S, l.T = randSlice(rnd, n*H, 5), randSlice(rnd, n*H, 5)
		l.S[3], l.S[7], l.T[5] = -900, 300, math.Copysign(0, -1)
		for i := range n {
			lo, hi := int(g.RowPtr[i]), int(g.RowPtr[i+1])
			for h := range H {
				l.softmax(i, h, lo, hi)
			}
		}
		wantPre, wantAlpha := append([]float64(nil), l.Pre...), append([]float64(nil), l.Alpha...)
		clear(l.Pre)
		clear(l.Alpha)
		for i := range n {
			lo, hi := int(g.RowPtr[i]), int(g.RowPtr[i+1])
			if !l.softmaxVec(i, lo, hi) {
				for h := range H {
					l.softmax(i, h, lo, hi)
				}
			}
		}
		sameBits(t, l.Pre, wantPre)
		sameBits(t, l.Alpha, wantAlpha)
	}
}

// TestAttnGradKeepsTheBits checks the gradient through GAT's softmax and
// LeakyReLU to the scores on its vector paths (eight heads a vector, or a
// single head's arcs eight at a time) against attnGrad head by head, with
// p of both signs and zeros of both, on nodes of 1 to 14 arcs, one
// neighbour listed twice.
func TestAttnGradKeepsTheBits(t *testing.T) { eachWidth(t, testAttnGradKeepsTheBits) }

func testAttnGradKeepsTheBits(t *testing.T) {
	for _, H := range []int{8, 1} {
		rnd := rand.New(rand.NewPCG(9, uint64(H)))
		l := unevenGATLayer(rnd, H, 3)
		g, n := l, l.N
		m := len(g.Col)
		l.Alpha, l.GAlpha, l.Pre = randSlice(rnd, m*H, 1), randSlice(rnd, m*H, 1), randSlice(rnd, m*H, 1)
		l.Pre[0], l.Pre[1] = 0, math.Copysign(0, -1)
		start := randSlice(rnd, 2*n*H, 1)
		dsums := randSlice(rnd, n*H, 1)
		run := func(vec bool) []float64 {
			copy(l.GS, start[:n*H])
			copy(l.GT, start[n*H:])
			for i := range n {
				copy(l.DSum, dsums[i*H:(i+1)*H])
				lo, hi := int(g.RowPtr[i]), int(g.RowPtr[i+1])
				if !vec || !l.attnGradVec(i, lo, hi) {
					for h := range H {
						l.attnGrad(i, h, lo, hi)
					}
				}
			}
			return append(append([]float64(nil), l.GS...), l.GT...)
		}
		want := run(false)
		sameBits(t, run(true), want)
	}
}

// TestScatterHeadsKeepsTheBits checks GAT's backward scatter over all
// eight heads of 8 features at once (with AVX-512, from W h kept
// head-minor) against scatter's order head by head: dα summed over the
// features from zero, Σ α dα over the neighbours in order, and each
// neighbour's gradient, from zero, adding α dyh arc after arc, on nodes of
// 0 to 13 neighbours and one neighbour listed twice.
func TestScatterHeadsKeepsTheBits(t *testing.T) { eachWidth(t, testScatterHeadsKeepsTheBits) }

func testScatterHeadsKeepsTheBits(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 7))
	l := headsLayer(rnd, 1e3)
	g, n, H, O := l, l.N, l.Heads, l.O
	ho, m := H*O, len(g.Col)
	dy := randSlice(rnd, n*ho, 1)
	wantG, wantA, wantSum := make([]float64, n*ho), make([]float64, m*H), make([]float64, n*H)
	for i := range n {
		for h := range H {
			for k := g.RowPtr[i]; k < g.RowPtr[i+1]; k++ {
				j := int(g.Col[k])
				var da float64
				for o := range O {
					da += float64(dy[i*ho+h*O+o] * l.WH[j*ho+h*O+o])
				}
				wantA[int(k)*H+h] = da
				a := l.Alpha[int(k)*H+h]
				wantSum[i*H+h] += float64(a * da)
				for o := range O {
					wantG[j*ho+h*O+o] += float64(a * dy[i*ho+h*O+o])
				}
			}
		}
	}
	heads := keepHeadMinor(l)
	clear(l.GWH)
	gotSum := make([]float64, n*H)
	for i := range n {
		dyi := dy[i*ho : (i+1)*ho]
		if !l.scatterHeadsWide(dyi, i) {
			for h := range H {
				l.DSum[h] = l.scatter(dyi[h*O:(h+1)*O], i, h)
			}
		}
		copy(gotSum[i*H:], l.DSum)
	}
	if heads { // the gradient was kept head-minor too
		for j := range n {
			for c := range ho {
				l.GWH[j*ho+c] = l.GWHT[j*ho+c%8*8+c/8]
			}
		}
	}
	sameBits(t, gotSum, wantSum)
	sameBits(t, l.GAlpha, wantA)
	sameBits(t, l.GWH, wantG)
}

// headsLayer returns a GAT layer of eight heads of 8 features on 40 nodes
// of 0 to 13 neighbours (one listed twice by a repeated edge), with W h of
// the given scale and attention that includes −0.
func headsLayer(rnd *rand.Rand, scale float64) *Attention {
	l := unevenGATLayer(rnd, 8, 8)
	l.WH, l.Alpha = randSlice(rnd, l.N*64, scale), randSlice(rnd, len(l.Col)*8, 1)
	l.Alpha[0] = math.Copysign(0, -1)
	return l
}

// unevenGATLayer returns a GAT layer of H heads of O features on 40 nodes
// of 0 to 13 neighbours, one listed twice by a repeated edge.
func unevenGATLayer(rnd *rand.Rand, H, O int) *Attention {
	n := 40
	src, dst := unevenEdges(rnd, n, 14)
	src, dst = append(src, 3, 3), append(dst, 7, 7)
	return newAttention(n, src, dst, H, O)
}

// keepHeadMinor sets l's W h head-minor from wh, as forward keeps
// it, where that path runs, and reports whether it does.
func keepHeadMinor(l *Attention) bool {
	if !l.headsWide() {
		return false
	}
	n := l.N
	l.WHT, l.GWHT = make([]float64, n*64), make([]float64, n*64)
	for j := range n {
		for c := range 64 {
			l.WHT[j*64+c%8*8+c/8] = l.WH[j*64+c]
		}
	}
	l.headMinor = true
	return true
}
