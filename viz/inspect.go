package viz

import (
	"math"
	"strconv"

	"pdnexplorer/edgekind"
)

// NearestNode returns the node drawn nearest to (x, y), in the view's
// units, if it lies within r of it; -1 otherwise. A linear scan: a few
// thousand nodes take microseconds, less than building an index would.
func (g *Graph) NearestNode(x, y, r float64) int {
	best, bestD := -1, r*r
	for i := range g.x {
		dx, dy := g.x[i]-x, g.y[i]-y
		if d := dx*dx + dy*dy; d <= bestD {
			best, bestD = i, d
		}
	}
	return best
}

// NearestEdge returns the drawn edge (an index into the src and dst given
// to NewGraph) nearest to (x, y) within r, among those with weight at least
// threshold (all edges when weights is nil); -1 if none is that near.
func (g *Graph) NearestEdge(x, y, r float64, weights []float32, threshold float64) int {
	best, bestD := -1, r
	for e := range g.src {
		if weights != nil && (e >= len(weights) || float64(weights[e]) < threshold) {
			continue
		}
		u, v := g.src[e], g.dst[e]
		if d := segmentDistance(x, y, g.x[u], g.y[u], g.x[v], g.y[v]); d <= bestD {
			best, bestD = e, d
		}
	}
	return best
}

// segmentDistance is the distance from (px, py) to the segment a–b.
func segmentDistance(px, py, ax, ay, bx, by float64) float64 {
	dx, dy := bx-ax, by-ay
	t := 0.0
	if l := dx*dx + dy*dy; l > 0 {
		t = math.Max(0, math.Min(1, ((px-ax)*dx+(py-ay)*dy)/l))
	}
	return math.Hypot(px-(ax+t*dx), py-(ay+t*dy))
}

// Highlight draws, over the view, the given edges (indices as for
// NearestEdge) and a ring around each given node: what the page shows for
// the node or edge under the pointer. Each edge is drawn as thick as its
// weight draws it in the view (LevelStyle; weights nil or short: weight
// 1), in its kind's colour at full strength over a thin dark outline: the
// highlight marks an edge by colour and outline, never by a thickness its
// weight does not have, so a selected node's light edges stay thin.
func (g *Graph) Highlight(nodes, edges []int, weights []float32) string {
	c := newCanvas(g.w, g.h, "the node or edge inspected")
	for _, e := range edges {
		if e < 0 || e >= len(g.src) {
			continue
		}
		color := IntraColor
		if g.kinds != nil && g.kinds[e] == edgekind.Inter {
			color = InterColor
		}
		w := 1.0
		if e < len(weights) && !math.IsNaN(float64(weights[e])) {
			w = float64(weights[e])
		}
		_, width := LevelStyle(Level(w))
		u, v := g.src[e], g.dst[e]
		x1, y1, x2, y2 := int(math.Round(g.x[u])), int(math.Round(g.y[u])), int(math.Round(g.x[v])), int(math.Round(g.y[v]))
		c.Line(x1, y1, x2, y2, `stroke="#000000"`, `stroke-opacity="0.55"`, `stroke-width="`+f3(width+1)+`"`, `class="highlight-outline"`)
		c.Line(x1, y1, x2, y2, `stroke="`+color+`"`, `stroke-width="`+f3(width)+`"`, `class="highlight-edge"`,
			`data-weight="`+f3(w)+`"`)
	}
	for _, i := range nodes {
		if i < 0 || i >= len(g.x) {
			continue
		}
		c.Circle(int(math.Round(g.x[i])), int(math.Round(g.y[i])), 8, `fill="none"`, `stroke="#000000"`,
			`stroke-width="2"`, `class="highlight-node"`, `data-node="`+strconv.Itoa(i)+`"`)
	}
	return c.inline()
}

// NodeAt returns where node i is drawn, in the view's units.
func (g *Graph) NodeAt(i int) (x, y float64) { return g.x[i], g.y[i] }
