package pdn

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
)

// A model over PDN's learned graph propagates over the weights that very
// PDN ends with: its learned homophily is the PDN's, its input homophily
// the graph's, its set-up is paced in pieces, and it trains to the same
// bits twice and after Reset.
func TestTransferTakesThePDNsGraph(t *testing.T) {
	e := experiment.Default()
	e.Train.Epochs = 60
	g, err := datasets.Synthetic(e.Data)
	if err != nil {
		t.Fatal(err)
	}
	pdnExp := e
	pdnExp.Model.Kind = experiment.PDN
	p := mustTrainer(t, g, pdnExp)
	runEpochs(t, p, e.Train.Epochs)
	learned := p.Evaluate()
	for _, kind := range experiment.TransferModels {
		x := e
		x.Model.Kind, x.Model.GraphFrom = kind, experiment.FromPDN
		tr := mustTrainer(t, g, x)
		if tr.Preparing() != 0 {
			t.Errorf("%s: %v of the set-up done before any", kind, tr.Preparing())
		}
		if tr.Prepare(time.Nanosecond) {
			t.Errorf("%s: the PDN's 60 epochs prepared in one piece of a nanosecond", kind)
		}
		runEpochs(t, tr, e.Train.Epochs)
		s := tr.Evaluate()
		if !slices.Equal(tr.LearnedFrom().Evaluate().Weights, learned.Weights) {
			t.Errorf("%s: the PDN it learned from ended elsewhere than PDN's own run", kind)
		}
		if math.Abs(s.LearnedHomophily-learned.LearnedHomophily) > 1e-12 || s.InputHomophily != learned.InputHomophily {
			t.Errorf("%s: learned %v input %v, want PDN's %v and %v", kind, s.LearnedHomophily, s.InputHomophily, learned.LearnedHomophily, learned.InputHomophily)
		}
		tr.Reset()
		runEpochs(t, tr, e.Train.Epochs)
		if again := tr.Evaluate(); again.TestAcc != s.TestAcc || again.Loss != s.Loss {
			t.Errorf("%s: after Reset %v/%v, before %v/%v", kind, again.TestAcc, again.Loss, s.TestAcc, s.Loss)
		}
		if _, err := tr.Regraph(g); err != ErrRegraph {
			t.Errorf("%s: Regraph of a model over a learned graph: %v, want ErrRegraph", kind, err)
		}
	}
}

// Induction (experiment.Model.PathfinderSeed): the PDN trains on the graph
// the generator draws at the pathfinder's seed, and its pathfinder, as
// trained, weighs this graph's edges from their own features; at the
// graph's own seed it is the transfer above; a real graph is refused,
// naming the row.
func TestInductionAppliesThePathfinderToAnotherGraph(t *testing.T) {
	e := experiment.Default()
	e.Data.PerClass, e.Train.Epochs = 64, 30
	g, err := datasets.Synthetic(e.Data)
	if err != nil {
		t.Fatal(err)
	}
	src := e
	src.Data.Seed, src.Model.Kind = 7, experiment.PDN
	gs, err := datasets.Synthetic(src.Data)
	if err != nil {
		t.Fatal(err)
	}
	p := mustTrainer(t, gs, src)
	runEpochs(t, p, e.Train.Epochs)
	want := p.weightsOn(g)
	if len(want) != g.E() || slices.Equal(want, p.Evaluate().Weights) {
		t.Fatalf("the pathfinder applied to another graph gives %d weights, for %d edges, or its own graph's", len(want), g.E())
	}
	x := e
	x.Model.Kind, x.Model.GraphFrom, x.Model.PathfinderSeed = experiment.GCN, experiment.FromPDN, 7
	tr := mustTrainer(t, g, x)
	if got := tr.GraphWeights(); !slices.Equal(got, want) {
		t.Errorf("induced weights differ from the seed-7 pathfinder's on this graph")
	}
	x.Model.PathfinderSeed = e.Data.Seed
	own := mustTrainer(t, g, x)
	y := e
	y.Model.Kind = experiment.PDN
	pdnHere := mustTrainer(t, g, y)
	runEpochs(t, pdnHere, e.Train.Epochs)
	if !slices.Equal(own.GraphWeights(), pdnHere.Evaluate().Weights) {
		t.Error("pathfinder-seed at the graph's own seed is not the transfer of its own PDN")
	}
	c := x
	c.Data.Graph, c.Model.PathfinderSeed = experiment.GraphCora, 7
	cora, err := datasets.Build(c.Data)
	if err != nil {
		t.Fatal(err)
	}
	var ge *GraphError
	if _, err := NewTrainer(cora, c); !errors.As(err, &ge) || ge.Field != "pathfinder-seed" {
		t.Errorf("induction on Cora: %v, want a GraphError naming pathfinder-seed", err)
	}
}

// A pathfinder's graph row that this graph's kind does not read is
// refused naming pathfinder-rows, its message kept a message of the
// catalogue (not flattened to English text), as every message the page
// shows is.
func TestInductionRefusesARowTheGraphIgnores(t *testing.T) {
	e := experiment.Default()
	e.Data.Graph, e.Data.PerClass = experiment.GraphMultiplex, 16
	e.Model.Kind, e.Model.GraphFrom, e.Model.PathfinderSeed, e.Model.PathfinderRows = experiment.GCN, experiment.FromPDN, 7, "sigma-d=4"
	g, err := datasets.Build(e.Data)
	if err != nil {
		t.Fatal(err)
	}
	var ge *GraphError
	_, err = NewTrainer(g, e)
	if !errors.As(err, &ge) || ge.Field != "pathfinder-rows" || !strings.HasPrefix(err.Error(), "pathfinder-rows: ") {
		t.Fatalf("sigma-d on a multiplex pathfinder's graph: %v, want a GraphError naming pathfinder-rows", err)
	}
	if m := ge.Phrase(); len(m.Args) != 1 || m.Args[0].T == nil || !strings.Contains(m.Args[0].T.Key, "does not read") {
		t.Errorf("the refusal's message is not kept a message: %+v", m)
	}
}
