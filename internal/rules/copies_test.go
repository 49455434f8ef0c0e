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

// pageCopyHome is the one function of the page's packages (pagePackages)
// that copies bytes from JS into its Go memory: dialWorker's handler, which takes an
// event's float arrays (weights, positions) that the page draws. A
// WebAssembly memory never gives back what it grew to, so bytes the page
// only passes on (a user's files, the graph a worker read from them:
// protocol.File.Buffer, protocol.Command.ParsedBuffer) stay in the JS
// buffers they came in; an ogbn-arxiv-sized folder copied in raised the
// renderer's peak by 0.67 GB.
var pageCopyHome = [2]string{"app/conn.go", "dialWorker"}

// pagePackages are the packages the page's program is built from: the UI
// and its entry point.
var pagePackages = []string{"app", "wasm/ui"}

// pageCopiesAround lists the calls to CopyBytesToGo in the page's packages
// outside pageCopyHome.
func pageCopiesAround(files []sourceFile) []string {
	var out []string
	for _, sf := range files {
		if !slices.Contains(pagePackages, filepath.Dir(sf.rel)) {
			continue
		}
		for _, d := range sf.file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || (sf.rel == pageCopyHome[0] && fn.Name.Name == pageCopyHome[1]) {
				continue
			}
			ast.Inspect(fn, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "CopyBytesToGo" {
					out = append(out, fmt.Sprintf("%s: %s copies bytes into the page's Go memory, outside %s's %s: the page passes on what it does not read in the JS buffers it came in (protocol.File.Buffer, protocol.Command.ParsedBuffer)", sf.fset.Position(call.Pos()), fn.Name.Name, pageCopyHome[0], pageCopyHome[1]))
				}
				return true
			})
		}
	}
	return out
}

// TestThePagePassesOnWhatItDoesNotRead fails where the page copies
// bytes from JS into its Go memory anywhere but where it takes the float
// arrays it draws.
func TestThePagePassesOnWhatItDoesNotRead(t *testing.T) {
	for _, v := range pageCopiesAround(moduleSources(t)) {
		t.Error(v)
	}
}

// TestCopyRuleCatchesAPageThatCopiesIn shows the check catches a copy in
// elsewhere in the page's packages, and leaves the home and the worker alone.
func TestCopyRuleCatchesAPageThatCopiesIn(t *testing.T) {
	for _, tc := range []struct {
		name, file, src string
		want            int
	}{
		{"files read into Go", "app/graphlab_open.go", "package app\nfunc readFiles(u8 app.Value) []byte { b := make([]byte, 9); app.CopyBytesToGo(b, u8); return b }\n", 1},
		{"the graph read copied in", "app/conn.go", "package app\nfunc keep(u8 app.Value) { app.CopyBytesToGo(nil, u8) }\n", 1},
		{"the page's entry point", "wasm/ui/main.go", "package main\nfunc load(u8 js.Value) { js.CopyBytesToGo(b, u8) }\n", 1},
		{"the float arrays drawn", "app/conn.go", "package app\nfunc dialWorker() { app.CopyBytesToGo(buf, arr) }\n", 0},
		{"the worker reading its files", "wasm/worker/main_js.go", "package main\nfunc bytesOf(u8 js.Value) { js.CopyBytesToGo(b, u8) }\n", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, tc.file, tc.src, 0)
			if err != nil {
				t.Fatal(err)
			}
			if v := pageCopiesAround([]sourceFile{{rel: tc.file, file: f, fset: fset}}); len(v) != tc.want {
				t.Errorf("%d violations found, want %d: %q", len(v), tc.want, v)
			}
		})
	}
}
