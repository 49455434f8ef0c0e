package kernels

import (
	"fmt"

	"pdnexplorer/internal/fmath"
)

// The pathfinder of one hidden layer (the engine's default: an MLP over
// each edge's D features z_e, nh hidden units, one output), fused into one
// pass over the edges:
//
//	h_e = ReLU(z_e·W₁ᵀ + b₁),   s_e = h_e·w₂ + b₂,   w_e = σ(s_e).
//
// Each sum is the one its layer's kernels take (MulABTBias, MulABTKept,
// Sigmoids forward; AddATB, SumRowsAdd, MulABT and ReluBackward back), in
// their order and groups, so the fused pass gives the layers' bits; it
// reads each edge's features once rather than once a layer.

// FusedPathfinder reports whether a platform path runs Pathfinder1Forward
// and Pathfinder1Backward for nh hidden units (kernels.wasm, for a
// multiple of 8 up to 64): callers take them where it does, else the
// layers' own kernels, which are faster where they have vectors. Both
// kernels are whole without it.
func FusedPathfinder(nh int) bool { return simd128 && nh%8 == 0 && nh <= 64 }

// Pathfinder1Forward is the forward pass for the edges lo..hi-1 whose keep
// is not 0 (every edge for a nil keep), d inputs and nh hidden units:
// w1t = W₁ᵀ (d×nh), b1 and w2 (nh), b2; it sets the hidden activations h
// (nh a row), the output's sums s and its sigmoid w, leaving the other
// edges' rows as they were.
func Pathfinder1Forward(h, s, w, z, w1t, b1, w2 []float64, b2 float64, keep []float64, lo, hi, d, nh int) {
	h, s, w, z = fit(h, hi*nh), fit(s, hi), fit(w, hi), fit(z, hi*d)
	w1t, b1, w2 = fit(w1t, d*nh), fit(b1, nh), fit(w2, nh)
	if keep != nil {
		keep = fit(keep, hi)
	}
	if FusedPathfinder(nh) {
		wasmPathfinder1Forward(h, s, w, z, w1t, b1, w2, b2, keep, lo, hi, d, nh)
		return
	}
	for e := lo; e < hi; e++ {
		if keep != nil && keep[e] == 0 {
			continue
		}
		ze, he := z[e*d:(e+1)*d], h[e*nh:(e+1)*nh]
		var t float64
		for j := range he {
			var a float64
			for p, x := range ze {
				a += float64(x * w1t[p*nh+j])
			}
			he[j] = ReluOf(a + b1[j])
			t += float64(he[j] * w2[j])
		}
		t += b2
		s[e], w[e] = t, fmath.Sigmoid(t)
	}
}

// Pathfinder1Backward is the backward pass for the edges lo..hi-1 from
// gw = ∂L/∂w, through the w and h the forward pass left: it adds to the
// gradients gw1 (nh×d, W₁'s layout), gb1, gw2 (nh) and gb2 (1)
//
//	g  = (gw·w)·(1 − w)          ∂w₂ += gᵀh      ∂b₂ += Σ g
//	dh = ReLU'(h) ⊙ (0 + g·w₂)   ∂W₁ += dhᵀz     ∂b₁ += Σ dh
//
// each sum over the edges as AddATB and SumRowsAdd take it: the edges
// four at a time from lo (a group whose four factors are zero skipped),
// the last hi−lo mod 4 one at a time. Over blocks of edges that start at
// multiples of 4, the gradients are the layers' own, bit for bit.
//
// Only the hidden units j0..j1-1 are taken (0 and nh for all), j0 even
// and j1 even or nh (the kernel's lanes take two units at a time): their
// entries of ∂w₂ and ∂b₁ and rows of ∂W₁, and ∂b₂ where j0 is 0. Each
// entry is its own sum over the edges, so ranges give the bits of the
// whole and can run at once. Other bounds panic, on every path alike.
func Pathfinder1Backward(gw1, gb1, gw2, gb2, gw, w, h, z, w2 []float64, lo, hi, d, nh, j0, j1 int) {
	if j0 < 0 || j1 < j0 || j1 > nh || j0%2 != 0 || (j1%2 != 0 && j1 != nh) {
		panic(fmt.Sprintf("kernels: Pathfinder1Backward: hidden units %d..%d of %d: want 0 ≤ j0 ≤ j1 ≤ nh, j0 even, j1 even or nh", j0, j1, nh))
	}
	gw1, gb1, gw2, gb2, w2 = fit(gw1, nh*d), fit(gb1, nh), fit(gw2, nh), fit(gb2, 1), fit(w2, nh)
	gw, w, h, z = fit(gw, hi), fit(w, hi), fit(h, hi*nh), fit(z, hi*d)
	if FusedPathfinder(nh) {
		wasmPathfinder1Backward(gw1, gb1, gw2, gb2, gw, w, h, z, w2, lo, hi, d, nh, j0, j1)
		return
	}
	gw2, gb1, w2 = gw2[:j1], gb1[:j1], w2[:j1]
	var buf [4 * 64]float64 // the four edges' dh
	dh := buf[:]
	if 4*nh > len(buf) {
		dh = make([]float64, 4*nh)
	}
	dh0, dh1, dh2, dh3 := dh[:nh], dh[nh:2*nh], dh[2*nh:3*nh], dh[3*nh:4*nh]
	e := lo
	for ; e+4 <= hi; e += 4 {
		// Each g rounded, as the layers store it, before a sum takes it.
		g0, g1 := float64(float64(gw[e]*w[e])*(1-w[e])), float64(float64(gw[e+1]*w[e+1])*(1-w[e+1]))
		g2, g3 := float64(float64(gw[e+2]*w[e+2])*(1-w[e+2])), float64(float64(gw[e+3]*w[e+3])*(1-w[e+3]))
		h0, h1, h2, h3 := h[e*nh:(e+1)*nh], h[(e+1)*nh:(e+2)*nh], h[(e+2)*nh:(e+3)*nh], h[(e+3)*nh:(e+4)*nh]
		if !AllZero(g0, g1, g2, g3) {
			for p := j0; p < j1; p++ {
				gw2[p] += float64(g0*h0[p]) + float64(g1*h1[p]) + float64(g2*h2[p]) + float64(g3*h3[p])
			}
		}
		if j0 == 0 {
			gb2[0] = gb2[0] + g0 + g1 + g2 + g3
		}
		for j := j0; j < j1; j++ {
			u := w2[j]
			dh0[j], dh1[j] = GateOn(0+float64(g0*u), h0[j]), GateOn(0+float64(g1*u), h1[j])
			dh2[j], dh3[j] = GateOn(0+float64(g2*u), h2[j]), GateOn(0+float64(g3*u), h3[j])
			gb1[j] = gb1[j] + dh0[j] + dh1[j] + dh2[j] + dh3[j]
		}
		z0, z1, z2, z3 := z[e*d:(e+1)*d], z[(e+1)*d:(e+2)*d], z[(e+2)*d:(e+3)*d], z[(e+3)*d:(e+4)*d]
		for j := j0; j < j1; j++ {
			s0, s1, s2, s3 := dh0[j], dh1[j], dh2[j], dh3[j]
			if AllZero(s0, s1, s2, s3) {
				continue
			}
			cj := gw1[j*d : (j+1)*d]
			for p := range cj {
				cj[p] += float64(s0*z0[p]) + float64(s1*z1[p]) + float64(s2*z2[p]) + float64(s3*z3[p])
			}
		}
	}
	for ; e < hi; e++ {
		g := float64(float64(gw[e]*w[e]) * (1 - w[e]))
		he, ze := h[e*nh:(e+1)*nh], z[e*d:(e+1)*d]
		for p := j0; p < j1; p++ {
			gw2[p] += float64(g * he[p])
		}
		if j0 == 0 {
			gb2[0] += g
		}
		for j := j0; j < j1; j++ {
			v := GateOn(0+float64(g*w2[j]), he[j])
			gb1[j] += v
			cj := gw1[j*d : (j+1)*d]
			for p := range cj {
				cj[p] += float64(v * ze[p])
			}
		}
	}
}
