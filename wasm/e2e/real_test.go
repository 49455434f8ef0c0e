package e2e

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/lessons"
	"pdnexplorer/pdn"
)

// Cora trains live in the graph lab from its permalink, offline too: the
// worker fetches the copy the site ships beside it (the service worker
// keeps it), with sparse features and the tie-strength scores, and PDN
// classifies most test nodes.
func TestCoraInTheBrowser(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	open(t, ctx, srv, "#data=cora&epochs=100")
	waitFor(t, ctx, "Cora's layout", graphDrawn)
	waitFor(t, ctx, "the service worker", swReady)
	waitFor(t, ctx, "the offline cache", cacheFilled)
	srv.cut()
	must(t, chromedp.Do(ctx, chromedp.Navigate(srv.url+"#data=cora&epochs=100&seed=2"), chromedp.Reload()), "open Cora offline")
	waitFor(t, ctx, "Cora's layout offline", graphDrawn)
	click(t, ctx, "#play", "play")
	waitFor(t, ctx, "100 epochs on Cora", `parseInt(document.querySelector("#epoch").textContent) >= 100 && document.querySelector("#play").textContent.includes("Play")`)
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

// The attention lab trains the linear and the multi-scale PDN on Cora from
// its permalink: the attention over the 11 named scores, and the weights of
// the hops, each a distribution, read through data-metric.
func TestAttentionLab(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	open(t, ctx, srv, "#lab=attention&epochs=60")
	waitFor(t, ctx, "the two runs", runsShown(2))
	click(t, ctx, "#play", "train both")
	waitFor(t, ctx, "both runs to finish", `[...document.querySelectorAll('.toolbar [data-metric="epoch"][data-run]')].every((e) => +e.dataset.value === 60) && document.querySelector("#play").textContent.includes("Train all")`)
	atRest(t, ctx) // the last redraw
	screenshot(t, ctx, "31-attention")
	att, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]float64](`Object.fromEntries([...document.querySelectorAll('[data-run="linear"][data-metric^="attention-"]')].map((e) => [e.dataset.metric.slice(10), +e.dataset.value]))`))
	must(t, err, "read the attention")
	hops, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`[...document.querySelectorAll('[data-run="multiscale"][data-metric^="hop-"]')].map((e) => +e.dataset.value)`))
	must(t, err, "read the hop weights")
	t.Logf("attention after 60 epochs on Cora: %v; hop weights %v", att, hops)
	sum := 0.0
	for _, a := range att {
		sum += a
	}
	if len(att) != 11 || math.Abs(sum-1) > 0.01 || att["degree-product"] == 0 {
		t.Errorf("attention over %d named scores sums to %.3f: %v", len(att), sum, att)
	}
	// The worker feeds the pathfinder the scores the CLI does, scaled in
	// the one place (datasets.TieStrength): its attention is the engine's
	// natively on the same state.
	for name, want := range nativeAttention(t, "lab=attention&epochs=60") {
		if math.Abs(att[name]-want) > 1e-6 {
			t.Errorf("attention to %s: %.6f in the page, %.6f natively", name, att[name], want)
		}
	}
	// The numbers beneath the bars: the most attended first, the scores
	// Figure 8's text names beside what it says of them.
	order, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`[...document.querySelectorAll('#attention [data-run="linear"][data-metric^="attention-"]')].map((e) => +e.dataset.value)`))
	must(t, err, "read the attention's order")
	text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('#attention p.drawn').textContent`))
	must(t, err, "read the attention's numbers")
	if !slices.IsSortedFunc(order, func(a, b float64) int { return cmp.Compare(b, a) }) || strings.Count(text, "(the paper: low)") != 2 || strings.Count(text, "(the paper: high)") != 2 {
		t.Errorf("the attention's numbers are not ranked, or lack the paper's words: %v, %q", order, text)
	}
	sum = 0
	for _, h := range hops {
		sum += h
	}
	if len(hops) != 5 || math.Abs(sum-1) > 0.01 {
		t.Errorf("hop weights %v sum to %.3f", hops, sum)
	}
}

// nativeAttention is the linear PDN's attention per input, trained natively
// on the state link decodes to, as pdn attention and pdn claims train it.
func nativeAttention(t *testing.T, link string) map[string]float64 {
	t.Helper()
	e, err := experiment.Decode(link)
	must(t, err, "decode "+link)
	for _, r := range experiment.RunsOf(e) {
		if r.Name != "linear" {
			continue
		}
		g, err := datasets.Build(r.Exp.Data)
		must(t, err, "build the graph")
		tr, err := pdn.NewTrainer(g, r.Exp)
		must(t, err, "the trainer")
		must(t, lessons.Train(tr, math.MaxInt, nil), "train")
		out := map[string]float64{}
		for i, a := range tr.Evaluate().Inputs {
			out[g.InputNames()[i]] = a
		}
		return out
	}
	t.Fatalf("%s makes no linear run", link)
	return nil
}
