package main

import (
	"bytes"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A sweep and a table4 run in 3 shards each, written into one folder as
// a cluster's shared disk holds them, merge into the files one machine
// writes, byte for byte.
func TestShardsMergeIntoTheWhole(t *testing.T) {
	root := t.TempDir()
	jobs := []struct {
		args  []string
		files []string
	}{
		{[]string{"sweep", "-scenario", "1", "-reps", "2", "-models", "pdn,gcn,mlp", "-epochs", "5"}, []string{"scenario1.csv", "scenario1.svg"}},
		// Several scenarios at once: a shard file each, as each alone.
		{[]string{"sweep", "-scenario", "8,6", "-reps", "1", "-models", "gcn,mlp", "-epochs", "2"}, []string{"scenario6.csv", "scenario6.svg", "scenario8.csv", "scenario8.svg"}},
		{[]string{"table4", "-reps", "2", "-epochs", "3", "-models", "gcn,mlp"}, []string{"table4.csv", "table4.svg"}},
	}
	whole, shards, merged := filepath.Join(root, "whole"), filepath.Join(root, "shards"), filepath.Join(root, "merged")
	for _, j := range jobs {
		if _, errOut, code := runCLI(t, append(j.args, "-out", whole)...); code != 0 {
			t.Fatalf("%v: exit %d: %s", j.args, code, errOut)
		}
		for _, part := range []string{"1/3", "2/3", "3/3"} {
			out, errOut, code := runCLI(t, append(j.args, "-shard", part, "-out", shards)...)
			if code != 0 || !strings.Contains(out, "shard "+part) {
				t.Fatalf("%v -shard %s: exit %d: %s%s", j.args, part, code, out, errOut)
			}
		}
	}
	if entries, _ := os.ReadDir(shards); len(entries) != 12 {
		t.Fatalf("the shards wrote %d files, want 12 (3 a scenario and 3 for table4, nothing else)", len(entries))
	}
	if out, errOut, code := runCLI(t, "merge", "-out", merged, shards); code != 0 || !strings.Contains(out, "scenario 1") || !strings.Contains(out, "scenario 8") || !strings.Contains(out, "Table 4") {
		t.Fatalf("merge: exit %d: %s%s", code, out, errOut)
	}
	for _, j := range jobs {
		for _, name := range j.files {
			a, errA := os.ReadFile(filepath.Join(whole, name))
			b, errB := os.ReadFile(filepath.Join(merged, name))
			if errA != nil || errB != nil || !bytes.Equal(a, b) {
				t.Errorf("%s: the merge differs from one machine's (%v, %v)", name, errA, errB)
			}
		}
	}
}

// A shard's runs read back as written: a run without a result stays one.
func TestShardFileKeepsEveryBit(t *testing.T) {
	dir := t.TempDir()
	acc := map[int]float64{1: 0.1 + 0.2, 4: math.NaN(), 7: 1.0 / 3}
	if err := writeShard(dir, "table4", "table4", table4Job{Graphs: []string{"g"}, Models: []string{"gcn"}, Reps: 9}, shard{2, 3}, 1.5, acc, io.Discard); err != nil {
		t.Fatal(err)
	}
	jobs, err := readShards([]string{dir})
	if err != nil || len(jobs) != 1 {
		t.Fatalf("%d jobs, %v", len(jobs), err)
	}
	got := jobs[0].acc
	if len(got) != 3 || got[1] != 0.1+0.2 || got[7] != 1.0/3 || !math.IsNaN(got[4]) {
		t.Errorf("read back %v, want %v", got, acc)
	}
}

// Shards that do not make a whole are refused, naming what is wrong.
func TestMergeRefusesIncompleteShards(t *testing.T) {
	root := t.TempDir()
	args := []string{"table4", "-datasets", "cora", "-reps", "1", "-epochs", "1", "-models", "gcn,mlp"}
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	for _, part := range []string{"1/3", "3/3"} {
		if _, errOut, code := runCLI(t, append(args, "-shard", part, "-out", a)...); code != 0 {
			t.Fatal(errOut)
		}
	}
	os.MkdirAll(b, 0o755)
	copyFile(t, filepath.Join(a, "table4.shard-1-of-3.json"), filepath.Join(b, "table4.shard-1-of-3.json"))
	junk := filepath.Join(root, "junk.json")
	os.WriteFile(junk, []byte(`{"command": "train"}`), 0o644)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"a shard missing", []string{a}, "table4: shards 2 of 3 are missing"},
		{"a shard twice", []string{a, b}, "shard 1/3 again"},
		{"not a shard file", []string{junk}, "not a shard file of pdn sweep or pdn table4"},
		{"no shard files", []string{root}, "no shard files"},
		{"no folders", nil, "merge: no shard folders"},
	} {
		_, errOut, code := runCLI(t, append([]string{"merge", "-out", filepath.Join(root, "m")}, tc.args...)...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%s: exit %d: %s; want %q", tc.name, code, errOut, tc.want)
		}
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
