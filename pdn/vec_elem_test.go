package pdn

import (
	"math"
	"math/rand/v2"
	"testing"

	"pdnexplorer/internal/fmath"
	"pdnexplorer/pdn/internal/kernels"
)

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
