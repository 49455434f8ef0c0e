// Package lessons holds the computations of the paper's lessons that both
// the CLI (cmd/pdn) and the browser's engine worker run, so that the two
// give the same numbers: the one loop that trains until done, the edge
// states of the XOR proposition (§4.1.1; the states themselves are
// xorstate's, which the page reads too), the degree binning of the
// diminishing-weight argument (§4.2) and the distribution of the learned
// weights on each kind of edge (WeightSpread), which
// experiment.ReadWeights puts into a sentence.
//
// It knows nothing of flags, files or the browser.
package lessons

import (
	"math"
	"math/bits"
	"time"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/pdn"
	"pdnexplorer/xorstate"
)

// Train steps t until it has trained until epochs, or all of its own if
// until is larger, calling after (if not nil) after each epoch with how long
// the step took. An error of a step (a diverged run) or of after ends it.
func Train(t *pdn.Trainer, until int, after func(t *pdn.Trainer, step time.Duration) error) error {
	for !t.Done() && t.Epoch() < until {
		start := time.Now()
		if _, err := t.Step(); err != nil {
			return err
		}
		if after != nil {
			if err := after(t, time.Since(start)); err != nil {
				return err
			}
		}
	}
	return nil
}

// TrainSelected trains t to its last epoch and returns its test accuracy
// at the epoch of best validation accuracy (the first such epoch): model
// selection on the graph's validation nodes, which the test nodes never
// see. Without validation nodes it is the test accuracy at the last epoch.
func TrainSelected(t *pdn.Trainer) (float64, error) {
	var s pdn.Snapshot
	best, test, validates := math.Inf(-1), math.NaN(), true
	err := Train(t, math.MaxInt, func(t *pdn.Trainer, _ time.Duration) error {
		if !validates {
			return nil // no validation nodes: nothing to read before the end
		}
		t.EvaluateInto(&s)
		validates = !math.IsNaN(s.ValAcc)
		if s.ValAcc > best {
			best, test = s.ValAcc, s.TestAcc
		}
		return nil
	})
	if err != nil {
		return math.NaN(), err
	}
	if !validates {
		test = t.Evaluate().TestAcc
	}
	return test, nil
}

// TrainAll trains e's model on g for all of e's epochs (with the restart
// remedy first, if e asks for it; see pdn.Restarts).
func TrainAll(g *datasets.Graph, e experiment.Experiment) (*pdn.Trainer, error) {
	t, err := pdn.NewTrainer(g, e)
	if err != nil {
		return nil, err
	}
	return t, Train(t, math.MaxInt, nil)
}

// StateMeans returns the mean weight w of the edges of an XOR graph (edge
// features: one 0/1 per layer) in each of xorstate.States; NaN for a state
// that no edge is in.
func StateMeans(g *datasets.Graph, w []float64) [4]float64 {
	var sum, n [4]float64
	for e := range g.Src {
		s := stateOf(g, e)
		sum[s] += w[e]
		n[s]++
	}
	for i := range sum {
		sum[i] /= n[i]
	}
	return sum
}

// stateOf is the index in xorstate.States of edge e of an XOR graph.
func stateOf(g *datasets.Graph, e int) int { return int(g.EdgeX[2*e])*2 + int(g.EdgeX[2*e+1]) }

// FoundXOR reports whether weights by state follow XOR: the edges of each
// one-layer state weigh at least three times those of either other state.
func FoundXOR(alpha [4]float64) bool {
	return min(alpha[1], alpha[2]) >= 3*max(alpha[0], alpha[3])
}

// Pathfinder is a trained model's pathfinder as a function of one edge's
// features (pdn.Trainer.Pathfinder).
type Pathfinder interface {
	Pathfinder(z []float64) (hidden []float64, weight float64, ok bool)
}

// Surface samples the pathfinder of t as a function of an XOR edge's two
// layers, α(a, b), on an n×n grid over the unit square: entry j·n+i is
// α(i/(n−1), j/(n−1)). ok is false for a model without a pathfinder over
// two edge features (GCN: every edge weighs the same).
func Surface(t Pathfinder, n int) (alpha []float64, ok bool) {
	alpha = make([]float64, n*n)
	z := make([]float64, 2)
	for j := range n {
		for i := range n {
			z[0], z[1] = float64(i)/float64(n-1), float64(j)/float64(n-1)
			_, w, ok := t.Pathfinder(z)
			if !ok {
				return nil, false
			}
			alpha[j*n+i] = w
		}
	}
	return alpha, true
}

// Table3 returns, for each of xorstate.States, the activations of the
// last hidden layer of t's pathfinder (nil for a linear one) and the weight
// it gives the state, as Table 3 sets them by hand (xorstate.HandSet). ok
// is false without a pathfinder over two edge features.
func Table3(t Pathfinder) (hidden [4][]float64, alpha [4]float64, ok bool) {
	for i, z := range xorstate.States {
		h, w, ok := t.Pathfinder([]float64{z.A, z.B})
		if !ok {
			return hidden, alpha, false
		}
		hidden[i], alpha[i] = h, w
	}
	return hidden, alpha, true
}

// StateShares returns the share of g's edges in each of xorstate.States.
func StateShares(g *datasets.Graph) [4]float64 {
	var n [4]float64
	for e := range g.Src {
		n[stateOf(g, e)]++
	}
	for i := range n {
		n[i] /= float64(max(g.E(), 1))
	}
	return n
}

// Degrees returns each node's degree in g.
func Degrees(g *datasets.Graph) []int {
	deg := make([]int, g.N)
	for k := range g.Src {
		deg[g.Src[k]]++
		deg[g.Dst[k]]++
	}
	return deg
}

// DegreeBin is the mean weight of the directed edges whose receiving node
// has a degree in [2^Log2, 2^(Log2+1)).
type DegreeBin struct {
	Log2    int
	Entries int
	Mean    float64
}

// BinByDegree bins directed edge weights (edge i points to node to[i] and
// weighs w[i]) by the receiving node's degree, in powers of two, and
// returns the bins that hold any edge, lowest degree first. GAT's softmax
// gives a node's incoming edges weights that sum to one, so their mean is
// 1/degree; PDN's pathfinder is bound to no such sum.
func BinByDegree(deg []int, to []int32, w []float64) []DegreeBin {
	var sums [64]float64
	var counts [64]int
	for i, node := range to {
		b := degreeBin(deg[node])
		sums[b] += w[i]
		counts[b]++
	}
	var out []DegreeBin
	for b, n := range counts {
		if n > 0 {
			out = append(out, DegreeBin{Log2: b, Entries: n, Mean: sums[b] / float64(n)})
		}
	}
	return out
}

// degreeBin is ⌊log₂ d⌋ for a degree d (0 for 0), the bin BinByDegree
// puts an edge in: the length of d in bits, less one, which is exact where
// math.Log2 rounds, and costs no logarithm per edge of every snapshot.
func degreeBin(d int) int { return bits.Len(uint(max(d, 1))) - 1 }

// FiguresOf are the figures of t, trained on g, that the claims read
// (experiment.Claim): the same numbers the worker's snapshots carry to the
// page.
func FiguresOf(g *datasets.Graph, t *pdn.Trainer) experiment.Figures {
	s := t.Evaluate()
	e := t.Experiment()
	f := experiment.Figures{Epoch: t.Epoch(), Epochs: e.Train.Epochs, TestAcc: s.TestAcc,
		WIntra: s.WIntra, WInter: s.WInter, Inputs: s.Inputs, Hops: s.Hops, InputNames: g.InputNames(),
		InputHomophily: s.InputHomophily, LearnedHomophily: s.LearnedHomophily}
	sp := SpreadOf(g, e.Model.Kind, s.Weights)
	f.IntraDeciles, f.InterDeciles, f.Saturated = sp.Intra, sp.Inter, sp.Saturated
	if e.Data.Graph == experiment.GraphXOR {
		f.XOR = true
		if len(s.Weights) == g.E() {
			f.XORFound = FoundXOR(StateMeans(g, s.Weights))
		}
	}
	if e.Data.Graph == experiment.GraphMultiplex {
		for _, l := range Layers(g, WeightsOf(e.Model.Kind, s.Weights)) {
			f.LayerWithin, f.LayerWeights = append(f.LayerWithin, l.Within), append(f.LayerWeights, l.Weight)
			f.LayerNames = append(f.LayerNames, l.Name)
		}
	}
	f.EdgeSeparation = Separation(g, t, e.Data.Seed)
	if to, w := t.DirectedWeights(); to != nil {
		for _, b := range BinByDegree(Degrees(g), to, w) {
			f.DegreeMeans = append(f.DegreeMeans, b.Mean)
		}
	}
	return f
}
