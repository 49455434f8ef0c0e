package app

import (
	"math"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/experiment"
	"pdnexplorer/viz"
)

// DegreeLab is §4.2's argument: GAT's softmax shares a node's attention
// out among its neighbours, so each edge weighs about 1/degree, while a
// PDN weighs each edge by its own features, whatever the degree. Its runs
// are the lab table's: PDN and GAT on one graph.
type DegreeLab struct {
	app.Compo
	lab

	degree, curves, edges string
}

func init() {
	addRoom("degree", func(p *page) room {
		c := &DegreeLab{}
		c.init(p, "degree", c)
		c.embeds = true // Figure 4: PDN's and GAT's edges embedded once trained
		return c
	})
}

// binX places a degree bin [d, 2d) at its middle on the log₂ axis.
func binX(minDegree int) float64 { return math.Log2(float64(minDegree)) + 0.5 }

func (c *DegreeLab) draw(ch change) {
	if !c.due(ch, severalRedraw) {
		return
	}
	var series []viz.Series
	top := 1.0
	for i, r := range c.runs {
		s := viz.Series{Name: tr(r.Title), Color: runColor(i)}
		for _, b := range r.snap.Degree {
			s.X, s.Y = append(s.X, binX(b.MinDegree)), append(s.Y, float64(b.Mean))
			top = math.Max(top, binX(b.MinDegree)+0.5)
		}
		series = append(series, s)
	}
	ref := viz.Series{Name: tr("1 / degree"), Color: "#555555", Dash: true}
	for x := 0.0; x <= top+1e-9; x += 0.125 {
		ref.X, ref.Y = append(ref.X, x), append(ref.Y, math.Exp2(-x))
	}
	series = append(series, ref)
	c.degree = viz.LineChart(chartW, chartH, viz.Axes{Title: tr("Mean weight of an edge against its receiving node's degree"), XLabel: tr("log₂ degree"), YMin: 0, YMax: 1, XMax: top}, series...)
	c.curves = c.testCurves()
	c.edges = drawEdgePanels(c.edgePanels(), false)
}

// Render lays the lab out.
func (c *DegreeLab) Render() app.UI {
	empty := ""
	if c.st.Data.Graph != experiment.GraphScaleFree {
		empty = tr("The degrees of this graph barely spread; choose graph scale-free (preferential attachment) to see weights against degrees over orders of magnitude.")
	}
	return c.layOut("degree-lab", nil, c.render(c.visible),
		c.card("degree", tr("Weight against degree"), c.degree, empty, app.Div().Body(
			explainDegree(),
			c.renderDegreeNumbers(),
		)),
		c.card("edges", tr("Edge representations by kind (Figure 4)"), c.edges, c.edgesEmpty(), explainEdgePanels(false), renderEdgeNumbers(c.edgePanels())),
		c.card("curves", tr("Test accuracy"), c.curves, "", app.P().Text(
			tr("Both models train on the same preferential-attachment graph (each new node brings m edges to nodes chosen by their degree), with the synthetic graph's classes, features and edge features."))),
		app.Div().ID("summary").Class("card").Body(
			app.H2().Text(tr("The two runs")),
			c.runsTable("runs-table", []column{
				testColumn,
				{Title: tr("lowest-degree weight"), Metric: "weight-lowest-degree", Digits: 3, Value: func(r *run) float64 { return binMean(r, 0) }},
				{Title: tr("highest-degree weight"), Metric: "weight-highest-degree", Digits: 3, Value: func(r *run) float64 { return binMean(r, -1) }},
				{Title: tr("epochs/s"), Metric: "epochs-per-second", Digits: 1, Value: func(r *run) float64 { return float64(r.snap.EpochsPerSec) }},
			}),
		),
	)
}

// binMean is the mean weight of a run's first degree bin (i = 0) or its
// last (i = −1), NaN without bins.
func binMean(r *run, i int) float64 {
	b := r.snap.Degree
	if len(b) == 0 {
		return math.NaN()
	}
	if i < 0 {
		i = len(b) + i
	}
	return float64(b[i].Mean)
}

// renderDegreeNumbers states the chart's ends in numbers, its text
// alternative.
func (c *DegreeLab) renderDegreeNumbers() app.UI {
	var parts []app.UI
	for _, r := range c.runs {
		b := r.snap.Degree
		if len(b) == 0 {
			continue
		}
		lo, hi := b[0], b[len(b)-1]
		parts = append(parts, app.P().Class("drawn").Text(trf("%s: degree %d–%d, mean weight %s; degree %d–%d, mean weight %s.",
			tr(r.Title), lo.MinDegree, 2*lo.MinDegree-1, num(float64(lo.Mean), 3), hi.MinDegree, 2*hi.MinDegree-1, num(float64(hi.Mean), 3))))
	}
	return app.Div().Body(parts...)
}

// explainDegree is §4.2's argument: GAT's softmax binds a node's weights
// to sum to one, a pathfinder's are bound to no sum.
func explainDegree() app.UI {
	return app.P().Body(
		app.Text(tr("GAT's attention is a softmax over a node's neighbours, ")),
		mathML(`<math><msub><mi>α</mi><mrow><mi>i</mi><mi>j</mi></mrow></msub><mo>=</mo><mfrac><mrow><mi>exp</mi><msub><mi>e</mi><mrow><mi>i</mi><mi>j</mi></mrow></msub></mrow><mrow><msub><mo>∑</mo><mrow><mi>k</mi><mo>∈</mo><mi>N</mi><mo>(</mo><mi>i</mi><mo>)</mo></mrow></msub><mi>exp</mi><msub><mi>e</mi><mrow><mi>i</mi><mi>k</mi></mrow></msub></mrow></mfrac></math>`),
		app.Text(tr(": the weights a node gives its d edges sum to one, so each gets about 1/d however much it matters: the dashed grey curve. "+
			"A PDN's pathfinder weighs each edge by that edge's own features, ")),
		mathML(`<math><msub><mi>w</mi><mrow><mi>i</mi><mi>j</mi></mrow></msub><mo>=</mo><mi>σ</mi><mo>(</mo><mi>MLP</mi><mo>(</mo><msub><mi>z</mi><mrow><mi>i</mi><mi>j</mi></mrow></msub><mo>)</mo><mo>)</mo></math>`),
		app.Text(tr(", bound to no sum: a hub's edges can weigh as much as a leaf's, unless the edge features themselves tell the degree (Cora's tie-strength scores do, and there PDN's weights fall with the degree too).")),
	)
}

// edgePanels are Figure 4's panels: each run's edges embedded once it has
// trained (the figure pdn tsne draws).
func (c *DegreeLab) edgePanels() []edgePanel {
	var out []edgePanel
	for _, r := range c.runs {
		out = append(out, panelOf(r, false, r.Name, r.Exp.Model.Kind, tr(r.Title)))
	}
	return out
}

// edgesEmpty says why Figure 4 is not drawn yet: it comes once a run has
// trained.
func (c *DegreeLab) edgesEmpty() string {
	if c.edges != "" {
		return ""
	}
	return tr("Each run's edges are embedded here once it has trained all its epochs.")
}
