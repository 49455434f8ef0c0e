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
const workerWatch = `(() => { const W = window.Worker; window.__workers = []; window.__readers = []; window.__loads = [];
window.Worker = function (url, opts) {
  const w = new W(url, opts);
  (String(url).includes("reader") ? window.__readers : window.__workers).push(w);
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
// is refused, naming the file, before the reader reading it (a worker of
// its own) holds 200 MB, and the lab still trains; a worker killed on purpose (its Go program
// ended, as running out of memory ends it) is replaced, the page says so
// in one sentence, and the lab goes on.
func TestEngineSurvivesWhatItIsSent(t *testing.T) {
	srv := serve(t, distDir(t), "/")
	ctx := browser(t)
	_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: workerWatch})
	must(t, err, "watch the workers")
	open(t, ctx, srv, "#per-class=64&epochs=100000")
	waitFor(t, ctx, "the layout", graphDrawn)

	start := time.Now()
	giveFiles(t, ctx, map[string][]byte{"bomb.zip": ogbBomb(t)}, false)
	waitFor(t, ctx, "the refusal naming the file", `document.querySelector(".notices").textContent.includes("Your graph was not opened") &&
  document.querySelector(".notices").textContent.includes("raw/node-feat.csv.gz:1: holds 60,000 numbers a line for 2,708 nodes")`)
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
	if n, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`window.__readers.length`)); n != 1 {
		t.Errorf("%d readers read the files; the engine's workers read none", n)
	}
	screenshot(t, ctx, "95-bomb-refused")
	key(t, ctx, " ")
	waitFor(t, ctx, "the lab training after the refusal", `parseInt(document.querySelector("#epoch").textContent) > 20`)

	workers, err := chromedp.Run(ctx, chromedp.Evaluate[int](`window.__workers.length`))
	must(t, err, "count the workers")
	_, err = chromedp.Run(ctx, chromedp.Evaluate[bool](`window.__workers.forEach((w) => w.postMessage({json: JSON.stringify({op: "exit"})})); true`))
	must(t, err, "end the workers' programs")
	waitFor(t, ctx, "the page saying the engine was started again", `document.querySelector(".notices").textContent.includes("The engine stopped")`)
	waitFor(t, ctx, "new workers", fmt.Sprintf(`window.__workers.length >= %d`, 2*workers))
	waitFor(t, ctx, "the run set again", `document.querySelector("#epoch").textContent.startsWith("0 /")`)
	key(t, ctx, " ")
	waitFor(t, ctx, "the lab training on the new worker", `parseInt(document.querySelector("#epoch").textContent) > 20`)
	screenshot(t, ctx, "96-worker-replaced")
}

// Files as their publishers' libraries write them open in the page as on
// the command line: the karate club's Twitch folder, whose features.csv
// repeats (node, feature) pairs (summed, and said); a NetworkX GraphML of a
// bag of words written sparse (no node features was the old reading: now
// its words); and a node table of 1,400 columns whose class the user must
// choose, whose chooser stays inside a phone's screen.
func TestPublishersFormatsInThePage(t *testing.T) {
	srv := serve(t, distDir(t), "/")
	ctx := browser(t)
	open(t, ctx, srv, "#per-class=64")
	waitFor(t, ctx, "the layout", graphDrawn)

	var target, edges, feat strings.Builder
	target.WriteString("id,target\n")
	edges.WriteString("node_1,node_2\n")
	feat.WriteString("node_id,feature_id,value\n")
	for i := range 120 {
		fmt.Fprintf(&target, "%d,%d\n", i, i%2)
		fmt.Fprintf(&edges, "%d,%d\n%d,%d\n", i, (i+1)%120, i, (i+7)%120)
		fmt.Fprintf(&feat, "%d,%d,1\n%d,%d,1\n%d,%d,1\n", i, i%9, i, 9+i%4, i, i%9)
	}
	kc := zipFiles(t, map[string][]byte{"twitch/target.csv": []byte(target.String()), "twitch/edges.csv": []byte(edges.String()), "twitch/features.csv": []byte(feat.String())})
	giveFiles(t, ctx, map[string][]byte{"kc_twitch.zip": kc}, false)
	waitFor(t, ctx, "the karate club's folder opened", `document.querySelector(".notices").textContent.includes("Opened kc_twitch.zip") &&
  document.querySelector(".notices").textContent.includes("120 (node, feature) pairs given again")`)

	var g strings.Builder
	g.WriteString(`<?xml version='1.0' encoding='utf-8'?>` + "\n" + `<graphml xmlns="http://graphml.graphdrawing.org/xmlns"><key id="s" for="node" attr.name="subject" attr.type="string"/>`)
	for k := range 300 {
		fmt.Fprintf(&g, `<key id="w%d" for="node" attr.name="w%d" attr.type="long"/>`, k, k)
	}
	g.WriteString(`<graph edgedefault="undirected">`)
	for i := range 150 {
		fmt.Fprintf(&g, `<node id="%d"><data key="s">%s</data><data key="w%d">1</data><data key="w%d">1</data></node>`, i, []string{"AI", "DB", "ML"}[i%3], i%300, (i*7+1)%300) // two keys, never one twice
	}
	for i := range 150 {
		fmt.Fprintf(&g, `<edge source="%d" target="%d"/>`, i, (i+1)%150)
	}
	g.WriteString(`</graph></graphml>`)
	giveFiles(t, ctx, map[string][]byte{"cora.graphml": []byte(g.String())}, false)
	waitFor(t, ctx, "the sparse GraphML opened on its words", `document.querySelector(".notices").textContent.includes("Opened cora") &&
  document.querySelector(".notices").textContent.includes("300 node features")`)
	if txt := text(t, ctx, ".notices"); strings.Contains(txt, "the graph has no node features") {
		t.Errorf("the sparse GraphML was read as featureless: %s", txt)
	}

	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile)), "phone size")
	var wide strings.Builder
	wide.WriteString("id,colour,shape")
	for k := range 1400 {
		fmt.Fprintf(&wide, ",c%d", k)
	}
	wide.WriteString("\n")
	for i := range 60 {
		fmt.Fprintf(&wide, "%d,%s,%s", i, []string{"red", "blue"}[i%2], []string{"round", "square", "flat"}[i%3])
		for k := range 1400 {
			fmt.Fprintf(&wide, ",%d", (i+k)%2)
		}
		wide.WriteString("\n")
	}
	giveFiles(t, ctx, map[string][]byte{"labels.csv": []byte(wide.String()), "edges.csv": []byte(ring60())}, false)
	waitFor(t, ctx, "the column chooser", `document.querySelector("#column-chooser") !== null`)
	atRest(t, ctx) // the notices settle before the scroll
	scrollTo(t, ctx, "#column-chooser")
	rect, _ := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => { const r = document.querySelector("#column-chooser").getBoundingClientRect(); return [r.top, r.height, r.width, window.scrollY]; })()`))
	t.Logf("the chooser at %v (top, height, width, scroll)", rect)
	screenshot(t, ctx, "97-chooser-1400-columns-phone")
	if w, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth`)); err != nil || w > 390 {
		t.Errorf("with a chooser of 1,400 columns the phone's page is %d px wide (%v), more than its 390", w, err)
	}
}

// ring60 is an edge list of a ring of 60 nodes.
func ring60() string {
	var b strings.Builder
	b.WriteString("source,target\n")
	for i := range 60 {
		fmt.Fprintf(&b, "%d,%d\n", i, (i+1)%60)
	}
	return b.String()
}
