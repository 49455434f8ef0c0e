package datasets

import (
	"cmp"
	"errors"
	"io/fs"
	"maps"
	"math/bits"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/input"
	"pdnexplorer/internal/numtext"
)

// Formats is what Open reads, for messages.
const Formats = experiment.GraphFormats

// A format is one way a graph is written, one row of formats: its name
// (g.Meta["format"], and messages), its words in experiment.GraphFormats
// (a test keeps the sentence the rows'), how its files are recognised at
// the root of a folder (find gives its reader when they are), and why
// files that come near it are not it (near; nil if none come near); the
// library whose reading its reader follows, its fuzz target and, by its
// name, its fixtures in faults_test.go, which the class × format cells
// and the formats tests read. Open, notAGraph, the path a command takes,
// the docs' formats table (docs/formats.md) and the tests range over the
// rows: a new format is a row and its reader's file, and a row without
// its fuzz target, fixtures, library or docs row fails
// TestEveryFormatHasItsParts.
type format struct {
	name string
	says string
	find func(fs.FS) (readFunc, bool)
	near func(fs.FS) phrase.Text
	// owns are the folders below its root that are its own (an OGB
	// folder's raw/, split/ and mapping/): never taken for another graph.
	owns []string
	// chooses are the Columns its files leave open (the node table's class
	// and id columns, a measurement cut into bins); a choice it does not
	// read is refused by name (NoColumnsError, saying noColumns), never
	// ignored.
	chooses   Columns
	noColumns phrase.Text
	// file is the name's ending of a format whose graph is one file (a
	// GraphML file's .graphml), given alone as a path or among the page's
	// files; ends are the endings of its other files that are no table
	// (a Matrix Market file's .mtx): files a folder's graph is made of.
	file string
	ends []string
	// library is the publisher's library whose reading the reader
	// follows; fuzz its fuzz target.
	library, fuzz string
	// holdsItems says its reader holds each node and edge as an item till
	// the graph is made, within the budget of limits.elements (held.go):
	// a test reads a file of each such row one past a budget.
	holdsItems bool
	// bareClass is where a node table of its files without a header holds
	// the class, as its publisher writes it (readNodeRows reads it from
	// here, for every reader of the row): the last column, or the column
	// after the node's; askClass, the zero value, where nothing says, so
	// a choice between columns is asked.
	bareClass classPlace
	// merges is how its publisher's library keeps the values of a pair
	// listed again (pairs.go): every reader whose edges carry values
	// merges them through pairs.value by this rule.
	merges merging
	// numberIDs says its publisher's library reads a column of node ids
	// written as numbers as the numbers (pandas' read_csv as int64 or
	// float64, Python's int() a JSON key, SciPy's mmread a node's number):
	// "01", "+1" and " 1" are the node 1 in every file of the graph
	// (nodeKeys). Where it is false, an id is its text.
	numberIDs bool
}

// classPlace is where a node table without a header holds the class.
type classPlace int

const (
	askClass     classPlace = iota // nothing says: ask which column, where several could be
	lastClass                      // the last column: Planetoid's .content files (id, features…, class)
	afterIDClass                   // the column after the node: Network Repository's .node_labels (node,label, then features)
)

// every marks, in a format's chooses, the Columns it reads.
var every = Columns{ID: "*", Target: "*", Bins: 1}

// unread are the choices of cols that f does not read.
func (f format) unread(cols Columns) Columns {
	if f.chooses.ID != "" {
		cols.ID = ""
	}
	if f.chooses.Target != "" {
		cols.Target = ""
	}
	if f.chooses.Bins != 0 {
		cols.Bins = 0
	}
	return cols
}

// readFunc reads a graph from a folder its format's find recognised;
// resplit says it came without a split.
type readFunc func(fs.FS, Columns) (g *Graph, resplit bool, err error)

// formats are the formats Open reads, in the order they are tried. They
// are made on first use, not as the package starts: a var set at start
// would keep every reader in every program that imports the package, the
// page's engine worker too, which reads no files (another worker reads
// them: TestEngineLinksNoReader). Not a var of sync.OnceValue: that too is
// set at start, and the rows' finders, which ask namedByARow, would make
// its initialisation a cycle.
func formats() []format {
	formatRows.Do(func() { formatRows.rows = formatTable() })
	return formatRows.rows
}

var formatRows struct {
	sync.Once
	rows []format
}

// formatTable is the rows, made once (formats).
func formatTable() []format {
	return []format{
		{name: "bundle", says: "a bundle (meta.json, nodes.csv, edges.csv)", find: findBundle, near: planetoidNearMiss,
			noColumns: phrase.New("a bundle has no columns to choose (its classes are nodes.csv's label, its nodes its id)"),
			library:   "the explorer's own: pdn gen -out and the PyG export write it, pyg/run_pyg.py reads it", fuzz: "FuzzReadBundle", merges: refusedAgain},
		{name: "MUSAE", says: "a MUSAE or FEATHER folder (edges.csv, target.csv, features.json or features.csv)", find: findMUSAE, near: musaeNearMiss, chooses: every,
			library: "MUSAE's and karateclub's readers (pandas, SciPy's COO matrices)", fuzz: "FuzzReadMUSAE", merges: lastKept, numberIDs: true},
		{name: "node-link JSON", says: "a NetworkX or d3 node-link JSON file", find: findNodeLink, near: nodeLinkNearMiss, chooses: Columns{Target: "*", Bins: 1},
			noColumns: phrase.New("node-link JSON names its nodes by their \"id\", so there is no column of node names to choose"),
			file:      ".json", library: "NetworkX's node_link_graph (links, or 3.4's edges), d3's", fuzz: "FuzzReadNodeLink", holdsItems: true, merges: lastKept},
		{name: "OGB", says: "an OGB node-property folder (raw/edge.csv.gz, raw/node-label.csv.gz)", find: findOGB, owns: []string{"raw", "split", "mapping"},
			noColumns: phrase.New("an OGB folder has no columns to choose (its classes are raw/node-label.csv.gz, its nodes numbered by line)"),
			library:   "ogb's NodePropPredDataset, from its raw files", fuzz: "FuzzReadOGB", merges: summed},
		{name: "GraphML", says: "a GraphML file", find: findGraphMLFile, near: graphmlNearMiss, chooses: Columns{Target: "*", Bins: 1},
			noColumns: phrase.New("a GraphML file names its nodes by their id attribute, so there is no column of node names to choose"),
			file:      ".graphml", library: "NetworkX's read_graphml, igraph's Read_GraphML", fuzz: "FuzzReadGraphML", holdsItems: true, merges: lastKept},
		{name: "GEXF", says: "a GEXF file", find: findGEXFFile, near: gexfNearMiss, chooses: Columns{Target: "*", Bins: 1},
			noColumns: phrase.New("a GEXF file names its nodes by their id attribute, so there is no column of node names to choose"),
			file:      ".gexf", library: "Gephi, NetworkX's read_gexf", fuzz: "FuzzReadGEXF", holdsItems: true, merges: lastKept},
		{name: "npz", says: "a GNN benchmark .npz file", find: findNPZFile, near: npzNearMiss,
			noColumns: phrase.New("a .npz file has no columns to choose (its classes are its labels array, its nodes the adjacency's rows)"),
			file:      ".npz", library: "the GNN benchmark's load_npz (Shchur et al.); PyG's read_npz binarises the attributes", fuzz: "FuzzReadNPZ"},
		{name: "Matrix Market", says: "a Matrix Market file and a labels file", find: findMTXFile, near: mtxNearMiss, chooses: every,
			ends: []string{".mtx", ".node_labels"}, library: "SciPy's mmread; Network Repository's .node_labels", fuzz: "FuzzReadMatrixMarket",
			bareClass: afterIDClass, merges: summed, numberIDs: true},
		{name: "edge list", says: "an edge list and a labels file", find: findEdgeList, near: plainNearMiss, chooses: every,
			library: "pandas' read_csv, NetworkX's read_edgelist (SNAP's and KONECT's comments)", fuzz: "FuzzReadPlain",
			bareClass: lastClass, merges: lastKept, numberIDs: true},
	}
}

// formatNamed is the row called name.
func formatNamed(name string) format {
	rows := formats()
	i := slices.IndexFunc(rows, func(f format) bool { return f.name == name })
	if i < 0 {
		panic("datasets: no format row " + name)
	}
	return rows[i]
}

// PathForms says how a graph is given as a path: a folder, a zip of one,
// or the one file of a format that is one (the rows' file). A func, not a
// var set as the package starts (formats says why).
func PathForms() string {
	return "a folder, a zip of one, or a file of its own (" + strings.Join(oneFiles(), ", ") + ")"
}

// oneFiles are the endings of the formats whose graph is one file.
func oneFiles() []string {
	var out []string
	for _, f := range formats() {
		if f.file != "" {
			out = append(out, f.file)
		}
	}
	return out
}

// namedByARow says a name's ending (ext, with its dot) is a file's of
// some format: a row's file or one of its ends (the rows' finders list
// folders by the names it tells).
func namedByARow(ext string) bool {
	for _, f := range formats() {
		if f.file == ext || slices.Contains(f.ends, ext) {
			return true
		}
	}
	return false
}

func findBundle(fsys fs.FS) (readFunc, bool) {
	if !input.Exists(fsys, "meta.json") {
		return nil, false
	}
	return func(f fs.FS, _ Columns) (*Graph, bool, error) { g, err := ReadBundleFS(f); return g, false, err }, true
}

func findMUSAE(fsys fs.FS) (readFunc, bool) {
	if _, ok := findTableFolder(fsys); !ok {
		return nil, false
	}
	return func(f fs.FS, c Columns) (*Graph, bool, error) { g, err := ReadMUSAEFS(f, c); return g, true, err }, true
}

func findOGB(fsys fs.FS) (readFunc, bool) {
	switch {
	case isOGB(fsys):
		return func(f fs.FS, _ Columns) (*Graph, bool, error) { return ReadOGBFS(f) }, true
	case isFlatOGB(fsys):
		return readFlatOGB, true
	}
	return nil, false
}

func findGraphMLFile(fsys fs.FS) (readFunc, bool) {
	name, ok := findGraphML(fsys)
	if !ok {
		return nil, false
	}
	return func(f fs.FS, c Columns) (*Graph, bool, error) {
		g, err := ReadGraphMLFS(f, name, c)
		return g, true, err
	}, true
}

// graphmlNearMiss says why GraphML files are no graph: there are several.
func graphmlNearMiss(fsys fs.FS) phrase.Text { return severalNearMiss(fsys, isGraphMLName, "GraphML") }

// theOne is the one file at the root of fsys that is names; ok false
// where there is none, or several (severalNearMiss says so): the finder
// of every format whose graph is one file.
func theOne(fsys fs.FS, is func(name string) bool) (string, bool) {
	found := slices.DeleteFunc(rootFiles(fsys), func(n string) bool { return !is(n) })
	if len(found) != 1 {
		return "", false
	}
	return found[0], true
}

// severalNearMiss says why files of a format whose graph is one file
// (kind) are no graph: there are several, and which is meant cannot be
// told; the zero Text where there are not.
func severalNearMiss(fsys fs.FS, is func(name string) bool, kind string) phrase.Text {
	var found []string
	for _, n := range rootFiles(fsys) {
		if is(n) {
			found = append(found, plainOrQuoted(n))
		}
	}
	if len(found) < 2 {
		return phrase.Text{}
	}
	return phrase.New("%s are %d %s files, and a %s file is one graph: open one at a time", someOf(found), len(found), kind, kind)
}

// bundleWithoutMeta says why a bundle's files without meta.json are no
// bundle: nodes.csv's header is a bundle's (id,label,split), and an edge
// list's reader would read them as another format; the zero Text if they
// do not look like a bundle's.
func bundleWithoutMeta(fsys fs.FS) phrase.Text {
	if input.Exists(fsys, "meta.json") || !input.Exists(fsys, "nodes.csv") || !input.Exists(fsys, "edges.csv") {
		return phrase.Text{}
	}
	b, err := input.ReadFile(fsys, "nodes.csv", 4096)
	if err != nil && len(b) == 0 {
		return phrase.Text{}
	}
	head, _, _ := strings.Cut(strings.TrimPrefix(string(b), "\ufeff"), "\n")
	if !strings.HasPrefix(strings.TrimSpace(head), "id,label,split") {
		return phrase.Text{}
	}
	return phrase.New("nodes.csv and edges.csv are a bundle's (nodes.csv's header is id,label,split), and a bundle has a meta.json ({\"name\": …}) beside them: add it, or write the bundle again with pdn gen -data … -out DIR")
}

func findEdgeList(fsys fs.FS) (readFunc, bool) {
	pf, ok := findPlain(fsys)
	if !ok {
		return nil, false
	}
	return func(f fs.FS, c Columns) (*Graph, bool, error) { g, err := readPlain(f, pf, c); return g, true, err }, true
}

// found is the format fsys holds and its reader.
type found struct {
	format
	read readFunc
}

// formatOf tells which format the root of fsys holds; ok false if none.
func formatOf(fsys fs.FS) (found, bool) {
	for _, f := range formats() {
		if read, ok := f.find(fsys); ok {
			return found{f, read}, true
		}
	}
	return found{}, false
}

// Open reads the graph at the root of fsys, in whichever of Formats it
// is, ready to train: a graph without node features gets its degrees as
// features, one without edge features the 11 tie-strength scores, and
// its edges' kinds by their ends' labels when it gives none. resplit says
// it came without a split (every format but a bundle and an OGB folder),
// so ShotSplit must draw one. Its files are read as one reading (within):
// a damaged .gz among them is what a failure reports, and their text's
// notes (UTF-16, lines ending in CR) are the graph's.
func Open(fsys fs.FS, cols Columns) (g *Graph, resplit bool, err error) {
	if err := unreadFile(fsys, false); err != nil {
		return nil, false, err
	}
	f, ok := formatOf(fsys)
	if !ok {
		return nil, false, notAGraph(fsys)
	}
	if unread := f.unread(cols); unread != (Columns{}) {
		return nil, false, &NoColumnsError{Format: f.name, Columns: unread}
	}
	if err := oneGraph(fsys, f); err != nil {
		return nil, false, err
	}
	g, resplit, read, err := readOnce(fsys, func(fsys fs.FS) (*Graph, bool, error) { return f.read(fsys, cols) })
	if err != nil {
		if why := bundleWithoutMeta(fsys); !why.IsZero() && f.name != "bundle" {
			return nil, false, &BundleError{File: "meta.json", Msg: phrase.New("missing: %s", why)}
		}
		return nil, false, err
	}
	if err := nothingElse(fsys, f.name, read); err != nil {
		return nil, false, err
	}
	g.Meta["format"] = f.name
	canonicalEdges(g)
	if g.F == 0 {
		DegreeFeatures(g)
	} else {
		noteUnusedWidth(g)
	}
	if g.D == 0 {
		g = TieStrength(g)
	} else {
		noteSaturating(g)
	}
	if g.Kind == nil {
		KindsByLabel(g)
	}
	if !resplit {
		noteUntrainedClasses(g)
	}
	return g, resplit, nil
}

// noteUntrainedClasses says, in g.Notes, which classes of a split the
// files give have no training node: no model learns such a class, and
// its test nodes count as errors whatever it learns. A split ShotSplit
// draws trains on every class; a file's own may not.
func noteUntrainedClasses(g *Graph) {
	trained, tested := make([]bool, g.C), make([]int, g.C)
	for i, l := range g.Labels {
		if l == NoClass || l < 0 || l >= g.C || i >= len(g.Splits) {
			continue
		}
		switch g.Splits[i] {
		case Train:
			trained[l] = true
		case Test:
			tested[l]++
		}
	}
	var untrained []phrase.Text
	tests := 0
	for k := range g.C {
		if !trained[k] && tested[k] > 0 {
			untrained = append(untrained, phrase.New("%s", g.ClassName(k)))
			tests += tested[k]
		}
	}
	if len(untrained) > 0 && len(untrained) < g.C {
		g.Notes = append(g.Notes, phrase.New("the split the files give trains on no node of %s: no model learns it, and its %d test nodes count as errors whatever it learns; give some of its nodes the split train to learn it", phrase.List(", ", untrained), tests))
	}
}

// nothingElse refuses a folder that holds, beside the files its format's
// reader read (read), a file a graph is made of (a table, a GraphML or a
// JSON file, one named as an edge list, a labels or a features file is):
// a second graph's (an edge list beside a GraphML file, loose tables
// beside an OGB folder), or a file out of place, which the graph read
// would leave out without a word. Files that hold no graph (a README, a
// licence, a release note) may stand beside it.
func nothingElse(fsys fs.FS, format string, read []string) error {
	var left []string
	for _, name := range fileNames(fsys) {
		// A folder that wraps another names its files its own way (OGB's
		// raw files given alone are read as raw/…): the last part counts.
		wasRead := slices.ContainsFunc(read, func(r string) bool { return r == name || path.Base(r) == name })
		if !wasRead && graphPart(name) {
			left = append(left, plainOrQuoted(name))
		}
	}
	if len(left) == 0 {
		return nil
	}
	return &BundleError{Msg: phrase.New("the folder holds %s, which the %s it read does not read: another graph's files, or files out of place, which would be left out without a word: open one graph at a time (move them out)", someOf(left), format)}
}

// graphPart says a file's name is one a graph's files have: a table, a
// GraphML or a JSON file; a .txt only where its name says it is a graph's
// (an edge list, a labels, nodes, classes or features file), so that a
// README.txt or an OGB folder's RELEASE_v1.txt stands beside a graph.
func graphPart(name string) bool {
	if !namedAsFile(name) || strings.HasSuffix(strings.ToLower(name), ".zip") {
		return false
	}
	base := strings.ToLower(input.Plain(name))
	if path.Ext(base) != ".txt" {
		return true
	}
	for _, w := range append(slices.Clone(edgeWords), "label", "node", "class", "target", "feat") {
		if strings.Contains(base, w) {
			return true
		}
	}
	return false
}

// oneGraph refuses the folder of a graph in format f that holds another
// graph below it (a bundle written into the folder of another: which one
// is meant cannot be told; a zip of two graphs is refused alike), or a
// file twice (oneFileOnce). f's own folders (an OGB folder's raw/) are
// its own.
func oneGraph(fsys fs.FS, f found) error {
	if below := graphFolders(fsys, ".", maxGraphDepth, new(int), f.owns...); len(below) > 0 {
		return &BundleError{Msg: phrase.New("the folder is a graph (%s), and holds another below it (%s): which is meant cannot be told: open one graph at a time (move the other out, or give its own folder)", f.name, someOf(folderNames(below)))}
	}
	return oneFileOnce(fsys, ".", maxGraphDepth, new(int))
}

// oneFileOnce refuses a folder of the graph, dir or one below it (depth
// deep, at most maxFoldersLooked), that holds one file twice, once
// gzipped and once not (raw/edge.csv.gz beside raw/edge.csv): the two may
// differ, and a reader that took one would leave the other unread without
// a word.
func oneFileOnce(fsys fs.FS, dir string, depth int, looked *int) error {
	if depth == 0 || *looked >= maxFoldersLooked {
		return nil
	}
	*looked++
	files := map[string]bool{}
	var dirs []string
	for _, e := range shownEntries(fsys, dir) {
		switch {
		case e.IsDir():
			dirs = append(dirs, e.Name())
		default:
			files[e.Name()] = true
		}
	}
	forms := map[string][]string{} // a file's names, compressed or not
	for _, name := range slices.Sorted(maps.Keys(files)) {
		forms[input.Plain(name)] = append(forms[input.Plain(name)], name)
	}
	for _, plain := range slices.Sorted(maps.Keys(forms)) {
		names := forms[plain]
		switch {
		case len(names) < 2:
		case files[plain] && len(names) == 2 && strings.HasSuffix(names[1], ".gz"):
			return &BundleError{File: path.Join(dir, names[1]), Msg: phrase.New("is there twice, as %s too, not gzipped: the two may differ, and which is the graph's cannot be told: keep one, and move the other out", plainOrQuoted(path.Join(dir, plain)))}
		default:
			quoted := make([]string, len(names))
			for i, n := range names {
				quoted[i] = plainOrQuoted(path.Join(dir, n))
			}
			return &BundleError{File: path.Join(dir, plain), Msg: phrase.New("is there %d times, as %s (compressed and not): they may differ, and which is the graph's cannot be told: keep one, and move the others out", len(names), strings.Join(quoted, ", "))}
		}
	}
	for _, d := range dirs {
		if err := oneFileOnce(fsys, path.Join(dir, d), depth-1, looked); err != nil {
			return err
		}
	}
	return nil
}

// NoColumnsError says Columns were given for a graph whose format has no
// columns to choose: a bundle's and an OGB folder's classes and node ids
// are fixed by the format.
type NoColumnsError struct {
	Format  string
	Columns Columns
}

func (e *NoColumnsError) Error() string { return e.Phrase().String() }

// Phrase says which flag does not apply, and why.
func (e *NoColumnsError) Phrase() phrase.Text {
	flag, value := "-target (target in a link)", e.Columns.Target
	switch {
	case e.Columns.ID != "":
		flag, value = "-id-column (id-column in a link)", e.Columns.ID
	case e.Columns.Target == "" && e.Columns.Bins > 0:
		flag, value = "-bins (bins in a link)", strconv.Itoa(e.Columns.Bins)
	}
	return phrase.New("%s %s: %s: leave it out", flag, quote(value), formatNamed(e.Format).noColumns)
}

// notAGraph says what fsys holds instead of a graph, and, where the
// files come near one of Formats, what keeps them from it.
func notAGraph(fsys fs.FS) error {
	entries, _ := input.Entries(fsys, ".")
	var names []string
	for _, e := range entries {
		n := e.Name
		if hiddenName(n) {
			continue
		}
		if e.Dir {
			n += "/"
		}
		names = append(names, plainOrQuoted(n))
	}
	what := phrase.New("nothing")
	if len(names) > 0 {
		what = someOf(names)
	}
	if err := unreadFile(fsys, true); err != nil {
		return err
	}
	if why := nearMiss(fsys); !why.IsZero() {
		return &BundleError{Msg: phrase.New("the files hold %s, which is not a graph the explorer can read: %s", what, why)}
	}
	return &BundleError{Msg: phrase.New("the files hold %s, which is not a graph: open %s", what, phrase.New(Formats))}
}

// unreadFile refuses, by name, a file at the root of fsys compressed in a
// way the explorer does not read whose name is a graph's file's
// (edges.csv.xz): read without it, the graph would leave it out without a
// word; and, with archives, an archive (a graph.tar.gz) where no graph is
// found; nil if there is none.
func unreadFile(fsys fs.FS, archives bool) error {
	entries, _ := input.Entries(fsys, ".")
	for _, e := range entries {
		if e.Dir || hiddenName(e.Name) {
			continue
		}
		why, ok := input.Unread(e.Name)
		if !ok || !archives && (input.IsArchive(e.Name) || !graphPart(strings.TrimSuffix(e.Name, path.Ext(e.Name)))) {
			continue
		}
		return &BundleError{File: e.Name, Msg: why}
	}
	return nil
}

// listedNames is how many names a message lists: a folder of 20,000
// files is said in a line.
const listedNames = 6

// someOf lists names, the first listedNames of them and how many more.
func someOf(names []string) phrase.Text {
	if len(names) <= listedNames {
		return phrase.New("%s", strings.Join(names, ", "))
	}
	return phrase.New("%s and %s more", strings.Join(names[:listedNames], ", "), numtext.Group(len(names)-listedNames))
}

// nearMiss says why files that look like one of Formats are not it; nil
// Text if they look like none.
func nearMiss(fsys fs.FS) phrase.Text {
	for _, f := range formats() {
		if f.near == nil {
			continue
		}
		if why := f.near(fsys); !why.IsZero() {
			return why
		}
	}
	return phrase.Text{}
}

// planetoidParts are the files Planetoid publishes a graph in (Yang,
// Cohen and Salakhutdinov, 2016), after ind.NAME.: Python pickles of its
// matrices, which scripts/planetoid.py turns into a bundle.
var planetoidParts = []string{"x", "y", "tx", "ty", "allx", "ally", "graph", "test.index"}

// planetoidNearMiss says files are Planetoid's own, which the explorer
// does not read: it ships cora and citeseer made from them, and
// scripts/planetoid.py writes a bundle from any of them.
func planetoidNearMiss(fsys fs.FS) phrase.Text {
	name := ""
	for _, n := range rootFiles(fsys) {
		rest, ok := strings.CutPrefix(n, "ind.")
		if !ok {
			continue
		}
		for _, part := range planetoidParts {
			if g, ok := strings.CutSuffix(rest, "."+part); ok && g != "" && !strings.Contains(g, ".") {
				name = cmp.Or(name, plainOrQuoted(g))
			}
		}
	}
	if name == "" {
		return phrase.Text{}
	}
	return phrase.New("Planetoid's own files (ind.%s.x, .y, .tx, .ty, .allx, .ally, .graph, .test.index: Python pickles of its matrices), which the explorer does not read: it ships cora and citeseer made from them (-data cora, -data citeseer; Cora and Citeseer in the page), and python3 scripts/planetoid.py FOLDER %s OUT writes a bundle (OUT) from any Planetoid graph (pubmed too), which opens here", name, name)
}

// musaeNearMiss says files are no MUSAE or FEATHER folder because two of
// them end as one of its files does.
func musaeNearMiss(fsys fs.FS) phrase.Text {
	files := rootFiles(fsys)
	for _, suffix := range []string{"target.csv", "edges.csv", "features.json", "features.csv"} {
		var found []string
		for _, n := range files {
			if l := strings.ToLower(n); l == suffix || strings.HasSuffix(l, "_"+suffix) || strings.HasSuffix(l, "-"+suffix) {
				found = append(found, plainOrQuoted(n))
			}
		}
		if len(found) > 1 {
			return phrase.New("%s all end in %s, and a MUSAE or FEATHER folder holds one such file: move the others out", someOf(found), suffix)
		}
	}
	return phrase.Text{}
}

// plainNearMiss says table files are no edge list and labels file: more
// than two, or two of which neither or both name the edges.
func plainNearMiss(fsys fs.FS) phrase.Text {
	var tables []string
	for _, n := range rootFiles(fsys) {
		if slices.Contains(tableExts, strings.ToLower(path.Ext(input.Plain(n)))) {
			tables = append(tables, plainOrQuoted(n))
		}
	}
	switch {
	case len(tables) > 2:
		return phrase.New("an edge list and a labels file are two table files, and there are %d (%s): move the others out, or open the two files by themselves", len(tables), someOf(tables))
	case len(tables) == 2:
		return phrase.New("of two table files, the edge list is the one whose name says so (it holds edge, cites, link, adj or graph, as edges.csv or cora.cites); neither %s nor %s does, or both do: rename the edge list", tables[0], tables[1])
	}
	return phrase.Text{}
}

// degreeBuckets bounds the degree features: 2^15 neighbours and more
// share the last.
const degreeBuckets = 16

// DegreeFeatures gives a graph without node features one each: a one-hot
// of its degree's order of magnitude, ⌈log₂(degree+1)⌉, so that its
// structure can tell classes apart (constant features would leave every
// model at chance). It says so in g.Notes.
func DegreeFeatures(g *Graph) {
	deg := make([]int, g.N)
	for e := range g.Src {
		deg[g.Src[e]]++
		deg[g.Dst[e]]++
	}
	width := 1
	bucket := make([]int, g.N)
	for i, d := range deg {
		bucket[i] = min(bits.Len(uint(d)), degreeBuckets-1)
		width = max(width, bucket[i]+1)
	}
	x := &CSR{Rows: g.N, Cols: width, Ptr: make([]int, g.N+1)}
	for i, b := range bucket {
		x.Col, x.Val = append(x.Col, int32(b)), append(x.Val, 1)
		x.Ptr[i+1] = len(x.Col)
	}
	g.F, g.X, g.XS = width, nil, x
	g.Notes = append(g.Notes, phrase.New("the graph has no node features: each node was given its degree's order of magnitude (%d one-hot features, ⌈log₂(degree+1)⌉), so only its place in the graph can tell its class", width))
}

// Load reads the graph at path, ready to train (see Open): a folder in
// any of Formats, a zip archive of one (as OpenFiles unpacks it) or a
// GraphML file. A graph without a split, and any graph when resplit is
// set, gets d.Shots labelled nodes per class drawn with d.Seed, the rest
// test nodes; d's id-column and target name columns a file leaves open.
func Load(path string, d experiment.Data, resplit bool) (*Graph, error) {
	fsys, err := openPath(path)
	if err != nil {
		return nil, err
	}
	g, drawn, err := Open(fsys, Columns{ID: d.IDColumn, Target: d.Target, Bins: d.Bins})
	if err != nil {
		return nil, err
	}
	if resplit || drawn {
		ShotSplit(g, d.Shots, d.Seed)
	} else {
		g.SplitKept = true
	}
	return g, nil
}

// openPath is the folder path names: itself, a zip archive's contents
// or a folder of one file. What path is, is known before it is read
// (input.Path): a pipe, a device, a socket or a loop of links is refused
// by name, never opened. A zip archive or a file named alone is held in
// memory to be read (a zip's directory is at its end), within the command
// line's limit, refused by its size before a byte is read; a folder's
// files, and a zip's, are read as they stream.
func openPath(path string) (fs.FS, error) {
	info, err := input.Path(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, &BundleError{File: path, Msg: phrase.New("cannot read the graph: %s", unwrapPath(err))}
	case err != nil:
		return nil, located(err)
	case info.IsDir():
		// A folder is read as a zip of it is: a graph in its one subfolder
		// (a run's export holds its graph in graph/) opens too.
		fsys, err := input.Folder(path)
		if err != nil {
			return nil, located(err)
		}
		return rootOf(path, fsys, nativeLimits, 0)
	case info.Size() > nativeLimits.held:
		return nil, tooLargeToHold(path, info.Size(), nativeLimits)
	}
	if why, ok := input.Unread(filepath.Base(path)); ok {
		return nil, &BundleError{File: path, Msg: why}
	}
	data, err := input.ReadPath(path, nativeLimits.held)
	if err != nil {
		return nil, located(err)
	}
	name := filepath.Base(path)
	if strings.EqualFold(filepath.Ext(name), ".zip") {
		return unzip(name, data, nativeLimits, 0)
	}
	fsys, err := filesFS([]File{{Name: name, Data: data}}, nativeLimits)
	if err == nil {
		// A graph of several files (a Matrix Market file and its labels)
		// is its folder: one of its files named alone would be read without
		// the others, and refused for lacking what lies beside it.
		if f, ok := formatOf(fsys); ok && f.file == "" {
			return nil, &BundleError{File: path, Msg: phrase.New("a graph of this format is several files (%s), read together: give the folder that holds them, %s, as the graph", phrase.New(f.says), quote(filepath.Dir(path)))}
		}
		if _, ok := formatOf(fsys); !ok {
			if why := nearMiss(fsys); !why.IsZero() {
				return nil, &BundleError{File: path, Msg: why}
			}
			return nil, &BundleError{File: path, Msg: phrase.New("is a file; a graph is %s, given as a folder, a zip of one, or a file of its own (%s)", phrase.New(Formats), strings.Join(oneFiles(), ", "))}
		}
	}
	return fsys, err
}

// canonicalEdges puts a read graph's edges in the one order every graph
// the explorer draws or ships already has (Cora, Citeseer and the
// generators list each pair as (min, max), sorted): the same graph then
// gets the same bits however its file lists its edges, as a model's draws
// per edge (PDN's) follow the edges' order. The graphs drawn or shipped
// are left as they are, so no pinned digest moves.
func canonicalEdges(g *Graph) {
	perm := make([]int, len(g.Src))
	for e := range perm {
		perm[e] = e
		if g.Src[e] > g.Dst[e] {
			g.Src[e], g.Dst[e] = g.Dst[e], g.Src[e]
		}
	}
	slices.SortStableFunc(perm, func(a, b int) int {
		return cmp.Or(cmp.Compare(g.Src[a], g.Src[b]), cmp.Compare(g.Dst[a], g.Dst[b]))
	})
	g.Src, g.Dst = permuted(g.Src, perm, 1), permuted(g.Dst, perm, 1)
	g.EdgeX = permuted(g.EdgeX, perm, g.D)
	g.Kind = permuted(g.Kind, perm, 1)
	g.Weight = permuted(g.Weight, perm, 1)
}

// permuted is xs's rows of width w in the order perm gives; nil stays nil.
func permuted[T any](xs []T, perm []int, w int) []T {
	if xs == nil || w == 0 {
		return xs
	}
	out := make([]T, 0, len(xs))
	for _, e := range perm {
		out = append(out, xs[e*w:(e+1)*w]...)
	}
	return out
}
