package e2e

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// traceShares reads the node trace's share of messages from other
// classes: the model's and GCN's (every α = 1).
func traceShares(t *testing.T, ctx context.Context, kind string) (own, gcn float64) {
	t.Helper()
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...["`+kind+`", "gcn"]].map((r) => {
	  const e = document.querySelector('#node-trace [data-metric="inter-class-message-share"][data-run="' + r + '"]');
	  return e ? e.dataset.value : "NaN"; })`))
	must(t, err, "read the shares")
	return parseNum(t, got[0]), parseNum(t, got[1])
}

// chooseTracedNode opens the graph lab at link, then walks the nodes by
// keyboard with the trace open until one has messages from other
// classes, and returns its share at epoch 0.
func chooseTracedNode(t *testing.T, ctx context.Context, srv *server, link, kind string) (node string, share float64) {
	t.Helper()
	open(t, ctx, srv, link)
	waitFor(t, ctx, "the layout", graphDrawn)
	must(t, chromedp.Do(ctx, chromedp.Focus(chromedp.CSS("#graph-figure"))), "focus the graph")
	must(t, chromedp.Do(ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, 2, 2)), "move the pointer away")
	must(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowRight)), "→")
	waitFor(t, ctx, "a node chosen", `document.querySelector("#trace-open") !== null`)
	click(t, ctx, "#trace-open", "open the trace")
	for k := 0; k < 60; k++ {
		waitFor(t, ctx, "the trace", `document.querySelector('#node-trace [data-metric="inter-class-message-share"]') !== null && document.querySelector("#node-trace h2").textContent.startsWith("How node " + document.querySelector("#inspect").textContent.match(/^Node (\d+)/)[1] + " ")`)
		own, _ := traceShares(t, ctx, kind)
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('#node-trace [data-metric="trace-alpha"]').length`))
		must(t, err, "count the edges")
		if own > 0.2 && n >= 3 {
			node = regexp.MustCompile(`^Node (\d+)`).FindStringSubmatch(text(t, ctx, "#inspect"))[1]
			return node, own
		}
		must(t, chromedp.Do(ctx, chromedp.Focus(chromedp.CSS("#graph-figure")), chromedp.KeyEvent(kb.ArrowRight)), "→")
	}
	t.Fatal("no node among the first 60 hears other classes")
	return "", 0
}

// The node trace of a chosen node shows per-edge α, the messages and the
// prediction, which is the graph lab's; PDN's share of the node's message
// from other classes falls over 200 epochs, GCN's stays put.
func TestNodeTraceFollowsTraining(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	for _, kind := range []string{"pdn", "gcn"} {
		node, before := chooseTracedNode(t, ctx, srv, "#model="+kind, kind)
		if kind == "pdn" {
			screenshot(t, ctx, "40-trace-epoch-0")
		}
		key(t, ctx, " ")
		waitFor(t, ctx, "200 epochs", `document.querySelector("#epoch").textContent.startsWith("200 /") && document.querySelector("#node-trace h2").textContent.includes("epoch 200")`)
		after, gcn := traceShares(t, ctx, kind)
		t.Logf("%s, node %s: share of messages from other classes %.3f at epoch 0, %.3f at epoch 200 (every α = 1: %.3f)", kind, node, before, after, gcn)
		switch {
		case kind == "pdn" && !(after < before-0.05):
			t.Errorf("PDN's share did not fall: %.3f, then %.3f", before, after)
		case kind == "gcn" && after != before:
			t.Errorf("GCN's share moved: %.3f, then %.3f", before, after)
		}
		for _, step := range []int{2, 3, 4} {
			click(t, ctx, "#trace-next", "next step")
			waitFor(t, ctx, "step "+strconv.Itoa(step), `document.querySelector("#trace-step").textContent.startsWith("`+strconv.Itoa(step)+` ")`)
			if kind == "pdn" && step == 2 {
				screenshot(t, ctx, "41-trace-messages-epoch-200")
			}
		}
		pred, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('[data-metric="trace-prediction"]').dataset.value`))
		must(t, err, "read the trace's prediction")
		lab := regexp.MustCompile(`predicts class (\d+)`).FindStringSubmatch(text(t, ctx, "#inspect"))
		if len(lab) < 2 || lab[1] != pred {
			t.Errorf("%s: the trace predicts %s, the graph lab %v", kind, pred, lab)
		}
		if kind == "pdn" {
			screenshot(t, ctx, "42-trace-softmax-epoch-200")
		}
	}
}

// GAT's node trace gives its attention per edge, and its prediction is
// the graph lab's.
func TestNodeTraceOfGAT(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	node, share := chooseTracedNode(t, ctx, srv, "#model=gat&epochs=30", "gat")
	key(t, ctx, " ")
	waitFor(t, ctx, "30 epochs", `document.querySelector("#epoch").textContent.startsWith("30 /") && document.querySelector("#node-trace h2").textContent.includes("epoch 30")`)
	if got := text(t, ctx, "#node-trace .trace-step"); !strings.Contains(got, "GAT learns its weights from the nodes") {
		t.Errorf("GAT's trace says %q", got)
	}
	after, gcn := traceShares(t, ctx, "gat")
	t.Logf("gat, node %s: share of messages from other classes %.3f at epoch 0, %.3f at epoch 30 (every α = 1: %.3f)", node, share, after, gcn)
	for _, step := range []string{"2", "3", "4"} {
		click(t, ctx, "#trace-next", "next step")
		waitFor(t, ctx, "step "+step, `document.querySelector("#trace-step").textContent.startsWith("`+step+` ")`)
	}
	pred, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('[data-metric="trace-prediction"]').dataset.value`))
	must(t, err, "read the trace's prediction")
	if lab := regexp.MustCompile(`predicts class (\d+)`).FindStringSubmatch(text(t, ctx, "#inspect")); len(lab) < 2 || lab[1] != pred {
		t.Errorf("gat: the trace predicts %s, the graph lab %v", pred, lab)
	}
	screenshot(t, ctx, "43-trace-gat")
}
