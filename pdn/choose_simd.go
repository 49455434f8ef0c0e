//go:build goexperiment.simd && amd64

package pdn

import (
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"simd/archsimd"
)

// Vector widths the native engine can run, from none to the widest.
const (
	widthScalar = "scalar"
	widthAVX2   = "avx2"
	widthAVX512 = "avx512"
)

// setVectors turns the AVX2 paths on (where the processor has them) or
// off, and returns the last setting.
func setVectors(on bool) bool {
	was := vectors
	vectors = on && archsimd.X86.AVX2()
	return was
}

// setWidth runs the paths of width w, as far as the processor has them.
func setWidth(w string) {
	setVectors(w != widthScalar)
	setWide(w == widthAVX512)
}

// widthChoice is made once, by the first trainer (chooseWidth).
var widthChoice struct {
	once   sync.Once
	chosen string
	times  map[string]time.Duration
}

// chooseWidth picks, once, the vector width the engine runs at by what
// this processor is measured to do, not by its feature flags alone: a
// processor may have AVX-512 and run it slower than AVX2 (a Xeon that
// lowers its clock for it), or run Go's vectors slower than its scalar
// loops. Every width gives the same bits (each lane runs its scalar loop's
// operations in order; TestVectorsKeepTheBits, the golden and zoo
// digests), so the choice changes speed only. PDN_VECTORS=scalar, avx2 or
// avx512 sets it instead of the measurement.
func chooseWidth() {
	widthChoice.once.Do(func() {
		widths := []string{widthScalar}
		if archsimd.X86.AVX2() {
			widths = append(widths, widthAVX2)
		}
		if archsimd.X86.AVX512() {
			widths = append(widths, widthAVX512)
		}
		widthChoice.times = map[string]time.Duration{}
		widthChoice.chosen = pickWidth(os.Getenv("PDN_VECTORS"), widths, func(w string) time.Duration {
			setWidth(w)
			widthChoice.times[w] = timeKernels()
			return widthChoice.times[w]
		})
		setWidth(widthChoice.chosen)
	})
}

// pickWidth is the width of widths (narrowest first) that env names, or
// else the one measure times fastest (the widest of equals).
func pickWidth(env string, widths []string, measure func(w string) time.Duration) string {
	if w := strings.ToLower(strings.TrimSpace(env)); slices.Contains(widths, w) {
		return w
	}
	best, bestTime := widths[len(widths)-1], time.Duration(1<<62)
	for _, w := range widths {
		if t := measure(w); t <= bestTime {
			best, bestTime = w, t
		}
	}
	return best
}

// VectorWidth is the width the engine runs at (after the first trainer:
// the measured choice), and the time each width took over the probe.
func VectorWidth() (string, map[string]time.Duration) {
	chooseWidth()
	return widthChoice.chosen, widthChoice.times
}

// timeKernels is the least time, over three tries, of the engine's hot
// loops at one epoch's shapes on a mid-sized graph, one thread: a layer's
// product (4,096×128 by 32), its weights' gradient, and a propagation of
// 32 columns over 32,768 edges. About 10 ms a width.
func timeKernels() time.Duration {
	defer SetThreads(SetThreads(1))
	const n, k, m, deg = 4096, 128, 32, 8
	rnd := rand.New(rand.NewPCG(1, 2))
	a, b, c := make([]float64, n*k), make([]float64, m*k), make([]float64, n*m)
	for i := range a {
		a[i] = rnd.Float64() - 0.5
	}
	for i := range b {
		b[i] = rnd.Float64() - 0.5
	}
	src, dst := make([]int32, n*deg), make([]int32, n*deg)
	for e := range src {
		src[e], dst[e] = int32(e/deg), int32(rnd.IntN(n))
		if dst[e] == src[e] {
			dst[e] = (src[e] + 1) % n
		}
	}
	norm := newGCNNorm(newAdjacency(n, src, dst))
	norm.forward(ones(len(src)))
	g, y := make([]float64, m*k), make([]float64, n*m)
	var pc *pacer
	best := time.Duration(1 << 62)
	for range 3 {
		t0 := time.Now()
		pc.mulABT(c, a, b, n, k, m)
		pc.addATB(g, c, a, n, m, k)
		norm.propagate(y, c, m)
		best = min(best, time.Since(t0))
	}
	return best
}
