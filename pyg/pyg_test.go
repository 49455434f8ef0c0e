package pyg_test

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/internal/outdir"
	"pdnexplorer/lessons"
	"pdnexplorer/pdn"
	"pdnexplorer/pyg"
	"pdnexplorer/pyg/pygtest"
)

// trained trains kind on the default graph (or one of perClass nodes a
// class) for epochs.
func trained(t testing.TB, kind string, perClass, epochs int) (*datasets.Graph, *pdn.Trainer) {
	t.Helper()
	e := experiment.Default()
	e.Model.Kind, e.Train.Epochs = kind, epochs
	if perClass > 0 {
		e.Data.PerClass = perClass
	}
	return trainedAs(t, e)
}

// trainedAs trains e to its last epoch.
func trainedAs(t testing.TB, e experiment.Experiment) (*datasets.Graph, *pdn.Trainer) {
	t.Helper()
	g, err := datasets.Build(e.Data)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := lessons.TrainAll(g, e)
	if err != nil {
		t.Fatal(err)
	}
	return g, tr
}

func runOf(t testing.TB, tr *pdn.Trainer) pyg.Run {
	t.Helper()
	r, err := pyg.RunOf(tr)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// inPyG trains e, exports the run and runs its script in PyG with args:
// the graph, the run and the script's JSON line.
func inPyG(t *testing.T, python string, env []string, e experiment.Experiment, args ...string) (*datasets.Graph, pyg.Run, map[string]any) {
	t.Helper()
	g, tr := trainedAs(t, e)
	r := runOf(t, tr)
	dir := t.TempDir()
	if err := writeDir(dir, g, r); err != nil {
		t.Fatal(err)
	}
	return g, r, pygtest.Run(t, python, env, filepath.Join(dir, pyg.ScriptFile), args...)
}

// runJSON is the script's RUN, as the script reads it.
func runJSON(t *testing.T, script []byte) map[string]any {
	t.Helper()
	m := regexp.MustCompile(`(?s)RUN = json\.loads\(r"""(.*?)"""\)`).FindSubmatch(script)
	if m == nil {
		t.Fatal("the script has no RUN")
	}
	var run map[string]any
	if err := json.Unmarshal(m[1], &run); err != nil {
		t.Fatalf("RUN is not JSON: %v\n%s", err, m[1])
	}
	return run
}

// TestScriptCarriesTheRun checks that run_pyg.py holds the run's model and
// hyperparameters, with the restarts' own seed never taking the run's.
func TestScriptCarriesTheRun(t *testing.T) {
	e := experiment.Default()
	e.Data.PerClass = 32
	e.Model.EdgeHidden, e.Model.EdgeInit, e.Model.Restarts, e.Model.RestartEpochs = []int{4, 2}, experiment.InitAlive, 2, 3
	e.Train.Epochs, e.Train.LR, e.Train.WeightDecay, e.Train.Seed = 6, 0.02, 0.005, 7
	_, tr := trainedAs(t, e)
	script, err := pyg.Script(runOf(t, tr))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(script, []byte("{{")) {
		t.Error("the script keeps a template's braces")
	}
	run := runJSON(t, script)
	want := map[string]any{"model": "pdn", "edge_init": "alive", "lr": 0.02, "weight_decay": 0.005, "epochs": 6.0, "seed": 7.0,
		"restarts": 2.0, "restart_epochs": 3.0, "hidden": 32.0, "dropout": e.Model.Dropout, "edge_drop": e.Model.EdgeDrop, "exported_epoch": 6.0}
	for k, v := range want {
		if run[k] != v {
			t.Errorf("RUN[%s] = %v, want %v", k, run[k], v)
		}
	}
	if h, _ := run["edge_hidden"].([]any); len(h) != 2 || h[0] != 4.0 || h[1] != 2.0 {
		t.Errorf("RUN[edge_hidden] = %v", run["edge_hidden"])
	}
	if s, _ := run["state"].(string); !strings.Contains(s, "restarts=2") || strings.Contains(s, `\u0026`) {
		t.Errorf("RUN[state] = %q, want the run's link as it reads", s)
	}
}

// TestWeightsReadBack checks that weights.json holds every parameter by
// name and shape, each value reading back to its float64 bits.
func TestWeightsReadBack(t *testing.T) {
	_, tr := trained(t, experiment.PDN, 32, 5)
	r := runOf(t, tr)
	b, err := pyg.Weights(r)
	if err != nil {
		t.Fatal(err)
	}
	var w struct {
		Model        string
		Epoch        int
		TestAccuracy float64 `json:"test_accuracy"`
		Parameters   []struct {
			Name   string
			Shape  []int
			Values []float64
		}
	}
	if err := json.Unmarshal(b, &w); err != nil {
		t.Fatal(err)
	}
	if w.Model != "pdn" || w.Epoch != 5 || w.TestAccuracy != r.TestAccuracy || len(w.Parameters) != len(r.Params) {
		t.Fatalf("weights.json: model %s, epoch %d, accuracy %v, %d parameters; want pdn, 5, %v, %d",
			w.Model, w.Epoch, w.TestAccuracy, len(w.Parameters), r.TestAccuracy, len(r.Params))
	}
	for i, p := range w.Parameters {
		q := r.Params[i]
		if p.Name != q.Name || !slices.Equal(p.Shape, q.Shape) || !slices.Equal(p.Values, q.Values) {
			t.Errorf("parameter %d reads back as %s %v (%d values), want %s %v", i, p.Name, p.Shape, len(p.Values), q.Name, q.Shape)
		}
	}
	r.Params[0].Values[3] = math.NaN()
	if _, err := pyg.Weights(r); err == nil || !strings.Contains(err.Error(), r.Params[0].Name) {
		t.Errorf("a NaN weight: err %v, want a refusal naming the parameter", err)
	}
}

// TestExportOpensAsAGraph checks both forms of an export: the folder the
// CLI writes and the zip the page saves hold the script, the weights and
// a graph the explorer opens again.
func TestExportOpensAsAGraph(t *testing.T) {
	g, tr := trained(t, experiment.GCN, 32, 3)
	r := runOf(t, tr)
	dir := t.TempDir()
	if err := writeDir(dir, g, r); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{pyg.ScriptFile, pyg.WeightsFile, pyg.ReadmeFile, pyg.GraphFolder + "/meta.json"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("the folder lacks %s", name)
		}
	}
	back, err := datasets.Load(dir, experiment.Default().Data, false)
	if err != nil || back.N != g.N || back.E() != g.E() {
		t.Errorf("the export folder opens as %v: %v", back, err)
	}
	var b bytes.Buffer
	if err := pyg.WriteZip(&b, "run", g, r); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
	}
	for _, want := range []string{"run/run_pyg.py", "run/weights.json", "run/README.txt", "run/graph/nodes.csv", "run/graph/edges.csv", "run/graph/meta.json"} {
		if !slices.Contains(names, want) {
			t.Errorf("the zip lacks %s (holds %v)", want, names)
		}
	}
	back, _, err = datasets.OpenFiles([]datasets.File{{Name: "run.zip", Data: b.Bytes()}}, datasets.Columns{})
	if err != nil || back.N != g.N || back.E() != g.E() {
		t.Errorf("the export zip opens as %v: %v", back, err)
	}
}

// TestPyGReproducesTheRun runs the export's script in PyTorch Geometric
// (skipped without torch): for every kind the export covers, the
// explorer's weights give the explorer's test accuracy there (the same
// architecture, to the last prediction), and on the default graph the
// default PDN trained afresh in PyG lands within 0.03 of the explorer's.
func TestPyGReproducesTheRun(t *testing.T) {
	python, env := pygtest.Python(t)
	for _, kind := range pdn.Exportable {
		t.Run(kind, func(t *testing.T) {
			perClass, epochs, args := 64, 30, []string{"--epochs", "2"}
			if kind == experiment.PDN {
				perClass, epochs, args = 0, experiment.Default().Train.Epochs, nil // the default graph and run
			}
			g, tr := trained(t, kind, perClass, epochs)
			r := runOf(t, tr)
			dir := t.TempDir()
			if err := writeDir(dir, g, r); err != nil {
				t.Fatal(err)
			}
			out := pygtest.Run(t, python, env, filepath.Join(dir, pyg.ScriptFile), args...)
			if got, _ := out["exported_test_accuracy"].(float64); math.Abs(got-r.TestAccuracy) > 1e-9 {
				t.Errorf("the explorer's weights give %v in PyG, %v in the explorer", got, r.TestAccuracy)
			}
			if args != nil {
				return
			}
			if got, _ := out["test_accuracy"].(float64); math.Abs(got-r.TestAccuracy) > 0.03 {
				t.Errorf("trained in PyG: test accuracy %v, the explorer's %v: more than 0.03 apart", got, r.TestAccuracy)
			}
		})
	}
	// The self-loop rule of the bag-of-words recipe, on every kind that
	// reads it: PyG computes the same coefficients (run_pyg.py's
	// mean_loop_norm), to the last prediction, and trains to near ours.
	for _, kind := range pdn.Exportable {
		if m, _ := experiment.ModelNamed(kind); !slices.Contains(m.Rows, "self-loop") {
			continue
		}
		t.Run(kind+"/self-loop=mean", func(t *testing.T) {
			e := experiment.Default()
			e.Model.Kind, e.Model.SelfLoop = kind, experiment.SelfLoopMean
			_, r, out := inPyG(t, python, env, e)
			if got, _ := out["exported_test_accuracy"].(float64); math.Abs(got-r.TestAccuracy) > 1e-9 {
				t.Errorf("under mean self-loops the explorer's weights give %v in PyG, %v in the explorer", got, r.TestAccuracy)
			}
			if got, _ := out["test_accuracy"].(float64); math.Abs(got-r.TestAccuracy) > 0.03 {
				t.Errorf("under mean self-loops, trained in PyG: %v, the explorer's %v", got, r.TestAccuracy)
			}
		})
	}
}

// Over a PDN's learned graph under mean self-loops, each model takes that
// PDN's rule: the explorer's weights give its accuracy in PyG to the last
// prediction (skipped without torch).
func TestPyGTakesPDNsGraphUnderMeanSelfLoops(t *testing.T) {
	python, env := pygtest.Python(t)
	for _, kind := range experiment.TransferModels {
		t.Run(kind, func(t *testing.T) {
			e := experiment.Default()
			e.Data.PerClass, e.Train.Epochs = 64, 40
			e.Model.Kind, e.Model.GraphFrom, e.Model.SelfLoop = kind, experiment.FromPDN, experiment.SelfLoopMean
			_, r, out := inPyG(t, python, env, e, "--epochs", "2")
			if got, _ := out["exported_test_accuracy"].(float64); math.Abs(got-r.TestAccuracy) > 1e-9 {
				t.Errorf("over PDN's graph under mean self-loops the explorer's weights give %v in PyG, %v in the explorer", got, r.TestAccuracy)
			}
		})
	}
}

// A model over PDN's learned graph (graph-from=pdn) exports that graph
// in weights.json, and PyG propagates over it: the explorer's weights give
// the explorer's test accuracy there, and trained afresh in PyG over the
// same frozen graph it lands near it (skipped without torch).
func TestPyGTakesPDNsLearnedGraph(t *testing.T) {
	python, env := pygtest.Python(t)
	for _, kind := range experiment.TransferModels {
		t.Run(kind, func(t *testing.T) {
			e := experiment.Default()
			e.Model.Kind, e.Model.GraphFrom = kind, experiment.FromPDN // the default graph and run
			g, r, out := inPyG(t, python, env, e)
			if len(r.GraphWeight) != g.E() {
				t.Fatalf("the run carries %d graph weights for %d edges", len(r.GraphWeight), g.E())
			}
			if got, _ := out["exported_test_accuracy"].(float64); math.Abs(got-r.TestAccuracy) > 1e-9 {
				t.Errorf("the explorer's weights over PDN's graph give %v in PyG, %v in the explorer", got, r.TestAccuracy)
			}
			if got, _ := out["test_accuracy"].(float64); math.Abs(got-r.TestAccuracy) > 0.03 {
				t.Errorf("trained in PyG over PDN's graph: %v, the explorer's %v", got, r.TestAccuracy)
			}
		})
	}
}

// TestPyGSelectsOnValidation checks that the script reads a run at its
// epoch of best validation accuracy where the bundle has validation nodes
// (skipped without torch).
func TestPyGSelectsOnValidation(t *testing.T) {
	python, env := pygtest.Python(t)
	e := experiment.Default()
	e.Model.Kind, e.Data.PerClass, e.Train.Epochs = experiment.GCN, 64, 20
	g, err := datasets.Build(e.Data)
	if err != nil {
		t.Fatal(err)
	}
	datasets.HoldOut(g, 10, 1)
	tr, err := pdn.NewTrainer(g, e)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lessons.TrainSelected(tr); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := writeDir(dir, g, runOf(t, tr)); err != nil {
		t.Fatal(err)
	}
	out := pygtest.Run(t, python, env, filepath.Join(dir, pyg.ScriptFile), "--weights", "none")
	acc, _ := out["test_accuracy_at_best_validation"].(float64)
	at, _ := out["best_validation_epoch"].(float64)
	if out["validation_nodes"] != 10.0 || acc <= 0 || acc > 1 || at < 1 || at > 20 {
		t.Errorf("validation: %v nodes, best at epoch %v, test accuracy there %v", out["validation_nodes"], at, acc)
	}
}

// writeDir writes the export of r on g into dir, as a test's fixture.
func writeDir(dir string, g *datasets.Graph, r pyg.Run) error {
	tree, err := outdir.NewTree(dir)
	if err != nil {
		return err
	}
	return pyg.WriteFiles(g, r, tree.Create)
}

// A graph with nodes without a class exports them as label -1 in the
// split unlabelled, reads back the same, and the script keeps them out of
// every mask (PyG's y = -1): the explorer's weights give the explorer's
// test accuracy there, which counts only nodes with a class (the PyG run
// is skipped without torch).
func TestExportKeepsUnlabelledOut(t *testing.T) {
	src := t.TempDir()
	var labels, edges strings.Builder
	labels.WriteString("node,label\n")
	for i := range 120 {
		class := []string{"a", "b", "c"}[i%3]
		if i%10 == 9 {
			class = []string{"", "NA", "-1"}[i%3]
		}
		labels.WriteString(strings.Join([]string{itoa(i), class}, ",") + "\n")
		edges.WriteString(itoa(i) + "," + itoa((i+1)%120) + "\n" + itoa(i) + "," + itoa((i+3)%120) + "\n")
	}
	os.WriteFile(filepath.Join(src, "labels.csv"), []byte(labels.String()), 0o644)
	os.WriteFile(filepath.Join(src, "edges.csv"), []byte(edges.String()), 0o644)
	e := experiment.Default()
	e.Model.Kind, e.Train.Epochs, e.Data.Shots = experiment.GCN, 3, 10
	g, err := datasets.Load(src, e.Data, false)
	if err != nil {
		t.Fatal(err)
	}
	if g.Unlabelled() != 12 {
		t.Fatalf("%d nodes without a class, want 12", g.Unlabelled())
	}
	tr, err := lessons.TrainAll(g, e)
	if err != nil {
		t.Fatal(err)
	}
	r := runOf(t, tr)
	dir := t.TempDir()
	if err := writeDir(dir, g, r); err != nil {
		t.Fatal(err)
	}
	back, err := datasets.Load(dir, e.Data, false)
	if err != nil || !slices.Equal(back.Labels, g.Labels) || !slices.Equal(back.Splits, g.Splits) {
		t.Fatalf("the export reads back as %v: %v", back, err)
	}
	python, env := pygtest.Python(t)
	out := pygtest.Run(t, python, env, filepath.Join(dir, pyg.ScriptFile), "--epochs", "2")
	if got, _ := out["exported_test_accuracy"].(float64); math.Abs(got-r.TestAccuracy) > 1e-9 {
		t.Errorf("the explorer's weights give %v in PyG, %v in the explorer", got, r.TestAccuracy)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// argumentCases are run_pyg.py's arguments, each with what it must refuse
// (exit 2, one line on stderr naming the argument, the JSON error line)
// and what it takes. TestScriptArgumentsAreChecked fails on an argument
// of the script without its row here. Audit 10 (--epochs -1 and 0 trained
// nothing and said trained), 93 and 94 (--weights, --bundle), 161 (--seed
// -5, now outside the explorer's seeds).
var argumentCases = []struct {
	arg     string
	row     string   // the state table's row whose range it takes, if any
	refused []string // values, or for a flag whole arguments
	taken   []string
}{
	{arg: "--epochs", row: "epochs", refused: []string{"-1", "0", "100001", "1e3", "1.0", "0x10", "1_000", "nan", "inf", "٥", ""}, taken: []string{"1", "+2"}},
	{arg: "--seed", row: "init-seed", refused: []string{"-5", "9007199254740992", "0x1", "1.5", "NaN", "1 2"}, taken: []string{"0", "9007199254740991"}},
	{arg: "--lr", row: "lr", refused: []string{"0", "11", "-0.01", "nan", "inf", "-Infinity", "0x1p-2", "1e999", "1_0", "1,5"}, taken: []string{"1e-6", "10", ".5"}},
	{arg: "--weight-decay", row: "weight-decay", refused: []string{"-0.1", "1.5", "nan", "inf", "5e"}, taken: []string{"0", "1"}},
	{arg: "--threads", refused: []string{"0", "1025", "1.0", "two"}, taken: []string{"1", "2"}},
	{arg: "--float32", refused: []string{"--float32=1", "--float32=false"}, taken: []string{"--float32"}},
	{arg: "--bundle", refused: []string{"/nonexistent", "@weights.json", "@"}, taken: []string{"@graph"}},
	{arg: "--weights", refused: []string{"/nonexistent", "@graph"}, taken: []string{"none", "@weights.json"}},
}

// scriptArguments are the arguments run_pyg.py defines.
func scriptArguments(t *testing.T) []string {
	t.Helper()
	src, err := os.ReadFile(pyg.ScriptFile)
	if err != nil {
		t.Fatal(err)
	}
	var args []string
	for _, m := range regexp.MustCompile(`add_argument\("(--[a-z0-9-]+)"`).FindAllSubmatch(src, -1) {
		args = append(args, string(m[1]))
	}
	if len(args) == 0 {
		t.Fatal("no add_argument in run_pyg.py")
	}
	return args
}

// argv is the arguments of one case: a flag's case is whole, another's a
// value of arg ("@name" a file of the export folder dir, "@" the folder),
// after = where it begins with a minus.
func argv(arg, v, dir string) []string {
	if strings.HasPrefix(v, "--") {
		return []string{v}
	}
	if strings.HasPrefix(v, "@") {
		v = filepath.Join(dir, v[1:])
	}
	if strings.HasPrefix(v, "-") { // else argparse takes -Infinity for an option
		return []string{arg + "=" + v}
	}
	return []string{arg, v}
}

// TestScriptArgumentsAreChecked runs run_pyg.py with every value of
// argumentCases: each refused one ends the run before torch loads (so any
// Python runs these), with exit status 2 and one line that names the
// argument and, for a number, the range of its row in the state table;
// an argument given twice, abbreviated or unknown is refused too. The
// values it takes are run in PyTorch Geometric (skipped without torch),
// one run for the k-th value of every argument.
func TestScriptArgumentsAreChecked(t *testing.T) {
	var covered []string
	for _, c := range argumentCases {
		covered = append(covered, c.arg)
	}
	for _, arg := range scriptArguments(t) {
		if !slices.Contains(covered, arg) {
			t.Errorf("run_pyg.py's %s has no row in argumentCases: say what it refuses and takes", arg)
		}
	}
	g, tr := trained(t, experiment.MLP, 16, 2)
	dir := t.TempDir()
	if err := writeDir(dir, g, runOf(t, tr)); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, pyg.ScriptFile)
	python := anyPython(t)
	refused := func(args []string, name, want string) {
		t.Helper()
		cmd := exec.Command(python, append([]string{script}, args...)...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := -1
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		msg := strings.TrimSpace(stderr.String())
		if code != 2 || strings.Contains(msg, "\n") || !strings.Contains(msg, name) || !strings.Contains(msg, want) {
			t.Errorf("run_pyg.py %q: exit %d, %q; want 2 and one line naming %s and %q", args, code, msg, name, want)
		}
		if !strings.Contains(stdout.String(), `"error"`) {
			t.Errorf("run_pyg.py %q: no JSON error line on stdout: %q", args, stdout.String())
		}
	}
	for _, c := range argumentCases {
		want := ""
		if c.row != "" {
			p, ok := experiment.Lookup(c.row)
			if !ok {
				t.Fatalf("%s: no row %s", c.arg, c.row)
			}
			want = p.Range()
		}
		for _, v := range c.refused {
			refused(argv(c.arg, v, dir), c.arg, want)
		}
		twice := append(argv(c.arg, c.taken[0], dir), argv(c.arg, c.taken[0], dir)...)
		refused(twice, c.arg, "given twice")
	}
	refused([]string{"--ep", "5"}, "--ep", "unrecognized")
	refused([]string{"--nosuch"}, "--nosuch", "unrecognized")
	refused([]string{"extra"}, "extra", "unrecognized")
	refused([]string{"--epochs"}, "--epochs", "expected one argument")

	pyPython, env := pygtest.Python(t)
	for k := 0; ; k++ {
		var args []string
		for _, c := range argumentCases {
			if k < len(c.taken) {
				args = append(args, argv(c.arg, c.taken[k], dir)...)
			}
		}
		if args == nil {
			break
		}
		if !slices.Contains(args, "--epochs") {
			args = append(args, "--epochs", "1")
		}
		out := pygtest.Run(t, pyPython, env, script, args...)
		if _, ok := out["test_accuracy"]; !ok {
			t.Errorf("run_pyg.py %q: %v, want a trained run", args, out)
		}
	}
}

// anyPython is a Python 3 to run the script's refusals, which need no
// torch: PDN_PYTHON, else python3; the test skips without one.
func anyPython(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("PDN_PYTHON"); p != "" {
		return p
	}
	p, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 to run run_pyg.py")
	}
	return p
}

// The export's graph holds the tie-strength scores the explorer trained
// on, scaled where they were made (datasets.TieStrength), to the bit: so
// run_pyg.py, which reads edges.csv's columns as they are, feeds PyG's
// pathfinder what the explorer's saw and scales nothing itself. Were the
// scaling done anywhere after the graph (in the engine, say), the export
// would carry the raw scores and this would fail.
func TestExportCarriesTheScaledScores(t *testing.T) {
	e := experiment.Default()
	e.Data.Graph, e.Model.Kind, e.Train.Epochs = experiment.GraphCora, experiment.PDN, 2
	g, tr := trainedAs(t, e)
	if g.Meta["edge_features"] != datasets.TieStrengthMeta {
		t.Fatalf("Cora's edge features are %v, not the tie-strength scores", g.Meta["edge_features"])
	}
	dir := t.TempDir()
	if err := writeDir(dir, g, runOf(t, tr)); err != nil {
		t.Fatal(err)
	}
	back, err := datasets.Load(filepath.Join(dir, pyg.GraphFolder), e.Data, false)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(back.EdgeX, g.EdgeX) || back.D != len(datasets.TieStrengthNames) {
		t.Fatalf("the exported scores are not the trained graph's bits")
	}
	// Scaled: each column's mean 0 over the edges (raw, every score is ≥ 0
	// but Pearson's, and the degree product's mean runs in the tens).
	for k, name := range datasets.TieStrengthNames {
		var sum float64
		for i := 0; i < back.E(); i++ {
			sum += back.EdgeX[i*back.D+k]
		}
		if m := sum / float64(back.E()); math.Abs(m) > 1e-9 {
			t.Errorf("%s: mean %v over the exported edges, not standardised", name, m)
		}
	}
}

// expectedLine reads the script's first line, what it expects the run to
// take: the epochs, the ms an epoch and the precision.
var expectedLine = regexp.MustCompile(`^expected: about [0-9.]+ (?:s|min [0-9]+ s|h [0-9]+ min) to train ([0-9]+) epochs \(([0-9]+) ms an epoch in (float64|float32) `)

// TestScriptSaysHowLongBeforeItStarts runs the script (any Python: it says
// it before torch loads) on a small and a larger graph: its first line
// says how long the run is expected to take, by its epochs, in the
// explorer's precision, float64, unless --float32 asks otherwise, which
// is expected faster; a larger graph is expected slower, and the same
// graph's epochs cost the same whatever their number.
func TestScriptSaysHowLongBeforeItStarts(t *testing.T) {
	python := anyPython(t)
	say := func(perClass int, args ...string) (epochs, ms int, precision string) {
		t.Helper()
		g, tr := trained(t, experiment.PDN, perClass, 2)
		dir := t.TempDir()
		if err := writeDir(dir, g, runOf(t, tr)); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(python, append([]string{filepath.Join(dir, pyg.ScriptFile), "--weights", "none", "--threads", "1"}, args...)...)
		out, _ := cmd.Output() // without torch it ends after saying it; with torch it trains these few epochs
		first, _, _ := strings.Cut(string(out), "\n")
		m := expectedLine.FindStringSubmatch(first)
		if m == nil {
			t.Fatalf("run_pyg.py %q: the first line %q does not say how long the run will take", args, first)
		}
		epochs, _ = strconv.Atoi(m[1])
		ms, _ = strconv.Atoi(m[2])
		return epochs, ms, m[3]
	}
	epochs, small, precision := say(16, "--epochs", "2")
	if epochs != 2 || precision != "float64" || small <= 0 {
		t.Errorf("by default: %d epochs at %d ms in %s; want 2, in float64, the explorer's precision", epochs, small, precision)
	}
	if _, again, _ := say(16, "--epochs", "4"); again != small {
		t.Errorf("4 epochs at %d ms each, 2 at %d: an epoch's cost depends on their number", again, small)
	}
	_, large, _ := say(256, "--epochs", "2")
	if large <= small {
		t.Errorf("16 times the nodes: %d ms an epoch, %d on the small graph", large, small)
	}
	if _, fast, p := say(256, "--epochs", "2", "--float32"); p != "float32" || fast >= large {
		t.Errorf("--float32: %d ms an epoch in %s, float64 %d; want float32, faster", fast, p, large)
	}
}
