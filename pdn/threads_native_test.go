//go:build !js

package pdn

import "testing"

// Natively UseThreads gives a run the goroutines it asks for, at least one.
func TestUseThreadsNatively(t *testing.T) {
	defer SetThreads(SetThreads(1))
	for n, want := range []int{1, 1, 2, 3, 4} {
		if got := UseThreads(n); got != want || Threads() != want {
			t.Errorf("UseThreads(%d) = %d (Threads %d), want %d", n, got, Threads(), want)
		}
	}
}
