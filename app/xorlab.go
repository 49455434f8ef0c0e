package app

import (
	"fmt"
	"math"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/viz"
	"pdnexplorer/xorstate"
)

// XORLab is §4.1.1's lesson: on a graph whose intra-class edges lie in
// exactly one of two layers, only a pathfinder with a hidden layer can
// weigh them above the others, as XOR needs. Its runs are the lab table's:
// PDN with 16 neurons and with 2, the linear PDN and GCN.
type XORLab struct {
	app.Compo
	lab

	curves   string
	surfaces []string // α(a, b) of each run with a pathfinder, "" for none
	turn     int      // which figure the next draw while training redraws
}

func init() {
	addRoom("xor", func(p *page) room {
		c := &XORLab{}
		c.init(p, "xor", c)
		return c
	})
}

// draw renders the figures from the runs. While they train it draws one
// figure a turn, each run's surface and then the curves, so that each is
// drawn every severalRedraw as before but no frame pays for all of them
// (three surfaces and the curves at once held the main thread 70–100 ms).
func (c *XORLab) draw(ch change) {
	slots := len(c.runs) + 1
	if !c.due(ch, severalRedraw/time.Duration(slots)) {
		return
	}
	all := ch&(newState|newGraph|drawNow) != 0 || len(c.surfaces) != len(c.runs) || !c.running()
	if all {
		c.surfaces = make([]string, len(c.runs))
	}
	turn := c.turn % slots
	c.turn++
	// Every run has its place in the grid of surfaces, GCN's saying it has none.
	legibleInColumns("#surfaces .surfaces", len(c.runs), 240, 10, func() {
		for i, r := range c.runs {
			if all || turn == i {
				c.surfaces[i] = surface(r)
			}
		}
	})
	if all || turn == len(c.runs) {
		c.curves = c.testCurves()
	}
}

// surface is α(a, b) of r's pathfinder over the two layers, "" for a run
// without one or before its first snapshot.
func surface(r *run) string {
	x := r.snap.XOR
	if x == nil || x.Size == 0 {
		return ""
	}
	vals := make([]float64, len(x.Surface))
	for k, v := range x.Surface {
		vals[k] = float64(v)
	}
	var marks []viz.Mark
	for k, z := range xorstate.States {
		marks = append(marks, viz.Mark{X: z.A, Y: z.B, Label: fmt.Sprintf("(%g, %g)\nα %.2f · %.0f%%", z.A, z.B, float64(x.Alpha[k]), 100*float64(x.Share[k]))})
	}
	return viz.Heatmap(340, 300, "α(a, b): "+tr(r.Title), tr("a: in layer A′"), "b", x.Size, vals, marks)
}

// Render lays the lab out.
func (c *XORLab) Render() app.UI {
	return c.layOut("xor-lab", nil, c.render(c.visible),
		c.renderSurfaces(),
		app.Div().ID("states").Class("card").Body(
			app.H2().Text(tr("Mean learned weight by edge state")),
			c.renderStates(),
			app.Div().Class("explain").Body(explainXORStates()),
		),
		app.Div().ID("table3").Class("card").Body(
			app.H2().Text(tr("Table 3, live: the 2-neuron pathfinder")),
			c.beside("table3"),
			c.renderTable3(),
			c.renderRestarts(),
		),
		c.card("curves", tr("Test accuracy of the four models"), c.curves, "", app.P().Text(
			tr("The node features are noisy; the edges carry the classes only through their layers. A model that weighs the one-layer edges up passes messages within classes and climbs; "+
				"a linear pathfinder cannot, and GCN treats every edge alike."))),
	)
}

func (c *XORLab) renderSurfaces() app.UI {
	var figs []app.UI
	for i, r := range c.runs {
		var fig app.UI = app.P().Class("empty").Text(tr(r.Title) + tr(" has no pathfinder: it weighs every edge 1, whatever its layers."))
		switch {
		case i < len(c.surfaces) && c.surfaces[i] != "":
			fig = app.Raw(c.surfaces[i])
		case !r.snapped:
			fig = app.Div().Class("placeholder").Text(tr("Waiting for the engine…"))
		}
		figs = append(figs, app.Div().Class("surface").DataSet("run", r.Name).Body(fig))
	}
	return app.Div().ID("surfaces").Class("card wide").Body(
		app.H2().Text(tr("The pathfinder as a function of an edge's two layers")),
		c.beside("surfaces"),
		app.Div().Class("surfaces").Body(figs...),
		app.Div().Class("explain").Body(explainXORSurface()),
	)
}

// renderStates is the mean weight of each state's edges, per model.
func (c *XORLab) renderStates() app.UI {
	var cols []column
	for k, z := range xorstate.States {
		cols = append(cols, column{Title: tuple(z.A, z.B), Metric: "alpha-" + z.Key, Digits: 3, Value: func(r *run) float64 {
			if r.snap.XOR == nil {
				return math.NaN()
			}
			return float64(r.snap.XOR.Mean[k])
		}})
	}
	cols = append(cols,
		column{Title: tr("found XOR"), Metric: "found-xor", Digits: 0, Value: func(r *run) float64 {
			switch {
			case r.snap.XOR == nil:
				return math.NaN()
			case r.snap.XOR.Found:
				return 1
			}
			return 0
		}},
		testColumn)
	return c.runsTable("state-table", cols)
}

// renderTable3 sets the 2-neuron pathfinder's hidden layer and weight on
// each state beside the paper's hand-set solution.
func (c *XORLab) renderTable3() app.UI {
	two := c.runNamed("pdn-2")
	if two == nil {
		return app.P()
	}
	x := two.snap.XOR
	// Each number's header stands in its column, over it: the two groups
	// of three columns head a row of their own.
	head := app.THead().Body(
		app.Tr().Body(
			app.Th().Scope("col").Rowspan(2).Text("\u2066"+tr("(a, b)")+"\u2069"), // left to right, as tuple's
			app.Th().Scope("colgroup").ColSpan(3).Text(tr("learned")),
			app.Th().Scope("colgroup").ColSpan(3).Text(tr("hand-set (the paper's)"))),
		app.Tr().Body(
			app.Th().Scope("col").Text("h₁"), app.Th().Scope("col").Text("h₂"), app.Th().Scope("col").Text("α"),
			app.Th().Scope("col").Text("h₁"), app.Th().Scope("col").Text("h₂"), app.Th().Scope("col").Text(tr("α = h₁ − 2h₂"))))
	var rows []app.UI
	for k, z := range xorstate.States {
		h1, h2, a := math.NaN(), math.NaN(), math.NaN()
		if x != nil && len(x.Alpha) == 4 && len(x.Hidden[k]) == 2 {
			h1, h2, a = float64(x.Hidden[k][0]), float64(x.Hidden[k][1]), float64(x.Alpha[k])
		}
		s1, s2, sa := xorstate.HandSet(z.A, z.B)
		rows = append(rows, app.Tr().Body(
			app.Th().Scope("row").Text(tuple(z.A, z.B)),
			app.Td().Body(c.metricOf(two, "h1-"+z.Key, h1, 3)),
			app.Td().Body(c.metricOf(two, "h2-"+z.Key, h2, 3)),
			app.Td().Body(c.metricOf(two, "pathfinder-"+z.Key, a, 3)),
			app.Td().Text(num(s1, 0)), app.Td().Text(num(s2, 0)), app.Td().Text(num(sa, 0)),
		))
	}
	return app.Div().Body(
		dataTable("table3-values", "runs table3", head, app.TBody().Body(rows...)),
		app.P().Class("explain").Text(tr("Left, what the 2-neuron pathfinder has learned (α is σ of its output, so it lies in (0, 1)); right, the solution the paper sets by hand. "+
			"Its neurons may come in either order, and any pair that weighs the one-layer states up is as good.")),
	)
}

// renderRestarts shows the restart remedy: the initialisations tried, each
// one's training loss, and the one kept.
func (c *XORLab) renderRestarts() app.UI {
	two := c.runNamed("pdn-2")
	if two == nil {
		return app.P()
	}
	r := two.snap.Restarts
	if two.progress != nil && two.progress.Restarts != nil {
		r = two.progress.Restarts
	}
	if r == nil && two.Exp.Model.Restarts > 0 {
		return app.P().Class("note").Text(trf("Waiting for the engine to try %d initialisations…", two.Exp.Model.Restarts))
	}
	if r == nil {
		return app.P().Class("note").Text(tr("No restarts: the 2-neuron pathfinder trains from its one initialisation. With 2 ReLUs, both can start dead on the states that matter; set restarts above 0 to try several."))
	}
	items := make([]app.UI, 0, len(r.Seeds))
	for i, seed := range r.Seeds {
		loss := float64(r.Losses[i])
		text := trf("seed %d: training loss %s", seed, num(loss, 4))
		if math.IsNaN(loss) {
			text = trf("seed %d: not yet tried", seed)
		}
		li := app.Li().Text(text)
		if i == r.Chosen {
			li = app.Li().Class("chosen").Body(app.Strong().Text(text + tr(" ← kept: the lowest")))
		}
		items = append(items, li)
	}
	var chosen app.UI = app.Span()
	if r.Chosen >= 0 {
		chosen = app.Span().Body(app.Text(tr("Kept: initialisation ")), metric("restart-chosen", "", float64(r.Chosen+1), fmt.Sprint(r.Chosen+1)),
			app.Text(trf(" of %d, seed %d.", len(r.Seeds), r.Seeds[r.Chosen])))
	}
	return app.Div().ID("restarts").Class("restarts").Body(
		app.H3().Text(tr("The restart remedy")),
		app.P().Class("note").Body(app.Text(trf("%d initialisations, each trained %d epochs; the one of lowest training loss (read without dropout) trains on. ", len(r.Seeds), r.Epochs)), chosen),
		app.P().Class("note").Text(tr("Why both remedies: with torch's initialisation (edge-init uniform) both ReLUs often start dead on the states that matter, "+
			"and a dead pathfinder, which weighs every edge alike, can still reach as low a training loss as a live one, so restarts alone may keep a dead one. "+
			"With hidden biases starting at +0.5 (edge-init alive) every restart starts alive, and the loss picks among pathfinders that learn. "+
			"Both remedies apply to the 2-neuron pathfinder only; the others start from torch's initialisation, as the paper's code.")),
		app.Ul().Body(items...),
	)
}

// explainXORSurface is the XOR lab's heatmaps: the pathfinder as a
// function of an edge's two layers, and the paper's hand-set solution.
func explainXORSurface() app.UI {
	return app.P().Body(
		app.Text(tr("Each square is the weight the pathfinder gives an edge whose layers are (a, b), ")),
		mathML(`<math><mi>α</mi><mo>(</mo><mi>a</mi><mo>,</mo><mi>b</mi><mo>)</mo><mo>=</mo><mi>σ</mi><mo>(</mo><msubsup><mi>w</mi><mn>2</mn><mi>⊤</mi></msubsup><mspace width="0.2em"/><mi>ReLU</mi><mo>(</mo><msub><mi>W</mi><mn>1</mn></msub><mo>[</mo><mi>a</mi><mo>,</mo><mi>b</mi><mo>]</mo><mo>+</mo><msub><mi>b</mi><mn>1</mn></msub><mo>)</mo><mo>+</mo><msub><mi>b</mi><mn>2</mn></msub><mo>)</mo></math>`),
		app.Text(tr(", drawn for every a and b between 0 and 1: bright is heavy, dark is light. The four corners are the edge states there are, with their mean weight and their share of the edges. "+
			"The right answer is XOR: bright at (0,1) and (1,0), dark at (0,0) and (1,1). A sigmoid of a weighted sum (the linear PDN) only tilts the square from one side to the other; "+
			"the hidden layer lets it fold, as Table 3's two neurons do: ")),
		mathML(`<math><msub><mi>h</mi><mn>1</mn></msub><mo>=</mo><mi>ReLU</mi><mo>(</mo><mi>a</mi><mo>+</mo><mi>b</mi><mo>)</mo><mo>,</mo><mspace width="0.4em"/><msub><mi>h</mi><mn>2</mn></msub><mo>=</mo><mi>ReLU</mi><mo>(</mo><mi>a</mi><mo>+</mo><mi>b</mi><mo>−</mo><mn>1</mn><mo>)</mo><mo>,</mo><mspace width="0.4em"/><mi>α</mi><mo>=</mo><msub><mi>h</mi><mn>1</mn></msub><mo>−</mo><mn>2</mn><msub><mi>h</mi><mn>2</mn></msub></math>`),
		app.Text("."),
	)
}

// explainXORStates is the table of mean weight per edge state.
func explainXORStates() app.UI {
	return app.P().Body(
		app.Text(tr("Each edge lies in layer A′, in A″, in both or in neither: its state (a, b). On this graph the intra-class edges are exactly those in one layer, ")),
		mathML(`<math><mi>a</mi><mo>⊕</mo><mi>b</mi><mo>=</mo><mn>1</mn></math>`),
		app.Text(tr("; the pathfinder has found XOR when it weighs those at least three times the others. GCN weighs every edge 1.")),
	)
}

// tuple writes an edge state (a, b) isolated left to right (LRI … PDI),
// so that an Arabic page keeps "(0, 1)" whole instead of mirroring it into
// ",0)" over "(1".
func tuple(a, b float64) string {
	return "\u2066" + fmt.Sprintf("(%g, %g)", a, b) + "\u2069"
}
