package i18n_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"pdnexplorer/i18n"
)

// A number with its unit (a size, a time, a rate) is one message, made by
// phrase.Quantity, which the page says whole in an isolate where it is
// written right to left: left bare inside a sentence or a plain trf, the
// bidi algorithm showed Arabic readers "kB 292.4" for 292.4 kB.

// withUnit finds a fmt verb followed by a unit: the units the explorer
// shows sizes, times and rates in.
var withUnit = regexp.MustCompile(`%[-+# 0-9.\[\]]*[dfgsv] ?(kB|MB|GB|bytes|ms|s|min|h|px|/s)\b`)

// quantityKey matches a key that is numbers with their units and nothing
// else ("%.1f kB", "%d h %d min", "%s/s").
var quantityKey = regexp.MustCompile(`^(%[-+# 0-9.\[\]]*[dfgsv] ?(kB|MB|GB|bytes|ms|s|min|h|px|/s) ?)+$`)

// TestNumbersKeepTheirUnits fails on a key that holds a number with its
// unit inside other words (it takes the quantity as a %s made by
// phrase.Quantity), and on a quantity's key made by any call but
// phrase.Quantity (tr, trf, phrase.New), which no isolate would hold.
func TestNumbersKeepTheirUnits(t *testing.T) {
	quantities := 0
	for _, k := range i18n.Keys() {
		if !withUnit.MatchString(k) {
			continue
		}
		if !quantityKey.MatchString(k) {
			t.Errorf("%q holds a number with its unit among other words: give the number and its unit as a %%s made by phrase.Quantity", k)
			continue
		}
		quantities++
	}
	if quantities == 0 {
		t.Fatal("no key is a number with its unit: the test reads nothing")
	}
	for _, dir := range sourceDirs {
		for _, c := range markedCalls(t, "../"+dir) {
			if quantityKey.MatchString(c.key) && c.call != "phrase.Quantity" && c.call != "Quantity" {
				t.Errorf("%s: %s(%q): a number with its unit is made by phrase.Quantity, which keeps it whole in a right-to-left page", c.at, c.call, c.key)
			}
		}
	}
}

// markedCall is a call that takes a key (marks), where it is.
type markedCall struct {
	at, call, key string
}

// markedCalls are the calls of one package's files that take a key
// literal.
func markedCalls(t *testing.T, dir string) []markedCall {
	paths, err := filepath.Glob(dir + "/*.go")
	if err != nil {
		t.Fatal(err)
	}
	fs := token.NewFileSet()
	var out []markedCall
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fs, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			name := callName(call.Fun)
			at, marked := marks[name]
			if !marked || at >= len(call.Args) {
				return true
			}
			if s, ok := literal(call.Args[at]); ok {
				out = append(out, markedCall{fs.Position(call.Pos()).String(), name, s})
			}
			return true
		})
	}
	return out
}

// The check itself: a sentence with a unit, a quantity by trf, and a
// quantity by phrase.Quantity.
func TestNumbersKeepTheirUnitsCatches(t *testing.T) {
	for _, tc := range []struct {
		key                string
		sentence, quantity bool
	}{
		{"%.1f kB", false, true},
		{"%d h %d min", false, true},
		{"%s/s", false, true},
		{"%s bytes", false, true},
		{" · %.0f ms an epoch", true, false},
		{"up to %d MB and %s edges", true, false},
		{"%d steps of %s", false, false},
		{"%d hops", false, false},
	} {
		has := withUnit.MatchString(tc.key)
		if q := quantityKey.MatchString(tc.key); q != tc.quantity || has && !q != tc.sentence || !has && tc.sentence {
			t.Errorf("%q: a unit %v, a quantity %v; want a sentence with a unit %v, a quantity %v", tc.key, has, q, tc.sentence, tc.quantity)
		}
	}
}
