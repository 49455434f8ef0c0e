package app

import (
	"math"
	"slices"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/internal/numtext"
)

// The one place the page reads its layout. A read of the layout (an
// element's width, its computed style, the window's inner size) made
// after the page's elements changed makes the browser lay the page out
// there and then, on the page's thread, and again before the frame is
// shown: a render, a flush of a run's snapshots or a paint that read it
// cost a layout a frame while runs trained. So sizes come from a
// ResizeObserver, whose callback the browser runs after its own layout,
// where a read costs nothing more, and are kept here; renders, flushes,
// draws and paints read what is kept (watchWidth, viewsColumn,
// windowSize). The only other reads answer the user (a pointer's place,
// a resized window, a tour's step scrolled into view): readLayoutNow, each
// counted, and a test fails if a render or a flush makes one. A rules
// test fails where a file other than this one names a property that reads
// the layout.

// box is an element whose size the page keeps as the browser last laid
// it out.
type box struct {
	sel     string    // how to find it (find): a selector, or "id:" and an id
	el      app.Value // nil while none is observed
	width   float64   // inside its padding; 0 until the observer first reports it
	columns float64   // the narrowest of its grid's columns, for a grid
	grid    bool      // a grid: its columns are kept too
	redraws bool      // figures are drawn for its width: the lab draws them all again when it changes
	changed func()    // what else to do when its size changes
	// reported says the observer reported el's size: a box whose element
	// the page replaced keeps the last one's sizes until then, so the
	// figures are not drawn for no width in between.
	reported bool
}

// sizes is what the observer reported.
var sizes struct {
	observer app.Value // nil off the browser, or where it has no ResizeObserver
	onSizes  app.Func
	onScroll app.Func
	boxes    []*box
	innerW   float64
	innerH   float64
	// gen counts the page's changes of layout and its scrolls: a place on
	// the screen read there and then (readLayoutNow) holds while it stays.
	gen int
	// refit draws the mounted lab's figures again for the sizes now
	// kept (the lab's fit), all of them where all says so; nil when no
	// lab is on the page. owner is the lab it draws.
	refit func(all bool)
	owner *lab
	// refitting says a refit waits (refitAfter), and refitAll that it
	// draws every figure.
	refitting, refitAll bool
	// nowReads counts the reads of the layout made outside the
	// observer's callback (readLayoutNow).
	nowReads int
}

// refitAfter is how long the page waits, after a size changed, before the
// lab draws its figures for it: a window dragged wider changes the
// widths every frame, and every figure would be drawn in each.
const refitAfter = 120 * time.Millisecond

// unobserved is the width a box reads as where the browser has no
// ResizeObserver (before 2020): a canvas is painted that wide, which its
// styles scale to its place, rather than not at all.
const unobserved = 600

// observe starts the page's observer on the browser, once, and reports
// whether there is one.
func observe() bool {
	if !app.IsClient {
		return false
	}
	if sizes.observer != nil {
		return true
	}
	ro := app.Window().Get("ResizeObserver")
	if !ro.Truthy() {
		return false
	}
	sizes.onSizes = app.FuncOf(func(_ app.Value, args []app.Value) any {
		if len(args) > 0 {
			keepSizes(args[0])
		}
		return nil
	})
	sizes.onScroll = app.FuncOf(func(app.Value, []app.Value) any {
		sizes.gen++
		return nil
	})
	app.Window().Call("addEventListener", "scroll", sizes.onScroll, map[string]any{"passive": true, "capture": true})
	sizes.observer = ro.New(sizes.onSizes)
	root := &box{sel: ":root", el: app.Window().Get("document").Get("documentElement")}
	sizes.boxes = append(sizes.boxes, root)
	sizes.observer.Call("observe", root.el)
	return true
}

// keepSizes keeps the sizes the observer reports, entries, and lets what
// shows them draw again where they changed. The browser laid the page out
// just before, so the reads here cost no layout of their own. An element
// the page removed is no longer observed, nor kept.
func keepSizes(entries app.Value) {
	win := app.Window()
	sizes.innerW, sizes.innerH = win.Get("innerWidth").Float(), win.Get("innerHeight").Float()
	sizes.gen++
	refit, all := false, false
	for i := range entries.Length() {
		e := entries.Index(i)
		target := e.Get("target")
		for _, b := range sizes.boxes {
			if b.el == nil || !b.el.Equal(target) {
				continue
			}
			if !target.Get("isConnected").Bool() {
				sizes.observer.Call("unobserve", target)
				b.el, b.changed = nil, nil
				continue
			}
			w := e.Get("contentRect").Get("width").Float()
			cols := b.columns
			if b.grid {
				cols = narrowestColumn(win.Call("getComputedStyle", b.el).Get("gridTemplateColumns").String())
			}
			if b.reported && w == b.width && cols == b.columns {
				continue
			}
			b.width, b.columns, b.reported = w, cols, true
			if b.changed != nil {
				b.changed()
			}
			refit, all = true, all || b.redraws
		}
	}
	if refit {
		askRefit(all)
	}
}

// askRefit has the mounted lab draw its figures for the sizes kept, once
// the sizes have held refitAfter: a plain timer, as drawLater's.
func askRefit(all bool) {
	sizes.refitAll = sizes.refitAll || all
	if sizes.refitting {
		return
	}
	sizes.refitting = true
	time.AfterFunc(refitAfter, func() {
		sizes.refitting = false
		all := sizes.refitAll
		sizes.refitAll = false
		if sizes.refit != nil {
			sizes.refit(all)
		}
	})
}

// find is the element sel names: "id:" and an id is the element of that
// id, whatever characters it holds; any other sel, the first element the
// selector selects.
func find(sel string) app.Value {
	if id, ok := strings.CutPrefix(sel, "id:"); ok {
		return app.Window().GetElementByID(id)
	}
	return app.Window().Get("document").Call("querySelector", sel)
}

// watched is the box of the element sel names (find), observed from now
// on, or nil where there is none on the page or no observer. An element
// the page replaced (a lab left and come back) is found and observed
// again, its box keeping the last one's sizes until the observer reports.
func watched(sel string, grid, redraws bool, changed func()) *box {
	if !observe() {
		return nil
	}
	var b *box
	for _, x := range sizes.boxes {
		if x.sel == sel {
			b = x
		}
	}
	if b == nil {
		b = &box{sel: sel}
		sizes.boxes = append(sizes.boxes, b)
	}
	b.grid, b.redraws, b.changed = b.grid || grid, b.redraws || redraws, changed
	if b.el != nil && b.el.Get("isConnected").Bool() {
		return b
	}
	el := find(sel)
	if !el.Truthy() {
		return nil
	}
	if b.el != nil {
		sizes.observer.Call("unobserve", b.el)
	}
	b.el, b.reported = el, false
	sizes.observer.Call("observe", el)
	return b
}

// forget stops keeping the size of the element sel names: what drew for
// it has gone (a painter released).
func forget(sel string) {
	sizes.boxes = slices.DeleteFunc(sizes.boxes, func(b *box) bool {
		if b.sel != sel {
			return false
		}
		if b.el != nil && sizes.observer != nil {
			sizes.observer.Call("unobserve", b.el)
		}
		return true
	})
}

// watchWidth is the width inside the padding of the element sel names
// (find) as last laid out, 0 where there is none or until the observer
// first reports it; changed runs when it changes. Where the browser has
// no observer it is unobserved.
func watchWidth(sel string, changed func()) float64 {
	if b := watched(sel, false, false, changed); b != nil {
		return b.width
	}
	if app.IsClient && sizes.observer == nil {
		return unobserved
	}
	return 0
}

// figuresWidth is watchWidth for an element whose figures are drawn for
// its width: when it changes, the lab draws every figure again.
func figuresWidth(sel string) float64 {
	if b := watched(sel, false, true, nil); b != nil {
		return b.width
	}
	return 0
}

// viewsColumn is the width, in pixels, of the figures in the lab's
// narrowest column of cards (0 before the lab is laid out, or where no
// column is in pixels: printed, the views are no grid): the views' grid
// columns as laid out, less a card's padding.
func viewsColumn() float64 {
	b := watched(".lab .views", true, false, nil)
	if b == nil || !(b.columns > 0) || math.IsInf(b.columns, 1) {
		return 0
	}
	return max(b.columns-30, 100) // a card's padding and border
}

// narrowestColumn is the narrowest of a grid's columns as computed
// (gridTemplateColumns: "412px 412px"), +Inf where none is in pixels.
func narrowestColumn(template string) float64 {
	least := math.Inf(1)
	for _, col := range strings.Fields(template) {
		if px, err := numtext.ParseFloat(strings.TrimSuffix(col, "px")); err == nil && px > 0 {
			least = min(least, px)
		}
	}
	return least
}

// windowSize is the window's inner size as last laid out; ok is false
// before the observer first reported.
func windowSize() (w, h float64, ok bool) {
	if !observe() || !(sizes.innerW > 0) {
		return 0, 0, false
	}
	return sizes.innerW, sizes.innerH, true
}

// layoutRect is what readLayoutNow reads of an element: its box on the
// screen, the window's inner height, and the page's layout it was read in
// (sizes.gen): it holds while that stays.
type layoutRect struct {
	left, top, bottom, width, innerH float64
	gen                              int
}

// current reports whether r was read in the page's layout now.
func (r layoutRect) current() bool { return r.width > 0 && r.gen == sizes.gen }

// readLayoutNow reads el's box on the screen (nil: none) and the window's
// inner size there and then, and keeps the size: only in answer to the
// user (a pointer come onto a figure, a window resized, a tour's step
// scrolled into view), never on a render, a flush or a paint.
func readLayoutNow(el app.Value) layoutRect {
	sizes.nowReads++
	if !app.IsClient {
		return layoutRect{}
	}
	win := app.Window()
	sizes.innerW, sizes.innerH = win.Get("innerWidth").Float(), win.Get("innerHeight").Float()
	r := layoutRect{innerH: sizes.innerH, gen: sizes.gen}
	if el != nil && el.Truthy() {
		b := el.Call("getBoundingClientRect")
		r.left, r.top, r.bottom, r.width = b.Get("left").Float(), b.Get("top").Float(), b.Get("bottom").Float(), b.Get("width").Float()
	}
	return r
}

// scrollPageBy scrolls the page dy pixels down, in answer to the user (a
// tour's step brought under the toolbar): a scroll lays the page out
// first, where it changed.
func scrollPageBy(dy float64) {
	if app.IsClient {
		app.Window().Call("scrollBy", 0, dy)
	}
}
