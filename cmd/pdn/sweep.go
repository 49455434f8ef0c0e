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
	"strconv"
	"strings"
	"sync"
	"time"

	"gonum.org/v1/gonum/stat"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/internal/numtext"
	"pdnexplorer/lessons"
	"pdnexplorer/pdn"
	"pdnexplorer/viz"
)

// sweepJob is one graph of a sweep: a value of the parameter and a rep.
type sweepJob struct {
	value, rep int
}

// sweepSummary is the -json output of pdn sweep.
type sweepSummary struct {
	Scenario  int                     `json:"scenario"`
	Parameter string                  `json:"parameter"`
	Values    []float64               `json:"values"`
	Reps      int                     `json:"reps"`
	Seconds   float64                 `json:"seconds"`
	Models    map[string]modelSummary `json:"models"`
	CSV       string                  `json:"csv"`
	SVG       string                  `json:"svg"`
}

// modelSummary is one model's accuracy at each value over the runs that
// gave one (Results of them); a mean is null where none did.
type modelSummary struct {
	Mean    []numtext.Num `json:"mean"`
	SD      []numtext.Num `json:"sd"`
	Results []int         `json:"results"`
	Paper   []float64     `json:"paper,omitempty"` // Figure 3, as a share
}

func parseSweep(args []string, stderr io.Writer) (runner, error) {
	e := experiment.Default()
	fs := flag.NewFlagSet("sweep", flag.ContinueOnError)
	k := fs.Int("scenario", 0, "the paper's synthetic scenario, 1..8 (Table 2)")
	reps := fs.Int("reps", 10, "graphs per value; rep r uses data and weight seed r")
	models := fs.String("models", strings.Join(datasets.PaperModels, ","), "models to train, comma-separated")
	out := fs.String("out", "", "directory for scenarioK.csv and scenarioK.svg (required)")
	workers := fs.Int("workers", runtime.NumCPU(), "graphs trained at once")
	asJSON := fs.Bool("json", false, "print one JSON object as the last line of stdout")
	experiment.RegisterFlags(fs, &e, experiment.GroupTrain)
	experiment.RegisterNamed(fs, &e, "edge-hidden", "edge-init", "hidden", "dropout", "edge-dropout")
	if err := parse(fs, args, stderr); err != nil {
		return nil, err
	}
	s, err := datasets.Scenarios(*k)
	if err != nil {
		return nil, usageError{fmt.Errorf("flag -scenario: %w", err)}
	}
	if err := errors.Join(outDir("out", *out), intFlag("reps", *reps, 1, 1000), intFlag("workers", *workers, 1, 64)); err != nil {
		return nil, usageError{err}
	}
	kinds, err := parseModels(*models)
	if err != nil {
		return nil, usageError{err}
	}
	return func(stdout, stderr io.Writer) error {
		return runSweepCmd(s, e, kinds, *reps, *workers, *out, *asJSON, stdout, stderr)
	}, nil
}

func runSweepCmd(s datasets.Scenario, e experiment.Experiment, kinds []string, reps, workers int, out string, asJSON bool, stdout, stderr io.Writer) error {
	start := time.Now()
	acc, err := runSweep(s, e, kinds, reps, workers, stderr)
	if err != nil {
		return err
	}
	sum := summarise(s, kinds, reps, acc)
	sum.Seconds = math.Round(time.Since(start).Seconds()*10) / 10
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	sum.CSV = filepath.Join(out, fmt.Sprintf("scenario%d.csv", s.Number))
	sum.SVG = filepath.Join(out, fmt.Sprintf("scenario%d.svg", s.Number))
	if err := writeSweepCSV(sum.CSV, s, kinds, acc); err != nil {
		return err
	}
	if err := os.WriteFile(sum.SVG, viz.File(sweepFigure(s, kinds, sum)), 0o644); err != nil {
		return err
	}
	printSweep(stdout, s, kinds, sum)
	if asJSON {
		if err := printJSON(stdout, sum); err != nil {
			return err
		}
	}
	return nil
}

func parseModels(s string) ([]string, error) {
	var kinds []string
	for _, m := range strings.Split(s, ",") {
		m = strings.TrimSpace(m)
		ok := false
		for _, k := range experiment.Kinds {
			ok = ok || k == m
		}
		if !ok {
			return nil, fmt.Errorf("flag -models: %s is not allowed; want a comma-separated list of %s", experiment.Quote(m), strings.Join(experiment.Kinds, ", "))
		}
		kinds = append(kinds, m)
	}
	return kinds, nil
}

// runSweep trains every model on every graph of the scenario, several
// graphs at once, and returns acc[value][rep][model]. Each result depends
// only on its seeds, so the order the workers finish in changes nothing.
func runSweep(s datasets.Scenario, base experiment.Experiment, kinds []string, reps, workers int, stderr io.Writer) ([][][]float64, error) {
	acc := make([][][]float64, len(s.Values))
	for v := range acc {
		acc[v] = make([][]float64, reps)
	}
	total := len(s.Values) * reps
	tty := newProgress(stderr, total, false).tty
	err := inParallel(total, workers, func(i int) error {
		res, err := sweepGraph(s, base, kinds, sweepJob{i / reps, i % reps})
		acc[i/reps][i%reps] = res
		return err
	}, func(done int) {
		switch {
		case tty:
			fmt.Fprintf(stderr, "\rscenario %d: %d/%d graphs", s.Number, done, total)
		case done*10/total != (done-1)*10/total: // a line every 10%
			fmt.Fprintf(stderr, "scenario %d: %d/%d graphs\n", s.Number, done, total)
		}
	})
	if tty {
		fmt.Fprintln(stderr)
	}
	return acc, err
}

// meanSD is the mean and sample standard deviation of xs: NaN for none,
// an SD of 0 for one.
func meanSD(xs []float64) (mean, sd float64) {
	switch len(xs) {
	case 0:
		return math.NaN(), math.NaN()
	case 1:
		return xs[0], 0
	}
	return stat.MeanStdDev(xs, nil)
}

// inParallel calls do(i) for every i in 0..n−1 on workers goroutines, and
// done with the number finished after each (one at a time); it returns the
// first error. Each do writes only its own results, so no lock guards them.
func inParallel(n, workers int, do func(i int) error, done func(finished int)) error {
	// The workers share the cores: each trains on its own share of them.
	defer pdn.SetThreads(pdn.SetThreads(runtime.GOMAXPROCS(0) / workers))
	jobs := make(chan int)
	var (
		mu       sync.Mutex
		firstErr error
		finished int
		wg       sync.WaitGroup
	)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				err := do(i)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				finished++
				done(finished)
				mu.Unlock()
			}
		}()
	}
	for i := 0; i < n; i++ {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return firstErr
}

// sweepGraph trains each model on the graph of one value and rep.
func sweepGraph(s datasets.Scenario, base experiment.Experiment, kinds []string, j sweepJob) ([]float64, error) {
	data, err := s.At(base.Data, j.value)
	if err != nil {
		return nil, err
	}
	data.Seed = uint64(j.rep + 1)
	g, err := datasets.Synthetic(data)
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(kinds))
	for m, kind := range kinds {
		e := base
		e.Data = data
		e.Model.Kind = kind
		e.Train.Seed = data.Seed
		out[m] = math.NaN() // a diverged run counts as no result
		t, err := pdn.NewTrainer(g, e)
		var ge *pdn.GraphError
		if errors.As(err, &ge) {
			continue // nor does a graph the model cannot train on: one drawn without edges, say
		}
		if err != nil {
			return nil, err
		}
		if err := lessons.Train(t, math.MaxInt, nil); err == nil {
			out[m] = t.Evaluate().TestAcc
		}
	}
	return out, nil
}

func summarise(s datasets.Scenario, kinds []string, reps int, acc [][][]float64) sweepSummary {
	sum := sweepSummary{Scenario: s.Number, Parameter: s.Param, Values: s.Values, Reps: reps, Models: map[string]modelSummary{}}
	for m, kind := range kinds {
		var ms modelSummary
		for v := range s.Values {
			var xs []float64
			for r := 0; r < reps; r++ {
				if x := acc[v][r][m]; !math.IsNaN(x) {
					xs = append(xs, x)
				}
			}
			mean, sd := meanSD(xs)
			ms.Mean, ms.SD = append(ms.Mean, round4(mean)), append(ms.SD, round4(sd))
			ms.Results = append(ms.Results, len(xs))
		}
		if paper, ok := s.Paper[kind]; ok {
			for _, p := range paper {
				ms.Paper = append(ms.Paper, p/100)
			}
		}
		sum.Models[kind] = ms
	}
	return sum
}

func writeSweepCSV(path string, s datasets.Scenario, kinds []string, acc [][][]float64) error {
	rows := [][]string{{"scenario", "parameter", "value", "model", "rep", "test_accuracy"}}
	for v, x := range s.Values {
		for r := range acc[v] {
			for m, kind := range kinds {
				rows = append(rows, []string{strconv.Itoa(s.Number), s.Param, strconv.FormatFloat(x, 'g', -1, 64), kind,
					strconv.Itoa(r + 1), strconv.FormatFloat(acc[v][r][m], 'f', 4, 64)})
			}
		}
	}
	return writeRows(path, rows)
}

func sweepFigure(s datasets.Scenario, kinds []string, sum sweepSummary) string {
	var series []viz.SweepSeries
	for i, kind := range kinds {
		ms := sum.Models[kind]
		color := viz.SweepColors[i%len(viz.SweepColors)]
		for j, pm := range datasets.PaperModels {
			if pm == kind {
				color = viz.SweepColors[j]
			}
		}
		series = append(series, viz.SweepSeries{Name: kind, Color: color, Mean: floats(ms.Mean), SD: floats(ms.SD), Reference: ms.Paper})
	}
	title := fmt.Sprintf("Scenario %d: test accuracy against %s (%d graphs a point)", s.Number, s.Param, sum.Reps)
	return viz.Sweep(760, 380, title, s.Param, s.Values, s.Log, series...)
}

// printSweep prints a table: each value, each model's mean ± SD, and the
// paper's value beside it, marking PDN's points more than 8 below it.
func printSweep(w io.Writer, s datasets.Scenario, kinds []string, sum sweepSummary) {
	fmt.Fprintf(w, "scenario %d, %s, %d graphs a point, %.1f s\n", s.Number, s.Param, sum.Reps, sum.Seconds)
	fmt.Fprintf(w, "%-10s", s.Param)
	for _, k := range kinds {
		fmt.Fprintf(w, " %20s", k+" (paper)")
	}
	fmt.Fprintln(w)
	for v, x := range s.Values {
		fmt.Fprintf(w, "%-10s", strconv.FormatFloat(x, 'g', 4, 64))
		for _, k := range kinds {
			ms := sum.Models[k]
			cell := fmt.Sprintf("%.3f±%.3f", float64(ms.Mean[v]), float64(ms.SD[v]))
			if v < len(ms.Paper) {
				mark := " "
				if k == experiment.PDN && float64(ms.Mean[v]) < ms.Paper[v]-0.08 {
					mark = "!"
				}
				cell += fmt.Sprintf(" (%.3f)%s", ms.Paper[v], mark)
			}
			fmt.Fprintf(w, " %20s", cell)
		}
		fmt.Fprintln(w)
	}
	printMissing(w, s, kinds, sum)
}

// printMissing says at which values some models have fewer results than
// graphs: a run that diverged, or a graph it could not train on (at 16
// nodes per class a graph can be drawn without edges).
func printMissing(w io.Writer, s datasets.Scenario, kinds []string, sum sweepSummary) {
	for v, x := range s.Values {
		var short []string
		for _, k := range kinds {
			if n := sum.Models[k].Results[v]; n < sum.Reps {
				short = append(short, fmt.Sprintf("%s %d", k, n))
			}
		}
		if len(short) > 0 {
			fmt.Fprintf(w, "note: at %s = %s, results of %d graphs: %s (the others diverged, or had no edges to train on)\n",
				s.Param, strconv.FormatFloat(x, 'g', 4, 64), sum.Reps, strings.Join(short, ", "))
		}
	}
}

// floats turns figures back into plain numbers (NaN where null) for a plot.
func floats(ns []numtext.Num) []float64 {
	out := make([]float64, len(ns))
	for i, n := range ns {
		out[i] = float64(n)
	}
	return out
}
