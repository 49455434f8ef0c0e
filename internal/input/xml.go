package input

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"io"
	"io/fs"
	"regexp"
	"strings"

	"golang.org/x/text/encoding/charmap"

	"pdnexplorer/i18n/phrase"
)

// OpenXML opens the XML file name in fsys (see Open; a name ending in .gz
// is inflated, see Gunzip) and gives a decoder of its text, read in the
// encoding its byte-order mark or else its XML declaration names, as
// Python's ElementTree (expat) reads it, which NetworkX's read_graphml
// uses: UTF-8 (the default), UTF-16 (with its mark, or as expat tells it
// without: "<?" in two bytes each), US-ASCII, and the 8-bit character
// sets (ISO-8859-1 to -16, Windows-1250 to -1258, KOI8-R, Mac Roman, …).
// A multi-byte encoding other than these (Shift_JIS, GB2312, …) is refused,
// as expat refuses it. The Text is for Notes and Close.
func OpenXML(fsys fs.FS, name string, gunzipLimit int64) (*xml.Decoder, *Text, error) {
	if why, ok := Unread(name); ok {
		return nil, nil, &Error{File: name, Msg: why}
	}
	f, err := Open(fsys, name)
	if err != nil {
		return nil, nil, err
	}
	var r io.Reader = f
	if Compressed(name) != "" {
		if r, err = Inflate(name, f, gunzipLimit); err != nil {
			f.Close()
			return nil, nil, err
		}
	}
	t, err := newXMLText(name, r)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	t.closer = f
	dec := xml.NewDecoder(&markupRuns{file: name, r: t, line: 1})
	// The text is UTF-8 already, whatever the declaration says.
	dec.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	return dec, t, nil
}

// newXMLText reads src as XML text: by its byte-order mark, else by the
// encoding its declaration names.
func newXMLText(file string, src io.Reader) (*Text, error) {
	br := bufio.NewReaderSize(src, chunk)
	head, _ := br.Peek(1024)
	switch {
	case bytes.HasPrefix(head, bomUTF8), bytes.HasPrefix(head, bomUTF16LE), bytes.HasPrefix(head, bomUTF16BE):
		return NewText(file, br)
	case bytes.HasPrefix(head, []byte("<\x00?\x00")):
		return &Text{file: file, src: br, line: 1, enc: utf16LE, label: "UTF-16", by: byFirstBytes}, nil
	case bytes.HasPrefix(head, []byte("\x00<\x00?")):
		return &Text{file: file, src: br, line: 1, enc: utf16BE, label: "UTF-16", by: byFirstBytes}, nil
	}
	label := declaredEncoding(head)
	t := &Text{file: file, src: br, line: 1}
	switch key := charsetKey(label); {
	case label == "" || key == "utf8":
		return NewText(file, br)
	case key == "usascii" || key == "ascii" || key == "iso646us":
		t.enc, t.label, t.by = asciiText, "US-ASCII", byDeclaration
	case strings.HasPrefix(key, "utf16") || strings.HasPrefix(key, "ucs2"):
		return nil, &Error{File: file, Line: 1, Msg: phrase.New("its XML declaration names the encoding %s, but the file is not in it (it has no UTF-16 byte-order mark, and its first characters are one byte each): save it as UTF-8 and open it again", Shown(label))}
	default:
		cm := charsetNamed(key)
		if cm == nil {
			return nil, &Error{File: file, Line: 1, Msg: phrase.New("its XML declaration names the encoding %s, which the explorer does not read (as NetworkX's reader reads no multi-byte encoding but UTF-8 and UTF-16): save it as UTF-8 and open it again", Shown(label))}
		}
		t.enc, t.charset, t.label, t.by = singleByte, cm, cm.String(), byDeclaration
	}
	return t, nil
}

// xmlDeclaration matches an XML declaration's encoding.
var xmlDeclaration = regexp.MustCompile(`^\s*<\?xml\s[^?]*?\bencoding\s*=\s*["']([A-Za-z0-9._:-]+)["']`)

// declaredEncoding is the encoding an XML declaration at the start of
// head names; "" if none.
func declaredEncoding(head []byte) string {
	m := xmlDeclaration.FindSubmatch(head)
	if m == nil {
		return ""
	}
	return string(m[1])
}

// charsetKey is an encoding's name without case or punctuation:
// ISO-8859-1, iso_8859-1 and ISO 8859-1 are iso88591.
func charsetKey(label string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			return r
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return -1
	}, label)
}

// charsetAliases are the other names people and tools give the 8-bit
// character sets (keys as charsetKey makes them), by the name charmap
// gives each.
var charsetAliases = map[string]string{
	"latin1": "iso88591", "l1": "iso88591", "cp819": "iso88591", "ibm819": "iso88591", "isoir100": "iso88591",
	"latin2": "iso88592", "l2": "iso88592", "latin3": "iso88593", "latin4": "iso88594",
	"cyrillic": "iso88595", "arabic": "iso88596", "greek": "iso88597", "hebrew": "iso88598",
	"latin5": "iso88599", "l5": "iso88599", "latin6": "iso885910", "latin7": "iso885913",
	"latin8": "iso885914", "latin9": "iso885915", "l9": "iso885915", "latin10": "iso885916",
	"macroman": "macintosh", "mac": "macintosh", "cp437": "ibmcodepage437", "ibm437": "ibmcodepage437",
	"cp850": "ibmcodepage850", "ibm850": "ibmcodepage850", "cp866": "ibmcodepage866", "ibm866": "ibmcodepage866",
}

// charsetNamed is the 8-bit character set whose key is key; nil if none.
func charsetNamed(key string) *charmap.Charmap {
	if alias, ok := charsetAliases[key]; ok {
		key = alias
	}
	if strings.HasPrefix(key, "cp125") {
		key = "windows" + strings.TrimPrefix(key, "cp")
	}
	for _, e := range charmap.All {
		if cm, ok := e.(*charmap.Charmap); ok && charsetKey(cm.String()) == key {
			return cm
		}
	}
	return nil
}

// MaxRun bounds the text an XML file holds between two of its marks ('<'
// and '>': an attribute's value, a cell's text): the decoder holds such a
// run whole, so a value of gigabytes inflated from a few megabytes is
// refused where it starts, not held in memory.
const MaxRun = 16 << 20

// markupRuns reads an XML file's text for its decoder, failing where
// more than MaxRun bytes come without a mark, at the line of the run's
// first byte that is not white space.
type markupRuns struct {
	file    string
	r       io.Reader
	run     int  // bytes since the last mark
	line    int  // the line being read
	at      int  // the line of the run's first byte that is not white space
	started bool // the run has such a byte
}

func (m *markupRuns) Read(p []byte) (int, error) {
	n, err := m.r.Read(p)
	for _, b := range p[:n] {
		switch b {
		case '<', '>':
			m.run, m.started = 0, false
			continue
		case '\n':
			m.line++
		case ' ', '\t', '\r':
		default:
			if !m.started {
				m.at, m.started = m.line, true
			}
		}
		if m.run++; m.run > MaxRun {
			at := m.at
			if !m.started {
				at = m.line
			}
			return 0, &Error{File: m.file, Line: at, Msg: phrase.New("holds more than %s of text between two tags from this line on (a value too long to hold): is this GraphML?", phrase.Bytes(MaxRun))}
		}
	}
	return n, err
}
