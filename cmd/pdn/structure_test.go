package main

import (
	"encoding/csv"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"pdnexplorer/experiment"
)

// pdn structure writes the three CSVs and their figures: homophily.csv a
// row per epoch and run (GCN's learned homophily its input's, PDN's above
// it at the end), robustness.csv a row per perturbation, rate and model,
// transfer.csv a row per model and graph; its robustness runs at rate 0
// are the graph as it is, one accuracy for every perturbation.
func TestStructureWritesItsFiles(t *testing.T) {
	dir := t.TempDir()
	stdout, stderr, code := runCLI(t, "structure", "-per-class", "64", "-epochs", "60", "-models", "pdn,gcn", "-out", dir, "-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	sum := lastJSON(t, stdout)
	if files := sum["files"].([]any); len(files) != 8 {
		t.Errorf("%d files: %v", len(files), files)
	}
	read := func(name string) [][]string {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		rows, err := csv.NewReader(f).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		return rows
	}
	hom := read("homophily.csv")
	if len(hom) != 1+2*60 {
		t.Errorf("homophily.csv: %d rows, want a header and 2 runs × 60 epochs", len(hom))
	}
	last := map[string][]string{}
	for _, r := range hom[1:] {
		last[r[1]] = r
		if r[1] == "gcn" && r[3] != r[4] {
			t.Errorf("GCN's learned homophily %s at epoch %s, its input's %s", r[4], r[0], r[3])
		}
	}
	in, _ := strconv.ParseFloat(last["pdn"][3], 64)
	learned, _ := strconv.ParseFloat(last["pdn"][4], 64)
	if !(learned > in+0.1) {
		t.Errorf("PDN ends at homophily %v on an input of %v", learned, in)
	}
	rob := read("robustness.csv")
	want := 0
	for _, p := range experiment.Perturbations {
		want += 2 * len(p.Rates)
	}
	if len(rob) != 1+want {
		t.Errorf("robustness.csv: %d rows, want %d", len(rob), 1+want)
	}
	atZero := map[string]map[string]bool{}
	for _, r := range rob[1:] {
		if r[1] == "0" {
			if atZero[r[2]] == nil {
				atZero[r[2]] = map[string]bool{}
			}
			atZero[r[2]][r[3]] = true
		}
	}
	for m, accs := range atZero {
		if len(accs) != 1 {
			t.Errorf("%s at rate 0: %v, want one accuracy for every perturbation", m, accs)
		}
	}
	tr := read("transfer.csv")
	if len(tr) != 1+2*len(experiment.TransferModels) || strings.Join(tr[0], ",") != "model,graph,test_acc,learned_homophily" {
		t.Errorf("transfer.csv: %v", tr)
	}
	for _, r := range tr[1:] {
		if r[1] == experiment.FromPDN && r[3] != last["pdn"][4] {
			t.Errorf("%s over PDN's graph propagates with homophily %s; PDN's own run ended at %s", r[0], r[3], last["pdn"][4])
		}
	}
}

// A MUSAE Wikipedia folder, whose target.csv holds each page's monthly
// traffic, is refused without -bins, naming it, and trains with -bins 5
// on 5 classes of about equal size, which it says.
func TestTrainBinsAMeasuredTarget(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "chameleon")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	const n = 300
	var target, edges, feats strings.Builder
	target.WriteString("id,target\n")
	for i := range n {
		fmt.Fprintf(&target, "%d,%d\n", i, int(100*rnd.ExpFloat64()*rnd.ExpFloat64())+i%7)
	}
	edges.WriteString("id1,id2\n")
	for i := range n {
		fmt.Fprintf(&edges, "%d,%d\n", i, (i+1+rnd.IntN(n-1))%n)
	}
	feats.WriteString("{")
	for i := range n {
		if i > 0 {
			feats.WriteString(",")
		}
		fmt.Fprintf(&feats, `"%d":[%d,%d]`, i, rnd.IntN(20), 20+rnd.IntN(20))
	}
	feats.WriteString("}")
	for name, body := range map[string]string{"musae_chameleon_target.csv": target.String(), "musae_chameleon_edges.csv": edges.String(), "musae_chameleon_features.json": feats.String()} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, stderr, code := runCLI(t, "train", "-data", dir, "-epochs", "2"); code != 2 || !strings.Contains(stderr, "-bins K") {
		t.Errorf("without -bins: exit %d, %q; want it refused, naming -bins", code, stderr)
	}
	stdout, stderr, code := runCLI(t, "train", "-data", dir, "-bins", "5", "-epochs", "5", "-json")
	if code != 0 {
		t.Fatalf("-bins 5: exit %d: %s", code, stderr)
	}
	notes := fmt.Sprint(lastJSON(t, stdout)["notes"])
	// 300 pages in 5 classes of about 60 (ties, pages of equal traffic,
	// share a class, so not exactly 60).
	m := regexp.MustCompile(`cut by quantile into 5 classes of (\d+) to (\d+) nodes`).FindStringSubmatch(notes)
	if m == nil {
		t.Fatalf("the notes do not say how it was binned: %s", notes)
	}
	if least, most := atoi(t, m[1]), atoi(t, m[2]); least < 50 || most > 70 {
		t.Errorf("classes of %d to %d nodes; want about 60 each", least, most)
	}
	if _, stderr, code := runCLI(t, "train", "-data", dir, "-bins", "1", "-epochs", "2"); code != 2 || !strings.Contains(stderr, "bins=1 makes one class") {
		t.Errorf("-bins 1: exit %d, %q", code, stderr)
	}
	if _, stderr, code := runCLI(t, "train", "-bins", "5", "-epochs", "2"); code != 2 || !strings.Contains(stderr, "-bins") {
		t.Errorf("-bins on the generator: exit %d, %q; want it refused", code, stderr)
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
