//go:build unix

package datasets

import (
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"

	"pdnexplorer/experiment"
	"pdnexplorer/internal/faults"
	"pdnexplorer/internal/testwait"
)

// specialCell puts something in place of one of a graph's files on disk
// and says what must come of reading the folder: the refusal's words
// after "file: ", or "" for a graph read as the fixture is.
type specialCell struct {
	name    string
	replace func(t *testing.T, path, body string)
	refusal string
}

// specialCells are the class "special and unreadable files": whatever
// stands where a file should, it is refused before it is read, by its
// name and its kind, never waited on; a link to a file is followed.
var specialCells = []specialCell{
	{"a named pipe (FIFO)", func(t *testing.T, p, _ string) { mustDo(t, syscall.Mkfifo(p, 0o644)) }, "is a named pipe (FIFO), not a file"},
	{"a socket", func(t *testing.T, p, _ string) {
		l, err := net.Listen("unix", p)
		mustDo(t, err)
		t.Cleanup(func() { l.Close() })
	}, "is a socket, not a file"},
	{"a device (a link to /dev/zero)", func(t *testing.T, p, _ string) { mustDo(t, os.Symlink("/dev/zero", p)) }, "is a device, not a file"},
	{"a link to itself", func(t *testing.T, p, _ string) { mustDo(t, os.Symlink(filepath.Base(p), p)) }, "is a symbolic link that leads back to itself"},
	{"a link to nothing", func(t *testing.T, p, _ string) { mustDo(t, os.Symlink("gone.csv", p)) }, "is a symbolic link to gone.csv, which does not exist"},
	{"a folder", func(t *testing.T, p, _ string) { mustDo(t, os.Mkdir(p, 0o755)) }, "is a folder, not a file"},
	{"no read permission", func(t *testing.T, p, _ string) {
		if os.Geteuid() == 0 {
			t.Skip("root reads any file")
		}
		mustDo(t, os.WriteFile(p, []byte("0,1\n"), 0o000))
	}, "cannot be read: permission denied"},
	{"a link to the file (audit 153)", func(t *testing.T, p, body string) {
		real := filepath.Join(t.TempDir(), "real")
		mustDo(t, os.WriteFile(real, []byte(body), 0o644))
		mustDo(t, os.Symlink(real, p))
	}, ""},
}

func mustDo(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// loadWithin loads dir on the command line's path, failing the test if
// it waits on anything for a minute (a pipe opened for reading waits for
// a writer forever: the cell would hang, not fail).
func loadWithin(t *testing.T, dir string) (*Graph, error) {
	t.Helper()
	type result struct {
		g   *Graph
		err error
	}
	done := make(chan result, 1)
	go func() {
		g, err := Load(dir, experiment.Default().Data, false)
		done <- result{g, err}
	}()
	select {
	case r := <-done:
		return r.g, r.err
	case <-testwait.Context(t).Done():
		t.Fatalf("reading %s waits and never ends", dir)
		return nil, nil
	}
}

// shortDir is a folder of a short path: a socket's path is at most 108 bytes.
func shortDir(t *testing.T) string {
	dir, err := os.MkdirTemp("", "pf")
	mustDo(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// specialFilesCell is the class "special and unreadable files" on one
// format: each special file in place of each file of each of its
// fixtures, at the root of the folder the command line names and one
// folder down (where the graph is found in its one subfolder), refused by
// name and kind, unread, or read through a link; and its files' names
// not UTF-8 (namesCell).
func specialFilesCell(format string, fxs []faultFixture) faults.Cell {
	return faults.Cell{Check: func(t *testing.T) {
		if len(fxs) == 0 {
			t.Fatalf("format %s has no fixtures: its special-file cells are missing", format)
		}
		for _, fx := range fxs {
			t.Run(fx.name, func(t *testing.T) {
				want := fixtureReads(t, format, fx)
				for _, file := range slices.Sorted(mapsKeys(fx.files)) {
					for _, cell := range specialCells {
						for _, down := range []string{"", "graph"} {
							t.Run(file+"/"+cell.name+"/"+down, func(t *testing.T) {
								specialCase(t, fx, file, down, cell, want)
							})
						}
					}
					t.Run(file+"/a pipe beside it, gzipped or inflated", func(t *testing.T) { pipeBeside(t, fx, file) })
				}
				namesCell(t, fx, want)
			})
		}
	}}
}

func specialCase(t *testing.T, fx faultFixture, file, down string, cell specialCell, want string) {
	root := shortDir(t)
	dir := filepath.Join(root, down)
	writeTree(t, dir, fx.files)
	p := filepath.Join(dir, filepath.FromSlash(file))
	mustDo(t, os.Remove(p))
	cell.replace(t, p, fx.files[file])
	g, err := loadWithin(t, root)
	if cell.refusal == "" {
		if err != nil || fingerprint(g) != want {
			t.Fatalf("%v; want read as %s", err, want)
		}
		return
	}
	if want := fx.shown(file) + ": " + cell.refusal; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("%v; want %q", err, want)
	}
}

// pipeBeside puts a named pipe beside a file of the fixture, under its
// name gzipped (or inflated): the folder holds the file twice, which is
// refused naming both, from the folder's listing, never opening the pipe
// (which would wait for a writer forever).
func pipeBeside(t *testing.T, fx faultFixture, file string) {
	dir := shortDir(t)
	writeTree(t, dir, fx.files)
	other := file + ".gz"
	if plain, ok := strings.CutSuffix(file, ".gz"); ok {
		other = plain
	}
	mustDo(t, syscall.Mkfifo(filepath.Join(dir, filepath.FromSlash(other)), 0o644))
	_, err := loadWithin(t, dir)
	if err == nil || !strings.Contains(err.Error(), filepath.Base(file)) || !strings.Contains(err.Error(), filepath.Base(other)) {
		t.Errorf("%v; want refused naming %s and %s", err, file, other)
	}
}

// A name that is not UTF-8 is refused, shown escaped, with what to do
// (audit 147); a folder of such a name is read (audit 148), and so is a
// graph beside links to its own folder and the one above (audit 152:
// no loop followed, and no link to a folder taken for a table file).
func namesCell(t *testing.T, fx faultFixture, want string) {
	root := shortDir(t)
	files := cloneFiles(fx.files)
	if fx.rename != "" {
		for name, body := range fx.files {
			if after, ok := strings.CutPrefix(name, fx.rename); ok {
				delete(files, name)
				files[fx.spoiled+after] = body
			}
		}
		writeTree(t, root, files)
		_, err := loadWithin(t, root)
		if err == nil || !strings.Contains(err.Error(), "its name is not UTF-8 text") || !strings.Contains(err.Error(), "rename it") || !utf8.ValidString(err.Error()) || !strings.Contains(err.Error(), `\x`) {
			t.Errorf("%q in place of %s: %v; want its name refused, shown escaped", fx.spoiled, fx.rename, err)
		}
		return
	}
	dir := filepath.Join(root, "caf\xe9\xff")
	writeTree(t, dir, files)
	mustDo(t, os.Symlink(".", filepath.Join(dir, "self")))
	mustDo(t, os.Symlink("..", filepath.Join(dir, "up")))
	g, err := loadWithin(t, dir)
	if err != nil || fingerprint(g) != want {
		t.Errorf("in a folder named in Latin-1, beside links to folders: %v; want read as %s", err, want)
	}
}

// Links to folders beside an edge list and its labels are no table
// files: the graph reads (audit 152).
func TestLinkedFoldersAreNoTables(t *testing.T) {
	fx := faultFixtures(t)["edge list"][0]
	dir := shortDir(t)
	writeTree(t, dir, fx.files)
	mustDo(t, os.Symlink(".", filepath.Join(dir, "self")))
	mustDo(t, os.Symlink("..", filepath.Join(dir, "up")))
	if _, err := loadWithin(t, dir); err != nil {
		t.Errorf("an edge list beside links to folders: %v", err)
	}
}

// The path the command line is given is checked before it is read: a
// pipe, a device, a socket, a link loop are refused by name and kind; a
// link to a graph's folder is followed (audit 153).
func TestDataPathKinds(t *testing.T) {
	root := shortDir(t)
	fifo := filepath.Join(root, "graph.zip")
	mustDo(t, syscall.Mkfifo(fifo, 0o644))
	loop := filepath.Join(root, "loop")
	mustDo(t, os.Symlink("loop", loop))
	sock := filepath.Join(root, "s.graphml")
	l, err := net.Listen("unix", sock)
	mustDo(t, err)
	defer l.Close()
	graph := filepath.Join(root, "g")
	writeTree(t, graph, faultFixtures(t)["edge list"][0].files)
	link := filepath.Join(root, "link")
	mustDo(t, os.Symlink("g", link))
	for _, tc := range []struct{ path, want string }{
		{fifo, fifo + ": is a named pipe (FIFO), not a file"},
		{"/dev/zero", "/dev/zero: is a device, not a file"},
		{loop, loop + ": is a symbolic link that leads back to itself"},
		{sock, sock + ": is a socket, not a file"},
		{link, ""},
	} {
		_, err := loadWithin(t, tc.path)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.path, err)
		case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
			t.Errorf("%s: %v; want %q", tc.path, err, tc.want)
		}
	}
}
