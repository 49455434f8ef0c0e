package input

import (
	"bytes"
	"compress/gzip"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"testing/fstest"
	"testing/iotest"
	"unicode/utf16"
)

// utf16Of is s in UTF-16 with its byte-order mark, little- or big-endian.
func utf16Of(s string, little bool) []byte {
	var b []byte
	if little {
		b = append(b, 0xff, 0xfe)
	} else {
		b = append(b, 0xfe, 0xff)
	}
	for _, u := range utf16.Encode([]rune(s)) {
		if little {
			b = append(b, byte(u), byte(u>>8))
		} else {
			b = append(b, byte(u>>8), byte(u))
		}
	}
	return b
}

// decoded reads src as text, one byte at a time too (a character or a
// CRLF cut by a read is read whole), and fails if the two differ.
func decoded(t *testing.T, src []byte) (string, []string, error) {
	t.Helper()
	var outs [2]string
	var errs [2]error
	var notes []string
	for i, r := range []io.Reader{bytes.NewReader(src), iotest.OneByteReader(bytes.NewReader(src))} {
		text, err := NewText("labels.csv", r)
		if err != nil {
			return "", nil, err
		}
		b, err := text.All()
		outs[i], errs[i] = string(b), err
		if i == 0 {
			for _, n := range text.Notes() {
				notes = append(notes, n.String())
			}
		}
	}
	if outs[0] != outs[1] || errString(errs[0]) != errString(errs[1]) {
		t.Fatalf("read whole %q (%v), a byte at a time %q (%v)", outs[0], errs[0], outs[1], errs[1])
	}
	return outs[0], notes, errs[0]
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// Every text the explorer reads is decoded by one rule: what reads, as
// what, with which note; what is refused, where, and what to do.
func TestText(t *testing.T) {
	const table = "id,class\n0,café\n1,naïve\n"
	for _, tc := range []struct {
		name     string
		src      []byte
		want     string // the text read; "" when refused
		note     string // a note the text gives, if any
		refusal  string // the error, file:line:byte first
		noteless bool
	}{
		{name: "UTF-8", src: []byte(table), want: table, noteless: true},
		{name: "UTF-8 with its mark", src: []byte("\ufeff" + table), want: table, noteless: true},
		{name: "CRLF", src: []byte(strings.ReplaceAll(table, "\n", "\r\n")), want: table, noteless: true},
		{name: "CR alone (classic Mac OS)", src: []byte(strings.ReplaceAll(table, "\n", "\r")), want: table, note: "labels.csv: 3 of its lines end in CR alone"},
		{name: "line ends mixed", src: []byte("a\rb\r\nc\nd"), want: "a\nb\nc\nd", note: "labels.csv: 1 of its lines end in CR alone"},
		{name: "UTF-16 LE with its mark", src: utf16Of(table+"😀\n", true), want: table + "😀\n", note: "labels.csv: read as UTF-16 text, as its byte-order mark says"},
		{name: "UTF-16 BE with its mark, CRLF", src: utf16Of(strings.ReplaceAll(table, "\n", "\r\n"), false), want: table, note: "read as UTF-16"},
		{name: "UTF-16 without its mark", src: utf16Of(table, true)[2:], refusal: "labels.csv:1: is UTF-16 text without a byte-order mark"},
		{name: "Latin-1", src: []byte("id,class\n0,caf\xe9\n"), refusal: "labels.csv:2:6: byte 0xE9 is not UTF-8: the file looks like Latin-1 or Windows-1252 text (where this byte is \"é\"): save it as UTF-8"},
		{name: "half UTF-8, half Latin-1 (audit 150)", src: []byte("id,class\n0,café\n1,na\xefve\n"), refusal: "labels.csv:3:5: byte 0xEF is not UTF-8, though line 2 holds UTF-8 text: the file mixes two encodings (this byte reads as \"ï\" in Latin-1 or Windows-1252): save it all as UTF-8"},
		{name: "Windows-1252 letter", src: []byte("a\n\x8aafran\n"), refusal: "labels.csv:2:1: byte 0x8A is not UTF-8: the file looks like Latin-1 or Windows-1252 text (where this byte is \"\u0160\")"},
		{name: "Shift_JIS (a quote mark in Windows-1252, no letter)", src: []byte("id,class\n0,\x93\xfa\x96{\n"), refusal: "labels.csv:2:3: byte 0x93 is not UTF-8, nor a letter of Latin-1 or Windows-1252 as the bytes around it read: the file is text in another encoding"},
		{name: "Shift_JIS (a letter in Latin-1, followed by a byte beyond ASCII)", src: []byte("id,class\n0,\xe0\xa0\n"), refusal: "labels.csv:2:3: byte 0xE0 is not UTF-8, nor a letter of Latin-1 or Windows-1252 as the bytes around it read: the file is text in another encoding"},
		{name: "a byte-order mark mid-file (two files joined)", src: []byte("\ufeffid,class\n0,a\n\ufeffid,class\n1,b\n"), refusal: "labels.csv:3:1: a byte-order mark (U+FEFF), which only the very start of a file may hold: were two files joined into one"},
		{name: "a byte-order mark inside a cell", src: []byte("id,class\n0,na\ufeff\u00efve\n"), refusal: "labels.csv:2:5: a byte-order mark (U+FEFF)"},
		{name: "a byte-order mark mid-file, UTF-16", src: utf16Of("id,class\n0,a\n\ufeff1,b\n", true), refusal: "labels.csv:3:1: a byte-order mark (U+FEFF)"},
		{name: "no letter anywhere", src: []byte("a\n\x81\n"), refusal: "labels.csv:2:1: byte 0x81 is not UTF-8, nor a letter of Latin-1 or Windows-1252"},
		{name: "NUL bytes mid-file (audit 158)", src: []byte("id,class\n0,a\n1,b\x00\x00\n"), refusal: "labels.csv:3:4: a NUL byte: this is binary data, not text"},
		{name: "cut inside a character", src: []byte("a\nb\xc3"), refusal: "labels.csv:2:2: byte 0xC3 is not UTF-8"},
		{name: "cut inside a long character", src: []byte("a\nb\xe2\x82"), refusal: "labels.csv:2:2: the file ends in the middle of a UTF-8 character (cut short?)"},
		{name: "a lone UTF-16 surrogate", src: []byte{0xff, 0xfe, 'a', 0, '\n', 0, 0x00, 0xd8, 'b', 0}, refusal: "labels.csv:2:1: is not valid UTF-16: a lone surrogate 0xD800"},
		{name: "half a UTF-16 character", src: []byte{0xff, 0xfe, 'a', 0, 'b'}, refusal: "labels.csv:1:2: ends in half a UTF-16 character"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, notes, err := decoded(t, tc.src)
			if tc.refusal != "" {
				var ie *Error
				if err == nil || !strings.HasPrefix(err.Error(), tc.refusal) || !errors.As(err, &ie) {
					t.Fatalf("got %q, %v; want refused %q", got, err, tc.refusal)
				}
				if !strings.Contains(err.Error(), "UTF-8") && !strings.Contains(err.Error(), "binary") && !strings.Contains(err.Error(), "save it") {
					t.Errorf("%v says nothing of what to do", err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %q, %v; want %q", got, err, tc.want)
			}
			if tc.noteless && len(notes) > 0 || tc.note != "" && !strings.Contains(strings.Join(notes, "\n"), tc.note) {
				t.Errorf("notes %q, want %q", notes, tc.note)
			}
		})
	}
}

// A text whose comment lines its reader skips (a Matrix Market file's %
// lines, as SciPy's mmread skips them) passes their bytes, whatever they
// are, read whole or a byte at a time: a byte that is not UTF-8 there is
// U+FFFD. The first line (the banner), and every line that is no comment,
// are held to UTF-8; a NUL is binary data anywhere. Without CommentLines,
// a comment's byte is refused as any other.
func TestTextCommentLines(t *testing.T) {
	const banner = "%%MatrixMarket matrix coordinate real general\n"
	for _, tc := range []struct {
		name, src, want, refusal string
		plain                    bool // read without CommentLines
	}{
		{name: "Latin-1 in a comment", src: banner + "% Universit\xe9 \xab1977\xbb\n2 2 1\n1 2 3\n", want: banner + "% Universit\ufffd \ufffd1977\ufffd\n2 2 1\n1 2 3\n"},
		{name: "an indented comment, CRLF", src: banner + " \t% caf\xe9\r\n2 2 1\r\n", want: banner + " \t% caf\ufffd\n2 2 1\n"},
		{name: "UTF-8 in a comment, as it is", src: banner + "% café\n", want: banner + "% café\n"},
		{name: "a byte-order mark in a comment", src: banner + "% a\ufeffb\n", want: banner + "% a\ufeffb\n"},
		{name: "a comment cut inside a character, at the end", src: banner + "% caf\xc3", want: banner + "% caf\ufffd"},
		{name: "Latin-1 in an entry", src: banner + "% ok\n2 2 1\n1 2 \xe9\n", refusal: "g.mtx:4:5: byte 0xE9 is not UTF-8"},
		{name: "Latin-1 in the banner", src: "%%MatrixMarket matrix r\xe9al\n", refusal: "g.mtx:1:24: byte 0xE9 is not UTF-8"},
		{name: "a % past a line's start is no comment", src: banner + "1 2 % \xe9\n", refusal: "g.mtx:2:7: byte 0xE9 is not UTF-8"},
		{name: "a byte-order mark opening a line (two files joined)", src: banner + "% x\n\ufeff" + banner, refusal: "g.mtx:3:1: a byte-order mark (U+FEFF)"},
		{name: "a NUL in a comment", src: banner + "% a\x00\n", refusal: "g.mtx:2:4: a NUL byte"},
		{name: "Latin-1 in a comment, without CommentLines", src: banner + "% caf\xe9\n", refusal: "g.mtx:2:6: byte 0xE9 is not UTF-8", plain: true},
	} {
		var outs [2]string
		var errs [2]string
		for i, r := range []io.Reader{strings.NewReader(tc.src), iotest.OneByteReader(strings.NewReader(tc.src))} {
			text, err := NewText("g.mtx", r)
			if err != nil {
				t.Fatal(err)
			}
			if !tc.plain {
				text.CommentLines('%')
			}
			b, err := text.All()
			outs[i], errs[i] = string(b), errString(err)
		}
		switch {
		case outs[0] != outs[1] || errs[0] != errs[1]:
			t.Errorf("%s: read whole %q (%s), a byte at a time %q (%s)", tc.name, outs[0], errs[0], outs[1], errs[1])
		case tc.refusal != "" && !strings.HasPrefix(errs[0], tc.refusal):
			t.Errorf("%s: %q, %s; want refused %q", tc.name, outs[0], errs[0], tc.refusal)
		case tc.refusal == "" && (errs[0] != "" || outs[0] != tc.want):
			t.Errorf("%s: %q, %s; want %q", tc.name, outs[0], errs[0], tc.want)
		}
	}
}

// Lines and bytes are counted across reads: a NUL past the first 64 KB
// is found at its line and byte, and so is a bad byte after many
// characters of two and three bytes.
func TestTextCountsAcrossReads(t *testing.T) {
	var b strings.Builder
	for range 20000 {
		b.WriteString("nœud,été\r\n")
	}
	src := b.String() + "x,ab\x00\r\n"
	_, _, err := decoded(t, []byte(src))
	if err == nil || !strings.HasPrefix(err.Error(), "labels.csv:20001:5: a NUL byte") {
		t.Errorf("%v", err)
	}
}

func gzipOf(s string) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(s))
	zw.Close()
	return b.Bytes()
}

// A .gz cut short says so, and so does one damaged, at the line reached;
// CheckGzip finds either after the fact; a bomb stops at the limit.
func TestGzip(t *testing.T) {
	var lines strings.Builder
	for i := range 30000 {
		lines.WriteString(strings.Repeat("7", i%13) + ",1\n")
	}
	whole := gzipOf(lines.String())
	flipped := bytes.Clone(whole)
	flipped[len(flipped)/2] ^= 0xff
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"whole", whole, ""},
		{"cut in half (audit 155)", whole[:len(whole)/2], "raw/edge.csv.gz:"},
		{"a byte flipped (audit 156)", flipped, "raw/edge.csv.gz"},
		{"not gzip", []byte("0,1\n"), "raw/edge.csv.gz: is not gzip data"},
	} {
		fsys := fstest.MapFS{"raw/edge.csv.gz": {Data: tc.data}}
		var err error
		if text, err2 := OpenText(fsys, "raw/edge.csv.gz", 1<<30); err2 != nil {
			err = err2
		} else {
			_, err = text.All()
		}
		check := Check(fsys, "raw/edge.csv.gz", 1<<30)
		switch {
		case tc.want == "" && (err != nil || check != nil):
			t.Errorf("%s: %v, %v", tc.name, err, check)
		case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		case strings.Contains(tc.name, "cut") && (!strings.Contains(err.Error(), "is cut short") || check == nil || !strings.Contains(check.Error(), "is cut short")):
			t.Errorf("%s: %v; check %v", tc.name, err, check)
		case strings.Contains(tc.name, "flipped") && (!strings.Contains(err.Error(), "damaged") || check == nil || !strings.Contains(check.Error(), "damaged")):
			t.Errorf("%s: %v; check %v", tc.name, err, check)
		}
	}
	fsys := fstest.MapFS{"bomb.csv.gz": {Data: gzipOf(strings.Repeat("0,0\n", 1<<16))}}
	text, err := OpenText(fsys, "bomb.csv.gz", 1<<10)
	if err == nil {
		_, err = text.All()
	}
	if err == nil || !strings.Contains(err.Error(), "inflates to more than 1,024 bytes") {
		t.Errorf("a bomb: %v", err)
	}
	if err := Check(fsys, "bomb.csv.gz", 1<<10); err != nil {
		t.Errorf("a whole bomb is no damage: %v", err)
	}
}

// An XML file is read in the encoding its mark or its declaration names,
// as ElementTree reads it; an encoding that is not read is refused.
func TestXMLEncodings(t *testing.T) {
	decl := func(enc string) string { return `<?xml version="1.0" encoding="` + enc + `"?>` + "\n" }
	for _, tc := range []struct {
		name string
		src  []byte
		want string // the text of <a>, or the refusal
		note string
	}{
		{"UTF-8", []byte(decl("utf-8") + "<a>café</a>"), "café", ""},
		{"no declaration", []byte("<a>café</a>"), "café", ""},
		{"ISO-8859-1", []byte(decl("ISO-8859-1") + "<a>caf\xe9</a>"), "café", "g.graphml: read as ISO 8859-1 text, as its XML declaration says"},
		{"latin1, CR alone", []byte(strings.ReplaceAll(decl("latin1"), "\n", "\r") + "<a>na\xefve</a>\r"), "naïve", "end in CR alone"},
		{"windows-1252", []byte(decl("windows-1252") + "<a>\x80 5</a>"), "€ 5", "Windows 1252"},
		{"cp1251", []byte(decl("cp1251") + "<a>\xcf\xf0\xe8\xe2\xe5\xf2</a>"), "Привет", "Windows 1251"},
		{"UTF-16 with its mark", utf16Of(decl("UTF-16")+"<a>über</a>", true), "über", "read as UTF-16"},
		{"UTF-16 without its mark", utf16Of(decl("UTF-16")+"<a>über</a>", true)[2:], "über", "read as UTF-16"},
		{"US-ASCII, a byte beyond it", []byte(decl("us-ascii") + "<a>caf\xe9</a>"), "g.graphml:2:7: byte 0xE9 is not US-ASCII", ""},
		{"UTF-8 declared, Latin-1 written", []byte(decl("UTF-8") + "<a>caf\xe9</a>"), "g.graphml:2:7: byte 0xE9 is not UTF-8", ""},
		{"Shift_JIS", []byte(decl("Shift_JIS") + "<a>x</a>"), "g.graphml:1: its XML declaration names the encoding Shift_JIS, which the explorer does not read", ""},
		{"UTF-16 declared, one byte each", []byte(decl("UTF-16") + "<a>x</a>"), "g.graphml:1: its XML declaration names the encoding UTF-16, but the file is not in it", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dec, text, err := OpenXML(fstest.MapFS{"g.graphml": {Data: tc.src}}, "g.graphml", 1<<20)
			var got strings.Builder
			if err == nil {
				for {
					tok, terr := dec.Token()
					if terr != nil {
						if terr != io.EOF {
							err = terr
						}
						break
					}
					if cd, ok := tok.(xml.CharData); ok {
						got.Write(cd)
					}
				}
			}
			if err != nil {
				if !strings.HasPrefix(err.Error(), tc.want) {
					t.Fatalf("%v, want %q", err, tc.want)
				}
				return
			}
			if strings.TrimSpace(got.String()) != tc.want {
				t.Errorf("read %q, want %q", got.String(), tc.want)
			}
			var notes []string
			for _, n := range text.Notes() {
				notes = append(notes, n.String())
			}
			if tc.note != "" && !strings.Contains(strings.Join(notes, "\n"), tc.note) {
				t.Errorf("notes %q, want %q", notes, tc.note)
			}
		})
	}
}

func TestShown(t *testing.T) {
	for name, want := range map[string]string{"labels.csv": "labels.csv", "labels_\xff.csv": `labels_\xff.csv`, "café.csv": "café.csv", "a\nb": `a\nb`} {
		if got := Shown(name); got != want {
			t.Errorf("Shown(%q) = %q, want %q", name, got, want)
		}
	}
}

// Gzip members joined are one text; bytes after the last member that
// open no other are refused saying where; a bzip2 file is read within
// the same limit as a gzip file, and a .tar.gz or an .xz file is refused
// naming what it is.
func TestCompressions(t *testing.T) {
	a, b := gzipOf("0,1\n"), gzipOf("1,2\n")
	bomb, err := os.ReadFile("testdata/zeros.csv.bz2") // bzip2 -9 of 65,536 lines "0,0"
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, file string
		data       []byte
		limit      int64
		want       string // a text read, or the start of the error
	}{
		{"two gzip members", "e.csv.gz", append(bytes.Clone(a), b...), 1 << 20, "0,1\n1,2\n"},
		{"gzip then garbage", "e.csv.gz", append(bytes.Clone(a), "GARBAGE"...), 1 << 20, fmt.Sprintf("e.csv.gz: has trailing bytes after the compressed data at byte %d", len(a))},
		{"gzip then zeros", "e.csv.gz", append(bytes.Clone(a), make([]byte, 512)...), 1 << 20, fmt.Sprintf("e.csv.gz: has trailing bytes after the compressed data at byte %d", len(a))},
		{"bzip2 whole", "z.csv.bz2", bomb, 1 << 20, strings.Repeat("0,0\n", 65536)},
		{"bzip2 past the limit", "z.csv.bz2", bomb, 1 << 10, "z.csv.bz2: inflates to more than 1,024 bytes"},
		{"bzip2 cut short", "z.csv.bz2", bomb[:len(bomb)-10], 1 << 20, "z.csv.bz2: is cut short, or damaged: its bzip2 data stops"},
		{"bzip2 then garbage", "z.csv.bz2", append(bytes.Clone(bomb), "GARBAGE"...), 1 << 20, "z.csv.bz2: has trailing bytes after the compressed data"},
		{"not bzip2", "z.csv.bz2", a, 1 << 20, "z.csv.bz2: is not bzip2 data"},
		{"a tar.gz", "g.tar.gz", a, 1 << 20, "g.tar.gz: is a gzipped tar archive (.tar.gz), which the explorer does not read: unpack it (tar -xzf g.tar.gz)"},
		{"an xz file", "e.csv.xz", a, 1 << 20, "e.csv.xz: is xz-compressed (.xz), which the explorer does not read: unpack it (unxz e.csv.xz)"},
	} {
		fsys := fstest.MapFS{tc.file: {Data: tc.data}}
		var got []byte
		text, err := OpenText(fsys, tc.file, tc.limit)
		if err == nil {
			got, err = text.All()
		}
		switch {
		case err != nil && (!strings.HasPrefix(err.Error(), tc.file+":") || !strings.Contains(err.Error(), strings.TrimPrefix(tc.want, tc.file+": "))):
			t.Errorf("%s: %v; want %q", tc.name, err, tc.want) // at the line reached, in a text
		case err == nil && string(got) != tc.want:
			t.Errorf("%s: read %.40q; want %.40q", tc.name, got, tc.want)
		}
		if strings.Contains(tc.name, "garbage") || strings.Contains(tc.name, "cut") {
			if check := Check(fsys, tc.file, tc.limit); check == nil || !strings.HasPrefix(check.Error(), tc.want) {
				t.Errorf("%s: Check says %v; want %q", tc.name, check, tc.want)
			}
		}
	}
	if got, want := Plain("edges.csv.bz2"), "edges.csv"; got != want {
		t.Errorf("Plain: %q", got)
	}
	if Compressed("g.tar.gz") != "" || Compressed("e.csv.GZ") != ".gz" {
		t.Errorf("Compressed: a tar.gz is an archive, .GZ is gzip")
	}
}

// A character beyond ASCII where JSON wants a value or a separator is
// named by its code point and name, at its line and column, never as
// the first of its bytes (encoding/json's 'Â').
func TestJSONNamesTheCharacter(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"a no-break space", "{\"0\": [1],\u00a0\"1\": [2]}", "f.json:1:11: the character U+00A0 (no-break space) is not JSON here (looking for beginning of object key string)"},
		{"a typographic quote", "{\n\u201c0\u201d: [1]}", "f.json:2:1: the character U+201C (left double quotation mark) is not JSON here"},
		{"a letter", "[1, é]", "f.json:1:5: the character U+00E9 (é) is not JSON here (looking for beginning of value)"},
	} {
		var v any
		err := JSON("f.json", []byte(tc.text), &v)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || strings.Contains(err.Error(), "Â") {
			t.Errorf("%s: %v; want %q", tc.name, err, tc.want)
		}
	}
}

// A name longer than a message can show is cut in its middle, on a
// character's boundary, keeping its start and its end.
func TestAbbreviated(t *testing.T) {
	long := strings.Repeat("é", 100) + "/labels.csv"
	for _, c := range []struct{ name, want string }{
		{"labels.csv", "labels.csv"},
		{strings.Repeat("a", 120), strings.Repeat("a", 120)},
		{strings.Repeat("a", 200), strings.Repeat("a", 80) + "…" + strings.Repeat("a", 30)},
		{long, strings.Repeat("é", 40) + "…" + strings.Repeat("é", 9) + "/labels.csv"},
		{strings.Repeat("\xf2", 3000), strings.Repeat("\xf2", 80) + "…" + strings.Repeat("\xf2", 30)},
	} {
		if got := Abbreviated(c.name); got != c.want {
			t.Errorf("Abbreviated(%.40q…) = %q, want %q", c.name, got, c.want)
		}
	}
}

// A file missing beside its compressed self is said so, whichever
// compression; one missing alone is missing, in the catalogue's words.
func TestMissingBesideItsPackedSelf(t *testing.T) {
	for _, tc := range []struct {
		files map[string]string
		want  string
	}{
		{map[string]string{"edges.csv.gz": "x"}, "edges.csv: missing, and edges.csv.gz is there: this format reads edges.csv by that name, as plain text, as its publisher's reader does: unpack it first"},
		{map[string]string{"edges.csv.bz2": "x"}, "edges.csv: missing, and edges.csv.bz2 is there"},
		{map[string]string{"nodes.csv": "x"}, "edges.csv: cannot open: missing"},
	} {
		fsys := fstest.MapFS{}
		for name, body := range tc.files {
			fsys[name] = &fstest.MapFile{Data: []byte(body)}
		}
		_, err := OpenText(fsys, "edges.csv", 1<<20)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%v: %v; want %q", tc.files, err, tc.want)
		}
	}
}
