package app

import (
	"math"
	"reflect"
	"slices"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/experiment"
	"pdnexplorer/wasm/protocol"
)

// renderClaims shows each finding the lab states (experiment.ClaimsShownBy)
// with the verdict of its runs: the runs on screen, or those the lab's
// pool trains each to its end (the structure lab's robustness and
// transfer claims, decided on their results): the sentence, the numbers
// it was checked on, and whether it holds in this run, as
// data-metric="claim" with data-claim, data-read (live or pool) and
// data-value 1 or 0 (empty while the runs are short of their epochs or
// not yet trained). A claim whose state the lab's rows no longer match
// says which rows differ instead of a verdict.
func (l *lab) renderClaims() app.UI {
	claims := experiment.ClaimsShownBy(l.row.Name)
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
// the lab (a preset's) when the lab's rows are not its. On a family of
// graphs the claim is checked on (experiment.Claim.CheckOn) the line says
// which family and what the page states there: the finding, or, where it
// does not hold on that family, what happens instead. On a graph of no
// family it was checked on the finding is never stated: the lab's own
// claim, and one its pool decides as it opens, says which rows differ, a
// preset's is not shown.
func (l *lab) renderClaim(c experiment.Claim, figs map[string]experiment.Figures) app.UI {
	j, ok := l.judgeClaim(c, figs)
	if !ok {
		return nil
	}
	var numbers app.UI
	if j.numbers != "" {
		numbers = app.Span().Class("claim-numbers").Text(j.numbers)
	}
	return claimItem(c, j.k, j.value, j.verdict, j.class, j.statement, numbers).DataSet("read", j.read.String())
}

// judged is a claim as the lab states it: where its runs were read,
// data-value ("1", "0", "" while open), the verdict, its class, the
// statement (the finding, or what happens instead on the family the
// graph is of) and the numbers read.
type judged struct {
	k                                         experiment.Checked
	read                                      claimRead
	value, verdict, class, statement, numbers string
}

// judgeClaim states claim c on the lab's runs (judge), the one place the
// claims card and the lines on the figures (beside) put a verdict in
// words; false for a claim of another state (a preset's) when the lab's
// rows are not its.
func (l *lab) judgeClaim(c experiment.Claim, figs map[string]experiment.Figures) (judged, bool) {
	k, v, read := l.judge(c, figs)
	if read == notRead {
		differ := l.claimDiffers(c)
		if len(differ) == 0 {
			return judged{}, false
		}
		verdict := trf("Not checked here: this run's %s differ from the claim's.", strings.Join(differ, ", "))
		return judged{k: k, verdict: verdict, class: "claim-open", statement: tr(c.Text)}, true
	}
	j := judged{k: k, read: read, class: "claim-open", statement: tr(c.Text)}
	switch {
	case !v.Decided && read == readPooled:
		done, of := l.pooledDone(c)
		j.verdict = trf("Not yet decidable: %d of its %d runs have trained to their end on the pool below.", done, of)
	case !v.Decided:
		j.verdict = tr("Not yet decidable: the runs have not trained all their epochs.")
	case k.AsStated(v):
		j.value, j.verdict, j.class = "1", tr("Holds in this run."), "claim-holds"
	case k.Need < k.Seeds:
		// A rate: this run may be one of the misses the claim allows.
		j.value, j.verdict, j.class = "1", trf("Not in this run, which the claim allows: it holds %s.", say(k.Rate())), "claim-holds"
	default:
		j.value, j.verdict, j.class = "0", tr("Not in this run: another seed, fewer epochs or a changed row can undo it."), "claim-fails"
	}
	if !k.Stated() {
		j.statement = tr(k.Differs)
	}
	if v.Decided {
		j.numbers = say(v.Numbers)
	}
	return j, true
}

// beside is the verdict, on the runs on screen, of each claim the lab
// states that reads the figure called figure (experiment.Claim.Figure),
// for the figure's card to show under its title: a lab's findings stand
// where their figures are, on the screen a tour's question points at,
// not only in the claims card below. Each line is
// data-metric="claim-beside" with data-claim and data-value as in the
// card; it is hidden until the runs decide it. A claim decided on the
// lab's pool is not the figure's: its line is the card's alone.
func (l *lab) beside(figure string) app.UI {
	var lines []app.UI
	var figs map[string]experiment.Figures // read once, and only for a figure some claim reads: beside is on every card's render
	for _, c := range experiment.ClaimsShownBy(l.row.Name) {
		if c.Figure != figure {
			continue
		}
		if figs == nil {
			figs = l.figures()
		}
		j, ok := l.judgeClaim(c, figs)
		if !ok || j.read == readPooled {
			continue
		}
		lines = append(lines, app.P().Class("claim-beside "+j.class).DataSet("metric", "claim-beside").DataSet("claim", c.ID).DataSet("value", j.value).
			Hidden(j.value == "").Body(
			app.Strong().Class("claim-verdict").Text(j.verdict), app.Text(" "), app.Span().Text(j.statement), app.Text(" "),
			app.Span().Class("claim-numbers").Text(j.numbers)))
	}
	return app.Div().Class("beside-claims").Body(lines...)
}

// claimItem is a claim's line: the statement, the verdict of the runs on
// screen and their numbers, the family of graphs it was checked on, the
// paper's finding and where ours differs from it.
func claimItem(c experiment.Claim, k experiment.Checked, value, verdict, class, statement string, numbers app.UI) app.HTMLLi {
	body := []app.UI{
		app.Strong().Text(statement),
		app.Text(" "),
		app.Span().Class("claim-verdict").Text(verdict),
	}
	if numbers != nil {
		body = append(body, app.Text(" "), numbers)
	}
	if k.Family.Name != "" {
		body = append(body, app.Br(), app.Small().Class("claim-family").Text(trf("Checked on %s.", tr(k.Family.Label))))
		if !k.Stated() {
			body = append(body, app.Text(" "), app.Small().Class("claim-finding").Text(trf("Stated for other graphs: %s", tr(c.Text))))
		}
	}
	body = append(body, app.Br(), app.Small().Text(trf("Paper: %s", tr(c.Paper))))
	if c.Differs != "" {
		body = append(body, app.Br(), app.Small().Class("claim-differs").Text(tr(c.Differs)))
	}
	return app.Li().Class(class).DataSet("metric", "claim").DataSet("claim", c.ID).DataSet("family", k.Family.Name).DataSet("value", value).Body(body...)
}

// verdictOf is the verdict of the claim called id in the lab's runs, on
// screen or on its pool; false where the lab does not state the claim or
// its rows are not the claim's.
func (l *lab) verdictOf(id string) (experiment.Verdict, bool) {
	c, ok := experiment.ClaimNamed(id)
	if !ok || !l.states(c) {
		return experiment.Verdict{}, false
	}
	k, v, read := l.judge(c, l.figures())
	return v, read != notRead && k.Home
}

// claimRead is where the lab reads a claim's runs.
type claimRead int

const (
	notRead    claimRead = iota // the lab's rows are not the claim's
	readLive                    // the runs on screen (Claim.CheckOn)
	readPooled                  // the pool's results (experiment.PoolCheck)
)

// String is where the claim's runs are read, as a claim's line says in
// data-read: "live", "pool", or "" where they are not.
func (r claimRead) String() string {
	return [...]string{"", "live", "pool"}[r]
}

// judge is the claim's check at the lab's state and the verdict of its
// runs: those on screen where they are the claim's, else the results of
// those the lab's pool trains where the pool trains them all and the
// claim reads results only. One rule for the card, the tour's questions
// and the shell's note of a changed verdict.
func (l *lab) judge(c experiment.Claim, figs map[string]experiment.Figures) (experiment.Checked, experiment.Verdict, claimRead) {
	if on := l.checkOn(c); on.ok {
		return on.k, c.Judge(figs), readLive
	}
	if p := l.pool(); p != nil {
		if k, at, ok := p.check(c); ok {
			return k, c.Judge(p.figuresOf(at)), readPooled
		}
	}
	return experiment.Checked{}, experiment.Verdict{}, notRead
}

// claimsOnState are the lab's claims checked on its state, by claim id
// (a table's rows, each its own), worked out
// once a state (TestRenderCodesNoState): a render judges every claim the
// lab states (the card, the lines beside the figures, the tour's
// verdicts), snapshots come twenty a second a run, and a check writes
// the state and each of the claim's checks as text.
type claimsOnState struct {
	on     map[string]checkedOn
	differ map[string][]string
}

// checkedOn is a claim's check on the lab's state, ok where the state is
// one of the claim's (Claim.CheckOn).
type checkedOn struct {
	k  experiment.Checked
	ok bool
}

// onState is the lab's claimsOnState, made anew once its state differs
// from the one they were checked on.
func (l *lab) onState() *claimsOnState {
	return l.claimsOn.of(l.st, func() *claimsOnState {
		return &claimsOnState{on: map[string]checkedOn{}, differ: map[string][]string{}}
	})
}

// perState is a value worked out from a state, kept while the state
// stays the same (the rule of TestRenderCodesNoState: a render draws what
// was worked out when the state changed, and writes or reads no state).
type perState[T any] struct {
	st  experiment.Experiment
	v   T
	set bool
}

// of is the value for st: the one kept, or make's, kept for st.
func (p *perState[T]) of(st experiment.Experiment, make func() T) T {
	if !p.set || !reflect.DeepEqual(p.st, st) {
		p.st, p.v, p.set = st.Clone(), make(), true
	}
	return p.v
}

// kept is m[key], worked out by make the first time it is asked.
func kept[K comparable, T any](m map[K]T, key K, make func() T) T {
	v, ok := m[key]
	if !ok {
		v = make()
		m[key] = v
	}
	return v
}

// checkOn is c.CheckOn(l.st), kept while the state stays.
func (l *lab) checkOn(c experiment.Claim) checkedOn {
	return kept(l.onState().on, c.ID, func() checkedOn {
		k, ok := c.CheckOn(l.st)
		return checkedOn{k, ok}
	})
}

// pool is the lab's pool (PoolHolder), nil for a lab without one.
func (l *lab) pool() *runPool {
	if h, ok := l.fig.(PoolHolder); ok {
		return h.Pool()
	}
	return nil
}

// states reports whether the lab's card states claim c.
func (l *lab) states(c experiment.Claim) bool {
	return slices.ContainsFunc(experiment.ClaimsShownBy(l.row.Name), func(s experiment.Claim) bool { return s.ID == c.ID })
}

// claimDiffers names the rows in which the lab's state differs from the
// one at which it reads claim c, for a claim the lab reads as it opens:
// its own at the lab's start (LabDefault), or one its pool decides there
// (experiment.PoolDecides); none for a claim of another state (a
// preset's), which the card leaves out.
func (l *lab) claimDiffers(c experiment.Claim) []string {
	return kept(l.onState().differ, c.ID, func() []string { return l.claimDiffersNow(c) })
}

// claimDiffersNow is claimDiffers, worked out.
func (l *lab) claimDiffersNow(c experiment.Claim) []string {
	switch {
	case c.Lab() == l.row.Name && c.LabDefault():
		return claimRowsDiffer(c, l.st)
	case experiment.PoolDecides(l.row.Name, c):
		start := l.start
		start.Data.Seed, start.Train.Seed = l.st.Data.Seed, l.st.Train.Seed
		return rowsDiffer(start, l.st)
	}
	return nil
}

// pooledDone counts the runs of claim c its pool has trained, and its runs.
func (l *lab) pooledDone(c experiment.Claim) (done, of int) {
	p := l.pool()
	_, at, _ := p.check(c)
	res := p.results()
	for _, i := range at {
		if res[i].Done {
			done++
		}
	}
	return done, len(at)
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
	for _, c := range experiment.ClaimsShownBy(l.row.Name) {
		_, v, _ := l.judge(c, figs)
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
	return rowsDiffer(want, st)
}

// rowsDiffer names the rows the engine reads in which st differs from
// want, and "models" where the lab trains other runs of st than of want.
func rowsDiffer(want, st experiment.Experiment) []string {
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
	f.EdgeSeparation = float64(s.Separation)
	for _, l := range s.Layers {
		f.LayerWithin, f.LayerWeights = append(f.LayerWithin, float64(l.Within)), append(f.LayerWeights, float64(l.Weight))
		f.LayerNames = append(f.LayerNames, l.Name)
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
