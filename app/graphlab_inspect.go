package app

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/edgekind"
	"pdnexplorer/wasm/protocol"
)

// Hit radii, in the view's units (560 across): generous for a node, which
// is small, tighter for an edge, which is long.
const (
	nodeHitRadius = 7
	edgeHitRadius = 3
	// maxListedEdges is how many of a selected node's edges the inspector
	// lists, heaviest first.
	maxListedEdges = 10
)

// inspector is what the pointer or the keyboard points at in the graph
// view: a node or an edge under the pointer, and a node clicked or chosen
// with the arrow keys, whose edges are shown.
type inspector struct {
	hoverNode, hoverEdge, selected int // -1 for none; edges index the view's edges
	degree                         []int
	incident                       [][]int    // the view's edges at each node
	overlay                        string     // the highlight, as SVG
	figure                         layoutRect // the figure's place on the screen, as the pointer last found it
}

// reset forgets what was inspected and learns the graph's degrees and the
// edges drawn at each node.
func (in *inspector) reset(g *protocol.Graph, drawIdx []int) {
	in.hoverNode, in.hoverEdge, in.selected, in.overlay = -1, -1, -1, ""
	in.degree, in.incident = nil, nil
	if g == nil {
		return
	}
	in.degree = make([]int, g.Nodes)
	for e := range g.Src {
		in.degree[g.Src[e]]++
		in.degree[g.Dst[e]]++
	}
	in.incident = make([][]int, g.Nodes)
	for i := range drawnCount(g, drawIdx) {
		e := edgeOf(i, drawIdx)
		in.incident[g.Src[e]] = append(in.incident[g.Src[e]], i)
		in.incident[g.Dst[e]] = append(in.incident[g.Dst[e]], i)
	}
}

// reindex learns an edited graph's degrees and drawn edges, keeping the
// node selected.
func (in *inspector) reindex(g *protocol.Graph, drawIdx []int) {
	sel := in.selected
	in.reset(g, drawIdx)
	if sel < g.Nodes {
		in.selected = sel
	}
}

func drawnCount(g *protocol.Graph, drawIdx []int) int {
	if drawIdx != nil {
		return len(drawIdx)
	}
	return len(g.Src)
}

// edgeOf maps an edge of the view to the graph's edge.
func edgeOf(i int, drawIdx []int) int {
	if drawIdx != nil {
		return drawIdx[i]
	}
	return i
}

// other is the end of edge e that is not node.
func other(g *protocol.Graph, e, node int) int {
	if int(g.Src[e]) == node {
		return int(g.Dst[e])
	}
	return int(g.Src[e])
}

// pointAt inspects what lies under the pointer event e on the figure.
func (c *GraphLab) pointAt(ctx app.Context, e app.Event) {
	if c.view == nil {
		return
	}
	// The figure's place is read as the pointer comes, and again only
	// after the page's layout changed or it scrolled: a pointer moved
	// over a training graph would lay the page out every frame.
	if !c.insp.figure.current() {
		c.insp.figure = readLayoutNow(ctx.JSSrc())
	}
	r := c.insp.figure
	w := r.width
	if !(w > 0) {
		return
	}
	s := float64(viewW) / w
	x := (e.Get("clientX").Float() - r.left) * s
	y := (e.Get("clientY").Float() - r.top) * s
	c.inspectAt(x, y)
}

// inspectAt inspects the node, or else the edge, at (x, y) in the view.
func (c *GraphLab) inspectAt(x, y float64) {
	node, edge := c.view.NearestNode(x, y, nodeHitRadius), -1
	if node < 0 {
		edge = c.view.NearestEdge(x, y, edgeHitRadius, c.drawnWeights(), c.st.View.Threshold)
	}
	if node == c.insp.hoverNode && edge == c.insp.hoverEdge {
		return
	}
	c.insp.hoverNode, c.insp.hoverEdge = node, edge
	c.highlight()
}

// leave forgets the pointer when it leaves the figure.
func (c *GraphLab) leave() {
	c.insp.hoverNode, c.insp.hoverEdge, c.insp.figure = -1, -1, layoutRect{}
	c.highlight()
}

// choose selects the node under the pointer (a click or a tap), or clears
// the selection when there is none or it is already selected.
func (c *GraphLab) choose(ctx app.Context, e app.Event) {
	c.pointAt(ctx, e)
	c.selectNode(c.insp.hoverNode)
}

func (c *GraphLab) selectNode(i int) {
	if i == c.insp.selected {
		i = -1
	}
	c.insp.selected = i
	c.highlight()
	c.selectionChanged()
}

// walk lets keyboard users walk the nodes: with the figure focused (its
// data-keys say it walks), → and ← select the next and previous node and
// Escape clears the selection; the shell gives the lab those keys instead
// of stepping the training. It reports whether the view changed.
func (c *GraphLab) walk(cmd command) bool {
	g := c.one().graph
	if g == nil || g.Nodes == 0 {
		return false
	}
	n, sel := g.Nodes, c.insp.selected
	switch cmd {
	case cmdNextNode:
		sel = (sel + 1) % n
	case cmdPrevNode:
		sel = (sel - 1 + n) % n
		if c.insp.selected < 0 {
			sel = n - 1
		}
	case cmdLetGo:
		sel = -1
	}
	c.insp.selected = sel
	c.highlight()
	c.selectionChanged()
	return true
}

// highlight redraws the overlay: rings around the inspected nodes, the
// selected node's edges and the edge under the pointer.
func (c *GraphLab) highlight() {
	if c.view == nil {
		c.insp.overlay = ""
		return
	}
	var nodes, edges []int
	for _, i := range []int{c.insp.hoverNode, c.insp.selected} {
		if i >= 0 {
			nodes = append(nodes, i)
		}
	}
	if i := c.insp.selected; i >= 0 && i < len(c.insp.incident) {
		edges = append(edges, c.insp.incident[i]...)
	}
	if c.insp.hoverEdge >= 0 {
		edges = append(edges, c.insp.hoverEdge)
	}
	c.insp.overlay = ""
	if len(nodes)+len(edges) > 0 {
		c.insp.overlay = c.view.Highlight(nodes, edges, c.one().weights)
	}
}

// renderInspector says in words what is inspected, or how to inspect.
func (c *GraphLab) renderInspector() app.UI {
	var body []app.UI
	switch {
	case c.one().graph == nil || c.view == nil:
	case c.insp.hoverNode >= 0:
		body = c.describeNode(c.insp.hoverNode, false)
	case c.insp.hoverEdge >= 0:
		body = c.describeEdge(c.insp.hoverEdge)
	case c.insp.selected >= 0:
		body = c.describeNode(c.insp.selected, true)
	default:
		body = []app.UI{app.Text(tr("Point at a node or an edge to inspect it; click a node to see its edges. " +
			"With the graph focused (Tab), → and ← walk through the nodes and Escape lets go."))}
	}
	return app.Div().ID("inspect").Class("inspect").Aria("live", "polite").Body(body...)
}

// describeNode gives node i's class, split, degree and prediction, and,
// when withEdges, its edges, heaviest first.
func (c *GraphLab) describeNode(i int, withEdges bool) []app.UI {
	r := c.one()
	g := r.graph
	split := tr("a training node")
	switch {
	case g.Labels[i] < 0:
		split = tr("never trained or tested on")
	case g.Test[i]:
		split = tr("a test node")
	}
	out := []app.UI{
		app.Strong().Text(trf("Node %d", i)),
		app.Text(trf(": %s, %s, degree ", className(g, g.Labels[i]), split)),
		metric("inspected-degree", "", float64(c.insp.degree[i]), fmt.Sprint(c.insp.degree[i])),
		app.Text(". "),
	}
	if i < len(r.pred) {
		k, p := int(r.pred[i]), float64(r.prob[i])
		verdict := ": right."
		switch {
		case g.Labels[i] < 0:
			verdict = tr(": no class to check it against.")
		case k != g.Labels[i]:
			verdict = ": wrong."
		}
		out = append(out, app.Text(trf("The model predicts %s with probability ", className(g, k))),
			metric("inspected-probability", "", p, num(p, 2)), app.Text(verdict))
	} else {
		out = append(out, app.Text(tr("No prediction yet.")))
	}
	if withEdges {
		out = append(out, app.Br(), app.Text(c.listEdges(i)))
	}
	return out
}

// listEdges lists node i's drawn edges, heaviest first.
func (c *GraphLab) listEdges(i int) string {
	type edge struct {
		other int
		kind  string
		w     float32
	}
	r := c.one()
	var es []edge
	for _, v := range c.insp.incident[i] {
		e := edgeOf(v, c.drawIdx)
		w := float32(-1)
		if e < len(r.weights) {
			w = r.weights[e]
		}
		es = append(es, edge{other(r.graph, e, i), kindName(r.graph, e), w})
	}
	switch {
	case len(es) == 0 && c.insp.degree[i] == 0:
		return tr("It has no edges: only its own features reach its update.")
	case len(es) == 0:
		return tr("No edge of this node is drawn.")
	}
	slices.SortStableFunc(es, func(a, b edge) int { return cmp.Compare(b.w, a.w) })
	var b strings.Builder
	b.WriteString(tr("Its edges, heaviest first: "))
	for j, e := range es[:min(len(es), maxListedEdges)] {
		if j > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, tr("to %d (%s"), e.other, e.kind)
		if e.w >= 0 {
			fmt.Fprintf(&b, ", %.2f", e.w)
		}
		b.WriteString(")")
	}
	if len(es) > maxListedEdges {
		fmt.Fprintf(&b, tr(" and %d more"), len(es)-maxListedEdges)
	}
	return b.String() + "."
}

// describeEdge gives edge v's endpoints, kind and learned weight.
func (c *GraphLab) describeEdge(v int) []app.UI {
	r := c.one()
	e := edgeOf(v, c.drawIdx)
	out := []app.UI{
		app.Strong().Text(trf("Edge %d–%d", r.graph.Src[e], r.graph.Dst[e])),
		app.Text(": " + kindName(r.graph, e) + ", "),
	}
	if e < len(r.weights) {
		w := float64(r.weights[e])
		return append(out, app.Text(tr("learned weight ")), metric("inspected-weight", "", w, num(w, 3)), app.Text("."))
	}
	return append(out, app.Text(tr("no learned weight yet.")))
}

func kindName(g *protocol.Graph, e int) string {
	if e < len(g.Kinds) && g.Kinds[e] != edgekind.Unknown {
		return g.Kinds[e].Words()
	}
	return "edge"
}
