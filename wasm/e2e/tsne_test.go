package e2e

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// The degree lab draws Figure 4 once its PDN and GAT have trained, and
// says of each the separation `pdn tsne` says of the same run: the
// 10-NN agreement of edge kind in its hidden edge representations (what
// the claim fig4-edge-kinds reads) and in their t-SNE embedding, the
// same bits in the browser as natively (rounded as -json rounds them).
func TestDegreeLabSaysWhatPdnTsneSays(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	type cliRun struct {
		Separation float64 `json:"separation"`
		Hidden     float64 `json:"hidden_separation"`
	}
	done := make(chan map[string]cliRun, 1)
	out := t.TempDir()
	go func() {
		var runs map[string]cliRun
		defer func() { done <- runs }()
		b, err := pdnCommand("tsne", "-json", "-out", out).Output()
		if err != nil {
			t.Errorf("pdn tsne: %v", err)
			return
		}
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		var res struct {
			Runs map[string]cliRun `json:"runs"`
		}
		if err := json.Unmarshal([]byte(lines[len(lines)-1]), &res); err != nil || len(res.Runs) != 2 {
			t.Errorf("pdn tsne -json: %v in %s", err, lines[len(lines)-1])
			return
		}
		runs = res.Runs
	}()
	open(t, ctx, srv, "#lab=degree&data=synthetic")
	waitFor(t, ctx, "the two runs", runsShown(2))
	click(t, ctx, "#play", "train all")
	waitFor(t, ctx, "the two runs to finish", allDone(2, 200))
	waitFor(t, ctx, "Figure 4's two panels", `[...document.querySelectorAll('[data-metric="edge-separation-tsne"][data-run]')].filter((e) => e.dataset.value !== "NaN").length === 2 && document.querySelectorAll('#edges circle.edge-point').length > 0`)
	atRest(t, ctx)
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(document.querySelector('#edges').scrollIntoView({block: "start"}), true)`))
	must(t, err, "show Figure 4")
	screenshot(t, ctx, "degree-figure4")
	hidden, drawn := runMetrics(t, ctx, "edge-separation"), runMetrics(t, ctx, "edge-separation-tsne")
	cli := <-done
	if cli == nil {
		t.FailNow()
	}
	for _, run := range []string{"pdn", "gat"} {
		t.Logf("%s: the page %.4f in the representations, %.4f in the embedding; pdn tsne %.4f and %.4f", run, hidden[run], drawn[run], cli[run].Hidden, cli[run].Separation)
		if math.Abs(hidden[run]-cli[run].Hidden) > 5e-5 || math.Abs(drawn[run]-cli[run].Separation) > 5e-5 {
			t.Errorf("%s: the page says %v and %v, pdn tsne %v and %v", run, hidden[run], drawn[run], cli[run].Hidden, cli[run].Separation)
		}
	}
	if hidden["pdn"] < 0.7 || hidden["gat"] > 0.6 {
		t.Errorf("separation PDN %.3f, GAT %.3f: want PDN ≥ 0.7 and GAT ≤ 0.6, as the claim", hidden["pdn"], hidden["gat"])
	}
}
