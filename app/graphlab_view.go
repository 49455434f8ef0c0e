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

// maxDrawnEdges bounds the edges the graph view draws; larger graphs show
// an even sample of their edges, and say so.
const maxDrawnEdges = 15000

// graphDots is the number of nodes above which the graph view draws nodes
// as dots (viz.Graph.NodeDots), hollow ones for test nodes.
const graphDots = 10000

// layoutNames are the layouts as the layout menu names them.
var layoutNames = map[string]string{
	experiment.LayoutClasses: msg("a region per class"),
	experiment.LayoutInput:   msg("one force layout for all"),
	experiment.LayoutLearned: msg("pulled by the learned weights"),
}

// The graph view's canvases: the edges, and the nodes over them.
const (
	edgeCanvasID = "graph-edges"
	nodeCanvasID = "graph-nodes"
)

// sampleEdges returns limit evenly spaced edge indices when a graph has
// more edges than a view draws, else nil.
func sampleEdges(e, limit int) []int {
	if e <= limit {
		return nil
	}
	idx := make([]int, limit)
	for i := range idx {
		idx[i] = int(int64(i) * int64(e) / int64(limit))
	}
	return idx
}

// subset returns the weights of the edges idx (indices into w), or w
// itself for nil idx.
func subset(w []float32, idx []int) []float32 {
	if idx == nil {
		return w
	}
	out := make([]float32, len(idx))
	for i, e := range idx {
		out[i] = w[e]
	}
	return out
}

// newGraphView is the drawing of g at positions pos, of the edges idx (all
// for nil).
func newGraphView(g *protocol.Graph, pos []float32, idx []int) *viz.Graph {
	src, dst, kinds := g.Src, g.Dst, g.Kinds
	if idx != nil {
		src, dst = make([]int32, len(idx)), make([]int32, len(idx))
		if kinds != nil {
			kinds = make([]edgekind.Kind, len(idx))
		}
		for i, e := range idx {
			src[i], dst[i] = g.Src[e], g.Dst[e]
			if kinds != nil {
				kinds[i] = g.Kinds[e]
			}
		}
	}
	return viz.NewGraph(viewW, viewH, pos, g.Labels, src, dst, kinds, g.Test)
}

// drawnWeights returns the weights of the edges the view draws (an even
// sample of a large graph's), nil for a model without edge weights.
func (c *GraphLab) drawnWeights() []float32 {
	w := c.one().weights
	if len(w) == 0 {
		return nil
	}
	return subset(w, c.drawIdx)
}

// askLayout tells the engine which layout the view shows; for the learned
// one it lays the graph out afresh.
func (c *GraphLab) askLayout() {
	r := c.one()
	r.learned = nil
	if r.engine != nil {
		r.engine.Send(protocol.Command{Op: protocol.OpLayout, Layout: c.st.View.Layout})
	}
}

// relayout rebuilds the graph view from the engine's positions, arranged
// as the state says. Until the learned layout comes, the view shows the
// input layout in its place.
func (c *GraphLab) relayout() {
	r := c.one()
	pos := r.pos
	if c.st.View.Layout == experiment.LayoutLearned && r.learned != nil {
		pos = r.learned
	}
	if r.graph == nil || pos == nil {
		return
	}
	c.movedNodes = false
	drawn := viz.Arrange(c.st.View.Layout == experiment.LayoutClasses, pos, r.graph.Labels)
	c.separation = viz.OwnCentreShare(drawn, r.graph.Labels)
	c.view = newGraphView(r.graph, drawn, c.drawIdx)
	paintNodes(&c.nodes, c.view, graphDots)
	c.highlight()
	c.redrawGraph()
}

// redrawGraph paints the graph view's edges from the latest weights.
func (c *GraphLab) redrawGraph() {
	if c.view == nil {
		return
	}
	start := time.Now()
	c.strokes = c.view.Strokes(c.drawnWeights(), c.st.View.Threshold)
	if c.strokes == nil {
		c.strokes = []viz.Stroke{} // drawn, with no edge
	}
	c.edges.paint(viewW, viewH, edgePaths(c.strokes))
	c.lastGraphDraw = time.Now()
	c.graphBuild.add(c.lastGraphDraw.Sub(start))
}

// renderGraphCard is the learned graph: its tools (threshold, layout,
// legend), its canvases, the inspector and its numbers in words.
func (c *GraphLab) renderGraphCard() app.UI {
	r := c.one()
	var fig app.UI = app.Div().Class("placeholder").Text(tr("Laying out the graph…"))
	if c.strokes != nil {
		fig = app.Div().ID("graph-figure").Class("layers").TabIndex(0).DataSet("keys", "walk").
			Aria("label", tr("The learned graph. Point at a node or an edge to inspect it; with the graph focused, the arrow keys walk through the nodes")).
			OnMouseMove(c.pointAt).OnMouseLeave(func(ctx app.Context, e app.Event) { c.leave() }).
			OnClick(c.choose).Body(
			app.Canvas().ID(edgeCanvasID).Class("layer edges").Role("img").
				Aria("label", tr("The learned pathfinder graph: edges drawn darker and thicker the more weight the pathfinder gives them")),
			app.Canvas().ID(nodeCanvasID).Class("layer nodes").Aria("hidden", "true"),
			app.If(c.insp.overlay != "", app.Div().Class("layer overlay").Body(app.Raw(c.insp.overlay))),
		)
	}
	t := c.st.View.Threshold
	return app.Div().ID("graph").Class("card wide").Body(
		app.H2().Text(tr("The learned graph")),
		c.beside("graph"),
		app.Div().Class("graph-tools").Body(
			app.Label().For("threshold").Text(tr("Hide edges with weight below ")),
			// In hundredths: positions 0..100 (see positionSlider).
			positionSlider("threshold", int(math.Round(t*sliderSteps)), sliderSteps).
				OnInput(func(ctx app.Context, e app.Event) {
					pos, _ := numtext.ParseInt(ctx.JSSrc().Get("value").String())
					c.change(ctx, "threshold", strconv.FormatFloat(float64(pos)/sliderSteps, 'f', -1, 64))
				}),
			app.Span().ID("threshold-value").Text(strconv.FormatFloat(t, 'f', 2, 64)),
			app.Label().For("layout").Text(tr("Layout ")),
			app.Select().ID("layout").Body(
				app.Range(experiment.Layouts).Slice(func(i int) app.UI {
					l := experiment.Layouts[i]
					return app.Option().Value(l).Text(tr(layoutNames[l])).Selected(l == c.st.View.Layout)
				}),
			).OnChange(func(ctx app.Context, e app.Event) { c.change(ctx, "layout", ctx.JSSrc().Get("value").String()) }),
			app.If(c.st.View.Layout == experiment.LayoutLearned,
				app.Button().ID("relayout").Class("small").Title(tr("Scatter the nodes and lay the graph out again by the weights learned so far")).
					Text(tr("Lay out again")).OnClick(func(ctx app.Context, e app.Event) { c.askLayout() })),
			app.Span().Class("zoom").Body(
				app.Button().ID("zoom-out").Class("small").Aria("label", tr("Zoom out")).Title(tr("Zoom out")).Text("−").Disabled(c.zoom == 0).
					OnClick(func(ctx app.Context, e app.Event) { c.zoomBy(-1) }),
				app.Button().ID("zoom-in").Class("small").Aria("label", tr("Zoom in")).Title(tr("Zoom in: the figure grows and scrolls within its card")).Text("+").Disabled(c.zoom == maxZoom).
					OnClick(func(ctx app.Context, e app.Event) { c.zoomBy(1) }),
			),
			legend(c.classNames(), c.unlabelled()),
		),
		app.Div().Class("figure graph-figure zoom-"+strconv.Itoa(c.zoom)).Body(fig),
		c.renderInspector(),
		c.renderTraceButton(),
		c.renderDrawn(),
		c.renderWeightSentence(),
		c.renderSeparation(),
		app.P().ID("graph-note").Class("note").Body(c.renderGraphNote(r)...),
		app.Div().Class("explain").Body(explainGraph(), app.If(c.recipe() == experiment.RecipeBagOfWords, explainRecipe())),
	)
}

// renderGraphNote says how large the graph is, how much of it is drawn,
// and why a model draws no edges.
func (c *GraphLab) renderGraphNote(r *run) []app.UI {
	var drawn app.UI = app.Span()
	if c.view != nil {
		n := c.view.Nodes()
		drawn = app.Span().Body(app.Text(tr("Nodes drawn: ")), metric("nodes-drawn", "", float64(n), numtext.Group(n)), app.Text(". "))
	}
	note := ""
	if r.graph != nil {
		note = trf("The graph has %s nodes and %s edges", numtext.Group(r.graph.Nodes), numtext.Group(len(r.graph.Src)))
		if c.drawIdx != nil {
			note += trf(" (drawing an even sample of %s)", numtext.Group(len(c.drawIdx)))
		}
	}
	switch {
	case !r.snapped:
	case !experiment.UsesGraph(r.snap.Model):
		note += tr(". This model ignores the graph, so no edges are drawn.")
	case len(r.weights) == 0:
		note += tr(". This model has no weight per edge to draw.")
	}
	return []app.UI{drawn, app.Text(note)}
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
	part := func(k int, words, name string) app.UI {
		mean := means[k]
		return app.Span().Body(
			metric(name+"-edges-drawn", "", float64(count[k]), numtext.Group(count[k])),
			app.Text(" "+words+" "),
			metric(name+"-mean-weight", "", mean, num(mean, 3)),
		)
	}
	return app.P().Class("drawn").Body(part(0, tr("intra-class edges drawn, mean learned weight"), "intra"), app.Text(" · "),
		part(1, tr("inter-class edges drawn, mean learned weight"), "inter"))
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
		app.Text(tr("Nodes the learned weights pull nearer their own class's centre than any other: ")),
		metric("layout-separation", "", c.separation, fmt.Sprintf("%.0f%%", 100*c.separation)),
		app.Text(trf(" (about %.0f%% when the classes lie on top of each other).", 100/float64(max(c.classes(), 1)))))
}

// maxZoom is the largest zoom step: the graph at 3× its card's width (a
// canvas of 3 × 760 device pixels a side at most on a phone's 390 px).
const maxZoom = 3

// zoomBy zooms the graph view in or out a step: the figure grows within
// its card, which scrolls (a finger pans it), and the canvases are painted
// afresh at their new size, so lines stay sharp.
func (c *GraphLab) zoomBy(d int) {
	c.zoom = min(max(c.zoom+d, 0), maxZoom)
	c.relayout()
}
