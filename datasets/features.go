package datasets

import (
	"bufio"
	"cmp"
	"io"
	"io/fs"
	"math"
	"slices"
	"strconv"

	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/input"
	"pdnexplorer/internal/numtext"
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

// readFeatures reads features.csv, if the bundle has one, into g.XS, as
// wide as declaredWidth (meta.json's features) if it is above 0. It
// rejects, naming the line and column: a bundle that also has x columns,
// a node or feature index out of range, a value that is not a finite
// decimal. A pair given twice is summed (see csrOf).
func readFeatures(fsys fs.FS, g *Graph, declaredWidth int) error {
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
	width, declared := MaxFeatures, declaredWidth > 0
	if declared {
		width = declaredWidth
	}
	node := func(row []string) (int, error) {
		if len(row) != len(t.header) {
			return 0, &BundleError{File: featuresFile, Line: t.line, Msg: phrase.New("%d fields, want %d as the header", len(row), len(t.header))}
		}
		return t.int(row, 0, 0, g.N-1)
	}
	x, err := readSparse(fsys, t, g, node, width)
	if err != nil {
		return err
	}
	if declared {
		x.Cols = width
	}
	g.F, g.XS = x.Cols, x
	return nil
}

// readSparse reads a table of sparse features, a line per non-zero: a
// node (node reads it from a line: by its number in a bundle, by its id
// in a FEATHER folder), a feature below width and, in a third column,
// its value (1 where there is none), up to the limits as it reads; then
// the matrix, repeats summed (csrOf), their note in g's. The one reader of
// a bundle's and a FEATHER folder's features.csv.
func readSparse(fsys fs.FS, t *table, g *Graph, node func(row []string) (int, error), width int) (*CSR, error) {
	var es []entry
	lim := limitsOf(fsys)
	for {
		row, err := t.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		n, err := node(row)
		if err != nil {
			return nil, err
		}
		feature, err := t.int(row, 1, 0, width-1)
		if err != nil {
			return nil, err
		}
		value := 1.0
		if len(row) >= 3 {
			if value, err = t.float(row, 2); err != nil {
				return nil, err
			}
		}
		if len(es) == lim.valuesAt(csvValueBytes) {
			return nil, tooMany(t.file, t.line, 0, lim, phrase.New("more than %s feature values", numtext.Group(lim.valuesAt(csvValueBytes))))
		}
		es = append(es, entry{n, feature, value, t.line})
	}
	x, notes, err := csrOf(t.file, es, g.N)
	if err != nil {
		return nil, err
	}
	g.Notes = append(g.Notes, notes...)
	return x, nil
}

// csrOf makes sparse features of n rows from their non-zeros in any
// order, refusing no features at all. A (node, feature) pair given more
// than once is summed, as karateclub and MUSAE's own readers sum them
// (both build SciPy's COO matrix, whose conversion adds repeats): the
// karate club's Twitch features.csv repeats 535 pairs. The same rule
// holds in every reader of sparse features, and a note says how many.
func csrOf(file string, es []entry, n int) (*CSR, []phrase.Text, error) {
	slices.SortStableFunc(es, func(a, b entry) int {
		return cmp.Or(cmp.Compare(a.node, b.node), cmp.Compare(a.feature, b.feature))
	})
	x := &CSR{Rows: n, Ptr: make([]int, n+1)}
	repeats, first := 0, 0
	for k := 0; k < len(es); {
		e := es[k]
		sum := e.value
		j := k + 1
		for ; j < len(es) && es[j].node == e.node && es[j].feature == e.feature; j++ {
			sum += es[j].value
			if repeats == 0 {
				first = es[j].line
			}
			repeats++
		}
		if math.IsInf(sum, 0) {
			return nil, nil, &BundleError{File: file, Line: es[j-1].line, Column: "value", Msg: phrase.New("node %d's feature %d, given %d times, sums past the largest number", e.node, e.feature, j-k)}
		}
		k = j
		x.Cols = max(x.Cols, e.feature+1)
		if sum != 0 {
			x.Col, x.Val = append(x.Col, int32(e.feature)), append(x.Val, sum)
			x.Ptr[e.node+1] = len(x.Val)
		}
	}
	for i := 1; i <= n; i++ { // rows without entries end where the last did
		x.Ptr[i] = max(x.Ptr[i], x.Ptr[i-1])
	}
	if x.Cols == 0 {
		return nil, nil, &BundleError{File: file, Msg: phrase.New("no features: want a line per non-zero after the header")}
	}
	return x, repeatsNote(file, repeats, first), nil
}

// repeatsNote says that repeated (node, feature) pairs were summed, the
// first at line (0 where the file has no lines, as JSON's).
func repeatsNote(file string, repeats, line int) []phrase.Text {
	switch {
	case repeats == 0:
		return nil
	case line > 0:
		return []phrase.Text{phrase.New("%s: %s (node, feature) pairs given again (the first on line %d) were summed, as karateclub and SciPy's sparse matrices read them", file, numtext.Group(repeats), line)}
	}
	return []phrase.Text{phrase.New("%s: %s features listed again for their node were summed, as karateclub and SciPy's sparse matrices read them", file, numtext.Group(repeats))}
}

// isMissing reports whether fsys has no features file.
func isMissing(fsys fs.FS) bool {
	return !input.Exists(fsys, featuresFile)
}

// noteUnusedWidth says, in g.Notes, that g's features are far wider than
// the columns any node uses: over half of them, and over 1,000, never
// non-zero. A file's width is what it declares (a bundle's meta.json, a
// .npz's attr_shape) or its largest index plus one (features.json, a
// features.csv), as SciPy's and karateclub's readers make it; one written
// wrong (1048575 for 1575) widens every model's first layer, and the
// memory and time it asks, with no other sign. Every format's graph
// passes here (Open).
func noteUnusedWidth(g *Graph) {
	used := usedColumns(g)
	if unused := g.F - used; unused <= g.F/2 || unused <= 1000 {
		return
	}
	g.Notes = append(g.Notes, phrase.New("the node features are %s columns wide, but only %s of those columns are non-zero for any node: if a file's width or a feature index is written wrong, every model's first layer is that wide", numtext.Group(g.F), numtext.Group(used)))
}

// usedColumns counts the feature columns non-zero for some node.
func usedColumns(g *Graph) int {
	used := make([]bool, g.F)
	if g.XS != nil {
		for p, c := range g.XS.Col {
			used[c] = used[c] || g.XS.Val[p] != 0
		}
	} else {
		for row := 0; row+g.F <= len(g.X); row += g.F {
			for c, v := range g.X[row : row+g.F] {
				used[c] = used[c] || v != 0
			}
		}
	}
	n := 0
	for _, u := range used {
		if u {
			n++
		}
	}
	return n
}
