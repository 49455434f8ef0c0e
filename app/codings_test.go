package app

import (
	"math"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/experiment"
	"pdnexplorer/wasm/protocol"
)

// A render writes and reads no state as text: every lab, its runs trained
// a while and its MLP baseline come, drawn again as the next snapshot of
// each run comes, and rendered whole again. A state costs a pass over
// every row of the table to write or to read, and snapshots come twenty a
// second a run: what a render shows of the state (a claim's verdict, the
// MLP baseline it waits for, a cell's link) is worked out once a state
// (perState). The XOR lab spent a fifth of the page's thread decoding its
// claims' links on every render. Nor does it read the layout there and
// then: what it is drawn for comes from the page's observer (layout.go).
func TestRenderCodesNoState(t *testing.T) {
	for _, l := range experiment.Labs {
		t.Run(l.Name, func(t *testing.T) {
			rm, lab, conns, d := mountLab(t, l.Name, "lab="+l.Name)
			for i, f := range *conns {
				playRun(f, i)
			}
			if len(*conns) > 0 && len(lab.runs) > 0 {
				(*conns)[0].play(protocol.Event{Kind: protocol.KindBaseline, Gen: 1, Baseline: &protocol.Baseline{State: lab.baselineState(), TestAcc: 0.4}}, nil)
			}
			d.Consume()
			for round := range 3 {
				before, reads := experiment.Codings(), sizes.nowReads
				for i, f := range *conns {
					f.play(protocol.Event{Kind: protocol.KindSnapshot, Gen: 1, Snap: &protocol.Snapshot{Epoch: 4 + round, Epochs: 200,
						TestAcc: 0.5 + 0.1*protocol.Num(i), Weights: 1, Nodes: 2, WIntra: protocol.Num(math.NaN()), WInter: 0.25}}, []float32{0.25, 0, 1, 1, 1})
				}
				d.Consume()
				rm.(app.Composer).Render()
				if n := experiment.Codings() - before; n > 0 && round > 0 {
					t.Errorf("the %s lab's render after a snapshot of each of its %d runs wrote or read %d states", l.Name, len(lab.runs), n)
				}
				if n := sizes.nowReads - reads; n > 0 {
					t.Errorf("the %s lab's flush and render read the layout %d times there and then (layout.go)", l.Name, n)
				}
			}
		})
	}
}
