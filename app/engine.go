package app

import (
	"slices"

	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/numtext"
	"pdnexplorer/wasm/protocol"
)

// Engine is the app's connection to the engine: a pool of workers, one per
// run that is open, so that runs side by side train at once, one on each
// core. A worker outlives its run and serves the next one opened, so a lab
// that comes and goes starts no new worker. Each worker stamps every event
// with the run it serves, and the engine hands the event to that run only,
// so an event about a run that is gone (a lab left, a run replaced) is
// dropped.
//
// The user's files are read by a worker of their own, the reader (the
// worker's program built with its readers, fetched only when files are
// opened: the engine workers' program links none, which keeps a first
// visit lighter), and the graph it read is handed to every engine worker
// (protocol.Command.Parsed), so that files no browser can hold (a gzip
// bomb) take down the reader, not a run, and a large graph is parsed once,
// not once a worker. The reader is closed once it has answered. A worker
// that dies anyway (its Go program exits) is replaced by a new one, given
// the files in use, and its run is told (protocol.KindRestarted) so that
// it sets its state again.
type Engine struct {
	dial       func(EventFunc) Conn
	dialReader func(EventFunc) Conn
	workers    []*worker
	runs       map[int]EventFunc
	last       int
	// files are the user's own graph's, read and accepted by the reader:
	// the page keeps them, to be read again with other columns; every
	// engine worker, and each new one before its first run, gets the
	// graph read from them (parsed), not them.
	files []protocol.File
	cols  experiment.Data // the columns the files are read with
	// parsed is the graph the reader read from them, as its KindLoaded
	// brought it: in the browser the JS buffer (parsedBuffer), which the
	// page's Go never copies in (protocol.Command.ParsedBuffer).
	parsed       []byte
	parsedBuffer any
	// reading is the reader reading new files (or the files in use with
	// other columns), nil when none: next, with the columns nextCols, for
	// the run readFor, which its answers go to.
	reading *worker
	readFor int
	// refused are the columns the files in use were refused with: a
	// state that names them is not read again (inUse).
	refused  map[experiment.Data]bool
	next     []protocol.File
	nextCols experiment.Data
	// choosing are files whose reader asked which column holds the
	// classes: Reload reads them with the column chosen.
	choosing []protocol.File
	// estimated takes the answer to the last Estimate.
	estimated func([]float64)
	// down says a worker's program could not start in this browser: no
	// worker is started again (one would fail as it did, and a pool of
	// runs would start one a run), and every run is told so (downEvent)
	// until the page is reloaded.
	down bool
}

// downEvent is what a run is told when the engine cannot start: the
// engine's state, not the run's result (a pool halts on it, keeping its
// runs to train).
func downEvent(run int) protocol.Event {
	t := phrase.New("The engine could not start in this browser; the browser's console says why. Reloading the page may help.")
	return protocol.Event{Kind: protocol.KindStartFailed, Run: run, Error: t.String(), Say: &t}
}

// worker is one engine worker and the run it serves, 0 for none. ready
// says its program has started (KindReady); deaths, how many times in a
// row its program ended with no snapshot between (replace).
type worker struct {
	conn   Conn
	run    int
	ready  bool
	deaths int
}

// NewEngine starts the first worker with dial (which hands each connection
// it makes the handler of the worker's events); dialReader starts the
// reader of the user's files, when they are opened.
func NewEngine(dial, dialReader func(EventFunc) Conn) *Engine {
	e := &Engine{dial: dial, dialReader: dialReader, runs: map[int]EventFunc{}}
	e.workers = append(e.workers, e.start())
	return e
}

// start dials a worker whose events come to the engine as that worker's.
func (e *Engine) start() *worker {
	w := &worker{}
	w.conn = e.redial(w)
	return w
}

// fromWorker takes an event of worker w: a death replaces the worker, an
// answer to files being read decides whether the others get them, and the
// event goes to the run it is about.
func (e *Engine) fromWorker(w *worker, ev protocol.Event, f32 []float32) {
	if ev.Run == 0 && ev.Kind == protocol.KindError {
		// The connection's own failures (a message it could not read)
		// are about whatever the worker serves.
		ev.Run = w.run
	}
	switch {
	case ev.Kind == protocol.KindReady:
		w.ready = true
	case ev.Kind == protocol.KindSnapshot:
		w.deaths = 0 // its state trains
	case ev.Kind == protocol.KindStartFailed, ev.Kind == protocol.KindExited && !w.ready:
		// A program that ends before it has started would end again in
		// a worker started in its place, and again: it is said, not
		// replaced.
		e.failStart(w)
		return
	case ev.Kind == protocol.KindExited:
		e.replace(w, ev.Error)
		return
	case ev.Kind == protocol.KindLoaded && ev.Load:
		return // a worker took the graph the reader read: the run heard it from the reader
	case ev.Kind == protocol.KindEstimate:
		if f := e.estimated; f != nil {
			e.estimated = nil
			f(ev.Seconds)
		}
		return
	}
	if f := e.runs[ev.Run]; f != nil {
		f(ev, f32)
	}
}

// fromReader takes an event of the reader r: the graph it read goes to
// every engine worker, before its run hears of it (so the state the run
// sets next, data=local, finds it there); a refusal keeps the files in
// use. Either ends the reader. A reader that could not start, or whose
// program ended while reading (a file that unpacks to more than a
// browser holds), is said to the run in the page's words.
func (e *Engine) fromReader(r *worker, ev protocol.Event, f32 []float32) {
	if r != e.reading {
		return // a reader replaced by newer files, or done
	}
	ev.Run = e.readFor
	switch {
	case ev.Kind == protocol.KindReady:
		r.ready = true
		return
	case ev.Kind == protocol.KindLoaded && ev.Load:
		if !e.sameFiles() {
			e.refused = nil // other files: what the last ones were refused with says nothing of these
		}
		e.files, e.cols, e.parsed, e.parsedBuffer = e.next, columnsOf(e.nextCols), ev.Parsed, ev.ParsedBuffer
		if l := ev.Loaded; l != nil { // the columns it read them with, which the run's state takes
			e.cols = experiment.Data{IDColumn: l.IDColumn, Target: l.Target, Bins: l.Bins}
		}
		for _, o := range e.workers {
			o.conn.Send(e.loadCommand())
		}
	case ev.Kind == protocol.KindError && ev.Load:
		if e.files != nil && e.sameFiles() {
			if e.refused == nil {
				e.refused = map[experiment.Data]bool{}
			}
			e.refused[columnsOf(e.nextCols)] = true
		}
		if ev.Columns != nil {
			e.choosing = e.next // read again once the user names a column
		}
	case ev.Kind == protocol.KindStartFailed, ev.Kind == protocol.KindExited:
		ev = readerFailed(r, ev)
	case ev.Kind == protocol.KindError:
		// The connection's own failure (a message it could not read):
		// the files were not opened.
		ev.Load = true
	default:
		return // nothing else concerns the page
	}
	e.endReading()
	if f := e.runs[ev.Run]; f != nil {
		f(ev, f32)
	}
}

// endReading closes the reader: it holds the files and the graph it
// read, which the engine workers now hold.
func (e *Engine) endReading() {
	if e.reading != nil && e.reading.conn != nil {
		e.reading.conn.Close()
	}
	e.reading, e.next = nil, nil
}

// sameFiles says the reader reads the files in use (with other columns),
// not new ones.
func (e *Engine) sameFiles() bool {
	return len(e.next) == len(e.files) && (len(e.next) == 0 || &e.next[0] == &e.files[0])
}

// readerFailed is what the run is told when the reader r's program
// could not start or ended while reading (ev): the files were not opened,
// and the graph in use stays.
func readerFailed(r *worker, ev protocol.Event) protocol.Event {
	say := phrase.New("Your graph was not opened: the reader of files could not start (offline, it is at hand only once files have been opened online; otherwise the browser's console says why). The graph in use stays.")
	if ev.Kind == protocol.KindExited && r.ready {
		cause := phrase.New("its program failed; the browser's console says how")
		if _, err := numtext.ParseInt(ev.Error); err == nil {
			cause = phrase.New("its program ended with code %s", ev.Error)
		}
		say = phrase.New("Your graph was not opened: its reader stopped while reading it (%s), likely out of memory: the files unpack to more than a browser holds. The graph in use stays.", cause)
	}
	return protocol.Event{Kind: protocol.KindError, Run: ev.Run, Load: true, Error: say.String(), Say: &say}
}

// failStart closes w, whose program could not start, takes it from the
// workers, and tells its run: the engine is down (down), and every run
// is told so from now on.
func (e *Engine) failStart(w *worker) {
	w.conn.Close()
	w.conn = downConn{} // its run's later commands are told the engine is down
	e.down = true
	e.workers = slices.DeleteFunc(e.workers, func(x *worker) bool { return x == w })
	if f := e.runs[w.run]; f != nil && w.run != 0 {
		f(downEvent(w.run), nil)
	}
}

// tooManyDeaths is how many times in a row a worker's program may end on
// a state, no snapshot between, before the state is refused rather than
// set again on a new worker (a state whose set-up runs out of memory,
// a helper thread's fault: set again, it would end again, for ever).
const tooManyDeaths = 2

// replace starts a new worker in place of w, which died, gives it the
// files in use and tells w's run, which sets its state again. Files that
// w was reading when it died are dropped: they are what killed it.
func (e *Engine) replace(w *worker, why string) {
	w.conn.Close()
	w.ready = false
	w.deaths++
	w.conn = e.redial(w)
	if e.files != nil {
		w.conn.Send(e.loadCommand())
	}
	// worker.js sends the exit code, or none where the program threw
	// (the browser's words are in its console, not the page's language).
	cause := phrase.New("its program failed; the browser's console says how")
	if _, err := numtext.ParseInt(why); err == nil {
		cause = phrase.New("its program ended with code %s", why)
	}
	say := phrase.New("The engine stopped (%s) and was started again; the graph in use stays.", cause)
	kind := protocol.KindRestarted
	if w.deaths >= tooManyDeaths {
		// The run is told why, and not set again: a new state sets it.
		kind, w.deaths = protocol.KindError, 0
		say = phrase.New("The engine stopped again on this state (%s), so it was not run a third time: change the state, or reload the page.", cause)
	}
	if f := e.runs[w.run]; f != nil && w.run != 0 {
		f(protocol.Event{Kind: kind, Run: w.run, Error: say.String(), Say: &say}, nil)
	}
}

// redial dials a new connection whose events come to the engine as w's.
func (e *Engine) redial(w *worker) Conn {
	return e.dial(func(ev protocol.Event, f32 []float32) { e.fromWorker(w, ev, f32) })
}

// Handle is one run's handle on the engine.
type Handle struct {
	e  *Engine
	w  *worker
	id int
	// state is the last state the run set: the reader holds files opened
	// for the run to what it can train (Load).
	state string
}

// Open starts a run whose events go to f, on a free worker or a new one.
func (e *Engine) Open(f EventFunc) *Handle {
	e.last++
	e.runs[e.last] = f
	var w *worker
	for _, x := range e.workers {
		if x.run == 0 {
			w = x
			break
		}
	}
	if w == nil && e.down {
		w = &worker{conn: downConn{}} // answers downEvent (Handle.Send)
	} else if w == nil {
		w = e.start()
		if e.files != nil {
			w.conn.Send(e.loadCommand())
		}
		e.workers = append(e.workers, w)
	}
	w.run = e.last
	return &Handle{e: e, w: w, id: e.last}
}

// Load hands the user's files to a new reader, which reads them as the
// graph of data=local, held to what the run h (the lab that opens them)
// can train in a browser, and answers to that run; every engine worker
// gets the graph it read. Files being read before are dropped: the last
// opened are the ones read.
func (e *Engine) Load(h *Handle, files []protocol.File, cols experiment.Data) {
	run := 0
	if h != nil && h.w.run == h.id {
		run = h.id
	}
	if e.live() == nil {
		if f := e.runs[run]; f != nil {
			f(downEvent(run), nil)
		}
		return
	}
	e.endReading()
	r := &worker{}
	e.reading, e.readFor, e.next, e.nextCols, e.choosing = r, run, files, cols, nil
	r.conn = e.dialReader(func(ev protocol.Event, f32 []float32) { e.fromReader(r, ev, f32) })
	state := ""
	if h != nil {
		state = h.state
	}
	r.conn.Send(protocol.Command{Op: protocol.OpLoad, Files: files, State: state, IDColumn: cols.IDColumn, Target: cols.Target, Bins: cols.Bins})
}

// Estimate asks the engine how long each run of states would take to its
// end in this browser, and hands the answer to f (the last asker's only).
// Any worker answers, between its epochs: it concerns no run.
func (e *Engine) Estimate(states []string, f func(seconds []float64)) {
	w := e.live()
	if w == nil {
		return // no worker answers: the runs say why
	}
	e.estimated = f
	w.conn.Send(protocol.Command{Op: protocol.OpEstimate, States: states})
}

// live is a worker to ask what concerns no run: the first, or a new one
// where none is left, nil where none is and the engine is down.
func (e *Engine) live() *worker {
	if len(e.workers) == 0 {
		if e.down {
			return nil
		}
		e.workers = append(e.workers, e.start())
	}
	return e.workers[0]
}

// downConn is the connection of a run opened once the engine is down: it
// sends nothing (Handle.Send tells the run instead).
type downConn struct{}

func (downConn) Send(protocol.Command) {}
func (downConn) Close()                {}

// loadCommand hands an engine worker the graph in use as the reader read
// it, without the files (it reads none: the page keeps them for the
// reader, and a worker's memory is the run's).
func (e *Engine) loadCommand() protocol.Command {
	return protocol.Command{Op: protocol.OpLoad, Parsed: e.parsed, ParsedBuffer: e.parsedBuffer, IDColumn: e.cols.IDColumn, Target: e.cols.Target, Bins: e.cols.Bins}
}

// Reload reads the files again with the columns d names, as Load: those
// whose reader asked for a column, else those in use.
func (e *Engine) Reload(h *Handle, d experiment.Data) {
	files := e.files
	if e.choosing != nil {
		files = e.choosing
	}
	if files != nil {
		e.Load(h, files, d)
	}
}

// inUse is cmd, a run's state, as the engine workers can take it: they
// read no files, so a state that names the files in use (data=local) with
// other columns than they were read with (a link's target edited in the
// address) is sent with the columns in use, and the reader reads the
// files again with the columns it names, once (not while other files are
// being read, nor with columns they were refused with); its answer tells
// the run, which then sets its state with the columns the reader used.
// A worker is never sent a state its graph does not fit.
func (e *Engine) inUse(h *Handle, cmd protocol.Command) protocol.Command {
	if e.files == nil {
		return cmd
	}
	st, err := experiment.DecodeRun(cmd.State)
	cols := columnsOf(st.Data)
	if err != nil || st.Data.Graph != experiment.GraphLocal || cols == e.cols {
		return cmd
	}
	if e.reading == nil && !e.refused[cols] {
		e.Load(h, e.files, st.Data)
	}
	st.Data.IDColumn, st.Data.Target, st.Data.Bins = e.cols.IDColumn, e.cols.Target, e.cols.Bins
	cmd.State = st.EncodeEngine()
	return cmd
}

// columnsOf is d's columns of the user's node table, and nothing else of
// it: what files are read with (Engine.cols).
func columnsOf(d experiment.Data) experiment.Data {
	return experiment.Data{IDColumn: d.IDColumn, Target: d.Target, Bins: d.Bins}
}

// Send sends a command about the run; where the engine is down, the run
// is told so instead (a pause or a close asks nothing of it).
func (r *Handle) Send(cmd protocol.Command) {
	if r.w.run != r.id {
		return // closed
	}
	cmd.Run = r.id
	if cmd.Op == protocol.OpSet || cmd.Op == protocol.OpRegenerate {
		cmd = r.e.inUse(r, cmd)
		r.state = cmd.State
	}
	if _, down := r.w.conn.(downConn); down {
		if f := r.e.runs[r.id]; f != nil && cmd.Op != protocol.OpPause {
			f(downEvent(r.id), nil)
		}
		return
	}
	r.w.conn.Send(cmd)
}

// Close ends the run: its worker pauses and is free for the next run, and
// the run's events are dropped from now on.
func (r *Handle) Close() {
	if r.w.run != r.id {
		return
	}
	r.Send(protocol.Command{Op: protocol.OpPause})
	r.w.run = 0
	delete(r.e.runs, r.id)
}

// Close stops the workers and the reader.
func (e *Engine) Close() {
	for _, w := range e.workers {
		w.conn.Close()
	}
	e.endReading()
}
