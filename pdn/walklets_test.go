package pdn

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"pdnexplorer/datasets"
)

// twoCliques is two cliques of k nodes, 0…k−1 and k…2k−1, joined by the
// one edge k−1 – k: only the walks that cross it see both.
func twoCliques(k int) *datasets.Graph {
	g := &datasets.Graph{N: 2 * k}
	for c := range 2 {
		for i := range k {
			for j := i + 1; j < k; j++ {
				g.Src, g.Dst = append(g.Src, int32(c*k+i)), append(g.Dst, int32(c*k+j))
			}
		}
	}
	g.Src, g.Dst = append(g.Src, int32(k-1)), append(g.Dst, int32(k))
	return g
}

// The corpus of skip k is Karate Club's _select_walklets: each walk read
// every k-th node from each offset 0…k, offset k repeating offset 0 but
// for its first node; counts are the corpus's.
func TestWalkletCorpus(t *testing.T) {
	w := []int32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	for _, tc := range []struct {
		skip int
		want [][]int32
	}{
		{1, [][]int32{w, w[1:]}},
		{3, [][]int32{{0, 3, 6, 9}, {1, 4, 7}, {2, 5, 8}, {3, 6, 9}}},
		{4, [][]int32{{0, 4, 8}, {1, 5, 9}, {2, 6}, {3, 7}, {4, 8}}},
		{12, [][]int32{{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}, {8}, {9}, {}, {}, {}}},
	} {
		c := walkletCorpus{[][]int32{w, {7}}, tc.skip}
		if got := c.sentences(); got != 2*(tc.skip+1) {
			t.Fatalf("skip %d: %d sentences, want %d", tc.skip, got, 2*(tc.skip+1))
		}
		counts := make([]float64, 10)
		for j := range c.sentences() {
			s := c.sentence(nil, j)
			if j <= tc.skip && !slices.Equal(s, tc.want[j]) {
				t.Errorf("skip %d: sentence %d is %v, want %v", tc.skip, j, s, tc.want[j])
			}
			if j == tc.skip+1 && !slices.Equal(s, []int32{7}) || j > tc.skip+1 && len(s) > 0 {
				t.Errorf("skip %d: sentence %d of the walk [7] is %v", tc.skip, j, s)
			}
			for _, v := range s {
				counts[v]++
			}
		}
		if got := c.counts(10); !slices.Equal(got, counts) {
			t.Errorf("skip %d: counts %v, want the sentences' %v", tc.skip, got, counts)
		}
	}
}

// gensim keeps a word of count c with probability (√(c/t) + 1)·t/c, t
// the sample times the corpus's size, and always below t.
func TestWalkletsSubsampling(t *testing.T) {
	// 1,000 walks of one node 0, one of node 1: corpus 1,001 + 1,001 at
	// skip 1 (offset 1 is empty), t = 1.001.
	ws := [][]int32{{1}}
	for range 1000 {
		ws = append(ws, []int32{0})
	}
	c := newCBOW(2, WalkletsDim, walkletCorpus{ws, 1}, rand.NewPCG(1, 2))
	tt := walkletsSample * 1001
	if want := (math.Sqrt(1000/tt) + 1) * (tt / 1000); c.keep[0] != want {
		t.Errorf("node 0 kept with %v, want %v", c.keep[0], want)
	}
	if c.keep[1] != 1 {
		t.Errorf("node 1, rarer than t, kept with %v", c.keep[1])
	}
}

// One CBOW step moves each target's output vector by
// lr·(label − σ(h·y))·h and each context's input vector by the sum over
// the targets of lr·(label − σ(h·y))·y, h the mean of the contexts: the
// negative gradient of −log σ(h·y₊) − Σ log σ(−h·y₋), as gensim steps it.
func TestCBOWStepIsTheGradient(t *testing.T) {
	const n = 4
	// Node 3 is the only node the noise draws: five negatives of 3.
	c := newCBOW(n, WalkletsDim, walkletCorpus{[][]int32{{0, 1, 2}}, 1}, rand.NewPCG(3, 4))
	c.noise = noiseOf([]float64{0, 0, 0, 1})
	rnd := rand.New(rand.NewPCG(5, 6))
	for i := range c.out {
		c.out[i] = float32(rnd.NormFloat64() / 4)
		c.in[i] = float32(rnd.NormFloat64() / 4)
	}
	in, out := slices.Clone(c.in), slices.Clone(c.out)
	row := func(m []float32, v int) []float64 {
		r := make([]float64, WalkletsDim)
		for t := range r {
			r[t] = float64(m[v*WalkletsDim+t])
		}
		return r
	}
	const lr = 0.025
	c.step(1, 0, 2, 2, lr)

	x0, x2 := row(in, 0), row(in, 2)
	h := make([]float64, WalkletsDim)
	for t := range h {
		h[t] = (x0[t] + x2[t]) / 2
	}
	dot := func(a, b []float64) (s float64) {
		for t := range a {
			s += a[t] * b[t]
		}
		return s
	}
	// The five negatives of node 3 come one after another, each scored
	// after the steps before it.
	y1, y3 := row(out, 1), row(out, 3)
	g1 := lr * (1 - 1/(1+math.Exp(-dot(h, y1))))
	gradX := make([]float64, WalkletsDim)
	for t := range gradX {
		gradX[t] = g1 * y1[t]
	}
	for range walkletsNegatives {
		g3 := lr * (0 - 1/(1+math.Exp(-dot(h, y3))))
		for t := range gradX {
			gradX[t] += g3 * y3[t]
			y3[t] += g3 * h[t]
		}
	}
	// σ is tabled to within 0.0031, so each of the six steps is within
	// lr·0.0031 of its exact size, times the largest value it scales.
	var big float64
	for _, v := range append(slices.Clone(in), out...) {
		big = max(big, math.Abs(float64(v)))
	}
	tol := 6 * lr * 0.0031 * big
	near := func(name string, got []float32, want []float64) {
		t.Helper()
		for i := range want {
			if math.Abs(float64(got[i])-want[i]) > tol {
				t.Fatalf("%s[%d] = %v, want %v", name, i, got[i], want[i])
			}
		}
	}
	for t := range y1 {
		y1[t] += g1 * h[t]
		x0[t] += gradX[t]
		x2[t] += gradX[t]
	}
	near("y1", c.out[1*WalkletsDim:2*WalkletsDim], y1)
	near("y3", c.out[3*WalkletsDim:4*WalkletsDim], y3)
	near("x0", c.in[0:WalkletsDim], x0)
	near("x2", c.in[2*WalkletsDim:3*WalkletsDim], x2)
	if !slices.Equal(c.in[WalkletsDim:2*WalkletsDim], in[WalkletsDim:2*WalkletsDim]) || !slices.Equal(c.in[3*WalkletsDim:], in[3*WalkletsDim:]) {
		t.Error("a step moved the input vector of the centre or of a negative")
	}
	if !slices.Equal(c.out[:WalkletsDim], out[:WalkletsDim]) {
		t.Error("a step moved the output vector of a context")
	}

	// A negative that is the centre itself is dropped, as gensim drops it:
	// with every draw the centre, only the positive steps.
	c.noise = noiseOf([]float64{0, 1, 0, 0})
	before := slices.Clone(c.out)
	c.step(1, 0, -1, 1, lr)
	h = row(c.in, 0)
	y1 = row(before, 1)
	g1 = lr * (1 - 1/(1+math.Exp(-dot(h, y1))))
	for t := range y1 {
		y1[t] += g1 * h[t]
	}
	near("y1 with the centre drawn", c.out[WalkletsDim:2*WalkletsDim], y1)
}

// On two cliques joined by one edge, every node's embedding lies nearer
// (on average) to its own clique's than to the other's.
func TestWalkletsSeparatesTwoCliques(t *testing.T) {
	const k = 12
	m := newWalklets(twoCliques(k), 1)
	m.prepare(farFuture)
	if m.dim() != 128 {
		t.Fatalf("dimension %d, want 128", m.dim())
	}
	eachNearerItsClique(t, m.embedding(), m.dim(), k)
}

// The embedding is the same bits made in one piece or in many, each
// piece cut short by a deadline already past.
func TestWalkletsSameBitsInPieces(t *testing.T) {
	g := twoCliques(9)
	whole := sameEmbeddingHoweverCut(t, 2*WalkletsSkips, func() embedder { return newWalklets(g, 7) })
	other := newWalklets(g, 8)
	other.prepare(farFuture)
	if slices.Equal(other.embedding(), whole) {
		t.Error("another seed gave the same embedding")
	}
}
