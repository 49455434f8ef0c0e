package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

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
	out := fs.String("out", "", "directory for degree.svg (required)")
	asJSON := fs.Bool("json", false, "print one JSON object as the last line of stdout")
	experiment.RegisterFlags(fs, &e, experiment.GroupData, experiment.GroupTrain)
	if err := parse(fs, args, stderr); err != nil {
		return nil, err
	}
	if err := outDir("out", *out); err != nil {
		return nil, usageError{err}
	}
	return func(stdout, stderr io.Writer) error { return runDegree(e, *out, *asJSON, stdout, stderr) }, nil
}

func runDegree(e experiment.Experiment, out string, asJSON bool, stdout, stderr io.Writer) error {
	g, err := datasets.Build(e.Data)
	if err != nil {
		return usageError{err}
	}
	deg := lessons.Degrees(g)
	kinds := []string{experiment.PDN, experiment.GAT}
	bins := map[int]*degreeBin{}
	acc := map[string]numtext.Num{}
	for _, kind := range kinds {
		ek := e
		ek.Model.Kind = kind
		t, err := lessons.TrainAll(g, ek)
		if err != nil {
			return err
		}
		acc[kind] = round4(t.Evaluate().TestAcc)
		to, w := t.DirectedWeights()
		for _, b := range lessons.BinByDegree(deg, to, w) {
			if bins[b.Log2] == nil {
				bins[b.Log2] = &degreeBin{MinDegree: 1 << b.Log2, Entries: b.Entries, Mean: map[string]numtext.Num{}}
			}
			bins[b.Log2].Mean[kind] = round4(b.Mean)
		}
		fmt.Fprintf(stderr, "%s trained: test accuracy %.4f\n", kind, acc[kind])
	}
	var order []int
	for b := 0; b < 32; b++ {
		if bins[b] != nil {
			order = append(order, b)
		}
	}
	fmt.Fprintf(stdout, "mean edge weight by the receiving node's degree, %s graph (m = %d under preferential attachment), %d nodes, %d edges\n", e.Data.Graph, e.Data.Attach, g.N, g.E())
	fmt.Fprintf(stdout, "%-12s %8s %10s %10s\n", "degree", "entries", "pdn", "gat")
	series := map[string]*viz.Series{
		experiment.PDN: {Name: "PDN (test acc. " + fmt.Sprint(acc[experiment.PDN]) + ")", Color: viz.SweepColors[0]},
		experiment.GAT: {Name: "GAT (test acc. " + fmt.Sprint(acc[experiment.GAT]) + ")", Color: viz.SweepColors[2]},
	}
	var summary []degreeBin
	for _, b := range order {
		bin := bins[b]
		fmt.Fprintf(stdout, "%-12s %8d %10.4f %10.4f\n", fmt.Sprintf("[%d, %d)", 1<<b, 1<<(b+1)), bin.Entries, bin.Mean[experiment.PDN], bin.Mean[experiment.GAT])
		for _, k := range kinds {
			series[k].X = append(series[k].X, float64(b))
			series[k].Y = append(series[k].Y, float64(bin.Mean[k]))
		}
		summary = append(summary, *bin)
	}
	svg := viz.LineChart(640, 320, viz.Axes{Title: "Mean edge weight against log₂ of the receiving node's degree", XLabel: "log₂ degree", YMin: 0, YMax: 1, XMax: float64(order[len(order)-1])},
		*series[experiment.PDN], *series[experiment.GAT])
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	path := filepath.Join(out, "degree.svg")
	if err := os.WriteFile(path, viz.File(svg), 0o644); err != nil {
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
