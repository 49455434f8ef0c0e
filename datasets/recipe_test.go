package datasets

import (
	"testing"

	"pdnexplorer/experiment"
)

// A graph's recipe comes from its node features: the shipped citation
// graphs' bag-of-words, the generators' Gaussian features.
func TestRecipeComesFromTheFeatures(t *testing.T) {
	for _, tc := range []struct{ graph, want string }{
		{experiment.GraphSynthetic, experiment.RecipePaper},
		{experiment.GraphXOR, experiment.RecipePaper},
		{experiment.GraphScaleFree, experiment.RecipePaper},
		{experiment.GraphCora, experiment.RecipeBagOfWords},
		{experiment.GraphCiteseer, experiment.RecipeBagOfWords},
	} {
		d := experiment.Default().Data
		d.Graph = tc.graph
		g, err := Build(d)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.Recipe(); got != tc.want || got != d.Recipe() {
			t.Errorf("%s: recipe %s from its features, %s by its name; want %s", tc.graph, got, d.Recipe(), tc.want)
		}
	}
}
