package main

import (
	"cmp"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"time"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/numtext"
	"pdnexplorer/internal/outdir"
	"pdnexplorer/lessons"
	"pdnexplorer/pdn"
	"pdnexplorer/tiestrength"
	"pdnexplorer/viz"
)

// attentionSummary is the -json output of pdn attention.
type attentionSummary struct {
	Reps    int                     `json:"reps"`
	Hops    int                     `json:"hops"`
	Seconds float64                 `json:"seconds"`
	Scores  []string                `json:"scores"`
	Graphs  map[string]graphAttends `json:"graphs"`
	// PaperSays is what Figure 8's text says of each score it names: low
	// or high (tiestrength.PaperSays).
	PaperSays map[string]string `json:"paper_says"`
	Files     []string          `json:"files"`
}

// graphAttends is one graph's figures: the linear PDN's mean attention per
// score (Figure 8) and the multi-scale PDN's weight per power of Â after
// each epoch, on the first split (Figure 7).
type graphAttends struct {
	// Inputs name the graph's edge features: the tie-strength scores, or
	// its own (a multiplex graph's layers), never the one for the other.
	Inputs      []string    `json:"inputs"`
	Attention   []float64   `json:"attention"`
	AttentionSD []float64   `json:"attention_sd"`
	HopWeights  [][]float64 `json:"hop_weights"` // [epoch][hop]
	TestAcc     []float64   `json:"test_accuracy"`
}

func parseAttention(args []string, stderr io.Writer) (runner, error) {
	e := experiment.ForLab("attention") // Figure 7's K = 5
	fs := flag.NewFlagSet("attention", flag.ContinueOnError)
	graphs := fs.String("datasets", "cora,citeseer", "graphs, comma-separated: cora, citeseer or paths to your own ("+datasets.PathForms()+"; "+datasets.Formats+")")
	reps := numtext.Int(fs, "reps", 10, 1, 1000, "seeded splits per graph for the attention; rep r uses seed r")
	out := new(string)
	outFlag(fs, out, "out", "directory for attention.csv, attention.svg, hops.csv and hops-GRAPH.svg (required)", true)
	asJSON := fs.Bool("json", false, "print one JSON object as the last line of stdout")
	var force bool
	forceFlag(fs, &force, "-out")
	experiment.RegisterFlags(fs, &e, experiment.GroupTrain)
	experiment.RegisterNamed(fs, &e, "shots", "self-loop", "hidden", "dropout", "hops")
	if err := parse(fs, args, stderr); err != nil {
		return nil, err
	}
	gs, err := parseGraphs(*graphs)
	if err != nil {
		return nil, usageError{err}
	}
	if err := unreadFlags(fs, withDir(e, gs[0].dir), attentionReader()); err != nil {
		return nil, err
	}
	for i := range gs {
		gs[i].resplit = flagSet(fs, "shots")
	}
	return func(stdout, stderr io.Writer) error {
		notes := newGraphNotes(stderr)
		for i := range gs {
			gs[i].notes = notes
		}
		spec := outSpec{flag: "out", dir: *out, force: force, parts: []string{"attention"}, inputs: graphInputs(gs)}
		given := func(row string) bool { return flagSet(fs, row) }
		return runAttention(gs, e, given, *reps, spec, *asJSON, stdout, stderr)
	}, nil
}

func runAttention(gs []table4Graph, e experiment.Experiment, given func(string) bool, reps int, spec outSpec, asJSON bool, stdout, stderr io.Writer) (err error) {
	start := time.Now()
	sum := attentionSummary{Reps: reps, Hops: e.Model.Hops, Graphs: map[string]graphAttends{}, PaperSays: map[string]string{}}
	for _, n := range tiestrength.Names {
		if says := tiestrength.PaperSays(n); says != "" {
			sum.PaperSays[n] = says
		}
	}
	w, err := openOut(spec, stderr)
	if err != nil {
		return err
	}
	defer finishOut(w, &err)
	var names []string
	for _, g := range gs {
		fmt.Fprintf(stderr, "attention: %s\n", g.name)
		ga, err := attendsOn(g, e, given, reps)
		if err != nil {
			return err
		}
		sum.Graphs[g.name] = ga
		names = append(names, g.name)
		for _, in := range ga.Inputs {
			if !slices.Contains(sum.Scores, in) {
				sum.Scores = append(sum.Scores, in)
			}
		}
		hopsSVG := "hops-" + g.name + ".svg"
		if err := w.WriteFile("attention", hopsSVG, viz.File(hopsFigure(g.name, ga)), 0o644); err != nil {
			return err
		}
		sum.Files = append(sum.Files, w.Path(hopsSVG))
	}
	if err := writeAttentionCSV(w, "attention.csv", "hops.csv", names, sum); err != nil {
		return err
	}
	if err := w.WriteFile("attention", "attention.svg", viz.File(attentionFigure(names, sum)), 0o644); err != nil {
		return err
	}
	sum.Files = append([]string{w.Path("attention.csv"), w.Path("attention.svg"), w.Path("hops.csv")}, sum.Files...)
	sum.Seconds = math.Round(time.Since(start).Seconds()*10) / 10
	printAttention(stdout, names, sum)
	if asJSON {
		if err := printJSON(stdout, sum); err != nil {
			return err
		}
	}
	return nil
}

// attendsOn trains the linear PDN on each split and the multi-scale PDN on
// the first, reading the attention at the end and the hop weights after
// every epoch.
func attendsOn(g table4Graph, lab experiment.Experiment, given func(string) bool, reps int) (graphAttends, error) {
	var ga graphAttends
	var per [][]float64
	base := lab
	for r := 1; r <= reps; r++ {
		graph, err := g.load(lab, uint64(r))
		if err != nil {
			return ga, err
		}
		if r == 1 {
			base = recipeOf(lab, graph, given)
		}
		if per == nil {
			ga.Inputs = graph.InputNames()
			per = make([][]float64, graph.D)
		}
		e := labRun("attention", "linear", base).Exp
		e.Train.Seed = uint64(r)
		t, err := pdn.NewTrainer(graph, e)
		if err != nil {
			return ga, err
		}
		if err := lessons.Train(t, math.MaxInt, nil); err != nil {
			return ga, err
		}
		for i, a := range t.Evaluate().Inputs {
			if i < len(per) {
				per[i] = append(per[i], a)
			}
		}
		if r > 1 {
			continue
		}
		e = labRun("attention", "multiscale", base).Exp
		e.Train.Seed = uint64(r)
		t, err = pdn.NewTrainer(graph, e)
		if err != nil {
			return ga, err
		}
		var snap pdn.Snapshot
		err = lessons.Train(t, math.MaxInt, func(t *pdn.Trainer, _ time.Duration) error {
			t.EvaluateInto(&snap)
			ga.HopWeights = append(ga.HopWeights, append([]float64(nil), snap.Hops...))
			ga.TestAcc = append(ga.TestAcc, snap.TestAcc)
			return nil
		})
		if err != nil {
			return ga, err
		}
	}
	for _, xs := range per {
		m, sd := experiment.MeanSD(xs)
		ga.Attention, ga.AttentionSD = append(ga.Attention, m), append(ga.AttentionSD, sd)
	}
	return ga, nil
}

// attentionOf is graph ga's mean and SD of the attention on input name;
// NaN where the graph has no such input.
func attentionOf(ga graphAttends, name string) (mean, sd float64) {
	if i := slices.Index(ga.Inputs, name); i >= 0 && i < len(ga.Attention) {
		return ga.Attention[i], ga.AttentionSD[i]
	}
	return math.NaN(), math.NaN()
}

func writeAttentionCSV(w *outdir.Run, attName, hopsName string, names []string, sum attentionSummary) error {
	rows := [][]string{{"graph", "score", "mean_attention", "sd"}}
	hops := [][]string{{"graph", "epoch", "hop", "weight", "test_accuracy"}}
	for _, g := range names {
		ga := sum.Graphs[g]
		for i, s := range ga.Inputs {
			rows = append(rows, []string{g, s, strconv.FormatFloat(ga.Attention[i], 'f', 5, 64), strconv.FormatFloat(ga.AttentionSD[i], 'f', 5, 64)})
		}
		for ep, p := range ga.HopWeights {
			for k, w := range p {
				hops = append(hops, []string{g, strconv.Itoa(ep + 1), strconv.Itoa(k + 1), strconv.FormatFloat(w, 'f', 5, 64), strconv.FormatFloat(ga.TestAcc[ep], 'f', 4, 64)})
			}
		}
	}
	if err := writeRows(w, "attention", attName, rows); err != nil {
		return err
	}
	return writeRows(w, "attention", hopsName, hops)
}

// attentionFigure is Figure 8: the mean attention per score, a bar per
// graph.
func attentionFigure(names []string, sum attentionSummary) string {
	var series []viz.BarSeries
	for i, g := range names {
		ga := sum.Graphs[g]
		bs := viz.BarSeries{Name: g, Color: viz.SweepColors[i%len(viz.SweepColors)]}
		for _, in := range sum.Scores {
			m, sd := attentionOf(ga, in)
			bs.Mean, bs.SD = append(bs.Mean, m), append(bs.SD, sd)
		}
		series = append(series, bs)
	}
	what := "the tie-strength scores"
	if !slices.Equal(sum.Scores, datasets.TieStrengthNames) {
		what = "the edge features (each graph's own, by name)"
	}
	title := fmt.Sprintf("Figure 8: the linear PDN's attention over %s (%d splits)", what, sum.Reps)
	return viz.GroupedBars(english, 980, 380, title, "mean softmax attention", 0, tiestrength.Short(sum.Scores), series...)
}

// hopsFigure is Figure 7 for one graph: each power's weight over the
// epochs, and the test accuracy.
func hopsFigure(name string, ga graphAttends) string {
	k := 0
	for _, p := range ga.HopWeights {
		k = max(k, len(p))
	}
	epochs := make([]float64, len(ga.HopWeights))
	for i := range epochs {
		epochs[i] = float64(i + 1)
	}
	var series []viz.Series
	for h := 0; h < k; h++ {
		y := make([]float64, len(ga.HopWeights))
		for i, p := range ga.HopWeights {
			y[i] = p[h]
		}
		series = append(series, viz.Series{Name: fmt.Sprintf("P%d (Â^%d)", h+1, h+1), Color: viz.ClassColor(h), X: epochs, Y: y})
	}
	series = append(series, viz.Series{Name: "test acc.", Color: "#555555", Dash: true, X: epochs, Y: ga.TestAcc})
	return viz.LineChart(760, 360, viz.Axes{Title: "Figure 7 on " + name + ": the multi-scale PDN's weight of each power of Â", XLabel: "epoch", YMin: 0, YMax: 1}, series...)
}

// printAttention prints the attention table and the final hop weights.
func printAttention(w io.Writer, names []string, sum attentionSummary) {
	fmt.Fprintf(w, "Figure 8, the linear PDN's attention, mean of %d splits (%.1f s)\n%-22s", sum.Reps, sum.Seconds, "edge feature")
	for _, g := range names {
		fmt.Fprintf(w, " %16s", g)
	}
	fmt.Fprintln(w)
	for _, s := range sum.Scores {
		fmt.Fprintf(w, "%-22s", s)
		for _, g := range names {
			cell := "–"
			if m, sd := attentionOf(sum.Graphs[g], s); !math.IsNaN(m) {
				cell = fmt.Sprintf("%.3f±%.3f", m, sd)
			}
			fmt.Fprintf(w, " %16s", cell)
		}
		fmt.Fprintln(w)
	}
	for _, g := range names {
		printRanked(w, g, sum.Graphs[g])
	}
	for _, g := range names {
		ga := sum.Graphs[g]
		if n := len(ga.HopWeights); n > 0 {
			fmt.Fprintf(w, "Figure 7, %s: hop weights after epoch %d: %.3f (test accuracy %.3f)\n", g, n, ga.HopWeights[n-1], ga.TestAcc[n-1])
		}
	}
}

// paperFigure8 is Figure 8's text, as the paper states it (§6.2).
const paperFigure8 = "the paper: unnormalised scores (degree product, common neighbours) receive low attention; " +
	"normalised ones that ignore the shared neighbours' degrees (association strength, min overlap) relatively high"

// printRanked prints one graph's inputs, the most attended first, each
// beside what Figure 8's text says of it and whether it is over or under
// an even share: all 11 scores, where the paper's figure shows a subset.
func printRanked(w io.Writer, g string, ga graphAttends) {
	if !slices.Equal(ga.Inputs, tiestrength.Names) {
		return // a graph's own edge features: the paper says nothing of them
	}
	order := make([]int, len(ga.Attention))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(ga.Attention[b], ga.Attention[a]) })
	even := 1 / float64(len(order))
	fmt.Fprintf(w, "Figure 8 on %s, the most attended first (an even share is %.3f; %s):\n", g, even, paperFigure8)
	for rank, i := range order {
		share := "over"
		if ga.Attention[i] < even {
			share = "under"
		}
		says := "not named"
		if s := tiestrength.PaperSays(ga.Inputs[i]); s != "" {
			says = s
		}
		fmt.Fprintf(w, "%3d. %-22s %.3f±%.3f  %-5s an even share  the paper: %s\n", rank+1, ga.Inputs[i], ga.Attention[i], ga.AttentionSD[i], share, says)
	}
}

// attentionReader is pdn attention's reader: the attention lab's, on real
// graphs, rep r's seeds its own.
func attentionReader() experiment.Reader {
	r := commandReader("attention", "attention")
	r.Sets = map[string]phrase.Text{"init-seed": phrase.New("rep r trains with weight seed r; choose how many with -reps")}
	return r
}

// recipeOf is the lab's state on graph: the rows of its features' recipe
// where the lab's own graph's recipe set them (the page's lab moving to
// that graph, experiment.FollowRecipe), the rows the flags set as set.
func recipeOf(lab experiment.Experiment, graph *datasets.Graph, given func(string) bool) experiment.Experiment {
	e := lab
	e.FollowRecipe(lab.Data.Recipe(), graph.Recipe())
	for _, p := range experiment.Params {
		if given(p.Name) {
			if err := p.Set(&e, p.Get(&lab)); err != nil {
				panic("pdn attention: row " + p.Name + " does not take its own value: " + err.Error())
			}
		}
	}
	return e
}
