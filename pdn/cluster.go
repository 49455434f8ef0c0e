package pdn

import (
	"math"
	"math/rand/v2"
	"slices"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
)

func init() {
	register(experiment.ClusterGCN, model{blocking: true, steps: ClusterBatches, cost: clusterGCNCost,
		build: func(g *datasets.Graph, m experiment.Model, rnd *rand.Rand, seed uint64) network {
			return newClusterGCN(g, m, rnd, seed)
		}})
}

// ClusterBatches is how many batches ClusterGCN splits a graph into.
const ClusterBatches = 10

// clusterGCN is ClusterGCN (Chiang et al.): the graph is partitioned, and
// each epoch trains the GCN on one batch of clusters at a time, each batch
// an induced subgraph without the edges that leave it. METIS is not in Go;
// Louvain community detection (gonum's, step for step: see louvain)
// partitions instead, and the communities are packed, largest first, into
// ClusterBatches batches.
// Evaluation runs the GCN on the whole graph.
type clusterGCN struct {
	full  *gcnNet // the whole graph; owns the weights
	parts []*gcnNet
	order []int
	cur   network
	rnd   *rand.Rand
}

func newClusterGCN(g *datasets.Graph, cfg experiment.Model, rnd *rand.Rand, seed uint64) *clusterGCN {
	gcn := cfg
	gcn.Kind = experiment.GCN
	c := &clusterGCN{full: newGCNNet(g, g.Nodes(datasets.Train), gcn, rnd, nil)}
	for _, nodes := range clusterBatches(g, seed) {
		sub, rows := induced(g, nodes)
		if len(rows) == 0 {
			continue // no labels to learn from
		}
		c.parts = append(c.parts, newGCNNet(sub, rows, gcn, rnd, c.full))
	}
	c.cur = c.full
	return c
}

// clusterBatches partitions g with Louvain and packs the communities into
// batches of about equal size.
func clusterBatches(g *datasets.Graph, seed uint64) [][]int {
	comms := louvain(g, rand.NewPCG(seed, streamBatches))
	slices.SortStableFunc(comms, func(a, b []int) int { return len(b) - len(a) })
	nb := min(ClusterBatches, len(comms))
	batches := make([][]int, nb)
	for _, comm := range comms {
		smallest := 0
		for b := range batches {
			if len(batches[b]) < len(batches[smallest]) {
				smallest = b
			}
		}
		batches[smallest] = append(batches[smallest], comm...)
	}
	for _, b := range batches {
		slices.Sort(b)
	}
	return batches
}

// induced returns the subgraph on nodes (sorted) and the local indices of
// its training nodes.
func induced(g *datasets.Graph, nodes []int) (*datasets.Graph, []int) {
	local := make(map[int32]int32, len(nodes))
	sub := &datasets.Graph{N: len(nodes), F: g.F, C: g.C, D: g.D}
	var rows []int
	for i, v := range nodes {
		local[int32(v)] = int32(i)
		if g.XS == nil {
			sub.X = append(sub.X, g.X[v*g.F:(v+1)*g.F]...)
		}
		sub.Labels = append(sub.Labels, g.Labels[v])
		sub.Splits = append(sub.Splits, g.Splits[v])
		if g.Splits[v] == datasets.Train {
			rows = append(rows, i)
		}
	}
	if g.XS != nil {
		sub.XS = g.XS.Select(nodes)
	}
	for e := range g.Src {
		u, okU := local[g.Src[e]]
		v, okV := local[g.Dst[e]]
		if okU && okV {
			sub.Src, sub.Dst = append(sub.Src, u), append(sub.Dst, v)
			sub.EdgeX = append(sub.EdgeX, g.EdgeX[e*g.D:(e+1)*g.D]...)
		}
	}
	return sub, rows
}

func (c *clusterGCN) params() []*tensor               { return c.full.params() }
func (c *clusterGCN) forward(training bool) []float64 { return c.cur.forward(training) }
func (c *clusterGCN) lossRows() (rows, labels []int)  { return c.cur.lossRows() }
func (c *clusterGCN) backward(glogits []float64)      { c.cur.backward(glogits) }
func (c *clusterGCN) edgeWeights() []float64          { return c.full.edgeWeights() }
func (c *clusterGCN) batches() int                    { return len(c.parts) }
func (c *clusterGCN) setPacer(pc *pacer) {
	c.full.setPacer(pc)
	for _, p := range c.parts {
		p.setPacer(pc)
	}
}

// setBatch makes batch b current, in an order drawn afresh at batch 0;
// -1 is the whole graph.
func (c *clusterGCN) setBatch(b int) {
	if b < 0 {
		c.cur = c.full
		return
	}
	if b == 0 {
		c.order = c.rnd.Perm(len(c.parts))
	}
	c.cur = c.parts[c.order[b]]
}

func (c *clusterGCN) reseed(seed uint64) {
	c.rnd = rand.New(rand.NewPCG(seed, streamBatches))
	c.full.reseed(seed)
	for i, p := range c.parts {
		p.reseed(seed + uint64(i) + 1)
	}
}

// clusterGCNCost is a GCN whose subgraphs hold a second copy of every
// buffer but the weights and their Wᵀ (withGraph shares them) and of the
// node features, after a Louvain partition. The partition (louvain) grows about
// as the edges to the power 1.5 (natively, model built: 40 ms at 7,500
// edges, 50 ms at 11,800, 0.43 s at 31,400 and 2.7 s at 170,800): 110
// units an edge^1.5.
func clusterGCNCost(s Shape, m experiment.Model) []Part {
	gcn := m
	gcn.Kind = experiment.GCN
	parts := gcnNetCost(s, gcn)
	for i := range parts {
		parts[i].Bytes *= 2
	}
	x := f64 * s.inputs() // the subgraphs' rows of X (induced)
	if s.NNZ > 0 {
		x += 4*s.inputs() + 8*float64(s.N)
		// The subgraphs' first layers keep their rows transposed, the
		// values once in all and an offset a column each; the whole
		// graph's, which only evaluates, keeps none (the doubled part
		// counted one of its own).
		x += (ClusterBatches-1)*s.sparseTransposeBytes(0) - s.sparseTransposeBytes(s.inputs())
	}
	return append(parts, Part{What: phrase.New("the Louvain partition"), SetupWork: Work{Dense: 110 * math.Pow(float64(s.E), 1.5)},
		Bytes: 200*float64(s.E+s.N) + x, Fields: []string{"edges", "nodes"}})
}
