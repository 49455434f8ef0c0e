package rules

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"testing"
)

// heldHome is the one file of package datasets that holds a reader's
// nodes and edges as items till the graph is made, and gives them their
// values: held.keep holds only what held.meet counted against the budget
// of limits.elements, and held.give counts each value against the
// estimate's, limits.itemBytes, so that a file of tiny nodes, or of many
// values, within the page's file bound cannot fill the worker's memory. A
// reader that appended its items itself, or wrote their values, would
// hold them uncounted.
const heldHome = "datasets/held.go"

// heldFields are the fields the items are held in (held's, promoted to
// the readers): in package datasets, a field of these names is taken
// for them.
var heldFields = []string{"nodes", "edges"}

// heldValues is the field an item's values are held in (graphmlItem's):
// in package datasets, a field of this name is taken for it.
const heldValues = "data"

// heldAround lists, in package datasets, the places outside heldHome
// that hold items, or their values, their own way: an append to a field
// of heldFields; a slice, an array, a map or a channel of graphmlItem; a
// write to an item's values (heldValues: the map made or set, a value
// written in it), or an item made with them.
func heldAround(files []sourceFile) []string {
	var out []string
	for _, sf := range files {
		if filepath.Dir(sf.rel) != "datasets" || sf.rel == heldHome {
			continue
		}
		say := func(n ast.Node, what string) {
			out = append(out, fmt.Sprintf("%s: %s outside %s: a reader holds a node or an edge through held.keep, once held.meet has counted it against the budget (limits.elements)", sf.fset.Position(n.Pos()), what, heldHome))
		}
		sayValue := func(n ast.Node, what string) {
			out = append(out, fmt.Sprintf("%s: %s outside %s: a reader gives an item a value through held.give, which counts it against the budget (limits.itemBytes)", sf.fset.Position(n.Pos()), what, heldHome))
		}
		ast.Inspect(sf.file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if id, ok := n.Fun.(*ast.Ident); ok && id.Name == "append" && len(n.Args) > 0 {
					if sel, ok := n.Args[0].(*ast.SelectorExpr); ok && slices.Contains(heldFields, sel.Sel.Name) {
						say(n, "an append to ."+sel.Sel.Name)
					}
				}
			case *ast.ArrayType:
				if isItem(n.Elt) {
					say(n, "a list of graphmlItem")
				}
			case *ast.MapType:
				if isItem(n.Value) {
					say(n, "a map of graphmlItem")
				}
			case *ast.ChanType:
				if isItem(n.Value) {
					say(n, "a channel of graphmlItem")
				}
			case *ast.AssignStmt:
				for _, lhs := range n.Lhs {
					if ix, ok := lhs.(*ast.IndexExpr); ok && isValues(ix.X) {
						sayValue(lhs, "a value written in ."+heldValues)
					} else if isValues(lhs) {
						sayValue(lhs, "an assignment to ."+heldValues)
					}
				}
			case *ast.CompositeLit:
				if isItem(n.Type) {
					for _, e := range n.Elts {
						if kv, ok := e.(*ast.KeyValueExpr); ok {
							if id, ok := kv.Key.(*ast.Ident); ok && id.Name == heldValues {
								sayValue(kv, "a graphmlItem made with its values")
							}
						}
					}
				}
			}
			return true
		})
	}
	return out
}

// isValues says e is a field of heldValues' name: an item's values.
func isValues(e ast.Expr) bool {
	sel, ok := e.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == heldValues
}

// isItem says e is graphmlItem or a pointer to one.
func isItem(e ast.Expr) bool {
	if star, ok := e.(*ast.StarExpr); ok {
		e = star.X
	}
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "graphmlItem"
}

// TestEveryItemIsHeldWithinTheBudget fails where a reader of package
// datasets holds nodes and edges as items, or gives them values, other
// than through held.
func TestEveryItemIsHeldWithinTheBudget(t *testing.T) {
	for _, v := range heldAround(moduleSources(t)) {
		t.Error(v)
	}
}

// TestHeldRuleCatchesAReaderThatHoldsItsOwn shows the check catches a
// reader that appends its items itself or keeps them in a list or a map
// of its own, or writes their values itself, and leaves held, other
// packages, other lists and reading a value alone.
func TestHeldRuleCatchesAReaderThatHoldsItsOwn(t *testing.T) {
	for _, tc := range []struct {
		name, file, src string
		want            int
	}{
		{"an append of its own", "datasets/pajek.go", "package datasets\nfunc (r *pajekReader) vertex(it graphmlItem) { r.nodes = append(r.nodes, it) }\n", 1},
		{"edges appended", "datasets/pajek.go", "package datasets\nfunc (r *pajekReader) arc(it graphmlItem) { r.edges = append(r.edges, it, it) }\n", 1},
		{"a list of its own", "datasets/pajek.go", "package datasets\ntype pajekReader struct{ vertices []graphmlItem }\n", 1},
		{"a map of its own", "datasets/pajek.go", "package datasets\nvar byID = map[string]*graphmlItem{}\n", 1},
		{"a value of its own", "datasets/pajek.go", "package datasets\nfunc (r *pajekReader) value(it *graphmlItem, k, v string) { it.data[k] = v }\n", 1},
		{"values of its own", "datasets/pajek.go", "package datasets\nfunc (r *pajekReader) vertex(it *graphmlItem) { it.data = map[string]string{\"x\": \"1\"} }\n", 1},
		{"an item made with its values", "datasets/pajek.go", "package datasets\nfunc vertex() *graphmlItem { return &graphmlItem{id: \"a\", data: map[string]string{\"x\": \"1\"}} }\n", 1},
		{"values given by held", "datasets/held.go", "package datasets\nfunc (h *held) give(it *graphmlItem, k, v string) { it.data[k] = v }\n", 0},
		{"through give", "datasets/pajek.go", "package datasets\nfunc (r *pajekReader) value(it *graphmlItem, k, v string) { r.give(it, k, v, 1, 1) }\n", 0},
		{"a value read", "datasets/pajek.go", "package datasets\nfunc (r *pajekReader) value(it graphmlItem, k string) string { v := it.data[k]; return v }\n", 0},
		{"held itself", "datasets/held.go", "package datasets\ntype held struct{ nodes []graphmlItem }\nfunc (h *held) keep(it graphmlItem) { h.nodes = append(h.nodes, it) }\n", 0},
		{"through held", "datasets/pajek.go", "package datasets\nfunc (r *pajekReader) vertex(it graphmlItem) { if r.meet(1, 1) { r.keep(it, false) } }\n", 0},
		{"another list", "datasets/pajek.go", "package datasets\nfunc f(ids []string, nt *nodeTable) { nt.rows = append(nt.rows, ids) }\n", 0},
		{"another package", "pdn/graph.go", "package pdn\nfunc f(g *G, n int) { g.nodes = append(g.nodes, n) }\n", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, tc.file, tc.src, 0)
			if err != nil {
				t.Fatal(err)
			}
			if v := heldAround([]sourceFile{{rel: tc.file, file: f, fset: fset}}); len(v) != tc.want {
				t.Errorf("%d violations found, want %d: %q", len(v), tc.want, v)
			}
		})
	}
}
