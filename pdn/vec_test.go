package pdn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestVectorsKeepTheBits checks the products that take the AVX2 paths
// when built with GOEXPERIMENT=simd (the Makefile's native build) against
// the scalar order of summation, bit for bit: mulABT with bᵀ and a bias,
// over widths that use the 16- and 4-column blocks and the scalar tail, and
// addATB's two-row fold. Built without the experiment it checks the scalar
// paths, which must agree just the same.
func TestVectorsKeepTheBits(t *testing.T) {
	t.Logf("vectors: %v", vectors)
	for _, s := range []struct{ n, k, m int }{{2, 8, 16}, {5, 32, 16}, {4, 9, 20}, {3, 128, 32}, {6, 12, 37}, {2, 8, 5}, {7, 16, 1}} {
		t.Run(fmt.Sprintf("mulABT %dx%dx%d", s.n, s.k, s.m), func(t *testing.T) {
			rnd := rand.New(rand.NewPCG(uint64(s.k), uint64(s.m)))
			a, b, bias := randSlice(rnd, s.n*s.k, 1), randSlice(rnd, s.m*s.k, 1), randSlice(rnd, s.m, 1)
			a[0] = 0 // a product of −0 sums from +0
			want := make([]float64, s.n*s.m)
			for i := 0; i < s.n; i++ {
				for j := 0; j < s.m; j++ {
					var sum float64
					for p := 0; p < s.k; p++ {
						sum += float64(a[i*s.k+p] * b[j*s.k+p])
					}
					want[i*s.m+j] = sum + bias[j]
				}
			}
			bt, buf := transposedForVectors(b, s.m, s.k)
			defer releaseTransposed(buf)
			got := make([]float64, s.n*s.m)
			for i := 0; i+2 <= s.n; i += 2 {
				mulPair(got[i*s.m:(i+1)*s.m], got[(i+1)*s.m:(i+2)*s.m], a[i*s.k:(i+1)*s.k], a[(i+1)*s.k:(i+2)*s.k], b, bt, bias)
			}
			if s.n%2 == 1 {
				i := s.n - 1
				mulRow(got[i*s.m:(i+1)*s.m], a[i*s.k:(i+1)*s.k], b, bias)
			}
			sameBits(t, got, want)
		})
	}
	for _, s := range []struct{ n, m, k int }{{8, 2, 4}, {13, 16, 32}, {9, 3, 7}, {12, 32, 128}} {
		t.Run(fmt.Sprintf("addATB %dx%dx%d", s.n, s.m, s.k), func(t *testing.T) {
			rnd := rand.New(rand.NewPCG(uint64(s.n), uint64(s.k)))
			a, b := randSlice(rnd, s.n*s.m, 1), randSlice(rnd, s.n*s.k, 1)
			for i := range a {
				if rnd.IntN(3) == 0 {
					a[i] = 0 // as ReLU leaves them
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
			addATB(got, a, b, s.n, s.m, s.k)
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
