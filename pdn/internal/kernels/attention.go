package kernels

import "pdnexplorer/internal/fmath"

// LeakySlope is the slope of GAT's LeakyReLU below zero (Veličković et
// al.; PyG's GATConv default).
const LeakySlope = 0.2

// Attention is a graph attention layer's arrays as its kernels read and
// write them: the N nodes' arcs, node i's from RowPtr[i] to RowPtr[i+1],
// each to its neighbour Col[k] (i itself among them); Heads heads of O
// features each. Per node and head: the scores S = a_srcᵀ W h and T =
// a_dstᵀ W h; per arc and head: Pre = S_j + T_i and the attention Alpha,
// softmax(LeakyReLU(Pre)) over the node's arcs; per node, WH = W h
// (Heads·O values). The G-fields are their gradients, and DSum one node's
// Σ_k α_k dα_k per head. With AVX-512 a layer of eight heads of 8
// features keeps W h and its gradient head-minor in WHT and GWHT: the
// layer's forward asks ChooseLayout which layout to fill, and every kernel
// after it reads the one chosen (HeadMinor), whatever the width then.
type Attention struct {
	N, Heads, O          int
	RowPtr, Col          []int32
	WH, S, T, Pre, Alpha []float64
	GWH, GS, GT, GAlpha  []float64
	DSum                 []float64
	WHT, GWHT            []float64
	headMinor            bool // the layout ChooseLayout chose
}

// ChooseLayout chooses, for a forward pass and the backward pass after
// it, where W h is kept: head-minor in WHT (and its gradient in GWHT)
// where the AVX-512 paths for eight heads of 8 features serve this layer,
// else in WH (GWH); it reports whether head-minor. Only it sets the
// layout, so a build or width without those paths never has it.
func (l *Attention) ChooseLayout() bool {
	l.headMinor = l.headsWide()
	return l.headMinor
}

// HeadMinor reports the layout ChooseLayout chose.
func (l *Attention) HeadMinor() bool { return l.headMinor }

// Node sets y, node i's Heads·O outputs, zero on entry, to its attention:
// for each head, the softmax over i's arcs, then Σ_j α_ij W h_j, each sum
// over the neighbours in order.
func (l *Attention) Node(y []float64, i int) {
	H, O := l.Heads, l.O
	lo, hi := int(l.RowPtr[i]), int(l.RowPtr[i+1])
	if !l.softmaxVec(i, lo, hi) {
		for h := 0; h < H; h++ {
			l.softmax(i, h, lo, hi)
		}
	}
	if !l.aggregateHeadsWide(y, i) {
		for h := 0; h < H; h++ {
			l.aggregate(y[h*O:(h+1)*O], i, h)
		}
	}
}

// NodeBackward is Node's backward pass for node i, from dyi, its outputs'
// gradient: each arc's dα, W h's gradient at the neighbours, then the
// scores' gradients (GS at the neighbours, GT at i).
func (l *Attention) NodeBackward(dyi []float64, i int) {
	H, O := l.Heads, l.O
	lo, hi := int(l.RowPtr[i]), int(l.RowPtr[i+1])
	if !l.scatterHeadsWide(dyi, i) {
		for h := 0; h < H; h++ {
			l.DSum[h] = l.scatter(dyi[h*O:(h+1)*O], i, h)
		}
	}
	if !l.attnGradVec(i, lo, hi) {
		for h := 0; h < H; h++ {
			l.attnGrad(i, h, lo, hi)
		}
	}
}

// ParamGrads adds to gaSrc and gaDst, the gradients of a_src and a_dst
// (head by head, O values each), Σ_j GS_j W h_j and Σ_j GT_j W h_j, and
// to W h's gradient GS_j a_src + GT_j a_dst, node after node.
func (l *Attention) ParamGrads(aSrc, aDst, gaSrc, gaDst []float64) {
	if l.headMinor {
		l.paramGradsHeadsWide(aSrc, aDst, gaSrc, gaDst)
		return
	}
	H, O := l.Heads, l.O
	ho := H * O
	for j := 0; j < l.N; j++ {
		for h := 0; h < H; h++ {
			whj := l.WH[j*ho+h*O : j*ho+(h+1)*O]
			gj := l.GWH[j*ho+h*O : j*ho+(h+1)*O]
			as, ad := aSrc[h*O:(h+1)*O], aDst[h*O:(h+1)*O]
			gas, gad := gaSrc[h*O:(h+1)*O], gaDst[h*O:(h+1)*O]
			s, t := l.GS[j*H+h], l.GT[j*H+h]
			if attnParamGrad8Vec(gas, gad, gj, whj, as, ad, s, t) {
				continue
			}
			for o := range whj {
				gas[o] += float64(s * whj[o])
				gad[o] += float64(t * whj[o])
				gj[o] += float64(s*as[o]) + float64(t*ad[o])
			}
		}
	}
}

// Leaky is GAT's LeakyReLU: x above 0, else LeakySlope·x.
func Leaky(x float64) float64 {
	if x > 0 {
		return x
	}
	return LeakySlope * x
}

// Scores sets each node's s = a_srcᵀ W h and t = a_dstᵀ W h, head by head.
func (l *Attention) Scores(aSrc, aDst []float64) {
	if l.headMinor {
		l.scoresHeadsWide(aSrc, aDst)
		return
	}
	H, O := l.Heads, l.O
	ho := H * O
	for j := 0; j < l.N; j++ {
		for h := 0; h < H; h++ {
			whj := l.WH[j*ho+h*O : j*ho+(h+1)*O]
			l.S[j*H+h] = Dot(aSrc[h*O:(h+1)*O], whj)
			l.T[j*H+h] = Dot(aDst[h*O:(h+1)*O], whj)
		}
	}
}

// softmax sets head h's attention over node i's neighbourhood (arcs lo to
// hi): pre holds each arc's p = s_j + t_i, alpha the softmax of LeakyReLU(p).
func (l *Attention) softmax(i, h, lo, hi int) {
	g, H := l, l.Heads
	m := -1e300
	for k := lo; k < hi; k++ {
		p := l.S[int(g.Col[k])*H+h] + l.T[i*H+h]
		l.Pre[k*H+h] = p
		// Not the builtin max: it is a call in WebAssembly, and
		// natively its NaN and signed-zero checks cost a third
		// of this loop. The result is the same for every finite
		// p, and a NaN in p makes every α NaN either way.
		if lp := Leaky(p); lp > m {
			m = lp
		}
	}
	var sum float64
	for k := lo; k < hi; k++ {
		a := fmath.Exp(Leaky(l.Pre[k*H+h]) - m)
		l.Alpha[k*H+h] = a
		sum += a
	}
	for k := lo; k < hi; k++ {
		l.Alpha[k*H+h] /= sum
	}
}

// aggregate adds to y (zero on entry) head h's Σ_j α_ij W h_j over node
// i's neighbourhood, each output summed over the neighbours in order. For
// the hidden layer's 8 features a head, the 8 sums stay in registers
// rather than in memory, loaded and stored again for every neighbour.
func (l *Attention) aggregate(y []float64, i, h int) {
	g, H, O := l, l.Heads, l.O
	ho := H * O
	lo, hi := int(g.RowPtr[i]), int(g.RowPtr[i+1])
	if O != 8 {
		if l.aggregateNarrowVec(y, i) {
			return
		}
		for k := lo; k < hi; k++ {
			a, j := l.Alpha[k*H+h], int(g.Col[k])
			whj := l.WH[j*ho+h*O : j*ho+(h+1)*O]
			for o := range y {
				y[o] += float64(a * whj[o])
			}
		}
		return
	}
	if l.aggregate8Vec(y, i, h) {
		return
	}
	y = y[:8]
	s0, s1, s2, s3, s4, s5, s6, s7 := y[0], y[1], y[2], y[3], y[4], y[5], y[6], y[7]
	for k := lo; k < hi; k++ {
		a, j := l.Alpha[k*H+h], int(g.Col[k])
		w := l.WH[j*ho+h*8:]
		w = w[:8]
		s0 += float64(a * w[0])
		s1 += float64(a * w[1])
		s2 += float64(a * w[2])
		s3 += float64(a * w[3])
		s4 += float64(a * w[4])
		s5 += float64(a * w[5])
		s6 += float64(a * w[6])
		s7 += float64(a * w[7])
	}
	y[0], y[1], y[2], y[3], y[4], y[5], y[6], y[7] = s0, s1, s2, s3, s4, s5, s6, s7
}

// scatter is the first half of backward for node i and head h, with dyh
// the head's output gradient: for each neighbour k (node j) it sets
// dα_k = dyh·W h_j and adds α_k·dyh to ∂(W h_j), and it returns Σ_k α_k dα_k.
// For the hidden layer's 8 features a head, dyh stays in registers.
func (l *Attention) scatter(dyh []float64, i, h int) float64 {
	g, H, O := l, l.Heads, l.O
	ho := H * O
	hi := int(g.RowPtr[i+1])
	if O != 8 {
		k, dsum := l.scatterNarrowVec(dyh, i) // groups of four arcs of a narrow single head; the rest here
		for ; k < hi; k++ {
			j := int(g.Col[k])
			whj := l.WH[j*ho+h*O : j*ho+(h+1)*O]
			da := Dot(dyh, whj)
			l.GAlpha[k*H+h] = da
			a := l.Alpha[k*H+h]
			dsum += float64(a * da)
			gj := l.GWH[j*ho+h*O : j*ho+(h+1)*O]
			for o := range gj {
				gj[o] += float64(a * dyh[o])
			}
		}
		return dsum
	}
	dyh = dyh[:8]
	k, dsum := l.scatter8Vec(dyh, i, h) // groups of four neighbours; the rest here
	d0, d1, d2, d3, d4, d5, d6, d7 := dyh[0], dyh[1], dyh[2], dyh[3], dyh[4], dyh[5], dyh[6], dyh[7]
	for ; k < hi; k++ {
		j := int(g.Col[k])
		w := l.WH[j*ho+h*8:]
		w = w[:8]
		var da float64
		da += float64(d0 * w[0])
		da += float64(d1 * w[1])
		da += float64(d2 * w[2])
		da += float64(d3 * w[3])
		da += float64(d4 * w[4])
		da += float64(d5 * w[5])
		da += float64(d6 * w[6])
		da += float64(d7 * w[7])
		l.GAlpha[k*H+h] = da
		a := l.Alpha[k*H+h]
		dsum += float64(a * da)
		gj := l.GWH[j*ho+h*8:]
		gj = gj[:8]
		gj[0] += float64(a * d0)
		gj[1] += float64(a * d1)
		gj[2] += float64(a * d2)
		gj[3] += float64(a * d3)
		gj[4] += float64(a * d4)
		gj[5] += float64(a * d5)
		gj[6] += float64(a * d6)
		gj[7] += float64(a * d7)
	}
	return dsum
}

// attnGrad takes head h's gradient through the softmax and LeakyReLU of
// node i's neighbourhood to the scores: de_k = α_k (dα_k − Σ α dα), times
// the slope where p ≤ 0, added to s's gradient at the neighbour and to t's
// at i.
func (l *Attention) attnGrad(i, h, lo, hi int) {
	g, H := l, l.Heads
	for k := lo; k < hi; k++ {
		j := int(g.Col[k])
		de := float64(l.Alpha[k*H+h] * (l.GAlpha[k*H+h] - l.DSum[h]))
		if l.Pre[k*H+h] <= 0 {
			de *= LeakySlope
		}
		l.GS[j*H+h] += de
		l.GT[i*H+h] += de
	}
}
