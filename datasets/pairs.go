package datasets

import (
	"io/fs"

	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/numtext"
)

// merging is how a format's publisher keeps the values of a pair listed
// again: each format row says which (its merges), and every reader that
// gives a pair values gives them through pairs.value, which merges by the
// row's rule. A row that says none and gives a value panics: a new
// reader cannot keep a pair's first values silently.
type merging int

const (
	mergeUnsaid merging = iota // the row's edges carry no values
	// refusedAgain is the explorer's bundle: a pair listed again is
	// refused (Graph.Check), as pdn gen and the PyG export never write one.
	refusedAgain
	// lastKept is NetworkX's simple Graph: add_edge updates the pair's
	// attributes with those given (a value given again replaces the one
	// kept, one not given keeps it), and nx.Graph(D) of a directed graph
	// adds the edges node by node, in the order the nodes are listed, so
	// that of u→v and v→u the one from the node listed later comes last,
	// whatever the file's order of edges.
	lastKept
	// summed is SciPy's sparse matrices and PyG's coalesce (what
	// to_undirected and ToUndirected do to an edge_attr): the values of
	// a pair's listings are added up.
	summed
)

// pairs keeps an undirected edge list's pairs, each once, counting the
// self-loops and repeats it drops, and merges the values of a pair listed
// again by its format row's rule.
type pairs struct {
	file           string
	seen           map[[2]int32]int32 // pair → its edge, in the order first listed
	loops, repeats int
	again          bool   // the last pair edge met was listed before
	lim            limits // lim.edges bounds the distinct pairs, met while reading

	format string
	rule   merging
	// late marks, by edge and value, a value kept from a directed edge
	// from the node listed later (lastKept): an edge from the other end
	// does not replace it.
	late    map[[2]int]bool
	changed map[int]bool // the edges listed again with another value
	// firstNode says the graph is a directed multigraph (lastKept): nx.Graph
	// keeps, of u→v and v→u, the edges from the node listed first, each
	// value the last they give, and drops the other direction's
	// (from_dict_of_dicts marks the pair seen); late then marks a value
	// held from the node listed later, until the first one's edge comes.
	firstNode bool
}

// newPairs keeps the pairs of the file name of fsys, read by the reader
// of the format row called format.
func newPairs(fsys fs.FS, file, format string) *pairs {
	return &pairs{file: file, seen: map[[2]int32]int32{}, lim: limitsOf(fsys), format: format, rule: formatNamed(format).merges, late: map[[2]int]bool{}, changed: map[int]bool{}}
}

// edge is the edge of the pair u–v, numbered in the order pairs are first
// listed (a new pair's is the count of pairs less one); -1 for a
// self-loop. p.again says the pair was listed before: its values, given
// through value, are merged with those kept.
func (p *pairs) edge(u, v int32, line int) (int, error) {
	key := [2]int32{min(u, v), max(u, v)}
	p.again = false
	e, seen := p.seen[key]
	switch {
	case u == v:
		p.loops++
		e = -1
	case seen:
		p.repeats++
		p.again = true
	case len(p.seen) >= p.lim.edges:
		return -1, tooMany(p.file, line, 0, p.lim, phrase.New("more than %s edges", numtext.Group(p.lim.edges)))
	default:
		p.seen[key] = int32(len(p.seen))
		return len(p.seen) - 1, nil
	}
	if dropped := p.loops + p.repeats; dropped > len(p.seen)+maxRepeats {
		return -1, &BundleError{File: p.file, Line: line, Msg: phrase.New("%s of %s lines so far repeat a pair or join a node to itself: is this an edge list?",
			numtext.Group(dropped), numtext.Group(dropped+len(p.seen)))}
	}
	return int(e), nil
}

// value gives value c of edge e (the edge the last call of edge
// returned, e ≥ 0) as x: appended to g.EdgeX for a new pair (values in
// order, c from 0 to g.D−1), merged by the row's rule for a pair listed
// again. given says the listing gives x itself (not a default: NetworkX
// keeps a value a later listing leaves out); late that NetworkX would add
// this listing after the pair's other direction (a directed edge from the
// node listed later).
func (p *pairs) value(g *Graph, e, c int, x float64, given, late bool) {
	if p.rule != lastKept && p.rule != summed {
		panic("datasets: format row " + p.format + " gives edges values, and says not how a pair listed again merges them (merges)")
	}
	if !p.again {
		g.EdgeX = append(g.EdgeX, x)
		if late {
			p.late[[2]int{e, c}] = true
		}
		return
	}
	at, v := [2]int{e, c}, &g.EdgeX[e*g.D+c]
	switch {
	case p.rule == summed:
		if given && x != 0 {
			p.changed[e] = true
			*v += x
		}
	case p.firstNode && late && !p.late[at]:
		// the node listed first gave this pair's edge: this one is dropped
		if given && *v != x {
			p.changed[e] = true
		}
	case p.firstNode && !late && p.late[at]:
		// the first edge from the node listed first: the other
		// direction's values go, those it leaves out with them
		if *v != x {
			p.changed[e] = true
		}
		delete(p.late, at)
		*v = x
	case !given:
	default:
		if *v != x {
			p.changed[e] = true
		}
		if !late && p.late[at] {
			return // a simple directed graph's edge from the node listed later stays
		}
		if late {
			p.late[at] = true
		}
		*v = x
	}
}

// note tells g what was dropped, and what was merged.
func (p *pairs) note(g *Graph) {
	if p.loops+p.repeats > 0 {
		g.Notes = append(g.Notes, phrase.New("%s: dropped %s self-loops and %s pairs listed again (the edges are undirected, each pair once)",
			p.file, numtext.Group(p.loops), numtext.Group(p.repeats)))
	}
	if len(p.changed) == 0 {
		return
	}
	switch {
	case p.rule == summed:
		g.Notes = append(g.Notes, phrase.New("%s: %s pairs are listed again with values: their values were summed, as PyG's coalesce sums them (to_undirected, ToUndirected)", p.file, numtext.Group(len(p.changed))))
	case p.firstNode:
		g.Notes = append(g.Notes, phrase.New("%s: %s pairs are listed again with other values: each value is the last given by the edges from the node listed first, as nx.Graph makes a directed multigraph simple (the other direction's edges are dropped)", p.file, numtext.Group(len(p.changed))))
	case len(p.late) > 0:
		g.Notes = append(g.Notes, phrase.New("%s: %s pairs are listed again with other values: each value is the last given, as NetworkX's Graph keeps the attributes given last (a directed graph's as nx.Graph(D) does: the edges from the node listed later come last)", p.file, numtext.Group(len(p.changed))))
	default:
		g.Notes = append(g.Notes, phrase.New("%s: %s pairs are listed again with other values: each value is the last given, as NetworkX's Graph keeps the attributes given last", p.file, numtext.Group(len(p.changed))))
	}
}
