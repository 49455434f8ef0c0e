package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// FuzzFlags parses any arguments for each command (parsing does no work).
// Nothing may panic; a refusal exits 2 with one short line.
func FuzzFlags(f *testing.F) {
	for _, tc := range badCLI {
		if len(tc.args) > 0 {
			f.Add(strings.Join(tc.args, "\x00"))
		}
	}
	f.Add("train\x00-lr\x000x1p-3\x00-edge-hidden\x00\x00-data")
	f.Fuzz(func(t *testing.T, joined string) {
		args := strings.Split(joined, "\x00")
		c, ok := lookup(args[0])
		if !ok {
			return
		}
		_, err := c.parse(args[1:], io.Discard)
		if err == nil {
			return
		}
		if code := exitCode(err); code != 2 && code != 0 {
			t.Fatalf("%q: exit %d for %v", args, code, err)
		}
		if msg := oneLine(err); len(msg) > 600 {
			t.Fatalf("%q: a message of %d bytes", args, len(msg))
		}
	})
}

// FuzzMerge merges any shard file beside the real shards of a small job:
// nothing may panic, a refusal exits 2 with one line naming what is
// wrong, and a merge that goes through writes a CSV of accuracies in
// [0, 1].
func FuzzMerge(f *testing.F) {
	dir := f.TempDir()
	var o, e bytes.Buffer
	for _, part := range []string{"1/2", "2/2"} {
		if err := run([]string{"sweep", "-scenario", "1", "-reps", "1", "-models", "gcn", "-epochs", "1", "-shard", part, "-out", dir}, &o, &e); err != nil {
			f.Fatal(err)
		}
	}
	entries, _ := os.ReadDir(dir)
	var real [][]byte
	for _, en := range entries {
		b, _ := os.ReadFile(filepath.Join(dir, en.Name()))
		real = append(real, b)
		f.Add(b)
	}
	f.Add([]byte(`{"x":1}`))
	f.Add(bytes.Replace(real[0], []byte(`"acc":0.`), []byte(`"acc":5.`), 1))
	f.Add(bytes.Replace(real[0], []byte(`"reps":1`), []byte(`"reps":2`), 1))
	f.Fuzz(func(t *testing.T, shard []byte) {
		in := t.TempDir()
		os.WriteFile(filepath.Join(in, "a.shard-1-of-2.json"), real[0], 0o644)
		os.WriteFile(filepath.Join(in, "fuzzed.shard-2-of-2.json"), shard, 0o644)
		out := filepath.Join(t.TempDir(), "m")
		var o, e bytes.Buffer
		err := run([]string{"merge", "-out", out, in}, &o, &e)
		if err != nil {
			if code := exitCode(err); code != 2 {
				t.Fatalf("exit %d for %v", code, err)
			}
			if msg := oneLine(err); strings.Contains(msg, "\n") || len(msg) > 2000 {
				t.Fatalf("message %q", msg)
			}
			return
		}
		csv, _ := os.ReadFile(filepath.Join(out, "scenario1.csv"))
		for _, line := range strings.Split(strings.TrimSpace(string(csv)), "\n")[1:] {
			cells := strings.Split(line, ",")
			if acc, err := strconv.ParseFloat(cells[len(cells)-1], 64); err == nil && (acc < 0 || acc > 1) {
				t.Fatalf("merged an accuracy %v", acc)
			}
		}
	})
}
