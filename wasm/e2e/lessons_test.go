package e2e

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"pdnexplorer/experiment"
)

// runMetrics reads a metric of every run of a lab, by data-run.
func runMetrics(t *testing.T, ctx context.Context, name string) map[string]float64 {
	t.Helper()
	return metricsBy(t, ctx, name, "run")
}

// metricsBy reads metric name by the data attribute key (run, model,
// layer): the first of each value, as a table shows it first.
func metricsBy(t *testing.T, ctx context.Context, name, key string) map[string]float64 {
	t.Helper()
	pairs, err := chromedp.Run(ctx, chromedp.Evaluate[[][]string](
		`[...document.querySelectorAll('[data-metric="`+name+`"][data-`+key+`]')].map((e) => [e.dataset.`+key+`, e.dataset.value])`))
	must(t, err, "read "+name)
	out := map[string]float64{}
	for _, p := range pairs {
		if _, seen := out[p[0]]; !seen {
			out[p[0]] = parseNum(t, p[1])
		}
	}
	return out
}

// runsShown holds when a lab shows n runs, each with a first snapshot.
func runsShown(n int) string {
	return fmt.Sprintf(`(() => { const e = [...document.querySelectorAll('.toolbar [data-metric="epoch"][data-run]')];
  return e.length === %d && e.every((x) => x.dataset.value !== "NaN"); })()`, n)
}

// allDone holds when every run of a lab has trained its epochs and none
// trains any more.
func allDone(runs, epochs int) string {
	return fmt.Sprintf(`(() => { const e = [...document.querySelectorAll('#runs-table [data-metric="epoch-final"], .toolbar [data-metric="epoch"][data-run]')].map((x) => +x.dataset.value);
  return e.length >= %d && e.every((v) => v === %d) && document.querySelector("#play").textContent.includes("Train all"); })()`, runs, epochs)
}

// The XOR lab reaches what `pdn xor` reaches, in the browser, from its
// permalink: PDN with 16 neurons classifies the nodes and weighs the
// one-layer edges at least three times the others; the linear PDN and GCN
// cannot.
func TestXORLab(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	open(t, ctx, srv, "#lab=xor")
	waitFor(t, ctx, "the four runs", `document.querySelectorAll('.toolbar [data-metric="epoch"][data-run]').length === 4 && document.querySelector('[data-run="pdn-16"] svg') !== null`)
	screenshot(t, ctx, "20-xor-before")
	start := time.Now()
	click(t, ctx, "#play", "train all")
	waitFor(t, ctx, "the four runs to finish", allDone(4, 200))
	t.Logf("the four models trained 200 epochs in %v", time.Since(start).Round(100*time.Millisecond))
	screenshot(t, ctx, "21-xor-after")
	must(t, chromedp.Do(ctx, chromedp.ScrollIntoView("#table3")), "scroll to Table 3")
	screenshot(t, ctx, "21-xor-table3")
	acc := runMetrics(t, ctx, "test-accuracy")
	a := map[string]map[string]float64{}
	for _, k := range []string{"00", "01", "10", "11"} {
		a[k] = runMetrics(t, ctx, "alpha-"+k)
	}
	for _, run := range []string{"pdn-16", "pdn-2", "pdn-linear", "gcn"} {
		t.Logf("%-10s test accuracy %.3f, α (0,0) %.3f (0,1) %.3f (1,0) %.3f (1,1) %.3f", run, acc[run], a["00"][run], a["01"][run], a["10"][run], a["11"][run])
	}
	if acc["pdn-16"] < 0.9 {
		t.Errorf("PDN-16 test accuracy %.3f, want ≥ 0.9", acc["pdn-16"])
	}
	if lo, hi := min(a["01"]["pdn-16"], a["10"]["pdn-16"]), max(a["00"]["pdn-16"], a["11"]["pdn-16"]); lo < 3*hi {
		t.Errorf("PDN-16 weighs one-layer edges %.3f, the others %.3f: not 3×", lo, hi)
	}
	for _, run := range []string{"pdn-linear", "gcn"} {
		if acc[run] > 0.75 {
			t.Errorf("%s test accuracy %.3f, want ≤ 0.75", run, acc[run])
		}
	}
	if found := runMetrics(t, ctx, "found-xor"); found["pdn-16"] != 1 {
		t.Errorf("found-xor says %v", found)
	}
	chosen := runMetrics(t, ctx, "pathfinder-01")
	if _, ok := chosen["pdn-2"]; !ok {
		t.Error("no Table 3 values for the 2-neuron pathfinder")
	}
	if got := text(t, ctx, "#restarts"); !strings.Contains(got, "kept") || !strings.Contains(got, "training loss") {
		t.Errorf("the restart remedy says %q", got)
	}
}

// The degree lab: GAT's mean weight falls with the receiving node's degree,
// as 1/degree; PDN's does not.
func TestDegreeLab(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	open(t, ctx, srv, "#lab=degree&epochs=100")
	waitFor(t, ctx, "the two runs", runsShown(2))
	// The knobs sit where the values are, whatever order the page set the
	// sliders' attributes in (dropout 0.5, edge-dropout 0.2).
	showControl(t, ctx, "dropout")
	knobs, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`["dropout", "edge-dropout"].map((n) => { const s = document.querySelector("#ctl-" + n + "-slider"); return s.value + "/" + s.max; })`))
	must(t, err, "read the sliders")
	var want []string
	for _, f := range []struct {
		name string
		v    float64
	}{{"dropout", 0.5}, {"edge-dropout", 0.2}} {
		p, _ := experiment.Lookup(f.name)
		want = append(want, fmt.Sprintf("%.0f/100", 100*(f.v-p.Min)/(p.Max-p.Min)))
	}
	if !slices.Equal(knobs, want) {
		t.Errorf("dropout and edge-dropout knobs at %v, want %v", knobs, want)
	}
	click(t, ctx, "#play", "train both")
	waitFor(t, ctx, "both runs to finish", allDone(2, 100))
	screenshot(t, ctx, "22-degree")
	lo, hi := runMetrics(t, ctx, "weight-lowest-degree"), runMetrics(t, ctx, "weight-highest-degree")
	acc := runMetrics(t, ctx, "test-accuracy")
	t.Logf("mean weight, lowest and highest degree bins: GAT %.3f → %.3f, PDN %.3f → %.3f; test accuracy GAT %.3f, PDN %.3f", lo["gat"], hi["gat"], lo["pdn"], hi["pdn"], acc["gat"], acc["pdn"])
	if hi["gat"] > lo["gat"]/4 {
		t.Errorf("GAT's weights do not shrink with degree: %.3f → %.3f", lo["gat"], hi["gat"])
	}
	if hi["pdn"] < lo["pdn"]/2 {
		t.Errorf("PDN's weights shrink with degree: %.3f → %.3f", lo["pdn"], hi["pdn"])
	}
}

// The compare lab trains its models at once, each in its own worker: both
// epoch counters advance within the same second.
func TestCompareLab(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	open(t, ctx, srv, "#lab=compare&models=pdn,gat&epochs=300")
	waitFor(t, ctx, "the two runs", runsShown(2))
	click(t, ctx, "#play", "train both")
	waitFor(t, ctx, "training under way", `[...document.querySelectorAll('.toolbar [data-metric="epoch"][data-run]')].every((e) => +e.dataset.value > 5)`)
	before := runMetrics(t, ctx, "epoch")
	waitFor(t, ctx, "both runs to advance together", fmt.Sprintf(`(() => { const e = Object.fromEntries([...document.querySelectorAll('.toolbar [data-metric="epoch"][data-run]')].map((e) => [e.dataset.run, +e.dataset.value]));
  return e.pdn > %v && e.gat > %v && e.pdn < 300 && e.gat < 300; })()`, before["pdn"], before["gat"]))
	after := runMetrics(t, ctx, "epoch")
	t.Logf("both advanced before either ended: pdn %v → %v, gat %v → %v", before["pdn"], after["pdn"], before["gat"], after["gat"])
	waitFor(t, ctx, "both runs to finish", allDone(2, 300))
	screenshot(t, ctx, "23-compare")
	acc, share := runMetrics(t, ctx, "test-accuracy-final"), runMetrics(t, ctx, "inter-share")
	t.Logf("test accuracy pdn %.3f, gat %.3f; inter-class share pdn %.3f", acc["pdn"], acc["gat"], share["pdn"])
	if acc["pdn"] < acc["gat"] {
		t.Errorf("on the paper's default graph PDN (%.3f) should beat GAT (%.3f)", acc["pdn"], acc["gat"])
	}
	// Each run has its own small view of the learned graph, painted, and
	// PDN's fades the inter-class edges there.
	waitFor(t, ctx, "a painted view per run", miniInk+` >= 2`)
	intra, inter := runMetrics(t, ctx, "intra-mean-weight"), runMetrics(t, ctx, "inter-mean-weight")
	t.Logf("mean weight drawn, intra / inter: pdn %.3f / %.3f, gat %.3f / %.3f", intra["pdn"], inter["pdn"], intra["gat"], inter["gat"])
	if !(inter["pdn"] < intra["pdn"]/3) {
		t.Errorf("PDN's view should draw inter-class edges far lighter than intra-class ones: %.3f vs %.3f", inter["pdn"], intra["pdn"])
	}
	// The models are in the URL; a change of models is one too.
	click(t, ctx, "#model-gcn", "add gcn")
	waitFor(t, ctx, "three runs", `document.querySelectorAll('.toolbar [data-metric="epoch"][data-run]').length === 3 && location.hash.includes("models=pdn%2Cgat%2Cgcn")`)
}

// miniInk counts the small learned-graph views with ink on them.
const miniInk = `[...document.querySelectorAll("canvas.mini-canvas")].filter((c) => {
  if (!c.width) return false;
  const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
  for (let i = 3; i < d.length; i += 4) if (d[i] > 0) return true;
  return false;
}).length`

// The labs of several runs work offline too: once the service worker
// holds the site, a permalink to one opens with the network cut, and every
// run trains to the end.
func TestLessonLabsOffline(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	open(t, ctx, srv, "#lab=xor&per-class=64")
	waitFor(t, ctx, "the service worker", swReady)
	waitFor(t, ctx, "the offline cache", cacheFilled)
	srv.cut()
	for _, tc := range []struct {
		link string
		runs int
	}{
		{"#lab=xor&per-class=64&epochs=30&restart-epochs=10", 4}, // each restart below the run (experiment.Conflicts)
		{"#lab=degree&per-class=64&epochs=30", 2},
		{"#lab=compare&models=pdn,gcn,mlp&per-class=64&epochs=30", 3},
		{"#lab=degree&per-class=64&epochs=30&lang=ar", 2}, // its catalogue from the cache
	} {
		link, runs := tc.link, tc.runs
		must(t, chromedp.Do(ctx, chromedp.Navigate(srv.url+link), chromedp.Reload()), "open "+link+" offline")
		waitFor(t, ctx, "the runs of "+link, runsShown(runs))
		click(t, ctx, "#play", "train offline")
		done := allDone(runs, 30)
		if strings.Contains(link, "lang=ar") { // Play's words are Arabic
			done = strings.Replace(done, "Train all", "تدريب الكل", 1)
		}
		waitFor(t, ctx, "offline training of "+link, done)
		if strings.Contains(link, "lang=ar") {
			waitFor(t, ctx, "Arabic offline", `document.documentElement.lang === "ar" && document.querySelector("#lab-degree").textContent.includes("أوزان GAT")`)
		}
	}
	screenshot(t, ctx, "24-offline-compare")
}
