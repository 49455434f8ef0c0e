package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"pdnexplorer/internal/outdir"
	"pdnexplorer/internal/testwait"
)

// The tests of the one writer (internal/outdir) on every command that
// writes, run as processes of a pdn the test builds: tiny runs (-epochs 2,
// -per-class 16, one model where the command takes one). They never
// assert on time; a wait for a process is generous (a busy machine).

var (
	pdnOnce sync.Once
	pdnBin  string
	pdnErr  error
)

// builtPDN builds pdn once for the tests that run it as a process.
func builtPDN(t *testing.T) string {
	t.Helper()
	pdnOnce.Do(func() {
		dir, err := os.MkdirTemp("", "pdn-outputs-test")
		if err != nil {
			pdnErr = err
			return
		}
		pdnBin = filepath.Join(dir, "pdn")
		out, err := exec.Command("go", "build", "-o", pdnBin, ".").CombinedOutput()
		if err != nil {
			pdnErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if pdnErr != nil {
		t.Fatal(pdnErr)
	}
	return pdnBin
}

// proc is a pdn process started by a test.
type proc struct {
	cmd            *exec.Cmd
	stdout, stderr bytes.Buffer
	done           chan error
}

func startPDN(t *testing.T, args ...string) *proc {
	t.Helper()
	p := &proc{cmd: exec.Command(builtPDN(t), args...), done: make(chan error, 1)}
	p.cmd.Stdout, p.cmd.Stderr = &p.stdout, &p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- p.cmd.Wait() }()
	return p
}

// wait waits for the process, failing the test if it hangs, and returns
// its exit status (-1 if a signal ended it before pdn could answer it).
func (p *proc) wait(t *testing.T) int {
	t.Helper()
	select {
	case <-p.done:
	case <-testwait.Context(t).Done():
		p.cmd.Process.Kill()
		t.Fatalf("pdn %v did not end in the test's time: %s", p.cmd.Args[1:], p.stderr.String())
	}
	return p.cmd.ProcessState.ExitCode()
}

// runPDN runs pdn to its end.
func runPDN(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	p := startPDN(t, args...)
	code = p.wait(t)
	return p.stdout.String(), p.stderr.String(), code
}

// writingCommand is one command that writes, as the tests run it: old and
// new write different results into out.
type writingCommand struct {
	name     string
	old, new func(out string) []string
}

// writingCommands are every command that writes, each writing shape
// (gen's bundle and its -like files, train's -export, a whole sweep and
// table4 and their shards, merge). prep makes the inputs some of them read.
func writingCommands(t *testing.T, root string) []writingCommand {
	t.Helper()
	graph := filepath.Join(root, "graph")
	if _, errOut, code := runPDN(t, "gen", "-per-class", "16", "-out", graph); code != 0 {
		t.Fatalf("gen: %s", errOut)
	}
	shards := func(name, lr string) string {
		dir := filepath.Join(root, name)
		for _, s := range []string{"1/2", "2/2"} {
			if _, errOut, code := runPDN(t, "sweep", "-scenario", "1", "-reps", "1", "-models", "gcn", "-epochs", "2", "-workers", "1", "-lr", lr, "-shard", s, "-out", dir); code != 0 {
				t.Fatalf("sweep -shard %s: %s", s, errOut)
			}
		}
		return dir
	}
	oldShards, newShards := shards("shards-old", "0.01"), shards("shards-new", "0.02")
	seeded := func(args ...string) (func(string) []string, func(string) []string) {
		with := func(seed string) func(string) []string {
			return func(out string) []string { return append(slices.Clone(args), "-seed", seed, "-out", out) }
		}
		return with("1"), with("2")
	}
	lrs := func(args ...string) (func(string) []string, func(string) []string) {
		with := func(lr string) func(string) []string {
			return func(out string) []string { return append(slices.Clone(args), "-lr", lr, "-out", out) }
		}
		return with("0.01"), with("0.02")
	}
	var cmds []writingCommand
	add := func(name string, old, new func(string) []string) {
		cmds = append(cmds, writingCommand{name, old, new})
	}
	add("gen", func(out string) []string { return []string{"gen", "-per-class", "16", "-seed", "1", "-out", out} },
		func(out string) []string {
			return []string{"gen", "-per-class", "16", "-seed", "2", "-node-features", "8", "-out", out}
		})
	add("gen -like", func(out string) []string { return []string{"gen", "-like", "facebook", "-seed", "1", "-out", out} },
		func(out string) []string { return []string{"gen", "-like", "facebook", "-seed", "2", "-out", out} })
	add("train -export", func(out string) []string {
		return []string{"train", "-per-class", "16", "-epochs", "2", "-quiet", "-seed", "1", "-export", out}
	}, func(out string) []string {
		return []string{"train", "-per-class", "16", "-epochs", "2", "-quiet", "-seed", "2", "-export", out}
	})
	sweep := []string{"sweep", "-scenario", "1", "-reps", "1", "-models", "gcn", "-epochs", "2", "-workers", "1"}
	o, n := lrs(sweep...)
	add("sweep", o, n)
	// The shards of one job: the same part, old and new told apart by run.
	shard := func(out string) []string { return append(slices.Clone(sweep), "-shard", "1/2", "-out", out) }
	add("sweep -shard", shard, shard)
	table4 := []string{"table4", "-datasets", graph, "-reps", "1", "-models", "gcn", "-epochs", "2", "-workers", "1"}
	o, n = lrs(table4...)
	add("table4", o, n)
	t4shard := func(out string) []string { return append(slices.Clone(table4), "-shard", "2/2", "-out", out) }
	add("table4 -shard", t4shard, t4shard)
	o, n = seeded("structure", "-per-class", "16", "-epochs", "2", "-models", "gcn,mlp", "-workers", "1")
	add("structure", o, n)
	o, n = lrs("attention", "-datasets", graph, "-reps", "1", "-epochs", "2")
	add("attention", o, n)
	o, n = seeded("degree", "-epochs", "2")
	add("degree", o, n)
	o, n = seeded("tsne", "-per-class", "16", "-epochs", "2")
	add("tsne", o, n)
	// One baseline, the supervised GCN: the unsupervised ones' walks and
	// skip-grams cost some 20 s a run whatever -epochs says, and what is
	// tried here is how the command writes, twenty times over.
	o, n = lrs("multiplex", "-per-class", "16", "-epochs", "2", "-seeds", "1", "-baselines", "mgcn")
	add("multiplex", o, n)
	add("merge", func(out string) []string { return []string{"merge", "-out", out, oldShards} },
		func(out string) []string { return []string{"merge", "-out", out, newShards} })
	return cmds
}

// writingCommandsOnce is writingCommands under root, made once a test
// binary's run for each root.
func writingCommandsOnce(t *testing.T, root string) []writingCommand {
	t.Helper()
	writingOnce.Lock()
	defer writingOnce.Unlock()
	if cmds, ok := writingOnce.made[root]; ok {
		return cmds
	}
	cmds := writingCommands(t, root)
	writingOnce.made[root] = cmds
	return cmds
}

var writingOnce = struct {
	sync.Mutex
	made map[string][]writingCommand
}{made: map[string][]writingCommand{}}

// TestEveryCommandThatWritesIsListed: the commands of main.go's table
// that write are the ones the tests of the writer run; claims, train
// without -export, xor and runtime write nothing.
func TestEveryCommandThatWritesIsListed(t *testing.T) {
	writes := map[string]bool{"gen": true, "train": true, "sweep": true, "table4": true, "structure": true, "attention": true, "degree": true, "tsne": true, "multiplex": true, "merge": true}
	writesNothing := map[string]bool{"xor": true, "runtime": true, "claims": true}
	for _, c := range commands {
		if !writes[c.name] && !writesNothing[c.name] {
			t.Errorf("pdn %s: neither among the commands that write (tested in outputs_test.go) nor those that write nothing", c.name)
		}
	}
}

// folderState is what a test finds in an output folder: the manifest and
// the run all its files are of.
type folderState struct {
	manifest outdir.Manifest
	run      string
}

// wholeFolder checks that dir holds exactly the files its manifest lists,
// each with the manifest's SHA-256, all of one run, and nothing staged
// left: whole, never a mix.
func wholeFolder(t *testing.T, dir string) folderState {
	t.Helper()
	m, err := outdir.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	var onDisk []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == outdir.Meta {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			onDisk = append(onDisk, filepath.ToSlash(rel))
		}
		return nil
	})
	slices.Sort(onDisk)
	listed := slices.Sorted(func(yield func(string) bool) {
		for k := range m.Files {
			if !yield(k) {
				return
			}
		}
	})
	if !slices.Equal(onDisk, listed) {
		t.Errorf("%s holds %v; its manifest lists %v", dir, onDisk, listed)
	}
	var s folderState
	s.manifest = m
	for name, e := range m.Files {
		b, err := os.ReadFile(filepath.Join(dir, name))
		sum := sha256.Sum256(b)
		if err != nil || hex.EncodeToString(sum[:]) != e.SHA256 {
			t.Errorf("%s: not the file the manifest records (%v): cut or changed", name, err)
		}
		if s.run == "" {
			s.run = e.Run
		} else if e.Run != s.run {
			t.Errorf("%s is of run %s, the others of %s: a mix of two runs", name, e.Run, s.run)
		}
	}
	if left, _ := os.ReadDir(filepath.Join(dir, outdir.Meta, "runs")); len(left) > 0 {
		t.Errorf("%s: a run left %v staged", dir, left)
	}
	return s
}

// copyTree copies the folder src to dst, the writer's hidden folder too.
func copyTree(t *testing.T, dst, src string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The interruption test: every command that writes, over a folder of its
// earlier results, is sent SIGTERM at 20 moments spread over the length
// of an uninterrupted run (measured here, never asserted on). Each time
// the folder holds the earlier files or the new ones, whole, never a mix,
// and pdn says which.
func TestInterruptedRunsLoseNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: 20 interrupted runs of each command that writes")
	}
	root := t.TempDir()
	seed := uint64(time.Now().UnixNano())
	t.Logf("moments drawn with seed %d", seed)
	for i, c := range writingCommands(t, root) {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, uint64(i)))
			dir := filepath.Join(root, fmt.Sprintf("cmd%d", i))
			old := filepath.Join(dir, "old")
			if _, errOut, code := runPDN(t, c.old(old)...); code != 0 {
				t.Fatalf("the first run: exit %d: %s", code, errOut)
			}
			before := wholeFolder(t, old)
			ref := filepath.Join(dir, "ref")
			copyTree(t, ref, old)
			began := time.Now()
			if _, errOut, code := runPDN(t, c.new(ref)...); code != 0 {
				t.Fatalf("an uninterrupted run: exit %d: %s", code, errOut)
			}
			length := time.Since(began)
			after := wholeFolder(t, ref)
			if after.run == before.run {
				t.Fatal("the uninterrupted run left the first run's files")
			}
			seen := map[string]int{}
			for k := range 20 {
				trial := filepath.Join(dir, strconv.Itoa(k))
				copyTree(t, trial, old)
				// Moment k of 20 falls in the k-th twentieth of the run.
				at := time.Duration((float64(k) + rng.Float64()) / 20 * float64(length))
				p := startPDN(t, c.new(trial)...)
				time.Sleep(at)
				p.cmd.Process.Signal(syscall.SIGTERM)
				code := p.wait(t)
				got := wholeFolder(t, trial)
				switch {
				case got.run == before.run:
					seen["old"]++
					if !sameFiles(got.manifest, before.manifest) {
						t.Errorf("moment %v: the earlier run's files changed", at)
					}
					if code == 143 && !strings.Contains(p.stderr.String(), "nothing was written") {
						t.Errorf("moment %v: exit 143 without saying the folder is as it was: %s", at, p.stderr.String())
					}
				default:
					seen["new"]++
					if !sameNames(got.manifest, after.manifest) {
						t.Errorf("moment %v: the new run's files are %v, an uninterrupted run's %v", at, names(got.manifest), names(after.manifest))
					}
				}
				if code != 0 && code != 143 && code != -1 {
					t.Errorf("moment %v: exit %d: %s", at, code, p.stderr.String())
				}
				os.RemoveAll(trial)
			}
			t.Logf("%s: %v over a run of %v", c.name, seen, length.Round(time.Millisecond))
		})
	}
}

func names(m outdir.Manifest) []string {
	var out []string
	for k := range m.Files {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func sameNames(a, b outdir.Manifest) bool { return slices.Equal(names(a), names(b)) }

func sameFiles(a, b outdir.Manifest) bool {
	if !sameNames(a, b) {
		return false
	}
	for k, e := range a.Files {
		if b.Files[k].SHA256 != e.SHA256 {
			return false
		}
	}
	return true
}

// The lock test: a second run into a folder another run is writing fails
// at once, naming the first (its command, pid and start); the first,
// interrupted, leaves nothing and says so.
func TestASecondRunFailsNamingTheFirst(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs pdn as processes")
	}
	out := filepath.Join(t.TempDir(), "cc")
	first := startPDN(t, "structure", "-per-class", "64", "-epochs", "100000", "-models", "gcn,mlp", "-workers", "1", "-out", out)
	defer first.cmd.Process.Kill()
	lock := filepath.Join(out, outdir.Meta, "locks", "structure.lock")
	testwait.Until(t, "the first run's lock", 20*time.Millisecond, func() bool {
		b, _ := os.ReadFile(lock)
		return bytes.Contains(b, []byte(`"pid"`))
	}, func() string { return first.stderr.String() })
	_, errOut, code := runPDN(t, "structure", "-per-class", "16", "-epochs", "2", "-models", "gcn,mlp", "-out", out)
	want := fmt.Sprintf("is being written by another run: pdn structure -per-class 64 -epochs 100000 -models gcn,mlp -workers 1 -out %s (pid %d on ", out, first.cmd.Process.Pid)
	if code != 2 || !strings.Contains(errOut, want) || !strings.Contains(errOut, ", started ") {
		t.Errorf("the second run: exit %d, %q; want 2 and %q", code, errOut, want)
	}
	first.cmd.Process.Signal(syscall.SIGTERM)
	if code := first.wait(t); code != 143 || !strings.Contains(first.stderr.String(), `interrupted (terminated): nothing was written into "`+out+`"`) {
		t.Errorf("the first run, interrupted: exit %d, %q", code, first.stderr.String())
	}
	if s := wholeFolder(t, out); len(s.manifest.Files) != 0 {
		t.Errorf("the interrupted run left %v", names(s.manifest))
	}
	if _, errOut, code := runPDN(t, "structure", "-per-class", "16", "-epochs", "2", "-models", "gcn,mlp", "-out", out); code != 0 {
		t.Errorf("once the first run is gone: exit %d: %s", code, errOut)
	}
}

// The shards test: the shards of one job, written into one folder by
// processes running at once (as deploy/slurm-sweep.sh and
// deploy/k8s-sweep.yaml have many machines do), all write their files, and
// merge joins them.
func TestShardsWriteIntoOneFolderAtOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs pdn as processes")
	}
	root := t.TempDir()
	shards := filepath.Join(root, "shards")
	var procs []*proc
	for _, s := range []string{"1/4", "2/4", "3/4", "4/4"} {
		procs = append(procs, startPDN(t, "sweep", "-scenario", "1", "-reps", "1", "-models", "gcn", "-epochs", "2", "-workers", "1", "-shard", s, "-out", shards))
	}
	for _, s := range []string{"1/2", "2/2"} {
		procs = append(procs, startPDN(t, "table4", "-datasets", "cora", "-reps", "1", "-models", "gcn", "-epochs", "2", "-workers", "1", "-shard", s, "-out", shards))
	}
	for _, p := range procs {
		if code := p.wait(t); code != 0 {
			t.Errorf("pdn %v: exit %d: %s", p.cmd.Args[1:], code, p.stderr.String())
		}
	}
	m, err := outdir.ReadManifest(shards)
	if err != nil || len(m.Files) != 6 || len(m.Runs) != 6 {
		t.Fatalf("the folder's manifest holds %v of %d runs (%v); want the 6 shards' files", names(m), len(m.Runs), err)
	}
	if len(visible(t, shards)) != 6 {
		t.Errorf("the folder holds %v", visible(t, shards))
	}
	if out, errOut, code := runCLI(t, "merge", "-out", filepath.Join(root, "merged"), shards); code != 0 || !strings.Contains(out, "scenario 1") || !strings.Contains(out, "Table 4") {
		t.Errorf("merge: exit %d: %s%s", code, out, errOut)
	}
}

// The -force test: for every command that writes, a folder holding a
// user's file is refused naming it, and nothing is written; with -force
// the run writes beside it; without, it is refused again.
func TestForceWritesBesideTheUsersFiles(t *testing.T) {
	root := t.TempDir()
	for i, c := range writingCommands(t, root) {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(root, fmt.Sprintf("force%d", i))
			writeFolder(t, out, map[string]string{"notes.txt": "my thesis numbers"})
			args := c.old(out)
			_, errOut, code := runCLI(t, args...)
			if code != 2 || !strings.Contains(errOut, `holds "notes.txt", which pdn did not write`) || !strings.Contains(errOut, "-force") {
				t.Errorf("exit %d, %q; want 2, naming notes.txt and -force", code, errOut)
			}
			if v := visible(t, out); !slices.Equal(v, []string{"notes.txt"}) {
				t.Errorf("the refused run wrote %v", v)
			}
			if _, errOut, code := runCLI(t, withForce(args)...); code != 0 {
				t.Fatalf("-force: exit %d: %s", code, errOut)
			}
			if b, _ := os.ReadFile(filepath.Join(out, "notes.txt")); string(b) != "my thesis numbers" || len(visible(t, out)) < 2 {
				t.Errorf("-force did not write beside notes.txt: %v", visible(t, out))
			}
			if _, errOut, code := runCLI(t, c.new(out)...); code != 2 || !strings.Contains(errOut, `"notes.txt"`) {
				t.Errorf("again without -force: exit %d, %q", code, errOut)
			}
		})
	}
	// Audit cases 115 and 117: the user's own file of a name the command
	// writes is refused by name, and kept.
	for _, c := range []struct {
		file string
		args []string
	}{
		{"homophily.csv", []string{"structure", "-per-class", "16", "-epochs", "2", "-models", "gcn,mlp"}},
		{"scenario4.csv", []string{"sweep", "-scenario", "4", "-reps", "1", "-models", "gcn", "-epochs", "2"}},
		{"table4.csv", []string{"table4", "-datasets", "cora", "-reps", "1", "-models", "gcn", "-epochs", "2"}},
	} {
		out := writeFolder(t, filepath.Join(root, "mine-"+c.file), map[string]string{c.file: "my notes"})
		_, errOut, code := runCLI(t, append(c.args, "-out", out)...)
		if b, _ := os.ReadFile(filepath.Join(out, c.file)); code != 2 || !strings.Contains(errOut, `holds "`+c.file+`"`) || string(b) != "my notes" {
			t.Errorf("%s over the user's %s: exit %d, %q, the file now %q", c.args[0], c.file, code, errOut, b)
		}
	}
}

// A graph's folder is the graph's alone (outdir's exclusive part): every
// other writing command's output into a folder pdn gen wrote is refused
// without -force, saying the folder holds a graph bundle and to choose
// another, and the bundle still opens; pdn gen into a folder holding
// another command's outputs is refused alike.
func TestOutputsNeverShareAGraphsFolder(t *testing.T) {
	root := t.TempDir()
	for i, c := range writingCommandsOnce(t, root) {
		if strings.HasPrefix(c.name, "gen") {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			graph := filepath.Join(root, fmt.Sprintf("alone%d", i))
			if _, errOut, code := runCLI(t, "gen", "-per-class", "16", "-out", graph); code != 0 {
				t.Fatalf("gen: %s", errOut)
			}
			before := visible(t, graph)
			_, errOut, code := runCLI(t, c.new(graph)...)
			if code != 2 || !strings.Contains(errOut, "holds a graph bundle") || !strings.Contains(errOut, "choose another folder") {
				t.Errorf("into pdn gen's folder: exit %d, %q; want 2, saying it holds a graph bundle", code, errOut)
			}
			if v := visible(t, graph); !slices.Equal(v, before) {
				t.Errorf("the refused run wrote: %v, was %v", v, before)
			}
			if _, errOut, code := runCLI(t, "train", "-data", graph, "-epochs", "1", "-quiet"); code != 0 {
				t.Errorf("the bundle no longer opens: %s", errOut)
			}
			out := filepath.Join(root, fmt.Sprintf("beside%d", i))
			if _, errOut, code := runCLI(t, c.old(out)...); code != 0 {
				t.Fatalf("%s: %s", c.name, errOut)
			}
			_, errOut, code = runCLI(t, "gen", "-per-class", "16", "-out", out)
			if code != 2 || !strings.Contains(errOut, "holds another command's outputs") || !strings.Contains(errOut, "choose another folder") {
				t.Errorf("gen into %s's folder: exit %d, %q; want 2, naming its outputs", c.name, code, errOut)
			}
		})
	}
}

// The input test: no command writes into, or around, a folder any of its
// inputs comes from (-data, -datasets, merge's shard folders), however
// spelled, even with -force; the inputs are unchanged and still open.
func TestNoCommandWritesAmongItsInputs(t *testing.T) {
	root := t.TempDir()
	graph := filepath.Join(root, "pk")
	if _, errOut, code := runCLI(t, "gen", "-per-class", "16", "-out", graph); code != 0 {
		t.Fatal(errOut)
	}
	shards := filepath.Join(root, "shards")
	for _, s := range []string{"1/2", "2/2"} {
		if _, errOut, code := runCLI(t, "sweep", "-scenario", "1", "-reps", "1", "-models", "gcn", "-epochs", "2", "-shard", s, "-out", shards); code != 0 {
			t.Fatal(errOut)
		}
	}
	snapshot := func(dir string) string {
		var b strings.Builder
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				data, _ := os.ReadFile(p)
				fmt.Fprintf(&b, "%s %x\n", p, sha256.Sum256(data))
			}
			return err
		})
		return b.String()
	}
	graphBefore, shardsBefore := snapshot(graph), snapshot(shards)
	for _, c := range []struct {
		name string
		args func(out string) []string
		in   string
		flag string
	}{
		{"gen", func(out string) []string { return []string{"gen", "-data", graph, "-out", out} }, graph, "-data folder"},
		{"train -export", func(out string) []string {
			return []string{"train", "-data", graph, "-epochs", "2", "-quiet", "-export", out}
		}, graph, "-data folder"},
		{"structure", func(out string) []string {
			return []string{"structure", "-data", graph, "-epochs", "2", "-models", "gcn,mlp", "-out", out}
		}, graph, "-data folder"},
		{"table4", func(out string) []string {
			return []string{"table4", "-datasets", "cora," + graph, "-reps", "1", "-models", "gcn", "-epochs", "2", "-out", out}
		}, graph, "-datasets folder"},
		{"attention", func(out string) []string {
			return []string{"attention", "-datasets", graph, "-reps", "1", "-epochs", "2", "-out", out}
		}, graph, "-datasets folder"},
		{"merge", func(out string) []string { return []string{"merge", "-out", out, shards} }, shards, "input folder"},
	} {
		for _, out := range []string{c.in, c.in + "/.", filepath.Join(c.in, "results"), root} {
			for _, force := range []bool{false, true} {
				args := c.args(out)
				if force {
					args = withForce(args)
				}
				_, errOut, code := runCLI(t, args...)
				if code != 2 || !strings.Contains(errOut, "is, holds or lies inside the "+c.flag) {
					t.Errorf("%s -out %s (force %v): exit %d, %q; want 2 and the %s named", c.name, out, force, code, errOut, c.flag)
				}
			}
		}
	}
	if snapshot(graph) != graphBefore || snapshot(shards) != shardsBefore {
		t.Error("an input changed")
	}
	if _, errOut, code := runCLI(t, "train", "-data", graph, "-epochs", "2", "-quiet"); code != 0 {
		t.Errorf("the graph no longer opens: %s", errOut)
	}
}

// withForce is args (a command and its flags) with -force, before any
// argument that is not a flag.
func withForce(args []string) []string {
	return append([]string{args[0], "-force"}, args[1:]...)
}
