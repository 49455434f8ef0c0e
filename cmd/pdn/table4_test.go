package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
)

// A table4 shard says the paper's column of each graph (job.columns), and
// merge prints the paper's numbers from it; a column edited by hand to one
// the paper does not have is refused naming the field.
func TestTable4ShardsCarryThePapersColumns(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "shards")
	for _, s := range []string{"1/2", "2/2"} {
		if _, errOut, code := runCLI(t, "table4", "-datasets", "cora", "-reps", "1", "-models", "gcn,mlp", "-epochs", "1", "-shard", s, "-out", dir); code != 0 {
			t.Fatal(errOut)
		}
	}
	file := shardOf(t, dir, "table4", 1, 2)
	b, err := os.ReadFile(file)
	if err != nil || !strings.Contains(string(b), `"columns":["cora"]`) {
		t.Fatalf("%s: %v\n%s", file, err, b)
	}
	out, errOut, code := runCLI(t, "merge", "-out", filepath.Join(t.TempDir(), "m"), dir)
	if code != 0 || !strings.Contains(out, "(0.861)?") {
		t.Errorf("merge: exit %d: %s%s; want GCN's paper number 0.861, marked ? (one rep)", code, out, errOut)
	}
	if err := os.WriteFile(file, []byte(strings.Replace(string(b), `"columns":["cora"]`, `"columns":["nosuch"]`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code = runCLI(t, "merge", "-out", filepath.Join(t.TempDir(), "m2"), dir)
	if code != 2 || !strings.Contains(errOut, "field job.columns") || !strings.Contains(errOut, `column "nosuch" is not one of the paper's Table 4`) {
		t.Errorf("a column edited by hand: exit %d: %s", code, errOut)
	}
}

// Each model of the table trains on a bag-of-words graph at the settings
// the model table gives it there (experiment.ModelRecipeRows and
// ModelRowNormalises): its own where they measured better, the family's
// recipe elsewhere, to the bit the same as those settings given as flags.
// Of the node embeddings, DeepWalk stands for all: they share one
// classifier, which reads no row the recipes set, and their set-ups read
// none at all (MUSAE's takes minutes on Cora, twice over here).
func TestTable4TrainsEachModelAtItsSettings(t *testing.T) {
	for _, kind := range datasets.Table4Models {
		if m, _ := experiment.ModelNamed(kind); m.Group == experiment.GroupEmbedding && kind != experiment.DeepWalk {
			if len(m.Rows) > 0 || m.Own != "" || len(m.OwnOn) > 0 {
				t.Errorf("%s reads rows of its own (%v, own %q): train it here, as a model of its own", kind, m.Rows, m.Own)
			}
			continue
		}
		t.Run(kind, func(t *testing.T) {
			base := []string{"table4", "-datasets", "cora", "-reps", "1", "-epochs", "3", "-models", kind, "-json"}
			flags := slices.Clone(base)
			m, _ := experiment.ModelNamed(kind)
			for _, kv := range strings.Split(experiment.ModelRecipeRows(experiment.RecipeBagOfWords, kind), "&") {
				k, v, _ := strings.Cut(kv, "=")
				if p, _ := experiment.Lookup(k); slices.Contains(m.Rows, k) || p.Group == experiment.GroupTrain {
					flags = append(flags, "-"+k, v) // a row it does not read is refused as a flag
				}
			}
			if experiment.ModelRowNormalises(experiment.RecipeBagOfWords, kind) {
				flags = append(flags, "-row-normalise")
			}
			a, b := table4Mean(t, kind, append(base, "-out", filepath.Join(t.TempDir(), "a"))), table4Mean(t, kind, append(flags, "-out", filepath.Join(t.TempDir(), "b")))
			if a != b {
				t.Errorf("%s: %v by the model table, %v with its settings as flags %v", kind, a, b, flags[len(base):])
			}
		})
	}
}

// table4Mean runs pdn table4 with args and returns kind's mean on Cora.
func table4Mean(t *testing.T, kind string, args []string) float64 {
	t.Helper()
	out, errOut, code := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errOut)
	}
	var sum table4Summary
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &sum); err != nil {
		t.Fatal(err)
	}
	return float64(sum.Results["cora"][kind].Mean)
}

// The protocol line names every model that starts from its own settings,
// with them, and every model whose own settings measured worse.
func TestTable4ProtocolNamesEachModelsSettings(t *testing.T) {
	p := protocol(0, datasets.Table4Models)
	for _, kind := range datasets.Table4Models {
		m, _ := experiment.ModelNamed(kind)
		switch {
		case len(m.OwnOn) > 0:
			if !strings.Contains(p, experiment.OwnSettings(m)) || !strings.Contains(p, kind) {
				t.Errorf("%s starts from its own settings, which the protocol does not say: %s", kind, p)
			}
		case m.Own != "":
			if !strings.Contains(p, "the own settings of") || !strings.Contains(p, kind) {
				t.Errorf("%s's own settings measured no better, which the protocol does not say: %s", kind, p)
			}
		}
	}
}

// A cell the command line cannot train (GraRep's dense powers on a graph
// of 36,000 nodes need far more than 8 GB) is said before any training,
// never trained, and noted in the table with why, whole and merged from
// shards alike; the rest of its rep trains. A reason edited out of the
// job's graphs is refused naming the field.
func TestTable4SaysWhatIsOutOfReach(t *testing.T) {
	const n = 36000 // a ring, its classes arcs of 1,000 nodes
	var edges, labels strings.Builder
	labels.WriteString("node,label\n")
	for i := range n {
		fmt.Fprintf(&edges, "%d %d\n", i, (i+1)%n)
		fmt.Fprintf(&labels, "%d,%d\n", i, i/1000%3)
	}
	dir := filepath.Join(t.TempDir(), "ring")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"ring.edgelist": edges.String(), "labels.csv": labels.String()} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	args := []string{"table4", "-datasets", dir, "-reps", "2", "-models", "mlp,grarep", "-epochs", "1"}
	out, errOut, code := runCLI(t, append(args, "-out", filepath.Join(t.TempDir(), "whole"))...)
	said := "grarep on ring is not trained: this run needs about"
	if code != 0 || !strings.Contains(errOut, said) || !strings.Contains(out, "grarep: not trained, out of the command line's reach") ||
		strings.Contains(out, "diverged") || !strings.Contains(errOut, "of training on one core") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	shards := filepath.Join(t.TempDir(), "shards")
	for _, s := range []string{"1/2", "2/2"} {
		if _, errOut, code := runCLI(t, append(args, "-shard", s, "-out", shards)...); code != 0 {
			t.Fatal(errOut)
		}
	}
	merged, errOut, code := runCLI(t, "merge", "-out", filepath.Join(t.TempDir(), "m"), shards)
	secs := regexp.MustCompile(`splits a graph, [0-9.]+ s`) // the time each took
	if code != 0 || secs.ReplaceAllString(merged, "") != secs.ReplaceAllString(out, "") {
		t.Errorf("merge: exit %d: %s\n%s\nwant the whole run's table:\n%s", code, merged, errOut, out)
	}
	file := shardOf(t, shards, "table4", 1, 2)
	b, err := os.ReadFile(file)
	if err != nil || !strings.Contains(string(b), `"out_of_reach":[{"graph":`) {
		t.Fatalf("%s: %v\n%s", file, err, b)
	}
	edited := strings.Replace(string(b), `"model":"grarep"`, `"model":"gcn"`, 1)
	if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code = runCLI(t, "merge", "-out", filepath.Join(t.TempDir(), "m2"), shards)
	if code != 2 || !strings.Contains(errOut, "field job.out_of_reach") || !strings.Contains(errOut, `model "gcn" is not one of the job's`) {
		t.Errorf("a cell edited by hand: exit %d: %s", code, errOut)
	}
}
