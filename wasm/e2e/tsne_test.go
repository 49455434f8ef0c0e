package e2e

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

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
	done := pdnTsne(t)
	open(t, ctx, srv, "#lab=degree&data=synthetic")
	waitFor(t, ctx, "the two runs", runsShown(2))
	click(t, ctx, "#play", "train all")
	waitFor(t, ctx, "the two runs to finish", allDone(2, 200))
	waitFor(t, ctx, "Figure 4's two panels", `[...document.querySelectorAll('[data-metric="edge-separation-tsne"][data-run]')].filter((e) => e.dataset.value !== "NaN").length === 2 && document.querySelectorAll('#edges circle.edge-point').length > 0`)
	atRest(t, ctx)
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(document.querySelector('#edges').scrollIntoView({block: "start"}), true)`))
	must(t, err, "show Figure 4")
	screenshot(t, ctx, "degree-figure4")
	saysWhatPdnTsneSays(t, ctx, done)
}

// tsneRun is one model's line of `pdn tsne -json`.
type tsneRun struct {
	Separation float64 `json:"separation"`
	Hidden     float64 `json:"hidden_separation"`
}

// pdnTsne runs `pdn tsne -json` at the defaults beside the browser and
// gives its runs by name (nil where it failed).
func pdnTsne(t *testing.T) <-chan map[string]tsneRun {
	done := make(chan map[string]tsneRun, 1)
	out := t.TempDir()
	go func() {
		var runs map[string]tsneRun
		defer func() { done <- runs }()
		b, err := pdnCommand("tsne", "-json", "-out", out).Output()
		if err != nil {
			t.Errorf("pdn tsne: %v", err)
			return
		}
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		var res struct {
			Runs map[string]tsneRun `json:"runs"`
		}
		if err := json.Unmarshal([]byte(lines[len(lines)-1]), &res); err != nil || len(res.Runs) != 2 {
			t.Errorf("pdn tsne -json: %v in %s", err, lines[len(lines)-1])
			return
		}
		runs = res.Runs
	}()
	return done
}

// saysWhatPdnTsneSays compares Figure 4's numbers on the page, PDN's and
// GAT's, in the representations and in the embedding drawn, with those
// pdn tsne printed (rounded as -json rounds them), and with the claim.
func saysWhatPdnTsneSays(t *testing.T, ctx context.Context, done <-chan map[string]tsneRun) {
	t.Helper()
	hidden, drawn := modelMetrics(t, ctx, "edge-separation"), modelMetrics(t, ctx, "edge-separation-tsne")
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

// modelMetrics are the page's figures called name by the model they are
// of (data-model), the first of each.
func modelMetrics(t *testing.T, ctx context.Context, name string) map[string]float64 {
	t.Helper()
	return metricsBy(t, ctx, name, "model")
}

// The graph lab draws Figure 4 live beside the learned graph: its run's
// edges and GAT's, trained beside it, embedded before Play (epoch 0),
// again as the run trains (a panel of a later epoch comes while it
// trains), and once both have trained all 200 epochs, with the numbers
// pdn tsne prints for the same graph and seeds. The pace (speed=10)
// gives the embeddings time while the run trains and changes no result.
// It fits a phone, in English and in Arabic.
func TestGraphLabDrawsFigure4Live(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	done := pdnTsne(t)
	open(t, ctx, srv, "#lab=graph&speed=10")
	panelAt := func(run, epochs string) string {
		return `[...document.querySelectorAll('#edges [data-metric="edge-separation-tsne"][data-model="` + run + `"]')].some((e) => e.dataset.value !== "NaN" && (` + epochs + `)(+e.dataset.epoch))`
	}
	waitFor(t, ctx, "Figure 4 of epoch 0, before Play", panelAt("pdn", "(x) => x === 0")+" && "+panelAt("gat", "(x) => x === 0"))
	recordPanels(t, ctx)
	click(t, ctx, "#play", "play")
	p50, p95, worst := frames(t, ctx, 3*time.Second)
	t.Logf("frames while training and embedding: p50 %.1f ms, p95 %.1f ms, longest %.1f ms", p50, p95, worst)
	// An embedding of an epoch the run passed through: on a busy
	// machine its t-SNE may end after the run's last epoch, and the
	// panel then shows for a few seconds only, so every panel drawn is
	// recorded as it is drawn.
	waitFor(t, ctx, "Figure 4 of an epoch the run passed through as it trained", `window.pdnPanels.some((p) => p.model === "pdn" && p.epoch > 0 && p.epoch < 200)`)
	waitFor(t, ctx, "Figure 4 of both models trained", panelAt("pdn", "(x) => x === 200")+" && "+panelAt("gat", "(x) => x === 200")+" && document.querySelectorAll('#edges circle.edge-point').length > 0")
	atRest(t, ctx)
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(document.querySelector('#edges').scrollIntoView({block: "start"}), true)`))
	must(t, err, "show Figure 4")
	screenshot(t, ctx, "graph-figure4")
	saysWhatPdnTsneSays(t, ctx, done)
	phone(t, ctx)
	atRest(t, ctx)
	_, err = chromedp.Run(ctx, chromedp.Evaluate[bool](`(document.querySelector('#edges').scrollIntoView({block: "start"}), true)`))
	must(t, err, "show Figure 4 on a phone")
	screenshot(t, ctx, "graph-figure4-phone")
	phoneCheck(t, ctx, "the graph lab's Figure 4 on a phone")
	// Right to left, in Arabic: the figure's first embedding, before Play.
	open(t, ctx, srv, "#lab=graph&lang=ar")
	waitFor(t, ctx, "Figure 4 of epoch 0 in Arabic", panelAt("pdn", "(x) => x === 0")+" && "+panelAt("gat", "(x) => x === 0"))
	atRest(t, ctx)
	_, err = chromedp.Run(ctx, chromedp.Evaluate[bool](`(document.querySelector('#edges').scrollIntoView({block: "start"}), true)`))
	must(t, err, "show Figure 4 in Arabic")
	screenshot(t, ctx, "graph-figure4-phone-ar")
	phoneCheck(t, ctx, "the graph lab's Figure 4 in Arabic on a phone")
}

// recordPanels keeps every Figure 4 panel the page draws from now on in
// window.pdnPanels ({model, epoch}), as the page changes: a panel that
// shows for a moment is not missed between two polls.
func recordPanels(t *testing.T, ctx context.Context) {
	t.Helper()
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => {
		window.pdnPanels = [];
		const read = () => document.querySelectorAll('#edges [data-metric="edge-separation-tsne"]').forEach((e) => {
			if (e.dataset.value !== "NaN") window.pdnPanels.push({model: e.dataset.model, epoch: +e.dataset.epoch});
		});
		new MutationObserver(read).observe(document.body, {subtree: true, childList: true, attributes: true});
		read();
		return true;
	})()`))
	must(t, err, "record Figure 4's panels")
}
