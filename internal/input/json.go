package input

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"pdnexplorer/i18n/phrase"
)

// JSON decodes the JSON text b of file into v, as encoding/json does, and
// refuses an object that gives one key twice, at any depth, and lists or
// objects nested deeper than MaxDepth (RepeatedKey):
// every JSON file the explorer reads comes through here. An error of
// encoding/json (malformed JSON, a value of the wrong type) is returned
// as it is, for the reader to say where and what it wanted; a key given
// twice is an *Error.
func JSON(file string, b []byte, v any) error {
	if err := json.Unmarshal(b, v); err != nil {
		if maxDepthError(err) {
			return RepeatedKey(file, b) // nested past MaxDepth, said where
		}
		if bad := notASCII(file, b, err); bad != nil {
			return bad
		}
		return err
	}
	return RepeatedKey(file, b)
}

// notASCII is an *Error naming the character, by its code point and
// name, where encoding/json met one beyond ASCII outside a string (a
// no-break space a copy brought between two values), at its line and
// column: encoding/json quotes its first byte alone, as the mojibake 'Â';
// nil for any other error.
func notASCII(file string, b []byte, err error) error {
	var se *json.SyntaxError
	if !errors.As(err, &se) || se.Offset < 1 || se.Offset > int64(len(b)) || b[se.Offset-1] < utf8.RuneSelf {
		return nil
	}
	off := int(se.Offset - 1)
	line, col := LineCol(b, off)
	return notASCIIAt(file, b[off:], se.Error(), Pos{line, col}, err)
}

// notASCIIAt is notASCII's *Error for the character rest begins with, at,
// where encoding/json's error (msg, err) says JSON wants something else;
// nil where rest begins with no UTF-8 character.
func notASCIIAt(file string, rest []byte, msg string, at Pos, err error) error {
	r, _ := utf8.DecodeRune(rest)
	if r == utf8.RuneError {
		return nil // not UTF-8: the decoder of text refused it already
	}
	context := msg
	if i := strings.LastIndex(context, "' "); i >= 0 {
		context = context[i+2:]
	}
	return &Error{File: file, Line: at.Line, Col: at.Col, Err: err, Msg: phrase.New("the character %s is not JSON here (%s): JSON takes only spaces, tabs and line breaks between its values, and other characters only inside quotes: replace it with a space (or delete it), save it, and open it again", RuneName(r), context)}
}

// runeNames name the characters a copy and paste brings that look like
// nothing, or like ASCII, and the control characters a cell may hold.
var runeNames = map[rune]string{
	0x0009: "tab", 0x000A: "line feed, a line break", 0x000D: "carriage return, a line break",
	0x0085: "next line, a line break", 0x007F: "delete",
	0x00A0: "no-break space", 0x00AD: "soft hyphen", 0x2007: "figure space", 0x2009: "thin space",
	0x200B: "zero-width space", 0x200C: "zero-width non-joiner", 0x200D: "zero-width joiner",
	0x2028: "line separator", 0x2029: "paragraph separator", 0x202F: "narrow no-break space",
	0x2060: "word joiner", 0x3000: "ideographic space", 0xFEFF: "zero-width no-break space, a byte-order mark",
	0x2018: "left single quotation mark", 0x2019: "right single quotation mark",
	0x201C: "left double quotation mark", 0x201D: "right double quotation mark",
	0x2013: "en dash", 0x2014: "em dash", 0x2212: "minus sign", 0xFF0C: "fullwidth comma",
	0xFF1A: "fullwidth colon", 0xFF02: "fullwidth quotation mark",
}

// RuneName is a character as a message names it: its code point, and
// its name where it looks like nothing or like ASCII (U+00A0 (no-break
// space)), else itself when printable (U+00E9 (é)).
func RuneName(r rune) string {
	if name, ok := runeNames[r]; ok {
		return fmt.Sprintf("U+%04X (%s)", r, name)
	}
	if unicode.IsPrint(r) {
		return fmt.Sprintf("U+%04X (%c)", r, r)
	}
	return fmt.Sprintf("U+%04X", r)
}

// RepeatedKey is an *Error naming the file, line, byte and key where an
// object of the JSON text b gives a key it gave already, at any depth;
// nil if none does. encoding/json, as Python's json, reads such an object
// as its last value for the key without a word ({"acc": 0.4, "acc": 0.9}
// is 0.9), so a file edited by hand, or two joined, would lose the first
// unseen. Keys are compared as JSON reads them (with their escapes
// decoded: "a" and "\u0061" are one key). Malformed JSON ends the search
// without an error: json.Unmarshal, which reads the whole, says what is
// wrong with it. A text nested deeper than MaxDepth is refused where it
// passes it, saying how deep it is.
func RepeatedKey(file string, b []byte) error {
	_, twice, deep := scanKeys(b, nil)
	if deep != nil {
		line, col := LineCol(b, deep.Off)
		return tooDeep(file, Pos{line, col})
	}
	if twice == nil {
		return nil
	}
	line, col := LineCol(b, twice.Again.Off)
	first, _ := LineCol(b, twice.First.Off)
	return keyTwice(file, twice.Again.Name, first, Pos{line, col})
}

// Key is one key of an object of a JSON text: the field path of the
// object it is in ("" for the top, "runs[0]" for a list's item), its name
// and the byte offset of its quote.
type Key struct {
	Parent, Name string
	Off          int
}

// Field is the key's field path: parent.name.
func (k Key) Field() string { return JoinField(k.Parent, k.Name) }

// JoinField is a field path, name within parent.
func JoinField(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "." + name
}

// KeyTwice is a key given twice in one object: where first, and again.
type KeyTwice struct{ First, Again Key }

// MaxDepth is how deeply the lists and objects of a JSON text may nest
// (the top-level value is 1): no file the explorer reads needs more than a
// few levels (a node-link graph's nodes, each an object, hold values),
// while a value nested thousands deep is held, as it is scanned, once for
// each level. Deeper, Keys stops, and RepeatedKey and a JSONStream's
// values refuse it (TooDeep).
const MaxDepth = 100

// Keys lists every key of every object of the JSON text b, in order, with
// where each object begins by its field path (objects; "runs[0]" for a
// list's item), as far as the first key given twice in one object, which
// twice names. It is the one scan of a JSON text's keys: RepeatedKey, and
// a reader that names the fields it checks (pdn merge's shard files), read
// it. Malformed JSON ends it where it stops making sense, and so does a
// list or an object nested deeper than MaxDepth (TooDeep says where).
func Keys(b []byte) (keys []Key, objects map[string]int, twice *KeyTwice) {
	objects = map[string]int{}
	keys, twice, _ = scanKeys(b, objects)
	return keys, objects, twice
}

// deepAt is where a JSON text nests deeper than MaxDepth: the offset of
// the first '[' or '{' past it, and the depth the text reaches.
type deepAt struct{ Off, Depth int }

// scanKeys is Keys, the objects noted in objects where it is not nil; and
// where the text nests deeper than MaxDepth, how deep. A field path is
// made only for an object that has keys (or whose place objects notes),
// once, and shared by its keys: a list's items, nested however, cost a
// frame each level and no text.
func scanKeys(b []byte, objects map[string]int) (keys []Key, twice *KeyTwice, deep *deepAt) {
	type frame struct {
		obj, expectKey, built bool
		key, path             string
		n                     int
		seen                  map[string]Key
	}
	var stack []frame
	// path is the field path of the list or object stack[i], made once.
	var path func(i int) string
	path = func(i int) string {
		f := &stack[i]
		if f.built || i == 0 {
			f.built = true
			return f.path
		}
		up := &stack[i-1]
		if up.obj {
			f.path = JoinField(path(i-1), up.key)
		} else {
			f.path = path(i-1) + "[" + strconv.Itoa(up.n) + "]"
		}
		f.built = true
		return f.path
	}
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '{', '[':
			if len(stack) == MaxDepth {
				return keys, nil, &deepAt{Off: i, Depth: depthOf(b[i:]) + MaxDepth}
			}
			stack = append(stack, frame{obj: b[i] == '{', expectKey: true})
			if b[i] == '{' && objects != nil {
				objects[path(len(stack)-1)] = i
			}
		case '}', ']':
			if len(stack) == 0 {
				return keys, nil, nil
			}
			stack = stack[:len(stack)-1]
		case ',':
			if n := len(stack); n > 0 && stack[n-1].obj {
				stack[n-1].expectKey = true
			} else if n > 0 {
				stack[n-1].n++
			}
		case '"':
			end := stringEnd(b, i)
			if end < 0 {
				return keys, nil, nil
			}
			if n := len(stack); n > 0 && stack[n-1].obj && stack[n-1].expectKey {
				top := &stack[n-1]
				k := Key{Parent: path(n - 1), Name: jsonString(b[i : end+1]), Off: i}
				if first, ok := top.seen[k.Name]; ok {
					return keys, &KeyTwice{first, k}, nil
				}
				if top.seen == nil {
					top.seen = map[string]Key{}
				}
				top.seen[k.Name], top.key, top.expectKey = k, k.Name, false
				keys = append(keys, k)
			}
			i = end
		}
	}
	return keys, nil, nil
}

// depthOf is how deeply the lists and objects of the JSON text b nest, as
// far as they make sense: a counter, nothing held.
func depthOf(b []byte) int {
	depth, deepest := 0, 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '{', '[':
			depth++
			deepest = max(deepest, depth)
		case '}', ']':
			if depth--; depth < 0 {
				return deepest
			}
		case '"':
			if i = stringEnd(b, i); i < 0 {
				return deepest
			}
		}
	}
	return deepest
}

// tooDeep is the *Error of a JSON text nested past MaxDepth, at the list
// or object that passes it. How deep the text goes past it is not said:
// the scan that finds it stops counting there.
func tooDeep(file string, at Pos) *Error {
	return &Error{File: file, Line: at.Line, Col: at.Col, Msg: phrase.New("lists or objects nested more than %d levels deep, the most the explorer reads: a graph's attribute holds a number, a string or a list of them; flatten the attribute (a list of numbers, or one attribute for each), save it, and open it again", MaxDepth)}
}

// maxDepthError says err is encoding/json's refusal of a text nested
// past its own bound (10,000 levels).
func maxDepthError(err error) bool {
	var se *json.SyntaxError
	return errors.As(err, &se) && strings.Contains(se.Error(), "exceeded max depth")
}

// LineCol is the line and byte column (from 1) of offset off in b.
func LineCol(b []byte, off int) (line, col int) {
	off = min(max(off, 0), len(b))
	line = 1 + bytes.Count(b[:off], []byte("\n"))
	return line, off - bytes.LastIndexByte(b[:off], '\n')
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

// ElementAt is the line and column of element i of the list under
// the top-level key of the JSON object b (which decoded, so is JSON);
// 0, 0 if not found.
func ElementAt(b []byte, key string, i int) (line, col int) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber() // 1e400 is a token, not a float64 out of range
	depth, isKey, current, n := 0, false, "", 0
	for {
		before := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return 0, 0
		}
		start := int(before)
		for start < len(b) && strings.IndexByte(" \t\r\n,:", b[start]) >= 0 {
			start++
		}
		if depth == 2 && current == key { // an element of key's list starts here
			if d, ok := tok.(json.Delim); !ok || d == '{' || d == '[' {
				if n == i {
					return LineCol(b, start)
				}
				n++
			}
		}
		switch t := tok.(type) {
		case json.Delim:
			if t == '{' || t == '[' {
				depth++
				isKey = depth == 1
			} else if depth--; depth == 1 {
				isKey = true
			}
		case string:
			if depth == 1 && isKey {
				current, isKey = t, false
			} else if depth == 1 {
				isKey = true
			}
		default:
			if depth == 1 {
				isKey = true
			}
		}
	}
}
