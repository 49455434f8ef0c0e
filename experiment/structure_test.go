package experiment

import (
	"math"
	"testing"
)

// The induction table: at each of the next InductionSeeds seeds, GCN over
// the weights the state's seed's pathfinder gives that graph, a PDN
// trained there and GCN over its input; nothing on a real graph; its CSV
// names the pathfinder's seed and leaves out the runs without a result.
func TestInductionRuns(t *testing.T) {
	e := Default()
	e.Data.Seed = 3
	runs := InductionRuns(e)
	if len(runs) != 3*InductionSeeds {
		t.Fatalf("%d runs, want %d", len(runs), 3*InductionSeeds)
	}
	for i, r := range runs {
		seed := e.Data.Seed + uint64(i/3) + 1
		want := []struct {
			name, kind, from string
			pf               uint64
		}{{InducedRun, GCN, FromPDN, 3}, {OwnPDNRun, PDN, FromInput, 0}, {OwnGCNRun, GCN, FromInput, 0}}[i%3]
		x := r.Exp
		if r.Title != want.name || x.Data.Seed != seed || x.Model.Kind != want.kind || x.Model.GraphFrom != want.from || x.Model.PathfinderSeed != want.pf {
			t.Errorf("run %d: %s seed %d %s from %s pathfinder %d; want %s seed %d %s from %s pathfinder %d",
				i, r.Title, x.Data.Seed, x.Model.Kind, x.Model.GraphFrom, x.Model.PathfinderSeed, want.name, seed, want.kind, want.from, want.pf)
		}
		if got := x.Model.Induced(x.Data); got != (want.name == InducedRun) {
			t.Errorf("run %d (%s): Induced %v", i, r.Title, got)
		}
	}
	res := make([]Result, len(runs))
	res[0] = Result{Acc: 0.91234, Done: true, WIntra: 0.5, WInter: 0.05}
	res[2] = Result{Acc: 0.6, Done: true, WIntra: 1, WInter: 1}
	res[4] = Result{Acc: math.NaN(), Done: true, WIntra: math.NaN(), WInter: math.NaN()}
	rows := InductionCSV(runs, res)
	want := [][]string{{"seed", "run", "pathfinder_seed", "test_acc", "w_intra", "w_inter"},
		{"4", InducedRun, "3", "0.9123", "0.5000", "0.0500"},
		{"4", OwnGCNRun, "", "0.6000", "1.0000", "1.0000"},
		{"5", OwnPDNRun, "5", "", "", ""}}
	if len(rows) != len(want) {
		t.Fatalf("rows %v, want %v", rows, want)
	}
	for i := range want {
		for j := range want[i] {
			if rows[i][j] != want[i][j] {
				t.Errorf("row %d col %d: %q, want %q", i, j, rows[i][j], want[i][j])
			}
		}
	}
	z := e
	z.Data.Seed = 0
	if n := len(InductionRuns(z)); n != 0 {
		t.Errorf("data seed 0: %d induction runs, want none (pathfinder-seed 0 is this graph)", n)
	}
	c := e
	c.Data.Graph = GraphCora
	if n := len(InductionRuns(c)); n != 0 {
		t.Errorf("Cora: %d induction runs, want none (one draw)", n)
	}
}
