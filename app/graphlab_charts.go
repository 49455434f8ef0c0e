package app

import (
	"math"
	"strconv"
	"time"

	"pdnexplorer/edgekind"
	"pdnexplorer/viz"
	"pdnexplorer/wasm/protocol"
)

// graphCharts are the graph lab's charts as SVG, drawn from its run, and
// why the weight charts are empty where they are.
type graphCharts struct {
	curves, hist, share, attn string
	deciles                   string // the learned weights' deciles by edge kind (graphlab_weights.go)
	noWeights                 string
}

// redrawCharts renders the curves, the histogram, the inter-class share
// and the variant's attention: up to the epoch shown, when rewound.
func (c *GraphLab) redrawCharts() {
	c.lastChartDraw = time.Now()
	r := c.one()
	c.charts.noWeights = whyNoWeights(r) // a pass over the weights: here, not in Render
	h := &r.hist
	if r.frames != nil && r.frames.rewound() {
		h = h.until(r.snap.Epoch)
	}
	epochs := float64(r.snap.Epochs)
	c.charts.curves = viz.LineChart(chartW, chartH, viz.Axes{Title: tr("Loss and accuracy"), XLabel: tr("epoch"), YMin: 0, YMax: math.Max(1, maxFinite(h.loss)), XMax: epochs},
		viz.Series{Name: tr("loss"), Color: "#000000", X: h.epoch, Y: h.loss},
		viz.Series{Name: tr("train acc."), Color: viz.ClassColor(0), Dash: true, X: h.epoch, Y: h.train},
		viz.Series{Name: tr("test acc."), Color: viz.ClassColor(1), X: h.epoch, Y: h.test})
	c.charts.share = viz.LineChart(chartW, chartH, viz.Axes{Title: tr("Share of learned weight on inter-class edges"), XLabel: tr("epoch"), YMin: 0, YMax: 1, XMax: epochs},
		viz.Series{Name: tr("inter share"), Color: viz.InterColor, X: h.epoch, Y: h.share})
	var intra, inter []float64
	if r.graph != nil && len(r.graph.Kinds) == len(r.weights) {
		for e, w := range r.weights {
			if r.graph.Kinds[e] == edgekind.Inter {
				inter = append(inter, float64(w))
			} else {
				intra = append(intra, float64(w))
			}
		}
	}
	c.charts.deciles = decilesChart(r.snap)
	c.charts.attn = attentionChart(r.snap)
	if len(r.snap.Hops) > 0 {
		c.charts.attn = hopsChart(h, r.snap.Epochs)
	}
	c.charts.hist = viz.Histogram(chartW, chartH, tr("Learned edge weights"), tr("weight"), 20,
		viz.Group{Name: tr("intra-class"), Color: viz.IntraColor, Values: intra},
		viz.Group{Name: tr("inter-class"), Color: viz.InterColor, Values: inter})
}

// attentionChart draws the weights a variant learns over its inputs: the
// linear PDN's softmax attention over the edge features or layers, or the
// multi-scale PDN's weight per power of Â. Other models have none.
func attentionChart(s protocol.Snapshot) string {
	values, title, xlabel, prefix := s.Inputs, tr("Attention over the inputs, softmax(β)"), tr("input (edge feature or layer)"), ""
	if len(s.Hops) > 0 {
		values, title, xlabel, prefix = s.Hops, tr("Weight of each power of Â, softmax(α)"), tr("hop"), "Â^"
	}
	if len(values) == 0 {
		return ""
	}
	labels := make([]string, len(values))
	for i := range labels {
		labels[i] = prefix + strconv.Itoa(i+1)
	}
	return viz.Bars(chartW, chartH, title, xlabel, labels, values, viz.ClassColor(2))
}

// whyNoWeights says why the charts of learned edge weights are empty for
// the run's model, or "" when they have something to show.
func whyNoWeights(r *run) string {
	if !r.snapped {
		return ""
	}
	if r.graph != nil && len(r.graph.Src) == 0 {
		// Not the model's doing: there is no edge to weigh.
		return tr("This graph has no edges, so there is no weight to show.")
	}
	if len(r.weights) == 0 {
		return trf("%s gives no weight to edges, so there is none to show.", r.snap.Model)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, w := range r.weights {
		lo, hi = math.Min(lo, float64(w)), math.Max(hi, float64(w))
	}
	if hi-lo < 1e-6 {
		return trf("%s gives every edge the same weight, %s: it learns nothing per edge, so there is no spread to show.", r.snap.Model, num(hi, 3))
	}
	return ""
}

// whyNoAttention says why the linear PDN's attention over its inputs means
// nothing on a synthetic graph, whose edge features are interchangeable.
func (c *GraphLab) whyNoAttention() string {
	r := c.one()
	if len(r.snap.Inputs) == 0 || r.graph != nil && len(r.graph.Inputs) == len(r.snap.Inputs) {
		return ""
	}
	return trf(tr("The linear PDN learns one attention weight per input, softmax(β), over %d inputs here. "+
		"On this synthetic graph every edge feature is drawn alike (only their spread differs between intra- and inter-class edges), "+
		"so no input is worth more than another and the bars would say nothing; on a graph with named similarities they are Figure 8."), len(r.snap.Inputs))
}
