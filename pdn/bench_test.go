package pdn

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"pdnexplorer/datasets"
	"pdnexplorer/datasets/shaped"
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
func BenchmarkEpochGAT(b *testing.B) { benchEpoch(b, experiment.GAT) }

// BenchmarkEpochGATOneCore is GAT's epoch on one core, as each of a
// sweep's runs trains.
func BenchmarkEpochGATOneCore(b *testing.B) {
	defer SetThreads(SetThreads(1))
	benchEpoch(b, experiment.GAT)
}

// BenchmarkDeepWalkSetup times DeepWalk's walks and embeddings on the
// paper's default scenario: the set-up each of a sweep's DeepWalk runs
// pays.
func BenchmarkDeepWalkSetup(b *testing.B) {
	e := experiment.Default()
	e.Model.Kind = experiment.DeepWalk
	g, err := datasets.Synthetic(e.Data)
	if err != nil {
		b.Fatal(err)
	}
	defer embeddings.pause()()
	for b.Loop() {
		t, err := NewTrainer(g, e)
		if err != nil {
			b.Fatal(err)
		}
		t.prepared()
	}
}

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

// BenchmarkEpochWS32GCN is GCN's epoch on the same Watts–Strogatz graph at
// 32 edges per node (about 65k edges) and 32 edge features: Figure 6's
// sweep point that issue 45 timed.
func BenchmarkEpochWS32GCN(b *testing.B) {
	g, err := datasets.SmallWorld(1<<12, 32, 0.5, 128, 32, 4, 1)
	if err != nil {
		b.Fatal(err)
	}
	e := experiment.Default()
	e.Model.Kind, e.Model.EdgeDrop = experiment.GCN, 0
	t, err := NewTrainer(g, e)
	if err != nil {
		b.Fatal(err)
	}
	timeSteps(b, t, 1)
}

// benchFacebook times one epoch of kind on a graph of Facebook Page-Page's
// counts (22,470 nodes, 170,823 edges, 4,714 sparse features, the 11
// tie-strength scores), opened from its MUSAE files as a user's graph is,
// at the real-graph recipe; with eval, each epoch is followed by an
// evaluation, as when the page follows every epoch.
func benchFacebook(b *testing.B, kind string, eval bool) {
	g, err := facebookShaped()
	if err != nil {
		b.Fatal(err)
	}
	e := experiment.Default()
	e.Data.Graph = experiment.GraphLocal
	e.ApplyRecipe(func(string) bool { return false })
	e.Model.Kind = kind
	t, err := NewTrainer(g, e)
	if err != nil {
		b.Fatal(err)
	}
	for range 2 {
		if _, err := t.Step(); err != nil {
			b.Fatal(err)
		}
	}
	var s Snapshot
	b.ResetTimer()
	for b.Loop() {
		if _, err := t.Step(); err != nil {
			b.Fatal(err)
		}
		if eval {
			t.EvaluateInto(&s)
		}
	}
}

// facebookShaped is the Facebook-shaped graph, drawn and read once as a
// user's MUSAE folder is, with the lab's split.
var facebookShaped = sync.OnceValues(func() (*datasets.Graph, error) {
	g, err := openShaped(shaped.Facebook, (*shaped.Graph).MUSAE)
	if err == nil {
		datasets.ShotSplit(g, 100, 1)
	}
	return g, err
})

// arxivShaped is the ogbn-arxiv-shaped graph (dense features, OGB's
// split sizes), drawn and read once as a user's OGB folder is.
var arxivShaped = sync.OnceValues(func() (*datasets.Graph, error) {
	return openShaped(shaped.Arxiv, (*shaped.Graph).OGB)
})

// openShaped draws a graph of shape s (seed 1) and reads the files
// format writes of it, as the page reads a user's.
func openShaped(s shaped.Shape, format func(*shaped.Graph) []shaped.File) (*datasets.Graph, error) {
	sg, err := shaped.Generate(s, 1)
	if err != nil {
		return nil, err
	}
	var files []datasets.File
	for _, f := range format(sg) {
		files = append(files, datasets.File{Name: f.Name, Data: f.Data})
	}
	g, _, err := datasets.OpenFiles(files, datasets.Columns{})
	return g, err
}

func BenchmarkEpochFacebookPDN(b *testing.B)     { benchFacebook(b, experiment.PDN, false) }
func BenchmarkEpochFacebookPDNEval(b *testing.B) { benchFacebook(b, experiment.PDN, true) }
func BenchmarkEpochFacebookGCN(b *testing.B)     { benchFacebook(b, experiment.GCN, false) }

// BenchmarkEpochFacebookPDNThreads is BenchmarkEpochFacebookPDN on 1 and
// 2 threads, in one run: natively the products' and the propagation's
// pieces as goroutines; under Node with PDN_SHARED=1 (make test-wasm's
// runner) on the kernels' helper threads, as the page's worker runs them.
func BenchmarkEpochFacebookPDNThreads(b *testing.B) {
	for _, n := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", n), func(b *testing.B) {
			defer SetThreads(SetThreads(n))
			benchFacebook(b, experiment.PDN, false)
		})
	}
}

// BenchmarkPathfinderGFLOPS times the pathfinder's forward and backward
// pass over Figure 6's largest graph's edges (131,072 edges, D = 128
// features, the hidden layer [32]) on one core, and reports its GFLOP/s:
// 2·E·Σ in·out for the forward pass, as much again for the weights'
// gradients and the hidden layers' input gradients. BenchmarkFMAPeak gives
// the core's peak beside it.
func BenchmarkPathfinderGFLOPS(b *testing.B) {
	defer SetThreads(SetThreads(1))
	const e, d = 1 << 17, 128
	hidden := []int{32}
	rnd := rand.New(rand.NewPCG(3, 4))
	z := make([]float64, e*d)
	for i := range z {
		z[i] = rnd.Float64()
	}
	p := newPathfinder(rnd, z, e, d, hidden, experiment.InitUniform)
	gw := make([]float64, e)
	for i := range gw {
		gw[i] = rnd.Float64() - 0.5
	}
	var macs float64
	in := d
	for i, out := range append(hidden, 1) {
		macs += 2 * float64(e*in*out) // forward, and the weights' gradient
		if i > 0 {
			macs += float64(e * in * out) // the input's gradient
		}
		in = out
	}
	for b.Loop() {
		p.forward()
		p.backward(gw)
	}
	b.ReportMetric(2*macs*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

// BenchmarkEmbeddingSetupCora times the set-up of each matrix
// factorisation of Table 4 on Cora: its matrix and truncated SVD, or
// TENE's iterations.
func BenchmarkEmbeddingSetupCora(b *testing.B) {
	g, err := datasets.Builtin(experiment.GraphCora)
	if err != nil {
		b.Fatal(err)
	}
	for _, kind := range []string{experiment.GraRep, experiment.HOPE, experiment.NetMF, experiment.TENE} {
		b.Run(kind, func(b *testing.B) {
			defer embeddings.pause()()
			for b.Loop() {
				models[kind].build(g, experiment.Model{Kind: kind}, nil, 1).(*embedNet).prepare(farFuture)
			}
		})
	}
}
