package main

import (
	"flag"
	"fmt"
	"io"
	"maps"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/numtext"
	"pdnexplorer/lessons"
	"pdnexplorer/pdn"
	"pdnexplorer/xorstate"
)

type xorResult struct {
	Accuracy []numtext.Num  `json:"accuracy"` // per data seed
	Mean     numtext.Num    `json:"mean_accuracy"`
	Alpha    [4]numtext.Num `json:"alpha"` // mean learned weight per edge state 00, 01, 10, 11; null for a state without edges
}

type xorSummary struct {
	Models        map[string]*xorResult `json:"models"`
	TwoNeuron     [4][3]numtext.Num     `json:"two_neuron_h1_h2_alpha"`
	Trials        int                   `json:"trials"`
	Restarts      int                   `json:"restarts"`
	RestartEpochs int                   `json:"restart_epochs"`
	// Found counts, for each remedy, the weight seeds whose 2-neuron
	// pathfinder learned XOR.
	Found map[string]int `json:"two_neuron_found"`
}

// xorRemedy is a way to train the 2-neuron pathfinder.
type xorRemedy struct {
	name     string
	init     string
	restarts bool
}

var xorRemedies = []xorRemedy{
	{"none (torch init)", experiment.InitUniform, false},
	{"alive init", experiment.InitAlive, false},
	{"restarts", experiment.InitUniform, true},
	{"alive init + restarts", experiment.InitAlive, true},
}

func parseXOR(args []string, stderr io.Writer) (runner, error) {
	e := experiment.Default()
	e.Data.Graph = experiment.GraphXOR
	fs := flag.NewFlagSet("xor", flag.ContinueOnError)
	seeds := numtext.Int(fs, "seeds", 3, 1, 100, "data seeds 1..N for the accuracy table; data seed s trains each model with weight seed s")
	trials := numtext.Int(fs, "trials", 10, 1, 100, "weight seeds 1..N for the 2-neuron success rate")
	// The remedy's restarts are the state table's rows: their range and
	// default, and restart-epochs below -epochs (experiment.Conflicts).
	restarts := numtext.Int(fs, "restarts", 10, 1, rowMax("restarts"), "restarts per trial for the remedy, the one with the lowest training loss kept")
	restartLen := numtext.Int(fs, "restart-epochs", e.Model.RestartEpochs, 1, rowMax("restart-epochs"), "epochs each restart trains before one is kept, fewer than -epochs")
	asJSON := fs.Bool("json", false, "print one JSON object as the last line of stdout")
	registerLabRows(fs, &e, "xor", "restarts", "restart-epochs")
	if err := parse(fs, args, stderr); err != nil {
		return nil, err
	}
	if err := unreadFlags(fs, e, xorReader()); err != nil {
		return nil, err // the XOR lab's rows: its graph, no perturbation, its seeds
	}
	remedy := e
	remedy.Model.Restarts, remedy.Model.RestartEpochs = *restarts, *restartLen
	if err := conflictFlags(fs, remedy); err != nil {
		return nil, err
	}
	return func(stdout, stderr io.Writer) error {
		return runXOR(e, *seeds, *trials, *restarts, *restartLen, *asJSON, stdout, stderr)
	}, nil
}

// xorReader is pdn xor's reader: the XOR lab's rows, as a command reads
// them, but the seeds, which its runs set themselves (-seeds draws the
// data seeds, each trained with its own number as weight seed, and
// -trials the 2-neuron pathfinder's weight seeds): -seed 5 would change
// nothing.
func xorReader() experiment.Reader {
	r := commandReader("xor", "xor")
	r.Sets = maps.Clone(r.Sets)
	r.Sets["seed"] = phrase.New("its -seeds draws the data seeds 1..N")
	r.Sets["init-seed"] = phrase.New("data seed s trains with weight seed s, and its -trials draws the 2-neuron pathfinder's weight seeds 1..N")
	return r
}

// rowMax is the state table's upper bound of row name, as a whole number.
func rowMax(name string) int {
	p, _ := experiment.Lookup(name)
	return int(p.Max)
}

func runXOR(e experiment.Experiment, seeds, trials, restarts, restartLen int, asJSON bool, stdout, stderr io.Writer) error {
	sum := xorSummary{Models: map[string]*xorResult{}, Trials: trials, Restarts: restarts, RestartEpochs: restartLen, Found: map[string]int{}}
	runs := labRuns("xor", e) // the XOR lab's models
	for _, r := range runs {
		sum.Models[r.Name] = &xorResult{}
	}
	for seed := 1; seed <= seeds; seed++ {
		d := e.Data
		d.Seed = uint64(seed)
		g, err := datasets.Build(d)
		if err != nil {
			return usageError{err}
		}
		for _, run := range runs {
			t, err := trainXOR(g, run, uint64(seed))
			if err != nil {
				return err
			}
			s := t.Evaluate()
			r := sum.Models[run.Name]
			r.Accuracy = append(r.Accuracy, round4(s.TestAcc))
			alpha := lessons.StateMeans(g, s.Weights)
			for i := range r.Alpha {
				r.Alpha[i] += numtext.Num(alpha[i] / float64(seeds))
			}
			if run.Name == "pdn-2" && seed == 1 {
				for i, z := range xorstate.States {
					h, w, _ := t.Pathfinder([]float64{z.A, z.B})
					sum.TwoNeuron[i] = [3]numtext.Num{round4(h[0]), round4(h[1]), round4(w)}
				}
			}
		}
		fmt.Fprintf(stderr, "seed %d done\n", seed)
	}
	for _, r := range sum.Models {
		var s float64
		for _, a := range r.Accuracy {
			s += float64(a)
		}
		r.Mean = round4(s / float64(len(r.Accuracy)))
		for i := range r.Alpha {
			r.Alpha[i] = round4(float64(r.Alpha[i]))
		}
	}
	d := e.Data
	d.Seed = 1
	g, err := datasets.Build(d)
	if err != nil {
		return usageError{err}
	}
	for _, r := range xorRemedies {
		er := e
		er.Model.EdgeInit = r.init
		two := labRun("xor", "pdn-2", er) // the remedies are its own
		for trial := 1; trial <= trials; trial++ {
			var t *pdn.Trainer
			if r.restarts {
				t, err = bestRestart(g, two, trial, restarts, restartLen)
			} else {
				t, err = trainXOR(g, two, uint64(trial))
			}
			if err != nil {
				return err
			}
			if lessons.FoundXOR(lessons.StateMeans(g, t.Evaluate().Weights)) {
				sum.Found[r.name]++
			}
		}
		fmt.Fprintf(stderr, "remedy %q done\n", r.name)
	}
	printXOR(stdout, runs, sum)
	if asJSON {
		if err := printJSON(stdout, sum); err != nil {
			return err
		}
	}
	return nil
}

// trainXOR trains the run on g with weight seed seed.
func trainXOR(g *datasets.Graph, r experiment.Run, seed uint64) (*pdn.Trainer, error) {
	e := r.Exp
	e.Train.Seed = seed
	return lessons.TrainAll(g, e)
}

// bestRestart trains the best of restarts initialisations of the run, each
// restartEpochs long, to the end (pdn.Restarts).
func bestRestart(g *datasets.Graph, r experiment.Run, trial, restarts, restartEpochs int) (*pdn.Trainer, error) {
	e := r.Exp
	e.Train.Seed = uint64(trial)
	e.Model.Restarts, e.Model.RestartEpochs = restarts, restartEpochs
	return lessons.TrainAll(g, e)
}

func printXOR(w io.Writer, runs []experiment.Run, s xorSummary) {
	fmt.Fprintln(w, "XOR proposition (§4.1.1): intra-class edges in exactly one of two layers")
	fmt.Fprintf(w, "%-11s %-24s %8s   mean α on edge states (0,0) (0,1) (1,0) (1,1)\n", "model", "test accuracy per seed", "mean")
	for _, run := range runs {
		r := s.Models[run.Name]
		fmt.Fprintf(w, "%-11s %-24s %8.4f   %.3f %.3f %.3f %.3f\n", run.Name, fmt.Sprint(r.Accuracy), r.Mean, r.Alpha[0], r.Alpha[1], r.Alpha[2], r.Alpha[3])
	}
	fmt.Fprintln(w, "\n2-neuron pathfinder, data and weight seed 1 (α = σ of the output):")
	fmt.Fprintln(w, "A'  A''   h1      h2      α        hand-set: h1  h2  α = h1 − 2·h2")
	for i, z := range xorstate.States {
		h1, h2, a := xorstate.HandSet(z.A, z.B)
		t := s.TwoNeuron[i]
		fmt.Fprintf(w, "%.0f   %.0f    %-7.3f %-7.3f %-8.3f           %.0f   %.0f   %.0f\n", z.A, z.B, t[0], t[1], t[2], h1, h2, a)
	}
	fmt.Fprintf(w, "\nweight seeds of %d whose 2-neuron pathfinder found XOR (each one-layer state's α ≥ 3× the others'):\n", s.Trials)
	for _, r := range xorRemedies {
		fmt.Fprintf(w, "  %-24s %d\n", r.name, s.Found[r.name])
	}
	fmt.Fprintf(w, "(restarts: %d initialisations trained %d epochs, the one of lowest training loss without dropout kept)\n", s.Restarts, s.RestartEpochs)
}
