package e2e

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"pdnexplorer/experiment"
	"pdnexplorer/i18n"
)

// phone is a phone's screen: 390 × 844 CSS pixels, touch.
func phone(t testing.TB, ctx context.Context) {
	t.Helper()
	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch)), "a phone's screen")
}

// labDrawn holds once the lab's main figure is drawn: the graph's or the
// small graphs' canvases, or the first card's chart (not its legend's
// swatches, which come before any figure).
const labDrawn = `document.querySelector(".lab .views > :first-child :is(canvas, .figure svg, .surfaces svg)") !== null`

// showLab shows link's lab: opened afresh when first, else reached in the
// page by its address, as the labs' menu, the projector button and the
// language menu reach it (a sweep over the labs checks each as laid out,
// not its load, which its first lab and the other tests check: a page
// opened is some 12 s of CPU on 2 cores, half of the suite's time). It
// waits for the lab named, in the language and projector mode the link
// asks, settled and drawn.
func showLab(t testing.TB, ctx context.Context, srv *server, fresh bool, link string) {
	t.Helper()
	st, _ := experiment.Decode(strings.TrimPrefix(link, "#")) // a row its lab does not read is the page's to refuse; the view is read
	if fresh {
		open(t, ctx, srv, link)
	} else {
		goHash(t, ctx, link)
	}
	lang := st.View.Lang
	if lang == experiment.LangAuto {
		lang = "en" // the test's browser speaks English
	}
	waitFor(t, ctx, fmt.Sprintf("the %s lab shown in %s (projector mode %d)", st.View.Lab, lang, st.View.Present), fmt.Sprintf(`document.documentElement.lang === %q && (document.querySelector(".explorer.present") !== null) === %v && document.querySelector("#lab-%s[aria-current=page]") !== null && `,
		lang, st.View.Present == 1, st.View.Lab)+labSettled+" && "+labDrawn)
}

// On a phone every lab fits the screen's width, shows its figure and Play
// on the first screen, folds its controls behind one button that opens
// them, and a tap on a node inspects it.
func TestEveryLabOnAPhone(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	phone(t, ctx)
	type look struct {
		Width, FigureTop, PlayBottom float64
		ControlsShown                bool
	}
	const read = `(() => {
  const fig = document.querySelector(".lab .views > :first-child"), play = document.querySelector("#play");
  const ctl = document.querySelector(".lab .main > :first-child");
  return {Width: document.documentElement.scrollWidth, FigureTop: fig.getBoundingClientRect().top,
    PlayBottom: play.getBoundingClientRect().bottom, ControlsShown: ctl.offsetParent !== null};
})()`
	for _, l := range experiment.Labs {
		open(t, ctx, srv, "#lab="+l.Name+"&per-class=64")
		waitFor(t, ctx, l.Name+" drawn", labDrawn)
		v, err := chromedp.Run(ctx, chromedp.Evaluate[look](read))
		must(t, err, "read the page")
		t.Logf("%s lab at 390×844: %.0f px wide, figure's top at %.0f px, Play's bottom at %.0f px, controls shown %v", l.Name, v.Width, v.FigureTop, v.PlayBottom, v.ControlsShown)
		if v.Width > 390 || v.FigureTop >= 844 || v.PlayBottom > 844 || v.ControlsShown {
			wide, _ := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("*")].filter((e) => e.getBoundingClientRect().right > 390.5).slice(-5).map((e) => e.tagName.toLowerCase() + "." + e.className + " " + e.getBoundingClientRect().right)`))
			t.Errorf("the %s lab on a phone: %+v (wide: %q)", l.Name, v, wide)
		}
		// The navigation shows the lab on view, on the screen; the sticky
		// toolbar keeps to 15% of the height.
		nav, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => {
  const m = document.querySelector("#lab-menu"), r = m.getBoundingClientRect();
  return [r.left, r.right, r.top, r.bottom, m.value === "`+l.Name+`" ? 1 : 0, document.querySelector(".lab .toolbar").getBoundingClientRect().height];
})()`))
		must(t, err, "read the navigation")
		t.Logf("%s lab at 390×844: lab menu at %.0f–%.0f × %.0f–%.0f px, toolbar %.0f px", l.Name, nav[0], nav[1], nav[2], nav[3], nav[5])
		if nav[0] < 0 || nav[1] > 390 || nav[2] < 0 || nav[3] > 844 || nav[4] != 1 {
			t.Errorf("the %s lab's navigation does not show it on a phone: %v", l.Name, nav)
		}
		if nav[5] > 0.15*844 {
			t.Errorf("the %s lab's toolbar takes %.0f px of 844", l.Name, nav[5])
		}
		screenshot(t, ctx, "60-phone-first-"+l.Name)
		click(t, ctx, "#controls-toggle", "open the controls")
		waitFor(t, ctx, "the controls open", `document.querySelector(".lab .main > :first-child").offsetParent !== null`)
		if w, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth`)); w > 390 {
			t.Errorf("the %s lab's controls make the page %d px wide", l.Name, w)
		}
		screenshot(t, ctx, "60-phone-"+l.Name)
	}

	// Turned on its side, the phone keeps its layout: Play on the first
	// screen, the page no wider than the screen (the desktop's navigation
	// filled the whole of 844×390).
	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(844, 390, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateLandscape)), "the phone turned")
	for _, l := range experiment.Labs {
		open(t, ctx, srv, "#lab="+l.Name+"&per-class=64")
		waitFor(t, ctx, l.Name+" drawn", labDrawn)
		v, err := steadyEval[look](t, ctx, read)
		must(t, err, "read the page")
		t.Logf("%s lab at 844×390: %.0f px wide, Play's bottom at %.0f px, controls shown %v", l.Name, v.Width, v.PlayBottom, v.ControlsShown)
		if v.Width > 844 || v.PlayBottom > 390 || v.ControlsShown {
			t.Errorf("the %s lab on a phone turned: %+v", l.Name, v)
		}
	}
	screenshot(t, ctx, "60-phone-turned")
	phone(t, ctx)

	// A tap on a node inspects it: its class, split and degree, and its edges.
	open(t, ctx, srv, "#per-class=64")
	waitFor(t, ctx, "the layout", nodesDrawn+` === 192`)
	rect, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => {
	  const f = document.querySelector("#graph-figure"); f.scrollIntoView({block: "center"});
	  const r = f.getBoundingClientRect(); return [r.left, r.top, r.width, r.height];
	})()`))
	must(t, err, "find the graph")
	found := false
	for i := 2; i < 30 && !found; i++ {
		for j := 2; j < 30 && !found; j++ {
			tap(t, ctx, rect[0]+rect[2]*float64(i)/30, rect[1]+rect[3]*float64(j)/30)
			said := text(t, ctx, "#inspect")
			if found = strings.HasPrefix(said, "Node ") && strings.Contains(said, "degree"); found {
				t.Logf("a tap inspects: %q", said)
			}
		}
	}
	if !found {
		t.Fatal("no tap on the graph inspects a node")
	}
	screenshot(t, ctx, "61-phone-tap-inspect")

	// The zoom buttons grow the graph within its card, which scrolls.
	_, err = chromedp.Run(ctx, chromedp.Evaluate[bool](`(document.querySelector("#zoom-in").click(), true)`))
	must(t, err, "zoom in")
	waitFor(t, ctx, "zoomed in", `document.querySelector(".graph-figure.zoom-1") !== null && document.querySelector("#graph-figure").getBoundingClientRect().width > 1.4 * document.querySelector(".graph-figure").clientWidth`)
	if w, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth`)); w > 390 {
		t.Errorf("zoomed in, the page is %d px wide", w)
	}
}

// tap touches the screen at (x, y) and lifts the finger.
func tap(t testing.TB, ctx context.Context, x, y float64) {
	t.Helper()
	must(t, chromedp.Do(ctx, chromedp.TapXY(x, y)), "tap")
}

// In projector mode at 1280 × 720, every lab's figure and its headline
// numbers lie inside the screen without a scroll.
func TestProjectorFitsEveryLab(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 720)), "a 1280×720 screen")
	for _, l := range experiment.Labs {
		open(t, ctx, srv, "#lab="+l.Name+"&per-class=64&present=1")
		waitFor(t, ctx, l.Name+" drawn", labDrawn)
		box, err := steadyEval[[]float64](t, ctx, `(() => {
  const card = document.querySelector(".lab .views > :first-child");
  const f = card.querySelector(".figure, .minis, .surfaces") || card;
  const r = f.getBoundingClientRect(), s = document.querySelector(".stats").getBoundingClientRect();
  return [r.top, r.bottom, s.bottom, window.scrollY, r.right];
})()`)
		must(t, err, "read the page")
		t.Logf("%s lab in projector mode: figure from %.0f to %.0f px, numbers end at %.0f px", l.Name, box[0], box[1], box[2])
		if box[1] > 720 || box[2] > 720 || box[3] != 0 || box[4] > 1280 {
			t.Errorf("the %s lab does not fit 1280×720 in projector mode: figure %.0f–%.0f px, numbers to %.0f px", l.Name, box[0], box[1], box[2])
		}
		screenshot(t, ctx, "62-projector-"+l.Name)
	}
}

// A course page embeds two labs side by side; each trains in its frame,
// shows only its figure, its numbers and play, step and reset, and links
// to the explorer. The Share panel gives the iframe.
func TestEmbedTwoLabs(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(1400, 900)), "a wide screen")
	// The Share panel's code, as a teacher copies it.
	open(t, ctx, srv, "#per-class=64")
	click(t, ctx, "#share", "open Share")
	waitFor(t, ctx, "the share panel", `document.querySelector("#embed-code") !== null && document.querySelector("#share-panel svg.qr") !== null`)
	code, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("#embed-code").value`))
	must(t, err, "read the embed code")
	if !strings.HasPrefix(code, `<iframe src="`) || !strings.Contains(code, "embed=1") {
		t.Fatalf("the embed code is %q", code)
	}
	second := strings.Replace(code, "lab=graph", "lab=compare", 1)
	second = strings.Replace(second, "per-class=64", "per-class=32", 1)
	html := `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A course page</title></head><body>
<h1>Week 3: learning the graph</h1><div style="display:flex;gap:12px">` + code + second + `</div></body></html>`
	// The course page is served beside the explorer, as a course site that
	// hosts it would; the test reads the frames' pages through it.
	srv.extra("/course.html", []byte(html))
	must(t, chromedp.Do(ctx, chromedp.Navigate(strings.TrimSuffix(srv.url, "/pdn/")+"/course.html")), "open the course page")
	frames := func(js string) string {
		return `[...document.querySelectorAll("iframe")].map((f) => { const d = f.contentDocument; return d && (` + js + `); })`
	}
	waitFor(t, ctx, "both labs live", frames(`d.querySelector(".embed .lab #play") !== null && d.querySelector('.embed [data-metric="epoch"]') !== null`)+`.every(Boolean)`)
	type look struct {
		Controls, Nav, Cards, Link bool
		Drawn                      int
		Buttons                    []string
	}
	looks, err := chromedp.Run(ctx, chromedp.Evaluate[[]look](frames(`({
  Controls: [...d.querySelectorAll(".controls")].some((e) => e.offsetParent !== null),
  Nav: d.querySelector("nav.labs") !== null,
  Cards: [...d.querySelectorAll(".views > *")].filter((e) => e.offsetParent !== null).length === 1,
  Drawn: [...d.querySelectorAll(".views > :first-child canvas, .views > :first-child svg")].length,
  Link: d.querySelector("#open-explorer") !== null && !d.querySelector("#open-explorer").href.includes("embed=1"),
  Buttons: [...d.querySelectorAll(".toolbar button")].filter((e) => e.offsetParent !== null).map((e) => e.id),
})`)))
	must(t, err, "read the frames")
	for i, l := range looks {
		t.Logf("frame %d: %+v", i, l)
		if l.Controls || l.Nav || !l.Cards || !l.Link || strings.Join(l.Buttons, ",") != "play,step,reset" {
			t.Errorf("frame %d shows more or less than the lab's figure, numbers and play/step/reset: %+v", i, l)
		}
	}
	_, err = chromedp.Run(ctx, chromedp.Evaluate[bool](frames(`(d.querySelector("#play").click(), true)`)+`.every(Boolean)`))
	must(t, err, "press Play in both")
	waitFor(t, ctx, "both frames train", frames(`parseInt(d.querySelector('[data-metric="epoch"]').dataset.value) >= 5`)+`.every(Boolean)`)
	screenshot(t, ctx, "63-embed-two-labs")
}

// Printing any lab gives one page, in projector mode and out of it (audit
// case 69: the graph lab in projector mode printed two): its figure, its
// numbers, the figure's caption and the state's link with its QR code,
// whether the browser's Print takes the page's own A4 margins or a script
// prints to A4 paper without margins (as Playwright's page.pdf does). The
// lab fills at most 95% of the page, so that fonts that set wider keep it
// on one; the handout's words stand in one column beside the code, not
// squeezed into a word a line.
func TestPrintedLabIsOnePage(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	for _, l := range experiment.Labs {
		for i, v := range printedVariants {
			present := v.present
			// The lab's first print opens it; its others change the
			// address, as the projector button and the language menu do:
			// what is printed is the page as laid out, however it came.
			showLab(t, ctx, srv, i == 0, "#lab="+l.Name+"&present="+present+v.lang)
			atRest(t, ctx)
			for _, paper := range []bool{false, true} {
				pdf := printPDF(t, ctx, paper)
				t.Logf("%s lab, present=%s%s, paper without margins %v: %d page(s), %d kB", l.Name, present, v.lang, paper, pagesOf(pdf), len(pdf)>>10)
				if pages := pagesOf(pdf); pages != 1 {
					t.Errorf("the %s lab (present=%s%s) prints on %d pages, want 1", l.Name, present, v.lang, pages)
				}
			}
			fill, words := printedFill(t, ctx)
			t.Logf("%s lab, present=%s%s: the lab fills %.0f%% of the page, the handout's words %.0f%% of its width", l.Name, present, v.lang, 100*fill, 100*words)
			if fill > 0.95 || words < 0.5 {
				t.Errorf("the %s lab (present=%s%s) fills %.0f%% of the printed page and its handout's words %.0f%% of the handout's width; want at most 95%% and at least 50%%",
					l.Name, present, v.lang, 100*fill, 100*words)
			}
			if l.Name == "graph" && present == "0" && v.lang == "" { // the handout as a user sees it: the PDF, and the page in print media
				must(t, os.WriteFile(filepath.Join(shotsDir(t), "64-handout-graph.pdf"), printPDF(t, ctx, false), 0o644), "save the handout")
				printMedia(t, ctx, "print")
				screenshot(t, ctx, "64-handout-graph")
				printMedia(t, ctx, "")
			}
		}
	}
	// What the printed page holds: the handout's QR code and link.
	media, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector(".handout svg.qr") !== null && document.querySelector(".handout-link").textContent.includes("#")`))
	must(t, err, "read the handout")
	if !media {
		t.Error("the handout has no QR code or link")
	}
}

// printedVariants are the prints TestPrintedLabIsOnePage makes of each lab:
// in and out of projector mode, and in projector mode (the largest type)
// in the languages whose words set widest (Chinese in a CJK font, Arabic
// right to left), since the page prints with whatever fonts a reader has.
var printedVariants = []struct{ present, lang string }{{"0", ""}, {"1", ""}, {"1", "&lang=zh"}, {"1", "&lang=ar"}}

// a4 is an A4 page's box inside the print styles' 12 mm margins, in CSS
// pixels (96 to the inch).
const a4Width, a4Height = 186 / 25.4 * 96, 273 / 25.4 * 96

// printedFill lays the page out in print media in an A4 page's box and
// says how much of the page's height the lab takes, and how much of the
// handout's width its words.
func printedFill(t *testing.T, ctx context.Context) (fill, words float64) {
	t.Helper()
	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(int64(math.Round(a4Width)), int64(math.Round(a4Height)))), "an A4 page's box")
	printMedia(t, ctx, "print")
	atRest(t, ctx)
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`[document.querySelector(".explorer").getBoundingClientRect().height,
	  document.querySelector(".handout-text").getBoundingClientRect().width / document.querySelector(".handout").getBoundingClientRect().width]`))
	must(t, err, "measure the printed page")
	printMedia(t, ctx, "")
	must(t, chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := chromedp.Call(ctx, emulation.ClearDeviceMetricsOverride, cdp.Empty{})
		return err
	})), "the window again")
	return got[0] / a4Height, got[1]
}

// printMedia makes the page's CSS media type media ("" for the screen's).
func printMedia(t *testing.T, ctx context.Context, media string) {
	t.Helper()
	must(t, chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: media})
		return err
	})), "media "+media)
}

// printPDF prints the page to PDF (DevTools' Page.printToPDF): as the
// browser's Print does, with the page's own size and margins, or, for
// paper, to A4 paper without margins, as a script's page.pdf does.
func printPDF(t *testing.T, ctx context.Context, paper bool) []byte {
	t.Helper()
	var pdf []byte
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		css := !paper
		params := page.PrintToPDFParams{PreferCSSPageSize: &css}
		if paper {
			none := 0.0
			params.PaperWidth, params.PaperHeight = 210/25.4, 297/25.4
			params.MarginTop, params.MarginBottom, params.MarginLeft, params.MarginRight = &none, &none, &none, &none
		}
		res, err := chromedp.Call(ctx, page.PrintToPDF, params)
		pdf = res.Data
		return err
	}))
	must(t, err, "print")
	return pdf
}

// pagesOf counts a PDF's pages.
func pagesOf(pdf []byte) int { return len(regexp.MustCompile(`/Type\s*/Page[^s]`).FindAll(pdf, -1)) }

// shotsDir is where screenshots go.
func shotsDir(t testing.TB) string {
	if d := os.Getenv("PDN_E2E_SHOTS"); d != "" {
		os.MkdirAll(d, 0o755)
		return d
	}
	return t.TempDir()
}

// Every lab speaks every language: the page's lang and dir follow the
// lang row (Arabic mirrors), and no text the page shows is an English
// message the language's catalogue translates otherwise.
func TestEveryLabInEveryLanguage(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	for _, lg := range i18n.Languages[1:] {
		english := map[string]bool{}
		for _, k := range i18n.Keys() {
			if s := strings.TrimSpace(k); i18n.T(lg.Code, k) != k && len(s) > 2 && !strings.Contains(k, "%") {
				english[s] = true
			}
		}
		for i, l := range experiment.Labs {
			showLab(t, ctx, srv, i == 0, "#lab="+l.Name+"&per-class=64&lang="+lg.Code)
			atRest(t, ctx)
			dir := "ltr"
			if lg.RTL {
				dir = "rtl"
			}
			got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[document.documentElement.lang, document.documentElement.dir]`))
			must(t, err, "read lang and dir")
			if got[0] != lg.Code || got[1] != dir {
				t.Errorf("%s lab in %s: lang %q dir %q", l.Name, lg.Code, got[0], got[1])
			}
			// Figures and formulas stay left to right in a mirrored page:
			// "(0, 1)" must not read "(1 ,0)".
			rtl, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll(".lab svg, .lab canvas, .lab math")].filter((e) => getComputedStyle(e).direction !== "ltr").slice(0, 3).map((e) => e.outerHTML.slice(0, 80))`))
			must(t, err, "read the figures' direction")
			if len(rtl) > 0 {
				t.Errorf("the %s lab in %s draws figures right to left: %q", l.Name, lg.Code, rtl)
			}
			texts, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(() => {
  const out = [], w = document.createTreeWalker(document.querySelector(".explorer"), NodeFilter.SHOW_TEXT);
  for (let n = w.nextNode(); n; n = w.nextNode()) {
    if (n.parentElement.closest("math, .metric, [data-metric], .code")) continue; // formulas, numbers, flag names
    const s = n.textContent.trim(); if (s) out.push(s);
  }
  for (const e of document.querySelectorAll(".explorer [title], .explorer [aria-label]")) {
    out.push((e.getAttribute("title") || "").trim(), (e.getAttribute("aria-label") || "").trim());
  }
  return out;
})()`))
			must(t, err, "read the page's words")
			var left []string
			for _, s := range texts {
				if english[s] {
					left = append(left, s)
				}
			}
			if len(left) > 0 {
				t.Errorf("the %s lab in %s shows English: %q", l.Name, lg.Code, left)
			}
			if l.Name == "graph" || lg.Code == "ar" || lg.Code == "zh" {
				screenshot(t, ctx, fmt.Sprintf("65-%s-%s", lg.Code, l.Name))
			}
		}
	}
}

// What the readers, the state table and the engine say reaches the page
// in its language: a bad link, and files the worker cannot open (the
// worker sends a message, the page words it).
func TestMessagesInThePageLanguage(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	open(t, ctx, srv, "#per-class=64&lr=abc&lang=es")
	waitFor(t, ctx, "the layout", graphDrawn)
	noticeSays(t, ctx, `lr: "abc" no está permitido; se espera [1e-06, 10]; conserva 0.01`)
	giveFiles(t, ctx, map[string][]byte{"empty.zip": zipFiles(t, nil)}, true)
	noticeSays(t, ctx, "Tu grafo no se abrió: empty.zip: está vacío (o solo contiene carpetas y archivos ocultos)")
	open(t, ctx, srv, "#per-class=64&lang=ar")
	waitFor(t, ctx, "the layout in Arabic", graphDrawn)
	giveFiles(t, ctx, map[string][]byte{"edges.csv": []byte("source,target\n0,1\n1,2,3\n"), "labels.csv": []byte("id,label\n0,a\n1,b\n2,a\n")}, true)
	noticeSays(t, ctx, "لم يُفتح رسمك البياني: edges.csv:3: عمود زائد: 3 قيم، والترويسة فيها 2")
	isolated, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector(".notices").textContent.includes("\u2068edges.csv:3\u2069")`))
	must(t, err, "read the notice")
	if !isolated {
		t.Error("in Arabic the file's name is not isolated from the right-to-left text")
	}
	alive(t, ctx)
}
