package pdn

import (
	"math"
	"testing"

	"pdnexplorer/experiment"
	"pdnexplorer/pdn/internal/kernels"
)

// TestEdgeRepresentations: PDN's are the pathfinder's last hidden layer
// (as Pathfinder computes it for one edge); GAT's, both directions' first-
// layer logits, whose softmax over a node's neighbourhood is its α
// (DirectedWeights); GCN has none.
func TestEdgeRepresentations(t *testing.T) {
	g, e := smallRun(t, experiment.PDN)
	tr := mustTrainer(t, g, e)
	for range 3 {
		tr.Step()
	}
	reps, dim, ok := tr.EdgeRepresentations()
	if !ok || dim != e.Model.EdgeHidden[len(e.Model.EdgeHidden)-1] || len(reps) != g.E()*dim {
		t.Fatalf("PDN: ok %v, dim %d, %d numbers for %d edges", ok, dim, len(reps), g.E())
	}
	for _, edge := range []int{0, g.E() / 2, g.E() - 1} {
		h, _, _ := tr.Pathfinder(g.EdgeX[edge*g.D : (edge+1)*g.D])
		for j, v := range h {
			if math.Abs(reps[edge*dim+j]-v) > 1e-12 {
				t.Fatalf("PDN edge %d unit %d: %v, Pathfinder says %v", edge, j, reps[edge*dim+j], v)
			}
		}
	}

	g, e = smallRun(t, experiment.GAT)
	tr = mustTrainer(t, g, e)
	tr.Step()
	reps, dim, ok = tr.EdgeRepresentations()
	if !ok || dim != 2*GATHeads || len(reps) != g.E()*dim {
		t.Fatalf("GAT: ok %v, dim %d, %d numbers for %d edges", ok, dim, len(reps), g.E())
	}
	// Node i's α over its neighbourhood is the softmax of the logits of
	// the messages it receives, its self-loop's among them.
	a := tr.net.(*gat)
	l := a.l1
	for _, i := range []int{0, g.N / 2} {
		for h := 0; h < GATHeads; h++ {
			var sum float64
			lo, hi := l.g.rowPtr[i], l.g.rowPtr[i+1]
			m := math.Inf(-1)
			logit := func(k int32) float64 {
				edge := int(l.g.eid[k])
				if edge < 0 {
					return kernels.Leaky(l.Pre[int(k)*GATHeads+h])
				}
				half := 1
				if int(g.Dst[edge]) == i {
					half = 0
				}
				return reps[edge*dim+half*GATHeads+h]
			}
			for k := lo; k < hi; k++ {
				m = max(m, logit(k))
			}
			for k := lo; k < hi; k++ {
				sum += math.Exp(logit(k) - m)
			}
			for k := lo; k < hi; k++ {
				if want, got := math.Exp(logit(k)-m)/sum, l.Alpha[int(k)*GATHeads+h]; math.Abs(want-got) > 1e-9 {
					t.Fatalf("GAT node %d head %d arc %d: softmax of the logits %v, α %v", i, h, k, want, got)
				}
			}
		}
	}

	g, e = smallRun(t, experiment.GCN)
	if _, _, ok := mustTrainer(t, g, e).EdgeRepresentations(); ok {
		t.Errorf("GCN has edge representations")
	}
}
