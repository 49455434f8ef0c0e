//go:build !(amd64.v3 || arm64 || ppc64 || ppc64le || s390x || riscv64 || loong64)

package kernels

// fusedGo is false: Go's compiler does not fuse here (see fused_on.go).
//
//lint:ignore U1000 read by the vector exponentials (vec_simd.go), built on amd64 with GOEXPERIMENT=simd
const fusedGo = false
