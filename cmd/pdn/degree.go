package main

import (
	"flag"
	"fmt"
	"io"
	"slices"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/internal/numtext"
	"pdnexplorer/lessons"
	"pdnexplorer/viz"
)

// degreeBin is the mean weight that nodes of degree in [2^k, 2^(k+1)) give
// their edges, for each model.
type degreeBin struct {
	MinDegree int                    `json:"min_degree"`
	Entries   int                    `json:"entries"`
	Mean      map[string]numtext.Num `json:"mean_weight"`
}

// degree is §4.2's diminishing-weight argument: on a graph with a skewed
// degree distribution, GAT's softmax makes each edge's weight fall as the
// receiving node's degree grows; a PDN weighs each edge on its own.
func parseDegree(args []string, stderr io.Writer) (runner, error) {
	e := experiment.ForLab("degree")
	fs := flag.NewFlagSet("degree", flag.ContinueOnError)
	out := new(string)
	outFlag(fs, out, "out", "directory for degree.svg (required)", true)
	asJSON := fs.Bool("json", false, "print one JSON object as the last line of stdout")
	var force bool
	forceFlag(fs, &force, "-out")
	registerLabRows(fs, &e, "degree")
	if err := parse(fs, args, stderr); err != nil {
		return nil, err
	}
	if err := unreadFlags(fs, e, commandReader("degree", "degree")); err != nil {
		return nil, err
	}
	return func(stdout, stderr io.Writer) error { return runDegree(e, *out, force, *asJSON, stdout, stderr) }, nil
}

func runDegree(e experiment.Experiment, out string, force, asJSON bool, stdout, stderr io.Writer) (err error) {
	w, err := openOut(outSpec{flag: "out", dir: out, force: force, parts: []string{"degree"}}, stderr)
	if err != nil {
		return err
	}
	defer finishOut(w, &err)
	g, err := datasets.Build(e.Data)
	if err != nil {
		return usageError{err}
	}
	deg := lessons.Degrees(g)
	runs := labRuns("degree", e) // the degree lab's models: PDN and GAT
	bins := map[int]*degreeBin{}
	acc := map[string]numtext.Num{}
	for _, r := range runs {
		t, err := lessons.TrainAll(g, r.Exp)
		if err != nil {
			return err
		}
		acc[r.Name] = round4(t.Evaluate().TestAcc)
		to, w := t.DirectedWeights()
		for _, b := range lessons.BinByDegree(deg, to, w) {
			if bins[b.Log2] == nil {
				bins[b.Log2] = &degreeBin{MinDegree: 1 << b.Log2, Entries: b.Entries, Mean: map[string]numtext.Num{}}
			}
			bins[b.Log2].Mean[r.Name] = round4(b.Mean)
		}
		fmt.Fprintf(stderr, "%s trained: test accuracy %.4f\n", r.Name, acc[r.Name])
	}
	var order []int
	for b := 0; b < 32; b++ {
		if bins[b] != nil {
			order = append(order, b)
		}
	}
	drawn := "" // the attach row draws only a scale-free graph's edges
	if e.Data.Graph == experiment.GraphScaleFree {
		drawn = fmt.Sprintf(" (m = %d under preferential attachment)", e.Data.Attach)
	}
	fmt.Fprintf(stdout, "mean edge weight by the receiving node's degree, %s graph%s, %d nodes, %d edges\n", e.Data.Graph, drawn, g.N, g.E())
	fmt.Fprintf(stdout, "%-12s %8s", "degree", "entries")
	series := make([]viz.Series, len(runs))
	for i, r := range runs {
		fmt.Fprintf(stdout, " %10s", r.Name)
		series[i] = viz.Series{Name: r.Title + " (test acc. " + fmt.Sprint(acc[r.Name]) + ")", Color: viz.SweepColors[2*i]}
	}
	fmt.Fprintln(stdout)
	var summary []degreeBin
	for _, b := range order {
		bin := bins[b]
		fmt.Fprintf(stdout, "%-12s %8d", fmt.Sprintf("[%d, %d)", 1<<b, 1<<(b+1)), bin.Entries)
		for i, r := range runs {
			fmt.Fprintf(stdout, " %10.4f", bin.Mean[r.Name])
			series[i].X = append(series[i].X, float64(b))
			series[i].Y = append(series[i].Y, float64(bin.Mean[r.Name]))
		}
		fmt.Fprintln(stdout)
		summary = append(summary, *bin)
	}
	svg := viz.LineChart(640, 320, viz.Axes{Title: "Mean edge weight against log₂ of the receiving node's degree", XLabel: "log₂ degree", YMin: 0, YMax: 1, XMax: float64(order[len(order)-1])},
		series...)
	path := w.Path("degree.svg")
	if err := w.WriteFile("degree", "degree.svg", viz.File(svg), 0o644); err != nil {
		return err
	}
	fmt.Fprintln(stdout, "wrote", path)
	if asJSON {
		if err := printJSON(stdout, map[string]any{"bins": summary, "test_accuracy": acc, "svg": path}); err != nil {
			return err
		}
	}
	return nil
}

// registerLabRows gives fs the flags of a lab's command: the data and
// training rows, and the model rows the lab reads (labModelRows).
func registerLabRows(fs *flag.FlagSet, e *experiment.Experiment, lab string, own ...string) {
	experiment.RegisterFlags(fs, e, experiment.GroupData, experiment.GroupTrain)
	experiment.RegisterNamed(fs, e, labModelRows(lab, own...)...)
}

// labModelRows are the model rows lab reads (Lab.Rows), which its command
// takes as flags, so that a state of the lab's page is a command line too;
// but those the command has flags of its own for (xor's restarts).
func labModelRows(lab string, own ...string) []string {
	l, _ := experiment.LabNamed(lab)
	var out []string
	for _, name := range l.Rows {
		if p, ok := experiment.Lookup(name); ok && p.Group == experiment.GroupModel && !slices.Contains(own, name) {
			out = append(out, name)
		}
	}
	return out
}
