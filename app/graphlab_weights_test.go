package app

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/edgekind"
	"pdnexplorer/experiment"
	"pdnexplorer/wasm/protocol"
)

// The graph lab says what the run's weights say, from the deciles the
// engine sent, by the one rule (experiment.ReadWeights): the sentence
// under the graph (data-metric="weight-sentence", its kind and factor),
// "so far" while the run is short of its epochs, the deciles' figure with
// their exact values; a snapshot without them (a model without edge
// weights) says nothing.
func TestGraphLabSaysWhatTheWeightsSay(t *testing.T) {
	intra := []protocol.Num{0.1, 0.5, 0.55, 0.6, 0.62, 0.64, 0.66, 0.7, 0.75, 0.8, 0.9}
	inter := []protocol.Num{0, 0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.09, 0.3}
	sp := &protocol.Spread{Intra: intra, Inter: inter, Saturated: 0.2}
	want := experiment.ReadWeights(floats(intra), floats(inter), 0.2)
	sentence, _ := want.Sentence()
	for _, tc := range []struct {
		name   string
		epoch  int
		spread *protocol.Spread
		says   []string
		not    []string
	}{
		{"trained", 200, sp, []string{`data-metric="weight-sentence"`, `data-value="down"`, `data-factor="` + plain(want.Factor) + `"`,
			sentence.String(), `data-metric="weight-deciles"`, `data-intra="0.1 0.5 0.55`, `data-inter="0 0.01 0.02`, "Edges within 0.01 of 0 or of 1: 20%."}, []string{"(so far: epoch"}},
		{"training", 40, sp, []string{sentence.String(), "(so far: epoch 40 of 200)"}, nil},
		{"no edge weights", 200, nil, nil, []string{`data-metric="weight-sentence"`, `data-metric="weight-deciles"`, "times less weight"}},
		{"untrained: the initialisation's weights", 0, sp, nil, []string{`data-metric="weight-sentence"`, "times less weight"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, f, d := mount(t)
			tiny(f, d)
			f.play(protocol.Event{Kind: protocol.KindSnapshot, Gen: 1, Snap: &protocol.Snapshot{
				Epoch: tc.epoch, Epochs: 200, Model: experiment.PDN, Nodes: 4, Weights: 3, Spread: tc.spread}},
				[]float32{0.9, 0.05, 0.1, 0, 0, 0, 0, 0.75, 0.75, 0.75, 0.75})
			d.Consume()
			h := html(c)
			for _, s := range tc.says {
				if !strings.Contains(h, s) {
					t.Errorf("the page lacks %q", s)
				}
			}
			for _, s := range tc.not {
				if strings.Contains(h, s) {
					t.Errorf("the page has %q", s)
				}
			}
		})
	}
}

// The compare lab says each run's sentence under its view, named by
// data-run: PDN's from its deciles, none for GCN, which learns no weights.
func TestCompareLabSaysEachRunsSentence(t *testing.T) {
	rm, l, conns, d := mountLab(t, "compare", "lab=compare&models=pdn,gcn")
	intra := []protocol.Num{0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5}
	for i, f := range *conns {
		var sp *protocol.Spread
		if l.runs[i].Name == experiment.PDN {
			sp = &protocol.Spread{Intra: intra, Inter: intra, Saturated: 0}
		}
		f.play(protocol.Event{Kind: protocol.KindGraph, Gen: 1, Graph: &protocol.Graph{Nodes: 2, Src: []int32{0}, Dst: []int32{1},
			Labels: []int{0, 1}, Kinds: []edgekind.Kind{edgekind.Inter}, Test: []bool{false, true}}}, nil)
		f.play(protocol.Event{Kind: protocol.KindSnapshot, Gen: 1, Snap: &protocol.Snapshot{Epoch: 200, Epochs: 200, Model: l.runs[i].Name,
			Weights: 1, Nodes: 2, Spread: sp}}, []float32{0.5, 0, 1, 1, 1})
	}
	d.Consume()
	h := app.HTMLString(rm.(app.UI))
	if !hasMetric(h, "weight-sentence", experiment.PDN, experiment.WeightsSame) || strings.Count(h, `data-metric="weight-sentence"`) != 1 {
		t.Errorf("want PDN's sentence alone:\n%s", h)
	}
}

// Every lab says the sentence of each of its runs that learns edge
// weights, once: where its figures do not (the attention lab's two PDNs,
// the structure lab's PDN beside GCN and GAT), the core says it in a card;
// the graph and compare labs say it among their figures. A lab without
// live runs (the sweep's) and a run without edge weights say none.
func TestEveryLabSaysWhatItsWeightsSay(t *testing.T) {
	same := []protocol.Num{0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5}
	for _, row := range experiment.Labs {
		name := row.Name
		t.Run(name, func(t *testing.T) {
			rm, l, conns, d := mountLab(t, name, "lab="+name)
			want := 0
			for i, f := range *conns {
				if i >= len(l.runs) {
					break
				}
				var sp *protocol.Spread
				if experiment.LearnsEdges(l.runs[i].Exp.Model.Kind) {
					sp, want = &protocol.Spread{Intra: same, Inter: same}, want+1
				}
				f.play(protocol.Event{Kind: protocol.KindGraph, Gen: 1, Graph: &protocol.Graph{Nodes: 2, Src: []int32{0}, Dst: []int32{1},
					Labels: []int{0, 1}, Kinds: []edgekind.Kind{edgekind.Inter}, Test: []bool{false, true}}}, nil)
				f.play(protocol.Event{Kind: protocol.KindSnapshot, Gen: 1, Snap: &protocol.Snapshot{Epoch: 200, Epochs: 200, Model: l.runs[i].Exp.Model.Kind,
					Weights: 1, Nodes: 2, Spread: sp}}, []float32{0.5, 0, 1, 1, 1})
			}
			d.Consume()
			h := app.HTMLString(rm.(app.UI))
			_, own := rm.(WeightSayer)
			if got := strings.Count(h, `data-metric="weight-sentence"`); got != want || want > 0 && strings.Contains(h, `id="weights-said"`) == own {
				t.Errorf("%d sentences for %d runs with edge weights (own place %v, the core's card %v)", got, want, own, strings.Contains(h, `id="weights-said"`))
			}
		})
	}
}
