package e2e

import (
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Cora trains live in the graph lab from its permalink, offline too: the
// worker reads the copy shipped inside it, with sparse features and the
// tie-strength scores, and PDN classifies most test nodes.
func TestCoraInTheBrowser(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	open(t, ctx, srv, "#graph=cora&epochs=100")
	waitFor(t, ctx, "Cora's layout", graphDrawn, 90*time.Second)
	waitFor(t, ctx, "the service worker", swReady, 30*time.Second)
	waitFor(t, ctx, "the offline cache", cacheFilled, 30*time.Second)
	srv.cut()
	must(t, chromedp.Do(ctx, chromedp.Navigate(srv.url+"#graph=cora&epochs=100&seed=2"), chromedp.Reload()), "open Cora offline")
	waitFor(t, ctx, "Cora's layout offline", graphDrawn, 90*time.Second)
	must(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#play"))), "play")
	waitFor(t, ctx, "100 epochs on Cora", `parseInt(document.querySelector("#epoch").textContent) >= 100 && document.querySelector("#play").textContent.includes("Play")`, 2*time.Minute)
	screenshot(t, ctx, "30-cora")
	read := func(name string) string {
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](metricOf(name)))
		must(t, err, "read "+name)
		return v
	}
	acc, rate, nodes := read("test-accuracy"), read("epochs-per-second"), read("nodes-drawn")
	a, _ := strconv.ParseFloat(acc, 64)
	r, _ := strconv.ParseFloat(rate, 64)
	t.Logf("PDN on Cora in the browser, offline: test accuracy %.3f, %.1f epochs/s, %s nodes drawn", a, r, nodes)
	if a < 0.75 {
		t.Errorf("test accuracy %.3f on Cora after 100 epochs, want ≥ 0.75", a)
	}
	if nodes != "2708" {
		t.Errorf("%s nodes drawn, want Cora's 2708", nodes)
	}
}
