package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// pdn merge's cells of the class × surface table: a shard file is read
// back only as pdn writes it (readShard), every field, and a file changed
// by hand is refused naming itself, the field, its line and column.

// shardFixture is a sweep in two shards (scenario 1, one rep, gcn, one
// epoch) in a folder of the test's own, and its two files, shard 1 first.
func shardFixture(t *testing.T) (dir string, files []string) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "shards")
	for _, s := range []string{"1/2", "2/2"} {
		if _, errOut, code := runCLI(t, "sweep", "-scenario", "1", "-reps", "1", "-models", "gcn", "-epochs", "1", "-shard", s, "-out", dir); code != 0 {
			t.Fatal(errOut)
		}
	}
	return dir, []string{shardOf(t, dir, "scenario1", 1, 2), shardOf(t, dir, "scenario1", 2, 2)}
}

// spoiled is a copy of the fixture's folder whose shard 1 is edited by
// edit (its text in, its text out), under the same name.
func spoiled(t *testing.T, edit func(string) string) (dir, file string) {
	t.Helper()
	src, files := shardFixture(t)
	dir = filepath.Join(t.TempDir(), "spoiled")
	copyTree(t, dir, src)
	file = filepath.Join(dir, filepath.Base(files[0]))
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	edited := edit(string(b))
	if edited == string(b) {
		t.Fatal("the edit changed nothing")
	}
	if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, file
}

// mergeRefuses merges dir: exit 2, nothing on stdout, and stderr naming
// the edited file (not the untouched one beside it) and each of want.
func mergeRefuses(t *testing.T, what, dir, file string, want ...string) {
	t.Helper()
	out, errOut, code := runCLI(t, "merge", "-out", filepath.Join(t.TempDir(), "m"), dir)
	if code != 2 || out != "" || !strings.Contains(errOut, filepath.Base(file)) {
		t.Errorf("%s: exit %d, stdout %q, %s; want 2, nothing on stdout, naming %s", what, code, out, errOut, filepath.Base(file))
	}
	for _, w := range want {
		if !strings.Contains(errOut, w) {
			t.Errorf("%s: %s; want it to say %q", what, errOut, w)
		}
	}
	if strings.Contains(errOut, "shard-2-of-2") {
		t.Errorf("%s: %s blames the untouched shard 2", what, errOut)
	}
}

// mergeNumbers: a number in a shard's state is read by the state table's
// rule (decimal, in range), and its seconds and accuracies are in theirs.
func mergeNumbers(t *testing.T) {
	for _, c := range []struct{ from, to, want string }{
		{"lr=0\\.01", "lr=0x1.47ae147ae147bp-7", `field job.state: lr: "0x1.47ae147ae147bp-7" is not allowed`},
		{"lr=0\\.01", "lr=99", "field job.state: lr: 99 is not allowed; want [1e-06, 10]"},
		{`"seconds":[0-9.e-]+`, `"seconds":-5000`, "field seconds: -5000 is outside [0, 1000000000]"},
		{`"acc":0\.[0-9]+`, `"acc":1e999`, "field runs[0].acc: holds the number 1e999"},
	} {
		dir, file := spoiled(t, func(s string) string { return replaceFirst(s, c.from, c.to) })
		mergeRefuses(t, c.to, dir, file, c.want, ":1:")
	}
}

// replaceFirst is s with the first match of the expression re made to.
func replaceFirst(s, re, to string) string {
	loc := regexp.MustCompile(re).FindStringIndex(s)
	if loc == nil {
		return s
	}
	return s[:loc[0]] + to + s[loc[1]:]
}

// mergeStateRows: a shard's state holds each row once, rows the engine
// reads: a row twice, an unknown row and a view row are refused by name.
func mergeStateRows(t *testing.T) {
	for _, c := range []struct{ from, to, want string }{
		{"dropout=0.5", `dropout=0.5\u0026dropout=0.9`, "field job.state: dropout: given twice"},
		{"init-seed=1", `init-seed=1\u0026nosuch=1`, `field job.state: "nosuch" is not a row the engine reads`},
		{"init-seed=1", `init-seed=1\u0026lab=graph`, `field job.state: "lab" is not a row the engine reads`},
	} {
		dir, file := spoiled(t, func(s string) string { return strings.Replace(s, c.from, c.to, 1) })
		mergeRefuses(t, c.to, dir, file, c.want)
	}
}

// mergeEditedByHand: a key given twice (the last would win), a field pdn
// does not write or lacks, a value of the wrong type, and a file whose
// name says another shard than it holds are each refused naming the file
// and the field, exit 2, never Go's JSON error.
func mergeEditedByHand(t *testing.T) {
	for _, c := range []struct{ from, to, want string }{
		{`"acc":0.`, `"acc":0.4,"acc":0.`, "field runs[0].acc: given twice in one object"},
		{`"reps":1`, `"reps":"1"`, "field job.reps: holds text in quotes, want a whole number"},
		{`"runs":`, `"nosuch":1,"runs":`, "field nosuch: not a field pdn writes"},
		{`"at":0,`, ``, `field runs[0]: lacks "at"`},
		{`"shard":[1,2]`, `"shard":[1,2,3]`, "field shard: [1,2,3] is not a shard"},
	} {
		dir, file := spoiled(t, func(s string) string { return strings.Replace(s, c.from, c.to, 1) })
		mergeRefuses(t, c.to, dir, file, c.want)
	}
	// Pretty-printed (as an editor would), a value of the wrong type deep
	// in the runs is found at its own key's line and column, with its index.
	dir, file := spoiled(t, func(s string) string {
		var out bytes.Buffer
		json.Indent(&out, []byte(s), "", "  ")
		return regexp.MustCompile(`("acc": )([0-9.e-]+)`).ReplaceAllString(out.String(), `$1"$2"`)
	})
	b, _ := os.ReadFile(file)
	at := regexp.MustCompile(`"acc": "`).FindIndex(b)
	line := 1 + bytes.Count(b[:at[0]], []byte("\n"))
	col := at[0] - bytes.LastIndexByte(b[:at[0]], '\n')
	mergeRefuses(t, "a pretty-printed run's accuracy as text", dir, file, fmt.Sprintf(":%d:%d: field runs[0].acc: holds text in quotes", line, col))
	src, files := shardFixture(t)
	renamed := filepath.Join(src, "b.shard-7-of-9.json")
	if err := os.Rename(files[1], renamed); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := runCLI(t, "merge", "-out", filepath.Join(t.TempDir(), "m"), src)
	if code != 2 || !strings.Contains(errOut, "b.shard-7-of-9.json") || !strings.Contains(errOut, "its name is not the one pdn gives the shard it holds, shard 2/2") {
		t.Errorf("a shard renamed: exit %d: %s", code, errOut)
	}
}

// mergeZipped: shards zipped to carry them off a cluster, given as the
// zip or in a folder, are said to be a zip to unzip, not read as a file
// of bytes that are no text.
func mergeZipped(t *testing.T) {
	_, files := shardFixture(t)
	dir := filepath.Join(t.TempDir(), "z")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	zipped := filepath.Join(dir, "shards.zip")
	f, err := os.Create(zipped)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for _, p := range files {
		w, _ := zw.Create(filepath.Base(p))
		b, _ := os.ReadFile(p)
		w.Write(b)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, arg := range []string{zipped, dir} {
		_, errOut, code := runCLI(t, "merge", "-out", filepath.Join(t.TempDir(), "m"), arg)
		if code != 2 || !strings.Contains(errOut, "shards.zip") || !strings.Contains(errOut, "is a zip archive") || !strings.Contains(errOut, "unzip it") {
			t.Errorf("merge %s: exit %d: %s", arg, code, errOut)
		}
	}
}

// mergePrintsOnlyWhatItWrites: a folder of two jobs, one whole and one
// missing a shard, is refused before any table is printed or file
// written: stdout stays empty, the output folder is not made.
func mergePrintsOnlyWhatItWrites(t *testing.T) {
	dir, _ := shardFixture(t)
	if _, errOut, code := runCLI(t, "sweep", "-scenario", "2", "-reps", "1", "-models", "gcn", "-epochs", "1", "-shard", "1/2", "-out", dir); code != 0 {
		t.Fatal(errOut)
	}
	out := filepath.Join(t.TempDir(), "m")
	stdout, errOut, code := runCLI(t, "merge", "-out", out, dir)
	if code != 2 || stdout != "" || !strings.Contains(errOut, "scenario 2: shards 2 of 2 are missing") {
		t.Errorf("exit %d, stdout %q, %s; want 2, nothing printed, the missing shard named", code, stdout, errOut)
	}
	if _, err := os.Stat(out); err == nil && slices.ContainsFunc(visible(t, out), func(string) bool { return true }) {
		t.Errorf("the refused merge wrote %v", visible(t, out))
	}
}
