package pdn

import (
	"math/rand/v2"
	"pdnexplorer/pdn/internal/kernels"
	"slices"
	"sync"
	"time"
)

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
// avx512 sets it instead of the measurement (vectorsSetting; a value it
// refuses, which the CLI refuses before it starts, is measured over).
func chooseWidth() {
	widthChoice.once.Do(func() {
		widths := kernels.Widths()
		named, _ := vectorsSetting()
		// The widths are timed in turns, several rounds, each keeping its
		// least time: a width timed once, first or after another, read up
		// to half again slower than it runs.
		widthChoice.times = map[string]time.Duration{}
		if named == "" && len(widths) > 1 {
			defer SetThreads(SetThreads(1))
			p := newProbe()
			for range probeRounds {
				for _, w := range widths {
					kernels.SetWidth(w)
					t := p.run()
					if was, ok := widthChoice.times[w]; !ok || t < was {
						widthChoice.times[w] = t
					}
				}
			}
		}
		widthChoice.chosen = pickWidth(named, widths, func(w string) time.Duration { return widthChoice.times[w] })
		kernels.SetWidth(widthChoice.chosen)
	})
}

// pickWidth is the width of widths (narrowest first) that named names, or
// else the one measure times fastest (the widest of equals).
func pickWidth(named string, widths []string, measure func(w string) time.Duration) string {
	if slices.Contains(widths, named) {
		return named
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

// probeRounds is how many times each width is timed, in turns.
const probeRounds = 4

// probe is the engine's hot loops at one epoch's shapes on a mid-sized
// graph: a layer's product (4,096×128 by 32), its weights' gradient, and a
// propagation of 32 columns over 32,768 edges. A run takes 2–7 ms here.
type probe struct {
	a, b, c, g, y []float64
	norm          *gcnNorm
}

const probeN, probeK, probeM, probeDeg = 4096, 128, 32, 8

func newProbe() *probe {
	rnd := rand.New(rand.NewPCG(1, 2))
	p := &probe{a: make([]float64, probeN*probeK), b: make([]float64, probeM*probeK), c: make([]float64, probeN*probeM),
		g: make([]float64, probeM*probeK), y: make([]float64, probeN*probeM)}
	for i := range p.a {
		p.a[i] = rnd.Float64() - 0.5
	}
	for i := range p.b {
		p.b[i] = rnd.Float64() - 0.5
	}
	src, dst := make([]int32, probeN*probeDeg), make([]int32, probeN*probeDeg)
	for e := range src {
		src[e], dst[e] = int32(e/probeDeg), int32(rnd.IntN(probeN))
		if dst[e] == src[e] {
			dst[e] = (src[e] + 1) % probeN
		}
	}
	p.norm = newGCNNorm(newAdjacency(probeN, src, dst))
	p.norm.forward(ones(len(src)))
	return p
}

// run times one pass of the probe's loops on one thread.
func (p *probe) run() time.Duration {
	var pc *pacer
	t0 := time.Now()
	pc.mulABT(p.c, p.a, p.b, probeN, probeK, probeM)
	pc.addATB(p.g, p.c, p.a, probeN, probeM, probeK)
	p.norm.propagate(p.y, p.c, probeM)
	return time.Since(t0)
}
