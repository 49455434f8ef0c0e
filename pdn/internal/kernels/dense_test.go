package kernels

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// naiveMul returns a·b for a (n×k), b (k×m), summing over k in order.
func naiveMul(a, b []float64, n, k, m int) []float64 {
	c := make([]float64, n*m)
	for i := 0; i < n; i++ {
		for j := 0; j < m; j++ {
			var s float64
			for p := 0; p < k; p++ {
				s += float64(a[i*k+p] * b[p*m+j])
			}
			c[i*m+j] = s
		}
	}
	return c
}

func TestKernelsAgainstNaive(t *testing.T) {
	for _, s := range []struct{ n, k, m int }{{1, 1, 1}, {2, 4, 4}, {3, 5, 7}, {8, 32, 16}, {7, 3, 1}, {5, 1, 9}, {9, 16, 3}, {6, 8, 5}, {4, 32, 32}, {3, 7, 2}, {4, 13, 16}, {5, 33, 17}, {2, 40, 8}, {3, 9, 4}} {
		t.Run(fmt.Sprintf("%dx%dx%d", s.n, s.k, s.m), func(t *testing.T) {
			rnd := rand.New(rand.NewPCG(uint64(s.n), uint64(s.k*s.m)))
			a := randSlice(rnd, s.n*s.k, 1)
			b := randSlice(rnd, s.k*s.m, 1)
			bt := make([]float64, len(b))
			Transpose(bt, b, s.k, s.m)
			want := naiveMul(a, b, s.n, s.k, s.m)

			// Summed in the same order, so exact.
			got := make([]float64, s.n*s.m)
			MulABT(got, a, bt, s.n, s.k, s.m)
			closeAll(t, "mulABT", got, want, 0)

			// AddATB(c, x, y) adds xᵀ·y; with x = aᵀ stored n'×m' it is a·y.
			at := make([]float64, len(a))
			Transpose(at, a, s.n, s.k)
			acc := make([]float64, s.n*s.m)
			for i := range acc {
				acc[i] = 1
			}
			AddATB(acc, at, b, s.k, s.n, s.m)
			for i := range want {
				want[i]++
			}
			closeAll(t, "addATB", acc, want, 1e-13)
		})
	}
}

// TestKernelsStartFromPlusZero checks that a product of −0 sums as a dot
// product does, from +0, in every path of MulABT (short rows, pairs, the
// odd row).
func TestKernelsStartFromPlusZero(t *testing.T) {
	for _, k := range []int{1, 3, 8, 9} {
		for _, n := range []int{1, 2, 3} {
			a := make([]float64, n*k) // all +0
			b := make([]float64, 5*k)
			for i := range b {
				b[i] = -1
			}
			c := make([]float64, n*5)
			for i := range c {
				c[i] = math.NaN()
			}
			MulABT(c, a, b, n, k, 5)
			for i, v := range c {
				if math.Float64bits(v) != 0 {
					t.Fatalf("n=%d k=%d: c[%d] = %v (bits %x), want +0", n, k, i, v, math.Float64bits(v))
				}
			}
		}
	}
}

func closeAll(t *testing.T, name string, got, want []float64, tol float64) {
	t.Helper()
	for i := range want {
		if math.Abs(got[i]-want[i]) > tol*math.Max(1, math.Abs(want[i])) {
			t.Fatalf("%s[%d] = %v, want %v", name, i, got[i], want[i])
		}
	}
}

func TestReLUBackwardMasks(t *testing.T) {
	y := []float64{0, 1e-300, 2, 0, 5}
	dy := []float64{1, -2, 3, -4, math.Inf(1)}
	dx := make([]float64, 5)
	ReluBackward(dx, dy, y)
	want := []float64{0, -2, 3, 0, math.Inf(1)}
	for i := range want {
		if dx[i] != want[i] {
			t.Errorf("dx[%d] = %v, want %v", i, dx[i], want[i])
		}
	}
}

func TestBelow(t *testing.T) {
	for _, tc := range []struct {
		x, t uint64
		want float64
	}{{0, 1, 1}, {1, 1, 0}, {5, 3, 0}, {1<<32 - 1, 1 << 32, 1}, {1<<32 - 1, 1 << 31, 0}} {
		if got := Below(tc.x, tc.t); got != tc.want {
			t.Errorf("Below(%d, %d) = %v, want %v", tc.x, tc.t, got, tc.want)
		}
	}
}

// TestShortOperandsRefused gives kernels an operand one value shorter than
// they read, with capacity to spare behind it: each must refuse it rather
// than read or write what the capacity holds past the operand's length.
func TestShortOperandsRefused(t *testing.T) {
	short := func(n int) []float64 { return make([]float64, n-1, n+8) }
	full := func(n int) []float64 { return make([]float64, n) }
	const n, k, m = 5, 9, 7
	g := adjacencyOf(n, []int32{0, 1, 2, 1}, []int32{1, 2, 3, 3})
	ptr, col, val := []int{0, 1, 1, 3, 4, 6}, []int32{2, 0, 8, 4, 1, 5}, full(6)
	for _, tc := range []struct {
		name string
		run  func()
	}{
		{"MulABT c", func() { MulABT(short(n*m), full(n*k), full(m*k), n, k, m) }},
		{"MulABT b", func() { MulABT(full(n*m), full(n*k), short(m*k), n, k, m) }},
		{"AddATB c", func() { AddATB(short(m*k), full(n*m), full(n*k), n, m, k) }},
		{"Transpose t", func() { Transpose(short(n*m), full(n*m), n, m) }},
		{"SumRowsAdd c", func() { SumRowsAdd(short(m), full(n*m), n, m) }},
		{"Relu y", func() { Relu(short(n), full(n)) }},
		{"ReluBackward y", func() { ReluBackward(full(n), full(n), short(n)) }},
		{"MulInto m", func() { MulInto(full(n), full(n), short(n)) }},
		{"Blend y", func() { Blend(full(n), full(n), short(n), 1, 1) }},
		{"AddTo v", func() { AddTo(full(n), short(n)) }},
		{"Dot b", func() { Dot(full(n), short(n)) }},
		{"Sigmoids keep", func() { Sigmoids(full(n), full(n), short(n)) }},
		{"Exps src", func() { Exps(full(n), short(n)) }},
		{"ELUGrad y", func() { ELUGrad(full(n), full(n), short(n)) }},
		{"AddRows c", func() { AddRows(short(n*m), full(m), n, m) }},
		{"SumRowsAdd a", func() { SumRowsAdd(full(m), short(n*m), n, m) }},
		{"MulPair a1", func() { MulPair(full(m), full(m), full(k), short(k), full(m*k), nil, nil) }},
		{"MulPair c1", func() { MulPair(full(m), short(m), full(k), full(k), full(m*k), nil, nil) }},
		{"MulPair b", func() { MulPair(full(m), full(m), full(k), full(k), short(m*k), nil, nil) }},
		{"MulRow b", func() { MulRow(full(m), full(k), short(m*k), nil) }},
		{"MulQuadRows c", func() {
			MulQuadRows([4][]float64{full(m), short(m), full(m), full(m)}, [4][]float64{full(k), full(k), full(k), full(k)}, full(k*m), nil, k, m, false)
		}},
		{"MulQuadRows a", func() {
			MulQuadRows([4][]float64{full(m), full(m), full(m), full(m)}, [4][]float64{full(k), full(k), short(k), full(k)}, full(k*m), nil, k, m, false)
		}},
		{"AddATBBlocks c", func() { AddATBBlocks(short(m*64), full(n*m), full(n*64), n, m, 64, 0, 2) }},
		{"AddATBBlocks b", func() { AddATBBlocks(full(m*64), full(n*m), short(n*64), n, m, 64, 0, 2) }},
		{"OutputBackward h", func() { OutputBackward(full(32), full(1), full(32), full(32), full(n*32), short(n*32), full(n), 32, n) }},
		{"OutputBackward wGrad", func() { OutputBackward(short(32), full(1), full(32), full(32), full(n*32), full(n*32), full(n), 32, n) }},
		{"Propagation.Rows y", func() {
			g := newPropagation(rand.New(rand.NewPCG(1, 2)), n, []int32{0, 1}, []int32{1, 2})
			h := full(n * m)
			g.Rows(short(n*m), h, m, 0, n, g.Pad(h, m))
		}},
		{"Propagation.Rows h", func() {
			g := newPropagation(rand.New(rand.NewPCG(1, 2)), n, []int32{0, 1}, []int32{1, 2})
			g.Rows(full(n*m), short(n*m), m, 0, n, nil)
		}},
		{"MulQuadRows bt", func() {
			MulQuadRows([4][]float64{full(m), full(m), full(m), full(m)}, [4][]float64{full(k), full(k), full(k), full(k)}, short(k*m), nil, k, m, false)
		}},
		{"MulABTKept c", func() { MulABTKept(short(n*m), full(n*k), full(m*k), nil, nil, full(n), n, k, m, false) }},
		{"MulABTKept keep", func() { MulABTKept(full(n*m), full(n*k), full(m*k), nil, nil, short(n), n, k, m, false) }},
		{"NormForward coef", func() {
			NormForward(full(n), full(n), full(n), short(g.e), full(g.e), n, g.e, g.rowPtr, g.eid, g.src, g.dst)
		}},
		{"NormForward r", func() {
			NormForward(full(n), short(n), full(n), full(g.e), full(g.e), n, g.e, g.rowPtr, g.eid, g.src, g.dst)
		}},
		{"NormBackward gR", func() {
			NormBackward(full(g.e), short(n), full(n), full(g.e), full(n), full(g.e), n, g.e, g.src, g.dst)
		}},
		{"NormBackward w", func() {
			NormBackward(full(g.e), full(n), full(n), full(g.e), full(n), short(g.e), n, g.e, g.src, g.dst)
		}},
		{"CoefGrads gw", func() { CoefGrads(full(n), short(g.e), full(g.e), full(n), full(g.e), n, g.e, g.src, g.dst) }},
		{"AccumulateEdges gCoef", func() { AccumulateEdges(short(g.e), full(n*m), full(n*m), n, m, 0, g.e, g.src, g.dst) }},
		{"AccumulateEdges h", func() { AccumulateEdges(full(g.e), full(n*m), short(n*m), n, m, 0, g.e, g.src, g.dst) }},
		{"AccumulateSelf dy", func() { AccumulateSelf(full(n), short(n*m), full(n*m), n, m) }},
		{"PropagateDots y", func() {
			PropagateDots(short(n*m), full(n*m), full(n*m), n, m, 0, n, g.rowPtr, g.col, g.eid, full(g.e), full(n), full(2*g.e), full(n))
		}},
		{"PropagateDots gSelf", func() {
			PropagateDots(full(n*m), full(n*m), full(n*m), n, m, 0, n, g.rowPtr, g.col, g.eid, full(g.e), full(n), full(2*g.e), short(n))
		}},
		{"CombineDots gCoef", func() { CombineDots(short(g.e), full(2*g.e), g.atSrc, g.atDst, 0, g.e) }},
		{"SpMulABT c", func() { SpMulABT(short(n*m), ptr, col, val, k, 0, n, full(k*m), m) }},
		{"SpMulABT bt", func() { SpMulABT(full(n*m), ptr, col, val, k, 0, n, short(k*m), m) }},
		{"SpAccumATBCols ct", func() { SpAccumATBCols(short(k*m), full(n*m), ptr, col, val, k, 0, n, m, 0, m) }},
		{"SpAccumATBCols a", func() { SpAccumATBCols(full(k*m), short(n*m), ptr, col, val, k, 0, n, m, 0, m) }},
		{"AddTransposed ct", func() { AddTransposed(full(m*k), short(k*m), m, k) }},
		{"Pathfinder1Forward h", func() {
			Pathfinder1Forward(short(n*8), full(n), full(n), full(n*k), full(k*8), full(8), full(8), 0.5, nil, 0, n, k, 8)
		}},
		{"Pathfinder1Forward keep", func() {
			Pathfinder1Forward(full(n*8), full(n), full(n), full(n*k), full(k*8), full(8), full(8), 0.5, short(n), 0, n, k, 8)
		}},
		{"Pathfinder1Backward gw1", func() {
			Pathfinder1Backward(short(8*k), full(8), full(8), full(1), full(n), full(n), full(n*8), full(n*k), full(8), 0, n, k, 8, 0, 8)
		}},
		{"Pathfinder1Backward z", func() {
			Pathfinder1Backward(full(8*k), full(8), full(8), full(1), full(n), full(n), full(n*8), short(n*k), full(8), 0, n, k, 8, 0, 8)
		}},
		{"Pathfinder1Backward odd hidden units", func() {
			Pathfinder1Backward(full(8*k), full(8), full(8), full(1), full(n), full(n), full(n*8), full(n*k), full(8), 0, n, k, 8, 1, 8)
		}},
		{"Pathfinder1Backward hidden units past nh", func() {
			Pathfinder1Backward(full(8*k), full(8), full(8), full(1), full(n), full(n), full(n*8), full(n*k), full(8), 0, n, k, 8, 0, 10)
		}},
		{"AdamStep v", func() { AdamStep(full(n), full(n), full(n), short(n), 0, 0.9, 0.1, 0.999, 0.001, 0.01, 1, 1e-8) }},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: an operand one short was taken", tc.name)
				}
			}()
			tc.run()
		}()
	}
}
