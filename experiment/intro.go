package experiment

import (
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/numtext"
)

// GraphFacts are what a lab's intro says of the graph it trains on, read
// from that graph as the engine built it (or, before it has, from the
// state): the data row it came from, the name one's own files gave it,
// and its counts. A count of 0 nodes means the engine has not said yet:
// the intro then names the graph and no more.
type GraphFacts struct {
	// Graph is the data row the graph came from (one of Graphs).
	Graph string
	// Name is what one's own files call the graph (meta.json's name, the
	// folder's, the file's); the explorer's own graphs are named by Graph.
	Name                                          string
	Classes, Nodes, Edges, Features, EdgeFeatures int
	// Unlabelled counts the nodes without a class.
	Unlabelled int
	// Scores says the edge features are the tie-strength scores the
	// explorer gave a graph that came without edge features of its own.
	Scores bool
}

// FactsOfState are the facts a state tells of its graph before the engine
// has built it: its name, and the classes a generator draws.
func FactsOfState(d Data) GraphFacts {
	f := GraphFacts{Graph: d.Graph}
	if !d.Real() {
		f.Classes = d.Classes
	}
	return f
}

// Intro is what a lab's first screen says before any control: the graph
// it trains on, written from that graph's facts (zero for a lab whose runs
// train on many graphs, the sweep's), then what the lab does with it (the
// lab row's Intro).
type Intro struct {
	Graph, Lab phrase.Text
}

// IntroOf is the lab's intro on the graph f: the one place that writes it,
// so that every lab says the graph it trains on, generated or opened, and
// no lab's words describe another graph than the one on screen.
func (l Lab) IntroOf(f GraphFacts) Intro {
	in := Intro{Lab: phrase.New(l.Intro)}
	if !l.Queue {
		in.Graph = f.Sentence()
	}
	return in
}

// Title names the graph: one's own by its files' name, the explorer's own
// by its row.
func (f GraphFacts) Title() phrase.Text {
	switch f.Graph {
	case GraphSynthetic:
		return phrase.New("The paper's synthetic graph")
	case GraphXOR:
		return phrase.New("The XOR graph")
	case GraphScaleFree:
		return phrase.New("A scale-free graph")
	case GraphMultiplex:
		return phrase.New("A multiplex graph")
	case GraphCora:
		return phrase.New("Cora")
	case GraphCiteseer:
		return phrase.New("Citeseer")
	case GraphLocal:
		if f.Name != "" {
			return phrase.New("%s", f.Name)
		}
		return phrase.New("Your graph")
	}
	return phrase.New("%s", f.Graph)
}

// note says what a generator's graph is built to show, after its counts:
// the XOR graph's edges and layers, the scale-free graph's degrees.
func (f GraphFacts) note() (phrase.Text, bool) {
	switch f.Graph {
	case GraphXOR:
		return phrase.New("An edge joins two nodes of one class exactly when one of its two layers holds it (XOR)."), true
	case GraphScaleFree:
		return phrase.New("Its degrees span orders of magnitude."), true
	case GraphMultiplex:
		return phrase.New("Its edge features are its layers: 1 where a layer holds the edge."), true
	}
	return phrase.Text{}, false
}

// Sentence says the graph: its name, classes, nodes, edges and features,
// with what a generator's graph is built to show; its name (and classes)
// alone before the engine has built it.
func (f GraphFacts) Sentence() phrase.Text {
	if f.Nodes <= 0 {
		if f.Classes > 0 {
			return phrase.New("%s of %d classes.", f.Title(), f.Classes)
		}
		return phrase.New("%s.", f.Title())
	}
	classes := phrase.New("%d classes", f.Classes)
	if f.Unlabelled > 0 {
		classes = phrase.New("%d classes (%s nodes have none)", f.Classes, numtext.Group(f.Unlabelled))
	}
	s := phrase.New("%s: %s, %s nodes, %s edges, %s node features and %s.", f.Title(), classes,
		numtext.Group(f.Nodes), numtext.Group(f.Edges), numtext.Group(f.Features), f.edgeFeatures())
	if note, ok := f.note(); ok {
		s = phrase.New("%s %s", s, note)
	}
	return s
}

// edgeFeatures says the graph's edge features: the tie-strength scores the
// explorer gave it, its own, or none.
func (f GraphFacts) edgeFeatures() phrase.Text {
	switch {
	case f.Scores:
		return phrase.New("%d tie-strength scores as edge features", f.EdgeFeatures)
	case f.EdgeFeatures == 0:
		return phrase.New("no edge features")
	}
	return phrase.New("%s edge features", numtext.Group(f.EdgeFeatures))
}
