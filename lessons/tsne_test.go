package lessons

import (
	"math"
	"slices"
	"testing"

	"pdnexplorer/datasets"
	"pdnexplorer/edgekind"
	"pdnexplorer/experiment"
)

func TestSampleEdges(t *testing.T) {
	g := &datasets.Graph{Kind: make([]edgekind.Kind, 1000)}
	for e := range g.Kind {
		switch {
		case e%10 == 0:
			g.Kind[e] = edgekind.Inter // 100 inter-class edges
		case e%10 == 1:
			g.Kind[e] = edgekind.Unknown
		default:
			g.Kind[e] = edgekind.Intra
		}
	}
	for _, c := range []struct {
		name       string
		max, wantN int
	}{
		{"capped by max", 60, 60},
		{"all of the rarer kind", 600, 200},
		{"an odd max", 7, 6},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := SampleEdges(g, c.max, 3)
			if len(a) != c.wantN {
				t.Fatalf("%d edges, want %d", len(a), c.wantN)
			}
			if !slices.IsSorted(a) || len(slices.Compact(slices.Clone(a))) != len(a) {
				t.Errorf("edges not ascending and distinct: %v", a)
			}
			var n [3]int
			for _, e := range a {
				n[g.Kind[e]]++
			}
			if n[edgekind.Intra] != n[edgekind.Inter] || n[edgekind.Unknown] != 0 {
				t.Errorf("kinds intra %d, inter %d, unknown %d: want as many of each and none unknown", n[edgekind.Intra], n[edgekind.Inter], n[edgekind.Unknown])
			}
			if b := SampleEdges(g, c.max, 3); !slices.Equal(a, b) {
				t.Errorf("one seed drew two samples")
			}
		})
	}
	if c := SampleEdges(g, 60, 4); slices.Equal(c, SampleEdges(g, 60, 3)) {
		t.Errorf("seeds 3 and 4 drew the same sample")
	}
	if none := SampleEdges(&datasets.Graph{Kind: []edgekind.Kind{edgekind.Intra}}, 60, 1); none != nil {
		t.Errorf("a graph of one kind gave %v", none)
	}
}

// TestEmbedEdges embeds a short PDN run's edges, twice to the same bits,
// and finds no representation in GCN.
func TestEmbedEdges(t *testing.T) {
	e := experiment.Default()
	e.Data.PerClass, e.Train.Epochs = 32, 20
	g, err := datasets.Build(e.Data)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := TrainAll(g, e)
	if err != nil {
		t.Fatal(err)
	}
	a, ok := EmbedEdges(g, tr, 1)
	if !ok || len(a.XY) != 2*len(a.Edges) || a.Dim != e.Model.EdgeHidden[len(e.Model.EdgeHidden)-1] {
		t.Fatalf("ok %v, %d edges, %d coordinates, dim %d", ok, len(a.Edges), len(a.XY), a.Dim)
	}
	for _, v := range []float64{a.Separation, a.Hidden, a.Input} {
		if math.IsNaN(v) || v < 0 || v > 1 {
			t.Errorf("an agreement of %v", v)
		}
	}
	b, _ := EmbedEdges(g, tr, 1)
	if !slices.Equal(a.XY, b.XY) || a.Separation != b.Separation {
		t.Errorf("one run embedded twice gave two embeddings")
	}
	e.Model.Kind = experiment.GCN
	gcn, err := TrainAll(g, e)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := EmbedEdges(g, gcn, 1); ok {
		t.Errorf("GCN has edge representations")
	}
}
