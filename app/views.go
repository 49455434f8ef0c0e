package app

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/edgekind"
	"pdnexplorer/experiment"
	"pdnexplorer/internal/numtext"
	"pdnexplorer/viz"
	"pdnexplorer/wasm/protocol"
)

// Chart sizes, in SVG units; the page scales them to its columns.
const (
	chartW, chartH = 520, 240
	viewW, viewH   = 560, 560 // the graph view
)

// layoutNames are the layouts as the layout menu names them.
var layoutNames = map[string]string{
	experiment.LayoutClasses: "a region per class",
	experiment.LayoutInput:   "one force layout for all",
	experiment.LayoutLearned: "pulled by the learned weights",
}

// The graph view's canvases: the edges, and the nodes over them.
const (
	edgeCanvasID = "graph-edges"
	nodeCanvasID = "graph-nodes"
)

// drawnWeights returns the weights of the edges the view draws (an even
// sample of a large graph's), nil for a model without edge weights.
func (c *GraphLab) drawnWeights() []float32 {
	if len(c.weights) == 0 {
		return nil
	}
	return subset(c.weights, c.drawIdx)
}

// redrawGraph renders the graph view from the latest weights.
func (c *GraphLab) redrawGraph() {
	if c.view == nil {
		return
	}
	w := c.drawnWeights()
	c.strokes = c.view.Strokes(w, c.st.View.Threshold)
	if c.strokes == nil {
		c.strokes = []viz.Stroke{} // drawn, with no edge
	}
	c.edges.paint(viewW, viewH, edgePaths(c.strokes))
	c.lastGraphDraw = time.Now()
}

// redrawCharts renders the curves and the histogram.
func (c *GraphLab) redrawCharts() {
	c.lastChartDraw = time.Now()
	c.noWeights = c.whyNoWeights() // a pass over the weights: here, not in Render
	h := &c.hist
	if c.rw.rewound() {
		h = h.until(c.snap.Epoch)
	}
	c.curvesSVG = viz.LineChart(chartW, chartH, viz.Axes{Title: "Loss and accuracy", XLabel: "epoch", YMin: 0, YMax: math.Max(1, maxFinite(h.loss)), XMax: float64(c.snap.Epochs)},
		viz.Series{Name: "loss", Color: "#000000", X: h.epoch, Y: h.loss},
		viz.Series{Name: "train acc.", Color: viz.ClassColor(0), Dash: true, X: h.epoch, Y: h.train},
		viz.Series{Name: "test acc.", Color: viz.ClassColor(1), X: h.epoch, Y: h.test})
	c.shareSVG = viz.LineChart(chartW, chartH, viz.Axes{Title: "Share of learned weight on inter-class edges", XLabel: "epoch", YMin: 0, YMax: 1, XMax: float64(c.snap.Epochs)},
		viz.Series{Name: "inter share", Color: viz.InterColor, X: h.epoch, Y: h.share})
	var intra, inter []float64
	if c.graph != nil && len(c.graph.Kinds) == len(c.weights) {
		for e, w := range c.weights {
			if c.graph.Kinds[e] == edgekind.Inter {
				inter = append(inter, float64(w))
			} else {
				intra = append(intra, float64(w))
			}
		}
	}
	c.attnSVG = attentionChart(c.snap)
	if len(c.snap.Hops) > 0 {
		c.attnSVG = hopsChart(h, c.snap.Epochs)
	}
	c.histSVG = viz.Histogram(chartW, chartH, "Learned edge weights", "weight", 20,
		viz.Group{Name: "intra-class", Color: viz.IntraColor, Values: intra},
		viz.Group{Name: "inter-class", Color: viz.InterColor, Values: inter})
}

// attentionChart draws the weights a variant learns over its inputs: the
// linear PDN's softmax attention over the edge features or layers, or the
// multi-scale PDN's weight per power of Â. Other models have none.
func attentionChart(s protocol.Snapshot) string {
	values, title, xlabel, prefix := s.Inputs, "Attention over the inputs, softmax(β)", "input (edge feature or layer)", ""
	if len(s.Hops) > 0 {
		values, title, xlabel, prefix = s.Hops, "Weight of each power of Â, softmax(α)", "hop", "Â^"
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

// hopsChart draws the multi-scale PDN's weight of each power of Â over the
// epochs, as Figure 7 of the paper does.
func hopsChart(h *history, epochs int) string {
	k := 0
	for _, p := range h.hops {
		k = max(k, len(p))
	}
	series := make([]viz.Series, k)
	for i := range series {
		y := make([]float64, len(h.hops))
		for j, p := range h.hops {
			y[j] = math.NaN()
			if i < len(p) {
				y[j] = p[i]
			}
		}
		series[i] = viz.Series{Name: "P" + strconv.Itoa(i+1) + " (Â^" + strconv.Itoa(i+1) + ")", Color: viz.ClassColor(i), X: h.epoch, Y: y}
	}
	return viz.LineChart(chartW, chartH, viz.Axes{Title: "Weight of each power of Â over the epochs (Figure 7)", XLabel: "epoch", YMin: 0, YMax: 1, XMax: float64(epochs)}, series...)
}

// renderHops gives the multi-scale PDN's current weight of each power of
// Â as numbers.
func (c *GraphLab) renderHops() app.UI {
	if len(c.snap.Hops) == 0 {
		return app.P().Class("drawn")
	}
	parts := []app.UI{app.Text("Now: ")}
	for i, p := range c.snap.Hops {
		if i > 0 {
			parts = append(parts, app.Text(" · "))
		}
		parts = append(parts, app.Text("P"+strconv.Itoa(i+1)+" = "), metric("hop-"+strconv.Itoa(i+1), p, num(p, 3)))
	}
	return app.P().Class("drawn").Body(parts...)
}

func maxFinite(xs []float64) float64 {
	m := 0.0
	for _, x := range xs {
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			m = math.Max(m, x)
		}
	}
	return m
}

// Render lays out the lab. It only reads state: every figure was drawn by
// the event that changed it.
func (c *GraphLab) Render() app.UI {
	class := "lab graph-lab"
	if c.dragging {
		class += " dragging"
	}
	return app.Div().Class(class).OnDragOver(c.onDragOver).OnDrop(c.onDrop).
		OnDragLeave(func(ctx app.Context, e app.Event) { c.dragging = false }).Body(
		c.renderToolbar(),
		app.Div().Class("main").Body(
			c.render(nil, c.renderOpen()),
			app.Section().Class("views").Body(
				c.renderGraphCard(),
				card("curves", "Loss and accuracy", c.curvesSVG, "", explainCurves()),
				card("histogram", "Learned weights", c.histSVG, c.noWeights, explainHistogram()),
				card("share", "Inter-class share", c.shareSVG, c.noWeights, explainShare()),
				app.If(c.attnSVG != "", card("attention", "What the variant attends to", c.attnSVG, c.whyNoAttention(), explainAttention(), c.renderHops())),
				app.Div().ID("save").Class("card wide").Body(app.H2().Text("Save this run"), c.renderExports(),
					app.P().Class("note").Text("The history holds a row per snapshot the page received; the weights are the latest; the state opens this run again (its permalink).")),
			),
		),
		app.P().Class("keys").Text("Keys: Space or K play/pause · S or → step one epoch · R reset · G new graph (next data seed) · P projector mode."),
	)
}

func (c *GraphLab) renderToolbar() app.UI {
	playLabel := "▶ Play"
	if c.running {
		playLabel = "❚❚ Pause"
	}
	return app.Div().Class("toolbar").Body(
		app.Button().ID("play").Class("primary").Title("Play or pause (Space)").Text(playLabel).
			OnClick(func(ctx app.Context, e app.Event) { c.togglePlay(ctx) }),
		app.Button().ID("step").Title("Train one epoch (S)").Text("Step").
			OnClick(func(ctx app.Context, e app.Event) { c.send("step") }),
		app.Button().ID("reset").Title("Back to epoch 0, same initial weights (R)").Text("Reset").
			OnClick(func(ctx app.Context, e app.Event) { c.send("reset") }),
		app.Button().ID("regenerate").Title("A new graph from the next data seed (G)").Text("New graph").
			OnClick(func(ctx app.Context, e app.Event) { c.regenerate(ctx) }),
		app.Button().ID("copy-link").Title("Copy the link to this exact state").Text("Copy link").OnClick(c.copyLink),
		app.Div().Class("stats").Body(
			stat("Epoch", "epoch", "epoch", float64(c.snap.Epoch), fmt.Sprintf("%d / %d", c.snap.Epoch, c.st.Train.Epochs)),
			c.stat("Test acc.", "test-acc", "test-accuracy", float64(c.snap.TestAcc), 3),
			c.stat("Train acc.", "train-acc", "train-accuracy", float64(c.snap.TrainAcc), 3),
			c.stat("Loss", "loss", "loss", float64(c.snap.Loss), 4),
			c.stat("Epochs/s", "rate", "epochs-per-second", float64(c.snap.EpochsPerSec), 1),
		),
		c.renderProgress(),
		c.renderRewind(),
	)
}

// renderProgress shows how far an epoch longer than a moment, or a slow
// set-up, has got: on a large model the first epoch can take a second, and
// the page must show it is working.
func (c *GraphLab) renderProgress() app.UI {
	p := c.progress
	if p == nil {
		return app.Div().ID("progress").Class("progress idle").Aria("hidden", "true")
	}
	label := fmt.Sprintf("Training epoch %d: %.0f%%", p.Epoch+1, 100*p.Done)
	if p.Phase == protocol.PhaseSetup {
		label = fmt.Sprintf("Preparing the model (%s): %.0f%%", c.st.Model.Kind, 100*p.Done)
	}
	if rate := float64(c.snap.EpochsPerSec); p.Phase == protocol.PhaseEpoch && rate > 0 {
		label += fmt.Sprintf(" · %.1f s an epoch", 1/rate)
	} else if sec := float64(c.snap.SecondsPerEpoch); p.Phase == protocol.PhaseEpoch && sec >= 0.1 {
		label += fmt.Sprintf(" · about %.1f s an epoch, estimated", sec)
	}
	if !p.Running && p.Phase == protocol.PhaseEpoch {
		label += " · paused inside the epoch; Play or Step goes on"
	}
	return app.Div().ID("progress").Class("progress").Body(
		app.Progress().Max(1).Value(strconv.FormatFloat(p.Done, 'f', 3, 64)).Aria("label", label),
		app.Span().Text(label),
	)
}

// stat is one of the run's headline figures in the toolbar, named by
// data-metric and given plainly in data-value.
func stat(label, id, name string, value float64, text string) app.UI {
	return app.Div().Class("stat").Body(
		app.Span().Class("label").Text(label),
		app.Span().ID(id).Class("value").DataSet("metric", name).DataSet("value", plain(value)).Text(text),
	)
}

// stat shows a figure of the latest snapshot: a dash before there is one.
func (c *GraphLab) stat(label, id, name string, value float64, digits int) app.UI {
	if !c.snapped {
		value = math.NaN()
	}
	return stat(label, id, name, value, c.figure(value, digits))
}

// figure formats one of the run's figures: a dash before the engine has
// sent any.
func (c *GraphLab) figure(x float64, digits int) string {
	if !c.snapped {
		return "–"
	}
	return num(x, digits)
}

// num formats x, or a dash before there is a value.
func num(x float64, digits int) string {
	if math.IsNaN(x) || math.IsInf(x, 0) || x == 0 && digits > 3 {
		if x == 0 {
			return "0"
		}
		return "–"
	}
	return strconv.FormatFloat(x, 'f', digits, 64)
}

// card is a figure with its title and explanation; where the figure means
// nothing for the model, empty says why in one line instead.
func card(id, title, svg, empty string, explain app.UI, under ...app.UI) app.UI {
	var fig app.UI = app.Div().Class("placeholder").Text("Waiting for the engine…")
	switch {
	case empty != "":
		fig = app.P().Class("empty").Text(empty)
	case svg != "":
		fig = app.Raw(svg)
	}
	return app.Div().ID(id).Class("card").Body(
		app.H2().Text(title),
		app.Div().Class("figure").Body(fig),
		app.Div().Body(under...),
		app.Div().Class("explain").Body(explain),
	)
}

func (c *GraphLab) renderGraphCard() app.UI {
	var fig app.UI = app.Div().Class("placeholder").Text("Laying out the graph…")
	if c.strokes != nil {
		fig = app.Div().ID("graph-figure").Class("layers").TabIndex(0).
			Aria("label", "The learned graph. Point at a node or an edge to inspect it; with the graph focused, the arrow keys walk through the nodes").
			OnMouseMove(c.pointAt).OnMouseLeave(func(ctx app.Context, e app.Event) { c.leave() }).
			OnClick(c.choose).OnKeyDown(c.onFigureKey).Body(
			app.Canvas().ID(edgeCanvasID).Class("layer edges").Role("img").
				Aria("label", "The learned pathfinder graph: edges drawn darker and thicker the more weight the pathfinder gives them"),
			app.Canvas().ID(nodeCanvasID).Class("layer nodes").Aria("hidden", "true"),
			app.If(c.insp.overlay != "", app.Div().Class("layer overlay").Body(app.Raw(c.insp.overlay))),
		)
	}
	note := ""
	var drawn app.UI = app.Span()
	if c.view != nil {
		n := 0
		for _, l := range c.view.NodeLayers() {
			n += l.Count
		}
		drawn = app.Span().Body(app.Text("Nodes drawn: "), metric("nodes-drawn", float64(n), numtext.Group(n)), app.Text(". "))
	}
	if c.graph != nil {
		note = fmt.Sprintf("The graph has %s nodes and %s edges", numtext.Group(c.graph.Nodes), numtext.Group(len(c.graph.Src)))
		if c.drawIdx != nil {
			note += fmt.Sprintf(" (drawing an even sample of %s)", numtext.Group(len(c.drawIdx)))
		}
	}
	switch {
	case !c.snapped:
	case c.snap.Model == experiment.MLP:
		note += ". The MLP ignores the graph, so no edges are drawn."
	case len(c.weights) == 0:
		note += ". This model has no weight per edge to draw."
	}
	t := c.st.View.Threshold
	return app.Div().ID("graph").Class("card wide").Body(
		app.H2().Text("The learned graph"),
		app.Div().Class("graph-tools").Body(
			app.Label().For("threshold").Text("Hide edges with weight below "),
			app.Input().ID("threshold").Type("range").Min(0).Max(1).Step(0.01).Value(strconv.FormatFloat(t, 'f', 2, 64)).
				OnInput(func(ctx app.Context, e app.Event) { c.setParam("threshold", ctx.JSSrc().Get("value").String()) }),
			app.Span().ID("threshold-value").Text(strconv.FormatFloat(t, 'f', 2, 64)),
			app.Label().For("layout").Text("Layout "),
			app.Select().ID("layout").Body(
				app.Range(experiment.Layouts).Slice(func(i int) app.UI {
					l := experiment.Layouts[i]
					return app.Option().Value(l).Text(layoutNames[l]).Selected(l == c.st.View.Layout)
				}),
			).OnChange(func(ctx app.Context, e app.Event) { c.setParam("layout", ctx.JSSrc().Get("value").String()) }),
			app.If(c.st.View.Layout == experiment.LayoutLearned,
				app.Button().ID("relayout").Class("small").Title("Scatter the nodes and lay the graph out again by the weights learned so far").
					Text("Lay out again").OnClick(func(ctx app.Context, e app.Event) { c.askLayout() })),
			legend(c.classes()),
		),
		app.Div().Class("figure graph-figure").Body(fig),
		c.renderInspector(),
		c.renderDrawn(),
		c.renderSeparation(),
		app.P().Class("note").Body(drawn, app.Text(note)),
		app.Div().Class("explain").Body(explainGraph()),
	)
}

// classes is the number of classes of the graph shown: the engine's once
// it has sent the graph, else the state's.
func (c *GraphLab) classes() int {
	if c.graph != nil {
		return classesOf(c.graph)
	}
	return c.st.Data.Classes
}

// classesOf counts a graph's classes from its labels.
func classesOf(g *protocol.Graph) int {
	n := 0
	for _, l := range g.Labels {
		n = max(n, l+1)
	}
	return n
}

func legend(classes int) app.UI {
	items := make([]app.UI, 0, classes+3)
	for k := 0; k < classes; k++ {
		items = append(items, app.Span().Class("key").Body(
			app.Raw(viz.Swatch(viz.ClassColor(k))),
			app.Text(fmt.Sprintf("class %d", k))))
	}
	items = append(items,
		app.Span().Class("key").Body(app.Span().Class("line intra"), app.Text("intra-class edge")),
		app.Span().Class("key").Body(app.Span().Class("line inter"), app.Text("inter-class edge")),
		app.Span().Class("key").Body(app.Span().Class("swatch hollow"), app.Text("test node")))
	return app.Div().Class("legend").Body(items...)
}

// drawnMeans counts the edges strokes draw, intra-class (or of unknown
// kind) first and inter-class second, and their mean weight (NaN for none).
func drawnMeans(strokes []viz.Stroke) (count [2]int, mean [2]float64) {
	var sum [2]float64
	for _, st := range strokes {
		k := 0
		if st.Kind == edgekind.Inter {
			k = 1
		}
		count[k] += st.Count
		sum[k] += st.Sum
	}
	for k := range mean {
		mean[k] = math.NaN()
		if count[k] > 0 {
			mean[k] = sum[k] / float64(count[k])
		}
	}
	return count, mean
}

// renderDrawn says in words and numbers what the edge canvas shows: how
// many edges of each kind it draws and their mean learned weight. It is the
// canvas's text alternative, and what tests read (data-metric).
func (c *GraphLab) renderDrawn() app.UI {
	if len(c.strokes) == 0 {
		return app.P().Class("drawn")
	}
	count, means := drawnMeans(c.strokes)
	part := func(k int, kind, name string) app.UI {
		mean := means[k]
		return app.Span().Body(
			metric(name+"-edges-drawn", float64(count[k]), numtext.Group(count[k])),
			app.Text(" "+kind+" edges drawn, mean learned weight "),
			metric(name+"-mean-weight", mean, num(mean, 3)),
		)
	}
	return app.P().Class("drawn").Body(part(0, "intra-class", "intra"), app.Text(" · "), part(1, "inter-class", "inter"))
}

// renderSeparation says, in the learned layout, how far apart the learned
// weights pull the classes: the share of nodes drawn nearer their own
// class's centre than another's, about 1/C for classes on top of each
// other and 1 for classes apart. The other layouts place the nodes by the
// ground truth, so there it would say nothing.
func (c *GraphLab) renderSeparation() app.UI {
	if c.view == nil || c.st.View.Layout != experiment.LayoutLearned || math.IsNaN(c.separation) {
		return app.P().Class("drawn")
	}
	return app.P().Class("drawn").Body(
		app.Text("Nodes the learned weights pull nearer their own class's centre than any other: "),
		metric("layout-separation", c.separation, fmt.Sprintf("%.0f%%", 100*c.separation)),
		app.Text(fmt.Sprintf(" (about %.0f%% when the classes lie on top of each other).", 100/float64(max(c.st.Data.Classes, 1)))))
}

// metric is a headline number: data-metric names it and data-value holds
// it plainly, so tests and tools read the page as a user sees it.
func metric(name string, value float64, text string) app.UI {
	return app.Span().Class("metric").DataSet("metric", name).DataSet("value", plain(value)).Text(text)
}

// plain writes a metric's value for data-value: the shortest exact
// decimal, or NaN where there is none.
func plain(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "NaN"
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// whyNoWeights says why the cards about learned edge weights are empty for
// the model trained, or "" when they have something to show.
func (c *GraphLab) whyNoWeights() string {
	if !c.snapped {
		return ""
	}
	if len(c.weights) == 0 {
		return fmt.Sprintf("%s gives no weight to edges, so there is none to show.", c.snap.Model)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, w := range c.weights {
		lo, hi = math.Min(lo, float64(w)), math.Max(hi, float64(w))
	}
	if hi-lo < 1e-6 {
		return fmt.Sprintf("%s gives every edge the same weight, %s: it learns nothing per edge, so there is no spread to show.", c.snap.Model, num(hi, 3))
	}
	return ""
}

// whyNoAttention says why the linear PDN's attention over its inputs means
// nothing on a synthetic graph, whose edge features are interchangeable.
func (c *GraphLab) whyNoAttention() string {
	if len(c.snap.Inputs) == 0 {
		return ""
	}
	return fmt.Sprintf("The linear PDN learns one attention weight per input, softmax(β), over %d inputs here. "+
		"On this synthetic graph every edge feature is drawn alike (only their spread differs between intra- and inter-class edges), "+
		"so no input is worth more than another and the bars would say nothing; on a graph with named similarities they are Figure 8.", len(c.snap.Inputs))
}
