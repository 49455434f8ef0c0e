package e2e

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"pdnexplorer/experiment"
)

// Every lab at its defaults, after training, shows each of its claims
// with a verdict, and at seed 1 every one is as the page states it on
// the lab's graph (experiment.Claims; pdn claims checks the same rows
// over all their seeds).
func TestClaimsHoldAtTheDefaults(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	for _, l := range experiment.Labs {
		want := claimsShown(experiment.ForLab(l.Name))
		if len(want) == 0 {
			continue
		}
		t.Run(l.Name, func(t *testing.T) {
			open(t, ctx, srv, "#lab="+l.Name)
			waitFor(t, ctx, "the lab's claims, undecided", fmt.Sprintf(`document.querySelectorAll('[data-metric="claim"]').length === %d`, len(want)))
			click(t, ctx, "#play", "play")
			// The claims its pool decides wait for the pool's runs
			// (TestStructureLabIsTheCLIs runs them).
			waitFor(t, ctx, "every claim of the runs on screen decided", `(() => { const c = [...document.querySelectorAll('[data-metric="claim"]')];
  return c.length > 0 && c.every((x) => x.dataset.read === "pool" || x.dataset.value !== ""); })()`)
			must(t, chromedp.Do(ctx, chromedp.ScrollIntoView("#claims")), "scroll to the claims")
			screenshot(t, ctx, "60-claims-"+l.Name)
			for _, id := range want {
				if c, _ := experiment.ClaimNamed(id); experiment.PoolDecides(l.Name, c) {
					continue
				}
				v := text(t, ctx, `[data-metric="claim"][data-claim="`+id+`"] .claim-verdict`)
				value, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('[data-metric="claim"][data-claim="`+id+`"]').dataset.value`))
				must(t, err, "read "+id)
				if value != "1" {
					t.Errorf("claim %s at the defaults: %q (data-value %q)", id, v, value)
				}
			}
		})
	}
}

// claimsShown are the ids of the claims the page shows on state e: those
// checked on e's family of graphs, the lab's own claims, which say which
// rows differ where they were not, and those its pool decides as the lab
// opens (experiment.PoolDecides), which say so too.
func claimsShown(e experiment.Experiment) []string {
	var want []string
	for _, c := range experiment.ClaimsShownBy(e.View.Lab) {
		if _, ok := c.CheckOn(e); ok || c.Lab() == e.View.Lab && c.LabDefault() || experiment.PoolDecides(e.View.Lab, c) {
			want = append(want, c.ID)
		}
	}
	return want
}

// On a graph of another family than a claim's own, the page states what
// was checked there: on Cora, the graph lab says the pathfinder does not
// weigh inter-class edges down (the difference, with Cora's family) and
// that the weights are the same within and between classes, each as
// the run shows it; no claim is stated for a family it was not checked on.
func TestClaimsStatedPerFamily(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	e, err := experiment.Decode("lab=graph&data=cora")
	must(t, err, "decode")
	want := claimsShown(e)
	open(t, ctx, srv, "#lab=graph&data=cora")
	waitFor(t, ctx, "the claims on Cora", fmt.Sprintf(`document.querySelectorAll('[data-metric="claim"]').length === %d`, len(want)))
	click(t, ctx, "#play", "play")
	waitFor(t, ctx, "every claim decided", `(() => { const c = [...document.querySelectorAll('[data-metric="claim"]')];
  return c.length > 0 && c.every((x) => x.dataset.value !== ""); })()`)
	must(t, chromedp.Do(ctx, chromedp.ScrollIntoView("#claims")), "scroll to the claims")
	screenshot(t, ctx, "61-claims-graph-cora")
	for _, id := range want {
		c, _ := experiment.ClaimNamed(id)
		k, ok := c.CheckOn(e)
		sel := `[data-metric="claim"][data-claim="` + id + `"]`
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(() => { const x = document.querySelector('`+sel+`'); return [x.dataset.family, x.dataset.value, x.querySelector('strong').textContent]; })()`))
		must(t, err, "read "+id)
		switch {
		case !ok:
			if got[0] != "" {
				t.Errorf("claim %s is not checked on Cora, yet the page names family %q", id, got[0])
			}
		case got[0] != k.Family.Name || got[1] != "1":
			t.Errorf("claim %s: family %q, value %q; want %s, 1", id, got[0], got[1], k.Family.Name)
		case !k.Stated() && got[2] != k.Differs:
			t.Errorf("claim %s on Cora states %q; want its difference %q", id, got[2], k.Differs)
		case k.Stated() && got[2] != c.Text:
			t.Errorf("claim %s on Cora states %q; want %q", id, got[2], c.Text)
		}
	}
}

// Every step of every tour, opened by its short link as a teacher sends
// it, shows its own lab and the element it points at.
func TestTourStepShortLinks(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	for _, tour := range experiment.Tours {
		for k, step := range tour.Steps {
			want, _ := experiment.Decode(step.Link)
			link := "#tour=" + tour.Name + "&step=" + strconv.Itoa(k+1)
			open(t, ctx, srv, link)
			cond := `document.querySelector("#lab-` + want.View.Lab + `[aria-current=page]") !== null`
			if step.Target() != "" {
				cond += ` && document.querySelector("#` + step.Target() + `.tour-focus") !== null`
			}
			waitFor(t, ctx, link+" shows its lab", cond)
			if want.View.Threshold > 0 {
				th, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("#threshold").value`))
				must(t, err, "threshold")
				if v, _ := strconv.ParseFloat(th, 64); v != 100*want.View.Threshold { // the slider is in percent
					t.Errorf("%s: threshold %s, want %v", link, th, want.View.Threshold)
				}
			}
		}
	}
}

// At 5 epochs a second the default graph's 200 epochs take no less than
// 40 s (less a tenth), every epoch shown; at full speed the same run ends
// on the same numbers.
func TestPaceFiveEpochsASecond(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	ended := `document.querySelector("#epoch").dataset.value === "200" && document.querySelector("#play").textContent.includes("Play")`
	finals := `["test-accuracy", "train-accuracy", "loss"].map((m) => document.querySelector('.toolbar [data-metric="' + m + '"]').dataset.value).join(" ")`
	var got []string
	for _, speed := range []string{"5", "0"} {
		open(t, ctx, srv, "#lab=graph&speed="+speed)
		start := time.Now()
		click(t, ctx, "#play", "play")
		waitFor(t, ctx, "200 epochs at speed "+speed, ended)
		took := time.Since(start)
		t.Logf("speed %s: 200 epochs in %v", speed, took.Round(100*time.Millisecond))
		// The pace holds a run back, never up: 200 epochs at 5 a second
		// take at least 40 s less a tenth, however fast the machine. How
		// much longer they take is the machine's speed, not a fault (a busy
		// one takes longer), so nothing bounds it from above.
		if speed == "5" && took < 36*time.Second {
			t.Errorf("at 5 epochs a second 200 epochs took %v, under 40 s less a tenth: the pace did not hold the run back", took)
		}
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](finals))
		must(t, err, "read the final numbers")
		got = append(got, v)
	}
	if got[0] != got[1] {
		t.Errorf("paced run ends on %s, full speed on %s", got[0], got[1])
	}
}

// A tour step asks its question before the run: the reader answers,
// presses Play, and the run reveals the answer with its claim's verdict.
func TestTourQuestionRevealsAfterTheRun(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	open(t, ctx, srv, "#tour=paper&step=2&speed=0")
	waitFor(t, ctx, "the question", `document.querySelector("#tour-question") !== null && document.querySelector("#tour-question").dataset.value === "" &&
  document.querySelector("#tour-question .tour-outcome").textContent.includes("press Play")`)
	click(t, ctx, "#tour-choice-1", "answer")
	waitFor(t, ctx, "the answer kept", `document.querySelector("#tour-question .tour-outcome").textContent.includes("Your answer is in")`)
	screenshot(t, ctx, "66-question-asked")
	click(t, ctx, "#play", "play")
	waitFor(t, ctx, "the reveal", `document.querySelector("#tour-question").dataset.value !== ""`)
	got := text(t, ctx, "#tour-question .tour-outcome")
	value, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("#tour-question").dataset.value`))
	must(t, err, "read the reveal")
	screenshot(t, ctx, "66-question-revealed")
	if value != "1" || !strings.Contains(got, "The run says: No: they end about level") || !strings.Contains(got, "test accuracy") {
		t.Errorf("the reveal: data-value %q, %q", value, got)
	}
}

// On a projector (1280×720, present=1) every step of every tour, opened by
// its short link, shows its own lab with the tour's words and the element
// the step points at on the screen together.
func TestTourStepsFitAProjector(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 720)), "a 1280×720 screen")
	for _, tour := range experiment.Tours {
		for k, step := range tour.Steps {
			want, _ := experiment.Decode(step.Link)
			link := "#tour=" + tour.Name + "&step=" + strconv.Itoa(k+1) + "&present=1"
			open(t, ctx, srv, link)
			cond := `document.querySelector("#lab-` + want.View.Lab + `[aria-current=page]") !== null`
			if step.Target() != "" {
				cond += ` && document.querySelector("#` + step.Target() + `.tour-focus") !== null`
			}
			waitFor(t, ctx, link+" shows its lab", cond)
			box, err := steadyEval[[]float64](t, ctx, `(() => { // once the smooth scroll to the focus is over
  const w = document.querySelector("#tour .tour-text").getBoundingClientRect();
  const f = document.querySelector("#`+step.Target()+`") || document.querySelector(".lab .views > :first-child");
  const r = f.getBoundingClientRect();
  const bar = document.querySelector(".lab .toolbar").getBoundingClientRect();
  let least = 1e9; // the smallest figure text on the screen, in px as drawn
  for (const e of document.querySelectorAll(".lab svg text")) {
    const svg = e.ownerSVGElement, m = svg && svg.getScreenCTM(), b = e.getBoundingClientRect();
    if (!m || b.width === 0 || b.bottom < 0 || b.top > innerHeight || !e.textContent.trim()) continue;
    least = Math.min(least, parseFloat(e.getAttribute("font-size") || "16") * m.a);
  }
  return [w.top, w.bottom, w.left, w.right, r.top, r.bottom, r.left, r.right, bar.height, least];
})()`)
			must(t, err, "measure "+link)
			t.Logf("%s: words %.0f–%.0f px, focus %.0f–%.0f px, toolbar %.0f px, smallest figure text %.1f px", link, box[0], box[1], box[4], box[5], box[8], box[9])
			if box[9] < 15.9 {
				t.Errorf("%s: figure text of %.1f px on the screen, under 16", link, box[9])
			}
			screenshot(t, ctx, "67-projector-"+tour.Name+"-"+strconv.Itoa(k+1))
			if box[0] < 0 || box[1] > 720 || box[3] > 1280 {
				t.Errorf("%s: the tour's words lie at %.0f–%.0f px, off a 720 px screen", link, box[0], box[1])
			}
			// The element starts under the toolbar, and shows whole or at
			// least 400 px of itself.
			visible := min(box[5], 720) - max(box[4], 0)
			if box[4] < box[8] || visible < min(box[5]-box[4], 400) || box[6] < 0 || box[7] > 1280 {
				t.Errorf("%s: the step's %s lies at %.0f–%.0f px, not on the first screen beside the words", link, step.Target(), box[4], box[5])
			}
			if box[8] > 0.12*720 {
				t.Errorf("%s: the toolbar takes %.0f px, over 12%% of 720", link, box[8])
			}
		}
	}
}

// Every question step of every tour points at the figure that answers it
// (its claim's), and once the run has answered, on a projector (1280×720,
// present=1), that figure is on the screen with the claim's verdict on
// it, beside the tour's words and their revealed answer.
func TestQuestionStandsBesideItsAnswer(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 720)), "a 1280×720 screen")
	asked := 0
	for _, tour := range experiment.Tours {
		for k, step := range tour.Steps {
			q := step.Question
			if q == nil {
				continue
			}
			asked++
			fig := step.Target()
			link := "#tour=" + tour.Name + "&step=" + strconv.Itoa(k+1) + "&present=1&speed=0"
			open(t, ctx, srv, link)
			waitFor(t, ctx, link+" points at #"+fig, `document.querySelector("#`+fig+`.tour-focus") !== null && document.querySelector("#tour-question") !== null`)
			click(t, ctx, "#tour-choice-0", "answer")
			click(t, ctx, "#play", "play")
			waitFor(t, ctx, link+" answered", `document.querySelector("#tour-question").dataset.value !== "" &&
  document.querySelector('#`+fig+` [data-metric="claim-beside"][data-claim="`+q.Claim+`"]:not([hidden])') !== null`)
			box, err := steadyEval[[]float64](t, ctx, `(() => {
  const f = document.querySelector("#`+fig+`").getBoundingClientRect();
  const v = document.querySelector('#`+fig+` [data-metric="claim-beside"][data-claim="`+q.Claim+`"]').getBoundingClientRect();
  const a = document.querySelector("#tour-question .tour-outcome").getBoundingClientRect();
  const bar = document.querySelector(".lab .toolbar").getBoundingClientRect();
  const next = document.querySelector("#tour-next").getBoundingClientRect();
  return [f.top, f.bottom, v.top, v.bottom, v.left, v.right, a.top, a.bottom, a.left, bar.bottom, next.bottom];
})()`)
			must(t, err, "measure "+link)
			t.Logf("%s: #%s at %.0f–%.0f px, its verdict at %.0f–%.0f, the answer at %.0f–%.0f, the toolbar to %.0f",
				link, fig, box[0], box[1], box[2], box[3], box[6], box[7], box[9])
			screenshot(t, ctx, "67-answer-"+tour.Name+"-"+strconv.Itoa(k+1))
			// The verdict lies whole on the screen under the toolbar, the
			// figure shows at least 300 px (or whole) under it, and the
			// tour's revealed answer is on the screen too, beside it.
			shown := min(box[1], 720) - max(box[0], box[9])
			if box[2] < box[9]-1 || box[3] > 720 || shown < min(box[1]-box[0], 300) {
				t.Errorf("%s: #%s (%.0f–%.0f px) and its verdict (%.0f–%.0f px) are not on the 720 px screen under the toolbar (to %.0f px)", link, fig, box[0], box[1], box[2], box[3], box[9])
			}
			if box[10] > 720 {
				t.Errorf("%s: the tour's Next button ends at %.0f px, under the 720 px screen", link, box[10])
			}
			if box[6] < 0 || box[7] > 720 || box[8] < box[5]-1 {
				t.Errorf("%s: the revealed answer lies at %.0f–%.0f px, x %.0f, not on the screen beside the figure (its verdict ends at x %.0f)", link, box[6], box[7], box[8], box[5])
			}
		}
	}
	if asked == 0 {
		t.Fatal("no tour asks a question")
	}
}

// On a phone the node's update opens on the screen, under the toolbar,
// its table's scrolling wrapper inside the screen's width (the table
// scrolls sideways within it rather than break its numbers).
func TestNodeTraceOnAPhone(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	phone(t, ctx)
	chooseTracedNode(t, ctx, srv, "#per-class=64", "pdn")
	box, err := steadyEval[[]float64](t, ctx, `(() => {
  const v = document.querySelector("#node-trace").getBoundingClientRect();
  const tb = document.querySelector("#node-trace .table-scroll"); // the table scrolls within it
  const r = tb ? tb.getBoundingClientRect() : v;
  return [v.top, v.bottom, r.left, r.right, document.documentElement.scrollWidth];
})()`)
	must(t, err, "measure the trace")
	t.Logf("the node's update at 390×844: %.0f–%.0f px down, its table %.0f–%.0f px across", box[0], box[1], box[2], box[3])
	screenshot(t, ctx, "68-trace-phone")
	if box[0] < 0 || box[0] > 844/2 || box[2] < 0 || box[3] > 390 || box[4] > 390 {
		t.Errorf("the node's update on a phone: %v", box)
	}
}

// A click on a dot of the sweep's figure opens that run in the compare
// lab: the address and the page both.
func TestSweepDotOpensTheCompareLab(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	for _, running := range []bool{false, true} {
		// A cell of the table is a link to the same run.
		cell := `#sweep-table button.link`
		dot := `#sweep-figure circle[data-run="pdn"][data-x]`
		link := "#lab=sweep&scenario=1&reps=1&models=pdn,gcn&results=9000.6000.9100.6100.9200.6200.9300.6300.9400.6400"
		if running {
			link = "#lab=sweep&scenario=2&reps=2&models=pdn,gcn&per-class=64"
		}
		open(t, ctx, srv, link)
		if running {
			click(t, ctx, "#play", "run the sweep")
		}
		waitFor(t, ctx, "the sweep's dots", `document.querySelector('`+dot+`') !== null`)
		target := dot
		if running {
			target = cell
		}
		// The figure and the table are drawn again as results come: a click
		// on the one being replaced is lost with it (a clean run waited an
		// hour for the compare lab), so the click is made again till the
		// compare lab opens.
		clickUntil(t, ctx, target, "the compare lab, its run opened from the sweep", `location.hash.includes("lab=compare") && document.querySelector("#lab-compare[aria-current=page]") !== null &&
  document.querySelectorAll('.toolbar [data-metric="epoch"][data-run]').length === 2`)
	}
}

// figureText measures the figures' text in the lab on view: the smallest
// as drawn, in px, and where; and how many texts run off their figure
// (a title cut, not wrapped), with the first.
const figureText = `(() => {
  let least = 1e9, which = "", cut = 0, first = "";
  for (const e of document.querySelectorAll(".lab svg text")) {
    const svg = e.ownerSVGElement, m = svg && svg.getScreenCTM(), r = e.getBoundingClientRect();
    if (!m || r.width === 0 || !e.textContent.trim()) continue;
    const where = (svg.closest("[id]") || {}).id + ": " + e.textContent.slice(0, 40);
    const px = parseFloat(e.getAttribute("font-size") || "16") * m.a;
    if (px < least) { least = px; which = where; }
    const s = svg.getBoundingClientRect();
    if (r.left < s.left - 2 || r.right > s.right + 2 || r.top < s.top - 2 || r.bottom > s.bottom + 2) {
      if (cut++ === 0) first = where;
    }
  }
  return {Least: least, Which: which, Cut: cut, First: first};
})()`

// figureLook is what figureText reads.
type figureLook struct {
	Least        float64
	Which, First string
	Cut          int
}

// checkFigureText fails unless the figures' text on view, once the page
// is at rest, is at least least px and none runs off its figure.
func checkFigureText(t *testing.T, ctx context.Context, what string, least float64) {
	t.Helper()
	got, err := steadyEval[figureLook](t, ctx, figureText)
	must(t, err, "measure the figures' text")
	t.Logf("%s: smallest figure text %.1f px (%s); %d texts off their figure", what, got.Least, got.Which, got.Cut)
	if got.Least < least-0.1 {
		t.Errorf("%s: figure text of %.1f px (%s), want at least %v", what, got.Least, got.Which, least)
	}
	if got.Cut > 0 {
		t.Errorf("%s: %d texts run off their figure, the first %s", what, got.Cut, got.First)
	}
}

// Every figure's text is legible where it is shown, in every lab: at
// least 11 px as drawn on a desktop (1440×900), 16 px on a projector
// (1280×720) and 12 px on a phone (390×844) in English, Chinese and
// Arabic; none runs off its figure. The figures follow the width they are
// shown at without a run training: opened from a link at rest, after a
// projector tour ends (its panel gone, the figures are shown narrower),
// and as a desktop's window becomes a phone's and the phone turns. One
// browser; each lab opens once per screen, by its link (a hash change
// after the first, but for the sweep lab, which trains nothing on
// opening).
func TestFigureTextIsLegible(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	desktop := func() { must(t, chromedp.Do(ctx, chromedp.EmulateViewport(1440, 900)), "a desktop") }
	for _, mode := range []struct {
		name, link string
		least      float64
		screen     func()
	}{
		{"desktop", "", 11, desktop},
		{"projector", "&present=1", 16, func() { must(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 720)), "a projector") }},
		{"phone", "", 12, func() { phone(t, ctx) }},
		{"phone-zh", "&lang=zh", 12, func() { phone(t, ctx) }},
		{"phone-ar", "&lang=ar", 12, func() { phone(t, ctx) }},
	} {
		mode.screen()
		for i, l := range experiment.Labs {
			link := "#lab=" + l.Name + "&per-class=64" + mode.link
			if l.Name == "sweep" {
				link += "&scenario=1&reps=1&models=pdn,gcn&results=9000.6000.9100.6100.9200.6200.9300.6300.9400.6400"
			}
			fresh := i == 0 || l.Name == "sweep" // the sweep lab trains nothing on opening
			showLab(t, ctx, srv, fresh, link)
			if fresh {
				// Opened from its link, at rest: the figures are drawn
				// for where the page laid them out, with no run's
				// snapshot to draw them again.
				checkFigureText(t, ctx, mode.name+", "+l.Name+" lab opened from its link, at rest", mode.least)
			}
			if l.Name != "sweep" {
				key(t, ctx, "s")
				waitFor(t, ctx, "an epoch", `[...document.querySelectorAll('.toolbar [data-metric="epoch"]')].some((e) => e.dataset.value === "1")`)
			}
			checkFigureText(t, ctx, mode.name+", "+l.Name+" lab", mode.least)
			screenshot(t, ctx, "69-legible-"+mode.name+"-"+l.Name)
		}
	}

	// A projector tour ends on its last step: the lab keeps projector mode,
	// and its figures, no longer beside the tour's words, are drawn for
	// their new width.
	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 720)), "a projector")
	tour := experiment.Tours[0]
	last := len(tour.Steps)
	open(t, ctx, srv, "#tour="+tour.Name+"&step="+strconv.Itoa(last)+"&present=1")
	want, _ := experiment.Decode(tour.Steps[last-1].Link)
	waitFor(t, ctx, "the tour's last step", `document.querySelector("#lab-`+want.View.Lab+`[aria-current=page]") !== null && document.querySelector("#tour-end") !== null && `+labDrawn)
	checkFigureText(t, ctx, "the tour's last step on a projector", 16)
	click(t, ctx, "#tour-end", "end the tour")
	waitFor(t, ctx, "the tour ended, projector mode kept", `document.querySelector("#tour-end") === null && location.hash.includes("present=1") && document.querySelector(".explorer.present:not(.touring)") !== null`)
	waitFor(t, ctx, "the figures drawn for the lab without the tour", figureText+`.Least >= 15.9`)
	checkFigureText(t, ctx, "after the tour, on a projector", 16)
	screenshot(t, ctx, "69-legible-after-tour")

	// A desktop's window becomes a phone's, nothing training; the phone
	// then turns.
	desktop()
	open(t, ctx, srv, "#lab=xor&per-class=64")
	waitFor(t, ctx, "the XOR lab's surfaces", `document.querySelectorAll(".lab .surfaces svg").length >= 3`)
	checkFigureText(t, ctx, "a desktop at rest", 11)
	phone(t, ctx)
	waitFor(t, ctx, "the figures drawn for a phone", figureText+`.Least >= 11.9`)
	checkFigureText(t, ctx, "the window made a phone's, at rest", 12)
	screenshot(t, ctx, "69-legible-resized-phone")
	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(844, 390, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateLandscape)), "the phone turned")
	waitFor(t, ctx, "the figures drawn for the phone turned", figureText+`.Least >= 11.9`)
	checkFigureText(t, ctx, "the phone turned, at rest", 12)
	screenshot(t, ctx, "69-legible-phone-turned")
}

// Each lab's first screen says what is on it and what to press, and shows
// at most eight controls until "All controls"; a control the link hides
// is absent, and the link's value for it refused; Start here opens the
// paper's tour.
func TestFirstScreenExplains(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(1440, 900)), "a laptop's screen")
	const controls = `document.querySelectorAll('#controls [id^="ctl-"]:not([id$="-slider"])').length`
	for _, l := range experiment.Labs {
		open(t, ctx, srv, "#lab="+l.Name)
		waitFor(t, ctx, l.Name+" drawn", labDrawn+` && document.querySelector("#intro").textContent.length > 40`)
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](controls))
		must(t, err, "count the controls")
		t.Logf("%s lab: %d controls on its first screen", l.Name, n)
		if n > experiment.MaxStory || n == 0 {
			t.Errorf("the %s lab shows %d controls first", l.Name, n)
		}
		if l.Story != nil {
			click(t, ctx, "#all-controls", "all controls")
			waitFor(t, ctx, "all the controls", controls+` > `+strconv.Itoa(n))
		}
		screenshot(t, ctx, "70-first-"+l.Name)
	}
	// A control set after All controls moved the rows sets its own row, not
	// the one that stood in its place before (go-app keeps first handlers).
	open(t, ctx, srv, "#lab=graph")
	waitFor(t, ctx, "the graph lab", labDrawn)
	click(t, ctx, "#all-controls", "all controls")
	waitFor(t, ctx, "all the controls", `document.querySelector("#ctl-classes") !== null`)
	setField(t, ctx, "per-class", "64")
	waitFor(t, ctx, "per-class set, q kept", `location.hash.includes("per-class=64") && location.hash.includes("&q=0.005")`)
	open(t, ctx, srv, "#lab=graph&hide=dropout,q&dropout=0.3")
	waitFor(t, ctx, "the graph lab", labDrawn)
	click(t, ctx, "#all-controls", "all controls")
	waitFor(t, ctx, "the hidden controls absent, the value refused", `document.querySelector("#ctl-dropout") === null && document.querySelector("#ctl-q") === null &&
  document.querySelector("#ctl-p") !== null && location.hash.includes("dropout=0.5") && document.querySelector(".notices").textContent.includes("hidden by this link")`)
	click(t, ctx, "#start-here", "start here")
	waitFor(t, ctx, "the paper's tour", `location.hash.includes("tour=paper") && location.hash.includes("step=1") && document.querySelector("#tour .tour-text") !== null`)
}
