package input

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// readStream reads text as a top-level object whose lists it reads
// element by element (Decode into a map), and its other values whole; it
// gives what it met, one line each: a key and where, an element and
// where, or the error as the stream placed it.
func readStream(text string) (met []string, err error) {
	st := NewJSONStream("g.json", strings.NewReader(text))
	err = st.Object(func(key string, at Pos) error {
		met = append(met, fmt.Sprintf("%s@%d:%d", key, at.Line, at.Col))
		if key == "skip" {
			return nil // left unread: skipped
		}
		if strings.HasPrefix(key, "list") {
			ok, err := st.List(func(i int) error {
				var m map[string]json.RawMessage
				v, err := st.Decode(&m)
				if err == nil {
					met = append(met, fmt.Sprintf("[%d]%s@%d:%d", i, v.Text, v.At.Line, v.At.Col))
				}
				return err
			})
			if !ok && err == nil {
				met = append(met, "no list")
			}
			return err
		}
		var raw json.RawMessage
		_, err := st.Decode(&raw)
		return err
	})
	return met, err
}

// placed says an error of the stream as a message says it: file, line,
// column and words, the word quoted for a syntax error.
func placed(err error) string {
	var se *JSONSyntaxError
	var te *JSONTypeError
	var ie *Error
	switch {
	case errors.As(err, &se) && se.CutShort:
		return fmt.Sprintf("%d:%d: cut short", se.At.Line, se.At.Col)
	case errors.As(err, &se) && se.Second:
		return fmt.Sprintf("%d:%d: second", se.At.Line, se.At.Col)
	case errors.As(err, &se):
		return fmt.Sprintf("%d:%d: %q at %d:%d: %s", se.At.Line, se.At.Col, se.Word, se.WordAt.Line, se.WordAt.Col, se.Msg)
	case errors.As(err, &te):
		return fmt.Sprintf("%d:%d: top-level %s", te.At.Line, te.At.Col, te.Value)
	case errors.As(err, &ie):
		return fmt.Sprintf("%d:%d: %s", ie.Line, ie.Col, ie.Msg)
	case err != nil:
		return err.Error()
	}
	return ""
}

// A JSON text read as it streams places each key, each element and each
// fault where an editor shows it, in encoding/json's words: the same
// words json.Unmarshal gives for the whole text, at the byte it stops at.
// The Decoder's own offsets are off once tokens were read (a fault in the
// third element would be placed near the text's start).
func TestJSONStreamPlaces(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		met        string // what was met, joined by spaces
		err        string // placed(err)
	}{
		{"elements and keys", "{\"a\": 1,\n \"list\": [{\"x\": 1},\n  {\"y\": [2]}], \"skip\": [1, {}]}\n", `a@1:2 list@2:2 [0]{"x": 1}@2:11 [1]{"y": [2]}@3:3 skip@3:16`, ""},
		{"not a list", `{"list": {"x": 1}}`, `list@1:2 no list`, ""},
		{"a fault in the third element", "{\"list\": [{\"a\": 1}, {\"b\": 2},\n {\"c\": NaN}]}", `list@1:2 [0]{"a": 1}@1:11 [1]{"b": 2}@1:21`, `2:8: "NaN" at 2:8: invalid character 'N' looking for beginning of value`},
		{"-Infinity", "{\"list\": [{\"c\": -Infinity}]}", `list@1:2`, `1:18: "-Infinity" at 1:17: invalid character 'I' in numeric literal`},
		{"no comma between elements", "{\"list\": [{}\n {}]}", `list@1:2 [0]{}@1:11`, `2:2: "" at 2:2: invalid character '{' after array element`},
		{"no comma between members", `{"a": 1 "b": 2}`, `a@1:2`, `1:9: "" at 1:9: invalid character '"' after object key:value pair`},
		{"a word after a value", `{"a": 1x, "b": 2}`, `a@1:2`, `1:8: "1x" at 1:7: invalid character 'x' after object key:value pair`},
		{"no colon", `{"a" 1}`, ``, `1:6: "1" at 1:6: invalid character '1' after object key`},
		{"a key that is no string", `{"a": 1, b: 2}`, `a@1:2`, `1:10: "b" at 1:10: invalid character 'b' looking for beginning of object key string`},
		{"the first key no string", `{b: 2}`, ``, `1:2: "b" at 1:2: invalid character 'b' looking for beginning of object key string`},
		{"a bad escape in a key, late", "{\"a\": [1, 2, 3],\n \"b\\x\": 1}", `a@1:2`, `2:5: "b\\x" at 2:3: invalid character 'x' in string escape code`},
		{"a list's end missing", `{"list": [{}}`, `list@1:2 [0]{}@1:11`, `1:13: "" at 1:13: invalid character '}' after array element`},
		{"a comma before the end", `{"list": [{},]}`, `list@1:2 [0]{}@1:11`, `1:14: "" at 1:14: invalid character ']' looking for beginning of value`},
		{"cut short in a list", "{\"list\": [{},\n", `list@1:2 [0]{}@1:11`, `2:1: cut short`},
		{"cut short in a key", `{"list`, ``, `1:7: cut short`},
		{"empty", "", ``, `1:1: cut short`},
		{"a second document", "{\"a\": 1}\n{\"a\": 1}\n", `a@1:2`, `2:1: second`},
		{"a no-break space between values", "{\"a\":\u00a01}", `a@1:2`, `1:6: the character U+00A0 (no-break space) is not JSON here (looking for beginning of value): JSON takes only spaces, tabs and line breaks between its values, and other characters only inside quotes: replace it with a space (or delete it), save it, and open it again`},
		{"a key twice at the top", "{\"a\": 1,\n \"a\": 2}", `a@1:2`, `2:2: the key "a" is given twice in one object (first on line 1): a JSON reader keeps one of the two without a word: keep the one you mean, and open it again`},
		{"a key twice deep in an element", "{\"list\": [{},\n {\"x\": {\"y\": 1,\n \"y\": 2}}]}", `list@1:2 [0]{}@1:11`, `3:2: the key "y" is given twice in one object (first on line 2): a JSON reader keeps one of the two without a word: keep the one you mean, and open it again`},
		{"a top-level list", `[{"a": 1}]`, ``, `1:1: top-level array`},
		{"a top-level number, then another", `1 2`, ``, `1:3: second`},
	} {
		met, err := readStream(tc.text)
		if got := strings.Join(met, " "); got != tc.met || placed(err) != tc.err {
			t.Errorf("%s: met %s, %s;\nwant %s, %s", tc.name, got, placed(err), tc.met, tc.err)
		}
	}
}

// What is held is the element being read and the text about it, never
// the text: a list of 200,000 elements (7 MB) is read in a window of the
// text a few times the size of what the decoder reads at once.
func TestJSONStreamHoldsAnElement(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"list": [`)
	for i := range 200_000 {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"id": %d, "name": "node %d"}`, i, i)
	}
	b.WriteString("]}")
	st := NewJSONStream("g.json", strings.NewReader(b.String()))
	var last Pos
	n, most := 0, 0
	err := st.Object(func(string, Pos) error {
		_, err := st.List(func(int) error {
			var m map[string]json.RawMessage
			v, err := st.Decode(&m)
			n, last, most = n+1, v.At, max(most, cap(st.w.buf))
			return err
		})
		return err
	})
	if err != nil || n != 200_000 || last != (Pos{200_000, 1}) || most > 4*chunk {
		t.Errorf("%v: %d elements, the last at %v, the window at most %d bytes of %d", err, n, last, most, b.Len())
	}
}
