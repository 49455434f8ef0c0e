// Package datasets makes and loads the graphs PDNs train on: the paper's
// synthetic generator (§5.1, Appendix A) and graph bundles on disk (the
// interchange format shared with the PyTorch peer).
//
// A Graph is an undirected graph with N nodes, each with F features and a
// class label in 0..C-1, and E edges, each listed once with D features. The
// package knows nothing of models or training and nothing of the browser.
//
// A node may have no class (NoClass, in the Unlabelled split): a file's
// empty, NA or -1 class cell, or its format's own mark for it (see
// IsNoClass). It stays in the graph, so messages pass through it, but it is
// never a class, never trained, validated or tested on, and counts in no
// class, quantile, homophily or edge kind. Readers give a graph its classes
// only through the class builder (classes.go), which applies that rule.
package datasets

import (
	"math"
	"strconv"

	"pdnexplorer/edgekind"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
)

// Split says which set a node belongs to.
type Split int8

// Splits.
const (
	Train Split = iota
	Test
	Val
	// Unlabelled holds the nodes without a class (NoClass): in the
	// graph, never trained, validated or tested on.
	Unlabelled
)

var splitNames = [...]string{"train", "test", "val", "unlabelled"}

func (s Split) String() string {
	if s < 0 || int(s) >= len(splitNames) {
		return "split " + strconv.Itoa(int(s))
	}
	return splitNames[s]
}

// Edge kinds, the generator's ground truth; never used for training.
const (
	KindUnknown = edgekind.Unknown
	KindIntra   = edgekind.Intra
	KindInter   = edgekind.Inter
)

// Graph is an attributed undirected graph with node labels.
type Graph struct {
	N, F, C int
	X       []float64 // N×F node features, row-major; nil when XS holds them
	XS      *CSR      // the node features, N×F, when they are sparse
	Labels  []int     // class of each node, in 0..C-1, or NoClass
	Splits  []Split   // split of each node; Unlabelled exactly where NoClass

	D     int
	Src   []int32         // one end of each edge
	Dst   []int32         // the other end; Src[e] != Dst[e], each pair once
	EdgeX []float64       // E×D edge features, row-major
	Kind  []edgekind.Kind // KindIntra or KindInter per edge; nil when unknown
	// Weight is the weight a fixed-graph model propagates each edge with,
	// nil for 1: a PDN's learned graph, frozen, handed to GCN, SGC or
	// APPNP (experiment.FromPDN). No reader sets it.
	Weight []float64

	// ClassNames name the classes in the order of their numbers, where
	// the data names them (MUSAE's page types, a bundle's class_names);
	// nil where classes are only numbers.
	ClassNames []string
	// EdgeNames name the D edge features where they have names: a
	// multiplex graph's layers (MAM, MDM), a file's weight columns, the
	// tie-strength scores; nil where they are anonymous (the generator's).
	EdgeNames []string
	// Notes are what a reader changed or supplied that a user should
	// know: pairs dropped as repeats, features made from degrees.
	Notes []phrase.Text
	// SplitKept says the split is the one the files gave (a bundle's, an
	// OGB folder's), kept as Load was asked: seeds then change the weights
	// and dropout alone, not which nodes are labelled.
	SplitKept bool
	// Source is the graph of the state table's rows that drew it
	// (experiment.Graphs: synthetic, multiplex, cora…; Drawn sets it), ""
	// for one read from files, whose sizes are its own: a refusal names
	// the rows of the graph's own source (experiment.Data.Lever), never a
	// generator's rows for a graph no generator drew.
	Source string

	Meta map[string]any // name, generator parameters, seed
}

// ClassName is class k's name: the data's, else "class k".
func (g *Graph) ClassName(k int) string {
	if k >= 0 && k < len(g.ClassNames) {
		return g.ClassNames[k]
	}
	return "class " + strconv.Itoa(k)
}

// Recipe names the family of defaults g's graph starts from, by what its
// node features are, not by where it came from (experiment.Recipes):
// bag-of-words when they are sparse, non-negative counts or weights of
// many words (at least 100 features, at most a tenth of them non-zero,
// two or more a node on average, as Cora's, Citeseer's and MUSAE's are),
// the paper's otherwise (the synthetic graphs' Gaussian features, OGB's
// dense embeddings, a featureless graph's degree one-hots). The same graph
// so gets the same defaults generated, shipped or read from any files.
func (g *Graph) Recipe() string {
	vals := g.FeatureValues()
	cells := float64(g.N) * float64(g.F)
	nonzero := 0
	for _, v := range vals {
		switch {
		case v < 0:
			return experiment.RecipePaper
		case v != 0:
			nonzero++
		}
	}
	if g.F >= 100 && float64(nonzero) <= cells/10 && nonzero >= 2*g.N {
		return experiment.RecipeBagOfWords
	}
	return experiment.RecipePaper
}

// DenseX returns the node features as N×F row-major values, made from XS
// when they are sparse.
func (g *Graph) DenseX() []float64 {
	if g.XS != nil {
		return g.XS.Dense()
	}
	return g.X
}

// OwnDenseX returns the node features dense in a slice of the caller's
// own, to write over: sparse ones made dense once, dense ones copied (a
// copy of a dense copy of sparse features held three N×F at once).
func (g *Graph) OwnDenseX() []float64 {
	if g.XS != nil {
		return g.XS.Dense()
	}
	return append([]float64(nil), g.X...)
}

// FeatureValues returns the node features' stored values: all N×F of
// them, or only the non-zeros of sparse ones.
func (g *Graph) FeatureValues() []float64 {
	if g.XS != nil {
		return g.XS.Val
	}
	return g.X
}

// E returns the number of undirected edges.
func (g *Graph) E() int { return len(g.Src) }

// Nodes returns the indices of the nodes in split s.
func (g *Graph) Nodes(s Split) []int {
	var out []int
	for i, sp := range g.Splits {
		if sp == s {
			out = append(out, i)
		}
	}
	return out
}

// Check reports the first inconsistency in g: wrong lengths, ids out of
// range, self-loops, repeated pairs, labels out of range, non-finite values.
// Readers and generators call it so that the engine can trust a Graph.
func (g *Graph) Check() error {
	switch {
	case g.N < 1 || g.C < 1 || g.F < 0 || g.D < 0:
		return phrase.Errorf("graph: N=%d, C=%d, F=%d, D=%d: want N, C ≥ 1 and F, D ≥ 0", g.N, g.C, g.F, g.D)
	case g.XS == nil && len(g.X) != g.N*g.F || len(g.Labels) != g.N || len(g.Splits) != g.N:
		return phrase.Errorf("graph: node arrays do not have N=%d rows", g.N)
	case g.XS != nil && (len(g.X) != 0 || g.XS.Rows != g.N || g.XS.Cols != g.F):
		return phrase.Errorf("graph: sparse node features of %d×%d (and %d dense values) for N=%d, F=%d", g.XS.Rows, g.XS.Cols, len(g.X), g.N, g.F)
	case len(g.Dst) != len(g.Src) || len(g.EdgeX) != len(g.Src)*g.D:
		return phrase.Errorf("graph: edge arrays do not have E=%d rows", len(g.Src))
	case g.Kind != nil && len(g.Kind) != len(g.Src):
		return phrase.Errorf("graph: %d edge kinds for %d edges", len(g.Kind), len(g.Src))
	}
	for i, l := range g.Labels {
		switch sp := g.Splits[i]; {
		case l == NoClass && sp != Unlabelled:
			return phrase.Errorf("graph: node %d has no class but is in the %s split", i, sp.String())
		case l != NoClass && (l < 0 || l >= g.C):
			return phrase.Errorf("graph: node %d: label %d out of range 0..%d", i, l, g.C-1)
		case l != NoClass && sp == Unlabelled:
			return phrase.Errorf("graph: node %d is of class %d but in the unlabelled split", i, l)
		case sp < Train || sp > Unlabelled:
			return phrase.Errorf("graph: node %d: split %d is none of train, test, val, unlabelled", i, sp)
		}
	}
	seen := make(map[[2]int32]int, len(g.Src))
	for e := range g.Src {
		u, v := g.Src[e], g.Dst[e]
		if u < 0 || v < 0 || int(u) >= g.N || int(v) >= g.N {
			return phrase.Errorf("graph: edge %d (%d,%d): id out of range 0..%d", e, u, v, g.N-1)
		}
		if u == v {
			return phrase.Errorf("graph: edge %d: self-loop on node %d", e, u)
		}
		key := [2]int32{min(u, v), max(u, v)}
		if first, dup := seen[key]; dup {
			return phrase.Errorf("graph: edge %d (%d,%d) repeats edge %d", e, u, v, first)
		}
		seen[key] = e
	}
	for i, x := range g.X {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return phrase.Errorf("graph: node %d feature %d is %v", i/g.F, i%g.F, x)
		}
	}
	if g.XS != nil {
		if err := g.XS.Check(); err != nil {
			return phrase.Errorf("graph: node features: %w", err)
		}
	}
	for i, x := range g.EdgeX {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return phrase.Errorf("graph: edge %d feature %d is %v", i/g.D, i%g.D, x)
		}
	}
	return nil
}
