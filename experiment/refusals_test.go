package experiment

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// linkStarts are the states a link starts from: each lab's, and each
// step of each tour's (the step's lab with the step's rows), by the
// link's prefix that opens them.
func linkStarts() []string {
	var out []string
	for _, l := range Labs {
		out = append(out, "lab="+l.Name)
	}
	for _, tour := range Tours {
		for k := range tour.Steps {
			out = append(out, "tour="+tour.Name+"&step="+strconv.Itoa(k+1))
		}
	}
	return out
}

// keptWord is the value a refusal says a row keeps in e: "none" for
// an empty one.
func keptWord(p Param, e Experiment) string {
	if v := p.Get(&e); v != "" {
		return v
	}
	return "none"
}

// A row the link does not get changes nothing: every row, given another
// value, each of its choices or one it refuses, on every lab's start and
// every tour step's,
// is either taken or refused, and a refused one leaves the whole state
// as the start (a refused data=cora gave the XOR lab Cora's dropout and
// weight decay), the notice naming the value in force there (the lab's
// start after its defaults and the step, not the table's default).
func TestARefusedRowChangesNothing(t *testing.T) {
	for _, prefix := range linkStarts() {
		start, err := Decode(prefix)
		if err != nil {
			t.Fatalf("%s: %v", prefix, err)
		}
		onStep := strings.HasPrefix(prefix, "tour=")
		for _, p := range Params {
			if p.Name == "tour" || p.Name == "step" || p.Name == "lab" && !onStep {
				continue
			}
			values := append([]string{otherValue(t, p, start), "bogus"}, p.Choices...)
			if p.Name == "lab" {
				values = []string{otherLab(start.View.Lab)}
			}
			for _, v := range values {
				link := prefix + "&" + p.Name + "=" + escapeValue(v)
				e, err := Decode(link)
				if err == nil || !strings.Contains(err.Error(), p.Name+": ") {
					continue // taken
				}
				if e.Encode() != start.Encode() {
					t.Errorf("%s: refused (%v), yet the state changed:\n got %s\nwant %s", link, err, e.EncodeShort(), start.EncodeShort())
				}
				if want := "it keeps " + keptWord(p, start); p.Name != "hide" && !strings.Contains(err.Error(), want) {
					t.Errorf("%s: %q does not say %q", link, err, want)
				}
			}
		}
	}
}

// otherLab is a lab other than name.
func otherLab(name string) string {
	for _, l := range Labs {
		if l.Name != name {
			return l.Name
		}
	}
	return ""
}

// The second adversary's cases: each refused value names the value the
// lab keeps, and a refused graph leaves the recipe's rows alone.
func TestRefusedValuesSayTheValueInForce(t *testing.T) {
	for _, c := range []struct{ link, want string }{
		{"lab=xor&restarts=99", "restarts: 99 is not allowed; want [0, 20]; it keeps 4"},
		{"lab=xor&edge-init=bogus", "; it keeps alive"},
		{"lab=xor&restart-epochs=0", "; it keeps 40"},
		{"lab=attention&hops=9", "hops: 9 is not allowed; want [1, 5]; it keeps 5"},
		{"lab=attention&data=bogus", "; it keeps cora"},
		{"lab=structure&models=pdn", "; it keeps pdn,gcn,gat"},
		{"lab=graph&data=cora&dropout=bogus", "; it keeps 0.9"}, // Cora's recipe
		{"lab=graph&results=5000", "results: the graph lab does not read it (the structure, sweep labs read it); it keeps none"},
		{"lab=xor&data=cora", "data: the xor lab sets it itself: its lesson is the XOR graph's; it keeps xor"},
	} {
		e, err := Decode(c.link)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want %q", c.link, err, c.want)
		}
		if strings.Contains(c.link, "data=cora") && c.link != "lab=graph&data=cora&dropout=bogus" && (e.Model.Dropout != ForLab(e.View.Lab).Model.Dropout || e.Train.WeightDecay != 0) {
			t.Errorf("%s: a refused graph set dropout %v, weight decay %v", c.link, e.Model.Dropout, e.Train.WeightDecay)
		}
	}
}

// A link whose lab is not its tour step's opens the step in the step's
// lab and says so: the step's panel, rows and claims are that lab's.
func TestAStepOpensInItsOwnLab(t *testing.T) {
	for _, c := range []struct{ link, lab, want string }{
		{"lab=sweep&tour=paper&step=2", "compare", "lab: step 2 of the paper tour is in the compare lab, so the link opens it there; it keeps compare"},
		{"lab=graph&tour=paper&step=4", "xor", "lab: step 4 of the paper tour is in the xor lab"},
		{"tour=paper&step=4&lab=graph", "xor", "lab: step 4 of the paper tour is in the xor lab"},
		{"lab=xor&tour=paper&step=4", "xor", ""},
		{"lab=nowhere&tour=paper&step=2", "compare", "lab: step 2 of the paper tour is in the compare lab"},
	} {
		e, err := Decode(c.link)
		if e.View.Lab != c.lab || c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: lab %s, %v; want %s, %q", c.link, e.View.Lab, err, c.lab, c.want)
			continue
		}
		step, _ := Decode(c.link[strings.Index(c.link, "tour="):])
		if e.Encode() != step.Encode() {
			t.Errorf("%s: %s, not the step's state %s", c.link, e.EncodeShort(), step.EncodeShort())
		}
	}
}

// Rows in conflict (restart-epochs at or above epochs while there are
// restarts: the restarts would spend the whole run) are refused by the one
// rule, naming both rows, on every surface the state table gives: a
// link, a state the worker is sent, Validate (the trainer's). Without
// restarts the rows do not meet.
func TestRowsInConflictAreRefusedNamingBoth(t *testing.T) {
	for _, c := range []struct {
		link, want            string
		epochs, restartEpochs int
	}{
		{"restarts=2&epochs=30", "epochs: restart-epochs (50) is not below epochs (30)", 200, 50},
		{"restarts=2&restart-epochs=200", "restart-epochs: restart-epochs (200) is not below epochs (200)", 200, 50},
		{"lab=xor&epochs=40", "epochs: restart-epochs (40) is not below epochs (40)", 200, 40},
		{"restarts=2&restart-epochs=60&epochs=55", "restart-epochs: restart-epochs (60) is not below epochs (55)", 55, 50},
		{"restarts=2&restart-epochs=60&epochs=40", "epochs: restart-epochs (50) is not below epochs (40)", 200, 50},
	} {
		e, err := Decode(c.link)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "lower restart-epochs or raise epochs") {
			t.Errorf("%s: %v; want %q", c.link, err, c.want)
		}
		if e.Train.Epochs != c.epochs || e.Model.RestartEpochs != c.restartEpochs || len(e.Conflicts()) > 0 {
			t.Errorf("%s: epochs %d, restart-epochs %d; want %d, %d", c.link, e.Train.Epochs, e.Model.RestartEpochs, c.epochs, c.restartEpochs)
		}
	}
	e := Default()
	e.Model.Restarts, e.Model.RestartEpochs, e.Train.Epochs = 2, 5, 5
	if err := e.Validate(); err == nil || !strings.Contains(err.Error(), "restart-epochs (5) is not below epochs (5)") {
		t.Errorf("Validate: %v", err)
	}
	if _, err := DecodeRun(e.EncodeRun()); err == nil || !strings.Contains(err.Error(), "is not below epochs") {
		t.Errorf("DecodeRun: %v", err)
	}
	e.Model.Restarts = 0
	if err := e.Validate(); err != nil {
		t.Errorf("without restarts: %v", err)
	}
	// id-column and target naming one column (audit 3's 13).
	e.Data.IDColumn, e.Data.Target = "group", "group"
	if err := e.Validate(); err == nil || !strings.Contains(err.Error(), `id-column and target both name the column "group"`) {
		t.Errorf("one column for both, Validate: %v", err)
	}
	if _, err := Decode("target=group&id-column=group"); err == nil || !strings.Contains(err.Error(), `id-column and target both name the column "group"`) {
		t.Errorf("one column for both, a link: %v", err)
	}
	e.Data.Target = ""
	if err := e.Validate(); err != nil {
		t.Errorf("id-column alone: %v", err)
	}
}

// Every state a link starts from is whole: no lab's defaults and no tour
// step hold rows in conflict, so a refusal always has a row of the link
// to put back.
func TestEveryStartIsWhole(t *testing.T) {
	for _, prefix := range linkStarts() {
		e, err := Decode(prefix)
		if err != nil || len(e.Conflicts()) > 0 {
			t.Errorf("%s: %v, %v", prefix, err, e.Conflicts())
		}
	}
}

// A run given two results is refused by the one reader of the results
// row (Lab.Results), naming both slots: runs of one key train once (the
// structure lab's rate 0 of every perturbation, GCN at rate 0 and the
// transfer table's GCN on the input graph). The same result in each is
// what the page writes, and taken.
func TestOneRunOneResult(t *testing.T) {
	l, _ := LabNamed("structure")
	e := ForLab("structure")
	runs := l.Trains(e)
	slot := func(name string) int {
		for i, r := range runs {
			if r.Name == name {
				return i
			}
		}
		t.Fatalf("no run %s", name)
		return -1
	}
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{PerturbAddEdges + "/0/gcn", PerturbDrop + "/0/gcn", false},
		{PerturbAddEdges + "/0/gcn", "gcn/input", false},
		{PerturbMask + "/0/pdn", PerturbAddInter + "/0/pdn", false},
		{PerturbAddEdges + "/0/gcn", PerturbDrop + "/0/gcn", true},
	} {
		toks := make([]string, len(runs))
		toks[slot(c.a)] = "5000"
		toks[slot(c.b)] = "6000"
		if c.same {
			toks[slot(c.b)] = "5000"
		}
		x := e
		x.View.Results = strings.Join(toks, ".")
		_, err := l.Results(x)
		i, j := min(slot(c.a), slot(c.b)), max(slot(c.a), slot(c.b))
		want := "results: result " + strconv.Itoa(i+1) + " (" + runs[i].Name + ") and result " + strconv.Itoa(j+1) + " (" + runs[j].Name + ") are of one run"
		if c.same != (err == nil) || !c.same && !strings.Contains(err.Error(), want) {
			t.Errorf("%s and %s: %v; want taken %v, else %q", c.a, c.b, err, c.same, want)
		}
	}
	// A result and none (x) are two results of one run too.
	toks := make([]string, len(runs))
	toks[slot(PerturbAddEdges+"/0/gcn")], toks[slot(PerturbDrop+"/0/gcn")] = "5000", "x"
	e.View.Results = strings.Join(toks, ".")
	if _, err := l.Results(e); err == nil || !strings.Contains(err.Error(), "say 5000 and x") {
		t.Errorf("5000 and x: %v", err)
	}
}

// A zero has no sign, in every row: "-0" is read as "0" is (taken alike,
// or refused alike, as a seed's minus was refused while weight decay kept
// -0), and an edit's value -0 is 0 in the link it writes.
func TestMinusZeroIsZeroInEveryRow(t *testing.T) {
	for _, p := range Params {
		if p.Choices != nil || p.Form != "" {
			continue
		}
		plus, minus := Default(), Default()
		errPlus, errMinus := p.Set(&plus, "0"), p.Set(&minus, "-0")
		if (errPlus == nil) != (errMinus == nil) || errPlus == nil && p.Get(&minus) != p.Get(&plus) {
			t.Errorf("%s: 0 gives %v (%s), -0 gives %v (%s)", p.Name, errPlus, p.Get(&plus), errMinus, p.Get(&minus))
		}
		if p.Get(&minus) == "-0" || strings.Contains(minus.Encode(), "=-0") {
			t.Errorf("%s: the state holds -0", p.Name)
		}
	}
	e, err := Decode("weight-decay=-0&seed=-0&edits=s0-1f0~-0")
	if err != nil || math.Signbit(e.Train.WeightDecay) || e.Data.Edits != "s0-1f0~0" || strings.Contains(e.Encode(), "-0") {
		t.Errorf("%v: %s", err, e.Encode())
	}
}

// A link's hide row names only rows its lab offers: a row it does not
// read, or one its runs set themselves, has no control to hide, and is
// left out by name; the others stay hidden.
func TestHideNamesOnlyOfferedRows(t *testing.T) {
	for _, c := range []struct{ link, hide, want string }{
		{"lab=xor&hide=attach", "", "hide: attach: the xor lab does not read it"},
		{"lab=xor&hide=attach,q", "q", "hide: attach: the xor lab does not read it"},
		{"lab=xor&hide=data", "", "hide: data: the xor lab sets it itself"},
		{"lab=compare&hide=model", "", "hide: model: the compare lab sets it itself"},
		{"lab=sweep&hide=seed,epochs", "epochs", "hide: seed: the sweep lab sets it itself"},
		{"lab=graph&hide=attach,q", "attach,q", ""},
	} {
		e, err := Decode(c.link)
		if e.View.Hide != c.hide || c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: hide %q, %v; want %q, %q", c.link, e.View.Hide, err, c.hide, c.want)
		}
	}
}
