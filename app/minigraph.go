package app

import (
	"time"

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
// models side by side. The runs share one graph (the same data rows), so
// one layout serves them all: the first run's worker lays it out (the lab
// draws a graph), the others make none, and each view draws its own run's
// weights on it.
type miniGraphs struct {
	graph *protocol.Graph // the graph the drawing is of
	pos   []float32       // the positions it is drawn at
	view  *viz.Graph      // pos arranged a region per class; nil before a layout
	idx   []int           // the edges drawn, when the graph has more
	runs  map[string]*miniRun
}

// miniRun is one run's view: its two canvases, the edges and the nodes
// over them, and what they draw. The nodes stay where the layout put them,
// so their layer is painted once per layout (a Facebook-sized graph's
// 22,470 nodes, painted with the edges at every redraw of four views, had
// held the page for most of every second).
type miniRun struct {
	edges, nodes painter
	nodesOf      *viz.Graph // the drawing the nodes' layer holds
	strokes      []viz.Stroke
}

// draw repaints each run's view with its latest weights, laying the graph
// out afresh first if the first run's graph or layout is new.
func (g *miniGraphs) draw(l *lab) {
	if len(l.runs) == 0 {
		return
	}
	first := l.runs[0]
	if first.graph != g.graph {
		g.graph, g.pos, g.view, g.idx = first.graph, nil, nil, nil
		if first.graph != nil {
			g.idx = sampleEdges(len(first.graph.Src), maxMiniEdges)
		}
	}
	if len(first.pos) > 0 && (len(g.pos) == 0 || &first.pos[0] != &g.pos[0]) {
		g.pos = first.pos
		g.view = newGraphView(g.graph, viz.Arrange(true, g.pos, g.graph.Labels), g.idx)
	}
	if g.view == nil {
		return
	}
	var nodes *painter // the view that paints the nodes; the others copy it
	for _, r := range l.runs {
		m := g.runView(r)
		m.strokes = nil
		if len(r.weights) > 0 && len(r.weights) == len(g.graph.Src) {
			m.strokes = g.view.Strokes(subset(r.weights, g.idx), l.st.View.Threshold)
		}
		m.edges.paint(viewW, viewH, edgePaths(m.strokes))
		switch {
		case m.nodesOf == g.view && m.nodes.drawn:
		case nodes == nil:
			paintNodes(&m.nodes, g.view, miniDots)
			nodes = &m.nodes
		default:
			m.nodes.copyOf(nodes)
		}
		m.nodesOf = g.view
		if nodes == nil {
			nodes = &m.nodes
		}
	}
}

// miniDots is the number of nodes above which the small views draw nodes
// as dots (viz.Graph.NodeDots).
const miniDots = 2000

// cost is what one redraw of every view's edges costs the main thread, by
// their last paints.
func (g *miniGraphs) cost() time.Duration {
	var sum time.Duration
	for _, m := range g.runs {
		sum += m.edges.cost.least()
	}
	return sum
}

// runView is run r's view, made on first use.
func (g *miniGraphs) runView(r *run) *miniRun {
	if g.runs == nil {
		g.runs = map[string]*miniRun{}
	}
	m := g.runs[r.Name]
	if m == nil {
		m = &miniRun{edges: painter{id: "mini-graph-" + r.Name}, nodes: painter{id: "mini-nodes-" + r.Name}}
		g.runs[r.Name] = m
	}
	return m
}

// release frees the canvases' frame callbacks.
func (g *miniGraphs) release() {
	for _, m := range g.runs {
		m.edges.release()
		m.nodes.release()
	}
	g.runs = nil
}

// render is the card of small views, one per run, each with its numbers
// in words beneath: the canvas's text alternative, read by tests.
func (g *miniGraphs) render(l *lab) app.UI {
	figs := make([]app.UI, 0, len(l.runs))
	for _, r := range l.runs {
		var fig app.UI = app.Div().Class("placeholder").Text(tr("Laying out the graph…"))
		if g.view != nil {
			m := g.runView(r)
			fig = app.Div().Class("mini-layers").Body(
				app.Canvas().ID(m.edges.id).Class("mini-canvas").Role("img").
					Aria("label", tr(r.Title)+tr(": the graph as this model weighs it, edges darker the more weight they carry")),
				app.Canvas().ID(m.nodes.id).Class("layer nodes").Aria("hidden", "true"),
			)
		}
		figs = append(figs, app.Figure().Class("mini").DataSet("run", r.Name).Body(
			fig, app.FigCaption().Body(app.Strong().Text(tr(r.Title)), app.Br(), g.renderNumbers(l, r),
				app.Span().Class("weight-sentence").Body(weightSentence(r, l.dataRun(r))))))
	}
	note := ""
	if g.graph != nil && g.idx != nil {
		note = tr("Each view draws an even sample of ") + numtext.Group(len(g.idx)) + tr(" of the ") + numtext.Group(len(g.graph.Src)) + tr(" edges. ")
	}
	return app.Div().ID("mini-graphs").Class("card wide").Body(
		app.H2().Text(tr("The learned graphs")),
		app.Div().Class("minis").Body(figs...),
		legend(l.classNames(), l.unlabelled()),
		app.P().Class("explain").Text(note+tr("The same graph and layout for every model; only the weights differ. ")+
			tr("Where the edge features tell the classes apart (the generator's graphs), a pathfinder that learns the graph fades the orange inter-class edges between the class regions; on other graphs it may not, and the claims below say what it does there; ")+
			tr("GCN weighs every edge alike, and GAT's weights shrink where a node has many neighbours.")),
	)
}

// renderNumbers says what a run's view draws: the mean weight on each
// kind of edge drawn, or why there are no edges.
func (g *miniGraphs) renderNumbers(l *lab, r *run) app.UI {
	if !r.snapped {
		return app.Span().Text(tr("waiting for the first epoch"))
	}
	if len(r.weights) == 0 {
		if !experiment.UsesGraph(r.snap.Model) {
			return app.Span().Text(tr("ignores the graph: no edges"))
		}
		return app.Span().Text(tr("no weight per edge"))
	}
	_, mean := drawnMeans(g.runView(r).strokes)
	return app.Span().Body(
		app.Text(tr("mean weight, intra ")), metric("intra-mean-weight", l.dataRun(r), mean[0], num(mean[0], 3)),
		app.Text(tr(" · inter ")), metric("inter-mean-weight", l.dataRun(r), mean[1], num(mean[1], 3)),
	)
}
