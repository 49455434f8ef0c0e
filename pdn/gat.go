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
	GATHeads   = 8
	GATHeadDim = 8
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
	kernels.Attention // the arrays its kernels read and write
	in                int
	w, aSrc, aDst, b  *tensor
	wt                []float64
	sx                *datasets.CSR // the input, when it is the graph's sparse node features
	xt                transposed    // sx transposed, for W's gradient
	g                 *attnGraph
	// With AVX-512, a layer of eight heads of 8 features keeps W h and
	// its gradient head-minor (kernels.Attention.ChooseLayout): WHT and GWHT,
	// from W's and its gradient's rows in that order, wP and gwP.
	wP, gwP []float64
	pc      *pacer
}

func newGATLayer(rnd *rand.Rand, g *attnGraph, in, heads, o int) *gatLayer {
	n, ho, m := g.n, heads*o, len(g.col)
	l := &gatLayer{in: in, g: g,
		w: newTensor(ho * in), aSrc: newTensor(ho), aDst: newTensor(ho), b: newTensor(ho), wt: make([]float64, ho*in),
		Attention: kernels.Attention{N: n, Heads: heads, O: o, RowPtr: g.rowPtr, Col: g.col,
			WH: make([]float64, n*ho), S: make([]float64, n*heads), T: make([]float64, n*heads),
			Pre: make([]float64, m*heads), Alpha: make([]float64, m*heads),
			GWH: make([]float64, n*ho), GS: make([]float64, n*heads), GT: make([]float64, n*heads), GAlpha: make([]float64, m*heads),
			DSum: make([]float64, heads)}}
	l.w.glorot(rnd, in, ho)
	l.aSrc.glorot(rnd, heads, o)
	l.aDst.glorot(rnd, heads, o)
	return l
}

func (l *gatLayer) params() []*tensor { return []*tensor{l.w, l.aSrc, l.aDst, l.b} }

func (l *gatLayer) forward(y, x []float64) {
	g, H, O := l.g, l.Heads, l.O
	ho := H * O
	if l.ChooseLayout() {
		l.pc.xMulWT(l.WHT, x, l.sx, l.headMinorW(), l.wt, g.n, l.in, ho)
	} else {
		l.pc.xMulWT(l.WH, x, l.sx, l.w.val, l.wt, g.n, l.in, ho)
	}
	l.Scores(l.aSrc.val, l.aDst.val)
	clear(y[:g.n*ho])
	for i := 0; i < g.n; i++ {
		lo, hi := int(g.rowPtr[i]), int(g.rowPtr[i+1])
		l.Node(y[i*ho:(i+1)*ho], i)
		l.pc.tick(float64(H*(hi-lo)) * (gatherUnit*float64(O) + 2*expUnit))
	}
	kernels.AddRows(y, l.b.val, g.n, ho)
}

// backward accumulates the gradients of W, a_src, a_dst and b from dy and,
// unless dx is nil, sets dx.
func (l *gatLayer) backward(dx, x, dy []float64) {
	g, H, O := l.g, l.Heads, l.O
	ho := H * O
	kernels.SumRowsAdd(l.b.grad, dy, g.n, ho)
	gwh := l.GWH
	if l.HeadMinor() {
		gwh = l.GWHT
	}
	clear(gwh)
	clear(l.GS)
	clear(l.GT)
	for i := 0; i < g.n; i++ {
		lo, hi := int(g.rowPtr[i]), int(g.rowPtr[i+1])
		l.NodeBackward(dy[i*ho:(i+1)*ho], i)
		l.pc.tick(float64(H*(hi-lo)) * gatherUnit * float64(3*O))
	}
	l.ParamGrads(l.aSrc.val, l.aDst.val, l.aSrc.grad, l.aDst.grad)
	if l.HeadMinor() {
		l.weightGradHeads(dx, x)
		return
	}
	l.pc.addGTX(l.w.grad, l.GWH, x, l.sx, &l.xt, l.wt, g.n, ho, l.in)
	if dx != nil {
		kernels.Transpose(l.wt, l.w.val, ho, l.in)
		l.pc.mulABT(dx, l.GWH, l.wt, g.n, ho, l.in)
	}
}

// weightGradHeads is the rest of backward where the last forward kept W h
// head-minor (headsWide): the gradients of a_src and a_dst and the
// rest of W h's, then W's through its rows in head-minor order, the same
// sums in the same order, so the same bits; and dx, unless nil, from W h's
// gradient turned back.
func (l *gatLayer) weightGradHeads(dx, x []float64) {
	n, ho := l.g.n, l.Heads*l.O
	headMinor(l.gwP, l.w.grad, l.in)
	l.pc.addGTX(l.gwP, l.GWHT, x, l.sx, &l.xt, l.wt, n, ho, l.in)
	headMinor(l.w.grad, l.gwP, l.in)
	if dx == nil {
		return
	}
	for j := 0; j < n; j++ {
		for c := 0; c < ho; c++ {
			l.GWH[j*ho+c] = l.GWHT[j*ho+c%8*8+c/8]
		}
	}
	kernels.Transpose(l.wt, l.w.val, ho, l.in)
	l.pc.mulABT(dx, l.GWH, l.wt, n, ho, l.in)
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
// makes, with WHT, GWHT and gwP, on first use (see kernels.Attention.ChooseLayout).
func (l *gatLayer) headMinorW() []float64 {
	if n := l.g.n; len(l.WHT) != n*64 {
		l.WHT, l.GWHT = make([]float64, n*64), make([]float64, n*64)
		l.wP, l.gwP = make([]float64, 64*l.in), make([]float64, 64*l.in)
	}
	headMinor(l.wP, l.w.val, l.in)
	return l.wP
}

// whAt is W h at node j, column c (head c/o's feature c%o), wherever the
// last forward kept it.
func (l *gatLayer) whAt(j, c int) float64 {
	if l.HeadMinor() {
		return l.WHT[j*64+c%8*8+c/8]
	}
	return l.WH[j*l.Heads*l.O+c]
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
		m.l1.xt.changed()
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
		for h := 0; h < l.Heads; h++ {
			m.weights[e] += l.Alpha[k*l.Heads+h]
		}
	}
	for e := range m.weights {
		m.weights[e] /= float64(2 * l.Heads)
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
		ho := l.Heads * l.O
		out = append(out, param(p+"lin_src.weight", l.w, ho, l.in),
			param(p+"att_src", l.aSrc, 1, l.Heads, l.O), param(p+"att_dst", l.aDst, 1, l.Heads, l.O),
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
	// W and the bias of each layer (layerWeights), and a_src and a_dst.
	w1, t1 := layerWeights(float64(s.F), ho, 1)
	w2, t2 := layerWeights(ho, c, 1)
	if (&kernels.Attention{Heads: GATHeads, O: GATHeadDim}).ChooseLayout() {
		t1 += 2 * ho * float64(s.F) // W and ∂W head-minor (headMinorW)
	}
	return []Part{
		{What: phrase.New("the first attention layer's transform"), EpochWork: s.features(2*ho, ho).Plus(Work{Exp: n * ho}), Bytes: f64*(7*n*ho+2*s.inputs()) + s.sparseTransposeBytes(s.inputs()),
			Weights: w1 + 2*ho + w2 + 2*c, Scratch: t1 + t2,
			Fields: []string{"node-features", "nodes"}},
		{What: phrase.New("the attention over the edges"), EpochWork: attn(GATHeads, GATHeadDim).Plus(attn(1, c)).Plus(Work{Dense: 3 * n * ho * c}),
			Bytes: (4 + f64*3*GATHeads) * arcs, Fields: []string{"edges", "nodes"}},
	}
}
