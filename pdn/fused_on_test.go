//go:build amd64.v3 || arm64 || ppc64 || ppc64le || s390x || riscv64 || loong64

package pdn

// fusedArch reports that Go's compiler fuses x*y + z into one rounding
// on this architecture (on amd64 from GOAMD64=v3 on): the engine's kernels
// write float64(x*y) to keep the bits, gonum's pure Go and the generator's
// draws do not, so such a build has pins of its own.
const fusedArch = true
