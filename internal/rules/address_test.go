package rules

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"testing"
)

// addressHome is where the page writes a state of its own as a new
// address: Shell.rewrite keeps the link's pairs this version cannot use
// (experiment.KeepUnread). The language menu and projector mode each
// wrote st.Encode() themselves, and a link's pairs for a newer version
// were lost on the way.
const addressHome = "app/shell.go"

// strayAddresses lists, in package app, the writes of an encoded state to
// location.hash made outside Shell.rewrite: a call Set("hash", …) whose
// value calls Encode or EncodeShort.
func strayAddresses(files []sourceFile) []string {
	var out []string
	for _, sf := range files {
		if filepath.Dir(sf.rel) != "app" {
			continue
		}
		for _, d := range sf.file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || sf.rel == addressHome && fn.Name.Name == "rewrite" {
				continue
			}
			ast.Inspect(fn, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || len(call.Args) != 2 {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				lit, isLit := call.Args[0].(*ast.BasicLit)
				if !ok || sel.Sel.Name != "Set" || !isLit || lit.Value != `"hash"` || !callsEncode(call.Args[1]) {
					return true
				}
				out = append(out, fmt.Sprintf("%s: a state written to the address outside Shell.rewrite (%s): it drops the link's pairs this version cannot use", sf.fset.Position(call.Pos()), addressHome))
				return true
			})
		}
	}
	return out
}

// callsEncode reports whether e calls a method Encode or EncodeShort.
func callsEncode(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if s, ok := c.Fun.(*ast.SelectorExpr); ok && (s.Sel.Name == "Encode" || s.Sel.Name == "EncodeShort") {
				found = true
			}
		}
		return !found
	})
	return found
}

// TestEveryAddressKeepsWhatThisVersionCannotRead fails where package app
// writes an encoded state to the address other than through
// Shell.rewrite.
func TestEveryAddressKeepsWhatThisVersionCannotRead(t *testing.T) {
	for _, v := range strayAddresses(moduleSources(t)) {
		t.Error(v)
	}
}

// TestAddressRuleCatchesAStateWrittenElsewhere shows the check catches an
// encoded state written to the hash, and leaves rewrite, links and other
// packages alone.
func TestAddressRuleCatchesAStateWrittenElsewhere(t *testing.T) {
	for _, tc := range []struct {
		name, rel, fn, body string
		want                int
	}{
		{"a state", "app/share.go", "f", `loc.Set("hash", st.Encode())`, 1},
		{"a short state", "app/tour.go", "f", `loc.Set("hash", "#"+st.EncodeShort())`, 1},
		{"rewrite", addressHome, "rewrite", `loc.Set("hash", keep(st.Encode()))`, 0},
		{"rewrite's name elsewhere", "app/tour.go", "rewrite", `loc.Set("hash", st.Encode())`, 1},
		{"a link to another lab", "app/shell.go", "f", `loc.Set("hash", link)`, 0},
		{"another package", "cmd/pdn/x.go", "f", `loc.Set("hash", st.Encode())`, 0},
	} {
		src := "package x\nfunc " + tc.fn + "() {\n\t" + tc.body + "\n}\n"
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, tc.rel, src, 0)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if v := strayAddresses([]sourceFile{{rel: tc.rel, file: f, fset: fset}}); len(v) != tc.want {
			t.Errorf("%s: %d stray addresses, want %d: %q", tc.name, len(v), tc.want, v)
		}
	}
}
