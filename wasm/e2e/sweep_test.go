package e2e

import (
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"pdnexplorer/experiment"
)

// sweepLink is the sweep the acceptance names: scenario 4 (Q), PDN and
// GCN, two graphs a value.
const sweepLink = "#lab=sweep&scenario=4&models=pdn,gcn&reps=2"

// cliSweep runs pdn sweep on the same sweep and returns its CSV's rows
// by value/rep/model, as the run names of experiment.Sweep.Runs.
func cliSweep(t *testing.T, done chan<- map[string]string) {
	dir := t.TempDir()
	cmd := pdnCommand("sweep", "-scenario", "4", "-reps", "2", "-models", "pdn,gcn", "-out", dir)
	out, err := cmd.CombinedOutput()
	rows := map[string]string{}
	if err != nil {
		t.Errorf("pdn sweep: %v\n%s", err, out)
		done <- rows
		return
	}
	f, err := os.Open(filepath.Join(dir, "scenario4.csv"))
	if err == nil {
		var all [][]string
		all, err = csv.NewReader(f).ReadAll()
		f.Close()
		for _, r := range all[1:] {
			rows[r[2]+"/"+r[4]+"/"+r[3]] = r[5]
		}
	}
	if err != nil {
		t.Errorf("the CLI's CSV: %v", err)
	}
	done <- rows
}

// The sweep lab trains scenario 4 (PDN and GCN, two graphs a value) on a
// pool of workers and gets, run for run, the CLI's test accuracies for
// the same seeds; the figure's means are the CLI's, PDN above GCN where
// the CLI has it so; the finished sweep stays in its link, and a reload
// shows it without training.
func TestSweepLabIsTheCLIsSweep(t *testing.T) {
	cli := make(chan map[string]string, 1)
	go cliSweep(t, cli)
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	open(t, ctx, srv, sweepLink)
	waitFor(t, ctx, "the sweep lab", `document.querySelector('[data-metric="sweep-total"]') !== null`)
	start := time.Now()
	key(t, ctx, " ")
	waitFor(t, ctx, "half the runs", `+document.querySelector('[data-metric="sweep-done"]').dataset.value >= 14`)
	screenshot(t, ctx, "30-sweep-half")
	waitFor(t, ctx, "every run", `+document.querySelector('[data-metric="sweep-done"]').dataset.value === 28`)
	t.Logf("the sweep's 28 runs trained in %v", time.Since(start).Round(100*time.Millisecond))
	screenshot(t, ctx, "31-sweep-done")

	hash, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.hash`))
	must(t, err, "read the link")
	e, err := experiment.Decode(strings.TrimPrefix(hash, "#"))
	must(t, err, "decode the link")
	sw, err := experiment.SweepOf(e)
	must(t, err, "the link's sweep")
	res, err := sw.Results(e.View.Results)
	must(t, err, "the link's results")
	want := <-cli
	runs, _ := sw.Runs()
	for i, row := range sw.CSV(res)[1:] {
		if got := want[row[2]+"/"+row[4]+"/"+row[3]]; got != row[5] {
			t.Errorf("run %s: the page %s, the CLI %s", runs[i].Name, row[5], got)
		}
	}
	// The points: each model's mean at each value, PDN above GCN where the
	// CLI's means are.
	points := pointsShown(t, ctx)
	for v, x := range sw.Scenario.Values {
		at := strconv.FormatFloat(x, 'g', -1, 64)
		cliMean := func(kind string) float64 {
			a, _ := strconv.ParseFloat(want[at+"/1/"+kind], 64)
			b, _ := strconv.ParseFloat(want[at+"/2/"+kind], 64)
			return (a + b) / 2
		}
		for _, k := range sw.Models {
			if got := points[k+"@"+at]; fmt.Sprintf("%.4f", got) != fmt.Sprintf("%.4f", cliMean(k)) {
				t.Errorf("%s at %s: the figure %v, the CLI's mean %.4f", k, at, got, cliMean(k))
			}
		}
		if cliMean("pdn") > cliMean("gcn") && !(points["pdn@"+at] > points["gcn@"+at]) {
			t.Errorf("at q = %s the CLI has PDN above GCN, the page does not (value %d)", at, v)
		}
	}
	// A reload of the link shows the finished sweep without training.
	open(t, ctx, srv, hash)
	waitFor(t, ctx, "the sweep from its link", `+document.querySelector('[data-metric="sweep-done"]').dataset.value === 28 && document.querySelectorAll('circle[data-metric="sweep-accuracy"]').length === 14`)
}

// pointsShown reads the figure's points as model@x → mean.
func pointsShown(t *testing.T, ctx context.Context) map[string]float64 {
	t.Helper()
	return numbersShown(t, ctx, `[...document.querySelectorAll('circle[data-metric="sweep-accuracy"]')].map((e) => [e.dataset.run + "@" + e.dataset.x, e.dataset.value])`)
}

// numbersShown evaluates js, a list of [key, number] pairs the page shows,
// as key → number.
func numbersShown(t *testing.T, ctx context.Context, js string) map[string]float64 {
	t.Helper()
	pairs, err := chromedp.Run(ctx, chromedp.Evaluate[[][]string](js))
	must(t, err, "read "+js)
	out := map[string]float64{}
	for _, p := range pairs {
		out[p[0]] = parseNum(t, p[1])
	}
	return out
}

// A sweep of many minutes says how long before it starts, and waits for a
// second press; its time left is the engine's estimate; results that came
// with a link are marked as such, with a way to train them here.
func TestSweepSaysWhatItCostsAndWhereResultsCameFrom(t *testing.T) {
	srv := serve(t, distDir(t), "/")
	ctx := browser(t)
	open(t, ctx, srv, "#lab=sweep&scenario=2&reps=10&models=pdn,gat,deepwalk,clustergcn")
	waitFor(t, ctx, "the estimate", `document.querySelector("#sweep-left").textContent.includes("estimate")`)
	left := text(t, ctx, "#sweep-left")
	key(t, ctx, " ")
	waitFor(t, ctx, "the warning", `document.querySelector(".notices").textContent.includes("This sweep will take about")`)
	if done := text(t, ctx, `[data-metric="sweep-done"]`); done != "0" {
		t.Errorf("a long sweep started at the first press: %s runs done", done)
	}
	t.Logf("280 runs: time left %q before it starts", left)
	screenshot(t, ctx, "32-sweep-long-warning")

	link := "#lab=sweep&scenario=4&models=pdn,gcn&reps=1&results=" + strings.TrimSuffix(strings.Repeat("10000.", 14), ".")
	open(t, ctx, srv, link)
	waitFor(t, ctx, "the link's results marked", `document.querySelector("#from-link") !== null &&
  document.querySelector("#from-link").textContent.includes("14 of these results came with the link")`)
	scrollTo(t, ctx, "#from-link")
	screenshot(t, ctx, "33-sweep-results-from-link")
	click(t, ctx, "#train-here", "train them here")
	waitFor(t, ctx, "trained here", `+document.querySelector('[data-metric="sweep-done"]').dataset.value === 14 && document.querySelector("#from-link") === null`)
}
