package app

import (
	"time"

	"pdnexplorer/i18n"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/wasm/fetch"
	"pdnexplorer/wasm/protocol"
)

// lang is the language the page speaks (a code of i18n.Languages): the
// shell sets it from the lang row before the page is drawn. One page has
// one language, so it is the package's, not each component's.
var lang = i18n.English

// tr is key in the page's language (see package i18n).
func tr(key string) string { return i18n.T(lang, key) }

// trf formats args by key in the page's language, as fmt.Sprintf.
func trf(key string, args ...any) string { return i18n.F(lang, key, args...) }

// msg marks key for the catalogue where it is declared (a table of the
// package's) and returns it as it is: tr translates it where it is shown.
func msg(key string) string { return key }

// say is the message t in the page's language; in one written right to
// left, its values keep their own direction (see phrase.Text.Isolated).
func say(t phrase.Text) string {
	if l, _ := i18n.Lookup(lang); l.RTL {
		t = t.Isolated()
	}
	return t.In(tr)
}

// sayFailure is what an error event of the engine says, in the page's
// language (see failure).
func sayFailure(ev protocol.Event) string { return say(failure(ev)) }

// failure is what an error event of the engine says: its message, or its
// English text from an engine that sent none.
func failure(ev protocol.Event) phrase.Text {
	if ev.Say != nil {
		return *ev.Say
	}
	return asIs(ev.Error)
}

// loadLanguage fetches the catalogue of code, which the page's program
// does not hold (the site's build writes them beside it, and the service
// worker keeps them offline), adds it, and calls done with what went wrong,
// if anything. done runs on a goroutine of its own: it must dispatch.
func loadLanguage(code string, done func(error)) {
	go func() {
		b, err := fetch.Bytes(catalogueURL(code), catalogueTimeout)
		if err == nil {
			err = i18n.Add(code, b)
		}
		done(err)
	}()
}

// catalogueTimeout is the longest a language's words may take to come:
// the largest catalogue, about 60 kB of brotli, in seconds on a slow link.
const catalogueTimeout = time.Minute

// catalogueURL is where the site keeps code's catalogue, from the page.
func catalogueURL(code string) string { return "web/i18n/" + code + ".json" }
