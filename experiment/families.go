package experiment

import (
	"slices"
	"strings"
	"sync"

	"pdnexplorer/i18n/phrase"
)

// Family is a kind of graph the page states findings for, checked on one
// representative of it. A claim names the families it is stated for (its
// Link's own, FamilyOf, and the families of its On rows) and `pdn claims`
// checks it on each: a finding checked on the generator's graph says
// nothing of a citation graph until it is checked there.
//
// The representative is the claim's state with its data rows replaced by
// the family's Rows (Family.Apply), the recipe following the graph as it
// does when a reader changes the graph in the page (FollowData). A family
// with no generator and no shipped graph (Folder) is read from a folder
// the command line is given; the page never states a finding for it.
type Family struct {
	Name string
	// Label names the family in words, a catalogue key.
	Label string
	// Rows are the data rows that draw the representative, as a link's
	// query; "" is the table's defaults.
	Rows string
	// Folder, where set, says the representative is read from a folder
	// (pdn claims -folder NAME=DIR) and what the folder holds.
	Folder string
	// Recipe is the recipe of a Folder family's representative: its
	// features decide it once read, and the command checks they do.
	Recipe string
}

// Families are the kinds of graph the page speaks of, each with its
// representative. A claim on a family it does not name is not checked,
// and the page does not state it there.
var Families = []Family{
	{Name: "generator", Label: "the paper's generator (P > Q, Appendix A's defaults)"},
	{Name: "cora", Label: "a bag-of-words citation graph (Cora)", Rows: "data=cora"},
	{Name: "citeseer", Label: "a bag-of-words citation graph (Citeseer)", Rows: "data=citeseer"},
	{Name: "facebook", Label: "a social graph with heavy-tailed degrees (Facebook Page-Page)", Rows: "data=local",
		Folder: "a MUSAE Facebook Page-Page folder (edges.csv, target.csv, features.json)", Recipe: RecipeBagOfWords},
	{Name: "scale-free", Label: "a generated graph with heavy-tailed degrees (preferential attachment)", Rows: "data=scale-free"},
	{Name: "multiplex", Label: "a generated multiplex graph whose edge features are its named layers, some carrying the classes and some noise", Rows: "data=multiplex"},
	{Name: "xor", Label: "the XOR graph: two binary layers whose XOR says an edge's kind (§4.1.1)", Rows: "data=xor"},
	{Name: "heterophilic", Label: "a generated heterophilic graph (Q = 4P)", Rows: "p=0.005&q=0.02"},
	{Name: "misleading", Label: "a generated graph whose node features separate the classes and whose edges mostly join different ones", Rows: "q=0.015&sigma-f=0.5&node-features=64"},
}

// FamilyNamed returns the family called name.
func FamilyNamed(name string) (Family, bool) {
	return rowNamed(Families, func(f Family) string { return f.Name }, name)
}

// FamilyNames are the families' names, in the table's order.
func FamilyNames() []string {
	var out []string
	for _, f := range Families {
		out = append(out, f.Name)
	}
	return out
}

// Apply returns e with its data rows those of f's representative: every
// data row back to the table's default but the seed, then f's Rows, the
// training rows following the graph's recipe as the page's do.
func (f Family) Apply(e Experiment) Experiment {
	prev := e.Data
	e.Data = Default().Data
	e.Data.Seed = prev.Seed
	for _, kv := range strings.Split(f.Rows, "&") {
		if kv == "" {
			continue
		}
		k, v, _ := strings.Cut(kv, "=")
		p, ok := Lookup(k)
		if !ok {
			panic("experiment: family " + f.Name + ": no row " + k)
		}
		if err := p.Set(&e, v); err != nil {
			panic("experiment: family " + f.Name + ": " + err.Error())
		}
	}
	e.FollowData(prev)
	if f.Recipe != "" {
		e.FollowRecipe(prev.Recipe(), f.Recipe)
	}
	return e
}

// FamilyOf names the family of d's graph: a shipped or generated graph's
// by its rows; "" for one's own files, whose kind no row says. The
// generator's graphs split by their rows: more edges between classes
// than within (Q > P) is heterophilic, and with node features that alone
// separate the classes (σF ≤ 1) misleading.
func FamilyOf(d Data) string {
	switch d.Graph {
	case GraphCora, GraphCiteseer, GraphScaleFree:
		return d.Graph
	case GraphMultiplex:
		return "multiplex"
	case GraphXOR:
		return "xor"
	case GraphLocal:
		return ""
	}
	switch {
	case d.Q > d.P && d.SigmaF <= 1:
		return "misleading"
	case d.Q > d.P:
		return "heterophilic"
	}
	return "generator"
}

// On is a claim checked on a family other than its Link's own.
type On struct {
	Family string
	// Differs, where set, is the page's statement that the finding does
	// not hold on this family and what happens there instead, with the
	// numbers (a catalogue key). The check must then fail there at the
	// rate: the statement of the difference is checked as the finding is.
	Differs string
	// Seeds and Need are the rate there where it is not the claim's (a
	// graph of 22,470 nodes affords fewer seeds), 0 for the claim's.
	Seeds, Need int
}

// Checked is one claim on one family: the unit `pdn claims` lists and
// checks.
type Checked struct {
	Claim  Claim
	Family Family
	// Home is true for the family of the claim's own Link.
	Home bool
	// Differs is "" where the finding is stated to hold on the family,
	// else the page's statement of what happens there instead.
	Differs string
	// Seeds, Need, Most, TestSeeds: the rate on this family (see Claim).
	Seeds, Need, Most, TestSeeds int
	// state is the state the check reads at seed 1 (State).
	state Experiment
}

// Checks are the claim's checks, one a family it names: its Link's own
// first, then its On rows in order. They are made once a claim (the
// page asks for them at every render of a lab's claims, and each state
// is a link decoded and a family applied).
func (c Claim) Checks() []Checked {
	key := c.memoKey()
	if v, ok := checksMade.Load(key); ok {
		return v.([]Checked)
	}
	out := c.makeChecks()
	checksMade.Store(key, out)
	return out
}

// checksMade holds each claim's checks by its memoKey.
var checksMade sync.Map

// makeChecks makes the claim's checks, each with its state at seed 1.
func (c Claim) makeChecks() []Checked {
	own := c.State(1)
	home, _ := FamilyNamed(FamilyOf(own.Data))
	out := []Checked{{Claim: c, Family: home, Home: true,
		Seeds: c.Seeds, Need: c.Need, Most: c.Most, TestSeeds: c.TestSeeds, state: own}}
	for _, o := range c.On {
		f, ok := FamilyNamed(o.Family)
		if !ok {
			panic("experiment: claim " + c.ID + ": no family " + o.Family)
		}
		k := Checked{Claim: c, Family: f, Differs: o.Differs, Seeds: c.Seeds, Need: c.Need, TestSeeds: c.TestSeeds, state: f.Apply(c.State(1))}
		if o.Differs == "" {
			k.Most = c.Most
		}
		if o.Seeds > 0 {
			k.Seeds, k.Need, k.TestSeeds = o.Seeds, o.Need, min(c.TestSeeds, o.Seeds)
		}
		out = append(out, k)
	}
	return out
}

// State is the state the check reads at seed s: the claim's, on the
// family's representative, with the seed and init-seed rows both s (as
// Claim.State: a family keeps the claim's seeds).
func (k Checked) State(s uint64) Experiment { return k.state.atSeed(s) }

// Stated reports whether the page states the finding itself on this
// family, rather than its difference.
func (k Checked) Stated() bool { return k.Differs == "" }

// AsStated is whether one seed's verdict agrees with what the page
// states on the family: the finding where it is stated to hold, its
// failure where the page states the difference.
func (k Checked) AsStated(v Verdict) bool {
	return v.Decided && v.Holds == k.Stated()
}

// Allows reports whether as-stated seeds of n (n ≤ Seeds) are within the
// check's rate (Claim.Allows).
func (k Checked) Allows(asStated, n int) bool {
	if n-asStated > k.Seeds-k.Need {
		return false
	}
	return k.Most == 0 || asStated <= k.Most
}

// Rate says the check's rate in words; where the page states the
// difference it is the rate at which the finding fails.
func (k Checked) Rate() phrase.Text {
	c := k.Claim
	c.Seeds, c.Need, c.Most = k.Seeds, k.Need, k.Most
	return c.Rate()
}

// ChecksOf are the checks of every claim, in the table's order.
func ChecksOf(claims []Claim) []Checked {
	var out []Checked
	for _, c := range claims {
		out = append(out, c.Checks()...)
	}
	return out
}

// CheckOn returns the claim's check on the family of state e: its home's
// or an On row's whose representative e is (the same rows the engine
// reads, but the seeds); false where the claim is not checked on e's
// graph, and the page then does not state it.
func (c Claim) CheckOn(e Experiment) (Checked, bool) {
	have := e.EncodeRun()
	for _, k := range c.Checks() {
		if k.Family.Folder != "" {
			continue // one's own files: no row says it is this family
		}
		want := k.State(e.Data.Seed)
		want.Train.Seed = e.Train.Seed
		if want.EncodeRun() == have && slices.Equal(RunNamesOf(want), RunNamesOf(e)) {
			return k, true
		}
	}
	return Checked{}, false
}
