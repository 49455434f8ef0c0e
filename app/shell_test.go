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

// The engine hands each event to the run it names, and drops events of a
// run that has ended.
func TestEngineRoutesByRun(t *testing.T) {
	f := &fakeConn{}
	e := NewEngine(func(ev EventFunc) Conn { f.onEvent = ev; return f })
	var got [3][]int
	a := e.Open(func(ev protocol.Event, _ []float32) { got[1] = append(got[1], ev.Gen) })
	b := e.Open(func(ev protocol.Event, _ []float32) { got[2] = append(got[2], ev.Gen) })
	a.Send(protocol.Command{Op: protocol.OpSet})
	b.Send(protocol.Command{Op: protocol.OpStart})
	if f.sent[0].Run != a.id || f.sent[1].Run != b.id || a.id == b.id {
		t.Fatalf("commands name runs %d and %d", f.sent[0].Run, f.sent[1].Run)
	}
	f.onEvent(protocol.Event{Run: a.id, Gen: 10}, nil)
	f.onEvent(protocol.Event{Run: b.id, Gen: 20}, nil)
	f.onEvent(protocol.Event{Run: 99, Gen: 30}, nil)
	a.Close()
	f.onEvent(protocol.Event{Run: a.id, Gen: 11}, nil)
	if len(got[1]) != 1 || got[1][0] != 10 || len(got[2]) != 1 || got[2][0] != 20 {
		t.Errorf("run a got %v, run b %v", got[1], got[2])
	}
	e.Close()
	if !f.closed {
		t.Error("closing the engine left the worker running")
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
