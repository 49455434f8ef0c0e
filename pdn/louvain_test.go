package pdn

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/graph/community"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
)

// gonumLouvain is what louvain must equal: gonum's communities of g.
func gonumLouvain(g *datasets.Graph, seed uint64) [][]int {
	r := community.Modularize(datasets.NewUndirected(g, nil), 1, rand.NewPCG(seed, streamBatches))
	var out [][]int
	for _, c := range r.Communities() {
		comm := make([]int, len(c))
		for i, n := range c {
			comm[i] = int(n.ID())
		}
		out = append(out, comm)
	}
	return out
}

// TestLouvainIsGonums compares louvain with gonum's Modularize, community
// by community and member by member, on the sweep's kinds of graph (few
// and many classes, sparse and dense, few and many edges between classes)
// and on graphs with what a file may hold: repeated edges, self-loops,
// isolated nodes, no edges at all.
func TestLouvainIsGonums(t *testing.T) {
	type tc struct {
		name string
		g    *datasets.Graph
	}
	var cases []tc
	for _, d := range []struct {
		param string
		value float64
	}{{"classes", 2}, {"classes", 6}, {"per-class", 16}, {"per-class", 256}, {"p", 1.0 / 1024}, {"p", 1.0 / 16}, {"q", 1.0 / 1024}, {"q", 1.0 / 16}} {
		for seed := uint64(1); seed <= 3; seed++ {
			e := experiment.Default()
			e.Data.PerClass, e.Data.Seed = 64, seed
			p, _ := experiment.Lookup(d.param)
			if err := p.Set(&e, fmt.Sprint(d.value)); err != nil {
				t.Fatal(err)
			}
			g, err := datasets.Synthetic(e.Data)
			if err != nil {
				t.Fatal(err)
			}
			cases = append(cases, tc{fmt.Sprintf("%s=%v seed %d", d.param, d.value, seed), g})
		}
	}
	rnd := rand.New(rand.NewPCG(7, 7))
	for k := range 20 {
		n := 2 + rnd.IntN(60)
		g := &datasets.Graph{N: n}
		for range rnd.IntN(4 * n) {
			s, d := int32(rnd.IntN(n)), int32(rnd.IntN(n))
			g.Src, g.Dst = append(g.Src, s), append(g.Dst, d)
			if rnd.IntN(5) == 0 { // the same edge again, either way round
				g.Src, g.Dst = append(g.Src, d), append(g.Dst, s)
			}
		}
		cases = append(cases, tc{fmt.Sprintf("random %d (%d nodes, %d edges)", k, n, len(g.Src)), g})
	}
	cases = append(cases, tc{"no edges", &datasets.Graph{N: 5}}, tc{"one edge", &datasets.Graph{N: 4, Src: []int32{2}, Dst: []int32{3}}})
	for _, c := range cases {
		for _, seed := range []uint64{1, 99} {
			got, want := louvain(c.g, rand.NewPCG(seed, streamBatches)), gonumLouvain(c.g, seed)
			if !slices.EqualFunc(got, want, slices.Equal) {
				t.Errorf("%s, seed %d: %d communities %v\nwant %d: %v", c.name, seed, len(got), got, len(want), want)
			}
		}
	}
}

// BenchmarkLouvain times the partition of ClusterGCN on the default graph,
// by hand and by gonum.
func BenchmarkLouvain(b *testing.B) {
	g, err := datasets.Synthetic(experiment.Default().Data)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("pdn", func(b *testing.B) {
		for b.Loop() {
			louvain(g, rand.NewPCG(1, streamBatches))
		}
	})
	b.Run("gonum", func(b *testing.B) {
		for b.Loop() {
			gonumLouvain(g, 1)
		}
	})
}
