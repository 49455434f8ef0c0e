package e2e

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"pdnexplorer/datasets/shaped"
	"pdnexplorer/wasm/protocol"
)

// The engine runs on threads where the page is cross-origin isolated:
// served with COOP and COEP (make run), the graph lab's worker runs its
// products on the cores, up to 4 (data-metric="threads"); served without
// them, as a static host serves it, on one thread, saying why; and once
// the service worker serves the page, isolated by it, on threads again.
// All three train the default run to the same bits.
func TestThreadsGiveTheBitsOfOneThread(t *testing.T) {
	want := min(runtime.NumCPU(), 4)
	if want < 2 {
		t.Logf("this machine has one core: every page runs on one thread")
		want = 1
	}
	srv := serve(t, distDir(t), "/pdn/")
	isolated := trainedOnThreads(t, browser(t), srv, want, "")
	plain := serve(t, distDir(t), "/pdn/")
	plain.plain = true
	ctx := browser(t)
	one := trainedOnThreads(t, ctx, plain, 1, protocol.ThreadsNotIsolated)
	waitFor(t, ctx, "the service worker", swReady)
	bySW := trainedOnThreads(t, ctx, plain, want, "")
	t.Logf("loss and test accuracy at epoch 200: isolated %v, not %v, by the service worker %v", isolated, one, bySW)
	if isolated != one || bySW != one {
		t.Errorf("the default run at epoch 200: %v on %d threads, %v on one, %v isolated by the service worker; want the same bits", isolated, want, one, bySW)
	}
}

// trainedOnThreads opens the graph lab from srv, sees that its engine runs
// on threads (and why one), trains the default run to its end, and
// returns its loss and test accuracy as the page holds them.
func trainedOnThreads(t *testing.T, ctx context.Context, srv *server, threads int, why string) [2]string {
	t.Helper()
	open(t, ctx, srv, "#lab=graph&speed=0")
	waitFor(t, ctx, "the engine's threads", `document.querySelector('[data-metric="threads"]').dataset.value !== "NaN"`)
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[document.querySelector('[data-metric="threads"]').dataset.value, crossOriginIsolated + "", document.querySelector('#threads').closest('.stat').title]`))
	must(t, err, "read the threads")
	t.Logf("%s: threads %s, isolated %s, %q", srv.url, got[0], got[1], got[2])
	if got[0] != strconv.Itoa(threads) {
		t.Errorf("%s: the engine runs on %s threads; want %d", srv.url, got[0], threads)
	}
	if why != "" && got[2] == "" {
		t.Errorf("%s: one thread, and the page does not say why (%s)", srv.url, why)
	}
	click(t, ctx, "#play", "play")
	waitFor(t, ctx, "the run's end", `document.querySelector("#epoch").textContent.startsWith("200 /")`)
	atRest(t, ctx)
	numbers, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`["loss", "test-accuracy"].map((m) => document.querySelector('.toolbar [data-metric="' + m + '"]').dataset.value).concat([document.querySelector('[data-metric="threads"]').dataset.helped])`))
	must(t, err, "read the run's numbers")
	t.Logf("%s: the helper threads ran %s pieces", srv.url, numbers[2])
	if helped, _ := strconv.Atoi(numbers[2]); (helped > 0) != (threads > 1) {
		t.Errorf("%s: on %d threads, the helpers ran %s pieces", srv.url, threads, numbers[2])
	}
	return [2]string{numbers[0], numbers[1]}
}

// BenchmarkThreads trains the Facebook-shaped graph, opened as a user's
// MUSAE folder, in the graph lab on one thread (served without COOP and
// COEP) and on the cores (served with them), in turns, two rounds: the
// epochs a second each shows from epoch 4 to its 60th and last, their
// ratio (threads over one), and the frames while it trains. Both must end
// on the same loss, to the bit. It reports metrics, never fails on time.
func BenchmarkThreads(b *testing.B) {
	files := musaeShaped(b, shaped.Facebook)
	isolated := serve(b, distDir(b), "/pdn/")
	plain := serve(b, distDir(b), "/pdn/")
	plain.plain = true
	var rates [2][]float64
	var losses [2]string
	var p95s [2][]float64
	for range 2 * b.N {
		for i, srv := range []*server{plain, isolated} {
			rate, p95, loss, threads := trainedFacebook(b, srv, files)
			b.Logf("%s: %s threads, %.2f epochs/s, frames p95 %.1f ms, loss %s", srv.url, threads, rate, p95, loss)
			rates[i], p95s[i] = append(rates[i], rate), append(p95s[i], p95)
			if losses[i] != "" && losses[i] != loss {
				b.Errorf("two runs on the same server end on losses %s and %s", losses[i], loss)
			}
			losses[i] = loss
		}
	}
	if losses[0] != losses[1] {
		b.Errorf("the Facebook-shaped run's loss at its end: %s on one thread, %s on threads; want the same bits", losses[0], losses[1])
	}
	one, many := median(rates[0]), median(rates[1])
	b.ReportMetric(one, "one-thread-epochs/s")
	b.ReportMetric(many, "threads-epochs/s")
	b.ReportMetric(many/one, "threads/one")
	b.ReportMetric(median(p95s[0]), "one-thread-train-p95-ms")
	b.ReportMetric(median(p95s[1]), "threads-train-p95-ms")
}

// trainedFacebook opens files in the graph lab from srv in a fresh
// browser, trains 60 epochs and returns the epochs a second shown from
// epoch 4 to the end, the frames' p95 meanwhile, the last loss and the
// threads the page says it runs on.
func trainedFacebook(b *testing.B, srv *server, files map[string][]byte) (rate, p95 float64, loss, threads string) {
	ctx := browser(b)
	open(b, ctx, srv, "#epochs=60")
	waitFor(b, ctx, "the layout", graphDrawn)
	stageFiles(b, ctx, files)
	m, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](fmt.Sprintf(openTimed, giveStaged(true), shaped.Facebook.Nodes), chromedp.EvalAwaitPromise))
	must(b, err, "open the files")
	if m[1] < 0 {
		b.Fatalf("the page did not draw the graph in 180 s")
	}
	settled(b, ctx)
	click(b, ctx, "#play", "play")
	waitFor(b, ctx, "training", `+document.querySelector('[data-metric="epoch"]').dataset.value > 3`)
	e0, t0 := epoch(b, ctx), now(b, ctx)
	_, p95, _ = frames(b, ctx, 3*time.Second)
	waitFor(b, ctx, "the run's end", `document.querySelector("#epoch").textContent.startsWith("60 /")`)
	e1, t1 := epoch(b, ctx), now(b, ctx)
	atRest(b, ctx)
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[document.querySelector('.toolbar [data-metric="loss"]').dataset.value, document.querySelector('[data-metric="threads"]').dataset.value]`))
	must(b, err, "read the run")
	return float64(e1-e0) / ((t1 - t0) / 1000), p95, got[0], got[1]
}

// median is xs' middle value (the mean of the two middle ones).
func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	if len(s) == 0 {
		return math.NaN()
	}
	return (s[(len(s)-1)/2] + s[len(s)/2]) / 2
}
