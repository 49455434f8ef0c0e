package experiment

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/numtext"
)

// Sweep is Figure 3's experiment (§5.2): one scenario's parameter over its
// values (Table 2), Reps graphs at each value, every model trained on each
// graph. Rep r (from 0) of value v is the graph drawn with data seed r+1
// and the weights drawn with init seed r+1, every other row as Base has
// it, so that the page's sweep lab and pdn sweep train the same runs, bit
// for bit.
//
// A sweep's runs have an order, the CSV's: value by value, rep by rep,
// model by model. Results are kept and written in that order.
type Sweep struct {
	Scenario Scenario
	Models   []string
	Reps     int
	Base     Experiment
}

// SweepOf is the sweep the state names: its scenario, models and reps
// rows, its model and training rows as the base of every run.
func SweepOf(e Experiment) (Sweep, error) {
	s, err := PaperScenario(e.View.Scenario)
	if err != nil {
		return Sweep{}, phrase.Errorf("scenario: %w", err)
	}
	if e.View.Reps < 1 || len(e.View.Models) == 0 {
		return Sweep{}, phrase.Errorf("reps, models: a sweep needs a rep and a model")
	}
	return Sweep{Scenario: s, Models: e.View.Models, Reps: e.View.Reps, Base: e}, nil
}

// Size is the number of runs: values × reps × models.
func (s Sweep) Size() int { return len(s.Scenario.Values) * s.Reps * len(s.Models) }

// Index is the place of value v, rep r and model m in the sweep's order.
func (s Sweep) Index(v, r, m int) int { return (v*s.Reps+r)*len(s.Models) + m }

// Place is the inverse of Index.
func (s Sweep) Place(i int) (v, r, m int) {
	m = i % len(s.Models)
	i /= len(s.Models)
	return i / s.Reps, i % s.Reps, m
}

// Exp is the experiment of rep r of value v, trained with model kind.
func (s Sweep) Exp(v, r int, kind string) (Experiment, error) {
	data, err := s.Scenario.At(s.Base.Data, v)
	if err != nil {
		return Experiment{}, err
	}
	// Each rep draws a graph of its own, so edits of one graph do not apply.
	data.Seed, data.Edits = uint64(r+1), ""
	e := s.Base
	e.Data, e.Model.Kind, e.Train.Seed = data, kind, data.Seed
	return e, nil
}

// Runs are the sweep's runs in its order, named value/rep/model.
func (s Sweep) Runs() ([]Run, error) {
	out := make([]Run, s.Size())
	for i := range out {
		v, r, m := s.Place(i)
		e, err := s.Exp(v, r, s.Models[m])
		if err != nil {
			return nil, err
		}
		x := strconv.FormatFloat(s.Scenario.Values[v], 'g', -1, 64)
		out[i] = Run{Name: fmt.Sprintf("%s/%d/%s", x, r+1, s.Models[m]),
			Title: fmt.Sprintf("%s at %s = %s, graph %d", s.Models[m], s.Scenario.Param, x, r+1), Exp: e}
	}
	return out, nil
}

// Result is one run's test accuracy once it has trained (Done); NaN when
// it gave none (it diverged, or its graph had no edges to train on).
type Result struct {
	Acc  float64
	Done bool
	// Homophily is the learned homophily of the run's graph at its end,
	// where the run's reader keeps it (the structure lab's transfer
	// table); the results row does not carry it.
	Homophily float64
	// WIntra and WInter are the mean weights the run propagated with on
	// edges within and between classes, where its reader keeps them (the
	// structure lab's induction table).
	WIntra, WInter float64
}

// Round4 is acc as the CSV writes it, to four decimals: the page keeps
// and shows its results so, as the link carries them.
func Round4(acc float64) float64 {
	return numtext.Round(acc, 4)
}

// EncodeResults writes results for the results row: one token per run in
// the sweep's order, separated by dots, each the accuracy in units of
// 10⁻⁴ as the CSV rounds it, "x" for no result and nothing for a run not
// yet trained; the runs not yet trained at the end are left out.
func EncodeResults(res []Result) string {
	toks := make([]string, len(res))
	last := -1
	for i, r := range res {
		if !r.Done {
			continue
		}
		toks[i], last = resultToken(r), i
	}
	return strings.Join(toks[:last+1], ".")
}

// resultToken is a trained run's result as the results row writes it.
func resultToken(r Result) string {
	if math.IsNaN(r.Acc) {
		return "x"
	}
	return strconv.Itoa(int(math.Round(Round4(r.Acc) * 1e4)))
}

// maxResults bounds the results row: the most runs a lab trains to their
// end (a sweep of 7 values, 10 reps and 4 models).
const maxResults = 7 * 10 * 4

// parseResults reads the results row, whatever the lab.
func parseResults(text string) ([]Result, error) {
	if text == "" {
		return nil, nil
	}
	toks := strings.Split(text, ".")
	if len(toks) > maxResults {
		return nil, phrase.Errorf("%d results; no lab trains more than %d runs to their end", len(toks), maxResults)
	}
	res := make([]Result, len(toks))
	for i, t := range toks {
		switch t {
		case "":
		case "x":
			res[i] = Result{Acc: math.NaN(), Done: true}
		default:
			k, err := numtext.ParseInt(t)
			if err != nil || k < 0 || k > 10000 {
				return nil, phrase.Errorf("result %d is %s; want a whole number of 10⁻⁴ in [0, 10000], x or nothing", i+1, Quote(t))
			}
			res[i] = Result{Acc: float64(k) / 1e4, Done: true}
		}
	}
	return res, nil
}

// Results reads a results row for the sweep, as the sweep lab does
// (Lab.Results): one result per run, the runs it does not reach not yet
// trained. Results of another sweep (more of them than it has runs) are
// an error.
func (s Sweep) Results(text string) ([]Result, error) {
	return resultsOf(text, s.Size(), "sweep")
}

// resultsOf reads a results row for the n runs lab trains to their end.
func resultsOf(text string, n int, lab string) ([]Result, error) {
	res, err := parseResults(text)
	if err != nil {
		return nil, phrase.Errorf("results: %w", err)
	}
	if len(res) > n {
		return nil, phrase.Errorf("results: %d of them, but the %s lab trains %d runs to their end", len(res), lab, n)
	}
	return append(res, make([]Result, n-len(res))...), nil
}

// Point is one model's results at one value: the mean and sample
// standard deviation of the test accuracies of the graphs that gave one
// (N of them); NaN for none, an SD of 0 for one.
type Point struct {
	Mean, SD float64
	N        int
}

// Summary is each model's point at each value, [model][value].
func (s Sweep) Summary(res []Result) [][]Point {
	out := make([][]Point, len(s.Models))
	for m := range s.Models {
		out[m] = make([]Point, len(s.Scenario.Values))
		for v := range s.Scenario.Values {
			var xs []float64
			for r := 0; r < s.Reps; r++ {
				if x := res[s.Index(v, r, m)]; x.Done && !math.IsNaN(x.Acc) {
					xs = append(xs, x.Acc)
				}
			}
			mean, sd := MeanSD(xs)
			out[m][v] = Point{Mean: mean, SD: sd, N: len(xs)}
		}
	}
	return out
}

// MeanSD is the mean and sample standard deviation of xs, by the two-pass
// formula. Written here, not taken from gonum's stat, because this package
// is the page's and must not link gonum.
func MeanSD(xs []float64) (mean, sd float64) {
	switch len(xs) {
	case 0:
		return math.NaN(), math.NaN()
	case 1:
		return xs[0], 0
	}
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / float64(len(xs)-1))
}

// CSVHeader is the header of a sweep's CSV.
var CSVHeader = []string{"scenario", "parameter", "value", "model", "rep", "test_accuracy"}

// CSV is the sweep's results as pdn sweep writes them, a row per run that
// has trained, after the header.
func (s Sweep) CSV(res []Result) [][]string {
	rows := [][]string{CSVHeader}
	for i, r := range res {
		if !r.Done {
			continue
		}
		v, rep, m := s.Place(i)
		rows = append(rows, []string{strconv.Itoa(s.Scenario.Number), s.Scenario.Param,
			strconv.FormatFloat(s.Scenario.Values[v], 'g', -1, 64), s.Models[m],
			strconv.Itoa(rep + 1), strconv.FormatFloat(r.Acc, 'f', 4, 64)})
	}
	return rows
}

// RunKey names what a run of e trains: runs of one key train to the same
// bits. On the paper's generator the edges' own features come from a
// stream of their own, so a model that does not read them
// (ReadsEdgeFeatures) sees the same graph whatever their number and spread
// (scenarios 6 and 8 sweep nothing else): its key leaves those rows out,
// and a sweep trains it once a rep rather than once a value. A model on
// PDN's learned graph reads them through the PDN. A perturbation at rate 0
// is the graph as it is.
func RunKey(e Experiment) string {
	if e.Data.Perturb == PerturbNone || e.Data.PerturbRate == 0 {
		e.Data.Perturb, e.Data.PerturbRate = PerturbNone, 0 // the graph as it is
	}
	if !TakesWeights(e.Model.Kind) {
		e.Model.GraphFrom = FromInput // a row the model does not read
	}
	if e.Data.Graph == GraphSynthetic && !ReadsEdgeFeatures(e.Model.Kind) && e.Model.GraphFrom != FromPDN {
		base := Default()
		e.Data.EdgeFeatures, e.Data.SigmaD = base.Data.EdgeFeatures, base.Data.SigmaD
	}
	return e.EncodeRun()
}

// Agreement is how one model's points of a sweep sit against the paper's
// Figure 3: Within of Of points (those with results and a paper value)
// lie within Tolerance of it, and Apart are the others.
type Agreement struct {
	Model      string
	Within, Of int
	Apart      []Apart
}

// Apart is a point where ours and the paper's differ by more than the
// tolerance: the value of the scenario's parameter, and both accuracies.
type Apart struct {
	Value, Ours, Paper float64
}

// Tolerance is how far our mean may lie from the paper's value and still
// agree with it: twice the sample SD of our graphs at that point, and at
// least 0.05 (the paper gives no spread of its own, and a few graphs give
// a rough one).
func Tolerance(p Point) float64 { return max(2*p.SD, 0.05) }

// Agreements are each model's agreement with Figure 3 over the points
// trained so far; a model the paper does not show has Of 0.
func (s Sweep) Agreements(res []Result) []Agreement {
	pts := s.Summary(res)
	out := make([]Agreement, len(s.Models))
	for m, k := range s.Models {
		out[m].Model = k
		ref := s.Scenario.Paper[k]
		for v, x := range s.Scenario.Values {
			p := pts[m][v]
			if p.N == 0 || v >= len(ref) {
				continue
			}
			out[m].Of++
			paper := ref[v] / 100
			if math.Abs(p.Mean-paper) <= Tolerance(p) {
				out[m].Within++
			} else {
				out[m].Apart = append(out[m].Apart, Apart{Value: x, Ours: p.Mean, Paper: paper})
			}
		}
	}
	return out
}
