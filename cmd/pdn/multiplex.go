package main

import (
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/numtext"
	"pdnexplorer/lessons"
	"pdnexplorer/pdn"
	"pdnexplorer/viz"
)

// multiplexRun is one of the multiplex lab's runs over the seeds.
type multiplexRun struct {
	Name     string        `json:"name"`
	Title    string        `json:"title"`
	Accuracy []numtext.Num `json:"accuracy"` // per data seed
	Mean     numtext.Num   `json:"mean_accuracy"`
	SD       numtext.Num   `json:"sd_accuracy"`
}

// multiplexLayer is one layer over the seeds: what it holds, and the
// weight PDN's pathfinder gave its edges.
type multiplexLayer struct {
	Name       string        `json:"name"`
	Edges      []int         `json:"edges"`  // per data seed
	Within     []numtext.Num `json:"within"` // share of its edges within classes, per seed
	Weight     []numtext.Num `json:"pdn_weight"`
	MeanW      numtext.Num   `json:"mean_pdn_weight"`
	SDW        numtext.Num   `json:"sd_pdn_weight"`
	MeanWithin numtext.Num   `json:"mean_within"`
}

// multiplexSummary is pdn multiplex's -json output. Here are this
// graph's bars beside the paper's, by the paper's names: PDN's and each
// model row's that reads layers (MGCN, …), over the seeds.
type multiplexSummary struct {
	Seeds  int                            `json:"seeds"`
	Runs   []*multiplexRun                `json:"runs"`
	Layers []*multiplexLayer              `json:"layers"`
	Paper  map[string]map[string]paperBar `json:"paper"`
	Here   map[string]paperBar            `json:"here"`
	// Findings are the paper's two findings on its figure (§5.2), each
	// read from this graph's bars: whether it holds here.
	Findings []multiplexFinding `json:"findings"`
	Files    []string           `json:"files"`
}

// multiplexFinding is one of the paper's findings on its multiplex
// figure, checked on this graph's bars: Holds, and Why (the bars that
// decide it).
type multiplexFinding struct {
	Finding string `json:"finding"`
	Holds   bool   `json:"holds"`
	Why     string `json:"why"`
}

// The paper's findings (§5.2): "PDNs significantly outperform the
// competing supervised and unsupervised multiplex graph representation
// learning techniques" and "supervised learning methods have a
// considerable performance advantage over the unsupervised ones".
var (
	supervisedMultiplex   = []string{"MGCN", "DMGI"}
	unsupervisedMultiplex = []string{"M2V", "MELL", "MNE"}
)

// multiplexFindings checks the paper's findings on the bars here: PDN
// ahead of every baseline drawn, and the supervised baselines' mean ahead
// of the unsupervised ones'. A finding whose bars are not all here is not
// stated.
func multiplexFindings(here map[string]paperBar) []multiplexFinding {
	var out []multiplexFinding
	pdn, ok := here["PDN"]
	if !ok {
		return nil
	}
	var ahead []string
	for _, m := range append(slices.Clone(supervisedMultiplex), unsupervisedMultiplex...) {
		if b, ok := here[m]; !ok {
			return out
		} else if b.Mean >= pdn.Mean {
			ahead = append(ahead, fmt.Sprintf("%s %.3f", m, b.Mean))
		}
	}
	f := multiplexFinding{Finding: "PDN ahead of every baseline", Holds: len(ahead) == 0}
	if f.Holds {
		f.Why = fmt.Sprintf("PDN %.3f", pdn.Mean)
	} else {
		f.Why = fmt.Sprintf("PDN %.3f, at or under %s", pdn.Mean, strings.Join(ahead, ", "))
	}
	out = append(out, f)
	mean := func(ms []string) float64 {
		var sum float64
		for _, m := range ms {
			sum += here[m].Mean
		}
		return sum / float64(len(ms))
	}
	sup, unsup := mean(supervisedMultiplex), mean(unsupervisedMultiplex)
	return append(out, multiplexFinding{Finding: "the supervised baselines (MGCN, DMGI) ahead of the unsupervised (M2V, MELL, MNE), on average",
		Holds: sup > unsup, Why: fmt.Sprintf("%.3f against %.3f", sup, unsup)})
}

// paperBar is one bar of the paper's multiplex figure: mean and SD over
// its 10 seeded 100-shot splits.
type paperBar struct {
	Mean float64 `json:"mean"`
	SD   float64 `json:"sd"`
}

// paperMultiplex is the paper's multiplex figure (§5.2), read from its
// source: 100-shot test accuracy on IMDB and ACM, 10 splits.
var paperMultiplex = map[string]map[string]paperBar{
	"IMDB": {"MGCN": {0.567, 0.008}, "DMGI": {0.565, 0.012}, "M2V": {0.418, 0.007}, "MELL": {0.435, 0.009}, "MNE": {0.424, 0.009}, "PDN": {0.589, 0.015}},
	"ACM":  {"MGCN": {0.653, 0.010}, "DMGI": {0.710, 0.012}, "M2V": {0.639, 0.006}, "MELL": {0.612, 0.013}, "MNE": {0.702, 0.004}, "PDN": {0.736, 0.006}},
}

// paperModels are the figure's bars in its order.
var paperModels = []string{"MGCN", "DMGI", "M2V", "MELL", "MNE", "PDN"}

// multiplexName is the name the paper's multiplex figure gives the model
// of kind (mgcn is MGCN, m2v M2V).
func multiplexName(kind string) string { return strings.ToUpper(kind) }

// layerRuns are the runs of every model row that reads a multiplex
// graph's layers (experiment.ModelKind.Layers: the figure's baselines),
// over the union of e's layers with e's model and training rows, in the
// model table's order: a row added to the table joins them.
func layerRuns(e experiment.Experiment, kinds []string) []experiment.Run {
	var out []experiment.Run
	for _, kind := range kinds {
		x := e
		x.Model.Kind, x.Data.Layer = kind, ""
		out = append(out, experiment.Run{Name: kind, Title: multiplexName(kind), Exp: x})
	}
	return out
}

// parseMultiplex is the multiplex figure (§5.2) on a generated multiplex
// graph: the multiplex lab's runs (PDN over the layers, GCN over their
// union, GCN over each layer alone) and every model row that reads the
// layers (the figure's baselines: MGCN, …) over seeds, and the weight the
// pathfinder gave each layer, beside the paper's figure.
func parseMultiplex(args []string, stderr io.Writer) (runner, error) {
	e := experiment.ForLab("multiplex")
	fs := flag.NewFlagSet("multiplex", flag.ContinueOnError)
	seeds := numtext.Int(fs, "seeds", 5, 1, 100, "data seeds 1..N; data seed s trains each run with weight seed s")
	out := new(string)
	outFlag(fs, out, "out", "directory for multiplex.csv, multiplex-layers.csv and multiplex.svg (required)", true)
	asJSON := fs.Bool("json", false, "print one JSON object as the last line of stdout")
	layered := experiment.ModelsWhere(func(m experiment.ModelKind) bool { return m.Layers })
	baselines := fs.String("baselines", "", "the figure's baselines trained beside the lab's runs, comma-separated, or none; by default every one of "+strings.Join(layered, ", ")+" that the command line's limits let train on the graph (the others said, with their cost)")
	var force bool
	forceFlag(fs, &force, "-out")
	registerLabRows(fs, &e, "multiplex")
	if err := parse(fs, args, stderr); err != nil {
		return nil, err
	}
	if err := unreadFlags(fs, e, multiplexReader()); err != nil {
		return nil, err
	}
	kinds, err := baselinesOf(*baselines, layered)
	if err != nil {
		return nil, err
	}
	if *baselines == "" {
		kinds = withinReach(e, layered, stderr)
	}
	return func(stdout, stderr io.Writer) error {
		return runMultiplex(e, kinds, *seeds, *out, force, *asJSON, stdout, stderr)
	}, nil
}

// baselinesOf is -baselines read: model rows that read layers, each
// once, or none ("" for the default, which withinReach chooses).
func baselinesOf(list string, layered []string) ([]string, error) {
	if list == "none" || list == "" {
		return nil, nil
	}
	var kinds []string
	for _, k := range strings.Split(list, ",") {
		k = strings.TrimSpace(k)
		if !slices.Contains(layered, k) || slices.Contains(kinds, k) {
			return nil, usageError{fmt.Errorf("-baselines: %q is not one of %s (each once), or none", k, strings.Join(layered, ", "))}
		}
		kinds = append(kinds, k)
	}
	return kinds, nil
}

// multiplexReader is pdn multiplex's reader: the multiplex lab's rows but
// the seeds, which -seeds draws.
func multiplexReader() experiment.Reader {
	r := commandReader("multiplex", "multiplex")
	r.Sets = maps.Clone(r.Sets)
	r.Sets["seed"] = phrase.New("its -seeds draws the data seeds 1..N")
	r.Sets["init-seed"] = phrase.New("data seed s trains each run with weight seed s")
	return r
}

// withinReach are the baselines of kinds the limits let train on e's
// graph, the default of -baselines: one out of reach (MNE at the defaults:
// about half an hour of set-up) is said on stderr with its cost, and left
// out, so that the command at its defaults runs; named in -baselines, it
// is refused (costEveryRun).
func withinReach(e experiment.Experiment, kinds []string, stderr io.Writer) []string {
	var out []string
	for _, r := range layerRuns(e, kinds) {
		if err := costEveryRun([]experiment.Run{r}); err != nil {
			fmt.Fprintf(stderr, "note: %v; left out of the default baselines (name it in -baselines on a smaller graph)\n", err)
			continue
		}
		out = append(out, r.Exp.Model.Kind)
	}
	return out
}

// costEveryRun refuses, before any trains, a run the limits refuse,
// naming the rows of its graph that lower it (a review of issue 57: MNE
// was refused after the others had trained for minutes, naming none).
// Every seed draws a graph of the same shape, so the first seed's speaks
// for all.
func costEveryRun(runs []experiment.Run) error {
	for _, r := range runs {
		x := r.Exp
		x.Data.Seed, x.Train.Seed = 1, 1
		g, err := datasets.Build(x.Data)
		if err != nil {
			return usageError{err}
		}
		if err := pdn.Estimate(pdn.ShapeOf(g), x.Model).Check(pdn.NativeLimits, x.Data.Lever); err != nil {
			return usageError{fmt.Errorf("%s: %w", r.Name, err)}
		}
	}
	return nil
}

func runMultiplex(e experiment.Experiment, baselines []string, seeds int, out string, force, asJSON bool, stdout, stderr io.Writer) (err error) {
	w, err := openOut(outSpec{flag: "out", dir: out, force: force, parts: []string{"multiplex"}}, stderr)
	if err != nil {
		return err
	}
	defer finishOut(w, &err)
	runs := append(labRuns("multiplex", e), layerRuns(e, baselines)...)
	sum := multiplexSummary{Seeds: seeds, Paper: paperMultiplex, Here: map[string]paperBar{}}
	for _, r := range runs {
		sum.Runs = append(sum.Runs, &multiplexRun{Name: r.Name, Title: r.Title})
	}
	if err := costEveryRun(runs); err != nil {
		return err
	}
	rows := [][]string{{"seed", "run", "layer", "test_accuracy"}}
	layerRows := [][]string{{"seed", "layer", "edges", "within", "pdn_weight"}}
	var nodes int
	for seed := 1; seed <= seeds; seed++ {
		for i, r := range runs {
			x := r.Exp
			x.Data.Seed, x.Train.Seed = uint64(seed), uint64(seed)
			g, err := datasets.Build(x.Data)
			if err != nil {
				return usageError{err}
			}
			nodes = g.N
			t, err := lessons.TrainAll(g, x)
			if err != nil {
				return err
			}
			s := t.Evaluate()
			sum.Runs[i].Accuracy = append(sum.Runs[i].Accuracy, round4(s.TestAcc))
			rows = append(rows, []string{strconv.Itoa(seed), r.Name, x.Data.Layer, strconv.FormatFloat(s.TestAcc, 'f', 4, 64)})
			if r.Name != experiment.PDN {
				continue
			}
			for l, layer := range lessons.Layers(g, s.Weights) {
				if seed == 1 {
					sum.Layers = append(sum.Layers, &multiplexLayer{Name: layer.Name})
				}
				m := sum.Layers[l]
				m.Edges = append(m.Edges, layer.Edges)
				m.Within, m.Weight = append(m.Within, round4(layer.Within)), append(m.Weight, round4(layer.Weight))
				layerRows = append(layerRows, []string{strconv.Itoa(seed), layer.Name, strconv.Itoa(layer.Edges),
					strconv.FormatFloat(layer.Within, 'f', 4, 64), strconv.FormatFloat(layer.Weight, 'f', 4, 64)})
			}
		}
		fmt.Fprintf(stderr, "seed %d done\n", seed)
	}
	for _, r := range sum.Runs {
		r.Mean, r.SD = meanSDOf(r.Accuracy)
		if name := multiplexName(r.Name); slices.Contains(paperModels, name) {
			sum.Here[name] = paperBar{Mean: float64(r.Mean), SD: float64(r.SD)}
		}
	}
	for _, l := range sum.Layers {
		l.MeanW, l.SDW = meanSDOf(l.Weight)
		l.MeanWithin, _ = meanSDOf(l.Within)
	}
	sum.Findings = multiplexFindings(sum.Here)
	printMultiplex(stdout, e, nodes, sum)
	if err := writeRows(w, "multiplex", "multiplex.csv", rows); err != nil {
		return err
	}
	if err := writeRows(w, "multiplex", "multiplex-layers.csv", layerRows); err != nil {
		return err
	}
	if err := w.WriteFile("multiplex", "multiplex.svg", viz.File(multiplexFigure(sum)), 0o644); err != nil {
		return err
	}
	sum.Files = []string{w.Path("multiplex.csv"), w.Path("multiplex-layers.csv"), w.Path("multiplex.svg")}
	fmt.Fprintln(stdout, "wrote", sum.Files[0], sum.Files[1], sum.Files[2])
	if asJSON {
		return printJSON(stdout, sum)
	}
	return nil
}

// meanSDOf is the mean and sample standard deviation of xs, as every
// table's (experiment.MeanSD), rounded as -json rounds.
func meanSDOf(xs []numtext.Num) (numtext.Num, numtext.Num) {
	v := make([]float64, len(xs))
	for i, x := range xs {
		v[i] = float64(x)
	}
	m, sd := experiment.MeanSD(v)
	return round4(m), round4(sd)
}

func printMultiplex(w io.Writer, e experiment.Experiment, nodes int, s multiplexSummary) {
	fmt.Fprintf(w, "Multiplex graph (§5.2): %d nodes, layers %s (%% of edges within classes), mean degree %d a layer, %d data seeds\n", nodes, e.Data.Layers, e.Data.LayerDegree, s.Seeds)
	fmt.Fprintf(w, "%-22s %-17s %s\n", "run", "test accuracy", "per seed")
	for _, r := range s.Runs {
		fmt.Fprintf(w, "%-22s %.4f ± %.4f   %v\n", r.Title, r.Mean, r.SD, r.Accuracy)
	}
	fmt.Fprintf(w, "\n%-6s %8s %15s %22s\n", "layer", "edges", "within classes", "PDN's mean weight")
	for _, l := range s.Layers {
		fmt.Fprintf(w, "%-6s %8d %15.3f %15.3f ± %.3f\n", l.Name, l.Edges[0], l.MeanWithin, l.MeanW, l.SDW)
	}
	fmt.Fprintf(w, "\nThe paper's multiplex figure (100-shot test accuracy, 10 splits; no GCN over the union is drawn there), and here this graph's (%d seeds; - where no model row is built yet):\n", s.Seeds)
	fmt.Fprintf(w, "%-6s", "")
	for _, m := range paperModels {
		fmt.Fprintf(w, " %13s", m)
	}
	fmt.Fprintln(w)
	for _, d := range []string{"IMDB", "ACM"} {
		fmt.Fprintf(w, "%-6s", d)
		for _, m := range paperModels {
			b := s.Paper[d][m]
			fmt.Fprintf(w, " %13s", fmt.Sprintf("%.3f ± %.3f", b.Mean, b.SD))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "%-6s", "here")
	for _, m := range paperModels {
		cell := "-"
		if b, ok := s.Here[m]; ok {
			cell = fmt.Sprintf("%.3f ± %.3f", b.Mean, b.SD)
		}
		fmt.Fprintf(w, " %13s", cell)
	}
	fmt.Fprintln(w)
	if len(s.Findings) > 0 {
		fmt.Fprintln(w, "\nThe paper's findings on its figure, checked on this graph's bars:")
	}
	for _, f := range s.Findings {
		verdict := "holds here"
		if !f.Holds {
			verdict = "does not hold here"
		}
		fmt.Fprintf(w, "  %s: %s (%s)\n", f.Finding, verdict, f.Why)
	}
}

// multiplexFigure draws the runs' accuracies and the layers' weights side
// by side.
func multiplexFigure(s multiplexSummary) string {
	acc := viz.BarSeries{Name: "test accuracy", Color: viz.ModelColor(experiment.PDN, 0)}
	var groups []string
	for _, r := range s.Runs {
		groups = append(groups, r.Title)
		acc.Mean, acc.SD, acc.Reference = append(acc.Mean, float64(r.Mean)), append(acc.SD, float64(r.SD)), append(acc.Reference, math.NaN())
	}
	weight := viz.BarSeries{Name: "PDN's mean weight", Color: viz.ModelColor(experiment.PDN, 0)}
	within := viz.BarSeries{Name: "share of edges within classes", Color: viz.ModelColor(experiment.GCN, 1)}
	var layers []string
	for _, l := range s.Layers {
		layers = append(layers, l.Name)
		weight.Mean, weight.SD, weight.Reference = append(weight.Mean, float64(l.MeanW)), append(weight.SD, float64(l.SDW)), append(weight.Reference, math.NaN())
		within.Mean, within.SD, within.Reference = append(within.Mean, float64(l.MeanWithin)), append(within.SD, 0), append(within.Reference, math.NaN())
	}
	return viz.Grid(480, 420, 2,
		viz.GroupedBars(english, 480, 420, "Test accuracy by run", "test accuracy", 0, groups, acc),
		viz.GroupedBars(english, 480, 420, "The pathfinder's weight by layer", "weight", 0, layers, weight, within))
}
