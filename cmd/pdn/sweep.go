package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/internal/numtext"
	"pdnexplorer/internal/outdir"
	"pdnexplorer/pdn"
	"pdnexplorer/viz"
)

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
	k := fs.String("scenario", "", "the paper's synthetic scenario, 1..8 (Table 2); several, comma-separated; or all")
	reps := numtext.Int(fs, "reps", 10, 1, 1000, "graphs per value; rep r uses data and weight seed r")
	models := fs.String("models", strings.Join(experiment.PaperModels, ","), "models to train, comma-separated")
	out := new(string)
	outFlag(fs, out, "out", "directory for scenarioK.csv and scenarioK.svg (required)", true)
	workers := numtext.Int(fs, "workers", defaultWorkers(), 1, maxWorkers, "graphs trained at once")
	asJSON := fs.Bool("json", false, "print one JSON object as the last line of stdout")
	var force bool
	forceFlag(fs, &force, "-out")
	var sh shard
	shardFlag(fs, &sh)
	experiment.RegisterFlags(fs, &e, experiment.GroupTrain)
	experiment.RegisterNamed(fs, &e, "edge-hidden", "edge-init", "hidden", "dropout", "edge-dropout")
	if err := parse(fs, args, stderr); err != nil {
		return nil, err
	}
	scenarios, err := parseScenarios(*k)
	if err != nil {
		return nil, usageError{fmt.Errorf("flag -scenario: %w", err)}
	}
	kinds, err := parseModels(*models)
	if err != nil {
		return nil, usageError{err}
	}
	// The sweep lab's reader: rep r's seeds are r, and a model row none of
	// the models reads is refused. Reading does not depend on the
	// scenario's values or the reps: one of each is asked.
	lab := e
	lab.View.Lab, lab.View.Models, lab.View.Scenario, lab.View.Reps = "sweep", kinds, scenarios[0].Number, 1
	if err := unreadFlags(fs, lab, commandReader("sweep", "sweep")); err != nil {
		return nil, err
	}
	var sws []experiment.Sweep
	for _, s := range scenarios {
		sws = append(sws, experiment.Sweep{Scenario: s, Models: kinds, Reps: *reps, Base: e})
	}
	return func(stdout, stderr io.Writer) error {
		return runSweepCmd(sws, *workers, sh, outSpec{flag: "out", dir: *out, force: force}, *asJSON, stdout, stderr)
	}, nil
}

// parseScenarios reads -scenario: one of 1..8, several comma-separated
// (each once), or all.
func parseScenarios(v string) ([]experiment.Scenario, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return nil, errors.New("missing; want one of 1..8, several comma-separated (as 1,3,5), or all")
	}
	if v == "all" {
		v = "1,2,3,4,5,6,7,8"
	}
	var out []experiment.Scenario
	for _, f := range strings.Split(v, ",") {
		k, err := numtext.ParseInt(strings.TrimSpace(f))
		if err != nil {
			return nil, fmt.Errorf("%s is not allowed; want one of 1..8, several comma-separated (as 1,3,5), or all", experiment.Quote(f))
		}
		s, err := experiment.PaperScenario(k)
		if err != nil {
			return nil, err
		}
		if slices.ContainsFunc(out, func(o experiment.Scenario) bool { return o.Number == k }) {
			return nil, fmt.Errorf("scenario %d is given twice", k)
		}
		out = append(out, s)
	}
	return out, nil
}

// sweepJob is what defines a sweep: the shards of one sweep have the same.
type sweepJob struct {
	Scenario int      `json:"scenario"`
	Models   []string `json:"models"`
	Reps     int      `json:"reps"`
	State    string   `json:"state"` // the training and model rows, as a link has them
}

// sweepPart is the part of the writer a sweep's scenario writes: its CSV
// and figure, or its shard file.
func sweepPart(sw experiment.Sweep, sh shard) string {
	if sh.whole() {
		return fmt.Sprintf("scenario%d", sw.Scenario.Number)
	}
	return shardPart(fmt.Sprintf("scenario%d", sw.Scenario.Number), sweepJobOf(sw), sh)
}

// sweepJobOf is what defines sw, as its shards record it.
func sweepJobOf(sw experiment.Sweep) sweepJob {
	return sweepJob{Scenario: sw.Scenario.Number, Models: sw.Models, Reps: sw.Reps, State: sw.Base.EncodeRun()}
}

func runSweepCmd(sws []experiment.Sweep, workers int, sh shard, spec outSpec, asJSON bool, stdout, stderr io.Writer) (err error) {
	start := time.Now()
	for _, sw := range sws {
		spec.parts = append(spec.parts, sweepPart(sw, sh))
	}
	w, err := openOut(spec, stderr)
	if err != nil {
		return err
	}
	defer finishOut(w, &err)
	res, seconds, _, err := runSweep(sws, workers, sh, stderr)
	wall := time.Since(start).Seconds()
	if err != nil {
		return err
	}
	var sums []sweepSummary
	for i, sw := range sws {
		if !sh.whole() {
			acc := map[int]float64{}
			for at, r := range res[i] {
				if r.Done {
					acc[at] = r.Acc
				}
			}
			if err := writeShard(w, fmt.Sprintf("scenario%d", sw.Scenario.Number), "sweep", sweepJobOf(sw), sh, seconds[i], acc, nil, stdout); err != nil {
				return err
			}
			continue
		}
		sum, err := writeSweep(w, sw, res[i], seconds[i], stdout)
		if err != nil {
			return err
		}
		sums = append(sums, sum)
	}
	if !asJSON || !sh.whole() {
		return nil
	}
	if len(sums) == 1 {
		return printJSON(stdout, sums[0])
	}
	return printJSON(stdout, sweepsSummary{Scenarios: sums, Seconds: math.Round(wall*10) / 10})
}

// sweepsSummary is the -json output of a sweep of several scenarios.
type sweepsSummary struct {
	Scenarios []sweepSummary `json:"scenarios"`
	Seconds   float64        `json:"seconds"` // the wall time of them all
}

// mergeSweep writes the files of a sweep whose shards j holds.
func mergeSweep(w *outdir.Run, j *shardJob, asJSON bool, stdout io.Writer) error {
	res := make([]experiment.Result, j.size)
	for at, acc := range j.acc {
		res[at] = experiment.Result{Acc: acc, Done: true}
	}
	sum, err := writeSweep(w, j.sweep, res, j.seconds, stdout)
	if err != nil || !asJSON {
		return err
	}
	return printJSON(stdout, sum)
}

// writeSweep writes a sweep's CSV and figure, prints its table and returns
// its summary.
func writeSweep(w *outdir.Run, sw experiment.Sweep, res []experiment.Result, seconds float64, stdout io.Writer) (sweepSummary, error) {
	s, kinds := sw.Scenario, sw.Models
	sum := summarise(sw, res)
	sum.Seconds = math.Round(seconds*10) / 10
	part := sweepPart(sw, shard{})
	csvName, svgName := part+".csv", part+".svg"
	sum.CSV, sum.SVG = w.Path(csvName), w.Path(svgName)
	if err := writeRows(w, part, csvName, sw.CSV(res)); err != nil {
		return sum, err
	}
	if err := w.WriteFile(part, svgName, viz.File(viz.SweepFigure(nil, 760, 380, sw, res)), 0o644); err != nil {
		return sum, err
	}
	printSweep(stdout, s, kinds, sum)
	return sum, nil
}

// parseModels reads -models: models of the table, comma-separated, each
// once (a model named twice would train twice under one name).
func parseModels(s string) ([]string, error) {
	var kinds []string
	for _, m := range strings.Split(s, ",") {
		m = strings.TrimSpace(m)
		if !slices.Contains(experiment.Kinds, m) {
			return nil, fmt.Errorf("flag -models: %s is not allowed; want a comma-separated list of %s", experiment.Quote(m), strings.Join(experiment.Kinds, ", "))
		}
		if slices.Contains(kinds, m) {
			return nil, fmt.Errorf("flag -models: %s is named twice; name each model once", m)
		}
		kinds = append(kinds, m)
	}
	return kinds, nil
}

// modelsRow sets e's models row (a lab's: the compare and structure labs',
// two to four, each once) from -models, refusing what the row refuses.
func modelsRow(e *experiment.Experiment, s string) error {
	p, _ := experiment.Lookup("models")
	if err := p.Set(e, s); err != nil {
		return usageError{fmt.Errorf("flag -%w", err)}
	}
	return nil
}

// runSweep trains the sweeps' runs (the shard's runs only, if sh is a
// part) on workers goroutines through the one scheduler of runs
// (experiment.Queue, as the sweep lab's): each graph's models together,
// the graphs longest first, and a run whose key (experiment.RunKey) recurs
// trained once, in any sweep (the default graph is a point of scenarios
// 1, 5, 6 and 8; in scenarios 6 and 8 a model that does not read the edge
// features trains once a rep). It returns each sweep's results in its
// order, its seconds (the wall time, for one sweep; for several, its
// graphs' share of it, their training time over the workers, which sums to
// about the whole) and how many runs it trained. Each result depends only
// on its own seeds, so the order the workers finish in changes nothing.
func runSweep(sws []experiment.Sweep, workers int, sh shard, stderr io.Writer) ([][]experiment.Result, []float64, int, error) {
	start := time.Now()
	res := make([][]experiment.Result, len(sws))
	seconds := make([]float64, len(sws))
	type place struct{ sweep, at int }
	var (
		runs   []place
		keys   []string
		groups []int
		cost   []float64
	)
	graphOf := map[[3]int]int{}
	for i, sw := range sws {
		res[i] = make([]experiment.Result, sw.Size())
		for at := range sw.Size() {
			if !sh.holds(at) {
				continue
			}
			v, r, m := sw.Place(at)
			e, err := sw.Exp(v, r, sw.Models[m])
			if err != nil {
				return nil, nil, 0, err
			}
			g, ok := graphOf[[3]int{i, v, r}]
			if !ok {
				g = len(graphOf)
				graphOf[[3]int{i, v, r}] = g
			}
			epoch, setup := pdn.Estimate(pdn.ExpectedShape(e.Data), e.Model).Seconds(pdn.NativeLimits)
			runs, keys, groups = append(runs, place{i, at}), append(keys, experiment.RunKey(e)), append(groups, g)
			cost = append(cost, float64(e.Train.Epochs)*epoch+setup)
		}
	}
	q := experiment.NewQueue(keys, groups, nil, cost)
	total := len(runs)
	tty := newProgress(stderr, total, false).tty
	name := sweepNames(sws)
	var mu sync.Mutex
	trained := 0
	err := drain(q, workers, func(batch []int) ([]experiment.Result, error) {
		began := time.Now()
		first := runs[batch[0]]
		sw := sws[first.sweep]
		v, r, _ := sw.Place(first.at)
		want := map[int]bool{}
		for _, k := range batch {
			_, _, m := sw.Place(runs[k].at)
			want[m] = true
		}
		acc, err := sweepGraph(sw, v, r, func(m int) bool { return want[m] })
		out := make([]experiment.Result, len(batch))
		for j, k := range batch {
			_, _, m := sw.Place(runs[k].at)
			if acc != nil {
				out[j] = experiment.Result{Acc: acc[m]}
			}
		}
		mu.Lock()
		seconds[first.sweep] += time.Since(began).Seconds() / float64(workers)
		trained += len(batch)
		mu.Unlock()
		return out, err
	}, func(done int) {
		switch {
		case tty:
			fmt.Fprintf(stderr, "\r%s: %d/%d runs", name, done, total)
		case done*10/total != (done-1)*10/total: // a line every 10%
			fmt.Fprintf(stderr, "%s: %d/%d runs\n", name, done, total)
		}
	})
	if tty {
		fmt.Fprintln(stderr)
	}
	for k, p := range runs {
		if r := q.Results()[k]; r.Done {
			res[p.sweep][p.at] = r
		}
	}
	if len(sws) == 1 {
		seconds[0] = time.Since(start).Seconds()
	}
	return res, seconds, trained, err
}

// sweepNames names the sweeps' scenarios for the progress line.
func sweepNames(sws []experiment.Sweep) string {
	var ks []string
	for _, sw := range sws {
		ks = append(ks, strconv.Itoa(sw.Scenario.Number))
	}
	if len(ks) == 1 {
		return "scenario " + ks[0]
	}
	return "scenarios " + strings.Join(ks, ",")
}

// drain trains the queue's runs on workers goroutines, each taking the
// next batch (a graph's runs) from q, training it with train and ending its
// runs with train's results, until none is left; done hears the number of
// runs with a result after each batch. It returns the first error, after
// which no batch is taken. The workers share the cores: each trains on its
// share of them.
func drain(q *experiment.Queue, workers int, train func(batch []int) ([]experiment.Result, error), done func(finished int)) error {
	defer pdn.SetThreads(pdn.SetThreads(max(runtime.GOMAXPROCS(0)/workers, 1)))
	var (
		mu       sync.Mutex
		firstErr error
		wg       sync.WaitGroup
	)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				batch, ok := q.Take()
				if firstErr != nil {
					ok = false
				}
				mu.Unlock()
				if !ok {
					return
				}
				res, err := train(batch)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				if err == nil {
					for k, i := range batch {
						q.Finish(i, res[k])
					}
				} else {
					for _, i := range batch {
						q.Drop(i)
					}
				}
				done(q.Done())
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return firstErr
}

// sweepGraph trains each model m of the sweep that wants on the graph of
// value v and rep r, drawn once for them all (and only if a model needs
// it); a model not wanted is NaN.
func sweepGraph(sw experiment.Sweep, v, r int, wants func(m int) bool) ([]float64, error) {
	first, err := sw.Exp(v, r, sw.Models[0])
	if err != nil {
		return nil, err
	}
	var g *datasets.Graph
	out := make([]float64, len(sw.Models))
	for m, kind := range sw.Models {
		out[m] = math.NaN() // a diverged run counts as no result
		if !wants(m) {
			continue
		}
		if g == nil {
			if g, err = datasets.Synthetic(first.Data); err != nil {
				return nil, err
			}
		}
		e, _ := sw.Exp(v, r, kind)
		if out[m], _, err = finalResult(g, e); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// summarise is the -json summary: each model's points, and Figure 3's.
func summarise(sw experiment.Sweep, res []experiment.Result) sweepSummary {
	s := sw.Scenario
	sum := sweepSummary{Scenario: s.Number, Parameter: s.Param, Values: s.Values, Reps: sw.Reps, Models: map[string]modelSummary{}}
	for m, pts := range sw.Summary(res) {
		var ms modelSummary
		for _, p := range pts {
			ms.Mean, ms.SD = append(ms.Mean, round4(p.Mean)), append(ms.SD, round4(p.SD))
			ms.Results = append(ms.Results, p.N)
		}
		kind := sw.Models[m]
		if paper, ok := s.Paper[kind]; ok {
			for _, p := range paper {
				ms.Paper = append(ms.Paper, p/100)
			}
		}
		sum.Models[kind] = ms
	}
	return sum
}

// printSweep prints a table: each value, each model's mean ± SD, and the
// paper's value beside it, marking a point more than 8 below it (!).
func printSweep(w io.Writer, s experiment.Scenario, kinds []string, sum sweepSummary) {
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
				if float64(ms.Mean[v]) < ms.Paper[v]-0.08 {
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
func printMissing(w io.Writer, s experiment.Scenario, kinds []string, sum sweepSummary) {
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
