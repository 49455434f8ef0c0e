package app

import (
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/experiment"
	"pdnexplorer/viz"
	"pdnexplorer/wasm/protocol"
)

// What the pathfinder learned, said from the run: the sentence read from
// the distribution of its weights on intra- and inter-class edges
// (experiment.ReadWeights, the rule pdn train and the claims read too),
// and a figure of that distribution. The engine sends the deciles
// (protocol.Spread, computed by lessons.WeightSpread); the page only reads
// them, so one run says one sentence on every surface.

// weightReading is the run's reading, WeightsNone for a model without edge
// weights or before the first snapshot.
func weightReading(r *run) experiment.WeightReading {
	return figuresOf(r).LearnedWeights()
}

// renderWeightSentence is the sentence under the graph view (weightSentence).
func (c *GraphLab) renderWeightSentence() app.UI {
	return app.P().Class("weight-sentence").Body(weightSentence(c.one(), ""))
}

// weightSentence is what run r's learned weights say, as the headline
// data-metric="weight-sentence" (data-run names the run where a lab shows
// several): its kind in data-value, its factor in data-factor, the epoch
// it was read at in data-epoch; while the run is short of its epochs, it
// says so. Nothing for a run without edge weights: no sentence is made up.
func weightSentence(r *run, dataRun string) app.UI {
	reading := weightReading(r)
	text, ok := reading.Sentence()
	if !ok {
		return app.Span()
	}
	s := app.Span().DataSet("metric", "weight-sentence").DataSet("value", reading.Kind).DataSet("factor", plain(reading.Factor)).
		DataSet("epoch", r.snap.Epoch).Text(say(text))
	if dataRun != "" {
		s = s.DataSet("run", dataRun)
	}
	var sofar app.UI = app.Text("")
	if r.snap.Epoch < r.snap.Epochs {
		sofar = app.Span().Class("note").Text(trf(" (so far: epoch %d of %d)", r.snap.Epoch, r.snap.Epochs))
	}
	return app.Span().Body(s, sofar)
}

// decilesChart draws the distribution of the run's learned weights on
// intra- and inter-class edges as two strips of deciles; "" without them.
func decilesChart(s protocol.Snapshot) string {
	sp := s.Spread
	if sp == nil || len(sp.Intra) == 0 && len(sp.Inter) == 0 {
		return ""
	}
	return viz.DecileStrips(chartW, tr("Learned weights by edge kind, deciles"), tr("weight"),
		viz.DecileGroup{Name: tr("intra-class"), Color: viz.IntraColor, Deciles: floats(sp.Intra)},
		viz.DecileGroup{Name: tr("inter-class"), Color: viz.InterColor, Deciles: floats(sp.Inter)})
}

// renderDeciles is the deciles' figure under the histogram, as
// data-metric="weight-deciles": its value the share of edges pinned near 0
// or 1, data-intra and data-inter the deciles exactly (space-separated).
func (c *GraphLab) renderDeciles() app.UI {
	r := c.one()
	if c.charts.deciles == "" || r.snap.Spread == nil {
		return app.Div().Class("deciles-none")
	}
	sp := r.snap.Spread
	return app.Div().Class("deciles").DataSet("metric", "weight-deciles").DataSet("value", plain(float64(sp.Saturated))).
		DataSet("intra", plainList(sp.Intra)).DataSet("inter", plainList(sp.Inter)).Body(
		app.Div().Class("figure").Body(app.Raw(c.charts.deciles)),
		app.P().Class("note").Text(trf("Edges within 0.01 of 0 or of 1: %.0f%%.", 100*float64(sp.Saturated))),
	)
}

// plainList is xs as data-value numbers, space-separated.
func plainList(xs []protocol.Num) string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = plain(float64(x))
	}
	return strings.Join(out, " ")
}
