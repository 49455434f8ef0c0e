package datasets

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"pdnexplorer/edgekind"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
)

// streamLayers is the first of the multiplex layers' streams: layer l
// draws its edges from streamLayers+l, so that changing one layer's share
// leaves the others' edges as they were.
const streamLayers = 16

// MultiplexLayers generates a multiplex graph (§5.2): the nodes, their
// features, classes and split of the paper's synthetic graph (Synthetic,
// steps 1, 2 and 5), and L layers of edges over them, layer l named by a
// letter (A, B, …). Layer l has about k·N/2 edges (k = d.LayerDegree, its
// mean degree), a share h_l of them within classes (d.LayerShares): each
// pair of one class is an edge of it with probability
//
//	p_l = h_l · kN/2 / (C·n(n−1)/2),  q_l = (1 − h_l) · kN/2 / (C(C−1)/2 · n²)
//
// for a pair of two classes. A layer with h_l = 1/C joins nodes with no
// regard to their classes: noise; above it the layer carries the classes,
// below it it misleads. The edges are the union of the layers; an edge's
// features are its layers, 1 where a layer holds it and 0 where not, as
// the multiplex benchmarks' adjacency layers are (IMDB's MAM and MDM).
func MultiplexLayers(d experiment.Data) (*Graph, error) {
	shares, err := d.LayerShares()
	if err != nil {
		return nil, err
	}
	if err := d.Validate(); err != nil {
		return nil, err
	}
	g, err := syntheticNodes(d)
	if err != nil {
		return nil, err
	}
	c, n := float64(d.Classes), float64(d.PerClass)
	half := float64(d.LayerDegree) * float64(g.N) / 2
	layers := make([][]WeightedPair, len(shares))
	for l, h := range shares {
		p := min(h*half/(c*n*(n-1)/2), 1)
		q := min((1-h)*half/(c*(c-1)/2*n*n), 1)
		src, dst, _ := blockEdges(g.Labels, d.Classes, p, q, stream(d.Seed, streamLayers+uint64(l)))
		for e := range src {
			layers[l] = append(layers[l], WeightedPair{U: src[e], V: dst[e], W: 1})
		}
	}
	g.Kind = []edgekind.Kind{} // known: Multiplex fills it from the labels
	out, err := Multiplex(g, layers)
	if err != nil {
		return nil, err
	}
	sortLayers(out)
	out.EdgeNames = experiment.LayerNames(len(shares))
	out.Meta = maps.Clone(g.Meta)
	out.Meta["name"], out.Meta["generator"] = "multiplex", "pdn-www21 §5.2 (nodes as §5.1)"
	out.Meta["layers"] = d.Layers
	out.Meta["layer_degree"] = d.LayerDegree
	out.Meta["edge_features"] = "one binary column a layer: 1 where the layer holds the edge"
	return out, out.Check()
}

// sortLayers orders g's edges by their ends, as every other graph's are,
// carrying each edge's layers and kind along.
func sortLayers(g *Graph) {
	idx := make([]int, g.E())
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		if g.Src[a] != g.Src[b] {
			return int(g.Src[a]) - int(g.Src[b])
		}
		return int(g.Dst[a]) - int(g.Dst[b])
	})
	src, dst, x, kind := slices.Clone(g.Src), slices.Clone(g.Dst), slices.Clone(g.EdgeX), slices.Clone(g.Kind)
	for to, from := range idx {
		g.Src[to], g.Dst[to] = src[from], dst[from]
		copy(g.EdgeX[to*g.D:(to+1)*g.D], x[from*g.D:(from+1)*g.D])
		if kind != nil {
			g.Kind[to] = kind[from]
		}
	}
}

// InputNames are the names of g's edge features, the pathfinder's
// inputs: its own (a multiplex graph's layers, a file's columns, the
// tie-strength scores), else e0, e1, … as a bundle's header names
// anonymous ones.
func (g *Graph) InputNames() []string {
	if len(g.EdgeNames) == g.D {
		return g.EdgeNames
	}
	out := make([]string, g.D)
	for i := range out {
		out[i] = "e" + strconv.Itoa(i)
	}
	return out
}

// NotLayers reports why g's edge features are not a multiplex graph's
// layers, or nil: it has none, or one of its columns is not a layer
// (NotLayer).
func (g *Graph) NotLayers() error {
	if g.D == 0 {
		return phrase.Errorf("the graph has no edge features, and a multiplex graph's layers are its edge features: one column a layer")
	}
	full := 0 // columns that hold every edge
	for l := range g.D {
		if err := g.NotLayer(l); err != nil {
			return err
		}
		if g.holdsEvery(l) {
			full++
		}
	}
	if g.D > 1 && full == g.D && g.E() > 0 {
		// Layers that all hold every edge differ in nothing a layer is:
		// they are weights of one graph's edges (proximity scores, say).
		return phrase.Errorf("the graph's %d edge features each hold every edge, so they are weights of one graph's edges, not layers: a layer's column holds 0 for the edges the layer lacks", g.D)
	}
	return nil
}

// holdsEvery reports whether edge feature l is non-zero on every edge.
func (g *Graph) holdsEvery(l int) bool {
	for e := range g.Src {
		if g.EdgeX[e*g.D+l] == 0 {
			return false
		}
	}
	return true
}

// NotLayer reports why g's edge feature l is not a layer, or nil. A
// layer's column holds 0 where the layer lacks an edge and a positive
// value (1, or its weight) where it holds it: a column with a negative
// value is a feature (the generator's Gaussian e0, …), whose non-zero
// values are nearly every edge, so reading it as a layer would quietly
// be the union.
func (g *Graph) NotLayer(l int) error {
	name := g.InputNames()[l]
	for e := range g.Src {
		if v := g.EdgeX[e*g.D+l]; v < 0 {
			return phrase.Errorf("layer: %s is not a layer: edge %d-%d has %s in it; a layer's column holds 0 for an edge the layer lacks and 1 (or a positive weight) for one it holds", experiment.Quote(name), g.Src[e], g.Dst[e], strconv.FormatFloat(v, 'g', 4, 64))
		}
	}
	return nil
}

// oneLayer keeps of g the edges its layer called name holds (a non-zero
// value in that edge feature), their features whole: a GCN over that
// layer alone. An empty name keeps g, the union of its layers.
func oneLayer(g *Graph, name string) (*Graph, error) {
	if name == "" {
		return g, nil
	}
	names := g.InputNames()
	l := slices.Index(names, name)
	if l < 0 {
		return nil, phrase.Errorf("layer: %s is not one of this graph's layers; want one of %s, or nothing for all of them", experiment.Quote(name), strings.Join(names, ", "))
	}
	if err := g.NotLayer(l); err != nil {
		return nil, err
	}
	out := *g
	out.Src, out.Dst, out.EdgeX, out.Kind, out.Weight = nil, nil, nil, nil, nil
	if g.Kind != nil {
		out.Kind = []edgekind.Kind{}
	}
	for e := range g.Src {
		if g.EdgeX[e*g.D+l] == 0 {
			continue
		}
		out.Src, out.Dst = append(out.Src, g.Src[e]), append(out.Dst, g.Dst[e])
		out.EdgeX = append(out.EdgeX, g.EdgeX[e*g.D:(e+1)*g.D]...)
		if g.Kind != nil {
			out.Kind = append(out.Kind, g.Kind[e])
		}
		if g.Weight != nil {
			out.Weight = append(out.Weight, g.Weight[e])
		}
	}
	out.Meta = maps.Clone(g.Meta)
	if out.Meta == nil {
		out.Meta = map[string]any{}
	}
	out.Meta["layer"] = name
	return &out, out.Check()
}
