package experiment

import (
	"slices"
	"strings"

	"pdnexplorer/i18n/phrase"
)

// Lab is one room of the explorer: a lesson of the paper. Its row holds
// all of the lab that is not how it looks: its name in a link
// (#lab=NAME), its title, the rows it starts from where they differ from
// the state table's defaults, the rows it offers as controls, and the runs
// a state makes (one model each). The page draws each lab with a component
// of its own; the navigation, the tours and the presets open it by name;
// the CLI trains the same runs.
type Lab struct {
	Name, Title string
	// Defaults are the rows the lab starts from where they differ from the
	// table's, as a link's query: a link that names the lab and not these
	// rows gets them, so #lab=xor opens the XOR graph.
	Defaults string
	// Rows are the rows the lab offers as controls, nil for every row the
	// engine reads; Hide leaves some of those out (the compare lab's model,
	// which its models row replaces).
	Rows, Hide []string
	// Runs are the runs a state makes, in the order the lab shows them.
	// Two runs of a lab never share a name.
	Runs func(Experiment) []Run
	// Queue says the runs are not trained side by side on one graph but
	// one after another, each to its end on a graph of its own, a few at
	// a time: the sweep's.
	Queue bool
	// Trains are the runs the lab trains each to its end on a pool of
	// workers, in the order its results row holds their results (the
	// sweep's runs, the structure lab's robustness and transfer runs);
	// nil for a lab that trains none, whose link carries no results.
	Trains func(Experiment) []Run
	// Intro is what the lab's first screen says, before any control, after
	// the graph it trains on (IntroOf, written from the graph): what the
	// lab does with it and what to press (a catalogue key). It names no
	// graph: the graph on screen may be any, generated or one's own.
	Intro string
	// Story are the rows its lesson needs, at most MaxStory of them
	// applying to any one graph, which the page shows first; "All
	// controls" shows the rest. nil shows all.
	Story []string
	// Views are the view rows it reads beyond those every lab reads
	// (CommonViews): a link that sets another is refused (Reader).
	Views []string
	// Sets are the engine's rows its runs set themselves rather than take
	// from the state, each with why: a link that sets one is refused.
	Sets map[string]phrase.Text
}

// CommonViews are the view rows every lab reads: which lab, the controls
// a teacher hides, projector and embedded modes, the engine's threads, the
// language, the tour.
var CommonViews = []string{"lab", "hide", "present", "embed", "threads", "lang", "tour", "step"}

// MaxStory is the most controls a lab shows before "All controls".
const MaxStory = 8

// Run is one model a lab trains: its name (the page's data-run, the CLI's
// key), its heading, and the experiment it trains.
type Run struct {
	Name, Title string
	Exp         Experiment
}

// Labs are the explorer's labs in the order the navigation shows them;
// the first is the default.
var Labs = leaveOut(withheld, []Lab{
	{Name: "graph", Title: "The learned graph", Runs: oneRun,
		Intro: "Orange lines join nodes of different classes. Press Play (Space): the pathfinder learns a weight for every edge, drawn as its darkness, while a GCN classifies the nodes over that learned graph.",
		Story: []string{"data", "per-class", "q", "sigma-d", "shots", "model", "edge-hidden", "epochs", "seed"},
		Views: []string{"layout", "threshold", "speed"}},
	{Name: "xor", Title: "XOR needs a hidden layer", Defaults: "data=xor&edge-init=alive&restarts=4&restart-epochs=40",
		// The graph's rows but those the XOR layers replace, the training's,
		// and the model rows its four models share.
		Rows: []string{"classes", "per-class", "p", "q", "node-features", "sigma-f", "seed",
			"hidden", "dropout", "edge-dropout", "edge-init", "self-loop", "restarts", "restart-epochs",
			"epochs", "lr", "weight-decay", "init-seed"},
		Runs:  xorRuns,
		Intro: "Four models train on it side by side: press Train all, then read each pathfinder's weight over the two layers, and Table 3.",
		Story: []string{"per-class", "q", "sigma-f", "edge-init", "restarts", "epochs", "seed", "init-seed"},
		Views: []string{"speed"},
		Sets: map[string]phrase.Text{
			"data":        phrase.New("its lesson is the XOR graph's"),
			"model":       phrase.New("its four runs are PDN with 16 and with 2 neurons, the linear PDN and GCN"),
			"edge-hidden": phrase.New("its four runs are PDN with 16 and with 2 neurons, the linear PDN and GCN"),
		}},
	{Name: "degree", Title: "GAT's weights shrink with degree", Defaults: "data=scale-free",
		Rows: []string{"data", "classes", "per-class", "attach", "p", "q", "node-features", "edge-features", "sigma-f", "sigma-d", "seed",
			"edge-hidden", "self-loop", "hidden", "dropout", "edge-dropout", "epochs", "lr", "weight-decay", "init-seed"},
		Runs:  degreeRuns,
		Intro: "PDN and GAT train on it side by side: press Train all and compare how each model's mean edge weight falls, or not, with the receiving node's degree.",
		Story: []string{"per-class", "attach", "q", "sigma-d", "hidden", "epochs", "seed"},
		Views: []string{"speed"},
		Sets:  map[string]phrase.Text{"model": phrase.New("its runs are PDN and GAT")}},
	{Name: "compare", Title: "Models side by side", Hide: []string{"model"}, Runs: compareRuns,
		Intro: "The models ticked on the left train on the same graph from the same seeds, each in a worker of its own. Press Train all and compare their learned graphs, accuracies and the share of weight on inter-class edges.",
		Story: []string{"data", "per-class", "q", "sigma-d", "shots", "epochs", "seed"},
		Views: []string{"threshold", "speed", "models"},
		Sets:  map[string]phrase.Text{"model": phrase.New("its models row names the models it trains")}},
	// The attention lab keeps the paper's dropout of 0.5 on Cora, not the
	// bag-of-words recipe's 0.9: at 0.9 the second hop leads (claim
	// fig7-first-hop). Figure 8, read on the scaled scores, holds at both.
	{Name: "attention", Title: "What PDN attends to", Defaults: "data=cora&hops=5&dropout=0.5",
		Rows: []string{"data", "shots", "classes", "per-class", "p", "q", "node-features", "edge-features", "sigma-f", "sigma-d", "seed",
			"self-loop", "hidden", "dropout", "hops", "epochs", "lr", "weight-decay", "init-seed"},
		Runs:  attentionRuns,
		Intro: "Press Train all: the linear PDN's bars say which of the edges' features it attends to (Figure 8), and the multi-scale PDN's lines how it weighs each power of Â (Figure 7).",
		Story: []string{"data", "shots", "hops", "dropout", "epochs", "seed"},
		Views: []string{"speed"},
		Sets:  map[string]phrase.Text{"model": phrase.New("its runs are the linear and the multi-scale PDN")}},
	{Name: "structure", Title: "What a learned graph is worth", Defaults: "models=pdn,gcn,gat", Hide: []string{"model", "graph-from", "pathfinder-seed"}, Runs: compareRuns, Trains: SideRuns,
		Intro: "PDN learns a graph; graph-structure-learning research measures such graphs. Press Train all: the curves show how homophilous each model's graph is as it trains, beside its accuracy. Then run the robustness curves and the transfer table below.",
		Story: []string{"data", "per-class", "p", "q", "sigma-d", "shots", "epochs", "seed"},
		Views: []string{"speed", "models", "results"},
		Sets: map[string]phrase.Text{
			"model":           phrase.New("its models row names the models it trains"),
			"graph-from":      phrase.New("its transfer table trains GCN, SGC and APPNP on both graphs"),
			"pathfinder-seed": phrase.New("its induction table applies the data seed's pathfinder to the graphs of the next seeds"),
		}},
	// The multiplex lab's pathfinder has 2 neurons, as the paper's on IMDB
	// and ACM (Appendix C).
	{Name: "multiplex", Title: "Which layer carries the classes", Defaults: "data=multiplex&edge-hidden=2",
		Rows: []string{"classes", "per-class", "layers", "layer-degree", "node-features", "sigma-f", "seed",
			"edge-hidden", "edge-init", "self-loop", "hidden", "dropout", "edge-dropout", "epochs", "lr", "weight-decay", "init-seed"},
		Runs:  multiplexRuns,
		Intro: "Its edges come in layers, some joining nodes of one class and some at random. Press Train all: PDN learns a weight for each layer, and GCN trains over the union of the layers and over each layer alone.",
		Story: []string{"per-class", "layer-degree", "sigma-f", "edge-hidden", "epochs", "seed"},
		Views: []string{"speed"},
		Sets: map[string]phrase.Text{
			"data":  phrase.New("its lesson is a generated multiplex graph's"),
			"model": phrase.New("its runs are PDN and GCN over the union of the layers, and GCN over each layer alone"),
			"layer": phrase.New("its runs are PDN and GCN over the union of the layers, and GCN over each layer alone"),
		}},
	{Name: "sweep", Title: "Figure 3, live", Queue: true,
		Intro: "One of the paper's eight scenarios, every model on several graphs at each value, trained a few at a time. Choose a scenario, press Run sweep, and watch each point land beside the paper's.",
		// The model and training rows pdn sweep takes; the scenario, reps
		// and models rows are the lab's own.
		Rows:  []string{"edge-hidden", "edge-init", "hidden", "dropout", "edge-dropout", "epochs", "lr", "weight-decay"},
		Views: []string{"models", "scenario", "reps", "results"},
		Sets: map[string]phrase.Text{
			"init-seed": phrase.New("rep r trains with weight seed r; choose how many reps"),
			"seed":      phrase.New("rep r draws its graph with data seed r; choose how many reps"),
		}},
})

// The sweep's runs read the state table, whose lab row reads this table's
// names: its Runs are set once both exist.
func init() {
	for i := range Params {
		switch Params[i].Name {
		case "hide":
			Params[i].valid = validHide // it reads the table it is in
		case "pathfinder-rows":
			Params[i].valid = validPathfinderRows // so does it
		}
	}
	for i := range Labs {
		if Labs[i].Name == "sweep" {
			Labs[i].Runs, Labs[i].Trains = sweepRuns, sweepRuns
		}
	}
}

// Results reads e's results row for the runs l trains each to its end
// (Trains): one result per run, those the row does not reach not yet
// trained. It is the one reader of the row a link brings to a lab: a lab
// that trains no runs to their end refuses any, results of more runs than
// l trains are another state's, and a run given two results is refused:
// runs of one key are one run (RunKey: the structure lab's rate 0 of every
// perturbation is the graph as it is, and so is GCN on the input graph in
// its transfer table), which trains once and has one result.
func (l Lab) Results(e Experiment) ([]Result, error) {
	if l.Trains == nil {
		if e.View.Results == "" {
			return nil, nil
		}
		return nil, phrase.Errorf("results: the %s lab trains no runs to their end, so it has no results to show (the labs that do: %s)", l.Name, strings.Join(resultLabs(), ", "))
	}
	runs := l.Trains(e)
	res, err := resultsOf(e.View.Results, len(runs), l.Name)
	if err != nil {
		return nil, err
	}
	return res, oneResultARun(runs, res)
}

// oneResultARun refuses results that give one run (runs of one key) two
// different results, naming both slots and their runs.
func oneResultARun(runs []Run, res []Result) error {
	first := map[string]int{} // a key's first slot with a result
	for i, r := range runs {
		if !res[i].Done {
			continue
		}
		k := RunKey(r.Exp)
		j, ok := first[k]
		if !ok {
			first[k] = i
			continue
		}
		if resultToken(res[j]) != resultToken(res[i]) {
			return phrase.Errorf("results: result %d (%s) and result %d (%s) are of one run, trained once, but say %s and %s; give them one result", j+1, runs[j].Name, i+1, r.Name, resultToken(res[j]), resultToken(res[i]))
		}
	}
	return nil
}

// resultLabs are the labs whose links carry results.
func resultLabs() []string {
	var out []string
	for _, l := range Labs {
		if l.Trains != nil {
			out = append(out, l.Name)
		}
	}
	return out
}

// LabNamed returns the lab called name.
func LabNamed(name string) (Lab, bool) {
	return rowNamed(Labs, func(l Lab) string { return l.Name }, name)
}

// withheld names labs a build leaves out, comma-separated, set at link
// time (-ldflags "-X pdnexplorer/experiment.withheld=NAME"): the e2e test
// of an update builds the page so, to stand for an earlier version that
// lacked a lab. Empty in every build that ships.
var withheld string

// leaveOut is labs without those named in names.
func leaveOut(names string, labs []Lab) []Lab {
	return slices.DeleteFunc(labs, func(l Lab) bool { return slices.Contains(strings.Split(names, ","), l.Name) })
}

// Withheld reports whether this build leaves out the lab called name.
func Withheld(name string) bool { return slices.Contains(strings.Split(withheld, ","), name) }

// withheldLink reports whether link opens a lab this build leaves out:
// the presets and claims of such a lab are left out with it.
func withheldLink(link string) bool {
	first, _, _ := strings.Cut(link, "&")
	lab, ok := strings.CutPrefix(first, "lab=")
	return ok && withheld != "" && Withheld(lab)
}

// labNames are the lab row's choices.
func labNames() []string {
	names := make([]string, len(Labs))
	for i, l := range Labs {
		names[i] = l.Name
	}
	return names
}

// Shows reports whether the lab offers p as a control: a row the engine
// reads that the lab lists (or every one, for a lab that lists none) and
// does not hide. A free-text row (Form) is no control: a lab's own views
// write it (the graph lab's editor, the edits).
func (l Lab) Shows(p Param) bool {
	return p.Group != GroupView && p.Form == "" && !slices.Contains(l.Hide, p.Name) && (l.Rows == nil || slices.Contains(l.Rows, p.Name))
}

// oneRun is the graph lab's: the state itself. Its name stays when the
// model changes, so the run keeps its graph.
func oneRun(e Experiment) []Run { return []Run{{Name: "run", Title: e.Model.Kind, Exp: e}} }

// xorRuns are §4.1.1's models: the pathfinder with 16 neurons, with 2, the
// linear PDN and GCN. The remedies that edge-init and restarts set are the
// 2-neuron pathfinder's; the others train as the paper's code does, from
// torch's initialisation.
func xorRuns(e Experiment) []Run {
	run := func(name, title, kind string, hidden []int, remedy bool) Run {
		r := e
		r.Model.Kind, r.Model.EdgeHidden = kind, hidden
		if !remedy {
			r.Model.EdgeInit, r.Model.Restarts = InitUniform, 0
		}
		return Run{Name: name, Title: title, Exp: r}
	}
	return []Run{
		run("pdn-16", "PDN, 16 neurons", PDN, []int{16}, false),
		run("pdn-2", "PDN, 2 neurons", PDN, []int{2}, true),
		run("pdn-linear", "Linear PDN", PDNLinear, nil, false),
		run("gcn", "GCN", GCN, nil, false),
	}
}

// degreeRuns are §4.2's: PDN and GAT on one graph.
func degreeRuns(e Experiment) []Run {
	pdn, gat := e, e
	pdn.Model.Kind, gat.Model.Kind = PDN, GAT
	return []Run{{Name: "pdn", Title: "PDN", Exp: pdn}, {Name: "gat", Title: "GAT", Exp: gat}}
}

// compareRuns are the models the models row names, one run each.
func compareRuns(e Experiment) []Run {
	var out []Run
	for _, k := range e.View.Models {
		r := e
		r.Model.Kind = k
		out = append(out, Run{Name: k, Title: k, Exp: r})
	}
	return out
}

// attentionRuns are §6.2's and Appendix F's: the linear PDN, whose softmax
// over its inputs reads as attention (Figure 8), and the multi-scale PDN,
// whose weights over the powers of Â move with the epochs (Figure 7).
func attentionRuns(e Experiment) []Run {
	lin, ms := e, e
	lin.Model.Kind, lin.Model.EdgeHidden = PDNLinear, nil
	ms.Model.Kind = PDNMultiScale
	return []Run{{Name: "linear", Title: "Linear PDN", Exp: lin}, {Name: "multiscale", Title: "Multi-scale PDN", Exp: ms}}
}

// LayerTitles are the titles of the multiplex lab's runs over one layer
// alone, by the layer's place (experiment.LayerNames).
var LayerTitles = [MaxLayers]string{"GCN over layer A", "GCN over layer B", "GCN over layer C", "GCN over layer D", "GCN over layer E", "GCN over layer F"}

// multiplexRuns are §5.2's: PDN over the layers, GCN over their union,
// and GCN over each layer alone, on one multiplex graph.
func multiplexRuns(e Experiment) []Run {
	pdn, gcn := e, e
	pdn.Model.Kind, gcn.Model.Kind = PDN, GCN
	pdn.Data.Layer, gcn.Data.Layer = "", ""
	out := []Run{{Name: "pdn", Title: "PDN", Exp: pdn}, {Name: "gcn", Title: "GCN over the union", Exp: gcn}}
	shares, _ := e.Data.LayerShares()
	for i, name := range LayerNames(len(shares)) {
		one := gcn
		one.Data.Layer = name
		out = append(out, Run{Name: "gcn-" + name, Title: LayerTitles[i], Exp: one})
	}
	return out
}

// sweepRuns are the sweep's (Sweep.Runs): every model on each graph of
// each value of the scenario; none for a state that names no sweep.
func sweepRuns(e Experiment) []Run {
	s, err := SweepOf(e)
	if err != nil {
		return nil
	}
	runs, _ := s.Runs()
	return runs
}
