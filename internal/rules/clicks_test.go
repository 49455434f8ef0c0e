package rules

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"testing"
)

// clicksHome is the one file of the browser suite that clicks: its click
// waits until the element is shown and on top at its centre, then clicks
// it in the same step. chromedp's clicks read an element's box, then send
// the mouse there; on a busy machine the page moved between the two (a
// lab's graph counts arriving late grew its intro), the click landed on
// something else, and the test waited for its effect until CI's time ran
// out.
const clicksHome = "wasm/e2e/e2e_test.go"

// clickCalls are chromedp's clicks at a box read before.
var clickCalls = []string{"Click", "DoubleClick", "MouseClickXY", "MouseClickNode"}

// strayClicks lists the browser suite's clicks made outside clicksHome.
func strayClicks(files []sourceFile) []string {
	var out []string
	for _, sf := range files {
		if filepath.Dir(sf.rel) != "wasm/e2e" || sf.rel == clicksHome {
			continue
		}
		names := importNames(sf.file)
		ast.Inspect(sf.file, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && names[id.Name] == "github.com/chromedp/chromedp" && matches(sel.Sel.Name, clickCalls) {
					out = append(out, fmt.Sprintf("%s: chromedp.%s outside %s: click(t, ctx, sel, what) clicks what is on top, in one step, so a page that moves cannot take the click elsewhere", sf.fset.Position(call.Pos()), sel.Sel.Name, clicksHome))
				}
			}
			return true
		})
	}
	return out
}

// TestEveryClickLandsWhereItAims fails on a click of the browser suite
// made other than through its click helper.
func TestEveryClickLandsWhereItAims(t *testing.T) {
	for _, v := range strayClicks(testSources(t)) {
		t.Error(v)
	}
}

// TestClickRuleCatchesAChromedpClick shows the check catches chromedp's
// clicks in the browser suite, and leaves the helper's file and other
// packages alone.
func TestClickRuleCatchesAChromedpClick(t *testing.T) {
	for _, tc := range []struct {
		name, rel, body string
		want            int
	}{
		{"a click", "wasm/e2e/x_test.go", `_ = chromedp.Click("#play")`, 1},
		{"a click at a point", "wasm/e2e/x_test.go", `_ = chromedp.MouseClickXY(1, 2)`, 1},
		{"a renamed import", "wasm/e2e/x_test.go", `_ = cdp.DoubleClick("#play")`, 1},
		{"the helper's file", clicksHome, `_ = chromedp.Click("#play")`, 0},
		{"another package", "cmd/pdn/x_test.go", `_ = chromedp.Click("#play")`, 0},
		{"a tap", "wasm/e2e/x_test.go", `_ = chromedp.TapXY(1, 2)`, 0},
	} {
		imp := `"github.com/chromedp/chromedp"`
		if tc.name == "a renamed import" {
			imp = `cdp "github.com/chromedp/chromedp"`
		}
		src := "package x\nimport " + imp + "\nfunc f() {\n\t" + tc.body + "\n}\n"
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, tc.rel, src, parser.ParseComments)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if v := strayClicks([]sourceFile{{rel: tc.rel, file: f, fset: fset}}); len(v) != tc.want {
			t.Errorf("%s: %d stray clicks, want %d: %q", tc.name, len(v), tc.want, v)
		}
	}
}
