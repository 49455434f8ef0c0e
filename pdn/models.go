package pdn

import (
	"math/rand/v2"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
)

// model is one row of the model registry: all that the engine does
// differently for one kind of experiment.Models. Each model's file
// registers its row (register), with its network, its cost and its
// speeds; what the model reads and does (whether it uses the graph,
// learns edge weights, has a PyTorch Geometric layer) is the model
// table's, experiment.Models. No other code switches on a model's kind.
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
	// blocking says its set-up runs in one piece (ClusterGCN's Louvain
	// partition, inside gonum) rather than in the pieces Prepare allows.
	blocking bool
	// steps is the most optimiser steps an epoch takes (ClusterGCN's,
	// one a batch); 0 for one.
	steps int
}

// models is the registry, filled by the models' files as they
// initialise; a row's builders and costs may look up other rows (a
// ClusterGCN is made of GCNs) once all are in.
var models = map[string]model{}

// register adds the row of kind, a kind of the model table, to the
// registry; its speeds are the speeds table's row (speeds.go). A kind
// registered twice, not in the model table or without speeds is a
// programming error.
func register(kind string, m model) {
	if _, ok := experiment.ModelNamed(kind); !ok {
		panic("pdn: register " + kind + ": not a kind of experiment.Models")
	}
	if _, ok := models[kind]; ok {
		panic("pdn: register " + kind + " twice")
	}
	if _, ok := speeds[kind]; !ok {
		panic("pdn: register " + kind + ": no row in the speeds table (speeds.go)")
	}
	models[kind] = m
}

// LearnsEdges reports whether the model of kind learns one weight per edge
// (PDN, the linear PDN, EdgeConv); false for a kind that is none.
func LearnsEdges(kind string) bool { return experiment.LearnsEdges(kind) }

// UsesGraph reports whether the model of kind passes messages along the
// graph's edges (all but the MLP); false for a kind that is none.
func UsesGraph(kind string) bool { return experiment.UsesGraph(kind) }
