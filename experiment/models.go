package experiment

import "slices"

// Model kinds: PDN and its variants (§3, §6), and the paper's baselines
// (Table 4).
const (
	PDN           = "pdn"            // pathfinder MLP over edge features, then a GCN
	PDNLinear     = "pdn-linear"     // pathfinder neuron with softmax attention over the inputs
	PDNEdgeConv   = "pdn-edgeconv"   // edge scores learned from node features (§6.1)
	PDNMultiScale = "pdn-multiscale" // softmax-weighted powers of Â (§6.2)
	GCN           = "gcn"
	MLP           = "mlp"
	GAT           = "gat"
	APPNP         = "appnp"
	SGC           = "sgc"
	ClusterGCN    = "clustergcn"
	DeepWalk      = "deepwalk"
	SAGE          = "sage" // GraphSAGE, mean aggregator
	Cheb          = "cheb" // Chebyshev spectral convolutions
)

// Table 4's node embeddings, learned without labels and then classified
// by ℓ1-regularised logistic regression (the paper's Appendix D), at Karate
// Club's defaults: proximity preserving, then attributed. A kind is a
// model of the table once its row is in Models.
const (
	LINE     = "line" // LINE₂, second-order proximity
	Walklets = "walklets"
	GraRep   = "grarep"
	HOPE     = "hope"
	NetMF    = "netmf"
	AANE     = "aane"
	ASNE     = "asne"
	MUSAE    = "musae"
	TADW     = "tadw"
	BANE     = "bane"
	TENE     = "tene"
	FEATHER  = "feather"
)

// The multiplex figure's supervised baselines (§5.2): they read a
// multiplex graph's edge features as its layers (ModelKind.Layers).
const (
	MGCN = "mgcn" // Multi-GCN: the layers merged into one graph, then a GCN
	DMGI = "dmgi" // a GCN encoder a layer, infomax and a consensus embedding
)

// The multiplex figure's unsupervised baselines (§5.2), each an embedding
// of a multiplex graph's layers learned without labels, then classified
// as Table 4's are.
const (
	M2V  = "m2v" // mvn2vec-reg
	MELL = "mell"
	MNE  = "mne"
)

// ModelKind is one row of the model table: what a kind of model reads
// and does, for every place that asks (the engine, the state table's
// rows, the page's menus and questions, the export, the tests). A new
// kind is a row here and a file in pdn that registers its network.
type ModelKind struct {
	Name string // as a link names it: model=NAME
	// Group is the group menus list it in (ModelGroups).
	Group string
	// Graph says it passes messages along the graph's edges (all but the
	// MLP).
	Graph bool
	// EdgeFeatures says it reads the edges' own features (the PDN's two
	// pathfinders; EdgeConv learns its weights from the nodes'). One that
	// does not trains to the same bits on graphs that differ in nothing
	// else, which lets a sweep over the edge features train it once a
	// rep (RunKey).
	EdgeFeatures bool
	// Layers says it reads a multiplex graph's edge features as its
	// layers (column l non-zero where layer l holds the edge), each a
	// graph of its own (the multiplex figure's baselines: an embedding or
	// an encoder a layer). The engine refuses a graph whose edge features
	// are not layers (datasets.Graph.NotLayers).
	Layers bool
	// LearnsEdges says it learns one weight per edge (the pathfinder and
	// its variants), which the page draws as the learned graph.
	LearnsEdges bool
	// Attends says it learns a weight per edge from its nodes (GAT's
	// attention), not one the page draws as a learned graph.
	Attends bool
	// Attributed says it embeds the nodes' features with the graph (Table
	// 4's attributed embeddings): it has nothing to embed on a graph
	// without any, which the engine refuses. (The readers give a graph
	// without features its degrees, datasets.DegreeFeatures.)
	Attributed bool
	// Rows are the state table's model rows it reads, beyond those every
	// model reads (restarts, the training rows).
	Rows []string
	// PyG is the PyTorch Geometric layer its export builds; "" for a
	// model PyG has no one layer for.
	PyG string
	// PyGWide says its PyG layer sends each node's input features along
	// every edge before projecting them (ChebConv, SAGEConv, SGConv, over
	// an edge index): PyG's message tensor is then messages × input
	// features, gigabytes on a graph of thousands of features, where our
	// engine projects first. pdn table4 -pyg costs it before running it.
	PyGWide bool
	// Trace says the node trace follows its update of one node.
	Trace bool
	// SetupReadsEdges says its set-up reads the edges (DeepWalk's walks,
	// ClusterGCN's partition): after an edit it starts over, where the
	// others carry on from the epoch they reached.
	SetupReadsEdges bool
	// TakesWeights says it propagates over a fixed graph whose edges may
	// carry weights: it can take a PDN's learned graph (graph-from=pdn).
	TakesWeights bool
	// Fixed are state rows it does not read because it fixes what they
	// set itself, at these values: Chebyshev's K, SGC's and APPNP's
	// steps are theirs, not the multi-scale PDN's hops. A message that
	// refuses the row says so; pdn's tests hold the values to the engine's.
	Fixed map[string]float64
	// Own are the settings its authors, or PyTorch Geometric's example
	// for the citation graphs, train it at, where they differ from the
	// state table's defaults: a link's query, each row one it reads or a
	// training row. "" where it has none of its own (PDN's are this
	// project's recipes). The source is named beside each row.
	Own string
	// OwnRowNormalise says its own settings divide each node's features by
	// their sum first (PyG's NormalizeFeatures, which its citation
	// examples apply to the bag-of-words features).
	OwnRowNormalise bool
	// OwnOn are the recipes (graph families, Recipes) on which it starts
	// from Own in place of the family's rows (ModelRecipeRows): those on
	// whose graphs Own measured better, by half a point or more over the
	// mean of the family's graphs measured (Cora, Citeseer and Facebook
	// Page-Page for bag-of-words; docs/cli.md, "Baselines at their own
	// settings"). Own then names every row of the family's it reads.
	OwnOn []string
}

// The groups of models a menu lists them in, in order: the PDN and its
// variants; graph neural networks and the MLP, trained with the labels;
// node embeddings learned without them, then classified.
const (
	GroupPDN       = "pdn"
	GroupGNN       = "gnn"
	GroupEmbedding = "embedding"
)

// ModelGroup is one group of a menu of models: its name and heading (a
// catalogue key).
type ModelGroup struct{ Name, Heading string }

// ModelGroups are the groups in a menu's order.
var ModelGroups = []ModelGroup{
	{GroupPDN, "Pathfinder Discovery Networks"},
	{GroupGNN, "Graph neural networks and an MLP"},
	{GroupEmbedding, "Node embeddings, then logistic regression"},
}

// Models is the model table, PDN's family first: the order of menus.
var Models = []ModelKind{
	{Name: PDN, Group: GroupPDN, Graph: true, EdgeFeatures: true, LearnsEdges: true, PyG: "GCNConv", Trace: true,
		Rows: []string{"edge-hidden", "edge-init", "self-loop", "hidden", "dropout", "edge-dropout"}},
	{Name: PDNLinear, Group: GroupPDN, Graph: true, EdgeFeatures: true, LearnsEdges: true, PyG: "GCNConv", Trace: true,
		Rows: []string{"self-loop", "hidden", "dropout", "edge-dropout"}},
	{Name: PDNEdgeConv, Group: GroupPDN, Graph: true, LearnsEdges: true, Trace: true, Rows: []string{"self-loop", "hidden", "dropout", "edge-dropout"}},
	{Name: PDNMultiScale, Group: GroupPDN, Graph: true, Rows: []string{"hidden", "dropout", "hops"}},
	// Kipf and Welling (ICLR 2017, §5.2), as PyG's benchmark/citation/gcn.py:
	// 16 hidden units, dropout 0.5, weight decay 5e-4, lr 0.01, features
	// row-normalised.
	{Name: GCN, Group: GroupGNN, Graph: true, PyG: "GCNConv", Trace: true, TakesWeights: true, Rows: []string{"hidden", "dropout"},
		Own: "hidden=16&dropout=0.5&weight-decay=0.0005", OwnRowNormalise: true},
	// Veličković et al. (ICLR 2018, §3.3), as PyG's examples/gat.py: 8
	// heads of 8 (the engine's, GATHeads), dropout 0.6, weight decay 5e-4,
	// lr 0.005, features row-normalised. PyG's attention dropout of 0.6
	// the engine does not have.
	{Name: GAT, Group: GroupGNN, Graph: true, Attends: true, PyG: "GATConv", Trace: true, Rows: []string{"dropout"},
		Own: "dropout=0.6&weight-decay=0.0005&lr=0.005", OwnRowNormalise: true, OwnOn: []string{RecipeBagOfWords}},
	// PyG has no citation example of GraphSAGE, whose authors trained on
	// other graphs: the citation benchmark's common settings (gcn.py's).
	{Name: SAGE, Group: GroupGNN, Graph: true, PyG: "SAGEConv", PyGWide: true, Rows: []string{"hidden", "dropout"},
		Own: "hidden=16&dropout=0.5&weight-decay=0.0005", OwnRowNormalise: true},
	// PyG's benchmark/citation/cheb.py: 16 hidden, dropout 0.5, weight
	// decay 5e-4, lr 0.01, K = 3 (the engine's), features row-normalised.
	{Name: Cheb, Group: GroupGNN, Graph: true, PyG: "ChebConv", PyGWide: true, Rows: []string{"hidden", "dropout"}, Fixed: map[string]float64{"hops": 3},
		Own: "hidden=16&dropout=0.5&weight-decay=0.0005", OwnRowNormalise: true},
	// PyG's benchmark/citation/appnp.py: 64 hidden, dropout 0.5, weight
	// decay 5e-4, lr 0.01, K = 10 (the engine's; its α is 0.2, PyG's 0.1),
	// features row-normalised.
	{Name: APPNP, Group: GroupGNN, Graph: true, PyG: "APPNP", TakesWeights: true, Rows: []string{"hidden", "dropout"}, Fixed: map[string]float64{"hops": 10},
		Own: "hidden=64&dropout=0.5&weight-decay=0.0005", OwnRowNormalise: true},
	// PyG's benchmark/citation/sgc.py: lr 0.1, K = 2 (the engine's),
	// weight decay 5e-4 (its run.sh: 5e-4 on Cora, 0.005 on Citeseer),
	// features as they are.
	{Name: SGC, Group: GroupGNN, Graph: true, PyG: "SGConv", PyGWide: true, TakesWeights: true, Fixed: map[string]float64{"hops": 2},
		Own: "lr=0.1&weight-decay=0.0005"},
	{Name: ClusterGCN, Group: GroupGNN, Graph: true, SetupReadsEdges: true, Rows: []string{"hidden", "dropout"}},
	{Name: DeepWalk, Group: GroupEmbedding, Graph: true, SetupReadsEdges: true},
	// LINE₂ (Tang et al., WWW 2015, second-order proximity) at its
	// authors' code's defaults (Karate Club had none): 5 negatives, a rate
	// of 0.025, a million edge samples; 128 dimensions, as Appendix D.
	{Name: LINE, Group: GroupEmbedding, Graph: true, SetupReadsEdges: true},
	// Walklets (Perozzi et al., ASONAM 2017) at Karate Club's defaults: 10
	// walks of 80 nodes a node, skips 1 to 4, 32 dimensions a skip, one
	// pass at a learning rate of 0.05, gensim's CBOW with 5 negatives.
	{Name: Walklets, Group: GroupEmbedding, Graph: true, SetupReadsEdges: true},
	// Cao et al. (CIKM 2015), at Karate Club's defaults (GraRep, v1.3): 32
	// dimensions for each of 5 orders, the truncated SVDs' 10 power
	// iterations.
	{Name: GraRep, Group: GroupEmbedding, Graph: true, SetupReadsEdges: true},
	// Ou et al. (KDD 2016), at Karate Club's defaults (HOPE, v1.3): 128
	// dimensions, the common-neighbours proximity.
	{Name: HOPE, Group: GroupEmbedding, Graph: true, SetupReadsEdges: true},
	// Qiu et al. (WSDM 2018), at Karate Club's defaults (NetMF, v1.3): 32
	// dimensions, T = 2, b = 1, the truncated SVD's 10 power iterations.
	{Name: NetMF, Group: GroupEmbedding, Graph: true, SetupReadsEdges: true},
	// AANE (Huang et al., SDM 2017), which Karate Club does not have, at its
	// authors' code's defaults (AANE_fun): λ = 0.1, ρ = 5, two ADMM
	// iterations from the adjacency matrix's SVD; 128 dimensions, as
	// Appendix D. It reads the node features, and its set-up the edges.
	{Name: AANE, Group: GroupEmbedding, Graph: true, Attributed: true, SetupReadsEdges: true},
	// ASNE (Liao et al., TKDE 2018) at Karate Club's defaults: a Doc2Vec
	// (PV-DBOW) of 128 dimensions over one document a node, its neighbours
	// and its features, 100 epochs at a rate of 0.05, subsampling at 10⁻⁴.
	// It reads the node features, and its set-up the edges.
	{Name: ASNE, Group: GroupEmbedding, Graph: true, Attributed: true, SetupReadsEdges: true},
	// MUSAE (Rozemberczki et al., Journal of Complex Networks 2021) at
	// Karate Club's defaults: 5 walks of 80 nodes a node, the features and
	// scales 1 to 3 each a Doc2Vec (PV-DBOW) of 32 dimensions, 5 epochs at
	// a rate of 0.05, subsampling at 10⁻⁴. It reads the node features, and
	// its set-up the edges.
	{Name: MUSAE, Group: GroupEmbedding, Graph: true, Attributed: true, SetupReadsEdges: true},
	// TADW (Yang et al., IJCAI 2015) at Karate Club's defaults (TADW,
	// v1.3): 32 dimensions, the node features reduced to 64 by a truncated
	// SVD of 20 power iterations, 10 iterations of gradient descent at a
	// rate of 0.01, λ = 10. It reads the node features, and its set-up the
	// edges.
	{Name: TADW, Group: GroupEmbedding, Graph: true, Attributed: true, SetupReadsEdges: true},
	// BANE (Yang et al., ICDM 2018) at Karate Club's defaults (BANE, v1.3):
	// 32 binary dimensions, the truncated SVD's 20 power iterations, α =
	// 0.3, 20 rounds of 100 sweeps of coordinate descent. It reads the node
	// features, and its set-up the edges.
	{Name: BANE, Group: GroupEmbedding, Graph: true, Attributed: true, SetupReadsEdges: true},
	// TENE (Yang et al., ICPR 2018) at Karate Club's defaults (TENE, v1.3):
	// 32 dimensions each of the structure's and the text's factors, 200
	// iterations of multiplicative updates, α = β = 0.1, the factors held
	// at 10⁻¹⁵ or above. It reads the node features, and its set-up the
	// edges.
	{Name: TENE, Group: GroupEmbedding, Graph: true, Attributed: true, SetupReadsEdges: true},
	// FEATHER-N (Rozemberczki and Sarkar, CIKM 2020) at Karate Club's
	// FeatherNode defaults: the node features, reduced to 64 by a
	// truncated SVD, described by their characteristic functions at 25
	// points over random walks of 1 to 5 steps. It reads the node features
	// (no edge features), and its set-up the edges.
	{Name: FEATHER, Group: GroupEmbedding, Graph: true, Attributed: true, SetupReadsEdges: true},
	// Multi-GCN (Khan and Blumenstock, AAAI 2019): the layers merged by
	// subspace analysis on the Grassmann manifold (Dong et al.), a set-up
	// over the edges, into one weighted graph over the union's edges, then
	// Kipf and Welling's GCN on it, at the state table's GCN rows.
	{Name: MGCN, Group: GroupGNN, Graph: true, EdgeFeatures: true, Layers: true, SetupReadsEdges: true, Rows: []string{"hidden", "dropout"}},
	// DMGI (Park et al., AAAI 2020) with its semi-supervised term, at its
	// authors' code's defaults: a one-layer GCN encoder of 64 dimensions a
	// layer, dropout 0.5, α = 0.001, γ = 0.1, lr 0.0005, weight decay
	// 0.0001 (its patience of 20 is the epochs row's to decide here).
	{Name: DMGI, Group: GroupGNN, Graph: true, EdgeFeatures: true, Layers: true, Rows: []string{"dropout"},
		Own: "dropout=0.5&lr=0.0005&weight-decay=0.0001"},
	// mvn2vec-reg (Shi et al., "mvn2vec: Preservation and Collaboration in
	// Multi-View Network Embedding", 2018): DeepWalk's skip-gram a layer
	// over its own random walks (10 of 40 nodes a node, window 5, 5
	// negatives), 128 dimensions shared among the layers, each node's
	// vectors pulled toward their mean over the layers (γ = 0.1). It reads
	// the layers, and its set-up the edges.
	{Name: M2V, Group: GroupEmbedding, Graph: true, EdgeFeatures: true, Layers: true, SetupReadsEdges: true},
	// MELL (Matsuno and Murata, WWW 2018 companion) at its authors' code's
	// settings: 128 dimensions a layer, 4 negatives a positive pair, λ =
	// 10, β = 1, γ = 1, 500 full-batch steps of Adam at 0.075. It reads the
	// layers, and its set-up the edges.
	{Name: MELL, Group: GroupEmbedding, Graph: true, EdgeFeatures: true, Layers: true, SetupReadsEdges: true},
	// MNE (Zhang et al., IJCAI 2018) at its authors' code's settings:
	// common vectors of 200 dimensions and additional vectors of 10 a
	// layer, 20 walks of 10 nodes a node, a window of 5, 5 negatives, 100
	// passes for the common vectors and 20 for each layer. It reads the
	// layers, and its set-up the edges.
	{Name: MNE, Group: GroupEmbedding, Graph: true, EdgeFeatures: true, Layers: true, SetupReadsEdges: true},
	// No citation example of PyG's: Kipf and Welling's GCN settings.
	{Name: MLP, Group: GroupGNN, PyG: "Linear", Rows: []string{"hidden", "dropout"},
		Own: "hidden=16&dropout=0.5&weight-decay=0.0005", OwnRowNormalise: true},
}

// Kinds lists every model's name, in the table's order.
var Kinds = func() []string {
	out := make([]string, len(Models))
	for i, m := range Models {
		out[i] = m.Name
	}
	return out
}()

// ModelNamed returns the table's row of kind, and whether there is one.
func ModelNamed(kind string) (ModelKind, bool) {
	return rowNamed(Models, func(m ModelKind) string { return m.Name }, kind)
}

// ModelsWhere lists the kinds whose row f holds, in the table's order.
func ModelsWhere(f func(ModelKind) bool) []string {
	var out []string
	for _, m := range Models {
		if f(m) {
			out = append(out, m.Name)
		}
	}
	return out
}

// modelsReading lists the kinds that read the state table's row name.
// modelsRestarting are the models the restart remedy serves: every one
// whose weights start at random but the embeddings, whose classifier starts
// at zero and whose embedding another seed would make again (minutes, for
// a choice of starting weights it does not have).
func modelsRestarting() []string {
	return ModelsWhere(func(m ModelKind) bool { return m.Group != GroupEmbedding })
}

func modelsReading(name string) []string {
	return ModelsWhere(func(m ModelKind) bool { return slices.Contains(m.Rows, name) })
}

// ReadsEdgeFeatures reports whether the model of kind reads the edges' own
// features (ModelKind.EdgeFeatures). The engine checks a graph against it,
// and its test trains every model to hold it to the truth.
func ReadsEdgeFeatures(kind string) bool { m, _ := ModelNamed(kind); return m.EdgeFeatures }

// ReadsLayers reports whether the model of kind reads the edge features
// as a multiplex graph's layers (ModelKind.Layers).
func ReadsLayers(kind string) bool { m, _ := ModelNamed(kind); return m.Layers }

// Attributed reports whether the model of kind embeds the nodes'
// features (ModelKind.Attributed).
func Attributed(kind string) bool { m, _ := ModelNamed(kind); return m.Attributed }

// UsesGraph reports whether the model of kind passes messages along the
// graph's edges; false for a kind that is none.
func UsesGraph(kind string) bool { m, _ := ModelNamed(kind); return m.Graph }

// LearnsEdges reports whether the model of kind learns one weight per
// edge; false for a kind that is none.
func LearnsEdges(kind string) bool { m, _ := ModelNamed(kind); return m.LearnsEdges }

// WeighsEdges reports whether the model of kind learns how much each edge
// carries, by a weight per edge or by attention; false for a kind that is
// none and for one that takes the graph's weights as they are (GCN).
func WeighsEdges(kind string) bool {
	m, _ := ModelNamed(kind)
	return m.LearnsEdges || m.Attends
}
