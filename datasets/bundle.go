package datasets

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"pdnexplorer/edgekind"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/input"
	"pdnexplorer/internal/numtext"
)

// A graph bundle is a directory with nodes.csv, edges.csv and meta.json
// (see the peers' README):
//
//	nodes.csv  id,label,split,x0,…,x{F-1}    ids 0..N-1 in order; a node
//	           without a class has label -1 and split unlabelled
//	edges.csv  source,target[,kind],e0,…,e{D-1}   each undirected pair once
//	meta.json  {"name": …, generator parameters and seed}
//
// Sparse node features (bags of words) go in a fourth file instead of the
// x columns, one line per non-zero, in any order:
//
//	features.csv  node,feature[,value]    value 1 when the column is absent
//
// with meta.json's "features" giving F (else the largest index + 1).
//
// Floats are written in the shortest form that reads back to the same bits.

// WriteBundle writes g's files (nodes.csv, edges.csv, meta.json and, for
// sparse features, features.csv), each to the writer create opens by its
// name: a folder's are created by the one writer of output folders
// (internal/outdir), which puts them in place together once all are whole.
func WriteBundle(g *Graph, create func(name string) (io.WriteCloser, error)) error {
	if err := g.Check(); err != nil {
		return err
	}
	return writeBundle(g, create)
}

// WriteBundleZip writes g as a zip archive of its bundle's files, under a
// folder called name: what the browser offers to save, and what it reads
// back when the archive is dropped on it.
func WriteBundleZip(w io.Writer, name string, g *Graph) error {
	zw := zip.NewWriter(w)
	return errors.Join(WriteBundleInZip(zw, name, g), zw.Close())
}

// WriteBundleInZip writes g's bundle files into zw under the folder name,
// for an archive that holds more than the bundle (a run's export).
func WriteBundleInZip(zw *zip.Writer, name string, g *Graph) error {
	if err := g.Check(); err != nil {
		return err
	}
	return writeBundle(g, func(file string) (io.WriteCloser, error) {
		f, err := zw.CreateHeader(&zip.FileHeader{Name: name + "/" + file, Method: zip.Deflate, Modified: ZipTime()})
		return nopCloser{f}, err
	})
}

// ZipTime is the time a saved archive's entries carry: now, to the second,
// where zip.Writer's Create leaves 1980-01-01 (the format's zero), which
// every unzip then shows. Tests that compare archives' bytes pin it.
var ZipTime = func() time.Time { return time.Now().Truncate(2 * time.Second) }

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// writeBundle writes g's files, each to the writer create opens.
func writeBundle(g *Graph, create func(name string) (io.WriteCloser, error)) error {
	denseF := g.F
	if g.XS != nil {
		denseF = 0
	}
	if err := writeCSV(create, "nodes.csv", g.N, nodeHeader(denseF), func(i int, row []string) {
		row[0], row[1], row[2] = strconv.Itoa(i), strconv.Itoa(g.Labels[i]), g.Splits[i].String()
		formatFloats(row[3:], g.X[i*denseF:(i+1)*denseF])
	}); err != nil {
		return err
	}
	if g.XS != nil {
		if err := writeFeatures(create, g.XS); err != nil {
			return err
		}
	}
	hasKind := g.Kind != nil
	if err := writeCSV(create, "edges.csv", g.E(), edgeHeader(g.D, hasKind, g.EdgeNames), func(e int, row []string) {
		row[0], row[1] = strconv.Itoa(int(g.Src[e])), strconv.Itoa(int(g.Dst[e]))
		first := 2
		if hasKind {
			row[2], first = kindName(g.Kind[e]), 3
		}
		formatFloats(row[first:], g.EdgeX[e*g.D:(e+1)*g.D])
	}); err != nil {
		return err
	}
	meta := map[string]any{"name": "graph"}
	for k, v := range g.Meta {
		meta[k] = v
	}
	meta["nodes"], meta["edges"], meta["classes"] = g.N, g.E(), g.C
	delete(meta, "class_names")
	if g.ClassNames != nil {
		meta["class_names"] = g.ClassNames
	}
	if g.XS != nil {
		meta["features"] = g.F
	}
	b, err := json.MarshalIndent(meta, "", "  ")
	if err != nil {
		return err
	}
	f, err := create("meta.json")
	if err != nil {
		return err
	}
	_, err = f.Write(append(b, '\n'))
	return errors.Join(err, f.Close())
}

func nodeHeader(f int) []string {
	return append([]string{"id", "label", "split"}, numbered("x", f)...)
}

// edgeHeader is edges.csv's header: the edge features by their names
// where they have them, else e0, e1, ….
func edgeHeader(d int, kind bool, names []string) []string {
	h := []string{"source", "target"}
	if kind {
		h = append(h, "kind")
	}
	if len(names) != d {
		names = numbered("e", d)
	}
	return append(h, names...)
}

func numbered(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = prefix + strconv.Itoa(i)
	}
	return out
}

func kindName(k edgekind.Kind) string { return k.String() }

func formatFloats(dst []string, src []float64) {
	for i, v := range src {
		dst[i] = strconv.FormatFloat(v, 'g', -1, 64)
	}
}

func writeCSV(create func(string) (io.WriteCloser, error), name string, rows int, header []string, fill func(int, []string)) error {
	f, err := create(name)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<16)
	w := csv.NewWriter(bw)
	if err := w.Write(header); err != nil {
		f.Close()
		return err
	}
	row := make([]string, len(header))
	for i := 0; i < rows; i++ {
		fill(i, row)
		if err := w.Write(row); err != nil {
			f.Close()
			return err
		}
	}
	w.Flush()
	if err := errors.Join(w.Error(), bw.Flush()); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// MaxClasses bounds the labels a bundle may use: the model's output layer
// has one unit per class, and a stray label of 2,000,000,000 must be an error
// at its line, not a model sized to it.
const MaxClasses = 1000

// BundleError locates a problem in a bundle: the file, the line (1-based,
// as an editor counts them, blank lines included; 0 when the file as a whole
// is at fault), the byte column where the field starts (0 when unknown) and
// the column's name from the header.
type BundleError struct {
	File   string
	Line   int
	Col    int
	Column string
	// Key is the JSON key at fault (meta.json's classes), where a table
	// has Column.
	Key string
	Msg phrase.Text
	// Err is the error of package input behind it, when the file itself
	// (what it is, its bytes, its compression) is at fault.
	Err error
}

func (e *BundleError) Error() string { return e.Phrase().String() }

// Unwrap gives the error behind e, if any.
func (e *BundleError) Unwrap() error { return e.Err }

// Phrase says the error as a message: where, then what. A file's name
// that is not UTF-8 is shown escaped.
func (e *BundleError) Phrase() phrase.Text {
	at := input.Shown(e.File)
	if e.Line > 0 {
		at += ":" + strconv.Itoa(e.Line)
		if e.Col > 0 {
			at += ":" + strconv.Itoa(e.Col)
		}
	}
	switch {
	case e.Column != "":
		return phrase.New("%s: column %s: %s", at, plainOrQuoted(e.Column), e.Msg)
	case e.Key != "":
		return phrase.New("%s: key %s: %s", at, plainOrQuoted(e.Key), e.Msg)
	case at == "":
		return e.Msg
	}
	return phrase.New("%s: %s", at, e.Msg)
}

// plainOrQuoted returns a column name as it is if it is short and plain,
// else quoted, so that a header cell with a newline or a megabyte of text
// cannot garble the message.
func plainOrQuoted(s string) string {
	if len(s) > 40 || strings.ContainsFunc(s, func(r rune) bool { return !unicode.IsGraphic(r) || unicode.IsSpace(r) || r == '"' }) {
		return quote(s)
	}
	return s
}

// ReadBundle reads the bundle in the directory dir; see ReadBundleFS.
func ReadBundle(dir string) (*Graph, error) {
	info, err := input.Path(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, &BundleError{File: dir, Msg: phrase.New("cannot read the bundle: %s", unwrapPath(err))}
	case err != nil:
		return nil, located(err)
	case !info.IsDir():
		return nil, &BundleError{File: dir, Msg: phrase.New("is a file; a bundle is a directory holding meta.json, nodes.csv and edges.csv")}
	}
	fsys, err := input.Folder(dir)
	if err != nil {
		return nil, located(err)
	}
	return ReadBundleFS(fsys)
}

// ReadBundleFS reads the bundle at the root of fsys. It rejects, with a
// *BundleError naming the file, line and column: a missing or extra
// column, a value that is not a plain decimal number or not finite, an id
// out of range, a self-loop, a repeated pair, a label outside 0..C−1 (C from
// meta.json's classes if given, else MaxClasses), an unknown split or kind,
// a node without a class (label -1, or a missing value) outside the split
// unlabelled or one with a class in it.
// A UTF-8 byte-order mark at the start of a file is skipped. The graph's
// classes are its labels': C = the largest label + 1.
func ReadBundleFS(fsys fs.FS) (*Graph, error) {
	if sessionOf(fsys) == nil {
		g, _, err := within(fsys, func(f fs.FS) (*Graph, bool, error) { g, err := ReadBundleFS(f); return g, false, err })
		return g, err
	}
	g := &Graph{Meta: map[string]any{}}
	m, err := readMeta(fsys, g)
	if err != nil {
		return nil, err
	}
	if err := readNodes(fsys, g, m.classNames); err != nil {
		return nil, err
	}
	if err := readFeatures(fsys, g, m.counts["features"].n); err != nil {
		return nil, err
	}
	if g.XS == nil && g.F > 0 && density(g.X) < sparseBelow {
		g.X, g.XS = nil, SparseOf(g.X, g.N, g.F)
	}
	if err := readEdges(fsys, g); err != nil {
		return nil, err
	}
	if err := m.agrees(g); err != nil {
		return nil, err
	}
	return g, g.Check()
}

// sparseBelow is the share of non-zero node features under which a
// reader holds them sparse, whatever form the file gave them in: Cora's
// 1.3% cost a 20th of the time dense, while the generator's dense features
// stay dense.
const sparseBelow = 0.25

// density is the share of non-zero values in x.
func density(x []float64) float64 {
	nz := 0
	for _, v := range x {
		if v != 0 {
			nz++
		}
	}
	return float64(nz) / float64(max(len(x), 1))
}

// unwrapPath drops the path from an *fs.PathError: messages name the file
// themselves.
func unwrapPath(err error) string {
	if errors.Is(err, fs.ErrNotExist) {
		return "missing (a bundle is a directory holding meta.json, nodes.csv and edges.csv)"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// meta is what meta.json says that the explorer reads: the classes'
// names, and the counts it gives (nodes, edges, classes, features), each
// held to the files.
type meta struct {
	classNames []string
	counts     map[string]declared // by metaCounts' key
}

// declared is a count meta.json gives: the key it is under and its value.
type declared struct {
	key string
	n   int
}

// metaCount is a count meta.json may give: the key the writer gives it
// under, the keys other tools give the same count (PyG's num_nodes,
// num_classes, num_node_features…), and its range.
type metaCount struct {
	key     string
	aliases []string
	lo, hi  int
}

// metaCounts are the counts a bundle's meta.json may give: each is held
// to the files (a file cut short, or edited, disagrees with the count its
// writer gave), under whichever name it is given. classes also bounds the
// labels, and features gives sparse features their width.
var metaCounts = []metaCount{
	{"nodes", []string{"num_nodes", "n_nodes", "node_count", "number_of_nodes"}, 1, MaxNodes},
	{"edges", []string{"num_edges", "n_edges", "edge_count", "number_of_edges"}, 0, 4 * MaxNodes},
	{"classes", []string{"num_classes", "n_classes", "nclass", "class_count", "number_of_classes"}, 1, MaxClasses},
	{"features", []string{"num_features", "num_node_features", "node_features", "n_features", "feature_count", "number_of_features"}, 1, MaxFeatures},
}

// BundleCount is a count meta.json may give, as the explorer reads it: for
// a reader of bundles outside Go (the exported run_pyg.py), which reads
// them by these rules, written into it, never copied by hand.
type BundleCount struct {
	Key     string   `json:"key"`
	Aliases []string `json:"aliases"`
	Lo      int      `json:"lo"`
	Hi      int      `json:"hi"`
}

// BundleRules is what a bundle's reader holds a bundle to beside its
// labels (IsNoClass): meta.json's counts and the other keys it reads, and
// the largest number of sparse features.
type BundleRules struct {
	Counts      []BundleCount `json:"counts"`
	KeysRead    []string      `json:"keys_read"`
	MaxFeatures int           `json:"max_features"`
}

// Rules is the bundle reader's rules (metaCounts, metaKeysRead).
func Rules() BundleRules {
	r := BundleRules{KeysRead: slices.Clone(metaKeysRead), MaxFeatures: MaxFeatures}
	for _, c := range metaCounts {
		r.Counts = append(r.Counts, BundleCount{c.key, slices.Clone(c.aliases), c.lo, c.hi})
	}
	return r
}

// metaKeysRead are the keys of meta.json the explorer reads beside the
// counts: a key one letter from one of these, or from a count's, is
// refused as misspelt; any other key is the bundle's own metadata (its
// generator's parameters, the format it was read from, a source, a
// licence), kept as it is, as a writer of bundles puts its parameters
// there.
var metaKeysRead = []string{"name", "class_names"}

// keyForm is a key without case or separators: num_nodes, numNodes and
// NUM-NODES are one.
func keyForm(k string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '_', '-', ' ', '.':
			return -1
		}
		return unicode.ToLower(r)
	}, k)
}

// countOf is the count key names, if it names one.
func countOf(key string) (metaCount, bool) {
	form := keyForm(key)
	for _, c := range metaCounts {
		if form == keyForm(c.key) || slices.ContainsFunc(c.aliases, func(a string) bool { return form == keyForm(a) }) {
			return c, true
		}
	}
	return metaCount{}, false
}

// misspelt is the key the explorer reads that key is one letter from
// (added, dropped, changed or two swapped), for a key of six letters or
// more that is none of them: clases for classes.
func misspelt(key string) (string, bool) {
	if len(key) < 6 {
		return "", false
	}
	read := slices.Clone(metaKeysRead)
	for _, c := range metaCounts {
		read = append(read, c.key)
	}
	for _, k := range read {
		if len(k) >= 6 && key != k && oneEditApart(strings.ToLower(key), k) {
			return k, true
		}
	}
	return "", false
}

// oneEditApart reports whether a and b differ by one letter added,
// dropped or changed, or two neighbours swapped.
func oneEditApart(a, b string) bool {
	if len(a) < len(b) {
		a, b = b, a
	}
	if len(a)-len(b) > 1 {
		return false
	}
	i := 0
	for i < len(b) && a[i] == b[i] {
		i++
	}
	switch {
	case len(a) > len(b):
		return a[i+1:] == b[i:]
	case i == len(a):
		return false
	case a[i+1:] == b[i+1:]:
		return true
	}
	return i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
}

// readMeta reads meta.json: a JSON object with a name and, optionally,
// class_names, the classes' names, and the counts of metaCounts; classes
// bounds the labels (g.C until the labels are read). A count given as
// text ("3") is refused as text; a key given twice, at any depth, as every
// JSON file's is (input.JSON).
func readMeta(fsys fs.FS, g *Graph) (meta, error) {
	m := meta{counts: map[string]declared{}}
	b, err := readJSON(fsys, "meta.json", &g.Meta)
	switch {
	case isInputError(err):
		return m, err
	case err != nil:
		return m, &BundleError{File: "meta.json", Line: jsonLine(b, err), Msg: phrase.New("not a JSON object: %s", err)}
	}
	if name, ok := g.Meta["name"].(string); !ok || name == "" {
		return m, &BundleError{File: "meta.json", Key: "name", Msg: phrase.New("missing or not a string")}
	}
	if names, ok := g.Meta["class_names"]; ok {
		list, ok := names.([]any)
		for _, n := range list {
			s, isString := n.(string)
			ok = ok && isString
			m.classNames = append(m.classNames, s)
		}
		if !ok {
			return m, &BundleError{File: "meta.json", Key: "class_names", Msg: phrase.New("want a list of the classes' names, as strings, in the order of their numbers")}
		}
		delete(g.Meta, "class_names")
	}
	for _, key := range slices.Sorted(maps.Keys(g.Meta)) {
		c, ok := countOf(key)
		if !ok {
			if read, ok := misspelt(key); ok {
				return m, &BundleError{File: "meta.json", Key: key, Msg: phrase.New("is no key the explorer reads: did you mean %s? Rename it (a key of your own, kept as the bundle's metadata, is best named apart from the keys the explorer reads)", read)}
			}
			continue
		}
		n, err := countValue(key, g.Meta[key], c)
		if err != nil {
			return m, err
		}
		if was, twice := m.counts[c.key]; twice && was.n != n {
			return m, &BundleError{File: "meta.json", Key: key, Msg: phrase.New("says %s, and %s says %s: one count, given twice, disagrees with itself: keep one", numtext.Group(n), was.key, numtext.Group(was.n))}
		}
		m.counts[c.key] = declared{key, n}
	}
	if c, ok := m.counts["classes"]; ok {
		g.C = c.n
	}
	return m, nil
}

// countValue reads meta.json's count under key, held to c's range. The
// value is shown as JSON writes it (null, true, [1]), never as Go's %v
// shows it (<nil>, map[…]).
func countValue(key string, v any, c metaCount) (int, error) {
	f, ok := v.(float64)
	switch {
	case !ok:
		if s, isText := v.(string); isText {
			return 0, &BundleError{File: "meta.json", Key: key, Msg: phrase.New("is text (%s), not a number: write it without quotes", quote(s))}
		}
		return 0, &BundleError{File: "meta.json", Key: key, Msg: phrase.New("%s is not a whole number in [%d, %d]", jsonText(v), c.lo, c.hi)}
	case f != math.Trunc(f) || f < float64(c.lo) || f > float64(c.hi):
		return 0, &BundleError{File: "meta.json", Key: key, Msg: phrase.New("%s is not a whole number in [%d, %d]", jsonText(v), c.lo, c.hi)}
	}
	return int(f), nil
}

// jsonText is v as JSON writes it, cut short if long.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "?"
	}
	if r := []rune(string(b)); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return string(b)
}

// agrees holds the counts meta.json gives to the graph its files hold: a
// count that disagrees (a file cut short, or edited by hand) is refused
// naming the key and both numbers.
func (m meta) agrees(g *Graph) error {
	for _, c := range metaCounts {
		d, ok := m.counts[c.key]
		if !ok {
			continue
		}
		var files phrase.Text
		switch c.key {
		case "nodes":
			if d.n != g.N {
				files = phrase.New("nodes.csv holds %s nodes", numtext.Group(g.N))
			}
		case "edges":
			if d.n != g.E() {
				files = phrase.New("edges.csv holds %s edges", numtext.Group(g.E()))
			}
		case "classes":
			if d.n != g.C {
				files = phrase.New("nodes.csv's labels hold %s classes (0 to %d)", numtext.Group(g.C), g.C-1)
			}
		case "features":
			if d.n != g.F {
				files = phrase.New("the node features are %s wide", numtext.Group(g.F))
			}
		}
		if !files.IsZero() {
			return &BundleError{File: "meta.json", Key: d.key, Msg: phrase.New("says %s, but %s: the files disagree (one cut short, or edited by hand?): correct the count, or leave it out", numtext.Group(d.n), files)}
		}
	}
	return nil
}

// jsonLine returns the line of a JSON syntax error, 0 if unknown.
func jsonLine(b []byte, err error) int {
	line, _ := jsonAt(b, err)
	return line
}

// jsonAt is the line and column (in bytes, from 1) where a JSON decoding
// error is, the end of the text for one cut short; 0, 0 if it has no
// place: a one-line file of a megabyte needs the column.
func jsonAt(b []byte, err error) (line, col int) {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	off := int64(-1)
	switch {
	case errors.As(err, &se) && se.Offset <= int64(len(b)):
		off = se.Offset
	case errors.As(err, &te) && te.Offset <= int64(len(b)):
		off = max(te.Offset-1, 0) // just past the value's first byte
	case errors.Is(err, io.ErrUnexpectedEOF):
		off = int64(len(b))
	}
	if off < 0 {
		return 0, 0
	}
	before := b[:off]
	return 1 + bytes.Count(before, []byte("\n")), int(off) - bytes.LastIndexByte(before, '\n')
}

// quote quotes a cell for a message, cut short if long.
func quote(s string) string { return experiment.Quote(s) }

// unquoted is s as quote shows it, without the quotes: a file's own text
// inside a message's quoted words (another library's message), its line
// ends and other control characters escaped, never printed raw.
func unquoted(s string) string {
	q := quote(s)
	if len(q) >= 2 && q[0] == '"' && q[len(q)-1] == '"' {
		return q[1 : len(q)-1]
	}
	return q
}

// checkHeader wants fixed names, then prefix0, prefix1, … to the end.
func (t *table) checkHeader(fixed []string, prefix string) (int, error) {
	for i, want := range fixed {
		if i >= len(t.header) || t.header[i] != want {
			return 0, &BundleError{File: t.file, Line: 1, Msg: phrase.New("header must start with %s", strings.Join(fixed, ","))}
		}
	}
	rest := t.header[len(fixed):]
	for i, h := range rest {
		if h != prefix+strconv.Itoa(i) {
			return 0, &BundleError{File: t.file, Line: 1, Column: h, Msg: phrase.New("want %s%d", prefix, i)}
		}
	}
	return len(rest), nil
}

// readNodes reads nodes.csv: each node's class (a label in 0..C-1, or -1
// with the split unlabelled for a node without one, see IsNoClass), split
// and dense features. The class builder gives g its classes.
func readNodes(fsys fs.FS, g *Graph, classNames []string) error {
	t, err := openTable(fsys, "nodes.csv")
	if err != nil {
		return err
	}
	defer t.closer.Close()
	if g.F, err = t.checkHeader([]string{"id", "label", "split"}, "x"); err != nil {
		return err
	}
	maxLabel := MaxClasses - 1
	if g.C > 0 {
		maxLabel = g.C - 1
	}
	var cells []string
	for {
		row, err := t.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if _, err := t.int(row, 0, g.N, g.N); err != nil {
			return t.errorf(0, "ids must be 0..N-1 in order: want %d, got %s", g.N, quote(row[0]))
		}
		split, err := parseSplit(row[2])
		if err != nil {
			return t.errorf(2, "%v", err)
		}
		switch none := IsNoClass(row[1]); {
		case none && split != Unlabelled:
			return t.errorf(1, "%s says the node has no class, but its split is %s: a node without a class is in the split unlabelled (label -1)", quote(row[1]), split.String())
		case !none && split == Unlabelled:
			return t.errorf(2, "the split unlabelled is for a node without a class (label -1), and this node's label is %s", quote(row[1]))
		case !none:
			if _, err := t.int(row, 1, 0, maxLabel); err != nil {
				return err
			}
		}
		for c := 3; c < len(row); c++ {
			v, err := t.float(row, c)
			if err != nil {
				return err
			}
			g.X = append(g.X, v)
		}
		cells, g.Splits = append(cells, row[1]), append(g.Splits, split)
		g.N++
	}
	if g.N == 0 {
		return &BundleError{File: t.file, Msg: phrase.New("no nodes: want a row per node after the header")}
	}
	return setClasses(g, classCells{file: t.file, column: "label", cells: cells, numbered: true, names: classNames, namesFile: "meta.json", namesKey: "class_names"})
}

func parseSplit(s string) (Split, error) {
	for i, name := range splitNames {
		if s == name {
			return Split(i), nil
		}
	}
	return 0, phrase.Errorf("%s is not train, test, val or unlabelled", quote(s))
}

func readEdges(fsys fs.FS, g *Graph) error {
	t, err := openTable(fsys, "edges.csv")
	if err != nil {
		return err
	}
	defer t.closer.Close()
	fixed := []string{"source", "target"}
	hasKind := len(t.header) > 2 && t.header[2] == "kind"
	if hasKind {
		fixed = append(fixed, "kind")
	}
	if g.D, err = edgeColumns(t, fixed, g); err != nil {
		return err
	}
	seen := map[[2]int32]int{}
	// The edges and their features are met while read, as every reader's
	// are (a review of issue 58: a bundle's edges.csv read past both).
	lim := limitsOf(fsys)
	values := lim.valuesAt(csvValueBytes)
	for {
		row, err := t.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if len(seen) >= lim.edges {
			return tooMany(t.file, t.line, 0, lim, phrase.New("more than %s edges", numtext.Group(lim.edges)))
		}
		if len(g.EdgeX)+len(row)-len(fixed) > values {
			return tooMany(t.file, t.line, 0, lim, phrase.New("more than %s edge feature values", numtext.Group(values)))
		}
		u, v, err := t.ends(row, g.N)
		if err != nil {
			return err
		}
		if u == v {
			return t.errorf(1, "self-loop on node %d", u)
		}
		key := [2]int32{int32(min(u, v)), int32(max(u, v))}
		if first, dup := seen[key]; dup {
			return t.errorf(1, "the pair (%d,%d) repeats line %d", u, v, first)
		}
		seen[key] = t.line
		if hasKind {
			k, err := parseKind(row[2])
			if err != nil {
				return t.errorf(2, "%v", err)
			}
			g.Kind = append(g.Kind, k)
		}
		for c := len(fixed); c < len(row); c++ {
			x, err := t.float(row, c)
			if err != nil {
				return err
			}
			g.EdgeX = append(g.EdgeX, x)
		}
		g.Src, g.Dst = append(g.Src, int32(u)), append(g.Dst, int32(v))
	}
	if hasKind && g.Kind == nil {
		g.Kind = []edgekind.Kind{}
	}
	return nil
}

// edgeColumns checks edges.csv's header: fixed, then the edge features,
// as e0, e1, … (anonymous) or by their names (a multiplex graph's layers:
// MAM,MDM), each once (as every table's header names each column once).
// It sets g.EdgeNames to the names.
func edgeColumns(t *table, fixed []string, g *Graph) (int, error) {
	d, err := t.checkHeader(fixed, "e")
	if err == nil || slices.ContainsFunc(t.header, isNumbered) {
		return d, err // anonymous features, numbered wrong
	}
	for i, want := range fixed {
		if i >= len(t.header) || t.header[i] != want {
			return 0, &BundleError{File: t.file, Line: 1, Msg: phrase.New("header must start with %s", strings.Join(fixed, ","))}
		}
	}
	names := t.header[len(fixed):]
	for i, n := range names {
		switch {
		case strings.TrimSpace(n) == "":
			return 0, &BundleError{File: t.file, Line: 1, Msg: phrase.New("edge feature %d has no name: name each column, or call them e0, e1, …", i)}
		case strings.ContainsFunc(n, unicode.IsControl):
			return 0, &BundleError{File: t.file, Line: 1, Column: n, Msg: phrase.New("an edge feature's name holds a line break or a control character")}
		}
	}
	g.EdgeNames = slices.Clone(names)
	return len(names), nil
}

// isNumbered reports whether a column is named as anonymous edge
// features are, e and a number.
func isNumbered(name string) bool {
	rest, ok := strings.CutPrefix(name, "e")
	_, err := numtext.ParseUint(rest)
	return ok && err == nil
}

// parseKind reads an edge's kind: intra, inter, or empty for an edge of
// unknown kind (one end without a class).
func parseKind(s string) (edgekind.Kind, error) {
	if k, ok := edgekind.Parse(s); ok || s == "" {
		return k, nil
	}
	return 0, phrase.Errorf("%s is not intra or inter (or empty: an end without a class)", quote(s))
}
