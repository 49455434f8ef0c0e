package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
)

// coraGraphML is Cora as NetworkX writes it to GraphML: each paper's
// subject as a string, its words as numeric attributes where it has them,
// the citations; built from the explorer's own copy of Cora, so the test
// reads no file of the machine's.
func coraGraphML(t *testing.T) []byte {
	t.Helper()
	e := experiment.Default()
	e.Data.Graph = experiment.GraphCora
	g, err := datasets.Build(e.Data)
	must(t, err, "build Cora")
	if g.XS == nil {
		t.Fatal("Cora's words are not sparse")
	}
	var b strings.Builder
	b.WriteString(`<?xml version='1.0' encoding='utf-8'?>` + "\n" + `<graphml xmlns="http://graphml.graphdrawing.org/xmlns">` + "\n")
	b.WriteString(`<key id="subject" for="node" attr.name="subject" attr.type="string"/>` + "\n")
	for k := range g.F {
		fmt.Fprintf(&b, `<key id="w%d" for="node" attr.name="w%d" attr.type="long"/>`+"\n", k, k)
	}
	b.WriteString(`<graph edgedefault="undirected">` + "\n")
	for i := range g.N {
		class := fmt.Sprintf("c%d", g.Labels[i])
		if g.Labels[i] < len(g.ClassNames) {
			class = g.ClassNames[g.Labels[i]]
		}
		fmt.Fprintf(&b, `<node id="p%d"><data key="subject">%s</data>`, i, class)
		for j := g.XS.Ptr[i]; j < g.XS.Ptr[i+1]; j++ {
			fmt.Fprintf(&b, `<data key="w%d">1</data>`, g.XS.Col[j])
		}
		b.WriteString("</node>\n")
	}
	for k := range g.Src {
		fmt.Fprintf(&b, `<edge source="p%d" target="p%d"/>`+"\n", g.Src[k], g.Dst[k])
	}
	b.WriteString("</graph></graphml>\n")
	return []byte(b.String())
}

// Your own graph, introduced and measured: the graph lab's intro says the
// generator's graph it opens on, then, once Cora opens as GraphML, Cora's
// name, classes, nodes, edges and features, not "a graph of three
// classes"; beside the run stand the majority class's and an MLP's
// accuracy on its test nodes, the MLP trained in the worker.
func TestOwnGraphIntroducedAndMeasured(t *testing.T) {
	srv := serve(t, distDir(t), "/")
	ctx := browser(t)
	open(t, ctx, srv, "")
	waitFor(t, ctx, "the layout", graphDrawn)
	waitFor(t, ctx, "the generator's graph introduced", `document.querySelector("#intro").textContent.includes("The paper's synthetic graph: 3 classes, 1,500 nodes, 7,429 edges, 32 node features and 32 edge features.")`)
	waitFor(t, ctx, "the MLP baseline of the generator's graph", `document.querySelector('#chance [data-metric="mlp-acc"]').dataset.value !== "NaN"`)

	giveFiles(t, ctx, map[string][]byte{"cora.graphml": coraGraphML(t)}, false)
	waitFor(t, ctx, "Cora opened", `document.querySelector(".notices").textContent.includes("Opened cora")`)
	waitFor(t, ctx, "Cora introduced", `document.querySelector("#intro").textContent.includes("cora: 7 classes, 2,708 nodes, 5,278 edges, 1,433 node features and 11 tie-strength scores as edge features.")`)
	if intro := text(t, ctx, "#intro"); strings.Contains(intro, "three classes") || strings.Contains(intro, "synthetic") {
		t.Errorf("the intro still speaks of the generator's graph: %q", intro)
	}
	waitFor(t, ctx, "Cora's majority class and MLP", `(() => { const m = document.querySelector('#chance [data-metric="majority-acc"]'), p = document.querySelector('#chance [data-metric="mlp-acc"]');
  return m && p && parseFloat(m.dataset.value) > 0.1 && parseFloat(m.dataset.value) < 0.5 && parseFloat(p.dataset.value) > 0.3; })()`)
	chance := text(t, ctx, "#chance")
	if !strings.Contains(chance, "test nodes") {
		t.Errorf("the chance line does not say what it is measured on: %q", chance)
	}

	key(t, ctx, " ")
	waitFor(t, ctx, "the run at its end", `document.querySelector("#epoch").textContent.startsWith("200 /") && !document.querySelector("#play").textContent.includes("Pause")`)
	read := func(metric string) float64 {
		v, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`parseFloat(document.querySelector('[data-metric="`+metric+`"]').dataset.value)`))
		must(t, err, "read "+metric)
		return v
	}
	acc, majority, mlp := read("test-accuracy"), read("majority-acc"), read("mlp-acc")
	if !(acc > majority+0.2) || strings.Contains(text(t, ctx, "#chance"), "near chance") {
		t.Errorf("PDN on Cora: %v against majority %v and MLP %v; the chance line says %q", acc, majority, mlp, text(t, ctx, "#chance"))
	}
	t.Logf("Cora opened as GraphML: PDN %.3f, majority class %.3f, MLP %.3f", acc, majority, mlp)
	screenshot(t, ctx, "owngraph-cora-measured")

	// On a phone the chance line takes its own lines, not the toolbar's.
	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile)), "phone size")
	waitFor(t, ctx, "the phone's layout", `document.querySelector("#chance").getBoundingClientRect().width <= 390`)
	box, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`[document.querySelector("#chance").getBoundingClientRect().top, document.querySelector("#chance").getBoundingClientRect().height,
  document.querySelector(".toolbar").getBoundingClientRect().height]`))
	must(t, err, "measure the chance line")
	t.Logf("phone: the chance line at y %.0f, %.0f px high; the toolbar %.0f px", box[0], box[1], box[2])
	screenshot(t, ctx, "owngraph-cora-phone")
}
