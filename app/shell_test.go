package app

import (
	"errors"
	stdhtml "html"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/wasm/protocol"
)

func TestShellNavigation(t *testing.T) {
	c, _, _ := mount(t)
	h := html(c)
	for _, l := range experiment.Labs {
		if !strings.Contains(h, `id="lab-`+l.Name+`"`) || !strings.Contains(h, stdhtml.EscapeString(l.Title)) {
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

// The shell reads the address once per change: a link to another lab
// opens that lab with its defaults; the shell keeps the whole state it
// wrote, with what the lab changed since.
func TestShellFollowsTheAddress(t *testing.T) {
	c, _, d := mount(t)
	sh := shells[c]
	doIn(d, sh, func() { sh.follow("#lab=xor&per-class=64") })
	x, ok := sh.room.(*XORLab)
	if !ok || sh.lab != "xor" || x.st.Data.Graph != experiment.GraphXOR || x.st.Data.PerClass != 64 {
		t.Fatalf("after a link to the XOR lab: lab %s, %T", sh.lab, sh.room)
	}
	if !strings.Contains(sh.written, "data=xor") || !strings.Contains(sh.written, "per-class=64") {
		t.Errorf("the address written is %q", sh.written)
	}
	doIn(d, x, func() { x.setParam("classes", "4") })
	if sh.st.Data.Classes != 4 || !strings.Contains(sh.written, "classes=4") {
		t.Errorf("the shell's state after the lab changed classes: %d, %q", sh.st.Data.Classes, sh.written)
	}
	// A step beyond its tour is reported, and the address says the last.
	doIn(d, sh, func() { sh.follow("#lab=graph&tour=graph&step=6") })
	if sh.tour.step != 4 || !strings.Contains(sh.written, "step=4") || !strings.Contains(strings.Join(sh.board.Texts(), " "), "beyond the graph tour's 4 steps") {
		t.Errorf("step 6 of the graph tour: step %d, address %q, notices %v", sh.tour.step, sh.written, sh.board.Texts())
	}
}

// The keys reach the lab on view through the shell, and the keys that walk
// the graph's nodes go to the graph only while it has the focus.
func TestKeysAreTheShells(t *testing.T) {
	for _, tc := range []struct {
		key     string
		walking bool
		want    command
	}{
		{" ", false, cmdPlay}, {"k", false, cmdPlay}, {"s", false, cmdStep}, {"ArrowRight", false, cmdStep},
		{"r", false, cmdReset}, {"g", false, cmdNewGraph}, {"p", false, cmdPresent},
		{"n", false, cmdTourNext}, {"PageUp", false, cmdTourBack},
		{"ArrowRight", true, cmdNextNode}, {"ArrowLeft", true, cmdPrevNode}, {"Escape", true, cmdLetGo}, {"s", true, cmdStep},
	} {
		if got, ok := commandOf(tc.key, tc.walking); !ok || got != tc.want {
			t.Errorf("%q (walking %v) is %v, want %v", tc.key, tc.walking, got, tc.want)
		}
	}
	for _, k := range []string{"ArrowLeft", "Escape", "x", "Enter"} {
		if _, ok := commandOf(k, false); ok {
			t.Errorf("%q is a command outside the graph", k)
		}
	}
	c, f, d := mount(t)
	tiny(f, d)
	snapshot(f, 1, false, 0.9, 0.05, 0.3)
	d.Consume()
	sh := shells[c]
	sh.apply(cmdStep, cmdReset)
	if ops := f.ops(); !strings.HasSuffix(ops, "step,reset") {
		t.Errorf("the keys sent %s", ops)
	}
	if !sh.apply(cmdNextNode) || c.insp.selected != 0 {
		t.Errorf("→ on the graph chose node %d", c.insp.selected)
	}
}

// A burst of commands is merged into what it amounts to.
func TestCoalesce(t *testing.T) {
	for _, tc := range []struct{ in, want []command }{
		{[]command{cmdStep, cmdStep, cmdStep}, []command{cmdStep, cmdStep, cmdStep}},
		{[]command{cmdPlay, cmdPlay}, nil},
		{[]command{cmdPlay, cmdPlay, cmdPlay}, []command{cmdPlay}},
		{[]command{cmdReset, cmdReset, cmdStep, cmdReset}, []command{cmdReset, cmdStep, cmdReset}},
		{[]command{cmdNewGraph, cmdNewGraph}, []command{cmdNewGraph, cmdNewGraph}},
		{[]command{cmdPresent, cmdStep, cmdPresent}, []command{cmdPresent, cmdStep, cmdPresent}},
	} {
		if got := coalesce(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("coalesce(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// The keys line comes from the key table, in the lab's own words.
func TestKeysLine(t *testing.T) {
	for _, tc := range []struct{ link, want string }{
		{"lab=graph", "Keys: Space or K play/pause · S or → step one epoch · R reset · G new graph (next data seed) · P projector mode · - slower · + or = faster."},
		{"lab=degree", "Space or K train/pause both"},
		{"lab=xor", "Space or K train/pause all"},
		{"lab=attention", "G new split (next data seed)"},
	} {
		st, _ := experiment.Decode(tc.link)
		rm, _, _, _ := mountLab(t, st.View.Lab, tc.link)
		if h := htmlOf(rm); !strings.Contains(h, tc.want) {
			t.Errorf("%s: the keys line lacks %q", tc.link, tc.want)
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
		return started(f)
	}, dialFakeReader)
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

// A worker whose program cannot start tells the run it serves, in the
// page's words, whichever way it fails: its script says start-failed, the
// worker itself fails, or its program ends before it said it was ready.
// The engine is then down: no worker is started again (one would fail as
// it did, and a pool of runs would start one a run), and a run opened
// later is told so when it sends. The connection's own failures, which
// name no run, reach the run the worker serves.
func TestEngineSaysAWorkerThatCannotStart(t *testing.T) {
	for _, how := range []protocol.Event{{Kind: protocol.KindStartFailed}, {Kind: protocol.KindExited, Error: "2"}} {
		var conns []*fakeConn
		e := NewEngine(func(ev EventFunc) Conn {
			f := &fakeConn{onEvent: ev} // never says it is ready
			conns = append(conns, f)
			return f
		}, dialFakeReader)
		var got []protocol.Event
		a := e.Open(func(ev protocol.Event, _ []float32) { got = append(got, ev) })
		a.Send(protocol.Command{Op: protocol.OpSet})
		conns[0].onEvent(how, nil) // as the connection passes it on: no run named
		if len(got) != 1 || got[0].Kind != protocol.KindStartFailed || got[0].Say == nil || !strings.Contains(got[0].Say.Key, "could not start") {
			t.Fatalf("%s before ready: the run got %+v, want the page's words that the engine could not start", how.Kind, got)
		}
		if !conns[0].closed {
			t.Errorf("%s before ready: the failed worker was left open", how.Kind)
		}
		a.Close()
		var later []protocol.Event
		b := e.Open(func(ev protocol.Event, _ []float32) { later = append(later, ev) })
		b.Send(protocol.Command{Op: protocol.OpSet})
		e.Estimate([]string{"x"}, func([]float64) { t.Error("an estimate answered by no worker") })
		e.Load(b, []protocol.File{{Name: "a"}}, experiment.Data{})
		if len(conns) != 1 {
			t.Errorf("%s before ready: %d workers dialled in all, want the one that failed", how.Kind, len(conns))
		}
		if len(later) != 2 || later[0].Kind != protocol.KindStartFailed || later[1].Kind != protocol.KindStartFailed || e.reading != nil {
			t.Errorf("%s before ready: a run opened later got %+v (reading: %v), want told twice the engine is down", how.Kind, later, e.reading != nil)
		}
	}
	var conns []*fakeConn
	e := NewEngine(dialStarted(&conns), dialFakeReader)
	var got []protocol.Event
	a := e.Open(func(ev protocol.Event, _ []float32) { got = append(got, ev) })
	a.Send(protocol.Command{Op: protocol.OpSet})
	conns[0].onEvent(protocol.Failure(phrase.Errorf("bad message from the engine: %w", errors.New("x"))), nil)
	if len(got) != 1 || got[0].Kind != protocol.KindError {
		t.Errorf("the connection's failure reached the run as %+v", got)
	}
}

// The reader of files is not the engine: a reader that cannot start, or
// whose program ends while reading, tells the run that opened the files
// in the page's words, keeps the graph in use, and leaves the engine up
// (its workers train on; the next files start a new reader).
func TestEngineSaysAReaderThatFails(t *testing.T) {
	for _, tc := range []struct {
		name  string
		ready bool
		ev    protocol.Event
		want  string
	}{
		{"cannot start", false, protocol.Event{Kind: protocol.KindStartFailed}, "the reader of files could not start"},
		{"ends before it starts", false, protocol.Event{Kind: protocol.KindExited, Error: "2"}, "the reader of files could not start"},
		{"ends while reading", true, protocol.Event{Kind: protocol.KindExited, Error: "2"}, "its reader stopped while reading it (its program ended with code 2)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var conns, rs []*fakeConn
			e := NewEngine(dialStarted(&conns), func(ev EventFunc) Conn {
				f := &fakeConn{onEvent: ev}
				rs = append(rs, f)
				if tc.ready {
					return started(f)
				}
				return f
			})
			var got []protocol.Event
			a := e.Open(func(ev protocol.Event, _ []float32) { got = append(got, ev) })
			a.Send(protocol.Command{Op: protocol.OpSet, State: "model=gcn"})
			e.Load(a, []protocol.File{{Name: "edges.csv"}}, experiment.Data{})
			if len(rs) != 1 || rs[0].ops() != protocol.OpLoad || rs[0].sent[0].State != "model=gcn" || conns[0].ops() != protocol.OpSet {
				t.Fatalf("the files went to the reader as %q (state %q), the engine worker got %q", rs[0].ops(), rs[0].sent[0].State, conns[0].ops())
			}
			rs[0].onEvent(tc.ev, nil)
			if len(got) != 1 || got[0].Kind != protocol.KindError || !got[0].Load || got[0].Say == nil || !strings.Contains(got[0].Say.String(), tc.want) {
				t.Fatalf("the run got %+v, want the page's words %q", got, tc.want)
			}
			if !rs[0].closed || e.reading != nil || e.down || conns[0].closed {
				t.Errorf("reader closed %v, reading %v, engine down %v, engine worker closed %v", rs[0].closed, e.reading != nil, e.down, conns[0].closed)
			}
			e.Load(a, []protocol.File{{Name: "edges.csv"}}, experiment.Data{})
			if len(rs) != 2 {
				t.Errorf("the next files started %d readers, want a new one", len(rs)-1)
			}
		})
	}
}

// The engine workers read no files: a run's state that names the files
// in use with other columns (a link's target edited in the address) goes
// to its worker with the columns in use, and the reader reads the files
// again with those it names, once: its answer tells the run. Columns the
// files were refused with are not read again; a closed run, a lab
// switch or other runs' states never reach a worker with columns its
// graph does not fit, and the files never go to an engine worker.
func TestEngineRereadsForOtherColumns(t *testing.T) {
	var conns []*fakeConn
	e := NewEngine(dialStarted(&conns), dialFakeReader)
	var got []protocol.Event
	a := e.Open(func(ev protocol.Event, _ []float32) { got = append(got, ev) })
	b := e.Open(func(protocol.Event, []float32) {})
	files := []protocol.File{{Name: "twitch.zip"}}
	e.Load(a, files, experiment.Data{})
	lastReader(t).play(protocol.Event{Kind: protocol.KindLoaded, Load: true, Loaded: &protocol.Loaded{Target: "mature"}, Parsed: []byte("read")}, nil)
	for i, w := range conns {
		if w.ops() != "load" || len(w.sent[0].Files) != 0 || string(w.sent[0].Parsed) != "read" {
			t.Fatalf("engine worker %d got %q (files %d): want the graph read and not the files", i, w.ops(), len(w.sent[0].Files))
		}
	}
	local := func(target string, lr float64) string {
		x := experiment.Default()
		x.Data.Graph, x.Data.Target, x.Train.LR = experiment.GraphLocal, target, lr
		return x.EncodeEngine()
	}
	targetOf := func(c protocol.Command) string {
		st, _ := experiment.DecodeRun(c.State)
		return st.Data.Target
	}
	a.Send(protocol.Command{Op: protocol.OpSet, State: local("mature", 0.01)})
	before := len(readers)
	if last := conns[0].sent[len(conns[0].sent)-1]; targetOf(last) != "mature" || len(readersSince(before)) != 0 {
		t.Fatalf("the state with the columns read: the worker got target %q, %d readers started", targetOf(last), len(readersSince(before)))
	}
	a.Send(protocol.Command{Op: protocol.OpSet, State: local("views", 0.05)})
	b.Send(protocol.Command{Op: protocol.OpSet, State: local("views", 0.01)})
	a.Send(protocol.Command{Op: protocol.OpSet, State: local("views", 0.02)})
	started := readersSince(before)
	if len(started) != 1 || started[0].sent[0].Target != "views" || len(started[0].sent[0].Files) != 1 {
		t.Fatalf("another target started %d readers, want one reading the files in use with it", len(started))
	}
	for i, w := range conns {
		if last := w.sent[len(w.sent)-1]; last.Op != protocol.OpSet || targetOf(last) != "mature" {
			t.Errorf("engine worker %d was sent target %q before the files were read with it", i, targetOf(last))
		}
	}
	if last := conns[0].sent[len(conns[0].sent)-1]; !strings.Contains(last.State, "lr=0.02") {
		t.Errorf("the run's latest state was not the one sent: %s", last.State)
	}
	started[0].play(protocol.Event{Kind: protocol.KindLoaded, Load: true, Loaded: &protocol.Loaded{Target: "views"}, Parsed: []byte("read again")}, nil)
	if last := conns[1].sent[len(conns[1].sent)-1]; last.Op != protocol.OpLoad || string(last.Parsed) != "read again" {
		t.Errorf("once read again the other worker got %q", conns[1].ops())
	}
	if n := len(got); n == 0 || got[n-1].Kind != protocol.KindLoaded || got[n-1].Loaded.Target != "views" {
		t.Errorf("the run was not told the files were read again: %+v", got)
	}
	a.Send(protocol.Command{Op: protocol.OpSet, State: local("views", 0.02)})
	if last := conns[0].sent[len(conns[0].sent)-1]; targetOf(last) != "views" {
		t.Errorf("after the read the state went with target %q", targetOf(last))
	}
	// Columns the files are refused with are not read again at each state.
	a.Send(protocol.Command{Op: protocol.OpSet, State: local("nosuch", 0.02)})
	refusing := readersSince(before)
	refusing[len(refusing)-1].play(protocol.Event{Kind: protocol.KindError, Load: true, Error: "no column nosuch"}, nil)
	n := len(readers)
	a.Send(protocol.Command{Op: protocol.OpSet, State: local("nosuch", 0.03)})
	if len(readersSince(n)) != 0 {
		t.Error("columns the files were refused with were read again")
	}
	if last := conns[0].sent[len(conns[0].sent)-1]; targetOf(last) != "views" || !strings.Contains(last.State, "lr=0.03") {
		t.Errorf("after a refused read the state went with target %q: %s", targetOf(last), last.State)
	}
}

// readersSince are the fake readers dialled after the first n.
func readersSince(n int) []*fakeConn { return readers[n:] }

// A state whose worker dies each time it is set (out of memory at its
// set-up, a helper thread's fault) is set again once on a new worker, and
// then refused in the page's words: not a new worker a death for ever.
func TestEngineStopsSettingAStateThatKillsItsWorker(t *testing.T) {
	var conns []*fakeConn
	e := NewEngine(dialStarted(&conns), dialFakeReader)
	var got []string
	a := e.Open(func(ev protocol.Event, _ []float32) { got = append(got, ev.Kind) })
	a.Send(protocol.Command{Op: protocol.OpSet})
	for range 3 {
		conns[len(conns)-1].onEvent(protocol.Event{Kind: protocol.KindExited, Error: "2"}, nil)
	}
	if want := []string{protocol.KindRestarted, protocol.KindError, protocol.KindRestarted}; !slices.Equal(got, want) {
		t.Errorf("three deaths on one state told the run %v, want %v (restarted once, then refused)", got, want)
	}
	conns[len(conns)-1].onEvent(protocol.Event{Kind: protocol.KindSnapshot, Run: a.id, Snap: &protocol.Snapshot{}}, nil)
	conns[len(conns)-1].onEvent(protocol.Event{Kind: protocol.KindExited, Error: "2"}, nil)
	if got[len(got)-1] != protocol.KindRestarted {
		t.Errorf("a death after the state trained told the run %s, want restarted", got[len(got)-1])
	}
}

// A pool of runs (the Figure 3 sweep) whose engine cannot start halts at
// once: one worker dialled, no result saved (a run that could not start
// is no run that failed), the runs left to train.
func TestSweepHaltsWhenTheEngineCannotStart(t *testing.T) {
	var conns []*fakeConn
	e := NewEngine(func(ev EventFunc) Conn {
		f := &fakeConn{onEvent: ev}
		conns = append(conns, f)
		return f
	}, dialFakeReader)
	var saved experiment.Experiment
	rm := rooms["sweep"](&page{engine: e, board: &Board{}, save: func(s experiment.Experiment) { saved = s }})
	st, _ := experiment.Decode("lab=sweep&reps=1")
	rm.show(st, nil)
	rm.(interface{ core() *lab }).core().unpaced = true
	d := app.NewClientTester(rm)
	defer d.Close()
	d.Consume()
	c := rm.(*SweepLab)
	doIn(d, c, func() { c.do(cmdPlay) })
	for failed := 0; failed < len(conns) && failed < 50; failed++ {
		conns[failed].onEvent(protocol.Event{Kind: protocol.KindStartFailed}, nil)
		d.Consume()
	}
	d.Consume()
	if len(conns) > 2 || c.done() != 0 || strings.Contains(saved.View.Results, "x") || c.playing {
		t.Errorf("the sweep dialled %d workers, has %d runs done, saved %q and plays: %v; want at most the page's and the pool's first, none done, none saved, halted",
			len(conns), c.done(), saved.View.Results, c.playing)
	}
}

// The shell draws on the server the lab of the state the request's query
// holds, with its runs standing in (their numbers dashes), as the site's
// builder puts it in the entry page; nothing is opened.
func TestShellPrerendersTheQuerysLab(t *testing.T) {
	app.RouteWithRegexpFunc("^/.*", func() app.Composer { return &Shell{} })
	h := &app.Handler{Name: "PDN Explorer"}
	for _, l := range experiment.Labs {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/?lab="+l.Name+"&present=1", nil))
		page := rec.Body.String()
		if rec.Code != 200 || !strings.Contains(page, `class="explorer present"`) {
			t.Errorf("%s: %d, no projector mode", l.Name, rec.Code)
			continue
		}
		current := regexp.MustCompile(`<button[^>]*id="lab-` + l.Name + `"[^>]*aria-current="page"|<button[^>]*aria-current="page"[^>]*id="lab-` + l.Name + `"`)
		if !current.MatchString(page) || strings.Count(page, `aria-current="page"`) != 1 {
			t.Errorf("%s: the navigation does not mark the lab alone as current", l.Name)
		}
		if !strings.Contains(page, `id="play"`) {
			t.Errorf("%s: no toolbar drawn", l.Name)
		}
		if runs := len(l.Runs(experiment.ForLab(l.Name))); !l.Queue && strings.Count(page, `data-metric="epoch"`) < 1 {
			t.Errorf("%s: none of its %d runs stands in", l.Name, runs)
		}
	}
}

// Audit case 192: the share panel of a state that trains one's own files
// says the link does not carry them; another state's says nothing of it.
func TestShareSaysTheFilesStay(t *testing.T) {
	c, _, d := mount(t)
	sh := shells[c]
	doShell := func(f func()) {
		d.Dispatch(app.Dispatch{Mode: app.Update, Source: sh, Function: func(app.Context) { f() }})
		d.Consume()
	}
	doShell(func() { sh.share.open = true })
	if h := html(c); !strings.Contains(h, `class="share"`) || strings.Contains(h, `id="share-local"`) {
		t.Error("the synthetic graph's share panel is not open, or speaks of files")
	}
	doShell(func() { sh.st.Data.Graph = experiment.GraphLocal })
	if !strings.Contains(html(c), `id="share-local"`) {
		t.Error("the share panel of one's own graph does not say its files stay behind")
	}
}

// A letter is its key whatever the Shift state: Shift+N advances a tour
// as n does (Caps Lock too), for every letter of the key table; the table
// holds its letters in lower case, which keyOf gives, and a named key
// keeps its case.
func TestLettersAreKeysWhateverTheShiftState(t *testing.T) {
	letters := 0
	for _, b := range bindings {
		for _, k := range b.keys {
			if keyOf(k) != k {
				t.Errorf("the key table holds %q: a letter is held in lower case (%q), or Shift's letter never matches", k, keyOf(k))
			}
			if r := []rune(k); len(r) != 1 || !unicode.IsLetter(r[0]) {
				continue
			}
			letters++
			for _, shifted := range []string{strings.ToUpper(k), k} {
				if got, ok := commandOf(shifted, b.walk); !ok || got != b.cmd {
					t.Errorf("%q is %v, want %v as %q", shifted, got, b.cmd, k)
				}
			}
		}
	}
	if letters == 0 {
		t.Fatal("no letter in the key table")
	}
	if got, ok := commandOf("N", false); !ok || got != cmdTourNext {
		t.Errorf("Shift+N is %v, want the tour's next step", got)
	}
	for _, k := range []string{"pagedown", "ESCAPE", "X"} {
		if _, ok := commandOf(k, true); ok {
			t.Errorf("%q is a command: a named key keeps its case, and X is no key of the table", k)
		}
	}
}

// The notice that the address keeps a link's pairs this version cannot
// use shows exactly while it keeps them: setting the row a pair names, or
// following a link without them, takes it away.
func TestKeptPairsNoticeShowsWhileKept(t *testing.T) {
	c, _, d := mount(t)
	sh := shells[c]
	kept := func() bool {
		return strings.Contains(strings.Join(sh.board.Texts(), " "), "This version of the explorer cannot use")
	}
	doIn(d, sh, func() { sh.follow("#lab=xor&per-class=64&future-row=3") })
	if !kept() || !strings.Contains(sh.written, "future-row=3") {
		t.Fatalf("a link with a row this version lacks: address %q, notices %v", sh.written, sh.board.Texts())
	}
	doIn(d, sh, func() { sh.follow("#lab=degree") })
	if kept() || strings.Contains(sh.written, "future-row") {
		t.Errorf("after another lab's link: address %q, notices %v", sh.written, sh.board.Texts())
	}
	doIn(d, sh, func() { sh.follow("#lab=xor&per-class=64&edge-init=future") })
	if !kept() {
		t.Fatalf("a link with a choice this version lacks: notices %v", sh.board.Texts())
	}
	x := sh.room.(*XORLab)
	doIn(d, x, func() { x.setParam("edge-init", "uniform") })
	if kept() || strings.Contains(sh.written, "edge-init=future") {
		t.Errorf("after the reader set classes: address %q, notices %v", sh.written, sh.board.Texts())
	}
}
