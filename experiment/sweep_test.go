package experiment

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// A sweep's run i is the one at Place(i), and its experiment is rep r's
// graph and weights at value v: data and init seed r+1, the scenario's
// parameter at its value, the other rows as the state has them.
func TestSweepRuns(t *testing.T) {
	e, err := Decode("lab=sweep&scenario=4&reps=2&models=pdn,gcn&lr=0.02")
	if err != nil {
		t.Fatal(err)
	}
	s, err := SweepOf(e)
	if err != nil {
		t.Fatal(err)
	}
	runs, err := s.Runs()
	if err != nil || len(runs) != 7*2*2 || s.Size() != len(runs) {
		t.Fatalf("%d runs, size %d, %v", len(runs), s.Size(), err)
	}
	for i, r := range runs {
		v, rep, m := s.Place(i)
		if s.Index(v, rep, m) != i {
			t.Errorf("Index(Place(%d)) = %d", i, s.Index(v, rep, m))
		}
		x := r.Exp
		if x.Data.Q != s.Scenario.Values[v] || x.Data.Seed != uint64(rep+1) || x.Train.Seed != uint64(rep+1) ||
			x.Model.Kind != s.Models[m] || x.Train.LR != 0.02 || x.Data.P != e.Data.P {
			t.Errorf("run %d (%s): q %v, seeds %d/%d, model %s, lr %v", i, r.Name, x.Data.Q, x.Data.Seed, x.Train.Seed, x.Model.Kind, x.Train.LR)
		}
		if err := x.Validate(); err != nil {
			t.Errorf("run %s: %v", r.Name, err)
		}
	}
}

func TestSweepResultsRoundTrip(t *testing.T) {
	s, _ := SweepOf(ForLab("sweep"))
	res := make([]Result, s.Size())
	res[0] = Result{Acc: 0.97125, Done: true}
	res[1] = Result{Acc: math.NaN(), Done: true}
	res[3] = Result{Acc: 1, Done: true}
	text := EncodeResults(res)
	if text != "9712.x..10000" && text != "9713.x..10000" {
		t.Fatalf("encoded %q", text)
	}
	back, err := s.Results(text)
	if err != nil || len(back) != s.Size() {
		t.Fatalf("%d results, %v", len(back), err)
	}
	for i := range res {
		want := res[i]
		if want.Done && !math.IsNaN(want.Acc) {
			want.Acc = Round4(want.Acc)
		}
		if back[i].Done != want.Done || (want.Done && fmt.Sprint(back[i].Acc) != fmt.Sprint(want.Acc)) {
			t.Errorf("result %d: %+v, want %+v", i, back[i], want)
		}
	}
	if EncodeResults(make([]Result, 3)) != "" {
		t.Error("no result done encodes as text")
	}
}

// A result with leading zeros is read as every whole number is
// (numtext: 0712 is 712), not refused where a flag takes 016.
func TestSweepResultsLeadingZeros(t *testing.T) {
	s, _ := SweepOf(ForLab("sweep"))
	res, err := s.Results("0712.00.x")
	if err != nil || len(res) < 3 || res[0].Acc != 0.0712 || res[1].Acc != 0 || !res[1].Done {
		t.Errorf("0712.00.x: %+v, %v; want 0.0712, then 0", res[:min(3, len(res))], err)
	}
}

func TestSweepResultsRefused(t *testing.T) {
	s, _ := SweepOf(ForLab("sweep"))
	for _, tc := range []struct{ name, text, want string }{
		{"not a number", "9712.abc", `result 2 is "abc"`},
		{"too large", "10001", "[0, 10000]"},
		{"negative", "-1", "[0, 10000]"},
		{"another sweep's", strings.Repeat("1.", s.Size()) + "1", "but the sweep lab trains 42 runs to their end"},
		{"too many for any sweep", strings.Repeat("1.", maxResults) + "1", "no lab trains more than 280 runs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.Results(tc.text)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "results: ") {
				t.Errorf("got %v, want an error naming results and %q", err, tc.want)
			}
		})
	}
	// The link's row is checked as the table checks every row.
	if _, err := Decode("lab=sweep&results=12.zz"); err == nil || !strings.Contains(err.Error(), "results:") {
		t.Errorf("link with bad results: %v", err)
	}
}

func TestSweepSummary(t *testing.T) {
	s, _ := SweepOf(ForLab("sweep")) // pdn, gcn; 3 reps
	res := make([]Result, s.Size())
	for r, acc := range []float64{0.9, 0.8, math.NaN()} {
		res[s.Index(0, r, 0)] = Result{Acc: acc, Done: true}
	}
	res[s.Index(1, 0, 1)] = Result{Acc: 0.5, Done: true}
	sum := s.Summary(res)
	p := sum[0][0]
	if p.N != 2 || math.Abs(p.Mean-0.85) > 1e-12 || math.Abs(p.SD-math.Sqrt(0.005)) > 1e-12 {
		t.Errorf("pdn at the first value: %+v", p)
	}
	if q := sum[1][1]; q.N != 1 || q.Mean != 0.5 || q.SD != 0 {
		t.Errorf("gcn at the second: %+v", q)
	}
	if q := sum[1][0]; q.N != 0 || !math.IsNaN(q.Mean) {
		t.Errorf("gcn at the first, none done: %+v", q)
	}
	rows := s.CSV(res)
	if len(rows) != 1+4 || strings.Join(rows[0], ",") != "scenario,parameter,value,model,rep,test_accuracy" ||
		strings.Join(rows[3], ",") != "4,q,0.0009765625,pdn,3,NaN" {
		t.Errorf("csv %v", rows)
	}
}

func TestMeanSD(t *testing.T) {
	for _, tc := range []struct {
		xs       []float64
		mean, sd float64
	}{{nil, math.NaN(), math.NaN()}, {[]float64{0.5}, 0.5, 0}, {[]float64{1, 3}, 2, math.Sqrt2}} {
		m, sd := MeanSD(tc.xs)
		same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) || math.Abs(a-b) < 1e-12 }
		if !same(m, tc.mean) || !same(sd, tc.sd) {
			t.Errorf("MeanSD(%v) = %v, %v; want %v, %v", tc.xs, m, sd, tc.mean, tc.sd)
		}
	}
}

// The link of a sweep half done carries the results so far.
func ExampleEncodeResults() {
	res := []Result{{Acc: 0.9725, Done: true}, {Acc: math.NaN(), Done: true}, {}, {Acc: 0.5, Done: true}, {}, {}}
	fmt.Println(EncodeResults(res))
	// Output: 9725.x..5000
}

// Runs that differ only in the edges' own features share a key when their
// model does not read them, and only then, and only on the paper's
// generator (whose edge features have a stream of their own).
func TestRunKey(t *testing.T) {
	e := Default()
	other := func(e Experiment) Experiment {
		e.Data.EdgeFeatures, e.Data.SigmaD = 4, 16
		return e
	}
	for _, c := range []struct {
		kind, graph string
		same        bool
	}{
		{GCN, GraphSynthetic, true},
		{DeepWalk, GraphSynthetic, true},
		{PDNEdgeConv, GraphSynthetic, true},
		{PDN, GraphSynthetic, false},
		{PDNLinear, GraphSynthetic, false},
		{GCN, GraphScaleFree, false},
	} {
		e.Model.Kind, e.Data.Graph = c.kind, c.graph
		if same := RunKey(e) == RunKey(other(e)); same != c.same {
			t.Errorf("%s on %s: same key %v, want %v", c.kind, c.graph, same, c.same)
		}
		seeded := e
		seeded.Train.Seed++
		if RunKey(e) == RunKey(seeded) {
			t.Errorf("%s on %s: another seed, the same key", c.kind, c.graph)
		}
	}
}

// Agreements count the points within the tolerance of Figure 3 and name
// the others.
func TestSweepAgreements(t *testing.T) {
	s, err := SweepOf(Experiment{View: View{Scenario: 4, Reps: 2, Models: []string{PDN, MLP}}, Model: Default().Model, Train: Default().Train, Data: Default().Data})
	if err != nil {
		t.Fatal(err)
	}
	res := make([]Result, s.Size())
	paper := s.Scenario.Paper[PDN]
	for r := range 2 {
		res[s.Index(0, r, 0)] = Result{Done: true, Acc: paper[0] / 100}     // agrees
		res[s.Index(1, r, 0)] = Result{Done: true, Acc: paper[1]/100 - 0.2} // apart
		res[s.Index(0, r, 1)] = Result{Done: true, Acc: 0.5}                // no paper value
	}
	a := s.Agreements(res)
	if a[0].Of != 2 || a[0].Within != 1 || len(a[0].Apart) != 1 || a[0].Apart[0].Value != s.Scenario.Values[1] {
		t.Errorf("PDN: %+v", a[0])
	}
	if a[1].Of != 0 {
		t.Errorf("MLP, which Figure 3 lacks: %+v", a[1])
	}
}
