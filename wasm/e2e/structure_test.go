package e2e

import (
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"pdnexplorer/experiment"
)

// cliStructure runs pdn structure at the lab's defaults and returns its
// robustness and transfer rows as perturb/rate/model → accuracy and
// model/graph → accuracy.
func cliStructure(t *testing.T, args []string, done chan<- map[string]string) {
	dir := t.TempDir()
	cmd := pdnCommand(append([]string{"structure", "-out", dir}, args...)...)
	rows := map[string]string{}
	defer func() { done <- rows }()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("pdn structure: %v\n%s", err, out)
		return
	}
	read := func(name string, key func(r []string) string, col int) {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("pdn structure wrote no %s: %v", name, err)
			return
		}
		defer f.Close()
		all, err := csv.NewReader(f).ReadAll()
		if err != nil || len(all) < 2 {
			t.Errorf("%s: %v (%d rows)", name, err, len(all))
			return
		}
		for _, r := range all[1:] {
			rows[key(r)] = r[col]
		}
	}
	read("robustness.csv", func(r []string) string { return r[0] + "/" + r[1] + "/" + r[2] }, 3)
	read("transfer.csv", func(r []string) string { return r[0] + "/" + r[1] }, 2)
	read("induction.csv", func(r []string) string { return "induction/" + r[1] + "/" + r[0] }, 3)
	if _, err := os.Stat(filepath.Join(dir, "homophily.csv")); err != nil {
		t.Errorf("pdn structure wrote no homophily.csv: %v", err)
	}
}

// The structure lab at its defaults: PDN, GCN and GAT train live with the
// input graph's homophily and each run's learned homophily (PDN's above
// the input's after training, GCN's equal to it) and the matrix view; the
// pool then trains the robustness curves (every rate of the four
// perturbations, for the three models) and the transfer table, run for
// run the numbers pdn structure writes for the same seeds.
func TestStructureLabIsTheCLIs(t *testing.T) {
	cli := make(chan map[string]string, 1)
	go cliStructure(t, nil, cli)
	srv := serve(t, distDir(t), "/")
	ctx := browser(t)
	open(t, ctx, srv, "#lab=structure")
	waitFor(t, ctx, "the structure lab", `document.querySelector("#side-run") !== null && document.querySelectorAll('[data-metric="learned-homophily"]').length === 3`)
	key(t, ctx, " ")
	waitFor(t, ctx, "the three runs trained", `(() => { const r = [...document.querySelectorAll('[data-metric="epoch-final"]')]; return r.length === 3 && r.every((e) => +e.dataset.value === 200); })()`)
	atRest(t, ctx)
	hom := metricsByRun(t, ctx, "learned-homophily")
	in := metricsByRun(t, ctx, "input-homophily")
	if !(hom["pdn"] > in["pdn"]+0.25) {
		t.Errorf("PDN's learned homophily %v, its input's %v: want it well above", hom["pdn"], in["pdn"])
	}
	if hom["gcn"] != in["gcn"] {
		t.Errorf("GCN's learned homophily %v, its input's %v: want them equal", hom["gcn"], in["gcn"])
	}
	cells, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#matrix-view svg path").length`))
	must(t, err, "read the matrix view")
	if cells == 0 {
		t.Error("the matrix view draws no cell")
	}
	screenshot(t, ctx, "60-structure-trained")

	click(t, ctx, "#side-run", "run robustness and transfer")
	total := 0
	for _, p := range experiment.Perturbations {
		total += len(p.Rates) * 3
	}
	total += 2 * len(experiment.TransferModels)
	induction := len(experiment.InductionRuns(experiment.ForLab("structure")))
	total += induction
	waitFor(t, ctx, "every side run", `document.querySelector("#side-progress").value === `+strconv.Itoa(total))
	atRest(t, ctx)
	screenshot(t, ctx, "61-structure-robustness")
	want := <-cli
	shown, err := chromedp.Run(ctx, chromedp.Evaluate[[][]string](`[...document.querySelectorAll('[data-metric="robust-accuracy"]')].map((e) => [e.dataset.perturb + "/" + e.dataset.x + "/" + e.dataset.run, e.dataset.value])`))
	must(t, err, "read the curves")
	for _, s := range shown {
		if got := want[s[0]]; !sameAcc(got, s[1]) {
			t.Errorf("robustness %s: the page %s, the CLI %s", s[0], s[1], got)
		}
	}
	if len(shown) != total-2*len(experiment.TransferModels)-induction {
		t.Errorf("%d robustness cells, want %d", len(shown), total-2*len(experiment.TransferModels)-induction)
	}
	for _, p := range experiment.Perturbations {
		if len(p.Rates) < 5 {
			t.Errorf("%s: %d rates", p.Name, len(p.Rates))
		}
	}
	transfer, err := chromedp.Run(ctx, chromedp.Evaluate[[][]string](`[...document.querySelectorAll('[data-metric="transfer-accuracy"]')].map((e) => [e.dataset.run + "/" + e.dataset.graph, e.dataset.value])`))
	must(t, err, "read the transfer table")
	if len(transfer) != 2*len(experiment.TransferModels) {
		t.Errorf("%d transfer cells", len(transfer))
	}
	for _, s := range transfer {
		if got := want[s[0]]; !sameAcc(got, s[1]) {
			t.Errorf("transfer %s: the page %s, the CLI %s", s[0], s[1], got)
		}
	}
	// The induction table: the first seed's pathfinder on the graphs of
	// the next seeds, beside PDN and GCN trained there, run for run the
	// CLI's induction.csv.
	induced, err := chromedp.Run(ctx, chromedp.Evaluate[[][]string](`[...document.querySelectorAll('[data-metric="induction-accuracy"]')].map((e) => ["induction/" + e.dataset.run + "/" + e.dataset.seed, e.dataset.value])`))
	must(t, err, "read the induction table")
	if len(induced) != induction || induction == 0 {
		t.Errorf("%d induction cells, want %d", len(induced), induction)
	}
	for _, s := range induced {
		if got := want[s[0]]; !sameAcc(got, s[1]) {
			t.Errorf("%s: the page %s, the CLI %s", s[0], s[1], got)
		}
	}
	scrollTo(t, ctx, "#induction")
	screenshot(t, ctx, "62-structure-induction")
	// The claims the pool decides hold at the defaults, as pdn claims
	// finds them over their seeds.
	for _, c := range experiment.ClaimsShownBy("structure") {
		if !experiment.PoolDecides("structure", c) {
			continue
		}
		v, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(() => { const e = document.querySelector('#claims [data-claim="`+c.ID+`"]');
  return e === null ? ["none", ""] : [e.dataset.value, e.dataset.read, e.textContent.replace(/\s+/g, " ")]; })()`))
		must(t, err, "read claim "+c.ID)
		if v[0] != "1" || v[1] != "pool" {
			t.Errorf("claim %s after the pool: value %q, read %q: %s", c.ID, v[0], v[1], v[2:])
		}
	}
	scrollTo(t, ctx, "#claims")
	screenshot(t, ctx, "61-structure-claims")
	// The link keeps the results: a reload shows them without training.
	hash, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.hash`))
	must(t, err, "read the link")
	open(t, ctx, srv, hash)
	waitFor(t, ctx, "the results from the link", `document.querySelector("#side-progress") !== null && document.querySelector("#side-progress").value === `+strconv.Itoa(total)+` && [...document.querySelectorAll('[data-metric="robust-accuracy"]')].every((e) => e.dataset.value !== "NaN")`)
}

// sameAcc says whether a CSV's accuracy (four decimals) and a metric's
// value are one number.
func sameAcc(csvText, value string) bool {
	a, err1 := strconv.ParseFloat(csvText, 64)
	b, err2 := strconv.ParseFloat(value, 64)
	return err1 == nil && err2 == nil && a == b
}

// metricsByRun reads a metric's value for each run.
func metricsByRun(t *testing.T, ctx context.Context, name string) map[string]float64 {
	t.Helper()
	return numbersShown(t, ctx, `[...document.querySelectorAll('[data-metric="`+name+`"]')].map((e) => [e.dataset.run, e.dataset.value])`)
}

// The structure lab where its findings differ: a heterophilic graph (the
// preset: PDN's learned graph less homophilous than its input, PDN still
// the most accurate), Cora (learned and input homophily alike), and a
// phone in Arabic, whose figures and tables stay within the screen.
func TestStructureLabElsewhere(t *testing.T) {
	srv := serve(t, distDir(t), "/")
	ctx := browser(t)
	trained := `(() => { const r = [...document.querySelectorAll('[data-metric="epoch-final"]')]; return r.length === 3 && r.every((e) => +e.dataset.value === 200); })()`
	for _, c := range []struct{ link, shot string }{
		{"#lab=structure&p=0.005&q=0.02", "62-structure-heterophily"},
		{"#lab=structure&data=cora", "63-structure-cora"},
	} {
		open(t, ctx, srv, c.link)
		waitFor(t, ctx, "the structure lab", `document.querySelector("#side-run") !== null`)
		key(t, ctx, " ")
		waitFor(t, ctx, "the three runs trained", trained)
		atRest(t, ctx)
		hom, in := metricsByRun(t, ctx, "learned-homophily"), metricsByRun(t, ctx, "input-homophily")
		acc := metricsByRun(t, ctx, "test-accuracy-final")
		t.Logf("%s: input homophily %.3f; learned pdn %.3f gcn %.3f gat %.3f; test pdn %.3f gcn %.3f gat %.3f",
			c.link, in["pdn"], hom["pdn"], hom["gcn"], hom["gat"], acc["pdn"], acc["gcn"], acc["gat"])
		if c.shot == "62-structure-heterophily" && !(hom["pdn"] < in["pdn"] && acc["pdn"] > acc["gcn"] && acc["pdn"] > acc["gat"]) {
			t.Errorf("heterophily: PDN learned %v on an input of %v, accuracies %v", hom["pdn"], in["pdn"], acc)
		}
		if hom["gcn"] != in["gcn"] {
			t.Errorf("%s: GCN's learned homophily %v, its input's %v", c.link, hom["gcn"], in["gcn"])
		}
		screenshot(t, ctx, c.shot)
	}
	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile)), "a phone")
	open(t, ctx, srv, "#lab=structure&lang=ar&per-class=128")
	waitFor(t, ctx, "the structure lab", `document.querySelector("#side-run") !== null`)
	key(t, ctx, " ")
	waitFor(t, ctx, "the three runs trained", trained)
	click(t, ctx, "#side-run", "run robustness and transfer")
	waitFor(t, ctx, "every side run", `document.querySelector("#side-progress").value === +document.querySelector("#side-progress").max`)
	w, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth`))
	must(t, err, "read the page's width")
	if w > 390 {
		t.Errorf("the structure lab is %d px wide on a 390 px phone", w)
	}
	screenshot(t, ctx, "64-structure-phone-ar")
	must(t, chromedp.Do(ctx, chromedp.ScrollIntoView(chromedp.CSS("#robustness"))), "scroll to the curves")
	screenshot(t, ctx, "65-structure-phone-ar-robustness")
}

// A MUSAE Wikipedia folder whose target is each page's traffic opens with
// the chooser offering it cut into 5 classes at its quantiles; choosing
// that opens the graph on 5 classes of 40 nodes, bins=5 in the link, and
// the structure lab trains on it.
func TestOpenAMeasuredTargetInBins(t *testing.T) {
	srv := serve(t, distDir(t), "/")
	ctx := browser(t)
	open(t, ctx, srv, "#per-class=64")
	waitFor(t, ctx, "the layout", graphDrawn)
	traffic := musaeZip(t, 200, "target", func(i int) string { return strconv.Itoa(300 + (i*7919)%5000) })
	giveFiles(t, ctx, map[string][]byte{"chameleon.zip": traffic}, false)
	waitFor(t, ctx, "the column chooser", `document.querySelector("#column-chooser") !== null`)
	if h := text(t, ctx, "#column-chooser"); !strings.Contains(h, "target cut into 5 classes by quantile") || !strings.Contains(h, "holds measurements") {
		t.Errorf("the chooser: %q", h)
	}
	scrollTo(t, ctx, "#column-chooser")
	screenshot(t, ctx, "66-chooser-bins")
	click(t, ctx, "#choose-column-0", "cut into 5")
	waitFor(t, ctx, "the binned graph", `location.hash.includes("bins=5") && location.hash.includes("target=target") && document.querySelector(".notices").textContent.includes("cut by quantile into 5 classes of 40 to 40 nodes")`)
	// The lab changes in the page, which keeps the files (a link does not).
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`location.hash = location.hash.replace(/lab=[a-z]+&?/, "").replace(/^#/, "#lab=structure&"); true`))
	must(t, err, "go to the structure lab")
	waitFor(t, ctx, "the structure lab on the binned graph", `document.querySelector("#side-run") !== null && [...document.querySelectorAll('[data-metric="input-homophily"]')].some((e) => e.dataset.value !== "NaN")`)
}
