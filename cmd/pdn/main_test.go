package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"pdnexplorer/experiment"
	"pdnexplorer/pdn"
)

// small keeps the CLI tests quick: n = 32 nodes per class, 30 epochs.
var small = []string{"-per-class", "32", "-epochs", "30", "-quiet"}

func runCLI(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var o, e bytes.Buffer
	err := run(args, &o, &e)
	if err != nil {
		e.WriteString(oneLine(err))
	}
	return o.String(), e.String(), exitCode(err)
}

func lastJSON(t *testing.T, stdout string) map[string]any {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	var m map[string]any
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &m); err != nil {
		t.Fatalf("last line of stdout is not one JSON object: %v\n%s", err, stdout)
	}
	return m
}

func TestTrainJSONKeys(t *testing.T) {
	for _, model := range []string{"pdn", "gcn", "mlp"} {
		t.Run(model, func(t *testing.T) {
			out, errOut, code := runCLI(t, append([]string{"train", "-json", "-model", model}, small...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			m := lastJSON(t, out)
			for _, k := range []string{"model", "test_accuracy", "train_accuracy", "epochs", "epoch_ms_median", "nodes", "edges", "majority_accuracy", "mlp_accuracy", "test_nodes", "chance"} {
				if _, ok := m[k]; !ok {
					t.Errorf("key %s missing from %v", k, m)
				}
			}
			// threads is what the products really used, not a constant.
			if m["model"] != model || m["nodes"] != 96.0 || m["epochs"] != 30.0 || m["threads"] != float64(pdn.Threads()) {
				t.Errorf("wrong values: %v", m)
			}
			_, hasW := m["w_intra"]
			if hasW != (model == "pdn") {
				t.Errorf("w_intra present = %v for %s", hasW, model)
			}
		})
	}
}

var msRE = regexp.MustCompile(`"epoch_ms_median":[0-9.e+-]+`)

func TestTrainIsDeterministic(t *testing.T) {
	args := append([]string{"train", "-json", "-seed", "3"}, small...)
	a, _, _ := runCLI(t, args...)
	b, _, _ := runCLI(t, args...)
	if a == "" || msRE.ReplaceAllString(a, "") != msRE.ReplaceAllString(b, "") {
		t.Errorf("same command, different output:\n%s\n%s", a, b)
	}
	c, _, _ := runCLI(t, append(args, "-init-seed", "4")...)
	if msRE.ReplaceAllString(a, "") == msRE.ReplaceAllString(c, "") {
		t.Error("-init-seed changed nothing")
	}
}

func TestGenThenTrainOnBundle(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bundle")
	if _, errOut, code := runCLI(t, "gen", "-out", dir, "-per-class", "32", "-seed", "5"); code != 0 {
		t.Fatalf("gen: exit %d: %s", code, errOut)
	}
	fromBundle, _, code := runCLI(t, append([]string{"train", "-json", "-data", dir, "-seed", "5"}, small[2:]...)...)
	if code != 0 {
		t.Fatal("train on bundle failed")
	}
	generated, _, _ := runCLI(t, append([]string{"train", "-json", "-seed", "5"}, small...)...)
	if msRE.ReplaceAllString(fromBundle, "") != msRE.ReplaceAllString(generated, "") {
		t.Errorf("training on the written bundle differs from training on the generated graph:\n%s\n%s", fromBundle, generated)
	}
}

// gen -like writes a Facebook-shaped MUSAE folder that train reads back
// with Facebook's counts.
func TestGenLikeFacebook(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "facebook")
	out, errOut, code := runCLI(t, "gen", "-like", "facebook", "-out", dir)
	if code != 0 || !strings.Contains(out, "22,470 nodes, 170,823 edges, 4,714 features, 4 classes") {
		t.Fatalf("gen -like: exit %d: %s%s", code, out, errOut)
	}
	bundle := filepath.Join(t.TempDir(), "bundle")
	out, errOut, code = runCLI(t, "gen", "-data", dir, "-out", bundle)
	if code != 0 || !strings.Contains(out, "22470 nodes, 170823 edges, 4 classes, F=4714") {
		t.Fatalf("gen -data on the shaped folder: exit %d: %s%s", code, out, errOut)
	}
}

func TestProgressLines(t *testing.T) {
	_, errOut, code := runCLI(t, "train", "-per-class", "16", "-epochs", "5")
	if code != 0 || strings.Count(errOut, "epoch ") != 5 || !strings.Contains(errOut, "epoch 5/5") {
		t.Errorf("exit %d, progress:\n%s", code, errOut)
	}
}

func TestHelpExitsZero(t *testing.T) {
	_, errOut, code := runCLI(t, "train", "-h")
	if code != 0 || !strings.Contains(errOut, "-sigma-d") || !strings.Contains(errOut, "[0.5, 32]") {
		t.Errorf("exit %d, help:\n%s", code, errOut)
	}
}

// pdn train reads the shipped real graphs by name and a MUSAE folder from
// a directory, each with the tie-strength scores as edge features and a
// split of -shots labelled nodes per class.
func TestTrainRealGraphs(t *testing.T) {
	musae := t.TempDir()
	for name, body := range map[string]string{
		"target.csv":    "id,facebook_id,page_name,page_type\n0,1,a,tvshow\n1,2,b,politician\n2,3,c,tvshow\n3,4,d,politician\n4,5,e,tvshow\n",
		"edges.csv":     "id_1,id_2\n0,1\n1,2\n2,3\n3,4\n0,2\n",
		"features.json": `{"0": [1], "1": [0, 2], "2": [1], "3": [2], "4": [1, 3]}`,
	} {
		if err := os.WriteFile(filepath.Join(musae, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("gen converts the folder", func(t *testing.T) { genFromFolder(t, musae) })
	t.Run("gen loses no data", func(t *testing.T) { genKeepsData(t, musae) })
	for _, tc := range []struct {
		args         []string
		nodes, edges int
	}{
		{[]string{"-data", "cora"}, 2708, 5278},
		{[]string{"-data", "citeseer", "-shots", "20"}, 3327, 4552},
		{[]string{"-data", musae, "-shots", "1"}, 5, 5},
	} {
		out, errOut, code := runCLI(t, append([]string{"train", "-epochs", "3", "-json", "-quiet"}, tc.args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tc.args, code, errOut)
		}
		var res result
		if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &res); err != nil {
			t.Fatal(err)
		}
		if res.Nodes != tc.nodes || res.Edges != tc.edges || !res.TestAccuracy.Valid() {
			t.Errorf("%v: %+v", tc.args, res)
		}
	}
}

// genFromFolder writes the MUSAE folder dir again as a bundle with dense
// features, as a reader that knows only dense columns (PyTorch Geometric's
// peer) needs it; the bundle trains to the very same result as the folder.
func genFromFolder(t *testing.T, dir string) {
	bundle := filepath.Join(t.TempDir(), "bundle")
	if _, errOut, code := runCLI(t, "gen", "-data", dir, "-dense", "-shots", "1", "-seed", "3", "-out", bundle); code != 0 {
		t.Fatalf("gen: exit %d: %s", code, errOut)
	}
	meta, err := os.ReadFile(filepath.Join(bundle, "meta.json"))
	if err != nil || !strings.Contains(string(meta), `"nodes": 5`) {
		t.Fatalf("meta.json: %s (%v)", meta, err)
	}
	args := []string{"train", "-epochs", "5", "-json", "-quiet", "-seed", "3"}
	fromBundle, _, code1 := runCLI(t, append(args, "-data", bundle)...)
	fromFolder, _, code2 := runCLI(t, append(args, "-data", dir, "-shots", "1")...)
	if code1 != 0 || code2 != 0 || msRE.ReplaceAllString(fromBundle, "") != msRE.ReplaceAllString(fromFolder, "") {
		t.Errorf("exit %d and %d; the bundle gen wrote trains differently from its folder:\n%s\n%s", code1, code2, fromBundle, fromFolder)
	}
}

// genKeepsData: gen refuses to write a bundle over the folder it reads,
// even with -force, and into a folder that is not empty without -force;
// the folder still opens afterwards.
func genKeepsData(t *testing.T, musae string) {
	edges, err := os.ReadFile(filepath.Join(musae, "edges.csv"))
	if err != nil {
		t.Fatal(err)
	}
	full := t.TempDir()
	if err := os.WriteFile(filepath.Join(full, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-data", musae, "-out", musae}, 2, "-data folder"},
		{[]string{"-data", musae, "-out", musae + "/.", "-force"}, 2, "-data folder"},
		{[]string{"-data", musae, "-out", full}, 2, `holds "notes.txt", which pdn did not write`},
		{[]string{"-per-class", "16", "-out", full}, 2, "add -force"},
		{[]string{"-per-class", "16", "-out", full, "-force"}, 0, ""},
		{[]string{"-per-class", "16", "-out", filepath.Join(t.TempDir(), "new")}, 0, ""},
	} {
		_, errOut, code := runCLI(t, append([]string{"gen"}, tc.args...)...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("gen %v: exit %d, %q; want exit %d saying %q", tc.args, code, errOut, tc.code, tc.want)
		}
	}
	if after, _ := os.ReadFile(filepath.Join(musae, "edges.csv")); !bytes.Equal(after, edges) {
		t.Error("the MUSAE folder's edges.csv changed")
	}
	if _, errOut, code := runCLI(t, "train", "-data", musae, "-shots", "1", "-epochs", "2"); code != 0 {
		t.Errorf("the folder no longer trains: exit %d, %s", code, errOut)
	}
	if b, _ := os.ReadFile(filepath.Join(full, "notes.txt")); string(b) != "mine" {
		t.Error("gen -force removed a file it does not write")
	}
}

// gen -edits writes the edited graph: the link's edits give the same
// graph on the command line as in the page (datasets.Make).
func TestGenAppliesEdits(t *testing.T) {
	plain, edited := t.TempDir(), t.TempDir()
	for _, args := range [][]string{{"-out", plain}, {"-edits", "a0-47", "-out", edited}} {
		if _, errOut, code := runCLI(t, append([]string{"gen", "-per-class", "16"}, args...)...); code != 0 {
			t.Fatalf("gen %v: exit %d, %s", args, code, errOut)
		}
	}
	a, err1 := os.ReadFile(filepath.Join(plain, "edges.csv"))
	b, err2 := os.ReadFile(filepath.Join(edited, "edges.csv"))
	if err1 != nil || err2 != nil || !bytes.HasPrefix(b, a) || !bytes.HasPrefix(b[len(a):], []byte("0,47,")) {
		t.Errorf("the edited bundle's edges do not end with the added edge 0-47:\n%s", b[min(len(a), len(b)):])
	}
}

// A command's help lists with its flags only the rows it reads: a row its
// lab or runs set themselves, or its lab does not offer (pdn xor's -seed,
// drawn by its -seeds), is listed apart, saying why, and refused if given.
// Every command's reader is the one its rows are refused by
// (commandRows), so a command whose help lists what it refuses fails.
func TestHelpListsApartTheRowsNotRead(t *testing.T) {
	for name, cr := range commandRows(t) {
		if cr.state == nil {
			continue // its rows are none, or come by -with (claims)
		}
		r, _ := cr.state()
		flags, _ := commandFlags(t, name, "-h")
		_, help, code := runCLI(t, name, "-h")
		if code != 0 {
			t.Fatalf("pdn %s -h: exit %d", name, code)
		}
		main, apart, _ := strings.Cut(help, "Not read by ")
		for _, f := range flags {
			row, ok := experiment.RowFlag(f)
			if !ok {
				continue
			}
			p, _ := experiment.Lookup(row)
			_, offered := r.Offers(p)
			listed := strings.Contains("\n"+main, "\n  -"+f.Name+" ")
			if listed != offered {
				t.Errorf("pdn %s -h: -%s listed with its flags %v, offered %v", name, f.Name, listed, offered)
			}
			if !offered && !strings.Contains(apart, "  -"+f.Name+": ") {
				t.Errorf("pdn %s -h: -%s not listed apart with why", name, f.Name)
			}
		}
	}
	_, help, _ := runCLI(t, "xor", "-h")
	if !strings.Contains(help, "  -seed: pdn xor sets it itself: its -seeds draws the data seeds 1..N") {
		t.Errorf("pdn xor -h says not why -seed is not read:\n%s", help)
	}
}

// pdn train reads its run against chance as the page does: the majority
// class and an MLP on the same test nodes, the MLP the very run pdn train
// -model mlp trains (an MLP run is its own baseline), and where the run
// stands, said in its text too: on two classes that neither features nor
// edges tell apart, near chance.
func TestTrainReadsTheRunAgainstChance(t *testing.T) {
	flags := append([]string{"-classes", "2", "-p", "0.01", "-q", "0.01", "-sigma-f", "32"}, small...)
	out, errOut, code := runCLI(t, append([]string{"train", "-json"}, flags...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	pdnRun := lastJSON(t, out)
	out, _, _ = runCLI(t, append([]string{"train", "-json", "-model", "mlp"}, flags...)...)
	mlpRun := lastJSON(t, out)
	if pdnRun["mlp_accuracy"] != mlpRun["test_accuracy"] || mlpRun["mlp_accuracy"] != mlpRun["test_accuracy"] {
		t.Errorf("pdn's MLP baseline %v, mlp's own %v and its test accuracy %v differ", pdnRun["mlp_accuracy"], mlpRun["mlp_accuracy"], mlpRun["test_accuracy"])
	}
	maj, _ := pdnRun["majority_accuracy"].(float64)
	if n, _ := pdnRun["test_nodes"].(float64); n < 1 || maj < 0.5 || maj > 1 {
		t.Errorf("majority %v on %v test nodes: two classes give at least 0.5", maj, n)
	}
	if pdnRun["chance"] != experiment.AtChance {
		t.Errorf("test accuracy %v against majority %v: %v, want %s", pdnRun["test_accuracy"], maj, pdnRun["chance"], experiment.AtChance)
	}
	out, _, _ = runCLI(t, append([]string{"train"}, flags...)...)
	if !strings.Contains(out, "chance on the ") || !strings.Contains(out, "is near chance") {
		t.Errorf("the text does not say the run is near chance:\n%s", out)
	}
}
