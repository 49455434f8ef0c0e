package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"pdnexplorer/datasets"
	"pdnexplorer/datasets/shaped"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/numtext"
	"pdnexplorer/internal/outdir"
	"pdnexplorer/lessons"
	"pdnexplorer/pdn"
)

func parseGen(args []string, stderr io.Writer) (runner, error) {
	e := experiment.Default()
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	out := new(string)
	outFlag(fs, out, "out", "directory to write the bundle to (required)", true)
	dense := fs.Bool("dense", false, "write sparse node features (cora, citeseer, a MUSAE folder) dense, as x columns, for readers that know only those")
	var force bool
	forceFlag(fs, &force, "-out")
	like := fs.String("like", "", "instead of a bundle, write a generated graph with the counts of a published one, in the files it is published as ("+shapeNames()+"), drawn with -seed")
	experiment.RegisterFlags(fs, &e, experiment.GroupData)
	var dir string
	dataOrDir(fs, &dir, ", written again as a bundle")
	if err := parse(fs, args, stderr); err != nil {
		return nil, err
	}
	if err := unreadFlags(fs, withDir(e, dir), genReader(*like)); err != nil {
		return nil, err
	}
	if *dense && dir == "" && !e.Data.Real() && *like == "" {
		// A generator's features are dense: said before the folder is made.
		return nil, usageError{fmt.Errorf("flag -dense: graph %s's node features are dense already (written as x columns whatever the flag): -dense writes sparse features (cora, citeseer, a MUSAE folder) as x columns; leave it out", e.Data.Graph)}
	}
	if *like != "" && *dense {
		return nil, usageError{errors.New("flag -dense: gen -like writes the files a published graph comes in, not a bundle; leave it out")}
	}
	// A graph's folder holds the graph alone: -data opens the whole folder.
	spec := outSpec{flag: "out", dir: *out, force: force, parts: []string{"gen"}, inputs: inputDirs("data", dir), alone: "a graph bundle"}
	if *like != "" {
		spec.alone = "a graph's files"
	}
	if *like != "" {
		return genShaped(*like, spec, e.Data.Seed)
	}
	resplit := flagSet(fs, "shots")
	return func(stdout, stderr io.Writer) (err error) {
		w, err := openOut(spec, stderr)
		if err != nil {
			return err
		}
		defer finishOut(w, &err)
		g, err := genGraph(e.Data, dir, resplit, newGraphNotes(stderr))
		if err != nil {
			return err
		}
		switch {
		case *dense && g.XS == nil:
			// A flag the run does not read is refused by name, as every
			// such flag is: -dense only changes sparse features.
			return usageError{fmt.Errorf("flag -dense: the graph's node features are dense already (%d a node, written as x columns whatever the flag): -dense writes sparse features (cora, citeseer, a MUSAE folder) as x columns; leave it out", g.F)}
		case *dense:
			g.X, g.XS = g.XS.Dense(), nil
		}
		if err := datasets.WriteBundle(g, w.Creator("gen", "")); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s: %v\n", *out, g)
		return nil
	}, nil
}

// genReader is gen's reader: the graph the data rows name, or with -like
// a published graph's counts, drawn with -seed alone.
func genReader(like string) experiment.Reader {
	if like == "" {
		return commandReader("gen", "")
	}
	r := commandReader("gen -like", "")
	r.Sets = map[string]phrase.Text{}
	for _, p := range experiment.Params {
		if p.Group == experiment.GroupData && p.Name != "seed" {
			r.Sets[p.Name] = phrase.New("it draws a graph with the counts of %s, from -seed alone", like)
		}
	}
	return r
}

// genShaped is gen -like: the shape named name, drawn with seed and
// written to out in its published files.
func genShaped(name string, spec outSpec, seed uint64) (runner, error) {
	s, ok := shaped.Lookup(name)
	if !ok {
		return nil, usageError{fmt.Errorf("flag -like: %s is not a published graph's shape; want one of %s", quoteArg(name), shapeNames())}
	}
	return func(stdout, stderr io.Writer) (err error) {
		w, err := openOut(spec, stderr)
		if err != nil {
			return err
		}
		defer finishOut(w, &err)
		g, err := shaped.Generate(s, seed)
		if err != nil {
			return err
		}
		for _, f := range g.Files() {
			if err := w.WriteFile("gen", f.Name, f.Data, 0o644); err != nil {
				return err
			}
		}
		fmt.Fprintf(stdout, "wrote %s: a graph shaped like %s, %s nodes, %s edges, %s features, %d classes\n",
			spec.dir, s.Name, numtext.Group(s.Nodes), numtext.Group(s.Edges), numtext.Group(s.Features), len(s.Shares))
		return nil
	}, nil
}

// shapeNames lists the shapes gen -like draws.
func shapeNames() string {
	names := make([]string, len(shaped.Shapes))
	for i, s := range shaped.Shapes {
		names[i] = s.Name
	}
	return strings.Join(names, ", ")
}

// genGraph is the graph gen writes: read from dir if one is given, else
// built from the table's row.
func genGraph(d experiment.Data, dir string, resplit bool, notes *graphNotes) (*datasets.Graph, error) {
	var read func() (*datasets.Graph, error)
	if dir != "" {
		base, err := readGraph(dir, d, resplit, notes)
		if err != nil {
			return nil, err
		}
		read = datasets.Given(base)
	}
	g, err := datasets.Make(d, read)
	if err != nil {
		return nil, usageError{err}
	}
	return g, nil
}

// result is the -json output; its keys are those of the PyTorch peer. A
// value that does not exist (test accuracy without test nodes) is null,
// and a note says why.
type result struct {
	Model         string      `json:"model"`
	TestAccuracy  numtext.Num `json:"test_accuracy"`
	TrainAccuracy numtext.Num `json:"train_accuracy"`
	Epochs        int         `json:"epochs"`
	EpochMSMedian numtext.Num `json:"epoch_ms_median"`
	Nodes         int         `json:"nodes"`
	Edges         int         `json:"edges"`
	Threads       int         `json:"threads"`
	// Vectors is the vector width the products ran at, as the engine
	// measured this processor to run fastest (pdn.VectorWidth).
	Vectors string `json:"vectors"`
	// VectorProbe is what each width took over the engine's probe of its
	// hot loops, in ms (none where PDN_VECTORS named the width).
	VectorProbe map[string]numtext.Num `json:"vector_probe_ms,omitempty"`
	// Recipe is the family of defaults the graph's features called for
	// (experiment.Recipes); Weight and Drop the weight decay and dropout
	// the run trained with.
	Recipe string      `json:"recipe"`
	Weight numtext.Num `json:"weight_decay"`
	Drop   numtext.Num `json:"dropout"`
	// SelfLoop is the self-loop rule the model propagated with, for one
	// that reads it (experiment.SelfLoopOne, SelfLoopMean).
	SelfLoop string       `json:"self_loop,omitempty"`
	WIntra   *numtext.Num `json:"w_intra,omitempty"`
	WInter   *numtext.Num `json:"w_inter,omitempty"`
	// InputHomophily and LearnedHomophily are the graph's edge homophily
	// and that of the weights the model put on its edges (pdn.Snapshot).
	InputHomophily   numtext.Num  `json:"input_homophily"`
	LearnedHomophily *numtext.Num `json:"learned_homophily,omitempty"`
	// Weights is what the learned edge weights say (lessons.WeightSpread,
	// experiment.ReadWeights); absent for a model that learns none.
	Weights *weightsResult `json:"learned_weights,omitempty"`
	// MajorityAccuracy and MLPAccuracy are the chance the test accuracy
	// is read against, on the same TestNodes (experiment.Chance): the
	// majority class's share of them, and an MLP's on the same split with
	// the run's training rows; Standing says where the run stands against
	// them (near-chance, below-mlp, above-chance), as the page says it.
	MajorityAccuracy numtext.Num `json:"majority_accuracy"`
	MLPAccuracy      numtext.Num `json:"mlp_accuracy"`
	TestNodes        int         `json:"test_nodes"`
	Standing         string      `json:"chance,omitempty"`
	Notes            []string    `json:"notes,omitempty"`
}

// weightsResult is the distribution of the learned edge weights and the
// sentence read from it: the deciles (0th, 10th, …, 100th percentiles) on
// intra- and inter-class edges, exact (null for a kind no edge is of); the
// share of edges within 0.01 of 0 or 1; the reading's stable kind (same,
// down, up, saturated; "" where the deciles say nothing), its factor
// (down and up only) and its sentence in English.
type weightsResult struct {
	IntraDeciles []numtext.Num `json:"intra_deciles"`
	InterDeciles []numtext.Num `json:"inter_deciles"`
	Saturated    numtext.Num   `json:"saturated_share"`
	Kind         string        `json:"kind"`
	Factor       *numtext.Num  `json:"factor,omitempty"`
	Sentence     string        `json:"sentence,omitempty"`
}

// weightsOf is the learned weights' result of sp, or nil for a model
// without them.
func weightsOf(sp lessons.Spread) *weightsResult {
	if math.IsNaN(sp.Saturated) {
		return nil
	}
	r := sp.Reading()
	out := &weightsResult{IntraDeciles: nums(sp.Intra), InterDeciles: nums(sp.Inter), Saturated: numtext.Num(sp.Saturated), Kind: r.Kind}
	if f := numtext.Num(r.Factor); f.Valid() {
		out.Factor = &f
	}
	if t, ok := r.Sentence(); ok {
		out.Sentence = t.String()
	}
	return out
}

// whyNoReading says why learned weights gave no sentence: weights that
// are not numbers (a diverged run), or a kind of edge the graph lacks.
func whyNoReading(w *weightsResult) string {
	for _, x := range append(slices.Clone(w.IntraDeciles), w.InterDeciles...) {
		if !x.Valid() {
			return "the learned weights are not all numbers (the run diverged: lower -lr), so they say nothing of the classes"
		}
	}
	return "the graph lacks intra- or inter-class edges, so the learned weights say nothing of the classes"
}

// nums is x as JSON numbers, nil for nil.
func nums(x []float64) []numtext.Num {
	if x == nil {
		return nil
	}
	out := make([]numtext.Num, len(x))
	for i, v := range x {
		out[i] = numtext.Num(v)
	}
	return out
}

// trainJob is a parsed pdn train.
type trainJob struct {
	e       experiment.Experiment
	data    string // a directory (bundle or MUSAE), or "" for the graph Data names
	resplit bool   // -shots given: draw a split even for a bundle that has one
	asJSON  bool
	quiet   bool
	tie     bool
	export  string                 // a folder to write the run to for PyTorch Geometric, or ""
	force   bool                   // -export even into a folder holding files pdn did not write
	given   func(flag string) bool // whether the flag was given
}

func parseTrain(args []string, stderr io.Writer) (runner, error) {
	j := trainJob{e: experiment.Default()}
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	fs.BoolVar(&j.asJSON, "json", false, "print one JSON object as the last line of stdout")
	fs.BoolVar(&j.quiet, "quiet", false, "no progress on stderr")
	fs.BoolVar(&j.tie, "tie-strength", false, "replace the edge features with the 11 tie-strength scores of Appendix F")
	outFlag(fs, &j.export, "export", "write the trained run to this folder for PyTorch Geometric: the graph as a bundle, the weights (weights.json) and run_pyg.py, which trains the same model in PyG and prints its test accuracy", false)
	forceFlag(fs, &j.force, "the -export folder")
	experiment.RegisterFlags(fs, &j.e)
	dataOrDir(fs, &j.data, "")
	// -init-seed follows -seed unless given: its usage says so, where the
	// flag package would show the table's default, 1 (review of issue 57).
	initSeed := fs.Lookup("init-seed")
	initSeed.Usage += "; by default the same as -seed, so that one -seed fixes the whole run"
	initSeed.DefValue = ""
	if err := parse(fs, args, stderr); err != nil {
		return nil, err
	}
	if err := exportTarget(j.export, j.e.Model.Kind, flagSet(fs, "force")); err != nil {
		return nil, err
	}
	if !flagSet(fs, "init-seed") {
		j.e.Train.Seed = j.e.Data.Seed // one -seed fixes the whole run
	}
	var err error
	if j.resplit, j.given, err = graphFlagsDone(fs, &j.e, j.data, commandReader("train", "")); err != nil {
		return nil, err
	}
	if err := tieStrengthRead(j); err != nil {
		return nil, err
	}
	return j.run, nil
}

// tieStrengthRead refuses -tie-strength for a run that reads no edge
// features (the model table's EdgeFeatures; a model over a PDN's learned
// graph reads them through the PDN), unless -export writes them out.
func tieStrengthRead(j trainJob) error {
	m := j.e.Model
	if !j.tie || j.export != "" || experiment.ReadsEdgeFeatures(m.Kind) || experiment.TakesWeights(m.Kind) && m.GraphFrom == experiment.FromPDN {
		return nil
	}
	// A model that reads layers (MGCN, DMGI) is not named: the scores,
	// signed, are not layers, and the engine refuses them for it.
	readers := experiment.ModelsWhere(func(k experiment.ModelKind) bool { return k.EdgeFeatures && !k.Layers })
	return usageError{fmt.Errorf("flag -tie-strength: model %s does not read the edges' features (only %s read them, and a model over a PDN's graph, -graph-from pdn); leave it out", m.Kind, strings.Join(readers, ", "))}
}

// graphFlagsDone finishes the flags of a command whose -data is a row or
// a folder of one's own (dir): a shipped graph's recipe for the rows the
// flags leave out (a folder's comes from its features once read), the row
// flags its reader r does not read refused (unreadFlags: a real graph's
// size, a column without files of one's own), whether -shots draws a new
// split, and which flags were given.
func graphFlagsDone(fs *flag.FlagSet, e *experiment.Experiment, dir string, r experiment.Reader) (resplit bool, given func(string) bool, err error) {
	given = func(name string) bool { return flagSet(fs, name) }
	if dir == "" {
		*e = withRecipe(*e, "", given)
	}
	return flagSet(fs, "shots"), given, unreadFlags(fs, withDir(*e, dir), r)
}

// withRecipe gives a run the rows of recipe ("" for its data's own, a
// shipped graph's) that its flags leave out.
func withRecipe(e experiment.Experiment, recipe string, set func(string) bool) experiment.Experiment {
	if recipe == "" {
		recipe = e.Data.Recipe()
	}
	e.ApplyRecipeOf(recipe, set)
	return e
}

// dataOrDir makes fs's -data take a directory too, kept in dir. Its usage
// names the graphs the CLI can build: the table's own also has local, a
// graph opened in the page, which the CLI reads from a directory instead.
func dataOrDir(fs *flag.FlagSet, dir *string, what string) {
	data := fs.Lookup("data")
	data.Value = dataFlag{data.Value, dir}
	data.Usage = "the graph: the paper's synthetic generator, its XOR edge layers (§4.1.1), preferential attachment (§4.2) " +
		"or the real citation graphs Cora and Citeseer (Table 4) (one of " + strings.Join(experiment.Buildable(), ", ") + "); " +
		"or a path to your own graph: " + datasets.Formats + ", as " + datasets.PathForms() + what
}

// dataFlag is gen's and train's -data: a row of the table (a generator or a shipped
// graph), or else a directory, read when the run starts.
type dataFlag struct {
	row flag.Value
	dir *string
}

func (f dataFlag) String() string {
	if f.dir != nil && *f.dir != "" {
		return *f.dir
	}
	if f.row == nil {
		return ""
	}
	return f.row.String()
}

// Row names the row -data sets, a folder of one's own included (its graph
// is local): the command's reader refuses it as it refuses any row it does
// not read (gen -like draws a graph of its own).
func (f dataFlag) Row() string { return "data" }

func (f dataFlag) Set(s string) error {
	if strings.TrimSpace(s) == "" {
		return errors.New("empty; give " + strings.Join(experiment.Buildable(), ", ") + " or a path to a graph")
	}
	if slices.Contains(experiment.Buildable(), s) {
		*f.dir = ""
		return f.row.Set(s)
	}
	if _, err := os.Stat(s); err != nil && !strings.ContainsAny(s, `/\`) {
		return fmt.Errorf("%s is neither one of %s nor a path to a graph", quotePath(s), strings.Join(experiment.Buildable(), ", "))
	}
	*f.dir = s
	return nil
}

func (j trainJob) run(stdout, stderr io.Writer) (err error) {
	var w *outdir.Run
	if j.export != "" { // before training: a folder it cannot write is refused at once
		if w, err = openOut(outSpec{flag: "export", dir: j.export, force: j.force, parts: []string{"export"}, inputs: inputDirs("data", j.data)}, stderr); err != nil {
			return err
		}
		defer finishOut(w, &err)
	}
	g, err := j.graph()
	if err != nil {
		return err
	}
	recipe := g.Recipe()
	if j.data != "" { // files: their features decide the recipe
		j.e = withRecipe(j.e, recipe, j.given)
		if !j.quiet {
			// Said as the graph is read, as well as in the results: a
			// note that the features are far wider than used comes before
			// the minutes they cost, or beside the refusal they cause.
			newGraphNotes(stderr).say(j.data, g.Notes)
		}
	}
	if err := pdn.Estimate(pdn.ShapeOf(g), j.e.Model).Check(pdn.NativeLimits, j.lever); err != nil {
		return err
	}
	t, err := pdn.NewTrainer(g, withDir(j.e, j.data)) // a refusal names the rows of the graph's own source
	if err != nil {
		return err
	}
	p := newProgress(stderr, j.e.Train.Epochs, j.quiet)
	times := make([]float64, 0, j.e.Train.Epochs)
	var snap pdn.Snapshot
	warned := false
	err = lessons.Train(t, math.MaxInt, func(t *pdn.Trainer, step time.Duration) error {
		times = append(times, float64(step.Nanoseconds())/1e6)
		if u := t.Unstable(); u != nil && !warned {
			p.done()
			fmt.Fprintln(stderr, "pdn: warning:", u)
			warned = true
		}
		if p.wants() {
			t.EvaluateInto(&snap)
			p.show(snap)
		}
		return nil
	})
	p.done()
	if err != nil {
		return err
	}
	t.EvaluateInto(&snap)
	if w != nil {
		if err := exportRun(w, g, t, stdout); err != nil {
			return err
		}
	}
	res := j.result(g, snap, times)
	res.chance(g, j.e, snap.TestAcc)
	if j.asJSON {
		if err := printJSON(stdout, res); err != nil {
			return err
		}
		return nil
	}
	fmt.Fprintf(stdout, "%s on %v: test accuracy %s, train accuracy %s, %.3f ms per epoch (median)\n",
		res.Model, g, numText(res.TestAccuracy), numText(res.TrainAccuracy), float64(res.EpochMSMedian))
	loop := ""
	if l := selfLoopOf(j.e.Model); l != "" {
		loop = ", self-loop " + l
	}
	fmt.Fprintf(stdout, "defaults: the %s recipe (weight decay %v, dropout %v%s)\n", res.Recipe, j.e.Train.WeightDecay, j.e.Model.Dropout, loop)
	if res.WIntra != nil {
		fmt.Fprintf(stdout, "mean learned weight: intra-class %s, inter-class %s\n", numText(*res.WIntra), numText(*res.WInter))
	}
	if res.Weights != nil && res.Weights.Sentence != "" {
		fmt.Fprintln(stdout, "what the weights say:", res.Weights.Sentence)
	}
	fmt.Fprintln(stdout, res.chanceLine())
	for _, n := range res.Notes {
		fmt.Fprintln(stdout, "note:", n)
	}
	return nil
}

// result gathers the run's figures, with a note for each one missing.
func (j trainJob) result(g *datasets.Graph, snap pdn.Snapshot, times []float64) result {
	res := result{Model: j.e.Model.Kind, TestAccuracy: round4(snap.TestAcc), TrainAccuracy: round4(snap.TrainAcc),
		Epochs: j.e.Train.Epochs, EpochMSMedian: round3(medianAfterWarmUp(times)), Nodes: g.N, Edges: g.E(), Threads: pdn.Threads(), Vectors: vectorWidth(), VectorProbe: vectorProbe(),
		Recipe: g.Recipe(), Weight: numtext.Num(j.e.Train.WeightDecay), Drop: numtext.Num(j.e.Model.Dropout), SelfLoop: selfLoopOf(j.e.Model),
	}
	for _, n := range g.Notes {
		res.Notes = append(res.Notes, n.String())
	}
	if len(g.Nodes(datasets.Test)) == 0 {
		res.Notes = append(res.Notes, "the graph has no test nodes (split test), so test_accuracy is null")
	}
	res.InputHomophily = round4(snap.InputHomophily)
	if lh := round4(snap.LearnedHomophily); lh.Valid() {
		res.LearnedHomophily = &lh
	}
	if pdn.LearnsEdges(j.e.Model.Kind) && g.Kind != nil {
		wi, we := round4(snap.WIntra), round4(snap.WInter)
		res.WIntra, res.WInter = &wi, &we
		if !wi.Valid() {
			res.Notes = append(res.Notes, "the graph has no intra-class edges, so w_intra is null")
		}
		if !we.Valid() {
			res.Notes = append(res.Notes, "the graph has no inter-class edges, so w_inter is null")
		}
	}
	res.Weights = weightsOf(lessons.SpreadOf(g, j.e.Model.Kind, snap.Weights))
	if res.Weights != nil && res.Weights.Kind == experiment.WeightsNone {
		res.Notes = append(res.Notes, whyNoReading(res.Weights))
	}
	if snap.Unstable != nil {
		res.Notes = append(res.Notes, snap.Unstable.Error())
	}
	return res
}

// chance reads the run against what g's test nodes give without its
// edges (lessons.ChanceOf: the majority class, and an MLP trained here on
// the same split), as the page does beside every run; acc is the run's
// test accuracy. An MLP that cannot train leaves a note.
func (res *result) chance(g *datasets.Graph, e experiment.Experiment, acc float64) {
	c, err := lessons.ChanceOf(g, e, &acc)
	if err != nil {
		res.Notes = append(res.Notes, "the MLP baseline did not train ("+err.Error()+"), so mlp_accuracy is null")
	}
	res.MajorityAccuracy, res.MLPAccuracy, res.TestNodes = round4(c.Majority), round4(c.MLP), c.Tests
	res.Standing = c.Standing(acc)
}

// chanceLine says the run against chance in plain text.
func (res result) chanceLine() string {
	line := fmt.Sprintf("chance on the %d test nodes: majority class %s, MLP (no edges) %s", res.TestNodes, numText(res.MajorityAccuracy), numText(res.MLPAccuracy))
	if w, ok := experiment.StandingWords[res.Standing]; ok {
		line += fmt.Sprintf("; test accuracy %s is %s", numText(res.TestAccuracy), w)
	}
	return line
}

// graph reads the bundle, or generates the synthetic graph.
func (j trainJob) graph() (*datasets.Graph, error) {
	var read func() (*datasets.Graph, error)
	if j.data == "" {
		if err := pdn.Estimate(pdn.ExpectedShape(j.e.Data), j.e.Model).Check(pdn.NativeLimits, j.lever); err != nil {
			return nil, err // before the generator allocates it all
		}
	} else {
		base, err := readGraph(j.data, j.e.Data, j.resplit, nil) // its results say the notes
		if err != nil {
			return nil, err
		}
		read = datasets.Given(base)
	}
	if j.tie {
		// The edits apply to the graph as the model sees it, its scores too.
		drawn := read
		read = func() (*datasets.Graph, error) {
			if drawn == nil {
				drawn = func() (*datasets.Graph, error) { return datasets.Drawn(j.e.Data) }
			}
			g, err := drawn()
			if err != nil {
				return nil, err
			}
			return datasets.TieStrength(g), nil
		}
	}
	g, err := datasets.Make(j.e.Data, read)
	if err != nil {
		return nil, usageError{err}
	}
	return g, nil
}

// lever says what to lower for a size the cost depends on: the synthetic
// generator's parameters, or, for a bundle, the bundle itself.
func (j trainJob) lever(size string) []string {
	d := j.e.Data
	if j.data != "" {
		d.Graph = experiment.GraphLocal
	}
	return d.Lever(size)
}

func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// numText writes a figure, or n/a for one that does not exist.
func numText(n numtext.Num) string {
	if !n.Valid() {
		return "n/a"
	}
	return fmt.Sprintf("%.4f", float64(n))
}

// medianAfterWarmUp is the peer's statistic: the median epoch time after
// the first 10 epochs.
func medianAfterWarmUp(ms []float64) float64 {
	if len(ms) == 0 {
		return math.NaN()
	}
	s := slices.Clone(ms[min(10, len(ms)-1):])
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func round4(x float64) numtext.Num { return numtext.Num(math.Round(x*1e4) / 1e4) }
func round3(x float64) numtext.Num { return numtext.Num(math.Round(x*1e3) / 1e3) }

// quoteArg quotes a command-line argument for a message.
func quoteArg(s string) string { return experiment.Quote(s) }

// quotePath quotes a path whole, or, past 240 bytes, its start and its end
// (the name the user must recognise is at the end, which quoteArg cuts).
func quotePath(p string) string {
	if len(p) <= 240 || !utf8.ValidString(p) {
		return strconv.Quote(strings.ToValidUTF8(p, "\uFFFD"))
	}
	return strconv.Quote(p[:80]) + "…" + strconv.Quote(p[len(p)-150:])
}

// progress draws a bar on a terminal and one line per epoch elsewhere.
type progress struct {
	w      io.Writer
	total  int
	tty    bool
	quiet  bool
	last   time.Time
	active bool
}

func newProgress(w io.Writer, total int, quiet bool) *progress {
	f, ok := w.(*os.File)
	tty := false
	if ok {
		if st, err := f.Stat(); err == nil {
			tty = st.Mode()&os.ModeCharDevice != 0
		}
	}
	return &progress{w: w, total: total, tty: tty, quiet: quiet}
}

// wants reports whether the next epoch should be shown; a bar redraws at
// most 20 times a second.
func (p *progress) wants() bool {
	if p.quiet {
		return false
	}
	return !p.tty || time.Since(p.last) > 50*time.Millisecond
}

func (p *progress) show(s pdn.Snapshot) {
	p.last = time.Now()
	line := fmt.Sprintf("epoch %d/%d  loss %.4g  train %s  test %s", s.Epoch, p.total, s.Loss,
		numText(numtext.Num(s.TrainAcc)), numText(numtext.Num(s.TestAcc)))
	if !p.tty {
		fmt.Fprintln(p.w, line)
		return
	}
	const width = 30
	done := width * s.Epoch / p.total
	fmt.Fprintf(p.w, "\r[%s%s] %s", strings.Repeat("#", done), strings.Repeat(".", width-done), line)
	p.active = true
}

func (p *progress) done() {
	if p.active {
		fmt.Fprintln(p.w)
		p.active = false
	}
}

// vectorWidth is the engine's vector width (pdn.VectorWidth).
func vectorWidth() string { w, _ := pdn.VectorWidth(); return w }

// vectorProbe is the time of each width over the engine's probe, in ms.
func vectorProbe() map[string]numtext.Num {
	_, times := pdn.VectorWidth()
	if len(times) == 0 {
		return nil
	}
	out := map[string]numtext.Num{}
	for w, d := range times {
		out[w] = numtext.Num(math.Round(d.Seconds()*1e6) / 1e3)
	}
	return out
}

// selfLoopOf is the self-loop rule a model set up as m propagates with,
// "" for one that does not read the row.
func selfLoopOf(m experiment.Model) string {
	if p, _ := experiment.Lookup("self-loop"); !p.ReadByModel(m) {
		return ""
	}
	if m.SelfLoop == "" {
		return experiment.SelfLoopOne
	}
	return m.SelfLoop
}
