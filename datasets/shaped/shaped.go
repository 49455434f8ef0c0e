// Package shaped generates graphs with a published graph's counts (nodes,
// edges, features, classes) in the files the field publishes it as, for
// the benchmarks that need a graph of a real one's size and layout without
// downloading it: a Facebook Page-Page-shaped MUSAE folder, an
// ogbn-arxiv-shaped OGB folder.
//
// The structure is a degree-corrected stochastic block model. Node i has
// class c(i), drawn with the shape's class shares, and a weight
//
//	w_i = (1 − u_i)^(−1/(γ−1)),  u_i ~ U[0, 1),  capped at √N,
//
// a heavy tail of exponent γ = 2.5, as the degrees of web and citation
// graphs have. An edge picks its first end with probability ∝ w; its
// second end is of the same class with probability h (the shape's
// homophily), picked ∝ w among that class, else ∝ w among all other
// nodes. Edges are undirected, distinct and never loops; generation
// draws until the count is met. Features carry the class weakly: a sparse
// node's active features come from its class's block of the vocabulary
// with probability 0.6, else from anywhere; a dense node's features are
// its class's mean plus unit Gaussian noise.
//
// The same shape and seed give the same files, byte for byte.
package shaped

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
)

// A Shape is the counts of a published graph.
type Shape struct {
	Name         string
	Nodes, Edges int       // Edges counts undirected pairs
	Features     int       // the vocabulary (sparse) or the width (dense)
	PerNode      int       // sparse: mean active features a node; 0: dense
	Shares       []float64 // each class's share of the nodes, summing to 1
	ClassNames   []string  // optional, as many as Shares
	Homophily    float64   // the share of edges within a class
	Split        [3]int    // train, valid, test nodes (OGB); zero: none
}

// Facebook is Facebook Page-Page (MUSAE): 22,470 pages of 4 kinds, 170,823
// mutual likes, 4,714 binary description features. The class shares and
// the about 15 active features a page are this package's choice.
var Facebook = Shape{
	Name: "facebook", Nodes: 22470, Edges: 170823, Features: 4714, PerNode: 15,
	Shares:     []float64{0.26, 0.29, 0.31, 0.14},
	ClassNames: []string{"politician", "company", "government", "tvshow"},
	Homophily:  0.89,
}

// Arxiv is ogbn-arxiv (OGB): 169,343 papers in 40 subject areas, 1,166,243
// citations, 128 dense features, OGB's split sizes. Equal class shares
// are this package's choice.
var Arxiv = Shape{
	Name: "ogbn-arxiv", Nodes: 169343, Edges: 1166243, Features: 128,
	Shares: equalShares(40), Homophily: 0.65, Split: [3]int{90941, 29799, 48603},
}

// Shapes are the published graphs this package draws, by name.
var Shapes = []Shape{Facebook, Arxiv}

// Lookup is the shape named name.
func Lookup(name string) (Shape, bool) {
	for _, s := range Shapes {
		if s.Name == name {
			return s, true
		}
	}
	return Shape{}, false
}

// equalShares is n classes of one size.
func equalShares(n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = 1 / float64(n)
	}
	return s
}

// A Graph is a generated graph, ready to be written in a published format.
type Graph struct {
	Shape  Shape
	Class  []int      // a node's class
	Pairs  [][2]int32 // u < v, in the order drawn
	Sparse [][]int32  // sparse: each node's active features, ascending
	Dense  []float32  // dense: N×F, row by row
	Split  []int8     // OGB: 0 train, 1 valid, 2 test
}

// Generate draws a graph of shape s from seed.
func Generate(s Shape, seed uint64) (*Graph, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	rnd := rand.New(rand.NewPCG(seed, 0x5eed))
	g := &Graph{Shape: s}
	g.Class = drawClasses(s, rnd)
	w := drawWeights(s.Nodes, rnd)
	g.Pairs = drawPairs(s, g.Class, w, rnd)
	if s.PerNode > 0 {
		g.Sparse = drawSparse(s, g.Class, rnd)
	} else {
		g.Dense = drawDense(s, g.Class, rnd)
	}
	if s.Split != [3]int{} {
		g.Split = drawSplit(s, rnd)
	}
	return g, nil
}

// check refuses a shape that cannot be drawn: more pairs than a fifth of
// all possible (drawing would slow to a crawl), or shares that are not a
// distribution.
func (s Shape) check() error {
	n := float64(s.Nodes)
	switch {
	case s.Nodes < 2 || s.Nodes > 1<<24:
		return fmt.Errorf("shaped: %d nodes, want 2 to %d", s.Nodes, 1<<24)
	case s.Edges < 1 || float64(s.Edges) > n*(n-1)/10:
		return fmt.Errorf("shaped: %d edges for %d nodes, want 1 to a fifth of all pairs", s.Edges, s.Nodes)
	case len(s.Shares) < 2 || (s.ClassNames != nil && len(s.ClassNames) != len(s.Shares)):
		return fmt.Errorf("shaped: %d class shares and %d names, want 2 or more shares and as many names", len(s.Shares), len(s.ClassNames))
	case s.Features < 1 || s.PerNode < 0 || s.PerNode > s.Features:
		return fmt.Errorf("shaped: %d features, %d a node, want 1 or more, at most all", s.Features, s.PerNode)
	case s.Homophily < 0 || s.Homophily > 1:
		return fmt.Errorf("shaped: homophily %g, want [0, 1]", s.Homophily)
	case s.Split != [3]int{} && s.Split[0]+s.Split[1]+s.Split[2] != s.Nodes:
		return fmt.Errorf("shaped: a split of %d nodes for %d", s.Split[0]+s.Split[1]+s.Split[2], s.Nodes)
	}
	total := 0.0
	for _, p := range s.Shares {
		if p <= 0 {
			return fmt.Errorf("shaped: class share %g, want > 0", p)
		}
		total += p
	}
	if math.Abs(total-1) > 1e-9 {
		return fmt.Errorf("shaped: class shares sum to %g, want 1", total)
	}
	return nil
}

// drawClasses gives each node a class with the shares, every class at least
// one node.
func drawClasses(s Shape, rnd *rand.Rand) []int {
	cum := cumulative(s.Shares)
	class := make([]int, s.Nodes)
	for i := range class {
		if i < len(s.Shares) {
			class[i] = i
			continue
		}
		class[i] = pick(cum, rnd.Float64()*cum[len(cum)-1])
	}
	rnd.Shuffle(len(class), func(i, j int) { class[i], class[j] = class[j], class[i] })
	return class
}

// drawWeights is each node's expected-degree weight, heavy-tailed (γ = 2.5)
// and capped at √N so that no node touches most of the graph.
func drawWeights(n int, rnd *rand.Rand) []float64 {
	w := make([]float64, n)
	limit := math.Sqrt(float64(n))
	for i := range w {
		w[i] = min(math.Pow(1-rnd.Float64(), -1/1.5), limit)
	}
	return w
}

// sampler picks nodes with probability ∝ weight from a set of nodes.
type sampler struct {
	nodes []int32
	cum   []float64
}

func newSampler(nodes []int32, w []float64) sampler {
	ws := make([]float64, len(nodes))
	for i, v := range nodes {
		ws[i] = w[v]
	}
	return sampler{nodes: nodes, cum: cumulative(ws)}
}

func (s sampler) draw(rnd *rand.Rand) int32 {
	return s.nodes[pick(s.cum, rnd.Float64()*s.cum[len(s.cum)-1])]
}

// drawPairs draws s.Edges distinct undirected pairs: the first end ∝ w, the
// second within its class with probability h.
func drawPairs(s Shape, class []int, w []float64, rnd *rand.Rand) [][2]int32 {
	all := make([]int32, s.Nodes)
	byClass := make([][]int32, len(s.Shares))
	for i := range all {
		all[i] = int32(i)
		byClass[class[i]] = append(byClass[class[i]], int32(i))
	}
	any := newSampler(all, w)
	within := make([]sampler, len(byClass))
	for c, nodes := range byClass {
		within[c] = newSampler(nodes, w)
	}
	seen := make(map[uint64]bool, s.Edges)
	pairs := make([][2]int32, 0, s.Edges)
	for len(pairs) < s.Edges {
		u := any.draw(rnd)
		v := within[class[u]].draw(rnd)
		if rnd.Float64() >= s.Homophily {
			for v = any.draw(rnd); class[v] == class[u]; v = any.draw(rnd) {
			}
		}
		if u == v {
			continue
		}
		a, b := min(u, v), max(u, v)
		key := uint64(a)<<32 | uint64(b)
		if seen[key] {
			continue
		}
		seen[key] = true
		pairs = append(pairs, [2]int32{a, b})
	}
	return pairs
}

// drawSparse gives each node 1 to 2·PerNode−1 active features, 0.6 of them
// from its class's block of the vocabulary.
func drawSparse(s Shape, class []int, rnd *rand.Rand) [][]int32 {
	block := max(s.Features/len(s.Shares), 1)
	out := make([][]int32, s.Nodes)
	for i := range out {
		k := 1 + rnd.IntN(2*s.PerNode-1)
		set := make(map[int32]bool, k)
		for len(set) < k {
			f := rnd.IntN(s.Features)
			if rnd.Float64() < 0.6 {
				f = min(class[i]*block+rnd.IntN(block), s.Features-1)
			}
			set[int32(f)] = true
		}
		row := make([]int32, 0, k)
		for f := range set {
			row = append(row, f)
		}
		slices.Sort(row)
		out[i] = row
	}
	return out
}

// drawDense gives each node its class's mean (unit Gaussian, drawn once a
// class) plus unit Gaussian noise.
func drawDense(s Shape, class []int, rnd *rand.Rand) []float32 {
	f := s.Features
	means := make([]float64, len(s.Shares)*f)
	for i := range means {
		means[i] = 0.5 * rnd.NormFloat64()
	}
	x := make([]float32, s.Nodes*f)
	for i := range s.Nodes {
		for j := range f {
			x[i*f+j] = float32(means[class[i]*f+j] + rnd.NormFloat64())
		}
	}
	return x
}

// drawSplit assigns the split's counts to nodes at random.
func drawSplit(s Shape, rnd *rand.Rand) []int8 {
	split := make([]int8, s.Nodes)
	for i := range split {
		switch {
		case i < s.Split[0]:
			split[i] = 0
		case i < s.Split[0]+s.Split[1]:
			split[i] = 1
		default:
			split[i] = 2
		}
	}
	rnd.Shuffle(len(split), func(i, j int) { split[i], split[j] = split[j], split[i] })
	return split
}

// cumulative is the running sum of w.
func cumulative(w []float64) []float64 {
	cum := make([]float64, len(w))
	t := 0.0
	for i, v := range w {
		t += v
		cum[i] = t
	}
	return cum
}

// pick is the first index whose running sum exceeds x.
func pick(cum []float64, x float64) int {
	return min(sort.SearchFloat64s(cum, x+math.SmallestNonzeroFloat64), len(cum)-1)
}

// className is class c's name: the shape's, or "class c".
func (g *Graph) className(c int) string {
	if g.Shape.ClassNames != nil {
		return g.Shape.ClassNames[c]
	}
	return fmt.Sprintf("class %d", c)
}

// A File is one file of a written graph: its path in the folder and bytes.
type File struct {
	Name string
	Data []byte
}
