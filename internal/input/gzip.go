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

// CheckGzip inflates the gzip file name in fsys to its end, up to limit
// bytes, and returns the *Error saying it is cut short or damaged, if it
// is; nil if it is whole (or too large to tell within limit). A reader
// that met anything wrong in a .gz file asks it first: the value a damaged
// stream gave is garbage, and the damage is what to report.
func CheckGzip(fsys fs.FS, name string, limit int64) error {
	f, err := Open(fsys, name)
	if err != nil {
		return nil
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return gzipDamage(name, err)
		}
		return nil // not gzip at all, as its reader said
	}
	if _, err := io.Copy(io.Discard, io.LimitReader(zr, limit)); err != nil {
		if damaged := gzipDamage(name, err); damaged != nil {
			return damaged
		}
	}
	return nil
}

// Unzip reads the file zf of the zip archive named archive, no more than
// limit bytes whatever its header says, and names it when it is damaged
// (fails its checksum, holds invalid deflate data, is cut short).
func Unzip(archive string, zf *zip.File, limit int64) ([]byte, error) {
	rc, err := zf.Open()
	if err != nil {
		return nil, &Error{File: archive, Err: err, Msg: phrase.New("cannot unpack its file %s: %s", Shown(zf.Name), err.Error())}
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, limit+1))
	var corrupt flate.CorruptInputError
	switch {
	case errors.Is(err, zip.ErrChecksum):
		return nil, &Error{File: archive, Err: err, Msg: phrase.New("its file %s is damaged: it fails its checksum (CRC-32): zip it again, or download it again", Shown(zf.Name))}
	case errors.As(err, &corrupt) || errors.Is(err, io.ErrUnexpectedEOF):
		return nil, &Error{File: archive, Err: err, Msg: phrase.New("its file %s is damaged: its compressed data is invalid or cut short: zip it again, or download it again", Shown(zf.Name))}
	case err != nil:
		return nil, &Error{File: archive, Err: err, Msg: phrase.New("cannot unpack its file %s: %s", Shown(zf.Name), err.Error())}
	case int64(len(b)) > limit:
		return nil, &Error{File: archive, Msg: phrase.New("cannot unpack its file %s: it unpacks to more than %s bytes", Shown(zf.Name), numtext.Group(int(min(limit, 1<<62))))}
	}
	return b, nil
}
