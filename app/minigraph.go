package app

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/experiment"
	"pdnexplorer/internal/numtext"
	"pdnexplorer/viz"
	"pdnexplorer/wasm/protocol"
)

// maxMiniEdges bounds the edges each small learned-graph view draws: up
// to four of them repaint together, in a quarter of the graph view's
// width, where 2,000 evenly spaced edges already show which kind fades.
const maxMiniEdges = 2000

// miniGraphs draws a small learned-graph view per run of a lab that trains
// models side by side. The runs share one graph (the same data row), so
// one layout serves them all: the first run's worker lays it out, the
// others make none, and each view draws its own run's weights on it.
type miniGraphs struct {
	pos   []float32  // the layout, from the first run's worker
	view  *viz.Graph // pos arranged a region per class; nil before a layout
	idx   []int      // the edges drawn, when the graph has more
	dirty bool       // a layout came that the views have yet to draw
}

// layoutFor is the layout a side asks its worker for.
func (m *multiLab) layoutFor(i int) string {
	if m.minis != nil && i == 0 {
		return "" // the one every graph gets
	}
	return protocol.LayoutNone
}

// onLayout keeps the first run's layout. It reports whether to draw now:
// while runs train, their next snapshots draw it.
func (m *multiLab) onLayout(s *side, ev protocol.Event, f32 []float32) bool {
	if m.minis == nil || len(m.sides) == 0 || s != m.sides[0] || ev.Gen != s.gen || ev.Layout != "" || s.graph == nil {
		return false
	}
	m.minis.pos, m.minis.dirty = f32, true
	return !m.running()
}

// forget drops the layout of the graph the first run had.
func (g *miniGraphs) forget(graph *protocol.Graph) {
	*g = miniGraphs{idx: sampleEdges(len(graph.Src), maxMiniEdges)}
}

// drawMinis repaints each run's view with its latest weights, laying the
// graph out afresh first if a new layout came.
func (m *multiLab) drawMinis() {
	g := m.minis
	if g == nil || len(m.sides) == 0 {
		return
	}
	graph := m.sides[0].graph
	if g.dirty && graph != nil && g.pos != nil {
		g.view = newGraphView(graph, viz.Arrange(true, g.pos, graph.Labels), g.idx)
		g.dirty = false
	}
	if g.view == nil {
		return
	}
	nodes := nodePaths(g.view.NodeLayers())
	for _, s := range m.sides {
		s.strokes = nil
		if len(s.weights) > 0 && len(s.weights) == len(graph.Src) {
			s.strokes = g.view.Strokes(subset(s.weights, g.idx), m.st.View.Threshold)
		}
		s.mini.id = miniCanvasID(s)
		s.mini.paint(viewW, viewH, append(edgePaths(s.strokes), nodes...))
	}
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

func miniCanvasID(s *side) string { return "mini-graph-" + s.Name }

// renderMinis is the card of small views, one per run, each with its
// numbers in words beneath: the canvas's text alternative, read by tests.
func (m *multiLab) renderMinis() app.UI {
	if m.minis == nil {
		return app.Div()
	}
	figs := make([]app.UI, 0, len(m.sides))
	for _, s := range m.sides {
		var fig app.UI = app.Div().Class("placeholder").Text("Laying out the graph…")
		if m.minis.view != nil {
			fig = app.Canvas().ID(miniCanvasID(s)).Class("mini-canvas").Role("img").
				Aria("label", s.Title+": the graph as this model weighs it, edges darker and thicker the more weight they carry")
		}
		figs = append(figs, app.Figure().Class("mini").DataSet("run", s.Name).Body(
			fig, app.FigCaption().Body(app.Strong().Text(s.Title), app.Br(), m.renderMiniNumbers(s))))
	}
	note := ""
	if g := m.minis; len(m.sides) > 0 && m.sides[0].graph != nil && g.idx != nil {
		note = "Each view draws an even sample of " + numtext.Group(len(g.idx)) + " of the " + numtext.Group(len(m.sides[0].graph.Src)) + " edges. "
	}
	return app.Div().ID("mini-graphs").Class("card wide").Body(
		app.H2().Text("The learned graphs"),
		app.Div().Class("minis").Body(figs...),
		legend(m.classes()),
		app.P().Class("explain").Text(note+"The same graph and layout for every model; only the weights differ. "+
			"A pathfinder that learns the graph fades the orange inter-class edges between the class regions; "+
			"GCN weighs every edge alike, and GAT's weights shrink where a node has many neighbours."),
	)
}

// classes is the number of classes of the runs' graph.
func (m *multiLab) classes() int {
	if len(m.sides) > 0 && m.sides[0].graph != nil {
		return classesOf(m.sides[0].graph)
	}
	return m.st.Data.Classes
}

// renderMiniNumbers says what a run's view draws: the mean weight on each
// kind of edge drawn, or why there are no edges.
func (m *multiLab) renderMiniNumbers(s *side) app.UI {
	if !s.snapped {
		return app.Span().Text("waiting for the first epoch")
	}
	if len(s.weights) == 0 {
		if s.snap.Model == experiment.MLP {
			return app.Span().Text("ignores the graph: no edges")
		}
		return app.Span().Text("no weight per edge")
	}
	_, mean := drawnMeans(s.strokes)
	return app.Span().Body(
		app.Text("mean weight, intra "), runMetric(s, "intra-mean-weight", mean[0], num(mean[0], 3)),
		app.Text(" · inter "), runMetric(s, "inter-mean-weight", mean[1], num(mean[1], 3)),
	)
}
