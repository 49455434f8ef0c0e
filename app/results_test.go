package app

import (
	"fmt"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/experiment"
	"pdnexplorer/wasm/protocol"
)

// A link's results row enters every lab at one place (lab.linkResults):
// a lab that trains runs to their end (the lab table's Trains) shows them
// marked "from the link, not trained here", with a way to train them here;
// a lab that trains none refuses the row by name and drops it from the
// link. A lab added to the table gets its cell here.
func TestLinkResultsEnterEveryLabAtOnePlace(t *testing.T) {
	for _, row := range experiment.Labs {
		t.Run(row.Name, func(t *testing.T) {
			link := "lab=" + row.Name + "&results=5000"
			if row.Name == "sweep" {
				link += "&reps=1"
			}
			if row.Trains == nil {
				// The rows' rule (experiment.Reader) refuses it in the link's
				// decoding, by name, before any lab sees it.
				st, err := experiment.Decode(link)
				if err == nil || !strings.Contains(err.Error(), "results: the "+row.Name+" lab does not read it") {
					t.Errorf("the %s lab took a link's results without a word: %v", row.Name, err)
				}
				if st.View.Results != "" {
					t.Errorf("the link keeps results=%s", st.View.Results)
				}
				return
			}
			rm, l, _, _ := mountLab(t, row.Name, link)
			notices := strings.Join(l.page.board.Texts(), "|")
			h := app.HTMLString(rm)
			if notices != "" {
				t.Errorf("notices %q for results the lab takes", notices)
			}
			if !strings.Contains(h, `id="from-link"`) || !strings.Contains(h, `id="train-here"`) || !strings.Contains(h, "from the link, not trained here") {
				t.Errorf("the %s lab does not mark the link's results", row.Name)
			}
		})
	}
}

// Audit case 171: results of more runs than any lab trains are refused in
// the structure lab's words, not the sweep's.
func TestStructureLabRefusesTooManyResultsInItsOwnWords(t *testing.T) {
	sideRuns := len(experiment.SideRuns(experiment.ForLab("structure")))
	for _, tc := range []struct{ name, results, want string }{
		{"more than any lab", strings.Repeat("1.", 280) + "1", "281 results; no lab trains more than 280 runs to their end"},
		{"more than the lab's", strings.Repeat("1.", sideRuns) + "1", fmt.Sprintf("%d of them, but the structure lab trains %d runs to their end", sideRuns+1, sideRuns)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, err := experiment.Decode("lab=structure&results=" + tc.results)
			rm, l, _, d := mountLab(t, "structure", "lab=structure")
			doIn(d, rm, func() { rm.show(st, err) })
			notices := strings.Join(l.page.board.Texts(), "|")
			if !strings.Contains(notices, tc.want) || strings.Contains(notices, "sweep") {
				t.Errorf("notices %q; want %q, and no sweep", notices, tc.want)
			}
			if l.st.View.Results != "" {
				t.Errorf("the link keeps %d results", strings.Count(l.st.View.Results, ".")+1)
			}
		})
	}
}

// The structure lab marks a link's results as the sweep lab does, and
// Train them here trains them in this page: the pool's workers are given
// the runs the link's results stood for.
func TestStructureLabTrainsTheLinksResultsHere(t *testing.T) {
	rm, l, conns, d := mountLab(t, "structure", "lab=structure&results=6100")
	c := rm.(*StructureLab)
	linked, _ := c.side.fromLink()
	if linked != len(experiment.Perturbations) {
		t.Fatalf("%d results marked as the link's; want pdn's rate 0 of each perturbation (%d)", linked, len(experiment.Perturbations))
	}
	if h := app.HTMLString(rm); !strings.Contains(h, trf("%d from the link, not trained here", linked)) {
		t.Error("the side bar does not count the link's results")
	}
	live := len(*conns)
	doIn(d, rm, func() { c.trainHere() })
	if linked, _ := c.side.fromLink(); linked != 0 || c.side.sched.Done() != 0 || l.st.View.Results != "" {
		t.Errorf("after Train them here: %d linked, %d done, results %q", linked, c.side.sched.Done(), l.st.View.Results)
	}
	first := experiment.RobustnessRuns(l.st)[0].Exp.EncodeEngine()
	trained := false
	for _, f := range (*conns)[live:] {
		for _, cmd := range f.sent {
			trained = trained || cmd.Op == protocol.OpSet && cmd.State == first
		}
	}
	if !trained {
		t.Error("the run the link's result stood for was not trained here")
	}
}
