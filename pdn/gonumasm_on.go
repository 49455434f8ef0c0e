//go:build !noasm && !gccgo && !safe && (amd64 || arm64)

package pdn

// gonumAsm reports whether gonum runs its assembly kernels in this build
// (BuildNote; the tests that compare against gonum).
const gonumAsm = true
