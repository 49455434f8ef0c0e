package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// Table 4's embeddings are models like any other in the compare lab: on
// Cora from its link, FEATHER (which reads the node features), NetMF
// (which reads the edges alone) and PDN train side by side in the page,
// each embedding made in the worker, then classified; each run's test
// accuracy is the command line's for the same model, epochs, shots and
// seeds, to the last digit shown. At the default 100 labelled nodes a
// class, where FEATHER's regression over its 16,000 columns takes about a
// second an epoch in the page (at 300 it is refused before it starts,
// naming shots: pdn.TestRegressionCostFollowsTheShots).
func TestCompareLabEmbeddingsOnCora(t *testing.T) {
	const epochs = 40
	models := []string{"feather", "netmf", "pdn"}
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	open(t, ctx, srv, fmt.Sprintf("#lab=compare&data=cora&epochs=%d&models=%s", epochs, strings.Join(models, ",")))
	waitFor(t, ctx, "the three runs", runsShown(len(models)))
	click(t, ctx, "#play", "train all")
	waitFor(t, ctx, "every run trained", allDone(len(models), epochs))
	screenshot(t, ctx, "60-compare-embeddings-cora")
	page := runMetrics(t, ctx, "test-accuracy-final")
	if txt := text(t, ctx, ".notices"); strings.Contains(txt, "needs about") || strings.Contains(txt, "engine stopped") {
		t.Errorf("a run was refused or stopped: %s", txt)
	}
	for _, m := range models {
		b, err := pdnCommand("train", "-data", "cora", "-model", m, "-epochs", fmt.Sprint(epochs), "-json", "-quiet").Output()
		must(t, err, "pdn train -model "+m)
		var res struct {
			TestAccuracy float64 `json:"test_accuracy"`
		}
		must(t, json.Unmarshal(b, &res), "read pdn train's JSON")
		got, ok := page[m]
		t.Logf("%s on Cora: the page %.4f, the command line %.4f", m, got, res.TestAccuracy)
		if !ok || fmt.Sprintf("%.3f", got) != fmt.Sprintf("%.3f", res.TestAccuracy) {
			t.Errorf("%s on Cora: the page's test accuracy %.4f (shown: %v), the command line's %.4f", m, got, ok, res.TestAccuracy)
		}
	}
}
