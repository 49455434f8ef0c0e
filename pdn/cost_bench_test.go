package pdn

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
)

// costSizes are the graphs the cost model is calibrated on: the paper's
// synthetic graph at three sizes (dense features), a graph of Facebook
// Page-Page's counts (sparse features), opened as a user's graph is, and
// the multiplex lab's graph at three sizes (layers marks them), on which
// alone the models that read layers train (experiment.ReadsLayers), and
// they alone are timed.
var costSizes = []struct {
	name   string
	graph  func() (*datasets.Graph, experiment.Experiment, error)
	layers bool
}{
	{"per-class=64", syntheticOf("per-class=64"), false},
	{"per-class=500", syntheticOf(""), false},
	{"per-class=1024", syntheticOf("per-class=1024"), false},
	// A wide pathfinder over a denser graph: an epoch of most of a second
	// in the browser, where PDN's estimate decides whether the page shows
	// the epoch's progress (the other models ignore the pathfinder rows).
	{"wide-pathfinder", syntheticOf("per-class=512&p=0.02&edge-hidden=128,128"), false},
	{"facebook-shaped", localOf(facebookShaped), false},
	// ogbn-arxiv's counts (dense features, 40 classes), opened as a user's
	// OGB folder is: the largest graph the page opens, whose propagation
	// and dense matrices no longer stay in the caches. The speeds are not
	// fitted to it yet (docs/benchmarks.md: its GNN epochs read 0.2–0.5 of
	// their estimate); fit-cost.py's --skip leaves it out of a refit.
	{"ogbn-arxiv-shaped", localOf(arxivShaped), false},
	{"multiplex-64", syntheticOf("data=multiplex&per-class=64"), true},
	{"multiplex-500", syntheticOf("data=multiplex"), true},
	{"multiplex-1024", syntheticOf("data=multiplex&per-class=1024"), true},
}

// localOf is a graph opened as a user's files are, at the state the page
// gives such a graph: data=local and the recipe its features call for.
func localOf(graph func() (*datasets.Graph, error)) func() (*datasets.Graph, experiment.Experiment, error) {
	return func() (*datasets.Graph, experiment.Experiment, error) {
		g, err := graph()
		e := experiment.Default()
		e.Data.Graph = experiment.GraphLocal
		e.ApplyRecipe(func(string) bool { return false })
		return g, e, err
	}
}

// syntheticOf is the synthetic graph of the state a link describes.
func syntheticOf(link string) func() (*datasets.Graph, experiment.Experiment, error) {
	return func() (*datasets.Graph, experiment.Experiment, error) {
		e, err := experiment.Decode(link)
		if err != nil {
			return nil, e, fmt.Errorf("%s: %w", link, err)
		}
		g, err := datasets.Build(e.Data)
		return g, e, err
	}
}

// platformLimits are the limits of where the benchmark runs: the
// browser's under GOOS=js (Node runs the worker's WebAssembly, with its
// SIMD kernels under scripts/kernels-exec), the command line's natively.
func platformLimits() Limits {
	if runtime.GOOS == "js" {
		return BrowserLimits
	}
	return NativeLimits
}

// BenchmarkCost sets the cost model's estimate of an epoch beside the
// epoch measured on one core, for every model on every graph of costSizes: est/real
// is the estimate over the real time (the calibration holds it within
// 0.7–1.5). The set-up (DeepWalk's embeddings, SGC's propagation,
// ClusterGCN's partition) is measured beside its estimate too. A model
// whose estimated set-up exceeds the platform's limit is skipped: the
// page refuses it, and the CLI's set-up would take minutes. It reports the
// work it estimated by kind (M-dense, …), from which scripts/fit-cost.py
// fits the speeds of pdn/speeds.go to the epochs of one or more runs.
func BenchmarkCost(b *testing.B) {
	l := platformLimits()
	// One core, as the worker has and as each of a sweep's runs trains.
	defer SetThreads(SetThreads(1))
	for _, size := range costSizes {
		g, base, err := size.graph()
		if err != nil {
			b.Fatal(err)
		}
		for _, kind := range experiment.Kinds {
			if experiment.ReadsLayers(kind) != size.layers {
				continue
			}
			b.Run(fmt.Sprintf("%s/%s", size.name, kind), func(b *testing.B) {
				e := base
				e.Model.Kind = kind
				c := Estimate(ShapeOf(g), e.Model)
				estEpoch, estSetup := c.Seconds(l)
				limit := l.MaxSetupSec
				if c.Blocking {
					limit = l.MaxBlockSec
				}
				if estSetup > max(limit, 5) {
					b.Skipf("set-up estimated at %.0f s", estSetup)
				}
				for range b.N {
					real, setup := timeEpoch(b, g, e)
					b.ReportMetric(1000*estEpoch, "est-ms")
					b.ReportMetric(1000*real, "real-ms")
					b.ReportMetric(estEpoch/real, "est/real")
					b.ReportMetric(c.EpochWork.Dense/1e6, "M-dense")
					b.ReportMetric(c.EpochWork.Gather/1e6, "M-gather")
					b.ReportMetric(c.EpochWork.Exp/1e6, "M-exp")
					b.ReportMetric(c.Updates/1e6, "M-updates")
					b.ReportMetric(c.SetupWork.Dense/1e6, "M-setup-dense")
					b.ReportMetric(c.SetupWork.Gather/1e6, "M-setup-gather")
					b.ReportMetric(c.SetupWork.Exp/1e6, "M-setup-exp")
					if c.Setup > 0 {
						b.ReportMetric(estSetup, "est-setup-s")
						b.ReportMetric(setup, "setup-s")
						b.ReportMetric(estSetup/setup, "setup-est/real")
					}
				}
			})
		}
	}
}

// timeEpoch builds e's model on g, completes its set-up and returns the
// seconds of one training epoch (the mean over at least three, and over
// half a second at least) and of the set-up (building the model included:
// some models do their set-up there), the memo of embeddings off.
func timeEpoch(b *testing.B, g *datasets.Graph, e experiment.Experiment) (epoch, setup float64) {
	defer embeddings.pause()()
	start := time.Now()
	t, err := NewTrainer(g, e)
	if err != nil {
		b.Fatal(err)
	}
	t.prepared()
	setup = time.Since(start).Seconds()
	if _, err := t.Step(); err != nil { // warm: first touches of the buffers
		b.Fatal(err)
	}
	n := 0
	start = time.Now()
	for n < 3 || time.Since(start) < 500*time.Millisecond {
		if _, err := t.Step(); err != nil {
			b.Fatal(err)
		}
		n++
	}
	return time.Since(start).Seconds() / float64(n), setup
}

// BenchmarkUpdate measures each model's Speed.UpdateNs: the ns a learned
// value's step takes (its gradient cleared, its layer's passes over the
// whole weight, Adam's update), on one core, on the paper's synthetic
// graph (1,500 nodes) with 200,000 sparse features, 20 a node, where every
// model but SGC and DeepWalk learns millions of weights and its products
// are a few ms: the epoch less the estimate of the rest, over Cost.Updates.
// SGC (its Â²X would be 2.4 GB dense) and DeepWalk (65 weights a class)
// are not run: scripts/fit-cost.py times them as the slowest.
func BenchmarkUpdate(b *testing.B) {
	l := platformLimits()
	defer SetThreads(SetThreads(1))
	plain, e := wideGraph(b, "")
	layered, _ := wideGraph(b, "data=multiplex")
	for _, kind := range experiment.Kinds {
		g := plain
		if experiment.ReadsLayers(kind) { // the synthetic graph's edge features are no layers
			g = layered
		}
		e.Model.Kind = kind
		c := Estimate(ShapeOf(g), e.Model)
		if c.Weights < 1e6 {
			continue
		}
		b.Run(kind, func(b *testing.B) {
			if err := c.Check(l, nil); err != nil { // DMGI's dense encoders on these features
				b.Skip(err)
			}
			rest := c
			rest.Updates = 0
			est, _ := rest.Seconds(l)
			for range b.N {
				real, _ := timeEpoch(b, g, e)
				b.ReportMetric((real-est)*1e9/c.Updates, "ns/update")
				b.ReportMetric(c.Updates/1e6, "M-updates")
			}
		})
	}
}

// wideGraph is BenchmarkUpdate's graph: the graph a link describes (the
// paper's synthetic graph at the defaults for "") with 200,000 sparse
// features, 20 ones a node.
func wideGraph(b *testing.B, link string) (*datasets.Graph, experiment.Experiment) {
	g, e, err := syntheticOf(link)()
	if err != nil {
		b.Fatal(err)
	}
	sparseFeatures(g, 200000, 20)
	return g, e
}

// sparseFeatures replaces g's node features with f sparse columns, perNode
// ones a node in columns drawn at random.
func sparseFeatures(g *datasets.Graph, f, perNode int) {
	r := rand.New(rand.NewPCG(1, 2))
	xs := &datasets.CSR{Rows: g.N, Cols: f, Ptr: []int{0}}
	for range g.N {
		cols := map[int32]bool{}
		for len(cols) < perNode {
			cols[int32(r.IntN(f))] = true
		}
		for _, c := range slices.Sorted(maps.Keys(cols)) {
			xs.Col, xs.Val = append(xs.Col, c), append(xs.Val, 1)
		}
		xs.Ptr = append(xs.Ptr, len(xs.Col))
	}
	g.X, g.XS, g.F = nil, xs, f
}
