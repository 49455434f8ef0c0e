package pdn

import (
	"testing"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
)

// Pacing cuts every long loop into blocks and calls out between them; it
// must not change a bit, whatever the block size, for any model.
func TestPacingChangesNoBit(t *testing.T) {
	for _, kind := range experiment.Kinds {
		t.Run(kind, func(t *testing.T) {
			g, e := smallRun(t, kind)
			plain := mustTrainer(t, g, e)
			runEpochs(t, plain, 5)
			want := digest(plain, plain.Evaluate())

			paced := mustTrainer(t, g, e)
			paced.pc.block, paced.pc.every = 37, 500 // blocks of 4 rows: every multi-block path runs
			var calls int
			last := -1.0
			paced.SetPace(func(done float64) {
				calls++
				if done < last && done != 0 || done < 0 || done >= 1 {
					t.Fatalf("progress %v after %v", done, last)
				}
				last = done
			})
			for range 5 {
				last = -1
				if _, err := paced.Step(); err != nil {
					t.Fatal(err)
				}
			}
			if got := digest(paced, paced.Evaluate()); got != want {
				t.Errorf("paced run differs from the plain one")
			}
			// SGC's epoch is one small product, and an embedding's the
			// regression's few steps: neither is long enough to pace.
			if _, embedding := paced.net.(*embedNet); kind != experiment.SGC && !embedding && calls == 0 {
				t.Errorf("the pacer was never called in 5 epochs")
			}
		})
	}
}

// The pace function may block (the worker waits there while paused), and
// is never called while evaluating.
func TestPaceIsOnlyDuringSteps(t *testing.T) {
	e := experiment.Default()
	e.Data.PerClass = 64
	g, _ := datasets.Synthetic(e.Data)
	tr := mustTrainer(t, g, e)
	tr.pc.block, tr.pc.every = 100, 1000
	inStep := false
	calls := 0
	tr.SetPace(func(float64) {
		calls++
		if !inStep {
			t.Fatal("paced outside a step")
		}
	})
	for range 3 {
		inStep = true
		runEpochs(t, tr, 1)
		inStep = false
		tr.Evaluate()
	}
	if calls == 0 {
		t.Fatal("no calls")
	}
	tr.SetPace(nil)
	calls = 0
	runEpochs(t, tr, 1)
	if calls != 0 {
		t.Errorf("SetPace(nil) left %d calls", calls)
	}
}
