package app

import (
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/viz"
	"pdnexplorer/wasm/protocol"
)

// SaysWeights: the graph lab says its run's sentence under the graph.
func (c *GraphLab) SaysWeights() {}

// renderWeightSentence is the sentence under the graph view (weightSentence).
func (c *GraphLab) renderWeightSentence() app.UI {
	return app.P().Class("weight-sentence").Body(weightSentence(c.one(), ""))
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
