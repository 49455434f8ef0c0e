package app

import (
	"strings"
	"testing"

	"pdnexplorer/experiment"
	"pdnexplorer/wasm/protocol"
)

func TestShellNavigation(t *testing.T) {
	c, _, _ := mount(t)
	h := html(c)
	for _, l := range labs {
		if !strings.Contains(h, `id="lab-`+l.Name+`"`) {
			t.Errorf("no navigation to the %s lab", l.Name)
		}
	}
	if !strings.Contains(h, `aria-current="page"`) {
		t.Error("the navigation does not mark the lab shown")
	}
	if !strings.HasPrefix(c.st.Encode(), "lab=graph&") {
		t.Errorf("the permalink %q does not name the lab first", c.st.Encode())
	}
}

func TestLabInHash(t *testing.T) {
	for _, tc := range []struct{ hash, want string }{
		{"", "graph"},
		{"#per-class=64", "graph"},
		{"#lab=graph&per-class=64", "graph"},
		{"#per-class=64&lab=nowhere", "graph"}, // the lab reports the bad name
	} {
		if got := labInHash(tc.hash); got != tc.want {
			t.Errorf("labInHash(%q) = %q, want %q", tc.hash, got, tc.want)
		}
	}
}

// The engine gives each open run a worker of its own, hands each event to
// the run it names, and drops events of a run that has ended; a closed
// run's worker pauses and serves the next run opened.
func TestEngineRoutesByRun(t *testing.T) {
	var conns []*fakeConn
	e := NewEngine(func(ev EventFunc) Conn {
		f := &fakeConn{onEvent: ev}
		conns = append(conns, f)
		return f
	})
	var got [4][]int
	a := e.Open(func(ev protocol.Event, _ []float32) { got[1] = append(got[1], ev.Gen) })
	b := e.Open(func(ev protocol.Event, _ []float32) { got[2] = append(got[2], ev.Gen) })
	a.Send(protocol.Command{Op: protocol.OpSet})
	b.Send(protocol.Command{Op: protocol.OpStart})
	if len(conns) != 2 || len(e.workers) != 2 {
		t.Fatalf("two runs on %d workers", len(conns))
	}
	if conns[0].sent[0].Run != a.id || conns[1].sent[0].Run != b.id || a.id == b.id {
		t.Fatalf("commands name runs %d and %d", conns[0].sent[0].Run, conns[1].sent[0].Run)
	}
	conns[0].onEvent(protocol.Event{Run: a.id, Gen: 10}, nil)
	conns[1].onEvent(protocol.Event{Run: b.id, Gen: 20}, nil)
	conns[1].onEvent(protocol.Event{Run: 99, Gen: 30}, nil)
	a.Close()
	if conns[0].ops() != "set,pause" {
		t.Errorf("the closed run's worker got %s", conns[0].ops())
	}
	a.Send(protocol.Command{Op: protocol.OpStart}) // a closed run says nothing
	conns[0].onEvent(protocol.Event{Run: a.id, Gen: 11}, nil)
	if len(got[1]) != 1 || got[1][0] != 10 || len(got[2]) != 1 || got[2][0] != 20 {
		t.Errorf("run a got %v, run b %v", got[1], got[2])
	}
	c := e.Open(func(ev protocol.Event, _ []float32) { got[3] = append(got[3], ev.Gen) })
	c.Send(protocol.Command{Op: protocol.OpSet})
	if len(conns) != 2 || conns[0].sent[2].Run != c.id {
		t.Errorf("a third run after a close started worker %d", len(conns))
	}
	e.Close()
	if !conns[0].closed || !conns[1].closed {
		t.Error("closing the engine left a worker running")
	}
}

// The state table's lab row offers exactly the labs there are.
func TestLabsMatchTheStateTable(t *testing.T) {
	if len(labs) != len(experiment.Labs) {
		t.Fatalf("%d labs, %d in experiment.Labs", len(labs), len(experiment.Labs))
	}
	for i, l := range labs {
		if experiment.Labs[i] != l.Name {
			t.Errorf("lab %d is %q, experiment.Labs says %q", i, l.Name, experiment.Labs[i])
		}
	}
}
