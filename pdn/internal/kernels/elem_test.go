package kernels

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"pdnexplorer/internal/fmath"
)

// specials are the values elementwise kernels must treat as their scalar
// loops do: zeros of both signs, NaNs of both signs, infinities, the
// smallest subnormal and the largest finite value.
var specials = []float64{0, math.Copysign(0, -1), math.NaN(), -math.NaN(), math.Inf(1), math.Inf(-1),
	math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, math.MaxFloat64, -math.MaxFloat64}

// elementwiseInput returns n values: normal draws with the specials spread
// among them, so that every lane position meets each.
func elementwiseInput(rnd *rand.Rand, n int) []float64 {
	x := randSlice(rnd, n, 3)
	for i := range x {
		if rnd.IntN(4) == 0 {
			x[i] = specials[rnd.IntN(len(specials))]
		}
	}
	return x
}

// TestElementwiseKeepsTheBits checks each elementwise kernel against the
// scalar operation it stands for, entry by entry, bit for bit, over
// lengths that leave tails of every size.
func TestElementwiseKeepsTheBits(t *testing.T) { eachWidth(t, testElementwiseKeepsTheBits) }

func testElementwiseKeepsTheBits(t *testing.T) {
	rnd := rand.New(rand.NewPCG(12, 1))
	for n := 0; n <= 41; n++ {
		x, y := elementwiseInput(rnd, n), elementwiseInput(rnd, n)
		for _, tc := range []struct {
			name   string
			kernel func(out []float64)
			want   func(i int) float64
		}{
			{"mulInto", func(out []float64) { MulInto(out, x, y) }, func(i int) float64 { return x[i] * y[i] }},
			{"addTo", func(out []float64) { copy(out, x); AddTo(out, y) }, func(i int) float64 { return x[i] + y[i] }},
			{"relu", func(out []float64) { Relu(out, x) }, func(i int) float64 { return ReluOf(x[i]) }},
			{"reluBackward", func(out []float64) { ReluBackward(out, x, relu1(y)) }, func(i int) float64 { return GateOn(x[i], ReluOf(y[i])) }},
			{"exps", func(out []float64) { Exps(out, x) }, func(i int) float64 { return fmath.Exp(x[i]) }},
			{"blend", func(out []float64) { Blend(out, x, y, 0.9, 0.1) }, func(i int) float64 { return float64(0.9*x[i]) + float64(0.1*y[i]) }},
			{"blend in place", func(out []float64) { copy(out, x); Blend(out, out, y, 1, 0.1) }, func(i int) float64 { return x[i] + float64(0.1*y[i]) }},
			{"scale", func(out []float64) { Scale(out, x, 0.9) }, func(i int) float64 { return 0.9 * x[i] }},
		} {
			got := make([]float64, n)
			tc.kernel(got)
			for i, g := range got {
				w := tc.want(i)
				if math.Float64bits(g) != math.Float64bits(w) {
					t.Fatalf("%s, n=%d, entry %d of (%v, %v): %v (%#x), want %v (%#x)", tc.name, n, i, x[i], y[i], g, math.Float64bits(g), w, math.Float64bits(w))
				}
			}
		}
	}
}

// relu1 is Relu(x) in a new slice.
func relu1(x []float64) []float64 {
	y := make([]float64, len(x))
	Relu(y, x)
	return y
}

// TestSumRowsAddKeepsTheBits checks the bias gradient's column sums, held
// in vectors (up to 16 columns, or with AVX-512 any multiple of eight),
// against sums down the rows in order.
func TestSumRowsAddKeepsTheBits(t *testing.T) { eachWidth(t, testSumRowsAddKeepsTheBits) }

func testSumRowsAddKeepsTheBits(t *testing.T) {
	rnd := rand.New(rand.NewPCG(12, 2))
	for _, m := range []int{1, 3, 4, 8, 12, 16, 20, 24, 32, 33, 40, 64, 72} {
		n := 29
		a, c := randSlice(rnd, n*m, 1e3), randSlice(rnd, m, 1)
		want := append([]float64(nil), c...)
		for i := 0; i < n; i++ {
			for j := range want {
				want[j] += a[i*m+j]
			}
		}
		SumRowsAdd(c, a, n, m)
		sameBits(t, c, want)
	}
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
			want[i] = eluOf(v)
		}
		ELU(got, x)
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
		y[i] = eluOf(v)
	}
	g := randSlice(rnd, len(x), 1)
	want := append([]float64(nil), g...)
	for i, v := range x {
		if v <= 0 {
			want[i] *= y[i] + 1
		}
	}
	ELUGrad(g, x, y)
	sameBits(t, g, want)
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
		Sigmoids(w, s, keep)
		sameBits(t, w, want)
	}
}

// eluOf is ELU of one value: x above 0, else Exp(x) − 1.
func eluOf(x float64) float64 {
	if x > 0 {
		return x
	}
	return fmath.Exp(x) - 1
}
