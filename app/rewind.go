package app

import (
	"fmt"
	"math"
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/wasm/protocol"
)

// frame is one snapshot kept for rewinding, its arrays in a byte or two
// each: the weights quantised to 256 levels over their range (error at
// most (hi−lo)/510, under 0.002 for weights in [0, 1], invisible in the
// views), the predicted classes exactly, their probabilities to 256
// levels.
type frame struct {
	snap   protocol.Snapshot
	lo, hi float32
	w      []uint8
	pred   []uint16
	prob   []uint8
}

// maxRewindBytes bounds the frames kept: past it, every other frame of the
// older half goes, so a long run keeps its whole span, more coarsely.
const maxRewindBytes = 64 << 20

// rewind holds the frames of the run so far and which one the views show.
type rewind struct {
	frames []frame
	bytes  int
	past   int // the frame shown plus one; 0 for the live run
	// live is what the views showed before rewinding, restored on return.
	live struct {
		snap          protocol.Snapshot
		w, pred, prob []float32
	}
	// pausing says a rewind paused the run, so the pause's own snapshot
	// keeps the earlier epoch on view.
	pausing bool
}

func (r *rewind) reset() { *r = rewind{} }

// rewound reports whether the views show an earlier frame.
func (r *rewind) rewound() bool { return r.past > 0 }

// add keeps a snapshot as a frame. A snapshot of an earlier epoch (a
// reset, a new model) starts the frames again; one of the same epoch
// replaces the last.
func (r *rewind) add(s protocol.Snapshot, w, pred, prob []float32) {
	if n := len(r.frames); n > 0 {
		switch last := r.frames[n-1].snap.Epoch; {
		case s.Epoch < last:
			r.reset()
		case s.Epoch == last:
			r.bytes -= r.frames[n-1].size()
			r.frames = r.frames[:n-1]
		}
	}
	f := frame{snap: s, w: make([]uint8, len(w)), pred: make([]uint16, len(pred)), prob: make([]uint8, len(prob))}
	f.snap.Running = false
	f.lo, f.hi = float32(math.Inf(1)), float32(math.Inf(-1))
	for _, x := range w {
		f.lo, f.hi = min(f.lo, x), max(f.hi, x)
	}
	for i, x := range w {
		f.w[i] = quantise(x, f.lo, f.hi)
	}
	for i, x := range pred {
		f.pred[i] = uint16(x)
	}
	for i, x := range prob {
		f.prob[i] = quantise(x, 0, 1)
	}
	r.frames = append(r.frames, f)
	r.bytes += f.size()
	if r.bytes > maxRewindBytes && !r.rewound() {
		r.thin()
	}
}

// thin drops every other frame of the older half.
func (r *rewind) thin() {
	half := len(r.frames) / 2
	kept := r.frames[:0]
	r.bytes = 0
	for i, f := range r.frames {
		if i >= half || i%2 == 0 {
			kept = append(kept, f)
			r.bytes += f.size()
		}
	}
	r.frames = kept
	r.past = 0
}

func (f frame) size() int { return len(f.w) + 2*len(f.pred) + len(f.prob) + 256 }

func quantise(x, lo, hi float32) uint8 {
	if !(hi > lo) || math.IsNaN(float64(x)) {
		return 0
	}
	return uint8(math.Round(float64((x - lo) / (hi - lo) * 255)))
}

// arrays returns the frame's arrays as the views read them.
func (f frame) arrays() (w, pred, prob []float32) {
	w, pred, prob = make([]float32, len(f.w)), make([]float32, len(f.pred)), make([]float32, len(f.prob))
	for i, q := range f.w {
		w[i] = f.lo + float32(q)/255*(f.hi-f.lo)
	}
	for i, p := range f.pred {
		pred[i] = float32(p)
	}
	for i, q := range f.prob {
		prob[i] = float32(q) / 255
	}
	return w, pred, prob
}

// rewindPositions are the scrubber's steps: a fixed range, so that no
// order of its attributes can clamp the knob (see sliderScale), mapped to
// the frames.
const rewindPositions = 1000

// rewindTo shows frame i; the last frame is the live run. A running
// run pauses: the views show the past, and Play resumes from the end.
func (c *GraphLab) rewindTo(i int) {
	n := len(c.rw.frames)
	if i < 0 || i >= n {
		return
	}
	if i == n-1 {
		c.goLive()
		return
	}
	if c.running {
		c.rw.pausing = true
		c.send(protocol.OpPause)
	}
	if !c.rw.rewound() {
		c.rw.live.snap, c.rw.live.w, c.rw.live.pred, c.rw.live.prob = c.snap, c.weights, c.pred, c.prob
	}
	c.rw.past = i + 1
	f := c.rw.frames[i]
	c.snap = f.snap
	c.weights, c.pred, c.prob = f.arrays()
	c.redrawCharts()
	c.redrawGraph()
}

// goLive returns the views to the run as it is now.
func (c *GraphLab) goLive() {
	if !c.rw.rewound() {
		return
	}
	c.rw.past = 0
	c.snap, c.weights, c.pred, c.prob = c.rw.live.snap, c.rw.live.w, c.rw.live.pred, c.rw.live.prob
	c.redrawCharts()
	c.redrawGraph()
}

// keepRewound takes a snapshot that arrives while the views show the
// past: the pause a rewind asked for keeps them there, and becomes what
// Play returns to; anything else (a step, a reset) returns them to the
// run. It reports whether the views stay in the past.
func (c *GraphLab) keepRewound(s protocol.Snapshot, w, pred, prob []float32) bool {
	if !c.rw.rewound() || s.Running || !c.rw.pausing {
		return false
	}
	c.rw.pausing = false
	c.running = false
	c.rw.live.snap, c.rw.live.w, c.rw.live.pred, c.rw.live.prob = s, w, pred, prob
	return true
}

// renderRewind is the scrubber over the epochs trained so far.
func (c *GraphLab) renderRewind() app.UI {
	n := len(c.rw.frames)
	if n < 2 {
		return app.Div().ID("rewind").Class("rewind idle")
	}
	i := n - 1
	if c.rw.rewound() {
		i = c.rw.past - 1
	}
	pos := int(math.Round(float64(i) / float64(n-1) * rewindPositions))
	last := c.rw.frames[n-1].snap.Epoch
	if c.rw.rewound() {
		last = c.rw.live.snap.Epoch
	}
	label := "Live"
	if c.rw.rewound() {
		label = fmt.Sprintf("Showing epoch %d of %d · Play resumes from %d", c.snap.Epoch, last, last)
	}
	return app.Div().ID("rewind").Class("rewind").Body(
		app.Label().For("rewind-slider").Text("Rewind"),
		app.Input().Type("range").ID("rewind-slider").Min(0).Max(rewindPositions).Step(1).Value(strconv.Itoa(pos)).
			Aria("valuetext", fmt.Sprintf("epoch %d", c.snap.Epoch)).
			OnInput(func(ctx app.Context, e app.Event) {
				p, _ := strconv.Atoi(ctx.JSSrc().Get("value").String())
				if m := len(c.rw.frames); m > 1 {
					c.rewindTo(int(math.Round(float64(p) / rewindPositions * float64(m-1))))
				}
			}),
		app.Span().Class("rewind-label").Body(
			app.Span().DataSet("metric", "rewind-epoch").DataSet("value", strconv.Itoa(c.snap.Epoch)).Text(label)),
		app.Span().Class("note").Body(
			app.Text(fmt.Sprintf("%d snapshots kept in ", n)),
			app.Span().DataSet("metric", "rewind-bytes").DataSet("value", strconv.Itoa(c.rw.bytes)).Text(fmt.Sprintf("%.1f kB", float64(c.rw.bytes)/1000)),
		),
	)
}
