package datasets

import (
	"math"
	"slices"
	"strings"
	"testing"

	"pdnexplorer/experiment"
)

func multiplexData(layers string) experiment.Data {
	d := defaultData()
	d.Graph, d.Layers = experiment.GraphMultiplex, layers
	return d
}

// Each layer draws about its mean degree's edges, the share of them
// within classes its row asks for, and its features say which layers hold
// each edge; the graph's names are the layers'.
func TestMultiplexLayersAreAsAsked(t *testing.T) {
	d := multiplexData("90,60,33,10")
	g, err := Build(d)
	if err != nil {
		t.Fatal(err)
	}
	if g.D != 4 || !slices.Equal(g.EdgeNames, []string{"A", "B", "C", "D"}) {
		t.Fatalf("D %d, names %v; want 4 layers A to D", g.D, g.EdgeNames)
	}
	want := []float64{0.9, 0.6, 0.33, 0.1}
	for l := range g.D {
		edges, within := 0, 0
		for e := range g.Src {
			switch v := g.EdgeX[e*g.D+l]; v {
			case 0:
				continue
			case 1:
			default:
				t.Fatalf("edge %d holds %v in layer %d; want 0 or 1", e, v, l)
			}
			edges++
			if g.Kind[e] == KindIntra {
				within++
			}
		}
		deg := 2 * float64(edges) / float64(g.N)
		if share := float64(within) / float64(edges); math.Abs(share-want[l]) > 0.04 || math.Abs(deg-float64(d.LayerDegree)) > 0.5 {
			t.Errorf("layer %s: %d edges (mean degree %.2f), %.3f within classes; want degree %d and %.2f", g.EdgeNames[l], edges, deg, share, d.LayerDegree, want[l])
		}
	}
	for e := range g.Src {
		if !slices.ContainsFunc(g.EdgeX[e*g.D:(e+1)*g.D], func(v float64) bool { return v != 0 }) {
			t.Fatalf("edge %d is in no layer", e)
		}
		if e > 0 && (g.Src[e] < g.Src[e-1] || g.Src[e] == g.Src[e-1] && g.Dst[e] <= g.Dst[e-1]) {
			t.Fatalf("edges not in order at %d", e)
		}
	}
	again, _ := Build(d)
	if again.Digest() != g.Digest() {
		t.Error("one seed drew two graphs")
	}
}

// A layer's edges come from its own stream: another share for layer C
// leaves layer A's edges, and the nodes, as they were.
func TestMultiplexLayerStreamsApart(t *testing.T) {
	a, _ := Build(multiplexData("90,60,33"))
	b, _ := Build(multiplexData("90,60,10"))
	layerA := func(g *Graph) [][2]int32 {
		var out [][2]int32
		for e := range g.Src {
			if g.EdgeX[e*g.D] != 0 {
				out = append(out, [2]int32{g.Src[e], g.Dst[e]})
			}
		}
		return out
	}
	if !slices.Equal(layerA(a), layerA(b)) || !slices.Equal(a.X, b.X) || !slices.Equal(a.Labels, b.Labels) {
		t.Error("changing layer C's share moved layer A's edges or the nodes")
	}
	syn, _ := Synthetic(defaultData())
	if !slices.Equal(a.X, syn.X) || !slices.Equal(a.Labels, syn.Labels) || !slices.Equal(a.Splits, syn.Splits) {
		t.Error("the multiplex graph's nodes are not the synthetic graph's of the same seed")
	}
}

// The layer row keeps one layer's edges, their features whole, on every
// road to the graph (Build alters as altered does); a name the graph has
// not is refused with the names it has.
func TestOneLayer(t *testing.T) {
	d := multiplexData("90,60,33,33")
	all, _ := Build(d)
	d.Layer = "B"
	b, err := Build(d)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for e := range all.Src {
		if all.EdgeX[e*all.D+1] != 0 {
			if b.Src[n] != all.Src[e] || b.Dst[n] != all.Dst[e] || !slices.Equal(b.EdgeX[n*b.D:(n+1)*b.D], all.EdgeX[e*all.D:(e+1)*all.D]) || b.Kind[n] != all.Kind[e] {
				t.Fatalf("edge %d of layer B differs", n)
			}
			n++
		}
	}
	if n != b.E() || n == 0 || n == all.E() {
		t.Errorf("layer B has %d edges of the union's %d; kept %d", n, all.E(), b.E())
	}
	direct, _ := oneLayer(all, "B")
	if direct.Digest() != b.Digest() {
		t.Error("Build's layer B is not oneLayer's")
	}
	d.Layer = "Z"
	if _, err := Build(d); err == nil || !strings.Contains(err.Error(), `layer: "Z" is not one of this graph's layers; want one of A, B, C, D`) {
		t.Errorf("layer Z: %v", err)
	}
	// A column of features is no layer: the synthetic graph's e0 is
	// non-zero on every edge, so keeping its edges would be the union.
	s, _ := Build(defaultData())
	if _, err := oneLayer(s, "e0"); err == nil || !strings.Contains(err.Error(), `layer: "e0" is not a layer`) {
		t.Errorf("layer e0 of the synthetic graph: %v", err)
	}
}

// The layers row refuses what draws no multiplex graph, naming the row.
func TestMultiplexLayersRefused(t *testing.T) {
	for _, s := range []string{"90", "90,101", "90,x", "1,2,3,4,5,6,7", ""} {
		e := experiment.Default()
		p, _ := experiment.Lookup("layers")
		if err := p.Set(&e, s); err == nil || !strings.HasPrefix(err.Error(), "layers: ") {
			t.Errorf("layers=%q: %v", s, err)
		}
	}
}

// NotLayers accepts a multiplex graph's layers and refuses, saying why,
// edge features that are not: none, a negative value (a feature), or
// several columns that each hold every edge (weights of one graph).
func TestNotLayers(t *testing.T) {
	edges := func(d int, x ...float64) *Graph {
		return &Graph{N: 3, D: d, Src: []int32{0, 1, 0}, Dst: []int32{1, 2, 2}, EdgeX: x}
	}
	for _, c := range []struct {
		name string
		g    *Graph
		want string // "" accepts
	}{
		{"two layers", edges(2, 1, 0, 0, 1, 1, 1), ""},
		{"weighted layers", edges(2, 0.5, 0, 0, 2, 3, 0), ""},
		{"one layer of every edge", edges(1, 1, 1, 1), ""},
		{"a layer of every edge beside one of some", edges(2, 1, 1, 1, 0, 1, 1), ""},
		{"no edge features", edges(0), "has no edge features"},
		{"a negative value", edges(2, 1, 0, 0, -0.5, 1, 1), `is not a layer: edge 1-2 has -0.5 in it`},
		{"every column every edge", edges(2, 1, 2, 3, 4, 5, 6), "2 edge features each hold every edge"},
	} {
		err := c.g.NotLayers()
		if (err == nil) != (c.want == "") || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want %q", c.name, err, c.want)
		}
	}
}
