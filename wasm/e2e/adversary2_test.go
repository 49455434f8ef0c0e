package e2e

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"unicode/utf16"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// The page's faults of the second adversarial round, in the browser: what
// a control shows after a refused change, every note of a graph opened,
// what a change drops or resets, a malformed %-escape in the address, the
// notices after a change of language. Each ends with a look on a phone,
// in Arabic.

// onAPhoneInArabic makes the screen a phone's and the page's language
// Arabic, keeping the state, and takes a screenshot called name.
func onAPhoneInArabic(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile)), "a phone's screen")
	selectLanguage(t, ctx, "ar")
	waitFor(t, ctx, "the page in Arabic", `document.documentElement.dir === "rtl"`)
	screenshot(t, ctx, name)
	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(1400, 1100)), "a wide screen")
}

// selectLanguage picks code in the language menu, as a user does.
func selectLanguage(t *testing.T, ctx context.Context, code string) {
	t.Helper()
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(() => { const m = document.querySelector("#lang"); m.value = %q;
  m.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`, code)))
	must(t, err, "choose the language "+code)
}

// boxes are the models row's checkboxes, ticked or not, and the models the
// link holds, as the page shows them now.
const boxes = `(() => {
  const ticked = [...document.querySelectorAll("#models input[type=checkbox]")].filter((b) => b.checked).map((b) => b.value).sort().join(",");
  const m = /[#&]models=([^&]*)/.exec(location.hash);
  return {ticked, models: m ? decodeURIComponent(m[1]).split(",").sort().join(",") : ""};
})()`

// Item 2: every click on a model's box leaves the boxes showing the
// models the link holds and the lab trains; a refused one puts its box
// back, and the message beside the boxes names the rule.
func TestAdversary2ModelBoxesShowTheModels(t *testing.T) {
	srv := serve(t, distDir(t), "/")
	ctx := browser(t)
	open(t, ctx, srv, "#lab=compare&per-class=16&models=pdn,gcn")
	for _, step := range []struct {
		model   string
		refused bool
	}{{"gcn", true}, {"pdn", true}, {"gat", false}, {"mlp", false}, {"sage", true}, {"cheb", true}, {"gat", false}, {"sage", false}} {
		_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(() => { document.querySelector("#model-%s").click(); return true; })()`, step.model)))
		must(t, err, "click "+step.model)
		// The click lands, is refused or taken, and the boxes agree with the link.
		waitFor(t, ctx, "the boxes after a click on "+step.model, fmt.Sprintf(`(() => { const b = %s;
  const err = document.querySelector("#models .field-error");
  return b.ticked === b.models && (err !== null) === %v && (err === null || err.textContent.includes("2 to 4")); })()`, boxes, step.refused))
		state, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]string](boxes))
		must(t, err, "read the boxes")
		runs, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll(".compare-lab [data-metric=test-accuracy][data-run]").length`))
		must(t, err, "count the runs")
		if n := len(strings.Split(state["models"], ",")); runs != 0 && runs != n {
			t.Errorf("after %s: %d runs on screen, %d models in the link", step.model, runs, n)
		}
	}
	open(t, ctx, srv, "#lab=compare&per-class=16&models=pdn,gcn")
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { document.querySelector("#model-gcn").click(); return true; })()`))
	must(t, err, "untick gcn")
	waitFor(t, ctx, "the refusal", `document.querySelector("#models .field-error") !== null`)
	onAPhoneInArabic(t, ctx, "adversary2-models-refused")
}

// utf16File is text in UTF-16 with its byte-order mark.
func utf16File(s string) []byte {
	out := []byte{0xFF, 0xFE}
	for _, u := range utf16.Encode([]rune(s)) {
		out = append(out, byte(u), byte(u>>8))
	}
	return out
}

// noteFiles are an edge list and its labels, both in UTF-16 with CR-only
// line ends, with 15 NA labels, two self-loops and a pair listed twice.
func noteFiles() map[string][]byte {
	var edges, labels strings.Builder
	edges.WriteString("source,target\r")
	labels.WriteString("id,label\r")
	const n = 60
	for i := range n {
		fmt.Fprintf(&edges, "%d,%d\r%d,%d\r", i, (i+1)%n, i, (i+7)%n)
		label := []string{"a", "b", "c"}[i%3]
		if i%4 == 1 {
			label = "NA"
		}
		fmt.Fprintf(&labels, "%d,%s\r", i, label)
	}
	edges.WriteString("3,3\r4,4\r0,1\r")
	return map[string][]byte{"edges.csv": utf16File(edges.String()), "labels.csv": utf16File(labels.String())}
}

// Items 3 and 17: every note the reader made of the files is readable on
// the page, both files' encodings among them; the rows the files do not
// read are said, once, with the values they had.
func TestAdversary2EveryNoteOfTheFilesIsSaid(t *testing.T) {
	srv := serve(t, distDir(t), "/")
	ctx := browser(t)
	open(t, ctx, srv, "#lab=graph&per-class=16&q=0.01&sigma-d=1")
	giveFiles(t, ctx, noteFiles(), false)
	noticeSays(t, ctx, "Opened ")
	// A list longer than it shows opens with its button.
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { document.querySelectorAll(".notices .notice-more").forEach((b) => b.click()); return true; })()`))
	must(t, err, "open the notes")
	noticeSays(t, ctx,
		"labels.csv: read as UTF-16 text", "edges.csv: read as UTF-16 text",
		"edges.csv: dropped 2 self-loops", "15 nodes have no class",
		"of its lines end in CR alone",
		"per-class was 16, now 500", "q was 0.01, now", "sigma-d was 1, now")
	txt := text(t, ctx, ".notices")
	if n := strings.Count(txt, "went back to their start"); n != 1 {
		t.Errorf("the rows reset are said %d times: %q", n, txt)
	}
	onAPhoneInArabic(t, ctx, "adversary2-notes")
}

// Item 3: however many notices come, none is dropped: the newest show,
// and a button opens the earlier ones.
func TestAdversary2EarlierNoticesOpen(t *testing.T) {
	srv := serve(t, distDir(t), "/")
	ctx := browser(t)
	open(t, ctx, srv, "#lab=graph&per-class=16")
	for i := range 6 {
		goHash(t, ctx, fmt.Sprintf("#lab=graph&per-class=16&classes=%d", 10+i))
		noticeSays(t, ctx, fmt.Sprintf("classes: %d is not allowed", 10+i))
	}
	waitFor(t, ctx, "the button for the earlier notices", `document.querySelector("#notices-earlier") !== null && !document.querySelector(".notices").textContent.includes("classes: 10 is not")`)
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { document.querySelector("#notices-earlier").click(); return true; })()`))
	must(t, err, "open the earlier notices")
	noticeSays(t, ctx, "classes: 10 is not allowed", "classes: 11 is not allowed")
	onAPhoneInArabic(t, ctx, "adversary2-earlier-notices")
}

// Item 11: a change of a row that drops a sweep's results says how many,
// and what they were for.
func TestAdversary2DroppedResultsAreSaid(t *testing.T) {
	srv := serve(t, distDir(t), "/")
	ctx := browser(t)
	open(t, ctx, srv, "#lab=sweep&scenario=1&reps=1&models=gcn,mlp&epochs=20&results=5000.6000.7000.8000")
	setField(t, ctx, "epochs", "21")
	noticeSays(t, ctx, "The 4 results were for epochs=20; with epochs=21")
	if hashHas(t, ctx, "results=5000") {
		h, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.hash`))
		t.Errorf("the link keeps the results of epochs=20: %s", h)
	}
	onAPhoneInArabic(t, ctx, "adversary2-results-dropped")
}

// Item 19: a malformed %-escape in the address throws nowhere: the page
// starts, and says what it could not use.
func TestAdversary2MalformedEscapeThrowsNowhere(t *testing.T) {
	srv := serve(t, distDir(t), "/")
	ctx := browser(t)
	var mu sync.Mutex
	var thrown []string
	err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*runtime.EventExceptionThrown); ok {
			text := e.ExceptionDetails.Text
			if e.ExceptionDetails.Exception != nil {
				text += " " + e.ExceptionDetails.Exception.Description
			}
			mu.Lock()
			thrown = append(thrown, text)
			mu.Unlock()
		}
	})
	must(t, err, "listen to the page")
	for _, tc := range []struct{ hash, want string }{
		{"#lab=%E9", "lab: "}, {"#lab=%", `lab: "%"`}, {"#lab=graph&present=%ZZ", `present: "%ZZ"`},
	} {
		open(t, ctx, srv, tc.hash)
		noticeSays(t, ctx, tc.want)
		alive(t, ctx)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, s := range thrown {
		t.Errorf("a script threw: %.300s", s)
	}
}

// Item 20: a link's notice is in the page's language, and follows a change
// of it.
func TestAdversary2NoticesFollowTheLanguage(t *testing.T) {
	srv := serve(t, distDir(t), "/")
	ctx := browser(t)
	open(t, ctx, srv, "#lab=graph&classes=9")
	noticeSays(t, ctx, "This link has values the explorer cannot use", "classes: 9 is not allowed")
	selectLanguage(t, ctx, "es")
	noticeSays(t, ctx, "Este enlace tiene valores que el explorador no puede usar", "classes: 9 no está permitido")
	if txt := text(t, ctx, ".notices"); strings.Contains(txt, "This link has values") {
		t.Errorf("the notice stays in English: %q", txt)
	}
	onAPhoneInArabic(t, ctx, "adversary2-notice-language")
	noticeSays(t, ctx, "في هذا الرابط قيم لا يستطيع المستكشف استعمالها")
}
