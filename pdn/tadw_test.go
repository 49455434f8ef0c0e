package pdn

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"pdnexplorer/datasets"
)

// karateDense is karateWeights made the way Karate Club makes it: a
// self-loop at every node, the edges listed as networkx lists them (the
// nodes in the order of their ids, each pair from the first of its two),
// each weighted 1/δ of its first node and then of its second, the second
// replacing the first in the undirected graph.
func karateDense(g *datasets.Graph) *mat.Dense {
	n := g.N
	nbrs := make([]map[int]bool, n)
	for i := range nbrs {
		nbrs[i] = map[int]bool{i: true}
	}
	for e := range g.Src {
		nbrs[g.Src[e]][int(g.Dst[e])] = true
		nbrs[g.Dst[e]][int(g.Src[e])] = true
	}
	deg := func(i int) float64 { return float64(len(nbrs[i]) + 1) } // the loop twice
	p := mat.NewDense(n, n, nil)
	for u := range n {
		for v := range nbrs[u] {
			if v < u {
				continue // listed from v already
			}
			p.Set(u, v, 1/deg(u))
			p.Set(v, u, 1/deg(u))
			p.Set(u, v, 1/deg(v))
			p.Set(v, u, 1/deg(v))
		}
	}
	return p
}

func TestKarateWeightsAreKarateClubs(t *testing.T) {
	src, dst := ring(11)
	g := featherGraph(1, 11, 3, 1, src, dst)
	want := karateDense(g)
	got := karateWeights(g)
	if err := got.Check(); err != nil {
		t.Fatal(err)
	}
	have := mat.NewDense(g.N, g.N, got.Dense())
	if !mat.Equal(have, want) {
		t.Errorf("karateWeights\n%v\nwant\n%v", mat.Formatted(have), mat.Formatted(want))
	}
}

func tadwEmbedding(t *testing.T, g *datasets.Graph, seed uint64) []float64 {
	t.Helper()
	return embedWhole(t, g, newTADW(g, seed))
}

// On features too few to reduce, the embedding is Karate Club's TADW
// computed the plain way, with dense matrices: M = Â², W and H drawn as
// the embedder draws them, and ten times W's update and then H's, each
// over M's non-zero entries alone, scaled by their scores' Σ s².
func TestTADWIsItsDefinition(t *testing.T) {
	// A triangle with a tail, a single edge, and node 6 alone.
	src, dst := []int32{0, 0, 1, 2, 4}, []int32{1, 2, 2, 3, 5}
	const n, f, d = 7, 5, TADWDim
	g := featherGraph(2, n, f, 1, src, dst)
	got := tadwEmbedding(t, g, 3)

	p := karateDense(g)
	var a mat.Dense
	a.Mul(p, p)
	tt := mat.NewDense(n, f, g.X).T() // T, f×n
	rnd := rand.New(rand.NewPCG(3, streamTADW))
	w, h := mat.NewDense(d, n, nil), mat.NewDense(d, f, nil)
	for _, x := range []*mat.Dense{w, h} {
		r, c := x.Dims()
		for i := range r {
			for j := range c {
				x.Set(i, j, rnd.Float64())
			}
		}
	}
	// diff is M − S over M's entries, S_rc = score(r, c); and Σ s².
	diff := func(score func(r, c int) float64) (*mat.Dense, float64) {
		out := mat.NewDense(n, n, nil)
		var ss float64
		for r := range n {
			for c := range n {
				if a.At(r, c) != 0 {
					s := score(r, c)
					ss += s * s
					out.Set(r, c, a.At(r, c)-s)
				}
			}
		}
		return out, ss
	}
	update := func(x, grad *mat.Dense, ss float64) {
		pen := TADWLambda / mat.Norm(x, 2)
		var step mat.Dense
		step.Scale(pen, x)
		grad.Scale(1/ss, grad)
		step.Sub(&step, grad)
		step.Scale(TADWRate, &step)
		x.Sub(x, &step)
	}
	var ht mat.Dense
	for range TADWIters {
		ht.Mul(h, tt)
		dw, ss := diff(func(r, c int) float64 { return mat.Dot(ht.ColView(r), w.ColView(c)) })
		var g mat.Dense
		g.Mul(dw, ht.T())
		update(w, mat.DenseCopyOf(g.T()), ss)
		dh, ss := diff(func(r, c int) float64 { return mat.Dot(ht.ColView(c), w.ColView(r)) })
		var dt, gh mat.Dense
		dt.Mul(dh, tt.T())
		gh.Mul(w, &dt)
		update(h, &gh, ss)
	}
	ht.Mul(h, tt)
	for c := range n {
		for i := range d {
			for half, want := range []float64{w.At(i, c), ht.At(i, c)} {
				have := got[c*2*d+half*d+i]
				if math.Abs(have-want) > 1e-12*math.Max(1, math.Abs(want)) {
					t.Fatalf("node %d, column %d: %v, want %v", c, half*d+i, have, want)
				}
			}
		}
	}
	// The scores are a small share of M's scale here: the updates moved W.
	if w0 := rand.New(rand.NewPCG(3, streamTADW)).Float64(); got[0] == w0 {
		t.Error("W never moved")
	}
}

// The embedding has the same bits however its set-up is cut: at once, or
// one step at a time (a deadline already past), the share done rising to 1.
// Features wider than 64 take the SVD's road, sparse or dense alike.
func TestTADWSameBitsHoweverCut(t *testing.T) {
	const n, f = 300, 90
	src, dst := ring(n)
	g := featherSparse(featherGraph(4, n, f, 0.9, src, dst))
	// pieces: the steps before the last, and the last.
	whole := sameEmbeddingHoweverCut(t, TADWSVDIters+(1+2*TADWIters)*(n/tadwRows+1)+1, func() embedder { return newTADW(g, 5) })
	for i, v := range tadwEmbedding(t, featherGraph(4, n, f, 0.9, src, dst), 5) {
		if math.Abs(v-whole[i]) > 1e-9*math.Max(1, math.Abs(v)) {
			t.Fatalf("dense features give %v where sparse ones give %v", v, whole[i])
		}
	}
}
