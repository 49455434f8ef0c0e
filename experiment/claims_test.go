package experiment

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"pdnexplorer/tiestrength"
)

// Every claim names runs its lab makes, a rate it can be checked at and
// words for the page.
func TestClaimsAreWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range Claims {
		switch {
		case seen[c.ID]:
			t.Errorf("claim %s twice", c.ID)
		case c.Text == "" || c.Paper == "" || c.Check == nil:
			t.Errorf("claim %s lacks its sentence, paper or check", c.ID)
		case c.Need < 1 || c.Need > c.Seeds || c.Most != 0 && (c.Most < c.Need || c.Most >= c.Seeds):
			t.Errorf("claim %s: rate %d..%d of %d", c.ID, c.Need, c.Most, c.Seeds)
		case c.TestSeeds > c.Seeds:
			t.Errorf("claim %s tests %d of its %d seeds", c.ID, c.TestSeeds, c.Seeds)
		case len(c.RunNames()) == 0:
			t.Errorf("claim %s reads no runs", c.ID)
		}
		seen[c.ID] = true
		if _, err := Decode(c.Link); err != nil {
			t.Errorf("claim %s: %v", c.ID, err)
		}
	}
}

// A claim is undecided until every run it reads has trained all of its
// epochs, and its check decides after.
func TestClaimJudgesTrainedRunsOnly(t *testing.T) {
	c, _ := ClaimNamed("pdn-beats-gcn")
	runs := map[string]Figures{PDN: {Epoch: 100, Epochs: 200, TestAcc: 0.95}, GCN: {Epoch: 200, Epochs: 200, TestAcc: 0.6}}
	if v := c.Judge(runs); v.Decided || v.Holds {
		t.Errorf("half-trained: %+v", v)
	}
	runs[PDN] = Figures{Epoch: 200, Epochs: 200, TestAcc: 0.95}
	if v := c.Judge(runs); !v.Decided || !v.Holds || !strings.Contains(v.Numbers.String(), "0.950") {
		t.Errorf("trained: %+v", v)
	}
	runs[GCN] = Figures{Epoch: 200, Epochs: 200, TestAcc: 0.9}
	if v := c.Judge(runs); !v.Decided || v.Holds {
		t.Errorf("GCN at 0.9: %+v", v)
	}
}

func TestClaimRates(t *testing.T) {
	for _, tc := range []struct {
		c       Claim
		held, n int
		want    bool
	}{
		{Claim{Seeds: 10, Need: 10}, 3, 3, true},
		{Claim{Seeds: 10, Need: 10}, 2, 3, false},
		{Claim{Seeds: 10, Need: 9}, 2, 3, true},
		{Claim{Seeds: 10, Need: 1, Most: 9}, 0, 10, false},
		{Claim{Seeds: 10, Need: 1, Most: 9}, 10, 10, false},
		{Claim{Seeds: 10, Need: 1, Most: 9}, 2, 10, true},
	} {
		if got := tc.c.Allows(tc.held, tc.n); got != tc.want {
			t.Errorf("%+v: %d of %d allowed %v", tc.c, tc.held, tc.n, got)
		}
	}
}

// A tour step's short link opens the step's own state, the same as its
// full link (and as Next and Back reach it), and its short link written
// back opens the same state again.
func TestTourStepShortLinksOpenTheirStep(t *testing.T) {
	for _, tour := range Tours {
		for k := range tour.Steps {
			short := "tour=" + tour.Name + "&step=" + strconv.Itoa(k+1)
			got, err := Decode(short)
			if err != nil {
				t.Fatalf("%s: %v", short, err)
			}
			want, _ := Decode(tour.StepLink(k + 1))
			if got.Encode() != want.Encode() {
				t.Errorf("%s opens\n%s\nwant\n%s", short, got.Encode(), want.Encode())
			}
			if again, _ := Decode(got.EncodeShort()); again.Encode() != got.Encode() {
				t.Errorf("%s: its short link %s opens another state", short, got.EncodeShort())
			}
		}
	}
	g, _ := Decode("tour=graph&step=2")
	if g.View.Lab != "graph" || g.View.Threshold != 0.5 {
		t.Errorf("the graph tour's step 2 opens lab %s at threshold %v", g.View.Lab, g.View.Threshold)
	}
	x, _ := Decode("tour=paper&step=4")
	if x.View.Lab != "xor" || x.Data.Graph != GraphXOR {
		t.Errorf("the paper tour's step 4 opens lab %s on %s", x.View.Lab, x.Data.Graph)
	}
	// A row the link gives still wins over the step's.
	if y, _ := Decode("tour=graph&step=2&threshold=0.25"); y.View.Threshold != 0.25 {
		t.Errorf("threshold %v, want the link's 0.25", y.View.Threshold)
	}
}

// The attention lab keeps the paper's dropout on Cora, which the
// bag-of-words recipe would otherwise raise (claim fig8-degree-product),
// while its weight decay follows the recipe.
func TestLabDefaultsWinOverTheRecipe(t *testing.T) {
	a := ForLab("attention")
	if a.Model.Dropout != 0.5 || a.Train.WeightDecay != 0.005 {
		t.Errorf("attention lab: dropout %v, weight decay %v", a.Model.Dropout, a.Train.WeightDecay)
	}
	c, _ := Decode("lab=compare&data=cora")
	if c.Model.Dropout != 0.9 || c.Train.WeightDecay != 0.005 {
		t.Errorf("compare lab on Cora: dropout %v, weight decay %v", c.Model.Dropout, c.Train.WeightDecay)
	}
}

func TestRecipeFollowsTheGraph(t *testing.T) {
	e := Default()
	prev := e.Data
	e.Data.Graph = GraphCora
	e.FollowData(prev)
	if e.Model.Dropout != 0.9 || e.Train.WeightDecay != 0.005 {
		t.Errorf("to Cora: %v %v", e.Model.Dropout, e.Train.WeightDecay)
	}
	prev = e.Data
	e.Data.Graph = GraphLocal
	e.FollowData(prev) // one's own files: their features decide once read
	if e.Model.Dropout != 0.9 {
		t.Errorf("to local: %v", e.Model.Dropout)
	}
	e.FollowRecipe(RecipeBagOfWords, RecipePaper)
	if e.Model.Dropout != 0.5 || e.Train.WeightDecay != 0 {
		t.Errorf("files of Gaussian features: %v %v", e.Model.Dropout, e.Train.WeightDecay)
	}
}

// A tour step's question reads a claim its own run decides: the claim is
// of the step's lab and state (the seeds aside), and both answers name a
// choice.
func TestTourQuestionsReadTheirStepsClaims(t *testing.T) {
	asked := 0
	for _, tour := range Tours {
		for k, step := range tour.Steps {
			q := step.Question
			if q == nil {
				continue
			}
			asked++
			c, ok := ClaimNamed(q.Claim)
			if !ok {
				t.Errorf("%s step %d asks about claim %s, which the table lacks", tour.Name, k+1, q.Claim)
				continue
			}
			st, _ := Decode(tour.StepLink(k + 1))
			want := c.State(st.Data.Seed)
			want.Train.Seed = st.Train.Seed
			if st.EncodeRun() != want.EncodeRun() || st.View.Lab != c.Lab() {
				t.Errorf("%s step %d: its state is not claim %s's:\n%s\n%s", tour.Name, k+1, c.ID, st.EncodeRun(), want.EncodeRun())
			}
			if len(q.Choices) < 2 || q.IfHolds < 0 || q.IfHolds >= len(q.Choices) || q.IfNot < 0 || q.IfNot >= len(q.Choices) || q.IfHolds == q.IfNot {
				t.Errorf("%s step %d: choices %v, answers %d and %d", tour.Name, k+1, q.Choices, q.IfHolds, q.IfNot)
			}
		}
	}
	if asked < 5 {
		t.Errorf("%d questions in the tours", asked)
	}
}

// Every claim's families are in the table, each once, its own first; a
// family the page states a difference on says what it states; and each
// family's representative is a graph of that family, so that the page,
// which finds the family from the rows (Claim.CheckOn), finds the one the
// command checked.
func TestClaimsNameTheirFamilies(t *testing.T) {
	for _, c := range Claims {
		seen := map[string]bool{}
		for i, k := range c.Checks() {
			switch {
			case k.Family.Name == "":
				t.Errorf("claim %s: check %d on no family (its link's graph is of no family)", c.ID, i)
			case seen[k.Family.Name]:
				t.Errorf("claim %s: family %s twice", c.ID, k.Family.Name)
			case k.Home != (i == 0):
				t.Errorf("claim %s: check %d on %s home %v", c.ID, i, k.Family.Name, k.Home)
			case k.Need < 1 || k.Need > k.Seeds || k.TestSeeds > k.Seeds:
				t.Errorf("claim %s on %s: rate %d of %d, test %d", c.ID, k.Family.Name, k.Need, k.Seeds, k.TestSeeds)
			}
			seen[k.Family.Name] = true
			// The state made once is the claim's at any seed, on the family.
			want := c.State(3)
			if !k.Home {
				want = k.Family.Apply(want)
			}
			if got := k.State(3); got.Encode() != want.Encode() {
				t.Errorf("claim %s on %s at seed 3: state %s, want %s", c.ID, k.Family.Name, got.Encode(), want.Encode())
			}
			if k.Family.Folder == "" {
				if got := FamilyOf(k.State(1).Data); got != k.Family.Name {
					t.Errorf("claim %s on %s: its state's graph is of family %q", c.ID, k.Family.Name, got)
				}
				if back, ok := c.CheckOn(k.State(2)); !ok || back.Family.Name != k.Family.Name {
					t.Errorf("claim %s on %s: the page finds check %+v, %v", c.ID, k.Family.Name, back.Family.Name, ok)
				}
			}
		}
	}
}

// Each family's representative, drawn from any lab's state, is a graph of
// that family, and its recipe follows the graph as the page's rows do.
func TestFamiliesDrawTheirKindOfGraph(t *testing.T) {
	for _, f := range Families {
		for _, lab := range labNames() {
			e := f.Apply(ForLab(lab))
			if f.Folder != "" {
				if e.Data.Graph != GraphLocal {
					t.Errorf("family %s on lab %s: graph %s, want local", f.Name, lab, e.Data.Graph)
				}
				continue
			}
			if got := FamilyOf(e.Data); got != f.Name {
				t.Errorf("family %s on lab %s: drew a graph of family %q", f.Name, lab, got)
			}
		}
	}
	cora, _ := FamilyNamed("cora")
	if e := cora.Apply(Default()); e.Model.Dropout != 0.9 || e.Train.WeightDecay != 0.005 {
		t.Errorf("Cora's representative trains at dropout %v, weight decay %v: not the bag-of-words recipe", e.Model.Dropout, e.Train.WeightDecay)
	}
}

// Where the page states that a finding does not hold on a family, a seed
// agrees with it when the finding fails there, and the rate counts those.
func TestADifferenceIsCheckedAsTheFindingIs(t *testing.T) {
	c, _ := ClaimNamed("inter-fades")
	var differs Checked
	for _, k := range c.Checks() {
		if !k.Stated() {
			differs = k
			break
		}
	}
	if differs.Family.Name == "" {
		t.Fatal("inter-fades states no difference on any family")
	}
	held, failed := Verdict{Decided: true, Holds: true}, Verdict{Decided: true}
	if differs.AsStated(held) || !differs.AsStated(failed) || differs.AsStated(Verdict{}) {
		t.Error("a difference is as stated when the finding holds, or undecided")
	}
	if home := c.Checks()[0]; !home.AsStated(held) || home.AsStated(failed) {
		t.Error("the finding is as stated when it fails")
	}
	if !differs.Allows(differs.Seeds, differs.Seeds) || differs.Allows(differs.Need-1, differs.Seeds) {
		t.Errorf("rate %s: allows all, not fewer than need", differs.Rate())
	}
}

// Figure 8's row reads the four scores the paper's text names by name:
// the attention seen on Cora's scaled scores holds; the raw scores'
// (common neighbours at an even share) and a min overlap the paper would
// call high do not.
func TestFigure8Parts(t *testing.T) {
	names := tiestrength.Names // adamic-adar … resource-allocation
	for _, tc := range []struct {
		name   string
		inputs []float64
		holds  bool
	}{
		{"scaled, as measured on Cora", []float64{0.088, 0.097, 0.089, 0.095, 0.068, 0.096, 0.097, 0.092, 0.097, 0.096, 0.086}, true},
		{"raw: common neighbours at an even share", []float64{0.094, 0.097, 0.096, 0.097, 0.037, 0.097, 0.097, 0.096, 0.097, 0.097, 0.096}, false},
		{"min overlap the most attended", []float64{0.088, 0.097, 0.089, 0.095, 0.068, 0.096, 0.094, 0.101, 0.092, 0.096, 0.086}, false},
		{"association strength under the median", []float64{0.088, 0.090, 0.089, 0.095, 0.068, 0.096, 0.097, 0.092, 0.097, 0.096, 0.086}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := figure8Parts(Figures{InputNames: names, Inputs: tc.inputs})
			if strings.Contains(v.Numbers.String(), "NaN") {
				t.Errorf("numbers %s", v.Numbers)
			}
			if !v.Decided || v.Holds != tc.holds {
				t.Errorf("holds %v, want %v (%s)", v.Holds, tc.holds, v.Numbers)
			}
		})
	}
	// A generated graph's anonymous inputs: the scores are not there.
	v := figure8Parts(Figures{InputNames: []string{"1", "2"}, Inputs: []float64{0.4, 0.6}})
	if v.Holds || !strings.Contains(v.Numbers.String(), "no degree product") {
		t.Errorf("without the scores: holds %v, %s", v.Holds, v.Numbers)
	}
}

// TestClaimLinksAreReadOnce: the page judges every claim its lab states
// on each render (the card, the lines beside the figures), so what a
// claim's link says, and what follows from it and the tables alone
// (its lab, runs and checks, whether a lab's pool decides it), is worked
// out once and handed out as a copy. Decoding it
// again allocates hundreds of times (every row of the table set from the
// link); a copy allocates its two slices, a lookup its key.
func TestClaimLinksAreReadOnce(t *testing.T) {
	for _, c := range Claims {
		c.State(1) // the first ask decodes
		cases := map[string]func(){
			"State":      func() { _ = c.State(7) },
			"Lab":        func() { _ = c.Lab() },
			"LabDefault": func() { _ = c.LabDefault() },
			"RunNames":   func() { _ = c.RunNames() },
			"Checks":     func() { _ = c.Checks() },
		}
		for _, l := range Labs {
			PoolDecides(l.Name, c)
			cases["PoolDecides "+l.Name] = func() { _ = PoolDecides(l.Name, c) }
		}
		for name, f := range cases {
			if n := testing.AllocsPerRun(3, f); n > 10 {
				t.Errorf("claim %s: %s allocates %.0f times an ask: its link is decoded again", c.ID, name, n)
			}
		}
		// The copy handed out shares nothing with the one kept.
		e := c.State(1)
		if len(e.Model.EdgeHidden) > 0 {
			e.Model.EdgeHidden[0]++
		}
		if len(e.View.Models) > 0 {
			e.View.Models[0] = "changed"
		}
		if again := c.State(1); slices.Contains(again.View.Models, "changed") ||
			len(again.Model.EdgeHidden) > 0 && again.Model.EdgeHidden[0] == e.Model.EdgeHidden[0] {
			t.Errorf("claim %s: a change to the state handed out changed the claim's", c.ID)
		}
	}
}

// A claim changed in a field its facts read (a test's copy of a row) is
// worked out anew, not answered from the row's kept facts.
func TestClaimChangedIsWorkedOutAnew(t *testing.T) {
	for _, c := range Claims {
		for _, l := range Labs {
			PoolDecides(l.Name, c)
		}
		changed := c
		changed.OnResults = !c.OnResults
		changed.Seeds++
		for _, l := range Labs {
			_, _, want := PoolCheck(changed, 1, 1, startKeys(l.Name))
			if got := PoolDecides(l.Name, changed); got != want {
				t.Errorf("claim %s changed: the %s lab's pool decides it %v, PoolCheck says %v", c.ID, l.Name, got, want)
			}
		}
		if k := changed.Checks(); k[0].Seeds != c.Seeds+1 {
			t.Errorf("claim %s with %d seeds: its check keeps %d", c.ID, changed.Seeds, k[0].Seeds)
		}
	}
}
