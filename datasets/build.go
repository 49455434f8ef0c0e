package datasets

import (
	"cmp"

	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
)

// Build draws the graph d names (d.Graph): the paper's synthetic graph,
// its XOR variant, the preferential-attachment graph, or loads a real graph
// the explorer ships, then alters it as d says: Make with nothing read.
func Build(d experiment.Data) (*Graph, error) { return Make(d, nil) }

// Make is the one road from rows to a graph: its base, drawn or loaded by
// d's rows (read nil) or read from one's own files (read gives it, as read
// or as a command or worker keeps it), then the one layer d keeps
// (oneLayer), perturbed as d says (perturbed), then d's edits (edited), in
// that order. The edits come last, so a graph lab edits the graph it
// shows. Every command, the sweep, structure, claims and the page's worker
// make their graphs here: the steps are unexported, so no caller applies
// one twice or in another order. An alteration the graph cannot take is an
// *AlterError naming its row (layer, perturb-rate, edits).
func Make(d experiment.Data, read func() (*Graph, error)) (*Graph, error) {
	var g *Graph
	var err error
	if read != nil {
		g, err = read()
	} else {
		g, err = Drawn(d)
	}
	if err != nil {
		return nil, err
	}
	return altered(g, d)
}

// Given is a read for Make that gives g: a base a command or the worker
// keeps between runs (every run's alterations start from it; none of them
// changes it).
func Given(g *Graph) func() (*Graph, error) { return func() (*Graph, error) { return g, nil } }

// altered returns g with the one layer d keeps, perturbed, then edited:
// Make's alterations.
func altered(g *Graph, d experiment.Data) (*Graph, error) {
	g, err := unedited(g, d)
	if err != nil {
		return nil, err
	}
	if g, err = edited(g, d.Edits); err != nil {
		return nil, &AlterError{Row: experiment.EditsRow, Err: err}
	}
	return g, nil
}

// unedited is altered before the edits: g with the one layer d keeps,
// perturbed; an error is an *AlterError naming its row.
func unedited(g *Graph, d experiment.Data) (*Graph, error) {
	g, err := oneLayer(g, d.Layer)
	if err != nil {
		return nil, &AlterError{Row: "layer", Err: err}
	}
	if g, err = perturbed(g, d.Perturb, d.PerturbRate, d.Seed); err != nil {
		return nil, &AlterError{Row: "perturb-rate", Err: err}
	}
	return g, nil
}

// AlterError is an alteration a graph cannot take (a layer it has not, a
// perturbation it cannot make), by the row that asked for it.
type AlterError struct {
	Row string
	Err error
}

func (e *AlterError) Error() string { return e.Err.Error() }
func (e *AlterError) Unwrap() error { return e.Err }

// Phrase is the alteration's own message, in the reader's language.
func (e *AlterError) Phrase() phrase.Text { return phrase.Of(e.Err) }

// Drawn is the graph d's rows draw or load, before Make alters it: the
// base of a read that changes it first (pdn train -tie-strength's scores).
func Drawn(d experiment.Data) (*Graph, error) {
	g, err := drawn(d)
	if err != nil {
		return nil, err
	}
	g.Source = cmp.Or(d.Graph, experiment.GraphSynthetic)
	return g, nil
}

func drawn(d experiment.Data) (*Graph, error) {
	switch d.Graph {
	case experiment.GraphSynthetic, "":
		return Synthetic(d)
	case experiment.GraphXOR:
		return XOR(d)
	case experiment.GraphScaleFree:
		return ScaleFree(d, d.Attach)
	case experiment.GraphMultiplex:
		return MultiplexLayers(d)
	case experiment.GraphCora, experiment.GraphCiteseer:
		return Real(d)
	case experiment.GraphLocal:
		return nil, phrase.Errorf("data: local is a graph opened from files in a browser page; its files did not come with the link: open them again in the page (or give the command line their folder)")
	}
	return nil, phrase.Errorf("graph: %s is not allowed; want one of %v", experiment.Quote(d.Graph), experiment.Graphs)
}
