package app

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/experiment"
	"pdnexplorer/wasm/protocol"
)

// Run robustness and transfer opens the pool: each worker trains one run
// of the curves quietly, in their order, and the result of each (its test
// accuracy at its last epoch) lands in the curves' table; a run at rate 0
// shares its result with every perturbation's rate 0 (one key) and with
// the same model over the input graph in the transfer table; a new
// state stops the pool and clears the results.
func TestStructureLabTrainsItsCurvesOnThePool(t *testing.T) {
	rm, l, conns, d := mountLab(t, "structure", "lab=structure")
	c := rm.(*StructureLab)
	live := len(*conns)
	doIn(d, rm, func() { c.toggleSide() })
	pool := (*conns)[live:]
	if len(pool) != sweepWorkers() {
		t.Fatalf("%d workers for the pool, want %d", len(pool), sweepWorkers())
	}
	robust := experiment.RobustnessRuns(l.st)
	for i, f := range pool {
		set := f.sent[len(f.sent)-2]
		if set.Op != protocol.OpSet || !set.Quiet || set.State != robust[i].Exp.EncodeRun() {
			t.Fatalf("pool worker %d got %s; want run %s quietly", i, f.ops(), robust[i].Name)
		}
		f.play(protocol.Event{Kind: protocol.KindSnapshot, Snap: &protocol.Snapshot{Epoch: 200, Epochs: 200, TestAcc: 0.61 + 0.01*protocol.Num(i), LearnedHomophily: 0.5}}, nil)
	}
	d.Consume()
	h := app.HTMLString(rm)
	if got := strings.Count(h, `data-value="0.61"`); got != len(experiment.Perturbations) {
		t.Errorf("pdn's accuracy at rate 0 shows %d times; want once per perturbation (%d), the runs of one key sharing it", got, len(experiment.Perturbations))
	}
	// pdn and gcn at rate 0 of each perturbation, and gcn over the input
	// graph in the transfer table: one run.
	if done := c.side.sched.Done(); done != 2*len(experiment.Perturbations)+1 {
		t.Errorf("%d runs done after 2 results; want each shared by its perturbations' rate 0 and gcn's by the transfer table", done)
	}
	doIn(d, rm, func() { l.setParam("q", "0.02") })
	if c.side.sched.Done() != 0 || c.side.playing {
		t.Errorf("a new graph kept %d results, playing %v", c.side.sched.Done(), c.side.playing)
	}
}
