package pyg_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/internal/faults"
	"pdnexplorer/pyg"
)

// TestEveryClassOnTheScript is the class × surface table's part for the
// exported script, run_pyg.py: its arguments (TestScriptArgumentsAreChecked
// holds them to their ranges, given once, by their whole names) and the
// bundle it reads (--bundle: the export's graph/, or any bundle pdn gen
// writes), which it holds to the explorer's rules before torch loads. A
// class added without its cell fails.
func TestEveryClassOnTheScript(t *testing.T) {
	const s = "run_pyg.py"
	cells := map[faults.Key]faults.Cell{}
	set := func(class string, c faults.Cell) { cells[faults.Key{Class: class, Surface: s}] = c }
	set(faults.Script, faults.Cell{Check: func(t *testing.T) {
		weightsAsTheExplorerWritesThem(t)
		TestScriptArgumentsAreChecked(t) // last: it skips its PyG runs without torch
	}})
	set(faults.Numbers, faults.Cell{Check: func(t *testing.T) {
		for _, bad := range []string{"nan", "inf", "0x1p-2", "1_0"} {
			bundleRefused(t, "nodes.csv", func(b []byte) []byte { return replaceCell(b, 2, 3, bad) }, `nodes.csv:3: column x0: "`+bad+`" is not a decimal number`)
		}
	}})
	set(faults.Rows, faults.Cell{Check: func(t *testing.T) {
		dir := exported(t)
		script := filepath.Join(dir, pyg.ScriptFile)
		for _, args := range [][]string{{"--epochs", "2", "--epochs", "3"}, {"--ep", "2"}, {"--nosuch"}} {
			scriptRefused(t, script, args, args[0])
		}
	}})
	set(faults.Text, faults.Cell{Check: func(t *testing.T) {
		bundleRefused(t, "nodes.csv", func(b []byte) []byte { return append(b[:len(b):len(b)], []byte("\xe9")...) }, "is not UTF-8")
	}})
	set(faults.Structure, faults.Cell{Check: func(t *testing.T) {
		bundleChecksOnTheScript(t)
		bundleRefused(t, "nodes.csv", func(b []byte) []byte { return replaceCell(b, 2, 0, "0") }, "nodes.csv:3: column id: ids must be 0..N-1 in order")
		bundleRefused(t, "nodes.csv", func(b []byte) []byte { return replaceCell(b, 1, 2, "unlabelled") }, "nodes.csv:2: column split: the split unlabelled is for a node without a class (label -1)")
		bundleRefused(t, "nodes.csv", func(b []byte) []byte { return replaceCell(b, 1, 1, "NA") }, "nodes.csv:2: column label: \"NA\" says the node has no class, but its split is")
		bundleRefused(t, "edges.csv", func(b []byte) []byte { return replaceCell(b, 1, 1, "99999") }, "edges.csv:2: column target: 99999 is out of range")
	}})
	set(faults.Unlabelled, faults.Cell{Check: func(t *testing.T) {
		scriptReadsNoClassAsTheExplorer(t)
		TestExportKeepsUnlabelledOut(t) // last: it skips its PyG run without torch
	}})
	set(faults.Special, faults.Cell{Check: func(t *testing.T) {
		if runtime.GOOS == "windows" {
			t.Skip("named pipes are made here on Unix")
		}
		dir := exported(t)
		fifo := filepath.Join(t.TempDir(), "weights.json")
		if err := syscall.Mkfifo(fifo, 0o644); err != nil {
			t.Fatal(err)
		}
		script := filepath.Join(dir, pyg.ScriptFile)
		for _, c := range []struct{ arg, path, want string }{
			{"--weights", fifo, "is a named pipe (FIFO), not a file"},
			{"--weights", "/dev/zero", "is a device, not a file"},
			{"--weights", filepath.Join(dir, pyg.GraphFolder), "is a folder, not a file"},
			{"--bundle", "/dev/zero", "is a device, not a folder"},
			{"--bundle", filepath.Join(dir, pyg.GraphFolder, "nodes.csv"), "is a file, not a folder"},
		} {
			scriptRefused(t, script, []string{c.arg, c.path}, c.arg+" "+c.path+": "+c.want)
		}
		features := filepath.Join(dir, pyg.GraphFolder, "features.csv")
		if err := syscall.Mkfifo(features, 0o644); err != nil {
			t.Fatal(err)
		}
		scriptRefused(t, script, []string{"--weights", "none"}, "features.csv: is a named pipe (FIFO), not a file")
	}})
	set(faults.Compressed, faults.NA("the script reads the plain files an export or pdn gen writes: no archive"))
	set(faults.Link, faults.NA("the script carries its run (RUN), not a link; its state is the export's"))
	set(faults.Outputs, faults.NA("the script writes no file: it prints its results as one JSON line"))
	faults.Check(t, []string{s}, cells)
}

// bundleChecksOnTheScript walks the table of a bundle's checks that the
// explorer's reader walks too (datasets' TestBundleChecks): the script
// refuses each spoilt bundle before torch loads, in one line, at the
// place and in the words the explorer's reader gives (its byte column
// aside), never with a traceback.
func bundleChecksOnTheScript(t *testing.T) {
	for _, c := range faults.BundleChecks {
		t.Run(c.Name, func(t *testing.T) {
			dir := exported(t)
			spoil(t, filepath.Join(dir, pyg.GraphFolder), c)
			scriptRefused(t, filepath.Join(dir, pyg.ScriptFile), []string{"--weights", "none"}, c.At+": "+c.Says)
		})
	}
}

// spoil makes check c's change to its file in the bundle dir.
func spoil(t *testing.T, dir string, c faults.BundleCheck) {
	t.Helper()
	p := filepath.Join(dir, c.File)
	b, err := os.ReadFile(p)
	if err == nil {
		b, err = c.Spoil(b)
	}
	if err == nil {
		err = os.WriteFile(p, b, 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// exported is a tiny run's export folder.
func exported(t *testing.T) string {
	t.Helper()
	g, tr := trained(t, experiment.GCN, 16, 2)
	dir := t.TempDir()
	if err := writeDir(dir, g, runOf(t, tr)); err != nil {
		t.Fatal(err)
	}
	return dir
}

// replaceCell is a CSV file with row's cell col (row 0 the header) made v.
func replaceCell(b []byte, row, col int, v string) []byte {
	lines := strings.Split(string(b), "\n")
	cells := strings.Split(lines[row], ",")
	cells[col] = v
	lines[row] = strings.Join(cells, ",")
	return []byte(strings.Join(lines, "\n"))
}

// bundleRefused spoils file of an export's bundle and runs its script on
// it: refused, one line naming the file and want, before torch loads.
func bundleRefused(t *testing.T, file string, spoil func([]byte) []byte, want string) {
	t.Helper()
	dir := exported(t)
	p := filepath.Join(dir, pyg.GraphFolder, file)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, spoil(b), 0o644); err != nil {
		t.Fatal(err)
	}
	scriptRefused(t, filepath.Join(dir, pyg.ScriptFile), []string{"--weights", "none"}, want)
}

// scriptRefused runs the script with args: exit 2, one line on stderr
// holding want, the JSON error line on stdout.
func scriptRefused(t *testing.T, script string, args []string, want string) {
	t.Helper()
	cmd := exec.Command(anyPython(t), append([]string{script}, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := -1
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	msg := strings.TrimSpace(stderr.String())
	if code != 2 || strings.Contains(msg, "\n") || !strings.Contains(msg, want) || !strings.Contains(stdout.String(), `"error"`) {
		t.Errorf("run_pyg.py %q: exit %d, %q; want 2 and one line holding %q", args, code, msg, want)
	}
}

// weightsAsTheExplorerWritesThem: --weights naming a file that is not the
// explorer's weights.json (the bundle's meta.json or nodes.csv, a file
// with a key twice or a NaN) is refused in one line before torch loads,
// never a traceback; one saved with a byte-order mark is read.
func weightsAsTheExplorerWritesThem(t *testing.T) {
	dir := exported(t)
	script := filepath.Join(dir, pyg.ScriptFile)
	w, err := os.ReadFile(filepath.Join(dir, pyg.WeightsFile))
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, b []byte) string {
		p := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct{ path, want string }{
		{filepath.Join(dir, pyg.GraphFolder, "meta.json"), "not the explorer's weights.json (it holds no list of parameters)"},
		{filepath.Join(dir, pyg.GraphFolder, "nodes.csv"), "not JSON as the explorer writes it"},
		{write("twice.json", bytes.Replace(w, []byte(`"epoch":`), []byte(`"epoch": 1, "epoch":`), 1)), "key 'epoch' is given twice"},
		{write("nan.json", bytes.Replace(w, []byte(`"values": [`), []byte(`"values": [NaN, `), 1)), "NaN is no number the explorer writes"},
	} {
		scriptRefused(t, script, []string{"--weights", c.path}, c.want)
	}
	bom := write("bom.json", append([]byte("\ufeff"), w...))
	cmd := exec.Command(anyPython(t), script, "--weights", bom, "--epochs", "1")
	out, _ := cmd.CombinedOutput()
	if cmd.ProcessState.ExitCode() == 2 || bytes.Contains(out, []byte(`"error"`)) {
		t.Errorf("weights.json with a byte-order mark: exit %d: %s", cmd.ProcessState.ExitCode(), out)
	}
}

// scriptReadsNoClassAsTheExplorer: a bundle whose nodes of the split
// unlabelled have as label each value the explorer reads as "no class"
// (datasets.MissingValues, -1 written as a decimal) is read by the
// script, before torch loads, with label -1 for each, as the explorer
// reads it: the list is written into the script from datasets.
func scriptReadsNoClassAsTheExplorer(t *testing.T) {
	dir := exported(t)
	nodes := filepath.Join(dir, pyg.GraphFolder, "nodes.csv")
	b, err := os.ReadFile(nodes)
	if err != nil {
		t.Fatal(err)
	}
	none := append(datasets.MissingValues(), "-1", "-1.0", " NA ")
	for k, v := range none {
		b = replaceCell(replaceCell(b, k+1, 1, v), k+1, 2, "unlabelled")
	}
	if err := os.WriteFile(nodes, b, 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := datasets.Load(filepath.Join(dir, pyg.GraphFolder), experiment.Default().Data, false)
	if err != nil {
		t.Fatal(err)
	}
	// The script's part before torch loads, run as a module: its reader,
	// without its arguments.
	probe := `import json, sys
script = sys.argv[1]
src = open(script, encoding="utf-8").read().split("\ntry:\n    import torch")[0]
ns = {"__name__": "probe"}
exec(compile(src, script, "exec"), ns)
print(json.dumps(ns["read_bundle"](sys.argv[2])["labels"]))
`
	out, err := exec.Command(anyPython(t), "-c", probe, filepath.Join(dir, pyg.ScriptFile), filepath.Join(dir, pyg.GraphFolder)).CombinedOutput()
	if err != nil {
		t.Fatalf("the script's reader: %v: %s", err, out)
	}
	var labels []int
	if err := json.Unmarshal(bytes.TrimSpace(out), &labels); err != nil {
		t.Fatalf("%s: %v", out, err)
	}
	if !slices.Equal(labels, g.Labels) {
		t.Errorf("the script reads the labels %v, the explorer %v", labels, g.Labels)
	}
	for k := range none {
		if labels[k] != datasets.NoClass {
			t.Errorf("label %q: read as %d by the script, want %d", none[k], labels[k], datasets.NoClass)
		}
	}
}
