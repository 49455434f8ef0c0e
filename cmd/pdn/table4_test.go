package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
