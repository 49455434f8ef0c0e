package pdn

import (
	"slices"
	"testing"

	"pdnexplorer/datasets"
)

// A node's document is Karate Club's: a token for each neighbour, in the
// order NetworkX lists them (the order the edges were added), then one for
// each of its features; a node without edges or features has the rest.
func TestASNEDocumentsAreKarateClubs(t *testing.T) {
	g := musaeGraph(1, 20, 9)
	clear(g.X[3*9 : 4*9])
	g.N++ // a node without edges nor features
	g.X = append(g.X, make([]float64, 9)...)
	g.Labels, g.Splits = append(g.Labels, 0), append(g.Splits, datasets.Train)
	want := make([][]int32, g.N)
	for e := range g.Src {
		u, v := g.Src[e], g.Dst[e]
		want[u], want[v] = append(want[u], v), append(want[v], u)
	}
	for v := range g.N {
		for j := range g.F {
			if g.X[v*g.F+j] != 0 {
				want[v] = append(want[v], int32(g.N+j))
			}
		}
	}
	c := newASNECorpus(featherSparse(g))
	if c.tokens() != g.N+g.F {
		t.Fatalf("%d tokens, want %d", c.tokens(), g.N+g.F)
	}
	tok, lens := c.counts()
	count := make([]float64, c.tokens())
	for v := range g.N {
		got := c.doc(v, nil)
		if !slices.Equal(got, want[v]) {
			t.Fatalf("node %d: document %v, want %v", v, got, want[v])
		}
		if lens[v] != float64(len(got)) {
			t.Errorf("node %d: length %v, want %d", v, lens[v], len(got))
		}
		for _, j := range got {
			count[j]++
		}
	}
	if !slices.Equal(tok, count) {
		t.Errorf("token counts %v, want %v", tok, count)
	}
}

func asneEmbedding(t *testing.T, g *datasets.Graph, seed uint64) []float64 {
	t.Helper()
	return embedWhole(t, g, newASNE(g, seed))
}

func TestASNESameBitsHoweverCut(t *testing.T) {
	g := featherSparse(musaeGraph(4, 40, 20))
	whole := sameEmbeddingHoweverCut(t, ASNEEpochs*g.N/asneDocs, func() embedder { return newASNE(g, 5) })
	if other := asneEmbedding(t, g, 6); sameFloats(other, whole) {
		t.Error("another seed gave the same embedding")
	}
}

// Two cliques joined by an edge, whose nodes' features are the five words
// of their clique and one drawn from all: every node lies nearer to its
// clique's centroid than to the other's. The cliques are of 150 nodes: on
// a corpus of a few hundred tokens, subsampling at 10⁻⁴ keeps almost none.
func TestASNETellsCliquesApart(t *testing.T) {
	const k, f = 150, 30
	g := wordCliques(k, f)
	z := asneEmbedding(t, g, 1)
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
