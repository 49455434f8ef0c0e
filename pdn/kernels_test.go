package pdn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"pdnexplorer/datasets"
	"pdnexplorer/pdn/internal/kernels"
)

// The sparse kernels against the dense ones: X·Wᵀ to the bit (the dense sum
// adds the same non-zero products in the same order), gᵀ·X to rounding, in
// blocks of any size.
func TestSparseKernelsAgainstDense(t *testing.T) {
	for _, s := range []struct{ n, k, m, block int }{{1, 1, 1, 0}, {3, 5, 7, 0}, {8, 32, 16, 0}, {9, 16, 3, 4}, {13, 40, 8, 8}} {
		t.Run(fmt.Sprintf("%dx%dx%d", s.n, s.k, s.m), func(t *testing.T) {
			rnd := rand.New(rand.NewPCG(uint64(s.n), 77))
			x := randSlice(rnd, s.n*s.k, 1)
			for i := range x {
				if rnd.IntN(4) != 0 {
					x[i] = 0
				}
			}
			sx := datasets.SparseOf(x, s.n, s.k)
			w := randSlice(rnd, s.m*s.k, 1)
			g := randSlice(rnd, s.n*s.m, 1)
			var pc *pacer
			if s.block > 0 {
				pc = &pacer{on: true, block: float64(s.block * s.m), fn: func(float64) {}}
			}
			want, got := make([]float64, s.n*s.m), make([]float64, s.n*s.m)
			kernels.MulABT(want, x, w, s.n, s.k, s.m)
			pc.xMulWT(got, nil, sx, w, make([]float64, s.k*s.m), s.n, s.k, s.m)
			for i := range want {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
					t.Fatalf("x·Wᵀ entry %d: %v, dense %v", i, got[i], want[i])
				}
			}
			wantG, gotG := make([]float64, s.m*s.k), make([]float64, s.m*s.k)
			for i := range wantG {
				wantG[i], gotG[i] = 0.5, 0.5
			}
			kernels.AddATB(wantG, g, x, s.n, s.m, s.k)
			pc.addGTX(gotG, g, nil, sx, nil, make([]float64, s.k*s.m), s.n, s.m, s.k)
			closeAll(t, "gᵀ·X", gotG, wantG, 1e-13)
			// Through Xᵀ (twice: built, then reused with new values),
			// the same bits as over X's rows.
			var xt transposed
			for range 2 {
				for i := range sx.Val {
					sx.Val[i] *= -0.75
				}
				xt.changed()
				over, through := slices.Repeat([]float64{0.5}, s.m*s.k), slices.Repeat([]float64{0.5}, s.m*s.k)
				pc.addGTX(over, g, nil, sx, nil, make([]float64, s.k*s.m), s.n, s.m, s.k)
				pc.addGTX(through, g, nil, sx, &xt, make([]float64, s.k*s.m), s.n, s.m, s.k)
				for i := range over {
					if math.Float64bits(through[i]) != math.Float64bits(over[i]) {
						t.Fatalf("gᵀ·X entry %d through Xᵀ: %v, over X's rows %v", i, through[i], over[i])
					}
				}
			}
		})
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

// withZeros returns n normal draws, a quarter of them ±0 and runs of four
// zeros at every sixteenth place: the groups of four a fold skips.
func withZeros(rnd *rand.Rand, n int) []float64 {
	out := randSlice(rnd, n, 1)
	for i := range out {
		switch {
		case i%16 < 4 && i%64 < 16:
			out[i] = 0
		case rnd.IntN(8) == 0:
			out[i] = math.Copysign(0, -1)
		case rnd.IntN(8) == 0:
			out[i] = 0
		}
	}
	return out
}

// The fused pathfinder (kernels.Pathfinder1Forward and Backward, which
// kernels.wasm runs in the worker) against the layers' own passes, in
// every build: the edge weights, the activations and every gradient to
// the bit, with and without DropEdge's mask, in blocks of edges or in
// one, for hidden layers the fused kernels take and others.
func TestFusedPathfinderIsItsLayers(t *testing.T) {
	eachWidth(t, func(t *testing.T) {
		const rows, d = 203, 5
		for _, hidden := range []int{8, 16, 24, 64, 12, 3} {
			for _, block := range []float64{0, 40 * (d + 1) * float64(hidden)} {
				rnd := rand.New(rand.NewPCG(uint64(hidden), 3))
				z, keep, gw := withZeros(rnd, rows*d), withZeros(rnd, rows), withZeros(rnd, rows)
				var pc *pacer
				if block > 0 {
					pc = &pacer{on: true, block: block, fn: func(float64) {}}
				}
				run := func(fused bool) [][]float64 {
					p := newPathfinder(rand.New(rand.NewPCG(5, 5)), z, rows, d, []int{hidden}, "uniform")
					p.setPacer(pc)
					var w []float64
					for range 2 { // the second pass adds to the gradients of the first
						if fused {
							w = slices.Clone(p.forwardFused(keep))
							p.backwardFused(gw)
						} else {
							w = slices.Clone(p.forwardLayers(keep))
							p.backwardLayers(gw)
						}
					}
					out := [][]float64{w, p.acts[1], p.acts[2]}
					for _, ps := range p.params() {
						out = append(out, ps.grad)
					}
					return out
				}
				want, got := run(false), run(true)
				for i := range want {
					t.Run(fmt.Sprintf("hidden %d, block %v, output %d", hidden, block, i), func(t *testing.T) {
						sameBits(t, got[i], want[i])
					})
				}
			}
		}
	})
}

// The fused backward pass of Â (kernels.PropagateDots and CombineDots,
// which kernels.wasm runs in the worker) against propagate and
// accumulate, in every build: y, ∂L/∂coef and ∂L/∂self to the bit, in
// blocks or in one.
func TestFusedDotsAreAccumulate(t *testing.T) {
	eachWidth(t, func(t *testing.T) {
		rnd := rand.New(rand.NewPCG(8, 1))
		const n = 97
		src, dst := unevenEdges(rnd, n, 11)
		w := withZeros(rnd, len(src))
		for _, m := range []int{1, 2, 3, 4, 5, 8, 16, 33} {
			h, dy := withZeros(rnd, n*m), withZeros(rnd, n*m)
			for _, block := range []float64{0, 300} {
				var pc *pacer
				if block > 0 {
					pc = &pacer{on: true, block: block, fn: func(float64) {}}
				}
				run := func(fused bool) [][]float64 {
					g := newGCNNorm(newAdjacency(n, src, dst))
					g.pc = pc
					g.forward(w)
					y, y2 := make([]float64, n*m), make([]float64, n*m)
					if fused { // two layers' passes, the second adding to the first's gradients
						g.propagateDots(y, dy, h, m)
						g.propagateDots(y2, h, dy, m)
					} else {
						g.propagate(y, dy, m)
						g.accumulate(dy, h, m)
						g.propagate(y2, h, m)
						g.accumulate(h, dy, m)
					}
					return [][]float64{y, y2, g.gCoef, g.gSelf}
				}
				want, got := run(false), run(true)
				for i, what := range []string{"y", "y2", "gCoef", "gSelf"} {
					t.Run(fmt.Sprintf("m=%d, block %v, %s", m, block, what), func(t *testing.T) {
						sameBits(t, got[i], want[i])
					})
				}
			}
		}
	})
}

// A product over the rows of a sparse matrix is cut by their work: with
// one row ten times as heavy as the rest (a text's commonest word, a
// hub's neighbours), each piece of four holds about a quarter of the
// work, where cut by the rows' count the first held most. A pace's blocks
// are cut the same way, each one row at least. Both forms of rows, a
// CSR's and an adjacency's (a node and its neighbours), are cut so.
func TestSparseRowsCutByTheirWork(t *testing.T) {
	ptr, ptr32 := []int{0}, []int32{0}
	for i := range 40 {
		n := 1
		if i < 4 {
			n = 10
		}
		ptr, ptr32 = append(ptr, ptr[i]+n), append(ptr32, ptr32[i]+int32(n))
	}
	for _, w := range []rowWork{{ptr: ptr, unit: 1}, {ptr32: ptr32, self: 1, unit: 2}} {
		j := &job{rows: w}
		total := w.at(40)
		for q := range 4 {
			lo, hi := j.cut(q, 4, 40), j.cut(q+1, 4, 40)
			if got := w.at(hi) - w.at(lo); got < total/4-11*w.unit || got > total/4+11*w.unit {
				t.Errorf("%+v: piece %d of 4 holds rows [%d, %d): work %v of %v", w, q, lo, hi, got, total)
			}
		}
		pc := &pacer{on: true, block: 20 * w.unit}
		for lo := 0; lo < 40; {
			hi := pc.blockEndRows(lo, 40, w)
			if hi <= lo || (hi-lo > 1 && w.at(hi)-w.at(lo) > pc.block) {
				t.Fatalf("%+v: the block from row %d ends at %d: work %v, for blocks of %v", w, lo, hi, w.at(hi)-w.at(lo), pc.block)
			}
			lo = hi
		}
	}
}

// Every job over the rows of a sparse matrix is made by newRowsJob, so
// that it is cut by its rows' work: a job of one of the sparse rows'
// kernels made by newJob, its rows cut by their count, fails here.
func TestSparseRowsAreCutByTheirWork(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	bare := regexp.MustCompile(`newJob\((spMulABTRows|propagateRowsJob|propagateDotsJob)\)`)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range bare.FindAll(b, -1) {
			t.Errorf("%s: %s: a job over sparse rows made by newJob, cut by their count; use newRowsJob", f, m)
		}
	}
}
