package pdn

import (
	"sort"

	"pdnexplorer/datasets"

	"pdnexplorer/pdn/internal/kernels"
)

// pacer lets a long epoch be cut into pieces. The loops that can be long
// (dense products over edges or nodes, propagation over the graph) run in
// blocks of rows and report their work between blocks; every paceEvery
// units the pacer calls its function, which may do anything, even block
// for a while: the browser's worker yields to its event loop there, so that
// a pause acts within the epoch and the page sees the epoch's progress.
//
// Blocks of dense rows are whole multiples of four rows, and the kernels
// fold rows in groups of at most four, in order, so a blocked product adds
// the same numbers in the same order as an unblocked one. Blocks of sparse
// rows (blockEndRows) end at any row: their kernels take each row on its
// own (its own sum, or each non-zero added straight to its entry, in
// order). So pacing never changes a bit. A nil *pacer runs every loop in
// one block and calls nothing.
type pacer struct {
	fn    func(done float64) // called with the units done so far this epoch
	on    bool               // only training steps are paced
	done  float64            // units done since the epoch began
	next  float64            // call fn when done reaches this
	block float64            // units a block holds; 0 is blockUnits
	every float64            // units between two calls; 0 is paceEvery
}

const (
	// paceEvery is how much work runs between two calls of the pacer's
	// function: about a millisecond under WebAssembly.
	paceEvery = 1e6
	// blockUnits is about how much work a block of rows holds: about 4 ms
	// on one thread, so the pacer is called every block, and a pause
	// still acts within the worker's 50 ms chunk. Each block of a product
	// split across threads is one batch of the kernels' pool, which costs
	// a hand-over and a wait at its end: blocks of 2.5e5 units cut the
	// Facebook-shaped epoch into hundreds of batches, and 2 threads in the
	// page trained no faster than one (engine rate 19-20 epochs/s either
	// way; 22-25 on 2 threads with these blocks).
	blockUnits = 4e6
)

// start begins an epoch's count.
func (pc *pacer) start() {
	if pc != nil {
		pc.done, pc.on = 0, pc.fn != nil
		pc.next = pc.interval()
	}
}

// stop ends pacing until the next start (evaluation is not paced).
func (pc *pacer) stop() {
	if pc != nil {
		pc.on = false
	}
}

func (pc *pacer) interval() float64 {
	if pc.every == 0 {
		return paceEvery
	}
	return pc.every
}

// tick records units of work done.
func (pc *pacer) tick(units float64) {
	if pc == nil || !pc.on {
		return
	}
	pc.done += units
	if pc.done >= pc.next {
		pc.next = pc.done + pc.interval()
		pc.fn(pc.done)
	}
}

// blockEnd returns the end of the block of rows that starts at lo, of n
// rows that cost perRow units each: a multiple of four rows after lo, or n.
func (pc *pacer) blockEnd(lo, n int, perRow float64) int {
	if pc == nil || !pc.on || perRow <= 0 {
		return n
	}
	size := pc.block
	if size == 0 {
		size = blockUnits
	}
	rows := max(4, int(size/perRow)/4*4)
	return min(n, lo+rows)
}

// blockEndRows is blockEnd for n rows of uneven work w: a block ends
// where its work reaches the block's units, not where their mean would (a
// hub's row, Xᵀ's commonest feature), and holds one row at least.
func (pc *pacer) blockEndRows(lo, n int, w rowWork) int {
	if pc == nil || !pc.on {
		return n
	}
	size := pc.block
	if size == 0 {
		size = blockUnits
	}
	start := w.at(lo)
	hi := lo + sort.Search(n-lo, func(i int) bool { return w.at(lo+i+1)-start > size })
	return min(n, max(hi, lo+1))
}

// mulABT is mulABT in blocks of rows of a (and c).
func (pc *pacer) mulABT(c, a, b []float64, n, k, m int) {
	pc.mulABTKept(c, a, b, nil, nil, n, k, m, false)
}

// mulABTKept is mulABT in blocks of rows plus the bias (if not nil), then
// ReLU if relu, for the rows i with keep[i] ≠ 0 only, leaving the other
// rows as they were; a nil keep is every row.
func (pc *pacer) mulABTKept(c, a, b, bias, keep []float64, n, k, m int, rectify bool) {
	run := mulABTRows
	if keep != nil {
		run = mulABTKeptRows
	}
	per := float64(k * m)
	bt, buf := kernels.TransposedForVectors(b, m, k)
	for lo := 0; lo < n; {
		hi := pc.blockEnd(lo, n, per)
		var kept []float64
		if keep != nil {
			kept = keep[lo:hi]
		}
		j := newJob(run)
		j.c, j.a, j.b, j.bt, j.bias, j.keep, j.k, j.m, j.rectify = c[lo*m:hi*m], a[lo*k:hi*k], b, bt, bias, kept, k, m, rectify
		j.split(hi-lo, float64(hi-lo)*per)
		pc.tick(float64(hi-lo) * per)
		lo = hi
	}
	kernels.ReleaseTransposed(buf)
}

// foldStreams is the number of rows past which a wide fold's b no longer
// stays in the caches, and its threads split b's columns, not c's rows.
const foldStreams = 1 << 14

// addATB is addATB in blocks of rows of a and b.
func (pc *pacer) addATB(c, a, b []float64, n, m, k int) {
	per := float64(m * k)
	for lo := 0; lo < n; {
		hi := pc.blockEnd(lo, n, per)
		if blocks, ok := kernels.WideBlocks(k); ok && hi-lo >= foldStreams {
			// Split by b's columns, so that each thread reads its share of b
			// once (see kernels.AddATBBlocks): for a fold over many rows (the
			// pathfinder's edges), whose b is read from memory.
			j := newJob(addATBBlocksJob)
			j.c, j.a, j.b, j.n, j.m, j.k, j.byCols = c, a[lo*m:hi*m], b[lo*k:hi*k], hi-lo, m, k, true
			j.split(blocks, float64(hi-lo)*per)
		} else {
			j := newJob(addATBColsJob)
			j.c, j.a, j.b, j.n, j.m, j.k, j.byCols = c, a[lo*m:hi*m], b[lo*k:hi*k], hi-lo, m, k, true
			j.split(m, float64(hi-lo)*per)
		}
		pc.tick(float64(hi-lo) * per)
		lo = hi
	}
}

// affineForward sets y = x·Wᵀ + b, then ReLU(y) if rectify, for dense x or
// sparse sx, using wt as scratch for Wᵀ.
func (pc *pacer) affineForward(y, x []float64, sx *datasets.CSR, w, wt, b []float64, rows, in, out int, rectify bool) {
	if sx == nil {
		// The bias as each entry's last step, the same sum as kernels.AddRows
		// after, and the ReLU as it is stored: one pass over y, not three.
		pc.mulABTKept(y, x, w, b, nil, rows, in, out, rectify)
		return
	}
	pc.xMulWT(y, x, sx, w, wt, rows, in, out)
	kernels.AddRows(y, b, rows, out)
	if rectify {
		kernels.Relu(y, y)
	}
}

// affineBackward adds dyᵀ·x to ∂W and Σdy to ∂b (unless b is nil) and, unless dx is nil,
// sets dx = dy·W, using wt as scratch for Wᵀ. A sparse input sx is data,
// so dx is nil with it.
func (pc *pacer) affineBackward(dx, x []float64, sx *datasets.CSR, xt *transposed, dy []float64, w, b *tensor, wt []float64, rows, in, out int) {
	pc.addGTX(w.grad, dy, x, sx, xt, wt, rows, out, in)
	if b != nil {
		kernels.SumRowsAdd(b.grad, dy, rows, out)
	}
	if dx != nil {
		kernels.Transpose(wt, w.val, out, in)
		pc.mulABT(dx, dy, wt, rows, out, in)
	}
}
