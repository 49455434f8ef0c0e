package datasets

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"io/fs"
	"maps"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"

	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/input"
	"pdnexplorer/internal/numtext"
)

// Node-link JSON is how NetworkX's node_link_data (json_graph) and d3's
// force layouts write a graph:
//
//	{"directed": false, "multigraph": false, "graph": {…},
//	 "nodes": [{"id": 0, "club": "Mr. Hi", …}, …],
//	 "links": [{"source": 0, "target": 1, "weight": 4}, …]}
//
// NetworkX 3.4's node_link_data(G, edges="edges") names the list of
// edges "edges" (its default once the deprecated link= is gone, 3.6);
// either is read, one of them. node_link_graph's defaults hold where a key
// is left out: undirected, a multigraph (a link's "key" is its key, no
// attribute). It is read as NetworkX's
// node_link_graph reads it, into the graph GraphML's reader makes
// (graphmlReader.graph): a node's keys but "id" are its attributes, one
// of them the class (chosen as in every format, or named by
// Columns.Target), the other numeric ones (every value a JSON number, or
// true/false) node features; a link's keys but "source" and "target"
// (and "key" in a multigraph) are its attributes, its numeric ones edge
// features ("weight" among them). A node without "id" is its place in
// the list, 0 first, as NetworkX numbers it (d3's links name nodes so).
// An attribute a node leaves out, or gives null (Python's None), is no
// class, and 0 as a feature, as in GraphML. Where it differs from
// NetworkX:
//   - a directed graph is read undirected and said, and a multigraph's
//     repeated pairs are dropped and said, as every reader does;
//   - a link to a node the list does not hold is refused at its line and
//     column (NetworkX adds the node, without attributes: a typing error
//     in an id would make a node of its own), and so is a node listed
//     twice (NetworkX merges the two's attributes); where the link's end
//     is a whole number within the list of nodes, which have ids of their
//     own, it is said to be d3's place in the list (indexNotANode);
//   - an id is a number or a string, and the number 1 and the string "1"
//     are one name here (NetworkX's two nodes): both is refused; a list
//     (NetworkX's tuple) is refused;
//   - an attribute holding lists or objects is neither a feature nor a
//     class, and a note says it is left out; d3's simulation (x, y, vx,
//     vy, fx, fy, index) is the drawing's, as Gephi's is in GraphML.
//
// input.JSONStream reads the file as it streams, a node or a link at a
// time (a key given twice in an object is refused at its line), and
// places each node and link.

// d3Drawing are the node fields d3's force simulation writes.
var d3Drawing = []string{"x", "y", "vx", "vy", "fx", "fy", "index"}

// jsonCandidates are the JSON files at the root of fsys that may be
// node-link data: not a bundle's meta.json, nor a MUSAE features.json.
func jsonCandidates(fsys fs.FS) []string {
	var out []string
	for _, n := range rootFiles(fsys) {
		plain := strings.ToLower(input.Plain(n))
		if path.Ext(plain) != ".json" || plain == "meta.json" || isMUSAEFeatures(plain) {
			continue
		}
		out = append(out, n)
	}
	return out
}

// isMUSAEFeatures says a (lower-case) name is a MUSAE features file's.
func isMUSAEFeatures(l string) bool {
	return l == "features.json" || strings.HasSuffix(l, "_features.json") || strings.HasSuffix(l, "-features.json")
}

// findNodeLink finds the one node-link JSON file at the root of fsys: the
// one JSON file there (by its name) whose start holds a top-level list of
// node-link data's ("nodes", "links" or "edges"): a settings file beside
// an edge list, or an export's weights.json above its graph/, is not
// taken for a graph.
func findNodeLink(fsys fs.FS) (readFunc, bool) {
	found := jsonCandidates(fsys)
	if len(found) != 1 || !nodeLinkStart(fsys, found[0]) {
		return nil, false
	}
	name := found[0]
	return func(f fs.FS, c Columns) (*Graph, bool, error) {
		g, err := ReadNodeLinkFS(f, name, c)
		return g, true, err
	}, true
}

// peekBytes is how much of a JSON file findNodeLink looks at.
const peekBytes = 64 << 10

// nodeLinkStart says the first peekBytes of name begin a top-level list
// of node-link data's (NetworkX writes directed, multigraph and graph
// before its nodes, d3 its nodes first), or cannot be read (the reader
// then says why).
func nodeLinkStart(fsys fs.FS, name string) bool {
	b, err := peekInput(fsys, name, peekBytes)
	if err != nil {
		return true
	}
	keys, _, _ := input.Keys(b)
	for _, k := range keys {
		if k.Parent == "" && (k.Name == "nodes" || k.Name == "links" || k.Name == "edges") && listAfter(b, k.Off) {
			return true
		}
	}
	return false
}

// listAfter says the key whose quote is at b[off] has a list for its
// value: past the key and its colon, the first byte that is no space is
// '['.
func listAfter(b []byte, off int) bool {
	i := off + 1
	for ; i < len(b) && b[i] != '"'; i++ {
		if b[i] == '\\' {
			i++
		}
	}
	colon := false
	for i++; i < len(b); i++ {
		switch c := b[i]; {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
		case c == ':' && !colon:
			colon = true
		default:
			return colon && c == '['
		}
	}
	return false
}

// nodeLinkNearMiss says why JSON files are no node-link data: several,
// a MUSAE features file alone, or one whose keys are not node-link data's.
func nodeLinkNearMiss(fsys fs.FS) phrase.Text {
	found := jsonCandidates(fsys)
	switch {
	case len(found) > 1:
		quoted := make([]string, len(found))
		for i, n := range found {
			quoted[i] = plainOrQuoted(n)
		}
		return phrase.New("%s are %d JSON files, and a graph in node-link JSON is one file: open one at a time", someOf(quoted), len(found))
	case len(found) == 1 && !nodeLinkStart(fsys, found[0]):
		return phrase.New("%s is JSON, but no node-link data (NetworkX's node_link_data, d3's): it has no top-level \"nodes\", \"links\" or \"edges\" list", plainOrQuoted(found[0]))
	}
	for _, n := range rootFiles(fsys) {
		if isMUSAEFeatures(strings.ToLower(input.Plain(n))) && !input.Exists(fsys, "meta.json") {
			return phrase.New("%s is a MUSAE features file, and a MUSAE folder holds an edges.csv and a target.csv beside it: add them", plainOrQuoted(n))
		}
	}
	return phrase.Text{}
}

// nodeLinkReader reads node-link data into a graphmlReader's keys, nodes
// and edges, for its graph, as the file streams (input.JSONStream): one
// node or link is decoded at a time, and what is kept of it is its
// graphmlItem, so that the memory a file takes is its graph's, not its
// text's.
type nodeLinkReader struct {
	*graphmlReader
	st     *input.JSONStream
	lim    limits
	nested map[string]bool // attributes holding lists or objects
	// attrs are the attributes met, by domain ("node", "edge") and name,
	// declared once the file is read, when their values' kinds are known.
	attrs    map[string]map[string]*nodeLinkAttr
	declared int
	kinds    map[string]bool // each node id's kind: a number or not
	// edgesKey is the list of edges met, "links" or "edges".
	edgesKey string
	// nodesMet and linksMet count the elements of the lists, for the
	// explorer's nodes and the edges read here (a link from a node to
	// itself, which no graph keeps, counts none, as every reader counts
	// the edges the graph will have); the budget of the nodes and links
	// held (limits.elements) is held's, as every reader's.
	nodesMet, linksMet int
	// nodesAt is where the key of the list of nodes is.
	nodesAt input.Pos
	// The top-level flags, as node_link_graph defaults them where left out
	// (undirected, a multigraph); multigraphMet says the file gave it.
	directed, multigraph, multigraphMet bool
	// faults are what is wrong with the file, the first of each kind, met
	// as it streams and said once it is read (read), by their kinds' order:
	// a file with two faults is said as when it was read whole, whatever
	// their places, and once one is met, no node or link is held.
	faults [faultKinds]error
}

// The kinds of a node-link file's faults, in the order they are said:
// malformed JSON and keys given twice first (the stream's, at once), then
// the file's structure, its flags, its limits, its lists, its nodes, its
// links; the graph's own (a node listed twice, a link to no node) last.
const (
	bothLists = iota
	directedFlag
	multigraphFlag
	tooManyNodes
	tooManyEdges
	nodesList // no list, or an element no object
	edgesList
	aNode
	aLink
	faultKinds
)

// fault keeps err, a fault of kind, unless one of its kind came before;
// the nodes and links held are let go, as the file will be refused.
func (r *nodeLinkReader) fault(kind int, err error) {
	if r.faults[kind] == nil {
		r.faults[kind] = err
	}
	r.nodes, r.edges = nil, nil
}

// checks says the content of a node (or a link) is still worth reading:
// no fault is known that would be said before its own, and the file is
// within the element budget.
func (r *nodeLinkReader) checks(node bool) bool {
	upTo := aLink
	if node {
		upTo = aNode
	}
	return !r.overBudget() && !slices.ContainsFunc(r.faults[:upTo+1], func(err error) bool { return err != nil })
}

// holding says the nodes and links read are kept: no fault is known.
func (r *nodeLinkReader) holding() bool { return r.checks(false) }

// nodeLinkAttr is an attribute of the nodes' or the links': its key, in
// the order first met, and the kinds of its values.
type nodeLinkAttr struct {
	key   string
	kinds valueKinds
}

// ReadNodeLinkFS reads the node-link JSON file name in fsys.
func ReadNodeLinkFS(fsys fs.FS, name string, cols Columns) (*Graph, error) {
	if sessionOf(fsys) == nil {
		g, _, err := within(fsys, func(f fs.FS) (*Graph, bool, error) { g, err := ReadNodeLinkFS(f, name, cols); return g, true, err })
		return g, err
	}
	text, err := openInput(fsys, name)
	if err != nil {
		return nil, err
	}
	defer text.Close()
	r := &nodeLinkReader{
		graphmlReader: &graphmlReader{fsys: fsys, file: name, format: "node-link JSON", keys: map[string]graphmlKey{}, drawing: d3Drawing, directedHow: `"directed": true`, held: heldWithin(limitsOf(fsys), nodeLinkCost)},
		st:            input.NewJSONStream(name, text), lim: limitsOf(fsys), nested: map[string]bool{},
		attrs: map[string]map[string]*nodeLinkAttr{"node": {}, "edge": {}}, kinds: map[string]bool{}, multigraph: true,
	}
	r.notANode = r.indexNotANode
	r.graphmlReader.multigraph = func() bool { return r.multigraph }
	if err := r.read(); err != nil {
		return nil, err
	}
	g, err := r.graph(cols)
	if err != nil {
		return nil, err
	}
	if len(r.nested) > 0 {
		g.Notes = append(g.Notes, phrase.New("%s: %s hold lists or objects, which are neither features nor classes: left out", r.file, strings.Join(slices.Sorted(maps.Keys(r.nested)), ", ")))
	}
	return g, nil
}

// jsonError says what is wrong with the JSON text, as the stream placed it
// (input.JSONStream); an error of the reader's own as it is.
func (r *nodeLinkReader) jsonError(err error) error {
	if isInputError(err) {
		return located(err)
	}
	want := phrase.New(nodeLinkWant)
	var se *input.JSONSyntaxError
	var te *input.JSONTypeError
	switch {
	case errors.As(err, &se) && se.CutShort:
		return &BundleError{File: r.file, Line: se.At.Line, Col: se.At.Col, Msg: phrase.New("the file ends in the middle of its JSON (cut short?): want %s", want)}
	case errors.As(err, &se) && se.Second:
		return &BundleError{File: r.file, Line: se.At.Line, Col: se.At.Col, Msg: phrase.New("a second JSON document after the first's end: were two files joined into one? Keep one, save it, and open it again")}
	case errors.As(err, &se) && (se.Word == "NaN" || strings.HasSuffix(se.Word, "Infinity")):
		return &BundleError{File: r.file, Line: se.WordAt.Line, Col: se.WordAt.Col, Msg: phrase.New("not JSON at %s: Python's json writes NaN and Infinity for floats that are no number, and JSON has none: write null (no value) or a number", quote(se.Word))}
	case errors.As(err, &se):
		return &BundleError{File: r.file, Line: se.WordAt.Line, Col: se.WordAt.Col, Msg: phrase.New("not JSON at %s (%s): JSON writes numbers in decimal, strings in double quotes: correct it", quote(se.Word), se.Msg)}
	case errors.As(err, &te) && te.Value == "null":
		return &BundleError{File: r.file, Line: 1, Col: 1, Msg: phrase.New("holds null: want %s", want)}
	case errors.As(err, &te):
		what := map[string]string{"array": "a list", "number": "a number", "string": "a string", "bool": "true or false"}[te.Value]
		return &BundleError{File: r.file, Line: te.At.Line, Col: te.At.Col, Msg: phrase.New("holds %s, not an object: want %s", cmp.Or(what, te.Value), want)}
	}
	return err
}

const nodeLinkWant = `NetworkX's node-link data, {"nodes": [{"id": …}, …], "links": [{"source": …, "target": …}, …]}`

// read reads the top-level object, its nodes and its links, each element
// as it comes.
func (r *nodeLinkReader) read() error {
	top := map[string]bool{}
	err := r.st.Object(func(key string, at input.Pos) error {
		top[key] = true
		switch key {
		case "nodes":
			r.nodesAt = at
			return r.list(key, at)
		case "links", "edges":
			if r.edgesKey != "" {
				r.fault(bothLists, &BundleError{File: r.file, Line: at.Line, Col: at.Col, Msg: phrase.New("gives both \"links\" and \"edges\": which list is the graph's edges cannot be told (NetworkX reads the one named by node_link_graph's edges=): keep one")})
				break
			}
			r.edgesKey = key
			return r.list(key, at)
		case "directed", "multigraph":
			return r.flag(key, at)
		}
		// The graph's attributes, and any other key, are passed over: a list
		// element by element, never held whole.
		_, err := r.st.List(nil)
		return err
	})
	if err != nil {
		return r.jsonError(err)
	}
	if err := r.faults[bothLists]; err != nil {
		return err
	}
	if !top["nodes"] || r.edgesKey == "" {
		have := slices.Sorted(maps.Keys(top))
		for i, k := range have {
			have[i] = quote(k)
		}
		return &BundleError{File: r.file, Msg: phrase.New("has no top-level %s key (it has %s): want %s; NetworkX 3.4's node_link_data(G, edges=\"edges\") writes \"edges\" for \"links\"", map[bool]string{true: `"links"`, false: `"nodes"`}[top["nodes"]], someOf(have), phrase.New(nodeLinkWant))}
	}
	for kind, err := range r.faults {
		switch {
		case kind == nodesList && r.overBudget():
			// Past the budget, the elements held were let go (count).
			return r.over(r.file, r.lim)
		case kind == aNode && r.nodesMet == 0:
			return &BundleError{File: r.file, Line: r.nodesAt.Line, Col: r.nodesAt.Col, Msg: phrase.New("no nodes: \"nodes\" is an empty list")}
		case err != nil:
			return err
		}
	}
	r.declare()
	return nil
}

// flag reads a top-level true or false (null, Python's None: its default).
func (r *nodeLinkReader) flag(key string, at input.Pos) error {
	var raw json.RawMessage
	if _, err := r.st.Decode(&raw); err != nil {
		return err
	}
	v := false
	switch string(raw) {
	case "null":
		return nil
	case "true":
		v = true
	case "false":
	default:
		r.fault(map[string]int{"directed": directedFlag, "multigraph": multigraphFlag}[key], &BundleError{File: r.file, Line: at.Line, Col: at.Col, Msg: phrase.New("%q is %s: want true or false", key, quote(string(raw)))})
		return nil
	}
	if key == "directed" {
		r.directed = v
	} else {
		r.multigraph, r.multigraphMet = v, true
	}
	return nil
}

// list reads the list under key (at), its elements each an object.
func (r *nodeLinkReader) list(key string, at input.Pos) error {
	ok, err := r.st.List(func(i int) error { return r.element(key, i) })
	if err == nil && !ok {
		r.fault(r.listKind(key), &BundleError{File: r.file, Line: at.Line, Col: at.Col, Msg: phrase.New("%q is not a list: want %s", key, phrase.New(nodeLinkWant))})
	}
	return err
}

// listKind is the kind of a fault of the list under key.
func (r *nodeLinkReader) listKind(key string) int {
	if key == "nodes" {
		return nodesList
	}
	return edgesList
}

// element reads element i of the list under key: a node, or a link,
// where its content is still worth reading (checks); else it is only
// counted, and seen to be an object.
func (r *nodeLinkReader) element(key string, i int) error {
	node := key == "nodes"
	var m map[string]json.RawMessage
	var v input.JSONValue
	var err error
	if r.checks(node) {
		v, err = r.st.Decode(&m)
	} else {
		v, err = r.st.Skip()
	}
	var te *json.UnmarshalTypeError
	if err != nil && !errors.As(err, &te) {
		return err
	}
	r.count(node, v.At, !node && isLoop(m, v.Text))
	if len(v.Text) == 0 || v.Text[0] != '{' {
		r.fault(r.listKind(key), r.errorAt(v.At.Line, v.At.Col, "an element of %q is %s, not an object ({\"id\": …} for a node, {\"source\": …, \"target\": …} for a link)", key, quote(string(v.Text))))
		return nil
	}
	if m == nil || !r.checks(node) {
		return nil
	}
	kind := map[bool]int{true: aNode, false: aLink}[node]
	if r.cells > r.lim.cells {
		r.fault(kind, tooMany(r.file, v.At.Line, v.At.Col, r.lim, phrase.New("more than %s values", numtext.Group(r.lim.cells))))
		return nil
	}
	if node {
		err = r.node(i, m, v)
	} else {
		err = r.link(m, v)
	}
	if err != nil {
		r.fault(kind, err)
	}
	return nil
}

// count counts an element of the nodes' or the links' list (at), and
// refuses more than the limits hold, at the line of the first beyond
// them: the explorer's nodes, the edges read here. Past the element
// budget (limits.elements, held.meet), the nodes and links held are let
// go, and the rest only counted, for read's message.
func (r *nodeLinkReader) count(node bool, at input.Pos, loop bool) {
	if node {
		if r.nodesMet++; r.nodesMet == MaxNodes+1 {
			r.fault(tooManyNodes, tooMany(r.file, at.Line, at.Col, anywhere(r.lim), phrase.New("more than %s nodes", numtext.Group(MaxNodes))))
		}
	} else if !loop {
		if r.linksMet++; r.linksMet == r.lim.edges+1 {
			r.fault(tooManyEdges, tooMany(r.file, at.Line, at.Col, r.lim, phrase.New("more than %s edges", numtext.Group(r.lim.edges))))
		}
	}
	r.meet(at.Line, at.Col, !node)
}

// isLoop reports whether a link (m, decoded, else its text) joins a node
// to itself, its "source" and "target" written alike.
func isLoop(m map[string]json.RawMessage, text []byte) bool {
	if m == nil {
		if input.JSON("", text, &m) != nil {
			return false // a fault the element's reading says, or past a budget: counted
		}
	}
	s, t := m["source"], m["target"]
	return len(s) > 0 && bytes.Equal(s, t)
}

// idOf is a node id as the explorer names it: a string as it is, a
// number as written (an integer written 1.0 or 1e0 is 1, as Python's
// dict finds it); ok false for any other value.
func (r *nodeLinkReader) idOf(raw json.RawMessage) (id string, number, ok bool) {
	if len(raw) == 0 {
		return "", false, false
	}
	switch c := raw[0]; {
	case c == '"':
		var s string
		if input.JSON(r.file, raw, &s) != nil {
			return "", false, false
		}
		return s, false, true
	case c == '-' || c >= '0' && c <= '9':
		s := string(raw)
		if strings.ContainsAny(s, ".eE") {
			if f, err := numtext.ParseFloat(s); err == nil && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
				s = strconv.FormatInt(int64(f), 10)
			}
		}
		if s == "-0" {
			s = "0"
		}
		return s, true, true
	}
	return "", false, false
}

// valueKinds types an attribute's values: "double" where every value is a
// number, "boolean" where every one is true or false, else "string";
// nested where one is a list or an object.
type valueKinds struct {
	number, boolean, text, nested bool
}

func (c valueKinds) typ() string {
	switch {
	case c.text || c.number && c.boolean:
		return "string"
	case c.boolean:
		return "boolean"
	case c.number:
		return "double"
	}
	return "string"
}

// attr is the attribute of domain called name; met first (at), it is
// given the next key, so that the keys sort in the file's order, and
// counted as a column of the graph's tables (held.key).
func (r *nodeLinkReader) attr(domain, name string, at input.Pos) *nodeLinkAttr {
	a := r.attrs[domain][name]
	if a == nil {
		a = &nodeLinkAttr{key: domain + strconv.Itoa(r.declared+1e6)}
		r.declared++
		r.attrs[domain][name] = a
		r.key(domain, at.Line, at.Col)
	}
	return a
}

// values gives an item the values of its attributes (m's keys but skip,
// in the order v lists them), by key, and notes their kinds. A list or an
// object is no value (the attribute is left out, declare says), nor is
// null, Python's None.
func (r *nodeLinkReader) values(it *graphmlItem, domain string, m map[string]json.RawMessage, v input.JSONValue, skip ...string) {
	var where keyPlaces
	for _, k := range v.Keys {
		if k.Parent != "" || slices.Contains(skip, k.Name) {
			continue
		}
		at := where.of(v, k)
		a, val := r.attr(domain, k.Name, at), m[k.Name]
		switch {
		case len(val) == 0 || string(val) == "null":
			continue
		case val[0] == '"':
			a.kinds.text = true
		case string(val) == "true" || string(val) == "false":
			a.kinds.boolean = true
		case val[0] == '[' || val[0] == '{':
			a.kinds.nested = true
			continue
		default:
			a.kinds.number = true
		}
		r.cells++
		s := string(val)
		if val[0] == '"' {
			if input.JSON(r.file, val, &s) != nil {
				s = string(val)
			}
		}
		r.give(it, a.key, s, at.Line, at.Col)
	}
}

// keyPlaces finds where the keys of an element begin in its file, one
// after the other: each from the one before, so that an element of many
// keys on one line is read once.
type keyPlaces struct {
	off int
	at  input.Pos
}

// of is where k, a key of v after any asked before, begins.
func (p *keyPlaces) of(v input.JSONValue, k input.Key) input.Pos {
	if p.at == (input.Pos{}) {
		p.at = v.At
	}
	seg := v.Text[p.off:k.Off]
	if i := bytes.LastIndexByte(seg, '\n'); i >= 0 {
		p.at = input.Pos{Line: p.at.Line + bytes.Count(seg, []byte{'\n'}), Col: len(seg) - i}
	} else {
		p.at.Col += len(seg)
	}
	p.off = k.Off
	return p.at
}

// declare makes a key of each attribute met, typed by its values; those
// holding lists or objects are left out (and noted), and so is a
// multigraph's edge "key", its key among the edges joining a pair, no
// attribute (as node_link_graph reads it).
func (r *nodeLinkReader) declare() {
	for _, domain := range []string{"node", "edge"} {
		for name, a := range r.attrs[domain] {
			switch {
			case domain == "edge" && name == "key" && r.multigraph:
			case a.kinds.nested:
				r.nested[name] = true
			default:
				r.keys[a.key] = graphmlKey{id: a.key, name: name, domain: domain, typ: a.kinds.typ()}
			}
		}
	}
	for i := range r.edges {
		r.edges[i].directed = r.directed
	}
}

// node reads node i of the list: its id ("id", else its place, 0 first,
// as NetworkX numbers it) and its attributes.
func (r *nodeLinkReader) node(i int, m map[string]json.RawMessage, v input.JSONValue) error {
	raw, given := m["id"]
	if !given {
		raw = json.RawMessage(strconv.Itoa(i)) // NetworkX's, and d3's, number
	}
	id, number, ok := r.idOf(raw)
	if !ok {
		return r.errorAt(v.At.Line, v.At.Col, "node id %s is neither a number nor a string: give each node an \"id\" that is one", quote(string(raw)))
	}
	if was, met := r.kinds[id]; met && was != number {
		return r.errorAt(v.At.Line, v.At.Col, "node id %s is given as a number and as a string (1 and \"1\"): NetworkX reads two nodes, the explorer names a node by its text: give them two names", quote(id))
	}
	r.kinds[id] = number
	it := graphmlItem{id: id, line: v.At.Line, col: v.At.Col}
	r.values(&it, "node", m, v, "id")
	if r.holding() {
		r.keep(it, false)
	}
	return nil
}

// link reads a link: its ends, by their nodes' ids, and its attributes.
// A multigraph's "key" is no attribute; where the file has not said it is
// a multigraph yet (it may after its links), the key is kept as one, and
// declare drops it.
func (r *nodeLinkReader) link(m map[string]json.RawMessage, v input.JSONValue) error {
	it := graphmlItem{line: v.At.Line, col: v.At.Col}
	for e, end := range []string{"source", "target"} {
		raw, ok := m[end]
		if !ok {
			return r.errorAt(v.At.Line, v.At.Col, "a link without a %q: give each link a \"source\" and a \"target\", the ids of its nodes", end)
		}
		id, number, ok := r.idOf(raw)
		if !ok {
			return r.errorAt(v.At.Line, v.At.Col, "link %s %s is neither a number nor a string: it is a node's id", end, quote(string(raw)))
		}
		if end == "source" {
			it.source = id
		} else {
			it.target = id
		}
		it.numbers[e] = number
	}
	skip := []string{"source", "target"}
	if r.multigraph && r.multigraphMet {
		skip = append(skip, "key")
	}
	r.values(&it, "edge", m, v, skip...)
	if r.holding() {
		r.keep(it, true)
	}
	return nil
}

// indexNotANode says why a link's end names no node where it is a whole
// number within the list of nodes, and the nodes have ids of their own:
// a d3 file's links name nodes by their place in the list (forceLink's
// default id is a node's index), where node_link_graph, as the explorer,
// matches them to the nodes' "id" (it would add nodes 0, 1, 2… of its
// own). Nodes without "id" are named by their place, so such a file is
// read as it is (node). nil where the end is anything else.
func (r *nodeLinkReader) indexNotANode(it graphmlItem, end, id string) error {
	number := it.numbers[0]
	if end == "target" {
		number = it.numbers[1]
	}
	i, err := numtext.ParseInt(id)
	if !number || err != nil || i < 0 || i >= len(r.nodes) {
		return nil
	}
	named := quote(r.nodes[i].id)
	return r.errorAt(it.line, it.col, "link %s %s is no node's \"id\", but it is the place of node %s in the list of nodes, counting from 0: d3's force layout refers to nodes by their place, and NetworkX's node_link_graph, which the explorer follows, by their \"id\": write the nodes' ids in the links (%s for %s), or leave out every node's \"id\", so that each is named by its place", end, id, named, named, id)
}
