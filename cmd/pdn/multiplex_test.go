package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// pdn multiplex trains the multiplex lab's runs, PDN, GCN over the union
// and GCN over each layer alone, and reports each layer by its name with
// its share within classes and PDN's weight on it, in the text, the JSON
// and the CSVs.
func TestMultiplexCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "m")
	stdout, errOut, code := runCLI(t, "multiplex", "-seeds", "2", "-per-class", "64", "-layers", "90,33,33", "-layer-degree", "6", "-epochs", "60", "-out", out, "-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	var sum multiplexSummary
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &sum); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range sum.Runs {
		names = append(names, r.Name)
		if len(r.Accuracy) != 2 || r.Mean <= 0 {
			t.Errorf("run %s: %v", r.Name, r.Accuracy)
		}
	}
	if want := []string{"pdn", "gcn", "gcn-A", "gcn-B", "gcn-C"}; !slices.Equal(names, want) {
		t.Errorf("runs %v; want %v", names, want)
	}
	if len(sum.Layers) != 3 || sum.Layers[0].Name != "A" || sum.Layers[0].MeanWithin < 0.8 || sum.Layers[1].MeanWithin > 0.45 {
		t.Fatalf("layers %+v; want A within about 0.9, B and C about 0.33", sum.Layers)
	}
	if !strings.Contains(stdout, "GCN over layer C") || !strings.Contains(stdout, "IMDB   0.567 ± 0.008") {
		t.Errorf("the text lacks a run or the paper's figure:\n%s", stdout)
	}
	for _, f := range []string{"multiplex.csv", "multiplex-layers.csv", "multiplex.svg"} {
		b, err := os.ReadFile(filepath.Join(out, f))
		if err != nil || len(b) == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	csv, _ := os.ReadFile(filepath.Join(out, "multiplex-layers.csv"))
	if n := strings.Count(string(csv), "\n"); n != 1+2*3 {
		t.Errorf("multiplex-layers.csv has %d lines; want a header and 2 seeds × 3 layers", n)
	}
}

// The rows its runs set themselves are refused by name.
func TestMultiplexRefusesItsOwnRows(t *testing.T) {
	for _, flag := range [][]string{{"-seed", "3"}, {"-layer", "A"}, {"-model", "gat"}, {"-data", "cora"}} {
		_, errOut, code := runCLI(t, append([]string{"multiplex", "-out", filepath.Join(t.TempDir(), "m")}, flag...)...)
		if code != 2 || !strings.Contains(errOut, flag[0]) {
			t.Errorf("%v: exit %d, %s", flag, code, errOut)
		}
	}
}
