package app

import (
	"math"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/internal/numtext"
	"pdnexplorer/wasm/protocol"
)

// rewindPositions are the scrubber's steps: a fixed range within a range
// input's defaults, so that no order of its attributes can clamp the knob
// (see sliderSteps), mapped to the frames.
const rewindPositions = sliderSteps

// rewindTo shows frame i of the run in every view; a running run pauses,
// and Play resumes from the end.
func (c *GraphLab) rewindTo(i int) {
	r := c.one()
	if r.rewindTo(i) {
		r.engine.Send(protocol.Command{Op: protocol.OpPause})
	}
	c.redrawCharts()
	c.redrawGraph()
}

// renderRewind is the scrubber over the epochs trained so far.
func (c *GraphLab) renderRewind() app.UI {
	r := c.one()
	f := r.frames
	if f == nil || len(f.frames) < 2 {
		// The same row, idle: it keeps its height, so nothing jumps when
		// training starts and the slider comes.
		return app.Div().ID("rewind").Class("rewind idle").Aria("hidden", "true").Body(
			app.Label().Text(tr("Rewind")), app.Input().Type("range").Disabled(true).TabIndex(-1))
	}
	n := len(f.frames)
	i, last := n-1, f.frames[n-1].snap.Epoch
	if f.rewound() {
		i, last = f.past-1, f.live.snap.Epoch
	}
	pos := int(math.Round(float64(i) / float64(n-1) * rewindPositions))
	label := tr("Live")
	if f.rewound() {
		label = trf("Showing epoch %d of %d · Play resumes from %d", r.snap.Epoch, last, last)
	}
	return app.Div().ID("rewind").Class("rewind").Body(
		app.Label().For("rewind-slider").Text(tr("Rewind")),
		positionSlider("rewind-slider", pos, rewindPositions).
			Aria("valuetext", trf("epoch %d", r.snap.Epoch)).
			OnInput(func(ctx app.Context, e app.Event) {
				p, _ := numtext.ParseInt(ctx.JSSrc().Get("value").String())
				if m := len(c.one().frames.frames); m > 1 {
					c.rewindTo(int(math.Round(float64(p) / rewindPositions * float64(m-1))))
				}
			}),
		app.Span().Class("rewind-label").Body(metric("rewind-epoch", "", float64(r.snap.Epoch), label)),
		app.Span().Class("note").Body(
			app.Text(trf("%d snapshots kept in ", n)),
			metric("rewind-bytes", "", float64(f.bytes), say(sizeText(f.bytes))),
		),
	)
}
