package datasets

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"io/fs"
	"math"
	"pdnexplorer/internal/pagemem"
	"slices"
	"strconv"
	"strings"

	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/input"
	"pdnexplorer/internal/numtext"
)

// table reads one delimited text file row by row, keeping track of where
// it is: CSV (a comma, a semicolon or a tab between fields, quotes as
// RFC 4180 has them) or fields apart by runs of spaces, as edge lists and
// Planetoid's .content files are written. A file ending in .gz is
// inflated on the way, up to the limit of the folder it is in.
type table struct {
	file    string
	r       *csv.Reader // nil for fields apart by spaces
	words   *bufio.Scanner
	starts  []int // the byte column of each field of the row, for words
	closer  io.Closer
	header  []string
	named   bool     // the header came from the file, not made up
	headAt  int      // the line of the header, when named, else of the first row
	pending []string // the first row, read to tell a header, not yet given
	line    int      // the line of the current row, as an editor counts
	// blank is the first empty line skipped before the current row (0 if
	// none), as csv and pandas skip one: a reader whose lines are values
	// in order refuses it (readRows).
	blank int
	end   int // the line the previous row ended on
}

// openTable opens a CSV file whose first line is its header.
func openTable(fsys fs.FS, name string) (*table, error) {
	t, err := openText(fsys, name, ',')
	if err != nil {
		return nil, err
	}
	h, err := t.next()
	if err == io.EOF {
		t.closer.Close()
		return nil, &BundleError{File: name, Line: 1, Msg: phrase.New("empty file, want a header")}
	}
	if err != nil {
		t.closer.Close()
		return nil, err
	}
	t.header, t.named, t.headAt = append([]string(nil), h...), true, t.line
	if err := t.eachColumnOnce(); err != nil {
		t.closer.Close()
		return nil, err
	}
	return t, nil
}

// eachColumnOnce refuses a header that names a column twice: which of
// the two a reader (or -target) takes could not be told. Columns without
// a name (a spreadsheet's empty trailing ones) are named by their number.
func (t *table) eachColumnOnce() error {
	first := map[string]int{}
	for c, name := range t.header {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		if was, twice := first[name]; twice {
			return &BundleError{File: t.file, Line: t.headAt, Column: name, Msg: phrase.New("is named twice in the header (columns %d and %d): which one is meant cannot be told: rename one, and open it again", was+1, c+1)}
		}
		first[name] = c
	}
	return nil
}

// sniffed is the separator openText looks for: the one in the first line
// among tab, comma and semicolon, else runs of spaces.
const sniffed = 0

// openData opens a text table whose separator and header openData finds:
// the header is the first row if isHeader says so, else the columns are
// named 1, 2, … and the first row is data.
func openData(fsys fs.FS, name string, isHeader func(first []string) bool) (*table, error) {
	t, err := openText(fsys, name, sniffed)
	if err != nil {
		return nil, err
	}
	first, err := t.next()
	if err == io.EOF {
		t.closer.Close()
		return nil, &BundleError{File: name, Msg: phrase.New("empty file")}
	}
	if err != nil {
		t.closer.Close()
		return nil, err
	}
	first = append([]string(nil), first...)
	if isHeader(first) {
		t.header, t.named, t.headAt = first, true, t.line
		if err := t.eachColumnOnce(); err != nil {
			t.closer.Close()
			return nil, err
		}
		return t, nil
	}
	t.header = make([]string, len(first))
	for i := range first {
		t.header[i] = strconv.Itoa(i + 1)
	}
	t.pending, t.headAt = first, t.line
	return t, nil
}

// openText opens name for reading rows apart by sep (sniffed: found from
// its first line), its text read through the one decoder (openInput):
// UTF-8 or UTF-16 with its mark, any line ends, a .gz inflated.
func openText(fsys fs.FS, name string, sep rune) (*table, error) {
	text, err := openInput(fsys, name)
	if err != nil {
		return nil, err
	}
	br := bufio.NewReaderSize(text, 1<<16)
	head, _ := br.Peek(4096) // a fault in it is met again, at its line, as the rows are read
	t := &table{file: name, closer: text}
	if sep == sniffed {
		sep = separator(name, head)
	}
	if sep == ' ' {
		t.words = bufio.NewScanner(br)
		t.words.Buffer(make([]byte, 0, 1<<16), maxLine)
		return t, nil
	}
	t.r = csv.NewReader(newRowCap(name, br)) // a row's bytes within maxLine
	t.r.Comma = sep
	t.r.Comment = '#' // SNAP's and NetworkX's edge lists open with # lines
	t.r.FieldsPerRecord = -1
	t.r.ReuseRecord = true
	return t, nil
}

// maxLine bounds a row of a table (a line, or a quoted cell's lines):
// a file without line breaks, or a cell of gigabytes inflated from a few
// megabytes of .gz, is refused at its row, not held in memory whole.
const maxLine = 16 << 20

// rowCap reads a table's bytes for the CSV reader, failing at its line
// once a row (a line, or the lines of a quoted cell) takes more than
// maxLine bytes: blank lines, which the CSV reader skips, are rows of
// their own. A '"' opens and closes a quoted cell, but on a comment line.
// A line opening with '%' is given to the CSV reader as one opening with
// '#', its comment: a comment whatever the separator.
type rowCap struct {
	file      string
	r         io.Reader
	row       int  // bytes of the row so far
	line, at  int  // the line being read; the line the row began on
	quoted    bool // inside a quoted cell
	comment   bool // on a comment line
	lineStart bool // the next byte begins a line
}

func newRowCap(file string, r io.Reader) *rowCap {
	return &rowCap{file: file, r: r, line: 1, at: 1, lineStart: true}
}

func (c *rowCap) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	for i, b := range p[:n] {
		if c.lineStart {
			if b == '%' && !c.quoted {
				// KONECT's comment (isComment), which the separator and a
				// table of words skip: the CSV reader's one comment is '#'.
				p[i], b = '#', '#'
			}
			c.comment, c.lineStart = !c.quoted && b == '#', false
		}
		switch {
		case b == '\n':
			c.line++
			c.lineStart = true
			if !c.quoted {
				c.row, c.at = 0, c.line
				continue
			}
		case b == '"' && !c.comment:
			c.quoted = !c.quoted
		}
		if c.row++; c.row > maxLine {
			return 0, &input.Error{File: c.file, Line: c.at, Msg: tooLongRowMsg()}
		}
	}
	return n, err
}

// tooLongRow is the error of a row longer than maxLine at line.
func tooLongRow(file string, line int) error {
	return &BundleError{File: file, Line: line, Msg: tooLongRowMsg()}
}

func tooLongRowMsg() phrase.Text {
	return phrase.New("a line longer than %s: is this a table?", phrase.Bytes(maxLine))
}

// isComment says a line is a comment, as SNAP's edge lists (# lines,
// which NetworkX's readers skip too) and KONECT's (%) open with.
func isComment(line string) bool {
	line = strings.TrimLeft(line, " \t")
	return strings.HasPrefix(line, "#") || strings.HasPrefix(line, "%")
}

// separator is the separator a file's first line that is not a comment
// uses: a tab for .tsv files or a line with one, else a comma, a
// semicolon, runs of spaces.
func separator(name string, head []byte) rune {
	var line []byte
	for rest := head; len(rest) > 0; {
		line, rest, _ = bytes.Cut(rest, []byte("\n"))
		if !isComment(string(line)) {
			break
		}
	}
	switch {
	case strings.HasSuffix(input.Plain(name), ".tsv") || bytes.IndexByte(line, '\t') >= 0:
		return '\t'
	case bytes.IndexByte(line, ',') >= 0:
		return ','
	case bytes.IndexByte(line, ';') >= 0:
		return ';'
	}
	return ' '
}

// nativeGunzipLimit bounds a .gz file's text on the command line: more
// than any graph the explorer trains.
const nativeGunzipLimit = 16 << 30

// nativeHeld bounds a file the command line holds whole in memory to
// read it (a zip archive, a GraphML file named alone, a JSON file): well
// below a laptop's memory, above any graph the explorer trains.
const nativeHeld = 2 << 30

// nativeLimits bound what the command line unpacks: a .gz file, or a
// zip's, inflated as it streams up to nativeGunzipLimit, what is held
// whole up to nativeHeld; what reading holds as the page's do, for the
// command line's memory (readingLimits). Its edges and items are not
// counted: the graph is held compact, and the items' bytes are.
var nativeLimits = readingLimits(pagemem.NativeBytes, limits{bytes: 1 << 40, gunzip: nativeGunzipLimit, held: nativeHeld, edges: math.MaxInt, elements: math.MaxInt, where: phrase.New("the command line"), last: true})

// next returns the next row, or io.EOF. A row of another width than the
// header is an error at its line.
func (t *table) next() ([]string, error) {
	if t.pending != nil {
		row := t.pending
		t.pending = nil
		return row, nil
	}
	row, err := t.read()
	if err != nil {
		return nil, err
	}
	if t.named && slices.EqualFunc(row, t.header, func(a, b string) bool { return strings.TrimSpace(a) == strings.TrimSpace(b) }) {
		return nil, &BundleError{File: t.file, Line: t.line, Msg: phrase.New("this row repeats the header (line %d): were two files joined into one? Delete it (and see that the rows after it belong here), save it, and open it again", t.headAt)}
	}
	if t.header != nil && len(row) != len(t.header) {
		return nil, &BundleError{File: t.file, Line: t.line, Msg: t.widthMsg(len(row))}
	}
	return row, nil
}

// widthMsg says a row of n values is not as wide as the header, or, in
// a table without one (OGB's files, an edge list of ids alone), as the
// first row, at its line: a file without a header is never said to have
// one.
func (t *table) widthMsg(n int) phrase.Text {
	switch {
	case t.named && n > len(t.header):
		return phrase.New("extra column: %d values, the header has %d", n, len(t.header))
	case t.named:
		return phrase.New("missing column: %d values, the header has %d", n, len(t.header))
	case n > len(t.header):
		return phrase.New("extra column: %d values, and the first row (line %d) has %d", n, t.headAt, len(t.header))
	}
	return phrase.New("missing column: %d values, and the first row (line %d) has %d", n, t.headAt, len(t.header))
}

// read reads one row as the file's separator has it.
func (t *table) read() ([]string, error) {
	t.blank = 0
	if t.words != nil {
		return t.readWords()
	}
	row, err := t.r.Read()
	if err == io.EOF {
		return nil, io.EOF
	}
	if err != nil {
		var pe *csv.ParseError
		if isInputError(err) {
			return nil, located(err)
		}
		if errors.As(err, &pe) {
			if pe.Err == csv.ErrFieldCount || pe.Err == csv.ErrQuote || pe.Err == csv.ErrBareQuote {
				return nil, &BundleError{File: t.file, Line: pe.Line, Col: pe.Column, Msg: phrase.Of(pe.Err)}
			}
			return nil, &BundleError{File: t.file, Line: pe.Line, Msg: phrase.Of(pe.Err)}
		}
		return nil, &BundleError{File: t.file, Line: t.line + 1, Msg: phrase.Of(err)}
	}
	t.line, _ = t.r.FieldPos(0)
	if t.line > t.end+1 {
		t.blank = t.end + 1 // csv skips empty lines (and # comments)
	}
	t.end, _ = t.r.FieldPos(len(row) - 1)
	return row, nil
}

// readWords reads the next line that is not blank as fields apart by
// runs of spaces, a comment after them left out.
func (t *table) readWords() ([]string, error) {
	for t.words.Scan() {
		t.line++
		text := t.words.Text()
		if isComment(text) {
			continue
		}
		// A comment after the fields, as NetworkX's read_edgelist cuts a
		// line at its first # (1 2 # a note).
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		row, starts := []string{}, t.starts[:0]
		for i := 0; i < len(text); {
			for i < len(text) && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r') {
				i++
			}
			j := i
			for j < len(text) && text[j] != ' ' && text[j] != '\t' && text[j] != '\r' {
				j++
			}
			if j > i {
				row, starts = append(row, text[i:j]), append(starts, i+1)
			}
			i = j
		}
		t.starts = starts
		if len(row) > 0 {
			return row, nil
		}
		if t.blank == 0 {
			t.blank = t.line
		}
	}
	if err := t.words.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, tooLongRow(t.file, t.line+1)
		}
		var be *BundleError
		if errors.As(err, &be) {
			return nil, err
		}
		if isInputError(err) {
			return nil, located(err)
		}
		return nil, &BundleError{File: t.file, Line: t.line + 1, Msg: phrase.Of(err)}
	}
	return nil, io.EOF
}

// fieldPos is the line and byte column where the current row's field col
// starts.
func (t *table) fieldPos(col int) (line, column int) {
	if t.words != nil {
		if col < len(t.starts) {
			return t.line, t.starts[col]
		}
		return t.line, 0
	}
	return t.r.FieldPos(col)
}

func (t *table) errorf(col int, format string, args ...any) error {
	line, c := t.fieldPos(col)
	return &BundleError{File: t.file, Line: line, Col: c, Column: t.header[col], Msg: phrase.New(format, args...)}
}

func (t *table) float(row []string, col int) (float64, error) {
	v, err := numtext.ParseFloat(strings.TrimSpace(row[col]))
	switch {
	case errors.Is(err, numtext.ErrNotFinite):
		return 0, t.errorf(col, "%s is too large to be a finite number", quote(row[col]))
	case err != nil:
		return 0, t.errorf(col, "%s is not a decimal number", quote(row[col]))
	}
	return v, nil
}

// ends reads a row's first two fields as the ends of an edge, node ids
// in [0, n).
func (t *table) ends(row []string, n int) (u, v int, err error) {
	if u, err = t.int(row, 0, 0, n-1); err == nil {
		v, err = t.int(row, 1, 0, n-1)
	}
	return u, v, err
}

func (t *table) int(row []string, col, lo, hi int) (int, error) {
	v, err := numtext.ParseInt(strings.TrimSpace(row[col]))
	if err != nil {
		return 0, t.errorf(col, "%s is not a whole number in [%d, %d]", quote(row[col]), lo, hi)
	}
	if v < lo || v > hi {
		return 0, t.errorf(col, "%d is out of range [%d, %d]", v, lo, hi)
	}
	return v, nil
}
