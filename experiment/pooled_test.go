package experiment

import (
	"slices"
	"strings"
	"testing"
)

// A claim decided on a pool's results reads nothing a result lacks: over
// every choice of each run's accuracy, low or high, some make it hold and
// some do not, and its numbers never say NaN (a figure a result does not
// hold). A claim that reads the weights, the attention or the input's
// homophily does not say it reads results only.
func TestResultsDecideTheClaimsThatReadThem(t *testing.T) {
	marked := 0
	for _, c := range Claims {
		if !c.OnResults {
			continue
		}
		marked++
		runs := RunsOf(c.State(1))
		holds, fails := 0, 0
		for mask := range 1 << len(runs) {
			figs := map[string]Figures{}
			for i, r := range runs {
				acc := 0.05
				if mask&(1<<i) != 0 {
					acc = 0.95
				}
				figs[r.Name] = ResultFigures(r, Result{Acc: acc, Done: true, Homophily: 0.5})
			}
			v := c.Judge(figs)
			if !v.Decided {
				t.Fatalf("%s: undecided on results of every run", c.ID)
			}
			if strings.Contains(v.Numbers.String(), "NaN") {
				t.Errorf("%s reads what a result does not hold: %s", c.ID, v.Numbers)
			}
			if v.Holds {
				holds++
			} else {
				fails++
			}
		}
		if holds == 0 || fails == 0 {
			t.Errorf("%s: the runs' accuracies do not decide it (holds %d, fails %d of %d choices)", c.ID, holds, fails, 1<<len(runs))
		}
	}
	if marked == 0 {
		t.Fatal("no claim reads results")
	}
	for _, id := range []string{"inter-fades", "structure-homophily", "structure-heterophily", "fig7-first-hop", "same-weights"} {
		if c, _ := ClaimNamed(id); c.OnResults {
			t.Errorf("%s reads more than the runs' accuracies, yet says it reads results only", id)
		}
	}
}

// The structure lab's pool, as it opens, trains the runs of its
// robustness and transfer claims: each claim run maps to the pool's run
// of its key (the transfer claims' GCN over PDN's graph to gcn/pdn,
// the added inter-class edges at 0.4 to add-inter/0.4/…), and its card
// states them beside its own. A graph of other rows is not the claims'.
func TestPoolsDecideTheirLabsClaims(t *testing.T) {
	l, _ := LabNamed("structure")
	st := ForLab("structure")
	runs := l.Trains(st)
	keys := make([]string, len(runs))
	for i, r := range runs {
		keys[i] = RunKey(r.Exp)
	}
	for _, tc := range []struct {
		claim string
		want  map[string]string // claim run → pool run
	}{
		{"structure-add-inter", map[string]string{PDN: "add-inter/0.4/pdn", GCN: "add-inter/0.4/gcn", GAT: "add-inter/0.4/gat"}},
		{"structure-transfer", map[string]string{GCN: "gcn/pdn", SGC: "sgc/pdn", APPNP: "appnp/pdn"}},
		{"structure-transfer-input", map[string]string{GCN: "gcn/input", SGC: "sgc/input", APPNP: "appnp/input"}},
	} {
		c, _ := ClaimNamed(tc.claim)
		k, at, ok := PoolCheck(c, 1, 1, keys)
		if !ok || !k.Home || len(at) != len(tc.want) {
			t.Errorf("%s: the pool decides it %v (home %v), runs %v", tc.claim, ok, k.Home, at)
			continue
		}
		for name, pool := range tc.want {
			if i, ok := at[name]; !ok || RunKey(runs[i].Exp) != RunKey(runNamed(runs, pool).Exp) {
				t.Errorf("%s: run %s is the pool's %v, want %s", tc.claim, name, at[name], pool)
			}
		}
		if !slices.ContainsFunc(ClaimsShownBy("structure"), func(s Claim) bool { return s.ID == tc.claim }) {
			t.Errorf("the structure lab's card does not state %s", tc.claim)
		}
		small := st
		small.Data.PerClass = 32
		var smallKeys []string
		for _, r := range l.Trains(small) {
			smallKeys = append(smallKeys, RunKey(r.Exp))
		}
		if _, _, ok := PoolCheck(c, 1, 1, smallKeys); ok {
			t.Errorf("%s is decided on a graph of 32 nodes a class, not the claim's", tc.claim)
		}
	}
	if c, _ := ClaimNamed("inter-fades"); slices.ContainsFunc(ClaimsShownBy("structure"), func(s Claim) bool { return s.ID == c.ID }) {
		t.Error("the structure lab states inter-fades, which reads the weights its pool does not keep")
	}
}

// runNamed is the run of runs called name (none: the zero Run).
func runNamed(runs []Run, name string) Run {
	i := slices.IndexFunc(runs, func(r Run) bool { return r.Name == name })
	if i < 0 {
		return Run{}
	}
	return runs[i]
}
