package datasets

import (
	"fmt"
	"testing"

	"pdnexplorer/experiment"
)

// dataRowValues are values of the data rows other than their defaults,
// which TestDataRowsTheGraphsRead gives each graph.
var dataRowValues = map[string]string{
	"classes": "4", "per-class": "24", "p": "0.03125", "q": "0.015625", "node-features": "8", "edge-features": "8",
	"sigma-f": "2", "sigma-d": "8", "attach": "3", "shots": "20", "seed": "2", "id-column": "id", "target": "page_type", "bins": "3",
}

// TestDataRowsTheGraphsRead holds the state table's Graphs to the truth:
// each data row changes a graph the table says reads it (its nodes,
// features, edges or split) and leaves every other exactly as it was, so
// that a row refused as unread (experiment.Reader) is one that changes
// nothing. The edits and the perturbation apply to every graph (their own
// tests); a graph of one's own files cannot be built from its name.
func TestDataRowsTheGraphsRead(t *testing.T) {
	for _, g := range experiment.Buildable() {
		base := experiment.Default()
		base.Data.Graph, base.Data.PerClass, base.Data.Shots = g, 32, 10
		want := graphBits(t, base.Data)
		for _, p := range experiment.Params {
			v, ok := dataRowValues[p.Name]
			if p.Group != experiment.GroupData || !ok {
				continue
			}
			t.Run(g+"/"+p.Name, func(t *testing.T) {
				e := base
				if err := p.Set(&e, v); err != nil {
					t.Fatal(err)
				}
				same := graphBits(t, e.Data) == want
				if applies := p.Applies(e.Data); same == applies {
					t.Errorf("%s=%s: the same graph %v, but the table says it reads the row: %v", p.Name, v, same, applies)
				}
			})
		}
	}
}

// TestPerturbationNeedsARate holds the perturbation rows' Needs to the
// truth: a perturbation at rate 0, or a rate without a perturbation, is
// the graph as it is.
func TestPerturbationNeedsARate(t *testing.T) {
	d := experiment.Default().Data
	d.PerClass = 32
	g, err := Build(d)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		how  string
		rate float64
	}{{experiment.PerturbDrop, 0}, {experiment.PerturbMask, 0}, {experiment.PerturbNone, 0.5}} {
		p, err := perturbed(g, c.how, c.rate, d.Seed)
		if err != nil || p.Digest() != g.Digest() {
			t.Errorf("%s at %v: changed the graph (%v)", c.how, c.rate, err)
		}
	}
}

// graphBits names a built graph by all a run reads of it: its contents
// and its split.
func graphBits(t *testing.T, d experiment.Data) string {
	t.Helper()
	g, err := Build(d)
	if err != nil {
		t.Fatalf("%s: %v", experiment.Experiment{Data: d}.EncodeRun(), err)
	}
	return fmt.Sprint(g.Digest(), g.Splits)
}
