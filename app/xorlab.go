package app

import (
	"fmt"
	"math"
	"slices"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/experiment"
	"pdnexplorer/viz"
)

// xorStates are the four states of an XOR edge, (a, b), in the engine's
// order, with their metric suffixes.
var xorStates = []struct {
	A, B float64
	Key  string
}{{0, 0, "00"}, {0, 1, "01"}, {1, 0, "10"}, {1, 1, "11"}}

// xorRuns are the XOR lab's models: the pathfinder with 16 neurons, with 2,
// the linear PDN and GCN. The remedies the rows edge-init and restarts
// set are the 2-neuron pathfinder's; the others train as the paper's code
// does, from torch's initialisation.
func xorRuns(st experiment.Experiment) []sideSpec {
	spec := func(name, title, kind string, hidden []int, remedy bool) sideSpec {
		e := st
		e.Model.Kind, e.Model.EdgeHidden = kind, hidden
		if !remedy {
			e.Model.EdgeInit, e.Model.Restarts = experiment.InitUniform, 0
		}
		return sideSpec{Name: name, Title: title, Exp: e}
	}
	return []sideSpec{
		spec("pdn-16", "PDN, 16 neurons", experiment.PDN, []int{16}, false),
		spec("pdn-2", "PDN, 2 neurons", experiment.PDN, []int{2}, true),
		spec("pdn-linear", "Linear PDN", experiment.PDNLinear, nil, false),
		spec("gcn", "GCN", experiment.GCN, nil, false),
	}
}

// xorRows are the rows the XOR lab offers: the graph's but those the XOR
// layers replace, the training's, and the model rows its four models share.
var xorRows = []string{"classes", "per-class", "p", "q", "node-features", "sigma-f", "seed",
	"hidden", "dropout", "edge-dropout", "edge-init", "restarts", "restart-epochs",
	"epochs", "lr", "weight-decay", "init-seed"}

func showRows(names []string) func(experiment.Param) bool {
	return func(p experiment.Param) bool { return slices.Contains(names, p.Name) }
}

// XORLab is §4.1.1's lesson: on a graph whose intra-class edges lie in
// exactly one of two layers, only a pathfinder with a hidden layer can
// weigh them above the others, as XOR needs.
type XORLab struct {
	app.Compo
	multiLab

	curvesSVG string
	surfaces  []string // α(a, b) of each side with a pathfinder, "" for none
}

// OnMount starts the four runs.
func (c *XORLab) OnMount(ctx app.Context) {
	c.lab = "xor"
	c.specs, c.show, c.redraw = xorRuns, showRows(xorRows), c.draw
	c.mount(ctx)
}

// OnDismount ends them.
func (c *XORLab) OnDismount() { c.dismount() }

// draw renders the figures from the sides.
func (c *XORLab) draw() {
	var series []viz.Series
	c.surfaces = make([]string, len(c.sides))
	for i, s := range c.sides {
		series = append(series, viz.Series{Name: s.Title, Color: sideColor(i), X: s.hist.epoch, Y: s.hist.test})
		x := s.snap.XOR
		if x == nil || x.Size == 0 {
			continue
		}
		vals := make([]float64, len(x.Surface))
		for k, v := range x.Surface {
			vals[k] = float64(v)
		}
		var marks []viz.Mark
		for k, z := range xorStates {
			marks = append(marks, viz.Mark{X: z.A, Y: z.B, Label: fmt.Sprintf("(%g, %g)\nα %.2f · %.0f%%", z.A, z.B, float64(x.Alpha[k]), 100*float64(x.Share[k]))})
		}
		c.surfaces[i] = viz.Heatmap(340, 300, "α(a, b): "+s.Title, "a: in layer A′", "b", x.Size, vals, marks)
	}
	c.curvesSVG = viz.LineChart(chartW, chartH, viz.Axes{Title: "Test accuracy", XLabel: "epoch", YMin: 0, YMax: 1, XMax: c.epochsOf()}, series...)
}

// Render lays the lab out.
func (c *XORLab) Render() app.UI {
	return app.Div().Class("lab xor-lab").Body(
		c.renderToolbar(),
		app.Div().Class("main").Body(
			c.render(c.show),
			app.Section().Class("views").Body(
				c.renderSurfaces(),
				app.Div().ID("states").Class("card").Body(
					app.H2().Text("Mean learned weight by edge state"),
					c.renderStates(),
					app.Div().Class("explain").Body(explainXORStates()),
				),
				app.Div().ID("table3").Class("card").Body(
					app.H2().Text("Table 3, live: the 2-neuron pathfinder"),
					c.renderTable3(),
					c.renderRestarts(),
				),
				card("curves", "Test accuracy of the four models", c.curvesSVG, "", app.P().Text(
					"The node features are noisy; the edges carry the classes only through their layers. A model that weighs the one-layer edges up passes messages within classes and climbs; "+
						"a linear pathfinder cannot, and GCN treats every edge alike.")),
			),
		),
		app.P().Class("keys").Text("Keys: Space or K train/pause all · S or → step one epoch · R reset · G new graph (next data seed) · P projector mode."),
	)
}

func (c *XORLab) renderSurfaces() app.UI {
	var figs []app.UI
	for i, s := range c.sides {
		var fig app.UI = app.P().Class("empty").Text(s.Title + " has no pathfinder: it weighs every edge 1, whatever its layers.")
		switch {
		case i < len(c.surfaces) && c.surfaces[i] != "":
			fig = app.Raw(c.surfaces[i])
		case !s.snapped:
			fig = app.Div().Class("placeholder").Text("Waiting for the engine…")
		}
		figs = append(figs, app.Div().Class("surface").DataSet("run", s.Name).Body(fig))
	}
	return app.Div().ID("surfaces").Class("card wide").Body(
		app.H2().Text("The pathfinder as a function of an edge's two layers"),
		app.Div().Class("surfaces").Body(figs...),
		app.Div().Class("explain").Body(explainXORSurface()),
	)
}

// renderStates is the mean weight of each state's edges, per model.
func (c *XORLab) renderStates() app.UI {
	cols := []summaryCol{}
	for k, z := range xorStates {
		cols = append(cols, summaryCol{Title: fmt.Sprintf("(%g, %g)", z.A, z.B), Metric: "alpha-" + z.Key, Digits: 3, Value: func(s *side) float64 {
			if s.snap.XOR == nil {
				return math.NaN()
			}
			return float64(s.snap.XOR.Mean[k])
		}})
	}
	cols = append(cols,
		summaryCol{Title: "found XOR", Metric: "found-xor", Digits: 0, Value: func(s *side) float64 {
			if s.snap.XOR == nil {
				return math.NaN()
			}
			if s.snap.XOR.Found {
				return 1
			}
			return 0
		}},
		summaryCol{Title: "test acc.", Metric: "test-accuracy-final", Digits: 3, Value: func(s *side) float64 { return float64(s.snap.TestAcc) }})
	return c.summaryTable("state-table", cols)
}

// sideNamed is the run called name, nil for none.
func (m *multiLab) sideNamed(name string) *side {
	for _, s := range m.sides {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// renderTable3 sets the 2-neuron pathfinder's hidden layer and weight on
// each state beside the paper's hand-set solution.
func (c *XORLab) renderTable3() app.UI {
	two := c.sideNamed("pdn-2")
	if two == nil {
		return app.P()
	}
	x := two.snap.XOR
	rows := []app.UI{app.Tr().Body(
		app.Th().Scope("col").Text("(a, b)"), app.Th().Scope("col").Text("h₁"), app.Th().Scope("col").Text("h₂"), app.Th().Scope("col").Text("α"),
		app.Th().Scope("col").Text("hand-set h₁"), app.Th().Scope("col").Text("h₂"), app.Th().Scope("col").Text("α = h₁ − 2h₂"))}
	for k, z := range xorStates {
		h1, h2, a := math.NaN(), math.NaN(), math.NaN()
		if x != nil && len(x.Alpha) == 4 && len(x.Hidden[k]) == 2 {
			h1, h2, a = float64(x.Hidden[k][0]), float64(x.Hidden[k][1]), float64(x.Alpha[k])
		}
		// lessons.HandSet, which the page cannot link (it brings the engine).
		s1, s2 := math.Max(z.A+z.B, 0), math.Max(z.A+z.B-1, 0)
		rows = append(rows, app.Tr().Body(
			app.Th().Scope("row").Text(fmt.Sprintf("(%g, %g)", z.A, z.B)),
			app.Td().Body(runMetric(two, "h1-"+z.Key, h1, two.figure(h1, 3))),
			app.Td().Body(runMetric(two, "h2-"+z.Key, h2, two.figure(h2, 3))),
			app.Td().Body(runMetric(two, "pathfinder-"+z.Key, a, two.figure(a, 3))),
			app.Td().Text(num(s1, 0)), app.Td().Text(num(s2, 0)), app.Td().Text(num(s1-2*s2, 0)),
		))
	}
	return app.Div().Body(
		app.Table().ID("table3-values").Class("runs").Body(app.TBody().Body(rows...)),
		app.P().Class("explain").Text("Left, what the 2-neuron pathfinder has learned (α is σ of its output, so it lies in (0, 1)); right, the solution the paper sets by hand. "+
			"Its neurons may come in either order, and any pair that weighs the one-layer states up is as good."),
	)
}

// renderRestarts shows the restart remedy: the initialisations tried, each
// one's training loss, and the one kept.
func (c *XORLab) renderRestarts() app.UI {
	two := c.sideNamed("pdn-2")
	if two == nil {
		return app.P()
	}
	r := two.snap.Restarts
	if two.progress != nil && two.progress.Restarts != nil {
		r = two.progress.Restarts
	}
	if r == nil && two.Exp.Model.Restarts > 0 {
		return app.P().Class("note").Text(fmt.Sprintf("Waiting for the engine to try %d initialisations…", two.Exp.Model.Restarts))
	}
	if r == nil {
		return app.P().Class("note").Text("No restarts: the 2-neuron pathfinder trains from its one initialisation. With 2 ReLUs, both can start dead on the states that matter; set restarts above 0 to try several.")
	}
	items := make([]app.UI, 0, len(r.Seeds))
	for i, seed := range r.Seeds {
		loss := float64(r.Losses[i])
		text := fmt.Sprintf("seed %d: training loss %s", seed, num(loss, 4))
		if math.IsNaN(loss) {
			text = fmt.Sprintf("seed %d: not yet tried", seed)
		}
		li := app.Li().Text(text)
		if i == r.Chosen {
			li = app.Li().Class("chosen").Body(app.Strong().Text(text + " ← kept: the lowest"))
		}
		items = append(items, li)
	}
	var chosen app.UI = app.Span()
	if r.Chosen >= 0 {
		chosen = app.Span().Body(app.Text("Kept: initialisation "), metric("restart-chosen", float64(r.Chosen+1), fmt.Sprint(r.Chosen+1)),
			app.Text(fmt.Sprintf(" of %d, seed %d.", len(r.Seeds), r.Seeds[r.Chosen])))
	}
	return app.Div().ID("restarts").Class("restarts").Body(
		app.H3().Text("The restart remedy"),
		app.P().Class("note").Body(app.Text(fmt.Sprintf("%d initialisations, each trained %d epochs; the one of lowest training loss (read without dropout) trains on. ", len(r.Seeds), r.Epochs)), chosen),
		app.P().Class("note").Text("Why both remedies: with torch's initialisation (edge-init uniform) both ReLUs often start dead on the states that matter, "+
			"and a dead pathfinder, which weighs every edge alike, can still reach as low a training loss as a live one, so restarts alone may keep a dead one. "+
			"With hidden biases starting at +0.5 (edge-init alive) every restart starts alive, and the loss picks among pathfinders that learn. "+
			"Both remedies apply to the 2-neuron pathfinder only; the others start from torch's initialisation, as the paper's code."),
		app.Ul().Body(items...),
	)
}
