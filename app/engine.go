package app

import (
	"pdnexplorer/experiment"
	"pdnexplorer/wasm/protocol"
)

// Engine is the app's connection to the engine: a pool of workers, one per
// run that is open, so that runs side by side train at once, one on each
// core. A worker outlives its run and serves the next one opened, so a lab
// that comes and goes starts no new worker. Each worker stamps every event
// with the run it serves, and the engine hands the event to that run only,
// so an event about a run that is gone (a lab left, a run replaced) is
// dropped.
type Engine struct {
	dial    func(EventFunc) Conn
	workers []*worker
	runs    map[int]EventFunc
	last    int
	// files are the user's own graph's, sent to every worker, and to
	// each new one before its first run.
	files []protocol.File
	cols  experiment.Data // the columns the files are read with
}

// worker is one engine worker and the run it serves, 0 for none.
type worker struct {
	conn Conn
	run  int
}

// NewEngine starts the first worker with dial (which hands the engine's
// own event handler to each connection it makes).
func NewEngine(dial func(EventFunc) Conn) *Engine {
	e := &Engine{dial: dial, runs: map[int]EventFunc{}}
	e.workers = append(e.workers, &worker{conn: dial(e.dispatch)})
	return e
}

// dispatch hands an event to its run.
func (e *Engine) dispatch(ev protocol.Event, f32 []float32) {
	if f := e.runs[ev.Run]; f != nil {
		f(ev, f32)
	}
}

// Handle is one run's handle on the engine.
type Handle struct {
	e  *Engine
	w  *worker
	id int
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
	if w == nil {
		w = &worker{conn: e.dial(e.dispatch)}
		if e.files != nil {
			w.conn.Send(e.loadCommand())
		}
		e.workers = append(e.workers, w)
	}
	w.run = e.last
	return &Handle{e: e, w: w, id: e.last}
}

// Load hands the user's files to every worker, which reads them as the
// graph of data=local; each worker answers to the run it serves.
func (e *Engine) Load(files []protocol.File, cols experiment.Data) {
	e.files, e.cols = files, cols
	for _, w := range e.workers {
		w.conn.Send(e.loadCommand())
	}
}

// loadCommand hands a worker the files with the columns to read them by.
func (e *Engine) loadCommand() protocol.Command {
	return protocol.Command{Op: protocol.OpLoad, Files: e.files, IDColumn: e.cols.IDColumn, Target: e.cols.Target}
}

// Reload hands the files of the last Load to every worker again, to be
// read with the columns d names.
func (e *Engine) Reload(d experiment.Data) {
	if e.files != nil {
		e.Load(e.files, d)
	}
}

// Send sends a command about the run.
func (r *Handle) Send(cmd protocol.Command) {
	if r.w.run != r.id {
		return // closed
	}
	cmd.Run = r.id
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

// Close stops the workers.
func (e *Engine) Close() {
	for _, w := range e.workers {
		w.conn.Close()
	}
}
