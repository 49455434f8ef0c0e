package app

import (
	"math"
	"slices"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/viz"
)

// painter draws a layer of a view on a <canvas>, at an animation frame
// and only when it changed.
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
	pending bool // in the queue of paints
	waits   int  // frames its canvas has been missing (unmounted)
	// cost is what the last paints held the main thread, rasterising
	// included: a paint ends by reading one pixel back, which makes the
	// canvas draw what it was given there and then (a canvas otherwise
	// rasterises later in the frame, where the time of everything else the
	// page did in it, charts and numbers, would count as the graph's).
	cost recentCost
	// drawn says the last paint asked for reached its canvas (a canvas not
	// yet on the page is not painted).
	drawn bool
	// pixels, where set, writes the picture as RGBA pixels of a canvas of
	// the given size, which the painter puts on its canvas instead of
	// painting paths.
	pixels func(pxW, pxH int) []byte
	// source, where set, is a painter of the same picture at the same
	// size, whose canvas this one copies instead of painting its paths:
	// views that show the same nodes parse and rasterise them once.
	source *painter
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

// nodePaths are the canvas layers of nodes, outlined one device pixel
// wide (see edgePaths: a Facebook-sized graph's 22,470 outlines).
func nodePaths(layers []viz.NodeLayer) []paintPath {
	out := make([]paintPath, len(layers))
	for i, l := range layers {
		out[i] = paintPath{d: l.D, fill: l.Fill, stroke: l.Stroke, opacity: 1, width: 1, hairline: true}
	}
	return out
}

// paintNodes paints view's nodes on p: circles, hollow for test nodes, or
// above dotsAbove nodes a dot each, which the canvas takes as pixels
// (viz.Graph.NodeDots: their paths took seconds to paint).
func paintNodes(p *painter, view *viz.Graph, dotsAbove int) {
	if view.Nodes() <= dotsAbove {
		p.paint(viewW, viewH, nodePaths(view.NodeLayers()))
		return
	}
	p.paintPixels(viewW, viewH, view.NodeDots)
}

// paints is the page's one queue of paints. Each animation frame paints
// from it while the frame's paints have taken less than paintBudget (one
// at least), and leaves the rest to the next frames: the four small views
// of a Facebook-sized graph, with their nodes, all painted in one frame,
// had held it for 680 ms.
var paints struct {
	queue []*painter
	frame app.Func
}

// paintBudget is how long one frame's paints may take before the next
// waits for the next frame.
const paintBudget = 12 * time.Millisecond

// paint asks for paths to be drawn at an animation frame, the next one
// unless the queue is long. Without a browser (native tests) it does
// nothing.
func (p *painter) paint(w, h int, paths []paintPath) {
	p.w, p.h, p.paths, p.drawn, p.source, p.pixels, p.waits = w, h, paths, false, nil, nil, 0
	p.queue()
}

// paintPixels asks for the picture that pixels writes to be put on the
// canvas at an animation frame.
func (p *painter) paintPixels(w, h int, pixels func(pxW, pxH int) []byte) {
	p.w, p.h, p.paths, p.drawn, p.source, p.pixels, p.waits = w, h, nil, false, nil, pixels, 0
	p.queue()
}

// copyOf asks for src's picture to be copied onto p's canvas once src has
// painted it (it is queued behind src's paint).
func (p *painter) copyOf(src *painter) {
	p.w, p.h, p.paths, p.drawn, p.source, p.pixels, p.waits = src.w, src.h, nil, false, src, nil, 0
	p.queue()
}

// queue puts p in the queue of paints, unless it waits there already.
func (p *painter) queue() {
	if p.pending {
		return
	}
	if !app.Window().Get("requestAnimationFrame").Truthy() {
		return
	}
	p.pending = true
	paints.queue = append(paints.queue, p)
	if len(paints.queue) == 1 {
		requestPaints()
	}
}

// requestPaints asks for the next frame to paint from the queue.
func requestPaints() {
	if paints.frame == nil {
		paints.frame = app.FuncOf(func(app.Value, []app.Value) any {
			start := time.Now()
			var unmounted []*painter
			for first := true; len(paints.queue) > 0 && (first || time.Since(start) < paintBudget); first = false {
				p := paints.queue[0]
				paints.queue = paints.queue[1:]
				p.pending = false
				if !p.draw() {
					unmounted = append(unmounted, p)
				}
			}
			for _, p := range unmounted {
				p.pending = true // at the next frame, after the render that mounts its canvas
				paints.queue = append(paints.queue, p)
			}
			if len(paints.queue) > 0 {
				requestPaints()
			}
			return nil
		})
	}
	app.Window().Call("requestAnimationFrame", paints.frame)
}

// draw paints the strokes, scaled from the view's units to the canvas's
// device pixels, so that lines stay sharp at any zoom. It reports false
// while the canvas is not on the page yet, or not laid out: a paint asked
// for in the same turn as the render that mounts its canvas (the graph
// lab's first layout) runs at a frame that may come before that render,
// and is kept for a later frame, at most maxUnmounted of them, rather than
// lost with nothing left to ask for it again.
func (p *painter) draw() bool {
	if p.source != nil && p.source.pending { // its paint waits behind this copy
		p.queue()
		return true
	}
	el := app.Window().GetElementByID(p.id)
	if p.w <= 0 {
		return true
	}
	if !el.Truthy() {
		return p.unmounted()
	}
	start := time.Now()
	ratio := app.Window().Get("devicePixelRatio").Float()
	if !(ratio > 0) {
		ratio = 1
	}
	// The canvas's width as last laid out (layout.go): a paint reads no
	// layout, and paints again when the width changes.
	pxW := int(math.Round(watchWidth("id:"+p.id, p.queue) * ratio))
	if pxW <= 0 {
		return p.unmounted()
	}
	p.waits = 0
	pxH := pxW * p.h / p.w
	if el.Get("width").Int() != pxW || el.Get("height").Int() != pxH {
		el.Set("width", pxW)
		el.Set("height", pxH)
	}
	ctx := el.Call("getContext", "2d")
	ctx.Call("setTransform", 1, 0, 0, 1, 0, 0)
	ctx.Call("clearRect", 0, 0, pxW, pxH)
	switch {
	case p.source != nil:
		p.drawCopy(ctx, pxW, pxH, start)
		return true
	case p.pixels != nil:
		p.drawPixels(ctx, pxW, pxH, start)
		return true
	}
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
	p.drawn = true
	return true
}

// maxUnmounted is how many frames a paint waits for its canvas: the
// render that mounts it runs between two frames on the same thread, so a
// canvas still missing after these many frames has gone (its view was
// left), however busy the machine.
const maxUnmounted = 120

// unmounted counts a frame the painter's canvas was missing, and reports
// whether it has waited long enough to give its paint up.
func (p *painter) unmounted() bool {
	p.waits++
	if p.waits > maxUnmounted {
		p.waits = 0
		return true
	}
	return false
}

// drawCopy copies the source's canvas, which the queue painted first.
func (p *painter) drawCopy(ctx app.Value, pxW, pxH int, start time.Time) {
	src := app.Window().GetElementByID(p.source.id)
	if !src.Truthy() || !p.source.drawn {
		return
	}
	ctx.Call("drawImage", src, 0, 0, pxW, pxH)
	p.cost.add(time.Since(start))
	p.drawn = true
}

// drawPixels puts the pixels the painter's function writes on its canvas.
func (p *painter) drawPixels(ctx app.Value, pxW, pxH int, start time.Time) {
	img := p.pixels(pxW, pxH)
	arr := app.Window().Get("Uint8ClampedArray").New(len(img))
	app.CopyBytesToJS(arr, img)
	ctx.Call("putImageData", app.Window().Get("ImageData").New(arr, pxW, pxH), 0, 0)
	p.cost.add(time.Since(start))
	p.drawn = true
}

// release drops the painter's paint if it waits in the queue, and the
// size of its canvas kept: its view has gone.
func (p *painter) release() {
	forget("id:" + p.id)
	if p.pending {
		paints.queue = slices.DeleteFunc(paints.queue, func(q *painter) bool { return q == p })
		p.pending = false
	}
}
