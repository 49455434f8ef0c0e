package pyg_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

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
	set(faults.Script, faults.Cell{Check: TestScriptArgumentsAreChecked})
	set(faults.Numbers, faults.Cell{Check: func(t *testing.T) {
		for _, bad := range []string{"nan", "inf", "0x1p-2", "1_0"} {
			bundleRefused(t, "nodes.csv", func(b []byte) []byte { return replaceCell(b, 2, 3, bad) }, "nodes.csv:3: column x0: '"+bad+"' is not a decimal number")
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
		bundleRefused(t, "nodes.csv", func(b []byte) []byte { return replaceCell(b, 2, 0, "0") }, "nodes.csv:3: column id: ids must be 0..N-1 in order")
		bundleRefused(t, "nodes.csv", func(b []byte) []byte { return replaceCell(b, 1, 2, "unlabelled") }, "nodes.csv:2: a node without a class (label -1) is in the split unlabelled")
		bundleRefused(t, "edges.csv", func(b []byte) []byte { return replaceCell(b, 1, 1, "99999") }, "edges.csv:2: column target: 99999 is outside")
	}})
	set(faults.Unlabelled, faults.Cell{Check: func(t *testing.T) { TestExportKeepsUnlabelledOut(t) }})
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
		scriptRefused(t, script, []string{"--weights", fifo}, "--weights")
		scriptRefused(t, script, []string{"--bundle", "/dev/zero"}, "--bundle")
	}})
	set(faults.Compressed, faults.NA("the script reads the plain files an export or pdn gen writes: no archive"))
	set(faults.Link, faults.NA("the script carries its run (RUN), not a link; its state is the export's"))
	set(faults.Outputs, faults.NA("the script writes no file: it prints its results as one JSON line"))
	faults.Check(t, []string{s}, cells)
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
