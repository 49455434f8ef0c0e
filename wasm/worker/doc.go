// Command worker is the explorer's engine, run in a dedicated Web Worker
// (it runs only as WebAssembly: build it with GOOS=js GOARCH=wasm). It
// reads protocol.Commands from the page, trains in chunks of about 50 ms and
// yields to the event loop between chunks (and inside epochs longer than a
// chunk), so that pause acts at once, and posts protocol.Events back, with
// large arrays in transferred buffers. A worker serves one run at a time.
//
// Built with the tag reader it is the page's reader of the user's files
// (web/reader.wasm): the only build that links the readers (reader.go),
// which the engine's build leaves out, so a first visit does not fetch
// them; the engine workers take the graph the reader read.
//
// Its files, by owner:
//
//	session.go   the state of the run it serves, and the trainer it drives
//	commands.go  what each command of the page does to it
//	edit.go      an edit of the graph's edges, the model carried on over it
//	schedule.go  how the work is cut into chunks between turns of the event
//	             loop: training, pauses inside an epoch, the paces of posts
//	encode.go    what it posts: the graph, snapshots (with a node's trace and
//	             the edge the editor follows), errors
//	lesson.go    the labs' own figures (XOR states, weights by degree)
//	local.go     the user's own graph, and the files it writes to save
//	reader.go    the readers, in the reader's build and natively
//	layout.go    the layout every graph gets (gonum's Eades)
//	learned.go   the layout pulled by the learned weights
//	main_js.go   the wiring to the browser
//
// The session is pure Go, so it is tested natively.
package main
