package pdn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"pdnexplorer/datasets"
	"pdnexplorer/internal/fmath"
	"pdnexplorer/pdn/internal/kernels"
)

// TestVectorsKeepTheBits checks the products that take the AVX2 paths
// when built with GOEXPERIMENT=simd (the Makefile's native build) against
// the scalar order of summation, bit for bit: mulABT with bᵀ and a bias,
// over widths that use the 16- and 4-column blocks and the scalar tail, and
// addATB's two-row fold. Built without the experiment it checks the scalar
// paths, which must agree just the same.
func TestVectorsKeepTheBits(t *testing.T) { eachWidth(t, testVectorsKeepTheBits) }

func testVectorsKeepTheBits(t *testing.T) {
	t.Logf("vectors: %v", kernels.Vectors())
	for _, s := range []struct{ n, k, m int }{{2, 8, 16}, {5, 32, 16}, {4, 9, 20}, {3, 128, 32}, {6, 12, 37}, {2, 8, 5}, {7, 16, 1}} {
		t.Run(fmt.Sprintf("mulABT %dx%dx%d", s.n, s.k, s.m), func(t *testing.T) {
			rnd := rand.New(rand.NewPCG(uint64(s.k), uint64(s.m)))
			a, b, bias := randSlice(rnd, s.n*s.k, 1), randSlice(rnd, s.m*s.k, 1), randSlice(rnd, s.m, 1)
			a[0] = 0 // a product of −0 sums from +0
			want := referenceABT(a, b, bias, s.n, s.k, s.m)
			bt, buf := kernels.TransposedForVectors(b, s.m, s.k)
			defer kernels.ReleaseTransposed(buf)
			got := make([]float64, s.n*s.m)
			for i := 0; i+2 <= s.n; i += 2 {
				kernels.MulPair(got[i*s.m:(i+1)*s.m], got[(i+1)*s.m:(i+2)*s.m], a[i*s.k:(i+1)*s.k], a[(i+1)*s.k:(i+2)*s.k], b, bt, bias)
			}
			if s.n%2 == 1 {
				i := s.n - 1
				kernels.MulRow(got[i*s.m:(i+1)*s.m], a[i*s.k:(i+1)*s.k], b, bias)
			}
			sameBits(t, got, want)
		})
	}
	// Rows shorter than kernels.ShortRows: mulABT gathers b's columns, or with
	// AVX-512 reads them from bᵀ; either way 0 + a₀b₀ + … in order of k.
	for _, s := range []struct{ n, k, m int }{{5, 3, 32}, {4, 1, 40}, {3, 7, 64}, {6, 3, 12}, {2, 2, 8}} {
		t.Run(fmt.Sprintf("mulABT short %dx%dx%d", s.n, s.k, s.m), func(t *testing.T) {
			rnd := rand.New(rand.NewPCG(uint64(s.k), uint64(s.m)+1))
			a, b := randSlice(rnd, s.n*s.k, 1), randSlice(rnd, s.m*s.k, 1)
			a[0] = math.Copysign(0, -1) // a product of −0 sums from +0
			want := referenceABT(a, b, nil, s.n, s.k, s.m)
			got := randSlice(rnd, s.n*s.m, 1) // written over
			kernels.MulABT(got, a, b, s.n, s.k, s.m)
			sameBits(t, got, want)
		})
	}
	// Whole products, as the layers run them: rows four at a time where
	// m is a multiple of 32 (mulQuadWide, with AVX-512), the rest in pairs
	// and one by one; and only the kept rows, with the bias, leaving the
	// others as they were.
	for _, s := range []struct{ n, k, m int }{{9, 128, 32}, {7, 13, 64}, {4, 1 + kernels.ShortRows, 96}, {11, 40, 48}} {
		t.Run(fmt.Sprintf("mulABT rows %dx%dx%d", s.n, s.k, s.m), func(t *testing.T) {
			rnd := rand.New(rand.NewPCG(uint64(s.n), uint64(s.k*s.m)))
			a, b, bias := randSlice(rnd, s.n*s.k, 1), randSlice(rnd, s.m*s.k, 1), randSlice(rnd, s.m, 1)
			a[0], a[s.k] = 0, math.Copysign(0, -1) // a product of −0 sums from +0
			got := randSlice(rnd, s.n*s.m, 1)      // written over
			var pc *pacer
			pc.mulABT(got, a, b, s.n, s.k, s.m)
			sameBits(t, got, referenceABT(a, b, nil, s.n, s.k, s.m))
			// With the bias and ReLU as the products apply them: a NaN of
			// either sign kept, −∞ and negatives to +0.
			odd := slices.Clone(bias)
			odd[1], odd[2], odd[3] = math.NaN(), math.Float64frombits(0xfff8000000000001), math.Inf(-1)
			want := referenceABT(a, b, odd, s.n, s.k, s.m)
			for i, v := range want {
				want[i] = kernels.ReluOf(v)
			}
			pc.mulABTKept(got, a, b, odd, nil, s.n, s.k, s.m, true)
			sameBits(t, got, want)
			keep := make([]float64, s.n)
			for i := range keep {
				keep[i] = float64(rnd.IntN(4) % 3) // a third dropped
			}
			was := slices.Clone(got)
			pc.mulABTKept(got, a, b, bias, keep, s.n, s.k, s.m, false)
			want = referenceABT(a, b, bias, s.n, s.k, s.m)
			for i, kept := range keep {
				if kept == 0 {
					copy(want[i*s.m:(i+1)*s.m], was[i*s.m:])
				}
			}
			sameBits(t, got, want)
		})
	}
	for _, s := range []struct{ n, m, k int }{{8, 2, 4}, {13, 16, 32}, {9, 3, 7}, {12, 32, 128}, {150, 3, 64}, {7, 5, 32}, {150, 33, 64}, {70, 32, 128}, {3, 4, 64}} {
		t.Run(fmt.Sprintf("addATB %dx%dx%d", s.n, s.m, s.k), func(t *testing.T) {
			rnd := rand.New(rand.NewPCG(uint64(s.n), uint64(s.k)))
			a, b := randSlice(rnd, s.n*s.m, 1), randSlice(rnd, s.n*s.k, 1)
			for i := range a {
				switch rnd.IntN(6) {
				case 0, 1:
					a[i] = 0 // as ReLU leaves them
				case 2:
					a[i] = math.Copysign(0, -1)
				}
			}
			for j := 0; j < s.m && s.n >= 8; j += 3 {
				for i := 4; i < 8; i++ {
					a[i*s.m+j] = 0 // a whole group of zeros for every third row of c
				}
			}
			want := randSlice(rnd, s.m*s.k, 1)
			got := append([]float64(nil), want...)
			// The documented order: groups of four rows, each group's
			// products summed left to right, then added; a group whose
			// four factors are all zero is skipped; the last rows one by one.
			i := 0
			for ; i+4 <= s.n; i += 4 {
				for j := 0; j < s.m; j++ {
					f := [4]float64{a[i*s.m+j], a[(i+1)*s.m+j], a[(i+2)*s.m+j], a[(i+3)*s.m+j]}
					if f == [4]float64{} {
						continue
					}
					for p := 0; p < s.k; p++ {
						want[j*s.k+p] += float64(f[0]*b[i*s.k+p]) + float64(f[1]*b[(i+1)*s.k+p]) + float64(f[2]*b[(i+2)*s.k+p]) + float64(f[3]*b[(i+3)*s.k+p])
					}
				}
			}
			for ; i < s.n; i++ {
				for j := 0; j < s.m; j++ {
					for p := 0; p < s.k; p++ {
						want[j*s.k+p] += float64(a[i*s.m+j] * b[i*s.k+p])
					}
				}
			}
			kernels.AddATB(got, a, b, s.n, s.m, s.k)
			sameBits(t, got, want)
		})
	}
}

func sameBits(t *testing.T, got, want []float64) {
	t.Helper()
	for i := range want {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
			t.Fatalf("[%d] = %v, want %v, bit for bit", i, got[i], want[i])
		}
	}
}

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
	for _, shape := range []struct{ heads, o int }{{GATHeads, 8}, {1, 3}, {1, 2}, {1, 1}} {
		rnd := rand.New(rand.NewPCG(3, 5))
		n := 40
		src, dst := unevenEdges(rnd, n, 14)
		src, dst = append(src, 3, 3), append(dst, 7, 7)
		g := newAttnGraph(newAdjacency(n, src, dst))
		H, O := shape.heads, shape.o
		l := newGATLayer(rnd, g, 4, H, O)
		ho, m := H*O, len(g.col)
		l.wh, l.alpha = randSlice(rnd, n*ho, 1), randSlice(rnd, m*H, 1)
		l.alpha[0] = 0 // a product of −0
		start := randSlice(rnd, n*ho, 1)
		dy := randSlice(rnd, n*ho, 1)
		wantG, wantA := append([]float64(nil), start...), make([]float64, m*H)
		copy(l.gwh, start)
		for i := range n {
			for h := range H {
				d := dy[i*ho+h*O:][:O]
				var want float64
				for k := g.rowPtr[i]; k < g.rowPtr[i+1]; k++ {
					j := int(g.col[k])
					var da float64
					for o := range O {
						da += float64(d[o] * l.wh[j*ho+h*O+o])
					}
					wantA[int(k)*H+h] = da
					a := l.alpha[int(k)*H+h]
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
		sameBits(t, l.galpha, wantA)
		sameBits(t, l.gwh, wantG)
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
	g, n, H, O := l.g, l.g.n, l.heads, l.o
	ho := H * O
	keepHeadMinor(l) // with AVX-512
	want, got := make([]float64, n*ho), make([]float64, n*ho)
	for i := range n {
		for h := range H {
			for k := g.rowPtr[i]; k < g.rowPtr[i+1]; k++ {
				a, j := l.alpha[int(k)*H+h], int(g.col[k])
				for o := range O {
					want[i*ho+h*O+o] += float64(a * l.wh[j*ho+h*O+o])
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

// TestGATLayerKeepsTheBits runs a GAT layer of eight heads of 8 features
// forward and backward, on dense and on sparse input, with the AVX-512
// paths that keep W h head-minor and without them, and wants the same
// bits in the output, the attention, every gradient and dx.
func TestGATLayerKeepsTheBits(t *testing.T) {
	was := kernels.SetWide(true)
	defer kernels.SetWide(was)
	if !kernels.SetWide(true) {
		t.Skip("no AVX-512 here: only one path runs")
	}
	for _, sparse := range []bool{false, true} {
		run := func(wide bool) [][]float64 {
			kernels.SetWide(wide)
			rnd := rand.New(rand.NewPCG(5, 8))
			n, in := 37, 11
			src, dst := unevenEdges(rnd, n, 9)
			l := newGATLayer(rnd, newAttnGraph(newAdjacency(n, src, dst)), in, GATHeads, 8)
			l.pc = &pacer{}
			for _, p := range l.params() {
				copy(p.val, randSlice(rnd, len(p.val), 1))
				copy(p.grad, randSlice(rnd, len(p.grad), 1))
			}
			x := randSlice(rnd, n*in, 1)
			x[0], x[5] = 0, math.Copysign(0, -1)
			if sparse {
				for i := range x {
					if rnd.IntN(3) > 0 {
						x[i] = 0
					}
				}
				l.sx = datasets.SparseOf(x, n, in)
			}
			y, dx := make([]float64, n*64), make([]float64, n*in)
			l.forward(y, x)
			l.backward(dx, x, randSlice(rnd, n*64, 1))
			out := [][]float64{y, dx, l.alpha, l.s, l.t}
			for _, p := range l.params() {
				out = append(out, p.grad)
			}
			return out
		}
		want, got := run(false), run(true)
		for q := range want {
			sameBits(t, got[q], want[q])
		}
	}
}

// TestSoftmaxKeepsTheBits checks GAT's attention softmax on its vector
// paths (eight heads at once, or a single head's arcs eight or four at a
// time with a tail) against softmax head by head, on nodes of 1 to 14
// arcs (one neighbour listed twice), with scores that make some
// exponentials underflow and the largest far from zero.
func TestSoftmaxKeepsTheBits(t *testing.T) { eachWidth(t, testSoftmaxKeepsTheBits) }

func testSoftmaxKeepsTheBits(t *testing.T) {
	for _, H := range []int{GATHeads, 1} {
		rnd := rand.New(rand.NewPCG(8, uint64(H)))
		l := unevenGATLayer(rnd, H, 3)
		g, n := l.g, l.g.n
		l.s, l.t = randSlice(rnd, n*H, 5), randSlice(rnd, n*H, 5)
		l.s[3], l.s[7], l.t[5] = -900, 300, math.Copysign(0, -1)
		for i := range n {
			lo, hi := int(g.rowPtr[i]), int(g.rowPtr[i+1])
			for h := range H {
				l.softmax(i, h, lo, hi)
			}
		}
		wantPre, wantAlpha := append([]float64(nil), l.pre...), append([]float64(nil), l.alpha...)
		clear(l.pre)
		clear(l.alpha)
		for i := range n {
			lo, hi := int(g.rowPtr[i]), int(g.rowPtr[i+1])
			if !l.softmaxVec(i, lo, hi) {
				for h := range H {
					l.softmax(i, h, lo, hi)
				}
			}
		}
		sameBits(t, l.pre, wantPre)
		sameBits(t, l.alpha, wantAlpha)
	}
}

// TestAttnGradKeepsTheBits checks the gradient through GAT's softmax and
// LeakyReLU to the scores on its vector paths (eight heads a vector, or a
// single head's arcs eight at a time) against attnGrad head by head, with
// p of both signs and zeros of both, on nodes of 1 to 14 arcs, one
// neighbour listed twice.
func TestAttnGradKeepsTheBits(t *testing.T) { eachWidth(t, testAttnGradKeepsTheBits) }

func testAttnGradKeepsTheBits(t *testing.T) {
	for _, H := range []int{GATHeads, 1} {
		rnd := rand.New(rand.NewPCG(9, uint64(H)))
		l := unevenGATLayer(rnd, H, 3)
		g, n := l.g, l.g.n
		m := len(g.col)
		l.alpha, l.galpha, l.pre = randSlice(rnd, m*H, 1), randSlice(rnd, m*H, 1), randSlice(rnd, m*H, 1)
		l.pre[0], l.pre[1] = 0, math.Copysign(0, -1)
		start := randSlice(rnd, 2*n*H, 1)
		dsums := randSlice(rnd, n*H, 1)
		run := func(vec bool) []float64 {
			copy(l.gs, start[:n*H])
			copy(l.gt, start[n*H:])
			for i := range n {
				copy(l.dsum, dsums[i*H:(i+1)*H])
				lo, hi := int(g.rowPtr[i]), int(g.rowPtr[i+1])
				if !vec || !l.attnGradVec(i, lo, hi) {
					for h := range H {
						l.attnGrad(i, h, lo, hi)
					}
				}
			}
			return append(append([]float64(nil), l.gs...), l.gt...)
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
	g, n, H, O := l.g, l.g.n, l.heads, l.o
	ho, m := H*O, len(g.col)
	dy := randSlice(rnd, n*ho, 1)
	wantG, wantA, wantSum := make([]float64, n*ho), make([]float64, m*H), make([]float64, n*H)
	for i := range n {
		for h := range H {
			for k := g.rowPtr[i]; k < g.rowPtr[i+1]; k++ {
				j := int(g.col[k])
				var da float64
				for o := range O {
					da += float64(dy[i*ho+h*O+o] * l.wh[j*ho+h*O+o])
				}
				wantA[int(k)*H+h] = da
				a := l.alpha[int(k)*H+h]
				wantSum[i*H+h] += float64(a * da)
				for o := range O {
					wantG[j*ho+h*O+o] += float64(a * dy[i*ho+h*O+o])
				}
			}
		}
	}
	heads := keepHeadMinor(l)
	clear(l.gwh)
	gotSum := make([]float64, n*H)
	for i := range n {
		dyi := dy[i*ho : (i+1)*ho]
		if !l.scatterHeadsWide(dyi, i) {
			for h := range H {
				l.dsum[h] = l.scatter(dyi[h*O:(h+1)*O], i, h)
			}
		}
		copy(gotSum[i*H:], l.dsum)
	}
	if heads { // the gradient was kept head-minor too
		for j := range n {
			for c := range ho {
				l.gwh[j*ho+c] = l.gwhT[j*ho+c%8*8+c/8]
			}
		}
	}
	sameBits(t, gotSum, wantSum)
	sameBits(t, l.galpha, wantA)
	sameBits(t, l.gwh, wantG)
}

// headsLayer returns a GAT layer of eight heads of 8 features on 40 nodes
// of 0 to 13 neighbours (one listed twice by a repeated edge), with W h of
// the given scale and attention that includes −0.
func headsLayer(rnd *rand.Rand, scale float64) *gatLayer {
	l := unevenGATLayer(rnd, GATHeads, 8)
	l.wh, l.alpha = randSlice(rnd, l.g.n*64, scale), randSlice(rnd, len(l.g.col)*GATHeads, 1)
	l.alpha[0] = math.Copysign(0, -1)
	return l
}

// unevenGATLayer returns a GAT layer of H heads of O features on 40 nodes
// of 0 to 13 neighbours, one listed twice by a repeated edge.
func unevenGATLayer(rnd *rand.Rand, H, O int) *gatLayer {
	n := 40
	src, dst := unevenEdges(rnd, n, 14)
	src, dst = append(src, 3, 3), append(dst, 7, 7)
	return newGATLayer(rnd, newAttnGraph(newAdjacency(n, src, dst)), 4, H, O)
}

// keepHeadMinor sets l's W h head-minor from wh, as forward keeps
// it, where that path runs, and reports whether it does.
func keepHeadMinor(l *gatLayer) bool {
	if !l.headsWide() {
		return false
	}
	n := l.g.n
	l.whT, l.gwhT = make([]float64, n*64), make([]float64, n*64)
	for j := range n {
		for c := range 64 {
			l.whT[j*64+c%8*8+c/8] = l.wh[j*64+c]
		}
	}
	l.transposed = true
	return true
}

// TestELUVecKeepsTheBits checks ELU's vector paths against elu, at every
// length to 41 (the eight-lane blocks, the four-lane ones and the scalar
// tail), with zeros of both signs, NaN, ±Inf, values whose exponential
// underflows and values near zero, spread across the lanes.
func TestELUVecKeepsTheBits(t *testing.T) { eachWidth(t, testELUVecKeepsTheBits) }

func testELUVecKeepsTheBits(t *testing.T) {
	rnd := rand.New(rand.NewPCG(9, 10))
	odd := []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(-1), math.Inf(1), -800, -1e-300, 1e-17, -40}
	for n := range 42 {
		x := randSlice(rnd, n, 3)
		for i := range x {
			if rnd.IntN(4) == 0 {
				x[i] = odd[rnd.IntN(len(odd))]
			}
		}
		want, got := make([]float64, n), make([]float64, n)
		for i, v := range x {
			want[i] = elu(v)
		}
		kernels.ELU(got, x)
		sameBits(t, got, want)
	}
}

// TestELUGradVecKeepsTheBits checks the ELU derivative's vector path
// against gat.backward's scalar loop, over signs, zeros of both signs, NaN
// and a tail of fewer than four.
func TestELUGradVecKeepsTheBits(t *testing.T) {
	rnd := rand.New(rand.NewPCG(9, 9))
	x := append(randSlice(rnd, 37, 1), 0, math.Copysign(0, -1), math.NaN(), math.Inf(-1))
	y := make([]float64, len(x))
	for i, v := range x {
		y[i] = elu(v)
	}
	g := randSlice(rnd, len(x), 1)
	want := append([]float64(nil), g...)
	for i, v := range x {
		if v <= 0 {
			want[i] *= y[i] + 1
		}
	}
	kernels.ELUGrad(g, x, y)
	sameBits(t, g, want)
}

// TestNarrowPropagationKeepsTheBits checks Â h for rows of 1 to 7 values
// (the narrow path, and the wide one's tails) and of 8 to 64 (AVX-512's)
// against propagateRows, on a
// graph whose nodes have 0 to 13 neighbours, the last node among them so
// that its row, at the end of h, is read too.
func TestNarrowPropagationKeepsTheBits(t *testing.T) { eachWidth(t, testNarrowPropagationKeepsTheBits) }

func testNarrowPropagationKeepsTheBits(t *testing.T) {
	rnd := rand.New(rand.NewPCG(4, 4))
	n := 30
	src, dst := unevenEdges(rnd, n, 7)
	src, dst = append(src, 0, 5), append(dst, int32(n-1), int32(n-1))
	g := newGCNNorm(newAdjacency(n, src, dst))
	g.forward(randSlice(rnd, len(src), 1))
	for _, m := range []int{1, 2, 3, 4, 5, 6, 7, 8, 16, 24, 32, 40, 64} {
		h := randSlice(rnd, n*m, 1)
		want, got := make([]float64, n*m), make([]float64, n*m)
		g.propagateRows(want, h, m, 0, n)
		g.propagate(got, h, m)
		sameBits(t, got, want)
	}
}

// referenceABT is a·bᵀ (+ bias, unless nil) in the documented order: each
// entry summed from zero in order of k, then the bias added.
func referenceABT(a, b, bias []float64, n, k, m int) []float64 {
	c := make([]float64, n*m)
	for i := 0; i < n; i++ {
		for j := 0; j < m; j++ {
			var sum float64
			for p := 0; p < k; p++ {
				sum += float64(a[i*k+p] * b[j*k+p])
			}
			if bias != nil {
				sum += bias[j]
			}
			c[i*m+j] = sum
		}
	}
	return c
}

// eachWidth runs test with the AVX-512 paths and without them, where the
// processor has them; otherwise once.
func eachWidth(t *testing.T, test func(t *testing.T)) {
	was := kernels.SetWide(true)
	defer kernels.SetWide(was)
	if !kernels.SetWide(true) { // still off: no AVX-512 here
		test(t)
		return
	}
	t.Run("avx512", test)
	kernels.SetWide(false)
	t.Run("avx2", test)
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

// TestOutputBackwardKeepsTheBits checks the pathfinder's output layer's
// backward pass in one pass over the hidden activations (with AVX-512)
// against affineBackward, reluBackward and sumRowsAdd, bit for bit: the
// weights' and bias's gradients added to what they held, the input's
// gradient gated by ReLU, and its rows added to the bias gradient below, over rows that leave a rest of 0 to 3, groups of four
// zero gradients, activations of either zero and a NaN gradient.
func TestOutputBackwardKeepsTheBits(t *testing.T) { eachWidth(t, testOutputBackwardKeepsTheBits) }

func testOutputBackwardKeepsTheBits(t *testing.T) {
	for _, s := range []struct{ rows, h int }{{64, 32}, {37, 64}, {6, 32}, {3, 32}} {
		t.Run(fmt.Sprintf("%dx%d", s.rows, s.h), func(t *testing.T) {
			rnd := rand.New(rand.NewPCG(uint64(s.rows), uint64(s.h)))
			hid := randSlice(rnd, s.rows*s.h, 1)
			for i := range hid {
				switch rnd.IntN(5) {
				case 0:
					hid[i] = 0
				case 1:
					hid[i] = math.Copysign(0, -1)
				}
			}
			g := randSlice(rnd, s.rows, 1)
			for i := 4; i < min(8, s.rows); i++ {
				g[i] = 0 // a group of zeros, skipped
			}
			g[s.rows-1] = math.NaN()
			newLayer := func() *dense {
				l := newLinear(rand.New(rand.NewPCG(1, 2)), s.h, 1)
				l.w.grad, l.b.grad = randSlice(rnd, s.h, 1), randSlice(rnd, 1, 1)
				return l
			}
			want, got := newLayer(), newLayer()
			copy(got.w.grad, want.w.grad)
			copy(got.b.grad, want.b.grad)
			wantDx, gotDx := make([]float64, s.rows*s.h), randSlice(rnd, s.rows*s.h, 1)
			wantBelow := randSlice(rnd, s.h, 1) // the bias gradient of the layer under
			gotBelow := slices.Clone(wantBelow)
			want.backward(wantDx, hid, g, s.rows)
			kernels.ReluBackward(wantDx, wantDx, hid)
			kernels.SumRowsAdd(wantBelow, wantDx, s.rows, s.h)
			if !outputBackward(got, gotBelow, gotDx, hid, g, s.rows) {
				if strings.HasSuffix(t.Name(), "avx512/"+fmt.Sprintf("%dx%d", s.rows, s.h)) {
					t.Fatal("the one pass did not run with AVX-512")
				}
				return // another width: the passes apart, as above
			}
			sameBits(t, got.w.grad, want.w.grad)
			sameBits(t, got.b.grad, want.b.grad)
			sameBits(t, gotDx, wantDx)
			sameBits(t, gotBelow, wantBelow)
		})
	}
}

// TestSigmoidsKeepTheBits checks σ eight lanes at a time (with AVX-512)
// against fmath.Sigmoid on 200,000 values across its range and the special
// cases, with and without a mask of kept entries.
func TestSigmoidsKeepTheBits(t *testing.T) { eachWidth(t, testSigmoidsKeepTheBits) }

func testSigmoidsKeepTheBits(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 8))
	s := []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), 710, -710, 745.2, -745.2, 1e-300, -1e-300, 36.7, -36.7}
	for len(s) < 200_000 {
		s = append(s, (rnd.Float64()-0.5)*float64(int(1)<<rnd.IntN(11)))
	}
	keep := make([]float64, len(s))
	for i := range keep {
		keep[i] = float64(rnd.IntN(3) % 2)
	}
	for _, keep := range [][]float64{nil, keep} {
		w := randSlice(rnd, len(s), 1)
		want := slices.Clone(w)
		for i, v := range s {
			if keep == nil || keep[i] != 0 {
				want[i] = fmath.Sigmoid(v)
			}
		}
		kernels.Sigmoids(w, s, keep)
		sameBits(t, w, want)
	}
}
