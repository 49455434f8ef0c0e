package input

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"io/fs"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"

	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/numtext"
)

// Text is the one decoder of text: it reads a file's bytes and gives its
// text as UTF-8 whose lines end in LF, checking every byte as it goes and
// counting lines and bytes, so that what is wrong is found where it is,
// file:line:byte, while the reader above it meets its own limits:
//
//   - UTF-8 is read, its byte-order mark (as Windows' editors and
//     spreadsheets write it) skipped; UTF-16 with its byte-order mark is
//     read as the mark says; UTF-16 without one is refused (its byte order
//     is a guess); an XML file's declared encoding is honoured (OpenXML);
//   - a byte that is not UTF-8 is refused at its line and byte, saying
//     what the file likely is (Latin-1 or Windows-1252 only where that is
//     plausible: the byte a letter there, not followed by another byte
//     beyond ASCII, as a multi-byte encoding's would be; two encodings
//     mixed when UTF-8 came before it; else another encoding);
//   - a byte-order mark anywhere but at the very start is refused where
//     it is: it is what two files joined into one (the second with its
//     mark) leave, and read as text it would be an invisible character
//     inside a cell;
//   - CRLF and CR alone are line ends, as LF is (Python's universal
//     newlines read all three), and Notes says when CR alone was met;
//   - a NUL byte is binary data, refused where it is.
//
// The line and byte of a message are the text's, as an editor counts
// them (a byte-order mark is no byte of the first line).
type Text struct {
	file    string
	src     io.Reader
	closer  io.Closer
	enc     encoding
	charset *charmap.Charmap // enc == singleByte
	label   string           // the encoding, when not UTF-8
	by      telling          // what told it

	in     []byte // bytes read, not yet decoded: a character cut by a read
	out    []byte // text decoded, not yet given
	given  int    // of out
	eof    bool   // src has no more
	srcErr error  // what src failed with, once in is decoded
	err    error  // what Read gives once out is given

	line, col int  // the next byte's line (from 1) and the bytes of its line before it
	afterCR   bool // the last byte was a CR, so an LF after it ends no line
	crAlone   int  // lines ended by CR alone
	firstUTF8 int  // the first line holding a character beyond ASCII; 0 if none yet

	// comment is CommentLines' mark (0: none), and lineIs what the line
	// being read is, as far as its first bytes tell.
	comment byte
	lineIs  lineKind
}

// lineKind is what a line is, by its first byte that is no space or tab.
type lineKind int8

const (
	blankSoFar lineKind = iota
	commentLine
	textLine
)

type encoding int

// telling is what told a text's encoding, when it is not UTF-8.
type telling int

const (
	byMark        telling = iota // its byte-order mark
	byDeclaration                // its XML declaration
	byFirstBytes                 // its first characters, "<?" in UTF-16
)

const (
	utf8Text encoding = iota
	utf16LE
	utf16BE
	singleByte
	asciiText
)

const chunk = 64 << 10

var (
	bomUTF8    = []byte("\ufeff")
	bomUTF16LE = []byte{0xff, 0xfe}
	bomUTF16BE = []byte{0xfe, 0xff}
)

// NewText reads src, the bytes of file, as text: UTF-8 (its byte-order
// mark skipped) or UTF-16 with its byte-order mark. UTF-16 without a
// mark is refused at once.
func NewText(file string, src io.Reader) (*Text, error) {
	br := bufio.NewReaderSize(src, chunk)
	head, _ := br.Peek(4096)
	t := &Text{file: file, src: br, line: 1}
	switch {
	case bytes.HasPrefix(head, bomUTF8):
		br.Discard(len(bomUTF8))
	case bytes.HasPrefix(head, bomUTF16LE):
		br.Discard(2)
		t.enc, t.label = utf16LE, "UTF-16"
	case bytes.HasPrefix(head, bomUTF16BE):
		br.Discard(2)
		t.enc, t.label = utf16BE, "UTF-16"
	case looksUTF16(head):
		return nil, &Error{File: file, Line: 1, Msg: phrase.New("is UTF-16 text without a byte-order mark, which would say which of UTF-16's two byte orders it is in: save it as UTF-8 (a spreadsheet's \u201cCSV UTF-8\u201d), or as UTF-16 with its mark, and open it again")}
	}
	return t, nil
}

// OpenText opens name in fsys (see Open) and reads it as text (see
// NewText), inflating a name ending in .gz up to gunzipLimit bytes (see
// Gunzip). Close closes the file.
func OpenText(fsys fs.FS, name string, gunzipLimit int64) (*Text, error) {
	if why, ok := Unread(name); ok {
		return nil, &Error{File: name, Msg: why}
	}
	f, err := Open(fsys, name)
	if err != nil {
		return nil, packedBeside(fsys, name, err)
	}
	var r io.Reader = f
	if Compressed(name) != "" {
		if r, err = Inflate(name, f, gunzipLimit); err != nil {
			f.Close()
			return nil, err
		}
	}
	t, err := NewText(name, r)
	if err != nil {
		f.Close()
		return nil, err
	}
	t.closer = f
	return t, nil
}

// looksUTF16 says head is UTF-16 text without its mark: every other byte
// a NUL, as ASCII characters are in UTF-16.
func looksUTF16(head []byte) bool {
	pairs := len(head) / 2
	if pairs < 2 {
		return false
	}
	var even, odd int
	for i := 0; i+1 < len(head); i += 2 {
		if head[i] == 0 {
			even++
		}
		if head[i+1] == 0 {
			odd++
		}
	}
	return max(even, odd)*5 >= pairs*2 && min(even, odd)*10 < pairs
}

// CommentLines has the text pass the bytes of its comment lines as they
// are: the lines but the first whose first byte that is no space or tab
// is mark, which their reader skips whatever they hold, as SciPy's mmread
// skips a Matrix Market file's % lines (a name in Latin-1 there is no
// fault of the file's). A byte there that is not UTF-8 is given as
// U+FFFD, and a byte-order mark as itself; a NUL is still binary data.
// The first line (a Matrix Market file's banner) and every line that is
// no comment are held to UTF-8 as ever. Set it before the first Read.
func (t *Text) CommentLines(mark byte) { t.comment = mark }

// tell notes what the line being read is, from its bytes b (the next of
// it), where its first bytes left it blank so far.
func (t *Text) tell(b []byte) {
	for _, c := range b {
		switch {
		case c == ' ' || c == '\t':
			continue
		case c == t.comment && t.line > 1:
			t.lineIs = commentLine
		default:
			t.lineIs = textLine
		}
		return
	}
}

// File is the name the text's messages give its file.
func (t *Text) File() string { return t.file }

// Close closes the file the text came from.
func (t *Text) Close() error {
	if t.closer == nil {
		return nil
	}
	return t.closer.Close()
}

// All reads the rest of the text.
func (t *Text) All() ([]byte, error) { return io.ReadAll(t) }

// AllWithin reads the rest of the text, to be held whole (a JSON file),
// refusing more than limit bytes of it.
func (t *Text) AllWithin(limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(t, limit+1))
	if err == nil && int64(len(b)) > limit {
		return nil, tooLarge(t.file, limit)
	}
	return b, err
}

// Read gives the next of the text, decoded; an *Error where a byte is
// not text, or where the bytes beneath failed (a damaged .gz).
func (t *Text) Read(p []byte) (int, error) {
	for t.given == len(t.out) {
		if t.err != nil {
			return 0, t.err
		}
		t.fill()
	}
	n := copy(p, t.out[t.given:])
	t.given += n
	return n, nil
}

// fill reads a chunk of src and decodes what of it is whole characters.
func (t *Text) fill() {
	t.out, t.given = t.out[:0], 0
	if !t.eof {
		if cap(t.in)-len(t.in) < chunk/2 {
			t.in = append(make([]byte, 0, len(t.in)+chunk), t.in...)
		}
		n, err := t.src.Read(t.in[len(t.in):cap(t.in)])
		t.in = t.in[:len(t.in)+n]
		switch {
		case err == io.EOF:
			t.eof = true
		case err != nil:
			t.eof, t.srcErr = true, err
		}
	}
	atEnd := t.eof && t.srcErr == nil
	used, err := t.decode(t.in, atEnd)
	t.in = t.in[:copy(t.in, t.in[used:])]
	switch {
	case err != nil:
		t.err = err
	case t.srcErr != nil:
		t.err = t.sourceError(t.srcErr)
	case t.eof:
		t.err = io.EOF
	}
}

// sourceError places what the bytes beneath failed with at the line
// reached.
func (t *Text) sourceError(err error) error {
	var ie *Error
	if errors.As(err, &ie) {
		if ie.Line == 0 && ie.File == t.file { // a line of this text, not of another file (the zip it is in)
			placed := *ie
			placed.Line = t.line
			return &placed
		}
		return ie
	}
	return openError(t.file, err)
}

// decode decodes the whole characters of in into t.out, reporting how
// many bytes it used; at the end of the file (atEnd) a character cut
// short is an error.
func (t *Text) decode(in []byte, atEnd bool) (int, error) {
	switch t.enc {
	case utf16LE, utf16BE:
		return t.decodeUTF16(in, atEnd)
	case singleByte, asciiText:
		return t.decodeBytes(in)
	}
	return t.decodeUTF8(in, atEnd)
}

func (t *Text) decodeUTF8(in []byte, atEnd bool) (int, error) {
	i := 0
	for i < len(in) {
		// A run of plain ASCII is copied whole.
		j := i
		for j < len(in) && in[j] < utf8.RuneSelf && in[j] != '\n' && in[j] != '\r' && in[j] != 0 {
			j++
		}
		if j > i {
			if t.comment != 0 && t.lineIs == blankSoFar {
				t.tell(in[i:j])
			}
			t.out = append(t.out, in[i:j]...)
			t.col += j - i
			t.afterCR = false
			i = j
			continue
		}
		b := in[i]
		if b < utf8.RuneSelf {
			if err := t.control(rune(b)); err != nil {
				return i, err
			}
			i++
			continue
		}
		if !utf8.FullRune(in[i:]) && !atEnd {
			break
		}
		if t.comment != 0 && t.lineIs == blankSoFar {
			t.tell(in[i : i+1])
		}
		r, size := utf8.DecodeRune(in[i:])
		if r == utf8.RuneError && size <= 1 && t.lineIs == commentLine {
			t.out = utf8.AppendRune(t.out, utf8.RuneError) // a comment's byte, passed
			t.col++
			t.afterCR = false
			i++
			continue
		}
		if r == utf8.RuneError && size <= 1 {
			if len(in)-i < 2 && !atEnd {
				break // what follows the bad byte tells what it likely is
			}
			return i, t.notUTF8(in[i:], atEnd)
		}
		if r == byteOrderMark && t.lineIs != commentLine {
			return i, t.markInside()
		}
		t.multibyte()
		t.out = append(t.out, in[i:i+size]...)
		t.col += size
		t.afterCR = false
		i += size
	}
	return i, nil
}

func (t *Text) decodeUTF16(in []byte, atEnd bool) (int, error) {
	unit := func(b []byte) uint16 {
		if t.enc == utf16LE {
			return uint16(b[0]) | uint16(b[1])<<8
		}
		return uint16(b[0])<<8 | uint16(b[1])
	}
	i := 0
	for i+1 < len(in) {
		u := unit(in[i:])
		r, size := rune(u), 2
		switch {
		case utf16.IsSurrogate(r) && u < 0xdc00:
			if i+3 >= len(in) && !atEnd {
				return i, nil
			}
			if i+3 < len(in) {
				if low := rune(unit(in[i+2:])); low >= 0xdc00 && low < 0xe000 {
					r, size = utf16.DecodeRune(r, low), 4
					break
				}
			}
			fallthrough
		case utf16.IsSurrogate(r):
			return i, t.at(phrase.New("is not valid UTF-16: a lone surrogate 0x%04X, half of a character: save it as UTF-8 and open it again", int(u)))
		}
		if err := t.emit(r); err != nil {
			return i, err
		}
		i += size
	}
	if atEnd && i < len(in) {
		return i, t.at(phrase.New("ends in half a UTF-16 character (cut short?): save it again, as UTF-8"))
	}
	return i, nil
}

func (t *Text) decodeBytes(in []byte) (int, error) {
	for i, b := range in {
		r := rune(b)
		switch {
		case t.enc == asciiText && b >= utf8.RuneSelf:
			return i, t.at(phrase.New("byte 0x%02X is not %s, the encoding its XML declaration names: save it as UTF-8 and open it again", int(b), t.label))
		case t.enc == singleByte:
			if r = t.charset.DecodeByte(b); r == utf8.RuneError {
				return i, t.at(phrase.New("byte 0x%02X is no character of %s, the encoding its XML declaration names: save it as UTF-8 and open it again", int(b), t.label))
			}
		}
		if err := t.emit(r); err != nil {
			return i, err
		}
	}
	return len(in), nil
}

// emit adds one decoded character.
func (t *Text) emit(r rune) error {
	if r < utf8.RuneSelf {
		if r == '\n' || r == '\r' || r == 0 {
			return t.control(r)
		}
		t.out = append(t.out, byte(r))
		t.col++
		t.afterCR = false
		return nil
	}
	if r == byteOrderMark {
		return t.markInside()
	}
	t.multibyte()
	t.out = utf8.AppendRune(t.out, r)
	t.col += utf8.RuneLen(r)
	t.afterCR = false
	return nil
}

// control handles a line end or a NUL.
func (t *Text) control(r rune) error {
	switch r {
	case 0:
		return t.at(phrase.New("a NUL byte: this is binary data, not text: is it the file you meant?"))
	case '\n':
		if t.afterCR { // the LF of a CRLF, whose CR ended the line
			t.afterCR = false
			t.crAlone--
			return nil
		}
	case '\r':
		t.afterCR = true
		t.crAlone++
	}
	t.out = append(t.out, '\n')
	t.line++
	t.col = 0
	t.lineIs = blankSoFar
	if r == '\n' {
		t.afterCR = false
	}
	return nil
}

func (t *Text) multibyte() {
	if t.firstUTF8 == 0 {
		t.firstUTF8 = t.line
	}
}

// byteOrderMark is U+FEFF, the mark a file may open with.
const byteOrderMark = '\ufeff'

// markInside refuses a byte-order mark past the start of the text.
func (t *Text) markInside() *Error {
	return t.at(phrase.New("a byte-order mark (U+FEFF), which only the very start of a file may hold: were two files joined into one, the second with its mark? Delete it (and see that the lines after it belong here), save it, and open it again"))
}

// at is an *Error at the byte about to be read.
func (t *Text) at(msg phrase.Text) *Error {
	return &Error{File: t.file, Line: t.line, Col: t.col + 1, Msg: msg}
}

// notUTF8 says what the bytes at rest, not UTF-8, likely are.
func (t *Text) notUTF8(rest []byte, atEnd bool) error {
	b := rest[0]
	if atEnd && len(rest) > 1 && !utf8.FullRune(rest) {
		return t.at(phrase.New("the file ends in the middle of a UTF-8 character (cut short?): save it again, as UTF-8"))
	}
	like := charmap.Windows1252.DecodeByte(b)
	// A letter there, not followed by another byte beyond ASCII: a
	// multi-byte encoding (Shift_JIS, GBK, EUC-KR) writes its characters
	// as two such bytes, and 0x93 is a quote mark in Windows-1252 but the
	// first byte of a kanji in Shift_JIS.
	plausible := unicode.IsLetter(like) && (len(rest) < 2 || rest[1] < utf8.RuneSelf)
	switch {
	case plausible && t.firstUTF8 > 0:
		return t.at(phrase.New("byte 0x%02X is not UTF-8, though line %d holds UTF-8 text: the file mixes two encodings (this byte reads as %q in Latin-1 or Windows-1252): save it all as UTF-8 and open it again", int(b), t.firstUTF8, string(like)))
	case plausible:
		return t.at(phrase.New("byte 0x%02X is not UTF-8: the file looks like Latin-1 or Windows-1252 text (where this byte is %q): save it as UTF-8 (a spreadsheet's \u201cCSV UTF-8\u201d) and open it again", int(b), string(like)))
	}
	return t.at(phrase.New("byte 0x%02X is not UTF-8, nor a letter of Latin-1 or Windows-1252 as the bytes around it read: the file is text in another encoding (Shift_JIS, GBK, Big5, EUC-KR…): save it as UTF-8 (a spreadsheet's \u201cCSV UTF-8\u201d) and open it again", int(b)))
}

// Notes says what a reader of the text should tell its user: that it was
// read as UTF-16 or as the encoding its XML declaration names, and that
// its lines end in CR alone (as classic Mac OS wrote them).
func (t *Text) Notes() []phrase.Text {
	var out []phrase.Text
	switch {
	case t.label == "":
	case t.by == byDeclaration:
		out = append(out, phrase.New("%s: read as %s text, as its XML declaration says", Shown(t.file), t.label))
	case t.by == byFirstBytes:
		out = append(out, phrase.New("%s: read as %s text, as its first characters show (“<?xml” in two bytes each)", Shown(t.file), t.label))
	default:
		out = append(out, phrase.New("%s: read as %s text, as its byte-order mark says", Shown(t.file), t.label))
	}
	if t.crAlone > 0 {
		out = append(out, phrase.New("%s: %s of its lines end in CR alone, as classic Mac OS wrote them: each was read as a line end, as pandas and Python read them", Shown(t.file), numtext.Group(t.crAlone)))
	}
	return out
}

// packedBeside says, of a file missing where the same file compressed
// is there (edges.csv beside edges.csv.gz), that a reader which reads
// it by this name, as the format's publisher does, wants it unpacked;
// any other error is err.
func packedBeside(fsys fs.FS, name string, err error) error {
	if !errors.Is(err, fs.ErrNotExist) || Compressed(name) != "" {
		return err
	}
	for _, c := range compressions {
		if _, serr := Stat(fsys, name+c); serr == nil {
			return &Error{File: name, Err: err, Msg: phrase.New("missing, and %s is there: this format reads %s by that name, as plain text, as its publisher's reader does: unpack it first", name+c, name)}
		}
	}
	return err
}
