//go:build !js

package e2e

import (
	"fmt"
	"net"
	"net/http"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"pdnexplorer/wasm/site"
)

// visitWatch records, from the first moment of the page, when a visitor
// first sees the lab's layout (its Play button on screen, prerendered or
// live), when the lab is live (the page's Go program has replaced the
// prerendered markup: its controls answer), and when it is ready to train
// (the engine has answered and the graph is drawn); and the first
// contentful paint. Times are the page's clock, from navigation start.
const visitWatch = `(() => {
  const v = window.__visit = {fcp: 0, layout: 0, live: 0, ready: 0};
  new PerformanceObserver((l) => {
    for (const e of l.getEntries()) if (e.name === "first-contentful-paint") v.fcp = e.startTime;
  }).observe({type: "paint", buffered: true});
  const shown = (el) => el !== null && el.getClientRects().length > 0;
  const tick = (t) => {
    const wall = performance.timeOrigin + t;
    if (!v.layout && shown(document.querySelector(".lab .toolbar #play"))) v.layout = t;
    if (!v.live && document.querySelector(".prerendered") === null && document.querySelector(".lab #play") !== null) [v.live, v.liveWall] = [t, wall];
    const epoch = document.querySelector("#epoch"), drawn = document.querySelector('[data-metric="nodes-drawn"]');
    if (v.live && !v.ready && epoch && epoch.textContent.startsWith("0 /") && drawn && +drawn.dataset.value > 0) [v.ready, v.readyWall] = [t, wall];
    if (!v.ready) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})()`

// visitTimes reads the visit: first contentful paint, layout, live and
// ready on the page's clock, and live and ready on the wall clock (ms since
// the Unix epoch), which the server's link shares.
const visitTimes = `(() => {
  const v = window.__visit;
  return [v.fcp, v.layout, v.live, v.ready, v.liveWall, v.readyWall];
})()`

// networks are the links a first visit is measured over: throughput in
// Mbit/s, shared by every request of the page, its workers and its service
// worker, and the round trip in ms before each response.
var networks = []struct {
	name    string
	mbit    float64
	latency float64
}{
	{"100Mbit", 100, 10},
	{"10Mbit", 10, 20},
	{"1.6Mbit", 1.6, 40},
}

// BenchmarkFirstVisit is a first visit of the explorer (a fresh profile:
// nothing cached, no service worker) over each of networks, served as
// make run serves it: when the lab's layout shows, when the lab is live
// and when it is ready to train, in ms, and the kilobytes fetched before
// each; and all the site sent meanwhile (the service worker's precache
// included, once the page is ready and idle for a few seconds).
func BenchmarkFirstVisit(b *testing.B) {
	dir := distDir(b)
	for _, n := range networks {
		b.Run(n.name, func(b *testing.B) {
			for range b.N {
				firstVisit(b, dir, n.mbit, n.latency)
			}
		})
	}
}

func firstVisit(b *testing.B, dir string, mbit, latency float64) {
	l := &link{rate: mbit * 1e6 / 8, latency: time.Duration(latency * float64(time.Millisecond))}
	url := l.serve(b, dir)
	ctx := browser(b)
	_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: visitWatch})
	must(b, err, "watch the visit")
	must(b, chromedp.Do(ctx, chromedp.Navigate(url)), "open")
	waitFor(b, ctx, "the lab ready to train", `window.__visit && window.__visit.ready > 0`)
	m, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](visitTimes))
	must(b, err, "read the visit")
	screenshot(b, ctx, fmt.Sprintf("first-visit-%gmbit", mbit))
	time.Sleep(5 * time.Second) // the service worker's precache, once the page is ready
	b.ReportMetric(m[0], "fcp-ms")
	b.ReportMetric(m[1], "layout-ms")
	b.ReportMetric(m[2], "live-ms")
	b.ReportMetric(m[3], "ready-ms")
	b.ReportMetric(float64(l.sentBy(unixMilli(m[4])))/1000, "kB-before-live")
	b.ReportMetric(float64(l.sentBy(unixMilli(m[5])))/1000, "kB-before-ready")
	b.ReportMetric(float64(l.sentBy(time.Now()))/1000, "kB-sent-in-all")
}

func unixMilli(ms float64) time.Time { return time.UnixMicro(int64(ms * 1000)) }

// link is a network link between the site and the browser: its throughput
// (bytes/s) is shared by all responses, each of which waits the latency
// first. It keeps when each byte it carried got through, so that what
// was sent before a moment of the page can be read back.
type link struct {
	rate    float64
	latency time.Duration

	mu    sync.Mutex
	free  time.Time // when the link is free for the next bytes
	total int64
	marks []linkMark // cumulative bytes through, by time
}

type linkMark struct {
	at    time.Time
	total int64
}

// serve serves dir at / over the link, with the site's own handler as make
// run does (precompressed copies, HTTP caching allowed), and returns its
// URL.
func (l *link) serve(b testing.TB, dir string) string {
	return l.serveThen(b, dir, func(*http.Request) {})
}

// serveThen is serve, calling sent once each response has gone through.
func (l *link) serveThen(b testing.TB, dir string, sent func(*http.Request)) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	h := site.Handler(dir, "/", false)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(l.latency)
		h.ServeHTTP(&linkWriter{ResponseWriter: w, l: l}, r)
		sent(r)
	})}
	go srv.Serve(ln)
	b.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String() + "/"
}

// carry waits until n more bytes have gone through the link.
func (l *link) carry(n int) {
	l.mu.Lock()
	now := time.Now()
	if l.free.Before(now) {
		l.free = now
	}
	l.free = l.free.Add(time.Duration(float64(n) / l.rate * float64(time.Second)))
	l.total += int64(n)
	until := l.free
	l.marks = append(l.marks, linkMark{until, l.total})
	l.mu.Unlock()
	time.Sleep(time.Until(until))
}

// sentBy is the bytes through the link by t.
func (l *link) sentBy(t time.Time) int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	i := sort.Search(len(l.marks), func(i int) bool { return l.marks[i].at.After(t) })
	if i == 0 {
		return 0
	}
	return l.marks[i-1].total
}

// linkWriter sends a response's body over the link, 16 kB at a time.
type linkWriter struct {
	http.ResponseWriter
	l *link
}

func (w *linkWriter) Write(p []byte) (int, error) {
	n := 0
	for len(p) > 0 {
		chunk := p[:min(len(p), 16<<10)]
		w.l.carry(len(chunk))
		k, err := w.ResponseWriter.Write(chunk)
		n += k
		if err != nil {
			return n, err
		}
		p = p[len(chunk):]
	}
	return n, nil
}

// The entry page draws the lab its link names before the page's program
// runs: with the program held back (go-app's ?wasm=false), the lab of the
// address shows, in projector mode if it asks, the others stay hidden,
// and nothing of it answers; the program, once it runs, replaces it all.
func TestEntryPageDrawsTheLab(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	shown := `[...document.querySelectorAll(".prerendered > [data-lab]")].filter((l) => !l.hidden).map((l) => l.dataset.lab).join(",")`
	for _, tc := range []struct{ hash, lab string }{
		{"", "graph"},
		{"#lab=xor&per-class=64", "xor"},
		{"#lab=compare&present=1", "compare"},
		{"#lab=nonsense", "graph"},
	} {
		must(t, chromedp.Do(ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(srv.url+"?wasm=false"+tc.hash)), "open "+tc.hash)
		waitFor(t, ctx, "the drawn labs", `document.readyState === "complete"`)
		got, err := chromedp.Run(ctx, chromedp.Evaluate[string](shown))
		must(t, err, "read the labs shown")
		if got != tc.lab {
			t.Errorf("%q shows the labs %q, want %q", tc.hash, got, tc.lab)
		}
		present, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector(".prerendered > [data-lab]:not([hidden]) .explorer.present") !== null`))
		must(t, err, "read projector mode")
		if want := strings.Contains(tc.hash, "present=1"); present != want {
			t.Errorf("%q: projector mode %v, want %v", tc.hash, present, want)
		}
	}
	inert, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector(".prerendered").inert && document.querySelector(".prerendered #play") !== null`))
	must(t, err, "read the drawn lab")
	if !inert {
		t.Error("the drawn lab answers before the page's program runs")
	}
	must(t, chromedp.Do(ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(srv.url+"?wasm=false#lab=graph")), "open the graph lab")
	screenshot(t, ctx, "60-entry-page")
	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile), chromedp.Reload()), "a phone's screen")
	screenshot(t, ctx, "61-entry-page-phone")
	open(t, ctx, srv, "#lab=xor&per-class=64")
	if n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll(".prerendered, [data-lab]").length`)); err != nil || n != 0 {
		t.Errorf("%d drawn labs left once the program runs (%v)", n, err)
	}
}
