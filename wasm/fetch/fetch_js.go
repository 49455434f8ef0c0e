//go:build js

package fetch

import (
	"syscall/js"
	"time"
)

// abortGrace is how long an aborted fetch has to say so before Bytes
// gives up on it: a browser whose fetch ignores its signal still ends.
const abortGrace = time.Second

// Bytes fetches url (relative to the calling page or worker's script) and
// returns its body, or Failure's error: the site's status, or no answer,
// the link stalled for longer than timeout among them. It waits on the
// event loop, so it must run on a goroutine of its own, never in a
// JavaScript callback.
func Bytes(url string, timeout time.Duration) ([]byte, error) {
	type result struct {
		b   []byte
		err error
	}
	done := make(chan result, 1)
	var got, body, failed js.Func
	got = js.FuncOf(func(_ js.Value, args []js.Value) any {
		r := args[0]
		if !r.Get("ok").Bool() {
			done <- result{err: Failure(url, r.Get("status").Int(), false, timeout)}
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
		// The browser's words go to the console; the page says its own.
		js.Global().Get("console").Call("warn", "fetch "+url+":", args[0])
		name := args[0].Get("name")
		timedOut := name.Type() == js.TypeString && (name.String() == "TimeoutError" || name.String() == "AbortError")
		done <- result{err: Failure(url, 0, timedOut, timeout)}
		return nil
	})
	opts := js.Global().Get("Object").New()
	// A stalled link ends in a message, not a wait for ever: the fetch is
	// aborted at the timeout, by this side's own timer (AbortSignal.timeout
	// is younger than some browsers the page runs in).
	var abort js.Value
	if c := js.Global().Get("AbortController"); c.Truthy() {
		abort = c.New()
		opts.Set("signal", abort.Get("signal"))
	}
	js.Global().Call("fetch", url, opts).Call("then", got, failed)
	t := time.NewTimer(timeout)
	defer t.Stop()
	var r result
	select {
	case r = <-done:
	case <-t.C:
		stopped := false
		if abort.Truthy() {
			abort.Call("abort") // the fetch fails now, as an AbortError (failed)
			select {
			case r = <-done:
				stopped = true
			case <-time.After(abortGrace): // a fetch that does not heed its signal
			}
		}
		if !stopped {
			// Nothing stopped this fetch: its callbacks are kept, and
			// whatever they send goes to a channel nobody reads.
			return nil, Failure(url, 0, true, timeout)
		}
	}
	got.Release()
	body.Release()
	failed.Release()
	return r.b, r.err
}
