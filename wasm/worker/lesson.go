package main

import (
	"math"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/lessons"
	"pdnexplorer/pdn"
	"pdnexplorer/wasm/protocol"
)

// surfaceSize is the side of the grid the XOR lab's α(a, b) is sampled on.
const surfaceSize = 21

// addLesson adds to a snapshot what the labs read of the session's graph:
// the XOR graph's edge states and pathfinder, and on every graph the
// weights by degree (lessons.FiguresOf reads them on every graph too: the
// degree claim is checked on each family of graphs it names).
func (s *session) addLesson(ps *protocol.Snapshot) {
	if s.exp.Data.Graph == experiment.GraphXOR {
		ps.XOR = xorView(s.g, s.exp.Model.Kind, s.out.snap.Weights, s.tr)
	}
	if s.exp.Data.Graph == experiment.GraphMultiplex {
		ps.Layers = layersView(s.g, s.exp.Model.Kind, s.out.snap.Weights)
	}
	if s.deg == nil {
		s.deg = lessons.Degrees(s.g)
	}
	ps.Degree = degreeView(s.deg, s.tr)
	// Figure 4's number once the run has trained, for a run on screen: a
	// quiet run (a pool's) is read for its test accuracy alone, and a
	// sweep's hundreds of runs would each pay for it.
	ps.Separation = protocol.Num(math.NaN())
	if s.tr.Done() && !s.view.quiet {
		if s.sepOf != s.tr || s.sepG != s.g || s.sepAt != s.tr.Epoch() {
			s.sep = lessons.Separation(s.g, s.tr, s.exp.Data.Seed)
			s.sepOf, s.sepG, s.sepAt = s.tr, s.g, s.tr.Epoch()
		}
		ps.Separation = protocol.Num(s.sep)
	}
}

// xorView is protocol.XOR for weights w learned by a model of kind on the
// XOR graph g. A model that passes messages without learning edge weights
// (GCN) weighs every edge 1.
func xorView(g *datasets.Graph, kind string, w []float64, tr lessons.Pathfinder) *protocol.XOR {
	v := &protocol.XOR{}
	share := lessons.StateShares(g)
	var mean [4]float64
	switch {
	case len(w) == g.E():
		mean = lessons.StateMeans(g, w)
	case pdn.UsesGraph(kind):
		mean = [4]float64{1, 1, 1, 1}
	default:
		mean = [4]float64{math.NaN(), math.NaN(), math.NaN(), math.NaN()}
	}
	for i := range mean {
		v.Mean[i], v.Share[i] = protocol.Num(mean[i]), protocol.Num(share[i])
	}
	v.Found = lessons.FoundXOR(mean)
	hidden, alpha, ok := lessons.Table3(tr)
	surf, ok2 := lessons.Surface(tr, surfaceSize)
	if !ok || !ok2 {
		return v
	}
	for i := range alpha {
		v.Alpha = append(v.Alpha, protocol.Num(alpha[i]))
		v.Hidden = append(v.Hidden, nums(hidden[i]))
	}
	v.Surface, v.Size = nums(surf), surfaceSize
	return v
}

// degreeView bins the weights each node gives its edges by its degree.
func degreeView(deg []int, tr trainer) []protocol.DegreeBin {
	to, w := tr.DirectedWeights()
	if to == nil {
		return nil
	}
	var out []protocol.DegreeBin
	for _, b := range lessons.BinByDegree(deg, to, w) {
		out = append(out, protocol.DegreeBin{MinDegree: 1 << b.Log2, Entries: b.Entries, Mean: protocol.Num(b.Mean)})
	}
	return out
}

// layersView is protocol.Layers for weights w learned by a model of kind
// on the multiplex graph g, as pdn multiplex reads them.
func layersView(g *datasets.Graph, kind string, w []float64) []protocol.Layer {
	var out []protocol.Layer
	for _, l := range lessons.Layers(g, lessons.WeightsOf(kind, w)) {
		out = append(out, protocol.Layer{Name: l.Name, Edges: l.Edges, Within: protocol.Num(l.Within), Weight: protocol.Num(l.Weight)})
	}
	return out
}
