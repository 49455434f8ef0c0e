// Package edgekind is the one definition of what an edge of a synthetic or
// labelled graph joins: two nodes of one class (Intra) or of two (Inter).
// It is the generators' ground truth, which the views draw and the
// summaries split by, and which training never sees. The datasets, the
// engine, the worker's messages, the page and the figures all use it; it
// imports nothing, so the page links no engine code for it.
package edgekind

// Kind is an edge's kind.
type Kind int8

// The kinds. Unknown is the zero value: a graph loaded without kinds.
const (
	Unknown Kind = iota
	Intra
	Inter
)

// Of is the kind of an edge between a node of class a and one of class b:
// Intra for one class, Inter for two, Unknown when either end has no
// class (a negative label, as an unlabelled node's -1).
func Of(a, b int) Kind {
	switch {
	case a < 0 || b < 0:
		return Unknown
	case a == b:
		return Intra
	}
	return Inter
}

// String returns the kind as the bundle format writes it: "intra",
// "inter", or "" for Unknown.
func (k Kind) String() string {
	switch k {
	case Intra:
		return "intra"
	case Inter:
		return "inter"
	}
	return ""
}

// Parse reads a kind as String writes it; ok is false for anything else.
func Parse(s string) (k Kind, ok bool) {
	switch s {
	case "intra":
		return Intra, true
	case "inter":
		return Inter, true
	}
	return Unknown, false
}

// Words names the kind in a sentence: "intra-class", "inter-class" or
// "unknown".
func (k Kind) Words() string {
	switch k {
	case Intra:
		return "intra-class"
	case Inter:
		return "inter-class"
	}
	return "unknown"
}
