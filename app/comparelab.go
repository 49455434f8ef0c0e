package app

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/experiment"
	"pdnexplorer/viz"
)

// compareRuns are the models the state's models row names, one run each.
func compareRuns(st experiment.Experiment) []sideSpec {
	var out []sideSpec
	for _, k := range st.View.Models {
		e := st
		e.Model.Kind = k
		out = append(out, sideSpec{Name: k, Title: k, Exp: e})
	}
	return out
}

// CompareLab trains 2 to 4 models of the zoo on the same graph and seeds,
// each in its own worker, and sets their curves and figures side by side.
type CompareLab struct {
	app.Compo
	multiLab

	testSVG, lossSVG, shareSVG string
}

// OnMount starts a run per model.
func (c *CompareLab) OnMount(ctx app.Context) {
	c.lab = "compare"
	c.specs, c.redraw = compareRuns, c.draw
	c.show = func(p experiment.Param) bool { return p.Name != "model" }
	c.minis = &miniGraphs{}
	c.mount(ctx)
}

// OnDismount ends them.
func (c *CompareLab) OnDismount() { c.dismount() }

func (c *CompareLab) draw() {
	var test, loss, share []viz.Series
	top := 1.0
	for i, s := range c.sides {
		test = append(test, viz.Series{Name: s.Title, Color: sideColor(i), X: s.hist.epoch, Y: s.hist.test})
		loss = append(loss, viz.Series{Name: s.Title, Color: sideColor(i), X: s.hist.epoch, Y: s.hist.loss})
		share = append(share, viz.Series{Name: s.Title, Color: sideColor(i), X: s.hist.epoch, Y: s.hist.share})
		top = max(top, maxFinite(s.hist.loss))
	}
	a := viz.Axes{XLabel: "epoch", YMin: 0, YMax: 1, XMax: c.epochsOf()}
	a.Title = "Test accuracy"
	c.testSVG = viz.LineChart(chartW, chartH, a, test...)
	a.Title, a.YMax = "Training loss", top
	c.lossSVG = viz.LineChart(chartW, chartH, a, loss...)
	a.Title, a.YMax = "Share of learned weight on inter-class edges", 1
	c.shareSVG = viz.LineChart(chartW, chartH, a, share...)
	c.drawMinis()
}

// toggleModel adds or removes a model from the models row.
func (c *CompareLab) toggleModel(kind string, on bool) {
	models := slices.DeleteFunc(slices.Clone(c.st.View.Models), func(m string) bool { return m == kind })
	if on {
		models = append(models, kind)
	}
	c.setParam("models", strings.Join(models, ","))
}

// renderModels is the models row as a set of checkboxes.
func (c *CompareLab) renderModels() app.UI {
	p, _ := experiment.Lookup("models")
	boxes := make([]app.UI, 0, len(experiment.Kinds))
	for _, k := range experiment.Kinds {
		on := slices.Contains(c.st.View.Models, k)
		boxes = append(boxes, app.Label().Class("model-choice").Body(
			app.Input().Type("checkbox").ID("model-"+k).Checked(on).
				OnChange(func(ctx app.Context, e app.Event) { c.toggleModel(k, ctx.JSSrc().Get("checked").Bool()) }),
			app.Text(" "+k)))
	}
	var msg app.UI = app.P().Class("note").Text(fmt.Sprintf("Pick %g to %g models; each trains in a worker of its own.", p.Min, p.Max))
	if e, bad := c.fieldErr["models"]; bad {
		msg = app.P().Class("field-error").Text(e)
	}
	return app.FieldSet().ID("models").Class("models").Body(app.Legend().Text("Models"), app.Div().Class("model-choices").Body(boxes...), msg)
}

// Render lays the lab out.
func (c *CompareLab) Render() app.UI {
	return app.Div().Class("lab compare-lab").Body(
		c.renderToolbar(),
		app.Div().Class("main").Body(
			app.Div().Body(app.Aside().Class("controls").Body(c.renderModels()), c.render(c.show)),
			app.Section().Class("views").Body(
				c.renderMinis(),
				card("test-curves", "Test accuracy", c.testSVG, "", app.P().Text("Every model trains on the same graph from the same seeds, so the curves differ by the model alone.")),
				card("loss-curves", "Training loss", c.lossSVG, "", app.P().Text("The cross-entropy on the labelled nodes, with dropout, as each model is trained.")),
				card("share-curves", "Inter-class share", c.shareSVG, "", app.P().Body(
					app.Text("The share of the learned edge weight that sits on inter-class edges, "), app.Raw(shareFormula),
					app.Text(": it falls when a model learns to drop them (PDN); GCN keeps the graph's own share, and a model with no edges (MLP) draws no line."))),
				app.Div().ID("summary").Class("card").Body(
					app.H2().Text("Side by side"),
					c.summaryTable("runs-table", []summaryCol{
						{Title: "epoch", Metric: "epoch-final", Digits: 0, Value: func(s *side) float64 { return float64(s.snap.Epoch) }},
						{Title: "test acc.", Metric: "test-accuracy-final", Digits: 3, Value: func(s *side) float64 { return float64(s.snap.TestAcc) }},
						{Title: "train acc.", Metric: "train-accuracy", Digits: 3, Value: func(s *side) float64 { return float64(s.snap.TrainAcc) }},
						{Title: "epochs/s", Metric: "epochs-per-second", Digits: 1, Value: func(s *side) float64 { return float64(s.snap.EpochsPerSec) }},
						{Title: "inter-class share", Metric: "inter-share", Digits: 3, Value: func(s *side) float64 { return last(s.hist.share) }},
					}),
					app.P().Class("explain").Text("Epochs per second are each worker's own, measured while the others train beside it."),
				),
			),
		),
		app.P().Class("keys").Text("Keys: Space or K train/pause all · S or → step one epoch · R reset · G new graph (next data seed) · P projector mode."),
	)
}

// last is the last of xs, NaN for none.
func last(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	return xs[len(xs)-1]
}
