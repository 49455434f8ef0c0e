package pdn

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"pdnexplorer/datasets"
)

// multiplexOf is a multiplex graph on n nodes whose layer l holds the
// edges of layers[l]: their union, each edge's features one column a
// layer, 1 where the layer holds it and 0 where not (as the generator's).
func multiplexOf(n int, layers ...*datasets.Graph) *datasets.Graph {
	type pair struct{ u, v int32 }
	at := map[pair]int{}
	g := &datasets.Graph{N: n, D: len(layers)}
	for l, lg := range layers {
		for e := range lg.Src {
			p := pair{min(lg.Src[e], lg.Dst[e]), max(lg.Src[e], lg.Dst[e])}
			i, ok := at[p]
			if !ok {
				i = len(g.Src)
				at[p] = i
				g.Src, g.Dst = append(g.Src, p.u), append(g.Dst, p.v)
				g.EdgeX = append(g.EdgeX, make([]float64, len(layers))...)
			}
			g.EdgeX[i*g.D+l] = 1
		}
	}
	return g
}

// twoCliqueLayers is two layers on the nodes of twoCliques(k): the two
// cliques joined by one edge, and each clique's ring of its nodes in
// another order, joined by another edge.
func twoCliqueLayers(k int) *datasets.Graph {
	ring := &datasets.Graph{N: 2 * k}
	for c := range 2 {
		for i := range k {
			u, v := c*k+i*3%k, c*k+(i+1)*3%k // k prime to 3
			ring.Src, ring.Dst = append(ring.Src, int32(u)), append(ring.Dst, int32(v))
		}
	}
	ring.Src, ring.Dst = append(ring.Src, 0), append(ring.Dst, int32(2*k-1))
	return multiplexOf(2*k, twoCliques(k), ring)
}

// A layer's graph holds the edges whose column is not 0, on every node.
func TestLayerGraphs(t *testing.T) {
	g := &datasets.Graph{N: 4, D: 2, Src: []int32{0, 1, 2}, Dst: []int32{1, 2, 3}, EdgeX: []float64{1, 0, 0, 2.5, 1, 1}}
	ls := layerGraphs(g)
	if len(ls) != 2 {
		t.Fatalf("%d layers, want 2", len(ls))
	}
	for l, want := range [][2][]int32{{{0, 2}, {1, 3}}, {{1, 2}, {2, 3}}} {
		if ls[l].N != 4 || !slices.Equal(ls[l].Src, want[0]) || !slices.Equal(ls[l].Dst, want[1]) {
			t.Errorf("layer %d: %d nodes, edges %v→%v, want 4, %v→%v", l, ls[l].N, ls[l].Src, ls[l].Dst, want[0], want[1])
		}
	}
}

// The regulariser's step moves a node's vector in one view, centre and
// context, by ρ·2γ toward its mean over the views, and no other.
func TestM2VPull(t *testing.T) {
	g := multiplexOf(3, twoCliques(1), twoCliques(1), twoCliques(1))
	m := newM2V(g, 1)
	before := [][2][]float32{}
	for _, s := range m.views {
		before = append(before, [2][]float32{slices.Clone(s.in), slices.Clone(s.out)})
	}
	const lr = 0.02
	m.pull(1, 2, lr)
	d := m.dv
	for v, s := range m.views {
		for table, got := range [][]float32{s.in, s.out} {
			for u := range 3 {
				for k := range d {
					old := float64(before[v][table][u*d+k])
					want := old
					if v == 1 && u == 2 {
						var mean float64
						for w := range m.views {
							mean += float64(before[w][table][u*d+k]) / 3
						}
						want = old - lr*2*m2vGamma*(old-mean)
					}
					if math.Abs(float64(got[u*d+k])-want) > 1e-6*(math.Abs(want)+1e-3) {
						t.Fatalf("view %d, table %d, node %d, dimension %d: %g, want %g", v, table, u, k, got[u*d+k], want)
					}
				}
			}
		}
	}
}

// With one layer the mean of a node's views is its own vector, the
// regulariser moves nothing, and M2V is DeepWalk's skip-gram in all
// M2VDim dimensions on the layer's walks, bit for bit.
func TestM2VOneLayerIsSkipGram(t *testing.T) {
	g := multiplexOf(12, twoCliques(6))
	got := embedWhole(t, g, newM2V(g, 3))
	ws := randomWalks(layerGraphs(g)[0], rand.New(rand.NewPCG(3, streamM2V)), WalksPerNode, WalkLength)
	sg := newSkipGram(g.N, M2VDim, WalkWindow, ws, rand.NewPCG(3, streamM2V+1))
	for !sg.done() {
		sg.run(64)
	}
	sameBits(t, got, sg.result())
}

// Each layer's walks stay in that layer: two layers whose cliques agree
// put every node nearer its clique, and the embedding is the same
// however its making is cut.
func TestM2VCliques(t *testing.T) {
	const k = 8
	g := twoCliqueLayers(k)
	x := sameEmbeddingHoweverCut(t, 8, func() embedder { return newM2V(g, 2) })
	eachNearerItsClique(t, x, 2*m2vViewDim(2), k)
}
