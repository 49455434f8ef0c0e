package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"pdnexplorer/pyg/pygtest"
)

// pdn train -export writes the run for PyTorch Geometric, refuses before
// training what it could not write or would lose data by, and writes over
// an earlier export; the folder opens again as a graph.
func TestTrainExport(t *testing.T) {
	root := t.TempDir()
	small := []string{"train", "-per-class", "32", "-epochs", "3", "-quiet", "-json"}
	run := filepath.Join(root, "run")
	out, errOut, code := runCLI(t, append(small, "-export", run)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if res := lastJSON(t, out); res["model"] != "pdn" || !strings.Contains(out, "run_pyg.py") {
		t.Errorf("stdout: %s", out)
	}
	for _, name := range []string{"run_pyg.py", "weights.json", "README.txt", "graph/nodes.csv"} {
		if _, err := os.Stat(filepath.Join(run, name)); err != nil {
			t.Errorf("the export lacks %s", name)
		}
	}
	if _, errOut, code := runCLI(t, append(small, "-export", run, "-model", "gcn")...); code != 0 {
		t.Errorf("writing over an earlier export: exit %d: %s", code, errOut)
	}
	if out, errOut, code := runCLI(t, "train", "-epochs", "2", "-quiet", "-json", "-data", run); code != 0 || lastJSON(t, out)["nodes"] != float64(96) {
		t.Errorf("the export as -data: exit %d: %s%s", code, out, errOut)
	}
	foreign := writeFolder(t, filepath.Join(root, "notes"), map[string]string{"thesis.tex": "x"})
	aFile := filepath.Join(root, "notes", "thesis.tex")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-export", run, "-model", "pdn-edgeconv"}, "pdn-edgeconv has no PyTorch Geometric counterpart"},
		{[]string{"-export", run, "-model", "deepwalk"}, "the export covers pdn, pdn-linear"},
		{[]string{"-export", foreign}, `holds "thesis.tex"`},
		{[]string{"-export", aFile}, "is a file"},
		{[]string{"-export", run, "-data", run}, "-data folder"},
		{[]string{"-export", filepath.Join(run, "graph"), "-data", run, "-force"}, "-data folder"},
		{[]string{"-force"}, "flag -force: applies to -export"},
	} {
		args := append(append([]string{}, small...), c.args...)
		if slices.Contains(c.args, "-data") { // a graph read from files fixes its own size
			args = append([]string{"train", "-epochs", "3", "-quiet"}, c.args...)
		}
		_, errOut, code := runCLI(t, args...)
		if code != 2 || !strings.Contains(errOut, "flag -") || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", c.args, code, errOut, c.want)
		}
	}
}

// The script pdn train -export writes runs in PyTorch Geometric (where
// torch is installed) and gives the CLI's test accuracy from its weights.
func TestTrainExportRunsInPyG(t *testing.T) {
	python, env := pygtest.Python(t)
	run := filepath.Join(t.TempDir(), "run")
	out, errOut, code := runCLI(t, "train", "-per-class", "64", "-epochs", "50", "-quiet", "-json", "-export", run)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := lastJSON(t, out)["test_accuracy"].(float64)
	res := pygtest.Run(t, python, env, filepath.Join(run, "run_pyg.py"), "--epochs", "50")
	if got := res["exported_test_accuracy"].(float64); got < want-1e-4 || got > want+1e-4 {
		t.Errorf("the exported weights give %v in PyG; the CLI printed %v", got, want)
	}
	if _, ok := res["test_accuracy"].(float64); !ok {
		t.Errorf("no test_accuracy in %v", res)
	}
	// What the script cannot read it refuses by name, in its JSON line
	// too, instead of a traceback: a missing bundle, a folder that is not
	// one (an OGB folder, which the explorer reads and the script does
	// not), a weights file that is not there.
	other := filepath.Join(t.TempDir(), "other")
	if _, errOut, code := runCLI(t, "gen", "-per-class", "16", "-node-features", "8", "-out", other); code != 0 {
		t.Fatalf("gen: %s", errOut)
	}
	ogb := filepath.Join(t.TempDir(), "ogb")
	writeFolder(t, filepath.Join(ogb, "raw"), map[string]string{"edge.csv": "0,1\n", "node-label.csv": "0\n1\n"})
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--bundle", "/nonexistent"}, "--bundle /nonexistent: no such folder"},
		{[]string{"--bundle", ogb}, "not a bundle, it lacks meta.json, nodes.csv, edges.csv; write one from any graph the explorer opens with pdn gen -data"},
		{[]string{"--weights", "/nonexistent"}, "--weights /nonexistent: no such file"},
		{[]string{"--bundle", other}, "the weights are of another run or graph than --bundle"},
	} {
		cmd := exec.Command(python, append([]string{filepath.Join(run, "run_pyg.py"), "--epochs", "1"}, c.args...)...)
		cmd.Env = env
		out, _ := cmd.Output()
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		var res map[string]any
		json.Unmarshal([]byte(lines[len(lines)-1]), &res)
		if msg, _ := res["error"].(string); cmd.ProcessState.ExitCode() != 2 || !strings.Contains(msg, c.want) {
			t.Errorf("%v: exit %d, %q; want 2 and an error line with %q", c.args, cmd.ProcessState.ExitCode(), out, c.want)
		}
	}
	// Audit case 204: --float32 and --weights none run as asked.
	for _, args := range [][]string{{"--float32"}, {"--weights", "none"}} {
		res := pygtest.Run(t, python, env, filepath.Join(run, "run_pyg.py"), append([]string{"--epochs", "2"}, args...)...)
		_, exported := res["exported_test_accuracy"]
		if _, ok := res["test_accuracy"].(float64); !ok || exported != (args[0] == "--float32") {
			t.Errorf("%v: %v", args, res)
		}
	}
}
