package pdn

import (
	"math"
	"testing"

	"pdnexplorer/experiment"
)

// The restart remedy is a trainer's set-up: Prepare trains the
// initialisations an epoch at a time, keeps the lowest training loss, and
// the trainer goes on from there, bit for bit the initialisation it kept.
func TestRestartsKeepLowestLoss(t *testing.T) {
	g, e := smallRun(t, experiment.PDN)
	e.Train.Epochs, e.Model.EdgeHidden = 12, []int{2}
	e.Model.Restarts, e.Model.RestartEpochs = 3, 4
	tr, err := NewTrainer(g, e)
	if err != nil {
		t.Fatal(err)
	}
	steps := 0
	for !tr.Prepare(0) {
		if s := tr.Preparing(); s < 0 || s >= 1 || tr.Done() {
			t.Fatalf("share %v, done %v before the set-up is", s, tr.Done())
		}
		steps++
	}
	r := tr.Restarts()
	if steps != 11 || tr.Preparing() != 1 || r.Epochs != 4 {
		t.Errorf("%d pieces before done, share %v, %d epochs each; want 11, 1 and 4", steps, tr.Preparing(), r.Epochs)
	}
	for i, x := range r.Tried {
		if x.Seed != 1000+uint64(i) || math.IsNaN(x.Loss) || x.Loss < r.Tried[r.Chosen].Loss {
			t.Errorf("restart %d: %+v, the chosen one's loss %v", i, x, r.Tried[r.Chosen].Loss)
		}
	}
	if x := tr.Experiment(); x.Train.Seed != e.Train.Seed || x.Model.Restarts != 3 {
		t.Errorf("after the restarts the trainer reports seed %d and %d restarts; want the experiment asked for, %d and 3", x.Train.Seed, x.Model.Restarts, e.Train.Seed)
	}
	if tr.Epoch() != 4 || tr.Evaluate().TrainLoss != r.Tried[r.Chosen].Loss {
		t.Fatalf("the trainer is not the chosen initialisation after its 4 epochs: epoch %d", tr.Epoch())
	}
	// The one kept, trained on alone, gives the same bits.
	alone := e
	alone.Model.Restarts, alone.Train.Seed = 0, r.Tried[r.Chosen].Seed
	want, err := NewTrainer(g, alone)
	if err != nil {
		t.Fatal(err)
	}
	for !want.Done() {
		if _, err := want.Step(); err != nil {
			t.Fatal(err)
		}
		if want.Epoch() <= r.Epochs {
			continue // the epochs the restart trained already
		}
		if _, err := tr.Step(); err != nil {
			t.Fatal(err)
		}
	}
	got, exp := tr.Evaluate(), want.Evaluate()
	if got.Epoch != e.Train.Epochs || got.TrainLoss != exp.TrainLoss || got.TestAcc != exp.TestAcc {
		t.Errorf("after the restarts, epoch %d, loss %v; the one kept alone: epoch %d, loss %v", got.Epoch, got.TrainLoss, exp.Epoch, exp.TrainLoss)
	}
	// Reset tries them all again, to the same choice.
	chosen := r.Chosen
	tr.Reset()
	if tr.Epoch() != 0 || tr.Restarts().Done() || tr.Done() {
		t.Fatal("reset kept the set-up done")
	}
	if _, err := tr.Step(); err != nil || tr.Restarts().Chosen != chosen || tr.Epoch() != 5 {
		t.Errorf("after reset and a step: chose %d at epoch %d (%v), before %d", tr.Restarts().Chosen, tr.Epoch(), err, chosen)
	}
}
