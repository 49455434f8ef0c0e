package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bundle writes a tiny valid bundle into a new directory, with files
// overridden by over ("" removes a file).
func bundle(t *testing.T, over map[string]string) string {
	t.Helper()
	files := map[string]string{
		"meta.json": `{"name": "tiny"}`,
		"nodes.csv": "id,label,split,x0\n0,0,train,1\n1,1,train,2\n2,0,test,3\n3,1,test,4\n",
		"edges.csv": "source,target,e0\n0,1,1\n1,2,1\n2,3,1\n",
	}
	for k, v := range over {
		files[k] = v
	}
	dir := t.TempDir()
	for name, body := range files {
		if body == "" {
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// badCLI is the command-line part of the catalogue of bad inputs. Each
// case runs pdn with args (where "BUNDLE" is replaced by a bundle with the
// given files overridden, and "FILE" by a plain file) and wants the exit
// code and, on the last line of stderr, the text.
var badCLI = []struct {
	name  string
	args  []string
	files map[string]string
	code  int
	want  string
}{
	// Commands.
	{"no command", nil, nil, 2, "no command given; want one of gen, train, sweep, xor, runtime, degree"},
	{"unknown command", []string{"frob"}, nil, 2, `unknown command "frob"; want one of gen, train, sweep, xor, runtime, degree`},
	{"a megabyte of command", []string{strings.Repeat("x", 1<<20)}, nil, 2, `unknown command "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"… (1048576 characters)`},
	{"extra argument", []string{"train", "extra"}, nil, 2, `unexpected argument "extra"`},
	{"undefined flag", []string{"train", "-nope"}, nil, 2, "flag provided but not defined: -nope"},
	{"flag without value", []string{"train", "-lr"}, nil, 2, "flag needs an argument: -lr"},
	// The state table's rows as flags.
	{"classes out of range", []string{"train", "-classes", "9"}, nil, 2, "-classes: want a whole number in [2, 6]"},
	{"p not a number", []string{"train", "-p", "abc"}, nil, 2, "-p: want [0.0009765625, 0.0625]"},
	{"p hexadecimal", []string{"train", "-p", "0x1p-7"}, nil, 2, `invalid value "0x1p-7" for flag -p`},
	{"lr Inf", []string{"train", "-lr", "Inf"}, nil, 2, `invalid value "Inf" for flag -lr`},
	{"lr 1e400", []string{"train", "-lr", "1e400"}, nil, 2, `invalid value "1e400" for flag -lr: want [1e-06, 10]`},
	{"lr negative", []string{"train", "-lr", "-1"}, nil, 2, "-lr: want [1e-06, 10]"},
	{"lr NaN", []string{"train", "-lr", "NaN"}, nil, 2, "-lr: want [1e-06, 10]"},
	{"unknown model", []string{"train", "-model", "gat2"}, nil, 2, "one of pdn, pdn-linear"},
	{"epochs 0", []string{"train", "-epochs", "0"}, nil, 2, "-epochs: want a whole number in [1, 100000]"},
	{"epochs exponent", []string{"train", "-epochs", "1e3"}, nil, 2, "-epochs: want a whole number in [1, 100000]"},
	{"edge-hidden bad item", []string{"train", "-edge-hidden", "16,x"}, nil, 2, "-edge-hidden"},
	{"edge-hidden 0", []string{"train", "-edge-hidden", "0"}, nil, 2, `invalid value "0" for flag -edge-hidden: want none, or up to 3 sizes in [1, 256]`},
	{"edge-hidden empty", []string{"train", "-edge-hidden", ""}, nil, 2, `invalid value "" for flag -edge-hidden: want none`},
	{"edge-hidden four layers", []string{"train", "-edge-hidden", "8,8,8,8"}, nil, 2, "up to 3 sizes"},
	{"seed beyond 2^53", []string{"train", "-seed", "9007199254740992"}, nil, 2, "-seed: want a whole number in [0, 9007199254740991]"},
	{"seed negative", []string{"train", "-seed", "-1"}, nil, 2, "-seed"},
	{"dropout 1", []string{"train", "-dropout", "1"}, nil, 2, "-dropout: want [0, 0.95]"},
	{"sigma-d too large", []string{"gen", "-out", "DIR", "-sigma-d", "100"}, nil, 2, "-sigma-d: want [0.5, 32]"},
	// Data, paths and bundles.
	{"-data empty", []string{"train", "-data", ""}, nil, 2, `invalid value "" for flag -data: empty; give synthetic, xor, scale-free, multiplex, cora, citeseer or a path to a graph`},
	{"-data blank", []string{"train", "-data", "  "}, nil, 2, "flag -data: empty"},
	{"-data missing", []string{"train", "-data", "DIR/missing"}, nil, 2, "missing: cannot read the graph: missing"},
	{"-data a file", []string{"train", "-data", "FILE"}, nil, 2, "a-file: is a file; a graph is a bundle (meta.json, nodes.csv, edges.csv)"},
	{"-data with a data flag", []string{"train", "-data", "BUNDLE", "-q", "0.01"}, nil, 2, "flag -q: graph local (your own files) does not read it (only synthetic, xor read it)"},
	{"cora with a data flag", []string{"train", "-data", "cora", "-per-class", "64"}, nil, 2, "flag -per-class: graph cora does not read it (only synthetic, xor, scale-free, multiplex read it)"},
	{"-data citeseer with a data flag", []string{"train", "-data", "citeseer", "-sigma-d", "1"}, nil, 2, "flag -sigma-d: graph citeseer does not read it"},
	{"-shots 0", []string{"train", "-data", "cora", "-shots", "0"}, nil, 2, `invalid value "0" for flag -shots: want a whole number in [1, 1000]`},
	{"pubmed", []string{"train", "-data", "pubmed"}, nil, 2, `invalid value "pubmed" for flag -data: "pubmed" is neither one of synthetic, xor, scale-free, multiplex, cora, citeseer nor a path to a graph`},
	{"pubmed to gen", []string{"gen", "-out", "DIR", "-data", "pubmed"}, nil, 2, `invalid value "pubmed" for flag -data: "pubmed" is neither one of synthetic, xor, scale-free, multiplex, cora, citeseer nor a path to a graph`},
	{"local to gen", []string{"gen", "-out", "DIR", "-data", "local"}, nil, 2, `"local" is neither one of synthetic, xor, scale-free, multiplex, cora, citeseer nor a path to a graph`},
	{"missing folder to gen", []string{"gen", "-out", "DIR/new", "-data", "DIR/nothing-here"}, nil, 2, "nothing-here: cannot read the graph: missing"},
	{"bad value", []string{"train", "-data", "BUNDLE"}, map[string]string{"nodes.csv": "id,label,split,x0\n0,0,train,1\n1,1,test,oops\n"}, 2, `nodes.csv:3:10: column x0: "oops" is not a decimal number`},
	{"bad value after blank lines", []string{"train", "-data", "BUNDLE"}, map[string]string{"nodes.csv": "id,label,split,x0\n\n0,0,train,1\n\n\n1,1,test,x\n"}, 2, `nodes.csv:6:10: column x0: "x" is not a decimal number`},
	{"hex float in a bundle", []string{"train", "-data", "BUNDLE"}, map[string]string{"edges.csv": "source,target,e0\n0,1,0x10\n"}, 2, `edges.csv:2:5: column e0: "0x10" is not a decimal number`},
	{"1e400 in a bundle", []string{"train", "-data", "BUNDLE"}, map[string]string{"nodes.csv": "id,label,split,x0\n0,0,train,1e400\n"}, 2, `nodes.csv:2:11: column x0: "1e400" is too large to be a finite number`},
	{"label 2,000,000,000", []string{"train", "-data", "BUNDLE"}, map[string]string{"nodes.csv": "id,label,split,x0\n0,0,train,1\n1,2000000000,test,2\n"}, 2, "nodes.csv:3:3: column label: 2000000000 is out of range [0, 999]"},
	{"meta classes 1,000,000", []string{"train", "-data", "BUNDLE"}, map[string]string{"meta.json": `{"name": "x", "classes": 1000000}`}, 2, "meta.json: key classes: 1000000 is not a whole number in [1, 1000]"},
	{"meta with a BOM and a syntax error", []string{"train", "-data", "BUNDLE"}, map[string]string{"meta.json": "\ufeff{\n\"name\": x}"}, 2, "meta.json:2: not a JSON object: invalid character 'x'"},
	{"one class", []string{"train", "-data", "BUNDLE"}, map[string]string{"nodes.csv": "id,label,split,x0\n0,0,train,1\n1,0,test,2\n", "edges.csv": "source,target,e0\n0,1,1\n"}, 2, "the graph has one class (every node's label is 0), and a classifier needs two or more"},
	{"training nodes of one class", []string{"train", "-data", "BUNDLE"}, map[string]string{"meta.json": `{"name": "x", "class_names": ["cat", "dog"]}`, "nodes.csv": "id,label,split,x0\n0,1,train,1\n1,0,test,2\n2,1,train,3\n", "edges.csv": "source,target,e0\n0,1,1\n"}, 2,
		"every training node (split train) is of one class (dog), so a classifier learns only to answer it"},
	{"no training nodes", []string{"train", "-data", "BUNDLE"}, map[string]string{"nodes.csv": "id,label,split,x0\n0,0,test,1\n1,1,test,2\n", "edges.csv": "source,target,e0\n0,1,1\n"}, 2, "the graph has no training nodes"},
	{"no edges, PDN", []string{"train", "-data", "BUNDLE"}, map[string]string{"edges.csv": "source,target,e0\n"}, 2, "the graph has no edges, and model pdn passes messages along edges: use model mlp, or a graph with edges"},
	{"features of 1e308", []string{"train", "-data", "BUNDLE"}, map[string]string{"nodes.csv": "id,label,split,x0\n0,0,train,1e308\n1,1,train,-1e308\n2,0,test,1e308\n3,1,test,1e308\n"}, 2, "the data are to blame, not lr: node features reach |x| = 1e+308"},
	{"no nodes file", []string{"train", "-data", "BUNDLE"}, map[string]string{"nodes.csv": ""}, 2, "nodes.csv: cannot open: missing"},
	// Sizes beyond what this machine can do.
	{"14 GB of pathfinder", []string{"train", "-classes", "6", "-per-class", "1024", "-p", "0.0625", "-q", "0.0625", "-edge-features", "64", "-edge-hidden", "256,256,256"}, nil, 2,
		"GB of memory (the command line allows 8.0 GB), most of it for the pathfinder MLP over 1,179,"},
	// Where the output goes.
	{"gen without -out", []string{"gen"}, nil, 2, "-out: a directory is required"},
	{"table4 without -out", []string{"table4"}, nil, 2, "-out: a directory is required"},
	{"attention without -out", []string{"attention"}, nil, 2, "-out: a directory is required"},
	{"attention unknown graph", []string{"attention", "-out", "DIR", "-datasets", "pubmed"}, nil, 2, `flag -datasets: "pubmed" is neither cora, citeseer nor a path to a graph`},
	{"attention hops 9", []string{"attention", "-out", "DIR", "-hops", "9"}, nil, 2, "-hops"},
	{"table4 unknown graph", []string{"table4", "-out", "DIR", "-datasets", "cora,pubmed"}, nil, 2, `flag -datasets: "pubmed" is neither cora, citeseer nor a path to a graph`},
	{"table4 empty graph", []string{"table4", "-out", "DIR", "-datasets", "cora,,citeseer"}, nil, 2, "flag -datasets: an empty name"},
	{"table4 bad model", []string{"table4", "-out", "DIR", "-models", "pdn,gcm"}, nil, 2, `flag -models: "gcm" is not allowed`},
	{"table4 reps 0", []string{"table4", "-out", "DIR", "-reps", "0"}, nil, 2, "flag -reps: 0 is not allowed; want [1, 1000]"},
	{"gen -like unknown", []string{"gen", "-out", "DIR/new", "-like", "pubmed"}, nil, 2, `flag -like: "pubmed" is not a published graph's shape; want one of facebook, ogbn-arxiv`},
	{"gen -like with -data", []string{"gen", "-out", "DIR/new", "-like", "facebook", "-data", "BUNDLE"}, nil, 2, "flag -data: pdn gen -like sets it itself: it draws a graph with the counts of facebook"},
	{"gen -out a file", []string{"gen", "-out", "FILE"}, nil, 2, "is a file; want a directory"},
	{"sweep -out a file", []string{"sweep", "-scenario", "1", "-out", "FILE"}, nil, 2, "flag -out:"},
	{"degree -out a file", []string{"degree", "-out", "FILE"}, nil, 2, "is a file; want a directory"},
	// The experiments' own flags.
	{"sweep shard 0/3", []string{"sweep", "-scenario", "1", "-shard", "0/3", "-out", "DIR"}, nil, 2, `invalid value "0/3" for flag -shard: want i/n, the i-th of n parts, 1 ≤ i ≤ n ≤ 100000 (as 2/8)`},
	{"table4 shard 4/3", []string{"table4", "-shard", "4/3", "-out", "DIR"}, nil, 2, `invalid value "4/3" for flag -shard: want i/n`},
	{"table4 shard without n", []string{"table4", "-shard", "2", "-out", "DIR"}, nil, 2, `invalid value "2" for flag -shard: want i/n`},
	{"merge without -out", []string{"merge", "DIR"}, nil, 2, "-out: a directory is required"},
	{"sweep scenario 9", []string{"sweep", "-scenario", "9", "-out", "DIR"}, nil, 2, "flag -scenario"},
	{"sweep reps 0", []string{"sweep", "-scenario", "1", "-reps", "0", "-out", "DIR"}, nil, 2, "flag -reps: 0 is not allowed; want [1, 1000]"},
	{"sweep workers 1000", []string{"sweep", "-scenario", "1", "-workers", "1000", "-out", "DIR"}, nil, 2, "flag -workers: 1000 is not allowed; want [1, 64]"},
	{"sweep unknown model", []string{"sweep", "-scenario", "1", "-models", "pdn,foo", "-out", "DIR"}, nil, 2, `flag -models: "foo" is not allowed`},
	{"xor seeds 0", []string{"xor", "-seeds", "0"}, nil, 2, "flag -seeds: 0 is not allowed; want [1, 100]"},
	{"xor restart-epochs -5", []string{"xor", "-restart-epochs", "-5"}, nil, 2, "flag -restart-epochs: -5 is not allowed; want [1, 100000]"},
	{"runtime nodes 10", []string{"runtime", "-nodes", "10"}, nil, 2, "flag -nodes: 10 is not allowed; want [256, 65536]"},
	{"runtime epochs 1000", []string{"runtime", "-epochs", "1000"}, nil, 2, "flag -epochs: 1000 is not allowed; want [1, 100]"},
	{"degree m 0", []string{"degree", "-attach", "0", "-out", "DIR"}, nil, 2, `invalid value "0" for flag -attach: want a whole number in [1, 50]`},
	{"edit out of range", []string{"train", "-per-class", "16", "-edits", "a0-9999"}, nil, 2, "edits: edit 1 (a0-9999): node 9999 is out of range: the graph's nodes are 0 to 47"},
	{"edit misspelt", []string{"train", "-edits", "r1-2_x1-2"}, nil, 2, `invalid value "r1-2_x1-2" for flag -edits: edit 2 ("x1-2"): an edit starts with a (add), r (remove) or s (set); want edits joined by _`},
	{"edit of an edge not there", []string{"gen", "-per-class", "16", "-edits", "r0-1", "-out", "DIR/new"}, nil, 2, "edits: edit 1 (r0-1): there is no edge 0-1 to remove"},
	{"xor on another graph", []string{"xor", "-data", "synthetic"}, nil, 2, "flag -data: pdn xor sets it itself: its lesson is the XOR graph's"},
}

func TestCatalogueCLI(t *testing.T) {
	for _, tc := range badCLI {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "a-file")
			os.WriteFile(file, []byte("x"), 0o644)
			args := make([]string, len(tc.args))
			for i, a := range tc.args {
				switch {
				case a == "BUNDLE":
					a = bundle(t, tc.files)
				case a == "FILE":
					a = file
				case strings.HasPrefix(a, "DIR"):
					a = dir + strings.TrimPrefix(a, "DIR")
				}
				args[i] = a
			}
			_, errOut, code := runCLI(t, args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d (%s)", code, tc.code, errOut)
			}
			last := errOut[strings.LastIndex(strings.TrimRight(errOut, "\n"), "\n")+1:]
			if !strings.Contains(last, tc.want) {
				t.Errorf("error line %q, want it to contain %q", last, tc.want)
			}
			if len(last) > 600 {
				t.Errorf("the message is %d bytes long", len(last))
			}
		})
	}
}

// A run whose figures do not all exist still gives its JSON, with null
// where a figure is missing and a note that says why.
func TestJSONNeverHoldsNaN(t *testing.T) {
	noTest := bundle(t, map[string]string{
		"nodes.csv": "id,label,split,x0\n0,0,train,1\n1,1,train,2\n2,0,train,3\n3,1,train,4\n",
		"edges.csv": "source,target,kind,e0\n0,1,inter,1\n1,2,inter,1\n2,3,inter,1\n",
	})
	out, errOut, code := runCLI(t, "train", "-data", noTest, "-epochs", "3", "-json", "-quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if strings.Contains(out, "NaN") {
		t.Errorf("NaN in %s", out)
	}
	m := lastJSON(t, out)
	if m["test_accuracy"] != nil || m["w_intra"] != nil {
		t.Errorf("test_accuracy %v, w_intra %v: want null for both", m["test_accuracy"], m["w_intra"])
	}
	notes, _ := m["notes"].([]any)
	joined := ""
	for _, n := range notes {
		joined += n.(string) + "\n"
	}
	for _, want := range []string{"no test nodes (split test), so test_accuracy is null", "no intra-class edges, so w_intra is null"} {
		if !strings.Contains(joined, want) {
			t.Errorf("notes %q do not say %q", joined, want)
		}
	}
	text, _, _ := runCLI(t, "train", "-data", noTest, "-epochs", "3", "-quiet")
	if !strings.Contains(text, "test accuracy n/a") || !strings.Contains(text, "note: the graph has no test nodes") {
		t.Errorf("text output:\n%s", text)
	}
}

// lr = 10 does not diverge on every graph; it climbs. The run finishes and
// says lr is to blame.
func TestUnstableRunWarns(t *testing.T) {
	out, errOut, code := runCLI(t, "train", "-per-class", "64", "-epochs", "20", "-lr", "10", "-json", "-quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "warning: training is unstable: the loss rose from") {
		t.Errorf("stderr: %s", errOut)
	}
	m := lastJSON(t, out)
	if notes, _ := m["notes"].([]any); len(notes) == 0 || !strings.Contains(notes[0].(string), "lower lr (now 10;") {
		t.Errorf("notes: %v", m["notes"])
	}
}

// One's own files have no generator's rows to raise: a refusal of a
// graph without edges, in train and in table4 alike, ends its advice at
// "a graph with edges" and names no row of the generator's (p, q,
// per-class), which a graph read from files does not read.
func TestOwnGraphsRefusalsNameNoGeneratorRows(t *testing.T) {
	dir := bundle(t, map[string]string{"edges.csv": "source,target,e0\n"})
	for _, args := range [][]string{
		{"train", "-data", dir, "-model", "netmf"},
		{"table4", "-out", filepath.Join(t.TempDir(), "t4"), "-datasets", dir, "-models", "netmf", "-reps", "1"},
		{"structure", "-data", dir, "-out", filepath.Join(t.TempDir(), "st")},
		{"attention", "-datasets", dir, "-out", filepath.Join(t.TempDir(), "at")},
	} {
		_, errOut, code := runCLI(t, args...)
		if code != 2 || !strings.Contains(errOut, "use model mlp, or a graph with edges") || strings.Contains(errOut, "raise one of") {
			t.Errorf("pdn %s on a bundle without edges: exit %d, %q; want 2 and the advice without the generator's rows", args[0], code, errOut)
		}
	}
}

// pdn train's help says -init-seed follows -seed, as the run does, and
// shows no default of 1 (review of issue 57).
func TestTrainHelpSaysTheWeightSeedFollowsTheSeed(t *testing.T) {
	_, errOut, _ := runCLI(t, "train", "-h")
	i := strings.Index(errOut, "-init-seed")
	if i < 0 {
		t.Fatalf("no -init-seed in the help: %q", errOut)
	}
	entry := errOut[i:]
	if j := strings.Index(entry[1:], "\n  -"); j > 0 {
		entry = entry[:j+1]
	}
	if !strings.Contains(entry, "by default the same as -seed") || strings.Contains(entry, "(default 1)") {
		t.Errorf("-init-seed's help: %q", entry)
	}
}
