package app

import (
	"math"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/viz"
)

// painter draws a layer of a view on a <canvas>, at most once per
// animation frame and only when it changed.
//
// Why a canvas and not the SVG the export writes: the browser re-rasterises
// an SVG of thousands of edges on every change, which at the paper's size
// (7,429 edges) held the main thread for seconds per frame on a 2-core
// machine without GPU, and parses thousands of circles each time the nodes
// move. A canvas is painted once per change, from the same layers that the
// SVG export draws (viz.Graph.Strokes and NodeLayers), one Path2D per layer,
// so the page makes a few dozen JS calls per paint, not one per edge or node.
type painter struct {
	id      string // the canvas element's id
	w, h    int    // the view's size, in its units
	paths   []paintPath
	pending bool
	frame   app.Func
	// cost is what the last paints held the main thread, rasterising
	// included: a paint ends by reading one pixel back, which makes the
	// canvas draw what it was given there and then (a canvas otherwise
	// rasterises later in the frame, where the time of everything else the
	// page did in it, charts and numbers, would count as the graph's).
	cost recentCost
}

// recentCost holds the last few measures of a cost. Its estimate is their
// least, once two have come: a measure can only come out too high (other
// work on the main thread in the same frame; a canvas's first paint), never
// too low. The first paint of the paper's default graph, as the page
// started, took 160 ms, ten times its cost, and alone it had paced the
// view to a redraw every 1.7 s.
type recentCost struct {
	last [3]time.Duration
	n    int
}

func (r *recentCost) add(d time.Duration) {
	r.last[r.n%len(r.last)] = d
	r.n++
}

// least is the estimate: the least of the measures kept, 0 before two.
func (r *recentCost) least() time.Duration {
	if r.n < 2 {
		return 0
	}
	m := r.last[0]
	for _, d := range r.last[1:min(r.n, len(r.last))] {
		m = min(m, d)
	}
	return m
}

// paintPath is one layer: SVG path data filled and/or stroked alike.
type paintPath struct {
	d, fill, stroke string  // "" for no fill or no stroke
	opacity, width  float64 // of the stroke
	hairline        bool    // stroked one device pixel wide, whatever width says
}

// edgePaths are the canvas layers of edge strokes. The canvas draws every
// edge solid and one device pixel wide, its weight in its opacity alone:
// the kinds differ in hue and in lightness (vermillion against dark grey,
// apart in greyscale too). Dashes and widths that grow with the weight
// stay in the SVG export only, because a software-rasterised canvas (no
// GPU) draws a line of at most one device pixel on a fast path and any
// wider one as a polygon: the paper's default graph, 7,429 lines on a
// 900-pixel canvas, took 26 ms at one pixel and 500 ms at 1.01; with
// dashes, a 6,144-node graph did not answer for minutes.
func edgePaths(strokes []viz.Stroke) []paintPath {
	out := make([]paintPath, len(strokes))
	for i, st := range strokes {
		out[i] = paintPath{d: st.D, stroke: st.Color, opacity: st.Opacity, width: st.Width, hairline: true}
	}
	return out
}

// nodePaths are the canvas layers of nodes.
func nodePaths(layers []viz.NodeLayer) []paintPath {
	out := make([]paintPath, len(layers))
	for i, l := range layers {
		out[i] = paintPath{d: l.D, fill: l.Fill, stroke: l.Stroke, opacity: 1, width: 1}
	}
	return out
}

// paint asks for paths to be drawn at the next animation frame. Without
// a browser (native tests) it does nothing.
func (p *painter) paint(w, h int, paths []paintPath) {
	p.w, p.h, p.paths = w, h, paths
	if p.pending {
		return
	}
	raf := app.Window().Get("requestAnimationFrame")
	if !raf.Truthy() {
		return
	}
	if p.frame == nil {
		p.frame = app.FuncOf(func(app.Value, []app.Value) any {
			p.pending = false
			p.draw()
			return nil
		})
	}
	p.pending = true
	app.Window().Call("requestAnimationFrame", p.frame)
}

// draw paints the strokes, scaled from the view's units to the canvas's
// device pixels, so that lines stay sharp at any zoom.
func (p *painter) draw() {
	el := app.Window().GetElementByID(p.id)
	if !el.Truthy() || p.w <= 0 {
		return
	}
	start := time.Now()
	ratio := app.Window().Get("devicePixelRatio").Float()
	if !(ratio > 0) {
		ratio = 1
	}
	pxW := int(math.Round(el.Get("clientWidth").Float() * ratio))
	if pxW <= 0 {
		return
	}
	pxH := pxW * p.h / p.w
	if el.Get("width").Int() != pxW || el.Get("height").Int() != pxH {
		el.Set("width", pxW)
		el.Set("height", pxH)
	}
	ctx := el.Call("getContext", "2d")
	ctx.Call("setTransform", 1, 0, 0, 1, 0, 0)
	ctx.Call("clearRect", 0, 0, pxW, pxH)
	s := float64(pxW) / float64(p.w)
	ctx.Call("setTransform", s, 0, 0, s, 0, 0)
	ctx.Set("lineCap", "round")
	path := app.Window().Get("Path2D")
	for _, pp := range p.paths {
		d := path.New(pp.d)
		if pp.fill != "" {
			ctx.Set("globalAlpha", 1)
			ctx.Set("fillStyle", pp.fill)
			ctx.Call("fill", d)
		}
		if pp.stroke != "" {
			ctx.Set("strokeStyle", pp.stroke)
			ctx.Set("globalAlpha", pp.opacity)
			width := pp.width
			if pp.hairline {
				width = 1 / s
			}
			ctx.Set("lineWidth", width)
			ctx.Call("stroke", d)
		}
	}
	ctx.Set("globalAlpha", 1)
	ctx.Call("getImageData", 0, 0, 1, 1)
	p.cost.add(time.Since(start))
}

// release frees the frame callback.
func (p *painter) release() {
	if p.frame != nil {
		p.frame.Release()
		p.frame = nil
	}
}
