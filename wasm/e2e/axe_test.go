package e2e

import (
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"pdnexplorer/experiment"
)

// axeResult is what the audit reports of one page.
type axeResult struct {
	Passes     int      `json:"passes"`
	Violations []string `json:"violations"` // serious and critical only
}

// Every lab of the table, and projector mode, passes axe-core's audit with no serious
// or critical violation. make test-e2e installs axe-core (PDN_AXE); it is
// injected through the DevTools protocol, which the page's
// Content-Security-Policy does not govern.
func TestAccessibility(t *testing.T) {
	path := os.Getenv("PDN_AXE")
	if path == "" {
		t.Skip("PDN_AXE names axe-core's axe.min.js; make test-e2e installs it")
	}
	src, err := os.ReadFile(path)
	must(t, err, "read axe-core")
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	var links []string
	for _, l := range experiment.Labs { // every lab, as it opens
		links = append(links, "#lab="+l.Name+"&per-class=64")
	}
	links = append(links, "#per-class=64&present=1", "#data=cora&per-class=64",
		"#lab=compare&per-class=64&tour=paper&step=2", "#per-class=64&epochs=20&train",
		"#per-class=64&embed=1", "#lab=compare&per-class=64&embed=1", "#per-class=64&lang=ar", "#lab=xor&per-class=64&lang=ar",
		"#lab=degree&per-class=64&lang=zh", "phone#per-class=64", "phone#lab=compare&per-class=64", "phone#lab=sweep&per-class=64")
	for _, link := range links {
		if rest, ok := strings.CutPrefix(link, "phone"); ok { // at 390 px, touch
			must(t, chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch)), "a phone's screen")
			link = rest
		}
		open(t, ctx, srv, strings.TrimSuffix(link, "&train"))
		waitFor(t, ctx, "the first snapshot", `[...document.querySelectorAll('[data-metric="epoch"]')].every((e) => e.dataset.value !== "NaN")`)
		if strings.HasSuffix(link, "&train") { // the rewind scrubber shows
			key(t, ctx, " ")
			waitFor(t, ctx, "20 epochs", `document.querySelector("#rewind:not(.idle)") !== null && document.querySelector("#epoch").textContent.startsWith("20 /")`)
		}
		atRest(t, ctx) // the figures' first draw
		_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](string(src)+";true"))
		must(t, err, "inject axe-core")
		res, err := chromedp.Run(ctx, chromedp.Evaluate[axeResult](`axe.run(document).then((r) => ({
  passes: r.passes.length,
  violations: r.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => v.impact + " " + v.id + ": " + v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")),
}))`, chromedp.EvalAwaitPromise))
		must(t, err, "run axe-core")
		t.Logf("%s: %d rules pass, %d serious or critical violations", link, res.Passes, len(res.Violations))
		if res.Passes < 10 {
			t.Errorf("%s: only %d rules passed: did the audit run?", link, res.Passes)
		}
		for _, v := range res.Violations {
			t.Errorf("%s: %s", link, v)
		}
	}
}
