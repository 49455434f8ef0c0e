package datasets

import (
	"math"

	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/numtext"
)

// The readers that read a graph as its nodes and edges, each with its
// values (GraphML's, GEXF's and node-link JSON's: the formats' rows
// holdsItems), hold each as an item (a graphmlItem, its values in a map of
// its own) until the graph is made (graphmlReader.graph), which then makes
// a row of the node table of each node, a cell for every node key whether
// the node gives it or not, and the edge features of each edge. However
// well their text streams, a file within the page's 64 MB bound (as it was) would fill
// the worker's memory: with tiny nodes (3 million in GraphML, 62 MB,
// peaked at 1.95 GB), with many values (85,000 nodes of 30 and 85,000
// edges in GraphML at 0.89 GB; 140,000 nodes of 40 in node-link JSON at
// 1.33 GB), or with many keys each node leaves out (20,000 nodes of 5
// values among 1,000 keys, 6 MB, at 0.6 GB: a table of 20 million cells;
// Facebook Page-Page's 4,714 features as keys, 18 MB, at 3.7 GB). So what
// items hold is bounded by one rule, held's, on two budgets: the count of
// nodes and edges (limits.elements), and the bytes they take at the peak
// of the heap (limits.itemBytes), as estimated from what the reader has
// met:
//
//	nodes × cost.node + edges × cost.edge + values × cost.value
//	  + keys × cost.key
//	  + (nodes × node keys − node values) × cost.nodeCell
//	  + (edges × edge keys − edge values) × cost.edgeCell
//
// each count as it grows: meet counts every node and edge as the reader
// meets it, before its item is made, and says whether it may be held;
// give, the one way an item is given a value, counts it; key counts a key
// a node or an edge may give a value for (a column of the graph's
// tables); keep, the one way a reader holds an item, holds only what meet
// let in and no value passed. A check over the source (internal/rules)
// finds an item held, or given a value, any other way. Past a budget, the
// items held are let go and the rest only counted, not read, so that the
// message (over) names the file's count of nodes and edges, or what was
// held where the estimate passed its budget.

// itemCost is what an item-holding reader's items take at the peak of the
// heap, in bytes: a node and an edge (its item, the node's row of the
// node table or the edge's pair, the reader's maps of ids), a value one
// gives (a map entry and its text, a cell of the node table or an edge
// feature, the class choice's counts), and a cell of the node table or
// of the edge features an item leaves out, filled all the same.
//
// Measured with runtime.ReadMemStats' HeapAlloc, sampled every
// millisecond while Open reads a generated file with the page's limits
// (the budgets lifted), less the file's own bytes; the highest of three
// runs. Each node has a class value, the others are floats as NetworkX
// writes them (0.8444218515250481), every node and edge gives every key:
//
//	nodes + edges, values    GraphML   GEXF      node-link
//	150k + 150k, 150k        0.26 GB   0.27 GB   0.26 GB
//	100k + 300k, 100k        0.24 GB   0.30 GB   0.23 GB
//	280k + 20k, 280k         0.34 GB   0.33 GB   0.40 GB
//	50k + 50k, 1.55M         0.44 GB   0.46 GB   0.40 GB
//	20k + 20k, 1.22M         0.37 GB   0.29 GB   0.32 GB
//	50k + 200k, 700k         0.29 GB   0.33 GB   0.28 GB
//
// The costs are about the least that cover every row: the estimate is
// over each peak by 2 to 22% for GraphML, 3 to 28% for GEXF, 3 to 14% for
// node-link. GEXF's edges cost more for their ids (edgeIDs: NetworkX and
// Gephi write one on every edge), node-link's nodes for their ids' kinds.
// A value's text is a copy of its file's, so a longer one costs more, up
// to the file's own bytes again. A cell left out: 20,000 nodes giving 5
// of 500 and of 1,000 keys peaked at 0.35-0.37 and 0.59-0.64 GB in all
// three formats, 26 to 30 bytes a cell; 200,000 edges giving 1 of 20
// edge keys, 12 bytes a cell.
//
// A key (its declaration, its column's name, type and place, the
// reader's maps of keys, a column of the tables made): 100,000 and
// 300,000 GraphML keys with 3 nodes peaked at 110 and 329 MB, about
// 940 bytes a key beyond its file's bytes and its cells; a key is charged
// 1,000 in every format, so that 900,000 keys and 3 nodes (60 MB, which
// peaked at 1 GB) pass the budget.
type itemCost struct {
	node, edge, value, key, nodeCell, edgeCell float64
}

var (
	graphmlCost  = itemCost{node: 1150, edge: 400, value: 280, key: 1000, nodeCell: 30, edgeCell: 16}
	gexfCost     = itemCost{node: 1000, edge: 600, value: 280, key: 1000, nodeCell: 30, edgeCell: 16}
	nodeLinkCost = itemCost{node: 1200, edge: 300, value: 250, key: 1000, nodeCell: 30, edgeCell: 16}
)

// held are the nodes and edges a reader holds till its graph is made,
// and what they hold, against the budgets.
type held struct {
	nodes, edges []graphmlItem
	loops        int      // edges held from a node to itself, which no graph keeps
	elements     int      // the budget of nodes and edges: limits.elements
	bytes        int      // the budget of their estimate: limits.itemBytes
	cost         itemCost // the reader's
	met          [2]int   // nodes and edges met, held or past a budget
	values       [2]int   // values given to the nodes and the edges held
	keys         [2]int   // keys a node and an edge may give: the tables' columns
	declared     int      // keys counted, each once (one for both is one)
	edge         bool     // the last one met is an edge
	may          bool     // the last one met may be held
	past         [2]int   // the line and column where a budget was passed
	why          int      // which: 0 none, pastElements or pastBytes
	// firsts are the keys given a value, each by its place in the order
	// they were first given one: the order of NetworkX's attribute dicts
	// (keysFor).
	firsts map[string]int
	// then is what was held where the estimate passed its budget.
	then struct {
		elements, values, cells int
		bytes                   float64
	}
}

// The budgets a file passes.
const (
	pastElements = 1 + iota
	pastBytes
)

// heldWithin are the held items of a reader whose items cost cost,
// within lim's budgets.
func heldWithin(lim limits, cost itemCost) held {
	return held{elements: lim.elements, bytes: lim.itemBytes, cost: cost}
}

// meet counts a node or an edge the reader meets at line:col, before it
// makes its item, and says whether it may hold it (keep). The first past
// a budget lets go of the items held; from there on each is only
// counted, and the reader passes it over.
func (h *held) meet(line, col int, edge bool) bool {
	h.met[side(edge)]++
	h.edge, h.may = edge, h.why == 0
	switch {
	case !h.may:
	case h.met[0]+h.met[1] > h.elements:
		h.pass(line, col, pastElements)
	default:
		h.check(line, col)
	}
	return h.may
}

// give gives it, the node (or the edge) meet let in last, its value v for
// key, met at line:col, and counts it: a value past the budget lets go of
// the items held, this one too.
func (h *held) give(it *graphmlItem, key, v string, line, col int) {
	if !h.may {
		return
	}
	h.values[side(h.edge)]++
	if h.check(line, col); !h.may {
		return
	}
	if it.data == nil {
		it.data = map[string]string{} // made by its first value: most edges give none
	}
	it.data[key] = v
	if _, met := h.firsts[key]; !met {
		if h.firsts == nil {
			h.firsts = map[string]int{}
		}
		h.firsts[key] = len(h.firsts)
	}
}

// rename moves an item's value for from, if it gives one, to the key
// to: no value more.
func (it *graphmlItem) rename(from, to string) {
	if v, ok := it.data[from]; ok {
		it.data[to] = v
		delete(it.data, from)
	}
}

// key counts a key declared (or met) at line:col that the nodes, the
// edges or both (domain "node", "edge", or "all" and "" as GraphML's for=)
// may give a value for: a column of the node table, or an edge feature,
// which every node (or edge) fills.
func (h *held) key(domain string, line, col int) {
	switch domain {
	case "node":
		h.keys[0]++
	case "edge":
		h.keys[1]++
	case "all", "":
		h.keys[0]++
		h.keys[1]++
	default:
		return
	}
	h.declared++
	if h.why == 0 {
		h.check(line, col)
	}
}

// estimate is the bytes the items met and the keys counted take at the
// peak of the heap, by their cost, and the cells of their tables.
func (h *held) estimate() (bytes float64, cells int) {
	n, e := float64(h.met[0]), float64(h.met[1])
	nodeCells, edgeCells := n*float64(h.keys[0]), e*float64(h.keys[1])
	c := h.cost
	bytes = n*c.node + e*c.edge + float64(h.values[0]+h.values[1])*c.value + float64(h.declared)*c.key +
		max(0, nodeCells-float64(h.values[0]))*c.nodeCell + max(0, edgeCells-float64(h.values[1]))*c.edgeCell
	return bytes, int(min(nodeCells+edgeCells, math.MaxInt/2))
}

// check passes the budget of bytes at line:col where the estimate is over it.
func (h *held) check(line, col int) {
	if b, cells := h.estimate(); b > float64(h.bytes) {
		h.then.elements, h.then.values, h.then.cells, h.then.bytes = h.met[0]+h.met[1], h.values[0]+h.values[1], cells, b
		h.pass(line, col, pastBytes)
	}
}

// pass lets go of the items held, at line:col, past the budget why.
func (h *held) pass(line, col, why int) {
	h.nodes, h.edges, h.past, h.why, h.may = nil, nil, [2]int{line, col}, why, false
}

// overBudget says a budget was passed.
func (h *held) overBudget() bool { return h.why != 0 }

// keep holds it, the node (or the edge) meet let in last, till the graph
// is made. An item meet did not let in, or whose value passed the
// budget, is not held.
func (h *held) keep(it graphmlItem, edge bool) {
	if !h.may {
		return
	}
	h.may = false
	if edge {
		h.edges = append(h.edges, it)
		if it.source == it.target {
			h.loops++
		}
	} else {
		h.nodes = append(h.nodes, it)
	}
}

// pastEdges refuses, at line:col, edges held past lim.edges: the one rule
// of the three readers that hold items, which counts what the graph will
// keep (a loop is dropped, so it counts none), as every other reader
// counts the distinct edges it reads (pairs).
func (h *held) pastEdges(file string, line, col int, lim limits) error {
	if len(h.edges)-h.loops > lim.edges {
		return tooMany(file, line, col, lim, phrase.New("more than %s edges", numtext.Group(lim.edges)))
	}
	return nil
}

// side is 0 for a node, 1 for an edge.
func side(edge bool) int {
	if edge {
		return 1
	}
	return 0
}

// over refuses a file past a budget, once it is read, where it passed
// it: nil within them. Past the count of nodes and edges, it names the
// file's count; past the estimate's, what was held there, what it would
// take and the budget. Where another reader reads more (the page's
// limits), it says which: the command line, or the graph as an edge list
// and a labels file (and a features file), whose edges stream, each kept
// as its two ends, and whose values stream into the graph's arrays.
func (h *held) over(file string, lim limits) error {
	var msg phrase.Text
	switch h.why {
	case 0:
		return nil
	case pastElements:
		count, most := numtext.Group(h.met[0]+h.met[1]), numtext.Group(h.elements)
		msg = phrase.New("holds %s nodes and edges, more than the %s %s holds at once (each is kept, with its values, until the graph is made): open the graph with the command line (pdn train -data), or save it as an edge list and a labels file, which are read as they stream, in far less memory", count, most, lim.where)
		if lim.last {
			msg = phrase.New("holds %s nodes and edges, more than the %s %s holds at once (each is kept, with its values, until the graph is made): save the graph as an edge list and a labels file, which are read as they stream, in far less memory", count, most, lim.where)
		}
	case pastBytes:
		elements, values, cells := numtext.Group(h.then.elements), numtext.Group(h.then.values), numtext.Group(h.then.cells)
		about, most := phrase.Bytes(roughly(h.then.bytes)), phrase.Bytes(h.bytes)
		msg = phrase.New("holds, by here, %s nodes and edges with %s values (%s cells in the graph's tables), which would take about %s until the graph is made, more than the %s %s holds at once: open the graph with the command line (pdn train -data), or save it as an edge list, a labels file and a features file (edges.csv, target.csv and features.csv, as in a MUSAE folder), which are read as they stream, in far less memory", elements, values, cells, about, most, lim.where)
		if lim.last {
			msg = phrase.New("holds, by here, %s nodes and edges with %s values (%s cells in the graph's tables), which would take about %s until the graph is made, more than the %s %s holds at once: save the graph as an edge list, a labels file and a features file (edges.csv, target.csv and features.csv, as in a MUSAE folder), which are read as they stream, in far less memory", elements, values, cells, about, most, lim.where)
		}
	}
	return &BundleError{File: file, Line: h.past[0], Col: h.past[1], Msg: msg}
}

// roughly is an estimate of b bytes as it is said: rounded up to three
// significant digits, so that it never reads as within the budget it
// passed.
func roughly(b float64) int64 {
	if b <= 0 {
		return 0
	}
	p := math.Pow(10, math.Floor(math.Log10(b))-2)
	return int64(math.Ceil(b/p) * p)
}
