package pdn

import (
	"testing"

	"pdnexplorer/pdn/internal/kernels"
)

// Where goroutines have threads of their own (natively), UseThreads gives
// a run the threads it asks for, at least one. In the browser's
// WebAssembly it counts the pool's helpers instead
// (TestUseThreadsCountsTheHelpers).
func TestUseThreadsWhereGoHasThreads(t *testing.T) {
	if !kernels.GoThreads() {
		t.Skip("one Go thread: TestUseThreadsCountsTheHelpers checks UseThreads here")
	}
	defer SetThreads(SetThreads(1))
	for n, want := range []int{1, 1, 2, 3, 4} {
		if got := UseThreads(n); got != want || Threads() != want {
			t.Errorf("UseThreads(%d) = %d (Threads %d), want %d", n, got, Threads(), want)
		}
	}
}
