package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/input"
	"pdnexplorer/internal/numtext"
	"pdnexplorer/internal/outdir"
	"pdnexplorer/lessons"
	"pdnexplorer/pdn"
	"pdnexplorer/viz"
)

// table4Summary is the -json output of pdn table4: by graph, by model.
type table4Summary struct {
	Reps    int                                `json:"reps"`
	Seconds float64                            `json:"seconds"`
	Graphs  []string                           `json:"graphs"`
	Models  []string                           `json:"models"`
	Results map[string]map[string]table4Result `json:"results"`
	CSV     string                             `json:"csv"`
	SVG     string                             `json:"svg"`
	// Protocol says how each run was read and which defaults it took.
	Protocol string `json:"protocol"`
	// Columns name, by graph, the column of the paper's Table 4 it is the
	// graph of (datasets.PaperColumn); a graph the paper did not train on
	// has none.
	Columns map[string]string `json:"columns,omitempty"`
	// Notes say why a result is missing, and what the marks mean.
	Notes []string `json:"notes,omitempty"`
}

// table4Result is one model on one graph over the reps. Mark says how the
// paper's number stands against ours (datasets.PaperMark): "beyond" more
// than 2 of our standard deviations from our mean, "within", "unknown"
// where fewer than 2 reps gave a result; absent where the paper has none.
type table4Result struct {
	Mean  numtext.Num   `json:"mean"`
	SD    numtext.Num   `json:"sd"`
	N     int           `json:"n"`
	Paper *numtext.Num  `json:"paper,omitempty"`
	Mark  datasets.Mark `json:"mark,omitempty"`
	// PyG is PyTorch Geometric's figure on the same splits (-pyg), absent
	// without -pyg and for a model the export cannot express.
	PyG *table4PyG `json:"pyg,omitempty"`
}

// table4Graph is a graph of the table: a shipped one by name, or a
// directory (a bundle or a MUSAE folder) named by its last element.
// table4Graph is a graph of -datasets: a shipped one by name, or one's
// own at dir. resplit says -shots was given, so each rep draws its split
// even on a graph that comes with one (a bundle's, OGB's), as pdn train
// does; without it such a graph keeps its split and its reps differ in
// their weights and dropout alone.
type table4Graph struct {
	name, dir string
	resplit   bool
	notes     *graphNotes // says a graph of one's own's notes, once
}

func parseTable4(args []string, stderr io.Writer) (runner, error) {
	e := experiment.Default()
	fs := flag.NewFlagSet("table4", flag.ContinueOnError)
	graphs := fs.String("datasets", "cora,citeseer", "graphs, comma-separated: cora, citeseer or paths to your own ("+datasets.PathForms()+"; "+datasets.Formats+")")
	reps := numtext.Int(fs, "reps", 10, 1, 1000, "seeded splits per graph; rep r draws its split and weights with seed r")
	models := fs.String("models", strings.Join(datasets.Table4Models, ","), "models to train, comma-separated")
	out := new(string)
	outFlag(fs, out, "out", "directory for table4.csv and table4.svg (required)", true)
	workers := numtext.Int(fs, "workers", defaultWorkers(), 1, maxWorkers, "runs trained at once")
	var pr practices
	numtext.IntVar(fs, &pr.validation, "validation", 0, 0, 1000000, "test nodes held out for model selection: each run is read at the epoch of best accuracy on them (0: at its last epoch, as pdn train reads it)")
	fs.BoolVar(&pr.rowNormalise, "row-normalise", false, "divide each node's features by their sum first (PyG's NormalizeFeatures)")
	asJSON := fs.Bool("json", false, "print one JSON object as the last line of stdout")
	var force bool
	forceFlag(fs, &force, "-out")
	var sh shard
	shardFlag(fs, &sh)
	python := fs.String("pyg", "", pygUsage)
	f32 := fs.Bool("pyg-float32", false, pygFloat32Usage)
	experiment.RegisterFlags(fs, &e, experiment.GroupTrain)
	experiment.RegisterNamed(fs, &e, "shots", "edge-hidden", "edge-init", "self-loop", "hidden", "dropout", "edge-dropout", "hops")
	if err := parse(fs, args, stderr); err != nil {
		return nil, err
	}
	if err := pygFlagChecks(*python, flagSet(fs, "pyg"), *f32); err != nil {
		return nil, err
	}
	// Each graph starts from its features' recipe where the flags leave
	// its rows open, as pdn train does (experiment.Recipes).
	pr.given = func(name string) bool { return flagSet(fs, name) }
	kinds, err := parseModels(*models)
	if err != nil {
		return nil, usageError{err}
	}
	gs, err := parseGraphs(*graphs)
	if err != nil {
		return nil, usageError{err}
	}
	if err := unreadFlags(fs, e, table4Reader(kinds, gs)); err != nil {
		return nil, err
	}
	for i := range gs {
		gs[i].resplit = flagSet(fs, "shots")
	}
	job := table4Job{Models: kinds, Reps: *reps, State: e.EncodeRun(), Validation: pr.validation, RowNormalise: pr.rowNormalise}
	for _, g := range gs {
		job.Graphs = append(job.Graphs, g.name)
	}
	return func(stdout, stderr io.Writer) error {
		var peer *pygPeer
		if flagSet(fs, "pyg") { // asked first: a Python without PyG fails before any work
			var err error
			if peer, err = newPyGPeer(*python, max(runtime.GOMAXPROCS(0) / *workers, 1), pr.validation > 0); err != nil {
				return err
			}
			peer.f32 = *f32
			job.PyG = peer.setting()
		}
		notes := newGraphNotes(stderr)
		for i := range gs {
			gs[i].notes = notes
		}
		if err := inspectGraphs(gs, e, pr, &job, !sh.whole()); err != nil {
			return err
		}
		spec := outSpec{flag: "out", dir: *out, force: force, parts: []string{table4Part(job, sh)}, inputs: graphInputs(gs)}
		return runTable4(gs, e, pr, job, *workers, sh, spec, peer, *asJSON, stdout, stderr)
	}, nil
}

// table4Reader is pdn table4's reader: each model on each graph, rep r's
// seeds its own (experiment.Reader).
func table4Reader(kinds []string, gs []table4Graph) experiment.Reader {
	r := commandReader("table4", "")
	r.Sets = map[string]phrase.Text{"init-seed": phrase.New("rep r draws its split and weights with seed r; choose how many with -reps")}
	r.Runs = func(e experiment.Experiment) []experiment.Experiment {
		var out []experiment.Experiment
		for _, g := range gs {
			for _, k := range kinds {
				run := e
				run.Model.Kind, run.Data.Graph = k, g.name
				if g.dir != "" {
					run.Data.Graph = experiment.GraphLocal
				}
				out = append(out, run)
			}
		}
		return out
	}
	return r
}

// parseGraphs reads -datasets: cora, citeseer or paths (a folder, a zip
// of one, or one file of a format that is one, datasets.PathForms()). Each graph is keyed by its base name, or by its
// path where two base names are the same, so no result hides another.
func parseGraphs(list string) ([]table4Graph, error) {
	var gs []table4Graph
	seen := map[string]int{}
	for _, s := range strings.Split(list, ",") {
		s = strings.TrimSpace(s)
		switch {
		case s == experiment.GraphCora || s == experiment.GraphCiteseer:
			gs = append(gs, table4Graph{name: s})
		case s == "":
			return nil, errors.New("flag -datasets: an empty name; want cora, citeseer or paths to graphs, comma-separated")
		default:
			if _, err := input.Path(s); errors.Is(err, os.ErrNotExist) {
				return nil, fmt.Errorf("flag -datasets: %s is neither cora, citeseer nor a path to a graph (%s)", quotePath(s), datasets.PathForms())
			} else if err != nil {
				return nil, fmt.Errorf("flag -datasets: %w", err)
			}
			base := filepath.Base(filepath.Clean(s))
			gs = append(gs, table4Graph{name: strings.ToLower(strings.TrimSuffix(base, filepath.Ext(base))), dir: s})
		}
		seen[gs[len(gs)-1].name]++
	}
	for i, g := range gs {
		if seen[g.name] > 1 && g.dir != "" {
			gs[i].name = filepath.ToSlash(filepath.Clean(g.dir))
		}
	}
	for i, g := range gs {
		if slices.ContainsFunc(gs[:i], func(h table4Graph) bool { return h.name == g.name }) {
			return nil, fmt.Errorf("flag -datasets: %s is given twice", quotePath(g.name))
		}
	}
	return gs, nil
}

// load builds rep r's graph: its split and the tie-strength scores.
func (g table4Graph) load(e experiment.Experiment, seed uint64) (*datasets.Graph, error) {
	if g.dir == "" {
		d := e.Data
		d.Graph, d.Seed = g.name, seed
		return datasets.Build(d)
	}
	d := e.Data
	d.Seed = seed
	return readGraph(g.dir, d, g.resplit, g.notes)
}

// table4Job is what defines a table4 run: the shards of one have the same.
type table4Job struct {
	Graphs  []string `json:"graphs"`            // by the names the table gives them
	Digests []string `json:"digests,omitempty"` // the graphs' contents (datasets.Graph.Digest), for shards
	// KeptSplit names the graphs that keep the split their files give
	// (datasets.Graph.SplitKept): their reps differ in weights alone.
	KeptSplit []string `json:"kept_split"`
	// Trained holds, by graph, the rows each model trains at there, its
	// graph's recipe filled in (a shard's; State is the flags').
	Trained      []string `json:"trained"`
	Columns      []string `json:"columns"` // the paper's Table 4 column of each graph (datasets.PaperColumn), "" for none
	Models       []string `json:"models"`
	Reps         int      `json:"reps"`
	State        string   `json:"state"` // the training and model rows, as a link has them
	Validation   int      `json:"validation"`
	RowNormalise bool     `json:"row_normalise"`
	// PyG is how the PyG column is made (-pyg), nil without it: shards
	// made with other versions, precision or threads are another job.
	PyG *pygSetting `json:"pyg,omitempty"`
	// OutOfReach are the cells the cost model refuses on the command line
	// (pdn.NativeLimits: GraRep's dense powers on Facebook Page-Page need
	// 9.5 GB), each never trained and noted with why.
	OutOfReach []table4Refusal `json:"out_of_reach,omitempty"`
	// seconds is each graph's and model's run as the cost model estimates
	// it natively (epochs and set-up), for the queue and the forecast.
	seconds [][]float64
}

// table4Refusal is a cell of the table the command line cannot train.
type table4Refusal struct {
	Graph string `json:"graph"`
	Model string `json:"model"`
	Why   string `json:"why"`
}

// refused reports why graph g's model m is out of reach, or "".
func (j table4Job) refused(g, m int) string {
	for _, r := range j.OutOfReach {
		if r.Graph == j.Graphs[g] && r.Model == j.Models[m] {
			return r.Why
		}
	}
	return ""
}

// at is the place of graph g, rep r and model m in the job's order.
func (j table4Job) at(g, r, m int) int { return (g*j.Reps+r)*len(j.Models) + m }

// size is the number of runs of the job.
func (j table4Job) size() int { return len(j.Graphs) * j.Reps * len(j.Models) }

// cost is graph g's model m's run as estimated, 1 where inspectGraphs
// has not estimated it (a merge's job).
func (j table4Job) cost(g, m int) float64 {
	if g < len(j.seconds) {
		return j.seconds[g][m]
	}
	return 1
}

// forecast says, before any training, how long the cost model expects the
// runs of sh to take on this machine, and which rows take the most: a row
// of an hour or more is one to give a cluster (-shard i/n).
func forecast(job table4Job, sh shard, stderr io.Writer) {
	if len(job.seconds) == 0 {
		return
	}
	var total float64
	var long []string
	for g := range job.Graphs {
		for m, kind := range job.Models {
			if job.refused(g, m) != "" {
				continue
			}
			var row float64
			for r := range job.Reps {
				if sh.holds(job.at(g, r, m)) {
					row += job.cost(g, m)
				}
			}
			total += row
			if row >= 3600 {
				long = append(long, fmt.Sprintf("%s on %s %s", kind, job.Graphs[g], durationText(row)))
			}
		}
	}
	fmt.Fprintf(stderr, "table4: about %s of training on one core, as the cost model estimates it", durationText(total))
	if len(long) > 0 {
		fmt.Fprintf(stderr, "; an hour or more: %s; -shard i/n splits the runs for a cluster (docs/cli.md)", strings.Join(long, ", "))
	}
	fmt.Fprintln(stderr)
	for _, r := range job.OutOfReach {
		fmt.Fprintf(stderr, "table4: %s on %s is not trained: %s\n", r.Model, r.Graph, r.Why)
	}
}

// durationText is seconds as minutes or hours.
func durationText(s float64) string {
	if s >= 5400 {
		return fmt.Sprintf("%.1f h", s/3600)
	}
	return fmt.Sprintf("%.0f min", math.Ceil(s/60))
}

// table4Part is the part of the writer a table4 run writes: its CSV and
// figure, or its shard file.
func table4Part(job table4Job, sh shard) string {
	if sh.whole() {
		return "table4"
	}
	return shardPart("table4", job, sh)
}

func runTable4(gs []table4Graph, e experiment.Experiment, pr practices, job table4Job, workers int, sh shard, spec outSpec, peer *pygPeer, asJSON bool, stdout, stderr io.Writer) (err error) {
	start := time.Now()
	w, err := openOut(spec, stderr)
	if err != nil {
		return err
	}
	defer finishOut(w, &err)
	var column *pygColumn
	if peer != nil {
		// The exports lie among the run's staged files, never among its
		// inputs, and go with them however the run ends.
		if peer.scratch, err = w.Scratch("pyg"); err != nil {
			return err
		}
		column = newPyGColumn(job)
	}
	acc, err := trainTable4(gs, e, pr, job, workers, sh, peer, column, stderr)
	if err != nil {
		return err
	}
	seconds := time.Since(start).Seconds()
	if !sh.whole() {
		runs, pygs := map[int]float64{}, map[int]*shardPyG{}
		for g := range job.Graphs {
			for r := range job.Reps {
				for m, kind := range job.Models {
					at := job.at(g, r, m)
					if !sh.holds(at) {
						continue
					}
					runs[at] = acc[g][r][m]
					if column != nil && hasPeer(kind) {
						pygs[at] = column.run(g, r, m)
					}
				}
			}
		}
		return writeShard(w, "table4", "table4", job, sh, seconds, runs, pygs, stdout)
	}
	return writeTable4(w, job, acc, column, peer, seconds, asJSON, stdout)
}

// mergeTable4 writes the files of a table4 run whose shards j holds.
func mergeTable4(w *outdir.Run, j *shardJob, asJSON bool, stdout io.Writer) error {
	job := j.table4
	acc := make([][][]float64, len(job.Graphs))
	var column *pygColumn
	if job.PyG != nil {
		column = newPyGColumn(job)
	}
	for g := range acc {
		acc[g] = make([][]float64, job.Reps)
		for r := range acc[g] {
			acc[g][r] = make([]float64, len(job.Models))
			for m := range acc[g][r] {
				at := job.at(g, r, m)
				acc[g][r][m] = j.acc[at] // complete: every run is there
				if p := j.pyg[at]; column != nil && p != nil {
					column.set(g, r, m, p)
				}
			}
		}
	}
	var peer *pygPeer
	if job.PyG != nil {
		peer = job.PyG.peer(job.Validation > 0)
	}
	return writeTable4(w, job, acc, column, peer, j.seconds, asJSON, stdout)
}

// writeTable4 writes the table's CSV and figure, and prints it; column
// is the PyG column that peer made, nil without -pyg.
func writeTable4(w *outdir.Run, job table4Job, acc [][][]float64, column *pygColumn, peer *pygPeer, seconds float64, asJSON bool, stdout io.Writer) error {
	sum := summariseTable4(job, acc)
	if column != nil {
		column.summarise(job, &sum)
		if sum.hasPyG() { // else a note says that no model has a peer
			sum.Protocol += "; " + peer.protocol(job.Models)
		}
	}
	sum.Seconds = math.Round(seconds*10) / 10
	sum.CSV, sum.SVG = w.Path("table4.csv"), w.Path("table4.svg")
	if err := writeTable4CSV(w, job, acc, column, sum); err != nil {
		return err
	}
	if err := w.WriteFile("table4", "table4.svg", viz.File(table4Figure(sum)), 0o644); err != nil {
		return err
	}
	printTable4(stdout, sum)
	if asJSON {
		if err := printJSON(stdout, sum); err != nil {
			return err
		}
	}
	return nil
}

// summariseTable4 gives each model on each graph its mean ± SD over the
// reps that gave a result, the paper's number where its Table 4 has the
// graph's column, and the mark between them (datasets.PaperMark).
func summariseTable4(job table4Job, acc [][][]float64) table4Summary {
	sum := table4Summary{Reps: job.Reps, Models: job.Models, Graphs: job.Graphs, Results: map[string]map[string]table4Result{}, Protocol: protocol(job.Validation, job.Models)}
	var unknown []string
	for i, g := range job.Graphs {
		col := table4Column(job, i)
		if col != "" {
			if sum.Columns == nil {
				sum.Columns = map[string]string{}
			}
			sum.Columns[g] = col
		}
		sum.Results[g] = map[string]table4Result{}
		for m, kind := range job.Models {
			var xs []float64
			for r := 0; r < job.Reps; r++ {
				if x := acc[i][r][m]; !math.IsNaN(x) {
					xs = append(xs, x)
				}
			}
			switch why := job.refused(i, m); {
			case why != "":
				sum.Notes = append(sum.Notes, fmt.Sprintf("%s, %s: not trained, out of the command line's reach: %s", g, kind, why))
			case len(xs) == 0:
				sum.Notes = append(sum.Notes, fmt.Sprintf("%s, %s: no result: every one of the %d runs diverged (a loss that is not finite); try a lower -lr", g, kind, job.Reps))
			}
			mean, sd := experiment.MeanSD(xs)
			res := table4Result{Mean: round4(mean), SD: round4(sd), N: len(xs)}
			paper := math.NaN()
			if p, ok := datasets.Table4[col][kind]; ok {
				v := numtext.Num(p)
				res.Paper, paper = &v, p
			}
			res.Mark = datasets.PaperMark(len(xs), mean, sd, paper)
			if res.Mark == datasets.MarkUnknown && job.refused(i, m) == "" {
				unknown = append(unknown, g+" "+kind)
			}
			sum.Results[g][kind] = res
		}
	}
	for _, g := range job.KeptSplit {
		sum.Notes = append(sum.Notes, fmt.Sprintf("%s keeps the split its files give: its %d reps differ in their initial weights and dropout alone (seed r), so its ± and marks measure that spread, not the split's; give -shots to draw a split each rep", g, job.Reps))
	}
	if len(unknown) > 0 {
		sum.Notes = append(sum.Notes, fmt.Sprintf("? (%s): fewer than 2 reps gave a result, so there is no standard deviation to measure the distance to the paper's number in: the mark cannot be computed; run -reps 2 or more", strings.Join(unknown, ", ")))
	}
	return sum
}

// table4Column is the column of the paper's Table 4 that graph i of job is
// the graph of: the one inspectGraphs found, else a shipped graph's name.
func table4Column(job table4Job, i int) string {
	if i < len(job.Columns) {
		return job.Columns[i]
	}
	if _, ok := datasets.Table4[job.Graphs[i]]; ok {
		return job.Graphs[i]
	}
	return ""
}

// markText is a mark as the printed table shows it after the paper's
// number: ! beyond 2 SD, ? not computable.
func markText(m datasets.Mark) string {
	switch m {
	case datasets.MarkBeyond:
		return "!"
	case datasets.MarkUnknown:
		return "?"
	}
	return ""
}

// trainTable4 trains every model on every rep of every graph (the
// shard's runs only, if sh is a part), several runs at once, and returns
// acc[graph][rep][model]; a diverged run, or one not in the shard, is NaN.
// Each result depends only on its seeds, so the order runs finish in
// changes nothing.
//
// With peer, each run of a model with a PyG peer is trained again in PyG
// once ours is done, in the same worker, so that -workers bounds the
// programs training at once; its result goes into column.
func trainTable4(gs []table4Graph, base experiment.Experiment, pr practices, job table4Job, workers int, sh shard, peer *pygPeer, column *pygColumn, stderr io.Writer) ([][][]float64, error) {
	acc := make([][][]float64, len(gs))
	type place struct{ g, r, m int }
	var (
		runs   []place
		keys   []string
		groups []int
		cost   []float64
	)
	forecast(job, sh, stderr)
	for g := range gs {
		acc[g] = make([][]float64, job.Reps)
		for r := range job.Reps {
			acc[g][r] = make([]float64, len(job.Models))
			for m := range job.Models {
				acc[g][r][m] = math.NaN()
				if at := job.at(g, r, m); sh.holds(at) && job.refused(g, m) == "" {
					// Every run of the table is its own: its key is its place.
					runs, keys, groups = append(runs, place{g, r, m}), append(keys, strconv.Itoa(at)), append(groups, g*job.Reps+r)
					cost = append(cost, job.cost(g, m))
				}
			}
		}
	}
	q := experiment.NewQueue(keys, groups, nil, cost) // the costliest splits first
	splits := map[int]bool{}
	for _, g := range groups {
		splits[g] = true
	}
	total, done := len(splits), 0
	err := drain(q, workers, func(batch []int) ([]experiment.Result, error) {
		g, r := runs[batch[0]].g, runs[batch[0]].r
		want := map[int]bool{}
		for _, k := range batch {
			want[runs[k].m] = true
		}
		var then func(m int, graph *datasets.Graph, t *pdn.Trainer)
		if peer != nil {
			then = func(m int, graph *datasets.Graph, t *pdn.Trainer) {
				if !hasPeer(job.Models[m]) {
					return
				}
				if why := pygTooCostly(job.Models[m], graph, peer.f32); why != "" {
					column.costly[g][r][m] = why
					return
				}
				acc, err := peer.retrain(graph, t)
				column.acc[g][r][m] = acc
				if err != nil {
					column.failed[g][r][m] = printable(shorten(oneLine(err)))
				}
			}
		}
		res, err := table4Rep(gs[g], base, pr, job.Models, uint64(r+1), func(m int) bool { return want[m] }, then)
		out := make([]experiment.Result, len(batch))
		for j, k := range batch {
			if res != nil {
				out[j] = experiment.Result{Acc: res[runs[k].m]}
			}
		}
		return out, err
	}, func(int) {
		done++ // a batch is a split's runs
		fmt.Fprintf(stderr, "table4: %d/%d splits\n", done, total)
	})
	for k, p := range runs {
		if r := q.Results()[k]; r.Done {
			acc[p.g][p.r][p.m] = r.Acc
		}
	}
	return acc, err
}

// practices are the two standard practices of the paper's appendix
// settings that table4 can apply: model selection on validation nodes
// held out of the test nodes, and row-normalised features.
type practices struct {
	validation   int
	rowNormalise bool
	// given reports whether a row was set by a flag, which the graph's
	// recipe then leaves alone.
	given func(name string) bool
}

// inspectGraphs reads each graph once, before any training, as rep 1
// draws it: job gets the column of the paper's Table 4 each is the graph
// of (datasets.PaperColumn, by its shape, so a MUSAE folder of Facebook
// Page-Page is that column under any name) and, for a shard, its
// contents' digest (two folders of one name, or a folder changed between
// shards, cannot merge); and a -validation that some graph cannot give is
// refused (validationFits).
func inspectGraphs(gs []table4Graph, e experiment.Experiment, pr practices, job *table4Job, digests bool) error {
	validation := pr.validation
	for _, g := range gs {
		gr, err := g.load(e, 1)
		if err != nil {
			return err
		}
		if digests {
			job.Digests = append(job.Digests, gr.Digest())
			// The rows each model trains at on this graph, its recipe
			// filled in: shards whose flags read alike but train
			// otherwise (a row given at its default, where the recipe
			// would set another) are other jobs.
			var trained []string
			for _, kind := range job.Models {
				x := e
				x.Model.Kind = kind
				x.ApplyModelRecipe(gr.Recipe(), pr.given)
				trained = append(trained, x.EncodeRun())
			}
			job.Trained = append(job.Trained, strings.Join(trained, " "))
		}
		job.seconds = append(job.seconds, make([]float64, len(job.Models)))
		for m, kind := range job.Models {
			x := e
			x.Model.Kind = kind
			x.ApplyModelRecipe(gr.Recipe(), pr.given)
			c := pdn.Estimate(pdn.ShapeOf(gr), x.Model)
			real := experiment.Data{Graph: experiment.GraphLocal} // its sizes its own
			if err := c.Check(pdn.NativeLimits, real.Lever); err != nil {
				job.OutOfReach = append(job.OutOfReach, table4Refusal{Graph: g.name, Model: kind, Why: err.Error()})
			}
			epoch, setup := c.Seconds(pdn.NativeLimits)
			job.seconds[len(job.seconds)-1][m] = float64(x.Train.Epochs)*epoch + setup
		}
		col, _ := datasets.PaperColumn(gr)
		job.Columns = append(job.Columns, col.Key)
		if gr.SplitKept {
			job.KeptSplit = append(job.KeptSplit, g.name)
		}
		if err := validationFits(g.name, gr, validation); err != nil {
			return err
		}
	}
	return nil
}

// validationFits refuses a -validation that graph gr (called name) cannot
// give (datasets.MaxHoldOut: half its test nodes, and a test node a class
// left), naming the graph and the largest it allows: the protocol then
// says the number of validation nodes every run used.
func validationFits(name string, gr *datasets.Graph, n int) error {
	if most := datasets.MaxHoldOut(gr); n > most {
		return usageError{fmt.Errorf("flag -validation: %d validation nodes are more than graph %s can give: it has %d test nodes, of which at least half, and one a class of its %d, stay for testing; the largest -validation it allows is %d",
			n, name, len(gr.Nodes(datasets.Test)), gr.C, most)}
	}
	return nil
}

// protocol says in one sentence how each run of a table is read, and
// which settings each model starts from where the flags leave its rows
// open (experiment.ModelRecipeRows).
func protocol(validation int, kinds []string) string {
	read := "each run is read at its last epoch, as pdn train reads it"
	if validation > 0 {
		read = fmt.Sprintf("each run is read at the epoch of best accuracy on %d validation nodes drawn from each graph's test nodes with the rep's seed (not tested on)", validation)
	}
	return read + "; " + settingsProtocol(kinds)
}

// settingsProtocol says which rows each model starts from where the flags
// leave them open: its graph's features' recipe (pdn train's defaults),
// or its own settings on the families where they measured better
// (experiment.ModelKind.OwnOn); the models whose own settings measured
// no better are named, so the reader knows they were tried.
func settingsProtocol(kinds []string) string {
	var tried []string
	var own [][2]string // the models of one setting together: their names, the setting
	for _, k := range kinds {
		m, _ := experiment.ModelNamed(k)
		switch {
		case len(m.OwnOn) > 0:
			setting := fmt.Sprintf("on %s graphs (%s)", strings.Join(m.OwnOn, ", "), experiment.OwnSettings(m))
			if i := slices.IndexFunc(own, func(o [2]string) bool { return o[1] == setting }); i >= 0 {
				own[i][0] += ", " + k
			} else {
				own = append(own, [2]string{k, setting})
			}
		case m.Own != "":
			tried = append(tried, k)
		}
	}
	s := "each model starts from its graph's features' recipe where the flags leave its rows open (pdn train's defaults; bag-of-words: " + strings.ReplaceAll(experiment.BagOfWordsRows, "&", " ") + ")"
	for _, o := range own {
		s += "; " + o[0] + " from their own settings " + o[1]
	}
	if len(tried) > 0 {
		s += "; the own settings of " + strings.Join(tried, ", ") + " (their authors' or PyG's examples') measured no better on bag-of-words graphs (docs/cli.md)"
	}
	return s
}

// table4Rep trains each model m that wants on one seeded split of a graph,
// and hands each trained run and the graph it trained on to then (if not
// nil).
func table4Rep(g table4Graph, base experiment.Experiment, pr practices, kinds []string, seed uint64, wants func(m int) bool, then func(m int, g *datasets.Graph, t *pdn.Trainer)) ([]float64, error) {
	graph, err := g.load(base, seed)
	if err != nil {
		return nil, err
	}
	if pr.rowNormalise {
		datasets.RowNormalise(graph)
	}
	datasets.HoldOut(graph, pr.validation, seed)
	if len(graph.Nodes(datasets.Test)) == 0 {
		return nil, usageError{fmt.Errorf("%s: no test nodes once %d labelled nodes a class are drawn (its classes are that small): lower -shots", g.name, base.Data.Shots)}
	}
	out := make([]float64, len(kinds))
	var normalised *datasets.Graph // made once, for the models whose own settings want it
	for m, kind := range kinds {
		out[m] = math.NaN()
		if !wants(m) {
			continue
		}
		e := withDir(base, g.dir) // a refusal names the rows of the graph's own source
		e.Model.Kind = kind
		e.ApplyModelRecipe(graph.Recipe(), pr.given)
		e.Train.Seed = seed
		g := graph
		if !pr.rowNormalise && experiment.ModelRowNormalises(graph.Recipe(), kind) {
			if normalised == nil {
				normalised = datasets.RowNormalised(graph)
			}
			g = normalised
		}
		t, err := pdn.NewTrainer(g, e)
		if err != nil {
			return nil, err
		}
		if acc, err := lessons.TrainSelected(t); err == nil {
			out[m] = acc
		}
		if then != nil {
			then(m, g, t)
		}
	}
	return out, nil
}

// writeTable4CSV writes a row per graph, rep and model: its accuracy, and
// its cell's paper number and mark (datasets.PaperMark; empty where the
// paper has no number); with a PyG column, the run's accuracy in PyG and
// its cell's PyG mean, SD and n (pygCSV).
func writeTable4CSV(w *outdir.Run, job table4Job, acc [][][]float64, column *pygColumn, sum table4Summary) error {
	rows := [][]string{{"graph", "model", "rep", "test_accuracy", "paper", "paper_mark"}}
	if column != nil {
		rows[0] = append(rows[0], pygHeader...)
	}
	for i, g := range job.Graphs {
		for r := range acc[i] {
			for m, kind := range job.Models {
				res, paper := sum.Results[g][kind], ""
				if res.Paper != nil {
					paper = strconv.FormatFloat(float64(*res.Paper), 'f', 3, 64)
				}
				row := []string{g, kind, strconv.Itoa(r + 1), strconv.FormatFloat(acc[i][r][m], 'f', 4, 64), paper, string(res.Mark)}
				if column != nil {
					row = append(row, pygCSV(column, res, i, r, m)...)
				}
				rows = append(rows, row)
			}
		}
	}
	return writeRows(w, "table4", "table4.csv", rows)
}

// table4Figure draws the models' bars by graph, the paper's values as ticks.
func table4Figure(sum table4Summary) string {
	var series []viz.BarSeries
	for i, kind := range sum.Models {
		s := viz.BarSeries{Name: kind, Color: viz.SweepColors[i%len(viz.SweepColors)]}
		for _, g := range sum.Graphs {
			r := sum.Results[g][kind]
			ref := math.NaN()
			if r.Paper != nil {
				ref = float64(*r.Paper)
			}
			s.Mean, s.SD, s.Reference = append(s.Mean, float64(r.Mean)), append(s.SD, float64(r.SD)), append(s.Reference, ref)
		}
		series = append(series, s)
	}
	title := fmt.Sprintf("Table 4: test accuracy, %d seeded splits of 100 labelled nodes per class", sum.Reps)
	return viz.GroupedBars(english, 760, 380, title, "test accuracy", 0.4, sum.Graphs, series...)
}

// paperName is the paper's name for its Table 4 column key.
func paperName(key string) string {
	for _, p := range datasets.PaperColumns {
		if p.Key == key {
			return p.Name
		}
	}
	return key
}

// printTable4 prints each model's mean ± SD by graph, the paper's beside it.
func printTable4(w io.Writer, sum table4Summary) {
	fmt.Fprintf(w, "Table 4, %d seeded splits a graph, %.1f s: %s\n", sum.Reps, sum.Seconds, sum.Protocol)
	withPyG := sum.hasPyG()
	fmt.Fprintf(w, "%-16s", "model")
	for _, g := range sum.Graphs {
		fmt.Fprintf(w, " %25s", g+" (paper)")
		if withPyG {
			fmt.Fprintf(w, " %19s", g+" PyG")
		}
	}
	fmt.Fprintln(w)
	for _, kind := range sum.Models {
		fmt.Fprintf(w, "%-16s", kind)
		for _, g := range sum.Graphs {
			r := sum.Results[g][kind]
			cell := fmt.Sprintf("%.3f±%.3f", float64(r.Mean), float64(r.SD))
			switch {
			case math.IsNaN(float64(r.Mean)):
				cell = "–"
			case r.N < 2:
				cell = fmt.Sprintf("%.3f±–", float64(r.Mean)) // one result has no spread
			}
			if r.Paper != nil {
				cell += fmt.Sprintf(" (%.3f)%-1s", float64(*r.Paper), markText(r.Mark))
			}
			fmt.Fprintf(w, " %25s", cell)
			if withPyG {
				fmt.Fprintf(w, " %19s", pygCell(r, sum.Reps))
			}
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "!: the paper's number is more than %d standard deviations of ours (over the reps) from our mean\n", datasets.MarkSDs)
	for _, g := range sum.Graphs {
		if col, ok := sum.Columns[g]; ok && col != g {
			fmt.Fprintf(w, "%s is the graph of the paper's %s column (by its nodes and classes)\n", g, paperName(col))
		}
	}
	for _, n := range sum.Notes {
		fmt.Fprintln(w, "note: "+n)
	}
}

// hasPyG reports whether the table has a PyG column (-pyg): some cell
// has a PyG figure (where no model has a peer, a note says so instead).
func (sum table4Summary) hasPyG() bool {
	for _, byModel := range sum.Results {
		for _, r := range byModel {
			if r.PyG != nil {
				return true
			}
		}
	}
	return false
}

// english is the words of the CLI's figures: the catalogues' own, the
// source strings (the page passes its language's instead).
func english(s string) string { return s }
