package app

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/tiestrength"
	"pdnexplorer/viz"
)

// AttentionLab shows what PDN attends to on a real graph: the linear PDN's
// attention over the named tie-strength scores (Figure 8), and the
// multi-scale PDN's weight of each hop over the epochs (Figure 7), both
// live. Its runs are the lab table's: "linear" and "multiscale".
type AttentionLab struct {
	app.Compo
	lab

	bars, hops, curves string
}

func init() {
	addRoom("attention", func(p *page) room {
		c := &AttentionLab{}
		c.init(p, "attention", c)
		return c
	})
}

// inputNames are the linear PDN's n inputs by name: the scores of a real
// graph, numbers otherwise.
func inputNames(r *run, n int) []string {
	if r.graph != nil && len(r.graph.Inputs) == n {
		return r.graph.Inputs
	}
	names := make([]string, n)
	for i := range names {
		names[i] = strconv.Itoa(i + 1)
	}
	return names
}

// scoreLabels are the tie-strength scores' names in the page's language
// (label gives the long or the short form); a graph's own edge features
// keep the names its files give them.
func scoreLabels(names []string, label func(string) string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = n
		if slices.Contains(tiestrength.Names, n) {
			out[i] = tr(label(n))
		}
	}
	return out
}

// inputsLabel says what the inputs are: the tie-strength scores, or the
// graph's own edge features (a multiplex graph's layers), which must never
// be called scores.
func inputsLabel(names []string) string {
	if slices.Equal(names, tiestrength.Names) {
		return tr("tie-strength score")
	}
	return tr("edge feature (the graph's own, by the name its file gives)")
}

func (c *AttentionLab) draw(ch change) {
	if !c.due(ch, severalRedraw) {
		return
	}
	c.bars, c.hops = "", ""
	if r := c.runNamed("linear"); r != nil && len(r.snap.Inputs) > 0 {
		names := inputNames(r, len(r.snap.Inputs))
		legibleInColumns("#attention .figure", 1, 0, 0, func() { // a card as wide as the views
			c.bars = viz.Bars(chartW+200, chartH, tr("Attention over the edge features, softmax(β)"), inputsLabel(names),
				scoreLabels(names, tiestrength.ShortLabel), r.snap.Inputs, viz.ClassColor(2))
		})
	}
	if r := c.runNamed("multiscale"); r != nil && len(r.hist.hops) > 0 {
		c.hops = hopsChart(&r.hist, r.Exp.Train.Epochs)
	}
	c.curves = c.testCurves()
}

// renderAttention gives each input's attention as a number, the bars'
// text alternative: the most attended first, each tie-strength score the
// paper's Figure 8 names beside what its text says of it.
func (c *AttentionLab) renderAttention() app.UI {
	r := c.runNamed("linear")
	if r == nil || len(r.snap.Inputs) == 0 {
		return app.P().Class("drawn")
	}
	names := inputNames(r, len(r.snap.Inputs))
	order := make([]int, len(r.snap.Inputs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(r.snap.Inputs[b], r.snap.Inputs[a]) })
	var parts []app.UI
	for k, i := range order {
		if k > 0 {
			parts = append(parts, app.Text(" · "))
		}
		parts = append(parts, app.Text(scoreLabels(names[i:i+1], tiestrength.Label)[0]+" "), c.metricOf(r, "attention-"+names[i], r.snap.Inputs[i], 3))
		if says := paperSays(names[i]); says != "" {
			parts = append(parts, app.Text(" ("+says+")"))
		}
	}
	return app.P().Class("drawn").Body(parts...)
}

// paperSays is what Figure 8's text says of a score, in the page's
// language; "" for a score it does not name.
func paperSays(name string) string {
	switch tiestrength.PaperSays(name) {
	case "low":
		return tr("the paper: low")
	case "high":
		return tr("the paper: high")
	}
	return ""
}

// whyAnonymous says why bars over a generated graph's inputs mean nothing.
func (c *AttentionLab) whyAnonymous() string {
	if r := c.runNamed("linear"); r != nil && r.graph != nil && r.graph.Inputs == nil && r.snapped {
		return tr("This graph's edge features are anonymous random draws, so no bar can mean more than another: choose cora or citeseer, whose edge features are the 11 named tie-strength scores.")
	}
	return ""
}

// Render lays the lab out.
func (c *AttentionLab) Render() app.UI {
	return c.layOut("attention-lab", nil, c.render(c.visible),
		app.Div().ID("attention").Class("card wide").Body(
			app.H2().Text(tr("What the linear PDN attends to (Figure 8)")),
			c.beside("attention"),
			app.Div().Class("figure").Body(chartOr(c.bars, c.whyAnonymous())),
			c.renderAttention(),
			app.Div().Class("explain").Body(explainAttentionLab()),
		),
		c.card("hops", tr("Hop weights over the epochs (Figure 7)"), c.hops, "", explainHopsLab(), c.renderHopWeights(c.runNamed("multiscale"))),
		c.card("curves", tr("Test accuracy"), c.curves, "", app.P().Text(tr("Both models train on the same graph, split and seeds."))),
	)
}

// explainAttentionLab is Figure 8's lesson.
func explainAttentionLab() app.UI {
	return app.P().Body(append(linearPDNClause(tr("The linear PDN has no hidden layer: it weighs an edge's scores with ")),
		app.Text(tr(", so each bar is the share of attention one similarity gets. The paper found unnormalised scores (degree product, common neighbours) attended to least, "+
			"and normalised ones that ignore the shared neighbours' degrees (association strength, min overlap) most.")),
		app.Text(" "+tr("The scores are scaled as the pathfinder reads them everywhere: the unbounded ones (the counts, the degree product) through log1p, then each standardised over the graph's edges, so that a score's attention says what it tells of the classes, not how large its numbers run.")),
	)...)
}

// explainHopsLab is Figure 7's lesson.
func explainHopsLab() app.UI {
	return app.P().Body(
		app.Text(tr("The multi-scale PDN mixes the powers of the normalised adjacency, ")),
		mathML(multiScaleFormula),
		app.Text(tr(", with P a softmax the model learns. On Cora and Pubmed the paper saw the first power weighted most, and the second losing weight after 50–100 epochs, about when test accuracy peaks: where the model starts to overfit.")),
	)
}
