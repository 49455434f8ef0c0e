// Package experiment describes one whole PDN experiment: the synthetic data's
// parameters, the model, the training settings and the seeds.
//
// The Experiment struct is the single source for the CLI's flags, the
// explorer's controls, the URL permalink and the worker's messages. Every
// field is one row of the Params table, which gives its name, its allowed
// range and its default; Validate, the flag binding and the URL codec all
// read that table, so a field is validated in exactly one place.
//
// The lab table (Labs) holds the explorer's labs the same way: a row each,
// with its name, title, defaults, the rows it offers and the runs a state
// makes, read by the page, the presets, the tours and the CLI. The model
// table (Models) holds the kinds of model: what each reads and does, from
// which the rows' model lists and the engine's registry derive. The
// claims (Claims) are the findings the explorer states, as data.
//
// What a run's learned edge weights say is one rule too (ReadWeights,
// weights.go), read from their deciles on intra- and inter-class edges:
// the kinds weigh differently when their medians differ by more than
// max(0.01, a fifth of the mean 10–90 inter-decile range) and by a factor
// of at least 1.1 (down or up by the ratio of the medians); otherwise
// they weigh the same, or, when more than half the edges weigh within
// 0.01 of 0 or of 1, the pathfinder is saturated. pdn train, the graph lab
// and the claims say the sentence it gives.
//
// Who reads which row is the tables' too (Reader, reads.go): the models
// whose row lists a model row, the graphs a data row names, the row a
// row waits on, the labs whose views list a view row and what a lab's
// runs set themselves. A row given that its reader does not read is
// refused by name, the same for a CLI flag, a link's key and a state the
// worker is sent, and so are rows each in range but in conflict
// (Conflicts: restart-epochs not below epochs while there are restarts).
// A row refused changes nothing: it keeps its start, which its notice
// names.
//
// The package imports the standard library, the message catalogue's
// phrases (i18n/phrase) and numbers as text (internal/numtext) only, so
// the browser UI can use it without linking the engine or gonum.
package experiment

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/numtext"
)

// Data holds the parameters of the paper's synthetic graph generator (§5.1,
// Appendix A, Table 2) and the seed of every random draw it makes.
type Data struct {
	Graph        string  // one of Graphs: which generator draws the edges
	Classes      int     // C: number of classes
	PerClass     int     // n: nodes per class
	P            float64 // probability of an intra-class edge
	Q            float64 // probability of an inter-class edge
	NodeFeatures int     // F: node features
	EdgeFeatures int     // D: edge features
	SigmaF       float64 // σF: standard deviation of the label noise
	SigmaD       float64 // σD: standard deviation of inter-class edge features
	Seed         uint64  // seed of the data
	Attach       int     // m: edges each new node brings (GraphScaleFree only)
	// Layers are a multiplex graph's layers (GraphMultiplex): each one's
	// share of edges within classes, in percent, separated by commas
	// (LayerShares); LayerDegree is each layer's mean degree.
	Layers      string
	LayerDegree int
	// Layer names the one layer of a multiplex graph kept, its other
	// edges dropped (datasets.Make keeps it): a GCN over that layer alone; ""
	// keeps the union of the layers.
	Layer string
	Shots int // labelled nodes per class of a real graph, drawn with the seed
	// Edits are the changes made to the graph's edges after it is drawn
	// or loaded (Edits.String), applied by datasets.Make.
	Edits string
	// IDColumn and Target name the columns of the user's node table
	// (target.csv, a labels file) that hold the node ids and the classes,
	// by header name or number from 1, where the file leaves them open.
	IDColumn, Target string
	// Bins, when above 0, makes a node table's target a measurement (MUSAE
	// Wikipedia's monthly traffic) binned by quantile into Bins classes of
	// about equal size, as Geom-GCN binned Chameleon and Squirrel into 5.
	Bins int
	// Perturb is what is done to the graph after it is drawn or loaded and
	// edited (one of Perturbations), PerturbRate how much: the share of its
	// edges added or dropped, or of its node features masked. It is the
	// structure lab's robustness question (GSLB's drop, add and feature
	// masking rates).
	Perturb     string
	PerturbRate float64
}

// Graphs the generator draws. Every one has the classes, node features and
// labels of §5.1; they differ in their edges and edge features.
const (
	// GraphSynthetic is the paper's generator: edges within a class with
	// probability P, between classes with Q, edge features apart by σD.
	GraphSynthetic = "synthetic"
	// GraphXOR is GraphSynthetic whose edge features are two binary layers:
	// an intra-class edge lies in exactly one, an inter-class edge in
	// neither or both (§4.1.1).
	GraphXOR = "xor"
	// GraphScaleFree draws the edges by preferential attachment, each new
	// node bringing m of them, so degrees spread over orders of magnitude
	// (§4.2); edge features as GraphSynthetic's, by the kind of each edge.
	GraphScaleFree = "scale-free"
	// GraphMultiplex is a multiplex graph (§5.2): the synthetic graph's
	// nodes, and layers of edges over them, each with its own share of
	// edges within classes (Data.Layers), its edge features the layers.
	GraphMultiplex = "multiplex"
	// GraphCora and GraphCiteseer are the real citation graphs of Table 4
	// (Planetoid's copies), shipped with the explorer: bag-of-words node
	// features, the 11 tie-strength scores as edge features, and Shots
	// labelled nodes per class drawn with the seed.
	GraphCora     = "cora"
	GraphCiteseer = "citeseer"
	// GraphLocal is a graph the user opened from files in a page: a
	// bundle or a MUSAE folder. Its files stay in that page, so a link
	// naming it cannot bring the graph along.
	GraphLocal = "local"
)

// Graphs lists the generators and the real graphs, the default first.
var Graphs = []string{GraphSynthetic, GraphXOR, GraphScaleFree, GraphMultiplex, GraphCora, GraphCiteseer, GraphLocal}

// Buildable are the graphs that can be made from their name alone, by the
// command line or a page that opens a link: all but GraphLocal.
func Buildable() []string {
	return slices.DeleteFunc(slices.Clone(Graphs), func(g string) bool { return g == GraphLocal })
}

// Real reports whether d names a real graph rather than a generator: its
// size and features are the graph's, and of the data rows only the seed
// and shots apply.
func (d Data) Real() bool {
	return d.Graph == GraphCora || d.Graph == GraphCiteseer || d.Graph == GraphLocal
}

// Model holds the architecture.
type Model struct {
	Kind       string  // one of Kinds
	EdgeHidden []int   // hidden sizes of the pathfinder MLP; empty is linear
	Hidden     int     // hidden size of the GCN (or MLP)
	Dropout    float64 // dropout after the first layer
	EdgeInit   string  // InitUniform or InitAlive: how the pathfinder's hidden biases start

	// EdgeDrop is the share of edges the pathfinder drops at random in
	// each training step (DropEdge), for the models that learn their edges;
	// the baselines keep the paper's settings. It is 0.2 by default, a
	// departure from the official code: over 10 graphs at each of the 50
	// points of the paper's 8 scenarios it raised PDN's test accuracy by
	// 1.3 points on average and by 7.7 at Q = 2⁻⁶, where the pathfinder
	// otherwise settles on the inter-class edges and overfits; no point
	// lost more than 1.1 ± 0.6 (C = 6).
	EdgeDrop float64

	// Hops is K, how many powers of Â the multi-scale PDN mixes (§6.2,
	// Figure 7 uses 5); other models ignore it.
	Hops int

	// Restarts is how many initialisations are trained for RestartEpochs
	// before the one of lowest training loss is kept and trained on: the
	// remedy for small pathfinders that get stuck (§4.1.1's 2 neurons). 0
	// trains the one initialisation of the weight seed.
	Restarts      int
	RestartEpochs int

	// SelfLoop is the weight of each node's self-loop beside the learned
	// edge weights (SelfLoopOne, SelfLoopMean), for the models that learn
	// their edges; a fixed graph, a PDN's frozen one too, keeps weight 1.
	SelfLoop string

	// GraphFrom is the graph a fixed-graph model propagates over: the
	// input's edges (FromInput), or the edge weights a PDN with the same
	// rows learned, trained first to its end and frozen (FromPDN): the
	// structure lab's transfer question (OpenGSL's generalisability).
	GraphFrom string

	// PathfinderSeed is, for a model over a PDN's learned graph, the data
	// seed of the graph that PDN trains on: 0 (or the data's own seed) is
	// this graph; another is a graph the generator draws from the same
	// rows at that seed, whose trained pathfinder, frozen, then weighs this
	// graph's edges from their features. This is the induction of §1: "a
	// transfer of learned graph aggregation from one graph to another".
	PathfinderSeed uint64
	// PathfinderRows are the rows in which that graph differs from this
	// one beside its seed (PathfinderData): "sigma-d=8;q=0.02" trains the
	// pathfinder where inter-class edge features spread wider and more
	// edges join classes, and applies it here. Empty: the same rows.
	PathfinderRows string
}

// Induced reports whether m's learned graph comes from a PDN trained on
// another graph than d's (PathfinderSeed, PathfinderRows).
func (m Model) Induced(d Data) bool {
	return m.GraphFrom == FromPDN && m.PathfinderSeed != 0 && (m.PathfinderSeed != d.Seed || m.PathfinderRows != "")
}

// The graph-from row's choices.
const (
	FromInput = "input"
	FromPDN   = "pdn"
)

// The self-loop row's choices.
const (
	// SelfLoopOne weighs each self-loop 1, as the official code and PyG's
	// PDNConv do: the paper's model.
	SelfLoopOne = "one"
	// SelfLoopMean weighs node i's self-loop the mean of its edges' learned
	// weights (PyG's add_self_loops(fill_value="mean")), so each node keeps
	// GCN's share of itself and the pathfinder moves only the ratios of its
	// neighbours' messages. The bag-of-words recipe's: with weight 1 the
	// weights fell together on Facebook Page-Page and PDN ended 0.0075
	// under GCN; under the mean, 0.0020 (docs/benchmarks.md).
	SelfLoopMean = "mean"
)

// Pathfinder initialisations.
const (
	InitUniform = "uniform" // torch.nn.Linear's U(±1/√fan_in), as the official code
	InitAlive   = "alive"   // hidden biases start at +0.5, so no ReLU starts dead on every input
)

// Train holds the optimiser's settings and the seed of the weights.
type Train struct {
	Epochs      int
	LR          float64 // Adam's learning rate
	WeightDecay float64 // L2 coefficient added to every gradient, as torch.optim.Adam
	Seed        uint64  // seed of the initial weights and of dropout
}

// Experiment is everything needed to reproduce one run bit for bit.
type Experiment struct {
	Data  Data
	Model Model
	Train Train
	View  View
}

// View is what the explorer shows rather than what the engine runs: the
// lab, and the graph view's layout and weight threshold. Its rows travel in
// the permalink with the rest (GroupView); the engine never reads them,
// and they are no flags of the CLI.
type View struct {
	Lab       string   // the name of one of Labs
	Layout    string   // one of Layouts
	Threshold float64  // edges lighter than this are hidden, in [0, 1]
	Speed     float64  // epochs a second while training; 0 as fast as the machine goes
	Hide      string   // the engine's rows a teacher hides, separated by commas (HiddenRows)
	Models    []string // the models the compare lab trains side by side, and the sweep lab sweeps
	Scenario  int      // the sweep lab's scenario, 1..8
	Reps      int      // the sweep lab's graphs per value
	Results   string   // the sweep lab's results so far (EncodeResults)
	Present   int      // 1: projector mode (large type, controls folded away)
	Embed     int      // 1: embedded in another page (the figure, the numbers, play/step/reset)
	Threads   int      // the threads each run takes in the page, 1 to 4; 0 the browser's cores but one (up to 4)
	Lang      string   // the language of the page's words (Languages), LangAuto for the browser's
	Tour      string   // the guided tour under way (Tours), NoTour for none
	Step      int      // its step, from 1
}

// LangAuto is the lang row's default: the browser's language, if the
// explorer speaks it, else English.
const LangAuto = "auto"

// Languages are the lang row's choices: the browser's, and those the
// explorer has a catalogue for (package i18n), by their BCP 47 codes.
var Languages = []string{LangAuto, "en", "es", "zh", "ar"}

// Layouts of the graph view.
const (
	// LayoutClasses gives each class a region of its own, so inter-class
	// edges are the long lines between regions.
	LayoutClasses = "classes"
	// LayoutInput draws the force layout of the input graph as it is.
	LayoutInput = "input"
	// LayoutLearned is a force layout in which each edge pulls with its
	// learned weight, run as training goes, so the classes pull apart as
	// the pathfinder drops the edges between them.
	LayoutLearned = "learned"
)

// Layouts lists the layouts, the default first.
var Layouts = []string{LayoutClasses, LayoutInput, LayoutLearned}

// Default returns the paper's default scenario (Appendix A) with the
// training settings of the official code.
func Default() Experiment {
	var e Experiment
	for _, p := range Params {
		if err := p.Set(&e, p.Default); err != nil {
			panic("experiment: bad default for " + p.Name + ": " + err.Error())
		}
	}
	return e
}

// Validate reports every field outside its allowed range, one error per
// field, each naming the field and the range, and every pair of rows whose
// values conflict (Conflicts), naming both.
func (e *Experiment) Validate() error {
	err := e.validate("")
	var errs []error
	for _, c := range e.Conflicts() {
		errs = append(errs, c.Err)
	}
	return errors.Join(append([]error{err}, errs...)...)
}

// Conflict is a row whose value the row it must stay under (Param.Below)
// leaves no room for: Row, Other (its Below) and Needs (the row Row waits
// on, "" for none), the rows that would settle it, and the error that
// names them.
type Conflict struct {
	Row, Other, Needs string
	Err               error
}

// Rows are the rows that would settle the conflict, Row first.
func (c Conflict) Rows() []string {
	if c.Needs == "" {
		return []string{c.Row, c.Other}
	}
	return []string{c.Row, c.Other, c.Needs}
}

// Conflicts are e's rows that hold values each allowed alone but not
// together: a row read (its Needs hold) at or above the row it must stay
// under (Param.Below), as restart-epochs at or above epochs while there
// are restarts, which would spend the whole run on them; a row given the
// value of the row it must stay apart from (Param.Apart), as id-column
// and target naming one column. It is the one
// rule for rows that conflict, which Validate, a link (DecodeInto), a
// state sent to the worker (DecodeRun), the page's controls and the
// command line's flags all follow.
func (e Experiment) Conflicts() []Conflict {
	var out []Conflict
	for _, p := range Params {
		if p.Apart != nil && p.Get(&e) != "" {
			if q, _ := Lookup(p.Apart.Row); q.Get(&e) == p.Get(&e) {
				out = append(out, Conflict{Row: p.Name, Other: q.Name,
					Err: phrase.Errorf("%s and %s both name the column %s: %s", p.Name, q.Name, Quote(p.Get(&e)), p.Apart.Why)})
			}
		}
		if p.Below == nil || p.Needs != nil && !p.Needs.Holds(&e) {
			continue
		}
		q, _ := Lookup(p.Below.Row)
		if p.number(&e) < q.number(&e) {
			continue
		}
		c := Conflict{Row: p.Name, Other: q.Name,
			Err: phrase.Errorf("%s (%s) is not below %s (%s): %s; lower %s or raise %s", p.Name, p.Get(&e), q.Name, q.Get(&e), p.Below.Why, p.Name, q.Name)}
		if p.Needs != nil {
			c.Needs = p.Needs.Row
		}
		out = append(out, c)
	}
	return out
}

// Validate reports the data parameters outside Table 2's ranges.
func (d Data) Validate() error {
	e := Experiment{Data: d}
	return e.validate(GroupData)
}

func (e *Experiment) validate(group string) error {
	var errs []error
	for _, p := range Params {
		if group != "" && p.Group != group {
			continue
		}
		if err := p.check(e); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Nodes returns the number of nodes the generator makes, C·n.
func (d Data) Nodes() int { return d.Classes * d.PerClass }

// ExpectedEdges returns how many intra- and inter-class edges the generator
// makes on average: C·n(n−1)/2·P and C(C−1)/2·n²·Q.
func (d Data) ExpectedEdges() (intra, inter float64) {
	c, n := float64(d.Classes), float64(d.PerClass)
	return c * n * (n - 1) / 2 * d.P, c * (c - 1) / 2 * n * n * d.Q
}

// graphSizes are a real graph's own sizes, as Lever names them.
var graphSizes = map[string]phrase.Text{
	"nodes":         phrase.New("the graph's nodes"),
	"edges":         phrase.New("the graph's edges"),
	"node-features": phrase.New("the graph's node features"),
	"edge-features": phrase.New("the graph's edge features"),
}

// LeverText is one of Lever's names as a message says it: a row's name as
// it is, a real graph's size in the reader's language.
func LeverText(name string) phrase.Text {
	for _, t := range graphSizes {
		if t.Key == name {
			return t
		}
	}
	return phrase.New("%s", name)
}

// Lever names the parameters that set one size of the synthetic graph, for
// a message that says what to lower: "nodes" is per-class or classes,
// "edges" is p, q or per-class (the one that makes more edges first; a
// scale-free graph's attach, a multiplex graph's layer-degree and layers),
// "training-nodes" is per-class or classes, and a parameter's own name is
// itself; only rows the graph reads. A real graph's sizes are its own, so
// they are named as the graph's ("the graph's nodes"), no row, but its
// training nodes are shots a class.
func (d Data) Lever(size string) []string {
	// graphSizes' keys are what Lever says of a real graph, and
	// LeverText says them in the reader's language.
	if d.Real() { // its size is its own: no row of the generator's applies
		switch size {
		case "nodes", "edges", "node-features", "edge-features":
			return []string{graphSizes[size].Key}
		case "training-nodes": // its labelled nodes, drawn by shots
			return []string{"shots"}
		}
		return []string{size}
	}
	var rows []string
	switch size {
	case "nodes", "training-nodes":
		rows = []string{"per-class", "classes"}
	case "edges":
		rows = []string{"p", "q", "per-class"}
		if intra, inter := d.ExpectedEdges(); inter > intra {
			rows = []string{"q", "p", "per-class"}
		}
		switch d.Graph { // the generators that draw their edges by other rows
		case GraphScaleFree:
			rows = []string{"attach", "per-class"}
		case GraphMultiplex:
			rows = []string{"layer-degree", "layers", "per-class"}
		}
	case "edge-features":
		rows = []string{"edge-features", "layers"} // a multiplex graph's are its layers
	default:
		return []string{size}
	}
	// Only the rows this graph reads: a message must not say to lower
	// one its form does not show (p on a multiplex graph).
	kept := rows[:0:0]
	for _, r := range rows {
		if p, ok := Lookup(r); !ok || p.Applies(d) {
			kept = append(kept, r)
		}
	}
	if len(kept) == 0 {
		return []string{size}
	}
	return kept
}

// FormatSizes writes hidden sizes as the flag and URL spell them: "16",
// "32,16", or "none" for no hidden layer.
func FormatSizes(s []int) string {
	if len(s) == 0 {
		return "none"
	}
	parts := make([]string, len(s))
	for i, v := range s {
		parts[i] = strconv.Itoa(v)
	}
	return strings.Join(parts, ",")
}

// ParseSizes reads what FormatSizes writes. Only "none" means no hidden
// layer: an empty value or a 0 is more likely a slip than a choice, so they
// are refused rather than quietly read as none.
func ParseSizes(s string) ([]int, error) {
	s = strings.TrimSpace(s)
	if s == "none" {
		return nil, nil
	}
	parts := strings.Split(s, ",")
	out := make([]int, len(parts))
	for i, p := range parts {
		v, err := numtext.ParseInt(strings.TrimSpace(p))
		if err != nil {
			return nil, phrase.Errorf("%s is not none or a list of whole numbers like 32,16", Quote(s))
		}
		out[i] = v
	}
	return out, nil
}

// ColumnForm is the id-column and target rows' Form.
const ColumnForm = "a column's name as the file's header has it, or its number from 1; at most 100 characters"

// validColumn accepts a column's name: short, printable text.
func validColumn(s string) error {
	switch {
	case len(s) > 100:
		return phrase.Errorf("%d characters: at most 100", len(s))
	case strings.ContainsFunc(s, func(r rune) bool { return !unicode.IsPrint(r) && r != ' ' }):
		return phrase.Errorf("%s holds characters that are not printable", Quote(s))
	}
	return nil
}

// Recipes: the families of defaults a graph starts from, decided by its
// node features (datasets.Graph.Recipe), never by how it arrived.
const (
	// RecipePaper is the table's defaults, Appendix A's: no weight decay,
	// dropout 0.5.
	RecipePaper = "paper"
	// RecipeBagOfWords is for sparse bag-of-words features (Cora,
	// Citeseer, MUSAE): weight decay 0.005 and dropout 0.9, under which
	// PDN is not behind GCN on Cora (claim bag-of-words-recipe); at the
	// paper's dropout its pathfinder overfits a few hundred labelled nodes.
	// Its self-loops weigh the mean of the learned weights (SelfLoopMean).
	RecipeBagOfWords = "bag-of-words"
)

// BagOfWordsRows are RecipeBagOfWords' rows where they differ from the
// table's defaults.
const BagOfWordsRows = "weight-decay=0.005&dropout=0.9&self-loop=mean"

// Recipe is the recipe d's graph starts from where its name says it (the
// shipped graphs' features are bag-of-words, the generators' Gaussian);
// "" for one's own files, whose recipe their features decide once read.
func (d Data) Recipe() string {
	switch d.Graph {
	case GraphCora, GraphCiteseer:
		return RecipeBagOfWords
	case GraphLocal:
		return ""
	}
	return RecipePaper
}

// recipeRows are BagOfWordsRows' rows and values.
func recipeRows() [][2]string {
	var out [][2]string
	for _, kv := range strings.Split(BagOfWordsRows, "&") {
		k, v, _ := strings.Cut(kv, "=")
		out = append(out, [2]string{k, v})
	}
	return out
}

// FollowData gives e the defaults its data's recipe calls for after its
// data was prev (FollowRecipe).
func (e *Experiment) FollowData(prev Data) {
	e.FollowRecipe(prev.Recipe(), e.Data.Recipe())
}

// FollowRecipe gives e the rows of recipe to on moving from a graph of
// recipe from: the bag-of-words rows where they still hold the table's
// defaults, and back where they still hold the recipe's. Rows a user set
// stay as set; an unknown recipe ("") changes nothing.
func (e *Experiment) FollowRecipe(from, to string) {
	if from == to || from == "" || to == "" {
		return
	}
	for _, kv := range recipeRows() {
		p, _ := Lookup(kv[0])
		old, now := p.Default, kv[1]
		if to != RecipeBagOfWords {
			old, now = now, old
		}
		if sameValue(p, e, old) {
			if err := p.Set(e, now); err != nil {
				panic("experiment: bad recipe " + BagOfWordsRows + ": " + err.Error())
			}
		}
	}
}

// sameValue reports whether row p of e holds the value text.
func sameValue(p Param, e *Experiment, text string) bool {
	var x Experiment = *e
	if err := p.Set(&x, text); err != nil {
		return false
	}
	return p.Get(&x) == p.Get(e)
}

// ApplyRecipe gives e the rows of its data's recipe that set does not
// hold: a link or a command line that names a shipped graph and leaves
// these rows out gets them.
func (e *Experiment) ApplyRecipe(set func(name string) bool) {
	e.ApplyRecipeOf(e.Data.Recipe(), set)
}

// ApplyRecipeOf gives e the rows of recipe that set does not hold.
func (e *Experiment) ApplyRecipeOf(recipe string, set func(name string) bool) {
	if recipe != RecipeBagOfWords {
		return
	}
	for _, kv := range recipeRows() {
		if !set(kv[0]) {
			p, _ := Lookup(kv[0])
			if err := p.Set(e, kv[1]); err != nil {
				panic("experiment: bad recipe " + BagOfWordsRows + ": " + err.Error())
			}
		}
	}
}

// ModelRecipeRows are the rows a model of kind starts from on a graph of
// recipe, as a link's query: its own settings where they measured better
// on that family (ModelKind.OwnOn), else the family's (BagOfWordsRows on
// bag-of-words graphs, none on the paper's).
func ModelRecipeRows(recipe, kind string) string {
	if m, ok := ModelNamed(kind); ok && slices.Contains(m.OwnOn, recipe) {
		return m.Own
	}
	if recipe == RecipeBagOfWords {
		return BagOfWordsRows
	}
	return ""
}

// ModelRowNormalises reports whether a model of kind trains on a graph
// of recipe with each node's features divided by their sum: its own
// settings do (ModelKind.OwnRowNormalise), where it starts from them.
func ModelRowNormalises(recipe, kind string) bool {
	m, ok := ModelNamed(kind)
	return ok && m.OwnRowNormalise && slices.Contains(m.OwnOn, recipe)
}

// OwnSettings are a model's own settings as a sentence names them: its
// rows as a link has them, and its features' preprocessing.
func OwnSettings(m ModelKind) string {
	s := strings.ReplaceAll(m.Own, "&", " ")
	if m.OwnRowNormalise {
		s += ", features row-normalised"
	}
	return s
}

// ApplyModelRecipe gives e the rows its model starts from on a graph of
// recipe (ModelRecipeRows) that set does not hold: each model of a table
// at its own settings where they measured better. The labs' side-by-side
// runs share one state, and take the family's rows (ApplyRecipeOf).
func (e *Experiment) ApplyModelRecipe(recipe string, set func(name string) bool) {
	rows := ModelRecipeRows(recipe, e.Model.Kind)
	if rows == "" {
		return
	}
	for _, kv := range strings.Split(rows, "&") {
		k, v, _ := strings.Cut(kv, "=")
		if set(k) {
			continue
		}
		p, ok := Lookup(k)
		if !ok {
			panic("experiment: bad recipe " + rows + ": no row " + k)
		}
		if err := p.Set(e, v); err != nil {
			panic("experiment: bad recipe " + rows + ": " + err.Error())
		}
	}
}

// GraphFormats are the forms of one's own graph the explorer reads
// (datasets.Open), as messages and the page name them.
const GraphFormats = "a bundle (meta.json, nodes.csv, edges.csv), a MUSAE or FEATHER folder (edges.csv, target.csv, features.json or features.csv), " +
	"a NetworkX or d3 node-link JSON file, an OGB node-property folder (raw/edge.csv.gz, raw/node-label.csv.gz), a GraphML file, a GEXF file, a GNN benchmark .npz file, " +
	"a Matrix Market file and a labels file, or an edge list and a labels file"

// Speeds are the paces the page offers, fastest first: as fast as the
// machine goes (0), then epochs a second.
var Speeds = []float64{0, 20, 10, 5, 1}

// TourSpeed is the pace a tour's steps train at: the default graph's 200
// epochs in 20 s, slow enough to talk over.
const TourSpeed = 10

// Hidden reports whether the link hides the row called name: the page
// shows no control for it, and a link that sets it is refused there.
func (v View) Hidden(name string) bool {
	return slices.Contains(strings.Split(v.Hide, ","), name)
}

// validHide accepts a list of the engine's rows, each once.
func validHide(s string) error {
	if s == "" {
		return nil
	}
	names := strings.Split(s, ",")
	for i, n := range names {
		p, ok := Lookup(n)
		switch {
		case !ok || p.Group == GroupView:
			return phrase.Errorf("%s is not a row of the engine", Quote(n))
		case slices.Contains(names[:i], n):
			return phrase.Errorf("%s is named twice", Quote(n))
		}
	}
	return nil
}
