package pdn

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"pdnexplorer/datasets"
)

// musaeGraph is a ring with chords whose n nodes have a few of f binary
// features each, drawn from seed.
func musaeGraph(seed uint64, n, f int) *datasets.Graph {
	src, dst := ring(n)
	g := &datasets.Graph{N: n, F: f, C: 2, X: make([]float64, n*f), Src: src, Dst: dst}
	rnd := rand.New(rand.NewPCG(seed, 3))
	for i := range n {
		for range 1 + i%4 {
			g.X[i*f+rnd.IntN(f)] = 1
		}
		g.Labels, g.Splits = append(g.Labels, i%2), append(g.Splits, datasets.Train)
	}
	return g
}

// The documents are Karate Club's, built as its MUSAE builds them: for each
// walk and each i, the target's features and token appended to the
// source's document, then the source's to the target's; at scale 0 the
// node's features. A node without features and one without edges are
// among them.
func TestMUSAEDocumentsAreKarateClubs(t *testing.T) {
	g := musaeGraph(1, 30, 12)
	clear(g.X[4*12 : 5*12])
	g.N++ // a node without edges nor features
	g.X = append(g.X, make([]float64, 12)...)
	g.Labels, g.Splits = append(g.Labels, 0), append(g.Splits, datasets.Train)
	walks := karateWalks(g, rand.New(rand.NewPCG(2, 3)), 3, 9)
	if len(walks) != 3*g.N || !slices.Equal(walks[3*g.N-1], []int32{int32(g.N - 1)}) {
		t.Fatalf("%d walks, the last %v", len(walks), walks[len(walks)-1])
	}
	for i, w := range walks {
		if int(w[0]) != i/3 {
			t.Fatalf("walk %d starts at %d, want %d", i, w[0], i/3)
		}
	}
	x := newWalkIndex(walks, g.N)
	feats := featureTokens(g)
	for k := 0; k <= 4; k++ {
		want := make([][]int32, g.N)
		if k == 0 {
			copy(want, feats)
		}
		for _, w := range walks {
			for i := 0; k > 0 && i < len(w)-k; i++ {
				s, d := w[i], w[i+k]
				want[s] = append(append(want[s], feats[d]...), int32(g.F)+d)
				want[d] = append(append(want[d], feats[s]...), int32(g.F)+s)
			}
		}
		c := &musaeCorpus{walks: x, feats: feats, scale: k, f: g.F}
		tok, lens := c.counts()
		count := make([]float64, c.tokens())
		for v := range g.N {
			got := c.doc(v, nil)
			if !slices.Equal(got, want[v]) {
				t.Fatalf("scale %d, node %d: document %v, want %v", k, v, got, want[v])
			}
			if lens[v] != float64(len(got)) {
				t.Errorf("scale %d, node %d: length %v, want %d", k, v, lens[v], len(got))
			}
			for _, j := range got {
				count[j]++
			}
		}
		if !slices.Equal(tok, count) {
			t.Errorf("scale %d: token counts %v, want %v", k, tok, count)
		}
	}
}

// A document is read up to its first 10,000 tokens kept: one of 25,000
// tokens none of which subsampling drops takes 10,000 steps an epoch.
func TestDBOWReadsTenThousandTokens(t *testing.T) {
	c := &listCorpus{docsOf: [][]int32{make([]int32, 25000), {1, 2}}, n: 3}
	for i := range c.docsOf[0] {
		c.docsOf[0][i] = int32(i % 3)
	}
	m := newDBOW(c, 8, 1, 0.05, 1, rand.NewPCG(1, 2)) // a sample rate of 1 keeps every token
	for !m.done() {
		m.run(1)
	}
	if len(m.kept) != 2 {
		t.Errorf("the last document kept %d tokens, want 2", len(m.kept))
	}
	m2 := newDBOW(c, 8, 1, 0.05, 1, rand.NewPCG(1, 2))
	m2.run(1)
	if len(m2.kept) != dbowMaxDoc {
		t.Errorf("a document of 25,000 tokens kept %d, want %d", len(m2.kept), dbowMaxDoc)
	}
}

// listCorpus is documents given as lists of tokens 0…n−1.
type listCorpus struct {
	docsOf [][]int32
	n      int
}

func (c *listCorpus) docs() int                      { return len(c.docsOf) }
func (c *listCorpus) tokens() int                    { return c.n }
func (c *listCorpus) doc(i int, buf []int32) []int32 { return append(buf, c.docsOf[i]...) }
func (c *listCorpus) counts() (tok, lens []float64) {
	tok = make([]float64, c.n)
	for _, d := range c.docsOf {
		lens = append(lens, float64(len(d)))
		for _, t := range d {
			tok[t]++
		}
	}
	return tok, lens
}

// One step of PV-DBOW is gensim's fast_document_dbow_neg, computed here in
// float64 from the same draws: the positive and each negative not equal to
// it, in order, each output vector moved by (label − σ(d·y))·lr·d and the
// document vector by the sum of (label − σ(d·y))·lr·y taken before.
func TestDBOWStepIsGensims(t *testing.T) {
	const dim = 8
	c := &listCorpus{docsOf: [][]int32{{0}}, n: 7}
	m := newDBOW(c, dim, 1, 0.05, 1, rand.NewPCG(3, 4))
	rnd := rand.New(rand.NewPCG(5, 6))
	for i := range m.out {
		m.out[i] = float32(rnd.NormFloat64())
	}
	for i := range m.docs {
		m.docs[i] = float32(rnd.NormFloat64() / 3)
	}
	d0, out0 := slices.Clone(m.docs[:dim]), slices.Clone(m.out)
	// The draws the step will take: the same stream, cloned.
	src := *m.src
	draws := make([]int32, dbowNegative)
	for k := range draws {
		draws[k] = m.noise.draw(float64(src.Uint64()<<11>>11) / (1 << 53))
	}
	const lr = 0.025
	m.step(m.docs[:dim], 2, lr)
	work := make([]float64, dim)
	out := make([]float64, len(out0))
	for i, v := range out0 {
		out[i] = float64(v)
	}
	targets := append([]int32{2}, draws...)
	for k, tg := range targets {
		if k > 0 && tg == 2 {
			continue
		}
		y := out[int(tg)*dim : (int(tg)+1)*dim]
		var f float64
		for i := range y {
			f += float64(d0[i]) * y[i]
		}
		if math.Abs(f) >= sigmoidEdge {
			continue
		}
		label := 0.0
		if k == 0 {
			label = 1
		}
		g := (label - float64(tabledSigmoid(float32(f)))) * lr
		for i := range y {
			work[i] += g * y[i]
			y[i] += g * float64(d0[i])
		}
	}
	for i := range dim {
		if want := float64(d0[i]) + work[i]; math.Abs(float64(m.docs[i])-want) > 1e-5 {
			t.Errorf("d[%d] = %v, want %v", i, m.docs[i], want)
		}
	}
	for i := range out {
		if math.Abs(float64(m.out[i])-out[i]) > 1e-5 {
			t.Errorf("y[%d] = %v, want %v", i, m.out[i], out[i])
		}
	}
}

func musaeEmbedding(t *testing.T, g *datasets.Graph, seed uint64) []float64 {
	t.Helper()
	return embedWhole(t, g, newMUSAE(g, seed))
}

func TestMUSAESameBitsHoweverCut(t *testing.T) {
	g := featherSparse(musaeGraph(4, 40, 20))
	whole := sameEmbeddingHoweverCut(t, (MUSAEScales+1)*MUSAEEpochs*g.N/4, func() embedder { return newMUSAE(g, 5) })
	if other := musaeEmbedding(t, g, 6); sameFloats(other, whole) {
		t.Error("another seed gave the same embedding")
	}
}

// Two cliques joined by an edge, whose nodes' features are the five words
// of their clique and one drawn from all: every node lies nearer to its
// clique's centroid than to the other's.
func TestMUSAETellsCliquesApart(t *testing.T) {
	const k, f = 12, 30
	g := wordCliques(k, f)
	z := musaeEmbedding(t, g, 1)
	d := len(z) / g.N
	centroid := make([][]float64, 2)
	for c := range 2 {
		centroid[c] = make([]float64, d)
		for i := c * k; i < (c+1)*k; i++ {
			for t := range d {
				centroid[c][t] += z[i*d+t] / k
			}
		}
	}
	dist := func(i, c int) float64 {
		var s float64
		for t := range d {
			s += (z[i*d+t] - centroid[c][t]) * (z[i*d+t] - centroid[c][t])
		}
		return s
	}
	for i := range g.N {
		if own := i / k; dist(i, own) >= dist(i, 1-own) {
			t.Errorf("node %d: %.3g from its clique's centroid, %.3g from the other's", i, dist(i, own), dist(i, 1-own))
		}
	}
}
