package rules

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"testing"
)

// unphrasedWrappers lists the struct types that embed an error but declare
// no Phrase method in their package. An embedded error lends its Error
// alone, so such a type says itself through phrase.Of as its English text:
// the page showed a graph refused for its size (the worker's sizeError) in
// English whatever language it spoke.
func unphrasedWrappers(files []sourceFile) []string {
	type typeAt struct{ pkg, name string }
	embeds := map[typeAt]token.Position{}
	phrased := map[typeAt]bool{}
	for _, sf := range files {
		pkg := path.Dir(sf.rel)
		for _, d := range sf.file.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				for _, s := range d.Specs {
					ts, ok := s.(*ast.TypeSpec)
					if !ok {
						continue
					}
					st, ok := ts.Type.(*ast.StructType)
					if !ok {
						continue
					}
					for _, f := range st.Fields.List {
						if id, ok := f.Type.(*ast.Ident); ok && len(f.Names) == 0 && id.Name == "error" {
							embeds[typeAt{pkg, ts.Name.Name}] = sf.fset.Position(ts.Pos())
						}
					}
				}
			case *ast.FuncDecl:
				if d.Recv == nil || d.Name.Name != "Phrase" || len(d.Recv.List) != 1 {
					continue
				}
				recv := d.Recv.List[0].Type
				if star, ok := recv.(*ast.StarExpr); ok {
					recv = star.X
				}
				if id, ok := recv.(*ast.Ident); ok {
					phrased[typeAt{pkg, id.Name}] = true
				}
			}
		}
	}
	var out []string
	for ty, at := range embeds {
		if !phrased[ty] {
			out = append(out, fmt.Sprintf("%s: %s embeds an error but has no Phrase method: phrase.Of says it as its English text, so the page shows it untranslated; say the wrapped error's (func (e *%s) Phrase() phrase.Text { return phrase.Of(e.error) })", at, ty.name, ty.name))
		}
	}
	return out
}

// TestErrorWrappersSayThemselves fails on an error type that embeds an
// error without saying itself in the page's language.
func TestErrorWrappersSayThemselves(t *testing.T) {
	for _, v := range unphrasedWrappers(moduleSources(t)) {
		t.Error(v)
	}
}

// TestPhrasedRuleCatchesAWrapper shows the check catches a wrapper without
// Phrase and passes one with it.
func TestPhrasedRuleCatchesAWrapper(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       int
	}{
		{"a wrapper alone", "type e struct {\n\terror\n\tfield string\n}\n", 1},
		{"a wrapper that says itself", "type e struct{ error }\n\nfunc (x *e) Phrase() phrase.Text { return phrase.Of(x.error) }\n", 0},
		{"a named error field", "type e struct{ err error }\n", 0},
	} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "x/x.go", "package x\n"+tc.body, 0)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := unphrasedWrappers([]sourceFile{{rel: "x/x.go", file: f, fset: fset}}); len(got) != tc.want {
			t.Errorf("%s: %d reports, want %d: %v", tc.name, len(got), tc.want, got)
		}
	}
}
