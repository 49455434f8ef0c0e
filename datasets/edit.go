package datasets

import (
	"maps"
	"math"
	"slices"

	"pdnexplorer/edgekind"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
)

// EditError says which edit of a list cannot be applied to a graph, and
// why: Item counts from 1.
type EditError struct {
	Item int
	Edit string
	Msg  phrase.Text
}

func (e *EditError) Error() string { return e.Phrase().String() }

// Phrase says the error as a message.
func (e *EditError) Phrase() phrase.Text {
	return phrase.New("edits: edit %d (%s): %s", e.Item, e.Edit, e.Msg)
}

// edited returns g with the edit list text (experiment.Edits) applied in
// order; g itself is left as it was, and returned as it is for no edits.
// An added edge joins the end of the edge list, so that adding an edge
// and removing it again gives g back exactly; a removal keeps the order
// of the rest. A feature set by value must lie in the range that feature
// spans over g's edges (the generator's range, for a drawn graph), so an
// edit never asks the model about inputs it was not made for. Edge kinds,
// where g has them, follow the labels of the new edge's ends.
func edited(g *Graph, text string) (*Graph, error) {
	if text == "" {
		return g, nil
	}
	es, err := experiment.ParseEdits(text)
	if err != nil {
		return nil, phrase.Errorf("edits: %w", err)
	}
	out := *g
	out.Src, out.Dst, out.EdgeX = slices.Clone(g.Src), slices.Clone(g.Dst), slices.Clone(g.EdgeX)
	if g.Kind != nil {
		out.Kind = slices.Clone(g.Kind)
	}
	out.Meta = maps.Clone(g.Meta)
	if out.Meta == nil {
		out.Meta = map[string]any{}
	}
	out.Meta["edits"] = text
	lo, hi := FeatureRanges(g)
	for i, e := range es {
		if msg := out.apply(e, lo, hi); !msg.IsZero() {
			return nil, &EditError{Item: i + 1, Edit: e.String(), Msg: msg}
		}
	}
	return &out, nil
}

// FeatureRanges returns the least and the greatest value of each edge
// feature over g's edges (0 and 0 for a graph without edges).
func FeatureRanges(g *Graph) (lo, hi []float64) {
	lo, hi = make([]float64, g.D), make([]float64, g.D)
	for k := range g.D {
		lo[k], hi[k] = math.Inf(1), math.Inf(-1)
		for e := range g.E() {
			x := g.EdgeX[e*g.D+k]
			lo[k], hi[k] = min(lo[k], x), max(hi[k], x)
		}
		if g.E() == 0 {
			lo[k], hi[k] = 0, 0
		}
	}
	return lo, hi
}

// EdgeIndex returns the index of edge u–v in g (either way round), -1 if
// g has none.
func (g *Graph) EdgeIndex(u, v int) int { return experiment.EdgeAt(g.Src, g.Dst, u, v) }

// apply makes one edit, or says why it cannot.
func (g *Graph) apply(e experiment.Edit, lo, hi []float64) phrase.Text {
	for _, n := range []int{e.U, e.V} {
		if n >= g.N {
			return phrase.New("node %d is out of range: the graph's nodes are 0 to %d", n, g.N-1)
		}
	}
	at := g.EdgeIndex(e.U, e.V)
	from := -1
	if e.HasFrom {
		if from = g.EdgeIndex(e.From[0], e.From[1]); from < 0 {
			return phrase.New("there is no edge %d-%d to copy the features of", e.From[0], e.From[1])
		}
	}
	switch e.Op {
	case experiment.EditAdd:
		if at >= 0 {
			return phrase.New("the graph has edge %d-%d already", e.U, e.V)
		}
		if !e.HasFrom && g.D > 0 {
			kind := edgekind.Of(g.Labels[e.U], g.Labels[e.V])
			if from = experiment.ExampleEdge(g.Src, g.Dst, g.Labels, kind, -1); from < 0 {
				return phrase.New("the graph has no %s edge to copy the features of; name one to copy with c", kindWords(kind))
			}
		}
		g.add(e.U, e.V, from)
	case experiment.EditRemove:
		if at < 0 {
			return phrase.New("there is no edge %d-%d to remove", e.U, e.V)
		}
		g.remove(at)
	case experiment.EditSet:
		switch {
		case at < 0:
			return phrase.New("there is no edge %d-%d to set", e.U, e.V)
		case g.D == 0:
			return phrase.New("the graph's edges have no features to set")
		case e.HasFrom:
			copy(g.EdgeX[at*g.D:(at+1)*g.D], g.EdgeX[from*g.D:(from+1)*g.D])
		case e.Feature >= g.D:
			return phrase.New("feature %d is out of range: the edges have features 0 to %d", e.Feature, g.D-1)
		case e.Value < lo[e.Feature] || e.Value > hi[e.Feature]:
			return phrase.New("%g is out of range for feature %d: the graph's edges have it in [%g, %g]",
				e.Value, e.Feature, lo[e.Feature], hi[e.Feature])
		default:
			g.EdgeX[at*g.D+e.Feature] = e.Value
		}
	}
	return phrase.Text{}
}

// add appends edge u–v with the features of edge from (zeros for -1).
func (g *Graph) add(u, v, from int) {
	g.Src, g.Dst = append(g.Src, int32(u)), append(g.Dst, int32(v))
	feats := make([]float64, g.D)
	if from >= 0 {
		copy(feats, g.EdgeX[from*g.D:(from+1)*g.D])
	}
	g.EdgeX = append(g.EdgeX, feats...)
	if g.Kind != nil {
		g.Kind = append(g.Kind, edgekind.Of(g.Labels[u], g.Labels[v]))
	}
}

// remove deletes edge at, keeping the order of the others.
func (g *Graph) remove(at int) {
	g.Src, g.Dst = slices.Delete(g.Src, at, at+1), slices.Delete(g.Dst, at, at+1)
	g.EdgeX = slices.Delete(g.EdgeX, at*g.D, (at+1)*g.D)
	if g.Kind != nil {
		g.Kind = slices.Delete(g.Kind, at, at+1)
	}
}

func kindWords(k edgekind.Kind) phrase.Text {
	switch k {
	case edgekind.Intra:
		return phrase.New("intra-class")
	case edgekind.Inter:
		return phrase.New("inter-class")
	}
	return phrase.New("unknown-kind (an end without a class)")
}
