package experiment

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"pdnexplorer/i18n/phrase"
)

// otherValue is a valid value of row p other than the one e holds: how a
// test gives a row.
func otherValue(t *testing.T, p Param, e Experiment) string {
	t.Helper()
	now := p.Get(&e)
	var tries []string
	switch p.Name {
	case "edge-hidden":
		tries = []string{"32,16", "none"}
	case "models":
		tries = []string{"gcn,mlp", "pdn,gcn"}
	case EditsRow:
		tries = []string{"a0-1"}
	case "id-column", "target":
		tries = []string{"label"}
	case "results":
		tries = []string{"5000"}
	case "hide":
		tries = []string{"q"}
	case "layers":
		tries = []string{"90,10"}
	case "layer":
		tries = []string{"B"}
	case "pathfinder-rows":
		tries = []string{"sigma-d=8"}
	case "restart-epochs":
		tries = []string{"7"} // below every lab's epochs: a value the row takes alone (Conflicts)
	}
	tries = append(tries, p.Choices...)
	tries = append(tries, num(p.Max), num(p.Min))
	for _, v := range tries {
		x := e
		if p.Set(&x, v) == nil && p.Get(&x) != now {
			return v
		}
	}
	t.Fatalf("no other value for %s than %s", p.Name, now)
	return ""
}

// Every row has an answer to "who reads it": a view row every lab or
// some lab's Views; an engine row some model, some graph, some lab that
// takes it from its state, and the row it waits on is a row. A new row
// without one fails here rather than going unchecked.
func TestEveryRowHasReaders(t *testing.T) {
	for _, p := range Params {
		t.Run(p.Name, func(t *testing.T) {
			if p.Needs != nil {
				if q, ok := Lookup(p.Needs.Row); !ok || q.Name == p.Name || p.Needs.Holds == nil || p.Needs.When.Key == "" {
					t.Errorf("waits on %q, which is no other row, or says nothing", p.Needs.Row)
				}
			}
			var labs []string
			for _, l := range Labs {
				if _, ok := l.Reader().Reads(p, someReadingState(p, l)); ok {
					labs = append(labs, l.Name)
				}
			}
			if len(labs) == 0 {
				t.Error("no lab reads it")
			}
			if p.Group == GroupView {
				return
			}
			if p.Models != nil && len(p.Models) == 0 || p.Graphs != nil && len(p.Graphs) == 0 {
				t.Errorf("no model (%v) or no graph (%v) reads it", p.Models, p.Graphs)
			}
			for _, g := range p.Graphs {
				if !slices.Contains(Graphs, g) {
					t.Errorf("read by graph %q, which is none", g)
				}
			}
			for _, m := range p.Models {
				if _, ok := ModelNamed(m); !ok {
					t.Errorf("read by model %q, which is none", m)
				}
			}
		})
	}
	for _, l := range Labs {
		for _, v := range l.Views {
			if p, ok := Lookup(v); !ok || p.Group != GroupView || slices.Contains(CommonViews, v) {
				t.Errorf("the %s lab reads view %q, which is no view row of its own", l.Name, v)
			}
		}
		for name, why := range l.Sets {
			if p, ok := Lookup(name); !ok || p.Group == GroupView || why.Key == "" {
				t.Errorf("the %s lab sets %q, which is no engine row, or says not why", l.Name, name)
			}
		}
		for _, name := range l.Hide {
			if _, ok := l.Sets[name]; !ok {
				t.Errorf("the %s lab hides %s without saying why (Sets)", l.Name, name)
			}
		}
	}
	for _, m := range Models {
		for name := range m.Fixed {
			if p, ok := Lookup(name); !ok || slices.Contains(p.Models, m.Name) {
				t.Errorf("model %s fixes %q, which is no row or one it reads", m.Name, name)
			}
		}
	}
}

// someReadingState is a state of lab l in which p's conditions hold as
// far as they can: a model that reads it, a graph that reads it, the row
// it waits on set.
func someReadingState(p Param, l Lab) Experiment {
	e := ForLab(l.Name)
	if p.Models != nil {
		e.Model.Kind = p.Models[0]
		e.View.Models = append([]string{p.Models[0]}, slices.DeleteFunc(slices.Clone(e.View.Models), func(m string) bool { return m == p.Models[0] })...)
	}
	if p.Graphs != nil {
		e.Data.Graph = p.Graphs[0]
	}
	e.Model.Restarts, e.Data.Perturb, e.Data.PerturbRate, e.View.Tour = 2, PerturbDrop, 0.2, "paper"
	// A row that waits on a row of choices gets the choice it waits for
	// (pathfinder-seed on graph-from pdn).
	if p.Needs != nil && !p.Needs.Holds(&e) {
		if q, ok := Lookup(p.Needs.Row); ok {
			for _, c := range q.Choices {
				if x := e; q.Set(&x, c) == nil && p.Needs.Holds(&x) {
					e = x
					break
				}
			}
		}
	}
	return e
}

// One run (pdn train, the worker) refuses a row given exactly where the
// tables say it is unread: every model on every graph, every engine row.
func TestUnreadByModelAndGraph(t *testing.T) {
	r := RunReader(phrase.New("pdn train"))
	for _, kind := range Kinds {
		for _, g := range Graphs {
			for _, p := range Params {
				if p.Group == GroupView {
					continue
				}
				e := Default()
				e.Model.Kind, e.Data.Graph = kind, g
				v := otherValue(t, p, e)
				if err := p.Set(&e, v); err != nil {
					t.Fatal(err)
				}
				m, _ := ModelNamed(kind)
				want := !p.Applies(e.Data) || p.Group == GroupModel && !p.Matters(e.Model) ||
					p.Needs != nil && !p.Needs.Holds(&e) || p.EdgeOnly && !m.EdgeFeatures || p.onlyEdges(e) && !m.Graph
				got := r.Unread(e, func(n string) bool { return n == p.Name })
				if (len(got) > 0) != want {
					t.Errorf("%s on %s, %s=%s: refused %v, want %v", kind, g, p.Name, v, got, want)
					continue
				}
				if len(got) == 0 {
					continue
				}
				why := got[0].Why.String()
				if got[0].Row != p.Name || !strings.Contains(why, "read") {
					t.Errorf("%s on %s, %s=%s: %s: %s says not why", kind, g, p.Name, v, got[0].Row, why)
				}
				if p.Models != nil && !slices.Contains(p.Models, kind) && !strings.Contains(why, "model "+kind) {
					t.Errorf("%s=%s: %q does not name model %s", p.Name, v, why, kind)
				}
				if _, fixed := m.Fixed[p.Name]; fixed && !strings.Contains(why, "is fixed at") {
					t.Errorf("%s=%s on %s: %q does not say the model fixes it", p.Name, v, kind, why)
				}
			}
		}
	}
}

// A perturbation of the edges is unread by a model that passes no
// messages (the MLP), as an edit is; one of the node features is read.
// A lab, whose views show the graph's edges, reads both.
func TestPerturbingTheEdgesOfAModelWithoutMessages(t *testing.T) {
	r := RunReader(phrase.New("pdn train"))
	for _, p := range Perturbations {
		e := Default()
		e.Model.Kind, e.Data.Perturb, e.Data.PerturbRate = MLP, p.Name, p.Rates[1]
		got := r.Unread(e, func(n string) bool { return n == "perturb" || n == "perturb-rate" })
		if refused := len(got) == 2; refused != p.Edges {
			t.Errorf("mlp, perturb=%s: refused %v, want %v", p.Name, got, p.Edges)
		}
		for _, u := range got {
			if !strings.Contains(u.Why.String(), "model mlp passes no messages along the graph's edges") {
				t.Errorf("mlp, perturb=%s: %s: %s", p.Name, u.Row, u.Why)
			}
		}
		link := fmt.Sprintf("lab=graph&model=mlp&perturb=%s&perturb-rate=%g", p.Name, p.Rates[1])
		if _, err := Decode(link); err != nil {
			t.Errorf("%s: %v", link, err)
		}
	}
}

// The audit's rows that do not apply, as a link and as one run: each is
// refused by name, saying why and what reads it.
func TestUnreadRowsOfTheAudit(t *testing.T) {
	for _, c := range []struct {
		name, link string
		want       []string // in the notice, in order
		check      func(e Experiment) bool
	}{
		{"139 graph-from on pdn", "model=pdn&graph-from=pdn",
			[]string{"graph-from: model pdn does not read it (only gcn, appnp, sgc read it); it keeps input"},
			func(e Experiment) bool { return e.Model.GraphFrom == FromInput }},
		{"139 graph-from on mlp", "model=mlp&graph-from=pdn", []string{"graph-from: model mlp does not read it"}, nil},
		{"143 hops on cheb", "model=cheb&hops=5",
			[]string{"hops: model cheb does not read it (its K is fixed at 3; only pdn-multiscale reads it); it keeps 2"},
			func(e Experiment) bool { return e.Model.Hops == 2 && e.Model.Kind == Cheb }},
		{"143 pathfinder on cheb", "model=cheb&edge-hidden=32,16", []string{"edge-hidden: model cheb does not read it (only pdn reads it); it keeps 16"}, nil},
		{"134 a perturbation without a rate", "perturb=drop-edges",
			[]string{"perturb: read only when perturb-rate is above 0 (at 0 the graph is as it is); perturb-rate is 0; it keeps none"},
			func(e Experiment) bool { return e.Data.Perturb == PerturbNone }},
		{"135 175 a rate without a perturbation", "lab=graph&perturb=none&perturb-rate=0.5",
			[]string{"perturb-rate: read only when perturb names a perturbation; perturb is none; it keeps 0"},
			func(e Experiment) bool { return e.Data.PerturbRate == 0 }},
		{"restart-epochs without restarts", "restart-epochs=7", []string{"restart-epochs: read only when restarts is above 0; restarts is 0"}, nil},
		{"a real graph's size", "data=cora&per-class=64", []string{"per-class: graph cora does not read it (only synthetic, xor, scale-free, multiplex read it)"}, nil},
		{"the compare lab's model", "lab=compare&model=gcn",
			[]string{"model: the compare lab sets it itself: its models row names the models it trains; it keeps pdn"}, nil},
		{"the sweep's seeds", "lab=sweep&init-seed=3", []string{"init-seed: the sweep lab sets it itself: rep r trains with weight seed r"}, nil},
		{"a view row of another lab", "lab=xor&threshold=0.5", []string{"threshold: the xor lab does not read it (the graph, compare labs read it)"}, nil},
		{"a row the lab does not offer", "lab=degree&perturb=drop-edges&perturb-rate=0.2",
			[]string{"perturb: the degree lab does not read it", "perturb-rate: the degree lab does not read it"}, nil},
		{"no model of the lab reads it", "lab=compare&models=gcn,mlp&hops=4", []string{"hops: none of the models gcn, mlp reads it (only pdn-multiscale reads it)"}, nil},
		{"a row of the lab's other runs", "lab=compare&models=gcn,pdn-multiscale&hops=4", nil, nil},
		{"the reason of the run whose model reads it", "lab=compare&models=gcn,pdn&edge-hidden=none&edge-init=alive",
			[]string{"edge-init: read only when the pathfinder has a hidden layer (edge-hidden is not none); edge-hidden is none"}, nil},
		{"a perturbation with its rate", "perturb=drop-edges&perturb-rate=0.2", nil, nil},
		{"the lab's start, written whole", ForLab("attention").Encode(), nil, nil},
		{"the recipe's rows on a model that does not read them", "data=cora&model=sgc&dropout=0.9", nil, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			e, err := Decode(c.link)
			if c.want == nil {
				if err != nil {
					t.Errorf("%s: %v", c.link, err)
				}
				return
			}
			if err == nil {
				t.Fatalf("%s: accepted without a word", c.link)
			}
			at := 0
			for _, w := range c.want {
				i := strings.Index(err.Error()[at:], w)
				if i < 0 {
					t.Fatalf("%s: %q lacks %q", c.link, err, w)
				}
				at += i
			}
			if c.check != nil && !c.check(e) {
				t.Errorf("%s: the row was not kept at its start: %s", c.link, e.EncodeShort())
			}
			if _, err := Decode(e.Encode()); err != nil {
				t.Errorf("%s: its permalink is refused again: %v", c.link, err)
			}
		})
	}
}

// A link refuses a row it gives exactly where its lab does not read it,
// for every lab and every row, each given alone on the lab's start.
func TestLinksRefuseWhatTheirLabDoesNotRead(t *testing.T) {
	for _, l := range Labs {
		start := ForLab(l.Name)
		r := l.Reader()
		for _, p := range Params {
			if p.Name == "lab" {
				continue
			}
			v := otherValue(t, p, start)
			given := start
			if err := p.Set(&given, v); err != nil {
				t.Fatal(err)
			}
			_, reads := r.Reads(p, given)
			e, err := Decode("lab=" + l.Name + "&" + p.Name + "=" + escapeValue(v))
			refused := err != nil && strings.Contains(err.Error(), p.Name+": ") && strings.Contains(err.Error(), "; it keeps ")
			if refused == reads {
				t.Errorf("%s lab, %s=%s: refused %v (%v), but the lab reads it: %v", l.Name, p.Name, v, refused, err, reads)
			}
			if refused && p.Get(&e) != p.Get(&start) {
				t.Errorf("%s lab, %s=%s: refused, yet it holds %s", l.Name, p.Name, v, p.Get(&e))
			}
		}
	}
}

// A page's change of one control leaves no row set that its lab does not
// read: the rows the change left unread go back to their start, and a
// perturbation chosen at rate 0 takes its first rate. Every lab, every
// row it offers, every value of a choice: the state's permalink opens
// without a notice.
func TestSettleLeavesNothingUnread(t *testing.T) {
	for _, l := range Labs {
		start := ForLab(l.Name)
		r := l.Reader()
		for _, p := range Params {
			if _, ok := r.Reads(p, start); !ok || p.Name == "lab" || p.Name == "tour" || p.Name == "hide" {
				continue // the lab's and tour's rows are no controls, nor is hide
			}
			// From a state far from the start: every row the lab offers
			// changed where it reads it.
			prev := start
			for _, q := range Params {
				if _, ok := r.Reads(q, prev); ok && q.Group != GroupView && q.Name != "data" && q.Form == "" {
					x := prev
					if q.Set(&x, otherValue(t, q, prev)) == nil {
						if _, err := Decode(x.Encode()); err == nil {
							prev = x
						}
					}
				}
			}
			if _, ok := r.Reads(p, prev); !ok && (p.Needs == nil || !p.Needs.Chosen) {
				continue // the page shows no control for it (Idle, or another model's)
			}
			values := append(slices.Clone(p.Choices), otherValue(t, p, prev))
			if p.Name == "models" {
				values = []string{"gcn,mlp", "pdn-multiscale,cheb", "pdn,gat,sgc"}
			}
			for _, v := range values {
				next := prev
				if p.Set(&next, v) != nil || p.Get(&next) == p.Get(&prev) || len(next.Conflicts()) > 0 {
					continue // a control refuses a value in conflict (app's controls.apply)
				}
				got := l.Settle(prev, next, start)
				if p.Get(&got) != p.Get(&next) && p.Name != "perturb-rate" && p.Name != "perturb" {
					t.Errorf("%s lab, %s=%s: the change itself was undone (%s)", l.Name, p.Name, v, p.Get(&got))
				}
				if _, err := Decode(got.Encode()); err != nil {
					t.Errorf("%s lab, %s=%s from %s: the state sets rows no one reads: %v", l.Name, p.Name, v, prev.EncodeShort(), err)
				}
			}
		}
	}
}

// The page's changes of the brief: a model switched puts the rows only
// the old one read back; a perturbation set to none puts its rate back;
// one chosen at rate 0 takes its first rate, so that the run perturbs.
func TestSettleCases(t *testing.T) {
	g, _ := LabNamed("graph")
	start := ForLab("graph")
	prev := start
	prev.Model.EdgeHidden = []int{32, 16}
	prev.Model.EdgeInit = InitAlive
	next := prev
	next.Model.Kind = Cheb
	if got := g.Settle(prev, next, start); FormatSizes(got.Model.EdgeHidden) != "16" || got.Model.EdgeInit != InitUniform || got.Model.Kind != Cheb {
		t.Errorf("pdn → cheb: edge-hidden %v, edge-init %s", got.Model.EdgeHidden, got.Model.EdgeInit)
	}
	next = start
	next.Data.Perturb = PerturbDrop
	got := g.Settle(start, next, start)
	if got.Data.PerturbRate != 0.2 {
		t.Errorf("drop-edges chosen at rate 0: rate %v, want its first, 0.2", got.Data.PerturbRate)
	}
	off := got
	off.Data.Perturb = PerturbNone
	if back := g.Settle(got, off, start); back.Data.PerturbRate != 0 {
		t.Errorf("perturbation set to none: rate %v", back.Data.PerturbRate)
	}
	zero := got
	zero.Data.PerturbRate = 0
	if back := g.Settle(got, zero, start); back.Data.Perturb != PerturbNone {
		t.Errorf("rate set to 0: perturbation %s", back.Data.Perturb)
	}
	// The compare lab: hops goes back when the last model reading it goes.
	c, _ := LabNamed("compare")
	cs := ForLab("compare")
	prev = cs
	prev.View.Models, prev.Model.Hops = []string{PDNMultiScale, GCN}, 4
	next = prev
	next.View.Models = []string{PDN, GCN}
	if got := c.Settle(prev, next, cs); got.Model.Hops != 2 {
		t.Errorf("pdn-multiscale taken out: hops %d", got.Model.Hops)
	}
	// A recipe's row: cora's dropout of 0.9 stays on a model that does
	// not read it (the link would have it so), and comes back for one
	// that does.
	prev = start
	prev.Data.Graph, prev.Model.Dropout, prev.Train.WeightDecay = GraphCora, 0.9, 0.005
	next = prev
	next.Model.Kind = SGC
	if got := g.Settle(prev, next, start); got.Model.Dropout != 0.9 {
		t.Errorf("sgc on cora: dropout %v, want the recipe's 0.9", got.Model.Dropout)
	}
}

// The engine's form of every run of every lab sets no row its run does
// not read, and keeps every row it reads.
func TestForEngine(t *testing.T) {
	r := RunReader(phrase.New("the engine"))
	for _, l := range Labs {
		e := ForLab(l.Name)
		e.Model.EdgeHidden, e.Model.Hops, e.Model.GraphFrom = []int{32}, 4, FromPDN
		for _, run := range l.Runs(e) {
			sent := run.Exp.ForEngine()
			back, err := Decode(sent.EncodeRun())
			if err != nil {
				t.Errorf("%s lab, run %s: %v", l.Name, run.Name, err)
			}
			if back.EncodeRun() != sent.EncodeRun() {
				t.Errorf("%s lab, run %s: decodes otherwise", l.Name, run.Name)
			}
			for _, p := range Params {
				if _, ok := r.Reads(p, run.Exp); ok && p.Get(&sent) != p.Get(&run.Exp) {
					t.Errorf("%s lab, run %s: %s changed from %s to %s", l.Name, run.Name, p.Name, p.Get(&run.Exp), p.Get(&sent))
				}
			}
		}
	}
}

// The tables' own links set no row their lab does not read: every lab's
// start, preset, tour step and claim opens without a notice.
func TestTheTablesLinksSetOnlyRowsTheirLabsRead(t *testing.T) {
	var links []string
	for _, l := range Labs {
		links = append(links, "lab="+l.Name, ForLab(l.Name).Encode())
	}
	for _, p := range Presets {
		links = append(links, p.Link)
	}
	for _, tour := range Tours {
		for k := range tour.Steps {
			links = append(links, tour.StepLink(k+1), tour.Steps[k].Link)
		}
	}
	for _, c := range Claims {
		links = append(links, c.Link)
	}
	for _, link := range links {
		if _, err := Decode(link); err != nil {
			t.Errorf("%s: %v", link, err)
		}
	}
}
