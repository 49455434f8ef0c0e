//go:build goexperiment.simd && go1.27 && !purego

package kernels

// Research for issue 13, kept runnable: Go 1.27's portable simd package
// (GOTOOLCHAIN=go1.27.0 GOEXPERIMENT=simd go test -run SIMD -bench SIMD
// ./pdn/internal/kernels/, and the same with GOOS=js GOARCH=wasm under Node). A product
// vectorised across the columns of its output keeps each entry's sum in the
// engine's order, so it gives MulABT's very bits; measured on these 2
// cores, the edge MLP's first layer (4096×128 by 32): natively 13.3 against
// 2.1 GMAC/s, in WebAssembly 2.36 against 2.21.

import (
	"simd"
	"testing"
)

// mulABTSIMD sets c (n×m) = a (n×k) · bt for bt = bᵀ (k×m), two rows and
// two vectors of columns at a time.
func mulABTSIMD(c, a, bt []float64, n, k, m int) {
	L := simd.BroadcastFloat64s(0).Len()
	for i := 0; i < n; i++ {
		ai, ci := a[i*k:(i+1)*k], c[i*m:(i+1)*m]
		j := 0
		for ; j+2*L <= m; j += 2 * L {
			var s0, s1 simd.Float64s
			for p, x := range ai {
				row := bt[p*m+j:]
				xv := simd.BroadcastFloat64s(x)
				s0 = s0.Add(xv.Mul(simd.LoadFloat64s(row)))
				s1 = s1.Add(xv.Mul(simd.LoadFloat64s(row[L:])))
			}
			s0.Store(ci[j:])
			s1.Store(ci[j+L:])
		}
		for ; j < m; j++ {
			var s float64
			for p, x := range ai {
				s += float64(x * bt[p*m+j])
			}
			ci[j] = s
		}
	}
}

func simdOperands(n, k, m int) (a, b, bt []float64) {
	a, b, bt = make([]float64, n*k), make([]float64, m*k), make([]float64, k*m)
	for i := range a {
		a[i] = float64(i%7)*0.1731 - 0.3
	}
	for i := range b {
		b[i] = float64(i%5)*0.1117 - 0.2
	}
	Transpose(bt, b, m, k)
	return a, b, bt
}

func TestSIMDKeepsTheBits(t *testing.T) {
	n, k, m := 101, 37, 13
	a, b, bt := simdOperands(n, k, m)
	want, got := make([]float64, n*m), make([]float64, n*m)
	MulABT(want, a, b, n, k, m)
	mulABTSIMD(got, a, bt, n, k, m)
	for i := range want {
		if want[i] != got[i] {
			t.Fatalf("entry %d: %v, want %v", i, got[i], want[i])
		}
	}
}

func BenchmarkSIMDEdgeLayer(b *testing.B) {
	n, k, m := 4096, 128, 32
	a, w, bt := simdOperands(n, k, m)
	c := make([]float64, n*m)
	b.SetBytes(int64(n * k * m))
	b.Run("scalar", func(b *testing.B) {
		for b.Loop() {
			MulABT(c, a, w, n, k, m)
		}
	})
	b.Run("simd", func(b *testing.B) {
		for b.Loop() {
			mulABTSIMD(c, a, bt, n, k, m)
		}
	})
}
