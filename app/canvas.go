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
	// cost is what the last paint held the main thread: from its start
	// to the next animation frame, less a frame, so that the rasterising
	// the browser does after the calls counts too.
	cost    time.Duration
	started time.Time
	after   app.Func
}

// oneFrame is one animation frame at 60 Hz: what a paint costs beyond it is
// the time it held the main thread.
const oneFrame = time.Second / 60

// paintPath is one layer: SVG path data filled and/or stroked alike.
type paintPath struct {
	d, fill, stroke string  // "" for no fill or no stroke
	opacity, width  float64 // of the stroke
}

// edgePaths are the canvas layers of edge strokes. The canvas draws every
// edge solid: the kinds differ in hue and in lightness (vermillion against
// dark grey, apart in greyscale too). Dashes stay in the SVG export only,
// because a software-rasterised canvas dashes long paths slowly: with
// dashed inter-class edges, the page of a 6,144-node graph (15,000 edges
// drawn, most of them long lines between class regions) did not answer for
// 4.5 minutes; without, its first paint took 0.3 s.
func edgePaths(strokes []viz.Stroke) []paintPath {
	out := make([]paintPath, len(strokes))
	for i, st := range strokes {
		out[i] = paintPath{d: st.D, stroke: st.Color, opacity: st.Opacity, width: st.Width}
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
			p.started = time.Now()
			p.draw()
			app.Window().Call("requestAnimationFrame", p.after)
			return nil
		})
		p.after = app.FuncOf(func(app.Value, []app.Value) any {
			p.cost = max(time.Since(p.started)-oneFrame, 0)
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
			ctx.Set("lineWidth", pp.width)
			ctx.Call("stroke", d)
		}
	}
	ctx.Set("globalAlpha", 1)
}

// release frees the frame callback.
func (p *painter) release() {
	if p.frame != nil {
		p.frame.Release()
		p.after.Release()
		p.frame, p.after = nil, nil
	}
}
