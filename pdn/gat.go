package pdn

import (
	"fmt"
	"math/rand/v2"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/fmath"
	"pdnexplorer/pdn/internal/kernels"
)

func init() {
	register(experiment.GAT, model{cost: gatCost,
		build: func(g *datasets.Graph, m experiment.Model, rnd *rand.Rand, _ uint64) network {
			return newGAT(g, m, rnd)
		}})
}

var _ named = (*gat)(nil)

// GAT's settings (Veličković et al., as in PyG's example and Appendix A).
const (
	GATHeads      = 8
	GATHeadDim    = 8
	gatLeakySlope = 0.2
)

// attnGraph lists, for each node i, its neighbours and then i itself: the
// neighbourhood a GAT softmax runs over. eid maps an entry to its
// undirected edge (−1 for the self-loop).
type attnGraph struct {
	n      int
	rowPtr []int32
	col    []int32
	eid    []int32
}

func newAttnGraph(a *adjacency) *attnGraph {
	g := &attnGraph{n: a.n, rowPtr: make([]int32, a.n+1)}
	for i := 0; i < a.n; i++ {
		for k := a.rowPtr[i]; k < a.rowPtr[i+1]; k++ {
			g.col, g.eid = append(g.col, a.col[k]), append(g.eid, a.eid[k])
		}
		g.col, g.eid = append(g.col, int32(i)), append(g.eid, -1)
		g.rowPtr[i+1] = int32(len(g.col))
	}
	return g
}

// gatLayer is one graph attention layer with H heads of O features each,
// concatenated:
//
//	e_ij = LeakyReLU(a_dstᵀ W h_i + a_srcᵀ W h_j),  α_ij = softmax_{j ∈ N(i) ∪ {i}} e_ij,
//	out_i = ‖_heads Σ_j α_ij W h_j + b.
type gatLayer struct {
	in, heads, o     int
	w, aSrc, aDst, b *tensor
	wt               []float64
	sx               *datasets.CSR // the input, when it is the graph's sparse node features
	g                *attnGraph

	wh, s, t, pre, alpha []float64
	gwh, gs, gt, galpha  []float64
	dsum                 []float64 // per head, one node's Σ_k α_k dα_k
	// With AVX-512, a layer of eight heads of 8 features keeps W h and
	// its gradient head-minor (see headsWide): whT and gwhT, from W's and
	// its gradient's rows in that order, wP and gwP.
	whT, gwhT, wP, gwP []float64
	transposed         bool // whether the last forward set whT rather than wh
	pc                 *pacer
}

func newGATLayer(rnd *rand.Rand, g *attnGraph, in, heads, o int) *gatLayer {
	n, ho, m := g.n, heads*o, len(g.col)
	l := &gatLayer{in: in, heads: heads, o: o, g: g,
		w: newTensor(ho * in), aSrc: newTensor(ho), aDst: newTensor(ho), b: newTensor(ho), wt: make([]float64, ho*in),
		wh: make([]float64, n*ho), s: make([]float64, n*heads), t: make([]float64, n*heads),
		pre: make([]float64, m*heads), alpha: make([]float64, m*heads),
		gwh: make([]float64, n*ho), gs: make([]float64, n*heads), gt: make([]float64, n*heads), galpha: make([]float64, m*heads),
		dsum: make([]float64, heads)}
	l.w.glorot(rnd, in, ho)
	l.aSrc.glorot(rnd, heads, o)
	l.aDst.glorot(rnd, heads, o)
	return l
}

func (l *gatLayer) params() []*tensor { return []*tensor{l.w, l.aSrc, l.aDst, l.b} }

func leaky(x float64) float64 {
	if x > 0 {
		return x
	}
	return gatLeakySlope * x
}

func (l *gatLayer) forward(y, x []float64) {
	g, H, O := l.g, l.heads, l.o
	ho := H * O
	if l.transposed = l.headsWide(); l.transposed {
		l.pc.xMulWT(l.whT, x, l.sx, l.headMinorW(), l.wt, g.n, l.in, ho)
		l.scoresHeadsWide()
	} else {
		l.pc.xMulWT(l.wh, x, l.sx, l.w.val, l.wt, g.n, l.in, ho)
		l.scores()
	}
	clear(y[:g.n*ho])
	for i := 0; i < g.n; i++ {
		lo, hi := int(g.rowPtr[i]), int(g.rowPtr[i+1])
		yi := y[i*ho : (i+1)*ho]
		if !l.softmaxVec(i, lo, hi) {
			for h := 0; h < H; h++ {
				l.softmax(i, h, lo, hi)
			}
		}
		if !l.aggregateHeadsWide(yi, i) {
			for h := 0; h < H; h++ {
				l.aggregate(yi[h*O:(h+1)*O], i, h)
			}
		}
		l.pc.tick(float64(H*(hi-lo)) * (gatherUnit*float64(O) + 2*expUnit))
	}
	kernels.AddRows(y, l.b.val, g.n, ho)
}

// scores sets each node's s = a_srcᵀ W h and t = a_dstᵀ W h, head by head.
func (l *gatLayer) scores() {
	H, O := l.heads, l.o
	ho := H * O
	for j := 0; j < l.g.n; j++ {
		for h := 0; h < H; h++ {
			whj := l.wh[j*ho+h*O : j*ho+(h+1)*O]
			l.s[j*H+h] = kernels.Dot(l.aSrc.val[h*O:(h+1)*O], whj)
			l.t[j*H+h] = kernels.Dot(l.aDst.val[h*O:(h+1)*O], whj)
		}
	}
}

// softmax sets head h's attention over node i's neighbourhood (arcs lo to
// hi): pre holds each arc's p = s_j + t_i, alpha the softmax of LeakyReLU(p).
func (l *gatLayer) softmax(i, h, lo, hi int) {
	g, H := l.g, l.heads
	m := -1e300
	for k := lo; k < hi; k++ {
		p := l.s[int(g.col[k])*H+h] + l.t[i*H+h]
		l.pre[k*H+h] = p
		// Not the builtin max: it is a call in WebAssembly, and
		// natively its NaN and signed-zero checks cost a third
		// of this loop. The result is the same for every finite
		// p, and a NaN in p makes every α NaN either way.
		if lp := leaky(p); lp > m {
			m = lp
		}
	}
	var sum float64
	for k := lo; k < hi; k++ {
		a := fmath.Exp(leaky(l.pre[k*H+h]) - m)
		l.alpha[k*H+h] = a
		sum += a
	}
	for k := lo; k < hi; k++ {
		l.alpha[k*H+h] /= sum
	}
}

// aggregate adds to y (zero on entry) head h's Σ_j α_ij W h_j over node
// i's neighbourhood, each output summed over the neighbours in order. For
// the hidden layer's 8 features a head, the 8 sums stay in registers
// rather than in memory, loaded and stored again for every neighbour.
func (l *gatLayer) aggregate(y []float64, i, h int) {
	g, H, O := l.g, l.heads, l.o
	ho := H * O
	lo, hi := int(g.rowPtr[i]), int(g.rowPtr[i+1])
	if O != 8 {
		if l.aggregateNarrowVec(y, i) {
			return
		}
		for k := lo; k < hi; k++ {
			a, j := l.alpha[k*H+h], int(g.col[k])
			whj := l.wh[j*ho+h*O : j*ho+(h+1)*O]
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
		a, j := l.alpha[k*H+h], int(g.col[k])
		w := l.wh[j*ho+h*8:]
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
func (l *gatLayer) scatter(dyh []float64, i, h int) float64 {
	g, H, O := l.g, l.heads, l.o
	ho := H * O
	hi := int(g.rowPtr[i+1])
	if O != 8 {
		k, dsum := l.scatterNarrowVec(dyh, i) // groups of four arcs of a narrow single head; the rest here
		for ; k < hi; k++ {
			j := int(g.col[k])
			whj := l.wh[j*ho+h*O : j*ho+(h+1)*O]
			da := kernels.Dot(dyh, whj)
			l.galpha[k*H+h] = da
			a := l.alpha[k*H+h]
			dsum += float64(a * da)
			gj := l.gwh[j*ho+h*O : j*ho+(h+1)*O]
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
		j := int(g.col[k])
		w := l.wh[j*ho+h*8:]
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
		l.galpha[k*H+h] = da
		a := l.alpha[k*H+h]
		dsum += float64(a * da)
		gj := l.gwh[j*ho+h*8:]
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

// backward accumulates the gradients of W, a_src, a_dst and b from dy and,
// unless dx is nil, sets dx.
func (l *gatLayer) backward(dx, x, dy []float64) {
	g, H, O := l.g, l.heads, l.o
	ho := H * O
	kernels.SumRowsAdd(l.b.grad, dy, g.n, ho)
	gwh := l.gwh
	if l.transposed {
		gwh = l.gwhT
	}
	clear(gwh)
	clear(l.gs)
	clear(l.gt)
	for i := 0; i < g.n; i++ {
		lo, hi := int(g.rowPtr[i]), int(g.rowPtr[i+1])
		dyi := dy[i*ho : (i+1)*ho]
		if !l.scatterHeadsWide(dyi, i) {
			for h := 0; h < H; h++ {
				l.dsum[h] = l.scatter(dyi[h*O:(h+1)*O], i, h)
			}
		}
		if !l.attnGradVec(i, lo, hi) {
			for h := 0; h < H; h++ {
				l.attnGrad(i, h, lo, hi)
			}
		}
		l.pc.tick(float64(H*(hi-lo)) * gatherUnit * float64(3*O))
	}
	if l.transposed {
		l.weightGradHeads(dx, x)
		return
	}
	for j := 0; j < g.n; j++ {
		for h := 0; h < H; h++ {
			whj := l.wh[j*ho+h*O : j*ho+(h+1)*O]
			gj := l.gwh[j*ho+h*O : j*ho+(h+1)*O]
			as, ad := l.aSrc.val[h*O:(h+1)*O], l.aDst.val[h*O:(h+1)*O]
			gas, gad := l.aSrc.grad[h*O:(h+1)*O], l.aDst.grad[h*O:(h+1)*O]
			s, t := l.gs[j*H+h], l.gt[j*H+h]
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
	l.pc.addGTX(l.w.grad, l.gwh, x, l.sx, l.wt, g.n, ho, l.in)
	if dx != nil {
		kernels.Transpose(l.wt, l.w.val, ho, l.in)
		l.pc.mulABT(dx, l.gwh, l.wt, g.n, ho, l.in)
	}
}

// weightGradHeads is the rest of backward where the last forward kept W h
// head-minor (headsWide): the gradients of a_src and a_dst and the
// rest of W h's, then W's through its rows in head-minor order, the same
// sums in the same order, so the same bits; and dx, unless nil, from W h's
// gradient turned back.
func (l *gatLayer) weightGradHeads(dx, x []float64) {
	n, ho := l.g.n, l.heads*l.o
	l.attnParamGradHeadsWide()
	headMinor(l.gwP, l.w.grad, l.in)
	l.pc.addGTX(l.gwP, l.gwhT, x, l.sx, l.wt, n, ho, l.in)
	headMinor(l.w.grad, l.gwP, l.in)
	if dx == nil {
		return
	}
	for j := 0; j < n; j++ {
		for c := 0; c < ho; c++ {
			l.gwh[j*ho+c] = l.gwhT[j*ho+c%8*8+c/8]
		}
	}
	kernels.Transpose(l.wt, l.w.val, ho, l.in)
	l.pc.mulABT(dx, l.gwh, l.wt, n, ho, l.in)
}

// headMinor sets dst's rows to src's (rows of k, 64 of them, a row per
// feature of each of eight heads of 8) with the order of heads and
// features swapped: row 8o+h of dst is row 8h+o of src. It is its own
// inverse.
func headMinor(dst, src []float64, k int) {
	for h := 0; h < 8; h++ {
		for o := 0; o < 8; o++ {
			copy(dst[(8*o+h)*k:(8*o+h+1)*k], src[(8*h+o)*k:(8*h+o+1)*k])
		}
	}
}

// headMinorW returns W with its rows in head-minor order, in wP, which it
// makes, with whT, gwhT and gwP, on first use (see headsWide).
func (l *gatLayer) headMinorW() []float64 {
	if n := l.g.n; len(l.whT) != n*64 {
		l.whT, l.gwhT = make([]float64, n*64), make([]float64, n*64)
		l.wP, l.gwP = make([]float64, 64*l.in), make([]float64, 64*l.in)
	}
	headMinor(l.wP, l.w.val, l.in)
	return l.wP
}

// whAt is W h at node j, column c (head c/o's feature c%o), wherever the
// last forward kept it.
func (l *gatLayer) whAt(j, c int) float64 {
	if l.transposed {
		return l.whT[j*64+c%8*8+c/8]
	}
	return l.wh[j*l.heads*l.o+c]
}

// attnGrad takes head h's gradient through the softmax and LeakyReLU of
// node i's neighbourhood to the scores: de_k = α_k (dα_k − Σ α dα), times
// the slope where p ≤ 0, added to s's gradient at the neighbour and to t's
// at i.
func (l *gatLayer) attnGrad(i, h, lo, hi int) {
	g, H := l.g, l.heads
	for k := lo; k < hi; k++ {
		j := int(g.col[k])
		de := float64(l.alpha[k*H+h] * (l.galpha[k*H+h] - l.dsum[h]))
		if l.pre[k*H+h] <= 0 {
			de *= gatLeakySlope
		}
		l.gs[j*H+h] += de
		l.gt[i*H+h] += de
	}
}

// gat is a two-layer GAT: 8 heads of 8 features, ELU, then one head with C
// outputs; dropout on the input of both layers.
type gat struct {
	g      *datasets.Graph
	rows   []int
	l1, l2 *gatLayer
	drop0  *dropout
	drop1  *dropout

	x0, a1, h1, d1, logits []float64
	in1, in2               []float64 // what each layer saw, after dropout
	gh1, gd1               []float64
	weights                []float64
}

func newGAT(g *datasets.Graph, cfg experiment.Model, rnd *rand.Rand) *gat {
	ag := newAttnGraph(newAdjacency(g.N, g.Src, g.Dst))
	n, ho := g.N, GATHeads*GATHeadDim
	inputs := len(g.FeatureValues())
	m := &gat{g: g, rows: g.Nodes(datasets.Train),
		l1: newGATLayer(rnd, ag, g.F, GATHeads, GATHeadDim), l2: newGATLayer(rnd, ag, ho, 1, g.C),
		drop0: newDropout(cfg.Dropout, inputs), drop1: newDropout(cfg.Dropout, n*ho),
		x0: make([]float64, inputs), a1: make([]float64, n*ho), h1: make([]float64, n*ho), d1: make([]float64, n*ho),
		logits: make([]float64, n*g.C), gh1: make([]float64, n*ho), gd1: make([]float64, n*ho),
		weights: make([]float64, g.E())}
	if g.XS != nil {
		// Dropout on sparse features drops stored values only: the zeros
		// it would drop stay zero anyway.
		sx := *g.XS
		m.l1.sx = &sx
	}
	return m
}

func (m *gat) params() []*tensor              { return append(m.l1.params(), m.l2.params()...) }
func (m *gat) lossRows() (rows, labels []int) { return m.rows, m.g.Labels }
func (m *gat) setPacer(pc *pacer)             { m.l1.pc, m.l2.pc = pc, pc }
func (m *gat) reseed(seed uint64) {
	m.drop0.reseed(seed)
	m.drop1.reseed(seed ^ 0x5bd1e995)
}

func elu(x float64) float64 {
	if x > 0 {
		return x
	}
	return fmath.Exp(x) - 1
}

func (m *gat) forward(training bool) []float64 {
	g := m.g
	if m.l1.sx != nil {
		m.l1.sx.Val = m.drop0.apply(m.x0, g.XS.Val, training)
	} else {
		m.in1 = m.drop0.apply(m.x0, g.X, training)
	}
	m.l1.forward(m.a1, m.in1)
	kernels.ELU(m.h1, m.a1)
	m.in2 = m.drop1.apply(m.d1, m.h1, training)
	m.l2.forward(m.logits, m.in2)
	return m.logits
}

func (m *gat) backward(glogits []float64) {
	m.l2.backward(m.gd1, m.in2, glogits)
	m.drop1.backward(m.gh1, m.gd1)
	kernels.ELUGrad(m.gh1, m.a1, m.h1) // ELU' = 1 above 0, e^x = h + 1 below
	m.l1.backward(nil, m.in1, m.gh1)
}

// edgeWeights returns each edge's first-layer attention, α_uv and α_vu
// averaged over both directions and all heads.
func (m *gat) edgeWeights() []float64 {
	l := m.l1
	clear(m.weights)
	for k, e := range l.g.eid {
		if e < 0 {
			continue
		}
		for h := 0; h < l.heads; h++ {
			m.weights[e] += l.alpha[k*l.heads+h]
		}
	}
	for e := range m.weights {
		m.weights[e] /= float64(2 * l.heads)
	}
	return m.weights
}

func (m *gat) streams() []*rand.PCG { return []*rand.PCG{m.drop0.rnd, m.drop1.rnd} }

// named gives GATConv's names and shapes: W is (heads·out)×in, and the
// attention vectors are 1×heads×out.
func (m *gat) named() []Parameter {
	var out []Parameter
	for i, l := range []*gatLayer{m.l1, m.l2} {
		p := fmt.Sprintf("conv%d.", i+1)
		ho := l.heads * l.o
		out = append(out, param(p+"lin_src.weight", l.w, ho, l.in),
			param(p+"att_src", l.aSrc, 1, l.heads, l.o), param(p+"att_dst", l.aDst, 1, l.heads, l.o),
			param(p+"bias", l.b, ho))
	}
	return out
}

// gatCost is GAT's two attention layers.
func gatCost(s Shape, m experiment.Model) []Part {
	n, e, c := float64(s.N), float64(s.E), float64(s.C)
	ho := float64(GATHeads * GATHeadDim)
	arcs := 2*e + n // both directions and a self-loop per node
	attn := func(heads, o float64) Work {
		return Work{Gather: arcs * heads * 3 * o, Exp: arcs * heads * 2}
	}
	return []Part{
		{What: phrase.New("the first attention layer's transform"), EpochWork: s.features(2 * ho).Plus(Work{Exp: n * ho}), Bytes: f64 * (7*n*ho + 2*s.inputs()),
			Fields: []string{"node-features", "nodes"}},
		{What: phrase.New("the attention over the edges"), EpochWork: attn(GATHeads, GATHeadDim).Plus(attn(1, c)).Plus(Work{Dense: 3 * n * ho * c}),
			Bytes: (4 + f64*3*GATHeads) * arcs, Fields: []string{"edges", "nodes"}},
	}
}
