package pdn

import (
	"runtime"
	"sort"
	"sync"

	"pdnexplorer/datasets"
	"pdnexplorer/pdn/internal/kernels"
)

// Natively the dense and sparse products split their work across the
// cores: the rows of the output, or its columns where the sum runs over
// rows. Each entry is still one sum, taken in the same order, by one
// goroutine, so the bits do not depend on the number of threads, and equal
// the single-threaded WebAssembly worker's. Go's WebAssembly has one
// thread (GOMAXPROCS is 1): there the pieces run on the kernels' own
// threads where the worker has them (kernels.Pooled: a shared memory and
// kernels-threads.wasm), else in one piece or as goroutines taking turns.
//
// A training step must not allocate (its tests say so), so the pieces go
// to long-lived goroutines as spans of a pooled job, not as closures.

// threads is how many goroutines a product may use; tests change it.
var threads = runtime.GOMAXPROCS(0)

// SetThreads sets how many goroutines one product may use (at least 1) and
// returns the previous setting. A caller that trains several models at
// once, one per core, sets 1: split across cores as well, their products
// would queue for the same helpers. The bits do not depend on it.
func SetThreads(n int) (previous int) {
	previous, threads = threads, max(n, 1)
	return previous
}

// Threads returns how many goroutines one product may use now.
func Threads() int { return threads }

// UseThreads sets how many threads one product may use, at most n, and
// returns how many it will run on. Natively that is n. In the browser's
// worker (one Go thread) it is 1 plus the kernels' helper threads that
// started for it (kernels.Pooled), and 1 where the worker has none: its
// memory not shared (the page not cross-origin isolated) or no threads
// build of the kernels. The bits do not depend on it.
func UseThreads(n int) int {
	n = max(n, 1)
	switch {
	case kernels.GoThreads():
	case n < 2 || !kernels.Pooled(n):
		n = 1
	default:
		n = min(n, 1+kernels.PoolHelpers())
	}
	SetThreads(n)
	return n
}

// minSplitWork is the least work (multiply-adds) worth splitting: below
// it, handing pieces to other goroutines costs more than it saves.
var minSplitWork = float64(1 << 16)

// job is one product to split: run computes the piece [lo, hi) of it from
// the operands held here.
type job struct {
	run           func(j *job, lo, hi int)
	c, a, b, bt   []float64 // bt: bᵀ for the vector path, or nil
	keep, bias    []float64 // mulABTKeptRows: the rows to compute, the bias to add
	rectify       bool      // mulABTRows, mulABTKeptRows: ReLU after the bias
	sx            *datasets.CSR
	n, k, m, base int
	g             *gcnNorm     // the propagations' pieces: its Â
	padded        [][4]float64 // gcnNorm.propagate: Pad's rows
	pf            *pathfinder  // pathfinderForwardEdges, pathfinderBackwardUnits: the pathfinder
	byCols        bool         // split by columns: each piece reads all the rows
	rows          rowWork      // rows of uneven work (newRowsJob): pieces cut by it, not by count
	done          chan struct{}
}

// rowWork is the work of the rows of a sparse matrix, whose rows differ
// (a feature's nodes as uneven as a text's words, a hub's neighbours): up
// to row i, unit·(self·i + ptr[i]), ptr its row offsets (a CSR's, or an
// adjacency's ptr32). The zero rowWork is rows of one work each.
type rowWork struct {
	ptr   []int
	ptr32 []int32
	self  float64
	unit  float64
}

// csrRows is the work of a's rows, m units a non-zero.
func csrRows(a *datasets.CSR, m int) rowWork {
	return rowWork{ptr: a.Ptr, unit: float64(m)}
}

// at is the work of rows [0, i).
func (w rowWork) at(i int) float64 {
	if w.ptr32 != nil {
		return w.unit * (w.self*float64(i) + float64(w.ptr32[i]))
	}
	return w.unit * (w.self*float64(i) + float64(w.ptr[i]))
}

// uneven reports whether the rows' work is given.
func (w rowWork) uneven() bool { return w.unit > 0 }

// newRowsJob is newJob for a job over rows of uneven work w, whose
// pieces and blocks are cut where the work reaches each share (cut,
// pacer.blockEndRows), not by the rows' count: the one way a job over a
// sparse matrix's rows is made (TestSparseRowsAreCutByTheirWork).
func newRowsJob(run func(j *job, lo, hi int), w rowWork) *job {
	j := newJob(run)
	j.rows = w
	return j
}

// poolPieces is how many pieces a thread of the kernels' pool takes of a
// product split by rows: pieces are claimed as threads come free, so a
// thread that the page's own work holds back, or a piece that costs more,
// leaves the others less to wait for at the product's end. A product split
// by columns is cut once per thread: each piece reads all the rows.
const poolPieces = 4

var jobs = sync.Pool{New: func() any { return &job{done: make(chan struct{}, 64)} }}

// span is a piece of a job for a helper goroutine.
type span struct {
	j      *job
	lo, hi int
}

// helpers run spans; there are as many as the most threads asked, less one
// (the caller runs the first piece itself).
var helpers struct {
	sync.Mutex
	n     int
	spans chan span
}

func startHelpers(n int) {
	helpers.Lock()
	defer helpers.Unlock()
	if helpers.spans == nil {
		helpers.spans = make(chan span, 64)
	}
	for ; helpers.n < n; helpers.n++ {
		go func() {
			for s := range helpers.spans {
				s.j.run(s.j, s.lo, s.hi)
				s.j.done <- struct{}{}
			}
		}()
	}
}

// newJob returns a job from the pool set to run.
func newJob(run func(j *job, lo, hi int)) *job {
	j := jobs.Get().(*job)
	j.run = run
	return j
}

// split runs the job over [0, n) in contiguous pieces, at once on up to
// threads goroutines when work (its multiply-adds) is worth it, and
// returns the job to the pool.
func (j *job) split(n int, work float64) {
	p := min(threads, n, cap(j.done)+1)
	if p <= 1 || work < minSplitWork {
		j.run(j, 0, n)
	} else if kernels.Pooled(p) { // the browser's worker: its kernels' threads
		q := p
		if !j.byCols {
			q = min(n, p*poolPieces)
		}
		kernels.Batch(p, q, func(t int) { j.run(j, j.cut(t, q, n), j.cut(t+1, q, n)) })
	} else {
		startHelpers(p - 1)
		for t := 1; t < p; t++ {
			helpers.spans <- span{j, j.cut(t, p, n), j.cut(t+1, p, n)}
		}
		j.run(j, 0, j.cut(1, p, n))
		for t := 1; t < p; t++ {
			<-j.done
		}
	}
	j.c, j.a, j.b, j.bt, j.sx, j.keep, j.bias, j.rectify = nil, nil, nil, nil, nil, nil, nil, false
	j.g, j.padded, j.pf, j.byCols, j.rows = nil, nil, nil, false, rowWork{}
	jobs.Put(j)
}

// cut is where piece t of q of [0, n) starts: t·n/q, or, for rows of
// uneven work, the first row at or past t/q of the work of rows [base,
// base+n). Cut by their count, one piece of the sparse gradient took most
// of its non-zeros.
func (j *job) cut(t, q, n int) int {
	if !j.rows.uneven() || t == 0 || t == q {
		return t * n / q
	}
	w0, w1 := j.rows.at(j.base), j.rows.at(j.base+n)
	want := w0 + (w1-w0)*float64(t)/float64(q)
	return sort.Search(n, func(i int) bool { return j.rows.at(j.base+i) >= want })
}

// The pieces of each product, as jobs run them.

func mulABTRows(j *job, lo, hi int) {
	kernels.MulABTBias(j.c[lo*j.m:hi*j.m], j.a[lo*j.k:hi*j.k], j.b, j.bt, j.bias, hi-lo, j.k, j.m, j.rectify)
}

// mulABTKeptRows is mulABTRows for the rows whose keep is not zero only;
// the other rows are left as they were.
func mulABTKeptRows(j *job, lo, hi int) {
	kernels.MulABTKept(j.c[lo*j.m:hi*j.m], j.a[lo*j.k:hi*j.k], j.b, j.bt, j.bias, j.keep[lo:hi], hi-lo, j.k, j.m, j.rectify)
}

func addATBColsJob(j *job, lo, hi int) { kernels.AddATBCols(j.c, j.a, j.b, j.n, j.m, j.k, lo, hi) }

func addATBBlocksJob(j *job, lo, hi int) {
	kernels.AddATBBlocks(j.c, j.a, j.b, j.n, j.m, j.k, lo, hi)
}

func spMulABTRows(j *job, lo, hi int) {
	x := j.sx
	kernels.SpMulABT(j.c[lo*j.m:hi*j.m], x.Ptr, x.Col, x.Val, x.Cols, j.base+lo, j.base+hi, j.b, j.m)
}

func spAccumATBColsJob(j *job, lo, hi int) {
	x := j.sx
	kernels.SpAccumATBCols(j.c, j.a, x.Ptr, x.Col, x.Val, x.Cols, j.base, j.base+j.n, j.m, lo, hi)
}

// The propagation's pieces: rows of Â h (c = y, a = h), rows of the fused
// backward's Â dy with their dot products (c = y, a = dy, b = h), and
// edges of the gradients of Â's coefficients (a = dy, b = h); each entry
// one sum, in the order of one thread.

func propagateRowsJob(j *job, lo, hi int) {
	j.g.Rows(j.c, j.a, j.m, j.base+lo, j.base+hi, j.padded)
}

func propagateDotsJob(j *job, lo, hi int) {
	g, a := j.g, j.g.adj
	kernels.PropagateDots(j.c, j.a, j.b, a.n, j.m, j.base+lo, j.base+hi, a.rowPtr, a.col, a.eid, g.Coef, g.Self, g.dots, g.gSelf)
}

func combineDotsJob(j *job, lo, hi int) {
	kernels.CombineDots(j.g.gCoef, j.g.dots, j.g.atSrc, j.g.atDst, j.base+lo, j.base+hi)
}

func accumulateEdgesJob(j *job, lo, hi int) {
	a := j.g.adj
	kernels.AccumulateEdges(j.g.gCoef, j.a, j.b, a.n, j.m, j.base+lo, j.base+hi, a.src, a.dst)
}

// pathfinderBackwardUnits is the fused pathfinder's backward pass from
// gw (a) over the edges base..base+n-1, for the hidden units 8·lo up to
// 8·hi or the last.
func pathfinderBackwardUnits(j *job, lo, hi int) {
	p := j.pf
	l0, l1 := p.layers[0], p.layers[1]
	nh := l0.out
	kernels.Pathfinder1Backward(l0.w.grad, l0.b.grad, l1.w.grad, l1.b.grad, j.a, p.w, p.acts[1], p.acts[0], l1.w.val, j.base, j.base+j.n, l0.in, nh, min(8*lo, nh), min(8*hi, nh))
}

// pathfinderForwardEdges is the fused pathfinder's forward pass over a
// piece of the edges (keep: DropEdge's, or nil).
func pathfinderForwardEdges(j *job, lo, hi int) {
	p := j.pf
	l0, l1 := p.layers[0], p.layers[1]
	kernels.Pathfinder1Forward(p.acts[1], p.acts[2], p.w, p.acts[0], l0.wt, l0.b.val, l1.w.val, l1.b.val[0], j.keep, j.base+lo, j.base+hi, l0.in, l0.out)
}
