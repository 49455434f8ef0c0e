package phrase_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"testing"

	"pdnexplorer/i18n/phrase"
)

// spanish is a catalogue for the tests: reordered, with verbs kept.
var spanish = map[string]string{
	"%d of %s":            "%[2]s: %[1]d",
	"node %d: %s":         "nodo %d: %s",
	"node %d: %w":         "nodo %d: %w",
	"too %s":              "demasiado %s",
	"large":               "grande",
	"%s; want %s":         "%s; se espera %s",
	"%.3g%% done":         "%.3g%% hecho",
	"lower %s or %s":      "baje %s o %s",
	"%s (%d classes: %s)": "%s (%d clases: %s)",
}

func es(key string) string {
	if t, ok := spanish[key]; ok {
		return t
	}
	return key
}

func TestTextIn(t *testing.T) {
	for _, c := range []struct {
		text        phrase.Text
		english, es string
	}{
		{phrase.New("%d of %s", 3, "x"), "3 of x", "x: 3"},
		{phrase.New("%.3g%% done", 12.3456), "12.3% done", "12.3% hecho"},
		{phrase.New("node %d: %s", 7, phrase.New("too %s", phrase.New("large"))), "node 7: too large", "nodo 7: demasiado grande"},
		{phrase.New("%[2]d then %[1]d", 1, 2), "2 then 1", "2 then 1"},
		{phrase.New("%5.1f|%-4d|%q|%x", 3.14159, 7, "a\"b", 255), `  3.1|7   |"a\"b"|ff`, `  3.1|7   |"a\"b"|ff`},
		{phrase.New("no verbs"), "no verbs", "no verbs"},
		{phrase.New("%d of %s", 3), "3 of %!s(BADINDEX)", "%!s(BADINDEX): 3"},
		{phrase.List("; ", []phrase.Text{phrase.New("large"), phrase.New("too %s", "big")}), "large; too big", "grande; demasiado big"},
		{phrase.List("%", []phrase.Text{phrase.New("large"), phrase.New("large")}), "large%large", "grande%grande"},
		{phrase.List(", ", nil), "", ""},
	} {
		if got := c.text.String(); got != c.english {
			t.Errorf("%q in English: %q, want %q", c.text.Key, got, c.english)
		}
		if got := c.text.In(es); got != c.es {
			t.Errorf("%q in Spanish: %q, want %q", c.text.Key, got, c.es)
		}
		// A message crosses from the worker to the page as JSON.
		b, err := json.Marshal(c.text)
		if err != nil {
			t.Fatal(err)
		}
		var back phrase.Text
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if got := back.In(es); got != c.es {
			t.Errorf("%q through JSON %s: %q, want %q", c.text.Key, b, got, c.es)
		}
	}
}

// An error's message formats its arguments like fmt.Errorf, wraps what
// %w wraps, and keeps a wrapped message a message.
func TestErrorf(t *testing.T) {
	inner := phrase.Errorf("too %s", phrase.New("large"))
	err := phrase.Errorf("%s; want %s", fmt.Errorf("plain: %w", io.EOF), "small")
	if got, want := err.Error(), fmt.Sprintf("%s; want %s", "plain: EOF", "small"); got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	wrapped := phrase.Errorf("node %d: %w", 4, inner)
	if !errors.Is(wrapped, inner) || errors.Is(err, io.EOF) {
		t.Errorf("%%w wraps: Is(wrapped, inner) = %v; %%s wraps nothing: Is(err, EOF) = %v", errors.Is(wrapped, inner), errors.Is(err, io.EOF))
	}
	if got, want := phrase.Of(wrapped).In(es), "nodo 4: demasiado grande"; got != want {
		t.Errorf("wrapped in Spanish: %q, want %q", got, want)
	}
	if got, want := phrase.Of(io.EOF).In(es), "EOF"; got != want {
		t.Errorf("a library's error: %q, want %q", got, want)
	}
	joined := errors.Join(inner, io.EOF)
	if got, want := phrase.Of(joined).In(es), "demasiado grande\nEOF"; got != want {
		t.Errorf("joined: %q, want %q", got, want)
	}
	if lines := phrase.Lines(joined); len(lines) != 2 || lines[0].In(es) != "demasiado grande" {
		t.Errorf("Lines(joined) = %v", lines)
	}
	if phrase.Lines(nil) != nil || !phrase.Of(nil).IsZero() {
		t.Error("nil says something")
	}
}

// Slots are what a translation must keep: each argument and its verb.
func TestSlots(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"%d of %s", "%[2]s: %[1]d", true},
		{"%d of %s", "%s: %d", false},
		{"%.3g%%", "%.3g %%", true},
		{"%.3g", "%g", false},
		{"%w; want %s", "%w; se espera %s", true},
	} {
		if same := fmt.Sprint(phrase.Slots(c.a)) == fmt.Sprint(phrase.Slots(c.b)); same != c.same {
			t.Errorf("Slots(%q) = %v, Slots(%q) = %v: same %v, want %v", c.a, phrase.Slots(c.a), c.b, phrase.Slots(c.b), same, c.same)
		}
	}
}

func ExampleText_In() {
	spanish := map[string]string{"%d edges; at most %s": "%d aristas; como máximo %s"}
	t := phrase.New("%d edges; at most %s", 12, "10")
	fmt.Println(t)
	fmt.Println(t.In(func(key string) string { return spanish[key] }))
	// Output:
	// 12 edges; at most 10
	// 12 aristas; como máximo 10
}

func TestIsolated(t *testing.T) {
	m := phrase.New("%s: %s is not allowed", "hidden", phrase.New("too %s", `"abc"`))
	if got, want := m.Isolated().String(), "\u2068hidden\u2069: too \u2068\"abc\"\u2069 is not allowed"; got != want {
		t.Errorf("Isolated: %q, want %q", got, want)
	}
	if m.String() != `hidden: too "abc" is not allowed` {
		t.Errorf("Isolated changed the message itself: %q", m)
	}
}

// A number with its unit is isolated whole, wherever it stands: alone, as
// an argument of a sentence, and after a trip through JSON (the worker's
// messages); in English, unisolated, it reads as it is written.
func TestQuantityIsIsolatedWhole(t *testing.T) {
	size := phrase.Quantity("%.1f kB", 292.4)
	arabic := func(key string) string {
		return map[string]string{"%.1f kB": "%.1f kB", "up to %s": "حتى %s", "%s bytes": "%s بايت"}[key]
	}
	for _, tc := range []struct {
		name string
		m    phrase.Text
		want string
	}{
		{"alone", size, "\u2068292.4 kB\u2069"},
		{"in a sentence", phrase.New("up to %s", size), "حتى \u2068292.4 kB\u2069"},
		{"bytes", phrase.Bytes(1048576), "\u20681,048,576 بايت\u2069"},
	} {
		if got := tc.m.Isolated().In(arabic); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
		b, err := json.Marshal(tc.m)
		var back phrase.Text
		if err != nil || json.Unmarshal(b, &back) != nil || back.Isolated().In(arabic) != tc.want {
			t.Errorf("%s: after JSON %s: %q", tc.name, b, back.Isolated().In(arabic))
		}
	}
	if got := phrase.New("up to %s", size).String(); got != "up to 292.4 kB" {
		t.Errorf("in English, not isolated: %q", got)
	}
}
