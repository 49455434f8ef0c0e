package app

import (
	"regexp"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/edgekind"
	"pdnexplorer/experiment"
	"pdnexplorer/wasm/protocol"
)

// mountLab mounts a lab of several runs on an engine of fake workers.
func mountLab(t *testing.T, lab app.Composer) (*[]*fakeConn, app.ClientDispatcher) {
	t.Helper()
	conns := &[]*fakeConn{}
	e := NewEngine(func(ev EventFunc) Conn {
		f := &fakeConn{onEvent: ev}
		*conns = append(*conns, f)
		return f
	})
	switch l := lab.(type) {
	case *XORLab:
		l.Engine, l.Board = e, &Board{}
	case *DegreeLab:
		l.Engine, l.Board = e, &Board{}
	case *CompareLab:
		l.Engine, l.Board = e, &Board{}
	}
	d := app.NewClientTester(lab)
	t.Cleanup(d.Close)
	d.Consume()
	return conns, d
}

// Each lab starts one run per model, each on its own worker, with the
// lab's defaults; only the compare lab's first worker lays the graph out,
// for the small views of every run. The runs' figures carry data-run.
func TestLabsOfSeveralRuns(t *testing.T) {
	for _, tc := range []struct {
		lab    app.Composer
		runs   []string
		models []string
		graph  string
	}{
		{&XORLab{}, []string{"pdn-16", "pdn-2", "pdn-linear", "gcn"}, []string{"pdn", "pdn", "pdn-linear", "gcn"}, experiment.GraphXOR},
		{&DegreeLab{}, []string{"pdn", "gat"}, []string{"pdn", "gat"}, experiment.GraphScaleFree},
		{&CompareLab{}, []string{"pdn", "gcn"}, []string{"pdn", "gcn"}, experiment.GraphSynthetic},
	} {
		conns, d := mountLab(t, tc.lab)
		if len(*conns) != len(tc.runs) {
			t.Fatalf("%T: %d workers for %d runs", tc.lab, len(*conns), len(tc.runs))
		}
		_, minis := tc.lab.(*CompareLab)
		for i, f := range *conns {
			layout := protocol.LayoutNone
			if minis && i == 0 {
				layout = ""
			}
			if len(f.sent) != 1 || f.sent[0].Op != protocol.OpSet || f.sent[0].Layout != layout {
				t.Fatalf("%T: worker %d got %+v", tc.lab, i, f.sent)
			}
			e, err := experiment.Decode(f.sent[0].State)
			if err != nil || e.Model.Kind != tc.models[i] || e.Data.Graph != tc.graph {
				t.Errorf("%T: run %d trains %s on %s (%v)", tc.lab, i, e.Model.Kind, e.Data.Graph, err)
			}
			f.play(protocol.Event{Kind: protocol.KindGraph, Gen: 1, Graph: &protocol.Graph{Nodes: 2, Src: []int32{0}, Dst: []int32{1},
				Labels: []int{0, 1}, Kinds: []edgekind.Kind{edgekind.Inter}, Test: []bool{false, true}}}, nil)
			f.play(protocol.Event{Kind: protocol.KindSnapshot, Gen: 1, Snap: &protocol.Snapshot{Epoch: 3, Epochs: 200, TestAcc: 0.5 + 0.1*protocol.Num(i),
				Weights: 1, Nodes: 2, XOR: &protocol.XOR{Mean: [4]protocol.Num{0.1, 0.8, 0.9, 0.2}, Found: true},
				Degree: []protocol.DegreeBin{{MinDegree: 2, Entries: 5, Mean: 0.4}, {MinDegree: 64, Entries: 9, Mean: 0.01}}}}, []float32{0.25, 0, 1, 1, 1})
			if i == 0 {
				f.play(protocol.Event{Kind: protocol.KindLayout, Gen: 1}, []float32{0, 0, 1, 1})
			}
		}
		d.Consume()
		h := app.HTMLString(tc.lab)
		for i, run := range tc.runs {
			if want := plain(float64(0.5 + 0.1*protocol.Num(i))); !hasMetric(h, "test-accuracy", run, want) {
				t.Errorf("%T: no test-accuracy %s of %s", tc.lab, want, run)
			}
		}
		switch tc.lab.(type) {
		case *XORLab:
			if !hasMetric(h, "alpha-01", "gcn", "0.8") || !hasMetric(h, "found-xor", "pdn-16", "1") {
				t.Errorf("the XOR lab misses its state weights")
			}
		case *DegreeLab:
			if !hasMetric(h, "weight-highest-degree", "gat", "0.01") {
				t.Errorf("the degree lab misses its bins")
			}
		case *CompareLab:
			if !hasMetric(h, "inter-share", "pdn", "1") {
				t.Errorf("the compare lab misses the inter-class share")
			}
			// One layout, each run's own weights on it.
			if !hasMetric(h, "inter-mean-weight", "pdn", "0.25") || !hasMetric(h, "inter-mean-weight", "gcn", "0.25") ||
				strings.Count(h, `class="mini-canvas"`) != 2 {
				t.Errorf("the compare lab misses a small learned-graph view per run")
			}
		}
	}
}

// The compare lab's models come from the state table: a bad choice is
// refused beside the checkboxes and changes nothing; a good one starts a
// run on a worker of its own.
func TestCompareLabModels(t *testing.T) {
	c := &CompareLab{}
	conns, d := mountLab(t, c)
	doIn(d, c, func() { c.toggleModel("pdn", false) }) // one model left: refused
	if !strings.Contains(c.fieldErr["models"], "2 to 4") || len(c.sides) != 2 {
		t.Errorf("one model: error %q, %d runs", c.fieldErr["models"], len(c.sides))
	}
	doIn(d, c, func() { c.toggleModel("gat", true) })
	if len(c.sides) != 3 || c.sides[2].Name != "gat" || len(*conns) != 3 || c.fieldErr["models"] != "" {
		t.Fatalf("adding gat: %d runs on %d workers", len(c.sides), len(*conns))
	}
	// Changing models reopens the runs on the same workers, paused first.
	if ops := (*conns)[0].ops(); ops != "set,pause,set" {
		t.Errorf("the first worker got %s", ops)
	}
	doIn(d, c, func() { c.setParam("lr", "0.02") })
	if last := (*conns)[2].sent[len((*conns)[2].sent)-1]; last.Op != protocol.OpSet || !strings.Contains(last.State, "lr=0.02") || !strings.Contains(last.State, "model=gat") {
		t.Errorf("a new lr sent %+v", last)
	}
}

// doIn runs f as an event handler of lab c would.
func doIn(d app.ClientDispatcher, c app.Composer, f func()) {
	d.Dispatch(app.Dispatch{Mode: app.Update, Source: c, Function: func(app.Context) { f() }})
	d.Consume()
}

// hasMetric reports whether the page has an element with the metric of
// the run and the value, its attributes in any order.
func hasMetric(h, name, run, value string) bool {
	for _, tag := range regexp.MustCompile(`<[a-z]+ [^>]*>`).FindAllString(h, -1) {
		if strings.Contains(tag, `data-metric="`+name+`"`) && strings.Contains(tag, `data-run="`+run+`"`) && strings.Contains(tag, `data-value="`+value+`"`) {
			return true
		}
	}
	return false
}
