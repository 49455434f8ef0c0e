//go:build amd64.v3 || arm64 || ppc64 || ppc64le || s390x || riscv64 || loong64

package kernels

// fusedGo says Go's compiler fuses x*y + z into one rounding in this
// build (on amd64 from GOAMD64=v3 on), as it does in fmath.Exp, whose
// products are not written float64(x*y): the vector exponentials, which
// never fuse, would then round otherwise than the scalar one they stand
// for, and a build's bits would hang on the width it measured fastest.
// Here every lane takes fmath.Exp instead (expVec, expWide).
//
//lint:ignore U1000 read by the vector exponentials (vec_simd.go), built on amd64 with GOEXPERIMENT=simd
const fusedGo = true
