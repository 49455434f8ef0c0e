package pdn

import (
	"runtime"
	"sync"

	"pdnexplorer/datasets"
	"pdnexplorer/pdn/internal/kernels"
)

// Natively the dense and sparse products split their work across the
// cores: the rows of the output, or its columns where the sum runs over
// rows. Each entry is still one sum, taken in the same order, by one
// goroutine, so the bits do not depend on the number of threads, and equal
// the single-threaded WebAssembly worker's. Go's WebAssembly has one
// thread (GOMAXPROCS is 1), and so runs every product in one piece.
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
	done          chan struct{}
}

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
	} else {
		startHelpers(p - 1)
		for t := 1; t < p; t++ {
			helpers.spans <- span{j, t * n / p, (t + 1) * n / p}
		}
		j.run(j, 0, n/p)
		for t := 1; t < p; t++ {
			<-j.done
		}
	}
	j.c, j.a, j.b, j.bt, j.sx, j.keep, j.bias, j.rectify = nil, nil, nil, nil, nil, nil, nil, false
	jobs.Put(j)
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
