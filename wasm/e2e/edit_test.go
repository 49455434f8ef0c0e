package e2e

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// saveRun saves the run's edge weights and predictions as the page
// exports them: every float32 as the engine sent it.
func saveRun(t *testing.T, ctx context.Context) (weights, preds []byte) {
	t.Helper()
	for _, id := range []string{"export-weights", "export-predictions"} {
		click(t, ctx, "#"+id, "save "+id)
	}
	waitFor(t, ctx, "the files", `window.__saved.length >= 2`)
	files := downloads(t, ctx)
	return files["pdn-weights.csv"], files["pdn-predictions.csv"]
}

// edgesShown is the number of edges the graph note says the graph has.
const edgesShown = `(() => { const m = document.querySelector("#graph-note").textContent.match(/nodes and ([\d,]+) edges/); return m ? +m[1].replace(/,/g, "") : -1; })()`

// editDone says the engine answered an edit: the graph has edges edges,
// and the editor has counted the predictions its snapshot changed.
func editDone(edges int) string {
	return fmt.Sprintf(`%s === %d && document.querySelector('[data-metric="edit-changed-predictions"]') !== null`, edgesShown, edges)
}

// An inter-class edge added to a node and then removed gives every edge
// weight and every prediction back to the bit; the edit travels in the
// link, and a reload of the link shows the edit list and the edited graph.
func TestEditTheGraph(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	playSmall(t, ctx, srv, "#per-class=64&epochs=20", `document.querySelector("#epoch").textContent.startsWith("20 /")`)
	catchDownloads(t, ctx)
	w0, p0 := saveRun(t, ctx)
	rows, err := csv.NewReader(bytes.NewReader(p0)).ReadAll()
	must(t, err, "read the predictions")
	edges, err := csv.NewReader(bytes.NewReader(w0)).ReadAll()
	must(t, err, "read the weights")
	joined := map[string]bool{}
	for _, e := range edges[1:] {
		joined[e[0]+"-"+e[1]], joined[e[1]+"-"+e[0]] = true, true
	}
	far := -1 // a node of another class than node 0's, not joined to it
	for i, r := range rows[1:] {
		if r[1] != rows[1][1] && !joined["0-"+strconv.Itoa(i)] {
			far = i
			break
		}
	}
	e0 := len(edges) - 1

	must(t, chromedp.Do(ctx, chromedp.Focus(chromedp.CSS("#graph-figure"))), "focus the graph")
	must(t, chromedp.Do(ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, 2, 2)), "move the pointer away")
	must(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowRight)), "→")
	waitFor(t, ctx, "node 0 selected", `document.querySelector("#edit-to") !== null`)
	must(t, chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS("#edit-to"), strconv.Itoa(far))), "type the edge's end")
	click(t, ctx, "#edit-add", "add an edge")
	waitFor(t, ctx, "the edited graph", editDone(e0+1))
	waitFor(t, ctx, "the new edge's α", `document.querySelector('[data-metric="edit-alpha"]') !== null && document.querySelector("#edit-value") !== null`)
	hash, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.hash`))
	must(t, err, "read the link")
	if want := fmt.Sprintf("edits=a0-%d&", far); !strings.Contains(hash, want) {
		t.Errorf("the link %s does not carry %s", hash, want)
	}
	alpha, changed := text(t, ctx, `[data-metric="edit-alpha"]`), text(t, ctx, `[data-metric="edit-changed-predictions"]`)
	t.Logf("edge 0-%d added (inter-class): α %s, %s predictions changed", far, alpha, changed)
	screenshot(t, ctx, "50-edit-added")
	w1, _ := saveRun(t, ctx)
	if bytes.Equal(w1, w0) || bytes.Count(w1, []byte("\n")) != bytes.Count(w0, []byte("\n"))+1 {
		t.Error("the weights after the add are those before it")
	}

	click(t, ctx, "#edit-remove", "remove the edge")
	waitFor(t, ctx, "the graph as it was", editDone(e0)+` && document.querySelector("#edit-list").textContent.startsWith("No edits")`)
	w2, p2 := saveRun(t, ctx)
	if !bytes.Equal(w2, w0) || !bytes.Equal(p2, p0) {
		t.Errorf("after the add and the removal the run differs: weights equal %v, predictions equal %v", bytes.Equal(w2, w0), bytes.Equal(p2, p0))
	}

	// Edit again, and reload from the link.
	must(t, chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS("#edit-to"), strconv.Itoa(far))), "type the edge's end")
	click(t, ctx, "#edit-add", "add it again")
	waitFor(t, ctx, "the edited graph", editDone(e0+1))
	hash, err = chromedp.Run(ctx, chromedp.Evaluate[string](`location.hash`))
	must(t, err, "read the link")
	open(t, ctx, srv, hash)
	waitFor(t, ctx, "the edited graph from the link", fmt.Sprintf(`%s === %d && document.querySelectorAll("#edit-list li").length === 1`, edgesShown, e0+1))
	if got := text(t, ctx, "#edit-list li span"); !strings.Contains(got, fmt.Sprintf("Added edge 0–%d", far)) {
		t.Errorf("the edit list after a reload says %q", got)
	}
}

// The graph is drawn as soon as it is laid out, before any epoch: a
// canvas painted in the turn that mounts it (the first layout) keeps its
// paint for the frame after the render (painter.draw), and a node canvas
// with no ink or at the browser's default size fails.
func TestGraphDrawnBeforeTraining(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	open(t, ctx, srv, "#lab=graph&per-class=64&epochs=20")
	waitFor(t, ctx, "the nodes and edges painted at epoch 0", `(() => {
  const ink = (id) => { const c = document.getElementById(id); if (!c || c.width === 300 && c.height === 150) return 0;
    const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data; let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++; return n; };
  return ink("graph-nodes") > 0 && ink("graph-edges") > 0;
})()`)
	if e := text(t, ctx, `[data-metric="epoch"]`); !strings.HasPrefix(e, "0") {
		t.Errorf("the graph was checked at epoch %q, not before training", e)
	}
}
