// Package protocol is the one definition of the messages between the
// explorer's page and its engine worker. Both sides import it; it is pure Go
// (no syscall/js), so both ends and their tests share the same types.
//
// A message crosses postMessage as a JS object {json: string, f32: Float32Array}:
// json is a Command or an Event encoded with encoding/json, and f32 carries
// the one large array a message may have (the learned edge weights of a
// snapshot, the node positions of a layout) in a transferred buffer, so no
// copy is made between threads.
package protocol

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"

	"pdnexplorer/edgekind"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/numtext"
	"pdnexplorer/internal/pagemem"
)

// Operations the page asks of the worker.
const (
	OpSet        = "set"        // adopt State; a new graph if the data changed, a new model if the model changed
	OpRegenerate = "regenerate" // adopt State (with its new data seed) and rebuild the graph
	OpStart      = "start"      // train until paused or done
	OpPause      = "pause"      // stop after the current chunk of work
	OpStep       = "step"       // train exactly one epoch, then pause
	OpReset      = "reset"      // back to epoch 0 and the very same initial weights
	// OpLayout says which layout the view shows: for
	// experiment.LayoutLearned the worker lays the graph out afresh by its
	// learned weights, and goes on as training changes them; for any other
	// it stops doing so.
	OpLayout = "layout"
	// OpLoad reads Files as the user's own graph (a bundle or a MUSAE
	// folder, as files or one zip archive); the worker answers KindLoaded
	// or KindError, and keeps the graph for states whose data is
	// experiment.GraphLocal. It concerns the worker, not one run. Only
	// the reader's build reads files; an engine worker takes the graph
	// it read (Parsed).
	OpLoad = "load"
	// OpExport asks for the current graph as a file: Format FormatDOT,
	// FormatBundle or FormatPyG. The worker answers KindFile.
	OpExport = "export"
	// OpTrace asks for the update of node Node (see pdn.Trace) with every
	// snapshot from now on, -1 for none; a snapshot follows at once.
	OpTrace = "trace"
	// OpEdge asks for edge Ends[0]–Ends[1] (Snapshot.Edge) with every
	// snapshot from now on, nil Ends for none; a snapshot follows at once.
	// The page's editor reads an edge's features so.
	OpEdge = "edge"
	// OpPace sets the pace training runs at (Command.Pace) without
	// touching the run.
	OpPace = "pace"
	// OpThreads sets the run's share of the worker's threads
	// (Command.Threads and Alongside, as OpSet takes them) without
	// touching the run; a snapshot follows at once, with the threads.
	OpThreads = "threads"
	// OpEstimate asks how long each of States would take to train to its
	// end in this browser, by the engine's cost model (pdn.Estimate): the
	// worker answers KindEstimate. It concerns no run.
	OpEstimate = "estimate"
	// OpExit ends the worker's Go program at once, as running out of
	// memory does: the page never sends it; end-to-end tests do, to check
	// that the page replaces a worker that dies.
	OpExit = "exit"
)

// Formats of OpExport.
const (
	FormatDOT    = "dot"    // Graphviz DOT, with the learned weights
	FormatBundle = "bundle" // a zip archive of the graph's bundle
	FormatPyG    = "pyg"    // a zip archive of the run for PyTorch Geometric (see package pyg)
)

// MaxFileBytes bounds the files a page sends with OpLoad, in all: the page
// refuses more before reading them, the worker's reader too
// (datasets.MaxLocalBytes). It is the page's memory's (pagemem.FileBytes).
const MaxFileBytes = pagemem.FileBytes

// File is a file crossing between page and worker: one the user opened,
// or one the worker wrote for the user to save.
type File struct {
	Name string `json:"name"`
	Type string `json:"type,omitempty"` // MIME type, of a file to save
	Data []byte `json:"data"`
	// Buffer is, in the page, the JS buffer the page read a user's file
	// into: it passes that on to a worker as a copy the browser makes,
	// never copying it into its own Go memory (as Command.ParsedBuffer).
	// Set, it stands for Data.
	Buffer any `json:"-"`
}

// Command is a message from the page to the worker.
type Command struct {
	Op string `json:"op"`
	// State is the experiment as experiment.Experiment.Encode writes it,
	// for OpSet and OpRegenerate; with OpLoad, the run that opens the
	// files, whose model the graph read must fit in a browser.
	State string `json:"state,omitempty"`
	// Run is the page's id for the run the command is about. OpSet and
	// OpRegenerate hand the worker to that run; the worker ignores other
	// commands from any run but the one it serves.
	Run int `json:"run,omitempty"`
	// Layout is the layout OpLayout names, one of experiment.Layouts; with
	// OpSet or OpRegenerate, LayoutNone says the run's page draws no graph,
	// so the worker lays none out.
	Layout string `json:"layout,omitempty"`
	// Every, with OpSet or OpRegenerate, is the least time in milliseconds
	// between two snapshots while training: a page that follows several
	// runs at once asks for fewer of each. 0 is the worker's own pace.
	Every int `json:"every,omitempty"`
	// Pace, with OpSet, OpRegenerate or OpPace, is how many epochs a
	// second training runs at (experiment.View.Speed): the worker waits
	// between epochs, which changes no result. 0 is as fast as it goes.
	Pace float64 `json:"pace,omitempty"`
	// Quiet, with OpSet or OpRegenerate, says the page wants the run's end
	// alone (a sweep's run): no graph, no layout, and no snapshot but the
	// last, without its arrays. The worker skips the evaluations too.
	Quiet bool `json:"quiet,omitempty"`
	// Alongside, with OpSet, OpRegenerate or OpThreads, is how many runs the page
	// trains at once, each on a worker of its own, this one included (0
	// counts as 1): the worker splits its products over its share of the
	// threads it has (at least one), so that runs side by side do not
	// queue for the same cores, and a piece held by a thread the system
	// set aside does not hold up a whole product.
	Alongside int `json:"alongside,omitempty"`
	// Threads, with OpSet, OpRegenerate or OpThreads, is the threads the state's
	// threads row asks of the worker (0: all it has): the most the run's
	// share of them can be. A worker has no more than it started with.
	Threads int `json:"threads,omitempty"`
	// Files are OpLoad's files. They travel beside the JSON, as
	// transferred buffers, not inside it.
	Files []File `json:"-"`
	// Parsed, with OpLoad, is the graph the reader read from the user's
	// files, in the form of its KindLoaded's Parsed: an engine worker
	// takes it as read, without the files (it reads none), so files are
	// parsed once however many workers train on them. It travels beside
	// the JSON, as Files.
	Parsed []byte `json:"-"`
	// ParsedBuffer is Parsed where the page holds it: the JS buffer a
	// worker's KindLoaded brought (Event.ParsedBuffer), which the page
	// passes on to another worker as a copy the browser makes, never
	// copied into the page's own Go memory, which a WebAssembly memory
	// never gives back (an ogbn-arxiv-sized graph is 305 MB of it). Set,
	// it stands for Parsed.
	ParsedBuffer any `json:"-"`
	// Columns are OpLoad's id-column and target: the columns of the
	// user's node table the state names, tried first.
	IDColumn string `json:"idColumn,omitempty"`
	Target   string `json:"target,omitempty"`
	// Bins, above 0, bins a measured target into classes (Data.Bins).
	Bins int `json:"bins,omitempty"`
	// Format is OpExport's.
	Format string `json:"format,omitempty"`
	// Node is OpTrace's.
	Node int `json:"node,omitempty"`
	// Ends are OpEdge's: the two nodes of the edge.
	Ends []int `json:"ends,omitempty"`
	// States are OpEstimate's: runs' states, as State.
	States []string `json:"states,omitempty"`
	// Baseline, with OpSet or OpRegenerate, asks the worker to train the
	// MLP that measures the run's graph (experiment.Baseline) beside the
	// run, a share of its time, and to answer KindBaseline: the page asks
	// one run of a lab, as it asks one for a layout.
	Baseline bool `json:"baseline,omitempty"`
	// Embed, with OpSet or OpRegenerate, asks for Figure 4 once the run
	// has trained: a sample of its edges embedded by t-SNE from its hidden
	// edge representations (KindEmbedding), seconds of work the labs that
	// draw the figure alone ask for. A quiet run gets none.
	Embed bool `json:"embed,omitempty"`
	// EmbedLive, with Embed, asks for Figure 4 as the run trains too: each
	// time an embedding is done, the next starts from the epoch the run
	// has reached, a share of the worker's time (the graph lab's).
	EmbedLive bool `json:"embedLive,omitempty"`
	// Beside, with Embed, names a model the worker trains beside the run,
	// on its graph, with its rows and seeds, never ahead of it and to its
	// end once the run has ended, and embeds as it embeds the run's: the
	// second panel of Figure 4 (GAT, as pdn tsne trains it). Ignored where
	// the run's model is that model.
	Beside string `json:"beside,omitempty"`
}

// LayoutNone, in an OpSet or OpRegenerate, asks for no layout at all.
const LayoutNone = "none"

// Kinds of events the worker sends.
const (
	KindReady    = "ready"    // the worker's Go runtime is listening
	KindGraph    = "graph"    // a new graph; its layout follows
	KindLayout   = "layout"   // node positions of the current graph, in f32
	KindSnapshot = "snapshot" // training progress; edge weights in f32
	KindProgress = "progress" // how far a long epoch or a slow set-up has got
	KindError    = "error"    // something the user must fix, or a diverged run
	KindLoaded   = "loaded"   // the user's graph was read; Loaded says what it holds
	KindFile     = "file"     // a file for the user to save, in File
	// KindEstimate answers OpEstimate: Seconds, a run's time each, in the
	// order of States (-1 where a state does not decode).
	KindEstimate = "estimate"
	// KindExited says the worker's Go program has ended (it ran out of
	// memory, or panicked): the page's worker script sends it, not Go,
	// with the program's exit code as Error, or none where it threw (the
	// browser's words go to its console; the page says its own).
	KindExited = "exited"
	// KindStartFailed says the worker's Go program could not be started
	// (its files not fetched, or not compiled): the worker script sends
	// it, with no words, or the page's connection where the worker
	// itself failed; the page says what it means.
	KindStartFailed = "start-failed"
	// KindRestarted tells a run that its worker died and a new one took
	// its place: the run sets its state again. The page makes it.
	KindRestarted = "restarted"
	// KindEmbedding is Figure 4 of the run, or of the model trained
	// beside it (Event.Embedding), at the epoch it names
	KindEmbedding = "embedding"
	// KindBaseline says the MLP baseline the page asked for
	// (Command.Baseline) has trained, in Baseline.
	KindBaseline = "baseline"
)

// Loaded describes the user's graph as the worker read it.
type Loaded struct {
	Name    string `json:"name"` // from meta.json, or the files'
	Nodes   int    `json:"nodes"`
	Edges   int    `json:"edges"`
	Classes int    `json:"classes"`
	// Unlabelled counts the nodes without a class (datasets.NoClass): in
	// the graph, never trained or tested on.
	Unlabelled int `json:"unlabelled,omitempty"`
	Features   int `json:"features"`
	// EdgeFeatures is the graph's own edge features, 0 when it came
	// without any and the worker gave it the tie-strength scores.
	EdgeFeatures int `json:"edgeFeatures"`
	// Resplit says the graph came without a split (a MUSAE folder): the
	// state's shots and seed draw one.
	Resplit bool `json:"resplit"`
	// ClassNames and EdgeNames name the classes and the graph's own edge
	// features where the data names them; ClassColumn is the column of
	// the node table the classes came from.
	ClassNames  []string `json:"classNames,omitempty"`
	EdgeNames   []string `json:"edgeNames,omitempty"`
	ClassColumn string   `json:"classColumn,omitempty"`
	// IDColumn and Target are the columns the files were read with: the
	// state's, or none where the state's named columns the files lack.
	IDColumn string `json:"idColumn,omitempty"`
	Target   string `json:"target,omitempty"`
	Bins     int    `json:"bins,omitempty"`
	// Notes are what the reader changed or supplied: repeats dropped,
	// degrees given as features.
	Notes []phrase.Text `json:"notes,omitempty"`
	// Recipe is the family of defaults the graph's features call for
	// (datasets.Graph.Recipe): the page gives the lab its rows.
	Recipe string `json:"recipe,omitempty"`
}

// Columns is what the page's column chooser shows when the user's node
// table leaves open which column is the class: its header, its first rows
// and the classes each candidate column gives.
type Columns struct {
	File    string        `json:"file"`
	Header  []string      `json:"header"`
	Sample  [][]string    `json:"sample"`
	Choices []ClassChoice `json:"choices"`
}

// ClassChoice is a column that could hold the classes, and the classes
// (with their node counts) it gives.
type ClassChoice struct {
	Column  string   `json:"column"`
	Classes []string `json:"classes"`
	Counts  []int    `json:"counts"`
	// Bins, above 0, says the classes are the column's measurements cut
	// into Bins by quantile: choosing it sets bins too.
	Bins int `json:"bins,omitempty"`
}

// Event is a message from the worker to the page.
type Event struct {
	Kind     string    `json:"kind"`
	Graph    *Graph    `json:"graph,omitempty"`
	Snap     *Snapshot `json:"snap,omitempty"`
	Progress *Progress `json:"progress,omitempty"`
	Loaded   *Loaded   `json:"loaded,omitempty"`
	File     *File     `json:"file,omitempty"`
	// Error and Field describe a KindError: Field is the parameter to
	// change, if one is to blame.
	// Say is Error as a message, for the page to show in its language.
	Error string       `json:"error,omitempty"`
	Say   *phrase.Text `json:"say,omitempty"`
	Field string       `json:"field,omitempty"`
	// Columns offers the columns to choose from when the error is that
	// the user's files leave the class column open.
	Columns *Columns `json:"columns,omitempty"`
	// Load says a KindLoaded or KindError answers OpLoad: the files were
	// opened, or not. Memory is then the memory the worker's Go runtime
	// holds (runtime.MemStats.Sys, which a WebAssembly memory never
	// gives back): what reading them took at most.
	Load   bool   `json:"load,omitempty"`
	Memory uint64 `json:"memory,omitempty"`
	// Parsed, with a KindLoaded that answers OpLoad, is the graph the
	// worker read, as the page hands it to the other workers (see
	// Command.Parsed). It travels beside the JSON, a transferred buffer.
	// The page takes it as ParsedBuffer, the buffer it came in, and leaves
	// Parsed nil (Command.ParsedBuffer).
	Parsed       []byte `json:"-"`
	ParsedBuffer any    `json:"-"`
	// Seconds are KindEstimate's.
	Seconds []float64 `json:"seconds,omitempty"`
	// Baseline is KindBaseline's.
	Baseline *Baseline `json:"baseline,omitempty"`
	// Embedding is KindEmbedding's.
	Embedding *Embedding `json:"embedding,omitempty"`
	// Gen identifies the graph a KindLayout or KindSnapshot belongs to, so
	// the page can drop messages about a graph it has replaced.
	Gen int `json:"gen"`
	// Run is the run the worker serves, as the page named it: the page
	// routes the event to that run and drops it if the run is gone.
	Run int `json:"run,omitempty"`
	// Layout names the layout a KindLayout is of: "" for the one every
	// graph gets, experiment.LayoutLearned for the one OpLayout asks for.
	Layout string `json:"layout,omitempty"`
}

// Graph describes the structure the page draws; features stay in the worker.
// Its arrays travel beside the JSON, in the message's float32 array
// (PackArrays, UnpackArrays): as JSON numbers, a Facebook-sized graph's
// 170,823 edges took the page's Go a third of a second per worker to read.
type Graph struct {
	Nodes  int             `json:"nodes"`
	Edges  int             `json:"edges"`
	Src    []int32         `json:"-"`
	Dst    []int32         `json:"-"`
	Labels []int           `json:"-"`
	Kinds  []edgekind.Kind `json:"-"`
	Test   []bool          `json:"-"`
	// HasKinds says the edges' kinds are among the arrays.
	HasKinds bool   `json:"hasKinds,omitempty"`
	State    string `json:"state"` // the experiment that made it
	// Inputs names the edge features where they have names (a real
	// graph's tie-strength scores, a multiplex graph's layers), nil where
	// they are anonymous.
	Inputs []string `json:"inputs,omitempty"`
	// ClassNames name the classes where the data names them.
	ClassNames []string `json:"classNames,omitempty"`
	// Edited says the graph is the last one with its edges edited: the
	// same nodes, so the page keeps their positions, and the same run, so
	// it keeps its history; the model carries on over it.
	Edited bool `json:"edited,omitempty"`
	// What a lab's intro says of the graph (experiment.GraphFacts): the
	// name one's own files gave it ("" for the explorer's own graphs,
	// which the state's data row names), its classes, node and edge
	// features, and whether the edge features are the tie-strength scores
	// the explorer gave it.
	Name         string `json:"name,omitempty"`
	Classes      int    `json:"classes"`
	Features     int    `json:"features"`
	EdgeFeatures int    `json:"edgeFeatures"`
	Scores       bool   `json:"scores,omitempty"`
	// Majority is the majority class's accuracy on the TestNodes test
	// nodes (lessons.Majority), the chance a run's test accuracy is read
	// against.
	Majority  Num `json:"majority"`
	TestNodes int `json:"testNodes"`
}

// Baseline is the MLP that measures a run's graph (experiment.Baseline),
// trained to its end in the worker of the lab's first run: its state and
// its test accuracy at its last epoch (NaN where it could not train,
// Error saying why).
type Baseline struct {
	State   string `json:"state"`
	TestAcc Num    `json:"testAcc"`
	Error   string `json:"error,omitempty"`
	// Say is Error as a message the page says in its language.
	Say *phrase.Text `json:"say,omitempty"`
}

// PackArrays appends g's arrays to f32, each value the bits of an int32
// (the array's bytes are carried, never read as numbers, so every bit
// survives): the sources, the targets, the labels, the kinds if any, and a
// test flag per node. It sets Edges and HasKinds to say what it wrote.
func (g *Graph) PackArrays(f32 []float32) []float32 {
	g.Edges, g.HasKinds = len(g.Src), g.Kinds != nil
	put := func(v int32) { f32 = append(f32, math.Float32frombits(uint32(v))) }
	for _, v := range g.Src {
		put(v)
	}
	for _, v := range g.Dst {
		put(v)
	}
	for _, v := range g.Labels {
		put(int32(v))
	}
	for _, k := range g.Kinds {
		put(int32(k))
	}
	for _, t := range g.Test {
		var v int32
		if t {
			v = 1
		}
		put(v)
	}
	return f32
}

// UnpackArrays reads the arrays PackArrays wrote into g, refusing an array
// of another length than the counts say.
func (g *Graph) UnpackArrays(f32 []float32) error {
	if g.Nodes < 0 || g.Edges < 0 {
		return errors.New("graph: negative counts")
	}
	n, e, k := g.Nodes, g.Edges, 0
	if g.HasKinds {
		k = g.Edges
	}
	if want := 2*e + 2*n + k; len(f32) != want {
		return fmt.Errorf("graph of %d nodes and %d edges: %d values beside it, want %d", n, e, len(f32), want)
	}
	next := func() int32 {
		v := int32(math.Float32bits(f32[0]))
		f32 = f32[1:]
		return v
	}
	g.Src, g.Dst, g.Labels, g.Test = make([]int32, e), make([]int32, e), make([]int, n), make([]bool, n)
	for i := range g.Src {
		g.Src[i] = next()
	}
	for i := range g.Dst {
		g.Dst[i] = next()
	}
	for i := range g.Labels {
		g.Labels[i] = int(next())
	}
	g.Kinds = nil
	if g.HasKinds {
		g.Kinds = make([]edgekind.Kind, e)
		for i := range g.Kinds {
			g.Kinds[i] = edgekind.Kind(next())
		}
	}
	for i := range g.Test {
		g.Test[i] = next() != 0
	}
	return nil
}

// Progress says how far work that takes longer than a chunk has got: an
// epoch of a large model (Phase "epoch", Epoch the epochs already done),
// or a model's set-up (Phase "setup", DeepWalk's embeddings).
type Progress struct {
	Phase   string  `json:"phase"`
	Epoch   int     `json:"epoch"`
	Done    float64 `json:"done"` // share done, in [0, 1)
	Running bool    `json:"running"`
	// Restarts are the initialisations tried so far, when the set-up is
	// the restart remedy.
	Restarts *Restarts `json:"restarts,omitempty"`
}

// Restarts are the initialisations the restart remedy tried (see
// lessons.Restarts): each one's weight seed and training loss (null until
// it has trained), and the index of the one kept, -1 before.
type Restarts struct {
	Seeds  []uint64 `json:"seeds"`
	Losses []Num    `json:"losses"`
	Chosen int      `json:"chosen"`
	Epochs int      `json:"epochs"` // each one's
}

// XOR is what the XOR lab shows of a run on the XOR graph (§4.1.1): by
// edge state (a, b) in lessons.XORStates order, the mean learned weight of
// the edges in it and their share of all edges; the pathfinder's own
// weight and last hidden layer on each state (Table 3); and its weight
// α(a, b) over the unit square, Size×Size values (Surface[j·Size+i] at
// a = i/(Size−1), b = j/(Size−1)). The pathfinder's parts are empty for a
// model without one.
type XOR struct {
	Mean    [4]Num  `json:"mean"`
	Share   [4]Num  `json:"share"`
	Alpha   []Num   `json:"alpha,omitempty"`
	Hidden  [][]Num `json:"hidden,omitempty"`
	Surface []Num   `json:"surface,omitempty"`
	Size    int     `json:"size,omitempty"`
	// Found says the weights follow XOR (lessons.FoundXOR).
	Found bool `json:"found"`
}

// MaxTraceEdges bounds the edges a Trace lists, the heaviest first; the
// others are summed in Rest.
const MaxTraceEdges = 12

// Trace is one node's update (pdn.Trace) as the page shows it: its edges
// by normalised weight, at most MaxTraceEdges of them.
type Trace struct {
	Node   int   `json:"node"`
	Label  int   `json:"label"`
	Pred   int   `json:"pred"`
	Degree Num   `json:"degree"`
	Self   Num   `json:"self"`
	Msg1   []Num `json:"msg1"` // the node's own messages
	Msg2   []Num `json:"msg2"`
	Bias1  []Num `json:"bias1"`
	Bias2  []Num `json:"bias2"`
	Pre1   []Num `json:"pre1"`
	Hidden []Num `json:"hidden"`
	Logits []Num `json:"logits"`
	Prob   []Num `json:"prob"`
	// InterShare is the share of the aggregation weight from other
	// classes; InterShareGCN with every α = 1.
	InterShare    Num         `json:"interShare"`
	InterShareGCN Num         `json:"interShareGCN"`
	Edges         []TraceEdge `json:"edges"`
	// Rest sums the edges left out: their count, â and messages.
	Rest TraceRest `json:"rest"`
	// Attention says the weights are GAT's attention (pdn.Trace.Attention).
	Attention bool `json:"attention,omitempty"`
}

// TraceEdge is one edge of a Trace.
type TraceEdge struct {
	Neighbour  int   `json:"neighbour"`
	Label      int   `json:"label"`
	Features   []Num `json:"features,omitempty"`
	PathHidden []Num `json:"pathHidden,omitempty"`
	Alpha      Num   `json:"alpha"`
	Degree     Num   `json:"degree"`
	Norm       Num   `json:"norm"`
	NormGCN    Num   `json:"normGCN"`
	Msg1       []Num `json:"msg1"`
	Msg2       []Num `json:"msg2"`
}

// TraceRest sums a Trace's edges left out.
type TraceRest struct {
	Edges int   `json:"edges"`
	Norm  Num   `json:"norm"`
	Msg1  []Num `json:"msg1,omitempty"`
	Msg2  []Num `json:"msg2,omitempty"`
}

// EdgeState is an edge the page follows (OpEdge): where it is in the
// graph's edge list (-1 when the graph has no such edge), its features,
// and the range each feature spans over the graph's edges before any
// edit, the range an edit may set it in (datasets.Make).
type EdgeState struct {
	Ends     [2]int `json:"ends"`
	Index    int    `json:"index"`
	Features []Num  `json:"features,omitempty"`
	Lo       []Num  `json:"lo,omitempty"`
	Hi       []Num  `json:"hi,omitempty"`
}

// DegreeBin is the mean weight of the directed edges whose receiving node
// has a degree in [MinDegree, 2·MinDegree) (§4.2).
type DegreeBin struct {
	MinDegree int `json:"minDegree"`
	Entries   int `json:"entries"`
	Mean      Num `json:"mean"`
}

// Layer is one layer of a multiplex graph (lessons.Layer): its name, its
// edges, their share within classes, and the run's mean learned weight on
// them (NaN for a model that learns none).
type Layer struct {
	Name   string `json:"name"`
	Edges  int    `json:"edges"`
	Within Num    `json:"within"`
	Weight Num    `json:"weight"`
}

// Spread is the distribution of a run's learned edge weights: the 0th,
// 10th, …, 100th percentiles on intra- and inter-class edges (empty for a
// kind no edge is of) and the share of edges within 0.01 of 0 or of 1.
type Spread struct {
	Intra     []Num `json:"intra,omitempty"`
	Inter     []Num `json:"inter,omitempty"`
	Saturated Num   `json:"saturated"`
}

// Phases of Progress.
const (
	PhaseEpoch = "epoch"
	PhaseSetup = "setup"
	// PhaseRun is a quiet run's progress (Command.Quiet): Epoch epochs
	// trained, Done the share of its epochs.
	PhaseRun = "run"
)

// Snapshot is the state of training after an epoch. Its arrays travel in
// f32, one after the other (see Split): the Weights learned edge weights,
// then the class the model predicts for each of the Nodes nodes, then the
// probability it gives that class.
type Snapshot struct {
	Epoch    int `json:"epoch"`
	Epochs   int `json:"epochs"`
	Loss     Num `json:"loss"`
	TrainAcc Num `json:"trainAcc"`
	TestAcc  Num `json:"testAcc"`
	WIntra   Num `json:"wIntra"`
	WInter   Num `json:"wInter"`
	// InputHomophily and LearnedHomophily are the engine's
	// (pdn.Snapshot): the input graph's edge homophily and the share of
	// the model's edge weight on same-class edges.
	InputHomophily   Num  `json:"inputHomophily"`
	LearnedHomophily Num  `json:"learnedHomophily"`
	Running          bool `json:"running"`
	// EpochsPerSec is measured in the worker over the last chunk of work.
	EpochsPerSec Num `json:"epochsPerSec"`
	// Threads is how many threads the run's products split across: 1
	// where the page is not cross-origin isolated (web/worker.js).
	Threads int `json:"threads,omitempty"`
	// Model is the model the weights come from.
	Model string `json:"model"`
	// Inputs is the linear PDN's attention over its inputs, Hops the
	// multi-scale PDN's weight per power of Â; empty for other models.
	Inputs []float64 `json:"inputs,omitempty"`
	Hops   []float64 `json:"hops,omitempty"`
	// Warning says the run is unstable (the loss climbs; lower lr), and
	// WarningField names the parameter to change.
	Warning      *phrase.Text `json:"warning,omitempty"`
	WarningField string       `json:"warningField,omitempty"`
	// SecondsPerEpoch is the engine's estimate for the model on this graph,
	// before the first epoch has been timed.
	SecondsPerEpoch Num `json:"secondsPerEpoch"`
	// XOR is set on the XOR graph, Degree (weights binned by the receiving
	// node's degree) on the scale-free graph, Restarts when the model was
	// chosen among several initialisations.
	XOR    *XOR        `json:"xor,omitempty"`
	Degree []DegreeBin `json:"degree,omitempty"`
	// Layers are a multiplex graph's layers (lessons.Layers): what each
	// holds and the run's mean learned weight on its edges.
	Layers   []Layer   `json:"layers,omitempty"`
	Restarts *Restarts `json:"restarts,omitempty"`
	// Trace is the update of the node OpTrace asked for, TraceError why
	// there is none.
	Trace      *Trace       `json:"trace,omitempty"`
	TraceError *phrase.Text `json:"traceError,omitempty"`
	// Edge is the edge OpEdge asked for.
	Edge *EdgeState `json:"edge,omitempty"`
	// Spread is the distribution of the learned edge weights
	// (lessons.WeightSpread), from which the page reads its sentence
	// (experiment.ReadWeights); nil for a model without them.
	Spread *Spread `json:"spread,omitempty"`
	// Separation is Figure 4's number once the run has trained all its
	// epochs (lessons.Separation, which the claims read): the
	// 10-nearest-neighbour agreement of edge kind among the model's
	// hidden edge representations; NaN (null) before, for a model
	// without them, and for a quiet run (Command.Quiet).
	Separation Num `json:"separation"`
	// Weights and Nodes are the lengths of the arrays in f32.
	Weights int `json:"weights"`
	Nodes   int `json:"nodes"`
}

// Split cuts a snapshot's f32 into its arrays; all are nil if f32 does not
// hold what s says it does.
func (s Snapshot) Split(f32 []float32) (weights, pred, prob []float32) {
	if s.Weights < 0 || s.Nodes < 0 || len(f32) != s.Weights+2*s.Nodes {
		return nil, nil, nil
	}
	w, p := f32[:s.Weights:s.Weights], f32[s.Weights:s.Weights+s.Nodes:s.Weights+s.Nodes]
	return w, p, f32[s.Weights+s.Nodes:]
}

// Num is a float64 that survives JSON when it is NaN or infinite (as null).
type Num = numtext.Num

// Encode returns the JSON of a Command or Event.
func Encode(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic("protocol: " + err.Error()) // every field is encodable
	}
	return string(b)
}

// DecodeCommand reads a Command.
func DecodeCommand(s string) (Command, error) {
	var c Command
	err := json.Unmarshal([]byte(s), &c)
	return c, err
}

// DecodeEvent reads an Event.
func DecodeEvent(s string) (Event, error) {
	var e Event
	err := json.Unmarshal([]byte(s), &e)
	return e, err
}

// Float32Bytes and BytesFloat32 move float32 arrays to and from the little
// endian bytes of a Float32Array (every browser is little endian).
func Float32Bytes(dst []byte, src []float32) []byte {
	dst = slices.Grow(dst[:0], 4*len(src))
	for _, v := range src {
		b := math.Float32bits(v)
		dst = append(dst, byte(b), byte(b>>8), byte(b>>16), byte(b>>24))
	}
	return dst
}

// BytesFloat32 is the inverse of Float32Bytes.
func BytesFloat32(dst []float32, src []byte) []float32 {
	dst = slices.Grow(dst[:0], len(src)/4)
	for i := 0; i+3 < len(src); i += 4 {
		dst = append(dst, math.Float32frombits(uint32(src[i])|uint32(src[i+1])<<8|uint32(src[i+2])<<16|uint32(src[i+3])<<24))
	}
	return dst
}

// Failure is the KindError event that says err, in English as Error and
// as a message the page shows in its language as Say.
func Failure(err error) Event {
	t := phrase.Of(err)
	return Event{Kind: KindError, Error: err.Error(), Say: &t}
}

// Embedding is Figure 4 for one model at one epoch (lessons.EmbedEdges,
// as pdn tsne computes it once trained): its sampled edges in two
// dimensions, rows of 2 in XY, whether each is an inter-class edge, and
// the Neighbours-nearest-neighbour agreement of edge kind in the
// embedding (Separation) and in the hidden representations (Hidden).
// Model is the model's kind; Beside says it is the model trained beside
// the run (Command.Beside); Done that it had trained all its epochs, where
// the numbers are pdn tsne's. A model without hidden edge representations
// gets one without points, its agreements NaN.
type Embedding struct {
	Model      string    `json:"model"`
	Beside     bool      `json:"beside,omitempty"`
	Epoch      int       `json:"epoch"`
	Done       bool      `json:"done,omitempty"`
	XY         []float32 `json:"xy"`
	Inter      []bool    `json:"inter"`
	Neighbours int       `json:"neighbours"`
	Separation Num       `json:"separation"`
	Hidden     Num       `json:"hidden"`
	// OneKind says the graph lacks edges of one kind (lessons.OneKind),
	// why an embedding without points has none, where the model has
	// representations.
	OneKind bool `json:"oneKind,omitempty"`
	// Refused says why the model beside the run is not trained (the
	// browser cannot afford it beside the run: pdn.BrowserLimits), where
	// it is not; the embedding then has no points.
	Refused *phrase.Text `json:"refused,omitempty"`
}
