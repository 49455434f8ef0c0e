//go:build js

// The wiring to the browser: the page's messages in, the events out.

package main

import (
	"os"
	"runtime/debug"
	"syscall/js"

	"pdnexplorer/datasets"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/pagemem"
	"pdnexplorer/wasm/protocol"
)

func main() {
	// The collector works within the page's memory (package pagemem)
	// instead of letting the heap grow to twice what is live.
	debug.SetMemoryLimit(pagemem.GoLimit)
	s := newSession(post)
	s.yield = newYield()
	s.offered = threadsOffered() // taken as each run is set: its share (commands.go)
	datasets.ShipFrom((&shippedGraphs{}).open)
	onMessage := js.FuncOf(func(_ js.Value, args []js.Value) any {
		data := args[0].Get("data")
		if data.Type() != js.TypeObject || data.Get("json").Type() != js.TypeString {
			post(protocol.Failure(phrase.Errorf("bad message from the page: not {json: string}")), nil)
			return nil
		}
		c, err := protocol.DecodeCommand(data.Get("json").String())
		if err != nil {
			post(protocol.Failure(phrase.Errorf("bad message from the page: %s", err)), nil)
			return nil
		}
		if c.Op == protocol.OpExit {
			os.Exit(3) // worker.js tells the page, which starts another worker
		}
		if c.Files, err = filesOf(data.Get("files")); err != nil {
			s.post(protocol.Failure(notOpened(err)), nil) // to the run served, so the page shows it
			return nil
		}
		c.Parsed = bytesOf(data.Get("parsed"))
		select {
		case s.cmds <- c:
		default:
			post(protocol.Failure(phrase.Errorf("the engine is busy; command dropped: %s", c.Op)), nil)
		}
		return nil
	})
	js.Global().Set("onmessage", onMessage)
	post(protocol.Event{Kind: protocol.KindReady}, nil)
	s.run() // never returns: the worker must keep listening
}

// threadsOffered is how many threads web/worker.js offers the engine
// (pdnThreads): where the page is cross-origin isolated and the threads
// build of the kernels is linked, the browser's cores but the one the
// page's own thread needs, up to four, or as the page's address asks;
// else 1.
func threadsOffered() int {
	if n := js.Global().Get("pdnThreads"); n.Type() == js.TypeNumber {
		return n.Int()
	}
	return 1
}

// newYield returns a function that gives the event loop one turn, through a
// MessageChannel: much cheaper than a timer, which costs ~4 ms a call.
func newYield() func() {
	ch := js.Global().Get("MessageChannel").New()
	done := make(chan struct{}, 1)
	ch.Get("port1").Set("onmessage", js.FuncOf(func(js.Value, []js.Value) any {
		done <- struct{}{}
		return nil
	}))
	port := ch.Get("port2")
	return func() {
		port.Call("postMessage", nil)
		<-done
	}
}

var scratch []byte

// post sends ev to the page. f32 is copied once out of Go memory and its
// buffer transferred, not copied, to the page.
func post(ev protocol.Event, f32 []float32) {
	msg := js.Global().Get("Object").New()
	msg.Set("json", protocol.Encode(ev))
	if ev.Parsed != nil {
		u8 := js.Global().Get("Uint8Array").New(len(ev.Parsed))
		js.CopyBytesToJS(u8, ev.Parsed)
		msg.Set("parsed", u8)
		js.Global().Call("postMessage", msg, []any{u8.Get("buffer")})
		return
	}
	if f32 == nil {
		js.Global().Call("postMessage", msg)
		return
	}
	scratch = protocol.Float32Bytes(scratch, f32)
	u8 := js.Global().Get("Uint8Array").New(len(scratch))
	js.CopyBytesToJS(u8, scratch)
	buf := u8.Get("buffer")
	msg.Set("f32", js.Global().Get("Float32Array").New(buf))
	js.Global().Call("postMessage", msg, []any{buf})
}

// bytesOf copies a Uint8Array into Go; nil for anything else.
func bytesOf(u8 js.Value) []byte {
	if !u8.InstanceOf(js.Global().Get("Uint8Array")) {
		return nil
	}
	b := make([]byte, u8.Get("length").Int())
	js.CopyBytesToGo(b, u8)
	return b
}

// filesOf copies the files an OpLoad carries beside its JSON ([{name,
// data: Uint8Array}]) into Go, at most protocol.MaxFileBytes in all.
func filesOf(list js.Value) ([]protocol.File, error) {
	if list.Type() != js.TypeObject {
		return nil, nil
	}
	var files []protocol.File
	total := 0
	for i := 0; i < list.Length(); i++ {
		f := list.Index(i)
		u8 := f.Get("data")
		if !u8.InstanceOf(js.Global().Get("Uint8Array")) || f.Get("name").Type() != js.TypeString {
			continue // CopyBytesToGo would panic, and the worker die
		}
		n := u8.Get("length").Int()
		total += n
		if total > protocol.MaxFileBytes {
			return nil, phrase.Errorf("the files hold more than %s, the most the explorer opens", phrase.Bytes(protocol.MaxFileBytes))
		}
		b := make([]byte, n)
		js.CopyBytesToGo(b, u8)
		files = append(files, protocol.File{Name: f.Get("name").String(), Data: b})
	}
	return files, nil
}
