//go:build !js

package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// benchLabs are the labs make bench-browser drives, with the link that
// opens each at a given number of nodes per class; a lab may come again
// in a variant of its view that costs more.
var benchLabs = []struct {
	name, variant string
	link          func(perClass int) string
}{
	{"graph", "", func(n int) string { return fmt.Sprintf("#lab=graph&per-class=%d&epochs=100000", n) }},
	{"graph", "learned", func(n int) string { return fmt.Sprintf("#lab=graph&layout=learned&per-class=%d&epochs=100000", n) }},
}

// BenchmarkBrowser is make bench-browser: for each lab at 64, 256 and 500
// nodes per class (500 is the paper's default), the page's frame intervals
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
					benchLab(b, srv, lab.link(n), fmt.Sprintf("bench-%s-%d", name, n))
				}
			})
		}
	}
}

func benchLab(b *testing.B, srv *server, link, shot string) {
	ctx := browser(b)
	open(b, ctx, srv, link)
	waitFor(b, ctx, "the layout", graphDrawn, 90*time.Second)
	settled(b, ctx)
	idleRate := workerAlone(b, ctx, link)
	ip50, ip95, imax := frames(b, ctx, 2*time.Second)
	must(b, chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#play"))), "play")
	waitFor(b, ctx, "training", `parseInt(document.querySelector("#epoch").textContent) > 3`, 60*time.Second)
	e0, t0 := epoch(b, ctx), now(b, ctx)
	p50, p95, mx := frames(b, ctx, 5*time.Second)
	e1, t1 := epoch(b, ctx), now(b, ctx)
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

// workerAlone trains the state of link for a few seconds in a second engine
// worker that no view follows, while the page stays idle, and returns its
// epochs per second: what the worker reaches when the page costs nothing.
func workerAlone(b *testing.B, ctx context.Context, link string) float64 {
	js := fmt.Sprintf(`new Promise((done) => {
	  const w = new Worker("web/worker.js"), pts = [];
	  const send = (c) => w.postMessage({json: JSON.stringify(c)});
	  let lastLayout = 0, started = 0;
	  w.onmessage = (m) => {
	    const ev = JSON.parse(m.data.json);
	    if (ev.kind === "ready") send({op: "set", state: %q, run: 1});
	    if (ev.kind === "layout") lastLayout = performance.now();
	    if (ev.kind === "snapshot" && started && ev.snap.epoch > 0) pts.push([performance.now(), ev.snap.epoch]);
	  };
	  // Train once the worker's own layout is done, for 6 s; skip the first.
	  const poll = setInterval(() => {
	    const now = performance.now();
	    if (!started && lastLayout > 0 && now - lastLayout > 1500) { started = now; send({op: "start", run: 1}); }
	    if (started && now - started > 6000) {
	      clearInterval(poll); w.terminate();
	      const from = pts.filter((p) => p[0] < started + 1000).length;
	      const a = pts[Math.min(from, pts.length - 2)], z = pts[pts.length - 1];
	      done(pts.length < 2 ? 0 : (z[1] - a[1]) / ((z[0] - a[0]) / 1000));
	    }
	  }, 100);
	})`, stateOf(link))
	rate, err := chromedp.Run(ctx, chromedp.Evaluate[float64](js, chromedp.EvalAwaitPromise))
	must(b, err, "train in a worker alone")
	return rate
}

// stateOf is the experiment part of a link: the worker knows nothing of
// labs or views.
func stateOf(link string) string {
	var kept []string
	for _, kv := range strings.Split(strings.TrimPrefix(link, "#"), "&") {
		if !strings.HasPrefix(kv, "lab=") {
			kept = append(kept, kv)
		}
	}
	return strings.Join(kept, "&")
}

// settled waits until the layout stops moving (the worker lays the graph
// out for some seconds after the first positions show), so that idle
// means idle: the same picture of the nodes twice, a second apart.
func settled(b *testing.B, ctx context.Context) {
	last := ""
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
