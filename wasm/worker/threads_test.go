package main

import (
	"testing"

	"pdnexplorer/wasm/protocol"
)

// The threads the page's worker script asks for are one, with its
// reason, wherever the kernels' threads build is not linked (natively
// always): a page that asked for two and got no pool says so.
func TestThreadsOf(t *testing.T) {
	for _, c := range []struct {
		n, why  string
		threads int
		one     string
	}{
		{"1", protocol.ThreadsNotIsolated, 1, protocol.ThreadsNotIsolated},
		{"1", protocol.ThreadsOneCore, 1, protocol.ThreadsOneCore},
		{"", "", 1, protocol.ThreadsFailed},
		{"two", "", 1, protocol.ThreadsFailed},
		{"2", "", 1, protocol.ThreadsFailed}, // no pool here
	} {
		if n, why := threadsOf(c.n, c.why); n != c.threads || why != c.one {
			t.Errorf("threadsOf(%q, %q) = %d, %q; want %d, %q", c.n, c.why, n, why, c.threads, c.one)
		}
	}
}
