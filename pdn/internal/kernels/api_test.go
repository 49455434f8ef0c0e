package kernels

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// notKernels are the exported names that compute no kernel's result, or
// whose results are checked elsewhere, each with the reason.
var notKernels = map[string]string{
	"SetWidth": "a switch", "Widths": "a switch", "Vectors": "a switch",
	"SetWide": "a switch", "SIMD128": "a switch", "SetSIMD128": "a switch",
	"SetPool": "a switch", "Pooled": "a predicate job.split chooses the pool by", "Batch": "runs pieces of the kernels' rows, each checked where it is collected",
	"PoolHelped": "a count tests read", "PoolHelpers": "a count tests read", "GoThreads": "a predicate UseThreads counts threads by",
	"Leaky": "one value's operation, the reference loops' own", "ReluOf": "one value's operation, the reference loops' own",
	"GateOn": "one value's operation, the reference loops' own", "Below": "one value's operation, the reference loops' own",
	"AllZero":                "one value's operation, the reference loops' own",
	"FusedDots":              "a predicate callers choose the backward pass of Â by; PropagateDots and CombineDots are whole without it",
	"FusedPathfinder":        "a predicate callers choose the fused pathfinder by; Pathfinder1Forward and Pathfinder1Backward are whole without it",
	"TransposedForVectors":   "a buffer for MulABTBias and MulPair, whose rows take it",
	"ReleaseTransposed":      "a buffer for MulABTBias and MulPair, whose rows take it",
	"QuadsVec":               "a predicate callers group rows by; MulQuadRows is whole without it",
	"WideBlocks":             "a predicate callers split work by; AddATBBlocks is whole without it",
	"Propagation.Pad":        "Propagation.Rows's argument, checked with it",
	"Propagation.ArcCoefs":   "Propagation.Rows's input, checked with it",
	"Attention.ChooseLayout": "checked with Attention's row", "Attention.HeadMinor": "checked with Attention's row",
	"Attention.Scores": "checked with Attention's row", "Attention.Node": "checked with Attention's row",
	"Attention.NodeBackward": "checked with Attention's row", "Attention.ParamGrads": "checked with Attention's row",
	"SkipGramStep": "checked with SkipGram's row", "SkipGramScores": "checked with SkipGram's row", "WalkDot": "checked with SkipGram's row",
}

// TestEveryKernelHasItsRow fails for an exported function or method of
// the package (in any build's files) that is neither a row of kernelCases
// nor named in notKernels with its reason.
func TestEveryKernelHasItsRow(t *testing.T) {
	rows := map[string]bool{}
	for _, kc := range kernelCases {
		rows[kc.name] = true
	}
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || !fn.Name.IsExported() {
				continue
			}
			name := fn.Name.Name
			if fn.Recv != nil {
				recv := fn.Recv.List[0].Type
				if star, ok := recv.(*ast.StarExpr); ok {
					recv = star.X
				}
				if !recv.(*ast.Ident).IsExported() {
					continue // an error's methods and the like: no kernel
				}
				name = recv.(*ast.Ident).Name + "." + name
			}
			if !rows[name] && notKernels[name] == "" {
				t.Errorf("%s: %s has no row in kernelCases (guard_test.go) and no reason in notKernels", fset.Position(fn.Pos()), name)
			}
		}
	}
}

// outsideTheDoor are the engine's files that may carry a build constraint
// on the platform, each with the reason: none of them holds a path.
var outsideTheDoor = map[string]string{
	"fused_on_test.go":     "which pins a build's digests take: whether Go fuses, not a path",
	"fused_off_test.go":    "which pins a build's digests take: whether Go fuses, not a path",
	"gonumasm_on.go":       "whether gonum's own assembly is in, which BuildNote names",
	"gonumasm_off.go":      "whether gonum's own assembly is in, which BuildNote names",
	"simd128_test.go":      "compares the engine's passes with kernels.wasm and without, under Node with it linked",
	"benchcompare_test.go": "runs a shell script, which the browser's runtime has not",
}

// TestNoPlatformCodeOutsideTheDoor fails for platform code in the engine
// (package pdn) outside this package: an import of simd/archsimd, simd or
// unsafe, a //go:wasmimport, an assembly file, or a build constraint on
// the platform (an architecture, the simd experiment, the simd128 or
// purego tag) in a file outsideTheDoor does not name.
func TestNoPlatformCodeOutsideTheDoor(t *testing.T) {
	engine := filepath.Join("..", "..")
	if s, _ := filepath.Glob(filepath.Join(engine, "*.s")); len(s) > 0 {
		t.Errorf("assembly in the engine: %v", s)
	}
	files, _ := filepath.Glob(filepath.Join(engine, "*.go"))
	platform := regexp.MustCompile(`\b(amd64|arm64|wasm|js|goexperiment\.simd|simd128|purego|386|ppc64|ppc64le|s390x|riscv64|loong64)\b`)
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(f)
		file, err := parser.ParseFile(token.NewFileSet(), f, src, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range file.Imports {
			if p := strings.Trim(im.Path.Value, `"`); p == "simd/archsimd" || p == "simd" || p == "unsafe" {
				t.Errorf("%s imports %s: platform code belongs behind pdn/internal/kernels", name, p)
			}
		}
		if strings.Contains(string(src), "//go:wasmimport") {
			t.Errorf("%s imports from WebAssembly: platform code belongs behind pdn/internal/kernels", name)
		}
		for _, line := range strings.Split(string(src), "\n") {
			if c, ok := strings.CutPrefix(line, "//go:build "); ok && platform.MatchString(c) && outsideTheDoor[name] == "" {
				t.Errorf("%s: //go:build %s: a constraint on the platform outside pdn/internal/kernels (outsideTheDoor names the files that may, and why)", name, c)
			}
			if strings.HasPrefix(line, "package ") {
				break
			}
		}
	}
}
