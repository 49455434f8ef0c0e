//go:build unix

package main

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Every path the command line takes as input is looked at before it is
// read: -data (a folder, a zip, a .graphml, and every file inside the
// folder), table4's and attention's -datasets, merge's shard folders and
// files. A pipe, a device, a socket or a loop of links is refused by
// name and kind, and none is waited on (a pipe opened for reading waits
// for a writer forever; /dev/zero never ends).
func TestSpecialInputsCLI(t *testing.T) {
	root, err := os.MkdirTemp("", "pc") // a socket's path is at most 108 bytes
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(root)
	at := func(name string) string { return filepath.Join(root, name) }
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(syscall.Mkfifo(at("pipe.zip"), 0o644))
	must(syscall.Mkfifo(at("pipe.shard-1-of-2.json"), 0o644))
	must(os.Symlink("loop", at("loop")))
	l, err := net.Listen("unix", at("sock"))
	must(err)
	defer l.Close()
	// A graph whose labels file is a pipe, at the top and one folder down.
	files := map[string][]byte{"edges.csv": []byte(ring(20, ","))}
	putTree(t, at("g"), files)
	must(syscall.Mkfifo(at("g/labels.csv"), 0o644))
	putTree(t, at("down/graph"), files)
	must(syscall.Mkfifo(at("down/graph/labels.csv"), 0o644))
	// A shard folder holding a pipe named as a shard file.
	putTree(t, at("shards"), nil)
	must(syscall.Mkfifo(at("shards/sweep-0123abcd.shard-1-of-2.json"), 0o644))
	stdin := "/dev/stdin" // a pipe, a terminal or /dev/null: never a file

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"train", "-data", at("pipe.zip")}, at("pipe.zip") + ": is a named pipe (FIFO), not a file"},
		{[]string{"train", "-data", "/dev/zero"}, "/dev/zero: is a device, not a file"},
		{[]string{"train", "-data", stdin}, stdin + ": is a "},
		{[]string{"train", "-data", at("sock")}, at("sock") + ": is a socket, not a file"},
		{[]string{"train", "-data", at("loop")}, at("loop") + ": is a symbolic link that leads back to itself"},
		{[]string{"train", "-data", at("g")}, "labels.csv: is a named pipe (FIFO), not a file"},
		{[]string{"train", "-data", at("down")}, "labels.csv: is a named pipe (FIFO), not a file"},
		{[]string{"structure", "-data", at("g"), "-out", at("st")}, "labels.csv: is a named pipe (FIFO), not a file"},
		{[]string{"table4", "-datasets", at("pipe.zip"), "-out", at("t4")}, "flag -datasets: " + at("pipe.zip") + ": is a named pipe (FIFO), not a file"},
		{[]string{"attention", "-datasets", "/dev/zero", "-out", at("att")}, "flag -datasets: /dev/zero: is a device, not a file"},
		{[]string{"table4", "-datasets", at("g"), "-reps", "1", "-epochs", "1", "-models", "mlp", "-out", at("t4g")}, "labels.csv: is a named pipe (FIFO), not a file"},
		{[]string{"merge", "-out", at("m1"), at("pipe.shard-1-of-2.json")}, at("pipe.shard-1-of-2.json") + ": is a named pipe (FIFO), not a file"},
		{[]string{"merge", "-out", at("m2"), at("shards")}, "sweep-0123abcd.shard-1-of-2.json: is a named pipe (FIFO), not a file"},
		{[]string{"merge", "-out", at("m3"), at("loop")}, "merge: " + at("loop") + ": is a symbolic link that leads back to itself"},
	} {
		_, errOut, code := runWithin(t, c.args...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("pdn %s: exit %d, %s\nwant exit 2 and %q", strings.Join(c.args, " "), code, strings.TrimSpace(errOut), c.want)
		}
	}
}
