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
	in     []string // the module-relative folders (and those under them) it holds in; nil: everywhere
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
		name: "outputs", pkg: "os", funcs: []string{"Create", "WriteFile", "Mkdir", "MkdirAll", "MkdirTemp", "CreateTemp", "Rename", "Remove", "RemoveAll", "Truncate", "Symlink", "Link", "Chmod", "Chtimes", "Chown", "Lchown"},
		owners: []string{"internal/outdir"},
		why:    "a file is written, moved or removed by internal/outdir, the one writer (staged, committed whole, locked, a user's files refused)",
	},
	{
		name: "outputs", pkg: "io/ioutil", funcs: []string{"WriteFile", "TempFile", "TempDir"},
		owners: []string{"internal/outdir"},
		why:    "a file is written by internal/outdir, the one writer",
	},
	{
		name: "outputs", pkg: "syscall", funcs: []string{"Open", "Openat", "Creat", "Unlink", "Unlinkat", "Rename", "Renameat", "Mkdir", "Mkdirat", "Rmdir", "Truncate", "Ftruncate", "Symlink", "Link", "Chmod"},
		owners: []string{"internal/outdir"},
		why:    "a file is written, moved or removed by internal/outdir, the one writer",
	},
	inputRule("os", "Open", "ReadFile", "DirFS"),
	inputRule("io/fs", "ReadFile", "Stat", "Sub", "ReadDir", "Glob", "WalkDir"),
	inputRule("io", "ReadAll"),
	inputRule("compress/gzip", "NewReader"),
	inputRule("compress/flate", "NewReader"),
	inputRule("encoding/xml", "NewDecoder"),
	inputRule("encoding/json", "NewDecoder"),
	inputRule("archive/zip", "OpenReader"),
	{
		name: "json", pkg: "encoding/json", funcs: []string{"Unmarshal"},
		owners: []string{"internal/input"}, in: jsonReaders,
		why: "a reader decodes JSON through input.JSON, which refuses a key given twice in an object at any depth (encoding/json keeps the last without a word)",
	},
	{
		name: "weights", pkg: "gonum.org/v1/gonum/stat", funcs: []string{"Quantile", "CDF"},
		owners: []string{"lessons"},
		why:    "the learned weights' distribution is computed once, by lessons.WeightSpread, and read into a sentence by experiment.ReadWeights: the CLI, the page's worker and the claims read it there, so one run says one thing everywhere",
	},
	{
		name: "words", pkg: "fmt", funcs: []string{"Errorf"},
		in:  pageSpeakers,
		why: "an error these packages make reaches the page, which says it in its language: it is a phrase (phrase.Errorf), not fmt's English",
	},
	{
		name: "words", pkg: "errors", funcs: []string{"New"},
		in:  pageSpeakers,
		why: "an error these packages make reaches the page, which says it in its language: it is a phrase (phrase.Errorf), not English",
	},
	{
		name: "environment", pkg: "os", funcs: []string{"Getenv", "LookupEnv", "Environ"},
		owners: []string{"pdn", "pyg/pygtest"},
		why:    "the environment is read in one place, and refused there when it holds a value it does not take: PDN_VECTORS by pdn.CheckVectors (pdn/vectors.go)",
	},
}

// inputReaders are the folders whose code reads the user's files: the
// graph readers and the command line (pdn merge's shard files, -data,
// -datasets).
var inputReaders = []string{"datasets", "cmd/pdn"}

// pageSpeakers are the folders whose every error reaches the page (the
// page's own, the worker's, the figures', the PyG export's, the claims'
// and the state table's): they make their errors as phrases.
var pageSpeakers = []string{"app", "wasm/worker", "wasm/fetch", "viz", "pyg", "lessons", "experiment", "i18n"}

// jsonReaders are the folders whose code decodes the user's JSON files
// (a bundle's meta.json, a MUSAE features.json): only through input.JSON.
// cmd/pdn's shard files join them once pdn merge reads them through it.
var jsonReaders = []string{"datasets"}

// inputRule guards the calls of pkg that open a file or read its bytes
// (io/fs's Stat, ReadDir, Glob and WalkDir open what they look at when the
// folder has no Stat, and fs.Sub's folder has none): in the readers, only
// internal/input makes them, so that every file is checked for what it is
// before it is read (a pipe would hang) and every text decoded by one
// rule (UTF-8, its mark, UTF-16 with its mark, line ends, the first bad
// byte refused by file:line:byte).
func inputRule(pkg string, funcs ...string) rule {
	return rule{
		name: "input", pkg: pkg, funcs: funcs,
		owners: []string{"internal/input"}, in: inputReaders,
		why: "a reader opens and reads a file through internal/input (its kind checked unread, its text decoded by the one rule)",
	}
}

// inputMethods are the methods that open or read a file by name, as an
// fs.FS and an embed.FS have them (fsys.Open(name), fsys.ReadFile(name)):
// in the readers, only internal/input calls them, but for an fs.FS's own
// Open handing its call to the folder it wraps.
var inputMethods = []string{"Open", "ReadFile"}

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
	return parseModule(t, func(name string) bool {
		return strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go")
	}, parser.SkipObjectResolution)
}

// parseModule parses the module's Go files whose names keep keeps, with
// mode, skipping build outputs, caches and test data.
func parseModule(t *testing.T, keep func(name string) bool, mode parser.Mode) []sourceFile {
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
		if !keep(name) {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, mode)
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
		t.Fatalf("found only %d Go files under %s", len(out), root)
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
				if names[id.Name] == r.pkg && matches(sel.Sel.Name, r.funcs) && !owned(sf.rel, r.owners) && holds(sf.rel, r.in) {
					out = append(out, fmt.Sprintf("%s: %s.%s: %s", sf.fset.Position(sel.Pos()), id.Name, sel.Sel.Name, r.why))
				}
			}
			return true
		})
		out = append(out, flagSetCalls(sf)...)
		out = append(out, openFileCalls(sf)...)
		out = append(out, inputMethodCalls(sf)...)
		out = append(out, fetchCalls(sf)...)
	}
	return out
}

// fetchCalls finds, outside wasm/fetch, a call of the browser's fetch
// (x.Call("fetch", …)): wasm/fetch.Bytes is the one fetch of the Go
// programs, so that every failure is said in the page's words
// (fetch.Failure), not the browser's.
func fetchCalls(sf sourceFile) []string {
	if owned(sf.rel, []string{"wasm/fetch"}) {
		return nil
	}
	var out []string
	ast.Inspect(sf.file, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) == 0 {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if lit, isLit := call.Args[0].(*ast.BasicLit); ok && isLit && sel.Sel.Name == "Call" && lit.Value == `"fetch"` {
			out = append(out, fmt.Sprintf("%s: a fetch of its own: fetch.Bytes (wasm/fetch) is the Go programs' one fetch, which says a failure in the page's words", sf.fset.Position(call.Pos())))
		}
		return true
	})
	return out
}

// holds says a rule that holds in the folders in holds for the file rel.
func holds(rel string, in []string) bool {
	if in == nil {
		return true
	}
	dir := filepath.ToSlash(filepath.Dir(rel))
	return slices.ContainsFunc(in, func(d string) bool { return dir == d || strings.HasPrefix(dir, d+"/") })
}

// inputMethodCalls finds, in the readers outside internal/input, a call
// of one of inputMethods with one argument on anything but a package: an
// fs.FS's Open or ReadFile, which would open a file unchecked. An Open
// method's call of the folder it wraps (flatOGB's) is let through.
func inputMethodCalls(sf sourceFile) []string {
	if !holds(sf.rel, inputReaders) || owned(sf.rel, []string{"internal/input"}) {
		return nil
	}
	names := importNames(sf.file)
	var out []string
	for _, decl := range sf.file.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if ok && fn.Recv != nil && fn.Name.Name == "Open" {
			continue
		}
		ast.Inspect(decl, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 1 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || !slices.Contains(inputMethods, sel.Sel.Name) {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok && names[id.Name] != "" {
				return true // a package's function: the rules above judge it
			}
			out = append(out, fmt.Sprintf("%s: .%s: a reader opens and reads a file through internal/input (its kind checked unread, its text decoded by the one rule)", sf.fset.Position(sel.Pos()), sel.Sel.Name))
			return true
		})
	}
	return out
}

// readOnlyFlags are the os.OpenFile flags that open a file for reading
// only; any other flag (O_WRONLY, O_RDWR, O_CREATE, O_TRUNC, O_APPEND, a
// variable) opens it for writing, as far as the check can tell.
var readOnlyFlags = []string{"O_RDONLY", "O_SYNC", "O_EXCL"}

// openFileCalls finds os.OpenFile opened for writing outside the writer:
// a call whose flags are not os.O_RDONLY (or'd with flags that write
// nothing), or the function taken as a value.
func openFileCalls(sf sourceFile) []string {
	if owned(sf.rel, []string{"internal/outdir"}) {
		return nil
	}
	names := importNames(sf.file)
	isOpenFile := func(e ast.Expr) bool {
		sel, ok := e.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		id, ok := sel.X.(*ast.Ident)
		return ok && names[id.Name] == "os" && sel.Sel.Name == "OpenFile"
	}
	var out []string
	called := map[ast.Expr]bool{}
	ast.Inspect(sf.file, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || !isOpenFile(call.Fun) {
			return true
		}
		called[call.Fun] = true
		if len(call.Args) < 2 || !readOnly(call.Args[1], names) {
			out = append(out, fmt.Sprintf("%s: os.OpenFile for writing: a file is written by internal/outdir, the one writer", sf.fset.Position(call.Pos())))
		}
		return true
	})
	ast.Inspect(sf.file, func(n ast.Node) bool {
		if e, ok := n.(ast.Expr); ok && isOpenFile(e) && !called[e] {
			out = append(out, fmt.Sprintf("%s: os.OpenFile taken as a value: a file is written by internal/outdir, the one writer", sf.fset.Position(e.Pos())))
		}
		return true
	})
	return out
}

// readOnly reports whether flags is os.O_RDONLY, or'd with flags that
// write nothing.
func readOnly(flags ast.Expr, names map[string]string) bool {
	switch e := flags.(type) {
	case *ast.ParenExpr:
		return readOnly(e.X, names)
	case *ast.BinaryExpr:
		return e.Op == token.OR && readOnly(e.X, names) && readOnly(e.Y, names)
	case *ast.SelectorExpr:
		id, ok := e.X.(*ast.Ident)
		return ok && (names[id.Name] == "os" || names[id.Name] == "syscall") && slices.Contains(readOnlyFlags, e.Sel.Name)
	}
	return false
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
// a number read outside internal/numtext, a file written, moved or removed
// outside internal/outdir, a file a reader opens or reads outside
// internal/input, a graph's classes set outside the class builder.
func TestRulesHaveOneHome(t *testing.T) {
	files := moduleSources(t)
	for _, v := range violations(files) {
		t.Error(v)
	}
	for _, v := range classWrites(files) {
		t.Error(v)
	}
	for _, v := range fieldWrites(files, edgeValueRule) {
		t.Error(v)
	}
}

// classFields are a graph's fields that say its classes: only the class
// builder (datasets/classes.go), which applies the rule for nodes without
// a class, sets them in a graph read from files.
var classFields = []string{"Labels", "ClassNames"}

// classSetters are the files of package datasets that may set classFields:
// the class builder, the generators, whose classes are drawn, not read,
// and the binary form, which gives back, bit for bit, a graph made by
// one of them (datasets.Graph.UnmarshalBinary).
var classSetters = []string{"datasets/classes.go", "datasets/synthetic.go", "datasets/structure.go", "datasets/binary.go"}

// A fieldRule names fields of package datasets' graphs that only its
// setters, files of the package, may set.
type fieldRule struct {
	fields, setters []string
	say             string // what a reader does instead
}

// classRule: a reader gives a graph its classes through the class
// builder.
var classRule = fieldRule{classFields, classSetters, "a reader gives a graph its classes through the class builder (setClasses in datasets/classes.go), which applies the rule for nodes without a class"}

// edgeValueRule: a reader gives an edge its values through pairs.value
// (datasets/pairs.go), which merges a pair listed again by its format
// row's rule (merges), so that no reader keeps a pair's first values
// silently. The other setters make graphs, not read them: the bundle
// refuses a pair listed again (Graph.Check), Matrix Market sums an entry
// and its mirror as SciPy does in its own pass, the generators draw
// their values, edits, perturbations and the multiplex join alter a
// graph made, Open permutes one read, and the binary form gives one made
// back bit for bit.
var edgeValueRule = fieldRule{[]string{"EdgeX"}, []string{"datasets/pairs.go", "datasets/bundle.go", "datasets/mtx.go",
	"datasets/synthetic.go", "datasets/structure.go", "datasets/xor.go", "datasets/tiestrength.go",
	"datasets/edit.go", "datasets/perturb.go", "datasets/multiplex.go", "datasets/open.go", "datasets/binary.go"},
	"a reader gives an edge its values through pairs.value (datasets/pairs.go), which merges a pair listed again as the format's publisher does"}

// classWrites lists, in package datasets, the places other than
// classSetters that set a graph's classes.
func classWrites(files []sourceFile) []string { return fieldWrites(files, classRule) }

// fieldWrites lists, in package datasets, the places other than r's
// setters that set one of its fields: an assignment to x.F or an element
// of it, an increment, its address taken, or a composite literal naming
// it.
func fieldWrites(files []sourceFile, r fieldRule) []string {
	var out []string
	for _, sf := range files {
		if filepath.Dir(sf.rel) != "datasets" || slices.Contains(r.setters, sf.rel) {
			continue
		}
		report := func(n ast.Node, field string) {
			out = append(out, fmt.Sprintf("%s: sets %s: %s", sf.fset.Position(n.Pos()), field, r.say))
		}
		ast.Inspect(sf.file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, lhs := range n.Lhs {
					if f := fieldOf(lhs, r.fields); f != "" {
						report(lhs, f)
					}
				}
			case *ast.IncDecStmt:
				if f := fieldOf(n.X, r.fields); f != "" {
					report(n.X, f)
				}
			case *ast.UnaryExpr: // &g.Labels handed to something that fills it
				if f := fieldOf(n.X, r.fields); f != "" && n.Op == token.AND {
					report(n, f)
				}
			case *ast.KeyValueExpr:
				if id, ok := n.Key.(*ast.Ident); ok && slices.Contains(r.fields, id.Name) {
					report(n, id.Name)
				}
			}
			return true
		})
	}
	return out
}

// fieldOf is the field of fields e sets (x.Labels, x.Labels[i], …), ""
// if none.
func fieldOf(e ast.Expr, fields []string) string {
	for {
		switch x := e.(type) {
		case *ast.IndexExpr:
			e = x.X
			continue
		case *ast.ParenExpr:
			e = x.X
			continue
		case *ast.SelectorExpr:
			if slices.Contains(fields, x.Sel.Name) {
				return x.Sel.Name
			}
		}
		return ""
	}
}

// TestRulesCatchAReaderThatSetsItsClasses shows the check would catch a
// reader that gives its graph classes without the class builder (and so
// without the rule for nodes without a class), and leaves the builder and
// the other packages alone.
func TestRulesCatchAReaderThatSetsItsClasses(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      int
	}{
		{"datasets/newformat.go", "package datasets\nfunc read(g *Graph, ls []int) { g.Labels = ls }\n", 1},
		{"datasets/newformat2.go", "package datasets\nfunc read(g *Graph, l int) { g.Labels = append(g.Labels, l); g.ClassNames[0] = \"x\" }\n", 2},
		{"datasets/newformat3.go", "package datasets\nfunc read(ls []int) *Graph { return &Graph{N: len(ls), Labels: ls} }\n", 1},
		{"datasets/newformat4.go", "package datasets\nfunc read(g *Graph, i int) { g.Labels[i]++ }\n", 1},
		{"datasets/classes.go", "package datasets\nfunc setClasses(g *Graph, ls []int) { g.Labels = ls }\n", 0},
		{"pdn/cluster.go", "package pdn\nfunc sub(g, s *Graph, v int) { s.Labels = append(s.Labels, g.Labels[v]) }\n", 0},
	} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, tc.name, tc.src, 0)
		if err != nil {
			t.Fatal(err)
		}
		if v := classWrites([]sourceFile{{rel: tc.name, file: f, fset: fset}}); len(v) != tc.want {
			t.Errorf("%s: %d violations found, want %d: %q", tc.name, len(v), tc.want, v)
		}
	}
}

// TestRulesCatchAReaderThatKeepsAPairsFirstValues shows the check would
// catch a reader that gives its edges values itself (and so keeps a pair
// listed again by no rule), and leaves pairs.go and other packages alone.
func TestRulesCatchAReaderThatKeepsAPairsFirstValues(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      int
	}{
		{"datasets/pajek.go", "package datasets\nfunc read(g *Graph, x float64) { g.EdgeX = append(g.EdgeX, x) }\n", 1},
		{"datasets/pajek2.go", "package datasets\nfunc read(g *Graph, e int, x float64) { g.EdgeX[e] += x }\n", 1},
		{"datasets/pajek3.go", "package datasets\nfunc read(xs []float64) *Graph { return &Graph{D: 1, EdgeX: xs} }\n", 1},
		{"datasets/pairs.go", "package datasets\nfunc (p *pairs) value(g *Graph, x float64) { g.EdgeX = append(g.EdgeX, x) }\n", 0},
		{"pdn/cluster.go", "package pdn\nfunc sub(g, s *Graph, e int) { s.EdgeX = append(s.EdgeX, g.EdgeX[e]) }\n", 0},
	} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, tc.name, tc.src, 0)
		if err != nil {
			t.Fatal(err)
		}
		if v := fieldWrites([]sourceFile{{rel: tc.name, file: f, fset: fset}}, edgeValueRule); len(v) != tc.want {
			t.Errorf("%s: %d violations found, want %d: %q", tc.name, len(v), tc.want, v)
		}
	}
}

// TestRulesCatchAWriter shows the check would catch a command, a reader
// or a build step that writes, moves or removes a file itself, around
// internal/outdir.
func TestRulesCatchAWriter(t *testing.T) {
	for name, src := range map[string]string{
		"cmd/pdn/w1.go":   "package main\nimport \"os\"\nfunc w() { os.WriteFile(\"homophily.csv\", nil, 0o644) }\n",
		"cmd/pdn/w2.go":   "package main\nimport \"os\"\nfunc w() { os.Create(\"x\") }\n",
		"datasets/w3.go":  "package datasets\nimport \"os\"\nfunc w() { os.OpenFile(\"x\", os.O_WRONLY|os.O_CREATE, 0o644) }\n",
		"datasets/w4.go":  "package datasets\nimport \"os\"\nfunc w(flag int) { os.OpenFile(\"x\", flag, 0o644) }\n",
		"wasm/site/w5.go": "package site\nimport \"os\"\nfunc w() { os.Rename(\"a\", \"b\") }\n",
		"wasm/site/w6.go": "package site\nimport \"os\"\nfunc w() { os.RemoveAll(\"dist\") }\n",
		"pyg/w7.go":       "package pyg\nimport myos \"os\"\nfunc w() { myos.MkdirAll(\"a\", 0o755) }\n",
		"pyg/w8.go":       "package pyg\nimport \"os\"\nvar open = os.OpenFile\n",
		"pyg/w9.go":       "package pyg\nimport \"io/ioutil\"\nfunc w() { ioutil.WriteFile(\"a\", nil, 0o644) }\n",
		"cmd/pdn/w10.go":  "package main\nimport \"os\"\nfunc w() { os.Truncate(\"a\", 0) }\n",
		"cmd/pdn/w11.go":  "package main\nimport \"syscall\"\nfunc w() { syscall.Unlink(\"a\") }\n",
		"cmd/pdn/w12.go":  "package main\nimport \"os\"\nfunc w() { os.Symlink(\"a\", \"b\") }\n",
	} {
		if v := violationsOf(t, name, src); len(v) != 1 {
			t.Errorf("%s: %d violations found, want 1: %q", name, len(v), v)
		}
	}
	for name, src := range map[string]string{
		"wasm/site/r1.go":      "package site\nimport \"os\"\nfunc r() { os.OpenFile(\"x\", os.O_RDONLY, 0) ; os.Open(\"y\"); os.ReadFile(\"z\") }\n",
		"internal/outdir/w.go": "package outdir\nimport \"os\"\nfunc w() { os.Rename(\"a\", \"b\"); os.OpenFile(\"x\", os.O_WRONLY, 0) }\n",
	} {
		if v := violationsOf(t, name, src); len(v) != 0 {
			t.Errorf("%s: %q, want none", name, v)
		}
	}
}

// violationsOf is violations of one file, parsed from src as if at name.
func violationsOf(t *testing.T, name, src string) []string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	return violations([]sourceFile{{rel: name, file: f, fset: fset}})
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
		// Readers that open or read a file around internal/input.
		"datasets/rf.go":   "package datasets\nimport \"io/fs\"\nfunc meta(fsys fs.FS) []byte { b, _ := fs.ReadFile(fsys, \"meta.json\"); return b }\n",
		"datasets/open.go": "package datasets\nimport \"io/fs\"\nfunc meta(fsys fs.FS) { f, _ := fsys.Open(\"meta.json\"); f.Close() }\n",
		"datasets/gz.go":   "package datasets\nimport (\"compress/gzip\"; \"io\")\nfunc in(r io.Reader) { gzip.NewReader(r) }\n",
		"datasets/x.go":    "package datasets\nimport (\"encoding/xml\"; \"io\")\nfunc in(r io.Reader) { xml.NewDecoder(r) }\n",
		"cmd/pdn/shard.go": "package main\nimport \"os\"\nfunc read(p string) { os.ReadFile(p) }\n",
		"datasets/meta.go": "package datasets\nimport \"encoding/json\"\nfunc meta(b []byte) (m map[string]any) { json.Unmarshal(b, &m); return }\n",
		"cmd/pdn/env.go":   "package main\nimport \"os\"\nfunc wide() bool { return os.Getenv(\"PDN_VECTORS\") == \"avx512\" }\n",
		// A surface that takes its own percentiles of the learned weights.
		"wasm/worker/q.go": "package main\nimport \"gonum.org/v1/gonum/stat\"\nfunc median(w []float64) float64 { return stat.Quantile(0.5, stat.Empirical, w, nil) }\n",
		// A surface that fetches a file itself, and would show the
		// browser's words for a failure.
		"app/f.go": "package app\nimport \"syscall/js\"\nfunc get() { js.Global().Call(\"fetch\", \"web/i18n/ar.json\") }\n",
	} {
		if v := violationsOf(t, name, src); len(v) != 1 {
			t.Errorf("%s: %d violations found, want 1: %q", name, len(v), v)
		}
	}
}

// TestInputRuleLetsItsOwnerThrough shows what the input rule does not
// catch: internal/input itself, an fs.FS's Open handing its call to the
// folder it wraps, and code that reads no user's file (the site builder).
func TestInputRuleLetsItsOwnerThrough(t *testing.T) {
	for name, src := range map[string]string{
		"internal/input/open.go": "package input\nimport \"os\"\nfunc read(p string) { os.ReadFile(p); os.Open(p) }\n",
		"internal/input/json.go": "package input\nimport \"encoding/json\"\nfunc JSON(b []byte, v any) error { return json.Unmarshal(b, v) }\n",
		"datasets/ogb.go":        "package datasets\nimport \"io/fs\"\ntype flat struct{ fs.FS }\nfunc (f flat) Open(name string) (fs.File, error) { return f.FS.Open(name) }\n",
		"wasm/site/build.go":     "package site\nimport \"os\"\nfunc read(p string) { os.ReadFile(p) }\n",
	} {
		if v := violationsOf(t, name, src); len(v) != 0 {
			t.Errorf("%s: %q, want none", name, v)
		}
	}
}

// TestRulesCatchEnglishForThePage shows the check would catch an error
// made in English where it reaches the page (a warning sent as fmt's
// text, a worker's errors.New), and lets one made elsewhere through.
func TestRulesCatchEnglishForThePage(t *testing.T) {
	for name, src := range map[string]string{
		"wasm/worker/e1.go": "package main\nimport \"fmt\"\nfunc e(n int) error { return fmt.Errorf(\"node %d is gone\", n) }\n",
		"app/e2.go":         "package app\nimport \"errors\"\nvar errGone = errors.New(\"gone\")\n",
		"pyg/e3.go":         "package pyg\nimport stderr \"errors\"\nfunc e() error { return stderr.New(\"gone\") }\n",
	} {
		if v := violationsOf(t, name, src); len(v) != 1 {
			t.Errorf("%s: %d violations found, want 1: %q", name, len(v), v)
		}
	}
	if v := violationsOf(t, "cmd/pdn/e4.go", "package main\nimport \"fmt\"\nfunc e() error { return fmt.Errorf(\"a flag\") }\n"); len(v) != 0 {
		t.Errorf("the command line's English: %q, want none", v)
	}
}
