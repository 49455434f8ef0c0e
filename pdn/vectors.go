package pdn

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"

	"pdnexplorer/experiment"
	"pdnexplorer/pdn/internal/kernels"
)

// VectorsVar is the environment variable that sets the vector width the
// native engine runs at instead of its measurement (chooseWidth): auto
// (or unset) to measure, scalar, avx2 or avx512. It is read here and
// nowhere else (internal/rules checks), and a value the engine would not
// take is refused, never passed over: the CLI asks CheckVectors before it
// starts.
const VectorsVar = "PDN_VECTORS"

// Vector widths the native engine can run, from none to the widest, and
// the setting that measures them.
const (
	widthScalar = kernels.Scalar
	widthAVX2   = kernels.AVX2
	widthAVX512 = kernels.AVX512
	widthAuto   = "auto"
)

// vectorSettings are the values VectorsVar takes, in any build.
var vectorSettings = []string{widthAuto, widthScalar, widthAVX2, widthAVX512}

// vectorsSetting reads VectorsVar: the width it names, or "" to measure
// (unset, empty or auto). Any other value is an error naming the variable,
// the value and the values allowed; a width this build (kernels.Built) or
// this processor (kernels.Widths) does not have is an error saying so.
func vectorsSetting() (string, error) {
	v := os.Getenv(VectorsVar)
	if v == "" || v == widthAuto {
		return "", nil
	}
	have := kernels.Widths()
	switch {
	case !slices.Contains(vectorSettings, v):
		return "", fmt.Errorf("%s=%s is not allowed; want one of %s (unset is auto: the width measured fastest)", VectorsVar, experiment.Quote(v), strings.Join(vectorSettings, ", "))
	case slices.Contains(have, v):
		return v, nil
	case !kernels.Built:
		why := "it was built without GOEXPERIMENT=simd, or not for amd64"
		if kernels.PureGo {
			why = "it was built with the purego tag, which turns every platform path off"
		}
		return "", fmt.Errorf("%s=%s: this build has no vector kernels (%s), so it runs scalar only: unset %s, or set it to auto or scalar", VectorsVar, v, why, VectorsVar)
	}
	return "", fmt.Errorf("%s=%s: this processor has no %s; want one of %s", VectorsVar, v, v, strings.Join(append([]string{widthAuto}, have...), ", "))
}

// BuildNote says how this build differs from the one make build makes,
// and how to get that one; "" where it does not. A plain go build leaves
// out both of the Makefile's settings: GOEXPERIMENT=simd, without which
// an amd64 processor runs the engine's scalar loops (the same bits, about
// 2.5 times slower on large graphs), and gonum's noasm tag, without which
// gonum's assembly rounds otherwise than the browser's pure Go, so a
// graph drawn here differs from the page's in its last bits.
func BuildNote() string { return buildNote(kernels.Built, kernels.PureGo, runtime.GOARCH, gonumAsm) }

// buildNote is BuildNote of a build with or without the vector kernels
// (and, without them, with or without the purego tag that turned them
// off), for arch, with or without gonum's assembly.
func buildNote(vectorKernels, pureGo bool, arch string, gonumAsm bool) string {
	var lacks []string
	switch {
	case pureGo:
		lacks = append(lacks, "with the purego tag, so it runs the engine's reference loops alone (the same results, slower)")
	case !vectorKernels && arch == "amd64":
		lacks = append(lacks, "without GOEXPERIMENT=simd, so it runs the engine's scalar loops (the same results, about 2.5 times slower on large graphs)")
	}
	if gonumAsm {
		lacks = append(lacks, "without gonum's noasm tag, so its generated graphs differ from the page's in the last bits")
	}
	if len(lacks) == 0 {
		return ""
	}
	return "this pdn was built " + strings.Join(lacks, ", and ") + ": build it with make build (GOEXPERIMENT=simd go build -tags=noasm ./cmd/pdn)"
}

// CheckVectors reports whether VectorsVar holds a value the engine takes,
// and if not, what is wrong and what it takes.
func CheckVectors() error {
	_, err := vectorsSetting()
	return err
}
