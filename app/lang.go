package app

import "pdnexplorer/i18n"

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
