package app

import (
	"fmt"
	"math"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/experiment"
	"pdnexplorer/viz"
)

// degreeRuns are the degree lab's models: PDN and GAT on one graph.
func degreeRuns(st experiment.Experiment) []sideSpec {
	pdn, gat := st, st
	pdn.Model.Kind, gat.Model.Kind = experiment.PDN, experiment.GAT
	return []sideSpec{{Name: "pdn", Title: "PDN", Exp: pdn}, {Name: "gat", Title: "GAT", Exp: gat}}
}

// degreeRows are the rows the degree lab offers.
var degreeRows = []string{"data", "classes", "per-class", "attach", "p", "q", "node-features", "edge-features", "sigma-f", "sigma-d", "seed",
	"edge-hidden", "hidden", "dropout", "edge-dropout", "epochs", "lr", "weight-decay", "init-seed"}

// DegreeLab is §4.2's argument: GAT's softmax shares a node's attention
// out among its neighbours, so each edge weighs about 1/degree, while a
// PDN weighs each edge by its own features, whatever the degree.
type DegreeLab struct {
	app.Compo
	multiLab

	degreeSVG, curvesSVG string
}

// OnMount starts the two runs.
func (c *DegreeLab) OnMount(ctx app.Context) {
	c.lab = "degree"
	c.specs, c.show, c.redraw = degreeRuns, showRows(degreeRows), c.draw
	c.mount(ctx)
}

// OnDismount ends them.
func (c *DegreeLab) OnDismount() { c.dismount() }

// binX places a degree bin [d, 2d) at its middle on the log₂ axis.
func binX(minDegree int) float64 { return math.Log2(float64(minDegree)) + 0.5 }

func (c *DegreeLab) draw() {
	var series, curves []viz.Series
	top := 1.0
	for i, s := range c.sides {
		curves = append(curves, viz.Series{Name: s.Title, Color: sideColor(i), X: s.hist.epoch, Y: s.hist.test})
		ser := viz.Series{Name: s.Title, Color: sideColor(i)}
		for _, b := range s.snap.Degree {
			ser.X, ser.Y = append(ser.X, binX(b.MinDegree)), append(ser.Y, float64(b.Mean))
			top = math.Max(top, binX(b.MinDegree)+0.5)
		}
		series = append(series, ser)
	}
	ref := viz.Series{Name: "1 / degree", Color: "#555555", Dash: true}
	for x := 0.0; x <= top+1e-9; x += 0.125 {
		ref.X, ref.Y = append(ref.X, x), append(ref.Y, math.Exp2(-x))
	}
	series = append(series, ref)
	c.degreeSVG = viz.LineChart(chartW, chartH, viz.Axes{Title: "Mean weight of an edge against its receiving node's degree", XLabel: "log₂ degree", YMin: 0, YMax: 1, XMax: top}, series...)
	c.curvesSVG = viz.LineChart(chartW, chartH, viz.Axes{Title: "Test accuracy", XLabel: "epoch", YMin: 0, YMax: 1, XMax: c.epochsOf()}, curves...)
}

// Render lays the lab out.
func (c *DegreeLab) Render() app.UI {
	empty := ""
	if c.st.Data.Graph != experiment.GraphScaleFree {
		empty = "The degrees of this graph barely spread; choose graph scale-free (preferential attachment) to see weights against degrees over orders of magnitude."
	}
	return app.Div().Class("lab degree-lab").Body(
		c.renderToolbar(),
		app.Div().Class("main").Body(
			c.render(c.show),
			app.Section().Class("views").Body(
				card("degree", "Weight against degree", c.degreeSVG, empty, app.Div().Body(
					explainDegree(),
					c.renderDegreeFigures(),
				)),
				card("curves", "Test accuracy", c.curvesSVG, "", app.P().Text(
					"Both models train on the same preferential-attachment graph (each new node brings m edges to nodes chosen by their degree), with the synthetic graph's classes, features and edge features.")),
				app.Div().ID("summary").Class("card").Body(
					app.H2().Text("The two runs"),
					c.summaryTable("runs-table", []summaryCol{
						{Title: "test acc.", Metric: "test-accuracy-final", Digits: 3, Value: func(s *side) float64 { return float64(s.snap.TestAcc) }},
						{Title: "lowest-degree weight", Metric: "weight-lowest-degree", Digits: 3, Value: func(s *side) float64 { return binMean(s, 0) }},
						{Title: "highest-degree weight", Metric: "weight-highest-degree", Digits: 3, Value: func(s *side) float64 { return binMean(s, -1) }},
						{Title: "epochs/s", Metric: "epochs-per-second", Digits: 1, Value: func(s *side) float64 { return float64(s.snap.EpochsPerSec) }},
					}),
				),
			),
		),
		app.P().Class("keys").Text("Keys: Space or K train/pause both · S or → step one epoch · R reset · G new graph (next data seed) · P projector mode."),
	)
}

// binMean is the mean weight of a side's first degree bin (i = 0) or its
// last (i = −1), NaN without bins.
func binMean(s *side, i int) float64 {
	b := s.snap.Degree
	if len(b) == 0 {
		return math.NaN()
	}
	if i < 0 {
		i = len(b) + i
	}
	return float64(b[i].Mean)
}

// renderDegreeFigures states the chart's ends in numbers, its text
// alternative.
func (c *DegreeLab) renderDegreeFigures() app.UI {
	var parts []app.UI
	for _, s := range c.sides {
		b := s.snap.Degree
		if len(b) == 0 {
			continue
		}
		lo, hi := b[0], b[len(b)-1]
		parts = append(parts, app.P().Class("drawn").Text(fmt.Sprintf("%s: degree %d–%d, mean weight %s; degree %d–%d, mean weight %s.",
			s.Title, lo.MinDegree, 2*lo.MinDegree-1, num(float64(lo.Mean), 3), hi.MinDegree, 2*hi.MinDegree-1, num(float64(hi.Mean), 3))))
	}
	return app.Div().Body(parts...)
}
