package pdn

import (
	"testing"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
)

// The registry has a row for every kind of the model table and no other,
// each with a builder, a cost and speeds; a row learns edges (has an edge
// model) exactly when the table says it does; an exportable kind's
// network names its weights.
func TestModelRegistry(t *testing.T) {
	if len(models) != len(experiment.Models) {
		t.Errorf("%d rows for %d kinds", len(models), len(experiment.Models))
	}
	g := smallGraph(3, 20, 40, 4, 3, 3)
	for _, row := range experiment.Models {
		m, ok := models[row.Name]
		if !ok || m.build == nil || m.cost == nil || !(browserSpeeds[row.Name].EpochNs > 0) || !(nativeSpeeds[row.Name].EpochNs > 0) {
			t.Errorf("%s: no row, or one without a builder, a cost or speeds", row.Name)
			continue
		}
		if (m.edges != nil) != row.LearnsEdges || (m.edges == nil) != (m.edgesCost == nil) {
			t.Errorf("%s: an edge model %v, the table says it learns edges: %v", row.Name, m.edges != nil, row.LearnsEdges)
		}
		if row.PyG != "" {
			if _, ok := newNetwork(g, experiment.Model{Kind: row.Name, Hidden: 4, Hops: 2}, 1).(named); !ok {
				t.Errorf("%s: the table gives it PyG's %s, and its network names no weights", row.Name, row.PyG)
			}
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
		if experiment.ReadsLayers(kind) {
			// Its graph's edge features are layers: the same edges, once
			// in the layers drawn and once dealt out, edge e to layer e
			// mod D alone (every layer holding every edge is refused: that
			// is weights of one graph, not layers).
			g, e := smallRun(t, kind)
			dealt := *g
			dealt.EdgeX = make([]float64, len(g.EdgeX))
			for i := range g.E() {
				dealt.EdgeX[i*g.D+i%g.D] = 1
			}
			var digests []string
			for _, g := range []*datasets.Graph{g, &dealt} {
				tr := mustTrainer(t, g, e)
				runEpochs(t, tr, 5)
				digests = append(digests, digest(tr, tr.Evaluate()))
			}
			if !experiment.ReadsEdgeFeatures(kind) || digests[0] == digests[1] {
				t.Errorf("%s reads layers: ReadsEdgeFeatures is %v, and other layers give the same bits: %v", kind, experiment.ReadsEdgeFeatures(kind), digests[0] == digests[1])
			}
			continue
		}
		run := func(d int, sigmaD float64) string {
			_, e := smallRun(t, kind)
			e.Data.EdgeFeatures, e.Data.SigmaD = d, sigmaD
			g, err := datasets.Synthetic(e.Data)
			if err != nil {
				t.Fatal(err)
			}
			tr := mustTrainer(t, forKind(kind, g), e)
			runEpochs(t, tr, 5)
			return digest(tr, tr.Evaluate())
		}
		same := run(4, 1) == run(16, 8)
		if reads := experiment.ReadsEdgeFeatures(kind); same == reads {
			t.Errorf("%s: ReadsEdgeFeatures is %v, and graphs of other edge features give the same bits: %v", kind, reads, same)
		}
	}
}
