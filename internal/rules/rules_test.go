package rules

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// A rule names calls (package path and function names) that only its
// owners may make.
type rule struct {
	name   string
	pkg    string   // the import path whose functions are guarded
	funcs  []string // the guarded functions; a name ending in * is a prefix
	owners []string // module-relative folders allowed to call them
	why    string
}

// rules are the explorer's rules that live in one place each.
var rules = []rule{
	{
		name: "numbers", pkg: "strconv", funcs: []string{"Parse*", "Atoi", "QuotedPrefix*"},
		owners: []string{"internal/numtext"},
		why:    "a number is read by internal/numtext (decimal only: strconv reads 0x1p-2, Inf and NaN)",
	},
	{
		name: "numbers", pkg: "fmt", funcs: []string{"Sscan*", "Fscan*", "Scan*"},
		owners: []string{"internal/numtext"},
		why:    "a number is read by internal/numtext, not scanned by fmt (which reads 0x10 and Inf)",
	},
	{
		name: "numbers", pkg: "flag", funcs: []string{"Int", "IntVar", "Int64", "Int64Var", "Uint", "UintVar", "Uint64", "Uint64Var", "Float64", "Float64Var", "Duration", "DurationVar"},
		owners: []string{"internal/numtext"},
		why:    "a number flag is numtext.Int or numtext.Float64Var (flag's own read 0x10, 0o17 and 1_000)",
	},
	{
		name: "environment", pkg: "os", funcs: []string{"Getenv", "LookupEnv", "Environ"},
		owners: []string{"pdn", "pyg/pygtest"},
		why:    "the environment is read in one place, and refused there when it holds a value it does not take: PDN_VECTORS by pdn.CheckVectors (pdn/vectors.go)",
	},
}

// flagSetMethods are the flag.FlagSet methods the numbers rule guards: a
// FlagSet's fs.Int reads numbers as flag.Int does.
var flagSetMethods = []string{"Int", "IntVar", "Int64", "Int64Var", "Uint", "UintVar", "Uint64", "Uint64Var", "Float64", "Float64Var", "Duration", "DurationVar"}

// moduleRoot is the folder of go.mod above this package.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		if filepath.Dir(dir) == dir {
			t.Fatal("no go.mod above the rules package")
		}
		dir = filepath.Dir(dir)
	}
}

// sourceFile is one parsed non-test Go file of the module.
type sourceFile struct {
	rel  string // module-relative path, with /
	file *ast.File
	fset *token.FileSet
}

// moduleSources parses every non-test Go file of the module, whatever its
// build tags, skipping build outputs and caches.
func moduleSources(t *testing.T) []sourceFile {
	t.Helper()
	root := moduleRoot(t)
	fset := token.NewFileSet()
	var out []sourceFile
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "dist" || name == "bin" || name == "node_modules" || name == "screenshots") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		out = append(out, sourceFile{rel: filepath.ToSlash(rel), file: f, fset: fset})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 100 {
		t.Fatalf("found only %d source files under %s", len(out), root)
	}
	return out
}

// importNames maps the names a file calls its imports by to their paths.
func importNames(f *ast.File) map[string]string {
	names := map[string]string{}
	for _, im := range f.Imports {
		path, _ := strconv.Unquote(im.Path.Value)
		name := path[strings.LastIndex(path, "/")+1:]
		if im.Name != nil {
			name = im.Name.Name
		}
		names[name] = path
	}
	return names
}

func matches(fn string, funcs []string) bool {
	for _, f := range funcs {
		if p, ok := strings.CutSuffix(f, "*"); ok && strings.HasPrefix(fn, p) || fn == f {
			return true
		}
	}
	return false
}

func owned(rel string, owners []string) bool {
	dir := filepath.ToSlash(filepath.Dir(rel))
	return slices.Contains(owners, dir)
}

// violations lists, for each rule, the calls in files that go around it.
func violations(files []sourceFile) []string {
	var out []string
	for _, sf := range files {
		names := importNames(sf.file)
		ast.Inspect(sf.file, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			id, ok := sel.X.(*ast.Ident)
			if !ok {
				return true
			}
			for _, r := range rules {
				if names[id.Name] == r.pkg && matches(sel.Sel.Name, r.funcs) && !owned(sf.rel, r.owners) {
					out = append(out, fmt.Sprintf("%s: %s.%s: %s", sf.fset.Position(sel.Pos()), id.Name, sel.Sel.Name, r.why))
				}
			}
			return true
		})
		out = append(out, flagSetCalls(sf)...)
	}
	return out
}

// flagSetCalls finds the number methods of a *flag.FlagSet called on a
// variable the file declares as one (fs := flag.NewFlagSet(…), or a
// parameter fs *flag.FlagSet).
func flagSetCalls(sf sourceFile) []string {
	if owned(sf.rel, []string{"internal/numtext"}) {
		return nil
	}
	names := importNames(sf.file)
	sets := map[string]bool{}
	ast.Inspect(sf.file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, rhs := range n.Rhs {
				if call, ok := rhs.(*ast.CallExpr); ok && i < len(n.Lhs) {
					if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "NewFlagSet" {
						if id, ok := sel.X.(*ast.Ident); ok && names[id.Name] == "flag" {
							if lhs, ok := n.Lhs[i].(*ast.Ident); ok {
								sets[lhs.Name] = true
							}
						}
					}
				}
			}
		case *ast.Field:
			if star, ok := n.Type.(*ast.StarExpr); ok {
				if sel, ok := star.X.(*ast.SelectorExpr); ok && sel.Sel.Name == "FlagSet" {
					for _, nm := range n.Names {
						sets[nm.Name] = true
					}
				}
			}
		}
		return true
	})
	var out []string
	ast.Inspect(sf.file, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if id, ok := sel.X.(*ast.Ident); ok && sets[id.Name] && slices.Contains(flagSetMethods, sel.Sel.Name) {
			out = append(out, fmt.Sprintf("%s: %s.%s: a number flag is numtext.Int or numtext.Float64Var (flag's own read 0x10, 0o17 and 1_000)", sf.fset.Position(sel.Pos()), id.Name, sel.Sel.Name))
		}
		return true
	})
	return out
}

// TestRulesHaveOneHome fails on any call that goes around one of the rules:
// a number read outside internal/numtext.
func TestRulesHaveOneHome(t *testing.T) {
	for _, v := range violations(moduleSources(t)) {
		t.Error(v)
	}
}

// TestRulesCatchAReader shows the check would catch a reader that parses
// its numbers itself: one of datasets' files with a strconv.ParseFloat
// added, a command with a flag.FlagSet's Int, and one that reads
// PDN_VECTORS itself.
func TestRulesCatchAReader(t *testing.T) {
	for name, src := range map[string]string{
		"datasets/bad.go": "package datasets\nimport \"strconv\"\nfunc cell(s string) float64 { v, _ := strconv.ParseFloat(s, 64); return v }\n",
		"datasets/sc.go":  "package datasets\nimport f \"fmt\"\nfunc cell(s string) (v int) { f.Sscanf(s, \"%d\", &v); return }\n",
		"cmd/pdn/bad.go":  "package main\nimport \"flag\"\nfunc p() { fs := flag.NewFlagSet(\"x\", flag.ContinueOnError); _ = fs.Int(\"reps\", 1, \"\") }\n",
		"cmd/pdn/bad2.go": "package main\nimport \"flag\"\nfunc p(fs *flag.FlagSet, x *float64) { fs.Float64Var(x, \"lr\", 1, \"\") }\n",
		"cmd/pdn/env.go":  "package main\nimport \"os\"\nfunc wide() bool { return os.Getenv(\"PDN_VECTORS\") == \"avx512\" }\n",
	} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		if v := violations([]sourceFile{{rel: name, file: f, fset: fset}}); len(v) != 1 {
			t.Errorf("%s: %d violations found, want 1: %q", name, len(v), v)
		}
	}
}
