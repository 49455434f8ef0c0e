package e2e

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"

	"pdnexplorer/experiment"
)

// No lab is wider than its screen, a phone's (390 px) or a laptop's
// (1280 px): a long formula or a wide table scrolls within itself, the
// controls' grid shrinks to the screen, a figure to its column.
func TestNoLabOverflowsAPhone(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	for _, screen := range []struct {
		w, h   int64
		mobile bool
	}{{390, 844, true}, {1280, 800, false}} {
		opts := []chromedp.EmulateViewportOption{}
		if screen.mobile {
			opts = append(opts, chromedp.EmulateMobile)
		}
		must(t, chromedp.Do(ctx, chromedp.EmulateViewport(screen.w, screen.h, opts...)), "a screen")
		for _, l := range experiment.Labs {
			open(t, ctx, srv, "#lab="+l.Name)
			waitFor(t, ctx, l.Name+" drawn", labDrawn)
			w, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth`))
			must(t, err, "read the page's width")
			if int64(w) > screen.w {
				wide, _ := chromedp.Run(ctx, chromedp.Evaluate[[]string](fmt.Sprintf(`[...document.querySelectorAll("*")].filter((e) => e.getBoundingClientRect().right > %d).slice(0, 5).map((e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + " " + Math.round(e.getBoundingClientRect().width) + " px")`, screen.w+1)))
				t.Errorf("the %s lab is %d px wide on a %d px screen: %v", l.Name, w, screen.w, wide)
			}
		}
	}
}
