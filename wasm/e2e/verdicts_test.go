package e2e

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// The structure lab's robustness curves and transfer table, at a small
// size (SGC and the MLP, quick models, beside the transfer table's GCN,
// SGC and APPNP): before the runs start the lab says how long they will
// take, by the engine's estimate, and its card already states the
// transfer claims its pool decides, undecided; once every run has
// trained, the card states them with their verdicts, read on the very
// numbers of the transfer table, and the robustness claim, whose runs
// need PDN, GCN and GAT, says the models differ.
func TestStructureLabEstimatesThenStatesItsVerdicts(t *testing.T) {
	srv := serve(t, distDir(t), "/")
	ctx := browser(t)
	open(t, ctx, srv, "#lab=structure&models=sgc,mlp")
	waitFor(t, ctx, "the estimate before the runs", `document.querySelector("#side-left") !== null && document.querySelector("#side-left").textContent.includes("(estimate)") && +document.querySelector("#side-progress").value === 0`)
	left := text(t, ctx, "#side-left")
	for _, id := range []string{"structure-transfer", "structure-transfer-input"} {
		if line := claimLine(t, ctx, id); !strings.Contains(line.Text, "Not yet decidable: 0 of its 3 runs") || line.Value != "" {
			t.Errorf("before the runs, %s says %q (value %q)", id, line.Text, line.Value)
		}
	}
	scrollTo(t, ctx, "#side-bar")
	screenshot(t, ctx, "70-structure-estimate")

	click(t, ctx, "#side-run", "run robustness and transfer")
	// A run of more than a few minutes is said first, and starts on the
	// second press.
	waitFor(t, ctx, "the runs under way, or the notice of their time", `document.querySelector(".notices").textContent.includes("will take about") || document.querySelector("#side-run").textContent === "Pause" || +document.querySelector("#side-progress").value > 0`)
	if warned, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector(".notices").textContent.includes("The robustness curves and the transfer table will take about")`)); warned {
		t.Logf("the runs are long on this machine: %q; the second press starts them", left)
		click(t, ctx, "#side-run", "run them after all")
	}
	waitFor(t, ctx, "every side run", `+document.querySelector("#side-progress").value === +document.querySelector("#side-progress").max`)
	atRest(t, ctx)
	total, err := chromedp.Run(ctx, chromedp.Evaluate[int](`+document.querySelector("#side-progress").max`))
	must(t, err, "count the runs")
	t.Logf("time left before the runs: %q; %d runs", left, total)

	transfer := map[string]string{}
	cells, err := chromedp.Run(ctx, chromedp.Evaluate[[][]string](`[...document.querySelectorAll('[data-metric="transfer-accuracy"]')].map((e) => [e.dataset.run + "/" + e.dataset.graph, e.textContent])`))
	must(t, err, "read the transfer table")
	for _, c := range cells {
		transfer[c[0]] = c[1]
	}
	for id, graph := range map[string]string{"structure-transfer": "pdn", "structure-transfer-input": "input"} {
		line := claimLine(t, ctx, id)
		if line.Value != "0" && line.Value != "1" {
			t.Errorf("after the runs, %s has no verdict: %q", id, line.Text)
		}
		for _, m := range []string{"gcn", "sgc", "appnp"} {
			if want := m + " " + transfer[m+"/"+graph]; !strings.Contains(line.Text, want) {
				t.Errorf("%s says %q; want the transfer table's %s", id, line.Text, want)
			}
		}
		t.Logf("%s: value %s: %s", id, line.Value, line.Text)
	}
	if line := claimLine(t, ctx, "structure-add-inter"); !strings.Contains(line.Text, "Not checked here: this run's models differ from the claim's.") {
		t.Errorf("structure-add-inter, whose runs need PDN, GCN and GAT, says %q", line.Text)
	}
	scrollTo(t, ctx, "#claims")
	screenshot(t, ctx, "71-structure-verdicts")
}

// claim is a claims card's line: its text and data-value.
type claim struct{ Text, Value string }

// claimLine reads the claims card's line of claim id.
func claimLine(t *testing.T, ctx context.Context, id string) claim {
	t.Helper()
	c, err := chromedp.Run(ctx, chromedp.Evaluate[claim](`(() => { const e = document.querySelector('#claims [data-claim="`+id+`"]');
  return e === null ? {Text: "", Value: "none"} : {Text: e.textContent.replace(/\s+/g, " "), Value: e.dataset.value}; })()`))
	must(t, err, "read claim "+id)
	return c
}

// Shift+N advances a tour as n does: a letter is its key whatever the
// Shift state, and the browser names Shift+N "N".
func TestTourAdvancesByShiftN(t *testing.T) {
	srv := serve(t, distDir(t), "/")
	ctx := browser(t)
	open(t, ctx, srv, "#per-class=64&epochs=5&tour=graph&step=1")
	waitFor(t, ctx, "the tour", `document.querySelector("#tour:not(.idle)") !== null && location.hash.includes("step=1")`)
	for k := 1; k <= 2; k++ {
		// A real key press through the browser's input: Shift held, "N".
		must(t, chromedp.Do(ctx, chromedp.KeyEvent("N")), "press Shift+N")
		waitFor(t, ctx, "the tour's step "+strconv.Itoa(k+1), `location.hash.includes("step=`+strconv.Itoa(k+1)+`") && document.querySelector('#tour [data-metric="tour-step"]').dataset.value === "`+strconv.Itoa(k+1)+`"`)
	}
	screenshot(t, ctx, "72-tour-shift-n")
}

// In Arabic a size reads as written, the number before its unit: the
// rewind's "292.4 kB" and the open panel's "128 MB" each stand in one
// isolate, the number to the left of its Latin unit (the bidi algorithm
// showed "kB 292.4" when they stood bare in the right-to-left page).
func TestArabicSizesReadNumberThenUnit(t *testing.T) {
	srv := serve(t, distDir(t), "/")
	ctx := browser(t)
	open(t, ctx, srv, "#lab=graph&lang=ar&per-class=64&epochs=20")
	waitFor(t, ctx, "the layout", graphDrawn)
	key(t, ctx, " ")
	waitFor(t, ctx, "20 epochs", `+document.querySelector("#epoch").dataset.value === 20 && document.querySelector('[data-metric="rewind-bytes"]') !== null`)
	atRest(t, ctx)
	for _, c := range []struct{ sel, unit string }{
		{`[data-metric="rewind-bytes"]`, "kB"},
		{`#open-graph .note`, "MB"},
	} {
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => {
  const e = [...document.querySelectorAll(`+"`"+c.sel+"`"+`)].find((x) => x.textContent.includes("`+c.unit+`"));
  if (!e) return [];
  const w = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
  let n; while ((n = w.nextNode()) && !n.data.includes("`+c.unit+`")) {}
  if (!n) return [];
  const s = n.data, u = s.indexOf("`+c.unit+`"), fsi = s.lastIndexOf("\u2068", u);
  const m = /[0-9][0-9.,]*/.exec(s.slice(fsi + 1, u));
  if (fsi < 0 || !m || s.indexOf("\u2069", u) < 0) return [-1];
  const at = (i, j) => { const r = document.createRange(); r.setStart(n, i); r.setEnd(n, j); return r.getBoundingClientRect(); };
  const num = at(fsi + 1 + m.index, fsi + 1 + m.index + m[0].length), unit = at(u, u + `+strconv.Itoa(len(c.unit))+`);
  return [num.left, num.right, unit.left, unit.right];
})()`))
		must(t, err, "measure "+c.sel)
		switch {
		case len(got) == 0:
			t.Errorf("%s: no %s shown", c.sel, c.unit)
		case len(got) == 1:
			t.Errorf("%s: the number and its %s are not one isolate", c.sel, c.unit)
		case !(got[1] <= got[2]):
			t.Errorf("%s: the number stands at x %.0f–%.0f, its %s at %.0f–%.0f: want the number first, as read", c.sel, got[0], got[1], c.unit, got[2], got[3])
		default:
			t.Logf("%s: number at x %.0f–%.0f, %s at %.0f–%.0f", c.sel, got[0], got[1], c.unit, got[2], got[3])
		}
	}
	scrollTo(t, ctx, "#rewind")
	screenshot(t, ctx, "73-ar-rewind-size")
}
