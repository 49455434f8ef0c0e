package e2e

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Projector mode from its permalink at 1280×720: the controls fold away,
// the figures and numbers grow, the keys still work, and P leaves it.
func TestProjectorMode(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	_, err := chromedp.Run(ctx, chromedp.EmulateViewport(1280, 720))
	must(t, err, "a 1280×720 screen")
	open(t, ctx, srv, "#present=1")
	waitFor(t, ctx, "the layout", graphDrawn, 90*time.Second)
	type look struct {
		Present       bool    `json:"present"`
		ControlsShown bool    `json:"controlsShown"`
		StatPx        float64 `json:"statPx"`
		GraphPx       float64 `json:"graphPx"`
	}
	read := func() look {
		v, err := chromedp.Run(ctx, chromedp.Evaluate[look](`(() => ({
  present: document.querySelector(".explorer.present") !== null,
  controlsShown: document.querySelector("aside.controls").offsetParent !== null,
  statPx: parseFloat(getComputedStyle(document.querySelector("#test-acc")).fontSize),
  graphPx: document.querySelector("#graph-edges").getBoundingClientRect().width,
}))()`))
		must(t, err, "read the page")
		return v
	}
	on := read()
	t.Logf("projector mode at 1280×720: headline numbers %.0f px, graph %.0f px wide, controls shown %v", on.StatPx, on.GraphPx, on.ControlsShown)
	if !on.Present || on.ControlsShown || on.StatPx < 32 || on.GraphPx < 500 {
		t.Errorf("projector mode: %+v", on)
	}
	key(t, ctx, " ")
	waitFor(t, ctx, "training by key in projector mode", `parseInt(document.querySelector("#epoch").textContent) >= 3`, 60*time.Second)
	key(t, ctx, " ")
	screenshot(t, ctx, "40-projector")
	key(t, ctx, "p")
	waitFor(t, ctx, "P leaves projector mode", `document.querySelector(".explorer.present") === null && !location.hash.includes("present=1")`, 10*time.Second)
	if off := read(); !off.ControlsShown || off.StatPx >= on.StatPx {
		t.Errorf("out of projector mode: %+v", off)
	}
}
