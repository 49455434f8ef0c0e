package pdn

import (
	"testing"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
)

// The model table's embedding group is the engine's embedNets: a kind
// listed as a node embedding is one (learned without labels, then
// classified by logReg), and no other kind is.
func TestEmbeddingGroupIsTheEmbedNets(t *testing.T) {
	for _, m := range experiment.Models {
		e := experiment.Default()
		e.Data.PerClass = 16
		e.Model.Kind = m.Name
		g, err := datasets.Synthetic(e.Data)
		if err != nil {
			t.Fatal(err)
		}
		_, isEmbed := newNetwork(g, e.Model, 1).(*embedNet)
		if isEmbed != (m.Group == experiment.GroupEmbedding) {
			t.Errorf("%s: group %q, an embedNet: %v", m.Name, m.Group, isEmbed)
		}
	}
}
