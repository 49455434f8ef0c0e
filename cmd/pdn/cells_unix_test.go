//go:build unix

package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"pdnexplorer/internal/faults"
)

// specialCell: a command given a named pipe where its graph's labels file
// (or merge's shard file) should be, or /dev/zero as its graph, refuses it
// by name and kind, without waiting on it.
func specialCell(name string, s commandSurface) faults.Cell {
	return faults.Cell{Check: func(t *testing.T) {
		root, err := os.MkdirTemp("", "sc")
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(root)
		var cases [][]string
		if name == "merge" {
			putTree(t, filepath.Join(root, "shards"), nil)
			if err := syscall.Mkfifo(filepath.Join(root, "shards", "sweep-0123abcd.shard-1-of-2.json"), 0o644); err != nil {
				t.Fatal(err)
			}
			cases = [][]string{{"merge", "-out", filepath.Join(root, "m"), filepath.Join(root, "shards")}}
		} else {
			g := filepath.Join(root, "g")
			putTree(t, g, map[string][]byte{"edges.csv": []byte(ring(20, ","))})
			if err := syscall.Mkfifo(filepath.Join(g, "labels.csv"), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, data := range []string{g, "/dev/zero"} {
				args := append(append([]string{name}, s.graph(data)...), s.small...)
				if s.writes && name != "train" {
					args = append(args, "-out", filepath.Join(root, "out"))
				}
				cases = append(cases, args)
			}
		}
		for _, args := range cases {
			_, errOut, code := runCLI(t, args...)
			if code != 2 || !strings.Contains(errOut, "is a named pipe (FIFO), not a file") && !strings.Contains(errOut, "/dev/zero: is a device, not a file") {
				t.Errorf("%v: exit %d: %s", args, code, errOut)
			}
		}
	}}
}

// specialFolders are paths that are no folder to write into, each with
// what a refusal says it is: a named pipe, a device, a loop of links.
func specialFolders(t *testing.T) map[string]string {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	a, b := filepath.Join(dir, "loopA"), filepath.Join(dir, "loopB")
	if err := errors.Join(os.Symlink(b, a), os.Symlink(a, b)); err != nil {
		t.Fatal(err)
	}
	return map[string]string{
		fifo:        "is a named pipe (FIFO); want a directory to write into",
		"/dev/null": "is a device; want a directory to write into",
		a:           "is a symbolic link that leads back to itself (a loop of links)",
	}
}
