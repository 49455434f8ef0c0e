//go:build js && wasm && simd128 && !purego

package kernels

import (
	"math"
	"unsafe"
)

// The pool runs a product's pieces on helper threads (issue 58). Go's
// WebAssembly has one thread, so a piece cannot be a goroutine here: where
// the worker's memory is shared (web/shared.js) and kernels-threads.wasm
// is linked, a split product (pdn's job.split) instead collects each
// piece's calls into kernels.c, with their arguments, and pool_run hands
// the pieces to this thread and the helpers, each a thread with its own
// instance of the kernels over this memory (c/kernels.c's pool). The
// wrappers check every address as before (at, opt), at collection; the
// operands stay where they are, reachable from the caller, and nothing of
// Go runs while the pool does, so no collector moves or frees them.
//
// A piece may only read what no call of the same piece writes before it
// runs, where it runs Go between two calls: the calls run later, in
// order. The pieces pdn splits are one product each, and a product's Go
// before its call (wasmMulABT's transpose) reads only its inputs.

//go:wasmimport pdnkernels pool_threads
func kPoolThreads() int32

//go:wasmimport pdnkernels pool_run
func kPoolRun(pool, calls, pieces unsafe.Pointer, n, active int32) int32

// kSpawnHelpers starts n helpers of pool, numbered from first, each on
// its stack top of stacks, and returns how many started.
//
//go:wasmimport pdnkernels spawn_helpers
func kSpawnHelpers(pool unsafe.Pointer, n int32, stacks unsafe.Pointer, first int32) int32

// The functions of kernels.c that a piece may call (run_call's numbers).
const (
	fnMulABT int32 = 1 + iota
	fnMulABTNarrow
	fnAddATB
	fnSpMulABT
	fnSpAccumATB
	fnRelu
	fnPropagateRows
	fnPropagateDots
	fnCombineDots
	fnAccumulateEdges
	fnPathfinder1Forward
	fnPathfinder1Backward
	fnTrapOnHelper // tests: traps on a helper (c/kernels.c's trap_on_helper)
	fnHelperDied   // tests: says helper a[0] died (c/kernels.c's pool_helper_died)
)

// call is c/kernels.c's call: 128 bytes, its arguments 64 bits each.
type call struct {
	fn, _ int32
	a     [15]uint64
}

// ctlWords is the size of c/kernels.c's pool, in 8 bytes.
const ctlWords = 6

// maxHelpers is the most helpers a pool has: the bits of its holding word
// (c/kernels.c), one a helper.
const maxHelpers = 32

// helperStack is each helper's C stack, as kernelsStack is this thread's.
const helperStack = 64 << 10

var pool struct {
	ctl        []uint64 // c/kernels.c's pool: 48 bytes, 8-aligned for its claim
	calls      []call
	pieces     []int32
	collecting bool
	helpers    int      // started
	stacks     [][]byte // theirs, kept while they live
	tops       []uint32
	off        bool // tests run the products without the pool
	dead       bool // a helper died in a batch: no batch runs again
}

// Pooled reports whether a product split in p pieces runs on the pool:
// in the threads build, with helpers started (as many as p−1, started
// here once; each starts in the background and joins the batches once
// up). Where it says no, pieces run as goroutines, on this one thread.
func Pooled(p int) bool {
	if !simd128 || pool.off || pool.dead || p < 2 || kPoolThreads() == 0 {
		return false
	}
	if pool.ctl == nil {
		pool.ctl = make([]uint64, ctlWords)
	}
	if want := min(p-1, maxHelpers); pool.helpers < want {
		start := pool.helpers
		pool.tops = pool.tops[:0]
		for range want - start {
			s := make([]byte, helperStack)
			pool.stacks = append(pool.stacks, s)
			top := uint32(uintptr(at(s, len(s), "stack"))+uintptr(len(s))) &^ 15
			pool.tops = append(pool.tops, top)
		}
		n := kSpawnHelpers(at(pool.ctl, ctlWords, "pool"), size(len(pool.tops), "helpers"), at(pool.tops, len(pool.tops), "tops"), size(start, "helpers"))
		pool.helpers += int(n)
		pool.stacks = pool.stacks[:pool.helpers]
	}
	return pool.helpers > 0
}

// PoolHelped is the number of pieces the helper threads have run, ever:
// tests see that the pool ran on more than this thread.
func PoolHelped() int {
	if pool.ctl == nil {
		return 0
	}
	return int(int32(pool.ctl[1] >> 32)) // the C pool's helped, after quit
}

// PoolHelpers is the number of helper threads started.
func PoolHelpers() int { return pool.helpers }

// SetPool turns the pool off (tests that compare it with the goroutines)
// or back on, and returns the last setting.
func SetPool(on bool) bool {
	was := !pool.off
	pool.off = !on
	return was
}

// Batch runs piece(0) … piece(p−1) on the pool, on this thread and at
// most threads−1 helpers: each piece collects its calls, then the pool
// runs them, a piece on one thread, its calls in order.
func Batch(threads, p int, piece func(t int)) {
	pool.calls = pool.calls[:0]
	pool.pieces = append(pool.pieces[:0], 0)
	pool.collecting = true
	for t := range p {
		piece(t)
		pool.pieces = append(pool.pieces, int32(len(pool.calls)))
	}
	pool.collecting = false
	if len(pool.calls) == 0 {
		return
	}
	if kPoolRun(at(pool.ctl, ctlWords, "pool"), at(pool.calls, len(pool.calls), "calls"), at(pool.pieces, p+1, "pieces"), size(p, "pieces"), size(threads-1, "helpers")) != 0 {
		pool.dead = true
		panic(helperDied)
	}
}

// helperDied is Batch's panic when a helper thread trapped in a piece (its
// host's console has the fault): the piece's output is lost, so the
// product is wrong and the run cannot go on; the page's worker ends, and
// the page starts another in its place.
const helperDied = "kernels: a helper thread of the pool died in a piece of a product (its fault is in the console); the product's output is lost"

// collect keeps a call for the batch, its arguments in order.
func collect(fn int32, args ...uint64) {
	c := call{fn: fn}
	copy(c.a[:], args)
	pool.calls = append(pool.calls, c)
}
func addr(p unsafe.Pointer) uint64 { return uint64(uintptr(p)) }
func i32(v int32) uint64           { return uint64(uint32(v)) }

// The kernels a piece may call: each is the kernel, or, while a batch
// collects, that call kept for it.

func mulABTCall(c, a, bt, bias, keep unsafe.Pointer, n, k, m int32) {
	if pool.collecting {
		collect(fnMulABT, addr(c), addr(a), addr(bt), addr(bias), addr(keep), i32(n), i32(k), i32(m))
		return
	}
	kMulABT(c, a, bt, bias, keep, n, k, m)
}

func mulABTNarrowCall(c, a, b, bias, keep unsafe.Pointer, n, k int32) {
	if pool.collecting {
		collect(fnMulABTNarrow, addr(c), addr(a), addr(b), addr(bias), addr(keep), i32(n), i32(k))
		return
	}
	kMulABTNarrow(c, a, b, bias, keep, n, k)
}

func addATBCall(c, a, b unsafe.Pointer, n, m, k, j0, j1 int32) {
	if pool.collecting {
		collect(fnAddATB, addr(c), addr(a), addr(b), i32(n), i32(m), i32(k), i32(j0), i32(j1))
		return
	}
	kAddATB(c, a, b, n, m, k, j0, j1)
}

func spMulABTCall(c, ptr, col, val unsafe.Pointer, lo, hi int32, bt unsafe.Pointer, m int32) {
	if pool.collecting {
		collect(fnSpMulABT, addr(c), addr(ptr), addr(col), addr(val), i32(lo), i32(hi), addr(bt), i32(m))
		return
	}
	kSpMulABT(c, ptr, col, val, lo, hi, bt, m)
}

func spAccumATBCall(ct, a, ptr, col, val unsafe.Pointer, lo, hi, m, o0, o1 int32) {
	if pool.collecting {
		collect(fnSpAccumATB, addr(ct), addr(a), addr(ptr), addr(col), addr(val), i32(lo), i32(hi), i32(m), i32(o0), i32(o1))
		return
	}
	kSpAccumATB(ct, a, ptr, col, val, lo, hi, m, o0, o1)
}

func reluCall(y, x unsafe.Pointer, n int32) {
	if pool.collecting {
		collect(fnRelu, addr(y), addr(x), i32(n))
		return
	}
	kRelu(y, x, n)
}

func propagateRowsCall(y, h unsafe.Pointer, m, lo, hi int32, rowPtr, col, eid, coef, self unsafe.Pointer) {
	if pool.collecting {
		collect(fnPropagateRows, addr(y), addr(h), i32(m), i32(lo), i32(hi), addr(rowPtr), addr(col), addr(eid), addr(coef), addr(self))
		return
	}
	kPropagateRows(y, h, m, lo, hi, rowPtr, col, eid, coef, self)
}

func propagateDotsCall(y, dy, h unsafe.Pointer, m, lo, hi int32, rowPtr, col, eid, coef, self, dots, gSelf unsafe.Pointer) {
	if pool.collecting {
		collect(fnPropagateDots, addr(y), addr(dy), addr(h), i32(m), i32(lo), i32(hi), addr(rowPtr), addr(col), addr(eid), addr(coef), addr(self), addr(dots), addr(gSelf))
		return
	}
	kPropagateDots(y, dy, h, m, lo, hi, rowPtr, col, eid, coef, self, dots, gSelf)
}

func combineDotsCall(gCoef, dots, atSrc, atDst unsafe.Pointer, lo, hi int32) {
	if pool.collecting {
		collect(fnCombineDots, addr(gCoef), addr(dots), addr(atSrc), addr(atDst), i32(lo), i32(hi))
		return
	}
	kCombineDots(gCoef, dots, atSrc, atDst, lo, hi)
}

func accumulateEdgesCall(gCoef, dy, h unsafe.Pointer, m, lo, hi int32, src, dst unsafe.Pointer) {
	if pool.collecting {
		collect(fnAccumulateEdges, addr(gCoef), addr(dy), addr(h), i32(m), i32(lo), i32(hi), addr(src), addr(dst))
		return
	}
	kAccumulateEdges(gCoef, dy, h, m, lo, hi, src, dst)
}

func pathfinder1ForwardCall(h, s, w, z, w1t, b1, w2 unsafe.Pointer, b2 float64, keep unsafe.Pointer, lo, hi, d, nh int32) {
	if pool.collecting {
		collect(fnPathfinder1Forward, addr(h), addr(s), addr(w), addr(z), addr(w1t), addr(b1), addr(w2), math.Float64bits(b2), addr(keep), i32(lo), i32(hi), i32(d), i32(nh))
		return
	}
	kPathfinder1Forward(h, s, w, z, w1t, b1, w2, b2, keep, lo, hi, d, nh)
}

func pathfinder1BackwardCall(gw1, gb1, gw2, gb2, gw, w, h, z, w2 unsafe.Pointer, lo, hi, d, nh, j0, j1 int32) {
	if pool.collecting {
		collect(fnPathfinder1Backward, addr(gw1), addr(gb1), addr(gw2), addr(gb2), addr(gw), addr(w), addr(h), addr(z), addr(w2), i32(lo), i32(hi), i32(d), i32(nh), i32(j0), i32(j1))
		return
	}
	kPathfinder1Backward(gw1, gb1, gw2, gb2, gw, w, h, z, w2, lo, hi, d, nh, j0, j1)
}
