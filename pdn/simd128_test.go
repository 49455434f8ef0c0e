//go:build js && wasm && simd128 && !purego

package pdn

import (
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/pdn/internal/kernels"
)

// setSIMD128 turns the kernels on (where they loaded) or off, for tests
// that compare the two paths.
func setSIMD128(on bool) { kernels.SetSIMD128(on) }

// These tests run under Node with the kernels linked (make test-wasm, or
// go test -tags simd128 -exec scripts/kernels-exec with PDN_KERNELS set);
// the golden and zoo digests then check whole runs, these each of the
// engine's passes with the kernels and without (each kernel's own row
// in pdn/internal/kernels checks it on awkward values between guard bands).

func TestKernelsLoaded(t *testing.T) {
	if !kernels.SIMD128() {
		t.Fatal("the SIMD kernels did not load: run with scripts/kernels-exec and PDN_KERNELS naming kernels.wasm")
	}
}

// both runs f with the Go loops, then with the kernels, and fails unless
// every value it returns has the same bits (any NaN matches any NaN:
// WebAssembly does not fix a NaN's payload).
func both(t *testing.T, name string, f func() [][]float64) {
	t.Helper()
	setSIMD128(false)
	want := f()
	setSIMD128(true)
	got := f()
	for i := range want {
		if len(got[i]) != len(want[i]) {
			t.Fatalf("%s: output %d has %d values, want %d", name, i, len(got[i]), len(want[i]))
		}
		for j, w := range want[i] {
			g := got[i][j]
			if math.Float64bits(g) != math.Float64bits(w) && !(g != g && w != w) {
				t.Fatalf("%s: output %d[%d] = %v (%#x), Go loops %v (%#x)", name, i, j, g, math.Float64bits(g), w, math.Float64bits(w))
			}
		}
	}
}

// awkward returns n values drawn to catch a kernel that reorders a sum or
// mishandles a special value: wide magnitudes, exact zeros of both signs,
// runs of zeros (add_atb skips four), and, with specials, NaN, ±Inf and
// subnormals.
func awkward(rnd *rand.Rand, n int, specials bool) []float64 {
	out := make([]float64, n)
	for i := range out {
		switch r := rnd.IntN(20); {
		case r < 3:
			out[i] = 0
		case r == 3:
			out[i] = math.Copysign(0, -1)
		case r == 4 && specials:
			out[i] = []float64{math.NaN(), math.Inf(1), math.Inf(-1), 5e-324, -2.5e-310}[rnd.IntN(5)]
		default:
			out[i] = (rnd.Float64() - 0.5) * math.Pow(2, float64(rnd.IntN(40)-20))
		}
	}
	if n >= 8 { // four zeros in a row, aligned, for add_atb's skip
		clear(out[:4])
	}
	return out
}

func TestKernelsMatchGoLoops(t *testing.T) {
	defer func() { setSIMD128(true) }()
	rnd := rand.New(rand.NewPCG(7, 8))
	var pc *pacer
	for _, sh := range []struct{ n, k, m int }{{1, 1, 1}, {5, 3, 1}, {9, 11, 16}, {13, 16, 1}, {7, 4, 32}, {12, 32, 4}, {6, 7, 9}, {4, 33, 17}} {
		n, k, m := sh.n, sh.k, sh.m
		for _, specials := range []bool{false, true} {
			a, b := awkward(rnd, n*k, specials), awkward(rnd, m*k, specials)
			bias, keep := awkward(rnd, m, specials), awkward(rnd, n, false)
			both(t, "mulABT", func() [][]float64 {
				c := make([]float64, n*m)
				pc.mulABT(c, a, b, n, k, m)
				return [][]float64{c}
			})
			both(t, "mulABTKept", func() [][]float64 {
				c := awkward(rand.New(rand.NewPCG(1, 1)), n*m, false)
				pc.mulABTKept(c, a, b, bias, keep, n, k, m, false)
				return [][]float64{c}
			})
			gy, x := awkward(rnd, n*m, specials), awkward(rnd, n*k, specials)
			both(t, "addATB", func() [][]float64 {
				c := awkward(rand.New(rand.NewPCG(2, 2)), m*k, false)
				pc.addATB(c, gy, x, n, m, k)
				return [][]float64{c}
			})
			both(t, "sumRowsAdd", func() [][]float64 {
				c := awkward(rand.New(rand.NewPCG(3, 3)), m, false)
				kernels.SumRowsAdd(c, gy, n, m)
				return [][]float64{c}
			})
			both(t, "addRows", func() [][]float64 {
				c := append([]float64(nil), gy...)
				kernels.AddRows(c, bias, n, m)
				return [][]float64{c}
			})
			both(t, "transpose", func() [][]float64 {
				tt := make([]float64, n*k)
				kernels.Transpose(tt, x, n, k)
				return [][]float64{tt}
			})
			both(t, "relu, reluBackward, mulInto", func() [][]float64 {
				y := make([]float64, len(x))
				kernels.Relu(y, x)
				dx := make([]float64, len(x))
				kernels.ReluBackward(dx, a[:len(x)], y)
				z := make([]float64, len(x))
				kernels.MulInto(z, x, a[:len(x)])
				return [][]float64{y, dx, z}
			})
		}
	}
	g := kernelGraph(t, rnd)
	for _, m := range []int{1, 3, 4, 16, 32, 33} {
		h, dy := awkward(rnd, g.N*m, false), awkward(rnd, g.N*m, false)
		w := make([]float64, g.E())
		for e := range w {
			w[e] = rnd.Float64()
		}
		both(t, "norm, propagate, accumulate", func() [][]float64 {
			nm := newGCNNorm(newAdjacency(g.N, g.Src, g.Dst))
			nm.forward(w)
			y := make([]float64, g.N*m)
			nm.propagate(y, h, m)
			y2 := make([]float64, g.N*m)
			nm.propagateAccumulate(y2, dy, h, m)
			gCoef := append([]float64(nil), nm.gCoef...)
			nm.accumulate(dy, h, m)
			gw := make([]float64, g.E())
			nm.backward(gw)
			return [][]float64{nm.Coef, nm.Self, y, y2, gCoef, nm.gCoef, nm.gSelf, gw}
		})
		wt := awkward(rnd, g.F*m, false)
		both(t, "sparse products", func() [][]float64 {
			c := make([]float64, g.N*m)
			pc.xMulWT(c, nil, g.XS, wt, make([]float64, g.F*m), g.N, g.F, m)
			gw := make([]float64, m*g.F)
			pc.addGTX(gw, dy, nil, g.XS, nil, make([]float64, g.F*m), g.N, m, g.F)
			gwT := make([]float64, m*g.F)
			pc.addGTX(gwT, dy, nil, g.XS, new(transposed), make([]float64, g.F*m), g.N, m, g.F)
			return [][]float64{c, gw, gwT}
		})
	}
	for _, hidden := range [][]int{{16}, {8}, {24}, {12}, {32, 16}, nil} {
		for _, extreme := range []bool{false, true} {
			both(t, "pathfinder", func() [][]float64 {
				z := awkward(rand.New(rand.NewPCG(4, 4)), g.E()*g.D, false)
				if extreme { // sigmoid's ends: exp's Ldexp path and its underflow
					for i := range z {
						z[i] *= 1e4
					}
				}
				p := newPathfinder(rand.New(rand.NewPCG(5, 5)), z, g.E(), g.D, hidden, "uniform")
				keep := awkward(rand.New(rand.NewPCG(6, 6)), g.E(), false)
				w := append([]float64(nil), p.forwardKept(keep)...)
				p.backward(awkward(rand.New(rand.NewPCG(7, 7)), g.E(), false))
				out := [][]float64{w, append([]float64(nil), p.forward()...)}
				for _, ps := range p.params() {
					out = append(out, ps.grad)
				}
				return out
			})
		}
	}
	both(t, "adam", func() [][]float64 {
		r := rand.New(rand.NewPCG(9, 9))
		ps := []*tensor{newTensor(37), newTensor(5)}
		for _, p := range ps {
			p.val, p.grad = awkward(r, len(p.val), false), awkward(r, len(p.grad), false)
		}
		a := newAdam(ps, 0.01, 5e-3)
		a.step()
		a.step()
		return [][]float64{ps[0].val, ps[1].val, a.mom[0], a.second[0]}
	})
}

// kernelGraph is a small graph with sparse features and every degree
// from 0 up, for the graph kernels.
func kernelGraph(t *testing.T, rnd *rand.Rand) *datasets.Graph {
	t.Helper()
	const n = 61
	g := &datasets.Graph{N: n, F: 23, D: 3, C: 2, Labels: make([]int, n), Splits: make([]datasets.Split, n)}
	seen := map[[2]int32]bool{}
	for len(g.Src) < 400 {
		u, v := rnd.Int32N(n-1), rnd.Int32N(n-1) // node n-1 stays alone
		if u == v || seen[[2]int32{min(u, v), max(u, v)}] {
			continue
		}
		seen[[2]int32{min(u, v), max(u, v)}] = true
		g.Src, g.Dst = append(g.Src, u), append(g.Dst, v)
	}
	g.EdgeX = awkward(rnd, len(g.Src)*g.D, false)
	x := make([]float64, n*g.F)
	for i := range x {
		if rnd.IntN(4) == 0 {
			x[i] = rnd.Float64()
		}
	}
	g.XS = datasets.SparseOf(x, n, g.F)
	return g
}

// The kernels' dropout draws are math/rand/v2's PCG's, and leave its state
// where the Go loop leaves it.
func TestKernelsDrawAsPCG(t *testing.T) {
	defer func() { setSIMD128(true) }()
	for _, n := range []int{1, 2, 7, 1000, 1001} {
		var masks [2][]float64
		var next [2]uint64
		for i, on := range []bool{false, true} {
			setSIMD128(on)
			d := newDropout(0.3, n)
			d.reseed(42)
			d.draw(n)
			d.draw(n)
			masks[i], next[i] = d.mask, d.rnd.Uint64()
		}
		for j := range masks[0] {
			if masks[0][j] != masks[1][j] {
				t.Fatalf("n = %d: mask[%d] = %v, Go's draw %v", n, j, masks[1][j], masks[0][j])
			}
		}
		if next[0] != next[1] {
			t.Fatalf("n = %d: the stream goes on at %#x, Go's at %#x", n, next[1], next[0])
		}
	}
}

// Under PDN_SHARED=1 (make test-wasm's shared run: the binary on a shared
// memory, kernels-threads.wasm linked, helpers as Node worker threads) the
// products split into pieces run on the kernels' pool, helpers included,
// and the golden runs end at their digests at 2 to 4 threads. Elsewhere
// there is no pool to test.
func TestPoolRunsOnHelpersWithTheBits(t *testing.T) {
	if os.Getenv("PDN_SHARED") != "1" {
		t.Skip("no shared memory: PDN_SHARED=1 runs it (make test-wasm)")
	}
	defer func(n int, w float64) { threads, minSplitWork = n, w }(threads, minSplitWork)
	minSplitWork = 0
	before := kernels.PoolHelped()
	for _, n := range []int{2, 3, 4} {
		threads = n
		checkPin(t, "golden", goldenRun(t, experiment.Default().Model.EdgeDrop, false, ""))
		checkPin(t, "sparse", goldenRun(t, experiment.Default().Model.EdgeDrop, true, ""))
	}
	if !kernels.Pooled(4) || kernels.PoolHelpers() < 3 {
		t.Fatalf("the pool has %d helpers, want 3 or more", kernels.PoolHelpers())
	}
	if kernels.PoolHelped() == before {
		t.Error("the helpers ran no piece: every product ran on this thread")
	}
	t.Logf("%d helpers ran %d pieces", kernels.PoolHelpers(), kernels.PoolHelped()-before)
}

// UseThreads gives a run the threads it asked for where the pool has
// them, counting the helpers that started, and one thread where it has
// none (the worker of a page that is not cross-origin isolated).
func TestUseThreadsCountsTheHelpers(t *testing.T) {
	defer SetThreads(SetThreads(1))
	shared := os.Getenv("PDN_SHARED") == "1"
	for _, n := range []int{0, 1, 2, 3, 4} {
		want := 1
		if shared && n > 1 {
			want = n
		}
		if got := UseThreads(n); got != want || Threads() != want {
			t.Errorf("UseThreads(%d) = %d (Threads %d), want %d (shared memory: %v)", n, got, Threads(), want, shared)
		}
	}
}
