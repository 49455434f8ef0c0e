package datasets

import (
	"bufio"
	"errors"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"

	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/input"
	"pdnexplorer/internal/numtext"
)

// A Matrix Market file (.mtx, also gzipped or in bzip2) is how
// SuiteSparse and Network Repository publish graphs: the adjacency
// matrix, read as scipy.io.mmread reads it. Its first line is the banner
// (%%MatrixMarket matrix coordinate|array real|integer|pattern
// general|symmetric|skew-symmetric); % lines are comments, skipped
// whatever their bytes (input.Text.CommentLines); the size line
// gives M N and, for coordinate, NNZ; each entry is a row, a column (from
// 1) and, but for pattern, a value (array: the values column by column,
// a symmetric matrix's lower triangle only). A square matrix is a graph
// of N nodes, nodes without edges kept; its values are the edge feature
// weight (pattern: none, so Open gives the tie-strength scores). Edges
// are undirected, each pair once: a symmetric matrix stores one triangle,
// a general one may hold both directions, and a note counts the pairs
// listed one way only; self-loops (the diagonal) are dropped, counted.
// Complex and hermitian matrices are refused, and so is one that is not
// square (a bipartite graph's).
//
// The classes are a labels file's beside it: Network Repository's
// NAME.node_labels (a node and its class a line), a labels.csv or a
// NAME_labels.txt, each read as an edge list's labels file is (its id and
// class columns chosen the same way), its nodes numbered 1..N as the
// matrix numbers them; a file of one column gives node i's class on its
// line i. A node it leaves out, or marks as missing, has no class.

// isMTXName says a file's name is a Matrix Market file's.
func isMTXName(name string) bool { return strings.EqualFold(path.Ext(input.Plain(name)), ".mtx") }

// mtxFiles are a Matrix Market graph's files: the matrix, and its labels
// file ("" if none is found beside it).
type mtxFiles struct {
	matrix, labels string
	// several are the files beside it that might be its labels, where
	// no one of them is: which holds the classes cannot be told.
	several []string
}

// findMTX finds the one Matrix Market file at the root of fsys, and its
// labels file: the one other file of a graph there, or of several, the
// one whose name says labels.
func findMTX(fsys fs.FS) (mtxFiles, bool) {
	var matrices, others []string
	for _, n := range rootFiles(fsys) {
		switch {
		case isMTXName(n):
			matrices = append(matrices, n)
		case graphPart(n) && !strings.EqualFold(path.Ext(n), ".zip"):
			others = append(others, n)
		}
	}
	if len(matrices) != 1 {
		return mtxFiles{}, false
	}
	mf := mtxFiles{matrix: matrices[0]}
	named := slices.DeleteFunc(slices.Clone(others), func(n string) bool { return !strings.Contains(strings.ToLower(n), "label") })
	switch {
	case len(others) == 1:
		mf.labels = others[0]
	case len(named) == 1:
		mf.labels = named[0]
	case len(named) > 1:
		mf.several = named
	default:
		mf.several = others
	}
	return mf, true
}

func findMTXFile(fsys fs.FS) (readFunc, bool) {
	mf, ok := findMTX(fsys)
	if !ok {
		return nil, false
	}
	return func(f fs.FS, c Columns) (*Graph, bool, error) {
		if len(mf.several) > 0 {
			quoted := make([]string, len(mf.several))
			for i, n := range mf.several {
				quoted[i] = plainOrQuoted(n)
			}
			return nil, true, &BundleError{File: mf.matrix, Msg: phrase.New("%s are beside it, and which of them holds its classes cannot be told: keep one labels file beside it (NAME.node_labels, labels.csv or NAME_labels.txt)", someOf(quoted))}
		}
		g, err := ReadMatrixMarketFS(f, mf.matrix, mf.labels, c)
		return g, true, err
	}, true
}

// mtxNearMiss says why Matrix Market files are no graph: there are
// several, and a Matrix Market file is one graph.
func mtxNearMiss(fsys fs.FS) phrase.Text { return severalNearMiss(fsys, isMTXName, "Matrix Market") }

// mtxHeader is what a Matrix Market file's banner and size line say.
type mtxHeader struct {
	array           bool   // array, not coordinate
	field, symmetry string // real, integer or pattern; general, symmetric or skew-symmetric
	rows, cols, nnz int
	line            int // the size line's
}

// mtxReader reads a Matrix Market file line by line.
type mtxReader struct {
	file  string
	sc    *bufio.Scanner
	line  int
	text  string
	start []int // each field's byte column
}

// next reads the next line that is no comment and not blank, as fields;
// io.EOF at the end.
func (r *mtxReader) next() ([]string, error) {
	for r.sc.Scan() && r.sc.Err() == nil { // a line cut by a fault of the text is no line
		r.line++
		r.text = r.sc.Text()
		if strings.HasPrefix(r.text, "%%MatrixMarket") || strings.HasPrefix(strings.ToLower(r.text), "%%matrixmarket") {
			return nil, r.errorAt(r.line, 1, "a second banner (%%%%MatrixMarket …): were two files joined into one? Keep one, save it, and open it again")
		}
		if strings.HasPrefix(strings.TrimLeft(r.text, " \t"), "%") {
			continue
		}
		var fields []string
		r.start = r.start[:0]
		for i := 0; i < len(r.text); {
			for i < len(r.text) && (r.text[i] == ' ' || r.text[i] == '\t' || r.text[i] == '\r') {
				i++
			}
			j := i
			for j < len(r.text) && r.text[j] != ' ' && r.text[j] != '\t' && r.text[j] != '\r' {
				j++
			}
			if j > i {
				fields, r.start = append(fields, r.text[i:j]), append(r.start, i+1)
			}
			i = j
		}
		if len(fields) > 0 {
			return fields, nil
		}
	}
	if err := r.sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, tooLongRow(r.file, r.line+1)
		}
		if isInputError(err) {
			return nil, located(err)
		}
		return nil, &BundleError{File: r.file, Line: r.line + 1, Msg: phrase.Of(err)}
	}
	return nil, io.EOF
}

func (r *mtxReader) errorAt(line, col int, format string, args ...any) error {
	return &BundleError{File: r.file, Line: line, Col: col, Msg: phrase.New(format, args...)}
}

// errorf is an error at field i of the current line.
func (r *mtxReader) errorf(i int, format string, args ...any) error {
	col := 0
	if i < len(r.start) {
		col = r.start[i]
	}
	return r.errorAt(r.line, col, format, args...)
}

// ReadMatrixMarketFS reads the Matrix Market file name in fsys, its
// classes from the labels file beside it (labels).
func ReadMatrixMarketFS(fsys fs.FS, name, labels string, cols Columns) (*Graph, error) {
	if sessionOf(fsys) == nil {
		g, _, err := within(fsys, func(f fs.FS) (*Graph, bool, error) {
			g, err := ReadMatrixMarketFS(f, name, labels, cols)
			return g, true, err
		})
		return g, err
	}
	text, err := openInput(fsys, name)
	if err != nil {
		return nil, err
	}
	defer text.Close()
	// mmread skips % lines whatever their bytes (a name in Latin-1); the
	// banner and the numbers are still held to UTF-8.
	text.CommentLines('%')
	sc := bufio.NewScanner(text)
	sc.Buffer(make([]byte, 0, 1<<16), maxLine)
	r := &mtxReader{file: name, sc: sc}
	h, err := r.header(limitsOf(fsys))
	if err != nil {
		return nil, err
	}
	if labels == "" {
		return nil, &BundleError{File: name, Msg: phrase.New("a Matrix Market file holds the edges, not the classes: put a labels file beside it (NAME.node_labels, labels.csv or NAME_labels.txt: a line per node, its number 1..%s as in the matrix and its class)", numtext.Group(h.rows))}
	}
	base := strings.TrimSuffix(input.Plain(name), path.Ext(input.Plain(name)))
	g := &Graph{N: h.rows, Meta: map[string]any{"name": base}}
	if err := readMTXLabels(fsys, labels, name, g, cols); err != nil {
		return nil, err
	}
	if err := r.entries(g, h, newPairs(fsys, name, "Matrix Market").lim); err != nil {
		return nil, err
	}
	return g, g.Check()
}

// header reads the banner and the size line, refusing what scipy's
// mmread refuses and what is no graph, and a size beyond lim before a
// value is read.
func (r *mtxReader) header(lim limits) (mtxHeader, error) {
	var h mtxHeader
	// The banner cut short by a fault of the text (a byte that is not
	// UTF-8) is the fault, not a banner that is not one.
	if !r.sc.Scan() || r.sc.Err() != nil {
		if err := r.sc.Err(); err != nil {
			if isInputError(err) {
				return h, located(err)
			}
			return h, &BundleError{File: r.file, Line: 1, Msg: phrase.Of(err)}
		}
		return h, &BundleError{File: r.file, Msg: phrase.New("empty file: want the banner %%%%MatrixMarket matrix coordinate real general (or array, integer, pattern, symmetric, skew-symmetric)")}
	}
	r.line = 1
	banner := strings.Fields(strings.ToLower(r.sc.Text()))
	if len(banner) != 5 || banner[0] != "%%matrixmarket" {
		return h, r.errorAt(r.line, 1, "not a Matrix Market file: its first line is not the banner %%%%MatrixMarket matrix coordinate|array real|integer|pattern general|symmetric|skew-symmetric, as scipy's mmread wants it")
	}
	h.field, h.symmetry = banner[3], banner[4]
	switch {
	case banner[1] != "matrix":
		return h, r.errorAt(r.line, 1, "the banner names a %s, not a matrix: the explorer reads a graph's adjacency matrix", quote(banner[1]))
	case banner[2] != "coordinate" && banner[2] != "array":
		return h, r.errorAt(r.line, 1, "the banner's format is %s; want coordinate or array", quote(banner[2]))
	case h.field == "complex" || h.symmetry == "hermitian":
		return h, r.errorAt(r.line, 1, "a complex (or hermitian) matrix: an edge's weight is a real number: write its real part (or its magnitude) as real")
	case h.field != "real" && h.field != "integer" && h.field != "unsigned-integer" && h.field != "pattern":
		return h, r.errorAt(r.line, 1, "the banner's field is %s; want real, integer or pattern", quote(h.field))
	case h.symmetry != "general" && h.symmetry != "symmetric" && h.symmetry != "skew-symmetric":
		return h, r.errorAt(r.line, 1, "the banner's symmetry is %s; want general, symmetric or skew-symmetric", quote(h.symmetry))
	}
	h.array = banner[2] == "array"
	if h.array && h.field == "pattern" {
		return h, r.errorAt(r.line, 1, "an array of pattern: an array gives every value, and pattern none (scipy's mmread refuses it too): write coordinate pattern")
	}
	size, err := r.next()
	if err == io.EOF {
		return h, &BundleError{File: r.file, Line: r.line + 1, Msg: phrase.New("no size line: want M N NNZ (rows, columns, entries) after the banner and comments")}
	}
	if err != nil {
		return h, err
	}
	h.line = r.line
	want := 3
	if h.array {
		want = 2
	}
	if len(size) != want {
		return h, r.errorAt(r.line, 1, "the size line holds %d numbers; want %d (%s)", len(size), want, map[bool]string{false: "rows, columns, entries", true: "rows, columns"}[h.array])
	}
	var n [3]int
	for i, f := range size {
		v, err := numtext.ParseInt(f)
		if err != nil || v < 0 {
			return h, r.errorf(i, "%s is not a whole number of at least 0", quote(f))
		}
		n[i] = v
	}
	h.rows, h.cols, h.nnz = n[0], n[1], n[2]
	switch {
	case h.rows != h.cols:
		return h, r.errorAt(r.line, 1, "a matrix of %s rows and %s columns: a graph's adjacency is square, a row and a column per node (one that is not is a bipartite graph's, which the explorer does not read)", numtext.Group(h.rows), numtext.Group(h.cols))
	case h.rows > MaxNodes:
		return h, r.errorAt(r.line, 1, "%s nodes: more than %s", numtext.Group(h.rows), numtext.Group(MaxNodes))
	case h.rows == 0:
		return h, r.errorAt(r.line, 1, "a matrix of no rows: no nodes")
	case h.rows > lim.cells:
		// The size line declares the nodes, which a few bytes can: each
		// is a row of the node table (its class), met against the cells
		// held before one is allocated.
		return h, tooMany(r.file, r.line, 0, lim, phrase.New("%s nodes (each a row of classes and features), more than %s cells", numtext.Group(h.rows), numtext.Group(lim.cells)))
	}
	if h.array {
		if cells := h.rows * h.rows; cells > lim.valuesAt(arrayValueBytes) {
			return h, tooMany(r.file, r.line, 0, lim, phrase.New("a dense matrix of %s values", numtext.Group(cells)))
		}
		return h, nil
	}
	// Each edge is listed at most twice (both ways), and the diagonal once.
	most, bound := lim.edges, lim
	if most > MaxNodes*4 {
		most, bound = MaxNodes*4, anywhere(lim)
	}
	if h.nnz > 2*most+h.rows {
		return h, tooMany(r.file, r.line, 0, bound, phrase.New("%s entries, more than %s edges", numtext.Group(h.nnz), numtext.Group(most)))
	}
	return h, nil
}

// mtxEdges keeps the matrix's undirected edges, each pair once: the
// directions each pair was listed in and, weighted, the sum of the values
// listed each way, as SciPy's sparse matrices sum an entry listed twice
// (tocsr, todense, a product).
type mtxEdges struct {
	at    map[[2]int32]int // pair → edge
	dirs  []uint8          // per edge: 1 listed i<j, 2 listed i>j
	first []uint8          // per edge: the direction it was first listed in
	sums  [2][]float64     // per edge, weighted: the values listed i<j, and i>j, summed
	loops int
	again int // entries listed again at a place listed before (its mirror, in a symmetric matrix)
}

// entries reads the entries into g's edges. An entry listed again is
// summed, as SciPy sums it: at its own place, or, in a symmetric or
// skew-symmetric matrix, its mirror's, which mmread stores at both (the
// skew one's negated). A general matrix's pair listed both ways keeps the
// direction listed first, each direction summed, with a note where the
// two differ.
func (r *mtxReader) entries(g *Graph, h mtxHeader, lim limits) error {
	weighted := h.field != "pattern"
	if weighted {
		g.D, g.EdgeNames = 1, []string{"weight"}
	}
	e := &mtxEdges{at: map[[2]int32]int{}}
	add := func(i, j int, w float64) error {
		if i == j {
			e.loops++
			return nil
		}
		key := [2]int32{int32(min(i, j)), int32(max(i, j))}
		dir := uint8(1)
		if i > j {
			dir = 2
		}
		k, ok := e.at[key]
		if !ok {
			if len(e.dirs) >= lim.edges {
				return tooMany(r.file, r.line, 0, lim, phrase.New("more than %s edges", numtext.Group(lim.edges)))
			}
			k = len(e.dirs)
			e.at[key] = k
			e.dirs, e.first = append(e.dirs, 0), append(e.first, dir)
			e.sums[0], e.sums[1] = append(e.sums[0], 0), append(e.sums[1], 0)
			g.Src, g.Dst = append(g.Src, key[0]), append(g.Dst, key[1])
		}
		if e.dirs[k]&dir != 0 || h.symmetry != "general" && e.dirs[k] != 0 {
			e.again++
		}
		e.dirs[k] |= dir
		e.sums[dir-1][k] += w
		return nil
	}
	var err error
	if h.array {
		err = r.arrayEntries(h, add)
	} else {
		err = r.coordinateEntries(h, add)
	}
	if err != nil {
		return err
	}
	differs := 0
	if weighted {
		g.EdgeX = make([]float64, len(e.dirs))
		for k, first := range e.first {
			own, other := e.sums[first-1][k], e.sums[2-first][k]
			switch h.symmetry {
			case "general":
				g.EdgeX[k] = own
				if e.dirs[k] == 3 && own != other {
					differs++
				}
			case "skew-symmetric":
				g.EdgeX[k] = own - other // the mirror's value is the negative of its place's
			default:
				g.EdgeX[k] = own + other
			}
		}
	}
	switch {
	case e.again > 0 && weighted:
		if e.loops > 0 {
			(&pairs{file: r.file, loops: e.loops}).note(g)
		}
		if h.symmetry == "general" {
			g.Notes = append(g.Notes, phrase.New("%s: %s entries are listed again at a place listed before: their values were summed, as SciPy's sparse matrices sum them", r.file, numtext.Group(e.again)))
		} else {
			g.Notes = append(g.Notes, phrase.New("%s: %s entries are listed again at a place listed before or at its mirror (the matrix is %s: mmread stores each entry at both): their values were summed, as SciPy's sparse matrices sum them", r.file, numtext.Group(e.again), h.symmetry))
		}
	case e.loops+e.again > 0:
		(&pairs{file: r.file, loops: e.loops, repeats: e.again}).note(g)
	}
	if h.symmetry == "general" {
		oneWay := 0
		for _, d := range e.dirs {
			if d != 3 {
				oneWay++
			}
		}
		if oneWay > 0 {
			g.Notes = append(g.Notes, phrase.New("%s: the matrix is general (not symmetric), and %s of its %s pairs are listed in one direction only: read as undirected, as the models are trained on undirected graphs, each pair once", r.file, numtext.Group(oneWay), numtext.Group(len(e.dirs))))
		}
		if differs > 0 {
			g.Notes = append(g.Notes, phrase.New("%s: %s pairs are listed both ways with two weights: the direction listed first was kept (each direction's entries summed)", r.file, numtext.Group(differs)))
		}
	}
	if h.symmetry == "skew-symmetric" && weighted {
		g.Notes = append(g.Notes, phrase.New("%s: the matrix is skew-symmetric: each edge's weight is the value its triangle stores (the other direction's is its negative)", r.file))
	}
	return nil
}

// coordinateEntries reads NNZ entries: a row, a column (1..N) and, but
// for pattern, a value; a line after them is refused.
func (r *mtxReader) coordinateEntries(h mtxHeader, add func(i, j int, w float64) error) error {
	want := 3
	if h.field == "pattern" {
		want = 2
	}
	for k := 0; ; k++ {
		fields, err := r.next()
		if err == io.EOF {
			if k < h.nnz {
				return &BundleError{File: r.file, Line: r.line + 1, Msg: phrase.New("the file ends after %s entries, and its size line (line %d) gives %s: cut short?", numtext.Group(k), h.line, numtext.Group(h.nnz))}
			}
			return nil
		}
		if err != nil {
			return err
		}
		if k >= h.nnz {
			return r.errorAt(r.line, 1, "an entry beyond the %s its size line (line %d) gives: were two files joined into one, or is the size line wrong?", numtext.Group(h.nnz), h.line)
		}
		if len(fields) != want {
			return r.errorAt(r.line, 1, "%d fields; a %s entry is %s", len(fields), h.field, map[bool]string{true: "a row and a column", false: "a row, a column and a value"}[want == 2])
		}
		var ij [2]int
		for c := range ij {
			v, err := numtext.ParseInt(fields[c])
			if err != nil || v < 1 || v > h.rows {
				return r.errorf(c, "%s is not a node: want a whole number in [1, %s] (Matrix Market counts from 1)", quote(fields[c]), numtext.Group(h.rows))
			}
			ij[c] = v - 1
		}
		w := 1.0
		if want == 3 {
			if w, err = r.value(h, fields[2], 2); err != nil {
				return err
			}
		}
		if err := add(ij[0], ij[1], w); err != nil {
			return err
		}
	}
}

// value reads an entry's value as the banner's field says.
func (r *mtxReader) value(h mtxHeader, f string, field int) (float64, error) {
	if h.field == "integer" || h.field == "unsigned-integer" {
		v, err := numtext.ParseInt(f)
		if err != nil {
			return 0, r.errorf(field, "%s is not a whole number (the banner says integer)", quote(f))
		}
		return float64(v), nil
	}
	v, err := numtext.ParseFloat(f)
	if errors.Is(err, numtext.ErrNotFinite) {
		return 0, r.errorf(field, "%s is too large to be a finite number", quote(f))
	}
	if err != nil {
		return 0, r.errorf(field, "%s is not a decimal number", quote(f))
	}
	return v, nil
}

// arrayEntries reads a dense matrix's values, column by column (a
// symmetric one's lower triangle, a skew-symmetric one's below the
// diagonal): each value that is not 0 is an edge.
func (r *mtxReader) arrayEntries(h mtxHeader, add func(i, j int, w float64) error) error {
	n := h.rows
	for j := range n {
		from := 0
		switch h.symmetry {
		case "symmetric":
			from = j
		case "skew-symmetric":
			from = j + 1
		}
		for i := from; i < n; i++ {
			fields, err := r.next()
			if err == io.EOF {
				return &BundleError{File: r.file, Line: r.line + 1, Msg: phrase.New("the file ends before the value of row %d, column %d: an array gives every value of its %s × %s matrix: cut short?", i+1, j+1, numtext.Group(n), numtext.Group(n))}
			}
			if err != nil {
				return err
			}
			if len(fields) != 1 {
				return r.errorAt(r.line, 1, "%d fields; an array gives one value a line", len(fields))
			}
			w, err := r.value(h, fields[0], 0)
			if err != nil {
				return err
			}
			if w != 0 {
				if err := add(i, j, w); err != nil {
					return err
				}
			}
		}
	}
	if _, err := r.next(); err != io.EOF {
		if err != nil {
			return err
		}
		return r.errorAt(r.line, 1, "a value beyond the %s × %s matrix its size line (line %d) gives: were two files joined into one, or is the size line wrong?", numtext.Group(n), numtext.Group(n), h.line)
	}
	return nil
}

// mtxLabelsHeader says a labels file's first row is its header: a cell
// is a name headers use (id, label, class, …), or, in a row of a node and
// its class, the first is no node's number. A file of one column of
// classes has a header only if it is named so: its first class is a word.
func mtxLabelsHeader(first []string) bool {
	for _, c := range first {
		l := strings.ToLower(strings.TrimSpace(c))
		if slices.Contains(idNames, l) || slices.Contains(classNames, l) {
			return true
		}
	}
	if len(first) < 2 {
		return false
	}
	_, err := numtext.ParseInt(strings.TrimSpace(first[0]))
	return err != nil
}

// readMTXLabels gives g's N nodes their classes (and features, from
// further numeric columns) from the labels file name, whose nodes are
// numbered 1..N as in the matrix.
func readMTXLabels(fsys fs.FS, name, matrix string, g *Graph, cols Columns) error {
	nt, err := readNodeRows(fsys, "Matrix Market", name, cols, mtxLabelsHeader, false)
	if err != nil {
		return err
	}
	rowOf := make([]int, g.N) // node → row, -1 if none
	for i := range rowOf {
		rowOf[i] = -1
	}
	id := -1
	if len(nt.header) == 1 && cols.ID == "" {
		if len(nt.rows) != g.N {
			return &BundleError{File: name, Msg: phrase.New("one column of %s classes, and %s gives %s nodes: a labels file of one column gives node i's class on its line i: give a line per node, or a node's number beside its class", numtext.Group(len(nt.rows)), matrix, numtext.Group(g.N))}
		}
		for i := range rowOf {
			if nt.lines[i] != nt.lines[0]+i {
				return &BundleError{File: name, Line: nt.lines[i], Msg: phrase.New("a blank line or a comment before this line: in a labels file of one column, line i is node i's class, and a line skipped would move every class after it to another node: write NA for a node without a class")}
			}
			rowOf[i] = i
		}
	} else {
		if id, err = nt.chooseID(cols.ID); err != nil {
			return err
		}
		for row, v := range nt.values(id) {
			node, err := numtext.ParseInt(strings.TrimSpace(v))
			if err != nil || node < 1 || node > g.N {
				return &BundleError{File: name, Line: nt.lines[row], Column: nt.header[id], Msg: phrase.New("%s is not a node of %s: its nodes are numbered 1..%s (Matrix Market counts from 1)", quote(v), matrix, numtext.Group(g.N))}
			}
			rowOf[node-1] = row
		}
	}
	class, err := nt.chooseClass(cols.Target, id)
	if err != nil {
		return err
	}
	byRow := nt.classCells(class)
	byNode := byRow
	byNode.cells, byNode.none = make([]string, g.N), make([]bool, g.N)
	left := 0
	for node, row := range rowOf {
		if row < 0 {
			byNode.none[node] = true
			left++
			continue
		}
		byNode.cells[node] = byRow.cells[row]
		byNode.none[node] = byRow.none != nil && byRow.none[row]
	}
	byNode.at = func(i int) (int, int) {
		if rowOf[i] < 0 {
			return 0, 0
		}
		return byRow.at(rowOf[i])
	}
	if err := setClasses(g, byNode); err != nil {
		return err
	}
	g.Meta["class_column"] = nt.header[class]
	if id >= 0 {
		g.Meta["id_column"] = nt.header[id]
	}
	if left > 0 {
		g.Notes = append(g.Notes, phrase.New("%s lists %s of the %s nodes of %s: the others have no class", name, numtext.Group(g.N-left), numtext.Group(g.N), matrix))
	}
	skip := []int{class}
	if id >= 0 {
		skip = append(skip, id)
	}
	features := nt.numericColumns(skip...)
	if len(features) > 0 {
		g.F = len(features)
		g.X = make([]float64, g.N*g.F)
		for node, row := range rowOf {
			if row < 0 {
				continue
			}
			for k, c := range features {
				g.X[node*g.F+k], _ = nt.number(nt.rows[row][c])
			}
		}
		if density(g.X) < sparseBelow {
			g.X, g.XS = nil, SparseOf(g.X, g.N, g.F)
		}
	}
	g.Notes = append(g.Notes, nt.notFeatures(features, skip...)...)
	return nil
}
