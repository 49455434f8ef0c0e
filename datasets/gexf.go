package datasets

import (
	"cmp"
	"encoding/xml"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"

	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/input"
	"pdnexplorer/internal/numtext"
)

// A GEXF file is Gephi's own (and NetworkX's write_gexf): <attributes
// class="node"> and class="edge" declare the attributes (id, title,
// type, an optional <default>), each node and edge gives its values as
// <attvalues><attvalue for="id" value="…"/>. It is read as NetworkX's
// read_gexf and Gephi read it, into the graph GraphML's reader makes
// (graphmlReader.graph): one node attribute is the class (chosen as in
// every format, or named by Columns.Target), the other numeric ones
// (integer, long, float, double, boolean, and GEXF 1.3's byte, short,
// bigdecimal, biginteger) node features, the numeric edge attributes and
// the edge's weight edge features; the edge attribute networkx_key,
// which write_gexf writes for a multigraph's edge keys, is the key, as
// read_gexf takes it, no feature. Where it differs from NetworkX:
//   - a node's label is its name in the drawing, as Gephi shows it, and
//     neither a class nor a feature unless -target label names it
//     (NetworkX keeps it as the attribute "label", which would be taken
//     for the class: a label is most often a node's own name); where no
//     class is found and the labels could be classes, the message says
//     so;
//   - an attribute's <default> is the value of a node or edge that gives
//     none, as Gephi reads it (NetworkX keeps the defaults aside, in
//     G.graph["node_default"]);
//   - an edge without weight= weighs 1, GEXF's default, as Gephi reads it,
//     where some edges give one (NetworkX leaves its weight out);
//   - the drawing (viz:position, viz:size, viz:color, viz:shape,
//     viz:thickness) is neither a feature nor a class, and a note says
//     it is left out, as GraphML's reader says of Gephi's x, y, size, r, g, b;
//   - a directed graph (defaultedgetype="directed", or an edge's
//     type="directed") is read undirected and said, as every reader does;
//     type="mutual" is an undirected edge; repeated pairs (NetworkX keeps
//     a MultiGraph) are dropped and said;
//   - a dynamic graph (mode="dynamic", attributes mode="dynamic", spells,
//     slices, an attvalue with start or end) is refused, not read as
//     NetworkX reads it: NetworkX keeps every node and edge whatever its
//     time and makes each dynamic value a list of (value, start, end),
//     which is neither a class nor a feature; a graph at one time, which
//     the models train on, is what Gephi exports once its timeline is set;
//   - a hierarchy (nodes inside a node, pid, parents) is refused, as
//     GraphML's nested graphs are.
//
// A type outside GEXF's is refused at its line and column (NetworkX
// raises a KeyError), and so is an attvalue for an attribute declared
// nowhere in the file ("No attribute defined for=…"; one declared below
// the nodes that use it is read, as NetworkX reads it). encoding/xml reads the file.

// gexfNamespaces are the namespaces of GEXF 1.1, 1.2 and 1.3, as
// NetworkX's read_gexf knows them; a file without one is read as well.
var gexfNamespaces = []string{"http://www.gexf.net/1.1draft", "http://www.gexf.net/1.2draft", "http://gexf.net/1.3", "http://www.gexf.net/1.3"}

// gexfTypes are the attribute types GEXF defines (1.1 to 1.3), and "int",
// which NetworkX writes for numpy's integers and reads back.
var gexfTypes = []string{"integer", "long", "float", "double", "boolean", "string", "liststring", "anyURI",
	"byte", "short", "bigdecimal", "biginteger", "char", "date", "int",
	"listbyte", "listshort", "listinteger", "listlong", "listfloat", "listdouble", "listboolean", "listchar", "listbigdecimal", "listbiginteger", "listdate"}

// isGEXFName says a file's name is a GEXF file's: .gexf, or .gexf.gz or
// .gexf.bz2, as GraphML's.
func isGEXFName(name string) bool {
	return strings.EqualFold(path.Ext(input.Plain(name)), ".gexf")
}

// findGEXF finds the one GEXF file at the root of fsys.
func findGEXF(fsys fs.FS) (string, bool) { return theOne(fsys, isGEXFName) }

func findGEXFFile(fsys fs.FS) (readFunc, bool) {
	name, ok := findGEXF(fsys)
	if !ok {
		return nil, false
	}
	return func(f fs.FS, c Columns) (*Graph, bool, error) {
		g, err := ReadGEXFFS(f, name, c)
		return g, true, err
	}, true
}

// gexfNearMiss says why GEXF files are no graph: there are several.
func gexfNearMiss(fsys fs.FS) phrase.Text { return severalNearMiss(fsys, isGEXFName, "GEXF") }

// gexfReader reads a GEXF file into a graphmlReader's keys, nodes and
// edges, for its graph.
type gexfReader struct {
	*graphmlReader
	// attrs are the declared attributes' keys in the graph (numbered in
	// the order declared), by class and GEXF id.
	attrs     map[[2]string]string
	declared  int
	class     string // of the <attributes> being read
	key       string // the <attribute> being read, as its key
	item      *graphmlItem
	inDefault bool
	text      strings.Builder
	viz       map[string]bool // the drawing's elements met
	weighted  bool            // some edge gives weight=
	// labelled counts the nodes that give label=, labels its values (at
	// most maxLabels of them): what the nodes' label= would be as a
	// class, for the message when no class is found.
	labelled int
	labels   map[string]bool
	// labelClass says -target names label, and no attribute is titled so:
	// the nodes' label= is read as the class, as NetworkX keeps it.
	labelClass bool
}

// labelKey is the key the nodes' label= is held under when it is read
// as the class: after the declared ones.
const labelKey = "~label"

// maxLabels is how many label= values gexfReader keeps for its message:
// past it, the labels are no classes.
const maxLabels = 1000

// weightGiven holds an edge's weight= among its values until weigh
// knows the key it is.
const weightGiven = "\x00weight"

// ReadGEXFFS reads the GEXF file name in fsys.
func ReadGEXFFS(fsys fs.FS, name string, cols Columns) (*Graph, error) {
	if sessionOf(fsys) == nil {
		g, _, err := within(fsys, func(f fs.FS) (*Graph, bool, error) { g, err := ReadGEXFFS(f, name, cols); return g, true, err })
		return g, err
	}
	dec, text, err := openXMLInput(fsys, name)
	if err != nil {
		return nil, err
	}
	defer text.Close()
	r := &gexfReader{
		graphmlReader: &graphmlReader{fsys: fsys, file: name, format: "GEXF", dec: dec, keys: map[string]graphmlKey{}, edgeIDs: map[string][2]int{}, undeclared: map[string][2]int{},
			drawing: []string{}, directedHow: `defaultedgetype="directed", or type="directed"`, held: heldWithin(limitsOf(fsys), gexfCost)},
		attrs: map[[2]string]string{}, viz: map[string]bool{}, labels: map[string]bool{},
	}
	r.classHint = r.labelHint
	r.labelClass = strings.EqualFold(strings.TrimSpace(cols.Target), "label")
	if err := r.read(); err != nil {
		return nil, err
	}
	if err := r.declaredLater(); err != nil {
		return nil, err
	}
	r.weigh()
	r.labelAsClass(&cols)
	g, err := r.graph(cols)
	if err != nil {
		return nil, err
	}
	if len(r.viz) > 0 {
		g.Notes = append(g.Notes, phrase.New("%s: its viz: elements (%s) are the drawing's (positions, size, colour), not node features or classes", r.file, strings.Join(slices.Sorted(maps.Keys(r.viz)), ", ")))
	}
	return g, nil
}

// read collects the attributes, nodes and edges.
func (r *gexfReader) read() error {
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
			if err := r.start(t, line, col); err != nil {
				return err
			}
		case xml.CharData:
			if r.inDefault {
				r.text.Write(t)
			}
		case xml.EndElement:
			r.depth--
			r.end(t)
		}
	}
	if !r.rooted {
		return &BundleError{File: r.file, Msg: phrase.New("no <gexf> element: want <gexf><graph><nodes><node id=…/>…")}
	}
	if err := r.over(r.file, limitsOf(r.fsys)); err != nil {
		return err
	}
	if len(r.nodes) == 0 {
		return &BundleError{File: r.file, Msg: phrase.New("no nodes: want <node> elements in a <graph>'s <nodes>")}
	}
	return nil
}

// isViz says an element is of Gephi's viz: namespace.
func isViz(n xml.Name) bool {
	return n.Space == "viz" || strings.HasSuffix(n.Space, "/viz")
}

func (r *gexfReader) start(t xml.StartElement, line, col int) error {
	if r.depth == 0 && r.rooted {
		return r.errorAt(line, col, "not well-formed XML: a second root element, <%s>, after the document's end: were two files joined into one? Keep one, save it, and open it again", t.Name.Local)
	}
	r.depth++
	if !r.rooted {
		r.rooted = true
		if t.Name.Local != "gexf" {
			return r.errorAt(line, col, "the root element is <%s>, not <gexf>: is this a GEXF file?", t.Name.Local)
		}
		if t.Name.Space != "" && !slices.Contains(gexfNamespaces, t.Name.Space) {
			return r.errorAt(line, col, "the namespace %s is none of GEXF's (%s), which NetworkX's read_gexf reads: correct xmlns", quote(t.Name.Space), strings.Join(gexfNamespaces[:3], ", "))
		}
		return nil
	}
	if isViz(t.Name) {
		if r.item != nil {
			r.viz["viz:"+t.Name.Local] = true
		}
		return nil
	}
	switch t.Name.Local {
	case "graph":
		if r.graphs++; r.graphs > 1 {
			return r.errorAt(line, col, "a second <graph>: a GEXF file holds one graph: save each in a file of its own")
		}
		if err := r.static(t, line, col, phrase.New("<graph mode=\"dynamic\">")); err != nil {
			return err
		}
		r.directed = attr(t, "defaultedgetype") == "directed"
	case "attributes":
		r.class = attr(t, "class")
		if r.class != "node" && r.class != "edge" {
			return r.errorAt(line, col, "<attributes class=%s>: the class is node or edge (NetworkX's read_gexf reads no other): correct it", quote(r.class))
		}
		return r.static(t, line, col, phrase.New("<attributes mode=\"dynamic\">"))
	case "attribute":
		return r.attribute(t, line, col)
	case "default":
		r.inDefault = true
		r.text.Reset()
	case "node", "edge":
		if r.item != nil {
			return r.errorAt(line, col, "a <%s> inside a <node> or <edge> (a hierarchy of nodes): the explorer reads one flat graph; flatten it first (Gephi exports flat graphs)", t.Name.Local)
		}
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
			return r.skip(line, col)
		}
		if err := r.static(t, line, col, phrase.New("a <%s> with start or end", t.Name.Local)); err != nil {
			return err
		}
		r.item = &graphmlItem{id: attr(t, "id"), line: line, col: col}
		r.startItem()
		if t.Name.Local == "node" {
			if r.item.id == "" {
				return r.errorAt(line, col, "a node without an id")
			}
			if attr(t, "pid") != "" {
				return r.errorAt(line, col, "a node with a pid (a hierarchy of nodes): the explorer reads one flat graph; flatten it first (Gephi exports flat graphs)")
			}
			if l := strings.TrimSpace(attr(t, "label")); l != "" {
				r.labelled++
				if len(r.labels) <= maxLabels {
					r.labels[l] = true
				}
				if r.labelClass {
					r.give(r.item, labelKey, l, line, col)
				}
			}
			return nil
		}
		return r.edge(t)
	case "nodes":
		if r.item != nil {
			return r.errorAt(line, col, "a <nodes> inside a <node> (a hierarchy of nodes): the explorer reads one flat graph; flatten it first (Gephi exports flat graphs)")
		}
	case "attvalue":
		return r.attvalue(t, line, col)
	case "spells", "spell", "slices", "slice":
		return r.errorAt(line, col, "<%s>: a dynamic graph (nodes and edges that come and go in time): %s", t.Name.Local, phrase.New(dynamicAdvice))
	case "parents":
		return r.errorAt(line, col, "<parents> (a hierarchy of nodes): the explorer reads one flat graph; flatten it first (Gephi exports flat graphs)")
	}
	return nil
}

// labelAsClass makes the nodes' label= a node attribute, "label", when
// -target names it (labelClass): the class, as NetworkX's read_gexf
// keeps it, unless the file declares an attribute titled label, which
// -target then names.
func (r *gexfReader) labelAsClass(cols *Columns) {
	if !r.labelClass {
		return
	}
	for _, k := range r.keysFor("node") {
		if strings.EqualFold(k.name, "label") {
			return
		}
	}
	r.keys[labelKey] = graphmlKey{id: labelKey, name: "label", domain: "node", typ: "string"}
	cols.Target = "label"
}

// labelHint says, where no class was found, that the nodes' label= is
// no class unless -target names it: when its values could be classes (2
// to half as many as the nodes).
func (r *gexfReader) labelHint(target string, nodes int) (phrase.Text, bool) {
	if r.labelClass || r.labelled == 0 || len(r.labels) < 2 || 2*len(r.labels) > nodes {
		return phrase.Text{}, false
	}
	return phrase.New("the nodes' label= (%s of them, %s values) is each node's name in the drawing, as Gephi shows it, and not taken for the class: -target label (target=label in a link) reads it as the class", numtext.Group(r.labelled), numtext.Group(len(r.labels))), true
}

// dynamicAdvice says what to do with a dynamic graph.
const dynamicAdvice = "the explorer trains on the graph at one time, and NetworkX's read_gexf would keep every node and edge whatever its time, its values as lists of (value, start, end), which are no class nor feature: set Gephi's timeline to the time you mean and export that graph"

// static refuses an element of a dynamic graph: mode="dynamic", or start
// and end times.
func (r *gexfReader) static(t xml.StartElement, line, col int, what phrase.Text) error {
	if attr(t, "mode") == "dynamic" || attr(t, "start") != "" || attr(t, "end") != "" || attr(t, "startopen") != "" || attr(t, "endopen") != "" {
		return r.errorAt(line, col, "%s: a dynamic graph: %s", what, phrase.New(dynamicAdvice))
	}
	return nil
}

// attribute declares an attribute of the class being read.
func (r *gexfReader) attribute(t xml.StartElement, line, col int) error {
	if r.class == "" {
		return r.errorAt(line, col, "an <attribute> outside <attributes class=\"node\"> or class=\"edge\": put it inside one")
	}
	id, title, typ := attr(t, "id"), attr(t, "title"), attr(t, "type")
	if !slices.Contains(gexfTypes, typ) {
		return r.errorAt(line, col, "the attribute %s has type %s, which is none of GEXF's types (integer, long, float, double, boolean, string, liststring, anyURI and GEXF 1.3's): NetworkX refuses it too: give it one of them", quote(id), quote(typ))
	}
	at := [2]string{r.class, id}
	if _, twice := r.attrs[at]; twice {
		return r.errorAt(line, col, "the %s attribute %s is declared twice: which declaration its values follow cannot be told: keep one", r.class, quote(id))
	}
	if err := r.nameOnce(r.class, cmp.Or(title, id), "<attribute> (title)", line, col); err != nil {
		return err
	}
	r.declared++
	r.key = fmt.Sprintf("%07d", r.declared) // keys sort in the order declared
	r.attrs[at] = r.key
	if r.class == "edge" && cmp.Or(title, id) == "networkx_key" {
		return nil // a multigraph's edge key, as write_gexf writes it: read_gexf takes it for the key, no attribute
	}
	r.keys[r.key] = graphmlKey{id: r.key, name: cmp.Or(title, id), domain: r.class, typ: gexfNumeric(typ)}
	r.held.key(r.class, line, col)
	return nil
}

// gexfNumeric is a GEXF type as graphmlKey.numeric knows it: GEXF's
// integer types read as long.
func gexfNumeric(typ string) string {
	switch typ {
	case "integer", "int", "byte", "short", "biginteger":
		return "long"
	case "bigdecimal":
		return "double"
	}
	return typ
}

// edge reads an edge's ends, direction, weight and id.
func (r *gexfReader) edge(t xml.StartElement) error {
	it := r.item
	it.source, it.target = attr(t, "source"), attr(t, "target")
	it.directed = r.directed
	switch attr(t, "type") {
	case "directed":
		it.directed = true
	case "undirected", "mutual":
		it.directed = false
	}
	if it.source == "" || it.target == "" {
		return r.errorAt(it.line, it.col, "an edge without a source or a target: give both")
	}
	if w := attr(t, "weight"); w != "" {
		if !r.weighted {
			r.held.key("edge", it.line, it.col) // weigh's own, where none is declared
		}
		r.weighted = true
		r.give(it, weightGiven, strings.TrimSpace(w), it.line, it.col)
	}
	if it.id == "" {
		return nil
	}
	if first, twice := r.edgeIDs[it.id]; twice {
		return r.errorAt(it.line, it.col, "edge id %s is given twice, at %d:%d and at %d:%d (line:column): an id names one edge: give each its own, or drop the one repeated", quote(it.id), first[0], first[1], it.line, it.col)
	}
	r.edgeIDs[it.id] = [2]int{it.line, it.col}
	return nil
}

// attvalue reads a node's or an edge's value for a declared attribute.
func (r *gexfReader) attvalue(t xml.StartElement, line, col int) error {
	if r.item == nil {
		return nil
	}
	if err := r.static(t, line, col, phrase.New("an <attvalue> with start or end")); err != nil {
		return err
	}
	kind := "node"
	if r.item.source != "" {
		kind = "edge"
	}
	r.cells++
	id := attr(t, "for")
	key, ok := r.attrs[[2]string{kind, id}]
	if !ok { // declared further down, perhaps: NetworkX reads the whole file first
		key = undeclaredKey(kind, id)
		if _, met := r.undeclared[key]; !met {
			r.undeclared[key] = [2]int{line, col}
		}
	}
	if first, twice := r.twice(key, line); twice {
		return r.errorAt(line, col, "a <%s> gives a value for the attribute %s twice (first on line %d): a reader keeps one of the two without a word: keep the one you mean", kind, quote(id), first)
	}
	r.give(r.item, key, strings.TrimSpace(attr(t, "value")), line, col)
	return nil
}

// undeclaredKey holds the values for an attribute not declared yet
// until declaredLater finds its declaration.
func undeclaredKey(kind, id string) string { return "\x00" + kind + "\x00" + id }

// declaredLater gives the values for attributes declared after their use
// (GEXF declares them first, NetworkX reads them wherever they are) to
// their keys, and refuses, at its first use, an attvalue for an attribute
// never declared: what it is (a class, a feature, its type) cannot be
// told, and NetworkX raises "No attribute defined for=…".
func (r *gexfReader) declaredLater() error {
	var first string
	for held, at := range r.undeclared {
		kind, id, _ := strings.Cut(held[1:], "\x00")
		if _, ok := r.attrs[[2]string{kind, id}]; ok {
			continue
		}
		if first == "" || at[0] < r.undeclared[first][0] || at[0] == r.undeclared[first][0] && at[1] < r.undeclared[first][1] {
			first = held
		}
	}
	if first != "" {
		at := r.undeclared[first]
		kind, id, _ := strings.Cut(first[1:], "\x00")
		return r.errorAt(at[0], at[1], "<attvalue for=%s> names no %s attribute <attributes class=%q> declares (NetworkX raises \"No attribute defined for=%s.\"): declare it, or correct the id", quote(id), kind, kind, unquoted(id))
	}
	for held := range r.undeclared {
		kind, id, _ := strings.Cut(held[1:], "\x00")
		key := r.attrs[[2]string{kind, id}]
		items := r.nodes
		if kind == "edge" {
			items = r.edges
		}
		for _, it := range items {
			it.rename(held, key)
		}
	}
	return nil
}

func (r *gexfReader) end(t xml.EndElement) {
	if isViz(t.Name) {
		return
	}
	switch t.Name.Local {
	case "default":
		r.inDefault = false
		if k, ok := r.keys[r.key]; ok {
			k.def = strings.TrimSpace(r.text.String())
			r.keys[r.key] = k
		}
	case "attribute":
		r.key = ""
	case "attributes":
		r.class = ""
	case "node", "edge":
		if r.item != nil {
			r.keep(*r.item, t.Name.Local == "edge")
		}
		r.item = nil
	}
}

// weigh makes the edges' weight= an edge attribute, "weight", as
// NetworkX reads it: the declared edge attribute of that title if there
// is one (weight= wins, as in NetworkX), else one of its own after the
// declared ones; an edge without weight= weighs 1, GEXF's default.
func (r *gexfReader) weigh() {
	key := ""
	for id, k := range r.keys {
		if k.domain == "edge" && k.name == "weight" {
			key = id
		}
	}
	if k, ok := r.keys[key]; ok && k.def == "" {
		// A declared weight without a <default>: an edge that gives
		// neither weight= nor a value weighs 1 too, GEXF's default.
		k.def = "1"
		r.keys[key] = k
	}
	if !r.weighted {
		return
	}
	if key == "" {
		key = "~weight" // after the declared ones
		r.keys[key] = graphmlKey{id: key, name: "weight", domain: "edge", typ: "double", def: "1"}
	}
	for _, it := range r.edges {
		it.rename(weightGiven, key)
	}
}
