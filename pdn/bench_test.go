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
	for range 3 { // warm up
		if _, err := t.Step(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
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
