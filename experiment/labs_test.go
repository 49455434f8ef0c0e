package experiment

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// Every lab of the table opens from its name alone with a usable state,
// offers rows of the state table, and makes runs of distinct names on one
// graph: the page shows them side by side, and the CLI trains them alike.
func TestLabTable(t *testing.T) {
	seen := map[string]bool{}
	for _, l := range Labs {
		t.Run(l.Name, func(t *testing.T) {
			if seen[l.Name] || l.Title == "" || l.Runs == nil {
				t.Fatalf("lab %q: repeated, untitled or without runs", l.Name)
			}
			seen[l.Name] = true
			e := ForLab(l.Name)
			if err := e.Validate(); err != nil || e.View.Lab != l.Name {
				t.Fatalf("ForLab: lab %q, %v", e.View.Lab, err)
			}
			for _, d := range strings.Split(l.Defaults, "&") {
				if k, v, ok := strings.Cut(d, "="); ok {
					if p, _ := Lookup(k); p.Get(&e) != v {
						t.Errorf("default %s: the lab opens with %s", d, p.Get(&e))
					}
				}
			}
			for _, name := range append(slices.Clone(l.Rows), l.Hide...) {
				if p, ok := Lookup(name); !ok || p.Group == GroupView {
					t.Errorf("row %q is not a row the engine reads", name)
				}
			}
			shown := 0
			for _, p := range Params {
				if l.Shows(p) {
					shown++
				}
				if l.Shows(p) && p.Form != "" {
					t.Errorf("the free-text row %s is offered as a control", p.Name)
				}
			}
			if shown == 0 {
				t.Error("the lab offers no control")
			}
			runs := l.Runs(e)
			if len(runs) == 0 {
				t.Fatal("no run")
			}
			names := map[string]bool{}
			for _, r := range runs {
				if names[r.Name] || r.Name == "" || r.Title == "" {
					t.Errorf("run %q (%q): repeated or unnamed", r.Name, r.Title)
				}
				names[r.Name] = true
				if err := r.Exp.Validate(); err != nil {
					t.Errorf("run %s: %v", r.Name, err)
				}
				switch {
				case l.Queue:
					// A queued lab's runs each have a graph of their own.
					if r.Exp.Train.Epochs != e.Train.Epochs || r.Exp.Train.LR != e.Train.LR {
						t.Errorf("run %s trains otherwise than the lab's state", r.Name)
					}
				case allLayers(r.Exp.Data) != e.Data || r.Exp.Train != e.Train:
					// One graph, or one layer of it (the multiplex lab's).
					t.Errorf("run %s trains other data or otherwise than the lab's state", r.Name)
				}
			}
		})
	}
	if !slices.Equal(labNames(), mustLookup(t, "lab").Choices) {
		t.Errorf("the lab row offers %v, the table has %v", mustLookup(t, "lab").Choices, labNames())
	}
}

// A lab's runs follow its state: the compare lab's are its models row.
func TestLabRunsFollowTheState(t *testing.T) {
	l, _ := LabNamed("compare")
	e, err := Decode("lab=compare&models=gat,pdn,mlp&lr=0.02")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range l.Runs(e) {
		got = append(got, r.Name+":"+r.Exp.Model.Kind)
		if r.Exp.Train.LR != 0.02 {
			t.Errorf("run %s trains with lr %v", r.Name, r.Exp.Train.LR)
		}
	}
	if strings.Join(got, ",") != "gat:gat,pdn:pdn,mlp:mlp" {
		t.Errorf("runs %v", got)
	}
	// The XOR lab's remedies are the 2-neuron pathfinder's alone.
	x, _ := LabNamed("xor")
	for _, r := range x.Runs(ForLab("xor")) {
		if remedy := r.Exp.Model.Restarts > 0 || r.Exp.Model.EdgeInit == InitAlive; remedy != (r.Name == "pdn-2") {
			t.Errorf("run %s: restarts %d, edge-init %s", r.Name, r.Exp.Model.Restarts, r.Exp.Model.EdgeInit)
		}
	}
	// The graph lab's one run keeps its name whatever the model.
	g, _ := LabNamed("graph")
	a, b := ForLab("graph"), ForLab("graph")
	b.Model.Kind = GAT
	if g.Runs(a)[0].Name != g.Runs(b)[0].Name {
		t.Error("the graph lab's run changes name with the model")
	}
}

// Tours and presets open labs of the table.
func TestToursAndPresetsOpenLabs(t *testing.T) {
	for _, p := range Presets {
		e, _ := Decode(p.Link)
		if _, ok := LabNamed(e.View.Lab); !ok {
			t.Errorf("preset %s opens no lab", p.Name)
		}
	}
	for _, tour := range Tours {
		for k, s := range tour.Steps {
			e, _ := Decode(s.Link)
			if _, ok := LabNamed(e.View.Lab); !ok || s.Title == "" {
				t.Errorf("%s step %d opens no lab or has no title", tour.Name, k+1)
			}
		}
	}
}

func mustLookup(t *testing.T, name string) Param {
	t.Helper()
	p, ok := Lookup(name)
	if !ok {
		t.Fatalf("no row %s", name)
	}
	return p
}

// A lab's runs are the models a state makes: the XOR lab trains four on
// one graph, the remedies (edge-init, restarts) the 2-neuron pathfinder's.
func ExampleLab() {
	l, _ := LabNamed("xor")
	for _, r := range l.Runs(ForLab("xor")) {
		m := r.Exp.Model
		fmt.Printf("%-10s %-10s pathfinder %-5s init %-7s restarts %d, on %s\n", r.Name, m.Kind, FormatSizes(m.EdgeHidden), m.EdgeInit, m.Restarts, r.Exp.Data.Graph)
	}
	// Output:
	// pdn-16     pdn        pathfinder 16    init uniform restarts 0, on xor
	// pdn-2      pdn        pathfinder 2     init alive   restarts 4, on xor
	// pdn-linear pdn-linear pathfinder none  init uniform restarts 0, on xor
	// gcn        gcn        pathfinder none  init uniform restarts 0, on xor
}

// A lab's story shows at most MaxStory of the rows it offers, and says
// what is on its first screen.
func TestLabStories(t *testing.T) {
	for _, l := range Labs {
		if l.Intro == "" {
			t.Errorf("the %s lab says nothing first", l.Name)
		}
		for _, d := range []string{GraphSynthetic, GraphCora} {
			e := ForLab(l.Name)
			e.Data.Graph = d
			n := 0
			for _, name := range l.Story {
				if p, ok := Lookup(name); ok && p.Applies(e.Data) {
					n++
				}
			}
			if n > MaxStory {
				t.Errorf("the %s lab's story shows %d controls on %s, over %d", l.Name, n, d, MaxStory)
			}
		}
		for _, name := range l.Story {
			if p, ok := Lookup(name); !ok || !l.Shows(p) {
				t.Errorf("the %s lab's story names %s, which it does not offer", l.Name, name)
			}
		}
	}
}

// A row the link hides keeps its start, however the link sets it, and
// says so; hide names engine rows only.
func TestHiddenRowsAreRefused(t *testing.T) {
	e, err := Decode("lab=graph&hide=dropout,q&dropout=0.3&q=0.01")
	if e.Model.Dropout != 0.5 || e.Data.Q != 0.005 || err == nil || !strings.Contains(err.Error(), "hidden by this link") {
		t.Errorf("dropout %v, q %v, %v", e.Model.Dropout, e.Data.Q, err)
	}
	if !e.View.Hidden("q") || e.View.Hidden("p") {
		t.Errorf("hidden: %q", e.View.Hide)
	}
	for _, bad := range []string{"hide=lab", "hide=nosuch", "hide=q,q"} {
		if _, err := Decode("lab=graph&" + bad); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

// Lab.Results is the one reader of a link's results row: a lab that trains
// runs to their end takes a result per run of its Trains and refuses more,
// in its own name; a lab that trains none refuses any. Every lab of the
// table has its cell.
func TestLabResults(t *testing.T) {
	for _, l := range Labs {
		t.Run(l.Name, func(t *testing.T) {
			e := ForLab(l.Name)
			if res, err := l.Results(e); err != nil || l.Trains != nil && len(res) != len(l.Trains(e)) {
				t.Fatalf("no results: %d, %v", len(res), err)
			}
			e.View.Results = "5000"
			res, err := l.Results(e)
			if l.Trains == nil {
				if err == nil || !strings.Contains(err.Error(), "results: the "+l.Name+" lab trains no runs to their end") {
					t.Errorf("a lab that trains none took results: %v", err)
				}
				return
			}
			if err != nil || !res[0].Done || res[0].Acc != 0.5 || len(res) != len(l.Trains(e)) {
				t.Errorf("one result: %v, %v", res[:1], err)
			}
			n := len(l.Trains(e))
			e.View.Results = strings.Repeat("1.", n) + "1"
			if _, err := l.Results(e); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%d of them, but the %s lab trains %d runs", n+1, l.Name, n)) {
				t.Errorf("%d results for %d runs: %v", n+1, n, err)
			}
		})
	}
}

// allLayers is d with every layer of its graph.
func allLayers(d Data) Data {
	d.Layer = ""
	return d
}
