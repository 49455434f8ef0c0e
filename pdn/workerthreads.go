package pdn

import (
	"os"

	"pdnexplorer/internal/numtext"
)

// ThreadsVar and ThreadsWhyVar are how the page's worker script
// (web/worker.js) tells the engine how many threads it gave it (the cores,
// up to 4, where the page is cross-origin isolated) and, where one, why.
const (
	ThreadsVar    = "PDN_THREADS"
	ThreadsWhyVar = "PDN_THREADS_WHY"
)

// ThreadsNotStarted is WorkerThreads' why where the script asked for
// more than one thread and got none: the kernels' threads build is not
// linked, or ThreadsVar is no whole number.
const ThreadsNotStarted = "no-threads"

// WorkerThreads reads the threads the worker script gave the engine and
// sets them (SetThreads): more than one only where the kernels run on a
// pool over a shared memory (KernelThreads), else one, with why (the
// script's ThreadsWhyVar, or ThreadsNotStarted); "" where more than one.
func WorkerThreads() (n int, why string) {
	n, why = workerThreads(os.Getenv(ThreadsVar), os.Getenv(ThreadsWhyVar), KernelThreads())
	SetThreads(n)
	return n, why
}

// workerThreads is WorkerThreads' reading of the variables' values,
// where pooled says whether the kernels' pool is linked.
func workerThreads(n, why string, pooled bool) (int, string) {
	t, err := numtext.ParseInt(n)
	switch {
	case err != nil || t < 2:
		if why == "" || err != nil && n != "" {
			why = ThreadsNotStarted
		}
		return 1, why
	case !pooled:
		return 1, ThreadsNotStarted
	}
	return min(t, 4), ""
}
