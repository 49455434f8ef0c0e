package viz

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// Edge kinds, as in datasets: 1 intra-class, 2 inter-class, 0 unknown.
const (
	kindIntra = 1
	kindInter = 2
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
	kinds  []int8
	segs   []string // "Mx yLx y" per edge
	nodes  string   // the nodes' SVG, drawn last, the same every time
}

// NewGraph places the nodes at pos (x₀, y₀, x₁, y₁, … in any units) scaled
// into a w×h canvas. labels colour the nodes; kinds (may be nil) separate
// intra- from inter-class edges; test marks nodes drawn hollow (may be nil).
func NewGraph(w, h int, pos []float32, labels []int, src, dst []int32, kinds []int8, test []bool) *Graph {
	n := len(labels)
	g := &Graph{w: w, h: h, x: make([]float64, n), y: make([]float64, n), labels: labels, kinds: kinds}
	xs, ys := make([]float64, 0, n), make([]float64, 0, n)
	for i := 0; i < n && 2*i+1 < len(pos); i++ {
		xs, ys = append(xs, float64(pos[2*i])), append(ys, float64(pos[2*i+1]))
	}
	// A force layout leaves a few stragglers far out; scaling to the 1st
	// and 99th percentiles (and pinning the stragglers to the border) keeps
	// them from shrinking everything else to a dot.
	minX, maxX := spread(xs)
	minY, maxY := spread(ys)
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
	var b strings.Builder
	r := nodeRadius(n)
	for i := 0; i < n; i++ {
		c := ClassColor(labels[i])
		fill := c
		if test != nil && test[i] {
			fill = "#ffffff"
		}
		b.WriteString(`<circle cx="` + f1(g.x[i]) + `" cy="` + f1(g.y[i]) + `" r="` + r + `" fill="` + fill + `" stroke="` + c + `" data-class="` + strconv.Itoa(labels[i]) + `"/>`)
	}
	g.nodes = b.String()
	return g
}

// spread returns the 1st and 99th percentiles of finite values.
func spread(v []float64) (lo, hi float64) {
	s := make([]float64, 0, len(v))
	for _, x := range v {
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			s = append(s, x)
		}
	}
	if len(s) == 0 {
		return 0, 1
	}
	slices.Sort(s)
	return s[len(s)/100], s[len(s)-1-len(s)/100]
}

func clamp(x, lo, hi float64) float64 {
	if math.IsNaN(x) {
		return lo
	}
	return math.Max(lo, math.Min(hi, x))
}

func nodeRadius(n int) string {
	switch {
	case n <= 200:
		return "4"
	case n <= 2000:
		return "2.5"
	}
	return "1.6"
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

// EdgesSVG draws the edges with the given weights, one per edge in [0, 1]
// (nil draws none: a model that ignores the graph). Edges lighter than
// threshold are left out: what remains is the pathfinder graph. Each path
// carries data-kind, data-level and data-count, so tests and tools can read
// what was drawn.
//
// The figure comes in two layers of equal size, EdgesSVG and NodesSVG, to
// be stacked with the nodes on top. A live view redraws only the edges: a
// browser parses thousands of circles a hundred times slower than a few
// long paths, so the nodes are parsed once per layout.
func (g *Graph) EdgesSVG(weights []float32, threshold float64, label string) string {
	c := newCanvas(g.w, g.h, label)
	c.Rect(0, 0, g.w, g.h, `fill="#ffffff"`)
	if weights != nil {
		g.drawEdges(c, weights, threshold)
	}
	return c.inline()
}

// NodesSVG is the node layer that goes over EdgesSVG.
func (g *Graph) NodesSVG() string {
	c := newCanvas(g.w, g.h, "nodes")
	c.buf.WriteString(g.nodes)
	return c.inline()
}

func (g *Graph) drawEdges(c canvas, weights []float32, threshold float64) {
	var paths [3][WeightBins]strings.Builder
	var counts [3][WeightBins]int
	for e, seg := range g.segs {
		w := float64(weights[e])
		if w < threshold || math.IsNaN(w) {
			continue
		}
		k := kindIntra
		if g.kinds != nil {
			k = int(g.kinds[e])
		}
		l := Level(w)
		paths[k][l].WriteString(seg)
		counts[k][l]++
	}
	// Intra-class edges go on top: where every edge weighs the same (GCN),
	// the classes stay visible; where weights differ, the inter-class edges
	// fade anyway.
	for _, k := range []int{0, kindInter, kindIntra} {
		for l := 0; l < WeightBins; l++ {
			if counts[k][l] == 0 {
				continue
			}
			op, wd := LevelStyle(l)
			color, dash, name := IntraColor, "", "intra"
			switch k {
			case kindInter:
				color, dash, name = InterColor, ` stroke-dasharray="3 2"`, "inter"
			case 0:
				name = "unknown"
			}
			c.buf.WriteString(`<path class="edge ` + name + `" data-kind="` + name + `" data-level="` + strconv.Itoa(l) +
				`" data-count="` + strconv.Itoa(counts[k][l]) + `" fill="none" stroke="` + color + `"` + dash +
				` stroke-opacity="` + f3(op) + `" stroke-width="` + f3(wd) + `" d="` + paths[k][l].String() + `"/>`)
		}
	}
}
