package datasets

import (
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
)

// Build draws the graph d names (d.Graph): the paper's synthetic graph,
// its XOR variant, the preferential-attachment graph, or loads a real graph
// the explorer ships, so the CLI and the browser's worker build every graph
// through one door; then it applies d's edits (Edited).
func Build(d experiment.Data) (*Graph, error) {
	g, err := buildDrawn(d)
	if err != nil {
		return nil, err
	}
	return Altered(g, d)
}

// Altered returns g with the one layer d keeps (OneLayer), perturbed as d
// says (Perturbed), then with d's edits applied (Edited): what the data
// rows do to a graph drawn, loaded or read from files (d.Unaltered's), in
// that order, wherever it came from. The edits come last, so a graph lab
// edits the graph it shows.
func Altered(g *Graph, d experiment.Data) (*Graph, error) {
	g, err := Unedited(g, d)
	if err != nil {
		return nil, err
	}
	return Edited(g, d.Edits)
}

// Unedited is Altered before the edits: g with the one layer d keeps,
// perturbed. A page that leaves out edits a graph refuses (they were
// made on another) builds its graph from it and Edited, the one road
// with the one order; an error is an *AlterError naming its row.
func Unedited(g *Graph, d experiment.Data) (*Graph, error) {
	g, err := OneLayer(g, d.Layer)
	if err != nil {
		return nil, &AlterError{Row: "layer", Err: err}
	}
	if g, err = Perturbed(g, d.Perturb, d.PerturbRate, d.Seed); err != nil {
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

// buildDrawn is the graph d's rows draw or load, before any edit.
func buildDrawn(d experiment.Data) (*Graph, error) {
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
