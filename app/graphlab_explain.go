package app

import (
	"slices"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/experiment"
)

// The explanations beside the graph lab's views. Formulas are MathML, which
// browsers render natively, offline, without a maths library.

func explainGraph() app.UI {
	return app.Div().Body(
		app.P().Body(
			app.Text(tr("The pathfinder layer turns the D features of each edge into one weight, ")),
			mathML(`<math><msub><mi>w</mi><mi>e</mi></msub><mo>=</mo><mi>σ</mi><mo>(</mo><msub><mi>W</mi><mn>2</mn></msub><mspace width="0.2em"/><mi>ReLU</mi><mo>(</mo><msub><mi>W</mi><mn>1</mn></msub><msub><mi>z</mi><mi>e</mi></msub><mo>+</mo><msub><mi>b</mi><mn>1</mn></msub><mo>)</mo><mo>+</mo><msub><mi>b</mi><mn>2</mn></msub><mo>)</mo></math>`),
			app.Text(tr(", drawn as the edge's width and opacity. A GCN then passes messages over the learned graph, normalised with one self-loop per node: ")),
			mathML(`<math><mover><mi>A</mi><mo>^</mo></mover><mo>=</mo><msup><mi>D</mi><mrow><mo>−</mo><mn>1</mn><mo>/</mo><mn>2</mn></mrow></msup><mo>(</mo><mover><mi>G</mi><mo>^</mo></mover><mo>+</mo><mi>I</mi><mo>)</mo><msup><mi>D</mi><mrow><mo>−</mo><mn>1</mn><mo>/</mo><mn>2</mn></mrow></msup></math>`),
			app.Text(tr(". Both train together, so edges that mislead the classifier fade: here the orange inter-class edges.")),
		),
		app.P().Text(tr("Nodes are coloured by class; hollow nodes are held out for testing. Positions come from gonum's force-directed (Eades) layout, in which the intra-class edges pull; "+
			"with \u201ca region per class\u201d each class is then moved into a region of its own, so the inter-class edges are the long lines between regions. Raise the threshold to keep only the pathfinder graph.")),
	)
}

// explainRecipe says which settings a graph of bag-of-words features
// starts from, and why (experiment.RecipeBagOfWords).
func explainRecipe() app.UI {
	text := tr("A graph with bag-of-words node features (many sparse word counts, as Cora's, Citeseer's and MUSAE's) starts from weight decay 0.005 and dropout 0.9, "+
		"not the paper's Appendix A settings (no decay, dropout 0.5): its features decide this, not where its files came from. Why is a claim the compare lab checks on Cora. "+
		"The paper's Table 4 trained with Adam at 0.01 for 200 epochs, dropout 0.5 and an L2 coefficient of 0.001 (its Appendix).") +
		" " + tr("Its PDN also gives each node's self-loop the mean of that node's learned edge weights (the self-loop row), where the paper's code and PyTorch Geometric's PDNConv give it 1: "+
		"with 1, a pathfinder that lowers every weight together turns each node towards itself; with the mean, only the ratios of its neighbours' weights count.")
	adopted, tried := ownSettings(experiment.RecipeBagOfWords)
	if adopted != "" {
		text += " " + trf("In pdn table4 these baselines start from their own settings on such graphs (their authors' or PyTorch Geometric's examples'), which measured better over Cora, Citeseer and Facebook Page-Page: %s. The labs' runs side by side share one state, this recipe.", adopted)
	}
	if tried != "" {
		text += " " + trf("These baselines' own settings measured no better there, and they start from this recipe: %s.", tried)
	}
	return app.P().ID("recipe").Text(text)
}

// ownSettings lists the models that start from their own settings on
// graphs of recipe, and those whose own settings measured no better there
// than the family's rows (experiment.ModelKind.Own and OwnOn), each with
// its settings as a link names them; "" for none.
func ownSettings(recipe string) (adopted, tried string) {
	var a, t []string
	for _, m := range experiment.Models {
		switch {
		case m.Own == "":
		case slices.Contains(m.OwnOn, recipe):
			a = append(a, m.Name+" ("+experiment.OwnSettings(m)+")")
		default:
			t = append(t, m.Name+" ("+experiment.OwnSettings(m)+")")
		}
	}
	return strings.Join(a, "; "), strings.Join(t, "; ")
}

func explainCurves() app.UI {
	return app.P().Body(
		app.Text(tr("The loss is the mean cross-entropy of the training nodes, ")),
		mathML(`<math><mi>L</mi><mo>=</mo><mo>−</mo><mfrac><mn>1</mn><mrow><mo>|</mo><mi>T</mi><mo>|</mo></mrow></mfrac><munder><mo>∑</mo><mrow><mi>i</mi><mo>∈</mo><mi>T</mi></mrow></munder><mi>log</mi><msub><mi>p</mi><mrow><mi>i</mi><mo>,</mo><msub><mi>y</mi><mi>i</mi></msub></mrow></msub></math>`),
		app.Text(tr(", with dropout; accuracies are read without dropout after each update. A gap between train and test accuracy is overfitting.")),
	)
}

// explainHistogram says what the weights' histogram shows, and what in
// the graph could part the two kinds: σD only where the generator drew the
// edge features by it.
func explainHistogram(d experiment.Data) app.UI {
	why := tr(" The graph's edge features are its own (or the tie-strength scores): whether they tell the kinds apart is what the run shows.")
	switch d.Graph {
	case experiment.GraphSynthetic, experiment.GraphScaleFree:
		why = tr(" They start together near 0.5; the generator gives inter-class edges features of larger spread (σD), which a pathfinder can learn to weigh down.")
	case experiment.GraphXOR:
		why = tr(" The generator puts an intra-class edge in exactly one of two layers (XOR), which only a pathfinder with a hidden layer can single out.")
	case experiment.GraphMultiplex:
		why = tr(" An edge's features are the layers that hold it: a pathfinder can weigh the layers that mostly join nodes of one class up and the others down, but not tell an inter-class edge from the intra-class edges of its own layer.")
	}
	return app.P().Body(
		app.Text(tr("The distribution of ")),
		mathML(`<math><msub><mi>w</mi><mi>e</mi></msub><mo>∈</mo><mo>(</mo><mn>0</mn><mo>,</mo><mn>1</mn><mo>)</mo></math>`),
		app.Text(tr(" over intra- and inter-class edges, each as a share of its own kind.")+why),
	)
}

func explainShare() app.UI {
	return app.P().Body(
		app.Text(tr("The share of all learned weight that sits on inter-class edges, ")),
		mathML(shareFormula),
		app.Text(tr(". A GCN keeps every edge at 1, so its share stays at the graph's share of inter-class edges.")),
	)
}

func explainAttention() app.UI {
	return app.P().Body(append(linearPDNClause(tr("The linear PDN weighs its D inputs with ")),
		app.Text(tr(": the bars read as attention over the input graphs. The multi-scale PDN mixes ")),
		mathML(multiScaleFormula),
		app.Text(tr(" and the lines follow the weight P of each power over the epochs, as Figure 7 does with K = 5: on Cora and Pubmed the paper found the first power weighted most, and the second losing weight after 50–100 epochs, about when test accuracy peaks. K is the hops control.")),
	)...)
}
