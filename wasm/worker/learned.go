package main

import (
	"time"

	"pdnexplorer/datasets"
	"pdnexplorer/viz/force"
)

// learnedJob lays the graph out by its learned edge weights as training
// goes (force.Layout), for the view's learned layout: it starts from nodes
// scattered at random, and every new epoch's weights warm it up again, so
// the drawing follows what the pathfinder learns and comes to rest when
// training stops.
type learnedJob struct {
	layout *force.Layout
	epoch  int       // the epoch of the weights it last followed, -1 for none
	shown  time.Time // when its positions were last posted
	// next is when the layout may take its next step while training runs.
	next time.Time
}

// learnedReheat is the temperature each new epoch's weights bring back:
// about half the start's, so a trained layout moves on without scattering.
const learnedReheat = force.Start / 3

// learnedEvery is how often a moving learned layout is shown; the page
// redraws its nodes each time.
const learnedEvery = 600 * time.Millisecond

// learnedShare bounds the share of the worker's time the learned layout
// takes while training runs: a step of the paper's default graph costs
// about as much as an epoch, and the layout catches up once training stops.
const learnedShare = 0.2

func newLearnedJob(g *datasets.Graph, seed uint64) *learnedJob {
	return &learnedJob{layout: force.New(g.N, g.Src, g.Dst, seed), epoch: -1}
}

// follow warms the layout up when the weights come from a new epoch.
func (j *learnedJob) follow(epoch int) {
	if epoch != j.epoch {
		j.epoch = epoch
		j.layout.Heat(learnedReheat)
	}
}
