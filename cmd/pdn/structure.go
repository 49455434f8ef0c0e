package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/internal/numtext"
	"pdnexplorer/lessons"
	"pdnexplorer/pdn"
	"pdnexplorer/viz"
)

// structureJob is a parsed `pdn structure`: the structure lab's three
// questions of a learned graph, on the command line.
type structureJob struct {
	e       experiment.Experiment
	data    string // a folder of the user's own graph, or ""
	resplit bool
	given   func(string) bool
	out     string
	force   bool
	workers int
	asJSON  bool
	notes   *graphNotes
}

// parseStructure reads pdn structure's flags: the state's rows, as a link
// of the structure lab gives them (its seeds are the page's: -seed and
// -init-seed apart), and the models row.
func parseStructure(args []string, stderr io.Writer) (runner, error) {
	j := structureJob{e: experiment.ForLab("structure")}
	fs := flag.NewFlagSet("structure", flag.ContinueOnError)
	outFlag(fs, &j.out, "out", "directory for homophily.csv, robustness.csv, transfer.csv and their figures (required)", true)
	forceFlag(fs, &j.force, "-out")
	models := fs.String("models", "pdn,gcn,gat", "the models trained side by side and along the robustness curves, separated by commas")
	numtext.IntVar(fs, &j.workers, "workers", defaultWorkers(), 1, maxWorkers, "runs trained at once")
	fs.BoolVar(&j.asJSON, "json", false, "print one JSON object as the last line of stdout")
	experiment.RegisterFlags(fs, &j.e, experiment.GroupData, experiment.GroupModel, experiment.GroupTrain)
	dataOrDir(fs, &j.data, "")
	if err := parse(fs, args, stderr); err != nil {
		return nil, err
	}
	// The structure lab's models row, checked as a link's (two to four,
	// each once).
	if err := modelsRow(&j.e, *models); err != nil {
		return nil, err
	}
	var err error
	if j.resplit, j.given, err = graphFlagsDone(fs, &j.e, j.data, commandReader("structure", "structure")); err != nil {
		return nil, err
	}
	return j.run, nil
}

// structureSummary is pdn structure's JSON line.
type structureSummary struct {
	InputHomophily float64             `json:"input_homophily"`
	Runs           []structureRunFinal `json:"runs"`
	Robustness     [][]string          `json:"robustness"`
	Transfer       [][]string          `json:"transfer"`
	// Induction is induction.csv's rows: a pathfinder trained at the
	// data seed applied to the graphs of the next seeds (none on a real
	// graph, which has one draw).
	Induction [][]string `json:"induction,omitempty"`
	Files     []string   `json:"files"`
	Seconds   float64    `json:"seconds"`
}

type structureRunFinal struct {
	Name             string  `json:"name"`
	TestAcc          float64 `json:"test_acc"`
	LearnedHomophily float64 `json:"learned_homophily"`
}

func (j structureJob) run(stdout, stderr io.Writer) (err error) {
	start := time.Now()
	w, err := openOut(outSpec{flag: "out", dir: j.out, force: j.force, parts: []string{"structure"}, inputs: inputDirs("data", j.data)}, stderr)
	if err != nil {
		return err
	}
	defer finishOut(w, &err)
	j.notes = newGraphNotes(stderr)
	base, err := j.base()
	if err != nil {
		return err
	}
	if j.data != "" {
		j.e = withRecipe(j.e, base.Recipe(), j.given)
	}
	g, err := datasets.Make(j.e.Data, datasets.Given(base))
	if err != nil {
		return usageError{err}
	}
	var sum structureSummary
	hom, lines, err := j.homophily(g, &sum)
	if err != nil {
		return err
	}
	robust := experiment.RobustnessRuns(j.e)
	fmt.Fprintf(stderr, "robustness: %d runs\n", len(robust))
	robustRes, err := trainQueued(base, robust, j.workers)
	if err != nil {
		return err
	}
	transfer := experiment.TransferRuns(j.e)
	fmt.Fprintf(stderr, "transfer: %d runs\n", len(transfer))
	transferRes, err := trainQueued(base, transfer, j.workers)
	if err != nil {
		return err
	}
	var induction []experiment.Run
	if j.data == "" { // a graph of one's own files has one draw, as a real one
		induction = experiment.InductionRuns(j.e)
	}
	if len(induction) == 0 {
		fmt.Fprintln(stderr, "induction: none: it applies the pathfinder of the data seed to graphs the generator draws at the next seeds, and this graph has one draw (a real graph, or one's own files) or its seed is 0, which pathfinder-seed cannot name")
	}
	fmt.Fprintf(stderr, "induction: %d runs\n", len(induction))
	inductionRes, err := trainInduction(induction, j.workers)
	if err != nil {
		return err
	}
	sum.Robustness, sum.Transfer = experiment.RobustnessCSV(robust, robustRes), experiment.TransferCSV(transfer, transferRes)
	sum.Induction = experiment.InductionCSV(induction, inductionRes)
	var charts []string
	for _, p := range experiment.Perturbations {
		charts = append(charts, viz.RobustnessChart(english, 480, 320, p, j.e.View.Models, robust, robustRes))
	}
	files := []struct {
		name string
		rows [][]string
		svg  string
	}{
		{"homophily", hom, viz.HomophilyChart(english, 640, 360, float64(j.e.Train.Epochs), sum.InputHomophily, lines...)},
		{"robustness", sum.Robustness, viz.Grid(480, 320, 2, charts...)},
		{"transfer", sum.Transfer, viz.TransferBars(english, 640, 360, transfer, transferRes)},
	}
	if len(induction) > 0 {
		files = append(files, struct {
			name string
			rows [][]string
			svg  string
		}{"induction", sum.Induction, viz.InductionBars(english, 640, 360, induction, inductionRes)})
	}
	for _, f := range files {
		if err := writeRows(w, "structure", f.name+".csv", f.rows); err != nil {
			return err
		}
		if err := w.WriteFile("structure", f.name+".svg", viz.File(f.svg), 0o644); err != nil {
			return err
		}
		sum.Files = append(sum.Files, w.Path(f.name+".csv"), w.Path(f.name+".svg"))
	}
	sum.Seconds = math.Round(time.Since(start).Seconds()*10) / 10
	printStructure(stdout, sum)
	if j.asJSON {
		return printJSON(stdout, sum)
	}
	return nil
}

// base is the graph before the state's perturbation and edits: drawn,
// shipped or read from the folder.
func (j structureJob) base() (*datasets.Graph, error) {
	if j.data != "" {
		return readGraph(j.data, j.e.Data, j.resplit, j.notes)
	}
	g, err := datasets.Drawn(j.e.Data)
	if err != nil {
		return nil, usageError{err}
	}
	return g, nil
}

// homophily trains the live runs (the lab's, the models row's) on g,
// reading each epoch's test accuracy and homophily: homophily.csv's rows
// and the chart's lines.
func (j structureJob) homophily(g *datasets.Graph, sum *structureSummary) ([][]string, []viz.HomophilyLine, error) {
	rows := [][]string{{"epoch", "run", "test_acc", "input_homophily", "learned_homophily"}}
	var lines []viz.HomophilyLine
	for i, r := range labRuns("structure", j.e) {
		t, err := pdn.NewTrainer(g, r.Exp)
		if err != nil {
			return nil, nil, err
		}
		line := viz.HomophilyLine{Name: r.Title, Color: viz.ModelColor(r.Exp.Model.Kind, i)}
		var s pdn.Snapshot
		err = lessons.Train(t, math.MaxInt, func(t *pdn.Trainer, _ time.Duration) error {
			t.EvaluateInto(&s)
			rows = append(rows, []string{strconv.Itoa(t.Epoch()), r.Name, numCell(s.TestAcc), numCell(s.InputHomophily), numCell(s.LearnedHomophily)})
			line.Epoch, line.Learned = append(line.Epoch, float64(t.Epoch())), append(line.Learned, s.LearnedHomophily)
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
		sum.InputHomophily = experiment.Round4(s.InputHomophily)
		sum.Runs = append(sum.Runs, structureRunFinal{Name: r.Name, TestAcc: experiment.Round4(s.TestAcc), LearnedHomophily: experiment.Round4(s.LearnedHomophily)})
		lines = append(lines, line)
	}
	return rows, lines, nil
}

// numCell writes a figure to four decimals, empty for NaN (a model
// without edge weights has no learned homophily).
func numCell(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(experiment.Round4(v), 'f', 4, 64)
}

// trainQueued trains runs, each on base altered as its data rows say,
// through the one scheduler (experiment.Queue): the runs of one graph
// together, each key once. A result is the test accuracy at the last epoch
// and the learned homophily then, NaN for a run whose graph the model
// cannot train on.
func trainQueued(base *datasets.Graph, runs []experiment.Run, workers int) ([]experiment.Result, error) {
	keys, groups := make([]string, len(runs)), make([]int, len(runs))
	graphOf := map[experiment.Data]int{}
	for i, r := range runs {
		keys[i] = experiment.RunKey(r.Exp)
		d := r.Exp.Data
		if _, ok := graphOf[d]; !ok {
			graphOf[d] = len(graphOf)
		}
		groups[i] = graphOf[d]
	}
	q := experiment.NewQueue(keys, groups, nil, nil)
	err := drain(q, workers, func(batch []int) ([]experiment.Result, error) {
		g, err := datasets.Make(runs[batch[0]].Exp.Data, datasets.Given(base))
		if err != nil {
			return nil, usageError{err}
		}
		out := make([]experiment.Result, len(batch))
		for k, i := range batch {
			acc, hom, err := finalResult(g, runs[i].Exp)
			if err != nil {
				return nil, err
			}
			out[k] = experiment.Result{Acc: experiment.Round4(acc), Homophily: experiment.Round4(hom)}
		}
		return out, nil
	}, func(int) {})
	return q.Results(), err
}

// trainInduction trains the induction table's runs (experiment.InductionRuns),
// each on the graph the generator draws at its seed, through the one
// scheduler, the runs of one graph together: their test accuracy, and the
// mean weights they propagated with within and between classes.
func trainInduction(runs []experiment.Run, workers int) ([]experiment.Result, error) {
	keys, groups := make([]string, len(runs)), make([]int, len(runs))
	graphOf := map[experiment.Data]int{}
	for i, r := range runs {
		keys[i] = experiment.RunKey(r.Exp)
		if _, ok := graphOf[r.Exp.Data]; !ok {
			graphOf[r.Exp.Data] = len(graphOf)
		}
		groups[i] = graphOf[r.Exp.Data]
	}
	q := experiment.NewQueue(keys, groups, nil, nil)
	err := drain(q, workers, func(batch []int) ([]experiment.Result, error) {
		g, err := datasets.Build(runs[batch[0]].Exp.Data)
		if err != nil {
			return nil, usageError{err}
		}
		out := make([]experiment.Result, len(batch))
		for k, i := range batch {
			s, ok, err := finalSnapshot(g, runs[i].Exp)
			switch {
			case err != nil:
				return nil, err
			case !ok:
				out[k] = experiment.Result{Acc: math.NaN(), Homophily: math.NaN(), WIntra: math.NaN(), WInter: math.NaN()}
			default:
				out[k] = experiment.Result{Acc: experiment.Round4(s.TestAcc), Homophily: experiment.Round4(s.LearnedHomophily),
					WIntra: experiment.Round4(s.WIntra), WInter: experiment.Round4(s.WInter)}
			}
		}
		return out, nil
	}, func(int) {})
	return q.Results(), err
}

// finalResult trains e on g to its end, as the page's pool does: its test
// accuracy and learned homophily at the last epoch, both NaN when it
// diverged or g is a graph the model cannot train on (one drawn without
// edges, say). pdn sweep and pdn structure read their runs through it.
func finalResult(g *datasets.Graph, e experiment.Experiment) (acc, homophily float64, err error) {
	s, ok, err := finalSnapshot(g, e)
	if !ok {
		return math.NaN(), math.NaN(), err
	}
	return s.TestAcc, s.LearnedHomophily, nil
}

// finalSnapshot is finalResult's evaluation at the last epoch; ok is false
// where the run diverged or g is a graph the model cannot train on.
func finalSnapshot(g *datasets.Graph, e experiment.Experiment) (s pdn.Snapshot, ok bool, err error) {
	t, err := pdn.NewTrainer(g, e)
	var ge *pdn.GraphError
	if errors.As(err, &ge) {
		return s, false, nil
	}
	if err != nil {
		return s, false, err
	}
	if err := lessons.Train(t, math.MaxInt, nil); err != nil {
		return s, false, nil
	}
	return t.Evaluate(), true, nil
}

// printStructure prints what the files hold, as tables.
func printStructure(w io.Writer, s structureSummary) {
	fmt.Fprintf(w, "input graph's edge homophily %.4f\n", s.InputHomophily)
	for _, r := range s.Runs {
		fmt.Fprintf(w, "%-16s test acc. %.4f  learned homophily %s\n", r.Name, r.TestAcc, numCell(r.LearnedHomophily))
	}
	for _, table := range [][][]string{s.Robustness, s.Transfer, s.Induction} {
		if len(table) == 0 {
			continue
		}
		fmt.Fprintln(w)
		for _, row := range table {
			for _, cell := range row {
				fmt.Fprintf(w, "%-*s", max(15, len(cell)+1), cell)
			}
			fmt.Fprintln(w)
		}
	}
	fmt.Fprintf(w, "\nwrote %d files in %.1f s\n", len(s.Files), s.Seconds)
}
