package experiment

import (
	"math"
	"strings"
	"testing"
)

// A run is near chance less than a tenth of the way from the majority
// class's accuracy to 1, or within two standard errors of it on few test
// nodes; above that, below an MLP that reads no edge says so.
func TestStandingAgainstChance(t *testing.T) {
	for _, c := range []struct {
		name  string
		acc   float64
		ch    Chance
		want  string
		words string
	}{
		{"the issue's 0.543 on two balanced classes", 0.543, Chance{Majority: 0.5, Tests: 1000, MLP: 0.52}, AtChance, "near chance"},
		{"0.56 on two balanced classes", 0.56, Chance{Majority: 0.5, Tests: 1000, MLP: 0.52}, AboveChance, ""},
		{"0.70 on 20 test nodes", 0.70, Chance{Majority: 0.5, Tests: 20, MLP: 0.6}, AtChance, "near chance"},
		{"below the majority", 0.2, Chance{Majority: 0.3, Tests: 1000, MLP: 0.6}, AtChance, "near chance"},
		{"above chance, below the MLP", 0.65, Chance{Majority: 0.3, Tests: 1000, MLP: 0.7}, BelowMLP, "below the MLP"},
		{"above both", 0.8, Chance{Majority: 0.3, Tests: 1000, MLP: 0.7}, AboveChance, ""},
		{"the MLP not yet trained", 0.65, Chance{Majority: 0.3, Tests: 1000, MLP: math.NaN()}, AboveChance, ""},
		{"no test nodes", 0.65, Chance{Majority: math.NaN(), MLP: math.NaN()}, "", ""},
		{"no accuracy yet", math.NaN(), Chance{Majority: 0.3, Tests: 1000, MLP: 0.7}, "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := c.ch.Standing(c.acc)
			if got != c.want {
				t.Errorf("%v against %+v: %q, want %q", c.acc, c.ch, got, c.want)
			}
			if w := StandingWords[got]; !strings.Contains(w.String(), c.words) || (c.words == "") != w.IsZero() {
				t.Errorf("%q says %q, want %q", got, w, c.words)
			}
		})
	}
}

// The baseline is the MLP on the run's graph and split with its training
// rows, in the engine's form: the rows an MLP does not read (the edges'
// edits, the pathfinder) are back at their defaults.
func TestBaselineIsTheRunsMLP(t *testing.T) {
	e := Default()
	e.Model.EdgeHidden, e.Model.Hidden, e.Train.LR, e.Train.Epochs = []int{4}, 8, 0.02, 50
	e.Data.Edits = "a0-1"
	b := Baseline(e)
	if b.Model.Kind != MLP || b.Model.Hidden != 8 || b.Train.LR != 0.02 || b.Train.Epochs != 50 || b.Data.Edits != "" || len(b.Model.EdgeHidden) != len(Default().Model.EdgeHidden) {
		t.Errorf("baseline of %s is %s", e.EncodeRun(), b.EncodeRun())
	}
}
