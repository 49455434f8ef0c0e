package app

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"text/template"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/edgekind"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/wasm/protocol"
)

// The page's faults of the second adversarial round, each tried where its
// rule lives: the controls (a refused change puts the control back), the
// board (no notice dropped, every notice in the page's language), the lab
// core (what a change drops or puts back is said) and the editor (no edit
// that changes nothing).

// element is a control as the browser holds it: the properties change
// and putBack read and set.
type element struct {
	app.Value
	props map[string]any
}

func (e *element) Get(p string) app.Value { return jsProp{v: e.props[p]} }
func (e *element) Set(p string, v any)    { e.props[p] = v }
func (e *element) Truthy() bool           { return true }

// jsProp is one property of an element.
type jsProp struct {
	app.Value
	v any
}

func (p jsProp) String() string { return fmt.Sprint(p.v) }
func (p jsProp) Bool() bool     { b, _ := p.v.(bool); return b }

// fired is the context of an event fired by el.
type fired struct {
	app.Context
	el *element
}

func (c fired) JSSrc() app.Value { return c.el }

// A list row's checkboxes always show the list the state holds: a tick or
// an untick the row refuses (one model left, a fifth) puts the box back,
// and the message beside the boxes names the rule; one it takes stays.
// Every lab that shows the models row, every box, ticked off and on.
func TestRefusedModelBoxesGoBack(t *testing.T) {
	for _, name := range []string{"compare", "structure", "sweep"} {
		t.Run(name, func(t *testing.T) {
			rm, l, _, d := mountLab(t, name, "lab="+name)
			boxes := map[string]*element{}
			for _, k := range experiment.Kinds {
				boxes[k] = &element{props: map[string]any{"type": "checkbox", "value": k, "checked": slices.Contains(l.st.View.Models, k)}}
			}
			click := func(k string) {
				el := boxes[k]
				el.props["checked"] = !el.props["checked"].(bool) // the browser flips it
				before := l.st.View.Models
				doIn(d, rm, func() { l.change(fired{el: el}, "models", l.toggled(k, el.props["checked"].(bool))) })
				for kind, b := range boxes {
					if b.props["checked"] != slices.Contains(l.st.View.Models, kind) {
						t.Errorf("after a click on %s: the %s box is ticked %v, the models are %v", k, kind, b.props["checked"], l.st.View.Models)
					}
				}
				refused := slices.Equal(before, l.st.View.Models)
				if msg := say(l.fieldErr["models"]); refused != strings.Contains(msg, "2 to 4") {
					t.Errorf("a click on %s (models %v → %v): the message beside the boxes says %q", k, before, l.st.View.Models, msg)
				}
				if refused && !strings.Contains(app.HTMLString(rm), template.HTMLEscapeString(say(l.fieldErr["models"]))) {
					t.Errorf("the refusal of %s is not shown beside the boxes", k)
				}
			}
			for _, k := range slices.Clone(l.st.View.Models) {
				click(k) // untick all: the last two are refused
			}
			for _, k := range experiment.Kinds {
				if !slices.Contains(l.st.View.Models, k) {
					click(k) // tick all: beyond four, refused
				}
			}
			if len(l.st.View.Models) != 4 {
				t.Errorf("models %v after ticking every box", l.st.View.Models)
			}
		})
	}
}

// A menu whose choice is refused shows the state's choice again; a value
// typed that a row refuses stays in its box, beside what is wrong with it;
// a slider is put where the state's value is.
func TestRefusedControlsGoBack(t *testing.T) {
	rm, l, _, d := mountLab(t, "graph", "lab=graph")
	menu := &element{props: map[string]any{"tagName": "SELECT", "value": "bogus"}}
	doIn(d, rm, func() { l.change(fired{el: menu}, "layout", "bogus") })
	if menu.props["value"] != l.st.View.Layout || say(l.fieldErr["layout"]) == "" {
		t.Errorf("a refused layout: the menu shows %v, the state holds %s (%q)", menu.props["value"], l.st.View.Layout, say(l.fieldErr["layout"]))
	}
	box := &element{props: map[string]any{"tagName": "INPUT", "type": "text", "value": "1e400"}}
	doIn(d, rm, func() { l.change(fired{el: box}, "lr", "1e400") })
	if box.props["value"] != "1e400" || say(l.fieldErr["lr"]) == "" {
		t.Errorf("a refused lr: the box holds %v (%q)", box.props["value"], say(l.fieldErr["lr"]))
	}
	slider := &element{props: map[string]any{"tagName": "INPUT", "type": "range", "value": "100"}}
	doIn(d, rm, func() { l.change(fired{el: slider}, "dropout", "0.25") })
	p, _ := experiment.Lookup("dropout")
	if want := strconv.Itoa(newSliderScale(p, false).position(0.25)); slider.props["value"] != want || want == "100" || l.st.Model.Dropout != 0.25 {
		t.Errorf("dropout 0.25: the slider is at %v, the state holds %v", slider.props["value"], l.st.Model.Dropout)
	}
}

// No notice is ever dropped: the board shows the newest four and a
// button that opens the earlier ones; a notice's list shows its first
// items and a button that opens the rest; every text is bounded.
func TestNoticesAreNeverDropped(t *testing.T) {
	c, f, d := mount(t)
	for i := range 10 {
		f.play(protocol.Event{Kind: protocol.KindError, Error: fmt.Sprintf("problem %d", i)}, nil)
	}
	f.play(protocol.Event{Kind: protocol.KindError, Error: strings.Repeat("long ", 10000)}, nil)
	d.Consume()
	b := c.page.board
	if len(b.notices) != 11 {
		t.Fatalf("%d notices kept of 11", len(b.notices))
	}
	for _, s := range b.Texts() {
		if len([]rune(s)) > maxNoticeLen+1 {
			t.Errorf("a notice of %d characters", len([]rune(s)))
		}
	}
	h := html(c)
	if !strings.Contains(h, "problem 9") || strings.Contains(h, "problem 6") || !strings.Contains(h, "7 earlier notices") {
		t.Errorf("the board does not show the newest four and a button for the 7 before them")
	}
	doIn(d, shells[c], func() { b.earlier = true })
	if h := html(c); !strings.Contains(h, "problem 0") || !strings.Contains(h, "Show only the newest 4 notices") {
		t.Error("the earlier notices do not open")
	}
	items := make([]phrase.Text, 9)
	for i := range items {
		items[i] = phrase.New("note %d", i)
	}
	do(d, c, func() { b.AddList(phrase.New("Opened many"), items, false) })
	if h := html(c); !strings.Contains(h, "note 4") || strings.Contains(h, "note 5") || !strings.Contains(h, "Show 4 more") {
		t.Error("a list of 9 does not show its first 5 and a button for the 4 more")
	}
	doIn(d, shells[c], func() { b.openList(b.notices[len(b.notices)-1].serial) })
	if h := html(c); !strings.Contains(h, "note 8") || strings.Contains(h, "Show 4 more") {
		t.Error("the list does not open")
	}
	do(d, c, func() { b.Dismiss(b.numbered(b.notices[0].serial)) })
	if len(b.notices) != 11 || strings.Contains(strings.Join(b.Texts(), "|"), "problem 0|") {
		t.Errorf("dismissing the first notice: %d left", len(b.notices))
	}
}

// Every note the reader made of a graph opened is in the one notice that
// says what was opened: seven notes, both files' encodings among them.
func TestOpenedGraphSaysEveryNote(t *testing.T) {
	c, f, d := mount(t)
	tiny(f, d)
	notes := []phrase.Text{
		phrase.New("%s: read as %s text, as its byte-order mark says", "labels.csv", "UTF-16"),
		phrase.New("%s: read as %s text, as its byte-order mark says", "edges.csv", "UTF-16"),
		phrase.New("%s: %s of its lines end in CR alone, as classic Mac OS wrote them: each was read as a line end, as pandas and Python read them", "edges.csv", "124"),
		phrase.New("%s: %s of its lines end in CR alone, as classic Mac OS wrote them: each was read as a line end, as pandas and Python read them", "labels.csv", "61"),
		phrase.New("%s: %s nodes have no class (empty, NA, -1…): they stay in the graph, not trained or tested on", "labels.csv, column label", "15"),
		phrase.New("%s: dropped %s self-loops and %s pairs listed again (the edges are undirected, each pair once)", "edges.csv", "2", "1"),
		asIs("a class of one node (lonely) is trained on and never tested"),
	}
	do(d, c, func() {
		c.opening = true
		c.page.engine.Load(c.handle(), []protocol.File{{Name: "edges.csv", Data: []byte("x")}}, c.st.Data)
	})
	do(d, c, func() {
		lastReader(t).play(protocol.Event{Kind: protocol.KindLoaded, Load: true, Loaded: &protocol.Loaded{Name: "mine", Nodes: 60, Edges: 120, Classes: 4, Notes: notes}}, nil)
	})
	var opened *notice
	for i, n := range c.page.board.notices {
		if strings.HasPrefix(n.text.String(), "Opened mine") {
			opened = &c.page.board.notices[i]
		}
	}
	if opened == nil || len(opened.items) != len(notes) {
		t.Fatalf("no notice of the graph opened holding its %d notes: %q", len(notes), c.page.board.Texts())
	}
	doIn(d, shells[c], func() { c.page.board.openList(opened.serial) })
	h := html(c)
	for _, n := range notes {
		if !strings.Contains(h, strings.ReplaceAll(say(n), "'", "&#39;")) {
			t.Errorf("the page does not show the note %q", n)
		}
	}
}

// A change that drops the results of a lab's runs says how many, and
// what they were for: the sweep's, the structure lab's.
func TestDroppedResultsAreSaid(t *testing.T) {
	for _, tc := range []struct{ lab, link, row, value, want string }{
		{"sweep", "lab=sweep&scenario=1&reps=1&models=gcn,mlp&epochs=20&results=5000.6000.7000.8000", "epochs", "21",
			"The 4 results were for epochs=20; with epochs=21 they are other runs'"},
		{"structure", "lab=structure&epochs=20&results=5000.6000", "epochs", "30",
			"results were for epochs=20; with epochs=30 they are other runs'"},
	} {
		t.Run(tc.lab, func(t *testing.T) {
			rm, l, _, d := mountLab(t, tc.lab, tc.link)
			if l.st.View.Results == "" {
				t.Fatalf("the link's results were not taken: %q", l.page.board.Texts())
			}
			doIn(d, rm, func() { l.setParam(tc.row, tc.value) })
			if texts := strings.Join(l.page.board.Texts(), "|"); l.st.View.Results != "" || !strings.Contains(texts, tc.want) {
				t.Errorf("%s=%s: results %q; notices %q", tc.row, tc.value, l.st.View.Results, texts)
			}
		})
	}
}

// Opening one's own files puts the generator's rows back at their start,
// and one notice names each, with the value it had.
func TestOpenedFilesSayTheRowsTheyReset(t *testing.T) {
	c, f, d := mount(t)
	do(d, c, func() { shells[c].follow("#lab=graph&per-class=16&q=0.01&sigma-d=1") })
	tiny(f, d)
	do(d, c, func() {
		c.opening = true
		c.page.engine.Load(c.handle(), []protocol.File{{Name: "edges.csv", Data: []byte("x")}}, c.st.Data)
	})
	do(d, c, func() {
		lastReader(t).play(protocol.Event{Kind: protocol.KindLoaded, Load: true, Loaded: &protocol.Loaded{Name: "mine", Nodes: 60, Edges: 120, Classes: 3}}, nil)
	})
	said := 0
	for _, s := range c.page.board.Texts() {
		if strings.Contains(s, "went back to their start") {
			said++
			for _, want := range []string{"per-class was 16, now 500", "q was 0.01, now ", "sigma-d was 1, now "} {
				if !strings.Contains(s, want) {
					t.Errorf("the notice does not say %q: %q", want, s)
				}
			}
		}
	}
	if said != 1 || c.st.Data.PerClass == 16 {
		t.Errorf("%d notices of the rows reset (per-class now %d): %q", said, c.st.Data.PerClass, c.page.board.Texts())
	}
}

// A feature every edge holds at one value offers no slider, and says so;
// a slider let go where the value is adds no edit.
func TestEditorSetsNoFeatureToWhatItIs(t *testing.T) {
	rm, l, conns, d := mountLab(t, "graph", "lab=graph")
	c := rm.(*GraphLab)
	f := (*conns)[0]
	f.play(protocol.Event{Kind: protocol.KindGraph, Gen: 1, Graph: &protocol.Graph{Nodes: 3, Src: []int32{0, 1}, Dst: []int32{1, 2},
		Labels: []int{0, 1, 1}, Kinds: []edgekind.Kind{edgekind.Inter, edgekind.Intra}, Test: []bool{false, true, true}}}, nil)
	f.play(protocol.Event{Kind: protocol.KindSnapshot, Gen: 1, Snap: &protocol.Snapshot{Epoch: 5, Epochs: 200, Model: "pdn", Weights: 2, Nodes: 3,
		Edge: &protocol.EdgeState{Ends: [2]int{0, 1}, Index: 0, Features: []protocol.Num{1, 0.5}, Lo: []protocol.Num{1, 0}, Hi: []protocol.Num{1, 1}}}},
		[]float32{0.4, 0.6, 0, 1, 1, 0.9, 0.8, 0.7})
	d.Consume()
	doIn(d, c, func() { c.selectNode(0); c.ed.ends, c.ed.ok = [2]int{0, 1}, true })
	h := app.HTMLString(rm)
	if strings.Contains(h, `id="edit-value"`) || !strings.Contains(h, "at 1, so there is nothing to set") {
		t.Errorf("a feature at 1 on every edge: the card says %q", between(h, `class="edit-feature"`, `</div>`))
	}
	doIn(d, c, func() { c.slideFeature(37) })
	if l.st.Data.Edits != "" {
		t.Errorf("a slide of a feature that never varies made the edit %q", l.st.Data.Edits)
	}
	doIn(d, c, func() { c.ed.feature = 1 })
	if h := app.HTMLString(rm); !strings.Contains(h, `id="edit-value"`) {
		t.Error("a feature from 0 to 1 offers no slider")
	}
	doIn(d, c, func() { c.slideFeature(50) })
	if l.st.Data.Edits != "" {
		t.Errorf("a slide to the value the edge has made the edit %q", l.st.Data.Edits)
	}
	doIn(d, c, func() { c.slideFeature(60) })
	if l.st.Data.Edits != "s0-1f1~0.6" {
		t.Errorf("a slide to 0.6 made the edits %q", l.st.Data.Edits)
	}
}

// The notices on screen follow a change of the page's language, a link's
// among them, as the rest of the page does.
func TestNoticesFollowTheLanguage(t *testing.T) {
	c, _, d := mount(t)
	sh := shells[c]
	t.Cleanup(func() { lang = i18n.English })
	doIn(d, sh, func() { sh.follow("#lab=graph&classes=9") })
	if h := html(c); !strings.Contains(h, "This link has values the explorer cannot use") {
		t.Fatalf("no notice of the bad link: %q", c.page.board.Texts())
	}
	doIn(d, sh, func() { sh.follow("#lab=graph&lang=es") })
	h := html(c)
	es := i18n.T("es", "This link has values the explorer cannot use:")
	if strings.Contains(h, "This link has values the explorer cannot use") || !strings.Contains(h, es) || !strings.Contains(h, "no está permitido") {
		t.Errorf("the link's notice stays in English after the page speaks Spanish: %q", c.page.board.Texts())
	}
}

// A notice said again, already among the earlier ones, comes back as the
// newest, not shown twice and not left behind the earlier ones' button
// (the recipe said again for each graph opened).
func TestANoticeSaidAgainIsTheNewest(t *testing.T) {
	b := &Board{}
	b.Add(phrase.New("recipe"), false)
	for i := range 5 {
		b.Add(phrase.New("opened %d", i), false)
	}
	b.Add(phrase.New("recipe"), false)
	texts := b.Texts()
	if len(texts) != 6 || texts[len(texts)-1] != "recipe" || slices.Index(texts, "recipe") != len(texts)-1 {
		t.Errorf("after the recipe said again: %q", texts)
	}
}
