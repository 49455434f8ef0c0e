package e2e

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	dotparse "gonum.org/v1/gonum/graph/formats/dot"
	"gonum.org/v1/gonum/graph/formats/dot/ast"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/internal/outdir"
	"pdnexplorer/internal/testwait"
)

// Projector mode from its permalink at 1280×720: the controls fold away,
// the figures and numbers grow, the keys still work, and P leaves it.
func TestProjectorMode(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	_, err := chromedp.Run(ctx, chromedp.EmulateViewport(1280, 720))
	must(t, err, "a 1280×720 screen")
	open(t, ctx, srv, "#present=1")
	waitFor(t, ctx, "the layout", graphDrawn)
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
	// The graph is as large as fits under the header and the toolbar at 720 px
	// (TestProjectorFitsEveryLab: no scroll).
	if !on.Present || on.ControlsShown || on.StatPx < 32 || on.GraphPx < 400 {
		t.Errorf("projector mode: %+v", on)
	}
	key(t, ctx, " ")
	waitFor(t, ctx, "training by key in projector mode", `parseInt(document.querySelector("#epoch").textContent) >= 3`)
	// Training adds no line to the toolbar (the scrubber waits outside
	// projector mode): nothing under it moves mid-lesson.
	time.Sleep(500 * time.Millisecond)
	if h, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`document.querySelector(".lab .toolbar").getBoundingClientRect().height`)); err != nil || h > 0.12*720 {
		t.Errorf("while training in projector mode the toolbar takes %.0f px of 720 (%v)", h, err)
	}
	key(t, ctx, " ")
	screenshot(t, ctx, "40-projector")
	key(t, ctx, "p")
	waitFor(t, ctx, "P leaves projector mode", `document.querySelector(".explorer.present") === null && !location.hash.includes("present=1")`)
	if off := read(); !off.ControlsShown || off.StatPx >= on.StatPx {
		t.Errorf("out of projector mode: %+v", off)
	}
}

// Every export of the graph lab saves a file its reader accepts: the
// history and the weights parse as CSV, the state as JSON, the SVG figures
// as XML, the PNG pictures with image/png, the DOT with gonum's parser, the
// bundle as a zip the explorer's reader opens. The page's files are caught
// on their way to the download.
func TestExports(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	open(t, ctx, srv, "#per-class=64&epochs=20")
	waitFor(t, ctx, "the layout", graphDrawn)
	click(t, ctx, "#play", "play")
	waitFor(t, ctx, "20 epochs", `document.querySelector("#epoch").textContent.startsWith("20 /")`)
	catchDownloads(t, ctx)
	ids := []string{"export-history", "export-weights", "export-predictions", "export-state", "export-graph", "export-curves", "export-graph-png", "export-curves-png", "export-dot", "export-bundle"}
	for _, id := range ids {
		click(t, ctx, "#"+id, "save "+id)
	}
	var names []string
	testwait.Until(t, "every file saved", 200*time.Millisecond, func() bool {
		var err error
		names, err = chromedp.Run(ctx, chromedp.Evaluate[[]string](`window.__saved.map((s) => s.name)`))
		must(t, err, "read the files saved")
		return len(names) >= len(ids)
	}, func() string { return fmt.Sprintf("%d files saved: %v", len(names), names) })
	files := downloads(t, ctx)
	if len(files) != len(ids) {
		t.Fatalf("%d files saved (%v), want %d", len(files), keys(files), len(ids))
	}
	history, err := csv.NewReader(bytes.NewReader(files["pdn-history.csv"])).ReadAll()
	if err != nil || len(history) < 3 || history[0][0] != "epoch" || history[len(history)-1][0] != "20" {
		t.Errorf("history: %d rows, %v", len(history), err)
	}
	weights, err := csv.NewReader(bytes.NewReader(files["pdn-weights.csv"])).ReadAll()
	if err != nil || len(weights) < 50 || weights[0][3] != "weight" {
		t.Errorf("weights: %d rows, %v", len(weights), err)
	}
	preds, err := csv.NewReader(bytes.NewReader(files["pdn-predictions.csv"])).ReadAll()
	if err != nil || len(preds) != 193 || preds[0][3] != "predicted" || preds[1][3] == "" {
		t.Errorf("predictions: %d rows, %v", len(preds), err)
	}
	var state map[string]any
	if err := json.Unmarshal(files["pdn-state.json"], &state); err != nil || state["permalink"] == nil {
		t.Errorf("state: %v", err)
	}
	for _, name := range []string{"pdn-graph.svg", "pdn-curves.svg"} {
		if n := xmlElements(t, name, files[name]); n < 5 {
			t.Errorf("%s: %d elements", name, n)
		}
	}
	for _, name := range []string{"pdn-graph.png", "pdn-curves.png"} {
		img, err := png.Decode(bytes.NewReader(files[name]))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		b := img.Bounds()
		if b.Dx() < 400 || b.Dy() < 200 || inkShare(img) < 0.005 {
			t.Errorf("%s: %v, %.4f of it inked", name, b, inkShare(img))
		}
		t.Logf("%s: %d×%d, %.1f%% inked, %d bytes", name, b.Dx(), b.Dy(), 100*inkShare(img), len(files[name]))
	}
	dotName := "pdn-synthetic.dot"
	f, err := dotparse.ParseBytes(files[dotName])
	if err != nil || len(f.Graphs) != 1 {
		t.Fatalf("gonum cannot parse %s: %v", dotName, err)
	}
	edges := 0
	for _, st := range f.Graphs[0].Stmts {
		if _, ok := st.(*ast.EdgeStmt); ok {
			edges++
		}
	}
	if edges != len(weights)-1 {
		t.Errorf("DOT has %d edges, the weights CSV %d", edges, len(weights)-1)
	}
	g, _, err := datasets.OpenFiles([]datasets.File{{Name: "pdn-synthetic.zip", Data: files["pdn-synthetic.zip"]}}, datasets.Columns{})
	if err != nil || g.N != 192 || g.E() != edges {
		t.Errorf("the bundle reads back as %v: %v", g, err)
	}
	t.Logf("saved: history %d rows, weights %d rows, state %d bytes, graph SVG %d bytes, curves SVG %d bytes, DOT %d bytes (%d edges), bundle %d bytes",
		len(history), len(weights), len(files["pdn-state.json"]), len(files["pdn-graph.svg"]), len(files["pdn-curves.svg"]), len(files[dotName]), edges, len(files["pdn-synthetic.zip"]))
}

// catchDownloads keeps the files the page saves from now on, in the page,
// for downloads to read.
func catchDownloads(t testing.TB, ctx context.Context) {
	t.Helper()
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => {
  window.__blobs = {}; window.__saved = [];
  const create = URL.createObjectURL;
  URL.createObjectURL = (b) => { const u = create(b); window.__blobs[u] = b; return u; };
  URL.revokeObjectURL = () => {};
  const click = HTMLAnchorElement.prototype.click;
  HTMLAnchorElement.prototype.click = function () { if (this.download) window.__saved.push({name: this.download, url: this.href}); else click.call(this); };
  return true; })()`))
	must(t, err, "catch the downloads")
}

// downloads are the files the page saved since catchDownloads, by name
// (the latest of a name), and forgets them.
func downloads(t testing.TB, ctx context.Context) map[string][]byte {
	t.Helper()
	saved, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]string](`Promise.all(window.__saved.map(async (s) => {
  const b = new Uint8Array(await window.__blobs[s.url].arrayBuffer()); let bin = "";
  for (let i = 0; i < b.length; i++) bin += String.fromCharCode(b[i]);
  return [s.name, btoa(bin)]; })).then((all) => { window.__saved = []; return Object.fromEntries(all); })`, chromedp.EvalAwaitPromise))
	must(t, err, "read the files")
	files := map[string][]byte{}
	for name, b64 := range saved {
		b, err := base64.StdEncoding.DecodeString(b64)
		must(t, err, "decode "+name)
		files[name] = b
	}
	return files
}

func keys(m map[string][]byte) []string {
	var k []string
	for n := range m {
		k = append(k, n)
	}
	return k
}

// xmlElements counts the elements of an XML file, failing on bad XML.
func xmlElements(t *testing.T, name string, b []byte) int {
	dec := xml.NewDecoder(bytes.NewReader(b))
	n := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return n
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, ok := tok.(xml.StartElement); ok {
			n++
		}
	}
}

// inkShare is the share of a picture's pixels that are not white.
func inkShare(img image.Image) float64 {
	b := img.Bounds()
	ink := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if r, g, bl, _ := img.At(x, y).RGBA(); r < 0xf000 || g < 0xf000 || bl < 0xf000 {
				ink++
			}
		}
	}
	return float64(ink) / float64(b.Dx()*b.Dy())
}

// A graph dropped on the lab trains as data=local, with a notice that the
// link cannot carry it; a malformed file picked shows the reader's
// message, and the graph stays.
func TestOpenYourOwnGraph(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	open(t, ctx, srv, "#per-class=64")
	waitFor(t, ctx, "the layout", graphDrawn)
	give := func(files map[string][]byte, drop bool) { t.Helper(); giveFiles(t, ctx, files, drop) }
	give(map[string][]byte{
		"meta.json": []byte(`{"name": "broken"}`),
		"nodes.csv": []byte("id,label,split,x0\n0,0,train,1\n1,zero,test,2\n"),
		"edges.csv": []byte("source,target,e0\n0,1,1\n"),
	}, false)
	waitFor(t, ctx, "the reader's message", `document.querySelector(".notices").textContent.includes("nodes.csv:3:3")`)
	if h := text(t, ctx, ".notices"); !strings.Contains(h, "label") {
		t.Errorf("the message does not name the column: %q", h)
	}
	screenshot(t, ctx, "43-open-malformed")
	d := experiment.Default().Data
	d.PerClass, d.P, d.Seed = 128, 0.0625, 9
	g, err := datasets.Build(d)
	must(t, err, "a graph to open")
	tree, err := outdir.NewTree(t.TempDir())
	must(t, err, "a folder for its bundle")
	dir := tree.Dir()
	must(t, datasets.WriteBundle(g, func(name string) (io.WriteCloser, error) { return tree.Create(name, 0o644) }), "write its bundle")
	files := map[string][]byte{}
	for _, name := range []string{"meta.json", "nodes.csv", "edges.csv"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		must(t, err, "read "+name)
		files[name] = b
	}
	give(files, true)
	waitFor(t, ctx, "the opened graph", `location.hash.includes("data=local") && `+nodesDrawn+` === 384`)
	if h := text(t, ctx, ".notices"); !strings.Contains(h, "384 nodes") || !strings.Contains(h, "a link to it opens without it") {
		t.Errorf("the notice: %q", h)
	}
	click(t, ctx, "#play", "play")
	waitFor(t, ctx, "the opened graph trains", `parseInt(document.querySelector("#epoch").textContent) >= 50`)
	screenshot(t, ctx, "44-open-bundle")
	acc := text(t, ctx, "#test-acc")
	t.Logf("the opened graph (384 nodes, %d edges): test accuracy %s after 50+ epochs", g.E(), acc)
	if a, err := strconv.ParseFloat(acc, 64); err != nil || a < 0.5 {
		t.Errorf("test accuracy %q on the opened graph", acc)
	}
}

// A preset is one choice away: it opens its lab with its rows.
func TestPresets(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	open(t, ctx, srv, "#per-class=64")
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const s = document.querySelector("#preset"); s.value = "sigma-d-1"; s.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`))
	must(t, err, "choose a preset")
	waitFor(t, ctx, "the preset's lab and rows", `location.hash.includes("lab=compare") && location.hash.includes("sigma-d=1") && document.querySelectorAll('.toolbar [data-metric="epoch"][data-run]').length === 2 && document.querySelector("#ctl-sigma-d").value === "1"`)
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
	// Each step's element is the one it points at: a question's, its
	// claim's figure (the σD and Q steps' test accuracies, the XOR step's
	// heatmaps).
	steps := []struct{ lab, row, focus string }{
		{"graph", "lab=graph", "graph"},
		{"compare", "sigma-d=1", "test-curves"},
		{"compare", "q=0.0625", "test-curves"},
		{"xor", "lab=xor", "surfaces"},
		{"degree", "lab=degree", "degree"},
		{"attention", "lab=attention", "attention"},
	}
	paper, _ := experiment.TourNamed("paper")
	for i, s := range steps {
		if got := paper.Steps[i].Target(); got != s.focus {
			t.Fatalf("step %d points at #%s, the test expects #%s", i+1, got, s.focus)
		}
	}
	for i, s := range steps {
		k := strconv.Itoa(i + 1)
		waitFor(t, ctx, "tour step "+k, `(() => {
  const m = document.querySelector('#tour [data-metric="tour-step"]');
  const f = document.querySelector("#`+s.focus+`");
  return m !== null && m.dataset.value === "`+k+`" && location.hash.includes("`+s.row+`") && location.hash.includes("step=`+k+`") &&
    document.querySelector("#lab-`+s.lab+`[aria-current=page]") !== null && f !== null && f.classList.contains("tour-focus");
})()`)
		if i == 1 {
			screenshot(t, ctx, "41-tour-step-2")
		}
		if i < len(steps)-1 {
			// By the Next button and by the n key, in turn.
			advanceTour(t, ctx, i+1, i%2 == 0)
		}
	}
	key(t, ctx, "b")
	waitFor(t, ctx, "back to step 5", `location.hash.includes("step=5") && document.querySelector("#lab-degree[aria-current=page]") !== null`)
	key(t, ctx, "PageDown")
	// The lab of step 6 is on view, and its panel offers Finish, before
	// Finish is clicked: a click during the navigation lands on nothing.
	waitFor(t, ctx, "on to step 6", `location.hash.includes("step=6") && document.querySelector("#lab-attention[aria-current=page]") !== null && document.querySelector("#attention.tour-focus") !== null && document.querySelector("#tour-next").textContent.includes("Finish")`)
	// A pointer click the page redraws under (its runs' snapshots) can land
	// on a button being replaced: Finish is clicked on the element itself,
	// again while the tour is on.
	ended := `location.hash.includes("tour=none") && document.querySelector("#tour.idle") !== null && document.querySelector("#lab-attention[aria-current=page]") !== null`
	for range 5 {
		done, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`new Promise((ok) => {
  const b = document.querySelector("#tour-next");
  if (b && b.textContent.includes("Finish")) b.click();
  const t0 = performance.now();
  const f = () => (`+ended+`) ? ok(true) : performance.now() - t0 > 5000 ? ok(false) : setTimeout(f, 100);
  f(); })`, chromedp.EvalAwaitPromise))
		must(t, err, "wait for the end")
		if done {
			return
		}
	}
	waitFor(t, ctx, "the tour ends, the lab stays", ended)
}

// advanceTour moves the tour on from step k, by its Next button or by
// the n key: given again while the page still shows step k and has not
// moved on within a few seconds, as a press or a click that lands on a
// panel being redrawn under load is lost; never once the step has
// changed, so it never moves on twice.
func advanceTour(t *testing.T, ctx context.Context, k int, button bool) {
	t.Helper()
	press := `document.dispatchEvent(new KeyboardEvent("keydown", {key: "n", bubbles: true}))`
	if button {
		press = `(document.querySelector("#tour-next") || {click() {}}).click()`
	}
	moved := fmt.Sprintf(`!location.hash.includes("step=%d")`, k)
	for range 5 {
		done, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`new Promise((ok) => {
  if (!(`+moved+`)) { `+press+`; }
  const t0 = performance.now();
  const f = () => (`+moved+`) ? ok(true) : performance.now() - t0 > 5000 ? ok(false) : setTimeout(f, 100);
  f(); })`, chromedp.EvalAwaitPromise))
		must(t, err, fmt.Sprintf("move on from step %d", k))
		if done {
			return
		}
	}
	waitFor(t, ctx, fmt.Sprintf("the tour to move on from step %d", k), moved)
}

// The scrubber shows an earlier epoch of a run at the paper's default
// size: its number, its accuracy and its weights; Play resumes from the
// end. It reports what 200 epochs of frames cost.
func TestRewindScrubber(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	open(t, ctx, srv, "#epochs=200")
	waitFor(t, ctx, "the layout", graphDrawn)
	click(t, ctx, "#play", "play")
	waitFor(t, ctx, "200 epochs", `document.querySelector("#epoch").textContent.startsWith("200 /")`)
	type look struct {
		Epoch, Frames, Bytes int
		Test, Intra, Inter   float64
	}
	read := func() look {
		v, err := chromedp.Run(ctx, chromedp.Evaluate[look](`(() => {
  const m = (sel) => +document.querySelector(sel).dataset.value;
  return {Epoch: m('#epoch'), Frames: parseInt(document.querySelector("#rewind .note").textContent), Bytes: m('[data-metric="rewind-bytes"]'),
    Test: m('#test-acc'), Intra: m('#graph [data-metric="intra-mean-weight"]'), Inter: m('#graph [data-metric="inter-mean-weight"]')};
})()`))
		must(t, err, "read the page")
		return v
	}
	end := read()
	t.Logf("200 epochs of the default graph: %d frames kept in %.1f kB; epoch %d, test %.3f, drawn intra %.3f / inter %.3f",
		end.Frames, float64(end.Bytes)/1000, end.Epoch, end.Test, end.Intra, end.Inter)
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const s = document.querySelector("#rewind-slider"); s.value = "5"; s.dispatchEvent(new Event("input", {bubbles: true})); return true; })()`))
	must(t, err, "rewind")
	waitFor(t, ctx, "an earlier epoch", `+document.querySelector("#epoch").dataset.value < 40 && document.querySelector("#rewind").textContent.includes("Play resumes from 200")`)
	past := read()
	t.Logf("rewound: epoch %d, test %.3f, drawn intra %.3f / inter %.3f", past.Epoch, past.Test, past.Intra, past.Inter)
	if past.Epoch >= end.Epoch || past.Inter <= end.Inter || past.Test == end.Test {
		t.Errorf("rewound %+v, at the end %+v", past, end)
	}
	screenshot(t, ctx, "45-rewind")
	click(t, ctx, "#play", "play from the end")
	waitFor(t, ctx, "back at the end", `+document.querySelector("#epoch").dataset.value === 200 && !document.querySelector("#rewind").textContent.includes("Play resumes")`)
}

// A new version deployed under an installed page: the page says so, and
// its button reloads into the new version on the same state (the link).
func TestUpdateReloadsIntoTheNewVersion(t *testing.T) {
	dir := t.TempDir()
	must(t, os.CopyFS(dir, os.DirFS(distDir(t))), "copy the site")
	srv := serve(t, dir, "/pdn/")
	ctx := browser(t)
	hash := "#lab=compare&models=pdn,gat&sigma-d=1"
	open(t, ctx, srv, hash)
	waitFor(t, ctx, "the service worker", swReady)
	waitFor(t, ctx, "the offline cache", cacheFilled)
	sw := filepath.Join(dir, "app-worker.js")
	b, err := os.ReadFile(sw)
	must(t, err, "read the service worker")
	next := strings.Replace(string(b), `const cacheName = "pdn-explorer-`, `const cacheName = "pdn-explorer-next-`, 1)
	if next == string(b) {
		t.Fatal("the service worker names no cache")
	}
	must(t, os.WriteFile(sw, []byte(next), 0o644), "deploy a new version")
	for _, copy := range []string{".gz", ".br"} {
		os.Remove(sw + copy) // the old version's compressed copies
	}
	must(t, chromedp.Do(ctx, chromedp.Reload()), "reload")
	waitFor(t, ctx, "the news of the update", `document.querySelector("#update:not(.idle) #update-reload") !== null`)
	screenshot(t, ctx, "46-update")
	click(t, ctx, "#update-reload", "reload into it")
	waitFor(t, ctx, "the new version on the same state", `caches.keys().then((ks) => ks.some((k) => k.startsWith("pdn-explorer-next-")) && !ks.some((k) => k.startsWith("pdn-explorer-") && !k.startsWith("pdn-explorer-next-")))
  .then((swapped) => swapped && document.querySelector("#update.idle") !== null && location.hash.includes("sigma-d=1") &&
    document.querySelector("#lab-compare[aria-current=page]") !== null && document.querySelector("#ctl-sigma-d") !== null && document.querySelector("#ctl-sigma-d").value === "1")`)
}

// An update never loses the link a reader came with. A site standing for
// an earlier version (this one built without the structure lab) is
// visited and cached; the site is replaced by the current build; a link
// to the structure lab, which only the current build has, is opened. The
// cached version cannot use lab=structure and keeps it in the address as
// given; after the update prompt the reader is on the structure lab with
// the link's values.
func TestUpdateKeepsTheLink(t *testing.T) {
	current := distDir(t) // the current build, made by make test-e2e
	earlier := filepath.Join(t.TempDir(), "app.wasm")
	build := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w -X pdnexplorer/experiment.withheld=structure",
		"-modfile=.cache/browser/browser.mod", "-o", earlier, "./wasm/ui")
	build.Dir = filepath.Join("..", "..")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "GOFLAGS=-tags=noasm", "GOEXPERIMENT=simd")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the earlier version: %v\n%s", err, out)
	}
	dir := t.TempDir()
	deploy := func(wasm string, cache string) {
		t.Helper()
		must(t, os.RemoveAll(dir), "take the site down")
		must(t, os.CopyFS(dir, os.DirFS(current)), "copy the site")
		if wasm != "" {
			b, err := os.ReadFile(wasm)
			must(t, err, "read the earlier page")
			must(t, os.WriteFile(filepath.Join(dir, "web", "app.wasm"), b, 0o644), "put the earlier page")
			sw := filepath.Join(dir, "app-worker.js")
			b, err = os.ReadFile(sw)
			must(t, err, "read the service worker")
			must(t, os.WriteFile(sw, []byte(strings.Replace(string(b), `const cacheName = "pdn-explorer-`, `const cacheName = "pdn-explorer-`+cache, 1)), 0o644), "name its cache")
			for _, f := range []string{"web/app.wasm", "app-worker.js"} {
				for _, copy := range []string{".gz", ".br"} {
					os.Remove(filepath.Join(dir, f+copy)) // the current build's compressed copies
				}
			}
		}
	}
	deploy(earlier, "earlier-")
	srv := serve(t, dir, "/pdn/")
	ctx := browser(t)
	open(t, ctx, srv, "#per-class=64")
	waitFor(t, ctx, "the service worker", swReady)
	waitFor(t, ctx, "the offline cache", cacheFilled)
	waitFor(t, ctx, "the earlier version, without the structure lab", `document.querySelector("#lab-graph") !== null && document.querySelector("#lab-structure") === null`)
	deploy("", "")
	link := "#lab=structure&per-class=64&models=pdn,gcn&epochs=40"
	must(t, chromedp.Do(ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(srv.url+link)), "open "+link)
	waitFor(t, ctx, "the cached version, keeping what it cannot use", `document.querySelector(".lab #play") !== null && document.querySelector("#lab-structure") === null &&
  location.hash.includes("lab=structure") && location.hash.includes("per-class=64")`)
	noticeSays(t, ctx, "lab=structure")
	waitFor(t, ctx, "the news of the update", `document.querySelector("#update:not(.idle) #update-reload") !== null`)
	screenshot(t, ctx, "46-update-keeps-the-link")
	click(t, ctx, "#update-reload", "reload into it")
	waitFor(t, ctx, "the structure lab at the link's values", `document.querySelector("#lab-structure[aria-current=page]") !== null &&
  document.querySelector("#ctl-per-class") !== null && document.querySelector("#ctl-per-class").value === "64" &&
  document.querySelector("#ctl-epochs") !== null && document.querySelector("#ctl-epochs").value === "40" &&
  document.querySelectorAll('.toolbar [data-metric="epoch"][data-run]').length === 2`)
	screenshot(t, ctx, "46-update-on-the-link")
}

// The page works by keyboard: Tab reaches every control of the graph lab
// in order (navigation, presets, tours, toolbar, scrubber, controls,
// figure, exports, the pickers of one's own graph), each with a visible
// focus ring.
func TestKeyboardReachesEverything(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	open(t, ctx, srv, "#per-class=64&epochs=10")
	waitFor(t, ctx, "the layout", graphDrawn)
	key(t, ctx, " ")
	waitFor(t, ctx, "10 epochs", `document.querySelector("#epoch").textContent.startsWith("10 /")`)
	showControl(t, ctx, "lr") // All controls, as a keyboard user would press it
	type stop struct {
		ID      string `json:"id"`
		Ring    bool   `json:"ring"`
		Visible bool   `json:"visible"`
	}
	seen := map[string]bool{}
	var missing []string
	for i := 0; i < 90; i++ {
		must(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.Tab)), "tab")
		s, err := chromedp.Run(ctx, chromedp.Evaluate[stop](`(() => {
  const el = document.activeElement; if (!el || el === document.body) return {id: "", ring: true, visible: true};
  const ring = (e) => { const cs = getComputedStyle(e); return cs.outlineStyle !== "none" && parseFloat(cs.outlineWidth) >= 2; };
  const r = el.getBoundingClientRect();
  return {id: el.id || el.tagName + "." + el.className, ring: ring(el) || (el.parentElement !== null && ring(el.parentElement)), visible: r.width > 0 || el.closest("label") !== null};
})()`))
		must(t, err, "read the focus")
		if s.ID == "" || seen[s.ID] {
			continue
		}
		seen[s.ID] = true
		if !s.Ring {
			missing = append(missing, s.ID)
		}
	}
	for _, id := range []string{"lab-xor", "preset", "tours", "present", "play", "rewind-slider", "all-controls", "ctl-classes", "ctl-lr", "threshold", "layout", "graph-figure", "export-history", "export-bundle", "open-files", "open-folder"} {
		if !seen[id] {
			t.Errorf("Tab never reaches #%s", id)
		}
	}
	if len(missing) > 0 {
		t.Errorf("no visible focus on %v", missing)
	}
	t.Logf("Tab reached %d elements, every one with a focus ring: %v", len(seen), len(missing) == 0)
}
