package pdn

import (
	"pdnexplorer/pdn/internal/kernels"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// PDN_VECTORS is one of auto, scalar, avx2 and avx512, exactly, and a
// width this build and processor run; anything else is refused, naming
// the variable and what it takes (audit 125), and a width a build without
// vector kernels does not have says so (audit 126).
func TestVectorsSetting(t *testing.T) {
	for _, c := range []struct{ env, want, err string }{
		{"", "", ""},
		{"auto", "", ""},
		{"scalar", widthScalar, ""},
		{"bogus", "", `PDN_VECTORS="bogus" is not allowed; want one of auto, scalar, avx2, avx512`},
		{"0", "", `PDN_VECTORS="0" is not allowed`},
		{"AVX2 ", "", `PDN_VECTORS="AVX2 " is not allowed`},
		{"Auto", "", `PDN_VECTORS="Auto" is not allowed`},
	} {
		t.Setenv(VectorsVar, c.env)
		got, err := vectorsSetting()
		if got != c.want || (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("PDN_VECTORS=%q: %q, %v; want %q, %q", c.env, got, err, c.want, c.err)
		}
		if (CheckVectors() == nil) != (c.err == "") {
			t.Errorf("PDN_VECTORS=%q: CheckVectors %v", c.env, CheckVectors())
		}
	}
	for _, w := range []string{widthAVX2, widthAVX512} {
		t.Setenv(VectorsVar, w)
		got, err := vectorsSetting()
		switch {
		case slices.Contains(kernels.Widths(), w):
			if got != w || err != nil {
				t.Errorf("PDN_VECTORS=%s on a processor that has it: %q, %v", w, got, err)
			}
		case !kernels.Built:
			if err == nil || !strings.Contains(err.Error(), "this build has no vector kernels") {
				t.Errorf("PDN_VECTORS=%s in a build without vector kernels: %v", w, err)
			}
		default:
			if err == nil || !strings.Contains(err.Error(), "this processor has no "+w) {
				t.Errorf("PDN_VECTORS=%s on a processor without it: %v", w, err)
			}
		}
	}
}

// A build says at start what make build's settings it lacks, and how to
// get them; the Makefile's own build says nothing.
func TestBuildNote(t *testing.T) {
	for _, tc := range []struct {
		vectors, pureGo bool
		arch            string
		asm             bool
		want            []string
	}{
		{true, false, "amd64", false, nil},
		{false, false, "arm64", false, nil},
		{false, false, "amd64", false, []string{"GOEXPERIMENT=simd", "scalar loops", "make build"}},
		{true, false, "amd64", true, []string{"noasm", "last bits", "make build"}},
		{false, false, "amd64", true, []string{"GOEXPERIMENT=simd", "noasm", "make build"}},
		{false, true, "amd64", false, []string{"purego", "reference loops", "make build"}},
		{false, true, "arm64", false, []string{"purego", "make build"}},
	} {
		got := buildNote(tc.vectors, tc.pureGo, tc.arch, tc.asm)
		if (got == "") != (tc.want == nil) {
			t.Errorf("%+v: %q", tc, got)
		}
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%+v: %q does not say %q", tc, got, w)
			}
		}
	}
	if runtime.GOARCH == "amd64" && kernels.Built && !gonumAsm && BuildNote() != "" {
		t.Errorf("make build's own build says %q", BuildNote())
	}
}
