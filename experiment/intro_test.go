package experiment

import (
	"strconv"
	"strings"
	"testing"

	"pdnexplorer/internal/numtext"
)

// Every lab's intro says the graph it trains on, from that graph's facts,
// generated or opened from files, and its own words describe no graph:
// a lab that said "a graph of three classes" over Cora opened as GraphML
// fails here. The sweep trains on many graphs of a scenario, and says so.
func TestEveryLabIntroSaysItsGraph(t *testing.T) {
	graphs := []GraphFacts{
		{Graph: GraphSynthetic, Classes: 3, Nodes: 1500, Edges: 7429, Features: 32, EdgeFeatures: 32},
		{Graph: GraphLocal, Name: "cora.graphml", Classes: 7, Nodes: 2708, Edges: 5278, Features: 1433, EdgeFeatures: 11, Scores: true, Unlabelled: 3},
		{Graph: GraphXOR, Classes: 2, Nodes: 240, Edges: 1234, Features: 32, EdgeFeatures: 2},
	}
	for _, l := range Labs {
		for _, f := range graphs {
			t.Run(l.Name+"/"+f.Graph, func(t *testing.T) {
				in := l.IntroOf(f)
				if in.Lab.String() != l.Intro || l.Intro == "" {
					t.Errorf("the lab's words %q, want its row's", in.Lab)
				}
				for _, name := range []string{"Cora", "Citeseer", "XOR graph", "scale-free", "synthetic", "graph of", "classes;"} {
					if strings.Contains(l.Intro, name) {
						t.Errorf("the lab's own words name a graph (%q): %q", name, l.Intro)
					}
				}
				if l.Queue {
					if !in.Graph.IsZero() {
						t.Errorf("the sweep trains on many graphs, yet says one: %q", in.Graph)
					}
					return
				}
				s := in.Graph.String()
				for _, want := range []string{f.Title().String(), strconv.Itoa(f.Classes) + " classes", numtext.Group(f.Nodes) + " nodes", numtext.Group(f.Edges) + " edges", numtext.Group(f.Features) + " node features", strconv.Itoa(f.EdgeFeatures)} {
					if !strings.Contains(s, want) {
						t.Errorf("the intro %q does not say %q", s, want)
					}
				}
			})
		}
	}
}

// Before the engine has built the graph, the intro names it (and the
// classes a generator draws), and says no count it does not know.
func TestIntroBeforeTheGraph(t *testing.T) {
	for _, c := range []struct {
		d    Data
		want string
	}{
		{Default().Data, "The paper's synthetic graph of 3 classes."},
		{Data{Graph: GraphCora}, "Cora."},
		{Data{Graph: GraphLocal}, "Your graph."},
	} {
		if got := FactsOfState(c.d).Sentence().String(); got != c.want {
			t.Errorf("%s: %q, want %q", c.d.Graph, got, c.want)
		}
	}
}
