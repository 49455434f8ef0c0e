package pdn

import (
	"math"
	"math/rand/v2"
	"testing"

	"pdnexplorer/internal/fmath"
	"pdnexplorer/pdn/internal/kernels"
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
			{"mulInto", func(out []float64) { kernels.MulInto(out, x, y) }, func(i int) float64 { return x[i] * y[i] }},
			{"addTo", func(out []float64) { copy(out, x); kernels.AddTo(out, y) }, func(i int) float64 { return x[i] + y[i] }},
			{"relu", func(out []float64) { kernels.Relu(out, x) }, func(i int) float64 { return kernels.ReluOf(x[i]) }},
			{"reluBackward", func(out []float64) { kernels.ReluBackward(out, x, relu1(y)) }, func(i int) float64 { return kernels.GateOn(x[i], kernels.ReluOf(y[i])) }},
			{"exps", func(out []float64) { exps(out, x) }, func(i int) float64 { return fmath.Exp(x[i]) }},
			{"blend", func(out []float64) { kernels.Blend(out, x, y, 0.9, 0.1) }, func(i int) float64 { return float64(0.9*x[i]) + float64(0.1*y[i]) }},
			{"blend in place", func(out []float64) { copy(out, x); kernels.Blend(out, out, y, 1, 0.1) }, func(i int) float64 { return x[i] + float64(0.1*y[i]) }},
			{"scale", func(out []float64) { kernels.Scale(out, x, 0.9) }, func(i int) float64 { return 0.9 * x[i] }},
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

// relu1 is kernels.Relu(x) in a new slice.
func relu1(x []float64) []float64 {
	y := make([]float64, len(x))
	kernels.Relu(y, x)
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
		kernels.SumRowsAdd(c, a, n, m)
		sameBits(t, c, want)
	}
}

// TestLogSoftmaxNLLKeepsTheBits checks the loss, whose exponentials are
// taken a block of rows at a time, against a row at a time, over class
// counts that fill blocks unevenly (and one wider than a block), logits
// far enough apart that some exponentials underflow, and rows in any
// order.
func TestLogSoftmaxNLLKeepsTheBits(t *testing.T) {
	eachWidth(t, func(t *testing.T) {
		rnd := rand.New(rand.NewPCG(12, 3))
		for _, c := range []int{1, 2, 3, 5, 7, 40, 300} {
			n := 300
			logits := randSlice(rnd, n*c, 10)
			for i := 0; i < len(logits); i += 97 {
				logits[i] = -800
			}
			labels := make([]int, n)
			for i := range labels {
				labels[i] = rnd.IntN(c)
			}
			rows := rnd.Perm(n)[:n-20]
			want, got := make([]float64, n*c), make([]float64, n*c)
			wl := rowByRowNLL(want, logits, c, rows, labels)
			gl := logSoftmaxNLL(got, logits, c, rows, labels)
			if math.Float64bits(gl) != math.Float64bits(wl) {
				t.Fatalf("c=%d: loss %v, want %v", c, gl, wl)
			}
			sameBits(t, got, want)
			if nl := logSoftmaxNLL(nil, logits, c, rows, labels); math.Float64bits(nl) != math.Float64bits(wl) {
				t.Fatalf("c=%d, no gradient: loss %v, want %v", c, nl, wl)
			}
		}
	})
}

// rowByRowNLL is logSoftmaxNLL one row at a time, as it is documented.
func rowByRowNLL(grad, logits []float64, c int, rows, labels []int) float64 {
	clear(grad)
	var loss float64
	inv := 1 / float64(len(rows))
	for _, i := range rows {
		z := logits[i*c : (i+1)*c]
		m := z[0]
		for _, v := range z[1:] {
			m = max(m, v)
		}
		var s float64
		for _, v := range z {
			s += fmath.Exp(v - m)
		}
		lse := m + fmath.Log(s)
		loss += lse - z[labels[i]]
		g := grad[i*c : (i+1)*c]
		for j, v := range z {
			g[j] = fmath.Exp(v-lse) * inv
		}
		g[labels[i]] -= inv
	}
	return loss * inv
}

// TestDropoutDrawKeepsTheBits checks the mask, drawn a block at a time and
// turned into floats by vectors, against the scalar draw from the same
// stream, over rates whose thresholds lie near either end and lengths that
// end inside and after a block, in both halves of a draw.
func TestDropoutDrawKeepsTheBits(t *testing.T) { eachWidth(t, testDropoutDrawKeepsTheBits) }

func testDropoutDrawKeepsTheBits(t *testing.T) {
	for _, p := range []float64{1e-12, 0.1, 0.5, 0.9, 1 - 1e-12} {
		for _, n := range []int{1, 2, 127, 128, 129, 300, 1001} {
			d := newDropout(p, n)
			d.reseed(7)
			d.draw(n)
			d.draw(n) // the second mask: the stream continues as it would
			ref := rand.NewPCG(7, streamDropout)
			keep := 1 - p
			thresh, scale := uint64(keep*(1<<32)), 1/keep
			want := make([]float64, n+1)
			for range 2 {
				for i := 0; i < n; i += 2 {
					r := ref.Uint64()
					want[i], want[i+1] = scale*kernels.Below(r&0xffffffff, thresh), scale*kernels.Below(r>>32, thresh)
				}
			}
			sameBits(t, d.mask[:n], want[:n])
		}
	}
}

// TestPCGBlockIsUint64 checks that pcgBlock gives the numbers math/rand/v2's
// PCG gives one by one, from several seeds, over blocks of several
// lengths, and leaves the source where they would.
func TestPCGBlockIsUint64(t *testing.T) {
	for _, seed := range [][2]uint64{{0, 0}, {1, 2}, {^uint64(0), ^uint64(0)}, {12345, 0x9e3779b97f4a7c15}} {
		p, q := rand.NewPCG(seed[0], seed[1]), rand.NewPCG(seed[0], seed[1])
		for _, n := range []int{4, 64, 8, 128} {
			raw := make([]uint64, n)
			pcgBlock(p, raw)
			for k, got := range raw {
				if want := q.Uint64(); got != want {
					t.Fatalf("seed %v, block of %d, number %d: %#x, want %#x", seed, n, k, got, want)
				}
			}
		}
		if got, want := p.Uint64(), q.Uint64(); got != want {
			t.Fatalf("seed %v: after the blocks, %#x, want %#x", seed, got, want)
		}
	}
}
