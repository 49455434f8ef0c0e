package e2e

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"pdnexplorer/pyg/pygtest"
)

// The graph lab's "PyTorch Geometric" export, on the default graph and run:
// a zip with the graph, the weights and run_pyg.py, whose weights carry
// the test accuracy the page shows; where torch is installed, the script
// gives that accuracy from the page's weights and lands within 0.03 of it
// training afresh.
func TestExportToPyG(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	open(t, ctx, srv, "")
	waitFor(t, ctx, "the layout", graphDrawn)
	click(t, ctx, "#play", "play")
	waitFor(t, ctx, "200 epochs", `document.querySelector("#epoch").textContent.startsWith("200 /")`)
	shown, err := chromedp.Run(ctx, chromedp.Evaluate[string](metricOf("test-accuracy")))
	must(t, err, "read the test accuracy")
	page, err := strconv.ParseFloat(shown, 64)
	if err != nil {
		t.Fatalf("the page shows test accuracy %q", shown)
	}
	catchDownloads(t, ctx)
	click(t, ctx, "#export-pyg", "save for PyG")
	waitFor(t, ctx, "the export", `window.__saved.length > 0`)
	files := downloads(t, ctx)
	data, ok := files["pdn-synthetic-pdn-pyg.zip"]
	if !ok {
		t.Fatalf("saved %v, want pdn-synthetic-pdn-pyg.zip", keys(files))
	}
	dir := unzipTo(t, data)
	var w struct {
		Model        string  `json:"model"`
		Epoch        int     `json:"epoch"`
		TestAccuracy float64 `json:"test_accuracy"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "pdn-synthetic-pdn-pyg", "weights.json"))
	must(t, err, "read weights.json")
	must(t, json.Unmarshal(b, &w), "parse weights.json")
	if w.Model != "pdn" || w.Epoch != 200 || math.Abs(w.TestAccuracy-page) > 1e-9 {
		t.Errorf("weights.json: %s at epoch %d, test accuracy %v; the page shows pdn, 200, %v", w.Model, w.Epoch, w.TestAccuracy, page)
	}
	t.Logf("the page: test accuracy %v; the export: %d bytes", page, len(data))
	t.Run("in PyG", func(t *testing.T) {
		python, env := pygtest.Python(t)
		out := pygtest.Run(t, python, env, filepath.Join(dir, "pdn-synthetic-pdn-pyg", "run_pyg.py"))
		if got, _ := out["exported_test_accuracy"].(float64); math.Abs(got-page) > 1e-9 {
			t.Errorf("the page's weights give %v in PyG; the page shows %v", got, page)
		}
		if got, _ := out["test_accuracy"].(float64); math.Abs(got-page) > 0.03 {
			t.Errorf("trained in PyG: %v; the page %v: more than 0.03 apart", got, page)
		}
	})
}

// unzipTo unpacks a zip into a temporary folder.
func unzipTo(t *testing.T, data []byte) string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	must(t, err, "read the zip")
	dir := t.TempDir()
	for _, f := range zr.File {
		name := filepath.Join(dir, filepath.FromSlash(f.Name))
		if !strings.HasPrefix(name, dir+string(filepath.Separator)) || f.FileInfo().IsDir() {
			continue
		}
		must(t, os.MkdirAll(filepath.Dir(name), 0o755), "make "+filepath.Dir(name))
		rc, err := f.Open()
		must(t, err, "open "+f.Name)
		b, err := io.ReadAll(rc)
		rc.Close()
		must(t, err, "unpack "+f.Name)
		must(t, os.WriteFile(name, b, 0o644), "write "+name)
	}
	return dir
}
