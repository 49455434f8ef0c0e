package pdn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/pdn/internal/kernels"
)

// Finite-difference gradient checks, in float64, for every op and layer with
// a hand-written backward pass. Each check perturbs every input coordinate
// by ±h, takes the central difference of a scalar loss, and wants it to
// agree with the analytic gradient to a relative error of 1e-6, both over
// the whole vector and per coordinate (with a tiny absolute floor for
// coordinates whose gradient is zero).

const (
	fdStep   = 1e-6
	fdRelTol = 1e-6
)

// checkGrad compares analytic with the central differences of loss over x.
//
// A step of h is the first tried; where it disagrees, 10h and 100h are too,
// and the check holds if one agrees: a small gradient (a mean self-loop's
// pathfinder, whose loss barely moves with the weights' common scale) is
// lost in the rounding of h's differences, and a ReLU's kink in 10h's, but
// a wrong gradient agrees at none. The error reported is h's.
func checkGrad(t *testing.T, name string, x, analytic []float64, loss func() float64) {
	t.Helper()
	if err := gradAgrees(name, x, analytic, loss); err != nil {
		t.Error(err)
	}
}

// gradAgrees is checkGrad's verdict: nil where the gradient agrees at one
// of the steps.
func gradAgrees(name string, x, analytic []float64, loss func() float64) error {
	err := gradError(name, x, analytic, loss, fdStep)
	for _, h := range []float64{10 * fdStep, 100 * fdStep} {
		if err == nil || gradError(name, x, analytic, loss, h) == nil {
			return nil
		}
	}
	return err
}

// gradError returns an error describing where analytic and the numeric
// gradient at step h disagree, or nil.
func gradError(name string, x, analytic []float64, loss func() float64, h float64) error {
	if len(analytic) != len(x) {
		return fmt.Errorf("%s: %d gradient entries for %d inputs", name, len(analytic), len(x))
	}
	numeric := make([]float64, len(x))
	for i := range x {
		orig := x[i]
		x[i] = orig + h
		up := loss()
		x[i] = orig - h
		down := loss()
		x[i] = orig
		numeric[i] = (up - down) / (2 * h)
	}
	var diff, na, nn float64
	for i := range x {
		d := analytic[i] - numeric[i]
		diff += d * d
		na += analytic[i] * analytic[i]
		nn += numeric[i] * numeric[i]
		scale := math.Max(math.Abs(analytic[i]), math.Abs(numeric[i]))
		if math.Abs(d) > fdRelTol*scale+1e-9 {
			return fmt.Errorf("%s[%d]: analytic %.10g, numeric %.10g (relative error %.2g)", name, i, analytic[i], numeric[i], math.Abs(d)/scale)
		}
	}
	if na == 0 && nn == 0 {
		return fmt.Errorf("%s: the gradient is identically zero, so the check proves nothing", name)
	}
	if rel := math.Sqrt(diff) / math.Max(math.Sqrt(na), math.Sqrt(nn)); rel > fdRelTol {
		return fmt.Errorf("%s: relative error %.3g > %g", name, rel, fdRelTol)
	}
	return nil
}

// TestGradCheckerCatchesErrors makes sure the checker itself can fail.
func TestGradCheckerCatchesErrors(t *testing.T) {
	x := []float64{1, 2, 3}
	loss := func() float64 { return x[0]*x[0] + x[1]*x[2] } // gradient (2, 3, 2)
	if err := gradAgrees("ok", x, []float64{2, 3, 2}, loss); err != nil {
		t.Errorf("right gradient rejected: %v", err)
	}
	for _, wrong := range [][]float64{{2, 3, 2.00001}, {-2, 3, 2}, {0, 0, 0}, {2, 3}} {
		if err := gradAgrees("wrong", x, wrong, loss); err == nil {
			t.Errorf("wrong gradient %v accepted", wrong)
		}
	}
}

func randSlice(rnd *rand.Rand, n int, scale float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = scale * rnd.NormFloat64()
	}
	return out
}

// project returns Σ r⊙y, a loss whose gradient with respect to y is r.
func project(r, y []float64) float64 { return kernels.Dot(r, y) }

// smallGraph is a random graph of n nodes with about m edges and d features.
func smallGraph(seed uint64, n, m, f, d, c int) *datasets.Graph {
	rnd := rand.New(rand.NewPCG(seed, 99))
	g := &datasets.Graph{N: n, F: f, C: c, D: d, X: randSlice(rnd, n*f, 1)}
	seen := map[[2]int32]bool{}
	for len(g.Src) < m {
		u, v := int32(rnd.IntN(n)), int32(rnd.IntN(n))
		if u == v || seen[[2]int32{min(u, v), max(u, v)}] {
			continue
		}
		seen[[2]int32{min(u, v), max(u, v)}] = true
		g.Src, g.Dst = append(g.Src, min(u, v)), append(g.Dst, max(u, v))
	}
	g.EdgeX = randSlice(rnd, m*d, 1)
	for i := 0; i < n; i++ {
		g.Labels = append(g.Labels, rnd.IntN(c))
		split := datasets.Train
		if i%4 == 3 {
			split = datasets.Test
		}
		g.Splits = append(g.Splits, split)
	}
	for e := range g.Src {
		k := datasets.KindInter
		if g.Labels[g.Src[e]] == g.Labels[g.Dst[e]] {
			k = datasets.KindIntra
		}
		g.Kind = append(g.Kind, k)
	}
	return g
}

func TestGradDense(t *testing.T) {
	for _, s := range []struct{ rows, in, out int }{{5, 3, 4}, {9, 7, 1}, {4, 8, 9}, {1, 2, 2}} {
		t.Run(fmt.Sprintf("%dx%d->%d", s.rows, s.in, s.out), func(t *testing.T) {
			rnd := rand.New(rand.NewPCG(1, uint64(s.rows)))
			l := newLinear(rnd, s.in, s.out)
			x := randSlice(rnd, s.rows*s.in, 1)
			r := randSlice(rnd, s.rows*s.out, 1)
			y := make([]float64, s.rows*s.out)
			loss := func() float64 { l.forward(y, x, s.rows); return project(r, y) }
			dx := make([]float64, len(x))
			l.backward(dx, x, r, s.rows)
			checkGrad(t, "W", l.w.val, l.w.grad, loss)
			checkGrad(t, "b", l.b.val, l.b.grad, loss)
			checkGrad(t, "x", x, dx, loss)
		})
	}
}

func TestGradReLU(t *testing.T) {
	rnd := rand.New(rand.NewPCG(2, 2))
	x := randSlice(rnd, 40, 1)
	r := randSlice(rnd, 40, 1)
	y := make([]float64, 40)
	loss := func() float64 { kernels.Relu(y, x); return project(r, y) }
	loss()
	dx := make([]float64, 40)
	kernels.ReluBackward(dx, r, y)
	checkGrad(t, "x", x, dx, loss)
}

func TestGradDropoutMask(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 3))
	x := randSlice(rnd, 30, 1)
	mask := make([]float64, 30)
	for i := range mask {
		mask[i] = 2 * kernels.Below(rnd.Uint64()>>32, 1<<31)
	}
	r := randSlice(rnd, 30, 1)
	y := make([]float64, 30)
	loss := func() float64 { kernels.MulInto(y, x, mask); return project(r, y) }
	dx := make([]float64, 30)
	kernels.MulInto(dx, r, mask)
	checkGrad(t, "x", x, dx, loss)
}

func TestGradPathfinder(t *testing.T) {
	for _, hidden := range [][]int{nil, {16}, {32, 16}, {3, 4, 5}} {
		t.Run(experiment.FormatSizes(hidden), func(t *testing.T) {
			const rows, d = 11, 6
			rnd := rand.New(rand.NewPCG(4, uint64(len(hidden))))
			z := randSlice(rnd, rows*d, 1)
			p := newPathfinder(rnd, z, rows, d, hidden, experiment.InitAlive)
			r := randSlice(rnd, rows, 1)
			loss := func() float64 { return project(r, p.forward()) }
			loss()
			for _, q := range p.params() {
				clear(q.grad)
			}
			p.backward(r)
			for i, q := range p.params() {
				checkGrad(t, fmt.Sprintf("param%d", i), q.val, q.grad, loss)
			}
		})
	}
}

func TestGradNormPropagate(t *testing.T) {
	g := smallGraph(5, 12, 25, 1, 1, 2)
	rnd := rand.New(rand.NewPCG(5, 5))
	const m = 3
	norm := newGCNNorm(newAdjacency(g.N, g.Src, g.Dst))
	w := make([]float64, g.E())
	for i := range w {
		w[i] = 0.1 + 0.8*rnd.Float64()
	}
	h := randSlice(rnd, g.N*m, 1)
	r := randSlice(rnd, g.N*m, 1)
	y := make([]float64, g.N*m)
	loss := func() float64 { norm.forward(w); norm.propagate(y, h, m); return project(r, y) }
	loss()
	gh := make([]float64, len(h))
	norm.propagate(gh, r, m) // Â is symmetric
	norm.accumulate(r, h, m)
	gw := make([]float64, g.E())
	norm.backward(gw)
	checkGrad(t, "h", h, gh, loss)
	checkGrad(t, "w", w, gw, loss)
}

func TestGradConv(t *testing.T) {
	g := smallGraph(6, 10, 20, 4, 1, 2)
	rnd := rand.New(rand.NewPCG(6, 6))
	const out = 5
	w := make([]float64, g.E())
	for i := range w {
		w[i] = 0.2 + 0.6*rnd.Float64()
	}
	for _, withGraph := range []bool{true, false} {
		t.Run(fmt.Sprint("graph=", withGraph), func(t *testing.T) {
			var norm *gcnNorm
			if withGraph {
				norm = newGCNNorm(newAdjacency(g.N, g.Src, g.Dst))
			}
			c := newConv(rnd, g.N, g.F, out, norm, withGraph)
			c.b.uniform(rnd, 1) // a zero bias would test nothing
			x := randSlice(rnd, g.N*g.F, 1)
			r := randSlice(rnd, g.N*out, 1)
			y := make([]float64, g.N*out)
			loss := func() float64 {
				if norm != nil {
					norm.forward(w)
				}
				c.forward(y, x, g.N)
				return project(r, y)
			}
			loss()
			dx := make([]float64, len(x))
			c.backward(dx, x, r, g.N)
			gw := make([]float64, g.E())
			if norm != nil { // before the checks run forward again
				norm.backward(gw)
			}
			checkGrad(t, "W", c.w.val, c.w.grad, loss)
			checkGrad(t, "b", c.b.val, c.b.grad, loss)
			checkGrad(t, "x", x, dx, loss)
			if norm != nil {
				checkGrad(t, "w", w, gw, loss)
			}
		})
	}
}

func TestGradLogSoftmaxNLL(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 7))
	const n, c = 8, 4
	logits := randSlice(rnd, n*c, 3)
	labels := make([]int, n)
	for i := range labels {
		labels[i] = rnd.IntN(c)
	}
	rows := []int{0, 2, 3, 5, 7}
	grad := make([]float64, n*c)
	logSoftmaxNLL(grad, logits, c, rows, labels)
	checkGrad(t, "logits", logits, grad, func() float64 { return logSoftmaxNLL(nil, logits, c, rows, labels) })
}

// checkNetwork checks every parameter's gradient of the mean NLL of a
// network, with the dropout masks held fixed by reseeding before each pass.
func checkNetwork(t *testing.T, net network, c int) {
	t.Helper()
	rnd := rand.New(rand.NewPCG(8, 8))
	for _, p := range net.params() { // biases start at zero; move them
		for i := range p.val {
			p.val[i] += 0.1 * rnd.NormFloat64()
		}
	}
	loss := func() float64 {
		net.reseed(7)
		logits := net.forward(true)
		rows, labels := net.lossRows()
		return weighedLoss(net, logSoftmaxNLL(nil, logits, c, rows, labels), nil)
	}
	for _, p := range net.params() {
		clear(p.grad)
	}
	net.reseed(7)
	logits := net.forward(true)
	rows, labels := net.lossRows()
	glogits := make([]float64, len(logits))
	weighedLoss(net, logSoftmaxNLL(glogits, logits, c, rows, labels), glogits)
	net.backward(glogits)
	grads := make([][]float64, len(net.params()))
	for i, p := range net.params() {
		grads[i] = append([]float64(nil), p.grad...)
	}
	for i, p := range net.params() {
		checkGrad(t, fmt.Sprintf("param%d", i), p.val, grads[i], loss)
	}
}

// sparsified returns g with two thirds of its node features set to zero
// and the rest held sparse, as bag-of-words features are.
func sparsified(g *datasets.Graph) *datasets.Graph {
	s := *g
	x := append([]float64(nil), g.X...)
	for i := range x {
		if i%3 != 0 {
			x[i] = 0
		}
	}
	s.X, s.XS = nil, datasets.SparseOf(x, g.N, g.F)
	return &s
}

func TestGradNetworks(t *testing.T) {
	dense := smallGraph(8, 30, 70, 5, 4, 3)
	for _, g := range []*datasets.Graph{dense, sparsified(dense)} {
		testGradNetworks(t, g)
	}
}

// The models that take a learned graph (experiment.FromPDN) propagate
// over its weights: checked on a graph whose edges weigh from 0 to 1.
func TestGradNetworksOverWeights(t *testing.T) {
	g := *smallGraph(8, 30, 70, 5, 4, 3)
	g.Weight = make([]float64, g.E())
	for e := range g.Weight {
		g.Weight[e] = float64(e%11) / 10
	}
	for _, kind := range experiment.ModelsWhere(func(m experiment.ModelKind) bool { return m.TakesWeights }) {
		for _, loop := range []string{experiment.SelfLoopOne, experiment.SelfLoopMean} {
			t.Run(kind+"-"+loop, func(t *testing.T) {
				cfg := experiment.Model{Kind: kind, Hidden: 7, Dropout: 0.5, SelfLoop: loop, GraphFrom: experiment.FromPDN}
				net := newNetwork(&g, cfg, 3)
				net.forward(false)
				if w := net.edgeWeights(); !slices.Equal(w, g.Weight) {
					t.Fatalf("%s propagates with weights %v, not the graph's", kind, w)
				}
				checkNetwork(t, net, g.C)
			})
		}
	}
}

// gradCase is a model checked by testGradNetworks, with its settings.
type gradCase struct {
	kind     string
	hidden   []int
	dropout  float64
	edgeDrop float64
	hops     int
	selfLoop string
}

func testGradNetworks(t *testing.T, g *datasets.Graph) {
	form := "dense"
	if g.XS != nil {
		form = "sparse"
	}
	cases := []gradCase{
		{experiment.PDN, []int{6}, 0.5, 0.3, 0, ""},
		{experiment.PDNLinear, nil, 0.5, 0.3, 0, ""},
		{experiment.PDNEdgeConv, nil, 0, 0.3, 0, ""},
		{experiment.PDN, nil, 0, 0, 0, ""},
		{experiment.PDN, []int{5, 4}, 0.3, 0, 0, ""},
		{experiment.PDNLinear, nil, 0.5, 0, 0, ""},
		{experiment.PDNEdgeConv, nil, 0.5, 0, 0, ""},
		// K = 1 is left out: softmax over one power is the constant 1, so
		// α's gradient is zero and the check would prove nothing.
		{experiment.PDNMultiScale, nil, 0.5, 0, 2, ""},
		{experiment.PDNMultiScale, nil, 0, 0, 5, ""},
		{experiment.GCN, nil, 0.5, 0, 0, ""},
		{experiment.MLP, nil, 0.5, 0, 0, ""},
		{experiment.SGC, nil, 0, 0, 0, ""},
		{experiment.APPNP, nil, 0.5, 0, 0, ""},
		{experiment.GAT, nil, 0.5, 0, 0, ""},
		{experiment.DeepWalk, nil, 0, 0, 0, ""},
	}
	// Every kind of the model table is checked: those above with their
	// variants, ClusterGCN batch by batch (TestGradClusterGCNBatch), and
	// any other as the table sets it, so a new kind cannot go unchecked.
	for _, kind := range experiment.Kinds {
		if kind != experiment.ClusterGCN && !slices.ContainsFunc(cases, func(c gradCase) bool { return c.kind == kind }) {
			cases = append(cases, gradCase{kind, nil, 0.5, 0, 0, ""})
		}
	}
	// Every kind that reads the self-loop row is checked under its mean
	// rule too, as it trains on the bag-of-words graphs.
	for _, c := range slices.Clone(cases) {
		if m, _ := experiment.ModelNamed(c.kind); slices.Contains(m.Rows, "self-loop") {
			c.selfLoop = experiment.SelfLoopMean
			cases = append(cases, c)
		}
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%s-%s-%s-%.1f-%.1f-K%d%s", form, tc.kind, experiment.FormatSizes(tc.hidden), tc.dropout, tc.edgeDrop, tc.hops, tc.selfLoop), func(t *testing.T) {
			cfg := experiment.Model{Kind: tc.kind, EdgeHidden: tc.hidden, Hidden: 7, Dropout: tc.dropout, EdgeDrop: tc.edgeDrop, Hops: tc.hops, SelfLoop: tc.selfLoop}
			g := forKind(tc.kind, g)
			if err := checkTrainable(g, experiment.Default().Data, cfg); err != nil {
				t.Fatal(err)
			}
			net := newNetwork(g, cfg, 3)
			checkNetwork(t, net, g.C)
		})
	}
}

func TestGradClusterGCNBatch(t *testing.T) {
	dense := smallGraph(9, 60, 150, 5, 2, 3)
	for _, g := range []*datasets.Graph{dense, sparsified(dense)} {
		net := newNetwork(g, experiment.Model{Kind: experiment.ClusterGCN, Hidden: 6, Dropout: 0.5}, 4)
		b := net.(batched)
		if b.batches() < 2 {
			t.Fatalf("%d batches", b.batches())
		}
		b.setBatch(0)
		checkNetwork(t, net, g.C)
		b.setBatch(-1)
		checkNetwork(t, net, g.C)
	}
}

// A layer whose input is sparse node features: the gradients of W and b.
func TestGradDenseSparseInput(t *testing.T) {
	for _, s := range []struct{ rows, in, out int }{{5, 3, 4}, {9, 7, 1}, {4, 8, 9}} {
		t.Run(fmt.Sprintf("%dx%d->%d", s.rows, s.in, s.out), func(t *testing.T) {
			rnd := rand.New(rand.NewPCG(11, uint64(s.rows)))
			l := newLinear(rnd, s.in, s.out)
			x := randSlice(rnd, s.rows*s.in, 1)
			for i := range x {
				if rnd.IntN(2) == 0 {
					x[i] = 0
				}
			}
			l.sx = datasets.SparseOf(x, s.rows, s.in)
			r := randSlice(rnd, s.rows*s.out, 1)
			y := make([]float64, s.rows*s.out)
			loss := func() float64 { l.forward(y, nil, s.rows); return project(r, y) }
			l.backward(nil, nil, r, s.rows)
			checkGrad(t, "W", l.w.val, l.w.grad, loss)
			checkGrad(t, "b", l.b.val, l.b.grad, loss)
		})
	}
}
