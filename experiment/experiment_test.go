package experiment

import (
	"flag"
	"io"
	"reflect"
	"strings"
	"testing"
)

func TestDefaultIsPaperScenario(t *testing.T) {
	e := Default()
	want := Data{Graph: GraphSynthetic, Classes: 3, PerClass: 500, P: 0.01, Q: 0.005, NodeFeatures: 32, EdgeFeatures: 32, SigmaF: 5, SigmaD: 2, Seed: 1, Attach: 5, Layers: "90,60,33,33", LayerDegree: 4, Shots: 100, Perturb: PerturbNone}
	if e.Data != want {
		t.Errorf("default data = %+v, want %+v", e.Data, want)
	}
	if e.Model.Kind != PDN || !reflect.DeepEqual(e.Model.EdgeHidden, []int{16}) || e.Model.Hidden != 32 || e.Model.Dropout != 0.5 {
		t.Errorf("default model = %+v", e.Model)
	}
	if e.Train.Epochs != 200 || e.Train.LR != 0.01 || e.Train.WeightDecay != 0 {
		t.Errorf("default training = %+v", e.Train)
	}
	if err := e.Validate(); err != nil {
		t.Errorf("default does not validate: %v", err)
	}
}

func TestSetRejects(t *testing.T) {
	for _, tc := range []struct{ name, value, wantInErr string }{
		{"classes", "7", "[2, 6]"},
		{"classes", "x", "classes"},
		{"p", "0.5", "[0.0009765625, 0.0625]"},
		{"q", "NaN", "q"},
		{"sigma-d", "Inf", "sigma-d"},
		{"model", "gat2", "one of pdn, pdn-linear"},
		{"edge-hidden", "32,16,8,4", "up to 3 sizes"},
		{"edge-hidden", "16,-1", "[1, 256]"},
		{"edge-hidden", "a,b", "edge-hidden"},
		{"lr", "0", "lr"},
		{"seed", "-1", "seed"},
		{"seed", "9007199254740992", "seed"},
		{"epochs", "1e3", "epochs"},
		{"data", "pubmed", "one of synthetic, xor, scale-free, multiplex, cora, citeseer"},
		{"models", "pdn", "2 to 4 of pdn"},
		{"models", "pdn,gcn,mlp,gat,sgc", "2 to 4"},
		{"models", "pdn,gcnn", "models"},
		{"models", "pdn,pdn,pdn,pdn", "each once"},
		{"models", "gcn,pdn,gcn", "each once"},
		{"restarts", "21", "[0, 20]"},
	} {
		t.Run(tc.name+"="+tc.value, func(t *testing.T) {
			e := Default()
			before := e.Encode()
			p, _ := Lookup(tc.name)
			err := p.Set(&e, tc.value)
			if err == nil {
				t.Fatalf("Set(%q) accepted", tc.value)
			}
			if !strings.Contains(err.Error(), tc.wantInErr) || !strings.Contains(err.Error(), tc.name) {
				t.Errorf("error %q does not name %q and %q", err, tc.name, tc.wantInErr)
			}
			if e.Encode() != before {
				t.Errorf("a rejected value changed the experiment")
			}
		})
	}
}

func TestValidateNamesEveryBadField(t *testing.T) {
	e := Default()
	e.Data.Classes = 1
	e.Model.Hidden = 0
	e.Train.LR = 100
	err := e.Validate()
	if err == nil {
		t.Fatal("Validate accepted three bad fields")
	}
	for _, name := range []string{"classes", "hidden", "lr"} {
		if !strings.Contains(err.Error(), name+":") {
			t.Errorf("error %q does not name %s", err, name)
		}
	}
	if err := e.Data.Validate(); err == nil || strings.Contains(err.Error(), "lr") {
		t.Errorf("Data.Validate = %v, want only the data field", err)
	}
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	e := Default()
	e.Data.Graph = GraphLocal // whose columns a link names
	e.Data.Seed = 42
	e.Model.EdgeHidden = []int{32, 16}
	e.Model.Kind = PDN
	e.Train.LR = 0.003
	e.Data.Target = "page type+1 & more" // a space, a plus and an ampersand
	got, err := Decode("#" + e.Encode())
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	if !reflect.DeepEqual(got, e) {
		t.Errorf("round trip = %+v, want %+v", got, e)
	}
}

// A short link reads back as the same state, for every lab and for a
// state far from a lab's start, and holds only what differs from it.
func TestEncodeShortRoundTrip(t *testing.T) {
	far := ForLab("graph")
	far.Data.Seed, far.Model.Hidden, far.View.Threshold = 7, 8, 0.25
	far.Data.Graph, far.Data.Target = GraphLocal, "page type+1 & more"
	states := []Experiment{far}
	for _, l := range Labs {
		states = append(states, ForLab(l.Name))
	}
	for _, e := range states {
		short := e.EncodeShort()
		got, err := Decode(short)
		if err != nil || got.Encode() != e.Encode() {
			t.Errorf("%s read back as %s (%v), want %s", short, got.Encode(), err, e.Encode())
		}
	}
	if got, want := ForLab("degree").EncodeShort(), "lab=degree"; got != want {
		t.Errorf("a lab's start is %q, want %q", got, want)
	}
	if got, want := far.EncodeShort(), "lab=graph&threshold=0.25&data=local&seed=7&target=page%20type%2B1%20%26%20more&hidden=8"; got != want {
		t.Errorf("short link %q, want %q", got, want)
	}
}

func TestLabDefaults(t *testing.T) {
	for _, tc := range []struct {
		link      string
		graph     string
		restarts  int
		models    string
		wantError bool
	}{
		{"", GraphSynthetic, 0, "pdn,gcn", false},
		{"lab=xor", GraphXOR, 4, "pdn,gcn", false},
		{"lab=xor&restarts=2", GraphXOR, 2, "pdn,gcn", false},
		{"restarts=1&lab=xor", GraphXOR, 1, "pdn,gcn", false}, // the link's own rows win wherever they stand
		{"lab=degree&data=synthetic", GraphSynthetic, 0, "pdn,gcn", false},
		{"lab=degree", GraphScaleFree, 0, "pdn,gcn", false},
		{"lab=compare&models=gat,pdn,mlp", GraphSynthetic, 0, "gat,pdn,mlp", false},
		{"lab=nowhere", GraphSynthetic, 0, "pdn,gcn", true},
	} {
		t.Run(tc.link, func(t *testing.T) {
			e, err := Decode(tc.link)
			if (err != nil) != tc.wantError {
				t.Fatalf("error %v, want one: %v", err, tc.wantError)
			}
			if e.Data.Graph != tc.graph || e.Model.Restarts != tc.restarts || strings.Join(e.View.Models, ",") != tc.models {
				t.Errorf("got graph %s, restarts %d, models %v", e.Data.Graph, e.Model.Restarts, e.View.Models)
			}
			if err := e.Validate(); err != nil {
				t.Errorf("does not validate: %v", err)
			}
		})
	}
}

func TestDecodeReplacesBadValuesByDefaults(t *testing.T) {
	got, err := Decode("classes=99&p=0.02&bogus=1&edge-hidden=none&lr=%zz")
	if err == nil {
		t.Fatal("Decode reported nothing")
	}
	for _, s := range []string{"classes", "bogus", "%zz"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not mention %s", err, s)
		}
	}
	if got.Data.Classes != 3 || got.Data.P != 0.02 || got.Model.EdgeHidden != nil || got.Train.LR != 0.01 {
		t.Errorf("Decode kept %+v", got)
	}
	if err := got.Validate(); err != nil {
		t.Errorf("decoded experiment does not validate: %v", err)
	}
}

func TestFlags(t *testing.T) {
	e := Default()
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	RegisterFlags(fs, &e)
	if err := fs.Parse([]string{"-classes", "4", "-edge-hidden", "32,16", "-sigma-d", "0.5"}); err != nil {
		t.Fatal(err)
	}
	if e.Data.Classes != 4 || !reflect.DeepEqual(e.Model.EdgeHidden, []int{32, 16}) || e.Data.SigmaD != 0.5 {
		t.Errorf("flags gave %+v", e)
	}
	err := fs.Parse([]string{"-q", "1"})
	if err == nil || !strings.Contains(err.Error(), "-q") || !strings.Contains(err.Error(), "[0.0009765625, 0.0625]") {
		t.Errorf("bad flag error = %v", err)
	}
}

func TestWhole(t *testing.T) {
	for _, tc := range []struct {
		name  string
		whole bool
	}{{"per-class", true}, {"seed", true}, {"edge-hidden", true}, {"lr", false}, {"dropout", false}, {"data", false}, {"models", false}} {
		p, ok := Lookup(tc.name)
		if !ok || p.Whole() != tc.whole {
			t.Errorf("%s: Whole() = %v, want %v", tc.name, p.Whole(), tc.whole)
		}
	}
}

// Links made before the data row was renamed still open their graph.
func TestRenamedKeys(t *testing.T) {
	e, err := Decode("lab=degree&graph=xor")
	if err != nil || e.Data.Graph != GraphXOR {
		t.Errorf("graph=xor: %s, %v", e.Data.Graph, err)
	}
	if _, err := Decode("graph=xor&data=cora"); err == nil || !strings.Contains(err.Error(), "given more than once") {
		t.Errorf("graph and data both: %v", err)
	}
}

// Every preset is a link the state table reads without a problem, to a lab
// it names.
func TestPresets(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range Presets {
		e, err := Decode(p.Link)
		if err != nil || !strings.Contains(p.Link, "lab="+e.View.Lab) || seen[p.Name] {
			t.Errorf("%s: %q opens lab %s: %v", p.Name, p.Link, e.View.Lab, err)
		}
		seen[p.Name] = true
	}
}

// Every tour step's link opens cleanly, and with the tour rows it names
// its tour and step.
func TestTourLinks(t *testing.T) {
	for _, tour := range Tours {
		if len(tour.Steps) == 0 {
			t.Errorf("tour %s has no step", tour.Name)
		}
		for k := 1; k <= len(tour.Steps); k++ {
			e, err := Decode(tour.StepLink(k))
			if err != nil {
				t.Errorf("%s step %d: %v", tour.Name, k, err)
			}
			if e.View.Tour != tour.Name || e.View.Step != k {
				t.Errorf("%s step %d decodes as %s step %d", tour.Name, k, e.View.Tour, e.View.Step)
			}
			if back, _ := Decode(e.Encode()); back.Encode() != e.Encode() {
				t.Errorf("%s step %d does not survive a permalink", tour.Name, k)
			}
		}
	}
	if _, err := Decode("tour=nowhere&step=99"); err == nil || !strings.Contains(err.Error(), "tour:") || !strings.Contains(err.Error(), "step:") {
		t.Errorf("a bad tour and step are not reported by name: %v", err)
	}
}

// A step beyond its tour's end is reported and becomes the last, so the
// link says what the page shows.
func TestStepBeyondTheTour(t *testing.T) {
	tour, _ := TourNamed("graph")
	n := len(tour.Steps)
	e, err := Decode("tour=graph&step=6")
	if e.View.Step != n || err == nil || !strings.Contains(err.Error(), "step: 6 is beyond the graph tour's 4 steps; using its last, 4") {
		t.Errorf("step 6 of the graph tour: step %d, %v", e.View.Step, err)
	}
	if !strings.Contains(e.Encode(), "step=4") {
		t.Errorf("the permalink %q keeps the step beyond the end", e.Encode())
	}
	// Without a tour no one reads the step: the link is told so.
	for _, link := range []string{"tour=none&step=6", "step=99"} {
		if e, err := Decode(link); err == nil || e.View.Step != 1 || !strings.Contains(err.Error(), "step: read only when tour names a tour; tour is none; it keeps 1") {
			t.Errorf("%s: step %d, %v", link, e.View.Step, err)
		}
	}
	if e, err := Decode("tour=paper&step=99"); e.View.Step != 6 || err == nil || !strings.Contains(err.Error(), "step: 99 is beyond the paper tour's 6 steps; using its last, 6") {
		t.Errorf("step 99 of the paper tour (audit 172): step %d, %v", e.View.Step, err)
	}
}
