//go:build !noasm && !gccgo && !safe && (amd64 || arm64)

package pdn

// gonumAsm reports that gonum runs its assembly kernels in this build.
const gonumAsm = true
