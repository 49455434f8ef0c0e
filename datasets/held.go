package datasets

import (
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/numtext"
)

// The readers that read a graph as its nodes and edges, each with its
// values (GraphML's, GEXF's and node-link JSON's: the formats' rows
// holdsItems), hold each as an item (a graphmlItem, its values and their
// lines in maps of their own) until the graph is made
// (graphmlReader.graph), and an item takes 0.5 to 1.5 kB at the peak of
// the heap (pageElements). However well their text streams, a file of
// tiny nodes within the page's 64 MB bound would fill the worker's
// memory. So each node and edge is counted against one budget,
// limits.elements, by one rule, held's: meet counts every node and edge
// as the reader meets it, before its item is made, and says whether it
// may be held; keep, the one way a reader holds an item (a check over the
// source, internal/rules, finds any other), holds only what meet let in.
// Past the budget, the items held are let go and the rest only counted,
// not read, so that the message (over) names the file's count.

// held are the nodes and edges a reader holds till its graph is made,
// and their count against the budget.
type held struct {
	nodes, edges []graphmlItem
	elements     int    // the budget: limits.elements
	met          int    // nodes and edges met, held or past the budget
	may          bool   // the last one met may be held
	past         [2]int // the line and column of the first past the budget
}

// heldWithin are the held items of a reader within lim's budget.
func heldWithin(lim limits) held { return held{elements: lim.elements} }

// meet counts a node or an edge the reader meets at line:col, before it
// makes its item, and says whether it may hold it (keep). The first past
// the budget lets go of the items held; from there on each is only
// counted, and the reader passes it over.
func (h *held) meet(line, col int) bool {
	h.met++
	h.may = h.met <= h.elements
	if h.met == h.elements+1 {
		h.nodes, h.edges, h.past = nil, nil, [2]int{line, col}
	}
	return h.may
}

// overBudget says more nodes and edges were met than the budget holds.
func (h *held) overBudget() bool { return h.met > h.elements }

// keep holds it, the node (or the edge) meet let in last, till the graph
// is made. An item meet did not let in is not held.
func (h *held) keep(it graphmlItem, edge bool) {
	if !h.may {
		return
	}
	h.may = false
	if edge {
		h.edges = append(h.edges, it)
	} else {
		h.nodes = append(h.nodes, it)
	}
}

// over refuses a file with more nodes and edges than the budget holds,
// once it is read, at the first past the budget, naming its count: nil
// within the budget. Where another reader reads more (the page's limits),
// it says which: the command line, or the graph as an edge list and a
// labels file, whose edges stream, each kept as its two ends.
func (h *held) over(file string, lim limits) error {
	if !h.overBudget() {
		return nil
	}
	count, most := numtext.Group(h.met), numtext.Group(h.elements)
	msg := phrase.New("holds %s nodes and edges, more than the %s %s holds at once (each is kept, with its values, until the graph is made): open the graph with the command line (pdn train -data), or save it as an edge list and a labels file, which are read as they stream, in far less memory", count, most, lim.where)
	if lim.last {
		msg = phrase.New("holds %s nodes and edges, more than the %s %s holds at once (each is kept, with its values, until the graph is made): save the graph as an edge list and a labels file, which are read as they stream, in far less memory", count, most, lim.where)
	}
	return &BundleError{File: file, Line: h.past[0], Col: h.past[1], Msg: msg}
}
