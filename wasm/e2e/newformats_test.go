package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// The formats researchers bring, as their publishers' libraries wrote
// them (datasets/testdata: NetworkX's write_gexf and node_link_data,
// numpy's savez of the GNN benchmark's arrays, SciPy's mmwrite beside a
// Network Repository labels file), open in the graph lab as files are
// opened, train, and end at the test accuracy pdn train -data gives on
// the same files with the same rows, to the fourth decimal: the same
// graph, the same defaults, the same bits.
func TestNewFormatsTrainInThePageAsOnTheCommandLine(t *testing.T) {
	cases := []struct {
		format string
		files  []string // under datasets/testdata; the first is -data's path
		data   string
	}{
		{"GEXF", []string{"karate.gexf"}, "karate.gexf"},
		{"node-link JSON", []string{"karate-edges.json"}, "karate-edges.json"},
		{"npz", []string{"npz/karate.npz"}, "npz/karate.npz"},
		{"Matrix Market", []string{"mtx/karate.mtx", "mtx/karate.node_labels"}, "mtx"},
	}
	const shots = "4" // karate has 34 nodes: 4 labelled a class leaves 26 to test
	cli := map[string]chan float64{}
	for _, c := range cases {
		done := make(chan float64, 1)
		cli[c.format] = done
		go func(data string) {
			done <- cliAccuracy(t, filepath.Join("datasets", "testdata", data), "-shots", shots)
		}(c.data)
	}
	srv := serve(t, distDir(t), "/")
	ctx := browser(t)
	for _, c := range cases {
		t.Run(c.format, func(t *testing.T) {
			open(t, ctx, srv, "#lab=graph")
			waitFor(t, ctx, "the layout", graphDrawn)
			files := map[string][]byte{}
			for _, f := range c.files {
				b, err := os.ReadFile(filepath.Join("..", "..", "datasets", "testdata", f))
				must(t, err, "read "+f)
				files[filepath.Base(f)] = b
			}
			giveFiles(t, ctx, files, false)
			waitFor(t, ctx, c.format+" opened", `document.querySelector(".notices").textContent.includes("Opened karate")`)
			setField(t, ctx, "shots", shots)
			waitFor(t, ctx, "the split drawn again", `document.querySelector("#chance").textContent.includes("26 test nodes")`)
			click(t, ctx, "#play", "play")
			waitFor(t, ctx, "the run at its end", `document.querySelector("#epoch").textContent.startsWith("200 /") && !document.querySelector("#play").textContent.includes("Pause")`)
			shown, err := chromedp.Run(ctx, chromedp.Evaluate[string](metricOf("test-accuracy")))
			must(t, err, "read the test accuracy")
			page, err := strconv.ParseFloat(shown, 64)
			if err != nil {
				t.Fatalf("the page shows test accuracy %q", shown)
			}
			want := <-cli[c.format]
			if strconv.FormatFloat(page, 'f', 4, 64) != strconv.FormatFloat(want, 'f', 4, 64) {
				t.Errorf("%s: the page trains to %.4f, pdn train -data to %.4f", c.format, page, want)
			}
			t.Logf("%s (%s): the page %.4f, the command line %.4f", c.format, strings.Join(c.files, ", "), page, want)
			screenshot(t, ctx, "newformat-"+strings.ReplaceAll(c.format, " ", "-"))
		})
	}
}

// cliAccuracy is the test accuracy pdn train -json gives on the graph at
// data (a path from the repository's root) with flags, -1 on a failure,
// which it reports.
func cliAccuracy(t *testing.T, data string, flags ...string) float64 {
	args := append([]string{"train", "-json", "-quiet", "-data", data}, flags...)
	b, err := pdnCommand(args...).Output()
	if err != nil {
		t.Errorf("pdn %v: %v", args, err)
		return -1
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	var res struct {
		TestAccuracy float64 `json:"test_accuracy"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &res); err != nil {
		t.Errorf("pdn %v: %v in %s", args, err, lines[len(lines)-1])
		return -1
	}
	return res.TestAccuracy
}
