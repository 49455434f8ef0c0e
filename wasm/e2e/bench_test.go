//go:build !js

package e2e

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"pdnexplorer/datasets/shaped"
)

// benchLabs are the labs make bench-browser drives, with the link that
// opens each at a given number of nodes per class; a lab may come again
// in a variant of its view that costs more.
var benchLabs = []struct {
	name, variant string
	runs          int // the runs the lab trains side by side
	link          func(perClass int) string
}{
	{"graph", "", 1, func(n int) string { return fmt.Sprintf("#lab=graph&per-class=%d&epochs=100000", n) }},
	{"graph", "learned", 1, func(n int) string { return fmt.Sprintf("#lab=graph&layout=learned&per-class=%d&epochs=100000", n) }},
	{"xor", "", 4, func(n int) string { return fmt.Sprintf("#lab=xor&per-class=%d&epochs=100000", n) }},
	{"degree", "", 2, func(n int) string { return fmt.Sprintf("#lab=degree&per-class=%d&epochs=100000", n) }},
	{"compare", "", 2, func(n int) string { return fmt.Sprintf("#lab=compare&per-class=%d&epochs=100000", n) }},
}

// BenchmarkBrowser is make bench-browser: for each lab at 64, 256 and 500
// nodes per class (500 is the paper's default), and for the graph lab on
// Cora and Citeseer, the page's frame intervals
// idle and while training, and the worker's epochs/s with the page idle
// (a second worker trains alone) and while the page follows the training.
// It reports metrics, never fails on time.
func BenchmarkBrowser(b *testing.B) {
	dir := distDir(b)
	srv := serve(b, dir, "/pdn/")
	for _, lab := range benchLabs {
		for _, n := range []int{64, 256, 500} {
			name := strings.TrimSuffix(lab.name+"-"+lab.variant, "-")
			b.Run(fmt.Sprintf("%s/per-class=%d", name, n), func(b *testing.B) {
				for range b.N {
					benchLab(b, srv, lab.link(n), lab.runs, fmt.Sprintf("bench-%s-%d", name, n))
				}
			})
		}
	}
	// The real graphs have their own size: once each, in the graph lab
	// and in the attention lab (Cora, its default).
	for _, g := range []string{"cora", "citeseer"} {
		b.Run("graph/"+g, func(b *testing.B) {
			for range b.N {
				benchLab(b, srv, "#lab=graph&data="+g+"&epochs=100000", 1, "bench-graph-"+g)
			}
		})
	}
	// Facebook Page-Page's size, as a user opens it: its MUSAE files
	// dropped on the graph lab (generated with the same counts).
	b.Run("graph/facebook-shaped", func(b *testing.B) {
		files := musaeShaped(b, shaped.Facebook)
		for range b.N {
			benchOpen(b, srv, files, shaped.Facebook.Nodes)
		}
	})
	// ogbn-arxiv's size (169,343 nodes, 1,166,243 edges, 128 features),
	// as its OGB folder zipped, 91 MB: the largest graph the issue asks of
	// the page, bound by the cost model and the memory, not an edge count.
	b.Run("graph/ogbn-arxiv-shaped", func(b *testing.B) {
		zip := ogbZipShaped(b, shaped.Arxiv)
		srv.extra("/pdn/ogbn-arxiv.zip", zip)
		for range b.N {
			benchOpenStaged(b, srv, func(ctx context.Context) { stageURL(b, ctx, "ogbn-arxiv.zip", srv.url+"ogbn-arxiv.zip") }, shaped.Arxiv.Nodes)
		}
	})
	// The compare lab's four models on a graph of that size.
	b.Run("compare/facebook-shaped", func(b *testing.B) {
		files := musaeShaped(b, shaped.Facebook)
		for range b.N {
			benchCompareOpened(b, srv, files, shaped.Facebook.Nodes, "pdn,gcn,gat,pdn-edgeconv")
		}
	})
	b.Run("attention/cora", func(b *testing.B) {
		for range b.N {
			benchLab(b, srv, "#lab=attention&epochs=100000", 2, "bench-attention-cora")
		}
	})
	b.Run("keys/per-class=500", func(b *testing.B) {
		for range b.N {
			benchKeys(b, srv)
		}
	})
}

// keyStorm presses S (one epoch) 200 times, 10 ms apart, while the frames
// are measured; it resolves to the frame intervals' p50, p95 and longest,
// and the main thread's longest task and its long tasks' total (ms).
const keyStorm = `new Promise((done) => {
  const long = []; const obs = new PerformanceObserver((l) => long.push(...l.getEntries().map((e) => e.duration)));
  obs.observe({type: "longtask", buffered: false});
  const ts = []; let sent = 0; const end = performance.now() + 3000;
  const press = setInterval(() => {
    document.dispatchEvent(new KeyboardEvent("keydown", {key: "s", bubbles: true}));
    if (++sent === 200) clearInterval(press);
  }, 10);
  const tick = (t) => {
    ts.push(t);
    if (t < end) { requestAnimationFrame(tick); return; }
    obs.disconnect();
    const gaps = ts.slice(1).map((x, i) => x - ts[i]).sort((a, b) => a - b);
    done([gaps[gaps.length >> 1], gaps[Math.floor(gaps.length * 0.95)], gaps[gaps.length - 1],
      long.length ? Math.max(...long) : 0, long.reduce((a, b) => a + b, 0)]);
  };
  requestAnimationFrame(tick);
})`

// benchKeys measures a storm of key presses on the graph lab at the
// paper's default size: the frames while 200 presses of S arrive in 2 s,
// the main thread's long tasks, and the epochs they stepped (every press
// is one epoch: coalescing must not drop any).
func benchKeys(b *testing.B, srv *server) {
	ctx := browser(b)
	open(b, ctx, srv, "#epochs=100000")
	waitFor(b, ctx, "the layout", graphDrawn)
	settled(b, ctx)
	m, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](keyStorm, chromedp.EvalAwaitPromise))
	must(b, err, "press the keys")
	for last := -1; ; time.Sleep(time.Second) { // until the steps stop landing
		if e := epoch(b, ctx); e != last {
			last = e
			continue
		}
		break
	}
	b.ReportMetric(m[0], "keys-p50-ms")
	b.ReportMetric(m[1], "keys-p95-ms")
	b.ReportMetric(m[2], "keys-max-ms")
	b.ReportMetric(m[3], "longest-task-ms")
	b.ReportMetric(m[4], "long-tasks-ms")
	b.ReportMetric(float64(epoch(b, ctx)), "epochs-stepped")
	screenshot(b, ctx, "bench-keys-500")
}

// benchLab measures one lab. A lab of several runs side by side reports
// the epochs/s of all its runs together beside one worker's alone: its
// workers share the two cores, so the two differ by design.
func benchLab(b *testing.B, srv *server, link string, runs int, shot string) {
	ctx := browser(b)
	open(b, ctx, srv, link)
	count := epoch
	if runs == 1 {
		waitFor(b, ctx, "the layout", graphDrawn)
		settled(b, ctx)
	} else {
		waitFor(b, ctx, "every run", runsShown(runs))
		time.Sleep(time.Second)
		count = epochsOfRuns
	}
	idleRate := workerAlone(b, ctx, link)
	ip50, ip95, imax := frames(b, ctx, 2*time.Second)
	click(b, ctx, "#play", "play")
	waitFor(b, ctx, "training", `[...document.querySelectorAll('[data-metric="epoch"]')].every((e) => +e.dataset.value > 3)`)
	e0, t0 := count(b, ctx), now(b, ctx)
	p50, p95, mx := frames(b, ctx, 5*time.Second)
	e1, t1 := count(b, ctx), now(b, ctx)
	screenshot(b, ctx, shot)
	rate := float64(e1-e0) / ((t1 - t0) / 1000)
	b.ReportMetric(ip50, "idle-p50-ms")
	b.ReportMetric(ip95, "idle-p95-ms")
	b.ReportMetric(imax, "idle-max-ms")
	b.ReportMetric(p50, "train-p50-ms")
	b.ReportMetric(p95, "train-p95-ms")
	b.ReportMetric(mx, "train-max-ms")
	b.ReportMetric(idleRate, "alone-epochs/s")
	b.ReportMetric(rate, "shown-epochs/s")
	if idleRate > 0 {
		b.ReportMetric(100*rate/idleRate, "kept-%")
	}
}

// epochsOfRuns is the epochs of all a lab's runs, together.
func epochsOfRuns(b testing.TB, ctx context.Context) int {
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`[...document.querySelectorAll('.toolbar [data-metric="epoch"][data-run]')].reduce((s, e) => s + (+e.dataset.value), 0)`))
	must(b, err, "read the runs' epochs")
	return n
}

// workerAlone trains the state of link for a few seconds in a second engine
// worker that no view follows, while the page stays idle, and returns its
// epochs per second: what the worker reaches when the page costs nothing.
func workerAlone(b *testing.B, ctx context.Context, link string) float64 {
	rate, err := chromedp.Run(ctx, chromedp.Evaluate[float64](workerAloneJS(link), chromedp.EvalAwaitPromise))
	must(b, err, "train in a worker alone")
	return rate
}

func workerAloneJS(link string) string {
	return fmt.Sprintf(`new Promise((done) => {
	  const w = new Worker("web/worker.js"), pts = [];
	  const send = (c) => w.postMessage({json: JSON.stringify(c)});
	  let lastLayout = 0, started = 0, first = 0;
	  w.onmessage = (m) => {
	    const ev = JSON.parse(m.data.json);
	    if (ev.kind === "ready") send({op: "set", state: %q, run: 1, layout: %q});
	    if (ev.kind === "snapshot" && !first) first = performance.now();
	    if (ev.kind === "layout") lastLayout = performance.now();
	    if (ev.kind === "snapshot" && started && ev.snap.epoch > 0) pts.push([performance.now(), ev.snap.epoch]);
	  };
	  // Train once the worker's own layout is done (or a moment after the
	  // first snapshot, for a lab that lays out none), for 6 s; skip the first.
	  const poll = setInterval(() => {
	    const now = performance.now();
	    if (!started && lastLayout > 0 && now - lastLayout > 1500) { started = now; send({op: "start", run: 1}); }
	    if (!started && %t && first > 0 && now - first > 1000) { started = now; send({op: "start", run: 1}); }
	    if (started && now - started > 6000) {
	      clearInterval(poll); w.terminate();
	      const from = pts.filter((p) => p[0] < started + 1000).length;
	      const a = pts[Math.min(from, pts.length - 2)], z = pts[pts.length - 1];
	      done(pts.length < 2 ? 0 : (z[1] - a[1]) / ((z[0] - a[0]) / 1000));
	    }
	  }, 100);
	})`, stateOf(link), layoutOf(link), layoutOf(link) != "")
}

// stateOf is the experiment of a link, as the worker reads it: the lab
// row brings the lab's defaults (the XOR lab's graph), the view's rows
// are ignored.
func stateOf(link string) string { return strings.TrimPrefix(link, "#") }

// layoutOf is what a link's lab asks of the worker's layout: none for the
// labs that draw no graph.
func layoutOf(link string) string {
	if strings.HasPrefix(link, "#lab=graph") {
		return ""
	}
	return "none"
}

// settled waits until the layout stops moving (the worker lays the graph
// out for some seconds after the first positions show), so that idle
// means idle: the same picture of the nodes twice, a second apart.
func settled(b *testing.B, ctx context.Context) {
	last := ""
	//testwait:fixed a benchmark measures what it gets after 90 s, and says so
	for deadline := time.Now().Add(90 * time.Second); time.Now().Before(deadline); time.Sleep(time.Second) {
		now, err := chromedp.Run(ctx, chromedp.Evaluate[string](nodesPicture))
		must(b, err, "read the nodes' picture")
		if now == last && now != "" {
			return
		}
		last = now
	}
	b.Log("the layout still moved after 90 s")
}

// nodesPicture is a digest of the node canvas's pixels.
const nodesPicture = `(() => {
  const c = document.querySelector("#graph-nodes");
  if (!c || !c.width) return "";
  const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
  let h = 0;
  for (let i = 3; i < d.length; i += 4) h = (h * 31 + d[i]) | 0;
  return c.width + ":" + h;
})()`

// BenchmarkFrames measures the page's frame intervals, idle and while it
// trains at the paper's default size (the standard: p95 ≤ 50 ms while
// training), and the worker's epochs a second.
func BenchmarkFrames(b *testing.B) {
	srv := serve(b, distDir(b), "/pdn/")
	for range b.N {
		ctx := browser(b)
		open(b, ctx, srv, "#epochs=100000")
		waitFor(b, ctx, "the layout", graphDrawn)
		ip50, ip95, iworst := frames(b, ctx, 3*time.Second)
		click(b, ctx, "#play", "play")
		waitFor(b, ctx, "training", `parseInt(document.querySelector("#epoch").textContent) > 3`)
		p50, p95, worst := frames(b, ctx, 5*time.Second)
		b.ReportMetric(ip50, "idle-p50-ms")
		b.ReportMetric(ip95, "idle-p95-ms")
		b.ReportMetric(iworst, "idle-max-ms")
		b.ReportMetric(p50, "train-p50-ms")
		b.ReportMetric(p95, "train-p95-ms")
		b.ReportMetric(worst, "train-max-ms")
	}
}

// BenchmarkSweepLab runs the sweep in the page (scenario 4, PDN
// and GCN, 3 graphs a value: 42 runs on the pool of workers) and reports
// its time and the frames while it runs.
func BenchmarkSweepLab(b *testing.B) {
	srv := serve(b, distDir(b), "/pdn/")
	for range b.N {
		ctx := browser(b)
		open(b, ctx, srv, "#lab=sweep&scenario=4&models=pdn,gcn&reps=3")
		waitFor(b, ctx, "the sweep lab", `document.querySelector('[data-metric="sweep-total"]') !== null`)
		start := time.Now()
		click(b, ctx, "#play", "run the sweep")
		p50, p95, mx := frames(b, ctx, 10*time.Second)
		waitFor(b, ctx, "every run", `+document.querySelector('[data-metric="sweep-done"]').dataset.value === 42`)
		b.ReportMetric(time.Since(start).Seconds(), "sweep-s")
		b.ReportMetric(p50, "frame-p50-ms")
		b.ReportMetric(p95, "frame-p95-ms")
		b.ReportMetric(mx, "frame-max-ms")
	}
}

// BenchmarkSweepHeld runs the audit's freeze (case 136: the sweep lab's
// 280 runs of PDN, GAT, DeepWalk and ClusterGCN, which held the main
// thread 1.07–1.60 s seven times under load) to its end and reports the
// page's long tasks: how many, the longest, and how many held it over a
// second (a freeze), with the frames while it ran. Load the machine (two
// busy processes) to measure it as the audit did.
func BenchmarkSweepHeld(b *testing.B) {
	srv := serve(b, distDir(b), "/")
	for range b.N {
		ctx := browser(b)
		open(b, ctx, srv, "#lab=sweep&scenario=2&reps=10&models=pdn,gat,deepwalk,clustergcn")
		waitFor(b, ctx, "the estimate", `document.querySelector("#sweep-left").textContent.includes("estimate")`)
		_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](recordStart))
		must(b, err, "start recording")
		start := time.Now()
		key(b, ctx, " ")
		waitFor(b, ctx, "the warning", `document.querySelector(".notices").textContent.includes("This sweep will take about")`)
		key(b, ctx, " ")
		waitFor(b, ctx, "every run", `+document.querySelector('[data-metric="sweep-done"]').dataset.value === 280`)
		took := time.Since(start)
		m, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => {
  const rec = window.rec; rec.on = false; rec.obs.disconnect();
  const gaps = rec.ts.slice(1).map((x, i) => x - rec.ts[i]).sort((a, b) => a - b);
  return [gaps[gaps.length >> 1], gaps[Math.floor(gaps.length * 0.95)], gaps[gaps.length - 1],
    rec.long.length, rec.long.length ? Math.max(...rec.long) : 0, rec.long.filter((d) => d > 1000).length,
    gaps.filter((d) => d > 1000).length];
})()`))
		must(b, err, "stop recording")
		screenshot(b, ctx, "bench-sweep-280")
		b.ReportMetric(took.Seconds(), "sweep-s")
		b.ReportMetric(m[0], "frame-p50-ms")
		b.ReportMetric(m[1], "frame-p95-ms")
		b.ReportMetric(m[2], "frame-max-ms")
		b.ReportMetric(m[3], "long-tasks")
		b.ReportMetric(m[4], "longest-task-ms")
		b.ReportMetric(m[5], "tasks-over-1s")
		b.ReportMetric(m[6], "frames-over-1s")
	}
}

// musaeShaped is a graph of shape s, as the MUSAE files a user drops.
func musaeShaped(b *testing.B, s shaped.Shape) map[string][]byte {
	g, err := shaped.Generate(s, 1)
	must(b, err, "generate "+s.Name)
	files := map[string][]byte{}
	for _, f := range g.MUSAE() {
		files[f.Name] = f.Data
	}
	return files
}

// openTimed drops the staged files on the graph lab and resolves to the
// milliseconds until the page says it opened them, until it draws all
// the graph's nodes (the second verb), and the longest frame between.
const openTimed = `new Promise((done) => {
  const t0 = performance.now(); let opened = 0, last = t0, worst = 0;
  const frame = (t) => { worst = Math.max(worst, t - last); last = t; requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
  %s;
  const poll = () => {
    const t = performance.now(), m = document.querySelector('[data-metric="nodes-drawn"]');
    if (!opened && document.querySelector(".notices").textContent.includes("Opened ")) opened = t;
    if (opened && m && +m.dataset.value >= %d) { done([opened - t0, t - t0, worst]); return; }
    if (t - t0 > 600000) { done([opened - t0, -1, worst]); return; }
    setTimeout(poll, 20);
  };
  poll();
})`

// benchOpen measures a user's graph in the graph lab: the time from the
// drop of its files until the page says it opened them and until it
// draws all its nodes, then the frames and epochs/s as for a lab.
func benchOpen(b *testing.B, srv *server, files map[string][]byte, nodes int) {
	benchOpenStaged(b, srv, func(ctx context.Context) { stageFiles(b, ctx, files) }, nodes)
}

// benchOpenStaged is benchOpen of the files stage puts in window.staged,
// with the peak memory of the page's renderer (its main thread and its
// workers: the largest resident set it reached, VmHWM).
func benchOpenStaged(b *testing.B, srv *server, stage func(ctx context.Context), nodes int) {
	ctx := browser(b)
	open(b, ctx, srv, "#epochs=100000")
	waitFor(b, ctx, "the layout", graphDrawn)
	stage(ctx)
	m, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](fmt.Sprintf(openTimed, giveStaged(true), nodes), chromedp.EvalAwaitPromise))
	must(b, err, "open the files")
	if m[1] < 0 {
		b.Fatalf("the page did not draw the %d nodes in 600 s (opened after %.0f ms)", nodes, m[0])
	}
	settled(b, ctx)
	screenshot(b, ctx, "bench-open-"+strconv.Itoa(nodes))
	ip50, ip95, imax := frames(b, ctx, 2*time.Second)
	click(b, ctx, "#play", "play")
	waitFor(b, ctx, "training", `+document.querySelector('[data-metric="epoch"]').dataset.value > 3`)
	e0, t0 := epoch(b, ctx), now(b, ctx)
	p50, p95, mx := frames(b, ctx, 8*time.Second)
	// A graph whose epoch takes seconds: at least 5 epochs, so that the
	// rate is not one epoch more or less.
	//testwait:fixed a benchmark measures what it gets after 120 s
	for deadline := time.Now().Add(120 * time.Second); epoch(b, ctx) < e0+5 && time.Now().Before(deadline); time.Sleep(500 * time.Millisecond) {
	}
	e1, t1 := epoch(b, ctx), now(b, ctx)
	screenshot(b, ctx, "bench-open-train-"+strconv.Itoa(nodes))
	b.ReportMetric(m[0]/1000, "opened-s")
	b.ReportMetric(m[1]/1000, "drawn-s")
	b.ReportMetric(m[2], "open-max-frame-ms")
	b.ReportMetric(ip50, "idle-p50-ms")
	b.ReportMetric(ip95, "idle-p95-ms")
	b.ReportMetric(imax, "idle-max-ms")
	b.ReportMetric(p50, "train-p50-ms")
	b.ReportMetric(p95, "train-p95-ms")
	b.ReportMetric(mx, "train-max-ms")
	b.ReportMetric(float64(e1-e0)/((t1-t0)/1000), "shown-epochs/s")
	if peak := rendererPeak(ctx); peak > 0 {
		b.ReportMetric(float64(peak)/(1<<20), "renderer-peak-MB")
	}
}

// ogbZipShaped is a graph of shape s as its OGB folder, zipped under a
// folder of its name, as a user sends one.
func ogbZipShaped(b *testing.B, s shaped.Shape) []byte {
	g, err := shaped.Generate(s, 1)
	must(b, err, "generate "+s.Name)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range g.OGB() {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: s.Name + "/" + f.Name, Method: zip.Store}) // gzipped already
		must(b, err, "zip "+f.Name)
		_, err = w.Write(f.Data)
		must(b, err, "zip "+f.Name)
	}
	must(b, zw.Close(), "zip "+s.Name)
	return buf.Bytes()
}

// stageURL stages the file at url as window.staged, named name: fetched by
// the page, as large files cannot cross the DevTools protocol as text.
func stageURL(b *testing.B, ctx context.Context, name, url string) {
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`fetch(%q).then((r) => r.blob()).then((blob) => {
	  const dt = new DataTransfer(); dt.items.add(new File([blob], %q)); window.staged = dt; return true; })`, url, name), chromedp.EvalAwaitPromise))
	must(b, err, "stage "+name)
}

// rendererPeak is the largest resident set (VmHWM, bytes) of the
// browser's renderer processes: the page's, with its workers. 0 where
// the system does not say (not Linux).
func rendererPeak(ctx context.Context) int64 {
	c := chromedp.FromContext(ctx)
	if c == nil || c.Browser == nil || c.Browser.Process() == nil {
		return 0
	}
	root := c.Browser.Process().Pid
	parent := map[int]int{}
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + d.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: the comm may hold spaces.
		f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if len(f) > 1 {
			parent[pid], _ = strconv.Atoi(f[1])
		}
	}
	var peak int64
	for pid := range parent {
		up := pid
		for up != root && up > 1 {
			up = parent[up]
		}
		cmd, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if up != root || !bytes.Contains(cmd, []byte("--type=renderer")) {
			continue
		}
		status, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
		for _, line := range strings.Split(string(status), "\n") {
			if kb, ok := strings.CutPrefix(line, "VmHWM:"); ok {
				n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(kb), "kB")), 10, 64)
				peak = max(peak, n<<10)
			}
		}
	}
	return peak
}

// recordStart starts recording the page's frame intervals and long tasks
// into window.rec; recordStop ends it and resolves to the frames' p50,
// p95 and longest, and the longest task (ms).
const (
	recordStart = `(() => {
  const rec = window.rec = {ts: [], long: [], on: true};
  rec.obs = new PerformanceObserver((l) => rec.long.push(...l.getEntries().map((e) => e.duration)));
  rec.obs.observe({type: "longtask", buffered: false});
  const tick = (t) => { if (!rec.on) return; rec.ts.push(t); requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  return true;
})()`
	recordStop = `(() => {
  const rec = window.rec; rec.on = false; rec.obs.disconnect();
  const gaps = rec.ts.slice(1).map((x, i) => x - rec.ts[i]).sort((a, b) => a - b);
  return [gaps[gaps.length >> 1], gaps[Math.floor(gaps.length * 0.95)], gaps[gaps.length - 1], rec.long.length ? Math.max(...rec.long) : 0];
})()`
)

// record runs f while the page's frames and long tasks are recorded.
func record(b *testing.B, ctx context.Context, f func()) (p50, p95, worst, longest float64) {
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](recordStart))
	must(b, err, "start recording")
	f()
	m, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](recordStop))
	must(b, err, "stop recording")
	return m[0], m[1], m[2], m[3]
}

// benchCompareOpened measures the compare lab with four models on a
// user's graph: its files dropped on the graph lab, then the compare lab
// opened on it (the engine keeps the files), the runs laid out and
// trained for 10 s. It reports the frames and long tasks while the lab
// opens and while it trains, and the runs' epochs/s together.
func benchCompareOpened(b *testing.B, srv *server, files map[string][]byte, nodes int, models string) {
	ctx := browser(b)
	open(b, ctx, srv, "#epochs=100000")
	waitFor(b, ctx, "the layout", graphDrawn)
	stageFiles(b, ctx, files)
	_, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](fmt.Sprintf(openTimed, giveStaged(true), nodes), chromedp.EvalAwaitPromise))
	must(b, err, "open the files")
	runs := strings.Count(models, ",") + 1
	o50, o95, omax, olong := record(b, ctx, func() {
		_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { location.hash = "#lab=compare&data=local&epochs=100000&models=`+models+`"; return true; })()`))
		must(b, err, "open the compare lab")
		waitFor(b, ctx, "every run", runsShown(runs))
		time.Sleep(3 * time.Second)
	})
	screenshot(b, ctx, "bench-compare-opened")
	var p50, p95, mx, long float64
	var e0, e1 int
	var t0, t1 float64
	p50, p95, mx, long = record(b, ctx, func() {
		click(b, ctx, "#play", "play")
		waitFor(b, ctx, "training", `[...document.querySelectorAll('.toolbar [data-metric="epoch"][data-run]')].every((e) => +e.dataset.value > 1)`)
		e0, t0 = epochsOfRuns(b, ctx), now(b, ctx)
		time.Sleep(10 * time.Second)
		e1, t1 = epochsOfRuns(b, ctx), now(b, ctx)
	})
	screenshot(b, ctx, "bench-compare-trained")
	b.ReportMetric(o50, "open-p50-ms")
	b.ReportMetric(o95, "open-p95-ms")
	b.ReportMetric(omax, "open-max-ms")
	b.ReportMetric(olong, "open-longest-task-ms")
	b.ReportMetric(p50, "train-p50-ms")
	b.ReportMetric(p95, "train-p95-ms")
	b.ReportMetric(mx, "train-max-ms")
	b.ReportMetric(long, "train-longest-task-ms")
	b.ReportMetric(float64(e1-e0)/((t1-t0)/1000), "all-runs-epochs/s")
}

// BenchmarkStructureLab trains the structure lab at its defaults (PDN, GCN
// and GAT live), then its robustness curves and transfer table on the
// pool (78 runs), and reports the frames while the pool trains (the
// standard: p95 ≤ 50 ms) and the pool's time.
func BenchmarkStructureLab(b *testing.B) {
	srv := serve(b, distDir(b), "/")
	for range b.N {
		ctx := browser(b)
		open(b, ctx, srv, "#lab=structure")
		waitFor(b, ctx, "the structure lab", `document.querySelector("#side-run") !== null`)
		key(b, ctx, " ")
		waitFor(b, ctx, "the three runs trained", `(() => { const r = [...document.querySelectorAll('[data-metric="epoch-final"]')]; return r.length === 3 && r.every((e) => +e.dataset.value === 200); })()`)
		start := time.Now()
		click(b, ctx, "#side-run", "run robustness and transfer")
		p50, p95, mx := frames(b, ctx, 10*time.Second)
		waitFor(b, ctx, "every side run", `document.querySelector("#side-progress").value === +document.querySelector("#side-progress").max`)
		b.ReportMetric(time.Since(start).Seconds(), "pool-s")
		b.ReportMetric(p50, "frame-p50-ms")
		b.ReportMetric(p95, "frame-p95-ms")
		b.ReportMetric(mx, "frame-max-ms")
	}
}
