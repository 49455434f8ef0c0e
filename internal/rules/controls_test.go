package rules

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Three rules of the page, each with one home:
//
//   - A control changes a row through controls.change (app/controls.go),
//     which puts the control back to what the state holds: a handler of
//     the page's (a func literal taking an app.Context) that calls
//     setParam or toggleModel goes around it, and a refused tick stayed on
//     screen while the state held another set.
//   - A notice is a message, said in the page's language each time the
//     board is drawn (app/board.go): words already said (tr, trf, say…)
//     wrapped as a message with asIs stay in the language they were said
//     in after the page's changes.
//   - A script of the page reads the address's %-escapes inside a try: a
//     malformed one (#lab=%E9) throws URIError before the page's program
//     can repair the address (app/hash.go).

// setters are the calls that set a row of the state without putting the
// control that fired back.
var setters = []string{"setParam", "toggleModel"}

// saidWords are the calls that put a message into words of one language.
var saidWords = []string{"tr", "trf", "say", "sayFailure", "duration"}

// handlerSets lists, in package app, the func literals that take an
// app.Context (an event's handler) and set a row without change.
func handlerSets(files []sourceFile) []string {
	var out []string
	for _, sf := range files {
		if filepath.Dir(sf.rel) != "app" {
			continue
		}
		ast.Inspect(sf.file, func(n ast.Node) bool {
			lit, ok := n.(*ast.FuncLit)
			if !ok || !takesContext(lit) {
				return true
			}
			ast.Inspect(lit.Body, func(m ast.Node) bool {
				if call, ok := m.(*ast.CallExpr); ok {
					if sel, ok := call.Fun.(*ast.SelectorExpr); ok && contains(setters, sel.Sel.Name) {
						out = append(out, fmt.Sprintf("%s: an event's handler calls %s: a control sets its row with change (app/controls.go), which puts the control back to the state's value", sf.fset.Position(call.Pos()), sel.Sel.Name))
					}
				}
				return true
			})
			return false
		})
	}
	return out
}

// takesContext reports whether a func literal has an app.Context parameter.
func takesContext(lit *ast.FuncLit) bool {
	for _, f := range lit.Type.Params.List {
		if sel, ok := f.Type.(*ast.SelectorExpr); ok && sel.Sel.Name == "Context" {
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == "app" {
				return true
			}
		}
	}
	return false
}

// saidNotices lists, in package app, the calls asIs(w) whose w is words
// said in one language.
func saidNotices(files []sourceFile) []string {
	var out []string
	for _, sf := range files {
		if filepath.Dir(sf.rel) != "app" {
			continue
		}
		ast.Inspect(sf.file, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || !isIdent(call.Fun, "asIs") || len(call.Args) != 1 {
				return true
			}
			ast.Inspect(call.Args[0], func(m ast.Node) bool {
				if inner, ok := m.(*ast.CallExpr); ok {
					for _, w := range saidWords {
						if isIdent(inner.Fun, w) {
							out = append(out, fmt.Sprintf("%s: asIs(%s(…)) keeps words of one language: make the notice a message (phrase.New), which the board says in the page's language", sf.fset.Position(call.Pos()), w))
						}
					}
				}
				return true
			})
			return true
		})
	}
	return out
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// decodeCall is a call of JavaScript's URI decoders; tryOpen and
// catchOpen the starts of a try and its catch.
var (
	decodeCall = regexp.MustCompile(`\bdecodeURI(Component)?\s*\(`)
	tryOpen    = regexp.MustCompile(`\btry\s*\{`)
	catchOpen  = regexp.MustCompile(`\bcatch\b`)
)

// unguardedDecodes lists the calls of decodeURI and decodeURIComponent in
// a script's text that no try holds: the last try before the call must
// come after the last catch before it.
func unguardedDecodes(name, src string) []string {
	var out []string
	for _, m := range decodeCall.FindAllStringIndex(src, -1) {
		before := src[:m[0]]
		if lastIndex(tryOpen, before) <= lastIndex(catchOpen, before) {
			line := strings.Count(before, "\n") + 1
			out = append(out, fmt.Sprintf("%s:%d: %s outside a try: a malformed %%-escape in the address (#lab=%%E9) throws before the page can repair it (app/hash.go)", name, line, strings.TrimSpace(src[m[0]:m[1]-1])))
		}
	}
	return out
}

// lastIndex is where re last matches s, -1 for nowhere.
func lastIndex(re *regexp.Regexp, s string) int {
	all := re.FindAllStringIndex(s, -1)
	if len(all) == 0 {
		return -1
	}
	return all[len(all)-1][0]
}

// TestControlsNoticesAndScriptsKeepThePageRules fails where a handler sets
// a row around change, a notice is words of one language, or a script of
// web/ decodes the address outside a try.
func TestControlsNoticesAndScriptsKeepThePageRules(t *testing.T) {
	files := moduleSources(t)
	for _, v := range append(handlerSets(files), saidNotices(files)...) {
		t.Error(v)
	}
	scripts, err := filepath.Glob(filepath.Join(moduleRoot(t), "web", "*.js"))
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no scripts in web/ (%v)", err)
	}
	for _, path := range scripts {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range unguardedDecodes("web/"+filepath.Base(path), string(b)) {
			t.Error(v)
		}
	}
}

// TestPageRulesCatchAControlANoticeAndAScriptThatGoAround shows each check
// catches what it is for, and leaves the rules' homes alone.
func TestPageRulesCatchAControlANoticeAndAScriptThatGoAround(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      int
	}{
		{"app/newlab.go", "package app\nfunc (c *NewLab) Render() UI { return Select().OnChange(func(ctx app.Context, e app.Event) { c.setParam(\"layout\", \"x\") }) }\n", 1},
		{"app/comparelab.go", "package app\nfunc (c *CompareLab) Render() UI { return Input().OnChange(func(ctx app.Context, e app.Event) { c.toggleModel(\"gat\", true) }) }\n", 1},
		{"app/controls.go", "package app\nfunc (c *controls) f() UI { return Input().OnChange(func(ctx app.Context, e app.Event) { c.change(ctx, \"models\", \"pdn,gat\") }) }\n", 0},
		{"app/lab.go", "package app\nfunc (l *lab) do() { l.setParam(\"speed\", \"5\") }\n", 0},
		{"app/newlab.go", "package app\nfunc (c *NewLab) f() { c.page.board.Add(asIs(trf(\"%d runs\", 3)), false) }\n", 1},
		{"app/newlab.go", "package app\nfunc (c *NewLab) f() { c.page.board.Add(asIs(ev.Error), false) }\n", 0},
		{"web/boot.js", "const v = decodeURIComponent(m[1]);\n", 1},
		{"web/boot.js", "try {\n  return decodeURIComponent(m[1]);\n} catch (e) {\n  return m[1];\n}\n", 0},
		{"web/boot.js", "try { a(); } catch (e) {}\nconst v = decodeURI(location.hash);\n", 1},
	} {
		if strings.HasSuffix(tc.name, ".js") {
			if v := unguardedDecodes(tc.name, tc.src); len(v) != tc.want {
				t.Errorf("%s %q: %d found, want %d: %q", tc.name, tc.src, len(v), tc.want, v)
			}
			continue
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, tc.name, tc.src, 0)
		if err != nil {
			t.Fatal(err)
		}
		files := []sourceFile{{rel: tc.name, file: f, fset: fset}}
		if v := append(handlerSets(files), saidNotices(files)...); len(v) != tc.want {
			t.Errorf("%s: %d violations found, want %d: %q", tc.name, len(v), tc.want, v)
		}
	}
}
