package pdn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"pdnexplorer/datasets"
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
			out := [][]float64{y, dx, l.Alpha, l.S, l.T}
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
