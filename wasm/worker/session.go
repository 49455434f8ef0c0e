package main

import (
	"math"
	"time"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/pdn"
	"pdnexplorer/wasm/protocol"
)

// trainer is what the session needs of a pdn.Trainer; tests wrap one.
type trainer interface {
	Prepare(budget time.Duration) bool
	Preparing() float64
	Step() (float64, error)
	EvaluateInto(*pdn.Snapshot)
	Reset()
	Done() bool
	Epoch() int
	SetPace(func(done float64))
	Cost() pdn.Cost
	Restarts() *pdn.Restarts
	// What the labs read beyond a snapshot: the pathfinder as a
	// function, GAT's per-direction weights.
	Pathfinder(z []float64) (hidden []float64, weight float64, ok bool)
	DirectedWeights() (to []int32, w []float64)
	EdgeRepresentations() (reps []float64, dim int, ok bool)
	// Trace is one node's update, for the page's step-by-step view.
	Trace(node int) (*pdn.Trace, error)
	// Regraph carries on over an edited graph (see pdn.Trainer.Regraph).
	Regraph(g *datasets.Graph) (*pdn.Trainer, error)
	// What an export to PyTorch Geometric reads (see pyg.RunOf).
	Parameters() ([]pdn.Parameter, error)
	Experiment() experiment.Experiment
	GraphWeights() []float64
}

// newTrainer builds e's model on g: pdn.NewTrainer, the one constructor,
// which runs the restart remedy as its set-up when e asks for it.
func newTrainer(g *datasets.Graph, e experiment.Experiment) (trainer, error) {
	t, err := pdn.NewTrainer(g, e)
	if err != nil {
		return nil, err
	}
	return t, nil
}

// poster sends one event, with its float32 array (may be nil), to the page.
type poster func(ev protocol.Event, f32 []float32)

// session is the worker's whole state: the graph of the run it serves, its
// trainer and whether it is running, and what the page asked to see.
// Commands change it; work advances it in chunks. It is pure Go, so it is
// tested natively; main_js.go wires it to the page.
type session struct {
	post       poster
	now        func() time.Time
	newTrainer func(*datasets.Graph, experiment.Experiment) (trainer, error)
	// cmds brings the page's commands; yield gives the event loop a turn,
	// so that they can arrive. Both are used inside a long epoch too.
	cmds  chan protocol.Command
	yield func()

	serving int // the run id of the last set or regenerate command
	exp     experiment.Experiment
	base    *datasets.Graph // the graph exp's rows make, before its edits
	ranges  [2][]float64    // base's edge features' ranges (datasets.FeatureRanges), once asked for
	g       *datasets.Graph // base with exp's edits, the graph trained on
	deg     []int           // each node's degree in g, once a lab needs it
	// sep is Figure 4's number (lessons.Separation) of the run trained
	// to its end, computed once for the trainer sepOf on the graph sepG
	// at epoch sepAt.
	sep   float64
	sepOf trainer
	sepG  *datasets.Graph
	sepAt int
	fig   figure4 // Figure 4 as it is drawn, where the page asks for it
	gen   int
	local *localGraph // the user's own graph, once opened

	tr       trainer
	prepared bool // the trainer's slow set-up is done (see pdn.Trainer.Prepare)
	running  bool
	// offered is how many threads the page offers the worker (1 where it
	// is not cross-origin isolated); threads is how many the run's
	// products run on (pdn.UseThreads), its share of them beside the
	// page's other runs (protocol.Command.Alongside).
	offered, threads int

	view     viewWants
	baseline *baselineJob // the MLP that measures the graph, if the page asked for it
	layout   *layoutJob   // the layout every graph gets, while it runs
	learned  *learnedJob  // the learned layout, while the page shows it
	epoch    epochState
	out      snapshots
	clock    clock
}

// viewWants is what the page asked to see of the run.
type viewWants struct {
	noLayout    bool          // it draws no graph (protocol.LayoutNone)
	every       time.Duration // its least time between snapshots
	pace        time.Duration // the least time from one epoch's start to the next's while training (0: none)
	showLearned bool          // it shows the learned layout
	quiet       bool          // it wants the run's end alone (protocol.Command.Quiet)
	embed       bool          // it wants Figure 4 once trained (protocol.Command.Embed)
	embedLive   bool          // and as the run trains (protocol.Command.EmbedLive)
	beside      string        // the model trained beside for it (protocol.Command.Beside)
	baseline    bool          // it wants the MLP baseline (protocol.Command.Baseline)
	tracing     bool          // it follows one node's update (protocol.OpTrace)
	node        int           // that node
	ends        []int         // the edge it follows (protocol.OpEdge), nil for none
}

// epochState is what happens inside an epoch: holding is a pause that
// came in mid-epoch, later the commands that wait for the epoch to end,
// start when it began.
type epochState struct {
	holding bool
	later   []protocol.Command
	start   time.Time
}

// snapshots is the state the posted snapshots are read from.
type snapshots struct {
	snap     pdn.Snapshot
	f32      []float32     // a snapshot's arrays, reused
	snapCost time.Duration // how long the last snapshot took: evaluation, encoding, post
	rate     float64       // epochs per second over the last chunk
	owed     bool          // a step's snapshot waits for the pace (postSoon)
}

// clock holds when things last happened, for the paces of chunks, posts
// and progress.
type clock struct {
	slice, post, layout, progress time.Time
	quiet                         time.Time // a quiet run's last progress
	layoutNext                    time.Time // no layout update before, while training runs
	nextEpoch                     time.Time // no paced epoch starts before
}

func newSession(post poster) *session {
	s := &session{now: time.Now, newTrainer: newTrainer, out: snapshots{rate: math.NaN()},
		cmds: make(chan protocol.Command, 256), yield: func() {}, offered: 1, threads: 1}
	// Every event names the run the worker serves.
	s.post = func(ev protocol.Event, f32 []float32) {
		ev.Run = s.serving
		post(ev, f32)
	}
	return s
}
