package rules

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// tablesHome is the one file of package app that makes a table:
// dataTable puts every table in a wrapper that scrolls sideways and gives
// its cells the styles that keep numbers whole (web/app.css, .data-table).
// A table made elsewhere (app.Table, or a <table> in raw HTML) was
// squeezed into a phone's width, its numbers broken over three lines.
const tablesHome = "app/tables.go"

// pageTables lists, in package app, the tables made outside tablesHome:
// a call of app.Table, or a string holding a <table element.
func pageTables(files []sourceFile) []string {
	var out []string
	for _, sf := range files {
		if filepath.Dir(sf.rel) != "app" || sf.rel == tablesHome {
			continue
		}
		say := func(n ast.Node, what string) {
			out = append(out, fmt.Sprintf("%s: %s outside %s: every table goes through dataTable, which scrolls it sideways on a phone and keeps its numbers whole", sf.fset.Position(n.Pos()), what, tablesHome))
		}
		ast.Inspect(sf.file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Table" && isIdent(sel.X, "app") {
					say(n, "app.Table()")
				}
			case *ast.BasicLit:
				if n.Kind == token.STRING && strings.Contains(strings.ToLower(n.Value), "<table") {
					say(n, "a <table> in raw HTML")
				}
			}
			return true
		})
	}
	return out
}

// TestEveryTableScrollsAndKeepsItsNumbers fails where package app makes
// a table other than through dataTable.
func TestEveryTableScrollsAndKeepsItsNumbers(t *testing.T) {
	for _, v := range pageTables(moduleSources(t)) {
		t.Error(v)
	}
}

// TestTableRuleCatchesATableMadeElsewhere shows the check catches a table
// made by a lab itself, in go-app or raw HTML, and leaves the helper and
// other packages alone.
func TestTableRuleCatchesATableMadeElsewhere(t *testing.T) {
	for _, tc := range []struct {
		name, file, src string
		want            int
	}{
		{"a lab's own table", "app/newlab.go", "package app\nfunc f() any { return app.Div().Class(\"table-scroll\").Body(app.Table().Body()) }\n", 1},
		{"a table in raw HTML", "app/newlab.go", "package app\nfunc f() any { return app.Raw(`<div><TABLE class=\"runs\"></TABLE></div>`) }\n", 1},
		{"the helper", "app/tables.go", "package app\nfunc dataTable() any { return app.Table() }\n", 0},
		{"a figure's package", "viz/table.go", "package viz\nfunc f() any { return app.Table() }\n", 0},
		{"another Table method", "app/newlab.go", "package app\nfunc f(s sweep) any { return s.Table() }\n", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, tc.file, tc.src, 0)
			if err != nil {
				t.Fatal(err)
			}
			if v := pageTables([]sourceFile{{rel: tc.file, file: f, fset: fset}}); len(v) != tc.want {
				t.Errorf("%d violations found, want %d: %q", len(v), tc.want, v)
			}
		})
	}
}
