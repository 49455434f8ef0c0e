package e2e

import (
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Projector mode from its permalink at 1280×720: the controls fold away,
// the figures and numbers grow, the keys still work, and P leaves it.
func TestProjectorMode(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	_, err := chromedp.Run(ctx, chromedp.EmulateViewport(1280, 720))
	must(t, err, "a 1280×720 screen")
	open(t, ctx, srv, "#present=1")
	waitFor(t, ctx, "the layout", graphDrawn, 90*time.Second)
	type look struct {
		Present       bool    `json:"present"`
		ControlsShown bool    `json:"controlsShown"`
		StatPx        float64 `json:"statPx"`
		GraphPx       float64 `json:"graphPx"`
	}
	read := func() look {
		v, err := chromedp.Run(ctx, chromedp.Evaluate[look](`(() => ({
  present: document.querySelector(".explorer.present") !== null,
  controlsShown: document.querySelector("aside.controls").offsetParent !== null,
  statPx: parseFloat(getComputedStyle(document.querySelector("#test-acc")).fontSize),
  graphPx: document.querySelector("#graph-edges").getBoundingClientRect().width,
}))()`))
		must(t, err, "read the page")
		return v
	}
	on := read()
	t.Logf("projector mode at 1280×720: headline numbers %.0f px, graph %.0f px wide, controls shown %v", on.StatPx, on.GraphPx, on.ControlsShown)
	if !on.Present || on.ControlsShown || on.StatPx < 32 || on.GraphPx < 500 {
		t.Errorf("projector mode: %+v", on)
	}
	key(t, ctx, " ")
	waitFor(t, ctx, "training by key in projector mode", `parseInt(document.querySelector("#epoch").textContent) >= 3`, 60*time.Second)
	key(t, ctx, " ")
	screenshot(t, ctx, "40-projector")
	key(t, ctx, "p")
	waitFor(t, ctx, "P leaves projector mode", `document.querySelector(".explorer.present") === null && !location.hash.includes("present=1")`, 10*time.Second)
	if off := read(); !off.ControlsShown || off.StatPx >= on.StatPx {
		t.Errorf("out of projector mode: %+v", off)
	}
}

// Every export of the graph lab saves a file its reader accepts: the
// history and the weights parse as CSV, the state as JSON, the figures as
// XML. The page's Blob is caught on its way to the download.
func TestExports(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	open(t, ctx, srv, "#per-class=64&epochs=20")
	waitFor(t, ctx, "the layout", graphDrawn, 90*time.Second)
	must(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#play"))), "play")
	waitFor(t, ctx, "20 epochs", `document.querySelector("#epoch").textContent.startsWith("20 /")`, 60*time.Second)
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { window.__blobs = []; URL.createObjectURL = (b) => { window.__blobs.push(b); return "blob:caught"; }; URL.revokeObjectURL = () => {}; return true; })()`))
	must(t, err, "catch the downloads")
	ids := []string{"export-history", "export-weights", "export-state", "export-graph", "export-curves"}
	for _, id := range ids {
		must(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#"+id))), "save "+id)
	}
	texts, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Promise.all(window.__blobs.map((b) => b.text()))`, chromedp.EvalAwaitPromise))
	must(t, err, "read the files")
	if len(texts) != len(ids) {
		t.Fatalf("%d files saved, want %d", len(texts), len(ids))
	}
	history, err := csv.NewReader(strings.NewReader(texts[0])).ReadAll()
	if err != nil || len(history) < 3 || history[0][0] != "epoch" || history[len(history)-1][0] != "20" {
		t.Errorf("history: %d rows, %v", len(history), err)
	}
	weights, err := csv.NewReader(strings.NewReader(texts[1])).ReadAll()
	if err != nil || len(weights) < 50 || weights[0][3] != "weight" {
		t.Errorf("weights: %d rows, %v", len(weights), err)
	}
	var state map[string]any
	if err := json.Unmarshal([]byte(texts[2]), &state); err != nil || state["permalink"] == nil {
		t.Errorf("state: %v", err)
	}
	for i, name := range []string{"graph", "curves"} {
		dec := xml.NewDecoder(strings.NewReader(texts[3+i]))
		n := 0
		for {
			tok, err := dec.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s SVG: %v", name, err)
			}
			if _, ok := tok.(xml.StartElement); ok {
				n++
			}
		}
		if n < 5 {
			t.Errorf("%s SVG: %d elements", name, n)
		}
	}
	t.Logf("saved: history %d rows, weights %d rows, state %d bytes, graph SVG %d bytes, curves SVG %d bytes",
		len(history), len(weights), len(texts[2]), len(texts[3]), len(texts[4]))
}

// A preset is one choice away: it opens its lab with its rows.
func TestPresets(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	open(t, ctx, srv, "#per-class=64")
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const s = document.querySelector("#preset"); s.value = "sigma-d-1"; s.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`))
	must(t, err, "choose a preset")
	waitFor(t, ctx, "the preset's lab and rows", `location.hash.includes("lab=compare") && location.hash.includes("sigma-d=1") && document.querySelectorAll('.toolbar [data-metric="epoch"][data-run]').length === 2 && document.querySelector("#ctl-sigma-d").value === "1"`, 60*time.Second)
	if v := text(t, ctx, "#preset"); v == "" {
		t.Error("the preset menu is empty")
	}
}

// The paper's tour walks all its steps, by button and by key: each step
// opens its lab with its rows, marks the element it points at, and is a
// link of its own; Back returns and Finish ends the tour where it is.
func TestTourWalksAllSteps(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	open(t, ctx, srv, "#tour=paper&step=1")
	steps := []struct{ lab, row, focus string }{
		{"graph", "lab=graph", "graph"},
		{"compare", "sigma-d=1", "summary"},
		{"compare", "q=0.0625", "summary"},
		{"xor", "lab=xor", "table3"},
		{"degree", "lab=degree", "summary"},
		{"attention", "lab=attention", "attention"},
	}
	for i, s := range steps {
		k := strconv.Itoa(i + 1)
		waitFor(t, ctx, "tour step "+k, `(() => {
  const m = document.querySelector('#tour [data-metric="tour-step"]');
  const f = document.querySelector("#`+s.focus+`");
  return m !== null && m.dataset.value === "`+k+`" && location.hash.includes("`+s.row+`") && location.hash.includes("step=`+k+`") &&
    document.querySelector("#lab-`+s.lab+`[aria-current=page]") !== null && f !== null && f.classList.contains("tour-focus");
})()`, 60*time.Second)
		if i == 1 {
			screenshot(t, ctx, "41-tour-step-2")
		}
		if i < len(steps)-1 {
			if i%2 == 0 {
				must(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#tour-next"))), "next")
			} else {
				key(t, ctx, "n")
			}
		}
	}
	key(t, ctx, "b")
	waitFor(t, ctx, "back to step 5", `location.hash.includes("step=5") && document.querySelector("#lab-degree[aria-current=page]") !== null`, 30*time.Second)
	key(t, ctx, "PageDown")
	waitFor(t, ctx, "on to step 6", `location.hash.includes("step=6")`, 30*time.Second)
	must(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#tour-next"))), "finish")
	waitFor(t, ctx, "the tour ends, the lab stays", `location.hash.includes("tour=none") && document.querySelector("#tour.idle") !== null && document.querySelector("#lab-attention[aria-current=page]") !== null`, 30*time.Second)
}
