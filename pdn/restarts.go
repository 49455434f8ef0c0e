package pdn

import (
	"math"
	"time"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
)

// Restarts is the restart remedy for a small pathfinder that gets stuck
// (§4.1.1's 2 neurons, whose ReLUs can all start dead on the edge states
// that matter): train e.Model.Restarts initialisations for
// e.Model.RestartEpochs each, keep the one whose training loss (read
// without dropout, which would make it noisy) is lowest, and train that one
// on. Restart r has weight seed 1000·s + r for the experiment's weight
// seed s.
//
// A Trainer whose experiment asks for restarts runs them as its set-up:
// Prepare advances them an epoch at a time, so that a caller with a frame
// to keep (the browser's worker) can share out the work, and Step or
// Evaluate finish them.
type Restarts struct {
	g *datasets.Graph
	e experiment.Experiment
	// Tried holds each initialisation's seed and its training loss after
	// its epochs, NaN until it has trained; one that diverged has +Inf.
	Tried []Restart
	// Chosen is the index in Tried of the one kept, -1 before all trained.
	Chosen int
	// Epochs is how many epochs each one trains before one is kept.
	Epochs int

	cur, best *Trainer
	cost      Cost
}

// Restart is one initialisation tried.
type Restart struct {
	Seed uint64
	Loss float64
}

// newRestarts plans e.Model.Restarts initialisations (at least one) of
// e's model on g, whose cost is known already.
func newRestarts(g *datasets.Graph, e experiment.Experiment, cost Cost) *Restarts {
	r := &Restarts{g: g, e: e, Chosen: -1, Epochs: max(1, min(e.Model.RestartEpochs, e.Train.Epochs)), cost: cost}
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
			done += r.Epochs
		}
	}
	if r.cur != nil {
		done += r.cur.Epoch()
	}
	return float64(done) / float64(r.Epochs*len(r.Tried))
}

// step trains the current initialisation one epoch; after its last, it
// reads its loss and moves to the next, and after the last one keeps the
// best. An initialisation that diverges ends with an infinite loss.
func (r *Restarts) step() {
	if r.Done() {
		return
	}
	i := r.next()
	if r.cur == nil {
		e := r.e
		e.Train.Seed = r.Tried[i].Seed
		r.cur = newTrainer(r.g, e, r.cost)
	}
	_, err := r.cur.Step()
	if err == nil && r.cur.Epoch() < r.Epochs && !r.cur.Done() {
		return
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

// prepareRestarts advances the restarts until the deadline (at least one
// epoch), and once one is kept makes t that trainer, ready to train on.
// It reports whether the restarts are done.
func (t *Trainer) prepareRestarts(deadline time.Time) bool {
	r := t.restarts
	for !r.Done() {
		r.step()
		if !time.Now().Before(deadline) {
			break
		}
	}
	if !r.Done() {
		return false
	}
	if t.net == nil {
		pc := t.pc
		*t = *r.best
		t.pc, t.restarts = pc, r
		t.net.setPacer(pc)
		r.best = nil // t is it now
	}
	return true
}

// Restarts returns the restart remedy the trainer runs as its set-up, nil
// for an experiment without restarts.
func (t *Trainer) Restarts() *Restarts { return t.restarts }
