package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// bindMountedInput: a command that reads a folder (its graph, or merge's
// shards) refuses to write inside that folder reached through a bind
// mount (mount --bind b1 bb; -out bb/t), as it does through a link,
// though no path resolves one to the other. It needs root, and a kernel
// that lets it mount; it says so where it cannot.
func bindMountedInput(t *testing.T, name string, s commandSurface) {
	if s.graph == nil && name != "merge" {
		return // it reads no folder
	}
	if os.Geteuid() != 0 {
		t.Log("a bind mount needs root: its case is tried where the tests run as root")
		return
	}
	root := t.TempDir()
	b1, bb := filepath.Join(root, "b1"), filepath.Join(root, "bb")
	if name == "merge" {
		src, _ := shardFixture(t)
		copyTree(t, b1, src)
	} else {
		putTree(t, b1, labelled(60, threeClasses))
	}
	putTree(t, bb, nil)
	if err := syscall.Mount(b1, bb, "", syscall.MS_BIND, ""); err != nil {
		t.Logf("cannot bind-mount here (%v): its case is tried where the tests may mount", err)
		return
	}
	defer func() {
		if err := syscall.Unmount(bb, 0); err != nil {
			t.Errorf("unmount %s: %v", bb, err)
		}
	}()
	out := filepath.Join(bb, "t")
	args := []string{"merge", "-out", out, b1}
	if name != "merge" {
		args = append(append([]string{name}, s.graph(b1)...), s.small...)
		flag := "-out"
		if name == "train" {
			flag = "-export"
		}
		args = append(args, flag, out)
	}
	_, errOut, code := runCLI(t, args...)
	if code != 2 || !strings.Contains(errOut, "is, holds or lies inside") {
		t.Errorf("%v, %s bind-mounted at %s: exit %d: %s", args, b1, bb, code, errOut)
	}
	if _, err := os.Stat(filepath.Join(b1, "t")); err == nil {
		t.Errorf("%v wrote into its input through the mount", args)
	}
}
