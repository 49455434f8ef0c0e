package input

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"unicode/utf8"

	"pdnexplorer/i18n/phrase"
)

// JSONStream reads a JSON text whose top level is an object as it
// streams: member by member, and a member's list element by element, each
// value decoded as it comes (encoding/json's Decoder), so that what is
// held is the value being read and the text around it, never the whole
// text: a node-link file of a million nodes is read in the memory its
// graph takes, not in that of its text and a map of each of its objects.
//
// Its rules are JSON's (see JSON): a key given twice in one object, at any
// depth, is refused where it comes again, and a value nested deeper than
// MaxDepth where it passes it (each an *Error). Every error is
// placed at its line and byte column, as an editor counts them: malformed
// JSON as a *JSONSyntaxError in encoding/json's words (the byte at fault,
// and the word of text it is in), a character beyond ASCII between values
// named as JSON names it, a text cut short where it ends, a second
// document after the first where it begins; a top-level value that is no
// object is a *JSONTypeError.
type JSONStream struct {
	file string
	w    *window
	dec  *json.Decoder
	// from is where the value of the member or element met begins to be
	// scanned (past its ':' or ','), pending that it has not been read.
	from    int64
	pending bool
}

// NewJSONStream reads src, the text of file (a Text), as JSON.
func NewJSONStream(file string, src io.Reader) *JSONStream {
	w := &window{src: src, line: 1}
	return &JSONStream{file: file, w: w, dec: json.NewDecoder(w)}
}

// A JSONValue is a value a JSONStream read: where it begins, its text, and
// the keys of its objects (as Keys lists them: its own keys are those
// whose Parent is ""). Text and Keys hold until the next value is read.
type JSONValue struct {
	At   Pos
	Text []byte
	Keys []Key
}

// JSONSyntaxError is malformed JSON, placed in its file: the byte at fault
// (At), the word of text it is in (Word, which begins at WordAt: a NaN,
// an Infinity) and encoding/json's words for the fault (Msg); or a text
// that ends in the middle of its JSON (CutShort, At its end), or that holds
// a second value after the first (Second, At where it begins).
type JSONSyntaxError struct {
	File             string
	At, WordAt       Pos
	Word, Msg        string
	CutShort, Second bool
}

func (e *JSONSyntaxError) Error() string {
	return e.File + ":" + strconv.Itoa(e.At.Line) + ":" + strconv.Itoa(e.At.Col) + ": " + e.Msg
}

// JSONTypeError says a JSON text's top-level value is no object: Value
// is what it is, as encoding/json names it ("array", "string", "number",
// "bool", "null").
type JSONTypeError struct {
	File  string
	At    Pos
	Value string
}

func (e *JSONTypeError) Error() string {
	return e.File + ": the top-level value is " + e.Value + ", not an object"
}

// Object reads the top-level value, an object, calling member with each
// of its keys in order and where the key is; member reads the key's value
// (Decode, Skip or List), or it is skipped. An error member returns ends
// the reading, and is Object's. Past the object, the text holds spaces
// only, to its end: a second value there is refused.
func (j *JSONStream) Object(member func(key string, at Pos) error) error {
	c, off, err := j.peek()
	if err != nil {
		return err
	}
	if c != '{' {
		j.from, j.pending = off, true
		v, err := j.Skip()
		if err == nil {
			err = j.end() // a second value is said first, as Unmarshal says it
		}
		if err != nil {
			return err
		}
		return &JSONTypeError{File: j.file, At: v.At, Value: jsonKind(c)}
	}
	if _, err := j.dec.Token(); err != nil { // the '{' peeked
		return j.failed(err)
	}
	firstOn := map[string]int{} // the line of each key met
	for n := 0; ; n++ {
		c, off, err := j.peek()
		switch {
		case err != nil:
			return err
		case c == '}':
			if _, err := j.dec.Token(); err != nil {
				return j.failed(err)
			}
			return j.end()
		case n == 0 && c != '"':
			return j.unexpected(off, c, "looking for beginning of object key string")
		case n > 0 && c != ',':
			return j.unexpected(off, c, "after object key:value pair")
		case n > 0:
			off++ // the key begins past its comma
		}
		tok, err := j.dec.Token()
		if err != nil {
			// Token refuses a byte that begins no key itself, at the byte;
			// a key's own fault (an escape, a control character) is met
			// in scanning it.
			var se *json.SyntaxError
			if k := j.w.skipSpace(off); errors.As(err, &se) && (k >= j.w.given || j.w.byteAt(k) != '"') {
				return j.syntax(se.Offset, se.Error())
			}
			return j.decodeFailed(off, err)
		}
		key, _ := tok.(string)
		at := j.w.pos(j.w.skipSpace(off))
		if line, ok := firstOn[key]; ok {
			return keyTwice(j.file, key, line, at)
		}
		firstOn[key] = at.Line
		c, off, err = j.peek()
		if err != nil {
			return err
		}
		if c != ':' {
			return j.unexpected(off, c, "after object key")
		}
		j.from, j.pending = off+1, true
		if err := member(key, at); err != nil {
			return err
		}
		if j.pending {
			if _, err := j.Skip(); err != nil {
				return err
			}
		}
		j.w.mark(j.dec.InputOffset())
	}
}

// List reads the value of the member met as a list, calling element with
// each element's place in it (from 0), in order; element reads the
// element (Decode, Skip), or it is skipped (every element is, where
// element is nil: a list passed over a value at a time, never held
// whole). ok is false where the value is no list: it is then read (a
// fault in it refused) and passed over.
func (j *JSONStream) List(element func(i int) error) (ok bool, err error) {
	if !j.pending {
		return false, errors.New("input: JSONStream.List: the value was read already")
	}
	c, _, err := j.w.ahead(j.from)
	if err != nil {
		return false, j.failed(err)
	}
	if c != '[' {
		_, err := j.Skip()
		return false, err
	}
	j.pending = false
	if _, err := j.dec.Token(); err != nil { // the ':' and '[' met
		return true, j.failed(err)
	}
	for i := 0; ; i++ {
		c, off, err := j.peek()
		switch {
		case err != nil:
			return true, err
		case c == ']':
			if _, err := j.dec.Token(); err != nil {
				return true, j.failed(err)
			}
			return true, nil
		case i > 0 && c != ',':
			return true, j.unexpected(off, c, "after array element")
		case i > 0:
			off++ // the element begins past its comma
		}
		j.from, j.pending = off, true
		if element != nil {
			if err := element(i); err != nil {
				return true, err
			}
		}
		if j.pending {
			if _, err := j.Skip(); err != nil {
				return true, err
			}
		}
		j.w.mark(j.dec.InputOffset())
	}
}

// Decode reads the value of the member or element met into v, as
// encoding/json's Unmarshal does, refusing a key given twice in it; it
// gives where the value is, its text and its keys. A value v cannot hold
// is given with the *json.UnmarshalTypeError (the stream reads on).
func (j *JSONStream) Decode(v any) (JSONValue, error) {
	if !j.pending {
		return JSONValue{}, errors.New("input: JSONStream.Decode: the value was read already")
	}
	j.pending = false
	if err := j.dec.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) {
			return JSONValue{}, j.decodeFailed(j.from, err)
		}
		val, kerr := j.read(j.from)
		if kerr != nil {
			return val, kerr
		}
		return val, err
	}
	return j.read(j.from)
}

// Skip reads the value of the member or element met, and lets it go
// (a key given twice in it is refused all the same).
func (j *JSONStream) Skip() (JSONValue, error) { return j.Decode(&discard{}) }

// discard takes any value, and holds none of it.
type discard struct{}

func (*discard) UnmarshalJSON([]byte) error { return nil }

// read is the value just decoded, which begins past from.
func (j *JSONStream) read(from int64) (JSONValue, error) {
	start := j.w.skipSpace(from)
	text := j.w.slice(start, j.dec.InputOffset())
	v := JSONValue{At: j.w.pos(start), Text: text}
	if len(text) > 0 && (text[0] == '{' || text[0] == '[') {
		keys, twice, deep := scanKeys(text, nil)
		if deep != nil {
			return v, tooDeep(j.file, j.w.pos(start+int64(deep.Off)))
		}
		if twice != nil {
			first := j.w.pos(start + int64(twice.First.Off))
			return v, keyTwice(j.file, twice.Again.Name, first.Line, j.w.pos(start+int64(twice.Again.Off)))
		}
		v.Keys = keys
	}
	return v, nil
}

// peek is the next byte that is no space, where the Decoder is, and its
// offset; an error where the text ends, or cannot be read.
func (j *JSONStream) peek() (byte, int64, error) {
	if off, ok := j.next(); ok {
		return j.w.byteAt(off), off, nil
	}
	_, err := j.dec.Token() // gives what More met
	if err == nil {
		err = io.ErrUnexpectedEOF
	}
	return 0, 0, j.failed(err)
}

// next is the offset of the next byte that is no space, where the
// Decoder is; ok false where the text ends there, or cannot be read
// (More leaves the Decoder before the spaces it met then).
func (j *JSONStream) next() (int64, bool) {
	j.dec.More()
	off := j.dec.InputOffset()
	return off, off < j.w.given && !isJSONSpace(j.w.byteAt(off))
}

// end reads the text past the top-level value, to its end: spaces, or a
// second value.
func (j *JSONStream) end() error {
	if off, ok := j.next(); ok {
		if c := j.w.byteAt(off); c >= utf8.RuneSelf {
			return j.unexpected(off, c, "after top-level value") // a character named, as JSON names it
		}
		return &JSONSyntaxError{File: j.file, At: j.w.pos(off), Second: true, Msg: "a second value after the top-level one"}
	}
	if _, err := j.dec.Token(); !errors.Is(err, io.EOF) {
		return j.failed(err)
	}
	return nil
}

// failed is what the Decoder failed with as the stream says it: the text
// cut short, where it ends; the text's own fault (an *Error: a byte that
// is not UTF-8, a damaged .gz) as it is.
func (j *JSONStream) failed(err error) error {
	var ie *Error
	switch {
	case errors.As(err, &ie):
		return ie
	case err == nil, errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return &JSONSyntaxError{File: j.file, At: j.w.pos(j.w.end()), CutShort: true, Msg: "unexpected end of JSON input"}
	}
	return err
}

// decodeFailed is the Decoder's failure to read the value that begins to
// be scanned at from: a syntax error is placed by scanning the value
// again, on its own, for the Decoder counts a syntax error's offset from
// where it began to scan values, not from the text's start, once Token
// has read past any (json.SyntaxError.Offset).
func (j *JSONStream) decodeFailed(from int64, err error) error {
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return j.failed(err)
	}
	k := j.w.skipSpace(from)
	if maxDepthError(err) { // nested past encoding/json's bound, and so past MaxDepth
		text := j.w.slice(k, j.w.end())
		if _, _, deep := scanKeys(text, nil); deep != nil {
			return tooDeep(j.file, j.w.pos(k+int64(deep.Off)))
		}
	}
	again := json.NewDecoder(bytes.NewReader(j.w.slice(k, j.w.end())))
	var se2 *json.SyntaxError
	if errors.As(again.Decode(&discard{}), &se2) {
		return j.syntax(k+se2.Offset-1, se2.Error())
	}
	return j.syntax(max(j.w.given-1, k), se.Error()) // not met again: at the last byte read
}

// unexpected is the syntax error of byte c at off, where JSON wants what
// context says, in encoding/json's words.
func (j *JSONStream) unexpected(off int64, c byte, context string) error {
	return j.syntax(off, "invalid character "+quoteChar(c)+" "+context)
}

// quoteChar is a byte as encoding/json's messages quote it.
func quoteChar(c byte) string {
	switch c {
	case '\'':
		return `'\''`
	case '"':
		return `'"'`
	}
	s := strconv.Quote(string(rune(c)))
	return "'" + s[1:len(s)-1] + "'"
}

// wordBytes bounds how far a message's word reaches either side of the
// byte at fault.
const wordBytes = 128

// syntax places the syntax error msg at the byte at off: a character
// beyond ASCII is named, as JSON names it; else the word it is in is
// quoted.
func (j *JSONStream) syntax(off int64, msg string) error {
	at := j.w.pos(off)
	j.w.ensure(off + wordBytes)
	if rest := j.w.slice(off, j.w.end()); len(rest) > 0 && rest[0] >= utf8.RuneSelf {
		if err := notASCIIAt(j.file, rest, msg, at, nil); err != nil {
			return err
		}
	}
	start, end := off, off
	for start > j.w.base && off-start < wordBytes && !isJSONDelim(j.w.byteAt(start-1)) {
		start--
	}
	for end < j.w.end() && end-off < wordBytes && !isJSONDelim(j.w.byteAt(end)) {
		end++
	}
	// A word holds no line break: it begins on the line of the byte.
	wordAt := Pos{Line: at.Line, Col: at.Col - int(off-start)}
	return &JSONSyntaxError{File: j.file, At: at, WordAt: wordAt, Word: string(j.w.slice(start, end)), Msg: msg}
}

// isJSONDelim says a byte ends a word of JSON text.
func isJSONDelim(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', ',', ':', '[', ']', '{', '}', '"':
		return true
	}
	return false
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// jsonKind is what a JSON value beginning with c is, as encoding/json's
// UnmarshalTypeError names it.
func jsonKind(c byte) string {
	switch c {
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "bool"
	case 'n':
		return "null"
	}
	return "number"
}

// window is the text a JSONStream's Decoder reads, from a point still
// needed on: what is before it is let go as the Decoder reads on. From
// the point on, a token is placed (its line and column counted from the
// point's), an element's keys are checked and an error's word quoted. It
// reads ahead of the Decoder only to tell what a value is before it is
// decoded (a list or not), and to quote a word.
type window struct {
	src   io.Reader
	err   error  // src's, once met
	buf   []byte // the text from offset base on
	base  int64
	given int64 // the offset up to which the Decoder has read
	// at is the point: its line (from 1) and col, the bytes of its line
	// before it.
	at        int64
	line, col int
}

// Read gives the Decoder the next of the text.
func (w *window) Read(p []byte) (int, error) {
	if w.given == w.end() {
		if err := w.fill(); err != nil {
			return 0, err
		}
	}
	n := copy(p, w.buf[w.given-w.base:])
	w.given += int64(n)
	return n, nil
}

// end is the offset past the last byte read from src.
func (w *window) end() int64 { return w.base + int64(len(w.buf)) }

// fill reads more of src; src's error once it has no more.
func (w *window) fill() error {
	for {
		if w.err != nil {
			return w.err
		}
		if len(w.buf) == cap(w.buf) {
			w.makeRoom()
		}
		n, err := w.src.Read(w.buf[len(w.buf):cap(w.buf)])
		w.buf = w.buf[:len(w.buf)+n]
		if err != nil {
			w.err = err
		}
		if n > 0 {
			return nil
		}
	}
}

// kept is how much of the text before the point is kept: the start of a
// word an error quotes.
const kept = wordBytes

// makeRoom lets go of the text before the point (but kept bytes), where
// that is half of what is held; else it makes buf larger.
func (w *window) makeRoom() {
	if drop := min(w.at, w.given) - kept - w.base; drop > 0 && drop >= int64(len(w.buf))/2 {
		w.buf = w.buf[:copy(w.buf, w.buf[drop:])]
		w.base += drop
		return
	}
	grown := make([]byte, len(w.buf), max(2*cap(w.buf), chunk))
	copy(grown, w.buf)
	w.buf = grown
}

// ensure reads ahead of the Decoder until off, or the end of the text
// (best effort: a message's word).
func (w *window) ensure(off int64) {
	for w.end() < off && w.fill() == nil {
	}
}

// ahead is the first byte at or past from that is no space, read ahead of
// the Decoder, and its offset.
func (w *window) ahead(from int64) (byte, int64, error) {
	for off := from; ; off++ {
		for off >= w.end() {
			if err := w.fill(); err != nil {
				return 0, off, err
			}
		}
		if c := w.buf[off-w.base]; !isJSONSpace(c) {
			return c, off, nil
		}
	}
}

// skipSpace is the offset of the first byte at or past from, and before
// what the Decoder has read, that is no space.
func (w *window) skipSpace(from int64) int64 {
	for from < w.given && isJSONSpace(w.buf[from-w.base]) {
		from++
	}
	return from
}

func (w *window) byteAt(off int64) byte   { return w.buf[off-w.base] }
func (w *window) slice(a, b int64) []byte { return w.buf[a-w.base : b-w.base] }

// mark moves the point to off.
func (w *window) mark(off int64) {
	w.line, w.col = w.lineCol(off)
	w.at = off
}

// pos is where off, at or past the point, is.
func (w *window) pos(off int64) Pos {
	line, col := w.lineCol(off)
	return Pos{Line: line, Col: col + 1}
}

// lineCol is the line of off, at or past the point, and the bytes of its
// line before it.
func (w *window) lineCol(off int64) (line, col int) {
	seg := w.buf[w.at-w.base : off-w.base]
	if i := bytes.LastIndexByte(seg, '\n'); i >= 0 {
		return w.line + bytes.Count(seg, []byte{'\n'}), len(seg) - i - 1
	}
	return w.line, w.col + len(seg)
}

// keyTwice is the *Error of a key given again (at), first on line first.
func keyTwice(file, key string, first int, at Pos) *Error {
	return &Error{File: file, Line: at.Line, Col: at.Col, Msg: phrase.New("the key %q is given twice in one object (first on line %d): a JSON reader keeps one of the two without a word: keep the one you mean, and open it again", key, first)}
}
