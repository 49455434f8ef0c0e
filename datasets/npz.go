package datasets

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"io/fs"
	"math"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/input"
	"pdnexplorer/internal/numtext"
)

// A .npz file is how Shchur et al.'s GNN benchmark publishes its graphs
// (Amazon computers and photo, Coauthor CS and physics, Cora-ML,
// CiteSeer, PubMed; PyG's Amazon, Coauthor and CitationFull download
// them): numpy's zip of .npy arrays, written by np.savez. The adjacency
// is a CSR matrix (adj_data, adj_indices, adj_indptr, adj_shape), the
// attributes another (attr_data, attr_indices, attr_indptr, attr_shape)
// or a dense attr_matrix, the classes an int array labels; node_names,
// attr_names, class_names, idx_to_node and idx_to_class may stand
// beside them.
//
// The graph is read as the benchmark's load_npz reads it, the files'
// publisher: attribute values as they are (PyG's read_npz sets every
// value above 0 to 1: a note says when the two would differ), the edges
// undirected, each pair once, without self-loops (as the benchmark's
// standardize and PyG's to_undirected make them; notes count what was
// dropped or made both ways). Labels of -1 are nodes without a class
// (the class builder's rule); a multi-label matrix (labels_data …) is
// refused. class_names names the classes when it is text (a unicode
// array); an array of Python objects (dtype=object) is a pickle, and a
// pickle is code: it is never read, the classes are then numbered.
// Labels given as text (the classes' names, a unicode array or Python
// objects) are refused, saying how to number them and keep their names in
// class_names (numberLabels): load_npz reads labels as numbers.
//
// Each array is read (its header here, its data by encoding/binary) once
// package input has opened it (the zip's checksums and sizes checked as
// it inflates) and its header's shape and type are read, so that what an
// array would cost is known, and refused, before any of it is allocated.

// npzArrays are the arrays the reader reads; the others are named in a
// note, never read.
var npzArrays = []string{"adj_data", "adj_indices", "adj_indptr", "adj_shape", "attr_data", "attr_indices", "attr_indptr", "attr_shape", "attr_matrix", "labels", "class_names"}

// npzNames are the arrays of names the benchmark's files may hold, which
// the explorer does not use: each is left out without a word.
var npzNames = []string{"node_names", "attr_names", "idx_to_node", "idx_to_attr", "idx_to_class", "attr_text"}

// maxNPYHeader bounds an array's header: numpy writes a few dozen bytes
// and its np.load refuses more than 10,000.
const maxNPYHeader = 1 << 16

// isNPZName says a file's name is a .npz file's.
func isNPZName(name string) bool { return strings.EqualFold(path.Ext(name), ".npz") }

func findNPZFile(fsys fs.FS) (readFunc, bool) {
	name, ok := theOne(fsys, isNPZName)
	if !ok {
		return nil, false
	}
	return func(f fs.FS, _ Columns) (*Graph, bool, error) {
		g, err := ReadNPZFS(f, name)
		return g, true, err
	}, true
}

// npzNearMiss says why .npz files are no graph: there are several, or
// the one is packed again (.npz.gz), which numpy does not read either.
func npzNearMiss(fsys fs.FS) phrase.Text {
	isNPZ := func(n string) bool { return isNPZName(n) || strings.EqualFold(path.Ext(input.Plain(n)), ".npz") }
	if name, ok := theOne(fsys, isNPZ); ok && !isNPZName(name) {
		return phrase.New("%s is a .npz file packed again (gzip, bzip2): a .npz is a zip archive already, which numpy's load reads as it is, and so does the explorer: unpack it (gunzip or bunzip2) and open the .npz", plainOrQuoted(name))
	}
	return severalNearMiss(fsys, isNPZ, ".npz")
}

// npzReader reads one .npz file's arrays.
type npzReader struct {
	file  string
	zfs   fs.FS
	sizes map[string]uint64 // each array's declared size, by its key
	lim   limits
	notes []phrase.Text
}

// ReadNPZFS reads the .npz file name in fsys.
func ReadNPZFS(fsys fs.FS, name string) (*Graph, error) {
	if sessionOf(fsys) == nil {
		g, _, err := within(fsys, func(f fs.FS) (*Graph, bool, error) { g, err := ReadNPZFS(f, name); return g, true, err })
		return g, err
	}
	lim := limitsOf(fsys)
	b, err := readBinary(fsys, name)
	if err != nil {
		return nil, err
	}
	r, err := openNPZ(name, b, lim)
	if err != nil {
		return nil, err
	}
	return r.graph()
}

// openNPZ opens the zip archive b as a .npz file: its arrays by key
// (adj_data for adj_data.npy), their declared sizes within lim.
func openNPZ(name string, b []byte, lim limits) (*npzReader, error) {
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil && err != zip.ErrInsecurePath {
		return nil, &BundleError{File: name, Msg: phrase.New("is not a .npz file the explorer can read (numpy's zip of .npy arrays): %s", err)}
	}
	if len(zr.File) > maxZipEntries {
		return nil, &BundleError{File: name, Msg: phrase.New("holds %s files; a .npz graph holds a dozen arrays", numtext.Group(len(zr.File)))}
	}
	if joined(b, zr) {
		return nil, &BundleError{File: name, Msg: phrase.New("holds bytes before or after its zip archive (two files joined into one, or a download written twice?): which archive is the graph cannot be told (numpy reads the last): download or save it again")}
	}
	r := &npzReader{file: name, sizes: map[string]uint64{}, lim: lim}
	files := map[string]*zip.File{}
	var other []string
	for _, zf := range zr.File {
		key, ok := strings.CutSuffix(zf.Name, ".npy")
		if !ok || strings.Contains(key, "/") || key == "" {
			other = append(other, plainOrQuoted(zf.Name))
			continue
		}
		if _, twice := files[zf.Name]; twice {
			return nil, &BundleError{File: name, Msg: phrase.New("holds the array %s twice: which one numpy reads cannot be told: save it again with np.savez", plainOrQuoted(key))}
		}
		if zf.UncompressedSize64 > uint64(lim.gunzip) {
			return nil, &BundleError{File: name, Msg: phrase.New("%s: unpacks to %s; %s reads up to %s", plainOrQuoted(key), phrase.Bytes(min(zf.UncompressedSize64, 1<<62)), lim.where, phrase.Bytes(lim.gunzip))}
		}
		files[zf.Name] = zf
		r.sizes[key] = zf.UncompressedSize64
	}
	if len(other) > 0 {
		r.notes = append(r.notes, phrase.New("%s: holds %s, which are no arrays numpy's np.load gives (a .npz holds .npy files): left out", name, someOf(other)))
	}
	zfs, err := input.NewZipFS(name, files, lim.gunzip)
	if err != nil {
		return nil, located(err)
	}
	r.zfs = zfs
	return r, nil
}

// joined says b holds bytes before or after the zip archive zip.Reader
// reads in it: two files joined (cat a.npz b.npz), of which archive/zip
// reads the first and Python's zipfile, numpy's, the last. A zip numpy
// writes starts with its first file and ends with its directory's end,
// its directory right before it.
func joined(b []byte, zr *zip.Reader) bool {
	if len(zr.File) == 0 {
		return false
	}
	if !bytes.HasPrefix(b, []byte("PK\x03\x04")) {
		return true
	}
	end := bytes.LastIndex(b, []byte("PK\x05\x06"))
	if end < 0 || end+22 > len(b) || end+22+int(binary.LittleEndian.Uint16(b[end+20:])) != len(b) {
		return true
	}
	size, off := uint64(binary.LittleEndian.Uint32(b[end+12:])), uint64(binary.LittleEndian.Uint32(b[end+16:]))
	dirEnd := uint64(end)
	if size == 0xffffffff || off == 0xffffffff { // zip64: its own end record says
		loc := end - 20
		if loc < 0 || !bytes.HasPrefix(b[loc:], []byte("PK\x06\x07")) {
			return true
		}
		rec := binary.LittleEndian.Uint64(b[loc+8:])
		if rec > uint64(len(b)-56) || !bytes.HasPrefix(b[rec:], []byte("PK\x06\x06")) {
			return true
		}
		size, off, dirEnd = binary.LittleEndian.Uint64(b[rec+40:]), binary.LittleEndian.Uint64(b[rec+48:]), rec
	}
	return off > dirEnd || off+size != dirEnd
}

// npyType is an array's element type, as its header's descr gives it.
type npyType struct {
	kind  byte // b (bool), i, u, f, U (unicode text), O (objects)
	size  int  // bytes an element takes
	descr string
}

func (t npyType) numeric() bool {
	return t.kind == 'b' || t.kind == 'i' || t.kind == 'u' || t.kind == 'f'
}

// parseNPYType reads a descr of numpy's simple types ('<f4', '|b1',
// '<U7', '|O'); ok false for any other (structured, complex, bytes,
// dates).
func parseNPYType(descr string) (npyType, bool) {
	s := strings.TrimSpace(descr)
	if len(s) < 3 || s[0] != '\'' || s[len(s)-1] != '\'' {
		return npyType{descr: s}, false
	}
	s = s[1 : len(s)-1]
	t := npyType{descr: s}
	if s != "" && strings.ContainsRune("<>|=", rune(s[0])) {
		s = s[1:]
	}
	if s == "O" {
		t.kind = 'O'
		return t, true
	}
	if len(s) < 2 {
		return t, false
	}
	n, err := numtext.ParseInt(s[1:])
	if err != nil || n < 1 || n > 1<<20 {
		return t, false
	}
	t.kind = s[0]
	switch {
	case t.kind == 'b' && n == 1, (t.kind == 'i' || t.kind == 'u') && (n == 1 || n == 2 || n == 4 || n == 8), t.kind == 'f' && (n == 2 || n == 4 || n == 8):
		t.size = n
	case t.kind == 'U':
		t.size = 4 * n
	default:
		return t, false
	}
	return t, true
}

// npyArray is one array of the file, its header read, its data not yet.
type npyArray struct {
	file    string // the .npz file, for messages
	key     string
	typ     npyType
	shape   []int
	fortran bool
	n       int // elements
	f       fs.File
	br      *bufio.Reader
	order   binary.ByteOrder // of its data, as its descr says
}

func (r *npzReader) errorf(key, format string, args ...any) error {
	return &BundleError{File: r.file, Msg: phrase.New("%s: %s", plainOrQuoted(key), phrase.New(format, args...))}
}

func (r *npzReader) has(key string) bool { _, ok := r.sizes[key]; return ok }

// open reads the header of the array key: its type and shape, checked
// against the bytes the archive declares for it, so that what it costs is
// known before a byte of its data is read. An array of Python objects is
// given unread (a pickle is never unpickled).
func (r *npzReader) open(key string) (*npyArray, error) {
	f, err := input.Open(r.zfs, key+".npy")
	if err != nil {
		return nil, located(err)
	}
	a := &npyArray{file: r.file, key: key, f: f, br: bufio.NewReaderSize(f, maxNPYHeader+16)}
	if err := r.header(a); err != nil {
		f.Close()
		return nil, err
	}
	return a, nil
}

func (r *npzReader) header(a *npyArray) error {
	notNPY := func(why string) error {
		return r.errorf(a.key, "is not a .npy array numpy writes (%s): save the graph again with np.savez", why)
	}
	pre, err := a.br.Peek(10)
	if err != nil {
		if isInputError(err) {
			return located(err)
		}
		return notNPY("it is cut short before its header")
	}
	if !bytes.HasPrefix(pre, []byte("\x93NUMPY")) {
		return notNPY("it does not open with numpy's mark, \\x93NUMPY")
	}
	start, size := 10, int(binary.LittleEndian.Uint16(pre[8:]))
	switch pre[6] {
	case 1:
	case 2:
		p, err := a.br.Peek(12)
		if err != nil {
			return notNPY("it is cut short before its header")
		}
		start, size = 12, int(min(binary.LittleEndian.Uint32(p[8:]), maxNPYHeader+1))
	default:
		return notNPY(fmt.Sprintf("format version %d.%d, which is not 1.0 or 2.0", pre[6], pre[7]))
	}
	if size > maxNPYHeader {
		return notNPY("a header longer than 64 KiB")
	}
	full, err := a.br.Peek(start + size)
	if err != nil {
		if isInputError(err) {
			return located(err)
		}
		return notNPY("it is cut short in its header")
	}
	descr, fortran, shape, ok := parseNPYHeader(string(full[start:]))
	if !ok {
		return notNPY("its header is not the dictionary numpy writes: {'descr': …, 'fortran_order': …, 'shape': (…), }")
	}
	if _, err := a.br.Discard(start + size); err != nil {
		return located(err)
	}
	a.fortran, a.order = fortran, binary.ByteOrder(binary.LittleEndian)
	if strings.HasPrefix(descr, "'>") {
		a.order = binary.BigEndian
	}
	t, ok := parseNPYType(descr)
	if !ok {
		return r.errorf(a.key, "is an array of %s, which the explorer does not read: numbers (bool, int, uint, float) or text (unicode)", quote(t.descr))
	}
	a.typ, a.shape, a.n = t, shape, 1
	if t.kind == 'O' {
		return nil
	}
	for _, d := range a.shape {
		if d < 0 || d > 0 && a.n > math.MaxInt32/d {
			return r.errorf(a.key, "its header gives the shape %s, more values than any graph the explorer reads", shapeText(a.shape))
		}
		a.n *= d
	}
	if want, has := uint64(a.n)*uint64(t.size), r.sizes[a.key]-uint64(start+size); want != has {
		return r.errorf(a.key, "its header gives the shape %s of %s, %s of data, and the file holds %s: cut short or damaged: download or save it again", shapeText(a.shape), t.descr, phrase.Bytes(min(want, math.MaxInt32)), phrase.Bytes(min(has, math.MaxInt32)))
	}
	return nil
}

// parseNPYHeader reads the dictionary of a .npy header as numpy writes
// it ({'descr': '<f8', 'fortran_order': False, 'shape': (34, 2), },
// ending in a line break): its type as written (quoted), its order and
// its shape; ok false for anything else. The header is a Python literal,
// and only these three keys' plain values are taken: nothing in it is
// evaluated. (It is read here, not by a .npy library: npyio, the one
// kept for Go, panicked on damaged headers and took the page's worker
// from 12.1 to 13.7 MB, an unpickler with it; the data are then read by
// encoding/binary.)
func parseNPYHeader(hdr string) (descr string, fortran bool, shape []int, ok bool) {
	if !strings.HasSuffix(hdr, "\n") {
		return "", false, nil, false
	}
	body, open := strings.CutPrefix(strings.TrimSpace(hdr), "{")
	body, closed := strings.CutSuffix(body, "}")
	if !open || !closed {
		return "", false, nil, false
	}
	value := func(key string) (string, bool) {
		_, after, found := strings.Cut(body, "'"+key+"':")
		return strings.TrimSpace(after), found
	}
	d, okD := value("descr")
	f, okF := value("fortran_order")
	s, okS := value("shape")
	if !okD || !okF || !okS || !strings.HasPrefix(d, "'") {
		return "", false, nil, false
	}
	end := strings.IndexByte(d[1:], '\'')
	if end < 0 {
		return "", false, nil, false
	}
	descr = d[:end+2]
	switch {
	case strings.HasPrefix(f, "False"):
	case strings.HasPrefix(f, "True"):
		fortran = true
	default:
		return "", false, nil, false
	}
	if !strings.HasPrefix(s, "(") || strings.IndexByte(s, ')') < 0 {
		return "", false, nil, false
	}
	for _, part := range strings.Split(s[1:strings.IndexByte(s, ')')], ",") {
		if part = strings.TrimSpace(part); part == "" {
			continue
		}
		n, err := numtext.ParseInt(part)
		if err != nil || n < 0 {
			return "", false, nil, false
		}
		shape = append(shape, int(n))
	}
	return descr, fortran, shape, true
}

func shapeText(shape []int) string {
	parts := make([]string, len(shape))
	for i, d := range shape {
		parts[i] = numtext.Group(d)
	}
	if len(parts) == 1 {
		return "(" + parts[0] + ",)"
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// close reads the array to its end, so that the archive checks its
// checksum, and closes it.
func (a *npyArray) close() error {
	defer a.f.Close()
	if _, err := io.Copy(io.Discard, a.br); err != nil {
		return located(err)
	}
	return nil
}

// values reads a numeric array's data as float64s.
func (r *npzReader) values(a *npyArray) ([]float64, error) {
	if !a.typ.numeric() {
		return nil, r.errorf(a.key, "is an array of %s; want numbers", quote(a.typ.descr))
	}
	out := make([]float64, a.n)
	var err error
	switch int(a.typ.kind)<<4 | a.typ.size {
	case 'b'<<4 | 1:
		err = readInto(a, out, func(v bool) float64 {
			if v {
				return 1
			}
			return 0
		})
	case 'i'<<4 | 1:
		err = readInto(a, out, func(v int8) float64 { return float64(v) })
	case 'i'<<4 | 2:
		err = readInto(a, out, func(v int16) float64 { return float64(v) })
	case 'i'<<4 | 4:
		err = readInto(a, out, func(v int32) float64 { return float64(v) })
	case 'i'<<4 | 8:
		err = readInto(a, out, func(v int64) float64 { return float64(v) })
	case 'u'<<4 | 1:
		err = readInto(a, out, func(v uint8) float64 { return float64(v) })
	case 'u'<<4 | 2:
		err = readInto(a, out, func(v uint16) float64 { return float64(v) })
	case 'u'<<4 | 4:
		err = readInto(a, out, func(v uint32) float64 { return float64(v) })
	case 'u'<<4 | 8:
		err = readInto(a, out, func(v uint64) float64 { return float64(v) })
	case 'f'<<4 | 2:
		err = readInto(a, out, halfFloat)
	case 'f'<<4 | 4:
		err = readInto(a, out, func(v float32) float64 { return float64(v) })
	default:
		err = readInto(a, out, func(v float64) float64 { return v })
	}
	if err != nil {
		return nil, err
	}
	if err := a.close(); err != nil {
		return nil, err
	}
	for i, v := range out {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, r.errorf(a.key, "value %s (at %s) is %s: want finite numbers", numtext.Group(i), shapeIndex(a, i), fmtNum(v))
		}
	}
	return out, nil
}

// shapeIndex is element i of a as numpy indexes it: [i] or [row, col].
func shapeIndex(a *npyArray, i int) string {
	if len(a.shape) == 2 && a.shape[1] > 0 {
		if a.fortran {
			return fmt.Sprintf("[%d, %d]", i%a.shape[0], i/a.shape[0])
		}
		return fmt.Sprintf("[%d, %d]", i/a.shape[1], i%a.shape[1])
	}
	return fmt.Sprintf("[%d]", i)
}

// readInto reads a's data as Ts in its byte order, converted into out.
func readInto[T any](a *npyArray, out []float64, conv func(T) float64) error {
	buf := make([]T, len(out))
	if err := binary.Read(a.br, a.order, buf); err != nil {
		if isInputError(err) {
			return located(err)
		}
		return &BundleError{File: a.file, Msg: phrase.New("%s: is cut short or damaged (%v): download or save it again", plainOrQuoted(a.key), err)}
	}
	for i, v := range buf {
		out[i] = conv(v)
	}
	return nil
}

// halfFloat is the value of an IEEE 754 half-precision number (numpy's
// float16, '<f2', which features are often saved in to halve a file).
func halfFloat(h uint16) float64 {
	sign, exp, frac := 1.0, int(h>>10&0x1f), float64(h&0x3ff)
	if h&0x8000 != 0 {
		sign = -1
	}
	switch exp {
	case 0: // zero, or subnormal
		return sign * math.Ldexp(frac, -24)
	case 0x1f:
		if frac != 0 {
			return math.NaN()
		}
		return math.Inf(int(sign))
	}
	return sign * math.Ldexp(1024+frac, exp-25)
}

// ints reads a numeric array of whole numbers in [lo, hi].
func (r *npzReader) ints(a *npyArray, lo, hi int) ([]int, error) {
	vs, err := r.values(a)
	if err != nil {
		return nil, err
	}
	out := make([]int, len(vs))
	for i, v := range vs {
		if v != math.Trunc(v) || v < float64(lo) || v > float64(hi) {
			return nil, r.errorf(a.key, "value %s (at %s) is %s; want a whole number in [%d, %d]", numtext.Group(i), shapeIndex(a, i), fmtNum(v), lo, hi)
		}
		out[i] = int(v)
	}
	return out, nil
}

// texts reads a unicode array: each name a run of UTF-32 code points in
// the array's order, padded with NULs to the type's width.
func (r *npzReader) texts(a *npyArray) ([]string, error) {
	width := a.typ.size / 4
	codes := make([]uint32, a.n*width)
	if err := binary.Read(a.br, a.order, codes); err != nil {
		if isInputError(err) {
			return nil, located(err)
		}
		return nil, r.errorf(a.key, "is cut short or damaged (%v): download or save it again", err)
	}
	out := make([]string, a.n)
	for i := range out {
		var b strings.Builder
		for _, c := range codes[i*width : (i+1)*width] {
			if c == 0 {
				break
			}
			if c > utf8.MaxRune || c >= 0xD800 && c < 0xE000 {
				return nil, r.errorf(a.key, "name %d holds %s, which is no Unicode character: save the names again", i, fmt.Sprintf("U+%X", c))
			}
			b.WriteRune(rune(c))
		}
		out[i] = b.String()
	}
	return out, a.close()
}

// array opens the array key, which must be there with dims dimensions
// (0: any); what it holds is checked by its reader.
func (r *npzReader) array(key string, dims int) (*npyArray, error) {
	if !r.has(key) {
		return nil, &BundleError{File: r.file, Msg: phrase.New("holds no %s array: a .npz graph has adj_data, adj_indices, adj_indptr and adj_shape (the adjacency, a CSR matrix) and labels, as the GNN benchmark's files (np.savez) have them", plainOrQuoted(key))}
	}
	a, err := r.open(key)
	if err != nil {
		return nil, err
	}
	if a.typ.kind == 'O' {
		a.f.Close()
		if key == "labels" {
			return nil, r.errorf(key, "is an array of Python objects (dtype=object): a pickle, which is code, and the explorer never runs one: %s", numberLabels)
		}
		return nil, r.errorf(key, "is an array of Python objects (dtype=object): a pickle, which is code, and the explorer never runs one: save it as numbers with np.savez")
	}
	if dims > 0 && len(a.shape) != dims {
		a.f.Close()
		return nil, r.errorf(key, "has the shape %s; want %d dimensions", shapeText(a.shape), dims)
	}
	return a, nil
}

// csr reads the CSR matrix prefix (adj, attr): its shape, and its
// offsets, columns and values, whose count is checked against most
// before any is read.
func (r *npzReader) csr(prefix string, rows int, most int, what phrase.Text) (shape [2]int, ptr, col []int, val []float64, err error) {
	a, err := r.array(prefix+"_shape", 1)
	if err != nil {
		return shape, nil, nil, nil, err
	}
	if a.n != 2 {
		a.f.Close()
		return shape, nil, nil, nil, r.errorf(a.key, "has %d values; want 2 (rows, columns)", a.n)
	}
	// Any whole number a float64 holds exactly: each side's own bound (the
	// rows' MaxNodes, the attributes' MaxFeatures, the adjacency square)
	// is said below and by the caller, once, so no value is told one range
	// here and another there.
	s, err := r.ints(a, 0, 1<<53)
	if err != nil {
		return shape, nil, nil, nil, err
	}
	shape = [2]int{s[0], s[1]}
	if rows >= 0 && shape[0] != rows {
		return shape, nil, nil, nil, r.errorf(a.key, "gives %s rows, and the adjacency %s nodes: want a row per node", numtext.Group(shape[0]), numtext.Group(rows))
	}
	if shape[0] > MaxNodes {
		return shape, nil, nil, nil, r.errorf(a.key, "gives %s rows: more than %s nodes", numtext.Group(shape[0]), numtext.Group(MaxNodes))
	}
	if shape[0] > r.lim.cells {
		// An offsets array of zeros packs a million rows into a few kB:
		// each node is a row of the node table, met against the cells
		// held before one is allocated.
		return shape, nil, nil, nil, tooMany(r.file+": "+a.key, 0, 0, r.lim, phrase.New("%s nodes (each a row of classes and features), more than %s cells", numtext.Group(shape[0]), numtext.Group(r.lim.cells)))
	}
	if a, err = r.array(prefix+"_indptr", 1); err != nil {
		return shape, nil, nil, nil, err
	}
	if a.n != shape[0]+1 {
		a.f.Close()
		return shape, nil, nil, nil, r.errorf(a.key, "has %s values; want %s (rows + 1, as %s_shape gives)", numtext.Group(a.n), numtext.Group(shape[0]+1), prefix)
	}
	ia, err := r.array(prefix+"_indices", 1)
	if err != nil {
		a.f.Close()
		return shape, nil, nil, nil, err
	}
	nnz := ia.n
	if nnz > most {
		a.f.Close()
		ia.f.Close()
		return shape, nil, nil, nil, tooMany(r.file+": "+prefix+"_indices", 0, 0, r.lim, what)
	}
	ptr, err = r.ints(a, 0, nnz)
	if err != nil {
		ia.f.Close()
		return shape, nil, nil, nil, err
	}
	if ptr[0] != 0 || ptr[len(ptr)-1] != nnz {
		ia.f.Close()
		return shape, nil, nil, nil, r.errorf(a.key, "runs from %d to %d; want from 0 to %s, the entries of %s_indices", ptr[0], ptr[len(ptr)-1], numtext.Group(nnz), prefix)
	}
	for i := 1; i < len(ptr); i++ {
		if ptr[i] < ptr[i-1] {
			ia.f.Close()
			return shape, nil, nil, nil, r.errorf(a.key, "value %d (%d) is below the one before it (%d): row %d would end before it starts", i, ptr[i], ptr[i-1], i-1)
		}
	}
	if col, err = r.ints(ia, 0, max(shape[1]-1, 0)); err != nil {
		return shape, nil, nil, nil, err
	}
	if a, err = r.array(prefix+"_data", 1); err != nil {
		return shape, nil, nil, nil, err
	}
	if a.n != nnz {
		a.f.Close()
		return shape, nil, nil, nil, r.errorf(a.key, "has %s values, and %s_indices %s: want one value per entry", numtext.Group(a.n), prefix, numtext.Group(nnz))
	}
	val, err = r.values(a)
	return shape, ptr, col, val, err
}

// graph reads the arrays into a graph.
func (r *npzReader) graph() (*Graph, error) {
	for _, k := range []string{"labels_data", "labels_indices", "labels_indptr", "labels_shape"} {
		if r.has(k) && !r.has("labels") {
			return nil, &BundleError{File: r.file, Msg: phrase.New("holds %s: a matrix of labels, several per node (multi-label), and the explorer trains one class per node: save one label per node as labels", k)}
		}
	}
	name := strings.TrimSuffix(path.Base(r.file), path.Ext(r.file))
	g := &Graph{Meta: map[string]any{"name": name}}
	lim := r.lim
	shape, ptr, col, val, err := r.csr("adj", -1, 2*min(lim.edges, math.MaxInt32), phrase.New("more than %s edges", numtext.Group(lim.edges)))
	if err != nil {
		return nil, err
	}
	if shape[0] != shape[1] {
		return nil, r.errorf("adj_shape", "is %s × %s: an adjacency matrix is square, a row and a column per node (a bipartite graph's is not): the explorer reads a graph's", numtext.Group(shape[0]), numtext.Group(shape[1]))
	}
	g.N = shape[0]
	if err := r.edges(g, ptr, col, val); err != nil {
		return nil, err
	}
	if err := r.attributes(g); err != nil {
		return nil, err
	}
	if err := r.labels(g); err != nil {
		return nil, err
	}
	var left []string
	for k := range r.sizes {
		if !slices.Contains(npzArrays, k) && !slices.Contains(npzNames, k) {
			left = append(left, plainOrQuoted(k))
		}
	}
	if len(left) > 0 {
		slices.Sort(left)
		r.notes = append(r.notes, phrase.New("%s: the arrays %s are no part of the GNN benchmark's graph: left out", r.file, someOf(left)))
	}
	g.Notes = append(g.Notes, r.notes...)
	return g, g.Check()
}

// edges makes the adjacency's entries undirected edges, each pair once,
// self-loops dropped, as the benchmark's standardize and PyG's read_npz
// make them; its values are not read as weights (both read the graph
// unweighted).
func (r *npzReader) edges(g *Graph, ptr, col []int, val []float64) error {
	keys := make([]uint64, 0, len(col))
	loops, weighted := 0, 0
	for i := 0; i < g.N; i++ {
		for p := ptr[i]; p < ptr[i+1]; p++ {
			j := col[p]
			if val[p] != 1 {
				weighted++
			}
			if i == j {
				loops++
				continue
			}
			dir := uint64(0)
			if i > j {
				dir = 1
			}
			keys = append(keys, (uint64(min(i, j))<<32|uint64(max(i, j)))<<1|dir)
		}
	}
	slices.Sort(keys)
	oneWay, repeats := 0, 0
	for k := 0; k < len(keys); {
		pair, dirs := keys[k]>>1, 0
		n := 0
		for ; k < len(keys) && keys[k]>>1 == pair; k++ {
			if n > 0 && keys[k] == keys[k-1] {
				repeats++
			}
			dirs |= 1 << (keys[k] & 1)
			n++
		}
		if dirs != 3 {
			oneWay++
		}
		if len(g.Src) >= r.lim.edges {
			return tooMany(r.file+": adj_indices", 0, 0, r.lim, phrase.New("more than %s edges", numtext.Group(r.lim.edges)))
		}
		g.Src, g.Dst = append(g.Src, int32(pair>>32)), append(g.Dst, int32(pair&(1<<32-1)))
	}
	if loops > 0 {
		r.notes = append(r.notes, phrase.New("%s: dropped %s self-loops, as the benchmark's standardize and PyG's read_npz drop them", r.file, numtext.Group(loops)))
	}
	if oneWay > 0 {
		r.notes = append(r.notes, phrase.New("%s: %s of its %s edges are listed in one direction only (the adjacency is not symmetric): read as undirected, each pair once, as the benchmark's standardize and PyG's read_npz (to_undirected) make it", r.file, numtext.Group(oneWay), numtext.Group(len(g.Src))))
	}
	if repeats > 0 {
		r.notes = append(r.notes, phrase.New("%s: adj_indices lists %s entries twice in their row: each edge kept once", r.file, numtext.Group(repeats)))
	}
	if weighted > 0 {
		r.notes = append(r.notes, phrase.New("%s: adj_data holds %s values other than 1: the edges were read unweighted, as the benchmark's standardize and PyG's read_npz read them", r.file, numtext.Group(weighted)))
	}
	return nil
}

// attributes reads the node features: attr_data … (a CSR matrix), else
// attr_matrix (dense), as the benchmark's load_npz prefers them; none if
// neither is there (Open then gives degrees).
func (r *npzReader) attributes(g *Graph) error {
	var x *CSR
	switch {
	case r.has("attr_data"):
		shape, ptr, col, val, err := r.csr("attr", g.N, min(r.lim.valuesAt(arrayValueBytes), math.MaxInt32), phrase.New("more than %s values", numtext.Group(r.lim.valuesAt(arrayValueBytes))))
		if err != nil {
			return err
		}
		if shape[1] > MaxFeatures {
			return r.errorf("attr_shape", "gives %s attributes: more than %s", numtext.Group(shape[1]), numtext.Group(MaxFeatures))
		}
		if x, err = r.sortedCSR(shape, ptr, col, val); err != nil {
			return err
		}
		if r.has("attr_matrix") {
			r.notes = append(r.notes, phrase.New("%s: holds attr_data … and attr_matrix: the attributes were read from attr_data …, as the benchmark's load_npz reads them", r.file))
		}
	case r.has("attr_matrix"):
		a, err := r.array("attr_matrix", 2)
		if err != nil {
			return err
		}
		if a.shape[1] > MaxFeatures {
			a.f.Close()
			return r.errorf(a.key, "has the shape %s: more than %s attributes", shapeText(a.shape), numtext.Group(MaxFeatures))
		}
		if a.shape[0] != g.N {
			a.f.Close()
			return r.errorf(a.key, "has the shape %s, and the adjacency %s nodes: want a row per node", shapeText(a.shape), numtext.Group(g.N))
		}
		if a.n > r.lim.valuesAt(arrayValueBytes) {
			a.f.Close()
			return tooMany(r.file+": attr_matrix", 0, 0, r.lim, phrase.New("more than %s values", numtext.Group(r.lim.valuesAt(arrayValueBytes))))
		}
		vs, err := r.values(a)
		if err != nil {
			return err
		}
		if a.fortran {
			vs = transposed(vs, a.shape[1], a.shape[0])
		}
		x = SparseOf(vs, g.N, a.shape[1])
	default:
		return nil
	}
	counts := 0
	for _, v := range x.Val {
		if v > 0 && v != 1 {
			counts++
		}
	}
	if counts > 0 {
		r.notes = append(r.notes, phrase.New("%s: %s attribute values are above 0 and not 1: read as they are, as the benchmark's load_npz reads them; PyG's read_npz sets every value above 0 to 1", r.file, numtext.Group(counts)))
	}
	if x.Cols == 0 {
		return nil
	}
	g.F = x.Cols
	if float64(x.NNZ()) >= sparseBelow*float64(x.Rows)*float64(x.Cols) {
		g.X = x.Dense()
	} else {
		g.XS = x
	}
	return nil
}

// transposed is the rows×cols row-major matrix of vs, stored column by
// column (numpy's fortran_order) as cols×rows.
func transposed(vs []float64, rows, cols int) []float64 {
	out := make([]float64, len(vs))
	for i := range rows {
		for j := range cols {
			out[j*rows+i] = vs[i*cols+j]
		}
	}
	return out
}

// sortedCSR is the CSR matrix of the arrays, each row's entries in column
// order and an entry listed twice summed, as scipy's todense sums it;
// zeros left out.
func (r *npzReader) sortedCSR(shape [2]int, ptr, col []int, val []float64) (*CSR, error) {
	x := &CSR{Rows: shape[0], Cols: shape[1], Ptr: make([]int, shape[0]+1)}
	x.Col, x.Val = make([]int32, 0, len(col)), make([]float64, 0, len(val))
	twice := 0
	for i := range shape[0] {
		idx := make([]int, 0, ptr[i+1]-ptr[i])
		for p := ptr[i]; p < ptr[i+1]; p++ {
			idx = append(idx, p)
		}
		slices.SortStableFunc(idx, func(a, b int) int { return col[a] - col[b] })
		start := len(x.Col)
		for _, p := range idx {
			if n := len(x.Col); n > start && x.Col[n-1] == int32(col[p]) {
				x.Val[n-1] += val[p]
				twice++
				continue
			}
			x.Col, x.Val = append(x.Col, int32(col[p])), append(x.Val, val[p])
		}
		// Zeros (stored, or summed to) are no entries.
		kept := start
		for p := start; p < len(x.Col); p++ {
			if x.Val[p] != 0 {
				x.Col[kept], x.Val[kept] = x.Col[p], x.Val[p]
				kept++
			}
		}
		x.Col, x.Val = x.Col[:kept], x.Val[:kept]
		x.Ptr[i+1] = len(x.Col)
	}
	if twice > 0 {
		r.notes = append(r.notes, phrase.New("%s: attr_indices lists %s entries twice in their row: their values were summed, as scipy sums them", r.file, numtext.Group(twice)))
	}
	for _, v := range x.Val {
		if math.IsInf(v, 0) {
			return nil, r.errorf("attr_data", "sums to a value too large to be a finite number")
		}
	}
	return x, nil
}

// labels reads the classes: labels, a class per node (-1: none, the
// class builder's rule), named by class_names when it is text.
func (r *npzReader) labels(g *Graph) error {
	a, err := r.array("labels", 0)
	if err != nil {
		return err
	}
	if a.typ.kind == 'U' {
		a.f.Close()
		return r.errorf(a.key, "is an array of text (%s): %s", quote(a.typ.descr), numberLabels)
	}
	if len(a.shape) == 2 && a.shape[0] == g.N && a.shape[1] > 1 {
		a.f.Close()
		return r.errorf(a.key, "has the shape %s: a matrix of labels, several per node (multi-label, or one-hot), and the explorer trains one class per node: save one label per node", shapeText(a.shape))
	}
	if len(a.shape) == 0 || a.n != g.N {
		a.f.Close()
		return r.errorf(a.key, "has the shape %s, and the adjacency %s nodes: want a label per node", shapeText(a.shape), numtext.Group(g.N))
	}
	labels, err := r.ints(a, NoClass, MaxClasses-1)
	if err != nil {
		return err
	}
	cells := make([]string, len(labels))
	for i, l := range labels {
		cells[i] = fmt.Sprint(l)
	}
	names, err := r.classNames()
	if err != nil {
		return err
	}
	return setClasses(g, classCells{file: r.file, column: "labels", cells: cells, numbered: true, names: names, namesFile: r.file})
}

// numberLabels says how to write labels given as text (the classes'
// names, as a unicode array or as Python objects, which are never
// unpickled): the benchmark's load_npz, and the models, take a class's
// number; its name goes in class_names, as text, where the benchmark's
// files keep the names (as objects there), and is read from there.
var numberLabels = phrase.New("a label is its class's number (0, 1, 2…; -1 for a node without one): number the classes and save their names beside them as text, in class_names, where the GNN benchmark's files keep them: class_names, labels = np.unique(labels, return_inverse=True), then np.savez(path, …, labels=labels, class_names=class_names.astype(str))")

// classNames are the classes' names, where class_names holds them as
// text; nil if it is not there, or is an array of Python objects (a
// pickle: never read; a note says the classes are numbered).
func (r *npzReader) classNames() ([]string, error) {
	if !r.has("class_names") {
		if r.has("idx_to_class") {
			r.notes = append(r.notes, phrase.New("%s: idx_to_class is a Python dictionary (a pickle), which is code, and the explorer never runs one: the classes are numbered", r.file))
		}
		return nil, nil
	}
	a, err := r.open("class_names")
	if err != nil {
		return nil, err
	}
	switch {
	case a.typ.kind == 'O':
		a.f.Close()
		r.notes = append(r.notes, phrase.New("%s: class_names is an array of Python objects (dtype=object, a pickle), which is code, and the explorer never runs one: the classes are numbered (save the names as text, np.array(names, dtype=str), to see them)", r.file))
		return nil, nil
	case a.typ.kind != 'U' || len(a.shape) != 1:
		a.f.Close()
		return nil, r.errorf(a.key, "is an array of %s and the shape %s; want the classes' names as text, one dimension", quote(a.typ.descr), shapeText(a.shape))
	}
	if a.n > MaxClasses {
		a.f.Close()
		return nil, r.errorf(a.key, "names %s classes: more than %s", numtext.Group(a.n), numtext.Group(MaxClasses))
	}
	return r.texts(a)
}
