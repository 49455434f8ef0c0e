package pdn

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/pdn/internal/kernels"
)

// The trace of a node equals, to 1e-9, the same node's row of the whole
// network computed with dense matrices: Â = D^{-1/2}(A_α + I)D^{-1/2},
// H = ReLU(Â X W₁ᵀ + b₁), Z = Â H W₂ᵀ + b₂; each message is its
// neighbour's row of X W₁ᵀ (H W₂ᵀ) scaled by Â_ij, and a trace changes
// nothing of the training that follows.
func TestTraceIsTheDenseComputation(t *testing.T) {
	for _, kind := range []string{experiment.PDN, experiment.PDNLinear, experiment.GCN} {
		t.Run(kind, func(t *testing.T) {
			e := experiment.Default()
			e.Data.PerClass, e.Train.Epochs, e.Model.Kind = 100, 20, kind
			g, err := datasets.Synthetic(e.Data)
			if err != nil {
				t.Fatal(err)
			}
			tr, err := NewTrainer(g, e)
			if err != nil {
				t.Fatal(err)
			}
			twin, _ := NewTrainer(g, e)
			for range 10 {
				tr.Step()
				twin.Step()
			}
			s := tr.Evaluate()
			edges := 0
			for _, i := range []int{0, 17, 150, g.N - 1} {
				got, err := tr.Trace(i)
				if err != nil {
					t.Fatal(err)
				}
				checkTrace(t, tr, g, s.Weights, got)
				edges += len(got.Edges)
				if got.Pred != s.Pred[i] {
					t.Errorf("node %d: the trace predicts %d, the snapshot %d", i, got.Pred, s.Pred[i])
				}
			}
			if edges == 0 {
				t.Fatal("no traced node has an edge: the test checks no message")
			}
			// After a step and no evaluation, the trace runs its own.
			tr.Step()
			twin.Step()
			got, err := tr.Trace(150)
			if err != nil {
				t.Fatal(err)
			}
			checkTrace(t, tr, g, tr.Evaluate().Weights, got)
			for range 4 {
				tr.Step()
				twin.Step()
			}
			a, b := tr.Evaluate(), twin.Evaluate()
			if a.Loss != b.Loss || a.TestAcc != b.TestAcc {
				t.Errorf("tracing changed the training: loss %v, untraced %v", a.Loss, b.Loss)
			}
		})
	}
}

func checkTrace(t *testing.T, tr *Trainer, g *datasets.Graph, w []float64, got *Trace) {
	t.Helper()
	m := tr.net.(*gcnNet)
	n, h, c := g.N, m.l1.out, g.C
	deg := make([]float64, n)
	for i := range deg {
		deg[i] = 1
	}
	for e := range g.Src {
		deg[g.Src[e]] += w[e]
		deg[g.Dst[e]] += w[e]
	}
	ahat := mat.NewDense(n, n, nil)
	for i := range n {
		ahat.Set(i, i, 1/deg[i])
	}
	for e := range g.Src {
		u, v := int(g.Src[e]), int(g.Dst[e])
		x := w[e] / math.Sqrt(deg[u]*deg[v])
		ahat.Set(u, v, x)
		ahat.Set(v, u, x)
	}
	x := mat.NewDense(n, g.F, g.DenseX())
	w1 := mat.NewDense(h, g.F, m.l1.w.val)
	w2 := mat.NewDense(c, h, m.l2.w.val)
	var xw, pre mat.Dense
	xw.Mul(x, w1.T())
	pre.Mul(ahat, &xw)
	hid := mat.NewDense(n, h, nil)
	hid.Apply(func(i, j int, v float64) float64 { return math.Max(0, v+m.l1.b.val[j]) }, &pre)
	var hw, z mat.Dense
	hw.Mul(hid, w2.T())
	z.Mul(ahat, &hw)
	i := got.Node
	near := func(what string, a, b float64) {
		if math.Abs(a-b) > 1e-9 {
			t.Errorf("node %d, %s: trace %v, dense %v", i, what, a, b)
		}
	}
	for k := range h {
		near("pre-activation", got.Pre1[k], pre.At(i, k)+m.l1.b.val[k])
		near("hidden", got.Hidden[k], hid.At(i, k))
		near("own message 1", got.SelfMsg1[k], ahat.At(i, i)*xw.At(i, k))
	}
	for k := range c {
		near("logit", got.Logits[k], z.At(i, k)+m.l2.b.val[k])
	}
	near("degree", got.Degree, deg[i])
	var sum, inter float64 = ahat.At(i, i), 0
	for _, te := range got.Edges {
		j := te.Neighbour
		near("â", te.Norm, ahat.At(i, j))
		near("α", te.Alpha, w[te.Edge])
		for k := range h {
			near("message 1", te.Msg1[k], ahat.At(i, j)*xw.At(j, k))
		}
		for k := range c {
			near("message 2", te.Msg2[k], ahat.At(i, j)*hw.At(j, k))
		}
		sum += te.Norm
		if g.Labels[j] != g.Labels[i] {
			inter += te.Norm
		}
	}
	near("inter-class share", got.InterShare, inter/sum)
	if tr.exp.Model.Kind == experiment.GCN {
		near("GCN's share, every α = 1", got.InterShareGCN, got.InterShare)
	}
	var ps float64
	for _, p := range got.Prob {
		ps += p
	}
	near("Σ softmax", ps, 1)
}

// Models without one learned graph have no trace, and say why.
func TestTraceRefusesOtherModels(t *testing.T) {
	e := experiment.Default()
	e.Data.PerClass, e.Model.Kind = 20, experiment.MLP
	g, _ := datasets.Synthetic(e.Data)
	tr, err := NewTrainer(g, e)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Trace(0); err == nil {
		t.Error("an MLP has a trace")
	}
	e.Model.Kind = experiment.PDN
	tr, _ = NewTrainer(g, e)
	if _, err := tr.Trace(g.N); err == nil {
		t.Error("a node beyond the graph has a trace")
	}
}

// GAT's trace is its attention recomputed by hand: for each edge, the
// first layer's heads' mean of softmax_j LeakyReLU(a_dst·W x_i + a_src·W x_j)
// over N(i) ∪ {i}; the messages sum to the layer's input to the ELU, and
// the prediction is the snapshot's.
func TestTraceGAT(t *testing.T) {
	g, e := smallRun(t, experiment.GAT)
	tr := mustTrainer(t, g, e)
	runEpochs(t, tr, 10)
	s := tr.Evaluate()
	l1 := tr.net.(*gat).l1
	H, O, in := l1.Heads, l1.O, l1.in
	x := g.DenseX()
	wx := func(j, h int) []float64 { // W^h x_j
		out := make([]float64, O)
		for o := range O {
			for f := range in {
				out[o] += l1.w.val[(h*O+o)*in+f] * x[j*in+f]
			}
		}
		return out
	}
	edges := 0
	for _, i := range []int{0, 31, 50, g.N - 1} {
		got, err := tr.Trace(i)
		if err != nil {
			t.Fatal(err)
		}
		nb := []int{i}
		for _, te := range got.Edges {
			nb = append(nb, te.Neighbour)
		}
		mean := make([]float64, len(nb))
		for h := range H {
			as, ad := l1.aSrc.val[h*O:(h+1)*O], l1.aDst.val[h*O:(h+1)*O]
			ti := kernels.Dot(ad, wx(i, h))
			ex := make([]float64, len(nb))
			var sum float64
			for k, j := range nb {
				ex[k] = math.Exp(kernels.Leaky(ti + kernels.Dot(as, wx(j, h))))
				sum += ex[k]
			}
			for k := range nb {
				mean[k] += ex[k] / sum / float64(H)
			}
		}
		if math.Abs(mean[0]-got.Self) > 1e-9 {
			t.Errorf("node %d: self attention %v, by hand %v", i, got.Self, mean[0])
		}
		pre := append([]float64(nil), got.SelfMsg1...)
		for k, te := range got.Edges {
			if math.Abs(mean[k+1]-te.Alpha) > 1e-9 || te.Norm != te.Alpha {
				t.Errorf("node %d, edge to %d: α %v, by hand %v", i, te.Neighbour, te.Alpha, mean[k+1])
			}
			for o := range pre {
				pre[o] += te.Msg1[o]
			}
			edges++
		}
		for o := range pre {
			pre[o] += got.Bias1[o]
			if math.Abs(pre[o]-got.Pre1[o]) > 1e-9 || math.Abs(elu(got.Pre1[o])-got.Hidden[o]) > 1e-12 {
				t.Fatalf("node %d, unit %d: messages sum to %v, the layer has %v", i, o, pre[o], got.Pre1[o])
			}
		}
		if got.Pred != s.Pred[i] || math.Abs(got.Prob[got.Pred]-s.Prob[i]) > 1e-9 || !got.Attention || !(got.InterShare >= 0 && got.InterShare <= 1) {
			t.Errorf("node %d: predicts %d (%v), the snapshot %d (%v); share %v", i, got.Pred, got.Prob[got.Pred], s.Pred[i], s.Prob[i], got.InterShare)
		}
	}
	if edges == 0 {
		t.Fatal("no traced node has an edge")
	}
}
