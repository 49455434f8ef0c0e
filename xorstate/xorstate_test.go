package xorstate

import (
	"fmt"
	"testing"
)

// The hand-set pathfinder is XOR on every state, and each state's key
// names its layers.
func TestHandSetIsXOR(t *testing.T) {
	for _, s := range States {
		if _, _, a := HandSet(s.A, s.B); a != float64(int(s.A)^int(s.B)) {
			t.Errorf("α%v = %v, want %v", s, a, int(s.A)^int(s.B))
		}
		if s.Key != fmt.Sprintf("%.0f%.0f", s.A, s.B) {
			t.Errorf("state (%v, %v) is keyed %q", s.A, s.B, s.Key)
		}
	}
}

func ExampleHandSet() {
	for _, s := range States {
		h1, h2, a := HandSet(s.A, s.B)
		fmt.Printf("(%g, %g): h₁ %g, h₂ %g, α %g\n", s.A, s.B, h1, h2, a)
	}
	// Output:
	// (0, 0): h₁ 0, h₂ 0, α 0
	// (0, 1): h₁ 1, h₂ 0, α 1
	// (1, 0): h₁ 1, h₂ 0, α 1
	// (1, 1): h₁ 2, h₂ 1, α 0
}
