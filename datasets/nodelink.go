package datasets

import (
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
//     twice (NetworkX merges the two's attributes);
//   - an id is a number or a string, and the number 1 and the string "1"
//     are one name here (NetworkX's two nodes): both is refused; a list
//     (NetworkX's tuple) is refused;
//   - an attribute holding lists or objects is neither a feature nor a
//     class, and a note says it is left out; d3's simulation (x, y, vx,
//     vy, fx, fy, index) is the drawing's, as Gephi's is in GraphML.
//
// input.JSON decodes the file (a key given twice in an object is refused
// at its line); input.ListElements places each node and link.

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
	_, lists, _ := input.Keys(b)
	for _, k := range []string{"nodes", "links", "edges"} {
		if off, ok := lists[k]; ok && b[off] == '[' {
			return true
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
// and edges, for its graph.
type nodeLinkReader struct {
	*graphmlReader
	b      []byte
	nested map[string]bool // attributes holding lists or objects
}

// ReadNodeLinkFS reads the node-link JSON file name in fsys.
func ReadNodeLinkFS(fsys fs.FS, name string, cols Columns) (*Graph, error) {
	if sessionOf(fsys) == nil {
		g, _, err := within(fsys, func(f fs.FS) (*Graph, bool, error) { g, err := ReadNodeLinkFS(f, name, cols); return g, true, err })
		return g, err
	}
	b, err := readInput(fsys, name)
	if err != nil {
		return nil, err
	}
	r := &nodeLinkReader{
		graphmlReader: &graphmlReader{fsys: fsys, file: name, keys: map[string]graphmlKey{}, drawing: d3Drawing, directedHow: `"directed": true`},
		b:             b, nested: map[string]bool{},
	}
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

// jsonError places an error of encoding/json in r's text.
func (r *nodeLinkReader) jsonError(err error, want phrase.Text) error {
	if isInputError(err) {
		return located(err)
	}
	line, col := jsonAt(r.b, err)
	msg := phrase.New("want %s: %s", want, err)
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se) && se.Offset >= int64(len(r.b)):
		msg = phrase.New("the file ends in the middle of its JSON (cut short?): want %s", want)
	case errors.As(err, &se) && se.Offset > 0:
		// encoding/json counts the bad byte in: point at it, and quote
		// the word it begins.
		off := int(se.Offset - 1)
		line, col = input.LineCol(r.b, off)
		start, end := off, off
		for start > 0 && !strings.ContainsRune(jsonDelims, rune(r.b[start-1])) {
			start--
		}
		for end < len(r.b) && !strings.ContainsRune(jsonDelims, rune(r.b[end])) {
			end++
		}
		word := string(r.b[start:end])
		switch {
		case strings.HasSuffix(se.Error(), "after top-level value"):
			msg = phrase.New("a second JSON document after the first's end: were two files joined into one? Keep one, save it, and open it again")
		case word == "NaN" || strings.HasSuffix(word, "Infinity"):
			line, col = input.LineCol(r.b, start)
			msg = phrase.New("not JSON at %s: Python's json writes NaN and Infinity for floats that are no number, and JSON has none: write null (no value) or a number", quote(word))
		default:
			line, col = input.LineCol(r.b, start)
			msg = phrase.New("not JSON at %s (%s): JSON writes numbers in decimal, strings in double quotes: correct it", quote(word), se)
		}
	case errors.As(err, &te) && te.Field == "":
		what := map[string]string{"array": "a list", "number": "a number", "string": "a string", "bool": "true or false"}[te.Value]
		msg = phrase.New("holds %s, not an object: want %s", cmp.Or(what, te.Value), want)
	}
	return &BundleError{File: r.file, Line: line, Col: col, Msg: msg}
}

// jsonDelims end a word of JSON text.
const jsonDelims = " \t\r\n,:[]{}\""

const nodeLinkWant = `NetworkX's node-link data, {"nodes": [{"id": …}, …], "links": [{"source": …, "target": …}, …]}`

// read decodes the top-level object, its nodes and its links.
func (r *nodeLinkReader) read() error {
	var top map[string]json.RawMessage
	if err := input.JSON(r.file, r.b, &top); err != nil {
		return r.jsonError(err, phrase.New(nodeLinkWant))
	}
	if top == nil {
		return &BundleError{File: r.file, Line: 1, Col: 1, Msg: phrase.New("holds null: want %s", phrase.New(nodeLinkWant))}
	}
	edgesKey := "links"
	_, links := top["links"]
	_, edges := top["edges"]
	_, nodes := top["nodes"]
	switch {
	case links && edges:
		return &BundleError{File: r.file, Msg: phrase.New("gives both \"links\" and \"edges\": which list is the graph's edges cannot be told (NetworkX reads the one named by node_link_graph's edges=): keep one")}
	case edges:
		edgesKey = "edges"
	case !nodes || !links:
		have := slices.Sorted(maps.Keys(top))
		for i, k := range have {
			have[i] = quote(k)
		}
		return &BundleError{File: r.file, Msg: phrase.New("has no top-level %s key (it has %s): want %s; NetworkX 3.4's node_link_data(G, edges=\"edges\") writes \"edges\" for \"links\"", map[bool]string{true: `"links"`, false: `"nodes"`}[nodes], someOf(have), phrase.New(nodeLinkWant))}
	}
	directed, err := r.flag(top, "directed", false)
	if err != nil {
		return err
	}
	multigraph, err := r.flag(top, "multigraph", true) // node_link_graph's default
	if err != nil {
		return err
	}
	lim := limitsOf(r.fsys)
	nodeAt, over := input.ListElements(r.b, "nodes", MaxNodes)
	if over {
		return tooMany(r.file, nodeAt[len(nodeAt)-1].Line, anywhere(lim), phrase.New("more than %s nodes", numtext.Group(MaxNodes)))
	}
	edgeAt, over := input.ListElements(r.b, edgesKey, lim.edges)
	if over {
		return tooMany(r.file, edgeAt[len(edgeAt)-1].Line, lim, phrase.New("more than %s edges", numtext.Group(lim.edges)))
	}
	if n := len(nodeAt) + len(edgeAt); n > lim.elements { // before any is decoded
		return tooMany(r.file, 0, lim, phrase.New("%s nodes and links, each read as a JSON object of its own, more than the %s a reading of JSON holds (a GraphML file or an edge list of the same graph streams)", numtext.Group(n), numtext.Group(lim.elements)))
	}
	nodeList, err := r.list(top, "nodes", nodeAt)
	if err != nil {
		return err
	}
	linkList, err := r.list(top, edgesKey, edgeAt)
	if err != nil {
		return err
	}
	if len(nodeList) == 0 {
		return &BundleError{File: r.file, Msg: phrase.New("no nodes: \"nodes\" is an empty list")}
	}
	order := r.keyOrder()
	if err := r.readNodes(nodeList, nodeAt, order["nodes"]); err != nil {
		return err
	}
	skip := []string{"source", "target"}
	if multigraph {
		skip = append(skip, "key") // a multigraph's edge key, not an attribute
	}
	return r.readLinks(linkList, edgeAt, order[edgesKey], skip, directed)
}

// flag reads a top-level true or false; def where it is left out.
func (r *nodeLinkReader) flag(top map[string]json.RawMessage, key string, def bool) (bool, error) {
	raw, ok := top[key]
	if !ok || string(raw) == "null" {
		return def, nil
	}
	switch string(raw) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	line, col := r.keyAt(key)
	return false, &BundleError{File: r.file, Line: line, Col: col, Msg: phrase.New("%q is %s: want true or false", key, quote(string(raw)))}
}

// keyAt is where the top-level key is.
func (r *nodeLinkReader) keyAt(key string) (line, col int) {
	keys, _, _ := input.Keys(r.b)
	for _, k := range keys {
		if k.Parent == "" && k.Name == key {
			return input.LineCol(r.b, k.Off)
		}
	}
	return 0, 0
}

// list decodes the list under key into its elements, each an object.
func (r *nodeLinkReader) list(top map[string]json.RawMessage, key string, at []input.Pos) ([]map[string]json.RawMessage, error) {
	var raw []json.RawMessage
	if err := input.JSON(r.file, top[key], &raw); err != nil || top[key][0] != '[' {
		line, col := r.keyAt(key)
		return nil, &BundleError{File: r.file, Line: line, Col: col, Msg: phrase.New("%q is not a list: want %s", key, phrase.New(nodeLinkWant))}
	}
	out := make([]map[string]json.RawMessage, len(raw))
	for i, e := range raw {
		line, col := posAt(at, i)
		if len(e) == 0 || e[0] != '{' {
			return nil, &BundleError{File: r.file, Line: line, Col: col, Msg: phrase.New("an element of %q is %s, not an object ({\"id\": …} for a node, {\"source\": …, \"target\": …} for a link)", key, quote(string(e)))}
		}
		if err := input.JSON(r.file, e, &out[i]); err != nil {
			return nil, &BundleError{File: r.file, Line: line, Col: col, Msg: phrase.New("an element of %q: %s", key, err)}
		}
	}
	return out, nil
}

// posAt is where element i begins; 0, 0 if unknown.
func posAt(at []input.Pos, i int) (line, col int) {
	if i < len(at) {
		return at[i].Line, at[i].Col
	}
	return 0, 0
}

// keyOrder is, for the nodes' and the links' lists, their objects' keys
// in the order first met, so that the attributes keep the file's order.
func (r *nodeLinkReader) keyOrder() map[string][]string {
	keys, _, _ := input.Keys(r.b)
	out := map[string][]string{}
	seen := map[[2]string]bool{}
	for _, k := range keys {
		list, rest, ok := strings.Cut(k.Parent, "[")
		if !ok || strings.ContainsAny(rest, ".[") || seen[[2]string{list, k.Name}] {
			continue
		}
		seen[[2]string{list, k.Name}] = true
		out[list] = append(out[list], k.Name)
	}
	return out
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

// declare makes a key for each attribute of domain, in order, typed by
// its values; the nested ones are left out.
func (r *nodeLinkReader) declare(domain string, list []map[string]json.RawMessage, order, skip []string) map[string]string {
	cols := map[string]*valueKinds{}
	for _, m := range list {
		for k, v := range m {
			if slices.Contains(skip, k) {
				continue
			}
			c := cols[k]
			if c == nil {
				c = &valueKinds{}
				cols[k] = c
			}
			switch {
			case len(v) == 0 || string(v) == "null":
			case v[0] == '"':
				c.text = true
			case string(v) == "true" || string(v) == "false":
				c.boolean = true
			case v[0] == '[' || v[0] == '{':
				c.nested = true
			default:
				c.number = true
			}
		}
	}
	keyOf := map[string]string{}
	for _, name := range order {
		c := cols[name]
		if c == nil {
			continue
		}
		if c.nested {
			r.nested[name] = true
			continue
		}
		key := domain + strconv.Itoa(len(keyOf)+1e6) // keys sort in the file's order
		keyOf[name] = key
		r.keys[key] = graphmlKey{id: key, name: name, domain: domain, typ: c.typ()}
	}
	return keyOf
}

// values gives an item the values of its attributes, by key.
func (r *nodeLinkReader) values(it *graphmlItem, m map[string]json.RawMessage, keyOf map[string]string) {
	for name, v := range m {
		key, ok := keyOf[name]
		if !ok || string(v) == "null" {
			continue // an id, an end, a nested value; null is Python's None: no value
		}
		r.cells++
		s := string(v)
		if v[0] == '"' {
			if input.JSON(r.file, v, &s) != nil {
				s = string(v)
			}
		}
		it.data[key] = s
	}
}

func (r *nodeLinkReader) readNodes(list []map[string]json.RawMessage, at []input.Pos, order []string) error {
	keyOf := r.declare("node", list, order, []string{"id"})
	kinds := map[string]bool{} // each id's kind: a number or not
	lim := limitsOf(r.fsys)
	for i, m := range list {
		line, col := posAt(at, i)
		if r.cells > lim.cells {
			return tooMany(r.file, line, lim, phrase.New("more than %s values", numtext.Group(lim.cells)))
		}
		raw, given := m["id"]
		if !given {
			raw = json.RawMessage(strconv.Itoa(i)) // NetworkX's, and d3's, number
		}
		id, number, ok := r.idOf(raw)
		if !ok {
			return r.errorAt(line, col, "node id %s is neither a number nor a string: give each node an \"id\" that is one", quote(string(raw)))
		}
		if was, met := kinds[id]; met && was != number {
			return r.errorAt(line, col, "node id %s is given as a number and as a string (1 and \"1\"): NetworkX reads two nodes, the explorer names a node by its text: give them two names", quote(id))
		}
		kinds[id] = number
		it := graphmlItem{id: id, data: map[string]string{}, line: line, col: col}
		r.values(&it, m, keyOf)
		r.nodes = append(r.nodes, it)
	}
	return nil
}

func (r *nodeLinkReader) readLinks(list []map[string]json.RawMessage, at []input.Pos, order, skip []string, directed bool) error {
	keyOf := r.declare("edge", list, order, skip)
	lim := limitsOf(r.fsys)
	for i, m := range list {
		line, col := posAt(at, i)
		if r.cells > lim.cells {
			return tooMany(r.file, line, lim, phrase.New("more than %s values", numtext.Group(lim.cells)))
		}
		it := graphmlItem{directed: directed, data: map[string]string{}, line: line, col: col}
		for _, end := range []string{"source", "target"} {
			raw, ok := m[end]
			if !ok {
				return r.errorAt(line, col, "a link without a %q: give each link a \"source\" and a \"target\", the ids of its nodes", end)
			}
			id, _, ok := r.idOf(raw)
			if !ok {
				return r.errorAt(line, col, "link %s %s is neither a number nor a string: it is a node's id", end, quote(string(raw)))
			}
			if end == "source" {
				it.source = id
			} else {
				it.target = id
			}
		}
		r.values(&it, m, keyOf)
		r.edges = append(r.edges, it)
	}
	return nil
}
