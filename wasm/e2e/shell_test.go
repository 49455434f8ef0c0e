//go:build !js

package e2e

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"pdnexplorer/experiment"
)

// listenerCount is how many keydown and hashchange listeners the page has.
type listenerCount struct {
	Keydown    int `json:"keydown"`
	Hashchange int `json:"hashchange"`
}

func countListeners(t testing.TB, ctx context.Context) listenerCount {
	t.Helper()
	n, err := chromedp.Run(ctx, chromedp.Evaluate[listenerCount](listeners))
	must(t, err, "count the listeners")
	return n
}

// The shell alone hears the keyboard and the address: the whole page has
// one keydown and one hashchange listener in every lab, through a tour and
// projector mode, and the keys still drive the lab on view.
func TestOneListenerForKeysAndAddress(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	open(t, ctx, srv, "#per-class=64&epochs=5")
	want := listenerCount{Keydown: 1, Hashchange: 1}
	for _, l := range experiment.Labs {
		click(t, ctx, "#lab-"+l.Name, "open the "+l.Name+" lab")
		waitFor(t, ctx, "the "+l.Name+" lab", `document.querySelector("#lab-`+l.Name+`[aria-current=page]") !== null && document.querySelector('.lab #play') !== null`)
		if got := countListeners(t, ctx); got != want {
			t.Errorf("in the %s lab: %+v listeners, want %+v", l.Name, got, want)
		}
	}
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { location.hash = "#per-class=64&epochs=5&tour=graph&step=1"; return true; })()`))
	must(t, err, "start a tour")
	waitFor(t, ctx, "the tour", `document.querySelector("#tour:not(.idle)") !== null`)
	key(t, ctx, "p")
	waitFor(t, ctx, "projector mode", `document.querySelector(".explorer.present") !== null`)
	key(t, ctx, "n")
	waitFor(t, ctx, "the tour's next step", `location.hash.includes("step=2")`)
	if got := countListeners(t, ctx); got != want {
		t.Errorf("after projector mode and a tour step: %+v listeners, want %+v", got, want)
	}
	waitFor(t, ctx, "the graph lab's engine", engineReady)
	key(t, ctx, "s")
	waitFor(t, ctx, "a step by key", `document.querySelector("#epoch").textContent.startsWith("1 /")`)
}

// After a pause the page shows the epoch the model stopped at, so one step
// shows exactly one epoch more; and every one of a quick run of steps is
// an epoch. At the paper's default size an epoch takes a few milliseconds,
// so a pause often lands inside one.
func TestPauseThenStepShowsTheModel(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	open(t, ctx, srv, "#epochs=100000")
	waitFor(t, ctx, "the layout", graphDrawn)
	shown := func() int {
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`+document.querySelector("#epoch").dataset.value`))
		must(t, err, "read the epoch")
		return n
	}
	idle := `document.querySelector("#play").textContent.includes("Play")`
	for try := 1; try <= 7; try++ {
		key(t, ctx, " ")
		waitFor(t, ctx, "training", `document.querySelector("#play").textContent.includes("Pause")`)
		time.Sleep(time.Duration(150+37*try) * time.Millisecond)
		key(t, ctx, " ")
		waitFor(t, ctx, "the pause", idle)
		paused := steady(t, ctx, shown)
		key(t, ctx, "s")
		waitFor(t, ctx, "the step", fmt.Sprintf(`+document.querySelector("#epoch").dataset.value > %d`, paused))
		if stepped := steady(t, ctx, shown); stepped != paused+1 {
			t.Errorf("try %d: paused at %d, one step shows %d", try, paused, stepped)
		}
	}
	before := shown()
	for range 5 {
		key(t, ctx, "s")
	}
	waitFor(t, ctx, "five steps", fmt.Sprintf(`+document.querySelector("#epoch").dataset.value >= %d`, before+5))
	if after := steady(t, ctx, shown); after != before+5 {
		t.Errorf("five quick steps from %d show %d", before, after)
	}
}
