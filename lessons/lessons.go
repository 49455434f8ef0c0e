// Package lessons holds the computations of the paper's lessons that both
// the CLI (cmd/pdn) and the browser's engine worker run, so that the two
// give the same numbers: the one loop that trains until done, the edge
// states of the XOR proposition (§4.1.1) and the degree binning of the
// diminishing-weight argument (§4.2).
//
// It knows nothing of flags, files or the browser.
package lessons

import (
	"math"
	"time"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/pdn"
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

// TrainAll trains e's model on g for all of e's epochs (see NewTrainer).
func TrainAll(g *datasets.Graph, e experiment.Experiment) (*pdn.Trainer, error) {
	t, err := NewTrainer(g, e)
	if err != nil {
		return nil, err
	}
	return t, Train(t, math.MaxInt, nil)
}

// NewTrainer is pdn.NewTrainer that honours e.Model.Restarts: with
// restarts, it returns the initialisation kept (see Restarts), already
// trained its restart epochs.
func NewTrainer(g *datasets.Graph, e experiment.Experiment) (*pdn.Trainer, error) {
	if e.Model.Restarts == 0 {
		return pdn.NewTrainer(g, e)
	}
	r := NewRestarts(g, e)
	for !r.Done() {
		if err := r.Step(); err != nil {
			return nil, err
		}
	}
	return r.Best(), nil
}

// Restarts is the remedy for a small pathfinder that gets stuck (§4.1.1's
// 2 neurons, whose ReLUs can all start dead on the edge states that
// matter): train e.Model.Restarts initialisations for e.Model.RestartEpochs
// each, keep the one whose training loss (read without dropout, which
// would make it noisy) is lowest, and train that one on. Restart r has
// weight seed 1000·s + r for the experiment's weight seed s.
//
// It advances one epoch per Step, so that a caller with a frame to keep
// (the browser's worker) can share out the work.
type Restarts struct {
	g *datasets.Graph
	e experiment.Experiment
	// Tried holds each initialisation's seed and its training loss after
	// its epochs, NaN until it has trained.
	Tried []Restart
	// Chosen is the index in Tried of the one kept, -1 before all trained.
	Chosen int

	cur, best *pdn.Trainer
	epochs    int // each one's
}

// Restart is one initialisation tried.
type Restart struct {
	Seed uint64
	Loss float64
}

// NewRestarts plans e.Model.Restarts initialisations (at least one) of
// e's model on g.
func NewRestarts(g *datasets.Graph, e experiment.Experiment) *Restarts {
	r := &Restarts{g: g, e: e, Chosen: -1, epochs: max(1, min(e.Model.RestartEpochs, e.Train.Epochs))}
	for i := range max(e.Model.Restarts, 1) {
		r.Tried = append(r.Tried, Restart{Seed: 1000*e.Train.Seed + uint64(i), Loss: math.NaN()})
	}
	return r
}

// Done reports whether every initialisation has trained and one is kept.
func (r *Restarts) Done() bool { return r.Chosen >= 0 }

// Share is the part of the restarts' epochs done, in [0, 1].
func (r *Restarts) Share() float64 {
	if r.Done() {
		return 1
	}
	done := 0
	for _, t := range r.Tried {
		if !math.IsNaN(t.Loss) {
			done += r.epochs
		}
	}
	if r.cur != nil {
		done += r.cur.Epoch()
	}
	return float64(done) / float64(r.epochs*len(r.Tried))
}

// Step trains the current initialisation one epoch; after its last, it
// reads its loss and moves to the next, and after the last one keeps the
// best. An initialisation that diverges ends with an infinite loss.
func (r *Restarts) Step() error {
	if r.Done() {
		return nil
	}
	i := r.next()
	if r.cur == nil {
		e := r.e
		e.Train.Seed = r.Tried[i].Seed
		t, err := pdn.NewTrainer(r.g, e)
		if err != nil {
			return err
		}
		r.cur = t
	}
	_, err := r.cur.Step()
	if err == nil && r.cur.Epoch() < r.epochs && !r.cur.Done() {
		return nil
	}
	r.Tried[i].Loss = math.Inf(1) // a diverged initialisation loses
	if err == nil {
		r.Tried[i].Loss = r.cur.Evaluate().TrainLoss
	}
	if r.best == nil || r.Tried[i].Loss < r.Tried[r.bestIndex()].Loss {
		r.best = r.cur
	}
	r.cur = nil
	if i == len(r.Tried)-1 {
		r.Chosen = r.bestIndex()
	}
	return nil
}

// next is the index of the initialisation in training or next to train.
func (r *Restarts) next() int {
	for i, t := range r.Tried {
		if math.IsNaN(t.Loss) {
			return i
		}
	}
	return len(r.Tried) - 1
}

// bestIndex is the index of the lowest loss so far.
func (r *Restarts) bestIndex() int {
	b := -1
	for i, t := range r.Tried {
		if !math.IsNaN(t.Loss) && (b < 0 || t.Loss < r.Tried[b].Loss) {
			b = i
		}
	}
	return b
}

// Best returns the kept trainer, ready to train on; nil before Done.
func (r *Restarts) Best() *pdn.Trainer {
	if !r.Done() {
		return nil
	}
	return r.best
}

// XORStates are the four states of an edge of the XOR graph: whether it
// lies in layer A′ and in layer A″, as (a, b), in Table 3's order, the
// order StateMeans returns them in.
var XORStates = [4][2]float64{{0, 0}, {0, 1}, {1, 0}, {1, 1}}

// StateMeans returns the mean weight w of the edges of an XOR graph (edge
// features: one 0/1 per layer) in each of XORStates; NaN for a state that
// no edge is in.
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

// stateOf is the index in XORStates of edge e of an XOR graph.
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

// Table3 returns, for each of XORStates, the activations of the last
// hidden layer of t's pathfinder (nil for a linear one) and the weight it
// gives the state, as Table 3 sets them by hand: h1 = ReLU(a+b),
// h2 = ReLU(a+b−1), α = h1 − 2·h2. ok is false without a pathfinder over
// two edge features.
func Table3(t Pathfinder) (hidden [4][]float64, alpha [4]float64, ok bool) {
	for i, z := range XORStates {
		h, w, ok := t.Pathfinder(z[:])
		if !ok {
			return hidden, alpha, false
		}
		hidden[i], alpha[i] = h, w
	}
	return hidden, alpha, true
}

// HandSet is Table 3's hand-set 2-neuron solution for an XOR state (a, b):
// h1 = ReLU(a+b), h2 = ReLU(a+b−1), α = h1 − 2·h2.
func HandSet(a, b float64) (h1, h2, alpha float64) {
	h1, h2 = math.Max(a+b, 0), math.Max(a+b-1, 0)
	return h1, h2, h1 - 2*h2
}

// StateShares returns the share of g's edges in each of XORStates.
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
		b := int(math.Log2(float64(max(deg[node], 1))))
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
