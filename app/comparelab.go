package app

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/viz"
)

// CompareLab trains 2 to 4 models of the zoo on the same graph and seeds,
// each in its own worker, and sets their curves, their learned graphs and
// their figures side by side. Its runs are the models row's.
type CompareLab struct {
	app.Compo
	lab

	test, loss, share string
	minis             miniGraphs
}

func init() {
	addRoom("compare", func(p *page) room {
		c := &CompareLab{}
		c.init(p, "compare", c)
		c.drawsGraph = true // the first run's worker lays out the graph the small views share
		return c
	})
}

func (c *CompareLab) draw(ch change) {
	if ch&newLayout != 0 && !c.running() {
		ch |= drawNow // a layout of a graph at rest
	}
	// The small views cost in proportion to the graph: their redraws take
	// at most a graphCostShare of the main thread, as the graph lab's.
	if !c.due(ch, max(severalRedraw, graphCostShare*c.minis.cost())) {
		return
	}
	var loss, share []viz.Series
	top := 1.0
	for i, r := range c.runs {
		loss = append(loss, viz.Series{Name: tr(r.Title), Color: runColor(i), X: r.hist.epoch, Y: r.hist.loss})
		share = append(share, viz.Series{Name: tr(r.Title), Color: runColor(i), X: r.hist.epoch, Y: r.hist.share})
		top = max(top, maxFinite(r.hist.loss))
	}
	a := viz.Axes{XLabel: tr("epoch"), YMin: 0, YMax: top, XMax: c.epochs(), Title: tr("Training loss")}
	c.test = c.testCurves()
	c.loss = viz.LineChart(chartW, chartH, a, loss...)
	a.Title, a.YMax = tr("Share of learned weight on inter-class edges"), 1
	c.share = viz.LineChart(chartW, chartH, a, share...)
	c.minis.draw(&c.lab)
}

// The lab's hooks (see lab.go): it says each run's learned-weight
// sentence under the run's view (miniGraphs.render).
var (
	_ Releaser    = (*CompareLab)(nil)
	_ WeightSayer = (*CompareLab)(nil)
)

// SaysWeights: the sentences are in the views' captions.
func (c *CompareLab) SaysWeights() {}

// Release frees the small views' canvases.
func (c *CompareLab) Release() { c.minis.release() }

// Render lays the lab out.
func (c *CompareLab) Render() app.UI {
	return c.layOut("compare-lab", nil, app.Div().Body(app.Aside().Class("controls").Body(c.renderModels(tr("each trains in a worker of its own."))), c.render(c.visible)),
		c.minis.render(&c.lab),
		c.testCard(c.test),
		c.card("loss-curves", tr("Training loss"), c.loss, "", app.P().Text(tr("The cross-entropy on the labelled nodes, with dropout, as each model is trained."))),
		c.card("share-curves", tr("Inter-class share"), c.share, "", app.P().Body(
			app.Text(tr("The share of the learned edge weight that sits on inter-class edges, ")), mathML(shareFormula),
			app.Text(tr(": it falls when a model learns to drop them (PDN); GCN keeps the graph's own share, and a model with no edges (MLP) draws no line.")))),
		app.Div().ID("summary").Class("card").Body(
			app.H2().Text(tr("Side by side")),
			c.runsTable("runs-table", []column{
				epochColumn,
				testColumn,
				{Title: tr("train acc."), Metric: "train-accuracy", Digits: 3, Value: func(r *run) float64 { return float64(r.snap.TrainAcc) }},
				{Title: tr("epochs/s"), Metric: "epochs-per-second", Digits: 1, Value: func(r *run) float64 { return float64(r.snap.EpochsPerSec) }},
				{Title: tr("inter-class share"), Metric: "inter-share", Digits: 3, Value: func(r *run) float64 { return last(r.hist.share) }},
			}),
			app.P().Class("explain").Text(tr("Epochs per second are each worker's own, measured while the others train beside it.")),
		),
	)
}
