package e2e

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// giveFiles hands files to the graph lab as a user does: picked in the
// file input, or dragged over the lab and dropped.
func giveFiles(t testing.TB, ctx context.Context, files map[string][]byte, drop bool) {
	t.Helper()
	stageFiles(t, ctx, files)
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](giveStaged(drop)+"; true"))
	must(t, err, "open the files")
}

// stageFiles makes files into the page's window.staged, a DataTransfer
// that giveStaged hands on: staging apart from giving lets a benchmark
// time the opening alone.
func stageFiles(t testing.TB, ctx context.Context, files map[string][]byte) {
	t.Helper()
	js := "(() => { const dt = new DataTransfer();\n"
	for name, b := range files {
		js += "dt.items.add(new File([Uint8Array.from(atob(\"" + base64.StdEncoding.EncodeToString(b) + "\"), (c) => c.charCodeAt(0))], \"" + name + "\"));\n"
	}
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js+"window.staged = dt; return true; })()"))
	must(t, err, "stage the files")
}

// giveStaged is the script that drops the staged files on the graph lab,
// or picks them in its file input.
func giveStaged(drop bool) string {
	if drop {
		return `(() => { const dt = window.staged, lab = document.querySelector(".graph-lab");
lab.dispatchEvent(new DragEvent("dragover", {dataTransfer: dt, bubbles: true, cancelable: true}));
lab.dispatchEvent(new DragEvent("drop", {dataTransfer: dt, bubbles: true, cancelable: true})); })()`
	}
	return `(() => { const i = document.querySelector("#open-files"); i.files = window.staged.files; i.dispatchEvent(new Event("change", {bubbles: true})); })()`
}

// musaeZip is a MUSAE folder of n nodes zipped as macOS Finder zips it: a
// top folder, and __MACOSX/ beside it. classes is the target.csv header's
// tail and class(i) a node's values there.
func musaeZip(t *testing.T, n int, header string, class func(i int) string) []byte {
	var target, edges, features strings.Builder
	target.WriteString("id," + header + "\n")
	edges.WriteString("id_1,id_2\n")
	features.WriteString("{")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&target, "%d,%s\n", i, class(i))
		fmt.Fprintf(&edges, "%d,%d\n%d,%d\n", i, (i+1)%n, i, (i+3)%n)
		if i > 0 {
			features.WriteString(",")
		}
		fmt.Fprintf(&features, "\"%d\": [%d, %d]", i, i%4, 4+i%3)
	}
	features.WriteString("}")
	return zipFiles(t, map[string][]byte{"pages/target.csv": []byte(target.String()), "pages/edges.csv": []byte(edges.String()),
		"pages/features.json": []byte(features.String()), "__MACOSX/pages/._edges.csv": []byte("\x00\x05\x16\x07")})
}

// zipFiles is a zip archive of files, by name.
func zipFiles(t *testing.T, files map[string][]byte) []byte {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for name, body := range files {
		w, err := zw.Create(name)
		must(t, err, "zip")
		w.Write(body)
	}
	must(t, zw.Close(), "zip")
	return b.Bytes()
}

// Files opened while a run trains, or is paused, open every time (or are
// refused with the reader's message); a Finder zip opens, its classes by
// their names in the legend; a target.csv that does not say which column
// is the class brings up the column chooser, whose answer the link keeps.
func TestOpenWhileTraining(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	open(t, ctx, srv, "#per-class=64")
	waitFor(t, ctx, "the layout", graphDrawn)
	pages := []string{"politician", "company", "government", "tvshow"}
	named := musaeZip(t, 80, "facebook_id,page_name,page_type", func(i int) string { return fmt.Sprintf("%d,page %d,%s", 1000+i, i, pages[i%4]) })
	for try := 0; try < 6; try++ {
		playing := try%2 == 0
		must(t, chromedp.Do(ctx, chromedp.KeyEvent(" ")), "Space")
		if !playing {
			must(t, chromedp.Do(ctx, chromedp.KeyEvent(" ")), "Space again")
		}
		time.Sleep(700 * time.Millisecond)
		name := fmt.Sprintf("pages-%d.zip", try)
		giveFiles(t, ctx, map[string][]byte{name: named}, try%3 == 1)
		waitFor(t, ctx, fmt.Sprintf("try %d (playing %v) answered", try, playing),
			`document.querySelector(".notices").textContent.includes("Opened `+name+`")`)
		waitFor(t, ctx, "data=local", `location.hash.includes("data=local")`)
	}
	// Its features decide its defaults, not where it came from: seven
	// features, two a node, are no bag of words, so the paper's settings
	// stay, and a notice says so (a bag-of-words graph, as Cora, gets
	// weight decay 0.005 and dropout 0.9: datasets.Graph.Recipe).
	waitFor(t, ctx, "the recipe", `location.hash.includes("weight-decay=0&") && location.hash.includes("dropout=0.5") &&
  document.querySelector(".notices").textContent.includes("not bag-of-words")`)
	waitFor(t, ctx, "the legend names the classes", `document.querySelector(".legend").textContent.includes("politician") && document.querySelector(".legend").textContent.includes("tvshow")`)
	scrollTo(t, ctx, ".legend")
	screenshot(t, ctx, "70-open-named-classes")

	shapes := []string{"round,red", "square,red", "round,blue", "square,blue"}
	ambiguous := musaeZip(t, 40, "shape,colour", func(i int) string { return shapes[i%4] })
	giveFiles(t, ctx, map[string][]byte{"shapes.zip": ambiguous}, true)
	waitFor(t, ctx, "the column chooser", `document.querySelector("#column-chooser") !== null`)
	if h := text(t, ctx, "#column-chooser"); !strings.Contains(h, "shape: 2 classes (round 20, square 20)") || !strings.Contains(h, "colour") {
		t.Errorf("the chooser: %q", h)
	}
	scrollTo(t, ctx, "#column-chooser")
	screenshot(t, ctx, "71-column-chooser")
	click(t, ctx, "#choose-column-1", "choose colour")
	waitFor(t, ctx, "the chosen column", `location.hash.includes("target=colour") && document.querySelector(".legend").textContent.includes("blue") && document.querySelector("#column-chooser") === null`)

	// On a phone the chooser fits the screen's width.
	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile)), "phone size")
	other := musaeZip(t, 40, "form,hue", func(i int) string { return shapes[i%4] })
	giveFiles(t, ctx, map[string][]byte{"forms.zip": other}, false)
	waitFor(t, ctx, "the column chooser on a phone", `document.querySelector("#column-chooser") !== null`)
	scrollTo(t, ctx, "#column-chooser")
	screenshot(t, ctx, "72-column-chooser-phone")
	if w, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth`)); err != nil || w > 390 {
		t.Errorf("with the chooser open the phone's page is %d px wide (%v), more than its 390", w, err)
	}
}

// scrollTo brings the element sel names into view, for a screenshot.
func scrollTo(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const e = document.querySelector(`+"`"+sel+"`"+`); if (e) e.scrollIntoView({block: "center"}); return !!e; })()`))
	must(t, err, "scroll to "+sel)
}

// Zips as people make them, dropped on the page: a folder in a folder
// beside a README and a zip inside a zip open; two graphs, an empty zip
// and a name that leaves its folder are refused with the reader's message,
// and the lab goes on working.
func TestZipLayoutsInThePage(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	open(t, ctx, srv, "#per-class=64")
	waitFor(t, ctx, "the layout", graphDrawn)
	pages := []string{"politician", "company"}
	finder := musaeZip(t, 30, "page_type", func(i int) string { return pages[i%2] })
	graph := map[string][]byte{} // the MUSAE folder's three files
	zr, err := zip.NewReader(bytes.NewReader(finder), int64(len(finder)))
	must(t, err, "read the Finder zip")
	for _, f := range zr.File {
		if name, ok := strings.CutPrefix(f.Name, "pages/"); ok {
			rc, err := f.Open()
			must(t, err, "open "+f.Name)
			var b bytes.Buffer
			b.ReadFrom(rc)
			rc.Close()
			graph[name] = b.Bytes()
		}
	}
	under := func(prefixes ...string) map[string][]byte {
		out := map[string][]byte{}
		for _, p := range prefixes {
			for name, body := range graph {
				out[p+name] = body
			}
		}
		return out
	}
	readme := under("data/pages/")
	readme["data/README.txt"] = []byte("Facebook pages")
	evil := under("")
	evil["../../edges.csv"] = []byte("x")
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"readme.zip", zipFiles(t, readme), "Opened readme.zip"},
		{"outer.zip", zipFiles(t, map[string][]byte{"inner.zip": finder}), "Opened outer.zip"},
		{"two.zip", zipFiles(t, under("a/", "b/")), "holds 2 graphs (a/, b/): open one graph at a time"},
		{"empty.zip", zipFiles(t, nil), "empty.zip: is empty"},
		{"evil.zip", zipFiles(t, evil), `the name "../../edges.csv" leaves its folder`},
	} {
		giveFiles(t, ctx, map[string][]byte{c.name: c.data}, true)
		waitFor(t, ctx, c.name+" answered", `document.querySelector(".notices").textContent.includes(`+"`"+c.want+"`"+`)`)
	}
	alive(t, ctx)
}
