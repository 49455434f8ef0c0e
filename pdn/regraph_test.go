package pdn

import (
	"errors"
	"testing"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
)

// A trainer regraphed onto the very same graph goes on bit for bit as the
// one it came from, for every model that can carry on: Regraph carries
// every weight, Adam's state and every random stream. Those whose set-up
// reads the edges (DeepWalk, ClusterGCN, the embeddings) say they start
// over.
func TestRegraphCarriesOn(t *testing.T) {
	for _, kind := range experiment.Kinds {
		t.Run(kind, func(t *testing.T) {
			g, e := smallRun(t, kind)
			a := mustTrainer(t, g, e)
			runEpochs(t, a, 3)
			b, err := a.Regraph(g)
			if m, _ := experiment.ModelNamed(kind); m.SetupReadsEdges {
				if !errors.Is(err, ErrRegraph) {
					t.Fatalf("Regraph: %v, want ErrRegraph", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if b.Epoch() != 3 {
				t.Errorf("epoch %d after regraph, want 3", b.Epoch())
			}
			for range 3 {
				la, _ := a.Step()
				lb, _ := b.Step()
				sameBits(t, []float64{lb}, []float64{la})
			}
			sameBits(t, b.Evaluate().Prob, a.Evaluate().Prob)
		})
	}
}

// Regraphed onto an edited graph, the model reads the new edge at once:
// the added edge gets a weight, and removing it again restores every
// prediction to the bit.
func TestRegraphEdited(t *testing.T) {
	g, e := smallRun(t, experiment.PDN)
	a := mustTrainer(t, g, e)
	runEpochs(t, a, 20)
	before := a.Evaluate()
	u, v := 0, g.N-1
	if g.Labels[u] == g.Labels[v] || g.EdgeIndex(u, v) >= 0 {
		t.Fatal("the pair is of one class, or joined already")
	}
	h, err := datasets.Make(experiment.Data{Edits: edit("a", u, v)}, datasets.Given(g))
	if err != nil {
		t.Fatal(err)
	}
	b, err := a.Regraph(h)
	if err != nil {
		t.Fatal(err)
	}
	mid := b.Evaluate()
	if len(mid.Weights) != len(before.Weights)+1 || mid.Epoch != before.Epoch {
		t.Fatalf("%d weights at epoch %d after the add", len(mid.Weights), mid.Epoch)
	}
	changed := 0
	for i := range mid.Prob {
		if mid.Prob[i] != before.Prob[i] {
			changed++
		}
	}
	if changed == 0 {
		t.Error("an added edge changes no node's probability")
	}
	back, err := datasets.Make(experiment.Data{Edits: edit("r", u, v)}, datasets.Given(h))
	if err != nil {
		t.Fatal(err)
	}
	c, err := b.Regraph(back)
	if err != nil {
		t.Fatal(err)
	}
	after := c.Evaluate()
	sameBits(t, after.Prob, before.Prob)
	sameBits(t, after.Weights, before.Weights)
	for i := range after.Pred {
		if after.Pred[i] != before.Pred[i] {
			t.Fatalf("node %d: class %d before, %d after add and remove", i, before.Pred[i], after.Pred[i])
		}
	}
	// Another graph's nodes are refused.
	other := *g
	other.C++
	if _, err := a.Regraph(&other); err == nil {
		t.Error("Regraph onto other classes")
	}
}

func edit(op string, u, v int) string {
	return experiment.Edits{{Op: op[0], U: u, V: v}}.String()
}
