package datasets

import (
	"math"

	"pdnexplorer/experiment"
)

// Table4 is the paper's Table 4 (pdn-www21, tab:accuracy): mean test
// accuracy over 10 seeded 100-shot splits, by the paper's column
// (PaperColumns) and model, for the models this project has.
var Table4 = map[string]map[string]float64{
	"citeseer": {experiment.Cheb: 0.742, experiment.SAGE: 0.706, experiment.DeepWalk: 0.523, experiment.MLP: 0.706, experiment.GCN: 0.767, experiment.GAT: 0.748, experiment.SGC: 0.699,
		experiment.ClusterGCN: 0.708, experiment.PDN: 0.764, experiment.PDNEdgeConv: 0.711, experiment.PDNMultiScale: 0.740},
	"cora": {experiment.Cheb: 0.855, experiment.SAGE: 0.84, experiment.DeepWalk: 0.762, experiment.MLP: 0.690, experiment.GCN: 0.861, experiment.GAT: 0.830, experiment.SGC: 0.850,
		experiment.ClusterGCN: 0.836, experiment.PDN: 0.868, experiment.PDNEdgeConv: 0.864, experiment.PDNMultiScale: 0.866},
	"pubmed": {experiment.Cheb: 0.818, experiment.SAGE: 0.803, experiment.DeepWalk: 0.704, experiment.MLP: 0.783, experiment.GCN: 0.822, experiment.GAT: 0.818, experiment.SGC: 0.796,
		experiment.ClusterGCN: 0.819, experiment.PDN: 0.835, experiment.PDNEdgeConv: 0.833, experiment.PDNMultiScale: 0.836},
	"facebook": {experiment.Cheb: 0.838, experiment.SAGE: 0.846, experiment.DeepWalk: 0.531, experiment.MLP: 0.761, experiment.GCN: 0.854, experiment.GAT: 0.839, experiment.SGC: 0.762,
		experiment.ClusterGCN: 0.817, experiment.PDN: 0.875, experiment.PDNEdgeConv: 0.863, experiment.PDNMultiScale: 0.793},
	"deezer": {experiment.Cheb: 0.564, experiment.SAGE: 0.554, experiment.DeepWalk: 0.510, experiment.MLP: 0.565, experiment.GCN: 0.545, experiment.GAT: 0.532, experiment.SGC: 0.536,
		experiment.ClusterGCN: 0.558, experiment.PDN: 0.584, experiment.PDNEdgeConv: 0.548, experiment.PDNMultiScale: 0.568},
}

// table4Embeddings are Table 4's node embeddings (pdn-www21,
// tab:accuracy), by column and kind, in the paper's order: Table4 holds
// them too, and Table4Models each whose kind is a model of the table.
var table4Embeddings = map[string]map[string]float64{
	"citeseer": {experiment.LINE: 0.47, experiment.Walklets: 0.513, experiment.GraRep: 0.421, experiment.HOPE: 0.397, experiment.NetMF: 0.446, experiment.AANE: 0.691, experiment.ASNE: 0.589, experiment.MUSAE: 0.636, experiment.TADW: 0.657, experiment.BANE: 0.566, experiment.TENE: 0.658, experiment.FEATHER: 0.649},
	"cora":     {experiment.LINE: 0.686, experiment.Walklets: 0.735, experiment.GraRep: 0.634, experiment.HOPE: 0.717, experiment.NetMF: 0.707, experiment.AANE: 0.76, experiment.ASNE: 0.758, experiment.MUSAE: 0.758, experiment.TADW: 0.644, experiment.BANE: 0.743, experiment.TENE: 0.662, experiment.FEATHER: 0.805},
	"pubmed":   {experiment.LINE: 0.675, experiment.Walklets: 0.675, experiment.GraRep: 0.653, experiment.HOPE: 0.561, experiment.NetMF: 0.71, experiment.AANE: 0.801, experiment.ASNE: 0.738, experiment.MUSAE: 0.784, experiment.TADW: 0.765, experiment.BANE: 0.729, experiment.TENE: 0.775, experiment.FEATHER: 0.769},
	"facebook": {experiment.LINE: 0.762, experiment.Walklets: 0.819, experiment.GraRep: 0.705, experiment.HOPE: 0.593, experiment.NetMF: 0.756, experiment.AANE: 0.652, experiment.ASNE: 0.636, experiment.MUSAE: 0.822, experiment.TADW: 0.536, experiment.BANE: 0.648, experiment.TENE: 0.598, experiment.FEATHER: 0.854},
	"deezer":   {experiment.LINE: 0.503, experiment.Walklets: 0.511, experiment.GraRep: 0.507, experiment.HOPE: 0.508, experiment.NetMF: 0.512, experiment.AANE: 0.621, experiment.ASNE: 0.608, experiment.MUSAE: 0.563, experiment.TADW: 0.558, experiment.BANE: 0.517, experiment.TENE: 0.593, experiment.FEATHER: 0.539},
}

// Table4Models are Table 4's rows the model table has, in the paper's
// order: what pdn table4 trains by default.
var Table4Models = trainedRows()

// table4Order is Table 4's rows in the paper's order: the node
// embeddings, then the MLP and the graph neural networks, then PDN and
// its variants.
var table4Order = []string{experiment.LINE, experiment.DeepWalk, experiment.Walklets, experiment.GraRep, experiment.HOPE, experiment.NetMF,
	experiment.AANE, experiment.ASNE, experiment.MUSAE, experiment.TADW, experiment.BANE, experiment.TENE, experiment.FEATHER,
	experiment.MLP, experiment.Cheb, experiment.GCN, experiment.GAT, experiment.SGC, experiment.ClusterGCN, experiment.SAGE,
	experiment.PDN, experiment.PDNEdgeConv, experiment.PDNMultiScale}

// trainedRows are the rows of Table 4 the model table has, in the paper's
// order.
func trainedRows() []string {
	var out []string
	for _, kind := range table4Order {
		if _, ok := experiment.ModelNamed(kind); ok {
			out = append(out, kind)
		}
	}
	return out
}

func init() {
	for col, row := range table4Embeddings {
		for kind, acc := range row {
			Table4[col][kind] = acc
		}
	}
}

// PaperGraph is one column of Table 4: its key in Table4, the name the
// paper gives it, and its shape as the paper's Appendix (tab:desriptives)
// and the data's publishers state it, by which a graph read from files is
// recognised whatever its folder is called.
type PaperGraph struct {
	Key, Name      string
	Nodes, Classes int
}

// PaperColumns are Table 4's columns. Cora and Citeseer ship with the
// explorer and are known by name too.
var PaperColumns = []PaperGraph{
	{Key: "cora", Name: "Cora", Nodes: 2708, Classes: 7},
	{Key: "citeseer", Name: "Citeseer", Nodes: 3327, Classes: 6},
	{Key: "pubmed", Name: "Pubmed", Nodes: 19717, Classes: 3},
	{Key: "facebook", Name: "Facebook Page-Page", Nodes: 22470, Classes: 4},
	{Key: "deezer", Name: "Deezer Europe", Nodes: 28281, Classes: 2},
}

// PaperColumn is the column of Table 4 that g is the graph of, found by
// its number of nodes and classes (the MUSAE folder of Facebook Page-Page
// is Table 4's "Facebook Pages" under any name); false for a graph the
// paper did not train on.
func PaperColumn(g *Graph) (PaperGraph, bool) {
	for _, p := range PaperColumns {
		if g.N == p.Nodes && g.C == p.Classes {
			return p, true
		}
	}
	return PaperGraph{}, false
}

// Mark says how a cell of ours stands against the paper's number.
type Mark string

// The marks (PaperMark).
const (
	// MarkNoPaper: the paper has no number for this model on this graph.
	MarkNoPaper Mark = ""
	// MarkWithin: the paper's number is within 2 standard deviations of
	// our mean.
	MarkWithin Mark = "within"
	// MarkBeyond: the paper's number is more than 2 standard deviations
	// from our mean.
	MarkBeyond Mark = "beyond"
	// MarkUnknown: fewer than 2 results, so no standard deviation to
	// measure the distance in; never guessed.
	MarkUnknown Mark = "unknown"
)

// MarkSDs is how many of our standard deviations a mean may be from the
// paper's number before it is marked.
const MarkSDs = 2

// PaperMark marks a cell: the mean and sample standard deviation of n
// results, against the paper's number (NaN: none). The standard deviation
// is ours, over the reps: the paper's own spread is not what is tested.
func PaperMark(n int, mean, sd, paper float64) Mark {
	switch {
	case math.IsNaN(paper):
		return MarkNoPaper
	case n < 2 || math.IsNaN(mean) || math.IsNaN(sd):
		return MarkUnknown
	case math.Abs(mean-paper) > MarkSDs*sd:
		return MarkBeyond
	}
	return MarkWithin
}
