package rules

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// A test that waits on a clock of its own fails on a busy machine for no
// fault of the code: every limit of a test comes from internal/testwait,
// which waits for as long as go test's -timeout (sized in the Makefile)
// allows. This rule finds a test file that sets its own: a timer, a
// context with a timeout or deadline, or a deadline reckoned from now.
// A window that is fixed on purpose (a benchmark's, or a look whose
// outcome no longer wait would change) says so on the line above with
// //testwait:fixed and why.
var waitCalls = map[string][]string{
	"time":    {"After", "NewTimer", "Tick", "NewTicker"},
	"context": {"WithTimeout", "WithDeadline", "WithTimeoutCause", "WithDeadlineCause"},
}

const fixedMark = "//testwait:fixed"

// waitOwners may set limits: the package that sizes them.
var waitOwners = []string{"internal/testwait"}

// testSources parses every test file of the module.
func testSources(t *testing.T) []sourceFile {
	t.Helper()
	return parseModule(t, func(name string) bool { return strings.HasSuffix(name, "_test.go") }, parser.SkipObjectResolution|parser.ParseComments)
}

// fixedLines are the lines a //testwait:fixed comment vouches for: its own
// and the next.
func fixedLines(sf sourceFile) map[int]bool {
	lines := map[int]bool{}
	for _, g := range sf.file.Comments {
		for _, c := range g.List {
			if strings.HasPrefix(c.Text, fixedMark) {
				l := sf.fset.Position(c.Pos()).Line
				lines[l], lines[l+1] = true, true
			}
		}
	}
	return lines
}

// waitViolations lists the limits test files set around internal/testwait.
func waitViolations(files []sourceFile) []string {
	var out []string
	for _, sf := range files {
		if owned(sf.rel, waitOwners) {
			continue
		}
		names, fixed := importNames(sf.file), fixedLines(sf)
		report := func(n ast.Node, what string) {
			if p := sf.fset.Position(n.Pos()); !fixed[p.Line] {
				out = append(out, fmt.Sprintf("%s: %s: a test's limit is testwait's (testwait.Until, For, End, Context), sized by go test -timeout; mark a window fixed on purpose with %s and why", p, what, fixedMark))
			}
		}
		ast.Inspect(sf.file, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok && matches(sel.Sel.Name, waitCalls[names[id.Name]]) {
				report(call, id.Name+"."+sel.Sel.Name)
			}
			// time.Now().Add(…): a deadline reckoned from now.
			if inner, ok := sel.X.(*ast.CallExpr); ok && sel.Sel.Name == "Add" {
				if isel, ok := inner.Fun.(*ast.SelectorExpr); ok && isel.Sel.Name == "Now" {
					if id, ok := isel.X.(*ast.Ident); ok && names[id.Name] == "time" {
						report(call, "time.Now().Add")
					}
				}
			}
			return true
		})
	}
	return out
}

// TestTestsWaitOnTestwait fails on a test that sets a limit of its own.
func TestTestsWaitOnTestwait(t *testing.T) {
	for _, v := range waitViolations(testSources(t)) {
		t.Error(v)
	}
}

// TestWaitRuleCatchesAFixedLimit shows the check catches each way a test
// could set its own limit, and lets a marked window through.
func TestWaitRuleCatchesAFixedLimit(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      int
	}{
		{"a timer", "select { case <-time.After(2 * time.Minute): }", 1},
		{"a context", "ctx, _ := context.WithTimeout(context.Background(), time.Minute); _ = ctx", 1},
		{"a deadline", "deadline := time.Now().Add(5 * time.Second); _ = deadline", 1},
		{"a ticker", "_ = time.NewTicker(time.Second)", 1},
		{"a marked window", fixedMark + " a benchmark's warm-up\n\tdeadline := time.Now().Add(5 * time.Second); _ = deadline", 0},
		{"a poll's sleep", "time.Sleep(200 * time.Millisecond)", 0},
	} {
		src := "package x\nimport (\n\t\"context\"\n\t\"time\"\n)\nvar _ = context.Background\nfunc f() {\n\t" + tc.src + "\n}\n"
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "app/x_test.go", src, parser.ParseComments)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if v := waitViolations([]sourceFile{{rel: "app/x_test.go", file: f, fset: fset}}); len(v) != tc.want {
			t.Errorf("%s: %d violations, want %d: %q", tc.name, len(v), tc.want, v)
		}
	}
}
