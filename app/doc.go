// Package app is the explorer's user interface, built with go-app: a shell
// around one lab at a time, each with its controls, live views and
// permalink. It never trains: every engine call goes to the Web Workers
// through wasm/protocol, and the package links neither the engine nor
// gonum.
//
// A lab's whole state is an experiment.Experiment: the rows of the one
// state table, the run's and the view's (lab, layout, threshold, models,
// projector mode, tour) alike, which the controls, the permalink and the
// worker's messages all read. A lab is a row of experiment.Labs (its name,
// title, defaults, rows and the runs a state makes) and a component here.
//
// The data flow one way. The shell reads the address once per change and
// gives the lab on view its state (room.show); it turns the keys into
// commands (room.do). The lab's core opens a run per spec of its state on
// the engine, queues the engine's events, applies them to their runs
// (run.apply) and asks the lab's component to draw its figures.
//
// The files, by owner:
//
//	shell.go       the page: navigation, notices, the address, the keys
//	keys.go        the one key table: keys → commands, the keys line
//	tour.go        the guided tour's panel, walked by the shell
//	labs.go        the labs' components by name
//	lab.go         the core every lab embeds: state, runs, events, commands;
//	               what goes as another graph arrives (arrive); the rows a
//	               change puts back at their start, said (settle)
//	run.go         one run: its graph, snapshot, history, progress; apply
//	history.go     a run's curves
//	rewind.go      a run's frames, for rewinding
//	toolbar.go     play, step, reset, a new graph; the numbers; progress
//	controls.go    the state table's rows as controls; change, the one way
//	               a control sets a row, which puts the control back to the
//	               state (a refused tick does not stay ticked)
//	figures.go     small shared parts: cards, metrics, legend, runs table;
//	               the one rule of figure text (legibilityFor: 11 px on a
//	               desktop, 12 on a phone, 16 on a projector, at the width
//	               shown), which the core applies before every draw and
//	               again after a resize or a new layout (lab.fit)
//	canvas.go      painting a view's layers on a canvas
//	minigraph.go   a small learned-graph view per run
//	tables.go      every table the page draws (dataTable): in a wrapper that
//	               scrolls sideways, its numbers kept whole
//	board.go       the notices: none dropped (the earlier ones and a long
//	               list open with a button), each a message said in the
//	               page's language when drawn
//	engine.go      the pool of engine workers, one run each
//	conn.go        one worker's connection
//	hash.go        the address repaired before go-app reads it
//	lang.go        the page's language: the catalogue, right to left
//	share.go       the share panel: the link, its QR code, the embed code
//	claims.go      each finding of a lab with the verdict of its runs: those
//	               on screen, or those its pool trained (their results)
//	weights.go     what each run's learned weights say, in every lab
//	figure4.go     Figure 4, the edges embedded by kind: its panels, numbers
//	               and words, for the degree lab (once trained) and the
//	               graph lab (live, beside GAT)
//	pool.go        runs each trained to its end on a pool of workers (runPool):
//	               the one place a link's results enter a lab (linkResults),
//	               the engine's estimate of their time, the time left
//	units.go       numbers with their units (sizes, times, rates), each one
//	               message said whole, isolated in a right-to-left page
//
// and one file per lab: graphlab.go (with its own views in graphlab_*.go:
// the graph, the inspector, one node's update step by step (trace), the
// editor of the graph's edges (edit), the charts, the scrubber, the exports, your own graph, the explanations),
// xorlab.go, degreelab.go, comparelab.go, attentionlab.go, structurelab.go
// (beyond the paper: a learned graph's homophily, its robustness curves
// and transfer table on the pool) and sweeplab.go (Figure 3, whose runs are
// queued on the pool, not opened side by side).
package app
