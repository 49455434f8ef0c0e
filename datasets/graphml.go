package datasets

import (
	"cmp"
	"encoding/xml"
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

// A GraphML file is how Gephi, NetworkX (write_graphml), igraph and yEd
// write a graph: keys declare the attributes of nodes and edges, each
// node and edge gives its values as data elements. The reader takes one
// node attribute as the class (chosen as a MUSAE target.csv's class
// column is, or named by Columns.Target), the other numeric node
// attributes as node features (not Gephi's drawing: x, y, z, size, r, g,
// b) and the numeric edge attributes as edge features, named by their
// keys' attr.name. Edges are made undirected, each pair once; a directed
// graph (edgedefault="directed", an edge's directed="true") is read so,
// and a note counts its edges and those listed one way only. What
// NetworkX's read_graphml refuses is refused at its line and column: a
// key's attr.type outside GraphML's, data for a key never declared, and
// (the structure class's rule) an edge id given twice.
//
// encoding/xml reads the file; what it holds is GraphML's own, which no
// Go library reads.

// drawingAttrs are the node attributes Gephi writes for its drawing.
var drawingAttrs = []string{"x", "y", "z", "size", "r", "g", "b", "color", "viz"}

// nameOnce refuses an attribute declared for domain ("node", "edge", or
// "all" and "" for both) under a name another has (GraphML's attr.name,
// GEXF's title): NetworkX keeps a value a name, the last declared's, and
// drops the other's without a word, so which one -target names cannot be
// told. Both readers declare their attributes through it.
func (r *graphmlReader) nameOnce(domain, name, what string, line, col int) error {
	if r.names == nil {
		r.names = map[[2]string][2]int{}
	}
	domains := []string{domain}
	if domain == "all" || domain == "" {
		domains = []string{"node", "edge"}
	}
	for _, d := range domains {
		if first, twice := r.names[[2]string{d, name}]; twice {
			return r.errorAt(line, col, "a second %s attribute named %s (the first on line %d, column %d): NetworkX keeps the values of the last one declared under a name and drops the other's without a word: give each %s its own name", d, quote(name), first[0], first[1], what)
		}
	}
	for _, d := range domains {
		r.names[[2]string{d, name}] = [2]int{line, col}
	}
	return nil
}

// graphmlKey is a declared attribute.
type graphmlKey struct {
	id, name, domain, typ, def string
	decl                       int // its place among the keys declared, for a format whose ids do not sort so
}

// graphmlTypes are the attr.type values GraphML defines (a key without
// one is a string's, as NetworkX reads it); NetworkX refuses any other.
var graphmlTypes = []string{"boolean", "int", "long", "float", "double", "string"}

func (k graphmlKey) numeric() bool {
	switch k.typ {
	case "int", "long", "float", "double", "boolean":
		return true
	}
	return false
}

// isGraphMLName says a file's name is a GraphML file's: .graphml, or
// .graphml.gz or .graphml.bz2, which NetworkX's read_graphml reads too.
func isGraphMLName(name string) bool {
	return strings.EqualFold(path.Ext(input.Plain(name)), ".graphml")
}

// findGraphML finds the one GraphML file at the root of fsys.
func findGraphML(fsys fs.FS) (string, bool) { return theOne(fsys, isGraphMLName) }

// graphmlReader reads one GraphML file token by token, so that an error
// names its line and column.
type graphmlReader struct {
	fsys fs.FS
	file string
	// format is its format row's name (GraphML, GEXF, node-link JSON).
	format string
	dec    *xml.Decoder
	// xmlDepth counts the elements open, as xmlToken reads them.
	xmlDepth int
	keys     map[string]graphmlKey
	// held are the nodes and edges read, each an item held till the
	// graph is made, within the budget of limits.elements (held.go).
	held
	cells int // data elements read
	// graphs counts the top-level <graph> elements; second is the line of
	// the second, which is left out.
	graphs, second int
	keyLines       map[string]int // the line of each <key>, by id
	// names are where each attribute's name was declared, by its domain
	// (node or edge) and name: nameOnce refuses a second.
	names  map[[2]string][2]int
	depth  int  // of the element being read
	rooted bool // the root element has been read
	// directed is the first graph's edgedefault="directed"; undeclared is
	// where data first names each key no <key> declares (a key may be
	// declared after its use, as NetworkX reads the whole file first).
	directed   bool
	undeclared map[string][2]int
	edgeIDs    map[string][2]int // where each edge's id is given, by id and pair
	// The readers that hand their nodes and edges to graph (GEXF's,
	// node-link JSON's) say their own way: drawing are the node
	// attributes that are the drawing's (nil: Gephi's in GraphML,
	// drawingAttrs), directedHow how an edge is said to be directed.
	drawing     []string
	directedHow string
	// notANode, where the format has its own words for an edge whose end
	// (source or target) names no node, says them; nil for GraphML's.
	notANode func(it graphmlItem, end, id string) error
	// multigraph says the file is a multigraph where the format says so
	// (node-link JSON's "multigraph"); nil where NetworkX's reader finds
	// it, a pair listed again (u→v again, where directed: multiOf).
	multigraph func() bool
	// classHint, where the format keeps something aside that a reader may
	// take for the class (GEXF's label=), says where it went and how to
	// make it the class, given the -target asked for and the count of
	// nodes; nil for none.
	classHint func(target string, nodes int) (phrase.Text, bool)
	// given are the lines of the values the item being read has given, by
	// key, for the message on a key given twice: the reader's, cleared at
	// each item (startItem), as no item needs them once it is read.
	given map[string]int
}

// graphmlItem is a node or an edge: its ids, its values by key, and
// where it starts.
type graphmlItem struct {
	id, source, target string
	directed           bool // its own directed attribute, or the graph's edgedefault
	// numbers says a node-link edge's source and target were JSON
	// numbers, as d3's places in the list of nodes are.
	numbers [2]bool
	// data are its values by key, given by held.give, nil where it gives
	// none: most edges give none, and a map costs a node or an edge that
	// holds nothing in it.
	data      map[string]string
	line, col int
}

// startItem begins a node or an edge: none of its values given yet.
func (r *graphmlReader) startItem() { clear(r.given) }

// twice says the item being read gave a value for key before, on line
// first; else it notes this one's line.
func (r *graphmlReader) twice(key string, line int) (first int, twice bool) {
	if first, twice = r.given[key]; twice {
		return first, true
	}
	if r.given == nil {
		r.given = map[string]int{}
	}
	r.given[key] = line
	return 0, false
}

func (r *graphmlReader) errorAt(line, col int, format string, args ...any) error {
	return &BundleError{File: r.file, Line: line, Col: col, Msg: phrase.New(format, args...)}
}

// ReadGraphMLFS reads the GraphML file name in fsys.
func ReadGraphMLFS(fsys fs.FS, name string, cols Columns) (*Graph, error) {
	if sessionOf(fsys) == nil {
		g, _, err := within(fsys, func(f fs.FS) (*Graph, bool, error) { g, err := ReadGraphMLFS(f, name, cols); return g, true, err })
		return g, err
	}
	dec, text, err := openXMLInput(fsys, name)
	if err != nil {
		return nil, err
	}
	defer text.Close()
	r := &graphmlReader{fsys: fsys, file: name, format: "GraphML", keys: map[string]graphmlKey{}, keyLines: map[string]int{}, undeclared: map[string][2]int{}, edgeIDs: map[string][2]int{}, dec: dec, held: heldWithin(limitsOf(fsys), graphmlCost)}
	if err := r.read(); err != nil {
		return nil, err
	}
	return r.graph(cols)
}

// read collects the keys, nodes and edges.
func (r *graphmlReader) read() error {
	var item *graphmlItem
	var dataKey string
	var dataAt [2]int // where the data element being read begins
	var text strings.Builder
	for {
		tok, line, col, err := xmlToken(r.dec, r.file, &r.xmlDepth)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if r.depth == 0 && r.rooted {
				return r.errorAt(line, col, "not well-formed XML: a second root element, <%s>, after the document's end: were two files joined into one? Keep one, save it, and open it again", t.Name.Local)
			}
			r.depth, r.rooted = r.depth+1, true
			if t.Name.Local == "graph" || t.Name.Local == "node" || t.Name.Local == "edge" {
				if item != nil {
					return r.errorAt(line, col, "a <%s> inside a <node> or <edge> (a nested, hierarchical graph): the explorer reads one flat graph; flatten it first (yEd, Gephi and NetworkX write flat graphs)", t.Name.Local)
				}
			}
			switch t.Name.Local {
			case "graph":
				if r.graphs++; r.graphs > 1 {
					// The first graph is the file's graph, as NetworkX's
					// read_graphml and igraph's Read_GraphML (index 0) read it.
					r.second = cmp.Or(r.second, line)
					if err := r.skip(line, col); err != nil {
						return err
					}
				} else {
					r.directed = attr(t, "edgedefault") == "directed"
				}
			case "key":
				k := graphmlKey{id: attr(t, "id"), name: attr(t, "attr.name"), domain: attr(t, "for"), typ: attr(t, "attr.type")}
				if k.name == "" {
					k.name = k.id
				}
				if k.typ != "" && !slices.Contains(graphmlTypes, k.typ) {
					return r.errorAt(line, col, "the key %s has attr.type %s, which is none of GraphML's types (%s): NetworkX refuses it too: give it one of them", quote(k.id), quote(k.typ), strings.Join(graphmlTypes, ", "))
				}
				if first, twice := r.keyLines[k.id]; twice {
					return r.errorAt(line, col, "the key %s is declared twice (first on line %d): which declaration its data follow cannot be told: keep one", quote(k.id), first)
				}
				if err := r.nameOnce(k.domain, k.name, "<key> (attr.name)", line, col); err != nil {
					return err
				}
				r.keyLines[k.id] = line
				k.decl = len(r.keys)
				r.keys[k.id] = k
				r.key(k.domain, line, col)
				dataKey = "key:" + k.id
				text.Reset()
			case "default":
				text.Reset()
			case "node", "edge":
				if len(r.nodes)+len(r.edges) >= MaxNodes*4 {
					return tooMany(r.file, line, col, anywhere(limitsOf(r.fsys)), phrase.New("more than %s nodes and edges", numtext.Group(MaxNodes*4)))
				}
				lim := limitsOf(r.fsys)
				if err := r.pastEdges(r.file, line, col, lim); err != nil {
					return err
				}
				if r.cells > lim.cells {
					return tooMany(r.file, line, col, lim, phrase.New("more than %s values", numtext.Group(lim.cells)))
				}
				if !r.meet(line, col, t.Name.Local == "edge") { // past a budget: counted, passed over
					if err := r.skip(line, col); err != nil {
						return err
					}
					continue
				}
				item = &graphmlItem{id: attr(t, "id"), source: attr(t, "source"), target: attr(t, "target"), line: line, col: col}
				r.startItem()
				if t.Name.Local == "node" && item.id == "" {
					return r.errorAt(line, col, "a node without an id")
				}
				if t.Name.Local == "edge" {
					if err := r.edgeAttrs(t, item); err != nil {
						return err
					}
				}
			case "data":
				dataKey, dataAt = attr(t, "key"), [2]int{line, col}
				text.Reset()
				r.cells++
				if _, declared := r.keyLines[dataKey]; !declared {
					if _, met := r.undeclared[dataKey]; !met {
						r.undeclared[dataKey] = [2]int{line, col}
					}
				}
				if item != nil {
					if first, twice := r.twice(dataKey, line); twice {
						return r.errorAt(line, col, "a <%s> gives data for the key %s twice (first on line %d): a reader keeps one of the two without a word: keep the one you mean", item.kind(), quote(dataKey), first)
					}
				}
			case "hyperedge":
				return r.errorAt(line, col, "a hyperedge: the explorer trains on graphs whose edges join two nodes")
			}
		case xml.CharData:
			text.Write(t)
		case xml.EndElement:
			r.depth--
			switch t.Name.Local {
			case "default":
				if id, ok := strings.CutPrefix(dataKey, "key:"); ok {
					k := r.keys[id]
					k.def = strings.TrimSpace(text.String())
					r.keys[id] = k
				}
			case "data":
				if item != nil {
					r.give(item, dataKey, strings.TrimSpace(text.String()), dataAt[0], dataAt[1])
				}
			case "node", "edge":
				r.keep(*item, t.Name.Local == "edge")
				item = nil
			}
		}
	}
	if err := r.over(r.file, limitsOf(r.fsys)); err != nil {
		return err
	}
	if len(r.nodes) == 0 {
		return &BundleError{File: r.file, Msg: phrase.New("no nodes: want <node> elements in a <graph>")}
	}
	return r.allDeclared()
}

// skip passes over the element begun at line:col, its end read; a
// failure within it is said as xmlToken says it.
func (r *graphmlReader) skip(line, col int) error {
	for open := r.xmlDepth; r.xmlDepth >= open; {
		_, _, _, err := xmlToken(r.dec, r.file, &r.xmlDepth)
		if err == io.EOF {
			return xmlFault(io.ErrUnexpectedEOF, r.file, line, col)
		}
		if err != nil {
			return err
		}
	}
	r.depth-- // its end read
	return nil
}

// maxXMLDepth is how deeply a GraphML or GEXF file's elements may nest:
// the formats need 5 or 6 levels (<graphml>, <graph>, <node>, <data>;
// <gexf>, <graph>, <nodes>, <node>, <attvalues>, <attvalue>), and
// encoding/xml holds each open element, so that a file of elements
// nested millions deep took 20 times its size.
const maxXMLDepth = 64

// xmlToken reads the next token of an XML file (file, for messages) and
// where it starts: io.EOF at the document's end; any other failure
// located, a syntax error at its line, as the GraphML and GEXF readers
// report it. depth counts the elements open: one nested past maxXMLDepth
// is refused where it starts.
func xmlToken(dec *xml.Decoder, file string, depth *int) (tok xml.Token, line, col int, err error) {
	line, col = dec.InputPos()
	tok, err = dec.Token()
	switch t := tok.(type) {
	case xml.StartElement:
		if *depth++; *depth > maxXMLDepth {
			return nil, line, col, &BundleError{File: file, Line: line, Col: col, Msg: phrase.New("<%s> is nested more than %d elements deep, and GraphML and GEXF need 5 or 6 levels (a node's value is text in its <data> or <attvalue>): keep the value as text, or remove the nested elements, save it, and open it again", t.Name.Local, maxXMLDepth)}
		}
	case xml.EndElement:
		*depth--
	}
	if err == nil || err == io.EOF {
		return tok, line, col, err
	}
	return nil, line, col, xmlFault(err, file, line, col)
}

// xmlFault says why an XML file (file) could not be read at line:col: an
// error of the file itself located, a syntax error at its line.
func xmlFault(err error, file string, line, col int) error {
	var se *xml.SyntaxError
	switch {
	case isInputError(err):
		return located(err)
	case errors.As(err, &se):
		return &BundleError{File: file, Line: se.Line, Msg: phrase.New("not well-formed XML: %s", se.Msg)}
	}
	return &BundleError{File: file, Line: line, Col: col, Msg: phrase.New("not XML the explorer can read: %v", err)}
}

// allDeclared refuses data for a key no <key> declares, at its first
// use: what it is (a class, a feature, its type) cannot be told, and
// NetworkX's read_graphml raises "no key".
func (r *graphmlReader) allDeclared() error {
	var first string
	for key, at := range r.undeclared {
		if _, declared := r.keyLines[key]; declared {
			continue
		}
		if first == "" || at[0] < r.undeclared[first][0] || at[0] == r.undeclared[first][0] && at[1] < r.undeclared[first][1] {
			first = key
		}
	}
	if first == "" {
		return nil
	}
	at := r.undeclared[first]
	return r.errorAt(at[0], at[1], "<data key=%s> names a key no <key> element declares (NetworkX raises \"no key %s\"): declare it (<key id=%s for=\"node\" attr.name=\"…\" attr.type=\"…\"/>), or correct the name", quote(first), unquoted(first), quote(first))
}

// edgeAttrs reads an edge's directed attribute, and refuses an id another
// edge of its pair has: which of the two a reader keeps by its id cannot
// be told.
func (r *graphmlReader) edgeAttrs(t xml.StartElement, it *graphmlItem) error {
	it.directed = r.directed
	switch d := attr(t, "directed"); d {
	case "true":
		it.directed = true
	case "false":
		it.directed = false
	}
	if it.id == "" {
		return nil
	}
	// NetworkX's read_graphml takes an id as the key of its pair's edge
	// (write_graphml writes a multigraph's keys so, "0" on every pair's
	// first edge): the id names an edge of its pair, u→v alone where the
	// edge is directed.
	u, v := it.source, it.target
	if !it.directed && v < u {
		u, v = v, u
	}
	key := it.id + "\x00" + u + "\x00" + v
	if first, twice := r.edgeIDs[key]; twice {
		return r.errorAt(it.line, it.col, "edge id %s is given twice, at %d:%d and at %d:%d (line:column): an id names one edge: give each its own, or drop the one repeated", quote(it.id), first[0], first[1], it.line, it.col)
	}
	r.edgeIDs[key] = [2]int{it.line, it.col}
	return nil
}

// graphsNote says the file holds more graphs than the one read.
func (r *graphmlReader) graphsNote(g *Graph) {
	if r.graphs > 1 {
		g.Notes = append(g.Notes, phrase.New("%s holds %d graphs: the first was read, and the second (from line %d) and any after it were left out, as NetworkX's read_graphml and igraph read the first; to train on another, save it in a file of its own", r.file, r.graphs, r.second))
	}
}

// kind is node or edge.
func (it *graphmlItem) kind() string {
	if it.source != "" || it.target != "" {
		return "edge"
	}
	return "node"
}

func attr(t xml.StartElement, name string) string {
	for _, a := range t.Attr {
		local := a.Name.Local
		if a.Name.Space != "" && a.Name.Space != "http://graphml.graphdrawing.org/xmlns" {
			local = a.Name.Space + ":" + local // never confused with GraphML's own
		}
		if local == name {
			return a.Value
		}
	}
	return ""
}

// keysFor returns the keys declared for nodes or edges in the order
// NetworkX's readers give a graph's attributes (each item's dict holds its
// values in the order its file gives them): the order they are first
// given a value in, item after item, then those no item gives, in the
// order declared. This is the order of node features and edge features
// in every format of the three readers (GraphML, GEXF, node-link JSON),
// whatever order its keys are declared in or their ids sort in:
// nx.write_graphml declares its keys in reverse.
func (r *graphmlReader) keysFor(domain string) []graphmlKey {
	var out []graphmlKey
	for _, k := range r.keys {
		if k.domain == domain || k.domain == "all" || k.domain == "" {
			out = append(out, k)
		}
	}
	slices.SortFunc(out, func(a, b graphmlKey) int {
		fa, ma := r.firsts[a.id]
		fb, mb := r.firsts[b.id]
		switch {
		case ma && mb:
			return cmp.Compare(fa, fb)
		case ma != mb: // given a value first
			if ma {
				return -1
			}
			return 1
		}
		return cmp.Or(cmp.Compare(a.decl, b.decl), strings.Compare(a.id, b.id))
	})
	return out
}

// leftOut reports whether the item gives no value for k and k declares
// no default: GraphML's own mark of a value it does not have.
func (it graphmlItem) leftOut(k graphmlKey) bool {
	_, ok := it.data[k.id]
	return !ok && k.def == ""
}

// value is an item's value for k: its own, the key's default, else "".
func (it graphmlItem) value(k graphmlKey) string {
	if v, ok := it.data[k.id]; ok {
		return v
	}
	return k.def
}

// graph makes the graph: the nodes as a node table (id, then one column a
// node attribute) so that the class is chosen as in every other format.
// A numeric attribute a node does not give, in a file that declares no
// default for it, is 0 for that node: NetworkX's write_graphml writes an
// attribute only where a node has it, so a sparse feature matrix comes
// out with its zeros left out. Gephi's drawing attributes are neither
// features nor classes (its y coordinate is no class), unless named.
func (r *graphmlReader) graph(cols Columns) (*Graph, error) {
	var nodeKeys []graphmlKey
	var drawing []string
	for _, k := range r.keysFor("node") {
		if k.numeric() && r.isDrawing(k.name) && !strings.EqualFold(k.name, cols.Target) {
			drawing = append(drawing, k.name)
			continue
		}
		nodeKeys = append(nodeKeys, k)
	}
	nt := &nodeTable{file: r.file, header: []string{"id"}, named: true, bins: cols.Bins, exactIDs: true}
	for _, k := range nodeKeys {
		nt.header = append(nt.header, k.name)
	}
	seen := map[string]int{}
	zeros := map[string]bool{} // numeric keys a node left out
	nt.absent = map[int][]bool{}
	for _, it := range r.nodes {
		if first, dup := seen[it.id]; dup {
			return nil, r.errorAt(it.line, it.col, "node %s was declared on line %d already", quote(it.id), first)
		}
		seen[it.id] = it.line
		row := []string{it.id}
		for c, k := range nodeKeys {
			if it.leftOut(k) { // no class, as a class; 0, as a feature
				if nt.absent[c+1] == nil {
					nt.absent[c+1] = make([]bool, len(r.nodes))
				}
				nt.absent[c+1][len(nt.rows)] = true
			}
			v := numericBool(k, it.value(k))
			switch {
			case v == "" && k.numeric():
				v, zeros[k.name] = "0", true
			case k.numeric():
				if _, err := numtext.ParseFloat(strings.TrimSpace(v)); err != nil {
					return nil, r.errorAt(it.line, it.col, "node attribute %s (of type %s): %s is not a finite decimal number", plainOrQuoted(k.name), k.typ, quote(v))
				}
			}
			row = append(row, v)
		}
		nt.keepControls(row, func(int) (int, int) { return it.line, it.col })
		nt.rows = append(nt.rows, row)
	}
	cols.ID = "1"
	class, err := nt.chooseClass(cols.Target, 0)
	if err != nil {
		return nil, r.hinted(err, cols.Target)
	}
	name := strings.TrimSuffix(input.Plain(r.file), path.Ext(input.Plain(r.file)))
	g := &Graph{Meta: map[string]any{"name": name}}
	ids, order, err := nt.fill(g, 0, class)
	if err != nil {
		return nil, err
	}
	var features []int
	for _, c := range nt.numericColumns(0, class) {
		if nodeKeys[c-1].numeric() {
			features = append(features, c)
		}
	}
	nt.denseFeatures(g, features, order)
	delete(zeros, nt.header[class]) // a class left out is no class (the builder's note), no 0
	if len(zeros) > 0 {
		g.Notes = append(g.Notes, phrase.New("%s: %s numeric node attributes are left out on some nodes, with no default declared: read as 0 there, as a sparse matrix written by NetworkX leaves its zeros out", r.file, numtext.Group(len(zeros))))
	}
	if len(drawing) > 0 {
		slices.Sort(drawing) // a note's list, in the order of the alphabet
		g.Notes = append(g.Notes, phrase.New("%s: the node attributes %s are the drawing's (positions, size, colour), not node features or classes: -target names one to take it as the class", r.file, strings.Join(drawing, ", ")))
	}
	r.graphsNote(g)
	return g, r.addEdges(g, ids)
}

// hinted adds the format's classHint to err, a class not found.
func (r *graphmlReader) hinted(err error, target string) error {
	if r.classHint == nil {
		return err
	}
	hint, ok := r.classHint(target, len(r.nodes))
	if !ok {
		return err
	}
	var be *BundleError
	var ce *ColumnsError
	switch {
	case errors.As(err, &be):
		be.Msg = phrase.New("%s; %s", be.Msg, hint)
	case errors.As(err, &ce):
		ce.Msg = phrase.New("%s; %s", ce.Msg, hint)
	}
	return err
}

// isDrawing says a node attribute is one of the drawing's: Gephi's in
// GraphML, or those r's format names.
func (r *graphmlReader) isDrawing(name string) bool {
	if r.drawing != nil {
		return slices.Contains(r.drawing, strings.ToLower(name))
	}
	return slices.Contains(drawingAttrs, strings.ToLower(name))
}

// numericBool writes a boolean attribute as 0 or 1, so that it can be a
// feature.
func numericBool(k graphmlKey, v string) string {
	if k.typ != "boolean" {
		return v
	}
	if b, err := numtext.ParseBool(v); err == nil && b {
		return "1"
	}
	return "0"
}

// addEdges adds the edges and their numeric attributes as edge features.
func (r *graphmlReader) addEdges(g *Graph, ids nodeKeys) error {
	var edgeKeys []graphmlKey
	for _, k := range r.keysFor("edge") {
		if k.numeric() {
			edgeKeys = append(edgeKeys, k)
			g.EdgeNames = append(g.EdgeNames, k.name)
		}
	}
	g.D = len(edgeKeys)
	p := newPairs(r.fsys, r.file, r.format)
	// NetworkX's nx.Graph(D) adds a directed graph's edges node by node,
	// in the order the nodes are listed (not the order their ids sort
	// in), and of a directed multigraph keeps the edges from the node
	// listed first (pairs.firstNode).
	listed := make(map[string]int, len(r.nodes))
	for i, it := range r.nodes {
		listed[it.id] = i
	}
	p.firstNode = r.multiOf()
	both := directions{}
	for _, it := range r.edges {
		u, ok := ids.node(it.source)
		if !ok {
			if err := r.notANodeOwn(it, "source", it.source); err != nil {
				return err
			}
			return r.errorAt(it.line, it.col, "edge source %s is not a node", quote(it.source))
		}
		v, ok := ids.node(it.target)
		if !ok {
			if err := r.notANodeOwn(it, "target", it.target); err != nil {
				return err
			}
			return r.errorAt(it.line, it.col, "edge target %s is not a node", quote(it.target))
		}
		both.add(u, v, it.directed)
		e, err := p.edge(int32(u), int32(v), it.line)
		if err != nil {
			return err
		}
		if e < 0 {
			continue
		}
		late := it.directed && listed[it.source] > listed[it.target]
		for c, k := range edgeKeys {
			x, err := numtext.ParseFloat(strings.TrimSpace(numericBool(k, it.value(k))))
			if it.value(k) == "" {
				x, err = 0, nil
			}
			if err != nil || x != x || x > 1e308 || x < -1e308 {
				return r.errorAt(it.line, it.col, "edge attribute %s: %s is not a finite number", plainOrQuoted(k.name), quote(it.value(k)))
			}
			p.value(g, e, c, x, it.gives(k), late)
		}
		if !p.again {
			g.Src, g.Dst = append(g.Src, int32(min(u, v))), append(g.Dst, int32(max(u, v)))
		}
	}
	p.note(g)
	if both.directed > 0 {
		how := cmp.Or(r.directedHow, `edgedefault="directed", or directed="true"`)
		g.Notes = append(g.Notes, phrase.New("%s: %s of its edges are directed (%s), and were read as undirected, as the models are trained on undirected graphs; %s of them were listed in one direction only, and now join their ends both ways", r.file, numtext.Group(both.directed), how, numtext.Group(both.oneWay())))
	}
	return g.Check()
}

// multiOf says the file is read by NetworkX as a multigraph: as its
// format says, else (read_graphml, read_gexf) where a pair is listed
// again, u→v again where the edge is directed.
func (r *graphmlReader) multiOf() bool {
	if r.multigraph != nil {
		return r.multigraph()
	}
	seen := make(map[[2]string]bool, len(r.edges))
	for _, it := range r.edges {
		pair := [2]string{it.source, it.target}
		if !it.directed && pair[1] < pair[0] {
			pair[0], pair[1] = pair[1], pair[0]
		}
		if seen[pair] {
			return true
		}
		seen[pair] = true
	}
	return false
}

// gives says the item gives its own value for k, not k's default.
func (it graphmlItem) gives(k graphmlKey) bool {
	_, ok := it.data[k.id]
	return ok
}

// notANodeOwn is the format's own words for an edge whose end names no
// node (notANode), nil where it has none to say.
func (r *graphmlReader) notANodeOwn(it graphmlItem, end, id string) error {
	if r.notANode == nil {
		return nil
	}
	return r.notANode(it, end, id)
}

// directions counts a graph's directed edges, and which of them are
// listed one way only (u→v without v→u, nor an undirected u–v).
type directions struct {
	directed int
	arcs     map[[2]int]bool // every direction listed
	oneWays  [][2]int
}

func (d *directions) add(u, v int, directed bool) {
	if d.arcs == nil {
		d.arcs = map[[2]int]bool{}
	}
	d.arcs[[2]int{u, v}] = true
	if !directed {
		d.arcs[[2]int{v, u}] = true
		return
	}
	d.directed++
	if u != v {
		d.oneWays = append(d.oneWays, [2]int{u, v})
	}
}

// oneWay is how many distinct directed edges have no edge back.
func (d *directions) oneWay() int {
	seen := map[[2]int]bool{}
	for _, a := range d.oneWays {
		if !d.arcs[[2]int{a[1], a[0]}] && !seen[a] {
			seen[a] = true
		}
	}
	return len(seen)
}
