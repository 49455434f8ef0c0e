// Package pygtest runs an export's script for the tests: it finds a Python
// that imports torch and PyTorch Geometric, and skips the test when there
// is none (torch is large, and CI machines need not have it).
//
// PDN_PYTHON names the Python (else python3 on the PATH, then Debian's,
// which is where its python3-torch package installs torch); PDN_PYG names
// PyTorch Geometric's source, a folder that holds torch_geometric/ or a
// .tar.gz of one (PyG is pure Python), else it must import as installed.
package pygtest

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"pdnexplorer/internal/outdir"
)

// Python returns a Python that imports torch and torch_geometric, and the
// environment to run it in; it skips t when there is none.
func Python(t testing.TB) (python string, env []string) {
	t.Helper()
	env = os.Environ()
	if src := os.Getenv("PDN_PYG"); src != "" {
		dir, err := pygFolder(t, src)
		if err != nil {
			t.Skipf("PDN_PYG=%s: %v", src, err)
		}
		env = append(env, "PYTHONPATH="+dir)
	}
	candidates := []string{"python3", "/usr/bin/python3"}
	if p := os.Getenv("PDN_PYTHON"); p != "" {
		candidates = []string{p}
	}
	var why []string
	for _, p := range candidates {
		if no := imports(p, env); no != "" {
			why = append(why, p+": "+no)
			continue
		}
		return p, env
	}
	t.Skipf("no Python with torch and torch_geometric (%s); set PDN_PYTHON and PDN_PYG", strings.Join(why, "; "))
	return "", nil
}

// tried holds, by Python, why it cannot import torch and torch_geometric
// ("" where it can): importing torch takes seconds, the more on a busy
// machine, and the answer is the same for every test of a run.
var tried sync.Map

// imports returns why python cannot import torch and torch_geometric in
// env, "" when it can, asking each Python once.
func imports(python string, env []string) string {
	if why, ok := tried.Load(python); ok {
		return why.(string)
	}
	cmd := exec.Command(python, "-c", "import torch, torch_geometric")
	cmd.Env = env
	why := ""
	if out, err := cmd.CombinedOutput(); err != nil {
		why = lastLine(string(out), err)
	}
	tried.Store(python, why)
	return why
}

// pygFolder is src if it is a folder, else a temporary folder src (a
// .tar.gz) is unpacked into.
func pygFolder(t testing.TB, src string) (string, error) {
	st, err := os.Stat(src)
	if err != nil {
		return "", err
	}
	if st.IsDir() {
		return src, nil
	}
	f, err := os.Open(src)
	if err != nil {
		return "", err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return "", err
	}
	dir := t.TempDir()
	tree, err := outdir.NewTree(dir)
	if err != nil {
		return "", err
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return dir, nil
		}
		if err != nil {
			return "", err
		}
		name := filepath.Join(dir, filepath.FromSlash(h.Name))
		if !strings.HasPrefix(name, dir+string(filepath.Separator)) || h.Typeflag != tar.TypeReg {
			continue // folders come with their files; nothing leaves dir
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			return "", err
		}
		rel, _ := filepath.Rel(dir, name)
		if err := tree.WriteFile(filepath.ToSlash(rel), b, 0o644); err != nil {
			return "", err
		}
	}
}

// Run runs script with args and returns the JSON object of its last line
// of stdout. The script trains on one thread unless args say otherwise:
// torch's OpenMP threads spin while they wait for each other, and on a
// busy machine two of them ran the default PDN 14 times slower than one
// (107 s against 7.7 s at a load of 15 on 2 cores), with the same bits.
func Run(t testing.TB, python string, env []string, script string, args ...string) map[string]any {
	t.Helper()
	if !slices.Contains(args, "--threads") {
		args = append(args, "--threads", "1")
	}
	cmd := exec.Command(python, append([]string{script}, args...)...)
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s%s", script, err, stdout.String(), stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	var out map[string]any
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &out); err != nil {
		t.Fatalf("%s: the last line is not one JSON object: %v\n%s", script, err, stdout.String())
	}
	t.Logf("%s:\n%s", script, stdout.String())
	return out
}

func lastLine(out string, err error) string {
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if l := lines[len(lines)-1]; l != "" {
		return l
	}
	return err.Error()
}
