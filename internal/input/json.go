package input

import (
	"bytes"
	"encoding/json"

	"pdnexplorer/i18n/phrase"
)

// JSON decodes the JSON text b of file into v, as encoding/json does, and
// refuses an object that gives one key twice, at any depth (RepeatedKey):
// every JSON file the explorer reads comes through here. An error of
// encoding/json (malformed JSON, a value of the wrong type) is returned
// as it is, for the reader to say where and what it wanted; a key given
// twice is an *Error.
func JSON(file string, b []byte, v any) error {
	if err := json.Unmarshal(b, v); err != nil {
		return err
	}
	return RepeatedKey(file, b)
}

// RepeatedKey is an *Error naming the file, line, byte and key where an
// object of the JSON text b gives a key it gave already, at any depth;
// nil if none does. encoding/json, as Python's json, reads such an object
// as its last value for the key without a word ({"acc": 0.4, "acc": 0.9}
// is 0.9), so a file edited by hand, or two joined, would lose the first
// unseen. Keys are compared as JSON reads them (with their escapes
// decoded: "a" and "\u0061" are one key). Malformed JSON ends the search
// without an error: json.Unmarshal, which reads the whole, says what is
// wrong with it.
func RepeatedKey(file string, b []byte) error {
	type object struct {
		keys      map[string]int // key → its line
		expectKey bool
	}
	var stack []*object // nil for an array
	top := func() *object {
		if len(stack) == 0 {
			return nil
		}
		return stack[len(stack)-1]
	}
	line, lineStart := 1, 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '\n':
			line, lineStart = line+1, i+1
		case '{':
			stack = append(stack, &object{keys: map[string]int{}, expectKey: true})
		case '[':
			stack = append(stack, nil)
		case '}', ']':
			if len(stack) == 0 {
				return nil
			}
			stack = stack[:len(stack)-1]
		case ',':
			if o := top(); o != nil {
				o.expectKey = true
			}
		case '"':
			end := stringEnd(b, i)
			if end < 0 {
				return nil
			}
			if o := top(); o != nil && o.expectKey {
				key := jsonString(b[i : end+1])
				if first, twice := o.keys[key]; twice {
					return &Error{File: file, Line: line, Col: i - lineStart + 1, Msg: phrase.New("the key %q is given twice in one object (first on line %d): a JSON reader keeps one of the two without a word: keep the one you mean, and open it again", key, first)}
				}
				o.keys[key] = line
				o.expectKey = false
			}
			line += bytes.Count(b[i:end], []byte("\n")) // none in valid JSON
			i = end
		}
	}
	return nil
}

// stringEnd is the index of the quote that ends the JSON string opening
// at b[start]; -1 if it never ends.
func stringEnd(b []byte, start int) int {
	for j := start + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j
		}
	}
	return -1
}

// jsonString is the JSON string literal quoted decoded, its escapes read
// as encoding/json reads them.
func jsonString(quoted []byte) string {
	if bytes.IndexByte(quoted, '\\') < 0 {
		return string(quoted[1 : len(quoted)-1])
	}
	var s string
	if err := json.Unmarshal(quoted, &s); err != nil {
		return string(quoted)
	}
	return s
}

// ObjectKeys calls key for each key of the JSON object b holds, in order,
// with the line it is on, stopping at the first error key returns; it
// reads only the keys (each value is skipped whole), for a reader that
// says something of each (RepeatedKey, through JSON, refuses a key given
// twice at any depth already). Malformed JSON ends it without an error:
// json.Unmarshal, which reads the whole, says what is wrong.
func ObjectKeys(b []byte, key func(k string, line int) error) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil {
		return nil
	}
	line, at := 1, 0
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil
		}
		k, _ := tok.(string)
		off := int(dec.InputOffset())
		line, at = line+bytes.Count(b[at:off], []byte("\n")), off
		if err := key(k, line); err != nil {
			return err
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil
		}
	}
	return nil
}
