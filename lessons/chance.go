package lessons

import (
	"math"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
)

// Majority is the majority class's accuracy on g's test nodes (the share
// of them in their most common class: the best one answer for every node
// scores there) and how many test nodes there are; NaN without any. The
// test nodes are the trainer's (pdn's test accuracy reads the same).
func Majority(g *datasets.Graph) (acc float64, tests int) {
	count := make([]int, g.C)
	for _, i := range g.Nodes(datasets.Test) {
		count[g.Labels[i]]++
		tests++
	}
	if tests == 0 {
		return math.NaN(), 0
	}
	most := 0
	for _, c := range count {
		most = max(most, c)
	}
	return float64(most) / float64(tests), tests
}

// ChanceOf is what g's test nodes give e's run without its edges: the
// majority class's accuracy and an MLP's (experiment.Baseline of e,
// trained to its end; its test accuracy at its last epoch, as a run's).
// A run of the MLP itself is its own baseline: own, where not nil, is its
// test accuracy, and no second MLP trains.
func ChanceOf(g *datasets.Graph, e experiment.Experiment, own *float64) (experiment.Chance, error) {
	c := experiment.Chance{MLP: math.NaN()}
	c.Majority, c.Tests = Majority(g)
	if own != nil && e.Model.Kind == experiment.MLP {
		c.MLP = *own
		return c, nil
	}
	t, err := TrainAll(g, experiment.Baseline(e))
	if err != nil {
		return c, err
	}
	c.MLP = t.Evaluate().TestAcc
	return c, nil
}
