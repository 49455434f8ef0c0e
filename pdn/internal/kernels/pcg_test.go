package kernels

import (
	"math/rand/v2"
	"testing"
)

// TestPCGBlockIsUint64 checks that pcgBlock gives the numbers math/rand/v2's
// PCG gives one by one, from several seeds, over blocks of several
// lengths, and leaves the source where they would.
func TestPCGBlockIsUint64(t *testing.T) {
	for _, seed := range [][2]uint64{{0, 0}, {1, 2}, {^uint64(0), ^uint64(0)}, {12345, 0x9e3779b97f4a7c15}} {
		p, q := rand.NewPCG(seed[0], seed[1]), rand.NewPCG(seed[0], seed[1])
		for _, n := range []int{4, 64, 8, 128} {
			raw := make([]uint64, n)
			pcgBlock(p, raw)
			for k, got := range raw {
				if want := q.Uint64(); got != want {
					t.Fatalf("seed %v, block of %d, number %d: %#x, want %#x", seed, n, k, got, want)
				}
			}
		}
		if got, want := p.Uint64(), q.Uint64(); got != want {
			t.Fatalf("seed %v: after the blocks, %#x, want %#x", seed, got, want)
		}
	}
}
