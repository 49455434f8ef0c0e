package experiment

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/numtext"
)

// Groups of parameters.
const (
	GroupData  = "data"
	GroupModel = "model"
	GroupTrain = "train"
	GroupView  = "view"
)

// Param is one row of the state table: one field of Experiment, with the
// name it has as a flag and URL key, its range and its default.
type Param struct {
	Name    string   // flag name and URL key
	Label   string   // what it is, in plain words, as a control says it
	Symbol  string   // the paper's symbol, if any
	Group   string   // GroupView, GroupData, GroupModel or GroupTrain
	Usage   string   // one line of help
	Default string   // the default, as text
	Min     float64  // inclusive bounds for numbers, sizes and list items
	Max     float64  //
	Log     bool     // the paper sweeps it in powers of two: use a log₂ slider
	Choices []string // the allowed values of a choice
	MaxLen  int      // the most items of a size list
	// Models are the models the row means anything for, nil for every
	// model: a control the chosen model ignores is hidden.
	Models []string
	// Graphs are the graphs a data row means anything for, nil for every
	// graph: the generators' sizes are no real graph's, m is preferential
	// attachment's, the XOR layers replace the edge features, the
	// preferential attachment the P and Q edges.
	Graphs []string
	// Needs is the other row this one waits on, nil for none: the
	// restarts' epochs mean nothing without restarts, a perturbation
	// nothing at rate 0, a rate nothing without a perturbation.
	Needs *Need
	// EdgeOnly says a data row changes only the edges' own features (their
	// number, their spread): a run whose model reads none
	// (ModelKind.EdgeFeatures) trains to the same bits whatever it is, so
	// only a lab, whose views show the graph's edges, reads it then.
	EdgeOnly bool
	// Edges says a data row changes only the graph's edges (which pairs
	// are joined, and their features), never its nodes, their features or
	// the split: a run whose model passes no messages (ModelKind.Graph
	// false: the MLP) trains to the same bits whatever it is, so only a
	// reader that shows the graph's edges reads it then (the edits).
	Edges bool
	// EdgesWhen is Edges for some states only: the perturbation rows
	// change only the edges when the perturbation chosen does
	// (Perturbation.Edges: edges added or dropped, not features masked).
	EdgesWhen func(*Experiment) bool
	// Below is the row this one's value must stay under wherever this one
	// is read (its Needs hold), and why: each value alone lies in its
	// range, and together they conflict (Experiment.Conflicts), which the
	// state table's validation refuses on every surface.
	Below *Bound
	// Apart is the row this one must not equal wherever both are given
	// (not empty), and why: -id-column and -target naming one column, which
	// cannot both name the nodes and hold their classes (Experiment.Conflicts).
	Apart *Bound
	// Form describes the text a free-text row takes (one without
	// choices), which valid checks.
	Form string

	valid func(string) error
	// norm is the form a free-text row is kept in once valid, nil for the
	// text as given: an edit list as Edits.String writes it, so that its
	// numbers are read as every number is ("~-0" is "~0", "~+0.80" "~0.8").
	norm func(string) string

	field func(*Experiment) any // pointer to the field: *int, *float64, *uint64, *string or *[]int
}

// Need is a row's condition on another row (Param.Needs): it is read only
// when Holds holds of the state, which When says in words.
type Need struct {
	Row   string
	When  phrase.Text
	Holds func(e *Experiment) bool
	// Chosen says choosing the row meets the need (Lab.Settle: a
	// perturbation chosen at rate 0 takes its first rate), so a page
	// shows its control while the need fails; else it hides it (Idle).
	Chosen bool
}

// Bound is a row's limit by another row (Param.Below): the row whose value
// it must stay under, and why.
type Bound struct {
	Row string
	Why phrase.Text
}

// Idle reports whether row p waits in e on another row (Needs) that
// choosing p would not provide, so that a page shows no control for it:
// a rate while there is no perturbation. A perturbation at rate 0 is not
// idle: choosing one gives it its first rate.
func (p Param) Idle(e Experiment) bool {
	return p.Needs != nil && !p.Needs.Chosen && !p.Needs.Holds(&e)
}

// The graphs the data rows mean anything for (Param.Graphs).
var (
	generatorGraphs = []string{GraphSynthetic, GraphXOR, GraphScaleFree, GraphMultiplex}
	realGraphs      = []string{GraphCora, GraphCiteseer, GraphLocal}
	localGraph      = []string{GraphLocal}
)

// maxSeed keeps seeds exact in a JavaScript number (URL and worker messages).
const maxSeed = 1<<53 - 1

// Params is the state table. Its order is the order of the controls and
// of a permalink's keys.
var Params = []Param{
	{Name: "lab", Label: "Lab", Group: GroupView, Usage: "the lab shown", Default: labNames()[0], Choices: labNames(),
		field: func(e *Experiment) any { return &e.View.Lab }},
	{Name: "layout", Label: "Layout", Group: GroupView, Usage: "how the graph view places the nodes: a region per class, the force layout as it is, or a force layout pulled by the learned weights", Default: LayoutClasses, Choices: Layouts,
		field: func(e *Experiment) any { return &e.View.Layout }},
	{Name: "threshold", Label: "Hide edges lighter than", Group: GroupView, Usage: "edges with a learned weight below this are hidden", Default: "0", Min: 0, Max: 1,
		field: func(e *Experiment) any { return &e.View.Threshold }},

	{Name: "models", Label: "Models side by side", Group: GroupView, Usage: "the models the compare lab trains side by side, and the sweep lab sweeps, separated by commas", Default: "pdn,gcn", Choices: Kinds, Min: 2, Max: 4, MaxLen: 4,
		field: func(e *Experiment) any { return &e.View.Models }},
	{Name: "scenario", Label: "Scenario of Figure 3", Group: GroupView, Usage: "the paper's synthetic scenario the sweep lab runs (Table 2): 1 C, 2 n, 3 P, 4 Q, 5 F, 6 D, 7 σF, 8 σD", Default: "4", Min: 1, Max: 8,
		field: func(e *Experiment) any { return &e.View.Scenario }},
	{Name: "reps", Label: "Graphs per value", Group: GroupView, Usage: "graphs the sweep lab trains at each value; rep r uses data and weight seed r", Default: "3", Min: 1, Max: 10,
		field: func(e *Experiment) any { return &e.View.Reps }},
	{Name: "results", Label: "Results so far", Group: GroupView, Usage: "the results so far of the runs a lab trains each to its end (the sweep lab's, the structure lab's robustness and transfer runs), so that a link shows them without training again", Default: "",
		Form:  "test accuracies in units of 10⁻⁴ (0 to 10000), x for none or nothing for a run not yet trained, separated by dots",
		field: func(e *Experiment) any { return &e.View.Results },
		valid: func(s string) error { _, err := parseResults(s); return err }},
	{Name: "hide", Label: "Hidden controls", Group: GroupView, Usage: "the controls a teacher hides from the class, by their rows' names, separated by commas: the page shows none of them, and a link that sets one is refused", Default: "",
		Form:  "the names of the engine's rows, separated by commas, each once",
		field: func(e *Experiment) any { return &e.View.Hide }},
	{Name: "speed", Label: "Speed", Group: GroupView, Usage: "epochs a second while training, so that a teacher can talk over the run: 0 trains as fast as the machine goes; the pace changes no result", Default: "0", Min: 0, Max: 100,
		field: func(e *Experiment) any { return &e.View.Speed }},
	{Name: "present", Label: "Projector mode", Group: GroupView, Usage: "projector mode: 1 for large type and marks, the controls folded away and the figures filling the screen", Default: "0", Min: 0, Max: 1,
		field: func(e *Experiment) any { return &e.View.Present }},
	{Name: "embed", Label: "Embedded in another page", Group: GroupView, Usage: "1 for a lab embedded in another page (an iframe in slides or a course page): its figure, its headline numbers and play, step and reset, with a link that opens the explorer", Default: "0", Min: 0, Max: 1,
		field: func(e *Experiment) any { return &e.View.Embed }},
	{Name: "threads", Label: "Threads", Group: GroupView, Usage: "the threads each run's products take in the page: 0 for the browser's cores but one, up to 4, or 1 to 4 (more than the page started with takes effect when it is opened again); only a cross-origin isolated page has more than one, and the threads change no result, only the speed", Default: "0", Min: 0, Max: 4,
		field: func(e *Experiment) any { return &e.View.Threads }},
	{Name: "lang", Label: "Language", Group: GroupView, Usage: "the language of the page: auto for the browser's (English if the explorer does not speak it), en English, es Spanish, zh Simplified Chinese, ar Arabic", Default: LangAuto, Choices: Languages,
		field: func(e *Experiment) any { return &e.View.Lang }},
	{Name: "tour", Label: "Guided tour", Group: GroupView, Usage: "the guided tour under way, none for no tour", Default: NoTour, Choices: tourNames(),
		field: func(e *Experiment) any { return &e.View.Tour }},
	{Name: "step", Label: "Step of the tour", Group: GroupView, Usage: "the step of the tour shown, from 1", Default: "1", Min: 1, Max: float64(maxTourSteps()),
		Needs: &Need{Row: "tour", When: phrase.New("tour names a tour"), Holds: func(e *Experiment) bool { return e.View.Tour != NoTour }},
		field: func(e *Experiment) any { return &e.View.Step }},

	{Name: "data", Label: "Graph", Group: GroupData, Usage: "the graph: the paper's synthetic generator, its XOR edge layers (§4.1.1), preferential attachment (§4.2), a multiplex graph of named layers (§5.2), the real citation graphs Cora and Citeseer (Table 4), or local: a graph opened from your own files in the page, which a link cannot carry", Default: GraphSynthetic, Choices: Graphs,
		field: func(e *Experiment) any { return &e.Data.Graph }},
	{Name: "classes", Label: "Classes", Symbol: "C", Group: GroupData, Usage: "number of classes", Default: "3", Min: 2, Max: 6,
		Graphs: generatorGraphs,
		field:  func(e *Experiment) any { return &e.Data.Classes }},
	{Name: "per-class", Label: "Nodes per class", Symbol: "n", Group: GroupData, Usage: "nodes per class", Default: "500", Min: 16, Max: 1024, Log: true,
		Graphs: generatorGraphs,
		field:  func(e *Experiment) any { return &e.Data.PerClass }},
	{Name: "p", Label: "Chance of an edge within a class", Symbol: "P", Group: GroupData, Usage: "probability of an intra-class edge", Default: "0.01", Min: 1.0 / 1024, Max: 1.0 / 16, Log: true,
		Graphs: []string{GraphSynthetic, GraphXOR}, // preferential attachment draws its own edges
		field:  func(e *Experiment) any { return &e.Data.P }},
	{Name: "q", Label: "Chance of an edge between classes", Symbol: "Q", Group: GroupData, Usage: "probability of an inter-class edge", Default: "0.005", Min: 1.0 / 1024, Max: 1.0 / 16, Log: true,
		Graphs: []string{GraphSynthetic, GraphXOR}, // preferential attachment draws its own edges
		field:  func(e *Experiment) any { return &e.Data.Q }},
	{Name: "node-features", Label: "Node features", Symbol: "F", Group: GroupData, Usage: "node features", Default: "32", Min: 4, Max: 64, Log: true,
		Graphs: generatorGraphs,
		field:  func(e *Experiment) any { return &e.Data.NodeFeatures }},
	{Name: "edge-features", Label: "Edge features", Symbol: "D", Group: GroupData, Usage: "edge features", Default: "32", Min: 4, Max: 64, Log: true,
		Graphs: []string{GraphSynthetic, GraphScaleFree}, EdgeOnly: true, // the XOR layers are its edge features
		field: func(e *Experiment) any { return &e.Data.EdgeFeatures }},
	{Name: "sigma-f", Label: "Noise on node features", Symbol: "σF", Group: GroupData, Usage: "standard deviation of the label noise", Default: "5", Min: 0.5, Max: 32, Log: true,
		Graphs: generatorGraphs,
		field:  func(e *Experiment) any { return &e.Data.SigmaF }},
	{Name: "sigma-d", Label: "Spread of inter-class edge features", Symbol: "σD", Group: GroupData, Usage: "standard deviation of inter-class edge features", Default: "2", Min: 0.5, Max: 32, Log: true,
		Graphs: []string{GraphSynthetic, GraphScaleFree}, EdgeOnly: true, // the XOR layers are its edge features
		field: func(e *Experiment) any { return &e.Data.SigmaD }},
	{Name: "attach", Label: "Edges each new node brings", Symbol: "m", Group: GroupData, Usage: "edges each new node brings under preferential attachment (graph scale-free only)", Default: "5", Min: 1, Max: 50,
		Graphs: []string{GraphScaleFree},
		field:  func(e *Experiment) any { return &e.Data.Attach }},
	{Name: "layers", Label: "Layers: each one's edges within classes, in percent", Group: GroupData, Usage: "a multiplex graph's layers, one number a layer: 100 carries the classes, 100/C joins nodes at random, less misleads", Default: "90,60,33,33",
		Form: LayersForm, Graphs: []string{GraphMultiplex}, Edges: true,
		field: func(e *Experiment) any { return &e.Data.Layers },
		valid: func(s string) error { _, err := parseLayers(s); return err },
		norm:  formatLayers},
	{Name: "layer-degree", Label: "Mean degree of each layer", Group: GroupData, Usage: "the mean degree of each layer of a multiplex graph: the edges it brings, 2 for each node's one", Default: "4", Min: 1, Max: 32,
		Graphs: []string{GraphMultiplex}, Edges: true,
		field: func(e *Experiment) any { return &e.Data.LayerDegree }},
	{Name: "layer", Label: "One layer alone", Group: GroupData, Usage: "the one layer of a multiplex graph kept, by its name, its other edges dropped: a model over that layer alone; empty for the union of the layers", Default: "",
		Form: LayerForm, Graphs: []string{GraphMultiplex, GraphLocal}, Edges: true,
		field: func(e *Experiment) any { return &e.Data.Layer },
		valid: validLayer},
	{Name: "shots", Label: "Labelled nodes per class", Group: GroupData, Usage: "labelled nodes per class of a real graph (cora, citeseer), drawn with the seed; the other nodes are test nodes", Default: "100", Min: 1, Max: 1000,
		Graphs: realGraphs,
		field:  func(e *Experiment) any { return &e.Data.Shots }},
	{Name: "seed", Label: "Data seed", Group: GroupData, Usage: "seed of the data", Default: "1", Min: 0, Max: maxSeed,
		field: func(e *Experiment) any { return &e.Data.Seed }},
	{Name: EditsRow, Label: "Edits of the graph", Group: GroupData, Usage: "changes to the graph's edges after it is drawn or loaded: edges added, removed or given other features", Default: "",
		Form: EditsForm, Edges: true,
		field: func(e *Experiment) any { return &e.Data.Edits },
		valid: func(s string) error { _, err := ParseEdits(s); return err },
		norm:  func(s string) string { es, _ := ParseEdits(s); return es.String() }},
	{Name: "id-column", Label: "Column of node names", Group: GroupData, Usage: "the column of your own node table (target.csv, a labels file) that names the nodes, by its header or its number from 1; empty: found from the file", Default: "",
		Form:   ColumnForm,
		Graphs: localGraph,
		Apart:  &Bound{Row: "target", Why: phrase.New("a column that names each node once holds no classes, and one that holds classes names no node: name the two columns apart, or leave one empty (found from the file)")},
		field:  func(e *Experiment) any { return &e.Data.IDColumn },
		valid:  validColumn},
	{Name: "target", Label: "Column of classes", Group: GroupData, Usage: "the column of your own node table that holds the classes, by its header or its number from 1; empty: found from the file", Default: "",
		Form:   ColumnForm,
		Graphs: localGraph,
		field:  func(e *Experiment) any { return &e.Data.Target },
		valid:  validColumn},
	{Name: "bins", Label: "Classes binned from a measurement", Group: GroupData, Usage: "make your own node table's target a measurement (a count, a rate) cut by quantile into this many classes of about equal size; 0 takes its values as the classes", Default: "0", Min: 0, Max: 20,
		Graphs: localGraph,
		field:  func(e *Experiment) any { return &e.Data.Bins }},
	{Name: "perturb", Label: "Perturbation of the graph", Group: GroupData, Usage: "what is done to the graph after it is drawn or loaded: none, random edges added, inter-class edges added (an attacker who knows the classes), edges dropped, or node features masked", Default: PerturbNone, Choices: perturbNames(),
		Needs:     &Need{Row: "perturb-rate", When: phrase.New("perturb-rate is above 0 (at 0 the graph is as it is)"), Holds: func(e *Experiment) bool { return e.Data.PerturbRate > 0 }, Chosen: true},
		EdgesWhen: perturbsEdges,
		field:     func(e *Experiment) any { return &e.Data.Perturb }},
	{Name: "perturb-rate", Label: "Perturbation rate", Group: GroupData, Usage: "how much is perturbed: the share of the graph's edges added or dropped, or of its node features masked", Default: "0", Min: 0, Max: 1,
		Needs:     &Need{Row: "perturb", When: phrase.New("perturb names a perturbation"), Holds: func(e *Experiment) bool { return e.Data.Perturb != PerturbNone }},
		EdgesWhen: perturbsEdges,
		field:     func(e *Experiment) any { return &e.Data.PerturbRate }},

	{Name: "model", Label: "Model", Group: GroupModel, Usage: "model to train", Default: Models[0].Name, Choices: Kinds,
		field: func(e *Experiment) any { return &e.Model.Kind }},
	{Name: "edge-hidden", Label: "Pathfinder hidden layers", Models: modelsReading("edge-hidden"), Group: GroupModel, Usage: "hidden sizes of the pathfinder MLP: none, 16 or 32,16", Default: "16", Min: 1, Max: 256, MaxLen: 3,
		field: func(e *Experiment) any { return &e.Model.EdgeHidden }},
	{Name: "edge-init", Label: "Pathfinder's starting biases", Models: modelsReading("edge-init"), Group: GroupModel, Usage: "initial hidden biases of the pathfinder: uniform (torch) or alive (+0.5)", Default: InitUniform, Choices: []string{InitUniform, InitAlive},
		Needs: &Need{Row: "edge-hidden", When: phrase.New("the pathfinder has a hidden layer (edge-hidden is not none)"), Holds: func(e *Experiment) bool { return len(e.Model.EdgeHidden) > 0 }},
		field: func(e *Experiment) any { return &e.Model.EdgeInit }},
	{Name: "self-loop", Label: "Each node's own weight", Models: modelsReading("self-loop"), Group: GroupModel, Usage: "the weight of each node's self-loop beside its learned edge weights: one (the paper's code, PyG's PDNConv) or mean (the mean of its edges' weights, PyG's add_self_loops fill_value mean)", Default: SelfLoopOne, Choices: []string{SelfLoopOne, SelfLoopMean},
		field: func(e *Experiment) any { return &e.Model.SelfLoop }},
	{Name: "hidden", Label: "Hidden units", Models: modelsReading("hidden"), Group: GroupModel, Usage: "hidden size of the model's first layer (the models that read it)", Default: "32", Min: 1, Max: 512,
		field: func(e *Experiment) any { return &e.Model.Hidden }},
	{Name: "dropout", Label: "Dropout", Models: modelsReading("dropout"), Group: GroupModel, Usage: "dropout after the first layer", Default: "0.5", Min: 0, Max: 0.95,
		field: func(e *Experiment) any { return &e.Model.Dropout }},
	{Name: "hops", Label: "Powers of Â mixed", Models: modelsReading("hops"), Symbol: "K", Group: GroupModel, Usage: "powers of Â the multi-scale PDN mixes (pdn-multiscale only)", Default: "2", Min: 1, Max: 5,
		field: func(e *Experiment) any { return &e.Model.Hops }},
	{Name: "edge-dropout", Label: "Edges dropped each step", Models: modelsReading("edge-dropout"), Group: GroupModel, Usage: "share of edges the pathfinder drops in each training step (DropEdge; PDN models only)", Default: "0.2", Min: 0, Max: 0.9,
		field: func(e *Experiment) any { return &e.Model.EdgeDrop }},
	{Name: "graph-from", Label: "Graph propagated over", Models: modelsTakingWeights(), Group: GroupModel, Usage: "the graph a fixed-graph model propagates over: the input's edges, or the edge weights a PDN with the same rows learned, trained first and frozen", Default: FromInput, Choices: []string{FromInput, FromPDN},
		field: func(e *Experiment) any { return &e.Model.GraphFrom }},
	// pathfinder-seed draws another graph from the generator's rows: a
	// real graph, or one's own, has one draw.
	{Name: "pathfinder-seed", Label: "Pathfinder's graph seed", Models: modelsTakingWeights(), Group: GroupModel, Graphs: generatorGraphs, Usage: "the data seed of the graph whose PDN learns the graph a fixed-graph model propagates over: 0, this graph; another, a graph the generator draws at that seed, whose pathfinder, frozen, weighs this graph's edges (induction)", Default: "0", Min: 0, Max: maxSeed,
		Needs: &Need{Row: "graph-from", When: phrase.New("graph-from is pdn"), Holds: func(e *Experiment) bool { return e.Model.GraphFrom == FromPDN }},
		field: func(e *Experiment) any { return &e.Model.PathfinderSeed }},
	{Name: "pathfinder-rows", Label: "Pathfinder's graph rows", Models: modelsTakingWeights(), Group: GroupModel, Graphs: generatorGraphs, Usage: "the rows in which the pathfinder's graph differs from this one beside its seed, as row=value pairs joined by semicolons (sigma-d=8;q=0.02): where induction carries the learned graph, and where it stops; empty for the same rows", Default: "",
		Form:  PathfinderRowsForm,
		Needs: &Need{Row: "pathfinder-seed", When: phrase.New("pathfinder-seed is above 0"), Holds: func(e *Experiment) bool { return e.Model.GraphFrom == FromPDN && e.Model.PathfinderSeed != 0 }},
		field: func(e *Experiment) any { return &e.Model.PathfinderRows }}, // valid: validPathfinderRows, set in init (it reads the table)

	{Name: "restarts", Label: "Restarts of the pathfinder", Models: modelsRestarting(), Group: GroupModel, Usage: "initialisations tried before training one to the end, the one of lowest training loss kept (0: just the weight seed's)", Default: "0", Min: 0, Max: 20,
		field: func(e *Experiment) any { return &e.Model.Restarts }},
	{Name: "restart-epochs", Label: "Epochs of each restart", Models: modelsRestarting(), Group: GroupModel, Usage: "epochs each restart trains before one is kept", Default: "50", Min: 1, Max: 100000,
		Needs: &Need{Row: "restarts", When: phrase.New("restarts is above 0"), Holds: func(e *Experiment) bool { return e.Model.Restarts > 0 }},
		Below: &Bound{Row: "epochs", Why: phrase.New("each restart trains that many of the run's epochs before the one kept trains on, so the restarts would take them all")},
		field: func(e *Experiment) any { return &e.Model.RestartEpochs }},

	{Name: "epochs", Label: "Epochs", Group: GroupTrain, Usage: "training epochs", Default: "200", Min: 1, Max: 100000,
		field: func(e *Experiment) any { return &e.Train.Epochs }},
	{Name: "lr", Label: "Learning rate", Group: GroupTrain, Usage: "Adam's learning rate", Default: "0.01", Min: 1e-6, Max: 10, Log: true,
		field: func(e *Experiment) any { return &e.Train.LR }},
	{Name: "weight-decay", Label: "Weight decay", Group: GroupTrain, Usage: "L2 weight decay", Default: "0", Min: 0, Max: 1,
		field: func(e *Experiment) any { return &e.Train.WeightDecay }},
	{Name: "init-seed", Label: "Weight seed", Group: GroupTrain, Usage: "seed of the initial weights and of dropout", Default: "1", Min: 0, Max: maxSeed,
		field: func(e *Experiment) any { return &e.Train.Seed }},
}

// Lookup returns the row named name.
func Lookup(name string) (Param, bool) {
	return rowNamed(Params, func(p Param) string { return p.Name }, name)
}

// Range describes the allowed values, for error messages and help.
func (p Param) Range() string { return p.RangeText().String() }

// RangeText is Range as a message, for the page to show in its language.
func (p Param) RangeText() phrase.Text {
	switch {
	case p.Form != "":
		return phrase.New(p.Form)
	case p.Choices != nil && p.MaxLen > 0:
		return phrase.New("%s to %s of %s, separated by commas, each once", num(p.Min), num(p.Max), strings.Join(p.Choices, ", "))
	case p.Choices != nil:
		return phrase.New("one of %s", strings.Join(p.Choices, ", "))
	case p.MaxLen > 0:
		return phrase.New("none, or up to %d sizes in [%s, %s] separated by commas", p.MaxLen, num(p.Min), num(p.Max))
	}
	return phrase.New("[%s, %s]", num(p.Min), num(p.Max))
}

// Want is what a value of the row must be, for a refusal: RangeText, and
// for a row of whole numbers "a whole number in [lo, hi]", so that 16.0,
// which lies in [16, 1024], is not refused as if it were outside it.
func (p Param) Want() phrase.Text {
	if p.Form == "" && p.Choices == nil && p.MaxLen == 0 {
		var probe Experiment
		switch p.field(&probe).(type) {
		case *int, *uint64:
			return phrase.New("a whole number in %s", p.RangeText())
		}
	}
	return p.RangeText()
}

// num writes a bound: whole numbers in full (a seed's 9007199254740991),
// others in the shortest form.
func num(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e16 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// maxQuoted is how much of a value a message repeats: enough to recognise
// it, not so much that a pasted megabyte fills the page.
const maxQuoted = 40

// Quote quotes s for a message, cut to its first 40 characters.
func Quote(s string) string {
	r := []rune(s)
	if len(r) > maxQuoted {
		return strconv.Quote(string(r[:maxQuoted])) + fmt.Sprintf("… (%d characters)", len(r))
	}
	return strconv.Quote(s)
}

// Applies reports whether the parameter means anything for the data d, so
// that a page shows only the controls that do: a data row is read by the
// graphs its Graphs name (every graph where it names none): a real graph
// has its own size and features (only its seed, shots and edits apply, and
// the columns of the user's own files), a generated one has no shots, m is
// preferential attachment's, and so on.
func (p Param) Applies(d Data) bool {
	if p.Graphs == nil {
		return true
	}
	g := d.Graph
	if g == "" {
		g = GraphSynthetic // the zero Data's, as datasets.Build reads it
	}
	return slices.Contains(p.Graphs, g)
}

// Columns reports whether the row chooses a column of the user's own files
// (id-column, target, bins): read when files are opened, by whatever graph
// the runs train until then.
func (p Param) Columns() bool { return p.Form == ColumnForm || p.Name == "bins" }

// Whole reports whether the parameter takes whole numbers only (counts,
// sizes and seeds), so that a control rounds what it offers.
func (p Param) Whole() bool {
	if p.field == nil {
		return false
	}
	var e Experiment
	switch p.field(&e).(type) {
	case *int, *uint64, *[]int:
		return true
	}
	return false
}

// number is the value of a number row (a count, a size, a seed, a rate)
// of e.
func (p Param) number(e *Experiment) float64 {
	switch v := p.field(e).(type) {
	case *int:
		return float64(*v)
	case *float64:
		return *v
	case *uint64:
		return float64(*v)
	}
	panic("experiment: " + p.Name + " is no number")
}

// Get returns the field's value as text, in the form Set reads.
func (p Param) Get(e *Experiment) string {
	switch v := p.field(e).(type) {
	case *int:
		return strconv.Itoa(*v)
	case *float64:
		return num(*v)
	case *uint64:
		return strconv.FormatUint(*v, 10)
	case *string:
		return *v
	case *[]int:
		return FormatSizes(*v)
	case *[]string:
		return strings.Join(*v, ",")
	}
	panic("experiment: unknown field type for " + p.Name)
}

// Set parses s into the field and checks its range. On error the field is
// left as it was and the error names the field and the allowed range.
func (p Param) Set(e *Experiment, s string) error {
	s = strings.TrimSpace(s)
	bad := func() error { return phrase.Errorf("%s: %s is not allowed; want %s", p.Name, Quote(s), p.Want()) }
	if !utf8.ValidString(s) {
		// A column's name in Latin-1 bytes (a link's caf%E9) names no
		// column: every file's text is UTF-8 once read.
		return phrase.Errorf("%s: %s is not UTF-8 text; want %s", p.Name, Quote(s), p.RangeText())
	}
	var probe Experiment
	switch v := p.field(&probe).(type) {
	case *int:
		x, err := numtext.ParseInt(s)
		if err != nil {
			return bad()
		}
		*v = x
	case *float64:
		x, err := numtext.ParseFloat(s)
		if err != nil {
			return bad()
		}
		*v = x
	case *uint64:
		x, err := numtext.ParseUint(s)
		if err != nil {
			return bad()
		}
		*v = x
	case *string:
		*v = s
	case *[]int:
		x, err := ParseSizes(s)
		if err != nil {
			return bad()
		}
		*v = x
	case *[]string:
		*v = strings.Split(s, ",")
		for i := range *v {
			(*v)[i] = strings.TrimSpace((*v)[i])
		}
	}
	if err := p.check(&probe); err != nil {
		return err
	}
	if v, ok := p.field(&probe).(*string); ok && p.norm != nil {
		*v = p.norm(*v)
	}
	p.copyField(e, &probe)
	return nil
}

func (p Param) copyField(dst, src *Experiment) {
	switch v := p.field(dst).(type) {
	case *int:
		*v = *p.field(src).(*int)
	case *float64:
		*v = *p.field(src).(*float64)
	case *uint64:
		*v = *p.field(src).(*uint64)
	case *string:
		*v = *p.field(src).(*string)
	case *[]int:
		*v = append([]int(nil), *p.field(src).(*[]int)...)
	case *[]string:
		*v = append([]string(nil), *p.field(src).(*[]string)...)
	}
}

// check reports whether the field of e lies in the allowed range.
func (p Param) check(e *Experiment) error {
	in := func(x float64) bool { return x >= p.Min && x <= p.Max }
	ok := true
	switch v := p.field(e).(type) {
	case *int:
		ok = in(float64(*v))
	case *float64:
		ok = !math.IsNaN(*v) && in(*v)
	case *uint64:
		ok = in(float64(*v))
	case *string:
		if p.valid != nil {
			if err := p.valid(*v); err != nil {
				return phrase.Errorf("%s: %w; want %s", p.Name, err, phrase.New(p.Form))
			}
			return nil
		}
		ok = false
		for _, c := range p.Choices {
			ok = ok || *v == c
		}
	case *[]int:
		ok = len(*v) <= p.MaxLen
		for _, x := range *v {
			ok = ok && in(float64(x))
		}
	case *[]string:
		// Each choice at most once: two runs of one model would share a
		// name, and neither a user nor a test could tell them apart.
		ok = in(float64(len(*v)))
		for i, x := range *v {
			ok = ok && slices.Contains(p.Choices, x) && !slices.Contains((*v)[:i], x)
		}
	}
	if !ok {
		shown := p.Get(e)
		if p.Choices != nil {
			shown = Quote(shown)
		}
		return phrase.Errorf("%s: %s is not allowed; want %s", p.Name, shown, p.RangeText())
	}
	return nil
}

// ReadByModel reports whether a model set up as m reads p by its kind
// (Param.Models): its own rows, and, over a PDN's learned graph (GraphFrom
// FromPDN), the rows of that PDN, which trains first with the state's
// rows and whose weights it propagates with. One rule for every surface.
func (p Param) ReadByModel(m Model) bool {
	if p.Models == nil || slices.Contains(p.Models, m.Kind) {
		return true
	}
	return m.GraphFrom == FromPDN && TakesWeights(m.Kind) && slices.Contains(p.Models, PDN)
}

// Matters reports whether the row changes anything a model m trains: a
// row for other models (Models), or one whose Needs on another model row
// do not hold (the restarts' epochs without restarts, the pathfinder's
// hidden biases without a hidden layer). A page hides a row that does not
// matter; pdn's tests train each model with each such row changed and
// find the same bits.
func (p Param) Matters(m Model) bool {
	if !p.ReadByModel(m) {
		return false
	}
	if p.Needs != nil {
		if q, _ := Lookup(p.Needs.Row); q.Group == GroupModel {
			e := Experiment{Model: m}
			return p.Needs.Holds(&e)
		}
	}
	return true
}
