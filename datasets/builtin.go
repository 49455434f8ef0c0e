package datasets

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"slices"

	"pdnexplorer/edgekind"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
)

// The real graphs the explorer ships, as bundles with sparse features
// (written by scripts/planetoid.py from Planetoid's files; MIT licence, see
// builtin/LICENSE.planetoid): each a folder of ShippedFiles, named as
// the data row names it. Natively they are embedded (builtin_embed.go);
// the page's engine fetches a graph's folder when a run first asks for it
// (ShipFrom), so that a first visit does not carry them.
var shippedGraphs = []string{experiment.GraphCora, experiment.GraphCiteseer}

// ShippedFiles are the files of each shipped graph's folder.
var ShippedFiles = []string{"meta.json", "nodes.csv", "edges.csv", "features.csv"}

// shipped opens the folder of the shipped graph name (one of
// shippedGraphs); nil where no graph can be had.
var shipped func(name string) (fs.FS, error)

// shippedGraph opens the folder of the shipped graph name.
func shippedGraph(name string) (fs.FS, error) {
	if !slices.Contains(shippedGraphs, name) {
		return nil, phrase.Errorf("graph: %s is not a graph the explorer ships", experiment.Quote(name))
	}
	if shipped == nil {
		return nil, phrase.Errorf("graph: %s cannot be had here: the shipped graphs were not given to the engine", experiment.Quote(name))
	}
	return shipped(name)
}

// Builtin returns the real graph called name (experiment.GraphCora or
// GraphCiteseer) as shipped, with its public split and no edge features.
func Builtin(name string) (*Graph, error) {
	sub, err := shippedGraph(name)
	if err != nil {
		return nil, err
	}
	return ReadBundleFS(sub)
}

// BuiltinShape is the size of a shipped graph, from its meta.json alone:
// nodes, edges, feature columns, non-zero features and classes.
type BuiltinShape struct {
	Nodes, Edges, Features, NonZeros, Classes int
}

// ShapeOfBuiltin reads a shipped graph's size without loading it.
func ShapeOfBuiltin(name string) (BuiltinShape, error) {
	var m struct{ Nodes, Edges, Features, NonZeros, Classes int }
	sub, err := shippedGraph(name)
	if err != nil {
		return BuiltinShape{}, err
	}
	if _, err := readJSON(sub, "meta.json", &m); err != nil {
		return BuiltinShape{}, err
	}
	return BuiltinShape(m), nil
}

// Real returns the real graph d names, ready to train: its 11 tie-strength
// scores as edge features (Appendix F; these graphs come without any), and
// d.Shots labelled nodes per class drawn with d.Seed, the rest test nodes.
// Its edges' kinds follow the labels (KindsByLabel), for the views.
func Real(d experiment.Data) (*Graph, error) {
	g, err := Builtin(d.Graph)
	if err != nil {
		return nil, err
	}
	g = TieStrength(g)
	ShotSplit(g, d.Shots, d.Seed)
	KindsByLabel(g)
	return g, nil
}

// KindsByLabel marks each edge intra- or inter-class by its ends' labels,
// unknown where an end has no class (edgekind.Of). Like the generator's
// ground truth, the kinds serve the views and the metrics (how much weight
// a model leaves between classes), never training.
func KindsByLabel(g *Graph) {
	g.Kind = make([]edgekind.Kind, g.E())
	for e := range g.Src {
		g.Kind[e] = edgekind.Of(g.Labels[g.Src[e]], g.Labels[g.Dst[e]])
	}
}

// streamShots is the data seed's stream of the shot split.
const streamShots = 7

// ShotSplit marks, in each class, shots nodes drawn with the seed as
// training nodes and every other node with a class as a test node: the
// 100-shot protocol of the paper's Table 4 read as 100 labelled nodes per
// class. A class of no more than shots nodes keeps one test node (and says
// so in g.Notes), so that no class goes untested without a word. Nodes
// without a class stay unlabelled, drawn never.
func ShotSplit(g *Graph, shots int, seed uint64) {
	rnd := rand.New(stream(seed, streamShots))
	byClass := make([][]int, g.C)
	for i, l := range g.Labels {
		if l != NoClass {
			byClass[l] = append(byClass[l], i)
		}
	}
	for i, l := range g.Labels {
		g.Splits[i] = Test
		if l == NoClass {
			g.Splits[i] = Unlabelled
		}
	}
	var small, lone []phrase.Text
	train := 0
	for k, nodes := range byClass {
		rnd.Shuffle(len(nodes), func(a, b int) { nodes[a], nodes[b] = nodes[b], nodes[a] })
		take := min(shots, len(nodes))
		switch {
		case len(nodes) == 1:
			lone = append(lone, phrase.New("%s", g.ClassName(k)))
		case take == len(nodes):
			take--
			small = append(small, phrase.New("%s (%d nodes)", g.ClassName(k), len(nodes)))
		}
		for _, v := range nodes[:take] {
			g.Splits[v] = Train
		}
		train += take
	}
	// What a saved bundle's meta.json says of its split is the split it
	// holds, not the one the graph was published with.
	if g.Meta == nil {
		g.Meta = map[string]any{}
	}
	g.Meta["split"] = fmt.Sprintf("%d labelled nodes per class drawn with seed %d: %d train, %d test", shots, seed, train, g.N-g.Unlabelled()-train)
	if none := g.Unlabelled(); none > 0 {
		g.Meta["split"] = fmt.Sprintf("%s, %d without a class", g.Meta["split"], none)
	}
	g.Notes = slices.DeleteFunc(slices.Clone(g.Notes), func(n phrase.Text) bool {
		return n.Key == shotsNote || n.Key == shotsNotes || n.Key == loneNote
	})
	if len(lone) > 0 {
		g.Notes = append(g.Notes, phrase.New(loneNote, phrase.List(", ", lone)))
	}
	switch {
	case len(small) == 1:
		g.Notes = append(g.Notes, phrase.New(shotsNote, shots, small[0]))
	case len(small) > 1:
		g.Notes = append(g.Notes, phrase.New(shotsNotes, shots, phrase.List(", ", small)))
	}
}

// shotsNote and shotsNotes are ShotSplit's note for one small class and
// for several, which a new split replaces.
const (
	shotsNote  = "labelled nodes: %d a class: %s has no more, so it keeps one node to test on"
	shotsNotes = "labelled nodes: %d a class: %s have no more, so each keeps one node to test on"
	loneNote   = "a class of one node (%s) is trained on and never tested: its one node cannot be both"
)
