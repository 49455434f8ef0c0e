package input

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/fstest"
	"testing/iotest"
	"unicode/utf8"
)

// FuzzText: whatever the bytes, the decoder gives UTF-8 text whose lines
// end in LF alone, with no NUL, the same whole or a byte at a time, or an
// *Error at a line; text that is UTF-8 already, without a byte-order
// mark, comes out as it went in, its line ends made LF.
func FuzzText(f *testing.F) {
	for _, s := range []string{"id,class\n0,café\n", "\ufeffa\r\nb\rc", "caf\xe9\n", "a\x00b", "\xff\xfea\x00\n\x00", "\xfe\xff\x00a\xd8\x00", "\xe2\x82", "a\n\xc3"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		var outs [2]string
		var errs [2]string
		for i, r := range []io.Reader{bytes.NewReader(src), iotest.OneByteReader(bytes.NewReader(src))} {
			text, err := NewText("f.csv", r)
			var b []byte
			if err == nil {
				b, err = text.All()
			}
			var ie *Error
			if err != nil && (!errors.As(err, &ie) || ie.Line < 1) {
				t.Fatalf("%q: %v is no *Error at a line", src, err)
			}
			if err != nil {
				errs[i] = err.Error()
			}
			outs[i] = string(b)
		}
		if outs[0] != outs[1] || errs[0] != errs[1] {
			t.Fatalf("%q: whole %q %s, a byte at a time %q %s", src, outs[0], errs[0], outs[1], errs[1])
		}
		if !utf8.ValidString(outs[0]) || strings.ContainsAny(outs[0], "\r\x00") {
			t.Fatalf("%q gave %q", src, outs[0])
		}
		plain := utf8.Valid(src) && !bytes.ContainsRune(src, 0) && !bytes.ContainsRune(src, '\ufeff') && !looksUTF16(src[:min(len(src), 4096)])
		if want := strings.ReplaceAll(strings.ReplaceAll(string(src), "\r\n", "\n"), "\r", "\n"); plain && (errs[0] != "" || outs[0] != want) {
			t.Fatalf("%q: gave %q %s, want %q", src, outs[0], errs[0], want)
		}
	})
}

// FuzzXML: whatever the bytes, an XML file's decoder ends, with tokens
// or an error, never a panic.
func FuzzXML(f *testing.F) {
	for _, s := range []string{`<?xml version="1.0" encoding="ISO-8859-1"?><a>caf` + "\xe9</a>", `<?xml version='1.0' encoding='Shift_JIS'?><a/>`, "<\x00?\x00x\x00", "\ufeff<a>b</a>", `<?xml encoding="us-ascii"?><a>` + "\x80</a>"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		dec, _, err := OpenXML(fstest.MapFS{"g.graphml": {Data: src}}, "g.graphml", 1<<20)
		if err != nil {
			return
		}
		for range 100000 {
			if _, err := dec.Token(); err != nil {
				return
			}
		}
	})
}
