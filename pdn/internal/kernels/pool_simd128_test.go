//go:build js && wasm && simd128 && !purego

package kernels

import (
	"os"
	"slices"
	"testing"
)

// A helper thread that faults in a piece does not leave the engine's
// thread waiting for ever for it: the batch ends in Batch's panic, which
// ends the page's worker, and no later product is handed to the pool. The
// piece traps on a helper whichever thread claims first (trap_on_helper).
func TestPoolHelperDeathEndsTheBatch(t *testing.T) {
	if os.Getenv("PDN_SHARED") != "1" {
		t.Skip("no shared memory: PDN_SHARED=1 runs it (make test-wasm)")
	}
	if !Pooled(2) {
		t.Fatal("no helper thread started over the shared memory")
	}
	got := func() (r any) {
		defer func() { r = recover() }()
		Batch(2, 2, func(int) { collect(fnTrapOnHelper) })
		return nil
	}()
	if got != helperDied {
		t.Fatalf("a batch whose helper trapped ended with %v, want the panic %q", got, helperDied)
	}
	if Pooled(2) {
		t.Error("after a helper died the pool still takes products")
	}
	c := make([]float64, 4)
	MulABT(c, []float64{1, 2}, []float64{3, 4}, 2, 1, 2)
	if want := []float64{3, 4, 6, 8}; !slices.Equal(c, want) {
		t.Errorf("a product after the pool died: %v, want %v", c, want)
	}
}
