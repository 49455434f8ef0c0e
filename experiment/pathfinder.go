package experiment

import (
	"slices"
	"strings"

	"pdnexplorer/i18n/phrase"
)

// PathfinderRowsForm is the pathfinder-rows row's Form.
const PathfinderRowsForm = "row=value pairs joined by semicolons, each row one of the generator's graph (classes, per-class, p, q, node-features, sigma-f, sigma-d, attach, layers, layer-degree) at most once, or nothing"

// sourceRows are the rows the pathfinder's graph may differ in: the
// generator's, but those that change the edges' features' number (D),
// which the pathfinder reads as they are.
var sourceRows = []string{"classes", "per-class", "p", "q", "node-features", "sigma-f", "sigma-d", "attach", "layers", "layer-degree"}

// PathfinderData is the data of the graph the pathfinder of a model over
// an induced graph (Model.Induced) trains on: d at the pathfinder's seed,
// with the rows PathfinderRows changes, without this graph's edits (they
// name this graph's edges).
func (m Model) PathfinderData(d Data) (Data, error) {
	d.Seed, d.Edits = m.PathfinderSeed, ""
	return applyPathfinderRows(d, m.PathfinderRows, true)
}

// applyPathfinderRows sets on d each pair of s, refusing a row the
// pathfinder's graph may not differ in, a row twice, or a value its row
// refuses; and, with graph, a row d's graph does not read (Param.Applies:
// attach on a synthetic graph, sigma-d on a multiplex one), which would
// change nothing while the page and its links said it did.
func applyPathfinderRows(d Data, s string, graph bool) (Data, error) {
	if s == "" {
		return d, nil
	}
	e := Experiment{Data: d}
	var seen []string
	for _, pair := range strings.Split(s, ";") {
		k, v, ok := strings.Cut(strings.TrimSpace(pair), "=")
		if !ok || !slices.Contains(sourceRows, k) || slices.Contains(seen, k) {
			return d, phrase.Errorf("%s is not a row=value pair of a row the pathfinder's graph may differ in, given once (%s)", Quote(pair), strings.Join(sourceRows, ", "))
		}
		seen = append(seen, k)
		p, _ := Lookup(k)
		if graph && !p.Applies(d) {
			return d, phrase.Errorf("%s: graph %s does not read %s; the pathfinder's graph is this graph's kind", Quote(pair), d.Graph, k)
		}
		if err := p.Set(&e, v); err != nil {
			return d, err
		}
	}
	return e.Data, nil
}

// validPathfinderRows accepts what applyPathfinderRows takes.
func validPathfinderRows(s string) error {
	_, err := applyPathfinderRows(Data{}, s, false) // each row checks its own value alone; the graph's rows are checked where the graph is known (PathfinderData)
	return err
}
