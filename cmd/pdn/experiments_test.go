package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
)

func TestSweepWritesCSVAndSVG(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := runCLI(t, "sweep", "-scenario", "1", "-reps", "1", "-models", "pdn,gcn", "-epochs", "5", "-out", dir, "-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	m := lastJSON(t, out)
	if m["scenario"] != 1.0 || m["parameter"] != "classes" {
		t.Errorf("summary %v", m)
	}
	f, err := os.Open(filepath.Join(dir, "scenario1.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil || len(rows) != 1+5*2 || strings.Join(rows[0], ",") != "scenario,parameter,value,model,rep,test_accuracy" {
		t.Errorf("csv: %d rows, header %v, %v", len(rows), rows[0], err)
	}
	svg, err := os.ReadFile(filepath.Join(dir, "scenario1.svg"))
	if err != nil || !strings.Contains(string(svg), `class="paper"`) || !strings.Contains(string(svg), `class="ours"`) {
		t.Errorf("svg lacks our points or the paper's: %v", err)
	}
}

// At 16 nodes per class (scenario 2's first point) the graph of seed 10
// is drawn without edges: the models that pass messages have no result
// there, the MLP has one, the sweep goes on and its table says so.
func TestSweepGraphWithoutEdges(t *testing.T) {
	s, err := experiment.PaperScenario(2)
	if err != nil {
		t.Fatal(err)
	}
	kinds := []string{"pdn", "mlp"}
	base := experiment.Default()
	base.Train.Epochs = 5
	sw := experiment.Sweep{Scenario: s, Models: kinds, Reps: 10, Base: base}
	acc := [][][]float64{make([][]float64, 10)}
	for r := range acc[0] {
		if acc[0][r], err = sweepGraph(sw, 0, r, func(int) bool { return true }); err != nil {
			t.Fatalf("rep %d: %v", r+1, err)
		}
	}
	if !math.IsNaN(acc[0][9][0]) || math.IsNaN(acc[0][9][1]) {
		t.Fatalf("seed 10, 16 per class: pdn %v, mlp %v; want no result and a result", acc[0][9][0], acc[0][9][1])
	}
	sw.Scenario.Values = sw.Scenario.Values[:1]
	res := make([]experiment.Result, sw.Size())
	for r, accs := range acc[0] {
		for m, a := range accs {
			res[sw.Index(0, r, m)] = experiment.Result{Acc: a, Done: true}
		}
	}
	sum := summarise(sw, res)
	if got := sum.Models["pdn"].Results; len(got) != 1 || got[0] != 9 {
		t.Errorf("pdn results %v, want [9]", got)
	}
	var b strings.Builder
	printSweep(&b, sw.Scenario, kinds, sum)
	if !strings.Contains(b.String(), "note: at per-class = 16, results of 10 graphs: pdn 9 (") {
		t.Errorf("the table does not say pdn has 9 results:\n%s", b.String())
	}
}

func TestXORRuns(t *testing.T) {
	out, errOut, code := runCLI(t, "xor", "-seeds", "1", "-trials", "1", "-restarts", "2", "-restart-epochs", "5", "-epochs", "10", "-per-class", "32", "-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	m := lastJSON(t, out)
	models, _ := m["models"].(map[string]any)
	for _, name := range []string{"pdn-16", "pdn-2", "pdn-linear", "gcn"} {
		if _, ok := models[name]; !ok {
			t.Errorf("no result for %s", name)
		}
	}
	if !strings.Contains(out, "hand-set") {
		t.Error("the hand-set solution's table is missing")
	}
}

// pdn tsne writes Figure 4's CSV and SVG and says each model's
// separation, the same numbers twice over.
func TestTsneRuns(t *testing.T) {
	dir := t.TempDir()
	args := []string{"tsne", "-per-class", "64", "-epochs", "5", "-out", dir, "-json"}
	out, errOut, code := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("tsne: exit %d: %s %s", code, errOut, out)
	}
	sum := lastJSON(t, out)
	runs, _ := sum["runs"].(map[string]any)
	for _, m := range []string{"pdn", "gat"} {
		r, _ := runs[m].(map[string]any)
		for _, k := range []string{"separation", "hidden_separation"} {
			if v, ok := r[k].(float64); !ok || v < 0 || v > 1 {
				t.Errorf("%s %s = %v, want an agreement in [0, 1]", m, k, r[k])
			}
		}
	}
	csv, err := os.ReadFile(filepath.Join(dir, "tsne.csv"))
	if err != nil {
		t.Fatal(err)
	}
	edges, _ := sum["edges"].(float64)
	if lines := strings.Count(string(csv), "\n"); !strings.HasPrefix(string(csv), "run,edge,kind,x,y\n") || lines != 1+2*int(edges) {
		t.Errorf("tsne.csv has %d lines for %v edges a run:\n%.200s", lines, edges, csv)
	}
	if svg, err := os.ReadFile(filepath.Join(dir, "tsne.svg")); err != nil || strings.Count(string(svg), `class="edge-point"`) != 2*int(edges) {
		t.Errorf("tsne.svg: %v, %d points", err, strings.Count(string(svg), `class="edge-point"`))
	}
	again, _, _ := runCLI(t, append(args[:len(args)-3], "-out", t.TempDir(), "-json")...)
	if a, b := lastJSON(t, again)["runs"], sum["runs"]; fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("two runs of one state: %v, then %v", b, a)
	}
}

func TestDegreeAndRuntimeRun(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := runCLI(t, "degree", "-per-class", "40", "-epochs", "5", "-out", dir, "-json")
	if code != 0 || !strings.Contains(out, "gat") {
		t.Fatalf("degree: exit %d: %s %s", code, errOut, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "degree.svg")); err != nil {
		t.Error(err)
	}
	out, errOut, code = runCLI(t, "runtime", "-nodes", "256", "-epochs", "1", "-json")
	if code != 0 || !strings.Contains(out, "edge_features") {
		t.Fatalf("runtime: exit %d: %s", code, errOut)
	}
	points, _ := lastJSON(t, out)["points"].([]any)
	if len(points) != 10 {
		t.Fatalf("runtime: %d points, want 5 per sweep", len(points))
	}
	for _, p := range points {
		p := p.(map[string]any)
		inc, _ := p["increase_pct"].(map[string]any)
		per, _ := p["extra_ns_per_edge"].(map[string]any)
		paper, _ := p["paper_pct"].(map[string]any)
		if edges, _ := p["edges"].(float64); edges <= 0 || len(inc) != 3 || len(per) != 3 || len(paper) != 3 {
			t.Errorf("runtime point %v lacks a model", p)
		}
	}
	if paper := points[0].(map[string]any)["paper_pct"].(map[string]any); paper["glm"] != 27.374 {
		t.Errorf("first point beside paper %v, want Figure 6's 27.374 for the GLM", paper)
	}
}

func TestExperimentFlagsAreChecked(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"sweep", "-scenario", "9", "-out", "x"}, "want [1, 8]"},
		{[]string{"sweep", "-scenario", "1"}, "-out"},
		{[]string{"sweep", "-scenario", "1", "-out", "x", "-models", "pdn,foo"}, "-models"},
		{[]string{"sweep", "-scenario", "1", "-out", "x", "-reps", "0"}, "-reps"},
		{[]string{"xor", "-trials", "0"}, "-trials"},
		{[]string{"runtime", "-nodes", "3"}, "-nodes"},
		{[]string{"degree", "-out", "x", "-attach", "0"}, "-attach"},
	} {
		_, errOut, code := runCLI(t, tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}

// pdn table4 writes a CSV row per graph, rep and model, an SVG, and the
// paper's value beside each mean.
func TestTable4(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := runCLI(t, "table4", "-reps", "2", "-epochs", "3", "-models", "gcn,mlp", "-out", dir, "-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var sum table4Summary
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &sum); err != nil {
		t.Fatal(err)
	}
	for _, g := range []string{"cora", "citeseer"} {
		for _, m := range []string{"gcn", "mlp"} {
			r := sum.Results[g][m]
			if !r.Mean.Valid() || r.Paper == nil || float64(*r.Paper) != datasets.Table4[g][m] {
				t.Errorf("%s %s: %+v", g, m, r)
			}
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "table4.csv"))
	if err != nil || strings.Count(string(b), "\n") != 1+2*2*2 || !strings.HasPrefix(string(b), "graph,model,rep,test_accuracy,paper,paper_mark\n") {
		t.Errorf("table4.csv: %v\n%s", err, b)
	}
	for _, row := range strings.Split(strings.TrimSpace(string(b)), "\n")[1:] {
		f := strings.Split(row, ",")
		if want := string(sum.Results[f[0]][f[1]].Mark); len(f) != 6 || f[5] != want || want == "" {
			t.Errorf("table4.csv row %q: want its cell's mark %q", row, want)
		}
	}
	if svg, err := os.ReadFile(filepath.Join(dir, "table4.svg")); err != nil || strings.Count(string(svg), "data-series=") != 4 {
		t.Errorf("table4.svg: %v", err)
	}
}

// pdn table4 -validation N is held to what each graph can give (half its
// test nodes, a test node a class left): above it, refused before any
// training and before its folder is made, naming the flag, the graph and
// the largest N; at it, trained, the protocol saying N (once capped
// without a word: -validation 2708 on Cora's 2008 test nodes said 2708).
func TestTable4ValidationWithinTheTestNodes(t *testing.T) {
	root := t.TempDir()
	graph := filepath.Join(root, "g")
	if _, errOut, code := runCLI(t, "gen", "-per-class", "16", "-out", graph); code != 0 {
		t.Fatalf("gen: %s", errOut)
	}
	g, err := datasets.ReadBundle(graph)
	if err != nil {
		t.Fatal(err)
	}
	test := len(g.Nodes(datasets.Test))
	most := min(test/2, test-g.C)
	for _, c := range []struct {
		name string
		n    int
		code int
		want string
	}{
		{"the test nodes and more", test + 10, 2, fmt.Sprintf("flag -validation: %d validation nodes are more than graph g can give", test+10)},
		{"all the test nodes but one", test - 1, 2, fmt.Sprintf("the largest -validation it allows is %d", most)},
		{"one above the largest", most + 1, 2, fmt.Sprintf("the largest -validation it allows is %d", most)},
		{"the largest", most, 0, fmt.Sprintf("on %d validation nodes", most)},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(root, fmt.Sprint("v", c.n))
			stdout, errOut, code := runCLI(t, "table4", "-datasets", graph, "-reps", "1", "-epochs", "2", "-models", "gcn", "-validation", fmt.Sprint(c.n), "-out", out)
			if code != c.code || !strings.Contains(stdout+errOut, c.want) {
				t.Errorf("-validation %d: exit %d, %q; want %d and %q", c.n, code, stdout+errOut, c.code, c.want)
			}
			if _, err := os.Stat(out); c.code != 0 && err == nil {
				t.Errorf("-validation %d: refused, but %s was made", c.n, out)
			}
		})
	}
}

// pdn attention writes Figure 8's attention (a distribution over the 11
// named scores) and Figure 7's hop weights after every epoch.
func TestAttention(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := runCLI(t, "attention", "-datasets", "cora", "-reps", "2", "-epochs", "4", "-hops", "3", "-out", dir, "-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var sum attentionSummary
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &sum); err != nil {
		t.Fatal(err)
	}
	ga := sum.Graphs["cora"]
	total := 0.0
	for _, a := range ga.Attention {
		total += a
	}
	if len(ga.Attention) != len(datasets.TieStrengthNames) || math.Abs(total-1) > 1e-9 {
		t.Errorf("attention %v sums to %v", ga.Attention, total)
	}
	if len(ga.HopWeights) != 4 || len(ga.HopWeights[3]) != 3 || len(ga.TestAcc) != 4 {
		t.Errorf("hop weights %v", ga.HopWeights)
	}
	// All 11 scores, ranked, each beside what Figure 8's text says of it.
	ranked := out[strings.Index(out, "Figure 8 on cora"):]
	for _, n := range datasets.TieStrengthNames {
		says := map[string]string{"degree-product": "low", "common-neighbours": "low", "association-strength": "high", "min-overlap": "high"}[n]
		if sum.PaperSays[n] != says {
			t.Errorf("paper_says[%s] = %q, want %q", n, sum.PaperSays[n], says)
		}
		if says == "" {
			says = "not named"
		}
		if !regexp.MustCompile(`(?m)^ *\d+\. ` + n + ` .* the paper: ` + says + `$`).MatchString(ranked) {
			t.Errorf("the ranked list lacks %s beside the paper's %q:\n%s", n, says, ranked)
		}
	}
	for _, f := range []string{"attention.csv", "attention.svg", "hops.csv", "hops-cora.svg"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// Scenario 6 sweeps only the edge features: a model that does not read
// them is trained once a rep, and its results are what training it afresh
// at each value gives, bit for bit; the PDN is trained at every value.
func TestSweepTrainsOnceWhatEdgeFeaturesDoNotChange(t *testing.T) {
	s, err := experiment.PaperScenario(6)
	if err != nil {
		t.Fatal(err)
	}
	base := experiment.Default()
	base.Data.PerClass, base.Train.Epochs = 24, 8
	sw := experiment.Sweep{Scenario: s, Models: []string{"pdn", "gcn", "clustergcn", "deepwalk"}, Reps: 2, Base: base}
	res, _, trained, err := runSweep([]experiment.Sweep{sw}, 2, shard{}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	for v := range s.Values {
		for r := range sw.Reps {
			for m, kind := range sw.Models {
				e, _ := sw.Exp(v, r, kind)
				g, err := datasets.Synthetic(e.Data)
				if err != nil {
					t.Fatal(err)
				}
				want, _, err := finalResult(g, e)
				if err != nil {
					t.Fatal(err)
				}
				if got := res[0][sw.Index(v, r, m)]; !got.Done || math.Float64bits(got.Acc) != math.Float64bits(want) {
					t.Errorf("%s at %s = %v, rep %d: %v from the sweep, %v trained afresh", kind, s.Param, s.Values[v], r+1, got, want)
				}
			}
		}
	}
	// Each rep: the PDN at each value, each other model once.
	if want := sw.Reps * (len(s.Values) + len(sw.Models) - 1); trained != want {
		t.Errorf("the sweep trained %d runs, want %d", trained, want)
	}
}

// Several scenarios swept at once give each scenario's results as swept
// alone, bit for bit, and a run they share (the default graph is a point
// of scenarios 1 and 5) trains once.
func TestSweepOfSeveralScenariosTrainsSharedRunsOnce(t *testing.T) {
	base := experiment.Default()
	base.Data.PerClass, base.Train.Epochs = 24, 4
	var sws []experiment.Sweep
	for _, pt := range []struct {
		k      int
		values []float64
	}{{1, []float64{3, 4}}, {5, []float64{32, 64}}} {
		s, err := experiment.PaperScenario(pt.k)
		if err != nil {
			t.Fatal(err)
		}
		s.Values = pt.values
		sws = append(sws, experiment.Sweep{Scenario: s, Models: []string{"pdn", "gcn"}, Reps: 2, Base: base})
	}
	res, _, trained, err := runSweep(sws, 2, shard{}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	for i, sw := range sws {
		alone, _, _, err := runSweep([]experiment.Sweep{sw}, 1, shard{}, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.EqualFunc(res[i], alone[0], func(a, b experiment.Result) bool {
			return a.Done && b.Done && math.Float64bits(a.Acc) == math.Float64bits(b.Acc)
		}) {
			t.Errorf("scenario %d: %v together, %v alone", sw.Scenario.Number, res[i], alone[0])
		}
	}
	// 2 models × 2 reps × (2 + 2 values − the default, shared).
	if want := 2 * 2 * 3; trained != want {
		t.Errorf("trained %d runs, want %d", trained, want)
	}
}

// pdn sweep -scenario 8,6 -json writes both scenarios' files and ends with
// one JSON object holding both summaries, in the order asked.
func TestSweepOfSeveralScenariosJSON(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := runCLI(t, "sweep", "-scenario", "8,6", "-reps", "1", "-models", "gcn,mlp", "-epochs", "2", "-out", dir, "-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	sums, _ := lastJSON(t, out)["scenarios"].([]any)
	if len(sums) != 2 {
		t.Fatalf("%d summaries, want 2:\n%s", len(sums), out)
	}
	for i, k := range []float64{8, 6} {
		if got := sums[i].(map[string]any)["scenario"]; got != k {
			t.Errorf("summary %d is scenario %v, want %v", i, got, k)
		}
		if _, err := os.Stat(filepath.Join(dir, fmt.Sprintf("scenario%v.csv", k))); err != nil {
			t.Error(err)
		}
	}
}

// pdn table4 marks each cell whose mean is more than 2 of our standard
// deviations from the paper's number (!), says a mark cannot be computed
// from one rep (?) rather than guess one, reads a graph of Facebook
// Page-Page's shape under any folder name as the paper's Facebook column,
// and carries the marks to the CSV.
func TestTable4MarksCellsAgainstThePaper(t *testing.T) {
	paper := datasets.Table4
	for _, c := range []struct {
		name    string
		job     table4Job
		acc     [][][]float64 // [graph][rep][model]
		want    map[string]datasets.Mark
		printed []string
	}{
		{"within and beyond", table4Job{Graphs: []string{"cora"}, Models: []string{"gcn", "mlp"}, Reps: 2},
			[][][]float64{{{paper["cora"]["gcn"] - 0.01, 0.60}, {paper["cora"]["gcn"] + 0.01, 0.61}}},
			map[string]datasets.Mark{"cora gcn": datasets.MarkWithin, "cora mlp": datasets.MarkBeyond},
			[]string{fmt.Sprintf("(%.3f)!", paper["cora"]["mlp"]), "!: the paper's number is more than 2 standard deviations"}},
		{"one rep", table4Job{Graphs: []string{"cora"}, Models: []string{"gcn"}, Reps: 1},
			[][][]float64{{{0.5}}},
			map[string]datasets.Mark{"cora gcn": datasets.MarkUnknown},
			[]string{fmt.Sprintf("0.500±– (%.3f)?", paper["cora"]["gcn"]), "the mark cannot be computed"}},
		{"Facebook under its folder's name", table4Job{Graphs: []string{"musae_facebook", "mine"}, Columns: []string{"facebook", ""}, Models: []string{"pdn"}, Reps: 2},
			[][][]float64{{{0.86}, {0.87}}, {{0.5}, {0.6}}},
			map[string]datasets.Mark{"musae_facebook pdn": datasets.MarkWithin, "mine pdn": datasets.MarkNoPaper},
			[]string{fmt.Sprintf("(%.3f)", paper["facebook"]["pdn"]), "musae_facebook is the graph of the paper's Facebook Page-Page column"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			sum := summariseTable4(c.job, c.acc)
			for cell, want := range c.want {
				g, m, _ := strings.Cut(cell, " ")
				if got := sum.Results[g][m].Mark; got != want {
					t.Errorf("%s: mark %q, want %q", cell, got, want)
				}
			}
			var b strings.Builder
			printTable4(&b, sum)
			for _, p := range c.printed {
				if !strings.Contains(b.String(), p) {
					t.Errorf("the table does not say %q:\n%s", p, b.String())
				}
			}
		})
	}
}
