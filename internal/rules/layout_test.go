package rules

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// layoutHome is the one file that reads the page's layout: a
// ResizeObserver reports the sizes the figures and canvases are drawn
// for, after the browser's own layout, and renders, flushes and paints
// read what it kept. A read made anywhere else, after the page's elements
// changed, lays the page out there and then on its thread: the lab's
// flush read the views' computed columns on every run's snapshot, and
// every paint of the graph read its canvas's width.
const layoutHome = "app/layout.go"

// layoutReaders are the properties and methods of the DOM whose read lays
// the page out first, where it is not laid out.
var layoutReaders = []string{
	"getComputedStyle", "computedStyleMap", "getBoundingClientRect", "getClientRects",
	"clientWidth", "clientHeight", "clientTop", "clientLeft",
	"offsetWidth", "offsetHeight", "offsetTop", "offsetLeft", "offsetParent", "offsetX", "offsetY", "layerX", "layerY",
	"scrollWidth", "scrollHeight", "scrollTop", "scrollLeft", "scrollX", "scrollY",
	"scrollTo", "scrollBy", "scrollIntoView", "elementFromPoint", "elementsFromPoint",
	"innerWidth", "innerHeight", "visualViewport", "checkVisibility",
	"getBBox", "getComputedTextLength", "getScreenCTM", "focus",
}

// goAppLayoutReaders are go-app's methods that read or scroll the layout
// (app.Window().Size(), ScrollTo, ScrollToID), named here as the method
// and, for Size, the call its receiver must be.
var goAppLayoutReaders = map[string]string{"ScrollTo": "", "ScrollToID": "", "Size": "Window"}

// namesLayoutRead reports which layout read the string s names: the whole
// string, or, for the names in camel case that words do not hold, any part
// of it (a script the page evaluates).
func namesLayoutRead(s string) (string, bool) {
	for _, r := range layoutReaders {
		if s == r || r != strings.ToLower(r) && strings.Contains(s, r) {
			return r, true
		}
	}
	return "", false
}

// readNowCallers are the functions that may read the layout there and
// then, or scroll the page (readLayoutNow, scrollPageBy): each answers
// the user, not a frame.
var readNowCallers = map[string]string{
	"OnResize":      "the window resized: its height, which resizes no element",
	"bringIntoView": "a tour's step scrolled under the toolbar",
	"pointAt":       "a pointer on the graph: where on the figure it is",
}

// pageLayoutReads lists, outside layoutHome and the browser tests, the
// strings that name a layout read, and the calls of readLayoutNow outside
// its callers.
func pageLayoutReads(files []sourceFile) []string {
	var out []string
	for _, sf := range files {
		if sf.rel == layoutHome || strings.HasPrefix(sf.rel, "wasm/e2e/") {
			continue
		}
		for _, d := range sf.file.Decls {
			fn, _ := d.(*ast.FuncDecl)
			ast.Inspect(d, func(n ast.Node) bool {
				at := func() string { return sf.fset.Position(n.Pos()).String() }
				switch n := n.(type) {
				case *ast.BinaryExpr:
					// "client" + "Width": the literals joined, read as one.
					if s, ok := joinedLiteral(n); ok {
						if r, ok := namesLayoutRead(s); ok {
							out = append(out, fmt.Sprintf("%s: reads the layout (%s) outside %s: a read after the page changed lays it out there and then; keep the size with the observer there (watchWidth)", at(), r, layoutHome))
						}
						return false
					}
				case *ast.BasicLit:
					if n.Kind != token.STRING {
						break
					}
					if s, err := strconv.Unquote(n.Value); err == nil {
						if r, ok := namesLayoutRead(s); ok {
							out = append(out, fmt.Sprintf("%s: reads the layout (%s) outside %s: a read after the page changed lays it out there and then; keep the size with the observer there (watchWidth)", at(), r, layoutHome))
						}
					}
				case *ast.CallExpr:
					if sel, ok := n.Fun.(*ast.SelectorExpr); ok {
						if recv, ok := goAppLayoutReaders[sel.Sel.Name]; ok && (recv == "" || callsNamed(sel.X, recv)) {
							out = append(out, fmt.Sprintf("%s: reads the layout through go-app (%s) outside %s", at(), sel.Sel.Name, layoutHome))
						}
					}
				case *ast.Ident:
					if (n.Name == "readLayoutNow" || n.Name == "scrollPageBy") && (fn == nil || readNowCallers[fn.Name.Name] == "") {
						out = append(out, fmt.Sprintf("%s: reads the layout there and then outside an answer to the user (%v): a render, a flush or a paint reads what the observer kept", at(), keysOf(readNowCallers)))
					}
				}
				return true
			})
		}
	}
	return out
}

func keysOf(m map[string]string) []string { return slices.Sorted(maps.Keys(m)) }

// joinedLiteral is the string a sum of string literals makes, ok false
// where any term is not one.
func joinedLiteral(e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(e.Value)
		return s, err == nil
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			return "", false
		}
		l, ok := joinedLiteral(e.X)
		if !ok {
			return "", false
		}
		r, ok := joinedLiteral(e.Y)
		return l + r, ok
	case *ast.ParenExpr:
		return joinedLiteral(e.X)
	}
	return "", false
}

// callsNamed reports whether e is a call of a function or method named
// name (app.Window()).
func callsNamed(e ast.Expr, name string) bool {
	c, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	switch f := c.Fun.(type) {
	case *ast.SelectorExpr:
		return f.Sel.Name == name
	case *ast.Ident:
		return f.Name == name
	}
	return false
}

// TestThePageReadsItsLayoutInOnePlace fails where a file other than
// app/layout.go reads the layout, or a function other than an answer to
// the user reads it there and then.
func TestThePageReadsItsLayoutInOnePlace(t *testing.T) {
	for _, v := range pageLayoutReads(moduleSources(t)) {
		t.Error(v)
	}
}

// TestLayoutRuleCatchesAReadElsewhere shows the check catches a lab, a
// paint and a component outside package app that read the layout, and a
// render that reads it there and then, and leaves the home and the
// answers to the user alone.
func TestLayoutRuleCatchesAReadElsewhere(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      int
	}{
		{"app/xorlab.go", "package app\nfunc (c *XORLab) width() float64 { return app.Window().Call(\"getComputedStyle\", e).Get(\"width\").Float() }\n", 1},
		{"app/canvas.go", "package app\nfunc (p *painter) draw() { w := el.Get(\"clientWidth\").Float(); h := el.Get(`offsetHeight`).Int(); _, _ = w, h }\n", 2},
		{"wasm/ui/main.go", "package main\nfunc f() { _ = app.Window().Get(\"innerWidth\") }\n", 1},
		{"app/lab.go", "package app\nfunc (l *lab) Render() app.UI { r := readLayoutNow(el); _ = r; return nil }\n", 1},
		{"app/layout.go", "package app\nfunc took() { _ = win.Get(\"innerWidth\"); _ = win.Call(\"getComputedStyle\", el) }\n", 0},
		{"app/tour.go", "package app\nfunc bringIntoView(el app.Value) { _ = readLayoutNow(el) }\n", 0},
		{"app/graphlab.go", "package app\nfunc f() { _ = \"a client's width\"; _ = el.Get(\"width\"); _ = \"focus on the graph\"; ctx.Dispatch(nil) }\n", 0},
		{"app/graphlab_view.go", "package app\nfunc (c *GraphLab) paint() { _ = el.Get(\"client\" + \"Width\"); app.Window().Call(\"eval\", `document.body.scrollTop`) }\n", 2},
		{"app/shell.go", "package app\nfunc (c *Shell) Render() app.UI { w, h := app.Window().Size(); ctx.ScrollTo(\"top\"); app.Window().ScrollToID(\"x\"); el.Call(\"focus\"); _, _ = w, h; return nil }\n", 4},
		{"app/lab.go", "package app\nfunc (l *lab) flush() { read := readLayoutNow; _ = read(nil); scrollPageBy(10) }\n", 2},
		{"app/graphlab_inspect.go", "package app\nfunc (c *GraphLab) pointAt(ctx app.Context, e app.Event) { f := func() { _ = readLayoutNow(nil) }; f() }\n", 0},
		{"wasm/e2e/shots.go", "package e2e\nconst q = `document.body.clientWidth`\nvar w = \"clientWidth\"\n", 0},
	} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, tc.name, tc.src, 0)
		if err != nil {
			t.Fatal(err)
		}
		if v := pageLayoutReads([]sourceFile{{rel: tc.name, file: f, fset: fset}}); len(v) != tc.want {
			t.Errorf("%s: %d reads found, want %d: %q", tc.name, len(v), tc.want, v)
		}
	}
}
