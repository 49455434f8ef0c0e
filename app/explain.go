package app

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// The explanations beside each view. Formulas are MathML, which browsers
// render natively, offline, without a maths library.

func explainGraph() app.UI {
	return app.Div().Body(
		app.P().Body(
			app.Text("The pathfinder layer turns the D features of each edge into one weight, "),
			app.Raw(`<math><msub><mi>w</mi><mi>e</mi></msub><mo>=</mo><mi>σ</mi><mo>(</mo><msub><mi>W</mi><mn>2</mn></msub><mspace width="0.2em"/><mi>ReLU</mi><mo>(</mo><msub><mi>W</mi><mn>1</mn></msub><msub><mi>z</mi><mi>e</mi></msub><mo>+</mo><msub><mi>b</mi><mn>1</mn></msub><mo>)</mo><mo>+</mo><msub><mi>b</mi><mn>2</mn></msub><mo>)</mo></math>`),
			app.Text(", drawn as the edge's width and opacity. A GCN then passes messages over the learned graph, normalised with one self-loop per node: "),
			app.Raw(`<math><mover><mi>A</mi><mo>^</mo></mover><mo>=</mo><msup><mi>D</mi><mrow><mo>−</mo><mn>1</mn><mo>/</mo><mn>2</mn></mrow></msup><mo>(</mo><mover><mi>G</mi><mo>^</mo></mover><mo>+</mo><mi>I</mi><mo>)</mo><msup><mi>D</mi><mrow><mo>−</mo><mn>1</mn><mo>/</mo><mn>2</mn></mrow></msup></math>`),
			app.Text(". Both train together, so edges that mislead the classifier fade: here the orange inter-class edges."),
		),
		app.P().Text("Nodes are coloured by class; hollow nodes are held out for testing. Positions come from gonum's force-directed (Eades) layout, in which the intra-class edges pull; "+
			"with \u201ca region per class\u201d each class is then moved into a region of its own, so the inter-class edges are the long lines between regions. Raise the threshold to keep only the pathfinder graph."),
	)
}

func explainCurves() app.UI {
	return app.P().Body(
		app.Text("The loss is the mean cross-entropy of the training nodes, "),
		app.Raw(`<math><mi>L</mi><mo>=</mo><mo>−</mo><mfrac><mn>1</mn><mrow><mo>|</mo><mi>T</mi><mo>|</mo></mrow></mfrac><munder><mo>∑</mo><mrow><mi>i</mi><mo>∈</mo><mi>T</mi></mrow></munder><mi>log</mi><msub><mi>p</mi><mrow><mi>i</mi><mo>,</mo><msub><mi>y</mi><mi>i</mi></msub></mrow></msub></math>`),
		app.Text(", with dropout; accuracies are read without dropout after each update. A gap between train and test accuracy is overfitting."),
	)
}

func explainHistogram() app.UI {
	return app.P().Body(
		app.Text("The distribution of "),
		app.Raw(`<math><msub><mi>w</mi><mi>e</mi></msub><mo>∈</mo><mo>(</mo><mn>0</mn><mo>,</mo><mn>1</mn><mo>)</mo></math>`),
		app.Text(" over intra- and inter-class edges, each as a share of its own kind. They start together near 0.5 and pull apart as the pathfinder learns that, in this data, inter-class edges have features of larger spread (σD)."),
	)
}

func explainShare() app.UI {
	return app.P().Body(
		app.Text("The share of all learned weight that sits on inter-class edges, "),
		app.Raw(shareFormula),
		app.Text(". A GCN keeps every edge at 1, so its share stays at the graph's share of inter-class edges."),
	)
}

func explainAttention() app.UI {
	return app.P().Body(
		app.Text("The linear PDN weighs its D inputs with "),
		app.Raw(`<math><mi>p</mi><mo>=</mo><mi>softmax</mi><mo>(</mo><mi>β</mi><mo>)</mo></math>`),
		app.Text(" and sets "),
		app.Raw(`<math><msub><mi>w</mi><mi>e</mi></msub><mo>=</mo><mi>σ</mi><mo>(</mo><msub><mo>∑</mo><mi>i</mi></msub><msub><mi>p</mi><mi>i</mi></msub><msub><mi>z</mi><mrow><mi>e</mi><mi>i</mi></mrow></msub><mo>)</mo></math>`),
		app.Text(": the bars read as attention over the input graphs. The multi-scale PDN mixes "),
		app.Raw(`<math><mover><mi>G</mi><mo>^</mo></mover><mo>=</mo><msub><mo>∑</mo><mi>i</mi></msub><msub><mi>P</mi><mi>i</mi></msub><msup><mover><mi>A</mi><mo>~</mo></mover><mi>i</mi></msup></math>`),
		app.Text(" and the lines follow the weight P of each power over the epochs, as Figure 7 does with K = 5: on Cora and Pubmed the paper found the first power weighted most, and the second losing weight after 50–100 epochs, about when test accuracy peaks. K is the hops control."),
	)
}

// shareFormula is the inter-class share of the learned weight.
const shareFormula = `<math><mfrac><mrow><msub><mo>∑</mo><mrow><mi>e</mi><mo>∈</mo><msub><mi>E</mi><mi>inter</mi></msub></mrow></msub><msub><mi>w</mi><mi>e</mi></msub></mrow><mrow><msub><mo>∑</mo><mrow><mi>e</mi><mo>∈</mo><mi>E</mi></mrow></msub><msub><mi>w</mi><mi>e</mi></msub></mrow></mfrac></math>`

// explainXORSurface is the XOR lab's heatmaps: the pathfinder as a
// function of an edge's two layers, and the paper's hand-set solution.
func explainXORSurface() app.UI {
	return app.P().Body(
		app.Text("Each square is the weight the pathfinder gives an edge whose layers are (a, b), "),
		app.Raw(`<math><mi>α</mi><mo>(</mo><mi>a</mi><mo>,</mo><mi>b</mi><mo>)</mo><mo>=</mo><mi>σ</mi><mo>(</mo><msubsup><mi>w</mi><mn>2</mn><mi>⊤</mi></msubsup><mspace width="0.2em"/><mi>ReLU</mi><mo>(</mo><msub><mi>W</mi><mn>1</mn></msub><mo>[</mo><mi>a</mi><mo>,</mo><mi>b</mi><mo>]</mo><mo>+</mo><msub><mi>b</mi><mn>1</mn></msub><mo>)</mo><mo>+</mo><msub><mi>b</mi><mn>2</mn></msub><mo>)</mo></math>`),
		app.Text(", drawn for every a and b between 0 and 1: bright is heavy, dark is light. The four corners are the edge states there are, with their mean weight and their share of the edges. "+
			"The right answer is XOR: bright at (0,1) and (1,0), dark at (0,0) and (1,1). A sigmoid of a weighted sum (the linear PDN) only tilts the square from one side to the other; "+
			"the hidden layer lets it fold, as Table 3's two neurons do: "),
		app.Raw(`<math><msub><mi>h</mi><mn>1</mn></msub><mo>=</mo><mi>ReLU</mi><mo>(</mo><mi>a</mi><mo>+</mo><mi>b</mi><mo>)</mo><mo>,</mo><mspace width="0.4em"/><msub><mi>h</mi><mn>2</mn></msub><mo>=</mo><mi>ReLU</mi><mo>(</mo><mi>a</mi><mo>+</mo><mi>b</mi><mo>−</mo><mn>1</mn><mo>)</mo><mo>,</mo><mspace width="0.4em"/><mi>α</mi><mo>=</mo><msub><mi>h</mi><mn>1</mn></msub><mo>−</mo><mn>2</mn><msub><mi>h</mi><mn>2</mn></msub></math>`),
		app.Text("."),
	)
}

// explainDegree is §4.2's argument: GAT's softmax binds a node's weights
// to sum to one, a pathfinder's are bound to no sum.
func explainDegree() app.UI {
	return app.P().Body(
		app.Text("GAT's attention is a softmax over a node's neighbours, "),
		app.Raw(`<math><msub><mi>α</mi><mrow><mi>i</mi><mi>j</mi></mrow></msub><mo>=</mo><mfrac><mrow><mi>exp</mi><msub><mi>e</mi><mrow><mi>i</mi><mi>j</mi></mrow></msub></mrow><mrow><msub><mo>∑</mo><mrow><mi>k</mi><mo>∈</mo><mi>N</mi><mo>(</mo><mi>i</mi><mo>)</mo></mrow></msub><mi>exp</mi><msub><mi>e</mi><mrow><mi>i</mi><mi>k</mi></mrow></msub></mrow></mfrac></math>`),
		app.Text(": the weights a node gives its d edges sum to one, so each gets about 1/d however much it matters: the dashed grey curve. "+
			"A PDN's pathfinder weighs each edge by that edge's own features, "),
		app.Raw(`<math><msub><mi>w</mi><mrow><mi>i</mi><mi>j</mi></mrow></msub><mo>=</mo><mi>σ</mi><mo>(</mo><mi>MLP</mi><mo>(</mo><msub><mi>z</mi><mrow><mi>i</mi><mi>j</mi></mrow></msub><mo>)</mo><mo>)</mo></math>`),
		app.Text(", bound to no sum, so a hub's edges weigh as much as a leaf's."),
	)
}

// explainXORStates is the table of mean weight per edge state.
func explainXORStates() app.UI {
	return app.P().Body(
		app.Text("Each edge lies in layer A′, in A″, in both or in neither: its state (a, b). On this graph the intra-class edges are exactly those in one layer, "),
		app.Raw(`<math><mi>a</mi><mo>⊕</mo><mi>b</mi><mo>=</mo><mn>1</mn></math>`),
		app.Text("; the pathfinder has found XOR when it weighs those at least three times the others. GCN weighs every edge 1."),
	)
}

// explainAttentionLab is Figure 8's lesson.
func explainAttentionLab() app.UI {
	return app.P().Body(
		app.Text("The linear PDN has no hidden layer: it weighs an edge's scores with "),
		app.Raw(`<math><mi>p</mi><mo>=</mo><mi>softmax</mi><mo>(</mo><mi>β</mi><mo>)</mo></math>`),
		app.Text(" and sets "),
		app.Raw(`<math><msub><mi>w</mi><mi>e</mi></msub><mo>=</mo><mi>σ</mi><mo>(</mo><msub><mo>∑</mo><mi>i</mi></msub><msub><mi>p</mi><mi>i</mi></msub><msub><mi>z</mi><mrow><mi>e</mi><mi>i</mi></mrow></msub><mo>)</mo></math>`),
		app.Text(", so each bar is the share of attention one similarity gets. The paper found unnormalised scores (degree product, common neighbours) attended to least, "+
			"and normalised ones that ignore the shared neighbours' degrees (association strength, min overlap) most."),
	)
}

// explainHopsLab is Figure 7's lesson.
func explainHopsLab() app.UI {
	return app.P().Body(
		app.Text("The multi-scale PDN mixes the powers of the normalised adjacency, "),
		app.Raw(`<math><mover><mi>G</mi><mo>^</mo></mover><mo>=</mo><msub><mo>∑</mo><mi>i</mi></msub><msub><mi>P</mi><mi>i</mi></msub><msup><mover><mi>A</mi><mo>~</mo></mover><mi>i</mi></msup></math>`),
		app.Text(", with P a softmax the model learns. On Cora and Pubmed the paper saw the first power weighted most, and the second losing weight after 50–100 epochs, about when test accuracy peaks: where the model starts to overfit."),
	)
}
