package app

import (
	"pdnexplorer/wasm/protocol"
)

// Engine is the app's one connection to the engine worker, shared by the
// labs. Each lab opens runs on it; the worker stamps every event with the
// run it serves, and the engine hands the event to that run only, so an
// event about a run that is gone (a lab left, a run replaced) is dropped.
type Engine struct {
	conn Conn
	runs map[int]EventFunc
	last int
}

// NewEngine routes the events of conn (dialled with the engine's own
// handler, see Dispatch) to runs.
func NewEngine(dial func(EventFunc) Conn) *Engine {
	e := &Engine{runs: map[int]EventFunc{}}
	e.conn = dial(e.dispatch)
	return e
}

// dispatch hands an event to its run.
func (e *Engine) dispatch(ev protocol.Event, f32 []float32) {
	if f := e.runs[ev.Run]; f != nil {
		f(ev, f32)
	}
}

// Run is one run's handle on the engine.
type Run struct {
	e  *Engine
	id int
}

// Open starts a run whose events go to f.
func (e *Engine) Open(f EventFunc) *Run {
	e.last++
	e.runs[e.last] = f
	return &Run{e: e, id: e.last}
}

// Send sends a command about the run.
func (r *Run) Send(cmd protocol.Command) {
	cmd.Run = r.id
	r.e.conn.Send(cmd)
}

// Close ends the run: its events are dropped from now on.
func (r *Run) Close() { delete(r.e.runs, r.id) }

// Close stops the worker.
func (e *Engine) Close() { e.conn.Close() }
