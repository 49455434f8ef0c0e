package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/internal/numtext"
	"pdnexplorer/internal/outdir"
	"pdnexplorer/pyg"
	"pdnexplorer/pyg/pygtest"
)

// The PyG column's cells: mean ± SD over the reps PyG gave a result for,
// n said where some failed, "–" where none did, "no peer" where the export
// cannot express the model, each failed run a note naming graph, model and
// rep with the script's message, and the same figures in the -json and
// the CSV.
func TestTable4PyGColumn(t *testing.T) {
	nan := math.NaN()
	job := table4Job{Graphs: []string{"cora"}, Models: []string{"gcn", "mlp", "sgc", "pdn-edgeconv"}, Reps: 2}
	for _, c := range []struct {
		name   string
		acc    [][]float64 // [rep][model]
		failed [][]string
		cells  map[string]string     // model: its printed PyG cell
		json   map[string]*table4PyG // model: its -json pyg field
		notes  []string
		csv    map[string]string // model: the CSV's PyG columns of rep 1
	}{
		{"every rep", [][]float64{{0.8, 0.7, 0.6, nan}, {0.9, 0.7, 0.62, nan}}, nil,
			map[string]string{"gcn": "0.850±0.071", "mlp": "0.700±0.000", "sgc": "0.610±0.014", "pdn-edgeconv": "no peer"},
			map[string]*table4PyG{"gcn": {0.85, 0.0707, 2}, "mlp": {0.7, 0, 2}, "pdn-edgeconv": nil},
			[]string{"pdn-edgeconv: no PyG peer: the export covers "},
			map[string]string{"gcn": "0.8000,0.8500,0.0707,2", "pdn-edgeconv": ",,,"}},
		{"a rep failed", [][]float64{{0.8, nan, nan, nan}, {nan, 0.7, nan, nan}}, [][]string{{"", "", "sgc: out of memory", ""}, {"cannot read the bundle: x", "", "sgc: out of memory", ""}},
			map[string]string{"gcn": "0.800±– n=1", "mlp": "0.700±– n=1", "sgc": "–"},
			map[string]*table4PyG{"gcn": {0.8, 0, 1}, "sgc": {numtext.Num(nan), numtext.Num(nan), 0}},
			[]string{"cora, gcn, rep 2: the PyG run failed: cannot read the bundle: x", "cora, sgc, rep 1: the PyG run failed: sgc: out of memory", "cora, sgc, rep 2: the PyG run failed"},
			map[string]string{"gcn": "0.8000,0.8000,,1", "mlp": ",0.7000,,1", "sgc": ",,,0"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			col := newPyGColumn(job)
			for r := range job.Reps {
				copy(col.acc[0][r], c.acc[r])
				if c.failed != nil {
					copy(col.failed[0][r], c.failed[r])
				}
			}
			ours := [][][]float64{{{0.8, 0.7, 0.6, 0.85}, {0.81, 0.71, 0.61, 0.86}}}
			sum := summariseTable4(job, ours)
			col.summarise(job, &sum)
			var b strings.Builder
			printTable4(&b, sum)
			table := b.String()
			if !strings.Contains(table, "cora PyG") {
				t.Errorf("no PyG column in\n%s", table)
			}
			for kind, want := range c.cells {
				line := regexp.MustCompile(`(?m)^` + kind + ` .*$`).FindString(table)
				if !strings.HasSuffix(strings.TrimRight(line, " "), " "+want) {
					t.Errorf("%s's row %q; want its PyG cell %q", kind, line, want)
				}
			}
			for kind, want := range c.json {
				got := sum.Results["cora"][kind].PyG
				if (got == nil) != (want == nil) || got != nil && (got.N != want.N || !sameNum(got.Mean, want.Mean) || !sameNum(got.SD, want.SD)) {
					t.Errorf("%s: pyg %+v, want %+v", kind, got, want)
				}
			}
			js, err := json.Marshal(sum)
			if err != nil {
				t.Fatal(err) // NaN must be written as null
			}
			if want := `"pdn-edgeconv":{"mean":0.855,"sd":0.0071,"n":2,"paper":0.864,"mark":"within"}`; !strings.Contains(string(js), want) {
				t.Errorf("a model without a peer has a pyg field: %s", js)
			}
			for _, n := range c.notes {
				if !slices.ContainsFunc(sum.Notes, func(s string) bool { return strings.HasPrefix(s, n) }) || !strings.Contains(table, "note: "+n) {
					t.Errorf("no note %q in %q", n, sum.Notes)
				}
			}
			for kind, want := range c.csv {
				m := slices.Index(job.Models, kind)
				if got := strings.Join(pygCSV(col, sum.Results["cora"][kind], 0, 0, m), ","); got != want {
					t.Errorf("%s's CSV columns %q, want %q", kind, got, want)
				}
			}
		})
	}
	// Without -pyg the table is as it was: no column, no pyg field.
	sum := summariseTable4(job, [][][]float64{{{0.8, 0.7, 0.6, 0.85}, {0.81, 0.71, 0.61, 0.86}}})
	var b strings.Builder
	printTable4(&b, sum)
	if js, _ := json.Marshal(sum); strings.Contains(b.String(), "cora PyG") || strings.Contains(b.String(), "PyG column") || strings.Contains(string(js), `"pyg"`) {
		t.Errorf("a table without -pyg speaks of PyG:\n%s\n%s", b.String(), js)
	}
}

func sameNum(a, b numtext.Num) bool {
	return math.IsNaN(float64(a)) && math.IsNaN(float64(b)) || math.Abs(float64(a-b)) < 1e-9
}

// Each run of a model with a peer is exported, with its rep's seed and
// the settings it trained at, into the scratch folder, handed to the
// script there with --weights none, and the folder goes once read; a
// model without a peer is never exported, and a run the script refuses
// is its cell's note, not the table's end.
func TestTable4PyGRetrainsEachRun(t *testing.T) {
	scratch, err := outdir.NewTree(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	peer := &pygPeer{threads: 1, scratch: scratch}
	run := regexp.MustCompile(`"model": "([a-z-]+)",[\s\S]*"seed": (\d+),`)
	peer.train = func(dir string, args ...string) (pygReply, error) {
		script, err := os.ReadFile(filepath.Join(dir, pyg.ScriptFile))
		if err != nil {
			t.Errorf("no script where the runner was sent: %v", err)
		}
		if _, err := os.Stat(filepath.Join(dir, pyg.GraphFolder, "meta.json")); err != nil {
			t.Errorf("no graph beside the script: %v", err)
		}
		if !slices.Equal(args, []string{"--weights", "none", "--threads", "1"}) {
			t.Errorf("the script was run with %v", args)
		}
		m := run.FindSubmatch(script)
		if m == nil {
			t.Fatalf("no model and seed in the script's RUN")
		}
		kind, seed := string(m[1]), string(m[2])
		seen[kind+" "+seed] = true
		if kind == experiment.MLP && seed == "2" {
			return pygReply{Error: "--bundle graph: cannot read the bundle: broken"}, errors.New("--bundle graph: cannot read the bundle: broken")
		}
		acc := 0.5 + float64(len(seen))/100
		return pygReply{TestAccuracy: &acc}, nil
	}
	base := experiment.Default()
	base.Train.Epochs = 2
	job := table4Job{Graphs: []string{"cora"}, Models: []string{experiment.GCN, experiment.PDNEdgeConv, experiment.MLP}, Reps: 2}
	col := newPyGColumn(job)
	pr := practices{given: func(string) bool { return false }}
	if _, err := trainTable4([]table4Graph{{name: "cora"}}, base, pr, job, 1, shard{}, peer, col, io.Discard); err != nil {
		t.Fatal(err)
	}
	want := []string{"gcn 1", "gcn 2", "mlp 1", "mlp 2"}
	if got := slices.Sorted(maps.Keys(seen)); !slices.Equal(got, want) {
		t.Errorf("the script ran for %v; want %v (no run of a model without a peer)", got, want)
	}
	if left, _ := os.ReadDir(scratch.Dir()); len(left) != 0 {
		t.Errorf("the exports were left in the scratch folder: %v", left)
	}
	for r := range 2 {
		if x := col.acc[0][r][0]; x < 0.5 || x > 0.55 {
			t.Errorf("gcn rep %d: %v, want the runner's reply", r+1, x)
		}
		if !math.IsNaN(col.acc[0][r][1]) || col.failed[0][r][1] != "" {
			t.Errorf("pdn-edgeconv rep %d has a PyG result: %v %q", r+1, col.acc[0][r][1], col.failed[0][r][1])
		}
	}
	if !math.IsNaN(col.acc[0][1][2]) || col.failed[0][1][2] != "--bundle graph: cannot read the bundle: broken" {
		t.Errorf("mlp rep 2: %v, %q; want no result and the script's message", col.acc[0][1][2], col.failed[0][1][2])
	}
}

// -pyg is refused by name before any work where it cannot give a column:
// a Python that is not there (no output folder is made), an empty name,
// with -shard.
// -pyg-float32 reaches the script as --float32 and the protocol line
// names the precision the column was trained in.
func TestTable4PyGFloat32(t *testing.T) {
	for _, f32 := range []bool{false, true} {
		p := &pygPeer{threads: 2, f32: f32, versions: "torch 1, PyG 2"}
		args, proto := p.args(), p.protocol([]string{experiment.GCN})
		want, precision := []string{"--weights", "none", "--threads", "2"}, "float64"
		if f32 {
			want, precision = append(want, "--float32"), "float32"
		}
		if !slices.Equal(args, want) || !strings.Contains(proto, "(torch 1, PyG 2, "+precision+", 2 threads a run)") {
			t.Errorf("f32 %v: args %v, protocol %q; want %v and %s", f32, args, proto, want, precision)
		}
	}
}

func TestTable4PyGRefusals(t *testing.T) {
	out := filepath.Join(t.TempDir(), "t4")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-pyg", filepath.Join(t.TempDir(), "no-python")}, "cannot import torch and torch_geometric ("},
		{[]string{"-pyg", ""}, "flag -pyg: an empty name"},
		{[]string{"-pyg-float32"}, "flag -pyg-float32: only with -pyg"},
	} {
		args := append([]string{"table4", "-datasets", "cora", "-reps", "1", "-epochs", "1", "-models", "gcn", "-out", out}, c.args...)
		_, errOut, code := runCLI(t, args...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, %s; want 2 and %q", c.args, code, errOut, c.want)
		}
		if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%v: the output folder was made before -pyg was refused", c.args)
		}
	}
}

// For real, where a Python with PyG is found: Cora's table with its PyG
// column, each run trained in PyG, read as ours, beside ours (a few
// epochs: Cora is where the two should agree, the small graphs one can
// generate stay near chance in so few).
// fakePython is a Python as -pyg sees it that imports torch and PyG and
// gives each run an accuracy read from its exported settings (so that a
// run has one figure however it is reached), refusing one run in three
// by the script's error line.
const fakePython = `#!/bin/sh
if [ "$1" = "-c" ]; then echo "torch 0.0 (fake), PyG 0.0 (fake)"; exit 0; fi
sum=$(cksum < "$(dirname "$1")/weights.json" | cut -d' ' -f1)
if [ $((sum % 3)) -eq 0 ]; then printf '{"error": "fake:\trefused %d"}\n' "$sum"; exit 1; fi
printf '{"test_accuracy": 0.%03d, "test_accuracy_at_best_validation": null}\n' $((sum % 1000))
`

// A table4 -pyg run in shards, each with its PyG runs, merges into the
// files one machine writes with -pyg, byte for byte: the PyG column, its
// failed runs' notes and its protocol line travel in the shard files.
func TestTable4PyGShardsMergeIntoTheWhole(t *testing.T) {
	root := t.TempDir()
	python := filepath.Join(root, "python")
	if err := os.WriteFile(python, []byte(fakePython), 0o755); err != nil {
		t.Fatal(err)
	}
	args := []string{"table4", "-datasets", "cora", "-reps", "3", "-epochs", "2", "-models", "gcn,mlp,pdn-edgeconv", "-workers", "1", "-pyg", python}
	whole, shards, merged := filepath.Join(root, "whole"), filepath.Join(root, "shards"), filepath.Join(root, "merged")
	if _, errOut, code := runCLI(t, append(args, "-out", whole)...); code != 0 {
		t.Fatalf("whole: exit %d: %s", code, errOut)
	}
	for _, part := range []string{"1/4", "2/4", "3/4", "4/4"} {
		if out, errOut, code := runCLI(t, append(args, "-shard", part, "-out", shards)...); code != 0 {
			t.Fatalf("-shard %s: exit %d: %s%s", part, code, out, errOut)
		}
	}
	if out, errOut, code := runCLI(t, "merge", "-out", merged, shards); code != 0 {
		t.Fatalf("merge: exit %d: %s%s", code, out, errOut)
	}
	for _, name := range []string{"table4.csv", "table4.svg"} {
		a, errA := os.ReadFile(filepath.Join(whole, name))
		b, errB := os.ReadFile(filepath.Join(merged, name))
		if errA != nil || errB != nil || !bytes.Equal(a, b) {
			t.Errorf("%s: the merge differs from one machine's (%v, %v)\n%s\n%s", name, errA, errB, a, b)
		}
	}
	csv, _ := os.ReadFile(filepath.Join(whole, "table4.csv"))
	if !regexp.MustCompile(`(?m)^cora,gcn,\d,0\.\d{4},[^,]*,[^,]*,0\.\d{4},`).Match(csv) || !bytes.Contains(csv, []byte("pyg_test_accuracy")) {
		t.Errorf("table4.csv has no PyG figure:\n%s", csv)
	}
}

func TestTable4PyGForReal(t *testing.T) {
	python, env := pygtest.Python(t)
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PYTHONPATH="); ok {
			t.Setenv("PYTHONPATH", v) // the last wins, as exec's
		}
	}
	out := filepath.Join(t.TempDir(), "t4")
	stdout, errOut, code := runCLI(t, "table4", "-datasets", "cora", "-reps", "2", "-epochs", "40", "-models", "gcn,mlp,pdn-edgeconv", "-workers", "1", "-pyg", python, "-out", out, "-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	t.Log(stdout)
	var sum table4Summary
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &sum); err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"gcn", "mlp"} {
		r := sum.Results["cora"][kind]
		if r.PyG == nil || r.PyG.N != 2 {
			t.Fatalf("%s: pyg %+v; want both reps (notes %q)", kind, r.PyG, sum.Notes)
		}
		// The same architecture, settings and split in another library: its
		// mean within 0.1 of ours, not the same to the bit (its own draws).
		if d := math.Abs(float64(r.PyG.Mean - r.Mean)); d > 0.1 || r.PyG.Mean == r.Mean && r.PyG.SD == r.SD {
			t.Errorf("%s: PyG %v ± %v, ours %v ± %v", kind, r.PyG.Mean, r.PyG.SD, r.Mean, r.SD)
		}
	}
	if sum.Results["cora"]["pdn-edgeconv"].PyG != nil || !slices.ContainsFunc(sum.Notes, func(n string) bool { return strings.HasPrefix(n, "pdn-edgeconv: no PyG peer") }) {
		t.Errorf("pdn-edgeconv: %+v, notes %q", sum.Results["cora"]["pdn-edgeconv"], sum.Notes)
	}
	if !strings.Contains(sum.Protocol, "PyG column: each run of gcn, mlp exported") || !strings.Contains(sum.Protocol, "torch ") {
		t.Errorf("protocol: %s", sum.Protocol)
	}
	csv, err := os.ReadFile(filepath.Join(out, "table4.csv"))
	if err != nil || !strings.HasPrefix(string(csv), "graph,model,rep,test_accuracy,paper,paper_mark,pyg_test_accuracy,pyg,pyg_sd,pyg_n\n") ||
		!regexp.MustCompile(`(?m)^cora,gcn,1,0\.\d{4},0\.861,\w+,0\.\d{4},0\.\d{4},0\.\d{4},2$`).Match(csv) {
		t.Errorf("table4.csv: %v\n%s", err, csv)
	}
	if runs, _ := os.ReadDir(filepath.Join(out, outdir.Meta, "runs")); len(runs) != 0 {
		t.Errorf("the run left %v behind", runs)
	}
}

// A PyG run whose layer sends its input features along every edge
// (ChebConv, SAGEConv, SGConv) is costed before it is made: on a graph of
// Facebook Page-Page's shape its messages would take gigabytes, so its
// runs are not made and a note says why, once; on Cora's shape, and for
// the layers that project first, every run is made.
func TestTable4PyGTooCostly(t *testing.T) {
	shape := func(n, e, f int) *datasets.Graph {
		return &datasets.Graph{N: n, F: f, Src: make([]int32, e), Dst: make([]int32, e)}
	}
	facebook, cora := shape(22470, 170823, 4714), shape(2708, 5278, 1433)
	for _, kind := range experiment.Kinds {
		m, _ := experiment.ModelNamed(kind)
		for _, f32 := range []bool{false, true} {
			why := pygTooCostly(kind, facebook, f32)
			if (why != "") != m.PyGWide {
				t.Errorf("%s on Facebook's shape (float32 %v): %q", kind, f32, why)
			}
			if m.PyGWide && (!strings.Contains(why, m.PyG) || !strings.Contains(why, "4,714 input features") || !strings.Contains(why, "364,116 messages")) {
				t.Errorf("%s: the note does not say the layer, the features and the messages: %q", kind, why)
			}
			if why := pygTooCostly(kind, cora, f32); why != "" {
				t.Errorf("%s on Cora's shape: %q", kind, why)
			}
		}
	}
	job := table4Job{Graphs: []string{"facebook"}, Models: []string{"gcn", "cheb"}, Reps: 2}
	col := newPyGColumn(job)
	for r := range job.Reps {
		col.acc[0][r][0] = 0.87
		col.costly[0][r][1] = pygTooCostly("cheb", facebook, true)
	}
	sum := summariseTable4(job, [][][]float64{{{0.87, 0.88}, {0.875, 0.885}}})
	col.summarise(job, &sum)
	said := 0
	for _, n := range sum.Notes {
		if strings.HasPrefix(n, "facebook, cheb: no PyG runs: PyG's ChebConv sends") {
			said++
		}
	}
	if said != 1 || pygCell(sum.Results["facebook"]["cheb"], job.Reps) != "–" {
		t.Errorf("the costly runs said %d times (want once), cell %q; notes %q", said, pygCell(sum.Results["facebook"]["cheb"], job.Reps), sum.Notes)
	}
}

// A table4 -pyg shard file's PyG fields are read back only as pdn writes
// them: a hand-edited one is refused naming the file, the field, its line
// and column, never merged.
func TestTable4PyGShardEditedByHand(t *testing.T) {
	root := t.TempDir()
	python := filepath.Join(root, "python")
	if err := os.WriteFile(python, []byte(fakePython), 0o755); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(root, "shards")
	for _, part := range []string{"1/2", "2/2"} {
		if _, errOut, code := runCLI(t, "table4", "-datasets", "cora", "-reps", "3", "-epochs", "1", "-models", "gcn,mlp,pdn-edgeconv", "-workers", "1", "-pyg", python, "-shard", part, "-out", src); code != 0 {
			t.Fatal(errOut)
		}
	}
	first := shardOf(t, src, "table4", 1, 2)
	orig, err := os.ReadFile(first)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ from, to, want string }{
		{`"precision":"float64"`, `"precision":"float16"`, `field job.pyg: precision "float16" is neither float32 nor float64`},
		{`"threads":\d+`, `"threads":0`, "field job.pyg: threads 0 is outside [1, 64]"},
		{`"versions":"`, `"versions":"\u001b[31m`, "field job.pyg: versions holds a control character"},
		{`"pyg":\{"acc":0\.`, `"pyg":{"acc":1.`, "PyG accuracy 1."},
		{`"pyg":\{"acc":0\.`, `"pyg":{"nosuch":1,"acc":0.`, `field runs[0].pyg.nosuch: not a field pdn writes`},
		{`"pyg":\{"acc":0\.`, `"pyg":{"failed":"x","acc":0.`, "gives both a result and why there is none"},
		{`("at":0,"acc":[0-9.]+),"pyg":\{[^}]*\}`, `${1}`, `field runs[0]: lacks "pyg"`},
		{`,"pyg":\{"versions"[^}]*\}`, ``, "field runs[0].pyg: run 0 has no PyG peer in this job"},
		{`\{"at":2,`, `{"at":2,"pyg":{"acc":0.5},`, "field runs[1].pyg: run 2 has no PyG peer in this job"},
		{`"pyg":\{"acc":0\.[0-9]+\}`, `"pyg":{"acc":null}`, "gives neither a result nor why there is none"},
		{`"pyg":\{"acc":(0\.[0-9]+)\}`, `"pyg":{"acc":"${1}"}`, `field runs[0].pyg.acc: holds text in quotes`},
		{`"threads":\d+`, `"threads":"2"`, `field job.pyg.threads: holds text in quotes`},
	} {
		dir := filepath.Join(t.TempDir(), "spoiled")
		copyTree(t, dir, src)
		file := filepath.Join(dir, filepath.Base(first))
		re := regexp.MustCompile(c.from)
		loc := re.FindStringIndex(string(orig))
		if loc == nil {
			t.Fatalf("%s: not in the shard file:\n%s", c.from, orig)
		}
		edited := string(orig[:loc[0]]) + re.ReplaceAllString(string(orig[loc[0]:loc[1]]), c.to) + string(orig[loc[1]:])
		if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
			t.Fatal(err)
		}
		mergeRefuses(t, c.to, dir, file, c.want, ":1:")
	}
}

// Shards of one table, one made with -pyg and one without, are two jobs:
// merge refuses them, saying in words how their PyG columns differ.
func TestTable4PyGShardsOfTwoSettingsRefused(t *testing.T) {
	root := t.TempDir()
	python := filepath.Join(root, "python")
	if err := os.WriteFile(python, []byte(fakePython), 0o755); err != nil {
		t.Fatal(err)
	}
	args := []string{"table4", "-datasets", "cora", "-reps", "1", "-epochs", "1", "-models", "gcn", "-workers", "1"}
	shards := filepath.Join(root, "shards")
	if _, errOut, code := runCLI(t, append(args, "-pyg", python, "-shard", "1/2", "-out", shards)...); code != 0 {
		t.Fatal(errOut)
	}
	if _, errOut, code := runCLI(t, append(args, "-shard", "2/2", "-out", shards)...); code != 0 {
		t.Fatal(errOut)
	}
	_, errOut, code := runCLI(t, "merge", "-out", filepath.Join(root, "m"), shards)
	if code != 2 || !strings.Contains(errOut, "torch 0.0 (fake), PyG 0.0 (fake) in float64") || !strings.Contains(errOut, "none (a run without -pyg)") || strings.Contains(errOut, "map[") {
		t.Errorf("exit %d: %s", code, errOut)
	}
}
