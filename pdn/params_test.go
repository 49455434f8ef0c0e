package pdn

import (
	"slices"
	"strings"
	"testing"

	"pdnexplorer/experiment"
)

// TestParametersNameEveryWeight checks that the export names each trained
// array once, with a shape that holds exactly its values, and that the
// names cover every number the optimiser trains.
func TestParametersNameEveryWeight(t *testing.T) {
	for _, kind := range experiment.Kinds {
		t.Run(kind, func(t *testing.T) {
			g, e := smallRun(t, kind)
			tr := mustTrainer(t, g, e)
			runEpochs(t, tr, 2)
			ps, err := tr.Parameters()
			if !slices.Contains(Exportable, kind) {
				if err == nil || !strings.Contains(err.Error(), kind) {
					t.Fatalf("Parameters of %s: err %v, want a refusal naming the model", kind, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			seen, total := map[string]bool{}, 0
			for _, p := range ps {
				if seen[p.Name] {
					t.Errorf("%s named twice", p.Name)
				}
				seen[p.Name] = true
				size := 1
				for _, d := range p.Shape {
					size *= d
				}
				if size != len(p.Values) {
					t.Errorf("%s: shape %v holds %d values, has %d", p.Name, p.Shape, size, len(p.Values))
				}
				total += len(p.Values)
			}
			want := 0
			for _, p := range tr.net.params() {
				want += len(p.val)
			}
			if total != want {
				t.Errorf("named %d values, the model trains %d", total, want)
			}
		})
	}
}

// TestParametersAreCopies checks that the export is a snapshot: training
// on does not change what was exported.
func TestParametersAreCopies(t *testing.T) {
	g, e := smallRun(t, experiment.PDN)
	tr := mustTrainer(t, g, e)
	runEpochs(t, tr, 1)
	ps, err := tr.Parameters()
	if err != nil {
		t.Fatal(err)
	}
	before := slices.Clone(ps[0].Values)
	runEpochs(t, tr, 1)
	if !slices.Equal(before, ps[0].Values) {
		t.Error("training changed the exported values")
	}
	if ps[0].Name != "pathfinder.0.weight" || len(ps[0].Shape) != 2 || ps[0].Shape[1] != g.D {
		t.Errorf("first parameter %s %v, want pathfinder.0.weight of %d inputs", ps[0].Name, ps[0].Shape, g.D)
	}
}
