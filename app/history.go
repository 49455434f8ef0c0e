package app

import (
	"math"

	"pdnexplorer/edgekind"
	"pdnexplorer/wasm/protocol"
)

// history holds one point per snapshot of a run: what its curves draw and
// its history file holds.
type history struct {
	epoch, loss, train, test, share []float64
	learned                         []float64   // the learned homophily per snapshot
	hops                            [][]float64 // the multi-scale PDN's P per snapshot
	layers                          [][]float64 // a multiplex graph's mean weight by layer per snapshot
}

func (h *history) reset() { *h = history{} }

// drop removes the last point.
func (h *history) drop() {
	n := len(h.epoch) - 1
	h.epoch, h.loss, h.train, h.test, h.share, h.hops, h.learned, h.layers = h.epoch[:n], h.loss[:n], h.train[:n], h.test[:n], h.share[:n], h.hops[:n], h.learned[:n], h.layers[:n]
}

// until is the history up to epoch, for a view rewound to it.
func (h *history) until(epoch int) *history {
	n := 0
	for n < len(h.epoch) && h.epoch[n] <= float64(epoch) {
		n++
	}
	return &history{epoch: h.epoch[:n], loss: h.loss[:n], train: h.train[:n], test: h.test[:n], share: h.share[:n], hops: h.hops[:n], learned: h.learned[:n], layers: h.layers[:n]}
}

// add adds a snapshot's point, on graph g, to the curves;
// a snapshot of an epoch not after the last (a reset, a new model) starts
// them again.
func (h *history) add(s protocol.Snapshot, g *protocol.Graph) {
	if n := len(h.epoch); n > 0 && float64(s.Epoch) < h.epoch[n-1] {
		h.reset()
	} else if n > 0 && float64(s.Epoch) == h.epoch[n-1] {
		h.drop() // the same epoch again (a pause): its newer snapshot stands
	}
	h.epoch = append(h.epoch, float64(s.Epoch))
	h.loss = append(h.loss, float64(s.Loss))
	h.train = append(h.train, float64(s.TrainAcc))
	h.test = append(h.test, float64(s.TestAcc))
	h.share = append(h.share, interShare(s, g))
	h.hops = append(h.hops, append([]float64(nil), s.Hops...))
	h.learned = append(h.learned, float64(s.LearnedHomophily))
	var layers []float64
	for _, l := range s.Layers {
		layers = append(layers, float64(l.Weight))
	}
	h.layers = append(h.layers, layers)
}

// interShare is the share of the total learned weight that sits on
// inter-class edges, from the engine's mean weights on each kind (the
// snapshot's WIntra and WInter) and the graph's count of each; NaN without
// weights or edge kinds.
func interShare(s protocol.Snapshot, g *protocol.Graph) float64 {
	if g == nil || s.Weights == 0 || len(g.Kinds) != s.Weights {
		return math.NaN()
	}
	var intra, inter float64
	for _, k := range g.Kinds {
		switch k {
		case edgekind.Intra:
			intra++
		case edgekind.Inter:
			inter++
		}
	}
	if inter == 0 {
		return 0
	}
	onInter := inter * float64(s.WInter)
	total := onInter
	if intra > 0 {
		total += intra * float64(s.WIntra)
	}
	if total == 0 || math.IsNaN(total) {
		return math.NaN()
	}
	return onInter / total
}
