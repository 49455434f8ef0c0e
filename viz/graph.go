package viz

import (
	"html"
	"math"
	"slices"
	"strconv"
	"strings"

	"pdnexplorer/edgekind"
	"pdnexplorer/internal/numtext"
)

// WeightBins is how many levels of learned weight the graph view draws.
// Each (kind, level) pair is one <path>, so the page holds a few dozen
// elements instead of one per edge and redraws cheaply.
const WeightBins = 20

// Graph is a graph laid out on a canvas, ready to be drawn again and again
// with new edge weights. Build it once per graph with NewGraph.
type Graph struct {
	w, h   int
	x, y   []float64
	labels []int
	kinds  []edgekind.Kind
	src    []int32
	dst    []int32
	segs   []string // "Mx yLx y" per edge
	test   []bool
	nodes  []NodeLayer // drawn last, the same every time; made on first use
}

// NodeLayer is the nodes drawn alike, one class filled (training nodes) or
// hollow (test nodes): D is SVG path data with a circle per node, so the
// page's canvas (new Path2D(d)) and the SVG export draw them from the same
// code, as they draw the edges (Stroke).
type NodeLayer struct {
	Class  int
	Test   bool
	Count  int
	Fill   string
	Stroke string
	D      string
}

// NewGraph places the nodes at pos (x₀, y₀, x₁, y₁, … in any units, as
// Arrange returns them) scaled to fit a w×h canvas. labels colour the
// nodes; kinds (may be nil) separate intra- from inter-class edges; test
// marks nodes drawn hollow (may be nil).
func NewGraph(w, h int, pos []float32, labels []int, src, dst []int32, kinds []edgekind.Kind, test []bool) *Graph {
	n := len(labels)
	g := &Graph{w: w, h: h, x: make([]float64, n), y: make([]float64, n), labels: labels, kinds: kinds, src: src, dst: dst}
	xs, ys := make([]float64, 0, n), make([]float64, 0, n)
	for i := 0; i < n && 2*i+1 < len(pos); i++ {
		xs, ys = append(xs, float64(pos[2*i])), append(ys, float64(pos[2*i+1]))
	}
	// Arrange has already drawn stragglers in, so the full extent fits the
	// view with a margin and no node is pinned to the frame.
	minX, maxX := extent(xs)
	minY, maxY := extent(ys)
	const margin = 8.0
	scale := math.Min((float64(w)-2*margin)/math.Max(maxX-minX, 1e-9), (float64(h)-2*margin)/math.Max(maxY-minY, 1e-9))
	offX := (float64(w) - 2*margin - (maxX-minX)*scale) / 2
	offY := (float64(h) - 2*margin - (maxY-minY)*scale) / 2
	for i := range xs {
		g.x[i] = clamp(margin+offX+(xs[i]-minX)*scale, margin, float64(w)-margin)
		g.y[i] = clamp(margin+offY+(ys[i]-minY)*scale, margin, float64(h)-margin)
	}
	g.segs = make([]string, len(src))
	for e := range src {
		u, v := src[e], dst[e]
		g.segs[e] = "M" + f1(g.x[u]) + " " + f1(g.y[u]) + "L" + f1(g.x[v]) + " " + f1(g.y[v])
	}
	g.test = test
	return g
}

// nodeLayers groups the nodes by class and split, each drawn as a circle:
// a move to its left edge and two half-circle arcs.
func nodeLayers(x, y []float64, labels []int, test []bool) []NodeLayer {
	r := nodeRadius(len(x))
	arcs := "a" + f1(r) + " " + f1(r) + " 0 1 0 " + f1(2*r) + " 0a" + f1(r) + " " + f1(r) + " 0 1 0 " + f1(-2*r) + " 0"
	type key struct {
		class int
		test  bool
	}
	var order []key
	paths := map[key]*strings.Builder{}
	counts := map[key]int{}
	for i := range x {
		k := key{labels[i], test != nil && i < len(test) && test[i]}
		b := paths[k]
		if b == nil {
			b = &strings.Builder{}
			paths[k] = b
			order = append(order, k)
		}
		b.WriteString("M" + f1(x[i]-r) + " " + f1(y[i]) + arcs)
		counts[k]++
	}
	// Training nodes first, so the hollow test nodes stay visible on top.
	slices.SortStableFunc(order, func(a, b key) int {
		if a.test != b.test {
			if a.test {
				return 1
			}
			return -1
		}
		return a.class - b.class
	})
	layers := make([]NodeLayer, len(order))
	for i, k := range order {
		c := ClassColor(k.class)
		fill := c
		if k.test {
			fill = "#ffffff"
		}
		layers[i] = NodeLayer{Class: k.class, Test: k.test, Count: counts[k], Fill: fill, Stroke: c, D: paths[k].String()}
	}
	return layers
}

// extent returns the least and greatest finite values.
func extent(v []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, x := range v {
		if finite(x) {
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
	}
	if lo > hi {
		return 0, 1
	}
	return lo, hi
}

func clamp(x, lo, hi float64) float64 {
	if math.IsNaN(x) {
		return lo
	}
	return math.Max(lo, math.Min(hi, x))
}

func nodeRadius(n int) float64 {
	switch {
	case n <= 200:
		return 4
	case n <= 2000:
		return 2.5
	}
	return 1.6
}

// Level returns the drawing level 0..WeightBins-1 of a weight in [0, 1].
func Level(w float64) int {
	return max(0, min(WeightBins-1, int(w*WeightBins)))
}

// LevelStyle returns the opacity and stroke width that draw weights of the
// given level: both grow with the weight, so that weak edges fade.
func LevelStyle(level int) (opacity, width float64) {
	mid := (float64(level) + 0.5) / WeightBins
	return 0.02 + 0.9*mid, 0.3 + 1.9*mid
}

// SVG draws the graph with the given edge weights, one per edge in [0, 1]
// (nil draws no edge: a model that ignores the graph), leaving out edges
// lighter than threshold: what remains is the pathfinder graph. The nodes
// go on top. Each path carries data-count, and data-kind and data-level
// (edges) or data-class and data-test (nodes), so tests and tools can read
// what was drawn. It is the figure's export: the page paints the same
// Strokes and NodeLayers on canvases.
func (g *Graph) SVG(weights []float32, threshold float64, label string) string {
	c := newCanvas(g.w, g.h, label)
	c.Rect(0, 0, g.w, g.h, `fill="#ffffff"`)
	if weights != nil {
		g.drawEdges(c, weights, threshold)
	}
	for _, l := range g.NodeLayers() {
		c.Path(l.D, `class="node"`, `data-class="`+strconv.Itoa(l.Class)+`"`, `data-test="`+strconv.FormatBool(l.Test)+`"`,
			`data-count="`+strconv.Itoa(l.Count)+`"`, `fill="`+html.EscapeString(l.Fill)+`"`, `stroke="`+html.EscapeString(l.Stroke)+`"`)
	}
	return c.inline()
}

// NodeLayers returns the layers that draw the nodes, in the order to draw
// them.
func (g *Graph) NodeLayers() []NodeLayer {
	if g.nodes == nil {
		g.nodes = nodeLayers(g.x, g.y, g.labels, g.test)
	}
	return g.nodes
}

// NodeDots paints the nodes as dots into a pxW×pxH RGBA image (4 bytes a
// pixel, row by row, as a canvas's ImageData holds it): a square of the
// nodes' size per node in its class's colour, hollow for a test node where
// the square is 3 pixels wide or more, the classes painted in order, the
// rest transparent. The image is the view's w×h units scaled by pxW/w.
//
// Why pixels written here and not a path a canvas parses: a small view of
// a Facebook-sized graph draws 22,470 nodes, whose path took the page's
// canvas 87 ms to parse and 68 ms to fill, each time the layout moved, and
// the graph lab's view of 131,539 nodes 1.4 s; their dots, a few pixels
// wide, take a few milliseconds to write.
func (g *Graph) NodeDots(pxW, pxH int) []byte {
	img := make([]byte, 4*max(pxW, 0)*max(pxH, 0))
	if pxW <= 0 || pxH <= 0 || g.w <= 0 {
		return img
	}
	s := float64(pxW) / float64(g.w)
	side := max(1, int(math.Round(2*nodeRadius(len(g.x))*s)))
	order := make([]int, len(g.x))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return g.labels[a] - g.labels[b] })
	for _, i := range order {
		rgb := hexRGB(ClassColor(g.labels[i]))
		hollow := side >= 3 && i < len(g.test) && g.test[i]
		x0 := int(math.Round(g.x[i]*s)) - side/2
		y0 := int(math.Round(g.y[i]*s)) - side/2
		for y := max(y0, 0); y < min(y0+side, pxH); y++ {
			for x := max(x0, 0); x < min(x0+side, pxW); x++ {
				if hollow && y > y0 && y < y0+side-1 && x > x0 && x < x0+side-1 {
					continue
				}
				p := 4 * (y*pxW + x)
				img[p], img[p+1], img[p+2], img[p+3] = rgb[0], rgb[1], rgb[2], 255
			}
		}
	}
	return img
}

// Nodes is the number of nodes the view draws.
func (g *Graph) Nodes() int { return len(g.x) }

// hexRGB reads a colour written #rrggbb; black for anything else.
func hexRGB(c string) [3]byte {
	var rgb [3]byte
	if len(c) != 7 || c[0] != '#' {
		return rgb
	}
	for k := range rgb {
		v, err := numtext.ParseHex(c[1+2*k:3+2*k], 8)
		if err != nil {
			return [3]byte{}
		}
		rgb[k] = byte(v)
	}
	return rgb
}

// Stroke is one layer of edges drawn alike: every edge of one kind whose
// weight falls in one level. D is SVG path data, which a browser canvas
// also draws (new Path2D(d)), so the live view and the SVG export draw the
// same thing from the same code.
type Stroke struct {
	Kind    edgekind.Kind
	Level   int     // 0..WeightBins-1
	Count   int     // edges in D
	Sum     float64 // sum of their weights
	Color   string
	Dash    []float64 // nil for a solid line
	Opacity float64
	Width   float64
	D       string
}

// InterDash is the dash pattern of inter-class edges.
var InterDash = []float64{3, 2}

// Strokes returns the layers that draw the edges with the given weights,
// one per edge (nil draws none), leaving out edges lighter than threshold,
// in the order to draw them.
func (g *Graph) Strokes(weights []float32, threshold float64) []Stroke {
	if weights == nil {
		return nil
	}
	var paths [3][WeightBins]strings.Builder
	var counts [3][WeightBins]int
	var sums [3][WeightBins]float64
	for e, seg := range g.segs {
		w := float64(weights[e])
		if w < threshold || math.IsNaN(w) {
			continue
		}
		k := edgekind.Intra
		if g.kinds != nil {
			k = g.kinds[e]
		}
		l := Level(w)
		paths[k][l].WriteString(seg)
		counts[k][l]++
		sums[k][l] += w
	}
	var out []Stroke
	// Intra-class edges go on top: where every edge weighs the same (GCN),
	// the classes stay visible; where weights differ, the inter-class edges
	// fade anyway.
	for _, k := range []edgekind.Kind{edgekind.Unknown, edgekind.Inter, edgekind.Intra} {
		for l := 0; l < WeightBins; l++ {
			if counts[k][l] == 0 {
				continue
			}
			st := Stroke{Kind: k, Level: l, Count: counts[k][l], Sum: sums[k][l], Color: IntraColor, D: paths[k][l].String()}
			if k == edgekind.Inter {
				st.Color, st.Dash = InterColor, InterDash
			}
			st.Opacity, st.Width = LevelStyle(l)
			out = append(out, st)
		}
	}
	return out
}

func (g *Graph) drawEdges(c canvas, weights []float32, threshold float64) {
	for _, st := range g.Strokes(weights, threshold) {
		name := st.Kind.String()
		if name == "" {
			name = "unknown"
		}
		attrs := []string{`class="edge ` + name + `"`, `data-kind="` + name + `"`, `data-level="` + strconv.Itoa(st.Level) + `"`,
			`data-count="` + strconv.Itoa(st.Count) + `"`, `fill="none"`, `stroke="` + html.EscapeString(st.Color) + `"`,
			`stroke-opacity="` + f3(st.Opacity) + `"`, `stroke-width="` + f3(st.Width) + `"`}
		if st.Dash != nil {
			attrs = append(attrs, `stroke-dasharray="`+f1(st.Dash[0])+` `+f1(st.Dash[1])+`"`)
		}
		c.Path(st.D, attrs...)
	}
}
