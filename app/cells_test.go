package app

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/edgekind"
	"pdnexplorer/experiment"
	"pdnexplorer/internal/faults"
	"pdnexplorer/wasm/protocol"
)

// pageSurfaces are the page's surfaces this package tries: each lab's
// link (one a row of experiment.Labs), the controls, the graph editor.
// The files a page opens (Open files…, Open a folder…) are the worker's
// (wasm/worker's cells) and the readers' (datasets' "page" way).
func pageSurfaces() []string {
	var out []string
	for _, l := range experiment.Labs {
		out = append(out, "link of the "+l.Name+" lab")
	}
	return append(out, "controls", "editor")
}

// TestEveryClassOnThePage is the class × surface table's page part: every
// class of internal/faults on each lab's link, the controls and the
// editor. A lab or a class added without its cells fails.
func TestEveryClassOnThePage(t *testing.T) {
	cells := map[faults.Key]faults.Cell{}
	noFiles := faults.NA("a link carries no file: a graph of one's own comes by Open files… or Open a folder… (the worker's and the readers' cells)")
	for _, l := range experiment.Labs {
		s, name := "link of the "+l.Name+" lab", l.Name
		set := func(class string, c faults.Cell) { cells[faults.Key{Class: class, Surface: s}] = c }
		set(faults.Numbers, faults.Cell{Check: func(t *testing.T) { linkNumbers(t, name) }})
		set(faults.Rows, faults.Cell{Check: func(t *testing.T) { linkRows(t, name) }})
		set(faults.Text, faults.Cell{Check: func(t *testing.T) { linkText(t, name) }})
		set(faults.Link, faults.Cell{Check: func(t *testing.T) { linkState(t, name) }})
		for _, class := range []string{faults.Unlabelled, faults.Special, faults.Compressed} {
			set(class, noFiles)
		}
		set(faults.Structure, faults.NA("a link is one state: a row it gives twice is the rows' cell"))
		set(faults.Outputs, faults.NA("the page writes nothing on its own: its downloads are saved by the browser, where the reader chooses"))
		set(faults.Script, faults.NA("run_pyg.py's arguments are the script's own surface (pyg's cells)"))
	}
	for _, s := range []string{"controls", "editor"} {
		for _, class := range []string{faults.Unlabelled, faults.Text, faults.Special, faults.Compressed, faults.Structure, faults.Outputs, faults.Script} {
			cells[faults.Key{Class: class, Surface: s}] = faults.NA("a " + s + "'s value is typed or chosen in the page: no file, no graph's structure, no output, no script")
		}
	}
	cells[faults.Key{Class: faults.Numbers, Surface: "controls"}] = faults.Cell{Check: controlNumbers}
	cells[faults.Key{Class: faults.Rows, Surface: "controls"}] = faults.Cell{Check: func(t *testing.T) {
		TestControlsLeaveNoRowUnread(t)
		controlConflicts(t)
	}}
	cells[faults.Key{Class: faults.Link, Surface: "controls"}] = faults.Cell{Check: controlsDropTheGraphsEdits}
	cells[faults.Key{Class: faults.Numbers, Surface: "editor"}] = faults.Cell{Check: editorNumbers}
	cells[faults.Key{Class: faults.Rows, Surface: "editor"}] = faults.NA("the editor makes one edit at a time, of the graph on screen: no row to give twice or not read")
	cells[faults.Key{Class: faults.Link, Surface: "editor"}] = faults.Cell{Check: func(t *testing.T) { TestAnotherGraphDropsWhatBelongedToTheGraphBefore(t) }}
	faults.Check(t, pageSurfaces(), cells)
}

// openLink mounts lab name on a plain link, then shows it the state link
// decodes to, with its problems, as the shell does; it gives the lab and
// the notices.
func openLink(t *testing.T, name, link string) (*lab, string) {
	t.Helper()
	rm, l, _, d := mountLab(t, name, "lab="+name)
	st, err := experiment.Decode(link)
	doIn(d, rm, func() { rm.show(st, err) })
	return l, strings.Join(l.page.board.Texts(), "|")
}

// linkNumbers: a number row written as strconv would read it is refused
// by name and keeps its start.
func linkNumbers(t *testing.T, name string) {
	for _, kv := range []string{"seed=0x10", "lr=0x1p-2", "epochs=1_0", "init-seed=Inf", "dropout=NaN"} {
		start := experiment.ForLab(name)
		l, notices := openLink(t, name, "lab="+name+"&"+kv)
		row, v, _ := strings.Cut(kv, "=")
		p, _ := experiment.Lookup(row)
		if !strings.Contains(notices, row+": ") || !strings.Contains(notices, v) {
			t.Errorf("%s: notices %q", kv, notices)
		}
		if p.Get(&l.st) != p.Get(&start) {
			t.Errorf("%s: the lab took %s", kv, p.Get(&l.st))
		}
	}
	// A zero has no sign: weight-decay=-0 is 0, and the link says 0.
	l, _ := openLink(t, name, "lab="+name+"&weight-decay=-0&seed=-0")
	if math.Signbit(l.st.Train.WeightDecay) || strings.Contains(l.st.Encode(), "=-0") {
		t.Errorf("-0: the lab holds %s", l.st.Encode())
	}
}

// linkRows: a row given twice keeps its first value, said; a row the lab
// does not read is refused by name, as the rows' rule says.
func linkRows(t *testing.T, name string) {
	l, notices := openLink(t, name, "lab="+name+"&epochs=70&epochs=90")
	if l.st.Train.Epochs != 70 || !strings.Contains(notices, "epochs: given more than once; using the first, 70") {
		t.Errorf("epochs twice: %d, %q", l.st.Train.Epochs, notices)
	}
	row, _ := experiment.LabNamed(name)
	r := row.Reader()
	start := experiment.ForLab(name)
	for _, p := range experiment.Params {
		if p.Group != experiment.GroupView || p.Name == "lab" || p.Choices == nil || p.MaxLen > 0 {
			continue
		}
		if _, reads := r.Reads(p, start); reads {
			continue
		}
		i := slices.IndexFunc(p.Choices, func(c string) bool { return c != p.Get(&start) })
		link := "lab=" + name + "&" + p.Name + "=" + p.Choices[i]
		_, notices := openLink(t, name, link)
		if !strings.Contains(notices, p.Name+": the "+name+" lab does not read it") {
			t.Errorf("%s: notices %q", link, notices)
		}
		break
	}
	refusedChangesNothing(t, name)
	linkConflicts(t, name)
	linkHide(t, name)
	linkStepLab(t, name)
}

// refusedChangesNothing: a row the lab does not get leaves its state as
// the lab starts: a refused data=cora changes no dropout or weight decay
// (Cora's recipe), and the notice names the value the lab keeps.
func refusedChangesNothing(t *testing.T, name string) {
	base, _ := openLink(t, name, "lab="+name)
	for _, kv := range []string{"data=cora", "data=bogus", "model=mlp", "seed=3", "restarts=99"} {
		l, notices := openLink(t, name, "lab="+name+"&"+kv)
		row, _, _ := strings.Cut(kv, "=")
		if !strings.Contains(notices, row+": ") {
			continue // taken
		}
		p, _ := experiment.Lookup(row)
		if l.st.Encode() != base.st.Encode() || !strings.Contains(notices, "; it keeps "+p.Get(&base.st)) {
			t.Errorf("%s: refused (%q), yet the lab holds %s, not %s", kv, notices, l.st.EncodeShort(), base.st.EncodeShort())
		}
	}
}

// linkConflicts: rows whose values conflict (epochs not above the
// restarts' epochs) are refused naming both, and the lab holds no
// conflict; where the lab does not read restarts, the row is refused as
// unread.
func linkConflicts(t *testing.T, name string) {
	l, notices := openLink(t, name, "lab="+name+"&restarts=2&epochs=30")
	if len(l.st.Conflicts()) > 0 {
		t.Errorf("the %s lab holds rows in conflict: %v", name, l.st.Conflicts())
	}
	if !strings.Contains(notices, "restarts: ") && (!strings.Contains(notices, "epochs: restart-epochs (") || !strings.Contains(notices, "is not below epochs (30)")) {
		t.Errorf("restarts=2&epochs=30: %q; want the conflict refused naming both rows", notices)
	}
}

// linkHide: the hide row names only the rows the lab offers: one it does
// not read, or sets itself, is left out by name.
func linkHide(t *testing.T, name string) {
	row, _ := experiment.LabNamed(name)
	r := row.Reader()
	for _, p := range experiment.Params {
		if _, ok := r.Offers(p); ok || p.Group == experiment.GroupView {
			continue
		}
		l, notices := openLink(t, name, "lab="+name+"&hide="+p.Name)
		if l.st.View.Hide != "" || !strings.Contains(notices, "hide: "+p.Name+": ") {
			t.Errorf("hide=%s in the %s lab: hide %q, %q", p.Name, name, l.st.View.Hide, notices)
		}
		return
	}
}

// linkStepLab: a link naming a tour step of another lab opens the step
// in its own lab, and says so.
func linkStepLab(t *testing.T, name string) {
	for _, tour := range experiment.Tours {
		for k := range tour.Steps {
			step, _ := experiment.Decode(tour.StepLink(k + 1))
			if step.View.Lab == name {
				continue
			}
			c, _, d := mount(t)
			sh := shells[c]
			sh.board.notices = nil
			link := "#lab=" + name + "&tour=" + tour.Name + "&step=" + strconv.Itoa(k+1)
			doIn(d, sh, func() { sh.follow(link) })
			want := "lab: step " + strconv.Itoa(k+1) + " of the " + tour.Name + " tour is in the " + step.View.Lab + " lab"
			if sh.lab != step.View.Lab || !strings.Contains(strings.Join(sh.board.Texts(), "|"), want) {
				t.Errorf("%s: the %s lab on view, %q; want the %s lab and %q", link, sh.lab, sh.board.Texts(), step.View.Lab, want)
			}
			return
		}
	}
}

// controlConflicts: a control whose value would leave two rows in
// conflict is refused beside it, naming both, and changes nothing: epochs
// at the XOR lab's 40 epochs a restart, restarts chosen over 30 epochs.
func controlConflicts(t *testing.T) {
	_, l, _, _ := mountLab(t, "xor", "lab=xor")
	l.setParam("epochs", "30")
	if l.st.Train.Epochs != 200 || !strings.Contains(say(l.fieldErr["epochs"]), "restart-epochs (40) is not below epochs (30)") {
		t.Errorf("xor lab, epochs=30: epochs %d, %q", l.st.Train.Epochs, say(l.fieldErr["epochs"]))
	}
	_, l, _, _ = mountLab(t, "graph", "lab=graph")
	l.setParam("epochs", "30")
	l.setParam("restarts", "2")
	if l.st.Model.Restarts != 0 || !strings.Contains(say(l.fieldErr["restarts"]), "restart-epochs (50) is not below epochs (30)") {
		t.Errorf("graph lab, restarts=2 over 30 epochs: restarts %d, %q", l.st.Model.Restarts, say(l.fieldErr["restarts"]))
	}
}

// linkText: a value that is not UTF-8 once unescaped (a Latin-1 caf%E9)
// is refused by name.
func linkText(t *testing.T, name string) {
	l, notices := openLink(t, name, "lab="+name+"&target=caf%E9")
	if l.st.Data.Target != "" || !strings.Contains(notices, `target: "caf\xe9" is not UTF-8 text`) {
		t.Errorf("target=caf%%E9: %q, %q", l.st.Data.Target, notices)
	}
}

// linkState: a link's results enter the lab at one place, marked from the
// link where the lab trains runs to their end, refused by name where it
// does not (TestLinkResultsEnterEveryLabAtOnePlace's cell for this lab);
// the edits of the link's graph go when another graph arrives.
func linkState(t *testing.T, name string) {
	row, _ := experiment.LabNamed(name)
	if row.Trains == nil {
		if _, notices := openLink(t, name, "lab="+name+"&results=5000"); !strings.Contains(notices, "results: the "+name+" lab does not read it") || !strings.Contains(notices, "; it keeps none") {
			t.Errorf("results=5000: %q", notices)
		}
	} else {
		oneRunTwoResults(t, name)
		link := "lab=" + name + "&results=5000"
		if name == "sweep" {
			link += "&reps=1"
		}
		rm, _, _, _ := mountLab(t, name, link)
		if h := app.HTMLString(rm); !strings.Contains(h, "from the link, not trained here") || !strings.Contains(h, `id="train-here"`) {
			t.Errorf("the %s lab does not mark the link's results", name)
		}
	}
	start := experiment.ForLab(name)
	p, _ := experiment.Lookup(experiment.EditsRow)
	if _, reads := row.Reader().Reads(p, start); !reads {
		return // the lab reads no edits: its link's are refused (linkRows)
	}
	l, _ := openLink(t, name, "lab="+name+"&edits=a0-1")
	next := l.st
	next.Data.Seed++
	l.arrive(&next)
	if next.Data.Edits != "" || !slices.ContainsFunc(l.page.board.Texts(), func(s string) bool { return strings.Contains(s, "for the graph before") }) {
		t.Errorf("another graph kept the link's edits %q", next.Data.Edits)
	}
}

// oneRunTwoResults: a link giving one run (runs of one key: the
// structure lab's rate 0 of each perturbation, a sweep's model that reads
// no edge features over scenario 6's values) two results is refused at
// the lab's one reader of the row, naming both slots, and none enter.
func oneRunTwoResults(t *testing.T, name string) {
	link := "lab=" + name
	if name == "sweep" {
		link += "&scenario=6&reps=1&models=gcn,mlp"
	}
	st, _ := experiment.Decode(link)
	row, _ := experiment.LabNamed(name)
	runs := row.Trains(st)
	first := map[string]int{}
	for j, r := range runs {
		i, ok := first[experiment.RunKey(r.Exp)]
		if !ok {
			first[experiment.RunKey(r.Exp)] = j
			continue
		}
		toks := make([]string, len(runs))
		toks[i], toks[j] = "5000", "6000"
		l, notices := openLink(t, name, link+"&results="+strings.Join(toks, "."))
		if l.st.View.Results != "" || !strings.Contains(notices, "are of one run") || !strings.Contains(notices, runs[i].Name) || !strings.Contains(notices, runs[j].Name) {
			t.Errorf("%s lab, %s and %s given 5000 and 6000: results %q kept, %q", name, runs[i].Name, runs[j].Name, l.st.View.Results, notices)
		}
		return
	}
	t.Errorf("the %s lab's runs share no key: the cell tries nothing", name)
}

// controlNumbers: a number typed into a control as strconv would read it
// is refused beside the control and changes nothing.
func controlNumbers(t *testing.T) {
	for _, name := range []string{"graph", "compare", "sweep"} {
		_, l, _, _ := mountLab(t, name, "lab="+name)
		before := l.st.Encode()
		for _, kv := range [][2]string{{"seed", "0x10"}, {"lr", "0x1p-2"}, {"epochs", "1_0"}, {"dropout", "Inf"}} {
			l.setParam(kv[0], kv[1])
			if l.st.Encode() != before || say(l.fieldErr[kv[0]]) == "" {
				t.Errorf("%s lab: %s=%s taken (%q)", name, kv[0], kv[1], say(l.fieldErr[kv[0]]))
			}
		}
	}
}

// controlsDropTheGraphsEdits: a control that makes another graph drops the
// edits of the one before, and says so (the one place: lab.arrive).
func controlsDropTheGraphsEdits(t *testing.T) {
	_, l, _, _ := mountLab(t, "graph", "lab=graph&edits=a0-1")
	l.setParam("q", "0.02")
	if l.st.Data.Edits != "" || !slices.ContainsFunc(l.page.board.Texts(), func(s string) bool { return strings.Contains(s, "for the graph before") }) {
		t.Errorf("q changed, edits %q kept", l.st.Data.Edits)
	}
}

// editorNumbers: the editor's node box and a link's edit value take
// decimal numbers only.
func editorNumbers(t *testing.T) {
	rm, _, conns, d := mountLab(t, "graph", "lab=graph")
	c := rm.(*GraphLab)
	g := &protocol.Graph{Nodes: 20, Src: []int32{0}, Dst: []int32{1}, Labels: make([]int, 20), Kinds: []edgekind.Kind{edgekind.Intra}, Test: make([]bool, 20)}
	(*conns)[0].play(protocol.Event{Kind: protocol.KindGraph, Gen: 1, Graph: g}, nil)
	d.Consume()
	for _, to := range []string{"0x10", "1_0", "1e1", "16"} {
		doIn(d, c, func() { c.insp.selected = 0; c.ed.to = to; c.addEdge() })
		if taken := c.ed.toErr == ""; taken != (to == "16") {
			t.Errorf("node %q: taken %v (%q)", to, taken, c.ed.toErr)
		}
	}
	if _, err := experiment.ParseEdits("s0-2f0~0x1p-2"); err == nil {
		t.Error("an edit's value 0x1p-2 read")
	}
}
