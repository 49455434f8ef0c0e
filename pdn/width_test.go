package pdn

import (
	"os"
	"testing"
	"time"

	"pdnexplorer/pdn/internal/kernels"
)

// The tests run every width the processor has, as its feature flags
// allow (eachWidth turns AVX-512 on and off): the measured choice is made
// for them already, at the widest, so that it cannot narrow what they
// check. With PDN_VECTORS set (a width, or auto to measure, as make
// bench-compare sets it) the engine chooses as it does outside tests, for
// benchmarks that time what it runs. A build without vectors has only the
// scalar width to choose.
func init() {
	if os.Getenv("PDN_VECTORS") == "" && kernels.Built {
		widthChoice.once.Do(func() { widthChoice.chosen = "flags" })
	}
}

// A width PDN_VECTORS names is taken (vectorsSetting refuses one the
// processor has not); else the one measured fastest, the widest of equals.
func TestPickWidth(t *testing.T) {
	widths := []string{widthScalar, widthAVX2, widthAVX512}
	times := map[string]time.Duration{widthScalar: 30, widthAVX2: 10, widthAVX512: 20}
	measure := func(w string) time.Duration { return times[w] }
	for _, c := range []struct{ env, want string }{
		{"", widthAVX2}, // an AVX-512 that runs slower than AVX2
		{"avx512", widthAVX512},
		{"scalar", widthScalar},
	} {
		if got := pickWidth(c.env, widths, measure); got != c.want {
			t.Errorf("PDN_VECTORS=%q: %s, want %s", c.env, got, c.want)
		}
	}
	times[widthAVX512] = 10
	if got := pickWidth("", widths, measure); got != widthAVX512 {
		t.Errorf("equal times: %s, want the widest", got)
	}
	if got := pickWidth("", widths[:1], measure); got != widthScalar {
		t.Errorf("scalar only: %s", got)
	}
}
