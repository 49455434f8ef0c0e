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
		if set.Op != protocol.OpSet || !set.Quiet || set.State != robust[i].Exp.EncodeEngine() {
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
	saved := l.st.View.Results
	if res, err := l.row.Results(l.st); err != nil || experiment.EncodeResults(res) != saved || saved == "" {
		t.Errorf("the link's results %q (%v)", saved, err)
	}
	doIn(d, rm, func() { l.setParam("q", "0.02") })
	if c.side.sched.Done() != 0 || c.side.playing || l.st.View.Results != "" {
		t.Errorf("a new graph kept %d results (%q), playing %v", c.side.sched.Done(), l.st.View.Results, c.side.playing)
	}

	// A link with the results shows them without training them again.
	rm2, _, conns2, d2 := mountLab(t, "structure", "lab=structure&results="+saved)
	c2 := rm2.(*StructureLab)
	if done := c2.side.sched.Done(); done != 2*len(experiment.Perturbations)+1 {
		t.Errorf("from the link: %d runs done", done)
	}
	if h := app.HTMLString(rm2); strings.Count(h, `data-value="0.61"`) != len(experiment.Perturbations) {
		t.Error("the link's results are not shown")
	}
	live2 := len(*conns2)
	doIn(d2, rm2, func() { c2.toggleSide() })
	for i, f := range (*conns2)[live2:] {
		if set := f.sent[len(f.sent)-2]; set.State == robust[0].Exp.EncodeEngine() || set.State == robust[1].Exp.EncodeEngine() {
			t.Errorf("pool worker %d trains again run %s, whose result came with the link", i, set.State)
		}
	}
	// Results of more runs than the lab trains are left out, and said so.
	rm3, l3, _, _ := mountLab(t, "structure", "lab=structure&results="+strings.Repeat("1.", 100)+"1")
	if rm3.(*StructureLab).side.sched.Done() != 0 || !strings.Contains(strings.Join(l3.page.board.Texts(), "|"), "The link's results were left out") {
		t.Errorf("101 results for 78 runs: %q", l3.page.board.Texts())
	}
}

// The robustness and transfer runs say how long they will take before
// they start, as the sweep does (runPool's estimate, the one place): the
// engine is asked for every run, its answer is the time left before Run;
// runs longer than a few minutes are said first and start on a second
// press, whose notice then goes.
func TestStructureLabSaysHowLongItsPoolWillTake(t *testing.T) {
	rm, l, conns, d := mountLab(t, "structure", "lab=structure")
	c := rm.(*StructureLab)
	w := (*conns)[0]
	if len(w.asked) != 1 || len(w.asked[0].States) != len(c.side.runs) || w.asked[0].States[0] != c.side.runs[0].Exp.EncodeEngine() {
		t.Fatalf("asked %d estimates for %d runs", len(w.asked), len(c.side.runs))
	}
	if left := text(app.HTMLString(rm), "side-left"); left != "–" {
		t.Errorf("time left %q before the engine answers", left)
	}
	secs := make([]float64, len(c.side.runs))
	for i := range secs {
		secs[i] = 12 // 12 s a run; the runs of one key count once
	}
	doIn(d, rm, func() { w.onEvent(protocol.Event{Kind: protocol.KindEstimate, Seconds: secs}, nil) })
	if left := text(app.HTMLString(rm), "side-left"); !strings.Contains(left, "(estimate)") || !strings.Contains(left, "min") {
		t.Errorf("time left %q once the engine answered", left)
	}
	live := len(*conns)
	doIn(d, rm, func() { c.toggleSide() })
	if c.side.playing || len(*conns) != live || !strings.Contains(strings.Join(l.page.board.Texts(), "|"), "The robustness curves and the transfer and induction tables will take about") {
		t.Fatalf("runs of several minutes started without a word: playing %v, %q", c.side.playing, l.page.board.Texts())
	}
	doIn(d, rm, func() { c.toggleSide() })
	if !c.side.playing || len(*conns) == live {
		t.Fatal("the second press did not start them")
	}
	if strings.Contains(strings.Join(l.page.board.Texts(), "|"), "The robustness curves and the transfer and induction tables will take about") {
		t.Error("the notice stays above runs that have started")
	}
}
