package pdn

import (
	"math"
	"testing"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
)

// TestEveryEmbeddingIsMemoised builds each embedding's model twice on one
// graph: the second takes the first's embedding from the memo (it makes
// none) and trains to the same bits as one made again with the memo off.
// An embedding whose row builds around embedNetOf fails here.
func TestEveryEmbeddingIsMemoised(t *testing.T) {
	for _, kind := range experiment.Kinds {
		if m, _ := experiment.ModelNamed(kind); m.Group != experiment.GroupEmbedding {
			continue
		}
		t.Run(kind, func(t *testing.T) {
			e := experiment.Default()
			e.Data.PerClass, e.Model.Kind = 16, kind
			if experiment.ReadsLayers(kind) {
				e.Data.Graph = experiment.GraphMultiplex
			}
			g, err := datasets.Build(e.Data)
			if err != nil {
				t.Fatal(err)
			}
			first := losses(t, g, e)
			tr := mustTrainer(t, g, e)
			if net, ok := tr.net.(*embedNet); !ok || net.emb != nil || tr.Preparing() != 1 {
				t.Fatalf("the second build made its embedding again (%T)", tr.net)
			}
			again := losses(t, g, e)
			resume := embeddings.pause()
			made := losses(t, g, e)
			resume()
			if first != again || first != made {
				t.Errorf("losses %x, from the memo %x, made again %x", first, again, made)
			}
		})
	}
}

// TestMemoKeyReadsWhatEmbeddingsRead changes one thing an embedding
// reads at a time (a node feature, an edge, an edge feature, a weight,
// the seed, the method): each is another key. The labels and the split,
// which no embedding reads, are not.
func TestMemoKeyReadsWhatEmbeddingsRead(t *testing.T) {
	base := func() *datasets.Graph {
		g := cliqueRing(3, 4)
		g.F, g.X = 2, make([]float64, 2*g.N)
		g.D, g.EdgeX = 1, make([]float64, g.E())
		for i := range g.X {
			g.X[i] = float64(i)
		}
		return g
	}
	m := newEmbeddingMemo()
	want := m.keyOf(experiment.FEATHER, base(), 1)
	for _, c := range []struct {
		name  string
		other bool
		kind  string
		seed  uint64
		edit  func(*datasets.Graph)
	}{
		{"nothing", false, experiment.FEATHER, 1, func(*datasets.Graph) {}},
		{"a label", false, experiment.FEATHER, 1, func(g *datasets.Graph) { g.Labels[0] = 2 }},
		{"the split", false, experiment.FEATHER, 1, func(g *datasets.Graph) { g.Splits[0] = datasets.Test }},
		{"the seed", true, experiment.FEATHER, 2, func(*datasets.Graph) {}},
		{"the method", true, experiment.TENE, 1, func(*datasets.Graph) {}},
		{"a node feature", true, experiment.FEATHER, 1, func(g *datasets.Graph) { g.X[5] = 0.5 }},
		{"a feature's sign of zero", true, experiment.FEATHER, 1, func(g *datasets.Graph) { g.X[0] = math.Copysign(0, -1) }},
		{"sparse features", true, experiment.FEATHER, 1, func(g *datasets.Graph) { g.XS, g.X = datasets.SparseOf(g.X, g.N, g.F), nil }},
		{"an edge's end", true, experiment.FEATHER, 1, func(g *datasets.Graph) { g.Dst[0] = 3 }},
		{"an edge feature", true, experiment.FEATHER, 1, func(g *datasets.Graph) { g.EdgeX[1] = 1 }},
		{"weights of 1", true, experiment.FEATHER, 1, func(g *datasets.Graph) { g.Weight = ones(g.E()) }},
	} {
		g := base()
		c.edit(g)
		if got := m.keyOf(c.kind, g, c.seed); (got != want) != c.other {
			t.Errorf("%s: another key %v, want %v", c.name, got != want, c.other)
		}
	}
}

// TestMemoIsBounded: at most memoEntries embeddings and memoBytes bytes,
// the least recently used forgotten first; one larger than the bound is
// never kept, and a paused memo neither gives nor keeps.
func TestMemoIsBounded(t *testing.T) {
	m := newEmbeddingMemo()
	key := func(i int) embeddingKey { return embeddingKey{kind: "k", seed: uint64(i)} }
	for i := range memoEntries {
		m.put(key(i), make([]float64, 1))
	}
	m.get(key(0)) // now the most recent
	m.put(key(memoEntries), make([]float64, 1))
	if m.get(key(1)) != nil || m.get(key(0)) == nil || m.get(key(memoEntries)) == nil {
		t.Errorf("the least recently used was not the one forgotten: %d entries", len(m.entries))
	}
	m.put(key(-1), make([]float64, memoBytes/8+1))
	if m.get(key(-1)) != nil {
		t.Error("kept an embedding over the bound")
	}
	m.put(key(-2), make([]float64, memoBytes/8))
	if m.bytes() > memoBytes || len(m.entries) != 1 {
		t.Errorf("%d bytes in %d entries, over the bound %d", m.bytes(), len(m.entries), memoBytes)
	}
	resume := m.pause()
	m.put(key(-3), make([]float64, 1))
	if m.get(key(-2)) != nil || m.get(key(-3)) != nil {
		t.Error("a paused memo gave or kept an embedding")
	}
	resume()
	if m.get(key(-2)) == nil || m.get(key(-3)) != nil {
		t.Error("resumed, the memo lost what it had or kept what it was given paused")
	}
}
