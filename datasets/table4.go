package datasets

import "pdnexplorer/experiment"

// Table4 is the paper's Table 4: mean test accuracy over 10 seeded 100-shot
// splits, by graph and model, for the models this project has.
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

// Table4Models are the PDN variants and baselines pdn table4 trains by
// default, in the paper's order.
var Table4Models = []string{experiment.PDN, experiment.PDNEdgeConv, experiment.PDNMultiScale, experiment.Cheb, experiment.GCN, experiment.GAT, experiment.SAGE, experiment.MLP}
