package pdn

import (
	"math"
	"slices"
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
