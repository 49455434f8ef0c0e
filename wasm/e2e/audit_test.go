package e2e

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// gzipped is text as a .gz member.
func gzipped(text string) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(text))
	zw.Close()
	return b.Bytes()
}

// noticed waits until the page's notices hold every one of wants.
func noticed(t *testing.T, ctx context.Context, what string, wants ...string) {
	t.Helper()
	var conds []string
	for _, w := range wants {
		conds = append(conds, fmt.Sprintf("document.querySelector(\".notices\").textContent.includes(%q)", w))
	}
	waitFor(t, ctx, what, strings.Join(conds, " && "))
}

// The audit's page cases that were fine or clear, on files built to each
// case's description, so that they stay so: every publisher's layout the
// page opens (a MUSAE folder's three files, Planetoid's raw Cora, a
// NetworkX GraphML without numeric attributes, an OGB folder with its
// split and class names, a space-separated edge list and labels), a link's
// target that picks between two class columns, data=local in an embed, a
// model without a PyG counterpart asked for its export, and the page in
// the browser's language.
func TestAuditPageCases(t *testing.T) {
	srv := serve(t, distDir(t), "/")
	ctx := browser(t)

	// 142: an embed naming the user's graph, which a link cannot carry.
	open(t, ctx, srv, "#lab=graph&embed=1&data=local")
	noticed(t, ctx, "data=local in an embed", "its files do not travel with a link: open them again")

	// 161: a model without a PyTorch Geometric counterpart, asked for one.
	open(t, ctx, srv, "#lab=graph&model=clustergcn&per-class=64")
	waitFor(t, ctx, "the layout", graphDrawn)
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { document.querySelector("#export-pyg").click(); return true; })()`))
	must(t, err, "export to PyG")
	noticed(t, ctx, "ClusterGCN's export refused", "model clustergcn has no PyTorch Geometric counterpart")

	// 48 and 194: a link's target picks one of two class columns: no chooser.
	open(t, ctx, srv, "#lab=graph&target=hue&per-class=64")
	waitFor(t, ctx, "the layout", graphDrawn)
	var table strings.Builder
	table.WriteString("id,form,hue\n")
	for i := range 60 {
		fmt.Fprintf(&table, "%d,%s,%s\n", i, []string{"round", "square", "flat"}[i%3], []string{"red", "blue"}[i%2])
	}
	giveFiles(t, ctx, map[string][]byte{"labels.csv": []byte(table.String()), "edges.csv": []byte(ring60())}, false)
	noticed(t, ctx, "the link's target", "2 classes (blue, red) from the column hue")
	if has, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector("#column-chooser") !== null`)); has {
		t.Error("the chooser asked though the link names the class column")
	}

	// 39 and 40: a MUSAE folder's three files, with their publisher's names.
	var edges, target, feats strings.Builder
	edges.WriteString("id_1,id_2\n")
	target.WriteString("id,facebook_id,page_name,page_type\n")
	feats.WriteString("{")
	for i := range 90 {
		fmt.Fprintf(&edges, "%d,%d\n%d,%d\n", i, (i+1)%90, i, (i+5)%90)
		fmt.Fprintf(&target, "%d,%d,page %d,%s\n", i, 1000+i, i, []string{"company", "government", "politician"}[i%3])
		if i > 0 {
			feats.WriteString(",")
		}
		fmt.Fprintf(&feats, `"%d":[%d,%d]`, i, i%11, 11+i%3)
	}
	feats.WriteString("}")
	giveFiles(t, ctx, map[string][]byte{"musae_facebook_edges.csv": []byte(edges.String()),
		"musae_facebook_target.csv": []byte(target.String()), "musae_facebook_features.json": []byte(feats.String())}, false)
	noticed(t, ctx, "the MUSAE files", "90 nodes", "3 classes (company, government, politician)")

	// 50: Planetoid's raw Cora: tab-separated, paper ids, words, class names.
	var content, cites strings.Builder
	for i := range 80 {
		fmt.Fprintf(&content, "%d", 31336+i*7)
		for w := range 20 {
			fmt.Fprintf(&content, "\t%d", (i+w)%5/4)
		}
		fmt.Fprintf(&content, "\t%s\n", []string{"Case_Based", "Neural_Networks", "Theory"}[i%3])
		fmt.Fprintf(&cites, "%d\t%d\n", 31336+i*7, 31336+(i+1)%80*7)
	}
	giveFiles(t, ctx, map[string][]byte{"cora.content": []byte(content.String()), "cora.cites": []byte(cites.String())}, false)
	noticed(t, ctx, "Planetoid's files", "80 nodes", "3 classes (Case_Based, Neural_Networks, Theory)", "20 node features")

	// 51: NetworkX's GraphML of Cora: a string class and no numeric node
	// attribute, so degrees are the features, and the page says so.
	var g strings.Builder
	g.WriteString(`<?xml version='1.0' encoding='utf-8'?>` + "\n" + `<graphml xmlns="http://graphml.graphdrawing.org/xmlns"><key id="d0" for="node" attr.name="subject" attr.type="string"/><graph edgedefault="undirected">`)
	for i := range 70 {
		fmt.Fprintf(&g, `<node id="%d"><data key="d0">%s</data></node>`, 100+i, []string{"AI", "DB"}[i%2])
	}
	for i := range 70 {
		fmt.Fprintf(&g, `<edge source="%d" target="%d"/>`, 100+i, 100+(i+3)%70)
	}
	g.WriteString(`</graph></graphml>`)
	giveFiles(t, ctx, map[string][]byte{"nx.graphml": []byte(g.String())}, false)
	noticed(t, ctx, "NetworkX's GraphML", "70 nodes", "2 classes (AI, DB) from the column subject", "no node features")

	// 53: an OGB folder, zipped: its split and its class names kept.
	var oe, of, ol strings.Builder
	for i := range 50 {
		fmt.Fprintf(&oe, "%d,%d\n", i, (i+1)%50)
		fmt.Fprintf(&of, "%d.5,%d\n", i%4, i%3)
		fmt.Fprintf(&ol, "%d\n", i%2)
	}
	ogb := zipFiles(t, map[string][]byte{
		"ogbn_tiny/raw/edge.csv.gz":                 gzipped(oe.String()),
		"ogbn_tiny/raw/node-feat.csv.gz":            gzipped(of.String()),
		"ogbn_tiny/raw/node-label.csv.gz":           gzipped(ol.String()),
		"ogbn_tiny/raw/num-node-list.csv.gz":        gzipped("50\n"),
		"ogbn_tiny/split/random/train.csv.gz":       gzipped("0\n1\n2\n3\n"),
		"ogbn_tiny/split/random/valid.csv.gz":       gzipped("4\n5\n"),
		"ogbn_tiny/split/random/test.csv.gz":        gzipped("6\n7\n8\n9\n10\n"),
		"ogbn_tiny/mapping/labelidx2subject.csv.gz": gzipped("label idx,subject\n0,Theory\n1,Rule_Learning\n"),
	})
	giveFiles(t, ctx, map[string][]byte{"ogbn_tiny.zip": ogb}, false)
	noticed(t, ctx, "the OGB folder", "Opened ogbn_tiny.zip", "50 nodes", "Theory", "Rule_Learning")
	if txt := text(t, ctx, ".notices"); strings.Contains(txt[strings.LastIndex(txt, "Opened ogbn_tiny.zip"):], "without OGB's split") {
		t.Errorf("the OGB folder's own split was not kept: %s", txt)
	}

	// 55: a space-separated edge list and labels, without headers.
	var el, lb strings.Builder
	for i := range 40 {
		fmt.Fprintf(&el, "%d %d\n", i, (i+1)%40)
		fmt.Fprintf(&lb, "%d %s\n", i, []string{"x", "y"}[i%2])
	}
	giveFiles(t, ctx, map[string][]byte{"cora.edgelist": []byte(el.String()), "cora.labels": []byte(lb.String())}, false)
	noticed(t, ctx, "the space-separated files", "40 nodes", "2 classes (x, y) from the column 2")
	screenshot(t, ctx, "98-audit-page-formats")

	// The graph one worker read trains in the compare lab's other workers,
	// which take it as read (protocol.Command.Parsed), not from the files.
	_, err = chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { location.hash = "#lab=compare&data=local&epochs=30&models=pdn,gcn,gat"; return true; })()`))
	must(t, err, "the compare lab on the files")
	waitFor(t, ctx, "every run", runsShown(3))
	key(t, ctx, " ")
	waitFor(t, ctx, "every run trained", allDone(3, 30))
	if txt := text(t, ctx, ".notices"); strings.Contains(txt, "came damaged") || strings.Contains(txt, "open them again") {
		t.Errorf("a worker did not take the graph read: %s", txt)
	}

	// 109: a sweep left mid-way and come back to keeps the results it had.
	open(t, ctx, srv, "#lab=sweep&scenario=4&models=pdn,gcn&reps=1")
	waitFor(t, ctx, "the estimate", `document.querySelector("#sweep-left").textContent.includes("estimate")`)
	key(t, ctx, " ")
	waitFor(t, ctx, "some runs", `+document.querySelector('[data-metric="sweep-done"]').dataset.value >= 3`)
	had, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`(() => { const n = +document.querySelector('[data-metric="sweep-done"]').dataset.value; location.hash = "#lab=graph"; return n; })()`))
	must(t, err, "leave the sweep")
	waitFor(t, ctx, "the graph lab", `document.querySelector(".graph-lab") !== null`)
	time.Sleep(2 * time.Second)
	_, err = chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { history.back(); return true; })()`))
	must(t, err, "come back")
	waitFor(t, ctx, "the sweep lab again", `document.querySelector('[data-metric="sweep-done"]') !== null`)
	if n, _ := chromedp.Run(ctx, chromedp.Evaluate[float64](`+document.querySelector('[data-metric="sweep-done"]').dataset.value`)); n < had {
		t.Errorf("back in the sweep lab: %v results of the %v it had", n, had)
	}

	// 149: lang=auto follows the browser's languages.
	es := browser(t)
	_, err = chromedp.Call(es, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
		Source: `Object.defineProperty(navigator, "languages", {get: () => ["es-ES", "es"]}); Object.defineProperty(navigator, "language", {get: () => "es-ES"});`})
	must(t, err, "a Spanish browser")
	open(t, es, srv, "#lab=graph")
	waitFor(t, es, "the page in Spanish", `document.documentElement.lang === "es" && document.querySelector("#play").textContent.includes("Reproducir")`)
}
