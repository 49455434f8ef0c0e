package pdn

import (
	"testing"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
)

// benchEpoch times one training epoch (forward, backward, Adam) of kind at
// the paper's default scenario.
func benchEpoch(b *testing.B, kind string) {
	e := experiment.Default()
	e.Model.Kind = kind
	g, err := datasets.Synthetic(e.Data)
	if err != nil {
		b.Fatal(err)
	}
	t, err := NewTrainer(g, e)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	timeSteps(b, t, 3)
}

// timeSteps times t's epochs after warm untimed ones.
func timeSteps(b *testing.B, t *Trainer, warm int) {
	for range warm {
		if _, err := t.Step(); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := t.Step(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEpochPDN(b *testing.B) { benchEpoch(b, experiment.PDN) }
func BenchmarkEpochGCN(b *testing.B) { benchEpoch(b, experiment.GCN) }
func BenchmarkEpochMLP(b *testing.B) { benchEpoch(b, experiment.MLP) }

// benchWS times one epoch of kind on Appendix E's largest graph: a
// Watts–Strogatz graph of 4096 nodes and 64 edges per node (about 131k
// edges), 128 node and 128 edge features, and the pathfinder [32].
func benchWS(b *testing.B, kind string) {
	g, err := datasets.SmallWorld(1<<12, 64, 0.5, 128, 128, 4, 1)
	if err != nil {
		b.Fatal(err)
	}
	e := experiment.Default()
	e.Model.Kind, e.Model.EdgeHidden, e.Model.EdgeDrop = kind, []int{32}, 0
	t, err := NewTrainer(g, e)
	if err != nil {
		b.Fatal(err)
	}
	timeSteps(b, t, 1)
}

func BenchmarkEpochWSPDN(b *testing.B) { benchWS(b, experiment.PDN) }
func BenchmarkEpochWSGCN(b *testing.B) { benchWS(b, experiment.GCN) }
