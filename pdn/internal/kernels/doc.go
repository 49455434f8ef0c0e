// Package kernels holds the engine's hot loops and every platform path
// they have: the AVX2 and AVX-512 paths (Go's experimental simd/archsimd,
// amd64, GOEXPERIMENT=simd), the AVX-512 assembly of the pathfinder's two
// big products, and the WebAssembly SIMD kernels the browser's worker
// links (kernels.wasm, built from c/kernels.c; the simd128 tag). The
// engine, package pdn, calls only what this package exports; nothing
// outside it is platform code.
//
// Every kernel has a reference loop in plain Go, which runs everywhere
// and is the whole kernel where no platform path serves: an exported
// kernel runs its platform path over what it serves (the first entries,
// the first columns, whole rows) and its reference loop over the rest.
// Every path runs the reference loop's operations in its order, so every
// path gives the same bits:
//
//   - a product is rounded before it is added (float64(x*y): no path
//     fuses a multiply and an add into one rounding, which Go's compiler
//     would do on arm64 or with GOAMD64=v3);
//   - every sum runs in one fixed order: each entry of c = a·bᵀ is
//     (((0 + a₀b₀) + a₁b₁) + …) in order of k; Â h adds its row's terms
//     self first, then the neighbours in order; vector lanes run across
//     independent entries, never across the terms of one sum;
//   - exponentials are fmath.Exp's operations, lane by lane (where Go's
//     compiler fuses fmath.Exp's own products, GOAMD64=v3 or arm64, every
//     lane takes fmath.Exp itself: fused_on.go).
//
// A NaN's bits (its sign and payload) are not among the bits kept: a NaN
// comes out a NaN on every path, whichever NaN.
//
// The widths: Scalar (the reference loops alone), AVX2 (four float64
// lanes) and AVX512 (eight), as far as the processor has them; SetWidth
// chooses, and the engine measures which is fastest (pdn.VectorWidth). In
// the worker, SIMD128 reports whether kernels.wasm loaded.
//
// The purego build tag turns every platform path off: vectors, assembly
// and the WebAssembly kernels; the reference loops then run alone, with
// the same bits.
//
// An exported kernel is whole at every width and in every build: it checks
// itself that a platform path serves the shape before it takes one. A few
// predicates tell callers how to split work between threads (QuadsVec,
// WideBlocks) or which of two ways to the same bits is the faster here
// (FusedDots, FusedPathfinder: a fused pass over the edges, or the
// kernels it fuses); no kernel needs them.
//
// TestKernelsKeepTheirBandsAndBits runs every kernel on every path the
// build has (each width natively; the Go loops and kernels.wasm in the
// worker's build) on awkward values (zeros of both signs, infinities,
// subnormals, exponentials' edges, NaN) with each operand between guard
// bands: a path that writes outside its operands, changes an input, or
// differs from the reference loops in one bit (but a NaN's) fails it.
// TestEveryKernelHasItsRow fails for an exported kernel without its row
// there.
package kernels
