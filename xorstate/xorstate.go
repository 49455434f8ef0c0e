// Package xorstate names the four states of an edge of the XOR graph
// (§4.1.1): whether it lies in layer A′ and in layer A″, as (a, b). An
// intra-class edge lies in exactly one layer, a ⊕ b = 1. It also holds
// Table 3's hand-set 2-neuron pathfinder, which solves XOR by folding the
// unit square:
//
//	h₁ = ReLU(a + b),  h₂ = ReLU(a + b − 1),  α = h₁ − 2h₂.
//
// It imports nothing of the engine, so the page, the CLI and the engine's
// lessons read the same states and the same solution.
package xorstate

import "math"

// State is one of the four states an XOR edge can be in.
type State struct {
	A, B float64 // in layer A′, in layer A″: 0 or 1
	Key  string  // "00", "01", "10" or "11": its name in metrics and tables
}

// States are the four states in Table 3's order, the order the engine
// reports per-state figures in.
var States = [4]State{{0, 0, "00"}, {0, 1, "01"}, {1, 0, "10"}, {1, 1, "11"}}

// HandSet is Table 3's hand-set solution for the state (a, b):
// h₁ = ReLU(a+b), h₂ = ReLU(a+b−1), α = h₁ − 2h₂, which is a ⊕ b on the
// four states.
func HandSet(a, b float64) (h1, h2, alpha float64) {
	h1, h2 = math.Max(a+b, 0), math.Max(a+b-1, 0)
	return h1, h2, h1 - 2*h2
}
