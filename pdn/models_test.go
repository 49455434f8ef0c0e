package pdn

import (
	"testing"

	"pdnexplorer/experiment"
)

// The registry has a row for every model the state table offers and no
// other, each with a builder and a cost; what it says of edges is the
// paper's: the PDN family learns them, all but the MLP passes messages.
func TestModelRegistry(t *testing.T) {
	if len(models) != len(experiment.Kinds) {
		t.Errorf("%d rows for %d kinds", len(models), len(experiment.Kinds))
	}
	for _, tc := range []struct {
		kind         string
		learns, uses bool
	}{
		{experiment.PDN, true, true}, {experiment.PDNLinear, true, true}, {experiment.PDNEdgeConv, true, true},
		{experiment.PDNMultiScale, false, true}, {experiment.GCN, false, true}, {experiment.GAT, false, true},
		{experiment.APPNP, false, true}, {experiment.SGC, false, true}, {experiment.ClusterGCN, false, true},
		{experiment.DeepWalk, false, true}, {experiment.MLP, false, false},
	} {
		m, ok := models[tc.kind]
		if !ok || m.build == nil || m.cost == nil {
			t.Errorf("%s: no row, or one without a builder or a cost", tc.kind)
			continue
		}
		if LearnsEdges(tc.kind) != tc.learns || UsesGraph(tc.kind) != tc.uses || (m.edges == nil) != (m.edgesCost == nil) {
			t.Errorf("%s: learns edges %v, uses the graph %v", tc.kind, LearnsEdges(tc.kind), UsesGraph(tc.kind))
		}
	}
	if LearnsEdges("nothing") || UsesGraph("nothing") {
		t.Error("a kind that is none learns or uses edges")
	}
}
