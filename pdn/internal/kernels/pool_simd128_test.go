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
	freshPool(t)
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

// A helper that dies holding no piece (asleep, as the one a batch does not
// let in, or between pieces) takes nothing from the batch: the batch's
// pieces all run and it still ends, in Batch's panic, rather than waiting
// for a piece nobody lost. Here the helper numbered 1, which a batch on 2
// threads does not let in, is said dead in the batch's first piece.
func TestPoolHelperDeathOutsideAPieceEndsTheBatch(t *testing.T) {
	freshPool(t)
	if !Pooled(3) || PoolHelpers() < 2 {
		t.Fatal("two helper threads did not start over the shared memory")
	}
	c := make([]float64, 8)
	got := func() (r any) {
		defer func() { r = recover() }()
		Batch(2, 4, func(p int) {
			if p == 0 {
				collect(fnHelperDied, i32(1))
			}
			MulABT(c[2*p:2*p+2], []float64{float64(p + 1)}, []float64{3, 4}, 1, 1, 2)
		})
		return nil
	}()
	if got != helperDied {
		t.Fatalf("a batch in which an idle helper died ended with %v, want the panic %q", got, helperDied)
	}
	if want := []float64{3, 4, 6, 8, 9, 12, 12, 16}; !slices.Equal(c, want) {
		t.Errorf("the batch's pieces gave %v, want %v: a live thread's piece was lost", c, want)
	}
	if Pooled(2) {
		t.Error("after a helper died the pool still takes products")
	}
}

// freshPool gives the test a pool of its own, whose helpers, numbered
// from 0, start at its first batch: a death ends a pool for good, so each
// test of one starts another (the last pool's live helpers sleep on its
// block, kept, for the rest of the process).
func freshPool(t *testing.T) {
	t.Helper()
	if os.Getenv("PDN_SHARED") != "1" {
		t.Skip("no shared memory: PDN_SHARED=1 runs it (make test-wasm)")
	}
	retired = append(retired, pool.ctl, pool.stacks)
	pool.ctl, pool.helpers, pool.stacks, pool.dead = nil, 0, nil, false
}

// retired keeps the blocks and stacks of the pools tests left: their
// helpers still sleep on them.
var retired []any
