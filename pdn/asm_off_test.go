//go:build noasm || gccgo || safe || !(amd64 || arm64)

package pdn

// gonumAsm reports that gonum runs its assembly kernels in this build.
const gonumAsm = false

// asmPins are the digests of builds where gonum's assembly runs: none in
// this one, which gives the pins of golden_test.go.
var asmPins map[string]string
