package app

import (
	"math"
	"strings"
	"testing"

	"pdnexplorer/wasm/protocol"
)

// The scrubber shows an earlier epoch's weights, numbers and curves; a
// running run pauses, its pause keeps the past on view, and Play returns
// to the end.
func TestRewind(t *testing.T) {
	c, f, d := mount(t)
	tiny(f, d)
	do(d, c, func() {
		snapshot(f, 1, true, 0.5, 0.5, 0.5)
		snapshot(f, 2, true, 0.9, 0.1, 0.2)
		snapshot(f, 3, true, 1, 0, 0.25)
	})
	r := c.one()
	if len(r.frames.frames) != 3 || r.frames.rewound() {
		t.Fatalf("%d frames, rewound %v", len(r.frames.frames), r.frames.rewound())
	}
	do(d, c, func() { c.rewindTo(1) })
	if r.snap.Epoch != 2 || math.Abs(float64(r.weights[1])-0.1) > 0.002 || f.sent[len(f.sent)-1].Op != protocol.OpPause {
		t.Fatalf("rewound to epoch %d, weights %v, last command %s", r.snap.Epoch, r.weights, f.sent[len(f.sent)-1].Op)
	}
	h := html(c)
	if metricValue(h, "rewind-epoch") != "2" || metricValue(h, "epoch") != "2" || !strings.Contains(h, "Showing epoch 2 of 3") {
		t.Errorf("rewound page shows epoch %q (scrubber %q)", metricValue(h, "epoch"), metricValue(h, "rewind-epoch"))
	}
	do(d, c, func() { snapshot(f, 4, false, 1, 0, 0) }) // the pause's snapshot
	if r.snap.Epoch != 2 || !r.frames.rewound() || r.frames.live.snap.Epoch != 4 {
		t.Fatalf("after the pause: showing %d, live %d", r.snap.Epoch, r.frames.live.snap.Epoch)
	}
	if !strings.Contains(html(c), "Play resumes from 4") {
		t.Error("the scrubber does not say where Play resumes")
	}
	do(d, c, func() { c.do(cmdPlay) })
	if r.frames.rewound() || r.snap.Epoch != 4 || f.sent[len(f.sent)-1].Op != protocol.OpStart {
		t.Errorf("play: rewound %v, epoch %d, sent %s", r.frames.rewound(), r.snap.Epoch, f.sent[len(f.sent)-1].Op)
	}
	do(d, c, func() { c.rewindTo(0); snapshot(f, 5, false, 1, 0, 0) }) // a step, not a pause
	if r.frames.rewound() || r.snap.Epoch != 5 {
		t.Errorf("a step while rewound shows epoch %d", r.snap.Epoch)
	}
	do(d, c, func() { snapshot(f, 0, false, 0.5, 0.5, 0.5) }) // a reset
	if len(r.frames.frames) != 1 {
		t.Errorf("after a reset, %d frames", len(r.frames.frames))
	}
}

// A frame's weights come back within half a level of their range.
func TestFrameQuantisation(t *testing.T) {
	var r rewind
	w := []float32{0, 0.001, 0.3333, 0.5, 0.9999, 1}
	r.add(protocol.Snapshot{Epoch: 1}, w, []float32{0, 5, 999, 1, 2, 3}, []float32{0.1, 0.2, 0.3, 0.4, 0.5, 1})
	back, pred, prob := r.frames[0].arrays()
	for i := range w {
		if math.Abs(float64(back[i]-w[i])) > 1.0/510+1e-6 || math.Abs(float64(prob[i])-[]float64{0.1, 0.2, 0.3, 0.4, 0.5, 1}[i]) > 1.0/510+1e-6 {
			t.Errorf("%d: weight %v → %v, prob → %v", i, w[i], back[i], prob[i])
		}
	}
	if pred[2] != 999 {
		t.Errorf("class 999 came back as %v", pred[2])
	}
	r.add(protocol.Snapshot{Epoch: 1}, w, nil, nil) // the same epoch replaces
	if len(r.frames) != 1 {
		t.Errorf("%d frames after the same epoch twice", len(r.frames))
	}
}

// Audit case 193: an edit made while the views are rewound returns them to
// the live run on the edited graph: the engine's edited graph drops the
// frames of the graph before, and its snapshot, of the epoch the run had
// reached, is shown.
func TestEditWhileRewoundGoesLive(t *testing.T) {
	c, f, d := mount(t)
	tiny(f, d)
	do(d, c, func() {
		snapshot(f, 1, true, 0.5, 0.5, 0.5)
		snapshot(f, 2, true, 0.9, 0.1, 0.2)
		snapshot(f, 3, false, 1, 0, 0.25)
	})
	r := c.one()
	do(d, c, func() { c.rewindTo(0) })
	if !r.frames.rewound() || r.snap.Epoch != 1 {
		t.Fatalf("not rewound: epoch %d", r.snap.Epoch)
	}
	do(d, c, func() {
		f.play(protocol.Event{Kind: protocol.KindGraph, Gen: 2, Graph: &protocol.Graph{
			Nodes: 4, Src: []int32{0, 1, 0, 0}, Dst: []int32{1, 2, 3, 2}, Labels: []int{0, 0, 1, 1}, Test: []bool{false, false, true, false}, Edited: true, State: "edits=a0-2"}}, nil)
		f32 := []float32{1, 0, 0.25, 0.5, 0, 0, 0, 0, 0.75, 0.75, 0.75, 0.75}
		f.play(protocol.Event{Kind: protocol.KindSnapshot, Gen: 2, Snap: &protocol.Snapshot{Epoch: 3, Epochs: 200, Model: "pdn", Weights: 4, Nodes: 4}}, f32)
	})
	if r.frames.rewound() || r.snap.Epoch != 3 || len(r.weights) != 4 {
		t.Errorf("after the edit: rewound %v, showing epoch %d with %d weights", r.frames.rewound(), r.snap.Epoch, len(r.weights))
	}
	if h := html(c); strings.Contains(h, "Showing epoch 1") {
		t.Error("the scrubber still shows the epoch of the graph before the edit")
	}
}
