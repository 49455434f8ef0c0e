package app

import (
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/wasm/protocol"
)

// Conn carries commands to the engine. The page talks to a Web Worker; tests
// plug in a fake.
type Conn interface {
	Send(protocol.Command)
	Close()
}

// EventFunc receives the engine's events; f32 is the message's float array
// (weights or positions), nil when it has none.
type EventFunc func(ev protocol.Event, f32 []float32)

// workerConn is a Conn to a dedicated Web Worker running wasm/worker.
type workerConn struct {
	w       app.Value
	onMsg   app.Func
	onErr   app.Func
	ready   bool
	pending []protocol.Command
	// blind says the run it serves asked for no layout (its page draws
	// no graph, or it is quiet): a graph it sends is not laid out.
	blind bool
}

// drawing are the workers that sent a graph whose layout has not come:
// the page is not ready while one has (pageReady).
var drawing = map[*workerConn]bool{}

// sent notes what a command asks of the worker that the page's readiness
// depends on (pageReady).
func (c *workerConn) sent(cmd protocol.Command) {
	if cmd.Op == protocol.OpSet || cmd.Op == protocol.OpRegenerate {
		c.blind = cmd.Layout == protocol.LayoutNone || cmd.Quiet
	}
}

// pageReady says whether the event of kind shows the page ready to train:
// a run's graph laid out (a graph's layout follows it) or a snapshot, with
// no other run's graph waiting for its layout (a lab's runs that draw no
// graph send their first snapshot as their state is set, before the one
// that draws is laid out). The service worker's precache waits for it
// (registerServiceWorker).
func (c *workerConn) pageReady(kind string) bool {
	switch kind {
	case protocol.KindGraph:
		if !c.blind {
			drawing[c] = true
		}
	case protocol.KindLayout:
		delete(drawing, c)
		return len(drawing) == 0
	case protocol.KindSnapshot:
		return len(drawing) == 0
	}
	return false
}

// threadsQuery is the query an engine worker gets from the threads row
// of the state the page's address holds when the worker starts (threads=N,
// 1 to 4; web/worker.js reads it), else none: the worker takes the
// browser's cores but one. The row's range is the state table's, which
// says what is wrong with a value out of it; a worker keeps the threads it
// started with, and each run takes no more than the row asks of them
// (protocol.Command.Threads).
func threadsQuery() string {
	st, _, _ := experiment.DecodeLink(strings.TrimPrefix(currentHash(), "#"))
	if st.View.Threads < 1 {
		return ""
	}
	return "?threads=" + strconv.Itoa(st.View.Threads)
}

// dialWorker starts the worker script at url (relative to the page). Until
// the worker says it is ready, commands wait in order.
func dialWorker(url string, onEvent EventFunc) Conn {
	c := &workerConn{}
	c.w = app.Window().Get("Worker").New(url)
	var buf []byte
	c.onMsg = app.FuncOf(func(_ app.Value, args []app.Value) any {
		data := args[0].Get("data")
		ev, err := protocol.DecodeEvent(data.Get("json").String())
		if err != nil {
			onEvent(protocol.Failure(phrase.Errorf("bad message from the engine: %w", err)), nil)
			return nil
		}
		var f32 []float32
		if arr := data.Get("f32"); arr.Truthy() {
			n := arr.Get("byteLength").Int()
			if cap(buf) < n {
				buf = make([]byte, n)
			}
			buf = buf[:n]
			app.CopyBytesToGo(buf, app.Window().Get("Uint8Array").New(arr.Get("buffer"), arr.Get("byteOffset"), n))
			f32 = protocol.BytesFloat32(nil, buf)
		}
		if u8 := data.Get("parsed"); u8.Truthy() {
			ev.ParsedBuffer = u8 // passed on as it came, never copied in
		}
		if ev.Graph != nil {
			if err := ev.Graph.UnpackArrays(f32); err != nil {
				onEvent(protocol.Failure(phrase.Errorf("bad message from the engine: %w", err)), nil)
				return nil
			}
			f32 = nil
		}
		if c.pageReady(ev.Kind) {
			registerServiceWorker()
		}
		if ev.Kind == protocol.KindReady {
			registerServiceWorkerSoon()
			c.ready = true
			for _, p := range c.pending {
				c.post(p)
			}
			c.pending = nil
		}
		onEvent(ev, f32)
		return nil
	})
	c.onErr = app.FuncOf(func(_ app.Value, args []app.Value) any {
		why := ""
		if m := args[0].Get("message"); m.Truthy() {
			why = m.String()
		}
		// The browser's words (in its language, not the page's) go to
		// the console; the page says its own.
		app.Window().Get("console").Call("error", "engine:", why)
		if c.ready {
			// An error thrown out of a running worker is its Go program
			// failing ("Go program has already exited"): it is replaced.
			onEvent(protocol.Event{Kind: protocol.KindExited}, nil)
			return nil
		}
		onEvent(protocol.Event{Kind: protocol.KindStartFailed}, nil)
		return nil
	})
	c.w.Set("onmessage", c.onMsg)
	c.w.Set("onerror", c.onErr)
	return c
}

func (c *workerConn) Send(cmd protocol.Command) {
	c.sent(cmd)
	if !c.ready {
		c.pending = append(c.pending, cmd)
		return
	}
	c.post(cmd)
}

func (c *workerConn) post(cmd protocol.Command) {
	msg := app.Window().Get("Object").New()
	msg.Set("json", protocol.Encode(cmd))
	if len(cmd.Files) == 0 && cmd.Parsed == nil && cmd.ParsedBuffer == nil {
		c.w.Call("postMessage", msg)
		return
	}
	// The files go beside the JSON: a user's file in the buffer the page
	// read it into, which the browser copies to the worker (the page keeps
	// its own, for the next worker and never in its Go memory); a file
	// held in Go in a buffer of its own that is transferred.
	files, transfer := app.Window().Get("Array").New(), app.Window().Get("Array").New()
	for _, f := range cmd.Files {
		o := app.Window().Get("Object").New()
		o.Set("name", f.Name)
		if held, ok := f.Buffer.(app.Value); ok {
			o.Set("data", held)
		} else {
			u8 := app.Window().Get("Uint8Array").New(len(f.Data))
			app.CopyBytesToJS(u8, f.Data)
			o.Set("data", u8)
			transfer.Call("push", u8.Get("buffer"))
		}
		files.Call("push", o)
	}
	msg.Set("files", files)
	switch held, ok := cmd.ParsedBuffer.(app.Value); {
	case ok:
		// Not transferred: the browser copies it to the worker, and the
		// page keeps its own for the next worker.
		msg.Set("parsed", held)
	case cmd.Parsed != nil:
		u8 := app.Window().Get("Uint8Array").New(len(cmd.Parsed))
		app.CopyBytesToJS(u8, cmd.Parsed)
		msg.Set("parsed", u8)
		transfer.Call("push", u8.Get("buffer"))
	}
	c.w.Call("postMessage", msg, transfer)
}

func (c *workerConn) Close() {
	delete(drawing, c)
	c.w.Call("terminate")
	c.onMsg.Release()
	c.onErr.Release()
}

// swRegistered says the page has registered its service worker; swTimer,
// that registerServiceWorkerSoon has set its timer.
var swRegistered, swTimer bool

// precacheWait is how long after the first engine worker starts the
// service worker is registered if the page has not been ready by then (a
// lab whose runs send no snapshot until Play: the sweep's).
const precacheWait = 8 * time.Second

// registerServiceWorker registers the service worker, which precaches the
// whole site for offline use, once: when the page is ready to train
// (workerConn.pageReady), so that on a first visit the precache (the
// shipped graphs, the other languages' catalogues, both binaries) comes
// after the page's own download and the engine's, not on the same link
// before the lab can train (BenchmarkFirstVisit). The site's builder takes
// go-app's registration at start out of app.js.
func registerServiceWorker() {
	if swRegistered {
		return
	}
	swRegistered = true
	if app.Window().Get("goappInitServiceWorker").Truthy() {
		app.Window().Call("goappInitServiceWorker")
	}
}

// registerServiceWorkerSoon registers the service worker precacheWait
// after the first engine worker starts, if the page was not ready before.
func registerServiceWorkerSoon() {
	if swRegistered || swTimer {
		return
	}
	swTimer = true
	var f app.Func
	f = app.FuncOf(func(app.Value, []app.Value) any {
		registerServiceWorker()
		f.Release()
		return nil
	})
	app.Window().Call("setTimeout", f, precacheWait.Milliseconds())
}
