package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"pdnexplorer/experiment"
)

// The page cases of the audit of 28 November (issue 52), each on files
// built to the case's description: a link's values, a link's results in
// every lab, a link's columns on one's own files, and state that belongs
// to one graph as the next arrives. Case 69 (projector mode printed two
// pages) is TestPrintedLabIsOnePage.

// hashHas reports whether the page's address holds s.
func hashHas(t *testing.T, ctx context.Context, s string) bool {
	t.Helper()
	h, err := chromedp.Run(ctx, chromedp.Evaluate[string](`decodeURIComponent(location.hash)`))
	must(t, err, "read the link")
	return strings.Contains(h, s)
}

// goHash changes the address's fragment in the page, as a user editing the
// link does (a hashchange, not a new document).
func goHash(t testing.TB, ctx context.Context, hash string) {
	t.Helper()
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(() => { location.hash = %q; return true; })()`, hash)))
	must(t, err, "go to "+hash)
}

// clearNotices closes every notice, so that the next case's are its own.
func clearNotices(t *testing.T, ctx context.Context) {
	t.Helper()
	// One at a time: a notice's button names its place, which the one
	// before it changes as it goes.
	waitFor(t, ctx, "no notice", `(() => { const b = document.querySelector(".notices .dismiss"); if (b) b.click(); return b === null; })()`)
}

// Links: each value a link holds goes through the state table's rules (the
// numbers through internal/numtext), a refused one is named in the notice
// and leaves the link, and the page goes on.
func TestAudit52Links(t *testing.T) {
	srv := serve(t, distDir(t), "/")
	ctx := browser(t)

	// 2: a hexadecimal float in a link's edits is refused, said, and the
	// link keeps no trace of it; the editor lists no edit.
	open(t, ctx, srv, "#lab=graph&per-class=64&edits=s0-2f0~0x1p-2")
	noticeSays(t, ctx, "edits", `"0x1p-2"`)
	waitFor(t, ctx, "the graph", graphDrawn)
	if hashHas(t, ctx, "0x1p-2") {
		t.Error("the link keeps edits=s0-2f0~0x1p-2")
	}
	if got := text(t, ctx, "#edit-list"); !strings.HasPrefix(got, "No edits") {
		t.Errorf("the editor lists %q", got)
	}

	// The page's own inputs read numbers as the link does: a control, and
	// the editor's node box.
	setField(t, ctx, "lr", "0x1p-2")
	fieldSays(t, ctx, "lr", "0x1p-2")
	must(t, chromedp.Do(ctx, chromedp.Focus(chromedp.CSS("#graph-figure"))), "focus the graph")
	must(t, chromedp.Do(ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, 2, 2)), "move the pointer away")
	must(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowRight)), "→")
	waitFor(t, ctx, "node 0 selected", `document.querySelector("#edit-to") !== null`)
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const b = document.querySelector("#edit-to"); b.value = "0x10";
	  b.dispatchEvent(new Event("input", {bubbles: true})); document.querySelector("#edit-add").click(); return true; })()`))
	must(t, err, "type 0x10 as the node")
	waitFor(t, ctx, "the editor's refusal", `document.querySelector("#edit-to-error") !== null && document.querySelector("#edit-to-error").textContent.includes("Type a node number")`)
	if hashHas(t, ctx, "edits=a") {
		t.Error("an edge to node 0x10 was added")
	}

	for _, c := range []struct {
		id, hash string
		want     []string
	}{
		{"47", "#lab=sweep&scenario=9&reps=1000000&models=pdn,pdn", []string{"scenario: 9 is not allowed", "reps: 1000000 is not allowed", "models:"}},
		{"164", "#lab=graph&speed=-1", []string{"speed: -1 is not allowed", "[0, 100]"}},
		{"164", "#lab=graph&speed=NaN", []string{"speed:", "[0, 100]"}},
		{"164", "#lab=graph&speed=0x10", []string{`speed: "0x10" is not allowed`}},
		{"164", "#lab=graph&speed=1e9", []string{"speed:", "[0, 100]"}},
		{"166", "#lab=graph&hide=nosuch", []string{`hide: "nosuch" is not a row of the engine`}},
		{"166", "#lab=graph&hide=hide", []string{`hide: "hide" is not a row of the engine`}},
		{"166", "#lab=graph&hide=lab,lang", []string{`"lab" is not a row of the engine`}},
		{"167", "#lab=graph&hide=model&model=gcn", []string{"model: hidden by this link's hide row, so it keeps pdn"}},
		{"174", "#lab=graph&perturb=add-edges&perturb-rate=2", []string{"perturb-rate: 2 is not allowed", "[0, 1]"}},
		{"174", "#lab=graph&perturb=add-edges&perturb-rate=0x1p-1", []string{`perturb-rate: "0x1p-1" is not allowed`}},
		{"180", "#lab=graph&bins=99", []string{"bins: 99 is not allowed", "[0, 20]"}},
	} {
		clearNotices(t, ctx)
		goHash(t, ctx, c.hash+"&per-class=64")
		noticeSays(t, ctx, c.want...)
		t.Logf("case %s, %s: said", c.id, c.hash)
	}
	if !hashHas(t, ctx, "bins=0") {
		t.Error("the link keeps bins=99")
	}

	// 165: a speed the menu does not list, within the row's range, is
	// taken and offered; 168: a link that hides most rows still trains.
	open(t, ctx, srv, "#lab=graph&per-class=64&speed=3&epochs=1000")
	waitFor(t, ctx, "speed 3 offered", `document.querySelector('#speed option[value="3"]') !== null && document.querySelector("#speed").value === "3"`)
	open(t, ctx, srv, "#lab=graph&per-class=64&hide=model,lr,epochs,hidden,dropout,seed,p,q,classes,node-features,edge-features,sigma-f,sigma-d,edge-hidden,weight-decay,init-seed,edge-dropout")
	waitFor(t, ctx, "the graph", graphDrawn)
	key(t, ctx, " ")
	waitFor(t, ctx, "training with most rows hidden", `parseInt(document.querySelector("#epoch").textContent) >= 5`)
}

// A link's results enter every lab at one place: the labs that train runs
// to their end (the sweep and structure labs) mark them "from the link,
// not trained here" with Train them here; the others refuse them by name;
// results of another state are left out in the lab's own words.
func TestAudit52Results(t *testing.T) {
	srv := serve(t, distDir(t), "/")
	ctx := browser(t)
	rep := func(tok string, n int) string { return strings.TrimSuffix(strings.Repeat(tok+".", n), ".") }
	side := len(experiment.SideRuns(experiment.ForLab("structure")))

	// 48: fourteen results of a sweep of fourteen runs.
	open(t, ctx, srv, "#lab=sweep&scenario=4&models=pdn,gcn&reps=1&results="+rep("10000", 14))
	waitFor(t, ctx, "the link's results marked", `document.querySelector("#linked-count") !== null && document.querySelector("#linked-count").textContent.includes("14 from the link, not trained here") &&
	  document.querySelector("#from-link").textContent.includes("14 of these results came with the link") && document.querySelector("#train-here") !== null`)
	// 49: results that failed where they were trained.
	open(t, ctx, srv, "#lab=sweep&results=x.x.x")
	waitFor(t, ctx, "failed results marked", `document.querySelector("#linked-count").textContent.includes("3 from the link") &&
	  document.querySelector("#from-link").textContent.includes("3 of them have no result")`)

	// The structure lab marks them as the sweep lab does.
	open(t, ctx, srv, "#lab=structure&results=6100")
	waitFor(t, ctx, "the structure lab's results marked", `document.querySelector("#linked-count") !== null && document.querySelector("#linked-count").textContent.includes("from the link, not trained here") && document.querySelector("#train-here") !== null`)
	scrollTo(t, ctx, "#from-link")
	screenshot(t, ctx, "52-structure-results-from-link")

	// 170 and 171: results the structure lab cannot use, in its words.
	for _, c := range []struct{ results, want string }{
		{rep("10000", side+1), fmt.Sprintf("%d of them, but the structure lab trains %d runs to their end", side+1, side)},
		{rep("-5", side), `result 1 is "-5"`},
		{rep("20000", side), `result 1 is "20000"`},
		{"%zz.1e4.0x10", "results:"},
		{rep("1", 281), "281 results; no lab trains more than 280 runs to their end"},
	} {
		open(t, ctx, srv, "#lab=structure&results="+c.results)
		noticeSays(t, ctx, c.want)
		if txt := text(t, ctx, ".notices"); strings.Contains(txt, "sweep") {
			t.Errorf("the structure lab speaks of a sweep: %s", txt)
		}
		if hashHas(t, ctx, "results=1") || hashHas(t, ctx, "results=-") || hashHas(t, ctx, "results=2") {
			t.Errorf("the link keeps results the lab left out")
		}
	}

	// A lab that trains no runs to their end refuses a link's results, by
	// the rows' rule (experiment.Reader), as it refuses any row it does not
	// read.
	for _, l := range experiment.Labs {
		if l.Trains != nil {
			continue
		}
		open(t, ctx, srv, "#lab="+l.Name+"&per-class=64&results=5000")
		noticeSays(t, ctx, "results: the "+l.Name+" lab does not read it")
		if hashHas(t, ctx, "results=5000") {
			t.Errorf("the %s lab's link keeps results=5000", l.Name)
		}
	}
}

// twitchFiles are a MUSAE Twitch folder's three files, as the publisher
// names them: target.csv holds Twitch's own ids (id), the ids the edges
// and features use (new_id), and the class column mature of True/False.
func twitchFiles(n int) map[string][]byte {
	var target, edges, feats strings.Builder
	target.WriteString("id,days,mature,views,partner,new_id\n")
	edges.WriteString("from,to\n")
	feats.WriteString("{")
	for i := range n {
		fmt.Fprintf(&target, "%d,%d,%s,%d,False,%d\n", 90000+7*i, 100+i, []string{"True", "False"}[i%2], 1000*i+17, i)
		fmt.Fprintf(&edges, "%d,%d\n%d,%d\n", i, (i+1)%n, i, (i+7)%n)
		if i > 0 {
			feats.WriteString(",")
		}
		fmt.Fprintf(&feats, `"%d":[%d,%d]`, i, i%5, 5+i%3)
	}
	feats.WriteString("}")
	return map[string][]byte{"musae_ENGB_target.csv": []byte(target.String()), "musae_ENGB_edges.csv": []byte(edges.String()), "musae_ENGB_features.json": []byte(feats.String())}
}

// chameleonFiles are a MUSAE Wikipedia folder: its target is the monthly
// traffic, a measurement that bins cuts into classes.
func chameleonFiles(n int) map[string][]byte {
	var target, edges, feats strings.Builder
	target.WriteString("id,target\n")
	edges.WriteString("id1,id2\n")
	feats.WriteString("{")
	for i := range n {
		fmt.Fprintf(&target, "%d,%d\n", i, 100+(i*7919)%5000)
		fmt.Fprintf(&edges, "%d,%d\n%d,%d\n", i, (i+1)%n, i, (i+11)%n)
		if i > 0 {
			feats.WriteString(",")
		}
		fmt.Fprintf(&feats, `"%d":[%d,%d]`, i, i%4, 4+i%5)
	}
	feats.WriteString("}")
	return map[string][]byte{"musae_chameleon_target.csv": []byte(target.String()), "musae_chameleon_edges.csv": []byte(edges.String()), "musae_chameleon_features.json": []byte(feats.String())}
}

// A link's columns on one's own files: target, id-column and bins that do
// not fit are said and dropped and the files open with the columns the
// reader finds; bins that fit cut a measurement; the card names the
// columns the files will be read with and clears them; numbers in files
// go through the one parser; nodes without a class are counted.
func TestAudit52Columns(t *testing.T) {
	srv := serve(t, distDir(t), "/")
	ctx := browser(t)
	for _, c := range []struct{ id, row, want string }{
		{"9", "target=nosuch", "the link's columns (target=nosuch) did not fit these files"},
		{"90", "id-column=id", "the link's columns (id-column=id) did not fit these files"},
		{"181", "bins=5", "the link's columns (bins=5) did not fit these files (musae_ENGB_target.csv:2: column mature: holds"},
	} {
		open(t, ctx, srv, "#lab=graph&per-class=64&"+c.row)
		waitFor(t, ctx, "the graph", graphDrawn)
		if c.id == "181" {
			// The card names the link's bins before any file is opened.
			waitFor(t, ctx, "the link's columns named", `document.querySelector("#open-columns") !== null && document.querySelector("#open-columns").textContent.includes("bins=5")`)
			scrollTo(t, ctx, "#open-columns")
			screenshot(t, ctx, "53-link-columns-named")
		}
		giveFiles(t, ctx, twitchFiles(120), false)
		noticeSays(t, ctx, c.want, "120 nodes", "2 classes (False, True) from the column mature")
		row, _, _ := strings.Cut(c.row, "=")
		if hashHas(t, ctx, c.row) || !hashHas(t, ctx, "data=local") {
			t.Errorf("case %s: the link keeps %s after the files opened without it", c.id, c.row)
		}
		if row == "bins" && !hashHas(t, ctx, "bins=0") {
			t.Error("the link's bins was not cleared")
		}
		t.Logf("case %s: %s said and dropped", c.id, c.row)
	}

	// The card's Let the reader choose clears a link's columns.
	open(t, ctx, srv, "#lab=graph&per-class=64&bins=5&target=views")
	waitFor(t, ctx, "the link's columns named", `document.querySelector("#forget-columns") !== null`)
	click(t, ctx, "#forget-columns", "let the reader choose")
	waitFor(t, ctx, "the columns cleared", `document.querySelector("#open-columns") === null && location.hash.includes("bins=0") && location.hash.includes("target=&")`)

	// 182: bins on a measurement cuts it into classes, and the graph trains.
	open(t, ctx, srv, "#lab=graph&per-class=64&bins=5")
	waitFor(t, ctx, "the graph", graphDrawn)
	giveFiles(t, ctx, chameleonFiles(200), false)
	noticeSays(t, ctx, "200 nodes", "5 classes")
	waitFor(t, ctx, "the binned graph", `location.hash.includes("data=local") && location.hash.includes("bins=5")`)
	key(t, ctx, " ")
	waitFor(t, ctx, "training the binned graph", `parseInt(document.querySelector("#epoch").textContent) >= 5`)

	// A number in one's own files goes through the one parser.
	giveFiles(t, ctx, map[string][]byte{"nodes.csv": []byte("id,label,split,x0\n0,0,train,0x1p-2\n1,1,test,1\n"), "edges.csv": []byte("source,target,e0\n0,1,1\n"),
		"meta.json": []byte(`{"name": "hex"}`)}, false)
	noticeSays(t, ctx, "Your graph was not opened", "nodes.csv:2", `"0x1p-2" is not a decimal number`)

	// 190: a labels file whose every 10th label is empty: those nodes have
	// no class, counted, and no class is named ''.
	var labels, edges strings.Builder
	labels.WriteString("id,label\n")
	edges.WriteString("source,target\n")
	for i := range 300 {
		label := fmt.Sprint(i % 3)
		if i%10 == 9 {
			label = ""
		}
		fmt.Fprintf(&labels, "%d,%s\n", i, label)
		for _, d := range []int{1, 2, 5, 13} {
			fmt.Fprintf(&edges, "%d,%d\n", i, (i+d)%300)
		}
	}
	giveFiles(t, ctx, map[string][]byte{"labels.csv": []byte(labels.String()), "edges.csv": []byte(edges.String())}, false)
	noticeSays(t, ctx, "300 nodes", "3 classes from the column label (30 nodes have no class")
	if txt, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector(".notices").textContent`)); strings.Contains(txt, "4 classes") || strings.Contains(txt, "(, 0") {
		t.Errorf("an empty label is a class: %s", txt)
	}
}

// 77: an edit made on the synthetic graph while it trains does not go on
// to the graph opened next: the notice says it went, the link and the
// editor hold no edit, and the editor says nothing of the graph before's
// predictions. 183: the graph read in the graph lab trains in the compare
// lab's four workers.
func TestAudit52GraphArrival(t *testing.T) {
	srv := serve(t, distDir(t), "/")
	ctx := browser(t)
	open(t, ctx, srv, "#lab=graph&epochs=100000&per-class=64")
	waitFor(t, ctx, "the graph", graphDrawn)
	key(t, ctx, " ")
	waitFor(t, ctx, "training", `parseInt(document.querySelector("#epoch").textContent) >= 3`)
	must(t, chromedp.Do(ctx, chromedp.Focus(chromedp.CSS("#graph-figure"))), "focus the graph")
	must(t, chromedp.Do(ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, 2, 2)), "move the pointer away")
	must(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowRight)), "→")
	waitFor(t, ctx, "node 0 selected", `document.querySelector("#edit-to") !== null`)
	must(t, chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS("#edit-to"), "150"+kb.Enter)), "add edge 0–150")
	waitFor(t, ctx, "the edit", `location.hash.includes("edits=a0-150") && document.querySelector('[data-metric="edit-changed-predictions"]') !== null`)

	giveFiles(t, ctx, twitchFiles(160), false)
	noticeSays(t, ctx, "160 nodes", "The edit of the graph was for the graph before; this one starts unedited.")
	waitFor(t, ctx, "the files' graph", `location.hash.includes("data=local") && `+nodesDrawn+` === 160`)
	if hashHas(t, ctx, "edits=a0-150") {
		t.Error("the link carries the synthetic graph's edit onto the files' graph")
	}
	if got := text(t, ctx, "#edit-list"); !strings.HasPrefix(got, "No edits") {
		t.Errorf("the editor lists %q on the files' graph", got)
	}
	if has, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector("#edit-changed") !== null`)); has {
		t.Errorf("the editor still speaks of the last edit: %s", text(t, ctx, "#edit-changed"))
	}
	scrollTo(t, ctx, "#edit")
	screenshot(t, ctx, "54-edit-gone-with-its-graph")

	goHash(t, ctx, "#lab=compare&data=local&epochs=20&models=pdn,gcn,gat,mlp")
	waitFor(t, ctx, "every run", runsShown(4))
	key(t, ctx, " ")
	waitFor(t, ctx, "every run trained", allDone(4, 20))
	if txt := text(t, ctx, ".notices"); strings.Contains(txt, "came damaged") || strings.Contains(txt, "open them again") || strings.Contains(txt, "engine stopped") {
		t.Errorf("a worker did not take the graph read: %s", txt)
	}
}

// What this audit's fixes put on the screen, as a phone in Arabic and a
// projector show it: the structure lab's results from the link with Train
// them here, the sweep lab's, and the card that names a link's columns.
// Neither screen is made wider than itself.
func TestAudit52OnAPhoneAndAProjector(t *testing.T) {
	srv := serve(t, distDir(t), "/")
	ctx := browser(t)
	for _, screen := range []struct {
		name, extra string
		w, h        int64
		mobile      bool
	}{{"phone-ar", "&lang=ar", 390, 844, true}, {"projector", "&present=1", 1280, 720, false}} {
		opts := []chromedp.EmulateViewportOption{}
		if screen.mobile {
			opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateTouch)
		}
		must(t, chromedp.Do(ctx, chromedp.EmulateViewport(screen.w, screen.h, opts...)), "the screen")
		for _, v := range []struct{ hash, show, shot string }{
			{"#lab=structure&results=6100", "#from-link", "55-structure-from-link-"},
			{"#lab=sweep&scenario=4&models=pdn,gcn&reps=1&results=9100.x", "#from-link", "56-sweep-from-link-"},
			{"#lab=graph&per-class=64&bins=5", "#open-columns", "57-link-columns-"},
		} {
			open(t, ctx, srv, v.hash+screen.extra)
			waitFor(t, ctx, v.show, fmt.Sprintf(`document.querySelector(%q) !== null`, v.show))
			if screen.mobile && v.show == "#open-columns" {
				click(t, ctx, "#controls-toggle", "unfold the controls")
				waitFor(t, ctx, "the controls unfolded", `document.querySelector("#open-columns").getBoundingClientRect().height > 0`)
			}
			scrollTo(t, ctx, v.show)
			atRest(t, ctx)
			screenshot(t, ctx, v.shot+screen.name)
			if w, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth`)); err != nil || int64(w) > screen.w {
				t.Errorf("%s on the %s: %d px wide (%v)", v.hash, screen.name, w, err)
			}
		}
	}
}
