package datasets

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"maps"
	"slices"
	"strings"

	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/input"
	"pdnexplorer/internal/numtext"
)

// A MUSAE folder is how the authors of the Facebook Page-Page graph (and
// its siblings Twitch, GitHub, Wikipedia, Deezer) publish a graph, and a
// FEATHER folder how their karate club library does (Deezer Europe,
// LastFM Asia, Twitch, GitHub):
//
//	edges.csv      id_1,id_2 (or from,to, node_1,node_2)  an edge a line
//	target.csv     id,…,class                a line per node, in any order
//	features.json  {"0": [3, 17, …], …}      MUSAE: each node's binary features
//	features.csv   node_id,feature_id,value  FEATHER: a line per non-zero
//
// Published files carry the graph's name before these (musae_facebook_
// edges.csv); the reader finds them by how their names end. target.csv's
// columns differ by family: Facebook's id,facebook_id,page_name,page_type;
// Twitch's id,days,mature,views,partner,new_id, whose new_id is the id the
// edges use; FEATHER's id,target. The reader takes the id column to be the
// one numbering the nodes 0..N−1 and the class column the one named as
// classes are (see nodeTable.choose), unless Columns names them.
//
// Classes are numbered by their values (in numeric or name order) and
// named by them; edges are made undirected, each pair once, self-loops
// dropped (the published files hold a few of each).
type tableFolder struct{ target, edges, features string }

// MaxNodes bounds a MUSAE folder's node ids, which come in any order: a
// stray id of 2,000,000,000 is an error at its line, not a table sized to it.
const MaxNodes = 1 << 24

// findTableFolder finds a MUSAE or FEATHER folder's files at the root of
// fsys: one name ending in target.csv and one in edges.csv, and at most
// one ending in features.json or features.csv. A table may come gzipped
// or in bzip2 (musae_edges.csv.gz), as pandas' read_csv, which the
// folders' readers read them with, infers the compression from the name;
// features.json is read by json.load, which inflates nothing.
func findTableFolder(fsys fs.FS) (tableFolder, bool) {
	names := rootFiles(fsys)
	pick := func(suffix string) string {
		var found []string
		for _, n := range names {
			l := strings.ToLower(n)
			if strings.HasSuffix(suffix, ".csv") {
				l = strings.ToLower(input.Plain(n))
			}
			if l == suffix || strings.HasSuffix(l, "_"+suffix) || strings.HasSuffix(l, "-"+suffix) {
				found = append(found, n)
			}
		}
		if len(found) == 1 {
			return found[0]
		}
		return ""
	}
	tf := tableFolder{target: pick("target.csv"), edges: pick("edges.csv")}
	if tf.features = pick("features.json"); tf.features == "" {
		tf.features = pick("features.csv")
	}
	return tf, tf.target != "" && tf.edges != ""
}

// rootFiles lists the files at the root of fsys, sorted (see fileNames).
func rootFiles(fsys fs.FS) []string { return fileNames(fsys) }

// IsMUSAE reports whether fsys holds a MUSAE or FEATHER folder's files.
func IsMUSAE(fsys fs.FS) bool {
	_, ok := findTableFolder(fsys)
	return ok
}

// ReadMUSAE reads the MUSAE or FEATHER folder dir; see ReadMUSAEFS.
func ReadMUSAE(dir string, cols Columns) (*Graph, error) {
	fsys, err := input.Folder(dir)
	if err != nil {
		return nil, located(err)
	}
	return ReadMUSAEFS(fsys, cols)
}

// ReadMUSAEFS reads a MUSAE or FEATHER folder at the root of fsys into a
// graph with sparse features, no edge features and every node a test node
// (the caller draws a split, ShotSplit). It rejects, with a *BundleError
// naming the file, line and column: an id that is not a node, a node
// listed twice, a class column of measurements or of one value, a feature
// index out of [0, MaxFeatures); a *ColumnsError says the columns need
// naming.
func ReadMUSAEFS(fsys fs.FS, cols Columns) (*Graph, error) {
	if sessionOf(fsys) == nil {
		g, _, err := within(fsys, func(f fs.FS) (*Graph, bool, error) { g, err := ReadMUSAEFS(f, cols); return g, true, err })
		return g, err
	}
	tf, ok := findTableFolder(fsys)
	if !ok {
		return nil, &BundleError{File: "target.csv", Msg: phrase.New("cannot read: missing (a MUSAE or FEATHER folder holds edges.csv, target.csv and features.json or features.csv)")}
	}
	g := &Graph{Meta: map[string]any{"name": folderName(tf.target)}}
	nt, err := readNodeTable(fsys, "MUSAE", tf.target, cols, func([]string) bool { return true })
	if err != nil {
		return nil, err
	}
	id, class, err := nt.choose(cols)
	if err != nil {
		return nil, err
	}
	ids, _, err := nt.fill(g, id, class)
	if err != nil {
		return nil, err
	}
	where := idsOf{table: nt.file, column: nt.header[id], named: cols.ID != ""}
	switch {
	case strings.HasSuffix(strings.ToLower(tf.features), ".json"):
		err = readMUSAEFeatures(fsys, tf.features, g, ids, where)
	case tf.features != "":
		err = readFeatherFeatures(fsys, tf.features, g, ids, where)
	}
	if err != nil {
		return nil, err
	}
	if err := readEdgeList(fsys, "MUSAE", tf.edges, g, ids, nt.file); err != nil {
		return nil, err
	}
	return g, g.Check()
}

// idsOf says which column of which table names the nodes, so that an id
// the other files use and it lacks blames the right thing: a MUSAE
// Twitch folder read with -id-column id instead of new_id.
type idsOf struct {
	table, column string
	named         bool // the user named the column (-id-column, id-column=)
}

// IDsError says the other files name nodes the node table's id column
// lacks; Named, that the user (or a link) named that column.
type IDsError struct {
	Named bool
	Err   *BundleError
}

func (e *IDsError) Error() string       { return e.Err.Error() }
func (e *IDsError) Unwrap() error       { return e.Err }
func (e *IDsError) Phrase() phrase.Text { return e.Err.Phrase() }

// missing says that id is not among the node table's ids.
func (w idsOf) missing(id string) phrase.Text {
	if w.named {
		return phrase.New("node %s is not an id in %s's column %s, which you chose as the node ids (-id-column, id-column in the link): the other files name their nodes by another column; choose that one, or leave the choice to the reader", quote(id), w.table, quote(w.column))
	}
	return phrase.New("node %s is not an id in %s's column %s, the column the reader took for the node ids: if another column holds the ids the other files use, name it (-id-column, id-column in the link)", quote(id), w.table, quote(w.column))
}

// folderName is the graph's name from its files': musae_facebook for
// musae_facebook_target.csv, musae for target.csv.
func folderName(target string) string {
	base := strings.TrimSuffix(strings.TrimSuffix(strings.ToLower(input.Plain(target)), "target.csv"), "_")
	if base == "" {
		return "musae"
	}
	return strings.TrimSuffix(base, "-")
}

// readMUSAEFeatures reads features.json: an object mapping each node id,
// as a string, to the list of its non-zero binary features.
func readMUSAEFeatures(fsys fs.FS, file string, g *Graph, ids nodeKeys, where idsOf) error {
	b, err := readInput(fsys, file)
	if err != nil {
		return err
	}
	if lim := limitsOf(fsys); bytes.Count(b, []byte(",")) > lim.valuesAt(musaeValueBytes) {
		return tooMany(file, 0, 0, lim, phrase.New("more than %s feature indices", numtext.Group(lim.valuesAt(musaeValueBytes))))
	}
	var raw map[string][]json.RawMessage
	if err := input.JSON(file, b, &raw); err != nil {
		if isInputError(err) {
			return located(err) // a key given twice
		}
		line, col := jsonAt(b, err)
		msg := phrase.New("want an object of node ids to lists of feature indices: %s", err)
		if se := (*json.SyntaxError)(nil); errors.As(err, &se) && se.Offset >= int64(len(b)) {
			msg = phrase.New("the file ends in the middle of its JSON (cut short?): want an object of node ids to lists of feature indices")
		}
		return &BundleError{File: file, Line: line, Col: col, Msg: msg}
	}
	var es []entry
	// keyOf is each node's key, for a node named by two keys (" 0" and "0").
	keyOf := map[int]string{}
	for _, key := range slices.Sorted(maps.Keys(raw)) { // an error names the same node every time
		list := raw[key]
		node, ok := ids.node(key)
		if !ok {
			return &IDsError{Named: where.named, Err: &BundleError{File: file, Msg: where.missing(key)}}
		}
		if other, twice := keyOf[node]; twice {
			return &BundleError{File: file, Msg: phrase.New("node %s is listed twice, as %s and as %s: a node has one list of features", quote(strings.TrimSpace(key)), quote(other), quote(key))}
		}
		keyOf[node] = key
		for i, n := range list {
			f, ok := featureIndex(n)
			if !ok {
				line, col := input.ElementAt(b, key, i)
				return &BundleError{File: file, Line: line, Col: col, Msg: phrase.New("node %s: feature %s is not a whole number in [0, %d], written as one (digits alone: not 1.0, \"3\" or true)", quote(key), quote(string(n)), MaxFeatures-1)}
			}
			es = append(es, entry{node: node, feature: f, value: 1})
		}
	}
	if len(es) == 0 { // no node has a feature: one column of zeros, as before
		g.F, g.XS = 1, &CSR{Rows: g.N, Cols: 1, Ptr: make([]int, g.N+1)}
		return nil
	}
	x, notes, err := csrOf(file, es, g.N)
	if err != nil {
		return err
	}
	g.Notes = append(g.Notes, notes...)
	g.F, g.XS = x.Cols, x
	return nil
}

// featureIndex reads a feature index as MUSAE writes it: a JSON integer,
// digits alone. 1.0, "3" and true are refused, not read as the index
// they may mean: Python's json gives a float, a string and a bool, which
// no loader of the dataset takes for a column.
func featureIndex(raw json.RawMessage) (int, bool) {
	s := string(raw)
	if s == "" || strings.Trim(s, "0123456789") != "" {
		return 0, false
	}
	v, err := numtext.ParseInt(s)
	if err != nil || v < 0 || v >= MaxFeatures {
		return 0, false
	}
	return v, true
}

// readFeatherFeatures reads FEATHER's features.csv: node_id,feature_id
// and an optional value (1 when absent), a line per non-zero.
func readFeatherFeatures(fsys fs.FS, file string, g *Graph, ids nodeKeys, where idsOf) error {
	t, err := openData(fsys, file, func(first []string) bool {
		_, ok := ids.node(first[0])
		return !ok && !ids.allNumbers(first...)
	})
	if err != nil {
		return err
	}
	defer t.closer.Close()
	if n := len(t.header); n != 2 && n != 3 {
		return &BundleError{File: file, Line: 1, Msg: phrase.New("%d columns; want node_id,feature_id[,value]", n)}
	}
	node := func(row []string) (int, error) {
		node, ok := ids.node(row[0])
		if !ok {
			return 0, &IDsError{Named: where.named, Err: &BundleError{File: file, Line: t.line, Column: t.header[0], Msg: where.missing(row[0])}}
		}
		return node, nil
	}
	x, err := readSparse(fsys, t, g, node, MaxFeatures)
	if err != nil {
		return err
	}
	g.F, g.XS = x.Cols, x
	return nil
}

// maxRepeats is how many repeated pairs and self-loops an edge list may
// hold beyond its distinct edges before the reader stops: published files
// hold a few, a file of one line copied millions of times is refused at
// the line where repeats outnumber edges.
const maxRepeats = 1000

// readEdgeList reads an edge list: two node ids a line (as ids names
// them; nodes names the file they come from), any further columns edge
// features, named by the header if it has one, read by the reader of the
// format row called format. Pairs are made undirected, each kept once
// with its values merged by the row's rule; self-loops are dropped. Both
// are counted in g.Notes.
func readEdgeList(fsys fs.FS, format, file string, g *Graph, ids nodeKeys, nodes string) error {
	isHeader := func(first []string) bool {
		if len(first) < 2 {
			return false
		}
		_, a := ids.node(first[0])
		_, b := ids.node(first[1])
		return (!a || !b) && !ids.allNumbers(first[0], first[1])
	}
	t, err := openData(fsys, file, isHeader)
	if err != nil {
		return err
	}
	defer t.closer.Close()
	if len(t.header) < 2 {
		return &BundleError{File: file, Line: 1, Msg: phrase.New("one column; want two node ids a line")}
	}
	g.D = len(t.header) - 2
	if t.named && g.D > 0 {
		g.EdgeNames = slices.Clone(t.header[2:])
	}
	pairs := newPairs(fsys, file, format)
	for {
		row, err := t.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		var ends [2]int32
		for i := range ends {
			n, ok := ids.node(row[i])
			if !ok {
				return t.errorf(i, "%s is not a node of %s", quote(row[i]), nodes)
			}
			ends[i] = int32(n)
		}
		e, err := pairs.edge(ends[0], ends[1], t.line)
		if err != nil {
			return err
		}
		if e < 0 {
			continue
		}
		for c := 2; c < len(row); c++ {
			x, err := t.float(row, c)
			if err != nil {
				return err
			}
			pairs.value(g, e, c-2, x, true, false)
		}
		if !pairs.again {
			g.Src, g.Dst = append(g.Src, min(ends[0], ends[1])), append(g.Dst, max(ends[0], ends[1]))
		}
	}
	pairs.note(g)
	return nil
}
