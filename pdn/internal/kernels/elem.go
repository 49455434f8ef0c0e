package kernels

import (
	"math/rand/v2"

	"pdnexplorer/internal/fmath"
)

// The elementwise kernels below each run their platform's vector path over
// the first entries, then their reference loop over the rest (all of them
// where no vectors run); every entry is one operation on its own inputs,
// so the vector lanes give the reference loop's bits.

// Sigmoids sets w[e] = fmath.Sigmoid(s[e]) wherever keep[e] is not 0
// (every e for a nil keep), leaving the others as they are.
func Sigmoids(w, s, keep []float64) {
	s = fit(s, len(w))
	if keep != nil {
		keep = fit(keep, len(w))
	}
	if simd128 {
		wasmSigmoidKept(w, s, keep)
		return
	}
	e := sigmoidsVec(w, s, keep)
	if keep != nil {
		keep = keep[e:]
	}
	sigmoidsRef(w[e:], s[e:], keep)
}

func sigmoidsRef(w, s, keep []float64) {
	for e := range w {
		if keep == nil || keep[e] != 0 {
			w[e] = fmath.Sigmoid(s[e])
		}
	}
}

// Exps sets dst = fmath.Exp(src) elementwise.
func Exps(dst, src []float64) {
	src = fit(src, len(dst))
	i := expsVec(dst, src)
	expsRef(dst[i:], src[i:])
}

func expsRef(dst, src []float64) {
	for i := range dst {
		dst[i] = fmath.Exp(src[i])
	}
}

// ELU sets dst = elu(x) elementwise: x above 0, else Exp(x) − 1.
func ELU(dst, x []float64) {
	dst = fit(dst, len(x))
	i := eluVec(dst, x)
	eluRef(dst[i:], x[i:])
}

func eluRef(dst, x []float64) {
	for i, v := range x {
		if v > 0 {
			dst[i] = v
		} else {
			dst[i] = fmath.Exp(v) - 1
		}
	}
}

// ELUGrad multiplies g by ELU's derivative at x, given y = elu(x): 1 above
// 0, else e^x = y + 1.
func ELUGrad(g, x, y []float64) {
	g, y = fit(g, len(x)), fit(y, len(x))
	i := eluGradVec(g, x, y)
	eluGradRef(g[i:], x[i:], y[i:])
}

func eluGradRef(g, x, y []float64) {
	for i, v := range x {
		if v <= 0 {
			g[i] *= y[i] + 1
		}
	}
}

// DropoutDraw draws inverted dropout's mask from rnd: for each pair of
// units one draw, whose low and then high 32 bits keep a unit (scale)
// where they are below thresh, else drop it (+0, scale·0); a last odd
// unit takes the low bits, and the high ones are lost. rnd goes on after
// the draws, as after as many calls of its Uint64.
func DropoutDraw(mask []float64, rnd *rand.PCG, thresh uint64, scale float64) {
	if simd128 {
		wasmDropoutDraw(mask, len(mask), rnd, thresh, scale)
		return
	}
	i := 0
	if vectors {
		// The draws come first, a block at a time, then vectors turn them
		// into the mask: the same draws in the same order, the same bits.
		var raw [64]uint64
		for ; i+2*len(raw) <= len(mask); i += 2 * len(raw) {
			pcgBlock(rnd, raw[:])
			dropoutMask(mask[i:i+2*len(raw)], raw[:], thresh, scale)
		}
	}
	for ; i < len(mask); i += 2 {
		r := rnd.Uint64()
		mask[i] = scale * Below(r&0xffffffff, thresh)
		if i+1 < len(mask) {
			mask[i+1] = scale * Below(r>>32, thresh)
		}
	}
}

// dropoutMask sets mask[2k] and mask[2k+1] from the low and high 32 bits
// of raw[k]: scale where the bits are below thresh, else +0 (scale·0).
func dropoutMask(mask []float64, raw []uint64, thresh uint64, scale float64) {
	mask = fit(mask, 2*len(raw))
	i := dropoutMaskVec(mask, raw, thresh, scale)
	dropoutMaskRef(mask[i:], raw[i/2:], thresh, scale)
}

func dropoutMaskRef(mask []float64, raw []uint64, thresh uint64, scale float64) {
	for k, r := range raw {
		mask[2*k] = scale * Below(r&0xffffffff, thresh)
		mask[2*k+1] = scale * Below(r>>32, thresh)
	}
}

// Below returns 1 if x < t and 0 otherwise, for x, t < 2³³, without a
// branch: x − t wraps around, setting the top bit, exactly when x < t.
func Below(x, t uint64) float64 {
	return float64((x - t) >> 63)
}

// OutputBackward is the backward pass of a pathfinder's output layer of one
// unit over its hidden layer's ReLU, fused (see outputBackwardVec): it
// reports false, and does nothing, where no fused path serves the shapes,
// for the caller to take the layers' own passes, whose bits it keeps.
func OutputBackward(wGrad, bGrad, wVal, below, dx, h, g []float64, in, rows int) bool {
	wGrad, bGrad, wVal, h, g = fit(wGrad, in), fit(bGrad, 1), fit(wVal, in), fit(h, rows*in), fit(g, rows)
	if dx != nil {
		dx = fit(dx, rows*in)
	}
	return outputBackwardVec(wGrad, bGrad, wVal, below, dx, h, g, in, rows)
}
