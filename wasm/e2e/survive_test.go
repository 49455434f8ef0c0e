package e2e

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// workerWatch records the page's engine workers, and each worker's
// answer to files (protocol.Event.Load), which says the memory reading
// them took (its Go runtime's Sys: a WebAssembly memory never shrinks, so
// it is the most the worker held).
const workerWatch = `(() => { const W = window.Worker; window.__workers = []; window.__loads = [];
window.Worker = function (url, opts) {
  const w = new W(url, opts);
  window.__workers.push(w);
  w.addEventListener("message", (e) => {
    try { const ev = JSON.parse(e.data.json); if (ev.load) window.__loads.push(ev); } catch (_) {}
  });
  return w;
};
})();`

// ogbBomb is an OGB folder, zipped, whose raw/node-feat.csv.gz is 2,708
// lines of 60,000 zeros: about 321 kB packed, 325 MB unpacked (1000×),
// as in the audit that took every worker down.
func ogbBomb(t *testing.T) []byte {
	var labels, edges strings.Builder
	for i := range 2708 {
		fmt.Fprintf(&labels, "%d\n", i%7)
		fmt.Fprintf(&edges, "%d,%d\n", i, (i+1)%2708)
	}
	line := []byte(strings.TrimSuffix(strings.Repeat("0,", 60000), ",") + "\n")
	var feat bytes.Buffer
	zw := gzip.NewWriter(&feat)
	for range 2708 {
		zw.Write(line)
	}
	must(t, zw.Close(), "gzip")
	if ratio := 2708 * len(line) / feat.Len(); ratio < 900 {
		t.Fatalf("the member packs only %d×", ratio)
	}
	return zipFiles(t, map[string][]byte{
		"ogb/raw/edge.csv":         []byte(edges.String()),
		"ogb/raw/node-label.csv":   []byte(labels.String()),
		"ogb/raw/node-feat.csv.gz": feat.Bytes(),
	})
}

// The engine survives what it is sent: a folder with a 1000× gzip member
// is refused, naming the file, before the worker reading it holds 200 MB,
// and the lab still trains; a worker killed on purpose (its Go program
// ended, as running out of memory ends it) is replaced, the page says so
// in one sentence, and the lab goes on.
func TestEngineSurvivesWhatItIsSent(t *testing.T) {
	srv := serve(t, distDir(t), "/")
	ctx := browser(t)
	_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: workerWatch})
	must(t, err, "watch the workers")
	open(t, ctx, srv, "#per-class=64&epochs=100000")
	waitFor(t, ctx, "the layout", graphDrawn, 90*time.Second)

	start := time.Now()
	giveFiles(t, ctx, map[string][]byte{"bomb.zip": ogbBomb(t)}, false)
	waitFor(t, ctx, "the refusal naming the file", `document.querySelector(".notices").textContent.includes("Your graph was not opened") &&
  document.querySelector(".notices").textContent.includes("raw/node-feat.csv.gz:1: holds 60,000 numbers a line for 2,708 nodes")`, 60*time.Second)
	took := time.Since(start)
	mem, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`window.__loads.length ? window.__loads[window.__loads.length - 1].memory : -1`))
	must(t, err, "read the worker's memory")
	t.Logf("refused in %v; the worker that read it holds %.0f MB", took, mem/(1<<20))
	if mem <= 0 || mem > 200<<20 {
		t.Errorf("the worker that read the bomb holds %.0f MB (want under 200)", mem/(1<<20))
	}
	if n, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`window.__loads.length`)); n != 1 {
		t.Errorf("%d workers answered the files; one reads them first", n)
	}
	screenshot(t, ctx, "95-bomb-refused")
	key(t, ctx, " ")
	waitFor(t, ctx, "the lab training after the refusal", `parseInt(document.querySelector("#epoch").textContent) > 20`, 60*time.Second)

	workers, err := chromedp.Run(ctx, chromedp.Evaluate[int](`window.__workers.length`))
	must(t, err, "count the workers")
	_, err = chromedp.Run(ctx, chromedp.Evaluate[bool](`window.__workers.forEach((w) => w.postMessage({json: JSON.stringify({op: "exit"})})); true`))
	must(t, err, "end the workers' programs")
	waitFor(t, ctx, "the page saying the engine was started again", `document.querySelector(".notices").textContent.includes("The engine stopped")`, 30*time.Second)
	waitFor(t, ctx, "new workers", fmt.Sprintf(`window.__workers.length >= %d`, 2*workers), 30*time.Second)
	waitFor(t, ctx, "the run set again", `document.querySelector("#epoch").textContent.startsWith("0 /")`, 60*time.Second)
	key(t, ctx, " ")
	waitFor(t, ctx, "the lab training on the new worker", `parseInt(document.querySelector("#epoch").textContent) > 20`, 60*time.Second)
	screenshot(t, ctx, "96-worker-replaced")
}
