package kernels

// The widths the native kernels run at, from none to the widest.
const (
	Scalar = "scalar"
	AVX2   = "avx2"
	AVX512 = "avx512"
)

// Built reports whether this build has vector kernels: amd64, built with
// GOEXPERIMENT=simd and without the purego tag.
const Built = built

// Widths are the widths this build runs on this processor, narrowest
// first.
func Widths() []string { return widths() }

// SetWidth runs the kernels of width w, as far as the processor has them:
// Scalar runs every reference loop alone.
func SetWidth(w string) {
	setVectors(w != Scalar)
	setWide(w == AVX512)
}

// Vectors reports whether the AVX2 paths run.
func Vectors() bool { return vectors }

// SetWide turns the AVX-512 paths on (where the processor has them) or
// off, and returns the last setting: tests compare the widths with it.
func SetWide(on bool) bool { return setWide(on) }
