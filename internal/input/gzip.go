package input

import (
	"archive/zip"
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"errors"
	"io"
	"io/fs"
	"strings"

	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/numtext"
)

// Gunzip inflates src, the bytes of the gzip file named file, failing
// with an *Error once it gives more than limit bytes, and saying so by
// name when the stream is cut short (an interrupted download) or damaged
// (it fails its CRC, or holds invalid deflate data).
func Gunzip(file string, src io.Reader, limit int64) (io.Reader, error) {
	br := bufio.NewReader(src)
	if magic, _ := br.Peek(2); !bytes.Equal(magic, gzipMagic) {
		return nil, &Error{File: file, Err: gzip.ErrHeader, Msg: phrase.New("is not gzip data the explorer can read: %s", gzip.ErrHeader.Error())}
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, gzipDamage(file, err)
		}
		return nil, &Error{File: file, Err: err, Msg: phrase.New("is not gzip data the explorer can read: %s", err.Error())}
	}
	return &gunzipped{file: file, r: zr, left: limit, limit: limit}, nil
}

// gzipMagic opens every gzip stream.
var gzipMagic = []byte{0x1f, 0x8b}

// gunzipped is a gzip stream's text, within a limit, its failures said.
type gunzipped struct {
	file        string
	r           io.Reader
	left, limit int64
}

func (g *gunzipped) Read(p []byte) (int, error) {
	if g.left <= 0 {
		var one [1]byte
		n, err := g.r.Read(one[:])
		if n == 0 && err == io.EOF {
			return 0, io.EOF // exactly the limit
		}
		if n == 0 && err != nil {
			return 0, g.fail(err)
		}
		return 0, &Error{File: g.file, Msg: phrase.New("inflates to more than %s bytes, more than the explorer opens here", numtext.Group(int(min(g.limit, 1<<62))))}
	}
	if int64(len(p)) > g.left {
		p = p[:g.left]
	}
	n, err := g.r.Read(p)
	g.left -= int64(n)
	if err != nil && err != io.EOF {
		err = g.fail(err)
	}
	return n, err
}

func (g *gunzipped) fail(err error) error {
	var ie *Error
	if errors.As(err, &ie) {
		return err // the bytes beneath said it already (a zip's file)
	}
	if damaged := gzipDamage(g.file, err); damaged != nil {
		return damaged
	}
	return openError(g.file, err)
}

// gzipDamage says what err, met inflating file, tells of the file: cut
// short or damaged; nil if it tells neither.
func gzipDamage(file string, err error) *Error {
	var corrupt flate.CorruptInputError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return &Error{File: file, Err: err, Msg: phrase.New("is cut short, or damaged: its gzip data stops before its stream ends (an interrupted download?): download or compress it again")}
	case errors.Is(err, gzip.ErrChecksum):
		return &Error{File: file, Err: err, Msg: phrase.New("is damaged: its gzip data fails its checksum (CRC-32), so what it inflates to is not what was compressed: download or compress it again")}
	case errors.As(err, &corrupt):
		return &Error{File: file, Err: err, Msg: phrase.New("is damaged: its gzip data holds invalid deflate data (near byte %s of its compressed data): download or compress it again", numtext.Group(int(corrupt)))}
	case errors.Is(err, gzip.ErrHeader):
		return &Error{File: file, Err: err, Msg: phrase.New("is damaged: bytes that are not gzip data follow its gzip stream: download or compress it again")}
	}
	return nil
}

// Check reads the file name in fsys to its end, inflating it if its
// name ends in .gz, up to limit bytes, and returns the *Error saying it is
// cut short or damaged, if it is: a .gz file, or a zip archive's file
// (ZipFS), whose damage only its end may show (a checksum). nil if it is
// whole, too large to tell within limit, or no compressed file at all. A
// reader that met anything wrong asks it of the files it read first: the
// value a damaged stream gave is garbage, and the damage is what to
// report.
func Check(fsys fs.FS, name string, limit int64) error {
	f, err := Open(fsys, name)
	if err != nil {
		return nil
	}
	defer func() { f.Close() }() // the file last opened
	_, inZip := f.(*zipFile)
	gz := strings.HasSuffix(name, ".gz")
	if inZip { // the zip's own check first: a .gz it damaged fails its own too
		if _, err := io.Copy(io.Discard, io.LimitReader(f, limit)); err != nil {
			return damageOf(name, err)
		}
		if !gz {
			return nil
		}
		f.Close()
		if f, err = Open(fsys, name); err != nil {
			return nil
		}
	}
	if !gz {
		return nil // a file on disk or in memory: what it holds is what it is
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || asDamage(err) != nil {
			return damageOf(name, err)
		}
		return nil // not gzip at all, as its reader said
	}
	if _, err := io.Copy(io.Discard, io.LimitReader(zr, limit)); err != nil {
		return damageOf(name, err)
	}
	return nil
}

// damageOf is the *Error saying what err, met inflating the file name,
// tells of its damage; nil if it tells none.
func damageOf(name string, err error) error {
	if damaged := asDamage(err); damaged != nil {
		return damaged
	}
	var ie *Error
	if errors.As(err, &ie) {
		return nil // too large, say: not damage
	}
	if damaged := gzipDamage(name, err); damaged != nil {
		return damaged
	}
	return nil
}

// asDamage is err if it is an *Error saying a file is damaged; nil if
// it says anything else (too large, say).
func asDamage(err error) error {
	var ie *Error
	if errors.As(err, &ie) && isDamage(ie.Err) {
		return ie
	}
	return nil
}

// isDamage reports whether err, met inflating a file, says it is damaged
// or cut short.
func isDamage(err error) bool {
	var corrupt flate.CorruptInputError
	return err != nil && (errors.Is(err, zip.ErrChecksum) || errors.Is(err, zip.ErrFormat) || errors.As(err, &corrupt) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader))
}
