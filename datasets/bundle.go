package datasets

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// A graph bundle is a directory with nodes.csv, edges.csv and meta.json
// (see the peers' README):
//
//	nodes.csv  id,label,split,x0,…,x{F-1}    ids 0..N-1 in order
//	edges.csv  source,target[,kind],e0,…,e{D-1}   each undirected pair once
//	meta.json  {"name": …, generator parameters and seed}
//
// Floats are written in the shortest form that reads back to the same bits.

// WriteBundle writes g to the directory dir, creating it if needed.
func WriteBundle(dir string, g *Graph) error {
	if err := g.Check(); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := writeCSV(filepath.Join(dir, "nodes.csv"), g.N, nodeHeader(g.F), func(i int, row []string) {
		row[0], row[1], row[2] = strconv.Itoa(i), strconv.Itoa(g.Labels[i]), g.Splits[i].String()
		formatFloats(row[3:], g.X[i*g.F:(i+1)*g.F])
	}); err != nil {
		return err
	}
	hasKind := g.Kind != nil
	if err := writeCSV(filepath.Join(dir, "edges.csv"), g.E(), edgeHeader(g.D, hasKind), func(e int, row []string) {
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
	b, err := json.MarshalIndent(meta, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "meta.json"), append(b, '\n'), 0o644)
}

func nodeHeader(f int) []string {
	return append([]string{"id", "label", "split"}, numbered("x", f)...)
}

func edgeHeader(d int, kind bool) []string {
	h := []string{"source", "target"}
	if kind {
		h = append(h, "kind")
	}
	return append(h, numbered("e", d)...)
}

func numbered(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = prefix + strconv.Itoa(i)
	}
	return out
}

func kindName(k int8) string {
	switch k {
	case KindIntra:
		return "intra"
	case KindInter:
		return "inter"
	}
	return ""
}

func formatFloats(dst []string, src []float64) {
	for i, v := range src {
		dst[i] = strconv.FormatFloat(v, 'g', -1, 64)
	}
}

func writeCSV(path string, rows int, header []string, fill func(int, []string)) error {
	f, err := os.Create(path)
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

// BundleError locates a problem in a bundle: file, line (1-based, the header
// is line 1; 0 when the file as a whole is at fault) and column name.
type BundleError struct {
	File   string
	Line   int
	Column string
	Msg    string
}

func (e *BundleError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	if e.Column != "" {
		fmt.Fprintf(&b, ": column %s", e.Column)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// ReadBundle reads the bundle in dir. It rejects, with a *BundleError naming
// the file, line and column: a missing or extra column, a non-numeric value,
// an id out of range, a self-loop, a repeated pair, a label out of range
// (0..classes-1 when meta.json gives classes), an unknown split or kind, and
// NaN or infinite values.
func ReadBundle(dir string) (*Graph, error) {
	g := &Graph{Meta: map[string]any{}}
	if err := readMeta(filepath.Join(dir, "meta.json"), g); err != nil {
		return nil, err
	}
	if err := readNodes(filepath.Join(dir, "nodes.csv"), g); err != nil {
		return nil, err
	}
	if err := readEdges(filepath.Join(dir, "edges.csv"), g); err != nil {
		return nil, err
	}
	return g, g.Check()
}

func readMeta(path string, g *Graph) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return &BundleError{File: "meta.json", Msg: "cannot read: " + errors.Unwrap(err).Error()}
	}
	if err := json.Unmarshal(b, &g.Meta); err != nil {
		return &BundleError{File: "meta.json", Msg: "not a JSON object: " + err.Error()}
	}
	if name, ok := g.Meta["name"].(string); !ok || name == "" {
		return &BundleError{File: "meta.json", Column: "name", Msg: "missing or not a string"}
	}
	if c, ok := g.Meta["classes"]; ok {
		v, ok := c.(float64)
		if !ok || v != math.Trunc(v) || v < 1 || v > 1e6 {
			return &BundleError{File: "meta.json", Column: "classes", Msg: fmt.Sprintf("%v is not a whole number in [1, 1000000]", c)}
		}
		g.C = int(v)
	}
	return nil
}

// table reads one CSV file row by row, keeping track of where it is.
type table struct {
	file   string
	r      *csv.Reader
	closer io.Closer
	header []string
	line   int
}

func openTable(path string) (*table, error) {
	name := filepath.Base(path)
	f, err := os.Open(path)
	if err != nil {
		return nil, &BundleError{File: name, Msg: "cannot open: " + errors.Unwrap(err).Error()}
	}
	t := &table{file: name, r: csv.NewReader(bufio.NewReaderSize(f, 1<<16)), closer: f}
	t.r.FieldsPerRecord = -1
	t.r.ReuseRecord = true
	h, err := t.next()
	if err == io.EOF {
		f.Close()
		return nil, &BundleError{File: name, Line: 1, Msg: "empty file, want a header"}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	t.header = append([]string(nil), h...)
	return t, nil
}

// next returns the next row, or io.EOF.
func (t *table) next() ([]string, error) {
	row, err := t.r.Read()
	if err == io.EOF {
		return nil, io.EOF
	}
	t.line++
	if err != nil {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return nil, &BundleError{File: t.file, Line: pe.Line, Msg: pe.Err.Error()}
		}
		return nil, &BundleError{File: t.file, Line: t.line, Msg: err.Error()}
	}
	if t.header != nil && len(row) != len(t.header) {
		what := "missing"
		if len(row) > len(t.header) {
			what = "extra"
		}
		return nil, &BundleError{File: t.file, Line: t.line, Msg: fmt.Sprintf("%s column: %d values, the header has %d", what, len(row), len(t.header))}
	}
	return row, nil
}

func (t *table) errorf(col int, format string, args ...any) error {
	return &BundleError{File: t.file, Line: t.line, Column: t.header[col], Msg: fmt.Sprintf(format, args...)}
}

func (t *table) float(row []string, col int) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(row[col]), 64)
	if err != nil {
		return 0, t.errorf(col, "%q is not a number", row[col])
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, t.errorf(col, "%q is not a finite number", row[col])
	}
	return v, nil
}

func (t *table) int(row []string, col, lo, hi int) (int, error) {
	v, err := strconv.Atoi(strings.TrimSpace(row[col]))
	if err != nil {
		return 0, t.errorf(col, "%q is not a whole number", row[col])
	}
	if v < lo || v > hi {
		return 0, t.errorf(col, "%d is out of range [%d, %d]", v, lo, hi)
	}
	return v, nil
}

// checkHeader wants fixed names, then prefix0, prefix1, … to the end.
func (t *table) checkHeader(fixed []string, prefix string) (int, error) {
	for i, want := range fixed {
		if i >= len(t.header) || t.header[i] != want {
			return 0, &BundleError{File: t.file, Line: 1, Msg: fmt.Sprintf("header must start with %s", strings.Join(fixed, ","))}
		}
	}
	rest := t.header[len(fixed):]
	for i, h := range rest {
		if h != prefix+strconv.Itoa(i) {
			return 0, &BundleError{File: t.file, Line: 1, Column: h, Msg: fmt.Sprintf("want %s%d", prefix, i)}
		}
	}
	return len(rest), nil
}

func readNodes(path string, g *Graph) error {
	t, err := openTable(path)
	if err != nil {
		return err
	}
	defer t.closer.Close()
	if g.F, err = t.checkHeader([]string{"id", "label", "split"}, "x"); err != nil {
		return err
	}
	maxLabel := math.MaxInt32
	if g.C > 0 {
		maxLabel = g.C - 1
	}
	for {
		row, err := t.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if _, err := t.int(row, 0, g.N, g.N); err != nil {
			return t.errorf(0, "ids must be 0..N-1 in order: want %d, got %q", g.N, row[0])
		}
		label, err := t.int(row, 1, 0, maxLabel)
		if err != nil {
			return err
		}
		split, err := parseSplit(row[2])
		if err != nil {
			return t.errorf(2, "%v", err)
		}
		for c := 3; c < len(row); c++ {
			v, err := t.float(row, c)
			if err != nil {
				return err
			}
			g.X = append(g.X, v)
		}
		g.Labels, g.Splits = append(g.Labels, label), append(g.Splits, split)
		g.N++
		g.C = max(g.C, label+1)
	}
	if g.N == 0 {
		return &BundleError{File: t.file, Msg: "no nodes"}
	}
	return nil
}

func parseSplit(s string) (Split, error) {
	for i, name := range splitNames {
		if s == name {
			return Split(i), nil
		}
	}
	return 0, fmt.Errorf("%q is not train, test or val", s)
}

func readEdges(path string, g *Graph) error {
	t, err := openTable(path)
	if err != nil {
		return err
	}
	defer t.closer.Close()
	fixed := []string{"source", "target"}
	hasKind := len(t.header) > 2 && t.header[2] == "kind"
	if hasKind {
		fixed = append(fixed, "kind")
	}
	if g.D, err = t.checkHeader(fixed, "e"); err != nil {
		return err
	}
	seen := map[[2]int32]int{}
	for {
		row, err := t.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		u, err := t.int(row, 0, 0, g.N-1)
		if err != nil {
			return err
		}
		v, err := t.int(row, 1, 0, g.N-1)
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
		g.Kind = []int8{}
	}
	return nil
}

func parseKind(s string) (int8, error) {
	switch s {
	case "intra":
		return KindIntra, nil
	case "inter":
		return KindInter, nil
	}
	return 0, fmt.Errorf("%q is not intra or inter", s)
}
