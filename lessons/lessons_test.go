package lessons

import (
	"errors"
	"math"
	"slices"
	"testing"
	"time"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/pdn"
	"pdnexplorer/xorstate"
)

func small(t *testing.T) (*datasets.Graph, experiment.Experiment) {
	t.Helper()
	e := experiment.Default()
	e.Data.PerClass, e.Train.Epochs = 32, 12
	g, err := datasets.Synthetic(e.Data)
	if err != nil {
		t.Fatal(err)
	}
	return g, e
}

func TestTrain(t *testing.T) {
	g, e := small(t)
	stop := errors.New("stop")
	for _, tc := range []struct {
		name  string
		until int
		after func(*pdn.Trainer, time.Duration) error
		epoch int
		err   error
	}{
		{"all epochs", math.MaxInt, nil, 12, nil},
		{"up to an epoch", 5, nil, 5, nil},
		{"after ends it", math.MaxInt, func(t *pdn.Trainer, _ time.Duration) error {
			if t.Epoch() == 3 {
				return stop
			}
			return nil
		}, 3, stop},
	} {
		tr, err := pdn.NewTrainer(g, e)
		if err != nil {
			t.Fatal(err)
		}
		calls := 0
		after := func(tr *pdn.Trainer, d time.Duration) error {
			calls++
			if d <= 0 {
				t.Errorf("%s: a step of %v", tc.name, d)
			}
			if tc.after != nil {
				return tc.after(tr, d)
			}
			return nil
		}
		if err := Train(tr, tc.until, after); !errors.Is(err, tc.err) || tr.Epoch() != tc.epoch || calls != tc.epoch {
			t.Errorf("%s: epoch %d after %d calls, error %v; want epoch %d, error %v", tc.name, tr.Epoch(), calls, err, tc.epoch, tc.err)
		}
	}
}

func TestStateMeansAndFoundXOR(t *testing.T) {
	// One edge per state, then a second (0,1) edge.
	g := &datasets.Graph{N: 3, Src: []int32{0, 0, 1, 1, 2}, Dst: []int32{1, 2, 2, 0, 0},
		EdgeX: []float64{0, 0, 0, 1, 1, 0, 1, 1, 0, 1}}
	alpha := StateMeans(g, []float64{0.1, 0.8, 0.9, 0.2, 0.6})
	want := [4]float64{0.1, 0.7, 0.9, 0.2}
	for i := range want {
		if math.Abs(alpha[i]-want[i]) > 1e-12 {
			t.Errorf("state %v: mean %v, want %v", xorstate.States[i], alpha[i], want[i])
		}
	}
	for _, tc := range []struct {
		alpha [4]float64
		found bool
	}{
		{[4]float64{0.1, 0.7, 0.9, 0.2}, true},
		{[4]float64{0.1, 0.5, 0.9, 0.2}, false}, // 0.5 < 3·0.2
		{[4]float64{0.3, 0.9, 0.9, 0.1}, true},  // exactly 3×
		{[4]float64{0.9, 0.1, 0.1, 0.9}, false},
	} {
		if FoundXOR(tc.alpha) != tc.found {
			t.Errorf("FoundXOR(%v) = %v", tc.alpha, !tc.found)
		}
	}
}

func TestBinByDegree(t *testing.T) {
	deg := []int{1, 2, 3, 4, 8, 0}
	to := []int32{0, 1, 2, 2, 3, 4, 5}
	w := []float64{1, 0.5, 0.3, 0.4, 0.25, 0.125, 0.7}
	got := BinByDegree(deg, to, w)
	want := []DegreeBin{{0, 2, 0.85}, {1, 3, 0.4}, {2, 1, 0.25}, {3, 1, 0.125}} // degree 0 counts as 1
	if len(got) != len(want) {
		t.Fatalf("bins %v, want %v", got, want)
	}
	for i := range want {
		if got[i].Log2 != want[i].Log2 || got[i].Entries != want[i].Entries || math.Abs(got[i].Mean-want[i].Mean) > 1e-12 {
			t.Errorf("bin %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	g := &datasets.Graph{N: 3, Src: []int32{0, 0}, Dst: []int32{1, 2}}
	if d := Degrees(g); d[0] != 2 || d[1] != 1 || d[2] != 1 {
		t.Errorf("degrees %v", d)
	}
}

// A degree's bin is ⌊log₂ d⌋, as math.Log2 gives it, for every degree to
// a million and about every power of two and its neighbours to 2⁴⁰.
func TestDegreeBinIsTheFloorOfLog2(t *testing.T) {
	check := func(d int) {
		if got, want := degreeBin(d), int(math.Log2(float64(max(d, 1)))); got != want {
			t.Fatalf("degree %d: bin %d, want ⌊log₂⌋ %d", d, got, want)
		}
	}
	for d := range 1_000_001 {
		check(d)
	}
	for k := 20; k <= 40; k++ {
		for _, d := range []int{1<<k - 1, 1 << k, 1<<k + 1} {
			check(d)
		}
	}
}

// TrainAll runs the restart remedy when the experiment asks for it, and
// trains the initialisation kept to the end.
func TestTrainAllWithRestarts(t *testing.T) {
	g, e := small(t)
	e.Model.EdgeHidden = []int{2}
	e.Model.Restarts, e.Model.RestartEpochs = 3, 4
	tr, err := TrainAll(g, e)
	if err != nil {
		t.Fatal(err)
	}
	if r := tr.Restarts(); r == nil || !r.Done() || tr.Epoch() != e.Train.Epochs {
		t.Errorf("restarts %+v, epoch %d", r, tr.Epoch())
	}
}

func TestSurfaceAndTable3(t *testing.T) {
	e := experiment.Default()
	e.Data.Graph, e.Data.PerClass, e.Train.Epochs = experiment.GraphXOR, 32, 5
	g, err := datasets.Build(e.Data)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		kind   string
		hidden []int
		ok     bool
		width  int
	}{
		{experiment.PDN, []int{2}, true, 2},
		{experiment.PDN, []int{16}, true, 16},
		{experiment.PDNLinear, nil, true, 0},
		{experiment.GCN, nil, false, 0},
	} {
		e.Model.Kind, e.Model.EdgeHidden = tc.kind, tc.hidden
		tr, err := TrainAll(g, e)
		if err != nil {
			t.Fatal(err)
		}
		surf, ok := Surface(tr, 5)
		h, alpha, ok3 := Table3(tr)
		if ok != tc.ok || ok3 != tc.ok {
			t.Errorf("%s: ok %v %v, want %v", tc.kind, ok, ok3, tc.ok)
			continue
		}
		if !ok {
			continue
		}
		// The corners of the surface are the four states of Table 3.
		for i, corner := range []int{0, 4 * 5, 4, 24} {
			if surf[corner] != alpha[i] || len(h[i]) != tc.width {
				t.Errorf("%s: state %v: surface %v, table %v, %d hidden", tc.kind, xorstate.States[i], surf[corner], alpha[i], len(h[i]))
			}
		}
	}
	shares := StateShares(g)
	if s := shares[0] + shares[1] + shares[2] + shares[3]; math.Abs(s-1) > 1e-12 {
		t.Errorf("shares sum to %v", s)
	}
}

// TrainSelected reads a run at its epoch of best validation accuracy:
// never below the worst test accuracy seen, and the last epoch's without
// validation nodes.
func TestTrainSelected(t *testing.T) {
	e := experiment.Default()
	e.Data.PerClass, e.Train.Epochs = 64, 30
	g, err := datasets.Build(e.Data)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := pdn.NewTrainer(g, e)
	if err != nil {
		t.Fatal(err)
	}
	got, err := TrainSelected(plain)
	if err != nil || got != plain.Evaluate().TestAcc {
		t.Errorf("without validation nodes: %v (%v), want the last epoch's %v", got, err, plain.Evaluate().TestAcc)
	}
	datasets.HoldOut(g, 20, 1)
	held, err := pdn.NewTrainer(g, e)
	if err != nil {
		t.Fatal(err)
	}
	var tests, vals []float64
	var s pdn.Snapshot
	for !held.Done() {
		if _, err := held.Step(); err != nil {
			t.Fatal(err)
		}
		held.EvaluateInto(&s)
		tests, vals = append(tests, s.TestAcc), append(vals, s.ValAcc)
	}
	want := tests[slices.Index(vals, slices.Max(vals))]
	again, _ := pdn.NewTrainer(g, e)
	if got, err := TrainSelected(again); err != nil || got != want {
		t.Errorf("with 20 validation nodes: %v (%v), want %v, the test accuracy at the first best validation epoch", got, err, want)
	}
}
