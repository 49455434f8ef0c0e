package outdir

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// write runs one commit of files (name → text) of part into dir.
func write(t *testing.T, dir string, opt Options, part string, files map[string]string) error {
	t.Helper()
	r, err := Open(dir, opt)
	if err != nil {
		return err
	}
	for name, text := range files {
		if err := r.WriteFile(part, name, []byte(text), 0o644); err != nil {
			r.Abort()
			return err
		}
	}
	return r.Commit()
}

func read(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return string(b)
}

func opts(parts ...string) Options { return Options{Command: "test", Parts: parts} }

func TestForeignFilesAreRefusedByNameAndForceWritesBeside(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"homophily.csv", "a.txt", "b.txt", "c.txt"} {
		os.WriteFile(filepath.Join(dir, n), []byte("mine"), 0o644)
	}
	os.Mkdir(filepath.Join(dir, "photos"), 0o755)
	err := write(t, dir, opts("structure"), "structure", map[string]string{"homophily.csv": "new"})
	var re *RefusedError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), `"a.txt", "b.txt", "c.txt" and 2 more`) || !strings.Contains(err.Error(), "-force") {
		t.Fatalf("got %v; want a refusal naming a.txt, b.txt, c.txt and 2 more, and -force", err)
	}
	if read(t, filepath.Join(dir, "homophily.csv")) != "mine" {
		t.Fatal("the refused run touched the user's file")
	}
	o := opts("structure")
	o.Force = true
	if err := write(t, dir, o, "structure", map[string]string{"robustness.csv": "new"}); err != nil {
		t.Fatal(err)
	}
	if read(t, filepath.Join(dir, "a.txt")) != "mine" || read(t, filepath.Join(dir, "robustness.csv")) != "new" {
		t.Error("-force did not write beside the user's files")
	}
}

func TestAChangedFileIsTheUsers(t *testing.T) {
	dir := t.TempDir()
	if err := write(t, dir, opts("sweep"), "sweep", map[string]string{"scenario4.csv": "run 1"}); err != nil {
		t.Fatal(err)
	}
	if err := write(t, dir, opts("sweep"), "sweep", map[string]string{"scenario4.csv": "run 2"}); err != nil {
		t.Fatalf("re-running into its own folder: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "scenario4.csv"), []byte("my thesis numbers"), 0o644)
	err := write(t, dir, opts("sweep"), "sweep", map[string]string{"scenario4.csv": "run 3"})
	if err == nil || !strings.Contains(err.Error(), `"scenario4.csv" (changed since pdn wrote it)`) {
		t.Fatalf("got %v; want the changed file named", err)
	}
}

func TestAPartIsReplacedWholeAndOthersKept(t *testing.T) {
	dir := t.TempDir()
	if err := write(t, dir, opts("gen"), "gen", map[string]string{"nodes.csv": "1", "features.csv": "1", "sub/x.csv": "1"}); err != nil {
		t.Fatal(err)
	}
	if err := write(t, dir, opts("other"), "other", map[string]string{"other.csv": "1"}); err != nil {
		t.Fatal(err)
	}
	if err := write(t, dir, opts("gen"), "gen", map[string]string{"nodes.csv": "2"}); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]string{"nodes.csv": "2", "other.csv": "1"} {
		if got := read(t, filepath.Join(dir, p)); got != want {
			t.Errorf("%s = %q, want %q", p, got, want)
		}
	}
	for _, gone := range []string{"features.csv", "sub"} {
		if exists(filepath.Join(dir, gone)) {
			t.Errorf("%s of the earlier run is still there beside the new run's", gone)
		}
	}
	m, _ := ReadManifest(dir)
	if len(m.Files) != 2 || len(m.Runs) != 2 {
		t.Errorf("manifest %+v; want 2 files of 2 runs", m)
	}
}

func TestAbortLeavesTheEarlierFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, opts("p"), "p", map[string]string{"a.csv": "old", "b.csv": "old"})
	r, err := Open(dir, opts("p"))
	if err != nil {
		t.Fatal(err)
	}
	r.WriteFile("p", "a.csv", []byte("new"), 0o644)
	w, _ := r.Create("p", "b.csv", 0o644)
	w.Write([]byte("ne")) // cut short: a full disk, an error
	if !r.Abort() {
		t.Error("Abort found nothing to drop")
	}
	if read(t, filepath.Join(dir, "a.csv")) != "old" || read(t, filepath.Join(dir, "b.csv")) != "old" {
		t.Error("an aborted run changed the earlier files")
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, Meta, "runs")); len(entries) != 0 {
		t.Errorf("the aborted run left %v", entries)
	}
	if err := write(t, dir, opts("p"), "p", map[string]string{"a.csv": "new"}); err != nil {
		t.Errorf("after an aborted run: %v", err)
	}
}

func TestASecondRunFailsNamingTheFirstAndOtherPartsShare(t *testing.T) {
	dir := t.TempDir()
	first, err := Open(dir, Options{Command: "pdn structure -out cc -seed 1", Parts: []string{"structure"}})
	if err != nil {
		t.Fatal(err)
	}
	defer first.Abort()
	_, err = Open(dir, Options{Command: "pdn structure -out cc -seed 2", Parts: []string{"structure"}})
	if err == nil || !strings.Contains(err.Error(), "pdn structure -out cc -seed 1 (pid ") || !strings.Contains(err.Error(), "started ") {
		t.Fatalf("got %v; want the first run named with its pid and start", err)
	}
	shard2, err := Open(dir, opts("scenario1.shard-2-of-2"))
	if err != nil {
		t.Fatalf("another part: %v", err)
	}
	shard2.WriteFile("scenario1.shard-2-of-2", "s2.json", []byte("2"), 0o644)
	first.WriteFile("structure", "homophily.csv", []byte("h"), 0o644)
	if err := shard2.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := first.Commit(); err != nil {
		t.Fatal(err)
	}
	if m, _ := ReadManifest(dir); len(m.Files) != 2 {
		t.Errorf("manifest %+v: want both runs' files", m.Files)
	}
	if err := write(t, dir, opts("structure"), "structure", map[string]string{"homophily.csv": "2"}); err != nil {
		t.Errorf("once the first run is over: %v", err)
	}
}

// A commit cut short after its first move (SIGKILL) is finished by the
// next Open: the folder holds the new run's files, never a mix.
func TestACommitCutShortIsFinished(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, opts("p"), "p", map[string]string{"a.csv": "old", "b.csv": "old", "c.csv": "old"})
	r, err := Open(dir, opts("p"))
	if err != nil {
		t.Fatal(err)
	}
	r.WriteFile("p", "a.csv", []byte("new"), 0o644)
	r.WriteFile("p", "b.csv", []byte("new"), 0o644)
	m, _ := readManifest(r.meta)
	j := r.plan(m)
	if err := j.write(r.meta, r.id); err != nil {
		t.Fatal(err)
	}
	cut := j
	cut.Moves = cut.Moves[:2] // c.csv removed, a.csv in place; b.csv not yet
	cut.Manifest = m
	if err := cut.apply(r.dir, r.meta, r.id); err != nil {
		t.Fatal(err)
	}
	r.releaseLocked() // the process dies: the kernel frees its locks
	if err := write(t, dir, opts("q"), "q", map[string]string{"q.csv": "q"}); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]string{"a.csv": "new", "b.csv": "new"} {
		if got := read(t, filepath.Join(dir, p)); got != want {
			t.Errorf("%s = %q, want %q", p, got, want)
		}
	}
	if exists(filepath.Join(dir, "c.csv")) || exists(runPath(r.meta, r.id)) {
		t.Error("the dead run's commit was not finished")
	}
	m, _ = ReadManifest(dir)
	if m.Files["a.csv"].Run != r.id || m.Files["b.csv"].Run != r.id || len(m.Files) != 3 {
		t.Errorf("manifest %+v", m.Files)
	}
}

func TestInputsAreNeverWrittenIntoOrAround(t *testing.T) {
	root := t.TempDir()
	data := filepath.Join(root, "pk")
	os.MkdirAll(filepath.Join(data, "sub"), 0o755)
	os.WriteFile(filepath.Join(root, "g.graphml"), []byte("x"), 0o644)
	for _, c := range []struct {
		out, in string
		refused bool
	}{
		{data, data, true},
		{data + "/./", data, true},
		{filepath.Join(data, "st"), data, true},
		{root, data, true},
		{filepath.Join(root, "other"), data, false},
		{root, filepath.Join(root, "g.graphml"), true},
		{filepath.Join(root, "res"), filepath.Join(root, "g.graphml"), false},
	} {
		o := opts("p")
		o.Force = true
		o.Inputs = []Input{{Flag: "data", Path: c.in}}
		r, err := Open(c.out, o)
		if r != nil {
			r.Abort()
		}
		if refused := err != nil && strings.Contains(err.Error(), "-data f"); refused != c.refused {
			t.Errorf("out %s, input %s: %v; want refused %v", c.out, c.in, err, c.refused)
		}
	}
}

func TestTreeWritesInPlace(t *testing.T) {
	tr, err := NewTree(filepath.Join(t.TempDir(), "dist"))
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.WriteFile("web/a.js", []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if read(t, filepath.Join(tr.Dir(), "web", "a.js")) != "x" {
		t.Error("not written")
	}
	if entries, _ := os.ReadDir(filepath.Join(tr.Dir(), "web")); len(entries) != 1 {
		t.Errorf("left %v", entries)
	}
	if err := tr.WriteFile("../out.js", nil, 0o644); err == nil {
		t.Error("a name leaving the tree was written")
	}
	if err := tr.RemoveAll("."); err == nil {
		t.Error("RemoveAll(.) removed the tree")
	}
}

// Runs of other parts into one folder at once (the tasks of a SLURM
// array writing their shards) all commit: none takes another's own lock,
// made a moment before it is taken, for a dead run's.
func TestRunsOfOtherPartsAtOnceAllCommit(t *testing.T) {
	dir := t.TempDir()
	const runs, rounds = 16, 40
	errs := make(chan error, runs*rounds)
	done := make(chan bool)
	for i := range runs {
		go func() {
			defer func() { done <- true }()
			part := "shard-" + string(rune('a'+i))
			for k := range rounds {
				errs <- write(t, dir, opts(part), part, map[string]string{part + ".json": string(rune('0' + k%10))})
			}
		}()
	}
	for range runs {
		<-done
	}
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if m, _ := ReadManifest(dir); len(m.Files) != runs {
		t.Errorf("the manifest holds %d files, want %d", len(m.Files), runs)
	}
}

// An exclusive part (a graph bundle, which a reader opens as the whole
// folder) is the folder's alone: another part's run is refused where it
// is, and it is refused where another part's files are, each naming what
// the folder holds and who wrote it; the same part replaces its own
// files; -force writes beside; parts that are not exclusive share a
// folder (a sweep's shards, structure and attention).
func TestAnExclusivePartIsTheFoldersAlone(t *testing.T) {
	bundle := func() Options { o := opts("gen"); o.Exclusive = "a graph bundle"; o.Command = "pdn gen"; return o }
	other := func(part string) Options { o := opts(part); o.Command = "pdn " + part; return o }
	for _, c := range []struct {
		name       string
		first      Options
		firstPart  string
		second     Options
		secondPart string
		force      bool
		want       string // "" where the second run writes
	}{
		{"export into a bundle", bundle(), "gen", other("export"), "export", false, `holds a graph bundle ("a.csv", written by pdn gen)`},
		{"sweep into a bundle", bundle(), "gen", other("scenario4"), "scenario4", false, "choose another folder"},
		{"a bundle into outputs", other("structure"), "structure", bundle(), "gen", false, `holds another command's outputs ("a.csv", written by pdn structure), and a graph bundle is the folder's alone`},
		{"a bundle again", bundle(), "gen", bundle(), "gen", false, ""},
		{"forced beside a bundle", bundle(), "gen", other("export"), "export", true, ""},
		{"structure and attention", other("structure"), "structure", other("attention"), "attention", false, ""},
		{"two shards", other("scenario4.shard1"), "scenario4.shard1", other("scenario4.shard2"), "scenario4.shard2", false, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := write(t, dir, c.first, c.firstPart, map[string]string{"a.csv": "1"}); err != nil {
				t.Fatal(err)
			}
			c.second.Force = c.force
			err := write(t, dir, c.second, c.secondPart, map[string]string{"b.csv": "2"})
			var re *RefusedError
			switch {
			case c.want == "" && err != nil:
				t.Errorf("%v; want written", err)
			case c.want != "" && (!errors.As(err, &re) || !strings.Contains(err.Error(), c.want)):
				t.Errorf("%v; want refused: %s", err, c.want)
			case c.want != "" && read(t, filepath.Join(dir, "a.csv")) != "1":
				t.Error("the refused run touched the folder")
			}
		})
	}
}

// A run's scratch folder holds what another program reads while the run
// lasts (pdn table4 -pyg's exports) and goes with the run however it
// ends: never put in place, never left behind.
func TestScratchGoesWithTheRun(t *testing.T) {
	for _, end := range []string{"commit", "abort"} {
		t.Run(end, func(t *testing.T) {
			dir := t.TempDir()
			r, err := Open(dir, opts("table4"))
			if err != nil {
				t.Fatal(err)
			}
			s, err := r.Scratch("pyg")
			if err != nil {
				t.Fatal(err)
			}
			if err := s.WriteFile("run-1/graph/meta.json", []byte("{}"), 0o644); err != nil {
				t.Fatal(err)
			}
			if got := read(t, filepath.Join(s.Dir(), "run-1", "graph", "meta.json")); got != "{}" {
				t.Fatalf("the scratch file reads %q", got)
			}
			if err := r.WriteFile("table4", "table4.csv", []byte("a\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if end == "commit" {
				err = r.Commit()
			} else {
				r.Abort()
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(s.Dir()); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("after %s the scratch folder is still there (%v)", end, err)
			}
			if _, err := os.Stat(filepath.Join(dir, "run-1")); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("after %s the scratch's files were put in place", end)
			}
			if _, err := r.Scratch("late"); err == nil {
				t.Errorf("a scratch folder was made after the run's %s", end)
			}
		})
	}
}
