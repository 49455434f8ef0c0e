//go:build !js

// Package scripts holds the tests of the repository's scripts.
package scripts

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"pdnexplorer/experiment"
)

// python is a Python 3 to run fit-cost.py: PDN_PYTHON, else python3; the
// test skips without one.
func python(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("PDN_PYTHON"); p != "" {
		return p
	}
	p, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 to run fit-cost.py")
	}
	return p
}

// fitCost runs fit-cost.py with args and returns its stdout, its stderr
// and its exit status.
func fitCost(t *testing.T, py string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(py, append([]string{"fit-cost.py"}, args...)...)
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errs.String(), code
}

// costRun writes a run of BenchmarkCost for models on four graphs, as go
// test prints it, epochs of about ns ns a unit of work, and returns its
// path.
func costRun(t *testing.T, dir, name string, models []string, ns float64) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("goos: linux\ngoarch: amd64\npkg: pdnexplorer/pdn\n")
	for s, size := range []string{"per-class=64", "per-class=500", "per-class=1024", "facebook-shaped"} {
		for m, model := range models {
			dense, gather, exp := float64(5+7*s+3*m), float64(2+5*s+m), 0.05*float64(s+1)
			real := ns*(dense+1.5*gather+20*exp)*(1+0.03*float64((s+m)%3)) + 0.02*float64(m+1)
			// 0.1 M updates of 40 ns: 4 ms, which the fit takes off first
			fmt.Fprintf(&b, "BenchmarkCost/%s/%s-2   \t       1\t%.4g est-ms\t%.4g real-ms\t1.0 est/real\t%.4g M-dense\t%.4g M-gather\t%.4g M-exp\t0 M-setup-dense\t0 M-setup-gather\t0 M-setup-exp\t0.1 M-updates\n",
				size, model, real+4, real+4, dense, gather, exp)
		}
	}
	// gcn's steps are measured (40 ns), mlp's not: it takes the slowest
	fmt.Fprintf(&b, "BenchmarkUpdate/gcn-2   \t       1\t%.4g ns/update\t6.4 M-updates\n", 40+ns)
	b.WriteString("PASS\nok  \tpdnexplorer/pdn\t12.3s\n")
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// fit-cost.py refuses every bad argument in one line that names it and
// what it takes, with exit status 2 and no traceback, before it loads
// numpy (so any python3 runs these).
func TestFitCostRefusesBadArguments(t *testing.T) {
	py := python(t)
	dir := t.TempDir()
	run := costRun(t, dir, "run.txt", []string{"gcn"}, 0.4)
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	empty := write("empty.txt", "")
	noBench := write("nobench.txt", "goos: linux\nBenchmarkOther-2  1  5 ns/op\nPASS\n")
	skipped := write("skipped.txt", "BenchmarkCost/per-class=64/deepwalk-2\n    cost_bench_test.go:81: set-up estimated at 300 s\n--- SKIP: BenchmarkCost/per-class=64/deepwalk-2\n")
	nanRun := write("nan.txt", "BenchmarkCost/per-class=64/gcn-2  1  NaN real-ms  1 M-dense  1 M-gather  0 M-exp\n")
	const weights = "GATHER,EXP: two decimal numbers above 0 and finite"
	const runFile = "a readable file of go test -bench BenchmarkCost's output"
	for _, tc := range []struct {
		args       []string
		want, span string // the argument named, and what it takes
	}{
		{nil, "the following arguments are required: place, RUN.txt", ""},
		{[]string{"browser"}, "the following arguments are required: RUN.txt", ""},
		{[]string{"abc", run}, "argument place: invalid choice: 'abc'", "browser"},
		{[]string{"Browser", run}, "argument place: invalid choice", "native"},
		{[]string{"native", filepath.Join(dir, "nosuch.txt")}, "argument RUN.txt", runFile},
		{[]string{"native", dir}, "argument RUN.txt", runFile},
		{[]string{"native", empty}, "argument RUN.txt", runFile},
		{[]string{"native", noBench}, "argument RUN.txt", runFile},
		{[]string{"native", run, skipped}, "argument RUN.txt", runFile},
		{[]string{"native", nanRun}, "argument RUN.txt", "a finite number"},
		{[]string{"native", run, "--skip"}, "argument --skip: expected one argument", "SIZE/MODEL"},
		{[]string{"native", run, "--skip", "per-class=64/gcn,per-class=500/gcn,per-class=1024/gcn,facebook-shaped/gcn"}, "argument --skip", "SIZE/MODEL"},
		{[]string{"native", run, "--weights"}, "argument --weights: expected one argument", weights},
		{[]string{"native", "--weights", "--skip", "x", run}, "argument --weights: expected one argument", weights},
		{[]string{"native", run, "--weights", "1,2", "--weights", "1,3"}, "--weights is given twice", ""},
		{[]string{"native", run, "--wei", "1,2"}, "unrecognized arguments: --wei", ""},
	} {
		_, stderr, code := fitCost(t, py, tc.args...)
		msg := strings.TrimSpace(stderr)
		if code != 2 || strings.Contains(msg, "\n") || strings.Contains(msg, "Traceback") || !strings.HasPrefix(msg, "fit-cost.py: ") ||
			!strings.Contains(msg, tc.want) || !strings.Contains(msg, tc.span) {
			t.Errorf("fit-cost.py %q: exit %d, %q; want 2 and one line naming %q and %q", tc.args, code, msg, tc.want, tc.span)
		}
	}
	for _, w := range []string{"abc", "nan,1", "1,nan", "inf,1", "1,-inf", "1e400,1", "1,1e400", "0,1", "1,0", "-1,2", "1", "1,", ",1", "1,2,3", "", "0x10,1", "1_0,2", " "} {
		_, stderr, code := fitCost(t, py, "browser", run, "--weights="+w)
		msg := strings.TrimSpace(stderr)
		if code != 2 || strings.Contains(msg, "\n") || strings.Contains(msg, "Traceback") || !strings.Contains(msg, "argument --weights: ") || !strings.Contains(msg, weights) {
			t.Errorf("--weights=%s: exit %d, %q; want 2 and one line naming --weights and %q", w, code, msg, weights)
		}
	}
}

// For valid runs fit-cost.py prints the place's weights and its column of
// speeds in the lines pdn/speeds.go is pasted from.
func TestFitCostPrintsTheSpeedsTable(t *testing.T) {
	py := python(t)
	if err := exec.Command(py, "-c", "import numpy, scipy.optimize").Run(); err != nil {
		t.Skipf("%s has no numpy and scipy to fit with (PDN_PYTHON names a Python that has)", py)
	}
	dir := t.TempDir()
	models := []string{"gcn", "mlp"}
	runs := []string{costRun(t, dir, "a.txt", models, 0.4), costRun(t, dir, "b.txt", models, 0.42)}
	speed := regexp.MustCompile(`^experiment\.(GCN|MLP): native: Speed\{EpochNs: [0-9.e+-]+, FixedNs: [0-9.e+-]+, SetupNs: [0-9.e+-]+, UpdateNs: 40\.4\},$`)
	for _, tc := range []struct {
		args    []string
		weights *regexp.Regexp
	}{
		{[]string{"native", runs[0], runs[1]}, regexp.MustCompile(`^var nativeWeights = Work\{Dense: 1, Gather: [0-9.e+-]+, Exp: [0-9.e+-]+\}$`)},
		{[]string{"native", runs[0], "--skip", "per-class=64/mlp", runs[1], "--weights", "1.5,20"}, regexp.MustCompile(`^var nativeWeights = Work\{Dense: 1, Gather: 1\.5, Exp: 20\}$`)},
	} {
		stdout, stderr, code := fitCost(t, py, tc.args...)
		lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
		if code != 0 || len(lines) != 2+len(models) {
			t.Fatalf("fit-cost.py %q: exit %d, %d lines:\n%s\n%s", tc.args, code, len(lines), stdout, stderr)
		}
		if !tc.weights.MatchString(lines[0]) || lines[1] != "// the native column of the speeds table (pdn/speeds.go)" {
			t.Errorf("fit-cost.py %q: it begins\n%s\n%s", tc.args, lines[0], lines[1])
		}
		for _, l := range lines[2:] {
			if !speed.MatchString(l) {
				t.Errorf("fit-cost.py %q: %q is not a row of the speeds table", tc.args, l)
			}
		}
		if !strings.HasPrefix(stderr, "est/real of every epoch in [") {
			t.Errorf("fit-cost.py %q: stderr %q", tc.args, stderr)
		}
	}
}

// fit-cost.py names every model kind as pdn/speeds.go does (GO_NAMES), so
// that a refit of a kind added later prints its row instead of stopping.
func TestFitCostKnowsEveryKind(t *testing.T) {
	src, err := os.ReadFile("fit-cost.py")
	if err != nil {
		t.Fatal(err)
	}
	start := bytes.Index(src, []byte("GO_NAMES = {"))
	end := bytes.IndexByte(src[max(start, 0):], '}')
	if start < 0 || end < 0 {
		t.Fatal("fit-cost.py has no GO_NAMES = {...}")
	}
	names := string(src[start : start+end])
	for _, kind := range experiment.Kinds {
		if !strings.Contains(names, fmt.Sprintf("'%s': '", kind)) {
			t.Errorf("fit-cost.py's GO_NAMES lacks %q", kind)
		}
	}
}
