package main

import (
	"strings"
	"testing"

	"pdnexplorer/experiment"
	"pdnexplorer/wasm/protocol"
)

// The worker refuses a row its run does not read (experiment.DecodeRun),
// as an error event naming the row and why, and trains the state with the
// row at its default; the page stays usable.
func TestSessionRefusesRowsItsRunDoesNotRead(t *testing.T) {
	for _, tc := range []struct{ name, rows, want string }{
		{"143 Chebyshev's K", "model=cheb&hops=5", "hops: model cheb does not read it (its K is fixed at 3; only pdn-multiscale reads it); it keeps 2"},
		{"143 the pathfinder on Chebyshev", "model=cheb&edge-hidden=32,16", "edge-hidden: model cheb does not read it"},
		{"139 graph-from on a PDN", "model=pdn&graph-from=pdn", "graph-from: model pdn does not read it (only gcn, appnp, sgc read it)"},
		{"134 a perturbation without a rate", "perturb=drop-edges", "perturb: read only when perturb-rate is above 0"},
		{"135 a rate without a perturbation", "perturb-rate=0.5", "perturb-rate: read only when perturb names a perturbation"},
		{"restart-epochs without restarts", "restart-epochs=7", "restart-epochs: read only when restarts is above 0"},
		{"a real graph's size", "data=cora&per-class=64", "per-class: graph cora does not read it"},
		{"a view row", "lab=xor", "lab: the engine does not read it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := small()
			for _, kv := range strings.Split(tc.rows, "&") {
				k, v, _ := strings.Cut(kv, "=")
				if p, _ := experiment.Lookup(k); p.Set(&e, v) != nil {
					t.Fatal(kv)
				}
			}
			s, r := newTestSession()
			s.handle(protocol.Command{Op: protocol.OpSet, State: e.Encode()})
			ev, _ := r.last(protocol.KindError)
			if !strings.Contains(ev.Error, tc.want) {
				t.Errorf("error %q, want %q", ev.Error, tc.want)
			}
			if r.lastIndex(protocol.KindSnapshot) < 0 {
				t.Errorf("no first snapshot of the state with the row at its default")
			}
		})
	}
}

// Every run every lab makes, in the engine's form (as the page sends it),
// is taken without a word, whatever rows the lab's other runs read.
func TestSessionTakesEveryLabsRuns(t *testing.T) {
	for _, l := range experiment.Labs {
		if l.Queue {
			continue // the sweep's runs: TestSweepRuns…
		}
		e := experiment.ForLab(l.Name)
		e.Data.Graph, e.Data.PerClass, e.Train.Epochs = experiment.GraphSynthetic, 24, 2
		e.Model.EdgeHidden, e.Model.Hops, e.Model.GraphFrom, e.Model.Restarts, e.Model.RestartEpochs = []int{8}, 3, experiment.FromPDN, 1, 1
		for _, run := range l.Runs(e) {
			s, r := newTestSession()
			s.handle(protocol.Command{Op: protocol.OpSet, State: run.Exp.EncodeEngine(), Layout: protocol.LayoutNone})
			if ev, _ := r.last(protocol.KindError); ev.Kind == protocol.KindError {
				t.Errorf("%s lab, run %s: %s", l.Name, run.Name, ev.Error)
			}
		}
	}
}

// A perturbation that drops every edge is named as what emptied the
// graph, and the engine points the page at its rate (audit 176), not at
// the generator's p and q.
func TestSessionNamesThePerturbationThatDroppedEveryEdge(t *testing.T) {
	e := small()
	e.Data.Perturb, e.Data.PerturbRate = experiment.PerturbDrop, 1
	s, r := newTestSession()
	s.handle(protocol.Command{Op: protocol.OpSet, State: e.EncodeEngine()})
	ev, _ := r.last(protocol.KindError)
	if ev.Field != "perturb-rate" || !strings.Contains(ev.Error, "perturb drop-edges at perturb-rate 1 dropped them all") || strings.Contains(ev.Error, "raise p or q") {
		t.Errorf("error %+v", ev)
	}
}
