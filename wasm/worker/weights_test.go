package main

import (
	"testing"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/lessons"
	"pdnexplorer/wasm/protocol"
)

// The snapshot at a run's end carries the deciles of its learned weights
// exactly as the CLI computes them for the same state (lessons.FiguresOf
// after lessons.TrainAll), so the page and pdn train say one sentence; a
// model without edge weights sends none.
func TestSnapshotCarriesTheWeightsSpread(t *testing.T) {
	for _, kind := range []string{experiment.PDN, experiment.GCN} {
		t.Run(kind, func(t *testing.T) {
			e := small()
			e.Model.Kind = kind
			s, r := newTestSession()
			set(s, e)
			s.handle(protocol.Command{Op: protocol.OpStart})
			drain(t, s)
			ev, _ := r.last(protocol.KindSnapshot)
			sp := ev.Snap.Spread
			g, err := datasets.Build(e.Data)
			if err != nil {
				t.Fatal(err)
			}
			tr, err := lessons.TrainAll(g, e)
			if err != nil {
				t.Fatal(err)
			}
			want := lessons.FiguresOf(g, tr)
			if kind != experiment.PDN {
				if sp != nil {
					t.Errorf("%s sent a spread: %+v", kind, sp)
				}
				return
			}
			if ev.Snap.Epoch != e.Train.Epochs || sp == nil {
				t.Fatalf("epoch %d, spread %+v", ev.Snap.Epoch, sp)
			}
			for i := range experiment.Deciles {
				if float64(sp.Intra[i]) != want.IntraDeciles[i] || float64(sp.Inter[i]) != want.InterDeciles[i] {
					t.Fatalf("decile %d: page %v / %v, CLI %v / %v", i, sp.Intra[i], sp.Inter[i], want.IntraDeciles[i], want.InterDeciles[i])
				}
			}
			if float64(sp.Saturated) != want.Saturated {
				t.Errorf("saturated share %v, CLI %v", sp.Saturated, want.Saturated)
			}
		})
	}
}
