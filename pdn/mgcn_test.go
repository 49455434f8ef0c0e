package pdn

import (
	"math/rand/v2"
	"testing"
	"time"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
)

// twoLayers is a multiplex graph of two classes of k nodes: layer A joins
// each class's nodes to each other (two cliques), layer B joins random
// pairs, whatever their classes (noise); an edge in both has both. Its
// node features are noise.
func twoLayers(k int, seed uint64) *datasets.Graph {
	rnd := rand.New(rand.NewPCG(seed, 1))
	n := 2 * k
	g := &datasets.Graph{N: n, F: 4, C: 2, D: 2, X: randSlice(rnd, n*4, 1), EdgeNames: []string{"A", "B"}}
	layer := map[[2]int32][]float64{}
	var pairs [][2]int32
	add := func(u, v int32, l int) {
		p := [2]int32{min(u, v), max(u, v)}
		if layer[p] == nil {
			layer[p] = make([]float64, 2)
			pairs = append(pairs, p)
		}
		layer[p][l] = 1
	}
	for c := range 2 {
		for i := range k {
			for j := i + 1; j < k; j++ {
				add(int32(c*k+i), int32(c*k+j), 0)
			}
		}
	}
	for range 2 * n {
		u, v := int32(rnd.IntN(n)), int32(rnd.IntN(n))
		if u != v {
			add(u, v, 1)
		}
	}
	for _, p := range pairs {
		g.Src, g.Dst = append(g.Src, p[0]), append(g.Dst, p[1])
		g.EdgeX = append(g.EdgeX, layer[p]...)
	}
	for i := range n {
		g.Labels = append(g.Labels, i/k)
		split := datasets.Train
		if i%2 == 1 {
			split = datasets.Test
		}
		g.Splits = append(g.Splits, split)
	}
	return g
}

// Multi-GCN's merged graph keeps what the layers agree on: on two cliques
// (layer A) beside random pairs (layer B), the edges within a class weigh
// more than those between classes, which B alone holds: by half again or
// more (0.95 against 0.48 here, where a GCN over the union weighs both 1).
func TestMGCNMergesTheLayers(t *testing.T) {
	g := twoLayers(12, 3)
	cfg := experiment.Model{Kind: experiment.MGCN, Hidden: 8, Dropout: 0.5}
	if err := checkTrainable(g, experiment.Default().Data, cfg); err != nil {
		t.Fatal(err)
	}
	m := newNetwork(g, cfg, 1).(*mgcn)
	m.prepare(farFuture)
	var within, between float64
	var nw, nb int
	for e := range g.Src {
		if g.Labels[g.Src[e]] == g.Labels[g.Dst[e]] {
			within, nw = within+m.w[e], nw+1
		} else {
			between, nb = between+m.w[e], nb+1
		}
	}
	within, between = within/float64(nw), between/float64(nb)
	t.Logf("mean weight within classes %.3f (%d edges), between %.3f (%d)", within, nw, between, nb)
	if nb == 0 || within < 0.8 || between > within/1.5 {
		t.Errorf("mean weight within classes %.3f, between %.3f: want within near 1 and between under two thirds of it", within, between)
	}
	m.forward(false)
	if w := m.edgeWeights(); len(w) != g.E() || w[0] != m.w[0] {
		t.Errorf("the GCN propagates over %v, not the merged graph", w)
	}
}

// One layer alone is its own merge: L_mod = L − αUUᵀ has L's eigenvectors,
// so the merged subspace is the layer's, and on two cliques joined by no
// edge every edge's ends are alike (weight 1 to rounding).
func TestMGCNOneLayerIsItself(t *testing.T) {
	g := twoLayers(6, 1)
	one := *g
	one.D, one.EdgeNames, one.EdgeX = 1, []string{"A"}, nil
	one.Src, one.Dst = nil, nil
	for e := range g.Src {
		if g.EdgeX[2*e] != 0 {
			one.Src, one.Dst, one.EdgeX = append(one.Src, g.Src[e]), append(one.Dst, g.Dst[e]), append(one.EdgeX, 1)
		}
	}
	m := newNetwork(&one, experiment.Model{Kind: experiment.MGCN, Hidden: 4}, 2).(*mgcn)
	m.prepare(farFuture)
	for e, w := range m.w {
		if w < 1-1e-9 {
			t.Fatalf("edge %d-%d weighs %v, want 1", one.Src[e], one.Dst[e], w)
		}
	}
}

// The merge is the same bits however prepare is cut, and the share done
// rises to 1.
func TestMGCNSameBitsHoweverCut(t *testing.T) {
	g := twoLayers(10, 5)
	cfg := experiment.Model{Kind: experiment.MGCN, Hidden: 4}
	whole := newNetwork(g, cfg, 9).(*mgcn)
	whole.prepare(farFuture)
	cut := newNetwork(g, cfg, 9).(*mgcn)
	pieces, last := 1, 0.0
	for !cut.prepare(time.Time{}) {
		p := cut.preparing()
		if p < last || p >= 1 {
			t.Fatalf("preparing %v before done, after %v", p, last)
		}
		last, pieces = p, pieces+1
	}
	if cut.preparing() != 1 || pieces < 2*(mgcnIters+2) {
		t.Errorf("done at %v in %d pieces", cut.preparing(), pieces)
	}
	sameBits(t, cut.w, whole.w)
}
