//go:build js && wasm && simd128 && !purego

package kernels

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// These tests run under Node with the kernels linked (make test-wasm, or
// go test -tags simd128 -exec scripts/kernels-exec with PDN_KERNELS set).
// The kernels check nothing: the wrappers must refuse every operand too
// short and every index out of range before a call, as the Go loops' own
// bounds checks would (see at in wasm_simd128.go).

// ops are one call's operands by name: slices, sizes (int) and the PCG.
type ops map[string]any

func (o ops) f(name string) []float64 { return o[name].([]float64) }
func (o ops) i32(name string) []int32 { return o[name].([]int32) }
func (o ops) n(name string) int       { return o[name].(int) }

// newBoundsGraph is a small graph for the graph kernels: 7 nodes (the
// last alone), 10 edges.
func newBoundsGraph() *adjacency {
	var src, dst []int32
	for _, uv := range [][2]int32{{0, 1}, {0, 2}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {1, 5}, {2, 5}, {0, 5}, {3, 5}} {
		src, dst = append(src, uv[0]), append(dst, uv[1])
	}
	return adjacencyOf(7, src, dst)
}

// boundsCSR is a 5×4 sparse matrix with every row from empty to full.
func boundsCSR() (ptr []int, col []int32, val []float64, cols int) {
	rows := [][]int32{{1}, {0, 2, 3}, {}, {0, 1, 2, 3}, {3}}
	ptr = []int{0}
	for _, r := range rows {
		for _, j := range r {
			col, val = append(col, j), append(val, float64(j)+0.5)
		}
		ptr = append(ptr, len(col))
	}
	return ptr, col, val, 4
}

// vals returns n values, none 0 (so no row of keep is skipped).
func vals(n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = 0.25 + float64(i%5)/8
	}
	return out
}

// maxOf is one more than the largest of idx[lo:hi]: the extent of what
// they index.
func maxOf(idx []int32, lo, hi int) int {
	return int(slices.Max(idx[lo:hi])) + 1
}

// boundsCase is a wrapper, its operands for a valid call (each slice as
// long as the kernel reads, and no longer), and the calls that must panic
// beside shortening each slice: an index one past its range, a size out
// of range.
type boundsCase struct {
	name string
	ops  func() ops
	call func(o ops)
	// keepLen are slices whose length is the kernel's size (shorter is
	// valid); optional are those the wrapper takes as nil.
	keepLen, optional []string
	// names is whom the panic names when a slice is one too short, where
	// that is not the slice itself: the index arrays that reach past it.
	names map[string][]string
	bad   []badCall
}

// badCall changes the operands of a valid call so that it must panic,
// naming operand.
type badCall struct {
	what, operand string
	change        func(o ops)
}

// set returns a badCall setting an int operand.
func set(name string, v int, operand string) badCall {
	return badCall{fmt.Sprintf("%s = %d", name, v), operand, func(o ops) { o[name] = v }}
}

// poke returns a badCall setting idx[k] (k from the end where negative)
// to v, or to v of the operand named by to (its length plus v) where to
// is not "".
func poke(name string, k int, to string, v int, operand string) badCall {
	return badCall{fmt.Sprintf("%s[%d] = len(%s)%+d", name, k, to, v), operand, func(o ops) {
		idx := o.i32(name)
		if k < 0 {
			k += len(idx)
		}
		if to != "" {
			switch s := o[to].(type) {
			case []float64:
				v += len(s)
			case []int32:
				v += len(s)
			case int:
				v += s
			}
		}
		idx[k] = int32(v)
	}}
}

func boundsCases() []boundsCase {
	g := newBoundsGraph()
	const m = 3
	ptr, col, val, cols := boundsCSR()
	rows := func(lo, hi int) ops { // the CSR's rows lo..hi-1, cut to what they read
		return ops{"ptr": slices.Clone(ptr[:hi+1]), "col": slices.Clone(col[:ptr[hi]]), "val": slices.Clone(val[:ptr[hi]]),
			"cols": cols, "lo": lo, "hi": hi, "m": m}
	}
	with := func(o ops, more ops) ops {
		for k, v := range more {
			o[k] = v
		}
		return o
	}
	adjacency := func(lo, hi int) ops { // rows lo..hi-1 of the adjacency, cut to what they read
		last := int(g.rowPtr[hi])
		eid := slices.Clone(g.eid[:last])
		return ops{"n": g.n, "m": m, "lo": lo, "hi": hi, "rowPtr": slices.Clone(g.rowPtr[:hi+1]),
			"col": slices.Clone(g.col[:last]), "eid": eid, "coef": vals(maxOf(eid, int(g.rowPtr[lo]), last)), "self": vals(hi)}
	}
	rowPtrBad := []badCall{
		poke("rowPtr", 1, "", -1, "rowPtr"), // row lo's first entry before 0
		{"rowPtr[2] < rowPtr[1]", "rowPtr", func(o ops) { o.i32("rowPtr")[2] = o.i32("rowPtr")[1] - 1 }}, // decreasing
		poke("rowPtr", -1, "col", 1, "col"), // past col
		poke("col", 3, "n", 0, "col"), poke("col", -1, "", -1, "col"), poke("eid", -1, "coef", 0, "eid"),
		set("lo", -1, "rows"), set("hi", 8, "rows"), set("lo", 7, "rows"), set("m", -1, "m"), set("n", -1, "rows"),
	}
	sparseBad := []badCall{
		poke2("ptr", 1, -1), {"ptr[2] < ptr[1]", "ptr", func(o ops) { p := o["ptr"].([]int); p[2] = p[1] - 1 }},
		{"ptr[hi] = len(col)+1", "col", func(o ops) { p := o["ptr"].([]int); p[len(p)-1] = len(o.i32("col")) + 1 }},
		poke("col", -1, "cols", 0, "col"), poke("col", 1, "", -1, "col"),
		set("lo", -1, "rows"), set("m", -1, "m"), set("cols", -1, "cols"),
	}
	return []boundsCase{
		{name: "wasmMulABT", optional: []string{"bias", "keep"},
			ops: func() ops {
				return ops{"c": vals(4 * 5), "a": vals(4 * 3), "b": vals(5 * 3), "bias": vals(5), "keep": vals(4), "n": 4, "k": 3, "m": 5}
			},
			call: func(o ops) {
				wasmMulABT(o.f("c"), o.f("a"), o.f("b"), o.f("bias"), o.f("keep"), o.n("n"), o.n("k"), o.n("m"))
			},
			bad: []badCall{set("n", -1, "n"), set("k", -1, "k"), set("m", -1, "m")}},
		{name: "wasmMulABT", optional: []string{"bias", "keep"}, // m = 1: mul_abt_narrow
			ops: func() ops {
				return ops{"c": vals(5), "a": vals(5 * 3), "b": vals(3), "bias": vals(1), "keep": vals(5), "n": 5, "k": 3, "m": 1}
			},
			call: func(o ops) {
				wasmMulABT(o.f("c"), o.f("a"), o.f("b"), o.f("bias"), o.f("keep"), o.n("n"), o.n("k"), o.n("m"))
			},
			bad: []badCall{set("k", -1, "k")}},
		{name: "wasmAddATB",
			ops: func() ops {
				return ops{"c": vals(2 * 5), "a": vals(3 * 2), "b": vals(3 * 5), "n": 3, "m": 2, "k": 5, "j0": 1, "j1": 2}
			},
			call: func(o ops) {
				wasmAddATB(o.f("c"), o.f("a"), o.f("b"), o.n("n"), o.n("m"), o.n("k"), o.n("j0"), o.n("j1"))
			},
			bad: []badCall{set("m", -1, "m"), set("k", -1, "k"), set("j0", -1, "rows of c"), set("j1", 3, "rows of c"), set("j0", 3, "rows of c")}},
		{name: "wasmPropagateRows",
			ops: func() ops {
				return with(adjacency(1, 6), ops{"y": vals(6 * m), "h": vals(g.n * m)})
			},
			call: func(o ops) {
				wasmPropagateRows(o.f("y"), o.f("h"), o.n("n"), o.n("m"), o.n("lo"), o.n("hi"), o.i32("rowPtr"), o.i32("col"), o.i32("eid"), o.f("coef"), o.f("self"))
			},
			names: map[string][]string{"coef": {"eid"}},
			bad:   rowPtrBad},
		{name: "wasmAccumulateEdges",
			ops: func() ops {
				return ops{"gCoef": vals(9), "dy": vals(g.n * m), "h": vals(g.n * m), "n": g.n, "m": m, "lo": 2, "hi": 9,
					"src": slices.Clone(g.src[:9]), "dst": slices.Clone(g.dst[:9])}
			},
			call: func(o ops) {
				wasmAccumulateEdges(o.f("gCoef"), o.f("dy"), o.f("h"), o.n("n"), o.n("m"), o.n("lo"), o.n("hi"), o.i32("src"), o.i32("dst"))
			},
			bad: []badCall{poke("src", 2, "n", 0, "src"), poke("dst", -1, "n", 0, "dst"), poke("src", -1, "", -1, "src"),
				set("lo", -1, "edges"), set("lo", 10, "edges"), set("n", -1, "n"), set("m", -1, "m")}},
		{name: "wasmAccumulateSelf",
			ops:  func() ops { return ops{"gSelf": vals(g.n), "dy": vals(g.n * m), "h": vals(g.n * m), "n": g.n, "m": m} },
			call: func(o ops) { wasmAccumulateSelf(o.f("gSelf"), o.f("dy"), o.f("h"), o.n("n"), o.n("m")) },
			bad:  []badCall{set("n", -1, "n"), set("m", -1, "m")}},
		{name: "wasmSpMulABT",
			ops: func() ops {
				return with(rows(1, 4), ops{"c": vals(3 * m), "bt": vals(cols * m)})
			},
			call: func(o ops) {
				wasmSpMulABT(o.f("c"), o["ptr"].([]int), o.i32("col"), o.f("val"), o.n("cols"), o.n("lo"), o.n("hi"), o.f("bt"), o.n("m"))
			},
			bad: sparseBad},
		{name: "wasmSpAccumATB",
			ops: func() ops {
				return with(rows(1, 4), ops{"ct": vals(cols * m), "a": vals(3 * m), "o0": 1, "o1": m})
			},
			call: func(o ops) {
				wasmSpAccumATB(o.f("ct"), o.f("a"), o["ptr"].([]int), o.i32("col"), o.f("val"), o.n("cols"), o.n("lo"), o.n("hi"), o.n("m"), o.n("o0"), o.n("o1"))
			},
			bad: append(slices.Clone(sparseBad), set("o0", -1, "columns of ct"), set("o1", m+1, "columns of ct"))},
		{name: "wasmRelu", keepLen: []string{"x"},
			ops:  func() ops { return ops{"y": vals(5), "x": vals(5)} },
			call: func(o ops) { wasmRelu(o.f("y"), o.f("x")) }},
		{name: "wasmReluBackward", keepLen: []string{"dx"},
			ops:  func() ops { return ops{"dx": vals(5), "dy": vals(5), "y": vals(5)} },
			call: func(o ops) { wasmReluBackward(o.f("dx"), o.f("dy"), o.f("y")) }},
		{name: "wasmSumRowsAdd",
			ops:  func() ops { return ops{"c": vals(5), "a": vals(3 * 5), "n": 3, "m": 5} },
			call: func(o ops) { wasmSumRowsAdd(o.f("c"), o.f("a"), o.n("n"), o.n("m")) },
			bad:  []badCall{set("n", -1, "n"), set("m", -1, "m")}},
		{name: "wasmMulInto", keepLen: []string{"y"},
			ops:  func() ops { return ops{"y": vals(5), "x": vals(5), "k": vals(5)} },
			call: func(o ops) { wasmMulInto(o.f("y"), o.f("x"), o.f("k")) }},
		{name: "wasmAddRows",
			ops:  func() ops { return ops{"c": vals(3 * 5), "v": vals(5), "n": 3, "m": 5} },
			call: func(o ops) { wasmAddRows(o.f("c"), o.f("v"), o.n("n"), o.n("m")) },
			bad:  []badCall{set("n", -1, "n"), set("m", -1, "m")}},
		{name: "wasmSigmoidKept", keepLen: []string{"s"}, optional: []string{"keep"},
			ops:  func() ops { return ops{"w": vals(5), "s": vals(5), "keep": vals(5)} },
			call: func(o ops) { wasmSigmoidKept(o.f("w"), o.f("s"), o.f("keep")) }},
		{name: "wasmPathfinder1Forward", optional: []string{"keep"},
			ops: func() ops {
				const hi, d, nh = 5, 3, 8
				return ops{"h": vals(hi * nh), "s": vals(hi), "w": vals(hi), "z": vals(hi * d), "w1t": vals(d * nh), "b1": vals(nh), "w2": vals(nh),
					"keep": vals(hi), "lo": 1, "hi": hi, "d": d, "nh": nh}
			},
			call: func(o ops) {
				wasmPathfinder1Forward(o.f("h"), o.f("s"), o.f("w"), o.f("z"), o.f("w1t"), o.f("b1"), o.f("w2"), 0.5, o.f("keep"), o.n("lo"), o.n("hi"), o.n("d"), o.n("nh"))
			},
			bad: []badCall{set("nh", 12, "nh"), set("nh", 72, "nh"), set("d", -1, "d"), set("lo", -1, "rows"), set("lo", 6, "rows")}},
		{name: "wasmPathfinder1Backward",
			ops: func() ops {
				const hi, d, nh = 6, 3, 8
				return ops{"gw1": vals(nh * d), "gb1": vals(nh), "gw2": vals(nh), "gb2": vals(1), "gw": vals(hi), "w": vals(hi), "h": vals(hi * nh),
					"z": vals(hi * d), "w2": vals(nh), "lo": 0, "hi": hi, "d": d, "nh": nh, "j0": 2, "j1": nh}
			},
			call: func(o ops) {
				wasmPathfinder1Backward(o.f("gw1"), o.f("gb1"), o.f("gw2"), o.f("gb2"), o.f("gw"), o.f("w"), o.f("h"), o.f("z"), o.f("w2"), o.n("lo"), o.n("hi"), o.n("d"), o.n("nh"), o.n("j0"), o.n("j1"))
			},
			bad: []badCall{set("nh", 6, "nh"), set("nh", 72, "nh"), set("d", -1, "d"), set("lo", -1, "rows"),
				set("j0", -2, "hidden units"), set("j1", 10, "hidden units"), set("j0", 1, "hidden units"), set("j1", 7, "hidden units")}},
		{name: "wasmPropagateDots",
			ops: func() ops {
				o := adjacency(1, 6)
				return with(o, ops{"y": vals(6 * m), "dy": vals(g.n * m), "h": vals(6 * m), "dots": vals(len(o.i32("col"))), "gSelf": vals(6)})
			},
			call: func(o ops) {
				wasmPropagateDots(o.f("y"), o.f("dy"), o.f("h"), o.n("n"), o.n("m"), o.n("lo"), o.n("hi"), o.i32("rowPtr"), o.i32("col"), o.i32("eid"),
					o.f("coef"), o.f("self"), o.f("dots"), o.f("gSelf"))
			},
			names: map[string][]string{"coef": {"eid"}},
			bad:   rowPtrBad},
		{name: "wasmCombineDots",
			ops: func() ops {
				atSrc, atDst := slices.Clone(g.atSrc[:9]), slices.Clone(g.atDst[:9])
				return ops{"gCoef": vals(9), "dots": vals(max(maxOf(atSrc, 2, 9), maxOf(atDst, 2, 9))), "atSrc": atSrc, "atDst": atDst, "lo": 2, "hi": 9}
			},
			call: func(o ops) {
				wasmCombineDots(o.f("gCoef"), o.f("dots"), o.i32("atSrc"), o.i32("atDst"), o.n("lo"), o.n("hi"))
			},
			names: map[string][]string{"dots": {"atSrc", "atDst"}},
			bad: []badCall{poke("atSrc", 2, "dots", 0, "atSrc"), poke("atDst", -1, "dots", 0, "atDst"), poke("atDst", 3, "", -1, "atDst"),
				set("lo", -1, "edges"), set("lo", 10, "edges")}},
		{name: "wasmDropoutDraw",
			ops:  func() ops { return ops{"mask": vals(7), "n": 7, "rnd": rand.NewPCG(1, 2)} },
			call: func(o ops) { wasmDropoutDraw(o.f("mask"), o.n("n"), o["rnd"].(*rand.PCG), 1<<31, 2) },
			bad: []badCall{set("n", -1, "n"),
				{"rnd = nil", "rnd", func(o ops) { o["rnd"] = (*rand.PCG)(nil) }}}},
		{name: "wasmNormForward",
			ops: func() ops {
				return ops{"deg": vals(g.n), "r": vals(g.n), "self": vals(g.n), "coef": vals(g.e), "w": vals(g.e), "n": g.n, "ne": g.e,
					"rowPtr": slices.Clone(g.rowPtr), "eid": slices.Clone(g.eid), "src": slices.Clone(g.src), "dst": slices.Clone(g.dst)}
			},
			call: func(o ops) {
				wasmNormForward(o.f("deg"), o.f("r"), o.f("self"), o.f("coef"), o.f("w"), o.n("n"), o.n("ne"), o.i32("rowPtr"), o.i32("eid"), o.i32("src"), o.i32("dst"))
			},
			bad: []badCall{
				poke("rowPtr", 0, "", -1, "rowPtr"), poke("rowPtr", -1, "eid", 1, "eid"),
				{"rowPtr[3] < rowPtr[2]", "rowPtr", func(o ops) { o.i32("rowPtr")[3] = o.i32("rowPtr")[2] - 1 }},
				poke("eid", 0, "ne", 0, "eid"), poke("eid", -1, "", -1, "eid"), poke("src", 0, "n", 0, "src"), poke("dst", -1, "n", 0, "dst"),
				poke("dst", 2, "", -1, "dst"), set("n", -1, "n"), set("ne", -1, "ne")}},
		{name: "wasmNormBackward",
			ops: func() ops {
				return ops{"gw": vals(g.e), "gR": vals(g.n), "gSelf": vals(g.n), "gCoef": vals(g.e), "r": vals(g.n), "w": vals(g.e), "n": g.n, "ne": g.e,
					"src": slices.Clone(g.src), "dst": slices.Clone(g.dst)}
			},
			call: func(o ops) {
				wasmNormBackward(o.f("gw"), o.f("gR"), o.f("gSelf"), o.f("gCoef"), o.f("r"), o.f("w"), o.n("n"), o.n("ne"), o.i32("src"), o.i32("dst"))
			},
			bad: []badCall{poke("src", -1, "n", 0, "src"), poke("dst", 0, "n", 0, "dst"), poke("src", 1, "", -1, "src"), set("n", -1, "n"), set("ne", -1, "ne")}},
		{name: "wasmAddTransposed",
			ops:  func() ops { return ops{"c": vals(3 * 5), "ct": vals(5 * 3), "m": 3, "k": 5} },
			call: func(o ops) { wasmAddTransposed(o.f("c"), o.f("ct"), o.n("m"), o.n("k")) },
			bad:  []badCall{set("m", -1, "m"), set("k", -1, "k")}},
		{name: "wasmTranspose",
			ops:  func() ops { return ops{"t": vals(3 * 5), "a": vals(3 * 5), "n": 3, "m": 5} },
			call: func(o ops) { wasmTranspose(o.f("t"), o.f("a"), o.n("n"), o.n("m")) },
			bad:  []badCall{set("n", -1, "n"), set("m", -1, "m")}},
		{name: "wasmAdamStep", keepLen: []string{"val"},
			ops: func() ops { return ops{"val": vals(5), "grad": vals(5), "m": vals(5), "v": vals(5)} },
			call: func(o ops) {
				wasmAdamStep(o.f("val"), o.f("grad"), o.f("m"), o.f("v"), 0.01, 0.9, 0.1, 0.999, 0.001, 0.01, 1, 1e-8)
			}},
	}
}

// poke2 sets the CSR's ptr[k] to v.
func poke2(name string, k, v int) badCall {
	return badCall{fmt.Sprintf("%s[%d] = %d", name, k, v), name, func(o ops) { o[name].([]int)[k] = v }}
}

// panicOf runs f and returns what it panicked with (nil if it did not).
func panicOf(f func()) (p any) {
	defer func() { p = recover() }()
	f()
	return nil
}

// names reports whether p is a runtime error, as a Go loop's bounds check
// raises, naming operand of wrapper.
func names(p any, wrapper, operand string) bool {
	err, ok := p.(runtime.Error)
	if !ok {
		return false
	}
	return regexp.MustCompile(regexp.QuoteMeta(wrapper+": "+operand) + `[:\[ ]`).MatchString(err.Error())
}

// TestWasmBounds tries each wrapper with every operand one value short,
// every index one past its range and every size out of its, with the
// scans of the index arrays in kernels.c and in Go.
func TestWasmBounds(t *testing.T) {
	if !loaded {
		t.Fatal("the SIMD kernels did not load: run with scripts/kernels-exec and PDN_KERNELS naming kernels.wasm")
	}
	bothScans(t, func(t *testing.T) {
		for _, c := range boundsCases() {
			// A valid call: every slice exactly as long as the kernel reads.
			if p := panicOf(func() { c.call(c.ops()) }); p != nil {
				t.Errorf("%s: a valid call panicked: %v", c.name, p)
			}
			for _, name := range c.optional {
				o := c.ops()
				o[name] = []float64(nil)
				if p := panicOf(func() { c.call(o) }); p != nil {
					t.Errorf("%s: a valid call with a nil %s panicked: %v", c.name, name, p)
				}
			}
			// Each slice one value too short.
			for name, v := range c.ops() {
				if slices.Contains(c.keepLen, name) {
					continue
				}
				o := c.ops()
				switch s := v.(type) {
				case []float64:
					o[name] = s[:len(s)-1]
				case []int32:
					o[name] = s[:len(s)-1]
				case []int:
					o[name] = s[:len(s)-1]
				default:
					continue
				}
				want := c.names[name]
				if want == nil {
					want = []string{name}
				}
				p := panicOf(func() { c.call(o) })
				if !slices.ContainsFunc(want, func(op string) bool { return names(p, c.name, op) }) {
					t.Errorf("%s: %s one value short: panic %v, want a runtime error naming %s", c.name, name, p, strings.Join(want, " or "))
				}
			}
			// Each index one past its range, each size out of its.
			for _, b := range c.bad {
				o := c.ops()
				b.change(o)
				if p := panicOf(func() { c.call(o) }); !names(p, c.name, b.operand) {
					t.Errorf("%s: %s: panic %v, want a runtime error naming %s", c.name, b.what, p, b.operand)
				}
			}
		}
	})
}

// bothScans runs f as two subtests: with the scans of rowPtrs and
// indices in kernels.c however few the values, then in Go.
func bothScans(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	if !loaded {
		t.Fatal("the SIMD kernels did not load: run with scripts/kernels-exec and PDN_KERNELS naming kernels.wasm")
	}
	was := scanCFrom
	defer func() { scanCFrom = was }()
	for _, c := range []bool{true, false} {
		scanCFrom = scanFrom(c)
		t.Run(scanName(c), f)
	}
}

// scanFrom is scanCFrom for scans in kernels.c (c) or in Go.
func scanFrom(c bool) int {
	if c {
		return 0
	}
	return math.MaxInt
}

// scanName names the scans.
func scanName(c bool) string {
	if c {
		return "scans in kernels.c"
	}
	return "scans in Go"
}

// scanPanics is the panic of f with the scans in kernels.c and in Go.
func scanPanics(f func()) (inC, inGo any) {
	was := scanCFrom
	defer func() { scanCFrom = was }()
	scanCFrom = scanFrom(true)
	inC = panicOf(f)
	scanCFrom = scanFrom(false)
	inGo = panicOf(f)
	return inC, inGo
}

// TestWasmAddressesChecked keeps the rule of wasm_simd128.go: every
// address argument of a kernel (an unsafe.Pointer parameter of a
// //go:wasmimport function) comes from at, opt or state, directly or
// through a variable set from one, and no other code of the package
// turns a value into an unsafe.Pointer but those and startKernels.
func TestWasmAddressesChecked(t *testing.T) {
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	ctxt := build.Default // this build's files: js, wasm, simd128
	ctxt.BuildTags = []string{"simd128"}
	var parsed []*ast.File
	imports := map[string][]bool{} // kernel: which parameters are addresses
	for _, name := range files {
		if ok, err := ctxt.MatchFile(".", name); err != nil {
			t.Fatal(err)
		} else if !ok || strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		parsed = append(parsed, f)
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Doc == nil || !isWasmImport(fd) {
				continue
			}
			var addr []bool
			for _, p := range fd.Type.Params.List {
				isPtr := isUnsafePointer(p.Type)
				for range max(1, len(p.Names)) {
					addr = append(addr, isPtr)
				}
			}
			imports[fd.Name.Name] = addr
		}
	}
	if len(imports) < 20 {
		t.Fatalf("found %d //go:wasmimport functions: the test no longer finds them", len(imports))
	}
	// The pool's relays (pool_simd128.go): a function that hands each of
	// its parameters, in order, to one kernel, and nothing else to any,
	// is that kernel to its callers, whose arguments are checked instead.
	relays := map[string]bool{}
	for _, f := range parsed {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			if kernel := relayOf(fd, imports); kernel != "" {
				imports[fd.Name.Name], relays[fd.Name.Name] = imports[kernel], true
			}
		}
	}
	checked := func(e ast.Expr) bool {
		call, ok := e.(*ast.CallExpr)
		if !ok {
			return false
		}
		fn := call.Fun
		if ix, ok := fn.(*ast.IndexExpr); ok { // at[float64](…)
			fn = ix.X
		}
		id, ok := fn.(*ast.Ident)
		return ok && (id.Name == "at" || id.Name == "opt" || id.Name == "state")
	}
	calls := 0
	for _, f := range parsed {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || relays[fd.Name.Name] {
				continue
			}
			// The variables of fd set from at, opt or state.
			fromAt := map[string]bool{}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == len(as.Rhs) {
					for i, l := range as.Lhs {
						if id, ok := l.(*ast.Ident); ok && checked(as.Rhs[i]) {
							fromAt[id.Name] = true
						}
					}
				}
				return true
			})
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				if isUnsafePointer(call.Fun) && fd.Name.Name != "at" && fd.Name.Name != "state" && fd.Name.Name != "startKernels" {
					t.Errorf("%s: %s makes an unsafe.Pointer: only at, opt and state may", fset.Position(call.Pos()), fd.Name.Name)
				}
				id, ok := call.Fun.(*ast.Ident)
				if !ok || imports[id.Name] == nil {
					return true
				}
				calls++
				for i, arg := range call.Args {
					if i >= len(imports[id.Name]) || !imports[id.Name][i] {
						continue
					}
					if v, ok := arg.(*ast.Ident); checked(arg) || ok && fromAt[v.Name] {
						continue
					}
					t.Errorf("%s: argument %d of %s comes neither from at, opt nor state", fset.Position(arg.Pos()), i+1, id.Name)
				}
				return true
			})
		}
	}
	if calls < len(imports)-len(relays)-3 { // abi, set_stack and pool_threads take no address
		t.Errorf("found %d calls of %d kernels: the test no longer finds them", calls, len(imports))
	}
}

// relayOf is the kernel fd relays to: the one import it calls, with its
// own parameters in their order, where it calls no other; else "".
func relayOf(fd *ast.FuncDecl, imports map[string][]bool) string {
	var params []string
	for _, p := range fd.Type.Params.List {
		for _, n := range p.Names {
			params = append(params, n.Name)
		}
	}
	kernel, other := "", false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		id, ok := call.Fun.(*ast.Ident)
		if !ok || imports[id.Name] == nil {
			return true
		}
		same := len(call.Args) == len(params)
		for i, a := range call.Args {
			v, ok := a.(*ast.Ident)
			same = same && ok && v.Name == params[i]
		}
		if !same || kernel != "" {
			other = true
		}
		kernel = id.Name
		return true
	})
	if other {
		return ""
	}
	return kernel
}

// isWasmImport reports whether fd is a //go:wasmimport function.
func isWasmImport(fd *ast.FuncDecl) bool {
	for _, c := range fd.Doc.List {
		if strings.HasPrefix(c.Text, "//go:wasmimport ") {
			return true
		}
	}
	return false
}

// isUnsafePointer reports whether e is unsafe.Pointer.
func isUnsafePointer(e ast.Expr) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "unsafe" && sel.Sel.Name == "Pointer"
}

// indices finds an index out of range wherever it lies: in the passes of
// sixteen, of four and after them, as n, as -1, as the least or the
// largest int32. max_index and maxIndex, the Go scan, agree on the
// maximum of every array, from every start, and indices panics alike,
// with the same message, with the scans in kernels.c and in Go.
func TestWasmIndices(t *testing.T) {
	if !loaded {
		t.Fatal("the SIMD kernels did not load: run with scripts/kernels-exec and PDN_KERNELS naming kernels.wasm")
	}
	for size := range 40 {
		idx := make([]int32, size)
		for k := range idx {
			idx[k] = int32(k % 7)
		}
		// maxima compares the two scans' maxima of idx[lo:].
		maxima := func(lo int, what string) {
			s := idx[lo:]
			if got, want := kMaxIndex(at(s, len(s), "idx"), int32(len(s))), maxIndex(s); got != want {
				t.Errorf("%s, from %d of %d: max_index %d, maxIndex %d", what, lo, size, got, want)
			}
		}
		maxima(0, "0..6")
		inC, inGo := scanPanics(func() { indices(idx, 0, size, 7, "idx") })
		if inC != nil || inGo != nil {
			t.Fatalf("%d indices in range: %v (kernels.c), %v (Go)", size, inC, inGo)
		}
		if size > 6 {
			inC, inGo := scanPanics(func() { indices(idx, 0, size, 6, "idx") })
			if !names(inC, "", "idx[6]") || fmt.Sprint(inC) != fmt.Sprint(inGo) {
				t.Errorf("%d indices, one 6 of 6: panic %v (kernels.c), %v (Go), want one naming idx[6]", size, inC, inGo)
			}
		}
		for k := range idx {
			for _, bad := range []int32{7, -1, math.MinInt32, math.MaxInt32, 6} {
				was := idx[k]
				idx[k] = bad
				what := fmt.Sprintf("idx[%d] = %d", k, bad)
				for lo := 0; lo <= min(k+1, size); lo++ {
					maxima(lo, what)
				}
				inC, inGo := scanPanics(func() { indices(idx, 0, size, 7, "idx") })
				switch {
				case bad == 6:
					if inC != nil || inGo != nil {
						t.Errorf("%s of %d, in range: %v (kernels.c), %v (Go)", what, size, inC, inGo)
					}
				case !names(inC, "", fmt.Sprintf("idx[%d]", k)) || fmt.Sprint(inC) != fmt.Sprint(inGo):
					t.Errorf("%s of %d: panic %v (kernels.c), %v (Go), want one naming idx[%d]", what, size, inC, inGo, k)
				}
				inC, inGo = scanPanics(func() { indices(idx, k+1, size, 7, "idx") })
				if inC != nil || inGo != nil {
					t.Errorf("%s, outside the scan from %d: %v (kernels.c), %v (Go)", what, k+1, inC, inGo)
				}
				idx[k] = was
			}
		}
	}
}

// rowPtrs finds a row pointer below the one before it wherever it lies,
// and a negative first, for row pointers of 32 and of 64 bits; it panics
// alike, with the same message, with the scans in kernels.c and in Go.
func TestWasmRowPtrs(t *testing.T) {
	if !loaded {
		t.Fatal("the SIMD kernels did not load: run with scripts/kernels-exec and PDN_KERNELS naming kernels.wasm")
	}
	t.Run("int32", testRowPtrs[int32])
	t.Run("int", testRowPtrs[int])
}

func testRowPtrs[I int32 | int](t *testing.T) {
	for size := 1; size <= 40; size++ {
		ptr := make([]I, size)
		for k := range ptr {
			ptr[k] = I(k / 3) // runs of equal values: empty rows
		}
		// scan checks rowPtrs(ptr, lo, size-1): a panic naming ptr[want]
		// ("" for none), the same from both scans.
		scan := func(lo int, what, want string) {
			t.Helper()
			var got [][2]int // first and last, from each scan that did not panic
			inC, inGo := scanPanics(func() {
				first, last := rowPtrs(ptr, lo, size-1, "ptr")
				got = append(got, [2]int{first, last})
			})
			if fmt.Sprint(inC) != fmt.Sprint(inGo) {
				t.Errorf("%s of %d, from %d: panic %v (kernels.c), %v (Go)", what, size, lo, inC, inGo)
			}
			switch {
			case want == "" && inC != nil:
				t.Errorf("%s of %d, from %d: %v", what, size, lo, inC)
			case want != "" && !names(inC, "", want):
				t.Errorf("%s of %d, from %d: panic %v, want one naming %s", what, size, lo, inC, want)
			}
			for _, fl := range got {
				if fl != [2]int{int(ptr[lo]), int(ptr[size-1])} {
					t.Errorf("%s of %d, from %d: first and last %v, want %d and %d", what, size, lo, fl, ptr[lo], ptr[size-1])
				}
			}
		}
		scan(0, "0, 0, 0, 1, …", "")
		for k := range ptr {
			was := ptr[k]
			ptr[k] = -1
			what := fmt.Sprintf("ptr[%d] = -1", k)
			scan(0, what, fmt.Sprintf("ptr[%d]", k)) // below the one before, or negative and first
			scan(k, what, fmt.Sprintf("ptr[%d]", k)) // negative and first
			if k+1 < size {
				scan(k+1, what, "")
			}
			ptr[k] = was
			if k+1 < size { // a pointer above the next: the next decreases
				ptr[k] = I(math.MaxInt32)
				scan(0, fmt.Sprintf("ptr[%d] = MaxInt32", k), fmt.Sprintf("ptr[%d]", k+1))
				scan(k+1, fmt.Sprintf("ptr[%d] = MaxInt32", k), "")
				ptr[k] = was
			}
		}
	}
}

// BenchmarkWasmChecks sets the checks of each kernel that scans an index
// array beside the kernel alone, on a graph of 4096 nodes and 40960 edges
// (20 entries a row), for the shares in wasm_simd128.go's comments: each
// turn times the kernel (called as its wrapper does, without the scans),
// then the wrapper's scans, and it reports both and their ratio.
func BenchmarkWasmChecks(b *testing.B) {
	rnd := rand.New(rand.NewPCG(1, 2))
	const n, e = 4096, 40960
	src, dst := make([]int32, e), make([]int32, e)
	for i := range src {
		src[i], dst[i] = rnd.Int32N(n), rnd.Int32N(n)
	}
	rowPtr := make([]int32, n+1)
	for i := range src {
		rowPtr[src[i]+1]++
		rowPtr[dst[i]+1]++
	}
	for i := range n {
		rowPtr[i+1] += rowPtr[i]
	}
	col, eid := make([]int32, 2*e), make([]int32, 2*e)
	atSrc, atDst := make([]int32, e), make([]int32, e)
	next := slices.Clone(rowPtr[:n])
	for i := range src {
		u, v := src[i], dst[i]
		col[next[u]], eid[next[u]], atSrc[i] = v, int32(i), next[u]
		next[u]++
		col[next[v]], eid[next[v]], atDst[i] = u, int32(i), next[v]
		next[v]++
	}
	coef, self, w := vals(e), vals(n), vals(e)
	dots, gCoef, gSelf := vals(2*e), make([]float64, e), make([]float64, n)
	deg, r, gR, gw := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, e)
	propagation := func() {
		first, last := rowPtrs(rowPtr, 0, n, "rowPtr")
		indices(col, first, last, n, "col")
		indices(eid, first, last, e, "eid")
	}
	edges := func() {
		indices(src, 0, e, n, "src")
		indices(dst, 0, e, n, "dst")
	}
	// run reports the kernel's time and its checks', alternating.
	run := func(name string, kernel, checks func()) {
		b.Run(name, func(b *testing.B) {
			var tk, tc time.Duration
			for range b.N {
				t0 := time.Now()
				kernel()
				t1 := time.Now()
				checks()
				tc += time.Since(t1)
				tk += t1.Sub(t0)
			}
			b.ReportMetric(float64(tk.Microseconds())/float64(b.N), "kernel-µs")
			b.ReportMetric(float64(tc.Microseconds())/float64(b.N), "checks-µs")
			b.ReportMetric(float64(tc)/float64(tk), "checks/kernel")
		})
	}
	for _, m := range []int{1, 4, 16, 64} {
		y, h, dy := make([]float64, n*m), vals(n*m), vals(n*m)
		run(fmt.Sprintf("propagate_rows/m=%d", m), func() {
			kPropagateRows(at(y, n*m, "y"), at(h, n*m, "h"), int32(m), 0, n, at(rowPtr, n+1, "rowPtr"), at(col, 2*e, "col"), at(eid, 2*e, "eid"),
				at(coef, e, "coef"), at(self, n, "self"))
		}, propagation)
		run(fmt.Sprintf("propagate_dots/m=%d", m), func() {
			kPropagateDots(at(y, n*m, "y"), at(dy, n*m, "dy"), at(h, n*m, "h"), int32(m), 0, n, at(rowPtr, n+1, "rowPtr"), at(col, 2*e, "col"),
				at(eid, 2*e, "eid"), at(coef, e, "coef"), at(self, n, "self"), at(dots, 2*e, "dots"), at(gSelf, n, "gSelf"))
		}, propagation)
		run(fmt.Sprintf("accumulate_edges/m=%d", m), func() {
			kAccumulateEdges(at(gCoef, e, "gCoef"), at(dy, n*m, "dy"), at(h, n*m, "h"), int32(m), 0, e, at(src, e, "src"), at(dst, e, "dst"))
		}, edges)
	}
	// A sparse n×1024 matrix of 20 non-zeros a row, as features are.
	const cols = 1024
	ptr, fcol, fval := make([]int, n+1), make([]int32, 20*n), vals(20*n)
	for i := range n {
		ptr[i+1] = 20 * (i + 1)
		for k := 20 * i; k < 20*(i+1); k++ {
			fcol[k] = rnd.Int32N(cols)
		}
	}
	sparse := func() {
		first, last := rowPtrs(ptr, 0, n, "ptr")
		indices(fcol, first, last, cols, "col")
	}
	for _, m := range []int{4, 16, 64} {
		c, bt := make([]float64, n*m), vals(cols*m)
		run(fmt.Sprintf("sp_mul_abt/m=%d", m), func() {
			kSpMulABT(at(c, n*m, "c"), at(ptr, n+1, "ptr"), at(fcol, 20*n, "col"), at(fval, 20*n, "val"), 0, n, at(bt, cols*m, "bt"), int32(m))
		}, sparse)
	}
	run("combine_dots", func() {
		kCombineDots(at(gCoef, e, "gCoef"), at(dots, 2*e, "dots"), at(atSrc, e, "atSrc"), at(atDst, e, "atDst"), 0, e)
	}, func() {
		indices(atSrc, 0, e, 2*e, "atSrc")
		indices(atDst, 0, e, 2*e, "atDst")
	})
	run("norm_forward", func() {
		kNormForward(at(deg, n, "deg"), at(r, n, "r"), at(self, n, "self"), at(coef, e, "coef"), at(w, e, "w"), n, e,
			at(rowPtr, n+1, "rowPtr"), at(eid, 2*e, "eid"), at(src, e, "src"), at(dst, e, "dst"))
	}, func() {
		first, last := rowPtrs(rowPtr, 0, n, "rowPtr")
		indices(eid, first, last, e, "eid")
		edges()
	})
	run("norm_backward", func() {
		kNormBackward(at(gw, e, "gw"), at(gR, n, "gR"), at(gSelf, n, "gSelf"), at(gCoef, e, "gCoef"), at(r, n, "r"), at(w, e, "w"), n, e,
			at(src, e, "src"), at(dst, e, "dst"))
	}, edges)
}

// BenchmarkWasmScans times the scans of n indices and n+1 row pointers in
// kernels.c and in Go, for the cost of a call into the
// kernels beside the scans' own.
func BenchmarkWasmScans(b *testing.B) {
	if !loaded {
		b.Fatal("the SIMD kernels did not load: run with scripts/kernels-exec and PDN_KERNELS naming kernels.wasm")
	}
	was := scanCFrom
	defer func() { scanCFrom = was }()
	for _, n := range []int{16, 64, 128, 256, 1024, 4096, 163840} {
		idx, ptr32, ptr := make([]int32, n), make([]int32, n+1), make([]int, n+1)
		for k := range idx {
			idx[k] = int32(k % 1000)
		}
		for k := range ptr {
			ptr32[k], ptr[k] = int32(k), k
		}
		for _, c := range []bool{true, false} {
			scanCFrom = scanFrom(c)
			where := "c"
			if !c {
				where = "go"
			}
			bench := func(name string, f func()) {
				b.Run(fmt.Sprintf("%s/n=%d/%s", name, n, where), func(b *testing.B) {
					for range b.N {
						f()
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/value")
				})
			}
			bench("indices", func() { indices(idx, 0, n, 1000, "idx") })
			bench("rowPtrs32", func() { rowPtrs(ptr32, 0, n, "ptr") })
			bench("rowPtrs64", func() { rowPtrs(ptr, 0, n, "ptr") })
		}
	}
}
