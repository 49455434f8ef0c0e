package experiment

import (
	"fmt"
	"math"
	"slices"
	"strconv"
)

// Perturbation is one row of the perturbation table: one way the
// structure lab shakes a graph (GSLB's robustness questions), with the
// rates its curve is drawn at.
type Perturbation struct {
	Name, Title string
	// Rates are the perturb-rate values the lab's and pdn structure's
	// curve trains at, 0 (the graph as it is) first.
	Rates []float64
	// Edges says it changes the edges, not the node features.
	Edges bool
}

// The perturb row's choices.
const (
	PerturbNone     = "none"
	PerturbAddEdges = "add-edges" // random pairs joined
	PerturbAddInter = "add-inter" // pairs of different classes joined
	PerturbDrop     = "drop-edges"
	PerturbMask     = "mask-features"
)

// Perturbations are the perturb row's choices but none, in the order the
// lab draws them. Dropping every edge leaves no graph to propagate over,
// which a graph model refuses, so its curve ends at 90%.
var Perturbations = []Perturbation{
	{Name: PerturbAddEdges, Title: "Random edges added", Edges: true, Rates: []float64{0, 0.2, 0.4, 0.6, 0.8, 1}},
	{Name: PerturbAddInter, Title: "Inter-class edges added", Edges: true, Rates: []float64{0, 0.2, 0.4, 0.6, 0.8, 1}},
	{Name: PerturbDrop, Title: "Edges dropped", Edges: true, Rates: []float64{0, 0.2, 0.4, 0.6, 0.8, 0.9}},
	{Name: PerturbMask, Title: "Node features masked", Rates: []float64{0, 0.2, 0.4, 0.6, 0.8, 1}},
}

func perturbNames() []string {
	out := []string{PerturbNone}
	for _, p := range Perturbations {
		out = append(out, p.Name)
	}
	return out
}

// perturbsEdges reports whether e's perturbation changes only the graph's
// edges (Param.EdgesWhen).
func perturbsEdges(e *Experiment) bool {
	p, ok := PerturbationNamed(e.Data.Perturb)
	return ok && p.Edges
}

// PerturbationNamed returns the perturbation called name.
func PerturbationNamed(name string) (Perturbation, bool) {
	i := slices.IndexFunc(Perturbations, func(p Perturbation) bool { return p.Name == name })
	if i < 0 {
		return Perturbation{}, false
	}
	return Perturbations[i], true
}

// FirstRate is the first rate of the perturbation's curve above 0: the
// rate a page gives a perturbation chosen at rate 0, which would change
// nothing.
func (p Perturbation) FirstRate() float64 {
	for _, r := range p.Rates {
		if r > 0 {
			return r
		}
	}
	return 0
}

// modelsTakingWeights are the graph-from row's models.
func modelsTakingWeights() []string {
	return ModelsWhere(func(m ModelKind) bool { return m.TakesWeights })
}

// TakesWeights reports whether the model of kind can propagate over a
// PDN's learned graph (ModelKind.TakesWeights).
func TakesWeights(kind string) bool { m, _ := ModelNamed(kind); return m.TakesWeights }

// RobustnessRuns are the structure lab's robustness curves: each model of
// the models row at each rate of each perturbation, on the state's graph
// and seeds. Name is perturbation/rate/model, as robustness.csv's rows.
// At rate 0 every perturbation is the graph as it is: those runs share a
// key (RunKey), so a queue trains them once.
func RobustnessRuns(e Experiment) []Run {
	var out []Run
	for _, p := range Perturbations {
		for _, rate := range p.Rates {
			for _, k := range e.View.Models {
				r := e
				r.Model.Kind, r.Data.Perturb, r.Data.PerturbRate = k, p.Name, rate
				out = append(out, Run{Name: fmt.Sprintf("%s/%g/%s", p.Name, rate, k), Title: k, Exp: r})
			}
		}
	}
	return out
}

// TransferModels are the models the transfer table gives PDN's learned
// graph to: the fixed-graph models that take weights.
var TransferModels = []string{GCN, SGC, APPNP}

// TransferRuns are the structure lab's transfer table: each of
// TransferModels on the input graph and on PDN's learned graph, frozen.
// Name is model/graph, as transfer.csv's rows.
func TransferRuns(e Experiment) []Run {
	var out []Run
	for _, k := range TransferModels {
		for _, from := range []string{FromInput, FromPDN} {
			r := e
			r.Model.Kind, r.Model.GraphFrom, r.Model.PathfinderSeed = k, from, 0
			out = append(out, Run{Name: k + "/" + from, Title: k, Exp: r})
		}
	}
	return out
}

// InductionSeeds is how many graphs the induction table applies a
// pathfinder to: those the generator draws at the next seeds after the
// state's, the pathfinder's own.
const InductionSeeds = 4

// The induction table's runs at each graph, as induction.csv names them.
const (
	InducedRun = "induced" // GCN over the weights the state's seed's pathfinder gives this graph
	OwnPDNRun  = "pdn"     // a PDN trained on this graph itself
	OwnGCNRun  = "gcn"     // GCN over this graph's input edges
)

// InductionRuns are the structure lab's induction table (§1's "transfer of
// learned graph aggregation from one graph to another"): a pathfinder
// trained with the state's rows at its seed s, frozen and applied to the
// graphs the generator draws at seeds s+1..s+InductionSeeds, with GCN
// over the weights it gives each; beside it, on each, a PDN trained there
// and GCN over the input edges. Name is seed/run, as induction.csv's rows.
// A real graph has one draw: none. Nor at data seed 0, which the
// pathfinder-seed row cannot name (its 0 is "this graph").
func InductionRuns(e Experiment) []Run {
	if e.Data.Real() || e.Data.Seed == 0 {
		return nil
	}
	var out []Run
	for i := uint64(1); i <= InductionSeeds; i++ {
		for _, name := range []string{InducedRun, OwnPDNRun, OwnGCNRun} {
			r := e
			r.Data.Seed, r.Data.Edits = e.Data.Seed+i, "" // the edits name the state's graph's edges
			r.Model.Kind, r.Model.GraphFrom, r.Model.PathfinderSeed = GCN, FromInput, 0
			switch name {
			case InducedRun:
				r.Model.GraphFrom, r.Model.PathfinderSeed = FromPDN, e.Data.Seed
			case OwnPDNRun:
				r.Model.Kind = PDN
			}
			out = append(out, Run{Name: fmt.Sprintf("%d/%s", r.Data.Seed, name), Title: name, Exp: r})
		}
	}
	return out
}

// InductionCSV is induction.csv: a row per run with a result: the seed of
// the graph, the run (InducedRun, OwnPDNRun, OwnGCNRun), the seed its
// pathfinder trained at (the induced run's; the graph's own for PDN),
// its test accuracy and the mean weight it propagated with on edges within
// and between classes (Result.WIntra, WInter; 1 for GCN).
func InductionCSV(runs []Run, res []Result) [][]string {
	rows := [][]string{{"seed", "run", "pathfinder_seed", "test_acc", "w_intra", "w_inter"}}
	for i, r := range runs {
		if !res[i].Done {
			continue
		}
		from := ""
		switch r.Title {
		case InducedRun:
			from = strconv.FormatUint(r.Exp.Model.PathfinderSeed, 10)
		case OwnPDNRun:
			from = strconv.FormatUint(r.Exp.Data.Seed, 10)
		}
		rows = append(rows, []string{strconv.FormatUint(r.Exp.Data.Seed, 10), r.Title, from, accText(res[i].Acc), accText(res[i].WIntra), accText(res[i].WInter)})
	}
	return rows
}

// SideRuns are the structure lab's runs each trained to its end on a
// pool of workers, in the order the results row holds them: the
// robustness runs, then the transfer runs, then the induction runs.
func SideRuns(e Experiment) []Run {
	return slices.Concat(RobustnessRuns(e), TransferRuns(e), InductionRuns(e))
}

// RobustAcc is model's accuracy at each of p's rates, from runs
// (RobustnessRuns) and their results; NaN where none.
func RobustAcc(runs []Run, res []Result, p Perturbation, model string) []float64 {
	out := make([]float64, len(p.Rates))
	for i, rate := range p.Rates {
		out[i] = math.NaN()
		for j, r := range runs {
			if r.Exp.Data.Perturb == p.Name && r.Exp.Data.PerturbRate == rate && r.Exp.Model.Kind == model && res[j].Done {
				out[i] = res[j].Acc
			}
		}
	}
	return out
}

// TransferAcc is model's accuracy over the graph from (FromInput,
// FromPDN), from runs (TransferRuns) and their results; NaN where none.
func TransferAcc(runs []Run, res []Result, model, from string) float64 {
	for i, r := range runs {
		if r.Exp.Model.Kind == model && r.Exp.Model.GraphFrom == from && res[i].Done {
			return res[i].Acc
		}
	}
	return math.NaN()
}

// RobustnessCSV is robustness.csv: a row per run with a result, in the
// runs' order: perturbation, rate, model, test accuracy (Round4).
func RobustnessCSV(runs []Run, res []Result) [][]string {
	rows := [][]string{{"perturb", "rate", "model", "test_acc"}}
	for i, r := range runs {
		if res[i].Done {
			rows = append(rows, []string{r.Exp.Data.Perturb, strconv.FormatFloat(r.Exp.Data.PerturbRate, 'g', -1, 64), r.Exp.Model.Kind, accText(res[i].Acc)})
		}
	}
	return rows
}

// TransferCSV is transfer.csv: a row per run with a result: the model,
// the graph it propagated over (input, pdn), its test accuracy and the
// homophily of the weights it propagated with (Result.Homophily).
func TransferCSV(runs []Run, res []Result) [][]string {
	rows := [][]string{{"model", "graph", "test_acc", "learned_homophily"}}
	for i, r := range runs {
		if res[i].Done {
			rows = append(rows, []string{r.Exp.Model.Kind, r.Exp.Model.GraphFrom, accText(res[i].Acc), accText(res[i].Homophily)})
		}
	}
	return rows
}

func accText(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(Round4(v), 'f', 4, 64)
}
