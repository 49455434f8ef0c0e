package pdn

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"pdnexplorer/datasets"
)

// One step moves the context vectors of the edge's target and of the
// negatives by ρ·(label − σ(c·u))·u, each scored after the steps before
// it, and the vertex vector u by the sum of ρ·(label − σ(c·u))·c: the
// negative gradient of −log σ(c_j·u_i) − Σ log σ(−c_n·u_i). Both paths:
// six distinct targets (the kernels), and targets that repeat (one by
// one), the edge's own among the negatives too.
func TestLINEStepIsTheGradient(t *testing.T) {
	g := &datasets.Graph{N: 7, Src: []int32{0, 1, 2, 3, 4, 5}, Dst: []int32{1, 2, 3, 4, 5, 6}}
	for _, targets := range [][1 + lineNegatives]int32{{1, 2, 3, 4, 5, 6}, {1, 6, 6, 6, 6, 6}, {1, 1, 2, 1, 0, 3}} {
		m := newLINE(g, 3)
		rnd := rand.New(rand.NewPCG(5, 6))
		for i := range m.ctx {
			m.ctx[i] = float32(rnd.NormFloat64() / 8)
			m.in[i] = float32(rnd.NormFloat64() / 8)
		}
		vec := func(a []float32, v int32) []float64 {
			r := make([]float64, LINEDim)
			for k := range r {
				r[k] = float64(a[int(v)*LINEDim+k])
			}
			return r
		}
		const i, lr = 0, 0.02
		u := vec(m.in, i)
		ctx := map[int32][]float64{}
		for _, c := range targets {
			ctx[c] = vec(m.ctx, c)
		}
		var big float64
		for _, v := range append(slices.Clone(m.in), m.ctx...) {
			big = max(big, math.Abs(float64(v)))
		}
		grad := make([]float64, LINEDim)
		for k, c := range targets {
			var dot float64
			for d := range u {
				dot += u[d] * ctx[c][d]
			}
			label := 0.0
			if k == 0 {
				label = 1
			}
			gk := lr * (label - 1/(1+math.Exp(-dot)))
			for d := range u {
				grad[d] += gk * ctx[c][d]
				ctx[c][d] += gk * u[d]
			}
		}
		for d := range u {
			u[d] += grad[d]
		}
		in, others := slices.Clone(m.in), slices.Clone(m.ctx)
		m.targets = targets
		m.step(i, lr)
		// σ is tabled to within 0.0031, so each of the six steps is within
		// ρ·0.0031 of its exact size, times the largest value it scales.
		tol := 6 * lr * 0.0031 * big
		near := func(what string, got []float32, want []float64) {
			t.Helper()
			for d := range want {
				if math.Abs(float64(got[d])-want[d]) > tol {
					t.Fatalf("targets %v: %s[%d] = %v, want %v", targets, what, d, got[d], want[d])
				}
			}
		}
		near("u", m.in[i*LINEDim:][:LINEDim], u)
		for c, want := range ctx {
			near("c", m.ctx[int(c)*LINEDim:][:LINEDim], want)
		}
		for v := range int32(g.N) {
			if _, ok := ctx[v]; !ok && !slices.Equal(m.ctx[v*LINEDim:][:LINEDim], others[v*LINEDim:][:LINEDim]) {
				t.Errorf("targets %v: the context vector of %d, no target, moved", targets, v)
			}
			if v != i && !slices.Equal(m.in[v*LINEDim:][:LINEDim], in[v*LINEDim:][:LINEDim]) {
				t.Errorf("targets %v: the vertex vector of %d, not the source, moved", targets, v)
			}
		}
	}
}

// Every edge is sampled both ways: on a star, the centre's vertex vector
// moves (it is the source of the edges taken outwards), and so does every
// leaf's.
func TestLINETakesEdgesBothWays(t *testing.T) {
	g := &datasets.Graph{N: 5, Src: []int32{0, 0, 0, 0}, Dst: []int32{1, 2, 3, 4}}
	m := newLINE(g, 1)
	before := slices.Clone(m.in)
	for range 200 {
		m.sample()
	}
	for v := range g.N {
		if slices.Equal(m.in[v*LINEDim:(v+1)*LINEDim], before[v*LINEDim:(v+1)*LINEDim]) {
			t.Errorf("node %d's vertex vector never moved in 200 samples", v)
		}
	}
}

// On two cliques joined by one edge, every node's embedding lies nearer
// (on average) to its own clique's than to the other's: the nodes of a
// clique share their neighbours, the second-order proximity.
func TestLINESeparatesTwoCliques(t *testing.T) {
	const k = 12
	m := newLINE(twoCliques(k), 1)
	m.prepare(farFuture)
	if m.dim() != 128 {
		t.Fatalf("dimension %d, want 128", m.dim())
	}
	eachNearerItsClique(t, m.embedding(), m.dim(), k)
}

// The embedding is the same bits made in one piece or in many, each
// piece cut short by a deadline already past.
func TestLINESameBitsInPieces(t *testing.T) {
	g := twoCliques(9)
	sameEmbeddingHoweverCut(t, 100, func() embedder { return newLINE(g, 7) })
}
