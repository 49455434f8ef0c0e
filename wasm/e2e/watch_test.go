//go:build !js

package e2e

import (
	"context"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// cspWatch records every Content Security Policy violation of a page, from
// before its first script runs, and counts the page's listeners of the
// events the shell alone must hear (keydown and hashchange), on any target:
// each added and not removed since.
const cspWatch = `window.__pdnCSP = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__pdnCSP.push(e.violatedDirective + " blocked " + (e.blockedURI || "inline") + " at " + e.sourceFile + ":" + e.lineNumber);
});
window.__pdnListeners = {keydown: [], hashchange: []};
(() => {
  const add = EventTarget.prototype.addEventListener, remove = EventTarget.prototype.removeEventListener;
  const capture = (o) => typeof o === "boolean" ? o : !!(o && o.capture);
  const find = (list, t, f, c) => list.findIndex((l) => l[0] === t && l[1] === f && l[2] === c);
  EventTarget.prototype.addEventListener = function (type, f, o) {
    const list = Object.hasOwn(window.__pdnListeners, type) ? window.__pdnListeners[type] : null;
    if (list && f && find(list, this, f, capture(o)) < 0) list.push([this, f, capture(o)]);
    return add.call(this, type, f, o);
  };
  EventTarget.prototype.removeEventListener = function (type, f, o) {
    const list = Object.hasOwn(window.__pdnListeners, type) ? window.__pdnListeners[type] : null, i = list ? find(list, this, f, capture(o)) : -1;
    if (i >= 0) list.splice(i, 1);
    return remove.call(this, type, f, o);
  };
})();`

// listeners counts the page's keydown and hashchange listeners now.
const listeners = `({keydown: window.__pdnListeners.keydown.length, hashchange: window.__pdnListeners.hashchange.length})`

// fatal is what the console says when something went badly wrong: the Go
// runtime's panic, a call into a program that has exited, a policy that
// refused something.
var fatal = regexp.MustCompile(`panic:|Go program has already exited|Content Security Policy|Refused to|URIError`)

// watcher collects what a page's console says that a user would never want
// to happen.
type watcher struct {
	mu   sync.Mutex
	seen []string
}

func watch(t testing.TB, ctx context.Context) *watcher {
	t.Helper()
	w := &watcher{}
	err := chromedp.Listen(ctx, func(ev any) {
		var text string
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			var parts []string
			for _, a := range ev.Args {
				parts = append(parts, strings.Trim(string(a.Value), `"`)+a.Description)
			}
			text = strings.Join(parts, " ")
		case *runtime.EventExceptionThrown:
			text = ev.ExceptionDetails.Text
			if ev.ExceptionDetails.Exception != nil {
				text += " " + ev.ExceptionDetails.Exception.Description
			}
		case *cdplog.EventEntryAdded:
			text = ev.Entry.Text
		}
		if text != "" && fatal.MatchString(text) {
			w.mu.Lock()
			w.seen = append(w.seen, text)
			w.mu.Unlock()
		}
	})
	must(t, err, "listen to the page")
	_, err = chromedp.Call(ctx, cdplog.Enable, cdp.Empty{})
	must(t, err, "enable the log")
	_, err = chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: cspWatch})
	must(t, err, "watch the page")
	return w
}

// check fails the test for anything the console said that it should not
// have, and for any policy violation on the current page.
func (w *watcher) check(t testing.TB, ctx context.Context) {
	t.Helper()
	w.mu.Lock()
	seen := append([]string(nil), w.seen...)
	w.mu.Unlock()
	for _, s := range seen {
		t.Errorf("the console said: %.500s", s)
	}
	csp, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`window.__pdnCSP || []`))
	if err != nil {
		t.Logf("could not read the policy violations: %v", err)
	}
	for _, v := range csp {
		t.Errorf("Content Security Policy violation: %s", v)
	}
}
