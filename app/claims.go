package app

import (
	"math"
	"slices"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/experiment"
	"pdnexplorer/wasm/protocol"
)

// renderClaims shows each finding the lab states (experiment.ClaimsOf)
// with the verdict of the runs on screen: the sentence, the numbers it
// was checked on, and whether it holds in this run, as
// data-metric="claim" with data-claim and data-value 1 or 0 (empty while
// the runs are short of their epochs). A claim whose state the lab's
// rows no longer match says which rows differ instead of a verdict.
func (l *lab) renderClaims() app.UI {
	claims := experiment.ClaimsOf(l.row.Name)
	if len(claims) == 0 {
		return app.Div().Class("claims-none")
	}
	figs := l.figures()
	var items []app.UI
	for _, c := range claims {
		if item := l.renderClaim(c, figs); item != nil {
			items = append(items, item)
		}
	}
	if len(items) == 0 {
		return app.Div().Class("claims-none")
	}
	return app.Section().Class("card claims").ID("claims").Body(
		app.H3().Text(tr("What the paper found, checked on this run")),
		app.Ul().Body(items...),
	)
}

// renderClaim is one claim's line; nil for a claim of another state of
// the lab (a preset's) when the lab's rows are not its.
func (l *lab) renderClaim(c experiment.Claim, figs map[string]experiment.Figures) app.UI {
	differ := claimRowsDiffer(c, l.st)
	if len(differ) > 0 && !c.LabDefault() {
		return nil
	}
	v := c.Judge(figs)
	value, verdict, class := "", "", "claim-open"
	switch {
	case len(differ) > 0:
		verdict = trf("Not checked here: this run's %s differ from the claim's.", strings.Join(differ, ", "))
	case !v.Decided:
		verdict = tr("Not yet decidable: the runs have not trained all their epochs.")
	case v.Holds:
		value, verdict, class = "1", tr("Holds in this run."), "claim-holds"
	case c.Need < c.Seeds:
		// A rate: this run may be one of the misses the claim allows.
		value, verdict, class = "1", trf("Not in this run, which the claim allows: it holds %s.", say(c.Rate())), "claim-holds"
	default:
		value, verdict, class = "0", tr("Not in this run: another seed, fewer epochs or a changed row can undo it."), "claim-fails"
	}
	body := []app.UI{
		app.Strong().Text(tr(c.Text)),
		app.Text(" "),
		app.Span().Class("claim-verdict").Text(verdict),
	}
	if v.Decided && len(differ) == 0 {
		body = append(body, app.Text(" "), app.Span().Class("claim-numbers").Text(say(v.Numbers)))
	}
	body = append(body, app.Br(), app.Small().Text(trf("Paper: %s", tr(c.Paper))))
	if c.Differs != "" {
		body = append(body, app.Br(), app.Small().Class("claim-differs").Text(tr(c.Differs)))
	}
	return app.Li().Class(class).DataSet("metric", "claim").DataSet("claim", c.ID).DataSet("value", value).Body(body...)
}

// verdictOf is the verdict of the claim called id in the lab's runs;
// false where the claim is another lab's or the lab's rows are not the
// claim's.
func (l *lab) verdictOf(id string) (experiment.Verdict, bool) {
	c, ok := experiment.ClaimNamed(id)
	if !ok || c.Lab() != l.row.Name || len(claimRowsDiffer(c, l.st)) > 0 {
		return experiment.Verdict{}, false
	}
	return c.Judge(l.figures()), true
}

// figures are the figures of the lab's runs that have a snapshot.
func (l *lab) figures() map[string]experiment.Figures {
	figs := map[string]experiment.Figures{}
	for _, r := range l.runs {
		if r.snapped {
			figs[r.Name] = figuresOf(r)
		}
	}
	return figs
}

// noteVerdicts tells the shell when the verdicts of the lab's claims
// change (decided, or flipped), and only then: the shell's tour panel
// shows a question's answer from them.
func (l *lab) noteVerdicts() {
	if l.page.verdicts == nil {
		return
	}
	var sig []byte
	figs := l.figures()
	for _, c := range experiment.ClaimsOf(l.row.Name) {
		v := c.Judge(figs)
		sig = append(sig, byte('0'+btoi(v.Decided)), byte('0'+btoi(v.Holds)))
	}
	if string(sig) != l.verdictSig {
		l.verdictSig = string(sig)
		l.page.verdicts()
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// claimRowsDiffer names the rows the engine reads in which st differs
// from the claim's state at st's seed (the seeds themselves are the
// claim's rate, not a difference).
func claimRowsDiffer(c experiment.Claim, st experiment.Experiment) []string {
	want := c.State(st.Data.Seed)
	want.Train.Seed = st.Train.Seed
	var out []string
	for _, p := range experiment.Params {
		if p.Group == experiment.GroupView {
			continue
		}
		if p.Get(&want) != p.Get(&st) {
			out = append(out, p.Name)
		}
	}
	if !slices.Equal(experiment.RunNamesOf(want), experiment.RunNamesOf(st)) {
		out = append(out, "models") // the lab trains other runs than the claim reads
	}
	return out
}

// figuresOf are a run's figures as its latest snapshot carries them.
func figuresOf(r *run) experiment.Figures {
	s := r.snap
	f := experiment.Figures{Epoch: s.Epoch, Epochs: s.Epochs, TestAcc: float64(s.TestAcc),
		WIntra: float64(s.WIntra), WInter: float64(s.WInter), Inputs: s.Inputs, Hops: s.Hops,
		InputHomophily: float64(s.InputHomophily), LearnedHomophily: float64(s.LearnedHomophily)}
	f.InputNames = inputNames(r, len(s.Inputs))
	if s.XOR != nil {
		f.XOR, f.XORFound = true, s.XOR.Found
	}
	for _, b := range s.Degree {
		f.DegreeMeans = append(f.DegreeMeans, float64(b.Mean))
	}
	f.Saturated = math.NaN()
	if sp := s.Spread; sp != nil {
		f.IntraDeciles, f.InterDeciles, f.Saturated = floats(sp.Intra), floats(sp.Inter), float64(sp.Saturated)
	}
	return f
}

// floats are xs as float64, nil for none.
func floats(xs []protocol.Num) []float64 {
	if len(xs) == 0 {
		return nil
	}
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = float64(x)
	}
	return out
}
