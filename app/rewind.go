package app

import (
	"math"

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

// rewind holds the frames of a run so far and which one its views show.
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

// keep adds a snapshot as a frame and reports whether the views stay in
// the past: the pause a rewind asked for keeps them there, and becomes
// what Play returns to; anything else (a step, a reset) returns them to
// the run.
func (r *rewind) keep(s protocol.Snapshot, w, pred, prob []float32) bool {
	r.add(s, w, pred, prob)
	if r.rewound() && !s.Running && r.pausing {
		r.pausing = false
		r.live.snap, r.live.w, r.live.pred, r.live.prob = s, w, pred, prob
		return true
	}
	r.past, r.pausing = 0, false
	return false
}

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

// rewindTo shows frame i of the run; the last frame is the run as it is.
// It reports whether the run trains, which the caller then pauses: the
// views show the past, and Play resumes from the end.
func (r *run) rewindTo(i int) (pause bool) {
	f := r.frames
	if f == nil || i < 0 || i >= len(f.frames) {
		return false
	}
	if i == len(f.frames)-1 {
		r.goLive()
		return false
	}
	if r.running {
		pause, f.pausing = true, true
	}
	if !f.rewound() {
		f.live.snap, f.live.w, f.live.pred, f.live.prob = r.snap, r.weights, r.pred, r.prob
	}
	f.past = i + 1
	r.snap = f.frames[i].snap
	r.weights, r.pred, r.prob = f.frames[i].arrays()
	return pause
}

// goLive returns the views to the run as it is now; it reports whether
// they showed the past.
func (r *run) goLive() bool {
	f := r.frames
	if f == nil || !f.rewound() {
		return false
	}
	f.past = 0
	r.snap, r.weights, r.pred, r.prob = f.live.snap, f.live.w, f.live.pred, f.live.prob
	return true
}
