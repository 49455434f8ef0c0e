package datasets

import (
	"encoding/xml"
	"errors"
	"io"
	"io/fs"
	"strings"

	"pdnexplorer/internal/input"
)

// Every file a reader reads comes through this file, and through package
// input beneath it (a test over the source checks it): what a file is
// (a pipe, a device, a link loop or a name that is not UTF-8 are refused
// unread), its text (UTF-8 with or without its mark, UTF-16 with its mark,
// GraphML's declared encoding; any other byte refused at file:line:byte),
// its line ends (LF, CRLF or CR alone), a .gz inflated within the limits
// of where it is read and a damaged or cut one said so.

// reading is one Open of a graph: the texts its readers opened, so that a
// failure is checked against damage in any .gz among them, and the graph
// gets the notes their text gave (read as UTF-16, lines ending in CR).
type reading struct {
	opened []openedText
}

type openedText struct {
	fsys fs.FS
	name string      // as fsys has it
	text *input.Text // nil for a binary file (a .npz)
}

// readingFS is a folder being read by one Open.
type readingFS struct {
	input.FS
	r *reading
}

func (f readingFS) limits() limits    { return limitsOf(f.FS.FS) }
func (f readingFS) session() *reading { return f.r }

// sessioned is a folder that is part of a reading (readingFS, and the
// folders that wrap one, as flatOGB).
type sessioned interface{ session() *reading }

// sessionOf is the reading fsys is part of; nil if none.
func sessionOf(fsys fs.FS) *reading {
	if s, ok := fsys.(sessioned); ok {
		return s.session()
	}
	return nil
}

// within reads fsys with read as one reading, unless it is part of one
// already: a failure is first checked against damage in the .gz files
// read (the damage is reported, not the garbage value it gave), and the
// graph read gets the notes of its files' text.
func within(fsys fs.FS, read func(fs.FS) (*Graph, bool, error)) (*Graph, bool, error) {
	g, resplit, _, err := readOnce(fsys, read)
	return g, resplit, err
}

// readOnce is within, that also gives the names of the files read, as
// fsys names them (nil where fsys was part of a reading already).
func readOnce(fsys fs.FS, read func(fs.FS) (*Graph, bool, error)) (*Graph, bool, []string, error) {
	if sessionOf(fsys) != nil {
		g, resplit, err := read(fsys)
		return g, resplit, nil, err
	}
	r := &reading{}
	g, resplit, err := read(readingFS{input.FS{FS: fsys}, r})
	if err != nil {
		return nil, false, nil, r.damageOr(err)
	}
	var names []string
	for _, o := range r.opened {
		if o.text != nil {
			g.Notes = append(g.Notes, o.text.Notes()...)
		}
		names = append(names, o.name)
	}
	return g, resplit, names, nil
}

// damageOr is the first damage found in the compressed files read (a
// .gz file, a zip's file), else err.
func (r *reading) damageOr(err error) error {
	for _, o := range r.opened {
		if damage := input.Check(o.fsys, o.name, limitsOf(o.fsys).gunzip); damage != nil {
			return located(damage)
		}
	}
	return err
}

// openInput opens the text of name in fsys through the one decoder,
// inflating a .gz within the folder's limits.
func openInput(fsys fs.FS, name string) (*input.Text, error) {
	t, err := input.OpenText(fsys, name, limitsOf(fsys).gunzip)
	if err != nil {
		return nil, located(err)
	}
	opened(fsys, name, t)
	return t, nil
}

// opened keeps a text opened in a reading.
func opened(fsys fs.FS, name string, t *input.Text) {
	if r := sessionOf(fsys); r != nil {
		r.opened = append(r.opened, openedText{fsys, name, t})
	}
}

// readInput reads the whole text of name in fsys (a JSON file), held in
// memory within the folder's limit.
func readInput(fsys fs.FS, name string) ([]byte, error) {
	t, err := openInput(fsys, name)
	if err != nil {
		return nil, err
	}
	defer t.Close()
	b, err := t.AllWithin(limitsOf(fsys).held)
	return b, located(err)
}

// readJSON reads the JSON file name in fsys into v through the one check
// of JSON (input.JSON: a key given twice in an object, at any depth, is
// refused at its line). It gives the text, for a message that places an
// error of encoding/json (jsonAt), and that error as it is.
func readJSON(fsys fs.FS, name string, v any) ([]byte, error) {
	b, err := readInput(fsys, name)
	if err != nil {
		return nil, err
	}
	return b, located(input.JSON(name, b, v))
}

// openXMLInput opens the XML file name in fsys through the one decoder,
// in the encoding it declares.
func openXMLInput(fsys fs.FS, name string) (*xml.Decoder, *input.Text, error) {
	dec, t, err := input.OpenXML(fsys, name, limitsOf(fsys).gunzip)
	if err != nil {
		return nil, nil, located(err)
	}
	opened(fsys, name, t)
	return dec, t, nil
}

// readBytes reads name in fsys whole as bytes (a zip archive), refusing
// more than limit.
func readBytes(fsys fs.FS, name string, limit int64) ([]byte, error) {
	b, err := input.ReadFile(fsys, name, limit)
	return b, located(err)
}

// readBinary reads the binary file name in fsys (a .npz) whole, within
// the folder's limit of what is held, as a file of the reading.
func readBinary(fsys fs.FS, name string) ([]byte, error) {
	b, err := readBytes(fsys, name, limitsOf(fsys).held)
	if err == nil {
		if r := sessionOf(fsys); r != nil {
			r.opened = append(r.opened, openedText{fsys: fsys, name: name})
		}
	}
	return b, err
}

// located is err as a *BundleError when package input made it (so that
// every reader's error names its file the same way); err otherwise.
func located(err error) error {
	var ie *input.Error
	if !errors.As(err, &ie) {
		return err
	}
	return &BundleError{File: ie.File, Line: ie.Line, Col: ie.Col, Msg: ie.Msg, Err: ie}
}

// isInputError says err is about a file itself (what it is, its bytes,
// its compression), not about what it holds.
func isInputError(err error) bool {
	var ie *input.Error
	return errors.As(err, &ie)
}

// fileNames lists the entries at the root of fsys that readers take for
// files, sorted: the files (pipes, devices and links that lead nowhere
// among them, refused when read), and the folders named as a file is
// (labels.csv/), refused by name when read, but no link to a folder.
func fileNames(fsys fs.FS) []string {
	entries, _ := input.Entries(fsys, ".")
	var out []string
	for _, e := range entries {
		if !e.Dir || namedAsFile(e.Name) {
			out = append(out, e.Name)
		}
	}
	return out
}

// namedAsFile says a name ends as a reader's file does.
func namedAsFile(name string) bool {
	ext := strings.ToLower(name)
	ext = ext[strings.LastIndexByte(ext, '.')+1:]
	if ext == strings.ToLower(name) {
		return false
	}
	switch "." + ext {
	case ".json", ".gz", ".bz2", ".zip":
		return true
	}
	if namedByARow("." + ext) {
		return true
	}
	for _, e := range tableExts {
		if e != "" && "."+ext == e {
			return true
		}
	}
	return false
}

// peekInput is the first n bytes of the text of name in fsys (fewer if it
// is shorter), through the one decoder: a look at a file before it is
// read (which format it is), not part of a reading.
func peekInput(fsys fs.FS, name string, n int) ([]byte, error) {
	t, err := input.OpenText(fsys, name, limitsOf(fsys).gunzip)
	if err != nil {
		return nil, located(err)
	}
	defer t.Close()
	b := make([]byte, n)
	got := 0
	for got < n {
		k, err := t.Read(b[got:])
		got += k
		if err != nil {
			if got > 0 && errors.Is(err, io.EOF) {
				break
			}
			return b[:got], located(err)
		}
	}
	return b[:got], nil
}
