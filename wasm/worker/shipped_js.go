//go:build js

package main

import (
	"io/fs"
	"sync"
	"syscall/js"
	"testing/fstest"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
)

// shippedDir is where the site's build writes the shipped graphs,
// relative to this worker's script (wasm/site: web/graphs).
const shippedDir = "graphs/"

// shippedGraphs fetches a shipped graph's folder the first time a run
// asks for it, and keeps it for the worker's lifetime: the page's program
// does not carry the graphs (datasets.ShipFrom). The service worker keeps
// them too, so that they open offline after a first visit.
type shippedGraphs struct {
	mu  sync.Mutex
	got map[string]fstest.MapFS
}

// open returns graph name's folder, fetched once.
func (s *shippedGraphs) open(name string) (fs.FS, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m, ok := s.got[name]; ok {
		return m, nil
	}
	m := fstest.MapFS{}
	for _, f := range datasets.ShippedFiles {
		url := shippedDir + name + "/" + f
		b, err := fetchBytes(url)
		if err != nil {
			return nil, phrase.Errorf("graph: %s could not be fetched (%s): %s", experiment.Quote(name), url, err)
		}
		m[f] = &fstest.MapFile{Data: b, Mode: 0o444}
	}
	if s.got == nil {
		s.got = map[string]fstest.MapFS{}
	}
	s.got[name] = m
	return m, nil
}

// fetchBytes fetches url (relative to this worker's script) and returns
// its body. It waits on the event loop, so it must not be called from a
// JavaScript callback: the session's commands run on a goroutine of
// their own.
func fetchBytes(url string) ([]byte, error) {
	type result struct {
		b   []byte
		err error
	}
	done := make(chan result, 1)
	var got, body, failed js.Func
	got = js.FuncOf(func(_ js.Value, args []js.Value) any {
		r := args[0]
		if !r.Get("ok").Bool() {
			done <- result{err: phrase.Errorf("HTTP %d", r.Get("status").Int())}
			return nil
		}
		r.Call("arrayBuffer").Call("then", body, failed)
		return nil
	})
	body = js.FuncOf(func(_ js.Value, args []js.Value) any {
		a := js.Global().Get("Uint8Array").New(args[0])
		b := make([]byte, a.Get("length").Int())
		js.CopyBytesToGo(b, a)
		done <- result{b: b}
		return nil
	})
	failed = js.FuncOf(func(_ js.Value, args []js.Value) any {
		done <- result{err: phrase.Errorf("%s", args[0].Call("toString").String())}
		return nil
	})
	defer got.Release()
	defer body.Release()
	defer failed.Release()
	js.Global().Call("fetch", url).Call("then", got, failed)
	r := <-done
	return r.b, r.err
}
