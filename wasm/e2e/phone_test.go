package e2e

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"pdnexplorer/experiment"
)

// No lab is wider than a phone (390 px): a long formula or a wide table
// scrolls within itself, and the controls' grid shrinks to the screen.
func TestNoLabOverflowsAPhone(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile)), "a phone's screen")
	for _, l := range experiment.Labs {
		open(t, ctx, srv, "#lab="+l.Name)
		waitFor(t, ctx, l.Name+" drawn", `document.querySelector(".lab canvas, .lab svg") !== null`, 60*time.Second)
		w, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth`))
		must(t, err, "read the page's width")
		if w > 390 {
			wide, _ := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("*")].filter((e) => e.getBoundingClientRect().right > 391).slice(0, 5).map((e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + " " + Math.round(e.getBoundingClientRect().width) + " px")`))
			t.Errorf("the %s lab is %d px wide on a 390 px phone: %v", l.Name, w, wide)
		}
	}
}
