package datasets

import (
	"fmt"

	"pdnexplorer/experiment"
)

// Build draws the graph d names (d.Graph): the paper's synthetic graph,
// its XOR variant, the preferential-attachment graph, or loads a real graph
// the explorer ships, so the CLI and the browser's worker build every graph
// through one door.
func Build(d experiment.Data) (*Graph, error) {
	switch d.Graph {
	case experiment.GraphSynthetic, "":
		return Synthetic(d)
	case experiment.GraphXOR:
		return XOR(d)
	case experiment.GraphScaleFree:
		return ScaleFree(d, d.Attach)
	case experiment.GraphCora, experiment.GraphCiteseer:
		return Real(d)
	}
	return nil, fmt.Errorf("graph: %s is not allowed; want one of %v", experiment.Quote(d.Graph), experiment.Graphs)
}
