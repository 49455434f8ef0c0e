package app

import (
	"testing"

	"pdnexplorer/wasm/protocol"
)

// TestPrecacheWaitsForTheReadyPage keeps the service worker's precache off
// a first visit's link until the lab can train: a run that draws its graph
// is ready once the graph is laid out, not at its first snapshot (which
// comes before the layout); a run that draws none (it asked for no
// layout, or is quiet), at its first snapshot.
func TestPrecacheWaitsForTheReadyPage(t *testing.T) {
	for _, tc := range []struct {
		name  string
		kinds []string
		ready int // the index of the first event that shows the page ready, -1 for none
	}{
		{"a graph, its snapshot, its layout", []string{protocol.KindReady, protocol.KindGraph, protocol.KindSnapshot, protocol.KindProgress, protocol.KindLayout}, 4},
		{"a run with no graph", []string{protocol.KindReady, protocol.KindProgress, protocol.KindSnapshot}, 2},
		{"a graph not yet laid out", []string{protocol.KindReady, protocol.KindGraph, protocol.KindSnapshot, protocol.KindSnapshot}, -1},
		{"nothing trained", []string{protocol.KindReady, protocol.KindEstimate, protocol.KindError}, -1},
		{"a graph no one draws", []string{protocol.KindReady, protocol.KindGraph, protocol.KindSnapshot}, 2},
		{"a quiet run", []string{protocol.KindReady, protocol.KindGraph, protocol.KindProgress, protocol.KindSnapshot}, 3},
	} {
		clear(drawing)
		t.Run(tc.name, func(t *testing.T) {
			var c workerConn
			switch tc.name {
			case "a graph no one draws":
				c.sent(protocol.Command{Op: protocol.OpSet, Layout: protocol.LayoutNone})
			case "a quiet run":
				c.sent(protocol.Command{Op: protocol.OpRegenerate, Quiet: true})
			default:
				c.sent(protocol.Command{Op: protocol.OpSet})
			}
			got := -1
			for i, k := range tc.kinds {
				if c.pageReady(k) && got < 0 {
					got = i
				}
			}
			if got != tc.ready {
				t.Errorf("ready at event %d, want %d", got, tc.ready)
			}
		})
	}
	// A lab's runs side by side: one that draws no graph snapshots as its
	// state is set, before the one that draws is laid out.
	clear(drawing)
	var draws, blind workerConn
	draws.sent(protocol.Command{Op: protocol.OpSet})
	blind.sent(protocol.Command{Op: protocol.OpSet, Layout: protocol.LayoutNone})
	draws.pageReady(protocol.KindGraph)
	blind.pageReady(protocol.KindGraph)
	if blind.pageReady(protocol.KindSnapshot) || draws.pageReady(protocol.KindSnapshot) {
		t.Error("ready at a snapshot while a run's graph waits for its layout")
	}
	if !draws.pageReady(protocol.KindLayout) {
		t.Error("not ready once the graph that draws is laid out")
	}
}
