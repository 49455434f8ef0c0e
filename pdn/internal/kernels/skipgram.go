package kernels

// The skip-gram's kernels (Mikolov et al.; DeepWalk's, Perozzi et al.,
// and LINE's second order, Tang et al.): embeddings of float32 values
// (WalkDim of them for DeepWalk, 128 for LINE), a node's vector vc against
// WalkTargets target vectors o₀…o₅ at once (the positive and its negative
// samples), each summed in one fixed order on every path.
const (
	WalkDim     = 64
	WalkTargets = 6
)

// SkipGramStep is one skip-gram step over vc's dimensions for six
// distinct targets whose step sizes gk are known: vc's gradient sums the
// targets' terms in their order, each o_k moves by gk[k]·vc, then vc by
// the gradient, in one pass over the dimensions.
func SkipGramStep(vc, o0, o1, o2, o3, o4, o5 []float32, gk *[WalkTargets]float32) {
	d := len(vc)
	o0, o1, o2, o3, o4, o5 = fit(o0, d), fit(o1, d), fit(o2, d), fit(o3, d), fit(o4, d), fit(o5, d)
	if trainDistinctVec(vc, o0, o1, o2, o3, o4, o5, gk) {
		return
	}
	skipGramStepRef(vc, o0, o1, o2, o3, o4, o5, gk)
}

func skipGramStepRef(vc, o0, o1, o2, o3, o4, o5 []float32, gk *[WalkTargets]float32) {
	for t, x := range vc {
		var g float32
		y := o0[t]
		g += float32(gk[0] * y)
		o0[t] = y + float32(gk[0]*x)
		y = o1[t]
		g += float32(gk[1] * y)
		o1[t] = y + float32(gk[1]*x)
		y = o2[t]
		g += float32(gk[2] * y)
		o2[t] = y + float32(gk[2]*x)
		y = o3[t]
		g += float32(gk[3] * y)
		o3[t] = y + float32(gk[3]*x)
		y = o4[t]
		g += float32(gk[4] * y)
		o4[t] = y + float32(gk[4]*x)
		y = o5[t]
		g += float32(gk[5] * y)
		o5[t] = y + float32(gk[5]*x)
		vc[t] = x + g
	}
}

// SkipGramGrad is SkipGramStep where the centre's vector is another's to
// move (MNE's b + uᵀX): grad gets vc's gradient, the targets' terms summed
// in their order, and each o_k moves by gk[k]·vc; vc is left as it is.
func SkipGramGrad(grad, vc, o0, o1, o2, o3, o4, o5 []float32, gk *[WalkTargets]float32) {
	d := len(vc)
	grad, o0, o1, o2, o3, o4, o5 = fit(grad, d), fit(o0, d), fit(o1, d), fit(o2, d), fit(o3, d), fit(o4, d), fit(o5, d)
	if gradVec(grad, vc, o0, o1, o2, o3, o4, o5, gk) {
		return
	}
	skipGramGradRef(grad, vc, o0, o1, o2, o3, o4, o5, gk)
}

func skipGramGradRef(grad, vc, o0, o1, o2, o3, o4, o5 []float32, gk *[WalkTargets]float32) {
	for t, x := range vc {
		var g float32
		for k, o := range [...][]float32{o0, o1, o2, o3, o4, o5} {
			y := o[t]
			g += float32(gk[k] * y)
			o[t] = y + float32(gk[k]*x)
		}
		grad[t] = g
	}
}

// SkipGramScores sets score[k] = vc·o_k, each by WalkDot, the six at once
// (len(vc) a multiple of 8).
func SkipGramScores(score *[WalkTargets]float32, vc, o0, o1, o2, o3, o4, o5 []float32) {
	if scoresVec(score, vc, o0, o1, o2, o3, o4, o5) {
		return
	}
	*score = [WalkTargets]float32{WalkDot(vc, o0), WalkDot(vc, o1), WalkDot(vc, o2), WalkDot(vc, o3), WalkDot(vc, o4), WalkDot(vc, o5)}
}

// WalkDot is the skip-gram's dot product of two embeddings (len(a) a
// multiple of 8), summed as the eight lanes of a vector sum it: lane l
// adds a[t]·b[t] for t ≡ l (mod 8) in order of t, then l and l+4 are
// added, then those l and l+2, then the last two. One sum in order of t
// would be a chain of 64 additions, each waiting on the last; eight chains
// of eight run side by side. The vector paths (scoresVec) add in this
// order, so the bits are the same with and without them.
func WalkDot(a, b []float32) float32 {
	if len(a)%8 != 0 {
		panic("kernels: WalkDot of a length not a multiple of 8") // its lanes would leave the rest out
	}
	b = fit(b, len(a))
	var l0, l1, l2, l3, l4, l5, l6, l7 float32 // locals, not an array: registers in WebAssembly too
	for t := 0; t+8 <= len(a); t += 8 {
		x, y := a[t:t+8], b[t:t+8]
		l0, l1 = l0+float32(x[0]*y[0]), l1+float32(x[1]*y[1])
		l2, l3 = l2+float32(x[2]*y[2]), l3+float32(x[3]*y[3])
		l4, l5 = l4+float32(x[4]*y[4]), l5+float32(x[5]*y[5])
		l6, l7 = l6+float32(x[6]*y[6]), l7+float32(x[7]*y[7])
	}
	return laneSum(&[8]float32{l0, l1, l2, l3, l4, l5, l6, l7})
}

// laneSum is WalkDot's last steps: ((l0+l4) + (l2+l6)) + ((l1+l5) + (l3+l7)).
func laneSum(l *[8]float32) float32 {
	return ((l[0] + l[4]) + (l[2] + l[6])) + ((l[1] + l[5]) + (l[3] + l[7]))
}
