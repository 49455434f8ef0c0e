package app

import (
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/experiment"
	"pdnexplorer/viz"
	"pdnexplorer/wasm/protocol"
)

// While training runs, the views redraw no more often than the eye follows
// them: the graph view and the charts each cost the page's main thread a
// parse or a paint, and on a 2-core machine the worker needs the other core.
// The numbers in the toolbar follow every snapshot; what a burst of
// snapshots left undrawn is drawn once the pace allows.
const (
	graphRedraw = 200 * time.Millisecond
	chartRedraw = 250 * time.Millisecond
)

// graphCostShare bounds the main thread's time the graph view's redraws
// take while training runs: one redraw at most every graphCostShare times
// its cost. At the paper's size a redraw costs about 15 ms and graphRedraw
// paces it; a larger graph's may cost several times that (15,000 edges
// built into paths, parsed and rasterised without a GPU), and redrawn
// every 200 ms it would leave the page no frame to spare.
const graphCostShare = 10

// graphEvery is the least time between two redraws of the graph view
// while training runs: graphRedraw, or more for a view that costs more.
func (c *GraphLab) graphEvery() time.Duration {
	return max(graphRedraw, graphCostShare*(c.graphBuild.least()+c.edges.cost.least()))
}

// GraphLab is the lab of the learned graph: one run on the graph the state
// table's rows make, with views of its own: the graph, inspected by
// pointer and keys (graphlab_view.go, graphlab_inspect.go), the charts
// (graphlab_charts.go), the scrubber that rewinds them all
// (graphlab_rewind.go), the files it saves (graphlab_export.go) and the
// card that opens your own graph (graphlab_open.go).
type GraphLab struct {
	app.Compo
	lab
	// zoom is the graph view's zoom step, 0 (its card's width) to maxZoom.
	zoom int
	// editsRead is the state's edit list as last read (edits).
	editsRead struct {
		text string
		list experiment.Edits
		done bool
	}

	// The graph view: the drawing, the edges drawn when the graph has too
	// many, what its canvases paint, and how far the learned layout pulls
	// the classes apart (NaN before a drawing).
	view       *viz.Graph
	drawIdx    []int
	strokes    []viz.Stroke
	separation float64
	movedNodes bool // a layout came that the view has yet to draw
	edges      painter
	nodes      painter
	insp       inspector
	trace      nodeTrace
	ed         editor

	charts graphCharts
	// edgeKinds is Figure 4 as drawn, of the embeddings of epochs up to
	// edgeKindsEpoch.
	edgeKinds                    string
	edgeKindsEpoch               int
	lastGraphDraw, lastChartDraw time.Time
	graphBuild                   recentCost // the last redraws' own time, before their paint

	// opening says the user's files went to the engine and the lab waits
	// for its answer; loaded is what the engine read; dragging says files
	// are held over the lab.
	opening bool
	loaded  *protocol.Loaded
	// columns is what the engine offers when the files leave the class
	// column open: the column chooser shows it until one is chosen.
	columns  *protocol.Columns
	dragging bool
}

func init() {
	addRoom("graph", func(p *page) room {
		c := &GraphLab{}
		c.init(p, "graph", c)
		c.drawsGraph, c.rewinds = true, true
		// Figure 4 live: the run's edges and GAT's, trained beside it,
		// embedded as the run trains.
		c.embeds, c.embedLive, c.besideModel = true, true, experiment.GAT
		c.trace.node = -1
		c.ed.look = lookKind
		c.edges.id, c.nodes.id = edgeCanvasID, nodeCanvasID
		return c
	})
}

// noRun stands for the lab's run before it mounts: Render reads it.
var noRun = &run{}

// one is the lab's run.
func (c *GraphLab) one() *run {
	if len(c.runs) == 0 {
		return noRun
	}
	return c.runs[0]
}

// The lab's hooks (see lab.go).
var (
	_ RunsOpener   = (*GraphLab)(nil)
	_ EventTaker   = (*GraphLab)(nil)
	_ ViewFollower = (*GraphLab)(nil)
	_ Commander    = (*GraphLab)(nil)
	_ Releaser     = (*GraphLab)(nil)
	_ WeightSayer  = (*GraphLab)(nil)
)

// RunsOpened asks the run's engine for the learned layout, if the view shows it.
func (c *GraphLab) RunsOpened() {
	if c.st.View.Layout == experiment.LayoutLearned {
		c.askLayout()
	}
}

// draw redraws what events changed: the view of a new graph once its
// layout comes, the charts and the graph after a snapshot, no more often
// than chartRedraw and graphRedraw; what a burst of snapshots left undrawn
// is drawn when the pace allows (drawLater).
func (c *GraphLab) draw(ch change) {
	r := c.one()
	if ch&newGraph != 0 && r.graph != nil {
		c.view, c.strokes, c.movedNodes = nil, nil, false
		c.drawIdx = sampleEdges(len(r.graph.Src), maxDrawnEdges)
		c.insp.reset(r.graph, c.drawIdx)
	}
	if ch&newEdges != 0 && r.graph != nil {
		// The nodes stay where they are and the selection stays; the view
		// draws the new edges.
		c.drawIdx = sampleEdges(len(r.graph.Src), maxDrawnEdges)
		c.insp.reindex(r.graph, c.drawIdx)
		c.relayout()
	}
	if ch&newLayout != 0 {
		if r.running && c.wait(c.lastGraphDraw, c.graphEvery()) > 0 {
			c.movedNodes = true // drawn with the next snapshot's redraw
		} else {
			c.relayout()
		}
	}
	if ch&(newEmbedding|newState|newGraph|newEdges) != 0 || ch&newSnapshot != 0 && r.snap.Epoch < c.edgeKindsEpoch {
		c.redrawEdgeKinds()
	}
	if ch&newSnapshot == 0 {
		return
	}
	now := ch&drawNow != 0
	if wait := c.wait(c.lastChartDraw, chartRedraw); wait > 0 && !now {
		c.drawLater(wait)
	} else {
		c.redrawCharts()
	}
	switch wait := c.wait(c.lastGraphDraw, c.graphEvery()); {
	case wait > 0 && !now:
		c.drawLater(wait)
	case c.movedNodes:
		c.relayout()
	default:
		c.redrawGraph()
	}
}

// TakeEvent takes the events that are the graph lab's own: the user's graph
// read, a file to save, an error while files were opening.
func (c *GraphLab) TakeEvent(r *run, ev protocol.Event, f32 []float32) change {
	switch ev.Kind {
	case protocol.KindLoaded:
		if ev.Loaded != nil {
			c.onLoaded(*ev.Loaded)
		}
	case protocol.KindFile:
		if ev.File != nil {
			save(ev.File.Name, ev.File.Type, ev.File.Data)
		}
	case protocol.KindError, protocol.KindRestarted:
		if c.opening && ev.Columns != nil {
			c.columns = ev.Columns
			c.unfolded = true // a phone folds the card the chooser is in
		}
		c.opening = false
	case protocol.KindGraph:
		if ev.Graph != nil && !ev.Graph.Edited { // another graph: what the views held of the one before goes
			c.trace.open = false // the node it traced is gone
			c.ed.forgetGraph()
			c.selectionChanged()
		}
	}
	c.edgeTaken(r, ev)
	return 0
}

// ViewChanged redraws what a change of the view's rows changes: the
// arrangement of the nodes, or which edges show. The engine is not told.
func (c *GraphLab) ViewChanged(before experiment.View) {
	switch v := c.st.View; {
	case v.Layout != before.Layout:
		if v.Layout == experiment.LayoutLearned || before.Layout == experiment.LayoutLearned {
			c.askLayout()
		}
		c.relayout()
	case v.Threshold != before.Threshold:
		c.redrawGraph()
	case v.Present != before.Present || v.Embed != before.Embed:
		c.relayout() // the canvases' width changed: paint them afresh
	}
}

// Command walks the graph view's nodes by the keys of its data-keys.
func (c *GraphLab) Command(cmd command) bool {
	switch cmd {
	case cmdNextNode, cmdPrevNode, cmdLetGo:
		return c.walk(cmd)
	}
	return false
}

// Release frees the canvases' frame callbacks.
func (c *GraphLab) Release() {
	c.edges.release()
	c.nodes.release()
}

// Render lays out the lab. It only reads state: every figure was drawn by
// the event that changed it.
func (c *GraphLab) Render() app.UI {
	class := "graph-lab"
	if c.dragging {
		class += " dragging"
	}
	r := c.one()
	return c.layOut(class, c.renderRewind(), c.render(c.visible, c.renderOpen()),
		c.renderGraphCard(),
		c.renderTrace(),
		c.renderEditor(),
		c.card("curves", tr("Loss and accuracy"), c.charts.curves, "", explainCurves()),
		c.card("histogram", tr("Learned weights"), c.charts.hist, c.charts.noWeights, explainHistogram(c.st.Data), c.renderDeciles()),
		c.card("share", tr("Inter-class share"), c.charts.share, c.charts.noWeights, explainShare()),
		// Figure 4 pairs with the share card: after the wide editor it
		// stood alone, half the row empty beside it.
		c.card("edges", tr("Edge representations by kind (Figure 4)"), c.edgeKinds, noPanelDrawn(c.edgePanels()), explainEdgePanels(true), renderEdgeNumbers(c.edgePanels())),
		app.If(c.charts.attn != "", c.card("attention", tr("What the variant attends to"), c.charts.attn, c.whyNoAttention(), explainAttention(), c.renderHopWeights(r))),
		app.Div().ID("save").Class("card wide").Body(app.H2().Text(tr("Save this run")), c.renderExports(),
			app.P().Class("note").Text(tr("The history holds a row per snapshot the page received; the weights are the latest; the state opens this run again (its permalink)."))),
	).OnDragOver(c.onDragOver).OnDrop(c.onDrop).OnDragLeave(func(ctx app.Context, e app.Event) { c.dragging = false })
}

// edgePanels are Figure 4's panels: the run's edges and GAT's, trained
// beside it on the same graph from the same seeds (where the run is not
// GAT's own), as their worker last embedded them.
func (c *GraphLab) edgePanels() []edgePanel {
	r := c.one()
	kind := r.Exp.Model.Kind
	out := []edgePanel{panelOf(r, false, "", kind, modelTitle(kind))}
	if kind != experiment.GAT {
		out = append(out, panelOf(r, true, "", experiment.GAT, modelTitle(experiment.GAT)))
	}
	return out
}

// redrawEdgeKinds draws Figure 4 afresh: an embedding came, or the run
// went back before the epoch of one drawn.
func (c *GraphLab) redrawEdgeKinds() {
	panels := c.edgePanels()
	c.edgeKinds, c.edgeKindsEpoch = drawEdgePanels(panels, true), 0
	for _, p := range panels {
		if p.em != nil {
			c.edgeKindsEpoch = max(c.edgeKindsEpoch, p.em.Epoch)
		}
	}
}
