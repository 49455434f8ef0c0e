package pdn

import (
	"errors"
	"math"
	"testing"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
)

// A trainer regraphed onto the very same graph goes on bit for bit as the
// one it came from, for every model that can carry on: Regraph carries
// every weight, Adam's state and every random stream. DeepWalk and
// ClusterGCN, whose set-up reads the edges, say they start over.
func TestRegraphCarriesOn(t *testing.T) {
	for _, kind := range experiment.Kinds {
		t.Run(kind, func(t *testing.T) {
			e := experiment.Default()
			e.Data.PerClass, e.Model.Kind, e.Model.Dropout = 40, kind, 0.5
			g, err := datasets.Build(e.Data)
			if err != nil {
				t.Fatal(err)
			}
			a, err := NewTrainer(g, e)
			if err != nil {
				t.Fatal(err)
			}
			for range 3 {
				a.Step()
			}
			b, err := a.Regraph(g)
			if kind == experiment.DeepWalk || kind == experiment.ClusterGCN {
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
				if math.Float64bits(la) != math.Float64bits(lb) {
					t.Fatalf("losses part: %v and %v", la, lb)
				}
			}
			sa, sb := a.Evaluate(), b.Evaluate()
			for i := range sa.Prob {
				if math.Float64bits(sa.Prob[i]) != math.Float64bits(sb.Prob[i]) {
					t.Fatalf("node %d: probability %v and %v", i, sa.Prob[i], sb.Prob[i])
				}
			}
		})
	}
}

// Regraphed onto an edited graph, the model reads the new edge at once:
// the added edge gets a weight, and removing it again restores every
// prediction to the bit.
func TestRegraphEdited(t *testing.T) {
	e := experiment.Default()
	e.Data.PerClass = 40
	g, err := datasets.Build(e.Data)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := NewTrainer(g, e)
	for range 20 {
		a.Step()
	}
	before := a.Evaluate()
	u, v := 0, g.N-1 // different classes
	h, err := datasets.Edited(g, edit("a", u, v))
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
	back, err := datasets.Edited(h, edit("r", u, v))
	if err != nil {
		t.Fatal(err)
	}
	c, err := b.Regraph(back)
	if err != nil {
		t.Fatal(err)
	}
	after := c.Evaluate()
	for i := range after.Prob {
		if math.Float64bits(after.Prob[i]) != math.Float64bits(before.Prob[i]) || after.Pred[i] != before.Pred[i] {
			t.Fatalf("node %d: %v before, %v after add and remove", i, before.Prob[i], after.Prob[i])
		}
	}
	for i := range after.Weights {
		if math.Float64bits(after.Weights[i]) != math.Float64bits(before.Weights[i]) {
			t.Fatalf("edge %d: weight %v before, %v after", i, before.Weights[i], after.Weights[i])
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
