package app

import (
	"fmt"
	"math"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"pdnexplorer/experiment"
	"pdnexplorer/i18n"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/pdn"
	"pdnexplorer/wasm/protocol"
)

// badLinks is the link part of the catalogue of bad inputs: each fragment
// must parse (after RepairURL, as the page does before go-app sees it),
// give a usable state, and report what it could not use by name.
var badLinks = []struct {
	hash string
	want []string
}{
	// Invalid escapes once ended the page's Go program inside go-app.
	{"#%", []string{`"%": unknown parameter`}},
	{"#a=%", []string{`"a": unknown parameter`}},
	{"#model=%", []string{`model: "%" is not allowed; want one of pdn`}},
	{"#%ZZ=1", []string{`"%ZZ": unknown parameter`}},
	{"#lr=%E0%A4%A", []string{`lr: "\xe0\xa4%A" is not UTF-8 text`}},
	{"#classes=%2", []string{`classes: "%2" is not allowed; want a whole number in [2, 6]`}},
	{"#%%%", []string{`"%%%": unknown parameter`}},
	// Values out of range, malformed or of the wrong kind.
	{"#classes=99", []string{"classes: 99 is not allowed; want [2, 6]"}},
	{"#classes=3.5", []string{`classes: "3.5" is not allowed`}},
	{"#per-class=1e3", []string{`per-class: "1e3" is not allowed`}},
	{"#p=abc", []string{`p: "abc" is not allowed; want [0.0009765625, 0.0625]`}},
	{"#p=0x1p-7", []string{`p: "0x1p-7" is not allowed`}},
	{"#q=NaN", []string{`q: "NaN" is not allowed`}},
	{"#sigma-d=Infinity", []string{`sigma-d: "Infinity" is not allowed`}},
	{"#lr=1e400", []string{`lr: "1e400" is not allowed; want [1e-06, 10]`}},
	{"#lr=1e9", []string{"lr: 1000000000 is not allowed; want [1e-06, 10]"}},
	{"#lr=", []string{`lr: "" is not allowed`}},
	{"#edge-hidden=0", []string{"edge-hidden: 0 is not allowed; want none, or up to 3 sizes in [1, 256]"}},
	{"#edge-hidden=", []string{`edge-hidden: "" is not allowed`}},
	{"#edge-hidden=8,8,8,8", []string{"edge-hidden: 8,8,8,8 is not allowed"}},
	{"#edge-hidden=16,-1", []string{"edge-hidden: 16,-1 is not allowed"}},
	{"#model=gat9", []string{`model: "gat9" is not allowed; want one of pdn`}},
	{"#model=" + strings.Repeat("m", 5000), []string{`model: "mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm"… (5000 characters) is not allowed`}},
	{"#seed=-1", []string{`seed: "-1" is not allowed; want a whole number in [0, 9007199254740991]`}},
	{"#seed=9007199254740992", []string{"seed: 9007199254740992 is not allowed"}},
	{"#epochs=0", []string{"epochs: 0 is not allowed; want [1, 100000]"}},
	{"#dropout=1", []string{"dropout: 1 is not allowed; want [0, 0.95]"}},
	{"#threshold=7", []string{"threshold: 7 is not allowed; want [0, 1]"}},
	{"#threshold=-0.1", []string{"threshold: -0.1 is not allowed"}},
	{"#threshold=NaN", []string{"threshold: \"NaN\" is not allowed"}},
	{"#lab=nowhere", []string{`lab: "nowhere" is not allowed; want one of graph, xor, `, "; it keeps graph"}},
	{"#layout=spiral", []string{`layout: "spiral" is not allowed; want one of classes, input, learned; it keeps classes`}},
	{"#layout=", []string{`layout: "" is not allowed`}},
	{"#lab=compare&models=pdn,pdn,pdn,pdn", []string{`models: "pdn,pdn,pdn,pdn" is not allowed; want 2 to 4 of`, "each once; it keeps pdn,gcn"}},
	{"#tour=graph&step=6", []string{"step: 6 is beyond the graph tour's 4 steps; using its last, 4"}},
	// Keys: unknown, repeated, empty.
	{"#bogus=1", []string{`"bogus": unknown parameter, not used by this version`}},
	{"#classes=4&classes=5", []string{"classes: given more than once; using the first, 4"}},
	{"#=5", []string{`"": unknown parameter`}},
	{"#classes", []string{`classes: "" is not allowed`}},
	// The audit of November 2026's link cases (cmd/pdn's auditElsewhere).
	{"#lab=graph&edits=garbage", []string{`edits: edit 1 ("garbage"): an edit starts with a (add)`}},                    // 87
	{"#lab=graph&edits=" + strings.TrimSuffix(strings.Repeat("a0-700_", 101), "_"), []string{"101 edits; at most 100"}}, // 87
	{"#lab=graph&edits=" + strings.Repeat("a0-1_", 40) + "x", []string{`edit 41 ("x"): an edit starts with a`}},         // 87
	{"#lab=graph&edits=a0-1&edits=r0-2", []string{"edits: given more than once; using the first, a0-1"}},                // 89
	{"#lab=sweep&scenario=0", []string{"scenario: 0 is not allowed; want [1, 8]"}},                                      // 103
	{"#lab=sweep&scenario=4.5", []string{"scenario:"}},                                                                  // 103
	{"#lab=sweep&reps=0", []string{"reps: 0 is not allowed"}},                                                           // 103
	{"#lab=sweep&models=foo", []string{"models:"}},                                                                      // 103
	{"#lab=sweep&results=garbage", []string{`results: result 1 is "garbage"`}},                                          // 104
	{"#lab=graph&embed=2", []string{"embed: 2 is not allowed; want [0, 1]"}},                                            // 141
	{"#lab=graph&lang=EN", []string{`lang: "EN" is not allowed; want one of auto, en, es, zh, ar`}},                     // 145
	{"#lab=graph&target=" + strings.Repeat("t", 106), []string{"target: 106 characters: at most 100"}},                  // 196
	// Rows the lab, its model or its graph does not read (audit of
	// 2026-11-28: 139, 143, 134, 175; experiment.Reader).
	{"#lab=graph&perturb=none&perturb-rate=0.5", []string{"perturb-rate: read only when perturb names a perturbation; perturb is none; it keeps 0"}},
	{"#lab=graph&perturb=drop-edges", []string{"perturb: read only when perturb-rate is above 0"}},
	{"#lab=graph&model=cheb&hops=5", []string{"hops: model cheb does not read it (its K is fixed at 3; only pdn-multiscale reads it); it keeps 2"}},
	{"#lab=graph&model=gat&graph-from=pdn", []string{"graph-from: model gat does not read it (only gcn, appnp, sgc read it)"}},
	{"#lab=compare&model=gcn", []string{"model: the compare lab sets it itself"}},
	{"#lab=xor&layout=learned", []string{"layout: the xor lab does not read it (the graph lab reads it)"}},
	{"#tour=paper&step=99", []string{"step: 99 is beyond the paper tour's 6 steps; using its last, 6"}}, // 172
	// The audit of 28 November 2026's link cases.
	{"#lab=graph&edits=s0-2f0~0x1p-2", []string{`edits:`, `"0x1p-2"`}},                                                  // 2
	{"#lab=structure&results=" + strings.Repeat("1.", 280) + "1", []string{"281 results; no lab trains more than 280"}}, // 171
	{"#lab=graph&speed=0x10", []string{`speed: "0x10" is not allowed`}},                                                 // 164
	{"#lab=graph&perturb-rate=0x1p-1", []string{`perturb-rate: "0x1p-1" is not allowed`}},                               // 174
}

func TestCatalogueLinks(t *testing.T) {
	for _, tc := range badLinks {
		t.Run(tc.hash, func(t *testing.T) {
			href, _ := RepairURL("http://127.0.0.1:8080/pdn/" + tc.hash)
			u, err := url.Parse(href)
			if err != nil {
				t.Fatalf("RepairURL left %q unparseable: %v", href, err)
			}
			st, err := experiment.Decode(u.EscapedFragment())
			if err == nil {
				t.Fatal("no problem reported")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%q lacks %q", err, w)
				}
			}
			if verr := st.Validate(); verr != nil || !(st.View.Threshold >= 0 && st.View.Threshold <= 1) {
				t.Errorf("the state is not usable: %v", verr)
			}
		})
	}
}

func TestRepairURL(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"http://h/pdn/#classes=4", "http://h/pdn/#classes=4"},
		{"http://h/pdn/#%", "http://h/pdn/#%25"},
		{"http://h/pdn/#a=%&b=%2C", "http://h/pdn/#a=%25&b=%2C"},
		{"http://h/pdn/#%ZZ=1", "http://h/pdn/#%25ZZ=1"},
		{"http://h/pdn/#lr=%E0%A4%A", "http://h/pdn/#lr=%E0%A4%25A"},
		{"http://h/%zz/#x", "http://h/%25zz/#x"},
		{"http://h/pdn/#%4", "http://h/pdn/#%254"},
	} {
		got, changed := RepairURL(tc.in)
		if got != tc.want || changed != (tc.in != tc.want) {
			t.Errorf("RepairURL(%q) = %q, %v; want %q", tc.in, got, changed, tc.want)
		}
		if _, err := url.Parse(got); err != nil {
			t.Errorf("%q does not parse: %v", got, err)
		}
	}
}

// 50,000 unknown keys once made a 1.6 MB notice that filled the page.
func TestProblemsAreBounded(t *testing.T) {
	var b strings.Builder
	for i := range 50000 {
		fmt.Fprintf(&b, "&k%d=1", i)
	}
	_, err := experiment.Decode("#threshold=9" + b.String())
	if err == nil {
		t.Fatal("no problem reported")
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != experiment.MaxReported+1 || lines[len(lines)-1] != "and 49,993 more" {
		t.Errorf("%d lines, the last %q", len(lines), lines[len(lines)-1])
	}
	if !strings.Contains(err.Error(), "threshold") || len(err.Error()) > 1000 {
		t.Errorf("the message is %d bytes: %.200s", len(err.Error()), err)
	}
}

func TestHashChangeIsApplied(t *testing.T) {
	c, f, d := mount(t)
	sh := shells[c]
	do(d, c, func() { sh.follow("#classes=4&model=gcn&threshold=0.3") })
	if c.st.Data.Classes != 4 || c.st.Model.Kind != experiment.GCN || c.st.View.Threshold != 0.3 {
		t.Errorf("state after the hash change: %+v", c.st)
	}
	last := f.sent[len(f.sent)-1]
	if last.Op != protocol.OpSet || !strings.Contains(last.State, "classes=4") || !strings.Contains(last.State, "model=gcn") {
		t.Errorf("sent %+v", last)
	}
	n := len(f.sent)
	do(d, c, func() { sh.follow("#" + c.st.Encode()) }) // what the page wrote itself
	if len(f.sent) != n {
		t.Error("the page's own hash was applied again")
	}
	do(d, c, func() { sh.follow("#model=%25&classes=9") }) // bad values, typed by hand
	if c.st.Model.Kind != experiment.PDN || c.st.Data.Classes != 3 {
		t.Errorf("bad values did not fall back to the defaults: %+v", c.st)
	}
	if h := html(c); !strings.Contains(h, "model: &#34;%&#34; is not allowed") || !strings.Contains(h, "classes: 9 is not allowed") {
		t.Error("the notice does not name the bad fields")
	}
}

func TestProgressAndWarningsAreShown(t *testing.T) {
	c, f, d := mount(t)
	tiny(f, d)
	f.play(protocol.Event{Kind: protocol.KindProgress, Gen: 1, Progress: &protocol.Progress{Phase: protocol.PhaseEpoch, Epoch: 0, Done: 0.35, Running: true}}, nil)
	d.Consume()
	h := html(c)
	if !strings.Contains(h, "Training epoch 1: 35%") || !strings.Contains(h, "Pause") {
		t.Errorf("no progress shown, or no pause button")
	}
	f.play(protocol.Event{Kind: protocol.KindProgress, Gen: 1, Progress: &protocol.Progress{Phase: protocol.PhaseEpoch, Epoch: 0, Done: 0.4, Running: false}}, nil)
	d.Consume()
	if h := html(c); !strings.Contains(h, "paused inside the epoch") || !strings.Contains(h, "▶ Play") {
		t.Error("a pause inside the epoch is not shown")
	}
	unstable := phrase.New("training is unstable: lower lr")
	f.play(protocol.Event{Kind: protocol.KindSnapshot, Gen: 1, Snap: &protocol.Snapshot{Epoch: 1, Epochs: 200, Model: experiment.PDN,
		Warning: &unstable, WarningField: "lr"}}, []float32{0.5, 0.5, 0.5})
	d.Consume()
	h = html(c)
	if strings.Contains(h, "Training epoch 1") || !strings.Contains(h, "training is unstable") || say(c.engineErr["lr"]) == "" {
		t.Error("after the epoch: the progress stays, or the warning is not shown beside lr")
	}
}

// A refused value stays in its box beside the message, so nothing typed is
// lost; a new state takes the engine's errors about the old one away.
func TestRefusedValuesStayAndStaleErrorsGo(t *testing.T) {
	c, f, d := mount(t)
	do(d, c, func() { c.setParam("lr", "1e400") })
	if h := html(c); !strings.Contains(h, `value="1e400"`) || !strings.Contains(h, `lr: &#34;1e400&#34; is not allowed`) {
		t.Error("the refused value is not kept in its box with the message")
	}
	f.play(protocol.Event{Kind: protocol.KindError, Error: "these parameters make too many edges: lower q", Field: "q"}, nil)
	d.Consume()
	if say(c.engineErr["q"]) == "" || len(c.page.board.notices) != 1 {
		t.Fatal("the engine's error is not shown")
	}
	do(d, c, func() { c.setParam("q", "0.001") })
	if say(c.engineErr["q"]) != "" || len(c.page.board.notices) != 0 {
		t.Errorf("the engine's error about the old state stays: %q, %v", say(c.engineErr["q"]), c.page.board.notices)
	}
	if say(c.fieldErr["lr"]) == "" || c.typed["lr"] != "1e400" {
		t.Error("a change elsewhere forgot the refused lr")
	}
	do(d, c, func() { c.setParam("lr", "0.02") })
	if say(c.fieldErr["lr"]) != "" || c.typed["lr"] != "" || c.st.Train.LR != 0.02 {
		t.Error("a mended value did not take")
	}
}

func TestFiguresWaitForTheEngine(t *testing.T) {
	c, f, d := mount(t)
	if h := html(c); !regexp.MustCompile(`id="test-acc"[^>]*>–<`).MatchString(h) {
		t.Error("test accuracy shows a number before the engine has sent any")
	}
	tiny(f, d)
	snapshot(f, 0, false)
	d.Consume()
	if !strings.Contains(html(c), "0.875") {
		t.Error("figures do not show after a snapshot")
	}
}

// Another language redraws the lab in its words, the figures' titles too,
// and the runs go on: the engine is sent nothing, the lab is the same.
func TestLanguageChangeKeepsTheRuns(t *testing.T) {
	c, f, d := mount(t)
	sh := shells[c]
	t.Cleanup(func() { lang = i18n.English })
	tiny(f, d)
	snapshot(f, 7, false, 0.9, 0.2, 0.1)
	d.Consume()
	if !hasMetric(html(c), "epoch", "", "7") {
		t.Fatal("no epoch 7 before the change")
	}
	n := len(f.sent)
	do(d, c, func() { sh.follow("#lang=es") })
	if sh.room != room(c) {
		t.Fatal("another language opened the lab again")
	}
	if len(f.sent) != n {
		t.Errorf("another language sent the engine %+v", f.sent[n:])
	}
	h := html(c)
	if !hasMetric(h, "epoch", "", "7") {
		t.Error("the epoch trained so far is gone")
	}
	for _, want := range []string{"Pérdida y exactitud", "▶ Reproducir"} {
		if !strings.Contains(h, want) {
			t.Errorf("in Spanish the page lacks %q", want)
		}
	}
	if strings.Contains(h, "Loss and accuracy") {
		t.Error("the curves keep their English title")
	}
}

// What the state table and the engine say is shown in the page's
// language: a value typed out of range, and an engine's refusal sent as
// a message (the worker holds no catalogue; the page translates).
func TestErrorsSpeakThePageLanguage(t *testing.T) {
	c, f, d := mount(t)
	sh := shells[c]
	t.Cleanup(func() { lang = i18n.English })
	do(d, c, func() { sh.follow("#lang=es") })
	c.setParam("classes", "9")
	d.Consume()
	if got, want := say(c.fieldErr["classes"]), "classes: 9 no está permitido; se espera [2, 6]"; got != want {
		t.Errorf("field error %q, want %q", got, want)
	}
	f.play(protocol.Failure(&pdn.DivergedError{Epoch: 3, Loss: math.Inf(1), LR: 5}), nil)
	d.Consume()
	if h := html(c); !strings.Contains(h, "el entrenamiento divergió en la época 3: la pérdida es +Inf; baja lr (ahora 5;") {
		t.Errorf("the engine's refusal is not in Spanish: %+v", c.page.board.notices)
	}
	f.play(protocol.Event{Kind: protocol.KindError, Error: "an older engine's words"}, nil)
	d.Consume()
	if !strings.Contains(html(c), "an older engine&#39;s words") && !strings.Contains(html(c), "an older engine's words") {
		t.Error("an error without a message is not shown as it came")
	}
}
