//go:build goexperiment.simd && amd64 && !purego

package kernels

import (
	"math"
	"math/rand/v2"
	"testing"

	"simd/archsimd"

	"pdnexplorer/internal/fmath"
)

// expLanes gives fmath.Exp's very bits, four lanes at a time (and
// expLanesWide eight, with AVX-512): over the
// range a softmax and σ use, near zero, at the edges of overflow and
// underflow, and on the special values.
func TestExpLanesKeepTheBits(t *testing.T) {
	if !Vectors() {
		t.Skip("no AVX2")
	}
	defer SetWide(SetWide(true))
	rnd := rand.New(rand.NewPCG(1, 2))
	var xs []float64
	for range 200000 {
		switch rnd.IntN(4) {
		case 0:
			xs = append(xs, (rnd.Float64()-0.5)*40)
		case 1:
			xs = append(xs, (rnd.Float64()-0.5)*1500)
		case 2:
			xs = append(xs, (rnd.Float64()-0.5)*math.Ldexp(1, -20-rnd.IntN(20)))
		default:
			xs = append(xs, -rnd.ExpFloat64()*3)
		}
	}
	xs = append(xs, 0, math.Copysign(0, -1), 1.0/(1<<28), -1.0/(1<<28), math.Nextafter(1.0/(1<<28), 0),
		709.78, 709.79, -745.13, -745.14, -708.4, -708.5, 708, math.NaN(), math.Inf(1), math.Inf(-1), 1e-300, -1e-300)
	for len(xs)%4 != 0 {
		xs = append(xs, 1)
	}
	for len(xs)%8 != 0 {
		xs = append(xs, 1)
	}
	if SetWide(true) {
		for i := 0; i < len(xs); i += 8 {
			got := make([]float64, 8)
			expLanesWide(archsimd.LoadFloat64x8Slice(xs[i:])).StoreSlice(got)
			sameExp(t, got, xs[i:i+8])
		}
	}
	for i := 0; i < len(xs); i += 4 {
		got := make([]float64, 4)
		expLanes(archsimd.LoadFloat64x4Slice(xs[i:])).StoreSlice(got)
		sameExp(t, got, xs[i:i+4])
	}
}

// sameExp fails t unless got[k] has fmath.Exp(xs[k])'s bits (any NaN for NaN).
func sameExp(t *testing.T, got, xs []float64) {
	t.Helper()
	for k, x := range xs {
		want := fmath.Exp(x)
		if math.Float64bits(got[k]) != math.Float64bits(want) && !(math.IsNaN(got[k]) && math.IsNaN(want)) {
			t.Fatalf("exp(%v): %v (%#x), want %v (%#x)", x, got[k], math.Float64bits(got[k]), want, math.Float64bits(want))
		}
	}
}

// TestTranspose8 checks the AVX-512 transpose of an 8×8 block that GAT's
// head-minor paths use, value for value.
func TestTranspose8(t *testing.T) {
	if !archsimd.X86.AVX512() {
		t.Skip("no AVX-512 here")
	}
	var s, d [64]float64
	for i := range s {
		s[i] = float64(i) + 0.5
	}
	transpose8(&d, &s)
	for r := range 8 {
		for c := range 8 {
			if d[c*8+r] != s[r*8+c] {
				t.Fatalf("d[%d][%d] = %v, want s[%d][%d] = %v", c, r, d[c*8+r], r, c, s[r*8+c])
			}
		}
	}
}
