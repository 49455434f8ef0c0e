package datasets

import (
	"cmp"
	"io"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/input"
	"pdnexplorer/internal/numtext"
)

// An OGB node-property folder is how the Open Graph Benchmark publishes
// ogbn-arxiv and its siblings, every file a headerless CSV, gzipped:
//
//	raw/edge.csv.gz            u,v a line (directed; made undirected here)
//	raw/node-label.csv.gz      a node's class a line
//	raw/node-feat.csv.gz       a node's F features a line (optional)
//	raw/edge-feat.csv.gz       an edge's features a line, as edge.csv (optional)
//	raw/num-node-list.csv.gz   N (optional: else the labels' count)
//	split/NAME/train.csv.gz, valid.csv.gz, test.csv.gz   node ids a line
//	mapping/labelidx2*.csv.gz  the classes' names (optional)
//
// The files may also come inflated (edge.csv). A task with several labels
// a node (ogbn-proteins) or several node types (ogbn-mag) is refused:
// the explorer classifies each node of one type into one class.
const ogbEdges = "raw/edge"

// ogbFile is the name fsys holds base under, gzipped, in bzip2 or not
// (or in a compression not read, which opening it refuses by name); ""
// if none.
func ogbFile(fsys fs.FS, base string) string {
	if !utf8.ValidString(base) { // a folder's name: opening it says to rename it
		return base + ".csv.gz"
	}
	for _, name := range append([]string{base + ".csv.gz", base + ".csv.bz2", base + ".csv"}, input.UnreadForms(base+".csv")...) {
		if input.Exists(fsys, name) {
			return name
		}
	}
	return ""
}

// isOGB reports whether fsys holds an OGB node-property folder.
func isOGB(fsys fs.FS) bool { return ogbFile(fsys, ogbEdges) != "" }

// isFlatOGB reports whether fsys holds an OGB folder's raw/ files without
// their folder, as a file picker gives them: edge.csv.gz at the root,
// with node-label.csv.gz, or with the files of OGB's other tasks
// (graph-label.csv.gz, num-node-list.csv.gz), which its reader names.
func isFlatOGB(fsys fs.FS) bool {
	if ogbFile(fsys, "edge") == "" {
		return false
	}
	return slices.ContainsFunc([]string{"node-label", "graph-label", "num-node-list"}, func(base string) bool { return ogbFile(fsys, base) != "" })
}

// notNodeTask says why an OGB folder without raw/node-label is none the
// explorer trains: OGB's graph-property datasets (ogbg-…) give each of
// many small graphs one class (raw/graph-label), its link-property ones
// (ogbl-…) no class at all; the explorer classifies the nodes of one graph.
func notNodeTask(fsys fs.FS) error {
	if labels := ogbFile(fsys, "raw/graph-label"); labels != "" {
		return &BundleError{File: labels, Msg: phrase.New("an OGB graph-property dataset (ogbg-…): its classes are whole graphs', one for each of the many small graphs raw/ holds, and the explorer classifies the nodes of one graph: open a node-property dataset (ogbn-…, with raw/node-label.csv.gz)")}
	}
	return &BundleError{File: "raw/node-label.csv.gz", Msg: phrase.New("missing: an OGB node-property dataset (ogbn-…) gives each node's class there, and a folder without it is of OGB's link-property kind (ogbl-…), which asks which edges a graph holds and gives no node a class; the explorer classifies nodes: open a node-property dataset (ogbn-…)")}
}

// flatOGB is a folder of OGB's raw/ files without their folder, read as
// the folder: raw/NAME is NAME.
type flatOGB struct{ fs.FS }

func (f flatOGB) Open(name string) (fs.File, error) {
	switch {
	case name == "raw":
		return f.FS.Open(".")
	case strings.HasPrefix(name, "raw/"):
		return f.FS.Open(strings.TrimPrefix(name, "raw/"))
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

// limits keeps the folder's limits, and session its reading.
func (f flatOGB) limits() limits    { return limitsOf(f.FS) }
func (f flatOGB) session() *reading { return sessionOf(f.FS) }

// Stat, Lstat, ReadLink and ReadDir look where Open does, never opening
// a file to stat it (a pipe would wait forever).
func (f flatOGB) Stat(name string) (fs.FileInfo, error) {
	return f.look(name, input.FS{FS: f.FS}.Stat)
}

func (f flatOGB) Lstat(name string) (fs.FileInfo, error) {
	return f.look(name, input.FS{FS: f.FS}.Lstat)
}

func (f flatOGB) ReadLink(name string) (string, error) {
	if after, ok := strings.CutPrefix(name, "raw/"); ok {
		return fs.ReadLink(f.FS, after)
	}
	return "", &fs.PathError{Op: "readlink", Path: name, Err: fs.ErrNotExist}
}

func (f flatOGB) ReadDir(name string) ([]fs.DirEntry, error) {
	if name != "raw" {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	return input.ReadDir(f.FS, ".")
}

func (f flatOGB) look(name string, stat func(string) (fs.FileInfo, error)) (fs.FileInfo, error) {
	switch {
	case name == "raw":
		return stat(".")
	case strings.HasPrefix(name, "raw/"):
		return stat(strings.TrimPrefix(name, "raw/"))
	}
	return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
}

// readFlatOGB reads OGB's raw/ files given without their folder: no split
// comes with them, so one is drawn, and a note says so.
func readFlatOGB(fsys fs.FS, _ Columns) (*Graph, bool, error) {
	g, _, err := ReadOGBFS(flatOGB{fsys})
	if err != nil {
		return nil, false, err
	}
	g.Notes = append(g.Notes, phrase.New("these are an OGB folder's raw/ files without the folder, so without OGB's split/: a split is drawn (open the whole folder, with Open a folder\u2026 or its path, to keep OGB's)"))
	return g, true, nil
}

// ReadOGBFS reads the OGB folder at the root of fsys with its split (the
// first under split/ by name); nodes no split lists are validation
// nodes, trained on and tested on never. resplit says it had no split.
func ReadOGBFS(fsys fs.FS) (g *Graph, resplit bool, err error) {
	if sessionOf(fsys) == nil {
		return within(fsys, func(f fs.FS) (*Graph, bool, error) { return ReadOGBFS(f) })
	}
	if input.IsDir(fsys, "raw/node-feat") {
		return nil, false, &BundleError{File: "raw/node-feat", Msg: phrase.New("a folder of node types: a heterogeneous OGB graph (as ogbn-mag) is not one the explorer trains")}
	}
	g = &Graph{Meta: map[string]any{"name": "ogb"}}
	noClass, err := readOGBLabels(fsys, g)
	if err != nil {
		return nil, false, err
	}
	if name := ogbFile(fsys, "raw/node-feat"); name != "" {
		rows, err := readNumbers(fsys, name, lines{n: g.N, from: cmp.Or(ogbFile(fsys, "raw/num-node-list"), ogbFile(fsys, "raw/node-label")), per: "node"}, -1)
		if err != nil {
			return nil, false, err
		}
		g.F = len(rows) / g.N
		g.X = rows
		if density(g.X) < sparseBelow {
			g.X, g.XS = nil, SparseOf(g.X, g.N, g.F)
		}
	}
	if err := readOGBEdges(fsys, g); err != nil {
		return nil, false, err
	}
	resplit, err = readOGBSplit(fsys, g, noClass)
	if err != nil {
		return nil, false, err
	}
	ogbAttributeFiles(fsys, g)
	return g, resplit, g.Check()
}

// readOGBLabels reads N and the classes; it gives the cells of the nodes
// without a class, as node-label writes them (nan, -1…), by node.
func readOGBLabels(fsys fs.FS, g *Graph) (noClass map[int]string, err error) {
	name := ogbFile(fsys, "raw/node-label")
	if name == "" {
		return nil, notNodeTask(fsys)
	}
	n := -1
	count := ogbFile(fsys, "raw/num-node-list")
	if count != "" {
		v, err := readNumbers(fsys, count, lines{n: 1, per: "graph"}, 1)
		if err != nil {
			return nil, err
		}
		if v[0] < 1 || v[0] > MaxNodes || v[0] != float64(int(v[0])) {
			return nil, &BundleError{File: count, Line: 1, Msg: phrase.New("%v is not a node count in [1, %s]", v[0], numtext.Group(MaxNodes))}
		}
		n = int(v[0])
	}
	var cells []string
	err = readRows(fsys, name, lines{n: n, from: count, per: "node"}, 1, func(t *table, row []string) error {
		cell := strings.TrimSpace(row[0])
		if !IsNoClass(cell) { // OGB writes nan for a node without a class
			l, err := numtext.ParseFloat(cell)
			if err != nil || l != float64(int(l)) || l < 0 || l >= MaxClasses {
				return &BundleError{File: name, Line: t.line, Col: 1, Msg: phrase.New("%s is not a class in [0, %d] (nor nan, OGB's mark of a node without one)", quote(cell), MaxClasses-1)}
			}
			cell = strconv.Itoa(int(l))
		}
		cells = append(cells, cell)
		return nil
	})
	if err != nil {
		return nil, err
	}
	g.N = len(cells)
	names, namesFile, err := readOGBClassNames(fsys)
	if err != nil {
		return nil, err
	}
	none := map[int]string{}
	for i, c := range cells {
		if IsNoClass(c) {
			none[i] = c
		}
	}
	return none, setClasses(g, classCells{file: name, cells: cells, numbered: true, names: names, namesFile: namesFile})
}

// lines are the lines a headerless table must hold: n (any when
// negative), as the file from counts them (num-node-list, or the labels'
// lines), each the value of one node, edge or graph (per), or of none
// ("": a list of ids, whose order carries nothing).
type lines struct {
	n    int
	from string
	per  string
}

// any is a table of any number of lines.
func anyLines(per string) lines { return lines{n: -1, per: per} }

// readNumbers reads a headerless table of numbers: rows.n lines (any when
// negative) of width values each (any one width when negative).
func readNumbers(fsys fs.FS, name string, rows lines, width int) ([]float64, error) {
	var out []float64
	err := readRows(fsys, name, rows, width, func(t *table, row []string) error {
		for c := range row {
			v, err := t.float(row, c)
			if err != nil {
				return err
			}
			out = append(out, v)
		}
		return nil
	})
	return out, err
}

// readRows reads a headerless table, handing each row to each: rows.n
// lines (any when negative) of width values each (any one width when
// negative). A table whose lines are each a node's (or an edge's) value
// refuses an empty line before its last value: pandas, as OGB's loader
// reads these files, skips it, so every later value would move up one,
// onto the node before, and nothing would say so.
func readRows(fsys fs.FS, name string, count lines, width int, each func(t *table, row []string) error) error {
	rows := count.n
	t, err := openData(fsys, name, func([]string) bool { return false })
	if err != nil {
		return err
	}
	defer t.closer.Close()
	if width > 0 && len(t.header) != width {
		what := phrase.New("a task with several labels a node")
		if width != 1 {
			what = phrase.New("want %d", width)
		}
		return &BundleError{File: name, Line: 1, Msg: phrase.New("%d values a line: %s", len(t.header), what)}
	}
	lim := limitsOf(fsys)
	most := lim.valuesAt(ogbValueBytes)
	if rows > 0 && rows*len(t.header) > most { // known from its first line
		return tooMany(name, 1, 0, lim, phrase.New("%s numbers a line for %s nodes, more than %s in all", numtext.Group(len(t.header)), numtext.Group(rows), numtext.Group(most)))
	}
	n, values := 0, 0
	for {
		row, err := t.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if values += len(row); values > most {
			return tooMany(name, t.line, 0, lim, phrase.New("more than %s numbers", numtext.Group(most)))
		}
		if count.per != "" && count.per != "graph" && t.blank > 0 {
			msg := phrase.New("the line is empty, and each line is one node's value: pandas (as OGB reads the file) would skip it, moving every later node's value up one, onto the node before: give the line its value (nan for a node without a class), or delete it")
			if count.per == "edge" {
				msg = phrase.New("the line is empty, and each line is one edge's value: pandas (as OGB reads the file) would skip it, moving every later edge's value up one, onto the edge before: give the line its value, or delete it")
			}
			return &BundleError{File: name, Line: t.blank, Msg: msg}
		}
		if n++; rows >= 0 && n > rows {
			if count.per == "graph" {
				return &BundleError{File: name, Line: t.line, Msg: phrase.New("a second graph's node count: a line is one graph's, and a folder of node classes holds one graph (OGB's node property prediction); the files of many small graphs each with a class are a graph property prediction dataset, which the explorer does not read")}
			}
			if count.from != "" {
				return &BundleError{File: name, Line: t.line, Msg: phrase.New("more lines than the %s nodes %s gives: want one a node", numtext.Group(rows), count.from)}
			}
			return &BundleError{File: name, Line: t.line, Msg: phrase.New("more lines than the %s nodes", numtext.Group(rows))}
		}
		if n > 4*MaxNodes {
			return &BundleError{File: name, Line: t.line, Msg: phrase.New("more than %s lines", numtext.Group(4*MaxNodes))}
		}
		if err := each(t, row); err != nil {
			return err
		}
	}
	if rows >= 0 && n != rows && count.from != "" {
		return &BundleError{File: name, Msg: phrase.New("%s lines, and %s gives %s nodes: want one a node", numtext.Group(n), count.from, numtext.Group(rows))}
	}
	if rows >= 0 && n != rows || n == 0 {
		return &BundleError{File: name, Msg: phrase.New("%s lines; want one a node (%s)", numtext.Group(n), numtext.Group(max(rows, 1)))}
	}
	return nil
}

// readOGBEdges reads the edges, undirected, each pair once with the
// features of its first line.
func readOGBEdges(fsys fs.FS, g *Graph) error {
	name := ogbFile(fsys, ogbEdges)
	var feat []float64
	if fname := ogbFile(fsys, "raw/edge-feat"); fname != "" {
		var err error
		if feat, err = readEdgeFeatures(fsys, fname, g); err != nil {
			return err
		}
	}
	t, err := openData(fsys, name, func([]string) bool { return false })
	if err != nil {
		return err
	}
	defer t.closer.Close()
	if len(t.header) != 2 {
		return &BundleError{File: name, Line: 1, Msg: phrase.New("%d values a line; want the two ends of an edge", len(t.header))}
	}
	featName := ogbFile(fsys, "raw/edge-feat")
	p := newPairs(fsys, name, "OGB")
	for line := 0; ; line++ {
		row, err := t.next()
		if err == io.EOF {
			if feat != nil && line*g.D != len(feat) {
				return &BundleError{File: featName, Msg: phrase.New("has %s lines, and %s has %s: want a line for each of its lines", numtext.Group(len(feat)/g.D), name, numtext.Group(line))}
			}
			if err := checkOGBEdgeCount(fsys, name, line); err != nil {
				return err
			}
			break
		}
		if err != nil {
			return err
		}
		u, v, err := t.ends(row, g.N)
		if err != nil {
			return err
		}
		e, err := p.edge(int32(u), int32(v), t.line)
		if err != nil {
			return err
		}
		if e < 0 {
			continue
		}
		if feat != nil {
			if (line+1)*g.D > len(feat) {
				return &BundleError{File: featName, Msg: phrase.New("has %s lines, and %s has more: want a line for each of its lines", numtext.Group(len(feat)/g.D), name)}
			}
			for c, x := range feat[line*g.D : (line+1)*g.D] {
				p.value(g, e, c, x, true, false)
			}
		}
		if !p.again {
			g.Src, g.Dst = append(g.Src, int32(min(u, v))), append(g.Dst, int32(max(u, v)))
		}
	}
	p.note(g)
	return nil
}

// checkOGBEdgeCount reads raw/num-edge-list, where there is one: OGB's
// loader reads that many of edge.csv's lines as the graph's edges, so a
// count that is not edge.csv's n lines would make another graph there;
// it is refused naming both files.
func checkOGBEdgeCount(fsys fs.FS, edges string, n int) error {
	count := ogbFile(fsys, "raw/num-edge-list")
	if count == "" {
		return nil
	}
	v, err := readNumbers(fsys, count, lines{n: 1}, 1)
	if err != nil {
		return err
	}
	if v[0] != float64(n) {
		return &BundleError{File: count, Line: 1, Msg: phrase.New("gives %v edges, and %s has %s lines: OGB's loader would read the first %v of them as the graph's edges; make the count the lines'", v[0], edges, numtext.Group(n), v[0])}
	}
	return nil
}

// ogbAttributeFiles are the files of raw/ that OGB's loader reads as a
// node's or an edge's attribute beside the graph, named node_… or edge_…
// (ogbn-arxiv's node_year, ogbn-mag's edge_reltype): neither feature nor
// class. They are the folder's own, given alone or in it, and a note says
// they are not used.
func ogbAttributeFiles(fsys fs.FS, g *Graph) {
	entries, _ := input.Entries(fsys, "raw")
	var names []string
	for _, e := range entries {
		base := strings.ToLower(input.Plain(e.Name))
		if e.Dir || !strings.HasSuffix(base, ".csv") || !strings.HasPrefix(base, "node_") && !strings.HasPrefix(base, "edge_") {
			continue
		}
		name := path.Join("raw", e.Name)
		opened(fsys, name, nil)
		names = append(names, name)
	}
	if len(names) > 0 {
		g.Notes = append(g.Notes, phrase.New("%s: OGB's loader keeps these as attributes beside the graph (as ogbn-arxiv's node_year), neither features nor classes: not used", strings.Join(names, ", ")))
	}
}

// readEdgeFeatures reads raw/edge-feat and sets g.D.
func readEdgeFeatures(fsys fs.FS, name string, g *Graph) ([]float64, error) {
	t, err := openData(fsys, name, func([]string) bool { return false })
	if err != nil {
		return nil, err
	}
	g.D = len(t.header)
	t.closer.Close()
	return readNumbers(fsys, name, anyLines("edge"), g.D)
}

// readOGBSplit marks the nodes of the folder's split, the one folder
// under split/; it reports whether there was none. Nodes it lists nowhere
// are validation nodes, trained and tested on never; nodes without a
// class stay unlabelled, and a split that lists one, lists a node twice
// or names two splits is refused.
func readOGBSplit(fsys fs.FS, g *Graph, noClass map[int]string) (resplit bool, err error) {
	entries, _ := input.ReadDir(fsys, "split")
	var dirs []string
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, e.Name())
		}
	}
	switch {
	case len(dirs) == 0:
		return true, nil
	case len(dirs) > 1:
		quoted := make([]string, len(dirs))
		for i, d := range dirs {
			quoted[i] = "split/" + plainOrQuoted(d)
		}
		return false, &BundleError{File: "split/", Msg: phrase.New("holds %d splits (%s), and nothing in the folder says which is the task's: keep the one to train on under split/ and move the others out (OGB publishes one a task: ogbn-arxiv's time, ogbn-products' sales_ranking)", len(dirs), someOf(quoted))}
	}
	for i := range g.Splits {
		if g.Splits[i] != Unlabelled {
			g.Splits[i] = Val
		}
	}
	type listed struct {
		file string
		line int
	}
	first := make(map[int]listed)
	for _, part := range []struct {
		file string
		s    Split
	}{{"train", Train}, {"valid", Val}, {"test", Test}} {
		name := ogbFile(fsys, path.Join("split", dirs[0], part.file))
		if name == "" {
			return false, &BundleError{File: path.Join("split", dirs[0], part.file+".csv.gz"), Msg: phrase.New("cannot read: missing (a split lists train, valid and test nodes)")}
		}
		ids, err := readNumbers(fsys, name, anyLines(""), 1)
		if err != nil {
			return false, err
		}
		for i, v := range ids {
			line := i + 1
			if v != float64(int(v)) || v < 0 || int(v) >= g.N {
				return false, &BundleError{File: name, Line: line, Col: 1, Msg: phrase.New("%v is not a node in [0, %d]", v, g.N-1)}
			}
			node := int(v)
			if at, twice := first[node]; twice {
				return false, &BundleError{File: name, Line: line, Col: 1, Msg: phrase.New("node %d is listed already, on line %d of %s: a node is in one split, once (train, valid or test)", node, at.line, at.file)}
			}
			if g.Labels[node] == NoClass {
				return false, &BundleError{File: name, Line: line, Col: 1, Msg: phrase.New("node %d has no class (%s on line %d of %s): a node without one is trained and tested on never, so no split lists it", node, quote(noClass[node]), node+1, ogbFile(fsys, "raw/node-label"))}
			}
			first[node] = listed{name, line}
			g.Splits[node] = part.s
		}
	}
	g.Meta["split"] = dirs[0]
	return false, nil
}

// readOGBClassNames reads the classes' names from
// mapping/labelidx2*.csv.gz, if the folder has one (a class number and
// its name a line), and the file they come from; the class builder holds
// them to the labels (every class named, once). A mapping whose first
// column is no class numbers leaves the classes numbers; a file that is
// no text, damaged, or a table at fault (a row cut short, the header again)
// is refused as any other.
func readOGBClassNames(fsys fs.FS) (names []string, file string, err error) {
	var matches []string
	entries, _ := input.ReadDir(fsys, "mapping")
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "labelidx2") && strings.Contains(e.Name(), ".csv") {
			matches = append(matches, "mapping/"+e.Name())
		}
	}
	if len(matches) == 0 {
		return nil, "", nil
	}
	file = matches[0]
	t, err := openData(fsys, file, looksLikeHeader)
	if err != nil {
		return nil, "", err
	}
	defer t.closer.Close()
	for len(names) < MaxClasses {
		row, err := t.next()
		if err == io.EOF || err == nil && len(row) < 2 {
			break
		}
		if err != nil {
			return nil, "", err // a row cut short, the header again: as any table's
		}
		k, err := numtext.ParseInt(strings.TrimSpace(row[0]))
		if err != nil || k < 0 || k >= MaxClasses {
			return nil, "", nil // no mapping of class numbers
		}
		names = append(names, make([]string, max(0, k+1-len(names)))...)
		names[k] = strings.TrimSpace(row[1])
	}
	return names, file, nil // the class builder holds them to the labels
}
