package app

import (
	"net/url"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// RepairURL makes href parseable by net/url, which go-app calls on every
// navigation: a '%' that does not start an escape of two hexadecimal
// digits (as in #model=% or #%ZZ=1) becomes %25. go-app v9.8.0 takes a URL
// that does not parse as nil and dereferences it, which ends the page's Go
// program before any notice can be shown; repaired, the link reaches the
// explorer, which reports the bad value by name. It returns href unchanged,
// and false, when it parses already.
func RepairURL(href string) (string, bool) {
	if _, err := url.Parse(href); err == nil {
		return href, false
	}
	var b strings.Builder
	for i := 0; i < len(href); i++ {
		if href[i] == '%' && !(i+2 < len(href) && isHex(href[i+1]) && isHex(href[i+2])) {
			b.WriteString("%25")
			continue
		}
		b.WriteByte(href[i])
	}
	return b.String(), true
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// GuardLocation repairs the address bar before go-app reads it, now and on
// every later navigation inside the page (a hash typed by hand, Back,
// Forward): each fires popstate, which go-app parses. Call it before
// app.RunWhenOnBrowser: its popstate listener is then the first, and runs
// before go-app's. (The shell's one hashchange listener repairs the
// address too, before it reads it.)
func GuardLocation() {
	if !app.IsClient {
		return
	}
	repairLocation()
	f := app.FuncOf(func(app.Value, []app.Value) any {
		repairLocation()
		return nil
	})
	// Kept for the page's lifetime: the listener never goes away.
	app.Window().Call("addEventListener", "popstate", f, true)
}

// repairLocation repairs the address bar in place (see RepairURL).
func repairLocation() {
	if !app.IsClient {
		return
	}
	href := app.Window().Get("location").Get("href").String()
	if fixed, changed := RepairURL(href); changed {
		app.Window().Get("history").Call("replaceState", nil, "", fixed)
	}
}
