package e2e

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// The multiplex lab trains what pdn multiplex trains, PDN over the
// layers, GCN over their union and over each layer alone, and says the
// same numbers: each run's test accuracy and PDN's weight on each layer,
// at data and weight seed 1. Its layer sliders set the layers row.
func TestMultiplexLabSaysWhatPdnMultiplexSays(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	done := make(chan *multiplexCLI, 1)
	go func() { done <- pdnMultiplex(t) }()
	open(t, ctx, srv, "#lab=multiplex")
	waitFor(t, ctx, "the six runs", runsShown(6))
	click(t, ctx, "#play", "train all")
	waitFor(t, ctx, "the six runs to finish", allDone(6, 200))
	atRest(t, ctx)
	screenshot(t, ctx, "multiplex-lab")
	acc := runMetrics(t, ctx, "test-accuracy-final")
	weights := metricsBy(t, ctx, "layer-weight", "layer")
	cli := <-done
	if cli == nil {
		t.FailNow()
	}
	for _, r := range cli.Runs {
		t.Logf("%s: the page %.4f, pdn multiplex %.4f", r.Name, acc[r.Name], r.Accuracy[0])
		if math.Abs(acc[r.Name]-r.Accuracy[0]) > 5e-5 {
			t.Errorf("%s: the page's test accuracy %v, pdn multiplex's %v", r.Name, acc[r.Name], r.Accuracy[0])
		}
	}
	for _, l := range cli.Layers {
		if math.Abs(weights[l.Name]-l.Weight[0]) > 5e-5 {
			t.Errorf("layer %s: the page's weight %v, pdn multiplex's %v", l.Name, weights[l.Name], l.Weight[0])
		}
	}
	if !(weights["A"] > weights["C"] && weights["A"] > weights["D"] && acc["pdn"] > acc["gcn"]+0.05) {
		t.Errorf("the page does not show the lesson: weights %v, accuracies %v", weights, acc)
	}
	// A layer's slider sets the layers row: layer C to 90%.
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const s = document.querySelector('#layer-share-2');
  s.value = "90"; return s.dispatchEvent(new Event('change', {bubbles: true})); })()`))
	must(t, err, "move layer C's slider")
	waitFor(t, ctx, "the link to say layers=90,60,90,33", `decodeURIComponent(location.hash).includes("layers=90,60,90,33")`)
}

// multiplexCLI is what the test reads of pdn multiplex -json.
type multiplexCLI struct {
	Runs []struct {
		Name     string    `json:"name"`
		Accuracy []float64 `json:"accuracy"`
	} `json:"runs"`
	Layers []struct {
		Name   string    `json:"name"`
		Weight []float64 `json:"pdn_weight"`
	} `json:"layers"`
}

// pdnMultiplex runs pdn multiplex -seeds 1 -json at the defaults (the
// lab's runs alone, -baselines none: the page has none of them); nil
// where it failed.
func pdnMultiplex(t *testing.T) *multiplexCLI {
	b, err := pdnCommand("multiplex", "-seeds", "1", "-baselines", "none", "-json", "-out", t.TempDir()).Output()
	if err != nil {
		t.Errorf("pdn multiplex: %v", err)
		return nil
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	var res multiplexCLI
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &res); err != nil || len(res.Runs) < 6 {
		t.Errorf("pdn multiplex -json: %v in %s", err, lines[len(lines)-1])
		return nil
	}
	// The lab's six runs come first; the command's own, every model row
	// that reads the layers (MGCN, …), follow, and the lab has none of them.
	res.Runs = res.Runs[:6]
	return &res
}
