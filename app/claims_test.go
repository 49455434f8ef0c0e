package app

import (
	stdhtml "html"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/edgekind"
	"pdnexplorer/experiment"
	"pdnexplorer/wasm/protocol"
)

// reachable are the states a reader reaches without typing a link: each
// lab as it opens, and on each family's graph where it offers the data
// row (the claims' families: a reader chooses the graph), every preset
// and every tour step.
func reachable() []string {
	var out []string
	data, _ := experiment.Lookup("data")
	for _, l := range experiment.Labs {
		out = append(out, "lab="+l.Name)
		if !l.Shows(data) {
			continue
		}
		for _, f := range experiment.Families {
			if f.Folder == "" {
				out = append(out, f.Apply(experiment.ForLab(l.Name)).Encode())
			}
		}
	}
	for _, p := range experiment.Presets {
		out = append(out, p.Link)
	}
	for _, tour := range experiment.Tours {
		for _, s := range tour.Steps {
			out = append(out, s.Link)
		}
	}
	return out
}

// verdictTag is a claim's line with a verdict: data-value 1 or 0.
var verdictTag = regexp.MustCompile(`<li [^>]*data-claim="([^"]+)"[^>]*data-value="([01])"|<li [^>]*data-value="([01])"[^>]*data-claim="([^"]+)"`)

// trainEverything mounts the lab of link with every run trained: each run
// on screen a last snapshot at its last epoch, and every run its pool
// trains a result, as a link's results row brings them. It returns the
// lab's page.
func trainEverything(t *testing.T, link string) (lab string, h string) {
	t.Helper()
	st, err := experiment.Decode(link)
	if err != nil {
		t.Fatal(err)
	}
	row, _ := experiment.LabNamed(st.View.Lab)
	if row.Trains != nil {
		res := make([]experiment.Result, len(row.Trains(st)))
		for i := range res {
			res[i] = experiment.Result{Acc: 0.5, Done: true, Homophily: math.NaN()}
		}
		st.View.Results = experiment.EncodeResults(res)
	}
	rm, l, conns, d := mountLab(t, st.View.Lab, st.Encode())
	epochs := l.st.Train.Epochs
	for _, f := range *conns {
		f.play(protocol.Event{Kind: protocol.KindGraph, Gen: 1, Graph: &protocol.Graph{Nodes: 2, Src: []int32{0}, Dst: []int32{1},
			Labels: []int{0, 1}, Kinds: []edgekind.Kind{edgekind.Inter}, Test: []bool{false, true}}}, nil)
		f.play(protocol.Event{Kind: protocol.KindSnapshot, Gen: 1, Snap: &protocol.Snapshot{Epoch: epochs, Epochs: epochs, TestAcc: 0.5,
			Weights: 1, Nodes: 2, WIntra: protocol.Num(math.NaN()), WInter: 0.25}}, []float32{0.25, 0, 1, 1, 1})
	}
	d.Consume()
	return st.View.Lab, app.HTMLString(rm)
}

// Every claim row is stated with a verdict on the card of a lab that
// states it (experiment.ClaimsShownBy), in a state a reader reaches
// without typing a link, once that state's runs have trained: on screen
// or on the lab's pool; and each lab's card, as the lab opens, states
// with a verdict every claim it reads there: its own at its start, and
// those its pool decides. The structure lab's robustness and transfer
// claims were rows no card showed: two read the compare lab's runs with
// PDN's graph, which no preset or tour opens, and one a perturbation the
// lab trains only on its pool.
func TestEveryClaimIsOnItsLabsCard(t *testing.T) {
	shown := map[string]map[string]bool{}   // lab → claims stated with a verdict somewhere
	atStart := map[string]map[string]bool{} // lab → claims stated with a verdict as it opens
	for _, link := range reachable() {
		lab, h := trainEverything(t, link)
		if shown[lab] == nil {
			shown[lab], atStart[lab] = map[string]bool{}, map[string]bool{}
		}
		for _, m := range verdictTag.FindAllStringSubmatch(h, -1) {
			shown[lab][m[1]+m[4]] = true
			if link == "lab="+lab {
				atStart[lab][m[1]+m[4]] = true
			}
		}
	}
	for _, c := range experiment.Claims {
		on := 0
		for _, l := range experiment.Labs {
			if shown[l.Name][c.ID] {
				on++
			}
			if !slices.ContainsFunc(experiment.ClaimsShownBy(l.Name), func(s experiment.Claim) bool { return s.ID == c.ID }) {
				if shown[l.Name][c.ID] {
					t.Errorf("the %s lab's card shows claim %s, which experiment.ClaimsShownBy does not give it", l.Name, c.ID)
				}
				continue
			}
			if opens := c.Lab() == l.Name && c.LabDefault() || experiment.PoolDecides(l.Name, c); opens && !atStart[l.Name][c.ID] {
				t.Errorf("the %s lab reads claim %s as it opens, but its card does not show it with a verdict once the runs have trained", l.Name, c.ID)
			}
		}
		if on == 0 {
			t.Errorf("claim %s is shown with a verdict on no lab's card in any state a reader reaches (a lab as it opens or on a family's graph, a preset, a tour step)", c.ID)
		}
	}
	for _, id := range []string{"structure-add-inter", "structure-transfer", "structure-transfer-input"} {
		if !shown["structure"][id] {
			t.Errorf("the structure lab's card does not show %s once its pool has trained", id)
		}
	}
}

// The structure lab states the claims its pool decides from the first
// screen: undecided, with how many of their runs the pool has trained,
// until the pool's results come; then with their verdicts, read on the
// results (GCN, SGC and APPNP over PDN's graph at 0.9, over the input at
// 0.6, PDN at 0.95 and GCN and GAT at 0.5 with inter-class edges added).
// On a graph of other rows they say which rows differ.
func TestStructureLabStatesWhatItsPoolDecides(t *testing.T) {
	rm, l, _, d := mountLab(t, "structure", "lab=structure")
	c := rm.(*StructureLab)
	h := app.HTMLString(rm)
	for _, id := range []string{"structure-add-inter", "structure-transfer", "structure-transfer-input"} {
		line := lineOf(h, id)
		if !strings.Contains(line, "Not yet decidable: 0 of its 3 runs have trained to their end on the pool below.") || verdictTag.MatchString(line) {
			t.Errorf("before the pool runs, %s says %q", id, line)
		}
	}
	acc := map[string]float64{"gcn/pdn": 0.9, "sgc/pdn": 0.9, "appnp/pdn": 0.9, "gcn/input": 0.6, "sgc/input": 0.6, "appnp/input": 0.6,
		"add-inter/0.4/pdn": 0.95, "add-inter/0.4/gcn": 0.5, "add-inter/0.4/gat": 0.5}
	res := c.side.results()
	for name, a := range acc {
		key := experiment.RunKey(runNamed(c.side.runs, name).Exp)
		for i, r := range c.side.runs {
			if experiment.RunKey(r.Exp) == key { // a run key is trained once, its result shared
				res[i] = experiment.Result{Acc: a, Done: true}
			}
		}
	}
	doIn(d, rm, func() { c.draw(drawNow) })
	h = app.HTMLString(rm)
	for _, id := range []string{"structure-add-inter", "structure-transfer", "structure-transfer-input"} {
		line := lineOf(h, id)
		if !strings.Contains(line, `data-value="1"`) || !strings.Contains(line, "Holds in this run.") {
			t.Errorf("after the pool, %s says %q", id, line)
		}
	}
	if v, ok := l.verdictOf("structure-transfer"); !ok || !v.Decided || !v.Holds {
		t.Errorf("the tour's verdict of structure-transfer: %+v, %v", v, ok)
	}

	rm2, _, _, _ := mountLab(t, "structure", "lab=structure&per-class=32")
	line := lineOf(app.HTMLString(rm2), "structure-transfer")
	if !strings.Contains(line, "Not checked here: this run's per-class differ from the claim's.") {
		t.Errorf("on 32 nodes a class, structure-transfer says %q", line)
	}
	rm3, _, _, _ := mountLab(t, "structure", "lab=structure&models=sgc,mlp")
	h3 := app.HTMLString(rm3)
	if line := lineOf(h3, "structure-add-inter"); !strings.Contains(line, "Not checked here: this run's models differ") {
		t.Errorf("with SGC and the MLP, structure-add-inter says %q", line)
	}
	if line := lineOf(h3, "structure-transfer"); !strings.Contains(line, "Not yet decidable: 0 of its 3 runs") {
		t.Errorf("with SGC and the MLP, structure-transfer (whose runs the pool still trains) says %q", line)
	}
}

// lineOf is the claims card's line of claim id: its li, from its opening
// tag to its end, its entities read.
func lineOf(h, id string) string {
	i := strings.Index(h, `data-claim="`+id+`"`)
	if i < 0 {
		return ""
	}
	start := strings.LastIndex(h[:i], "<li")
	return stdhtml.UnescapeString(between(h[start:], "<li", "</li>"))
}

// runNamed is the run of runs called name (none: the zero Run).
func runNamed(runs []experiment.Run, name string) experiment.Run {
	for _, r := range runs {
		if r.Name == name {
			return r
		}
	}
	return experiment.Run{}
}
