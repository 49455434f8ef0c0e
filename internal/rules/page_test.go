package rules

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"testing"
)

// stateWrite is a rule of the page: a row of the state that only one file
// of package app writes, because that file is where the row's rule lives.
type stateWrite struct {
	field string // the selector's tail: View.Results is x.View.Results
	owner string // the module-relative file that may write it
	why   string
}

// stateWrites are the page's rows with one home each.
var stateWrites = []stateWrite{
	{"View.Results", "app/pool.go",
		"a link's results enter a lab at one place, the pool (linkResults and runPool.save): there they are read for the lab's runs, marked from the link, and refused by a lab that trains none"},
	{"Data.Edits", "app/lab.go",
		"what of the state goes as another graph arrives is decided at one place (lab.arrive, with experiment.OneGraphRows); the editor changes the edits through setParam"},
}

// calledResults are the readers of the results row: experiment.Lab.Results
// and Sweep.Results, called with the state or its row. Only the pool calls
// them in package app.
const resultsReader = "Results"

// pageWrites lists, in package app, the writes of the stateWrites' rows
// outside their owners (an assignment, or &x.View.Results handed on) and
// the calls of a results reader (a method Results with an argument)
// outside app/pool.go.
func pageWrites(files []sourceFile) []string {
	var out []string
	for _, sf := range files {
		if filepath.Dir(sf.rel) != "app" {
			continue
		}
		check := func(e ast.Expr) {
			for _, w := range stateWrites {
				if selectorTail(e) == w.field && sf.rel != w.owner {
					out = append(out, fmt.Sprintf("%s: writes %s outside %s: %s", sf.fset.Position(e.Pos()), w.field, w.owner, w.why))
				}
			}
		}
		ast.Inspect(sf.file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, lhs := range n.Lhs {
					check(lhs)
				}
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					check(n.X)
				}
			case *ast.CallExpr:
				if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == resultsReader && len(n.Args) > 0 && sf.rel != "app/pool.go" {
					out = append(out, fmt.Sprintf("%s: reads a results row outside app/pool.go: %s", sf.fset.Position(n.Pos()), stateWrites[0].why))
				}
			}
			return true
		})
	}
	return out
}

// selectorTail is the last two names of a selector (x.View.Results is
// View.Results), "" for any other expression.
func selectorTail(e ast.Expr) string {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	switch x := sel.X.(type) {
	case *ast.SelectorExpr:
		return x.Sel.Name + "." + sel.Sel.Name
	case *ast.Ident:
		return x.Name + "." + sel.Sel.Name
	}
	return ""
}

// TestPageRulesHaveOneHome fails where the page goes around the place a
// link's results enter a lab, or the place that decides what goes as
// another graph arrives.
func TestPageRulesHaveOneHome(t *testing.T) {
	for _, v := range pageWrites(moduleSources(t)) {
		t.Error(v)
	}
}

// TestPageRulesCatchALabThatGoesAround shows the check would catch a lab
// that reads or writes a link's results itself, or drops a graph's edits
// itself, and leaves the rules' homes alone.
func TestPageRulesCatchALabThatGoesAround(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      int
	}{
		{"app/newlab.go", "package app\nfunc (c *NewLab) follow() { res, _ := c.row.Results(c.st); c.st.View.Results = \"\"; _ = res }\n", 2},
		{"app/sweeplab.go", "package app\nfunc (c *SweepLab) follow() { res, _ := c.sw.Results(c.st.View.Results); _ = res }\n", 1},
		{"app/graphlab_open.go", "package app\nfunc (c *GraphLab) onLoaded() { next := c.st; next.Data.Edits = \"\"; c.adopt(next) }\n", 1},
		{"app/newlab2.go", "package app\nfunc (c *NewLab) keep(p *string) {}\nfunc (c *NewLab) f() { c.keep(&c.st.View.Results) }\n", 1},
		{"app/pool.go", "package app\nfunc (p *runPool) save() { p.l.st.View.Results = \"\"; _, _ = p.l.row.Results(p.l.st) }\n", 0},
		{"app/lab.go", "package app\nfunc (l *lab) arrive(next *Experiment) { next.Data.Edits = \"\" }\n", 0},
		{"app/sweeplab.go", "package app\nfunc (c *SweepLab) f() { _ = c.results(); _ = c.sched.Results() }\n", 0},
		{"experiment/sweep.go", "package experiment\nfunc f(e *Experiment) { e.View.Results = \"\" }\n", 0},
	} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, tc.name, tc.src, 0)
		if err != nil {
			t.Fatal(err)
		}
		if v := pageWrites([]sourceFile{{rel: tc.name, file: f, fset: fset}}); len(v) != tc.want {
			t.Errorf("%s: %d violations found, want %d: %q", tc.name, len(v), tc.want, v)
		}
	}
}
