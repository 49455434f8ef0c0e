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

	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/numtext"
)

// Gunzip inflates src, the bytes of the gzip file named file, failing
// with an *Error once it gives more than limit bytes, and saying so by
// name when the stream is cut short (an interrupted download), damaged
// (it fails its CRC, or holds invalid deflate data) or followed by bytes
// that are no gzip member (at which byte). Members joined one after
// another (cat a.gz b.gz) are one text, as gzip -d reads them.
func Gunzip(file string, src io.Reader, limit int64) (io.Reader, error) {
	counted := &counter{r: src}
	br := bufio.NewReader(counted)
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
	zr.Multistream(false)
	members := &members{file: file, zr: zr, br: br, counted: counted}
	return &inflated{file: file, r: members, left: limit, limit: limit, damage: gzipDamage}, nil
}

// gzipMagic opens every gzip stream.
var gzipMagic = []byte{0x1f, 0x8b}

// counter counts the bytes read through it.
type counter struct {
	r io.Reader
	n int64
}

func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// members reads a gzip file's members one after another, and fails on
// bytes after a member's end that open no other: gzip's own reader takes
// them for a header cut short ("cut short") or says nothing of where.
type members struct {
	file    string
	zr      *gzip.Reader
	br      *bufio.Reader
	counted *counter
}

func (m *members) Read(p []byte) (int, error) {
	for {
		n, err := m.zr.Read(p)
		if err != io.EOF {
			return n, err
		}
		next, _ := m.br.Peek(2)
		switch {
		case len(next) == 0:
			return n, io.EOF
		case !bytes.Equal(next, gzipMagic):
			at := m.counted.n - int64(m.br.Buffered())
			return n, &Error{File: m.file, Err: errTrailing, Msg: phrase.New("has trailing bytes after the compressed data at byte %s: bytes that are no gzip data follow its gzip stream (two files joined, or padding?): download or compress it again", numtext.Group(int(at)))}
		}
		if err := m.zr.Reset(m.br); err != nil {
			return n, err
		}
		m.zr.Multistream(false)
		if n > 0 {
			return n, nil
		}
	}
}

// inflated is a compressed stream's text, within a limit, its failures
// said (damage: what the stream's own errors tell of it).
type inflated struct {
	file        string
	r           io.Reader
	left, limit int64
	damage      func(file string, err error) *Error
}

func (g *inflated) Read(p []byte) (int, error) {
	if g.left <= 0 {
		var one [1]byte
		n, err := g.r.Read(one[:])
		if n == 0 && err == io.EOF {
			return 0, io.EOF // exactly the limit
		}
		if n == 0 && err != nil {
			return 0, g.fail(err)
		}
		return 0, &Error{File: g.file, Msg: phrase.New("inflates to more than %s, more than the explorer opens here", phrase.Bytes(min(g.limit, 1<<62)))}
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

func (g *inflated) fail(err error) error {
	var ie *Error
	if errors.As(err, &ie) {
		return err // said already (a zip's file, trailing bytes)
	}
	if damaged := g.damage(g.file, err); damaged != nil {
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
	gz := Compressed(name) != ""
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
	zr, err := Inflate(name, f, limit)
	if err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return err // cut short within its header
		}
		return nil // not gzip at all, as its reader said
	}
	if _, err := io.Copy(io.Discard, zr); err != nil {
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
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) ||
		errors.Is(err, errTrailing) || errors.Is(err, errDamaged))
}
