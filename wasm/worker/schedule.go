package main

import (
	"time"

	"pdnexplorer/experiment"
	"pdnexplorer/pdn"
	"pdnexplorer/viz/force"
	"pdnexplorer/wasm/protocol"
)

// chunk is how much work runs between two turns of the event loop: pause
// and every other command act within it.
const chunk = 50 * time.Millisecond

// snapshotEvery throttles snapshots to about 20 a second. A snapshot costs
// an evaluation (a forward pass without dropout) and its encoding, so on a
// large graph they take at most 1/snapshotShare of the worker's time
// (Facebook Page-Page's size: 3 to 4 a second, where one after every epoch
// took a third of the time); but they come at least every snapshotWithin,
// so a run of slow epochs still shows each.
const (
	snapshotEvery  = 50 * time.Millisecond
	snapshotShare  = 10
	snapshotWithin = 500 * time.Millisecond
)

// layoutEvery is how often a layout in progress is shown, so the picture
// settles before the user's eyes instead of appearing after a wait.
const layoutEvery = 700 * time.Millisecond

// progressEvery is how often a long epoch or set-up reports its progress;
// an epoch reports none before progressAfter, so that at the default size,
// where an epoch takes 16 ms, nothing flickers. A pause holds an epoch
// mid-way only once it is that long.
const (
	progressEvery = 100 * time.Millisecond
	progressAfter = 250 * time.Millisecond
)

// run is the worker's loop: apply the commands that came in, do a chunk of
// work, give the event loop a turn; with nothing to do, sleep until a
// command arrives, or until a snapshot owed to the page is due.
func (s *session) run() {
	for {
		s.drain()
		switch {
		case s.work(chunk) && s.busy() && !s.waitingForPace():
			s.yield()
		case s.out.owed || s.waitingForPace():
			s.awaitPost()
		default:
			s.handle(<-s.cmds)
		}
	}
}

// awaitPost sleeps until a command comes, the owed snapshot is due (and
// posts it then), or a paced run's next epoch is.
func (s *session) awaitPost() {
	wake := s.clock.nextEpoch
	if s.out.owed {
		wake = s.clock.post.Add(s.snapshotPace())
		if s.waitingForPace() && s.clock.nextEpoch.Before(wake) {
			wake = s.clock.nextEpoch
		}
	}
	t := time.NewTimer(wake.Sub(s.now()))
	defer t.Stop()
	select {
	case c := <-s.cmds:
		s.handle(c)
	case <-t.C:
		if s.out.owed && !s.now().Before(s.clock.post.Add(s.snapshotPace())) {
			s.postSnapshot()
		}
	}
}

// setPace sets the pace of training to epochs a second (0: none), from
// the next epoch on.
func (s *session) setPace(epochs float64) {
	s.view.pace = 0
	if epochs > 0 && epochs <= 1000 {
		s.view.pace = time.Duration(float64(time.Second) / epochs)
	}
	s.clock.nextEpoch = time.Time{}
}

// waitingForPace reports whether a paced run waits for its next epoch
// with nothing else to do meanwhile: the worker may sleep until then.
func (s *session) waitingForPace() bool {
	return s.running && s.view.pace > 0 && s.now().Before(s.clock.nextEpoch) && s.layout == nil &&
		(s.learned == nil || !s.learned.layout.Hot()) && (s.tr == nil || s.prepared) && !s.baselineBusy() && !s.figure4Busy()
}

// drain applies the commands deferred during an epoch, then those waiting.
func (s *session) drain() {
	for len(s.epoch.later) > 0 {
		c := s.epoch.later[0]
		s.epoch.later = s.epoch.later[1:]
		s.handle(c)
	}
	for {
		select {
		case c := <-s.cmds:
			s.handle(c)
		default:
			return
		}
	}
}

// work advances the layout and, if running, training, for about budget:
// the layout gets half of it while training runs, and training at least
// one epoch however long a layout update took; it posts an owed snapshot
// that is due. It reports whether there is more to do without a new
// command (an owed snapshot too).
func (s *session) work(budget time.Duration) bool {
	start := s.now()
	if s.out.owed && start.Sub(s.clock.post) >= s.snapshotPace() {
		s.postSnapshot()
	}
	s.clock.slice = start
	deadline := start.Add(budget)
	s.workLayout(start, budget)
	s.workLearned(deadline)
	s.workBaseline(deadline, budget)
	s.workFigure4(deadline, budget)
	if s.tr != nil && !s.prepared {
		// A model with slow set-up gets it done a chunk at a time, so that
		// commands are still answered in between.
		if s.prepared = s.tr.Prepare(max(deadline.Sub(s.now()), budget/2)); !s.prepared {
			s.postProgress(protocol.PhaseSetup, s.tr.Preparing(), false)
			return true
		}
		s.postSnapshot()
	}
	if s.running && s.tr != nil {
		s.train(deadline)
	}
	return s.busy() || s.out.owed
}

// busy reports whether there is work to do without a new command: a
// layout, training, a set-up, a learned layout still moving.
func (s *session) busy() bool {
	return s.layout != nil || s.running || (s.tr != nil && !s.prepared) || (s.learned != nil && s.learned.layout.Hot()) || s.baselineBusy() || s.figure4Busy()
}

// snapshotPace is the least time between two snapshots: about 20 a
// second, fewer where the page asked for fewer, and on a large graph no
// more often than keeps their cost within its share.
func (s *session) snapshotPace() time.Duration {
	return max(snapshotEvery, s.view.every, min((snapshotShare-1)*s.out.snapCost, snapshotWithin))
}

// postSoon posts a snapshot now, or owes it when one went out less than
// the pace ago: a burst of steps (S pressed a hundred times a second)
// shows its epochs at a running run's pace, and its last one when it ends.
func (s *session) postSoon() {
	if s.now().Sub(s.clock.post) >= s.snapshotPace() {
		s.postSnapshot()
		return
	}
	s.out.owed = true
}

// layoutShare bounds the share of the worker's time the layout takes while
// training runs where one update outlasts the half chunk it is given (the
// sampled layout of a graph near the page's edge cap: a quarter of a
// second an update in the browser, where an epoch takes about half one).
const layoutShare = 0.25

// workLayout moves the layout every graph gets: half the chunk while
// training runs (and, where an update takes longer, no more than
// layoutShare of the time), all of it otherwise.
func (s *session) workLayout(start time.Time, budget time.Duration) {
	if s.layout == nil {
		return
	}
	until := start.Add(budget)
	if s.running {
		if start.Before(s.clock.layoutNext) {
			return
		}
		until = start.Add(budget / 2)
	}
	for s.now().Before(until) {
		if !s.layout.step() {
			s.post(protocol.Event{Kind: protocol.KindLayout, Gen: s.gen}, s.layout.positions())
			s.layout = nil
			return
		}
	}
	if took := s.now().Sub(start); s.running && took > budget/2 {
		s.clock.layoutNext = s.now().Add(time.Duration(float64(took) * (1/layoutShare - 1)))
	}
	if s.now().Sub(s.clock.layout) >= layoutEvery {
		s.post(protocol.Event{Kind: protocol.KindLayout, Gen: s.gen}, s.layout.positions())
		s.clock.layout = s.now()
	}
}

// train trains epochs until the deadline, at least one, and posts a
// snapshot when one is due.
func (s *session) train(deadline time.Time) {
	t0, epochs := s.now(), 0
	if s.tr.Done() {
		s.finish() // a set-up can end where the run does (restarts as long as the epochs)
	}
	if s.view.pace > 0 {
		s.trainPaced()
		return
	}
	for s.running && (epochs == 0 || s.now().Before(deadline)) {
		if !s.trainEpoch() {
			break
		}
		epochs++
		if s.tr.Done() {
			s.finish()
		}
	}
	if dt := s.now().Sub(t0).Seconds(); epochs > 0 && dt > 0 {
		s.out.rate = float64(epochs) / dt
	}
	if !s.running || s.now().Sub(s.clock.post) >= s.snapshotPace() {
		s.postSnapshot()
	}
}

// trainPaced trains one epoch if the pace allows one now, and shows it:
// epochs start view.pace apart (a run that falls behind, on a slow
// machine or a slow epoch, starts the next at once, not a burst), so the
// page shows every epoch at a pace a teacher can talk over. Waiting
// changes nothing of the run.
func (s *session) trainPaced() {
	now := s.now()
	if now.Before(s.clock.nextEpoch) {
		return
	}
	if s.clock.nextEpoch.IsZero() || now.Sub(s.clock.nextEpoch) > s.view.pace {
		s.clock.nextEpoch = now
	}
	s.clock.nextEpoch = s.clock.nextEpoch.Add(s.view.pace)
	if !s.trainEpoch() {
		return
	}
	if took := s.now().Sub(now).Seconds(); took > 0 {
		s.out.rate = min(1/took, 1/s.view.pace.Seconds()) // what the page sees: the pace, unless the epochs are slower
	}
	if s.tr.Done() {
		s.finish()
	}
	s.postSnapshot()
}

// finish stops a run that has trained all its epochs. While it trained,
// the learned layout had a share of the time and a little warmth per
// epoch; now it gets the whole schedule again, from where it stands, to
// settle on the final weights.
func (s *session) finish() {
	s.running = false
	if s.learned != nil {
		s.learned.layout.Heat(force.Start)
	}
}

// workLearned moves the learned layout, if it is shown and hot: while
// training runs, one step at a time and no more than learnedShare of the
// time; otherwise until deadline.
func (s *session) workLearned(deadline time.Time) {
	j := s.learned
	if j == nil || !j.layout.Hot() {
		return
	}
	w := s.learnedWeights()
	if s.running {
		if s.now().Before(j.next) {
			return
		}
		t0 := s.now()
		j.layout.Step(w)
		j.next = s.now().Add(time.Duration(float64(s.now().Sub(t0)) * (1/learnedShare - 1)))
	} else {
		for j.layout.Step(w) && s.now().Before(deadline) {
		}
	}
	if !j.layout.Hot() || s.now().Sub(j.shown) >= learnedEvery {
		s.post(protocol.Event{Kind: protocol.KindLayout, Gen: s.gen, Layout: experiment.LayoutLearned}, j.layout.Positions(nil))
		j.shown = s.now()
	}
}

// learnedWeights are the weights the learned layout follows: the latest
// snapshot's, or nil (every edge alike) for a model without them.
func (s *session) learnedWeights() []float64 {
	if s.tr == nil || !pdn.UsesGraph(s.exp.Model.Kind) || s.g == nil || len(s.out.snap.Weights) != s.g.E() {
		return nil
	}
	return s.out.snap.Weights
}

// startLearned lays the graph out afresh by its learned weights, if the
// page shows that layout.
func (s *session) startLearned() {
	s.learned = nil
	if s.view.showLearned && s.g != nil {
		s.learned = newLearnedJob(s.g, s.exp.Data.Seed)
		s.followWeights()
	}
}

// followWeights warms the learned layout up for the latest snapshot's epoch.
func (s *session) followWeights() {
	if s.learned != nil && s.tr != nil && s.prepared {
		s.learned.follow(s.out.snap.Epoch)
	}
}

// trainEpoch trains one epoch; a diverged run stops and is reported.
func (s *session) trainEpoch() bool {
	s.epoch.holding, s.epoch.start = false, s.now()
	if _, err := s.tr.Step(); err != nil {
		s.running = false
		s.fail(err, errorField(err))
		return false
	}
	return true
}

// pace runs inside a training step, about every million units of work.
// Once a chunk has passed it reports the epoch's progress, gives the event
// loop a turn and reads what came in. A pause holds a long epoch (one that
// shows its progress) right there, until play or step; a short one ends
// first, so that the page shows the epoch the model stopped at. A step
// while a step's epoch runs is one more epoch after it; any other command
// waits for the epoch to end. The trainer's state is untouched while it
// waits, so the run's bits do not depend on when the user paused.
func (s *session) pace(done float64) {
	if s.now().Sub(s.clock.slice) < chunk {
		return
	}
	long := s.now().Sub(s.epoch.start) >= progressAfter
	if long {
		s.postProgress(protocol.PhaseEpoch, done, false)
	}
	s.yield()
	s.clock.slice = s.now()
	for {
		var c protocol.Command
		select {
		case c = <-s.cmds:
		default:
			if !s.epoch.holding {
				return
			}
			c = <-s.cmds // paused mid-epoch: sleep until the next command
		}
		if c.Run != s.serving && !forWorker(c.Op) {
			continue // a run the worker no longer serves
		}
		s.paceCommand(c, long || s.slowEpochs())
		if long || s.epoch.holding {
			s.postProgress(protocol.PhaseEpoch, done, true)
		}
		s.clock.slice = s.now()
	}
}

// forWorker reports whether a command concerns the worker, not the run it
// serves, so that it is never dropped as another run's: a new run's state,
// the user's files (an OpLoad that came mid-epoch was dropped, and the
// page waited for its answer for ever), the pace, an estimate.
func forWorker(op string) bool {
	switch op {
	case protocol.OpSet, protocol.OpRegenerate, protocol.OpLoad, protocol.OpPace, protocol.OpEstimate:
		return true
	}
	return false
}

// slowEpochs reports whether the run's epochs take progressAfter or more:
// by the last chunk's rate, or before one by the cost model's estimate.
func (s *session) slowEpochs() bool {
	sec := 1 / s.out.rate
	if !(s.out.rate > 0) {
		sec, _ = s.tr.Cost().Seconds(pdn.BrowserLimits)
	}
	return sec >= progressAfter.Seconds()
}

// paceCommand applies a command that came in inside an epoch; long says
// the epoch is one that shows its progress, which a pause holds mid-way.
func (s *session) paceCommand(c protocol.Command, long bool) {
	switch c.Op {
	case protocol.OpPause:
		s.running, s.epoch.holding = false, long
	case protocol.OpStart:
		s.running, s.epoch.holding = true, false
	case protocol.OpStep:
		if !s.running && !s.epoch.holding {
			s.epoch.later = append(s.epoch.later, c) // a step's epoch runs: one more after it
		}
		s.running, s.epoch.holding = false, false // finish this epoch, then stop
	default:
		s.epoch.later = append(s.epoch.later, c)
		// Finish the epoch, then apply it; but a command that leaves the
		// run as it is keeps a paused epoch paused: a pool that starts
		// beside it, or the speed changed, is no Play.
		s.epoch.holding = s.epoch.holding && leavesTheRun(c.Op)
	}
}

// leavesTheRun says a command changes how the run goes, not the run:
// its share of the threads, its pace.
func leavesTheRun(op string) bool {
	return op == protocol.OpThreads || op == protocol.OpPace
}

// postProgress tells the page how far a long epoch or set-up has got, at
// most every progressEvery unless now is set (a pause or play to show).
func (s *session) postProgress(phase string, done float64, now bool) {
	if !now && s.now().Sub(s.clock.progress) < progressEvery {
		return
	}
	epoch := 0
	if s.tr != nil {
		epoch = s.tr.Epoch()
	}
	p := &protocol.Progress{Phase: phase, Epoch: epoch, Done: done, Running: s.running}
	if phase == protocol.PhaseSetup {
		p.Restarts = restartsOf(s.tr)
	}
	s.post(protocol.Event{Kind: protocol.KindProgress, Gen: s.gen, Progress: p}, nil)
	s.clock.progress = s.now()
}
