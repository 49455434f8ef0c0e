package pdn

import "testing"

// The threads the page's worker script asks for are one, with its
// reason, wherever the kernels' pool is not linked, or the value is no
// whole number; at most 4.
func TestWorkerThreads(t *testing.T) {
	for _, c := range []struct {
		n, why  string
		pooled  bool
		threads int
		one     string
	}{
		{"1", "not-isolated", true, 1, "not-isolated"},
		{"1", "one-core", false, 1, "one-core"},
		{"", "", false, 1, ThreadsNotStarted},
		{"two", "", true, 1, ThreadsNotStarted},
		{"0x2", "", true, 1, ThreadsNotStarted},
		{"2", "", false, 1, ThreadsNotStarted},
		{"2", "", true, 2, ""},
		{"16", "", true, 4, ""},
	} {
		if n, why := workerThreads(c.n, c.why, c.pooled); n != c.threads || why != c.one {
			t.Errorf("workerThreads(%q, %q, %v) = %d, %q; want %d, %q", c.n, c.why, c.pooled, n, why, c.threads, c.one)
		}
	}
}
