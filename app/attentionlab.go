package app

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/experiment"
	"pdnexplorer/tiestrength"
	"pdnexplorer/viz"
)

// attentionRuns are the attention lab's models: the linear PDN, whose
// softmax over its inputs reads as attention (Figure 8), and the
// multi-scale PDN, whose weights over the powers of Â move with the epochs
// (Figure 7).
func attentionRuns(st experiment.Experiment) []sideSpec {
	lin, ms := st, st
	lin.Model.Kind, lin.Model.EdgeHidden = experiment.PDNLinear, nil
	ms.Model.Kind = experiment.PDNMultiScale
	return []sideSpec{{Name: "linear", Title: "Linear PDN", Exp: lin}, {Name: "multiscale", Title: "Multi-scale PDN", Exp: ms}}
}

// attentionRows are the rows the attention lab offers.
var attentionRows = []string{"data", "shots", "classes", "per-class", "p", "q", "node-features", "edge-features", "sigma-f", "sigma-d", "seed",
	"hidden", "dropout", "hops", "epochs", "lr", "weight-decay", "init-seed"}

// AttentionLab shows what PDN attends to on a real graph: the linear PDN's
// attention over the named tie-strength scores, and the multi-scale PDN's
// weight of each hop over the epochs, both live.
type AttentionLab struct {
	app.Compo
	multiLab

	barsSVG, hopsSVG, curvesSVG string
}

// OnMount starts the two runs.
func (c *AttentionLab) OnMount(ctx app.Context) {
	c.lab = "attention"
	c.specs, c.show, c.redraw = attentionRuns, showRows(attentionRows), c.draw
	c.mount(ctx)
}

// OnDismount ends them.
func (c *AttentionLab) OnDismount() { c.dismount() }

// inputNames are the linear PDN's inputs by name: the scores of a real
// graph, numbers otherwise.
func (c *AttentionLab) inputNames(n int) []string {
	if s := c.sideNamed("linear"); s != nil && s.graph != nil && len(s.graph.Inputs) == n {
		return tiestrength.Short(s.graph.Inputs)
	}
	names := make([]string, n)
	for i := range names {
		names[i] = strconv.Itoa(i + 1)
	}
	return names
}

func (c *AttentionLab) draw() {
	c.barsSVG, c.hopsSVG = "", ""
	var curves []viz.Series
	for i, s := range c.sides {
		curves = append(curves, viz.Series{Name: s.Title, Color: sideColor(i), X: s.hist.epoch, Y: s.hist.test})
	}
	if s := c.sideNamed("linear"); s != nil && len(s.snap.Inputs) > 0 {
		c.barsSVG = viz.Bars(chartW+200, chartH, "Attention over the edge features, softmax(β)", "tie-strength score", c.inputNames(len(s.snap.Inputs)), s.snap.Inputs, viz.ClassColor(2))
	}
	if s := c.sideNamed("multiscale"); s != nil && len(s.hist.hops) > 0 {
		c.hopsSVG = hopsChart(&s.hist, s.Exp.Train.Epochs)
	}
	c.curvesSVG = viz.LineChart(chartW, chartH, viz.Axes{Title: "Test accuracy", XLabel: "epoch", YMin: 0, YMax: 1, XMax: c.epochsOf()}, curves...)
}

// renderAttention gives each input's attention as a number, the bars'
// text alternative.
func (c *AttentionLab) renderAttention() app.UI {
	s := c.sideNamed("linear")
	if s == nil || len(s.snap.Inputs) == 0 {
		return app.P().Class("drawn")
	}
	names := c.inputNames(len(s.snap.Inputs))
	if s.graph != nil && len(s.graph.Inputs) == len(s.snap.Inputs) {
		names = s.graph.Inputs
	}
	parts := []app.UI{}
	for i, a := range s.snap.Inputs {
		if i > 0 {
			parts = append(parts, app.Text(" · "))
		}
		parts = append(parts, app.Text(names[i]+" "), runMetric(s, "attention-"+names[i], a, s.figure(a, 3)))
	}
	return app.P().Class("drawn").Body(parts...)
}

// renderHopWeights gives the multi-scale PDN's current weight of each hop.
func (c *AttentionLab) renderHopWeights() app.UI {
	s := c.sideNamed("multiscale")
	if s == nil || len(s.snap.Hops) == 0 {
		return app.P().Class("drawn")
	}
	parts := []app.UI{app.Text("Now: ")}
	for i, p := range s.snap.Hops {
		if i > 0 {
			parts = append(parts, app.Text(" · "))
		}
		k := strconv.Itoa(i + 1)
		parts = append(parts, app.Text("P"+k+" = "), runMetric(s, "hop-"+k, p, s.figure(p, 3)))
	}
	return app.P().Class("drawn").Body(parts...)
}

// whyAnonymous says why bars over a generated graph's inputs mean nothing.
func (c *AttentionLab) whyAnonymous() string {
	if s := c.sideNamed("linear"); s != nil && s.graph != nil && s.graph.Inputs == nil && s.snapped {
		return "This graph's edge features are anonymous random draws, so no bar can mean more than another: choose cora or citeseer, whose edge features are the 11 named tie-strength scores."
	}
	return ""
}

// Render lays the lab out.
func (c *AttentionLab) Render() app.UI {
	return app.Div().Class("lab attention-lab").Body(
		c.renderToolbar(),
		app.Div().Class("main").Body(
			c.render(c.show),
			app.Section().Class("views").Body(
				app.Div().ID("attention").Class("card wide").Body(
					app.H2().Text("What the linear PDN attends to (Figure 8)"),
					app.Div().Class("figure").Body(figureOr(c.barsSVG, c.whyAnonymous())),
					c.renderAttention(),
					app.Div().Class("explain").Body(explainAttentionLab()),
				),
				card("hops", "Hop weights over the epochs (Figure 7)", c.hopsSVG, "", explainHopsLab(), c.renderHopWeights()),
				card("curves", "Test accuracy", c.curvesSVG, "", app.P().Text("Both models train on the same graph, split and seeds.")),
			),
		),
		app.P().Class("keys").Text("Keys: Space or K train/pause both · S or → step one epoch · R reset · G new split (next data seed) · P projector mode."),
	)
}

// figureOr is an SVG figure, or why there is none, or a placeholder.
func figureOr(svg, empty string) app.UI {
	switch {
	case empty != "":
		return app.P().Class("empty").Text(empty)
	case svg != "":
		return app.Raw(svg)
	}
	return app.Div().Class("placeholder").Text("Waiting for the engine…")
}
