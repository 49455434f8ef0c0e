package datasets

import (
	"bufio"
	"cmp"
	"errors"
	"io"
	"io/fs"
	"slices"
	"strconv"

	"pdnexplorer/i18n/phrase"
)

// featuresFile holds a bundle's sparse node features.
const featuresFile = "features.csv"

// MaxFeatures bounds the width of sparse node features: Deezer's 31,240 fit
// many times over, and a stray index of 2,000,000,000 is an error at its
// line, not a weight matrix sized to it.
const MaxFeatures = 1 << 20

// writeFeatures writes the non-zeros of x, a line each.
func writeFeatures(create func(string) (io.WriteCloser, error), x *CSR) error {
	f, err := create(featuresFile)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<16)
	w.WriteString("node,feature,value\n")
	for i := 0; i < x.Rows; i++ {
		for p := x.Ptr[i]; p < x.Ptr[i+1]; p++ {
			w.WriteString(strconv.Itoa(i))
			w.WriteByte(',')
			w.WriteString(strconv.Itoa(int(x.Col[p])))
			w.WriteByte(',')
			w.WriteString(strconv.FormatFloat(x.Val[p], 'g', -1, 64))
			w.WriteByte('\n')
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// entry is one non-zero read from features.csv, with its line.
type entry struct {
	node, feature int
	value         float64
	line          int
}

// readFeatures reads features.csv, if the bundle has one, into g.XS. It
// rejects, naming the line and column: a bundle that also has x columns,
// a node or feature index out of range, a pair given twice, a value that
// is not a finite decimal.
func readFeatures(fsys fs.FS, g *Graph) error {
	if isMissing(fsys) {
		return nil
	}
	t, err := openTable(fsys, featuresFile)
	if err != nil {
		return err
	}
	defer t.closer.Close()
	if g.F > 0 {
		return &BundleError{File: featuresFile, Msg: phrase.New("nodes.csv already has %d feature columns: give the node features one way, as x columns or here", g.F)}
	}
	withValue := len(t.header) == 3 && t.header[2] == "value"
	if !(len(t.header) == 2 || withValue) || t.header[0] != "node" || t.header[1] != "feature" {
		return &BundleError{File: featuresFile, Line: 1, Msg: phrase.New("header must be node,feature or node,feature,value")}
	}
	width, declared := MaxFeatures, false
	if f, ok := g.Meta["features"].(float64); ok {
		width, declared = int(f), true
	}
	var es []entry
	for {
		row, err := t.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if len(row) != len(t.header) {
			return &BundleError{File: featuresFile, Line: t.line, Msg: phrase.New("%d fields, want %d as the header", len(row), len(t.header))}
		}
		node, err := t.int(row, 0, 0, g.N-1)
		if err != nil {
			return err
		}
		feature, err := t.int(row, 1, 0, width-1)
		if err != nil {
			return err
		}
		value := 1.0
		if withValue {
			if value, err = t.float(row, 2); err != nil {
				return err
			}
		}
		es = append(es, entry{node, feature, value, t.line})
	}
	x, err := csrOf(featuresFile, es, g.N)
	if err != nil {
		return err
	}
	if declared {
		x.Cols = width
	}
	g.F, g.XS = x.Cols, x
	return nil
}

// csrOf makes sparse features of n rows from their non-zeros in any
// order, refusing a pair given twice (at its line in file) and no
// features at all.
func csrOf(file string, es []entry, n int) (*CSR, error) {
	slices.SortStableFunc(es, func(a, b entry) int {
		return cmp.Or(cmp.Compare(a.node, b.node), cmp.Compare(a.feature, b.feature))
	})
	x := &CSR{Rows: n, Ptr: make([]int, n+1)}
	for k, e := range es {
		if k > 0 && es[k-1].node == e.node && es[k-1].feature == e.feature {
			return nil, &BundleError{File: file, Line: e.line, Column: "feature", Msg: phrase.New("node %d's feature %d was given on line %d already", e.node, e.feature, es[k-1].line)}
		}
		x.Cols = max(x.Cols, e.feature+1)
		if e.value != 0 {
			x.Col, x.Val = append(x.Col, int32(e.feature)), append(x.Val, e.value)
			x.Ptr[e.node+1] = len(x.Val)
		}
	}
	for i := 1; i <= n; i++ { // rows without entries end where the last did
		x.Ptr[i] = max(x.Ptr[i], x.Ptr[i-1])
	}
	if x.Cols == 0 {
		return nil, &BundleError{File: file, Msg: phrase.New("no features: want a line per non-zero after the header")}
	}
	return x, nil
}

// isMissing reports whether fsys has no features file.
func isMissing(fsys fs.FS) bool {
	_, err := fs.Stat(fsys, featuresFile)
	return errors.Is(err, fs.ErrNotExist)
}
