package datasets

import (
	"math/rand/v2"
	"slices"

	"pdnexplorer/i18n/phrase"
)

// streamHoldOut is the data seed's stream of the validation nodes.
const streamHoldOut = 8

// HoldOut moves n of g's test nodes, drawn with the seed, to the
// validation split, for model selection: the epoch a run is read at is the
// one of best validation accuracy, and the test nodes stay unseen. It
// keeps at least half the test nodes for testing, and one a class
// (MaxHoldOut), and says so in a note when that is fewer than n. It returns how many it moved.
func HoldOut(g *Graph, n int, seed uint64) int {
	test := g.Nodes(Test)
	take := min(n, MaxHoldOut(g))
	if take <= 0 {
		return 0
	}
	rnd := rand.New(stream(seed, streamHoldOut))
	rnd.Shuffle(len(test), func(a, b int) { test[a], test[b] = test[b], test[a] })
	for _, v := range test[:take] {
		g.Splits[v] = Val
	}
	if take < n {
		g.Notes = append(g.Notes, phrase.New("validation: %d nodes, not %d, so that half the %d test nodes stay for testing", take, n, len(test)))
	}
	return take
}

// MaxHoldOut is the most validation nodes HoldOut takes from g: half its
// test nodes, and never so many that fewer test nodes than classes stay
// (a class must keep a test node to be tested at all). A command that
// takes a number of validation nodes refuses one above it, before any
// training, rather than take fewer than it says.
func MaxHoldOut(g *Graph) int {
	test := len(g.Nodes(Test))
	return max(0, min(test/2, test-g.C))
}

// RowNormalise divides each node's features by their sum (PyG's
// NormalizeFeatures), the usual preprocessing of bag-of-words features: a
// node's words then weigh the same however many it has. A row that sums
// to 0 stays as it is.
func RowNormalise(g *Graph) {
	if g.XS != nil {
		x := g.XS
		for i := 0; i < x.Rows; i++ {
			scale(x.Val[x.Ptr[i]:x.Ptr[i+1]])
		}
		return
	}
	for i := 0; i < g.N; i++ {
		scale(g.X[i*g.F : (i+1)*g.F])
	}
}

// RowNormalised is a copy of g whose node features are row-normalised
// (RowNormalise), g left as it is: the copy shares everything else with
// g, which neither may change after.
func RowNormalised(g *Graph) *Graph {
	c := *g
	if g.XS != nil {
		xs := *g.XS
		xs.Val = slices.Clone(g.XS.Val)
		c.XS = &xs
	} else {
		c.X = slices.Clone(g.X)
	}
	RowNormalise(&c)
	return &c
}

// scale divides row by its sum, unless that is 0.
func scale(row []float64) {
	var s float64
	for _, v := range row {
		s += v
	}
	if s == 0 {
		return
	}
	for i := range row {
		row[i] /= s
	}
}
