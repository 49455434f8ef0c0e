package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"pdnexplorer/experiment"
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
	if entries := visible(t, shards); len(entries) != 12 {
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
	job := table4Job{Graphs: []string{"g"}, Digests: []string{strings.Repeat("ab", 32)}, Models: []string{"gcn"}, Reps: 9, State: experiment.Default().EncodeRun()}
	w, err := openOut(outSpec{dir: dir, flag: "out", parts: []string{shardPart("table4", job, shard{2, 3})}}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	err = writeShard(w, "table4", "table4", job, shard{2, 3}, 1.5, acc, nil, io.Discard)
	finishOut(w, &err)
	if err != nil {
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
	first := shardOf(t, a, "table4", 1, 3)
	copyFile(t, first, filepath.Join(b, filepath.Base(first)))
	junk := filepath.Join(root, "junk.json")
	os.WriteFile(junk, []byte(`{"command": "train"}`), 0o644)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"a shard missing", []string{a}, "table4: shards 2 of 3 are missing"},
		{"a shard twice", []string{a, b}, "shard 1/3 again"},
		{"not a shard file", []string{junk}, `junk.json: not a shard file of pdn sweep or pdn table4 (its command is "train")`},
		{"no shard files", []string{root}, "no shard files"},
		{"no folders", nil, "merge: no shard folders"},
		{"a missing folder beside the real one", []string{filepath.Join(root, "nonexistent"), a}, "nonexistent\": no such shard folder or file"},
	} {
		_, errOut, code := runCLI(t, append([]string{"merge", "-out", filepath.Join(root, "m")}, tc.args...)...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%s: exit %d: %s; want %q", tc.name, code, errOut, tc.want)
		}
	}
}

// shardOf is the path of shard i of n of stem's job in dir.
func shardOf(t *testing.T, dir, stem string, i, n int) string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, fmt.Sprintf("%s-*.shard-%d-of-%d.json", stem, i, n)))
	if len(m) != 1 {
		t.Fatalf("%d files for %s shard %d/%d in %s", len(m), stem, i, n, dir)
	}
	return m[0]
}

// Shards that cannot be one job's are refused by name, whatever their
// folders are called: two graphs of one folder name, shards of jobs with
// other settings side by side, a shard edited to hold an accuracy outside
// [0, 1]; a shard re-saved by another JSON writer still merges.
func TestMergeRefusesShardsThatDoNotMix(t *testing.T) {
	root := t.TempDir()
	mkBundle := func(dir string, label1 string) {
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, "meta.json"), []byte(`{"name": "mydata"}`), 0o644)
		var nodes strings.Builder
		nodes.WriteString("id,label,split,x0\n")
		for i := range 40 {
			fmt.Fprintf(&nodes, "%d,%d,test,%d\n", i, i%2, i%5)
		}
		os.WriteFile(filepath.Join(dir, "nodes.csv"), []byte(strings.Replace(nodes.String(), "1,1,test", "1,"+label1+",test", 1)), 0o644)
		var edges strings.Builder
		edges.WriteString("source,target,e0\n")
		for i := range 39 {
			fmt.Fprintf(&edges, "%d,%d,1\n", i, i+1)
		}
		os.WriteFile(filepath.Join(dir, "edges.csv"), []byte(edges.String()), 0o644)
	}
	mkBundle(filepath.Join(root, "A", "mydata"), "1")
	mkBundle(filepath.Join(root, "B", "mydata"), "0")
	mixed := filepath.Join(root, "mixed")
	for i, from := range []string{"A", "B"} {
		args := []string{"table4", "-datasets", filepath.Join(root, from, "mydata"), "-reps", "2", "-epochs", "2", "-models", "gcn", "-shots", "5", "-shard", fmt.Sprintf("%d/2", i+1), "-out", mixed}
		if _, errOut, code := runCLI(t, args...); code != 0 {
			t.Fatal(errOut)
		}
	}
	_, errOut, code := runCLI(t, "merge", "-out", filepath.Join(root, "m1"), mixed)
	if code != 2 || !strings.Contains(errOut, "table4: shards") || !strings.Contains(errOut, `but of another job (graph "mydata" holds other contents (digest `) {
		t.Errorf("two graphs of one name: exit %d: %s", code, errOut)
	}

	sweep := []string{"sweep", "-scenario", "1", "-models", "gcn", "-epochs", "2"}
	reps := filepath.Join(root, "reps")
	for _, part := range []string{"1/3", "2/3"} {
		runCLI(t, append(sweep, "-reps", "2", "-shard", part, "-out", reps)...)
	}
	runCLI(t, append(sweep, "-reps", "1", "-shard", "3/3", "-out", reps)...)
	_, errOut, code = runCLI(t, "merge", "-out", filepath.Join(root, "m2"), reps)
	if code != 2 || !strings.Contains(errOut, "scenario 1: shards 3 of 3 are missing") || !strings.Contains(errOut, "is shard 3, but of another job (reps 1, not 2)") {
		t.Errorf("a shard of another job: exit %d: %s", code, errOut)
	}
	// Audit case 97: a row of the state that differs is named with both
	// values, however long the state.
	lr := filepath.Join(root, "lr")
	runCLI(t, append(sweep, "-reps", "1", "-shard", "1/2", "-out", lr)...)
	runCLI(t, append(sweep, "-reps", "1", "-lr", "0.02", "-shard", "2/2", "-out", lr)...)
	_, errOut, code = runCLI(t, "merge", "-out", filepath.Join(root, "m3"), lr)
	if code != 2 || !regexp.MustCompile(`but of another job \(lr 0\.0(2, not 0\.01|1, not 0\.02)\)`).MatchString(errOut) {
		t.Errorf("a shard of another lr: exit %d: %s", code, errOut)
	}

	whole := filepath.Join(root, "whole")
	for _, part := range []string{"1/2", "2/2"} {
		runCLI(t, append(sweep, "-reps", "1", "-shard", part, "-out", whole)...)
	}
	one := shardOf(t, whole, "scenario1", 1, 2)
	b, _ := os.ReadFile(one)
	var v map[string]any
	json.Unmarshal(b, &v)
	pretty, _ := json.MarshalIndent(v, "", "  ")
	os.WriteFile(one, pretty, 0o644)
	if out, errOut, code := runCLI(t, "merge", "-out", filepath.Join(root, "m3"), whole); code != 0 {
		t.Errorf("a pretty-printed shard: exit %d: %s%s", code, out, errOut)
	}
	for _, bad := range []string{"5", "-0.3"} {
		edited := regexp.MustCompile(`"acc": 0\.[0-9]+`).ReplaceAllLiteralString(string(pretty), `"acc": `+bad)
		os.WriteFile(one, []byte(edited), 0o644)
		_, errOut, code = runCLI(t, "merge", "-out", filepath.Join(root, "m4"), whole)
		if code != 2 || !strings.Contains(errOut, "is outside [0, 1]") || !strings.Contains(errOut, filepath.Base(one)) {
			t.Errorf("accuracy %s: exit %d: %s", bad, code, errOut)
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

// visible are the names in dir but the hidden ones (the writer's own
// .pdn-out).
func visible(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), ".") {
			names = append(names, e.Name())
		}
	}
	return names
}

// merge reads a shard's numbers by numtext's rule (a -0 accuracy is 0,
// written 0.0000, never -0.0000), and names each file beside the shards
// that looks like one but is not read, with why, where shards are missing
// (a gzipped shard was left out without a word).
func TestMergeReadsNumbersAndNamesWhatItDoesNotRead(t *testing.T) {
	for _, c := range []struct {
		name  string
		spoil func(t *testing.T, dir, file string)
		code  int
		want  string // in table4.csv/scenario1.csv where merged, else in stderr
		never string
	}{
		{"-0 accuracy", func(t *testing.T, dir, file string) {
			b, _ := os.ReadFile(file)
			os.WriteFile(file, []byte(replaceFirst(string(b), `"acc":[0-9.e-]+`, `"acc":-0`)), 0o644)
		}, 0, ",0.0000\n", ",-0.0000"},
		{"a shard gzipped", func(t *testing.T, dir, file string) {
			b, _ := os.ReadFile(file)
			var z bytes.Buffer
			zw := gzip.NewWriter(&z)
			zw.Write(b)
			zw.Close()
			os.WriteFile(file+".gz", z.Bytes(), 0o644)
			os.Remove(file)
		}, 2, "shard-1-of-2.json.gz\" (not read: it is compressed (gzip): unpack it (gunzip) and merge again)", ""},
		{"a shard renamed", func(t *testing.T, dir, file string) {
			os.Rename(file, strings.TrimSuffix(file, ".json")+".txt")
		}, 2, "shard-1-of-2.txt\" (not read: merge reads shard files named *.shard-I-of-N.json", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			src, files := shardFixture(t)
			dir := filepath.Join(t.TempDir(), "shards")
			copyTree(t, dir, src)
			c.spoil(t, dir, filepath.Join(dir, filepath.Base(files[0])))
			out := filepath.Join(t.TempDir(), "m")
			_, errOut, code := runCLI(t, "merge", "-out", out, dir)
			got := errOut
			if code == 0 {
				b, _ := os.ReadFile(filepath.Join(out, "scenario1.csv"))
				got = string(b)
			}
			if code != c.code || !strings.Contains(got, c.want) || c.never != "" && strings.Contains(got, c.never) {
				t.Errorf("exit %d, %q; want %d and %q", code, got, c.code, c.want)
			}
		})
	}
}
