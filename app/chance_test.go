package app

import (
	htmlpkg "html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/edgekind"
	"pdnexplorer/experiment"
	"pdnexplorer/internal/numtext"
	"pdnexplorer/wasm/protocol"
)

// introGraphs are the graphs every lab's intro is tried on: the lab's own
// generated graph, and one's own files opened (Cora as GraphML), for the
// labs whose data row offers it.
var introGraphs = []struct {
	name, link string
	graph      protocol.Graph
}{
	{"generated", "", protocol.Graph{Classes: 3, Features: 32, EdgeFeatures: 32}},
	{"opened", "&data=local", protocol.Graph{Name: "cora.graphml", Classes: 7, Features: 1433, EdgeFeatures: 11, Scores: true}},
}

// Every lab that trains its runs on one graph says that graph in its
// intro, from the graph the engine built: its name, classes, nodes, edges
// and features, the generator's as one's own files' (a lab whose words
// said "a graph of three classes" over Cora opened as GraphML fails
// here); and beside its runs stand the majority class's and the MLP's
// accuracy on the same test nodes, which the first run's worker alone is
// asked to train, and each run near chance is said to be.
func TestEveryLabIntroducesAndMeasuresItsGraph(t *testing.T) {
	for _, row := range experiment.Labs {
		for _, gr := range introGraphs {
			t.Run(row.Name+"/"+gr.name, func(t *testing.T) {
				if gr.link != "" {
					p, _ := experiment.Lookup("data")
					if _, ok := row.Reader().Offers(p); !ok {
						t.Skipf("the %s lab trains its own graph: no files open in it", row.Name)
					}
				}
				rm, l, conns, d := mountLab(t, row.Name, "lab="+row.Name+gr.link)
				if row.Queue {
					h := app.HTMLString(rm)
					if strings.Contains(h, `id="intro-graph">`+"The") || strings.Contains(h, `data-metric="majority-acc"`) {
						t.Error("a lab of many graphs says one graph, or one graph's chance")
					}
					return
				}
				specs := row.Runs(l.st)
				for i, f := range *conns {
					if f.sent[0].Baseline != (i == 0) {
						t.Errorf("worker %d asked for the baseline: %v; want the first alone", i, f.sent[0].Baseline)
					}
					g := gr.graph
					g.Nodes, g.Src, g.Dst, g.Labels = 3, []int32{0, 1}, []int32{1, 2}, []int{0, 1, 0}
					g.Kinds, g.Test, g.State = []edgekind.Kind{edgekind.Inter, edgekind.Inter}, []bool{false, true, true}, specs[i].Exp.EncodeEngine()
					g.Majority, g.TestNodes = 0.5, 2
					f.play(protocol.Event{Kind: protocol.KindGraph, Gen: 1, Graph: &g}, nil)
					f.play(protocol.Event{Kind: protocol.KindSnapshot, Gen: 1, Snap: &protocol.Snapshot{Epoch: 200, Epochs: 200, TestAcc: 0.5, Nodes: 3}}, []float32{0, 0, 0, 1, 1, 1})
				}
				d.Consume()
				h := app.HTMLString(rm)
				intro := textOf(h, "intro")
				title := gr.graph.Name
				if title == "" {
					title = tr(experiment.FactsOfState(l.st.Data).Title().Key)
				}
				for _, want := range []string{title, numtext.Group(gr.graph.Classes) + " classes", "3 nodes", "2 edges", numtext.Group(gr.graph.Features) + " node features"} {
					if !strings.Contains(intro, want) {
						t.Errorf("the intro %q does not say %q", intro, want)
					}
				}
				if !hasMetric(h, "majority-acc", "", "0.5") || !hasMetric(h, "mlp-acc", "", "NaN") || !strings.Contains(textOf(h, "chance"), "training…") {
					t.Errorf("before the baseline, the chance line says %q", textOf(h, "chance"))
				}
				(*conns)[0].play(protocol.Event{Kind: protocol.KindBaseline, Gen: 1, Baseline: &protocol.Baseline{State: experiment.Baseline(specs[0].Exp.ForEngine()).EncodeRun(), TestAcc: 0.625}}, nil)
				d.Consume()
				h = app.HTMLString(rm)
				if !hasMetric(h, "mlp-acc", "", "0.625") {
					t.Errorf("the MLP's accuracy is not beside the runs: %q", textOf(h, "chance"))
				}
				for _, r := range specs {
					name := l.dataRun(l.runNamed(r.Name))
					if !hasMetric(h, "chance-standing", name, experiment.AtChance) {
						t.Errorf("run %s at 0.5 against a majority of 0.5 is not said to be near chance: %q", r.Name, textOf(h, "chance"))
					}
				}
			})
		}
	}
}

// A baseline of another state than the run's (a control changed the
// training since) is not shown as the run's: the new one trains.
func TestStaleBaselineIsNotShown(t *testing.T) {
	rm, l, conns, d := mountLab(t, "graph", "lab=graph")
	f := (*conns)[0]
	playRun(f, 0)
	f.play(protocol.Event{Kind: protocol.KindBaseline, Gen: 1, Baseline: &protocol.Baseline{State: experiment.Baseline(l.runs[0].Exp.ForEngine()).EncodeRun(), TestAcc: 0.625}}, nil)
	d.Consume()
	if !hasMetric(app.HTMLString(rm), "mlp-acc", "", "0.625") {
		t.Fatal("the baseline is not shown")
	}
	doIn(d, rm.(app.Composer), func() { l.setParam("lr", "0.02") })
	if h := app.HTMLString(rm); !hasMetric(h, "mlp-acc", "", "NaN") || !strings.Contains(textOf(h, "chance"), "training…") {
		t.Errorf("after lr changed, the chance line says %q", textOf(h, "chance"))
	}
}

// text is the text of the element with the id in h, its tags left out.
func textOf(h, id string) string {
	i := strings.Index(h, `id="`+id+`"`)
	if i < 0 {
		return ""
	}
	h = h[strings.LastIndex(h[:i], "<"):]
	end := strings.Index(h, "</p>")
	if end < 0 {
		end = len(h)
	}
	return htmlpkg.UnescapeString(metricTag.ReplaceAllString(strings.ReplaceAll(h[:end], "</span>", ""), ""))
}

// A run stands nowhere against chance until it has trained all its
// epochs: at epoch 0 it is its initialisation, and a run on its way sits
// near chance by nature (the XOR lab's four runs all read "near chance" at
// epoch 1 on a phone).
func TestNoStandingBeforeTheRunEnds(t *testing.T) {
	rm, _, conns, d := mountLab(t, "graph", "lab=graph")
	f := (*conns)[0]
	f.play(protocol.Event{Kind: protocol.KindGraph, Gen: 1, Graph: &protocol.Graph{Nodes: 2, Src: []int32{0}, Dst: []int32{1}, Labels: []int{0, 1},
		Kinds: []edgekind.Kind{edgekind.Inter}, Test: []bool{true, true}, Majority: 0.5, TestNodes: 2}}, nil)
	for _, epoch := range []int{0, 1, 199, 200} {
		f.play(protocol.Event{Kind: protocol.KindSnapshot, Gen: 1, Snap: &protocol.Snapshot{Epoch: epoch, Epochs: 200, TestAcc: 0.5, Nodes: 2}}, []float32{0, 0, 1, 1})
		d.Consume()
		if said := strings.Contains(app.HTMLString(rm), `data-metric="chance-standing"`); said != (epoch == 200) {
			t.Errorf("epoch %d: a standing said %v", epoch, said)
		}
	}
}

// The lab row's words are said only through experiment's IntroOf, after
// the graph: a lab that showed its row's Intro itself would say its words
// without the graph it trains on.
func TestIntroIsSaidOnlyWithItsGraph(t *testing.T) {
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	rowIntro := regexp.MustCompile(`\.Intro\b[^O]`)
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if loc := rowIntro.FindIndex(src); loc != nil {
			t.Errorf("%s:%d reads a lab row's Intro itself: say it with l.row.IntroOf(l.graphFacts())", p, 1+strings.Count(string(src[:loc[0]]), "\n"))
		}
	}
}
