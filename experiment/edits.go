package experiment

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"pdnexplorer/edgekind"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/numtext"
)

// Edit is one change to a graph's edges, as the graph lab's editor makes
// it and the edits row spells it. Tokens are joined by underscores, so a
// link carries the list without escapes:
//
//	a12-40        add edge 12–40, with the features of the first edge of its kind
//	a12-40c3-17   add edge 12–40, with the features of edge 3–17
//	r12-40        remove edge 12–40
//	s12-40c3-17   give edge 12–40 the features of edge 3–17
//	s12-40f5~0.8  set feature 5 of edge 12–40 to 0.8
//
// The nodes are the graph's numbers, and a pair names its undirected edge
// either way round. "Its kind" is intra-class when the two ends share a
// label, else inter-class. An edit applies to the graph as the edits
// before it left it; datasets.Make applies a list.
type Edit struct {
	Op   byte // EditAdd, EditRemove or EditSet
	U, V int
	// From is the edge whose features an add or a set copies; HasFrom
	// says there is one. Without it an add copies the first edge of its
	// kind, and a set changes Feature to Value.
	From    [2]int
	HasFrom bool
	Feature int
	Value   float64
}

// Edit operations.
const (
	EditAdd    = 'a'
	EditRemove = 'r'
	EditSet    = 's'
)

// EditsRow is the name of the edits row: the worker names it in the
// errors of edits, and the page's editor sets it.
const EditsRow = "edits"

// MaxEdits bounds an edit list: a link stays short, and applying it cheap.
const MaxEdits = 100

// maxEditNode bounds the node numbers an edit may name (a graph's nodes
// are fewer; datasets.Make checks against the graph's own count).
const maxEditNode = 1 << 24

// EditsForm is the edits row's Form.
const EditsForm = "edits joined by _: a12-40 (add), a12-40c3-17 (add with the features of edge 3-17), r12-40 (remove), " +
	"s12-40c3-17 (copy edge 3-17's features), s12-40f5~0.8 (set feature 5 to 0.8); at most 100"

// Edits is an edit list, in the order the edits apply.
type Edits []Edit

// Pair is the edge the edit is about, its smaller node first.
func (e Edit) Pair() [2]int { return pairOf(e.U, e.V) }

func pairOf(u, v int) [2]int { return [2]int{min(u, v), max(u, v)} }

// String writes the edit as the edits row does.
func (e Edit) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%c%d-%d", e.Op, e.U, e.V)
	switch {
	case e.Op == EditRemove:
	case e.HasFrom:
		fmt.Fprintf(&b, "c%d-%d", e.From[0], e.From[1])
	case e.Op == EditSet:
		fmt.Fprintf(&b, "f%d~%s", e.Feature, strconv.FormatFloat(e.Value, 'g', -1, 64))
	}
	return b.String()
}

// String writes the list as the edits row does.
func (es Edits) String() string {
	toks := make([]string, len(es))
	for i, e := range es {
		toks[i] = e.String()
	}
	return strings.Join(toks, "_")
}

// ParseEdits reads an edits row; an error names the item (from 1) and
// what is wrong with it.
func ParseEdits(text string) (Edits, error) {
	if text == "" {
		return nil, nil
	}
	toks := strings.Split(text, "_")
	if len(toks) > MaxEdits {
		return nil, phrase.Errorf("%d edits; at most %d", len(toks), MaxEdits)
	}
	es := make(Edits, len(toks))
	for i, t := range toks {
		e, err := parseEdit(t)
		if err != nil {
			return nil, phrase.Errorf("edit %d (%s): %w", i+1, Quote(t), err)
		}
		es[i] = e
	}
	return es, nil
}

// parseEdit reads one token.
func parseEdit(t string) (Edit, error) {
	if t == "" {
		return Edit{}, phrase.Errorf("empty: two underscores in a row, or one at an end")
	}
	e := Edit{Op: t[0]}
	if e.Op != EditAdd && e.Op != EditRemove && e.Op != EditSet {
		return e, phrase.Errorf("an edit starts with a (add), r (remove) or s (set)")
	}
	rest := t[1:]
	var err error
	if e.U, e.V, rest, err = parsePair(rest); err != nil {
		return e, err
	}
	if e.U == e.V {
		return e, phrase.Errorf("edge %d-%d joins a node to itself; a graph's edges join two nodes", e.U, e.V)
	}
	switch {
	case rest == "" && e.Op != EditSet:
		return e, nil
	case e.Op == EditRemove:
		return e, phrase.Errorf("%s follows a removal, which takes an edge alone", Quote(rest))
	case rest == "":
		return e, phrase.Errorf("a set says what to set: c and an edge to copy, or f, a feature, ~ and a value")
	case rest[0] == 'c':
		e.HasFrom = true
		var more string
		if e.From[0], e.From[1], more, err = parsePair(rest[1:]); err != nil {
			return e, phrase.Errorf("the edge to copy: %w", err)
		}
		if more != "" {
			return e, phrase.Errorf("%s follows the edge to copy", Quote(more))
		}
		return e, nil
	case rest[0] == 'f' && e.Op == EditSet:
		return e, parseFeature(&e, rest[1:])
	case e.Op == EditSet:
		return e, phrase.Errorf("%s: want c and an edge to copy, or f, a feature, ~ and a value", Quote(rest))
	}
	return e, phrase.Errorf("%s: want c and an edge to copy", Quote(rest))
}

// parsePair reads "u-v" at the start of s.
func parsePair(s string) (u, v int, rest string, err error) {
	u, rest, err = parseNode(s)
	if err != nil {
		return
	}
	if rest == "" || rest[0] != '-' {
		return 0, 0, rest, phrase.Errorf("want two node numbers joined by -, as 12-40")
	}
	v, rest, err = parseNode(rest[1:])
	return
}

// parseNode reads a node number at the start of s.
func parseNode(s string) (int, string, error) {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	if n == 0 {
		return 0, s, phrase.Errorf("want a node number, as 12-40")
	}
	// Leading zeros are read as every whole number is (numtext: 01 is 1);
	// the list's String writes the node without them.
	k, err := numtext.ParseInt(s[:n])
	if err != nil || k >= maxEditNode {
		return 0, s, phrase.Errorf("node %s: want a whole number below %d", Quote(s[:n]), maxEditNode)
	}
	return k, s[n:], nil
}

// parseFeature reads "k~value".
func parseFeature(e *Edit, s string) error {
	k, v, ok := strings.Cut(s, "~")
	if !ok {
		return phrase.Errorf("want f, a feature number, ~ and a value, as f5~0.8")
	}
	f, err := numtext.ParseInt(k)
	if err != nil || f < 0 {
		return phrase.Errorf("feature %s: want a whole number from 0", Quote(k))
	}
	x, err := numtext.ParseFloat(v)
	switch {
	case errors.Is(err, numtext.ErrNotFinite):
		return phrase.Errorf("value %s: want a finite number", Quote(v))
	case err != nil: // hexadecimal, Inf, NaN, underscores: not "want a finite number", which 0x1p-2 is
		return phrase.Errorf("%s is not a decimal number", Quote(v))
	}
	e.Feature, e.Value = f, x
	return nil
}

// Then is the list with e made after it, kept short: removing an edge the
// list added takes the add back, with the edits on that edge and those
// that copied it, so that
// adding and removing an edge leaves the list, and the graph, as they
// were; a set replaces the earlier sets it makes moot.
func (es Edits) Then(e Edit) Edits {
	out := slices.Clone(es)
	p := e.Pair()
	switch e.Op {
	case EditRemove:
		if i := slices.IndexFunc(out, func(x Edit) bool { return x.Op == EditAdd && x.Pair() == p }); i >= 0 {
			return slices.DeleteFunc(out, func(x Edit) bool {
				return x.Pair() == p || (x.HasFrom && pairOf(x.From[0], x.From[1]) == p)
			})
		}
	case EditSet:
		out = slices.DeleteFunc(out, func(x Edit) bool {
			return x.Op == EditSet && x.Pair() == p && (e.HasFrom || (!x.HasFrom && x.Feature == e.Feature))
		})
	}
	return append(out, e)
}

// Adds reports whether the list adds edge u–v (and keeps it).
func (es Edits) Adds(u, v int) bool {
	p := pairOf(u, v)
	return slices.ContainsFunc(es, func(x Edit) bool { return x.Op == EditAdd && x.Pair() == p })
}

// EdgeAt returns the index of edge u–v in the edge list src, dst (either
// way round), -1 if the list has none. The engine's graphs and the page's
// both keep their edges so.
func EdgeAt(src, dst []int32, u, v int) int {
	a, b := int32(u), int32(v)
	for e := range src {
		if src[e] == a && dst[e] == b || src[e] == b && dst[e] == a {
			return e
		}
	}
	return -1
}

// ExampleEdge returns the first edge of the list, other than skip, of the
// kind given (edgekind.Of its ends' labels), -1 if there is none: the edge
// an add copies the features of by default, and the one the page's "make
// it look intra-class" copies. For an edge of unknown kind (an end without
// a class) with none of its kind, any edge serves.
func ExampleEdge(src, dst []int32, labels []int, kind edgekind.Kind, skip int) int {
	fallback := -1
	for e := range src {
		if e == skip {
			continue
		}
		if edgekind.Of(labels[src[e]], labels[dst[e]]) == kind {
			return e
		}
		if fallback < 0 {
			fallback = e
		}
	}
	if kind == edgekind.Unknown {
		return fallback
	}
	return -1
}

// Unaltered is d before any edit or perturbation, with all its layers:
// the graph its rows draw or load, which datasets.Make then alters.
func (d Data) Unaltered() Data {
	d.Edits, d.Perturb, d.PerturbRate, d.Layer = "", PerturbNone, 0, ""
	return d
}

// WithoutEdits is d before any edit: the graph its rows draw.
func (d Data) WithoutEdits() Data {
	d.Edits = ""
	return d
}

// OneGraphRows are the rows that belong to the one graph they were made
// on, and mean nothing on another: the edits, whose node numbers are that
// graph's. The columns of one's own node table (id-column, target, bins)
// are not among them: they are meant for the files one opens next, so the
// reader tries them on those files and drops, saying so, those that do not
// fit.
var OneGraphRows = []string{EditsRow}

// ForNextGraph is d as another graph arrives (other data rows, the next
// data seed, files opened): the rows that belong to one graph
// (OneGraphRows) back at their defaults, and the names of those that held
// something.
func (d Data) ForNextGraph() (Data, []string) {
	var dropped []string
	e := Experiment{Data: d}
	for _, name := range OneGraphRows {
		p, _ := Lookup(name)
		if p.Get(&e) == p.Default {
			continue
		}
		if err := p.Set(&e, p.Default); err != nil {
			panic("experiment: the default of " + name + ": " + err.Error())
		}
		dropped = append(dropped, name)
	}
	return e.Data, dropped
}

// SameGraph reports whether next makes the graph d makes, the rows that
// belong to one graph aside: every data row that applies to either graph
// holds the same value in both (a row neither reads, as bins for the
// synthetic graph, changes no graph).
func (d Data) SameGraph(next Data) bool {
	a, b := Experiment{Data: d}, Experiment{Data: next}
	for _, p := range Params {
		if p.Group != GroupData || slices.Contains(OneGraphRows, p.Name) || !p.Applies(d) && !p.Applies(next) {
			continue
		}
		if p.Get(&a) != p.Get(&b) {
			return false
		}
	}
	return true
}
