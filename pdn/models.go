package pdn

import (
	"math/rand/v2"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
)

// model is one row of the model registry: all that the engine does
// differently for one kind of experiment.Kinds. The trainer builds the
// network by it, the cost model estimates by it, the graph checks and the
// callers (the CLI, the browser's worker) ask it what the model does with
// edges: no other code switches on a model's kind.
type model struct {
	// build makes the network on g with its weights drawn from rnd; seed
	// feeds streams of its own (ClusterGCN's batches, DeepWalk's walks).
	build func(g *datasets.Graph, m experiment.Model, rnd *rand.Rand, seed uint64) network
	// cost is where an epoch's work, the set-up and the memory go, on a
	// graph of shape s.
	cost func(s Shape, m experiment.Model) []Part
	// edges builds the edge model of a PDN, which learns one weight per
	// edge, and edgesCost is its part of the cost; both nil for a model
	// that learns none.
	edges     func(g *datasets.Graph, m experiment.Model, rnd *rand.Rand) edgeModel
	edgesCost func(s Shape, m experiment.Model) Part
	// graph says the model passes messages along the edges (all but the
	// MLP); whether it reads the edges' own features is the state table's
	// (experiment.ReadsEdgeFeatures), which the page asks too.
	graph bool
	// blocking says its set-up runs in one piece (ClusterGCN's Louvain
	// partition, inside gonum) rather than in the pieces Prepare allows.
	blocking bool
}

// models is the registry, filled by init: its rows' builders and costs
// look rows up themselves (a ClusterGCN is made of GCNs), which a package
// variable's initialiser may not.
var models map[string]model

func init() {
	gcnNet := func(g *datasets.Graph, m experiment.Model, rnd *rand.Rand, _ uint64) network {
		return newGCNNet(g, g.Nodes(datasets.Train), m, rnd, nil)
	}
	models = map[string]model{
		experiment.PDN: {build: gcnNet, cost: gcnNetCost, graph: true,
			edges: func(g *datasets.Graph, m experiment.Model, rnd *rand.Rand) edgeModel {
				return newPathfinder(rnd, g.EdgeX, g.E(), g.D, m.EdgeHidden, m.EdgeInit)
			},
			edgesCost: pathfinderCost},
		experiment.PDNLinear: {build: gcnNet, cost: gcnNetCost, graph: true,
			edges: func(g *datasets.Graph, _ experiment.Model, rnd *rand.Rand) edgeModel {
				return newLinearPathfinder(rnd, g.EdgeX, g.E(), g.D)
			},
			edgesCost: linearPathfinderCost},
		experiment.PDNEdgeConv: {build: gcnNet, cost: gcnNetCost, graph: true,
			edges: func(g *datasets.Graph, m experiment.Model, rnd *rand.Rand) edgeModel {
				return newEdgeConv(rnd, g, m.Hidden)
			},
			edgesCost: edgeConvCost},
		experiment.PDNMultiScale: {graph: true, cost: multiScaleCost,
			build: func(g *datasets.Graph, m experiment.Model, rnd *rand.Rand, _ uint64) network {
				return newMultiScale(g, m, rnd)
			}},
		experiment.GCN: {build: gcnNet, cost: gcnNetCost, graph: true},
		experiment.GAT: {graph: true, cost: gatCost,
			build: func(g *datasets.Graph, m experiment.Model, rnd *rand.Rand, _ uint64) network {
				return newGAT(g, m, rnd)
			}},
		experiment.APPNP: {graph: true, cost: appnpCost,
			build: func(g *datasets.Graph, m experiment.Model, rnd *rand.Rand, _ uint64) network {
				return newAPPNP(g, m, rnd)
			}},
		experiment.SGC: {graph: true, cost: func(s Shape, _ experiment.Model) []Part { return sgcCost(s) },
			build: func(g *datasets.Graph, m experiment.Model, rnd *rand.Rand, _ uint64) network {
				return newSGC(g, m, rnd)
			}},
		experiment.ClusterGCN: {graph: true, blocking: true, cost: clusterGCNCost,
			build: func(g *datasets.Graph, m experiment.Model, rnd *rand.Rand, seed uint64) network {
				return newClusterGCN(g, m, rnd, seed)
			}},
		experiment.DeepWalk: {graph: true, cost: func(s Shape, _ experiment.Model) []Part { return deepWalkCost(s) },
			build: func(g *datasets.Graph, m experiment.Model, rnd *rand.Rand, seed uint64) network {
				return newDeepWalk(g, m, rnd, seed)
			}},
		experiment.MLP: {build: gcnNet, cost: gcnNetCost},
	}
}

// LearnsEdges reports whether the model of kind learns one weight per edge
// (PDN, the linear PDN, EdgeConv); false for a kind that is none.
func LearnsEdges(kind string) bool { return models[kind].edges != nil }

// UsesGraph reports whether the model of kind passes messages along the
// graph's edges (all but the MLP); false for a kind that is none.
func UsesGraph(kind string) bool { return models[kind].graph }
