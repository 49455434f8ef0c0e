package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"pdnexplorer/experiment"
)

// No lab is wider than its screen, a phone's (390 px), a laptop's
// (1280 px), or the narrowest that gets the desktop's layout (701 px), in
// English and in the languages whose words run widest (Chinese, whose
// captions set formulas in longer lines, and Spanish): a long formula or
// a wide table scrolls within itself, the controls' grid shrinks to the
// screen, a figure to its column.
func TestNoLabOverflowsAPhone(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	for _, screen := range []struct {
		w, h   int64
		mobile bool
		lang   string
	}{{390, 844, true, "en"}, {1280, 800, false, "en"}, {701, 900, false, "zh"}, {701, 900, false, "es"}} {
		opts := []chromedp.EmulateViewportOption{}
		if screen.mobile {
			opts = append(opts, chromedp.EmulateMobile)
		}
		must(t, chromedp.Do(ctx, chromedp.EmulateViewport(screen.w, screen.h, opts...)), "a screen")
		for i, l := range experiment.Labs {
			showLab(t, ctx, srv, i == 0, "#lab="+l.Name+"&lang="+screen.lang)
			w, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth`))
			must(t, err, "read the page's width")
			if int64(w) > screen.w {
				wide, _ := chromedp.Run(ctx, chromedp.Evaluate[[]string](fmt.Sprintf(`[...document.querySelectorAll("*")].filter((e) => e.getBoundingClientRect().right > %d).slice(0, 5).map((e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + " " + Math.round(e.getBoundingClientRect().width) + " px")`, screen.w+1)))
				t.Errorf("the %s lab is %d px wide on a %d px screen in %s: %v", l.Name, w, screen.w, screen.lang, wide)
			}
		}
	}
}

// phoneLanguages are the languages a phone is tried in: one of spaced
// words, one without spaces, and one written right to left.
var phoneLanguages = []string{"en", "zh", "ar"}

// The phone's toolbar and its first screen: the sticky toolbar keeps to
// 120 px, and the graph lab's figure starts on the first screen, before
// and after training.
const (
	phoneToolbarPx = 120
	phoneHeightPx  = 844
)

// firstScreen is what a phone shows at the top of the graph lab: the
// toolbar's height and the graph figure's top, the page scrolled to its
// top, and the tops of what lies above the figure (for the log).
type firstScreen struct {
	Toolbar, FigureTop float64
	Above              []string
}

const readFirstScreen = `(() => {
  window.scrollTo(0, 0);
  const bar = document.querySelector(".lab .toolbar"), fig = document.querySelector("#graph-figure");
  const above = [...document.querySelectorAll("header, .notices, .lab > *, #graph > *")].filter((e) => e.getClientRects().length > 0)
    .map((e) => (e.id || e.tagName.toLowerCase() + "." + e.className.split(" ")[0]) + " " + Math.round(e.getBoundingClientRect().top) + "+" + Math.round(e.getBoundingClientRect().height));
  return {Toolbar: bar.getBoundingClientRect().height, FigureTop: fig ? fig.getBoundingClientRect().top : 1e9, Above: above};
})()`

// On a phone, in English, Chinese and Arabic, the graph lab's sticky
// toolbar keeps to 120 px before training, while it trains and once
// paused, and the graph starts on the first screen after training. (At
// 10 epochs a second the run is still training when it is measured.)
func TestGraphLabShowsTheGraphOnAPhone(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	phone(t, ctx)
	for _, lang := range phoneLanguages {
		open(t, ctx, srv, "#speed=10&lang="+lang)
		waitFor(t, ctx, "the layout in "+lang, graphDrawn)
		atRest(t, ctx)
		check := func(when string) {
			t.Helper()
			v, err := steadyEval[firstScreen](t, ctx, readFirstScreen)
			must(t, err, "read the first screen")
			t.Logf("graph lab in %s on a phone, %s: toolbar %.0f px, the graph's top at %.0f px; %s", lang, when, v.Toolbar, v.FigureTop, strings.Join(v.Above, ", "))
			if v.Toolbar > phoneToolbarPx {
				t.Errorf("graph lab in %s, %s: the toolbar is %.0f px tall, more than %d", lang, when, v.Toolbar, phoneToolbarPx)
			}
			if v.FigureTop >= phoneHeightPx {
				t.Errorf("graph lab in %s, %s: the graph starts at %.0f px, below the first screen (%d)", lang, when, v.FigureTop, phoneHeightPx)
			}
		}
		check("before training")
		key(t, ctx, " ")
		waitFor(t, ctx, "a few epochs", `(() => { const e = document.querySelector("#epoch"); return e !== null && parseInt(e.textContent) >= 5; })()`)
		check("while training")
		if running, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector("#play").textContent.includes("❚")`)); err != nil || !running {
			t.Errorf("graph lab in %s: measured while training, but the run was not training (%v)", lang, err)
		}
		screenshot(t, ctx, "phone-graph-training-"+lang)
		key(t, ctx, " ")
		waitFor(t, ctx, "paused", `document.querySelector("#play").textContent.includes("▶")`)
		atRest(t, ctx)
		check("after training")
		screenshot(t, ctx, "phone-graph-trained-"+lang)

		// The rest of the toolbar opens behind its button, and folds again.
		click(t, ctx, "#toolbar-more", "open the toolbar")
		waitFor(t, ctx, "the toolbar open", `document.querySelector("#toolbar-more").getAttribute("aria-expanded") === "true" && ["#speed", "#train-acc", "#loss", "#rewind-slider"].every((s) => document.querySelector(s).getClientRects().length > 0)`)
		phoneCheck(t, ctx, "the graph lab in "+lang+" with its toolbar open")
		screenshot(t, ctx, "phone-graph-toolbar-open-"+lang)
		click(t, ctx, "#toolbar-more", "fold the toolbar")
		waitFor(t, ctx, "the toolbar folded", `document.querySelector("#toolbar-more").getAttribute("aria-expanded") === "false" && document.querySelector("#speed").getClientRects().length === 0`)
		// Every headline number stays in the page, folded or not.
		missing, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`["epoch", "test-accuracy", "train-accuracy", "loss", "epochs-per-second", "rewind-epoch"].filter((m) => document.querySelector('[data-metric="' + m + '"]') === null)`))
		must(t, err, "read the metrics")
		if len(missing) > 0 {
			t.Errorf("graph lab in %s on a phone: the metrics %q are not in the page", lang, missing)
		}
	}
}

// On a phone the node trace's tables scroll sideways within themselves
// and keep every number on one line (its α, d_j and â columns were 24 px
// wide, each value broken over three lines), in every step, in English,
// Chinese and Arabic.
func TestNodeTraceKeepsItsNumbersOnAPhone(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	phone(t, ctx)
	for _, lang := range phoneLanguages {
		open(t, ctx, srv, "#per-class=64&lang="+lang)
		waitFor(t, ctx, "the layout in "+lang, graphDrawn)
		key(t, ctx, " ")
		waitFor(t, ctx, "a few epochs", `(() => { const e = document.querySelector("#epoch"); return e !== null && parseInt(e.textContent) >= 5; })()`)
		key(t, ctx, " ")
		// A node with neighbours: the first whose trace lists edges.
		must(t, chromedp.Do(ctx, chromedp.Focus(chromedp.CSS("#graph-figure")), chromedp.KeyEvent(kb.ArrowRight)), "walk to a node")
		waitFor(t, ctx, "a node chosen", `document.querySelector("#trace-open") !== null`)
		click(t, ctx, "#trace-open", "open the trace")
		for k := 0; ; k++ {
			waitFor(t, ctx, "the trace", `document.querySelector("#node-trace table, #trace-no-edges") !== null`)
			if n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('#node-trace [data-metric="trace-alpha"]').length`)); err == nil && n >= 3 {
				break
			} else if k == 40 {
				t.Fatalf("no node among the first 40 has three neighbours (%v)", err)
			}
			must(t, chromedp.Do(ctx, chromedp.Focus(chromedp.CSS("#graph-figure")), chromedp.KeyEvent(kb.ArrowRight)), "the next node")
		}
		for step := 1; step <= 4; step++ {
			if step > 1 {
				// Clicked in the page: on a phone the sticky toolbar may lie over it.
				_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(document.querySelector("#trace-next").click(), true)`))
				must(t, err, "the next step")
				waitFor(t, ctx, fmt.Sprintf("step %d", step), fmt.Sprintf(`document.querySelector("#trace-step").textContent.trim().startsWith("%d")`, step))
			}
			_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const e = document.querySelector("#node-trace .trace-step"); e.scrollIntoView({block: "start"}); return true; })()`))
			must(t, err, "scroll to the step")
			phoneCheck(t, ctx, fmt.Sprintf("the node trace's step %d in %s", step, lang))
			if step == 1 {
				cells, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`[...document.querySelectorAll('#node-trace [data-metric="trace-alpha"]')].map((e) => e.closest("td").getBoundingClientRect().width)`))
				must(t, err, "measure the α column")
				t.Logf("the node trace in %s on a phone: its α cells are %v px wide", lang, cells)
				screenshot(t, ctx, "phone-trace-"+lang)
			}
		}
	}
}

// On a phone the labs' menu shows every lab's name whole, in English,
// Chinese and Arabic; laid open as a list (as a phone opens it, each
// entry a row of the menu's width), no entry is cut.
func TestLabMenuOnAPhone(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	phone(t, ctx)
	for _, lang := range phoneLanguages {
		open(t, ctx, srv, "#per-class=64&lang="+lang)
		phoneCheck(t, ctx, "the graph lab's header in "+lang)
		cut, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(() => {
  const m = document.querySelector("#lab-menu");
  m.size = m.options.length;
  return [...m.options].filter((o) => o.scrollWidth > o.clientWidth + 1).map((o) => o.text + " " + o.scrollWidth + " px in " + o.clientWidth);
})()`))
		must(t, err, "lay the menu open")
		for _, c := range cut {
			t.Errorf("the labs' menu in %s cuts %s", lang, c)
		}
		screenshot(t, ctx, "phone-lab-menu-open-"+lang)
		_, err = chromedp.Run(ctx, chromedp.Evaluate[bool](`(document.querySelector("#lab-menu").removeAttribute("size"), true)`))
		must(t, err, "close the menu")
	}
}

// phoneFaults lists what a phone's reader would find wrong on the page as
// drawn: an element past the screen's edges (outside anything that
// scrolls), a table outside its scrolling wrapper, a number in a table
// broken over lines or a cell of numbers taller than a line, a text cut
// (overflow hidden or an ellipsis), and a menu whose entry on show is
// wider than the menu.
const phoneFaults = `(() => {
  const vw = document.documentElement.clientWidth, out = [];
  const name = (e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (typeof e.className === "string" && e.className.trim() ? "." + e.className.trim().split(/\s+/).join(".") : "");
  const say = (e, what) => out.push(name(e) + " " + JSON.stringify((e.textContent || "").trim().slice(0, 40)) + ": " + what);
  const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility === "visible" && !e.closest(".visually-hidden");
  const scrolls = (e) => getComputedStyle(e).overflowX !== "visible";
  const inScroller = (e) => { for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) if (scrolls(p)) return true; return false; };
  // Lines text is laid out on: its boxes, top to bottom, a box below the
  // line before starting a line (a swatch or a larger number beside the
  // text shares its line).
  const lines = (rects) => { let n = 0, bottom = -Infinity;
    for (const r of [...rects].filter((r) => r.width > 0).sort((a, b) => a.top - b.top)) {
      if (r.top >= bottom - 1) { n++; bottom = r.bottom; } else bottom = Math.max(bottom, r.bottom);
    }
    return n; };
  // The boxes of an element's text, not of its pictures.
  const textRects = (e) => { const out = [], w = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
    for (let n = w.nextNode(); n; n = w.nextNode()) { const rg = document.createRange(); rg.selectNodeContents(n); out.push(...rg.getClientRects()); }
    return out; };
  if (document.documentElement.scrollWidth > vw) out.push("the page is " + document.documentElement.scrollWidth + " px wide on a " + vw + " px screen");
  for (const e of document.querySelectorAll("body *")) {
    if (!shown(e)) continue;
    const r = e.getBoundingClientRect(), s = getComputedStyle(e);
    if ((r.right > vw + 0.5 || r.left < -0.5) && s.position !== "fixed" && !inScroller(e)) say(e, "spans " + Math.round(r.left) + " to " + Math.round(r.right) + " px of " + vw);
    if (e instanceof HTMLSelectElement || !e.textContent.trim()) continue;
    if ((["hidden", "clip"].includes(s.overflowX) || s.textOverflow === "ellipsis") && e.scrollWidth > e.clientWidth + 1) say(e, "cut: " + e.scrollWidth + " px of text in " + e.clientWidth);
  }
  for (const table of document.querySelectorAll("table")) {
    if (!shown(table)) continue;
    if (!table.parentElement.classList.contains("table-scroll")) say(table, "a table outside its scrolling wrapper");
    const w = document.createTreeWalker(table, NodeFilter.SHOW_TEXT);
    for (let n = w.nextNode(); n; n = w.nextNode()) {
      for (const m of n.textContent.matchAll(/[-−+]?\d[\d.,]*(?:e[-+]?\d+)?%?/g)) {
        const rg = document.createRange(); rg.setStart(n, m.index); rg.setEnd(n, m.index + m[0].length);
        const k = lines(rg.getClientRects());
        if (k > 1) say(n.parentElement, "the number " + m[0] + " broken over " + k + " lines");
      }
    }
    for (const cell of table.querySelectorAll("td, th")) {
      if (!/\d/.test(cell.textContent) || !/^[\s\d.,%−\-+–·/×()eE]+$/.test(cell.textContent)) continue;
      const k = lines(textRects(cell));
      if (k > 1) say(cell, "a cell of numbers on " + k + " lines");
    }
  }
  // A menu shows its choice whole: each entry that can be on show, chosen
  // for a moment (no event: the page does not hear it), against a copy of
  // the menu as wide as the entry. (A menu under a title, whose first
  // entry has no value, goes back to its title after a choice.)
  for (const sel of document.querySelectorAll("select")) {
    if (!shown(sel) || sel.options.length === 0) continue;
    const keep = sel.selectedIndex, entries = sel.options[0].value === "" ? [0] : [...sel.options].map((o, i) => i);
    for (const i of entries) {
      sel.selectedIndex = i;
      const has = sel.getBoundingClientRect().width, text = sel.options[i].text, c = sel.cloneNode(false);
      c.append(new Option(text));
      c.style.cssText = "position: absolute; visibility: hidden; width: auto; min-width: 0; max-width: none; field-sizing: content";
      sel.after(c);
      const need = c.getBoundingClientRect().width;
      c.remove();
      if (need > has + 1) say(sel, "cuts its entry " + JSON.stringify(text) + ", " + Math.round(need) + " px wide, in " + Math.round(has) + " px");
    }
    sel.selectedIndex = keep;
  }
  for (const svg of document.querySelectorAll("svg")) {
    if (!shown(svg)) continue;
    const box = svg.getBoundingClientRect();
    for (const tx of svg.querySelectorAll("text")) {
      const r = tx.getBoundingClientRect();
      if (r.width > 0 && (r.left < box.left - 1 || r.right > box.right + 1)) say(tx, "runs past its figure: " + Math.round(r.left) + " to " + Math.round(r.right) + " px, the figure " + Math.round(box.left) + " to " + Math.round(box.right));
    }
  }
  return out;
})()`

// On a phone, in English, Chinese and Arabic, no lab shows anything past
// the screen's edges, a number broken over lines in a table, a table that
// does not scroll within itself, or a title or menu entry cut; nor with
// its controls open. Every lab's sticky toolbar keeps to 120 px, before
// and while its runs train (a sweep's runs are not started: its toolbar
// holds counts, not a number a run).
func TestEveryLabWholeOnAPhone(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	phone(t, ctx)
	toolbar := func(where string) {
		t.Helper()
		h, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`document.querySelector(".lab .toolbar").getBoundingClientRect().height`))
		must(t, err, "measure the toolbar")
		t.Logf("%s: the toolbar is %.0f px tall", where, h)
		if h > phoneToolbarPx {
			t.Errorf("%s: the toolbar is %.0f px tall, more than %d", where, h, phoneToolbarPx)
		}
	}
	for _, lang := range phoneLanguages {
		for _, l := range experiment.Labs {
			pace := "&speed=5" // slow enough to be training when measured
			if l.Queue {
				pace = ""
			}
			open(t, ctx, srv, "#lab="+l.Name+"&per-class=64"+pace+"&lang="+lang)
			waitFor(t, ctx, l.Name+" drawn in "+lang, labDrawn)
			atRest(t, ctx)
			toolbar(fmt.Sprintf("the %s lab in %s on a phone", l.Name, lang))
			if !l.Queue {
				key(t, ctx, " ")
				waitFor(t, ctx, "training", `document.querySelector("#play").textContent.includes("❚") && [...document.querySelectorAll('.toolbar [data-metric="epoch"]')].every((e) => +e.dataset.value >= 1)`)
				toolbar(fmt.Sprintf("the %s lab in %s on a phone, training", l.Name, lang))
				key(t, ctx, " ")
				waitFor(t, ctx, "paused", `!document.querySelector("#play").textContent.includes("❚")`)
			}
			for _, controls := range []bool{false, true} {
				if controls {
					click(t, ctx, "#controls-toggle", "open the controls")
					waitFor(t, ctx, "the controls open", `document.querySelector(".lab .main > :first-child").offsetParent !== null`)
				}
				faults, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](phoneFaults))
				must(t, err, "look for faults")
				for _, f := range faults {
					t.Errorf("the %s lab in %s on a phone (controls open %v): %s", l.Name, lang, controls, f)
				}
			}
			if lang != "en" {
				screenshot(t, ctx, "phone-whole-"+lang+"-"+l.Name)
			}
		}
	}
}

// phoneCheck fails the test for every fault phoneFaults finds, saying
// where.
func phoneCheck(t *testing.T, ctx context.Context, where string) {
	t.Helper()
	faults, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](phoneFaults))
	must(t, err, "look for faults")
	for _, f := range faults {
		t.Errorf("%s: %s", where, f)
	}
}
