package pdn

import (
	"math"
	"math/rand/v2"
	"slices"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/pdn/internal/kernels"
)

// nodeOp is a linear map over the nodes, y = O·h for h of n rows of m
// columns, and its transpose: the neighbourhood a polynomial convolution
// (polyConv) mixes.
type nodeOp interface {
	apply(y, h []float64, m int)
	applyT(y, h []float64, m int)
	// rows combines the rows of a sparse h as apply does, for a layer's
	// input: row i of O·h is Σ c·h_j over the (j, c) each calls add with.
	rows(i int, add func(j int, c float64))
}

// meanOp is GraphSAGE's mean over a node's neighbours, as PyG's scatter
// mean takes it: the sum of the neighbours' rows, then divided by their
// number; a node without neighbours gets zeros.
type meanOp struct {
	adj *adjacency
	deg []float64
}

func newMeanOp(adj *adjacency) *meanOp {
	o := &meanOp{adj: adj, deg: make([]float64, adj.n)}
	for i := range adj.n {
		o.deg[i] = float64(adj.rowPtr[i+1] - adj.rowPtr[i])
	}
	return o
}

func (o *meanOp) apply(y, h []float64, m int) {
	a := o.adj
	for i := range a.n {
		yi := y[i*m : (i+1)*m]
		clear(yi)
		for k := a.rowPtr[i]; k < a.rowPtr[i+1]; k++ {
			kernels.AddTo(yi, rowOf(h, a.col[k], m))
		}
		if d := o.deg[i]; d > 0 {
			for c := range yi {
				yi[c] /= d
			}
		}
	}
}

// applyT is Oᵀ·h: row j gets h_i/deg_i from each neighbour i (the
// adjacency is symmetric).
func (o *meanOp) applyT(y, h []float64, m int) {
	a := o.adj
	clear(y[:a.n*m])
	for i := range a.n {
		d := o.deg[i]
		if d == 0 {
			continue
		}
		hi := h[i*m : (i+1)*m]
		for k := a.rowPtr[i]; k < a.rowPtr[i+1]; k++ {
			yj := rowOf(y, a.col[k], m)
			for c, v := range hi {
				yj[c] += v / d
			}
		}
	}
}

func (o *meanOp) rows(i int, add func(j int, c float64)) {
	a := o.adj
	if o.deg[i] == 0 {
		return
	}
	for k := a.rowPtr[i]; k < a.rowPtr[i+1]; k++ {
		add(int(a.col[k]), 1/o.deg[i])
	}
}

// lapOp is ChebConv's scaled Laplacian with PyG's defaults (the symmetric
// normalisation, λ_max = 2): L̂ = 2L/λ_max − I = −D^{-1/2} A D^{-1/2},
// D the plain degrees (no self-loops), 0 on the diagonal. It is
// symmetric.
type lapOp struct {
	adj  *adjacency
	coef []float64 // per arc: −d_i^{-1/2} d_j^{-1/2}
}

func newLapOp(adj *adjacency) *lapOp {
	dis := make([]float64, adj.n)
	for i := range adj.n {
		if d := float64(adj.rowPtr[i+1] - adj.rowPtr[i]); d > 0 {
			dis[i] = 1 / math.Sqrt(d)
		}
	}
	o := &lapOp{adj: adj, coef: make([]float64, len(adj.col))}
	for i := range adj.n {
		for k := adj.rowPtr[i]; k < adj.rowPtr[i+1]; k++ {
			o.coef[k] = -(dis[adj.col[k]] * dis[i])
		}
	}
	return o
}

func (o *lapOp) apply(y, h []float64, m int) {
	a := o.adj
	for i := range a.n {
		yi := y[i*m : (i+1)*m]
		clear(yi)
		for k := a.rowPtr[i]; k < a.rowPtr[i+1]; k++ {
			c, hj := o.coef[k], rowOf(h, a.col[k], m)
			for x, v := range hj {
				yi[x] += c * v
			}
		}
	}
}

func (o *lapOp) applyT(y, h []float64, m int) { o.apply(y, h, m) }

func (o *lapOp) rows(i int, add func(j int, c float64)) {
	a := o.adj
	for k := a.rowPtr[i]; k < a.rowPtr[i+1]; k++ {
		add(int(a.col[k]), o.coef[k])
	}
}

// polyConv is a graph convolution that mixes K terms of the input,
//
//	y = Σ_k T_k(x)·W_kᵀ + b,
//
// with T_0 = x and either T_1 = O·x (GraphSAGE: O the mean over the
// neighbours, W_0 its lin_r and W_1 its lin_l) or the Chebyshev
// recurrence T_1 = L̂x, T_k = 2L̂·T_{k−1} − T_{k−2} (ChebConv). The first
// layer's input is the node features, fixed: its terms are computed once,
// sparse where the features are.
type polyConv struct {
	in, out int
	op      nodeOp
	cheb    bool
	w       []*tensor // W_k, out×in each
	b       *tensor
	wt      []float64
	fixed   bool            // the terms are of the node features, computed once
	t       [][]float64     // T_k(x), dense
	ts      []*datasets.CSR // T_k(x), sparse, for fixed sparse features
	tst     []transposed    // each of ts transposed, for W_k's gradient
	gt      [][]float64     // ∂L/∂T_k, made at the first backward that needs it
	tmp     []float64
	pc      *pacer
}

// newPolyConv makes a layer of terms terms over n nodes; glorot draws
// its weights as ChebConv does, else as torch.nn.Linear (SAGEConv).
func newPolyConv(rnd *rand.Rand, n, in, out, terms int, op nodeOp, cheb bool) *polyConv {
	l := &polyConv{in: in, out: out, op: op, cheb: cheb, b: newTensor(out), wt: make([]float64, in*out), tmp: make([]float64, n*out)}
	for range terms {
		w := newTensor(in * out)
		if cheb {
			w.glorot(rnd, in, out)
		} else {
			w.uniform(rnd, 1/math.Sqrt(float64(in)))
		}
		l.w = append(l.w, w)
		l.t = append(l.t, nil)
	}
	if !cheb { // SAGEConv's lin_l has a bias, drawn as torch.nn.Linear's
		l.b.uniform(rnd, 1/math.Sqrt(float64(in)))
	}
	return l
}

func (l *polyConv) params() []*tensor { return append(slices.Clone(l.w), l.b) }

// fixInput computes the terms of the node features of g once.
func (l *polyConv) fixInput(g *datasets.Graph) {
	l.fixed = true
	if g.XS == nil {
		l.terms(g.X, g.N)
		return
	}
	l.ts = []*datasets.CSR{g.XS}
	if len(l.w) > 1 {
		l.ts = append(l.ts, combineRows(g.N, g.F, func(i int, add func(*datasets.CSR, int, float64)) {
			l.op.rows(i, func(j int, c float64) { add(g.XS, j, c) })
		}))
	}
	for k := 2; k < len(l.w); k++ {
		prev, prev2 := l.ts[k-1], l.ts[k-2]
		l.ts = append(l.ts, combineRows(g.N, g.F, func(i int, add func(*datasets.CSR, int, float64)) {
			l.op.rows(i, func(j int, c float64) { add(prev, j, 2*c) })
			add(prev2, i, -1)
		}))
	}
}

// terms computes T_k(x) for x of rows rows into l.t.
func (l *polyConv) terms(x []float64, rows int) {
	l.t[0] = x
	for k := 1; k < len(l.w); k++ {
		if len(l.t[k]) != rows*l.in {
			l.t[k] = make([]float64, rows*l.in)
		}
		l.op.apply(l.t[k], l.t[k-1], l.in)
		if k >= 2 {
			tk, t2 := l.t[k], l.t[k-2]
			for i := range tk {
				tk[i] = 2*tk[i] - t2[i]
			}
		}
	}
}

// term is T_k(x), dense or sparse.
func (l *polyConv) term(k int) ([]float64, *datasets.CSR) {
	if l.ts != nil {
		return nil, l.ts[k]
	}
	return l.t[k], nil
}

// termT is where T_k(x)'s transpose is kept, when T_k(x) is sparse.
func (l *polyConv) termT(k int) *transposed {
	if l.ts == nil {
		return nil
	}
	if len(l.tst) != len(l.ts) {
		l.tst = make([]transposed, len(l.ts))
	}
	return &l.tst[k]
}

func (l *polyConv) forward(y, x []float64, rows int) {
	if !l.fixed {
		l.terms(x, rows)
	}
	clear(y[:rows*l.out])
	for k, w := range l.w {
		t, ts := l.term(k)
		l.pc.xMulWT(l.tmp, t, ts, w.val, l.wt, rows, l.in, l.out)
		kernels.AddTo(y[:rows*l.out], l.tmp[:rows*l.out])
	}
	kernels.AddRows(y, l.b.val, rows, l.out)
}

// backward accumulates every W_k's and b's gradient and, for a layer
// whose input is not fixed, sets dx = ∂L/∂x through the recurrence:
// ∂T_k = dy·W_k, then from the last term down ∂T_{k−1} += 2L̂ᵀ∂T_k and
// ∂T_{k−2} −= ∂T_k (Chebyshev), or ∂x += Oᵀ∂T_1 (GraphSAGE).
func (l *polyConv) backward(dx, dy []float64, rows int) {
	kernels.SumRowsAdd(l.b.grad, dy, rows, l.out)
	for k, w := range l.w {
		t, ts := l.term(k)
		l.pc.addGTX(w.grad, dy, t, ts, l.termT(k), l.wt, rows, l.out, l.in)
	}
	if dx == nil {
		return
	}
	if l.gt == nil {
		for range l.w {
			l.gt = append(l.gt, make([]float64, rows*l.in))
		}
	}
	for k, w := range l.w {
		kernels.Transpose(l.wt, w.val, l.out, l.in)
		l.pc.mulABT(l.gt[k], dy, l.wt, rows, l.out, l.in)
	}
	n := rows * l.in
	for k := len(l.w) - 1; k >= 1; k-- {
		if k >= 2 {
			l.op.applyT(dx[:n], l.gt[k], l.in)
			g1, g2, gk := l.gt[k-1], l.gt[k-2], l.gt[k]
			for i := range n {
				g1[i] += 2 * dx[i]
				g2[i] -= gk[i]
			}
			continue
		}
		l.op.applyT(dx[:n], l.gt[1], l.in)
		kernels.AddTo(l.gt[0][:n], dx[:n])
	}
	copy(dx[:n], l.gt[0][:n])
}

// combineRows builds an n×f sparse matrix whose row i is the sum of the
// rows row(i, add) names, each scaled: add(src, j, c) adds c times row j
// of src. Entries that sum to exactly 0 are left out.
func combineRows(n, f int, row func(i int, add func(src *datasets.CSR, j int, c float64))) *datasets.CSR {
	out := &datasets.CSR{Rows: n, Cols: f, Ptr: make([]int, n+1)}
	acc, seen := make([]float64, f), make([]bool, f)
	var touched []int32
	for i := range n {
		row(i, func(src *datasets.CSR, j int, c float64) {
			for p := src.Ptr[j]; p < src.Ptr[j+1]; p++ {
				col := src.Col[p]
				if !seen[col] {
					seen[col] = true
					touched = append(touched, col)
				}
				acc[col] += c * src.Val[p]
			}
		})
		slices.Sort(touched)
		for _, col := range touched {
			if acc[col] != 0 {
				out.Col = append(out.Col, col)
				out.Val = append(out.Val, acc[col])
			}
			acc[col], seen[col] = 0, false
		}
		touched = touched[:0]
		out.Ptr[i+1] = len(out.Col)
	}
	return out
}

// polyNet is two polynomial convolutions with a ReLU and dropout between,
// as GCN: logits = P₂(drop(ReLU(P₁(X)))).
type polyNet struct {
	g                *datasets.Graph
	rows             []int
	l1, l2           *polyConv
	drop             *dropout
	a1, d1, ga1, gd1 []float64
	in2, logits      []float64
	w                []float64 // every edge weighs 1
}

func newPolyNet(g *datasets.Graph, cfg experiment.Model, rnd *rand.Rand, terms int, op func(*adjacency) nodeOp, cheb bool) *polyNet {
	h, n := cfg.Hidden, g.N
	o := op(newAdjacency(g.N, g.Src, g.Dst))
	m := &polyNet{g: g, rows: g.Nodes(datasets.Train),
		l1: newPolyConv(rnd, n, g.F, h, terms, o, cheb), l2: newPolyConv(rnd, n, h, g.C, terms, o, cheb),
		drop: newDropout(cfg.Dropout, n*h), a1: make([]float64, n*h), d1: make([]float64, n*h),
		ga1: make([]float64, n*h), gd1: make([]float64, n*h), logits: make([]float64, n*g.C), w: ones(g.E())}
	m.l1.fixInput(g)
	return m
}

func (m *polyNet) params() []*tensor              { return append(m.l1.params(), m.l2.params()...) }
func (m *polyNet) reseed(seed uint64)             { m.drop.reseed(seed) }
func (m *polyNet) setPacer(pc *pacer)             { m.l1.pc, m.l2.pc = pc, pc }
func (m *polyNet) lossRows() (rows, labels []int) { return m.rows, m.g.Labels }
func (m *polyNet) edgeWeights() []float64         { return m.w }
func (m *polyNet) streams() []*rand.PCG           { return []*rand.PCG{m.drop.rnd} }

func (m *polyNet) forward(training bool) []float64 {
	n := m.g.N
	m.l1.forward(m.a1, nil, n)
	kernels.Relu(m.a1, m.a1)
	m.in2 = m.drop.apply(m.d1, m.a1, training)
	m.l2.forward(m.logits, m.in2, n)
	return m.logits
}

func (m *polyNet) backward(glogits []float64) {
	n := m.g.N
	m.l2.backward(m.gd1, glogits, n)
	m.drop.backward(m.gd1, m.gd1)
	kernels.ReluBackward(m.ga1, m.gd1, m.a1)
	m.l1.backward(nil, m.ga1, n)
}

// polyNetCost is a polyNet of terms terms over a graph of shape s: the
// first layer's terms once, the products of both layers and the second
// layer's terms each epoch.
func polyNetCost(s Shape, m experiment.Model, terms int) []Part {
	n, e := float64(s.N), float64(s.E)
	h, c, k := float64(m.Hidden), float64(s.C), float64(terms)
	prop := func(width float64) Work { return Work{Gather: 2 * (k - 1) * 2 * e * width} }
	w1, t1 := layerWeights(float64(s.F), h, k)
	w2, t2 := layerWeights(h, c, k)
	// The first layer's input terms T_0 = X … T_{k−1}, made once: dense,
	// each hop a propagation of F columns; sparse, rows that grow denser
	// with each hop (termInputs), which the epoch's products then read.
	first := Part{What: phrase.New("the first layer over the node features"), SetupWork: Work{Gather: (k - 1) * 2 * e * float64(s.F)},
		EpochWork: s.features(2*k*h, h), Bytes: k*f64*s.inputs() + f64*6*n*h, Weights: w1, Scratch: t1, Fields: []string{"hidden", "node-features", "nodes", "edges"}}
	if s.NNZ > 0 {
		var all, made, transposes float64
		for j := range terms {
			t := s.termInputs(j)
			all += t
			transposes += s.sparseTransposeBytes(t)
			if j > 0 {
				made += t
			}
		}
		// Every term's products read and add to the one Wᵀ (F×h).
		first.SetupWork, first.EpochWork = Work{Gather: made}, Work{Gather: 2 * h * all * spill(float64(s.F)*h)}
		first.Bytes = 12*all + 8*(n+1)*k + f64*6*n*h + transposes // a value and a column a non-zero, a row offset a node a term
	}
	return []Part{
		first,
		{What: phrase.New("the second layer"), EpochWork: Work{Dense: 3 * k * n * h * c}.Plus(prop(h)), Bytes: f64 * (2*k*n*h + 3*n*c), Weights: w2, Scratch: t2,
			Fields: []string{"hidden", "nodes", "edges"}},
		{What: phrase.New("the normalised adjacency"), Bytes: 4*(n+4*e) + f64*(n+2*e), Fields: []string{"edges", "nodes"}},
	}
}

// rowOf returns row j of h, whose rows hold m values.
func rowOf(h []float64, j int32, m int) []float64 {
	return h[int(j)*m : int(j+1)*m]
}
