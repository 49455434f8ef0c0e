package experiment

import (
	"math"

	"pdnexplorer/i18n/phrase"
)

// Chance is what a graph's test nodes give away without learning from its
// edges, the bar a run's test accuracy is read against: the majority
// class's accuracy, the share of the test nodes in their most common
// class (the best any one answer for every node scores on them), and an
// MLP's, which reads each node's features but no edge, trained on the
// same split with the run's training rows (Baseline). Both the CLI (pdn
// train) and the page (beside every run) read a run against it here.
type Chance struct {
	Majority float64 // NaN without test nodes
	Tests    int     // the test nodes both are measured on
	MLP      float64 // NaN until trained
}

// Baseline is the MLP run that measures e's graph: e's graph, split and
// training rows, the MLP's model rows (its hidden size and dropout) from
// e, in the engine's form, so that the CLI and the page's worker train the
// same run. It is trained on e's graph as altered; its edits, which only
// change edges no MLP reads, are left out of it, so an edit keeps it.
func Baseline(e Experiment) Experiment {
	e.Model.Kind = MLP
	e.Data.Edits = ""
	return e.ForEngine()
}

// Standings of a run against chance.
const (
	// AtChance: the run's test accuracy is within chance of the majority
	// class's (NearChance).
	AtChance = "near-chance"
	// BelowMLP: above chance, but below the MLP that reads no edge: the
	// edges cost it accuracy.
	BelowMLP = "below-mlp"
	// AboveChance: above both.
	AboveChance = "above-chance"
)

// Standing is where test accuracy acc stands against c: AtChance,
// BelowMLP or AboveChance; "" where either is not a number.
func (c Chance) Standing(acc float64) string {
	switch {
	case math.IsNaN(acc) || math.IsNaN(c.Majority):
		return ""
	case c.NearChance(acc):
		return AtChance
	case acc < c.MLP:
		return BelowMLP
	}
	return AboveChance
}

// NearChance reports whether acc is within chance of the majority class's
// accuracy m on n test nodes: less than a tenth of the way from m to 1
// above it, or, on few test nodes, less than two standard errors
// (√(m(1−m)/n)) of a classifier right at m's rate. A tenth: 0.543 on two
// balanced classes (m = 0.5) is near chance however many nodes it was
// measured on, 0.56 is not; on 20 test nodes anything below 0.72 is.
func (c Chance) NearChance(acc float64) bool {
	m := c.Majority
	if math.IsNaN(acc) || math.IsNaN(m) || c.Tests <= 0 {
		return false
	}
	margin := max(0.1*(1-m), 2*math.Sqrt(m*(1-m)/float64(c.Tests)))
	return acc < m+margin
}

// StandingWords say a run's standing in the page's words (catalogue
// keys); AboveChance says nothing.
var StandingWords = map[string]phrase.Text{
	AtChance: phrase.New("near chance"),
	BelowMLP: phrase.New("below the MLP, which reads no edge"),
}
