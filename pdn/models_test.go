package pdn

import (
	"testing"

	"pdnexplorer/datasets"
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

// A model that does not read the edges' features trains to the same bits
// on two graphs that differ only in them (their number and spread), and a
// model that reads them does not: experiment.ReadsEdgeFeatures tells the
// truth.
func TestReadsEdgeFeatures(t *testing.T) {
	for _, kind := range experiment.Kinds {
		run := func(d int, sigmaD float64) string {
			_, e := smallRun(t, kind)
			e.Data.EdgeFeatures, e.Data.SigmaD = d, sigmaD
			g, err := datasets.Synthetic(e.Data)
			if err != nil {
				t.Fatal(err)
			}
			tr := mustTrainer(t, g, e)
			runEpochs(t, tr, 5)
			return digest(tr, tr.Evaluate())
		}
		same := run(4, 1) == run(16, 8)
		if reads := experiment.ReadsEdgeFeatures(kind); same == reads {
			t.Errorf("%s: ReadsEdgeFeatures is %v, and graphs of other edge features give the same bits: %v", kind, reads, same)
		}
	}
}
