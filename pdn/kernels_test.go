package pdn

import (
	"fmt"
	"math"
	"math/rand/v2"
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
			pc.addGTX(gotG, g, nil, sx, make([]float64, s.k*s.m), s.n, s.m, s.k)
			closeAll(t, "gᵀ·X", gotG, wantG, 1e-13)
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
