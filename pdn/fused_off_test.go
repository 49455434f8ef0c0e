//go:build !(amd64.v3 || arm64 || ppc64 || ppc64le || s390x || riscv64 || loong64)

package pdn

// fusedArch reports that Go's compiler fuses x*y + z into one rounding
// on this architecture (see fused_on_test.go): not on this one.
const fusedArch = false
