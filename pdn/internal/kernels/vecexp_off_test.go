//go:build !(goexperiment.simd && amd64) || purego

package kernels

import (
	"runtime"
	"testing"
)

// The vector kernels' bit tests (vecexp_test.go) build only with
// GOEXPERIMENT=simd on amd64, as the Makefile sets it; elsewhere this
// test says they did not run instead of leaving them out unseen.
func TestExpLanesKeepTheBits(t *testing.T) {
	t.Skipf("the vector kernels' bit tests need GOEXPERIMENT=simd on amd64 (this build: %s, without it), as the Makefile sets it; the kernels this build runs are the pure Go ones the other tests check", runtime.GOARCH)
}
