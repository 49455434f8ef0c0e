package app

import (
	"math"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/experiment"
	"pdnexplorer/internal/numtext"
	"pdnexplorer/wasm/protocol"
)

// chance is what the graph of the lab's runs gives away without its
// edges (experiment.Chance): the majority class on its test nodes, sent
// with the graph, and the MLP its first run's worker trains beside the run
// (a baseline of another state than the run's is stale: NaN until the new
// one comes). ok is false before the engine has sent the graph.
func (l *lab) chance() (c experiment.Chance, ok bool) {
	if len(l.runs) == 0 || l.runs[0].graph == nil {
		return experiment.Chance{Majority: math.NaN(), MLP: math.NaN()}, false
	}
	r := l.runs[0]
	c = experiment.Chance{Majority: float64(r.graph.Majority), Tests: r.graph.TestNodes, MLP: math.NaN()}
	if b := r.baseline; b != nil && b.State == l.baselineState() {
		c.MLP = float64(b.TestAcc)
	}
	return c, true
}

// baselineState is the MLP baseline the state calls for, as the worker
// names it: experiment.Baseline of the first run in the engine's form.
func (l *lab) baselineState() string {
	if len(l.runs) == 0 {
		return ""
	}
	exp := l.runs[0].Exp
	return l.baseline.of(exp, func() string { return experiment.Baseline(exp.ForEngine()).EncodeRun() })
}

// renderChance stands chance beside the runs: the majority class's and
// the MLP's accuracy on the same test nodes, and each run's standing
// against them, once it has trained all its epochs, where it is near
// chance or below the MLP, so that 0.543 on
// two balanced classes does not pass for a result. A lab that trains its
// runs on many graphs (the sweep's) shows none.
func (l *lab) renderChance() app.UI {
	if l.row.Queue {
		return app.Div().ID("chance").Class("chance idle")
	}
	c, ok := l.chance()
	tests := "–"
	if ok {
		tests = numtext.Group(c.Tests)
	}
	parts := []app.UI{
		app.Text(trf("Chance on these %s test nodes: majority class ", tests)),
		metric("majority-acc", "", c.Majority, num(c.Majority, 3)),
		app.Text(tr(" · MLP, which reads no edge, ")),
		metric("mlp-acc", "", c.MLP, l.mlpText(c)).Title(l.mlpTitle()),
	}
	for _, r := range l.runs {
		if !r.snapped || r.snap.Epoch < r.snap.Epochs {
			// A run on its way stands nowhere yet: early epochs sit near
			// chance by nature, and "near chance" said of them alarms.
			continue
		}
		standing := c.Standing(float64(r.snap.TestAcc))
		words, said := experiment.StandingWords[standing]
		if !said {
			continue
		}
		s := app.Span().Class("standing "+standing).DataSet("metric", "chance-standing").DataSet("value", standing).
			Text(trf("%s: %s", tr(r.Title), say(words)))
		if run := l.dataRun(r); run != "" {
			s = s.DataSet("run", run)
		}
		parts = append(parts, app.Text(" · "), s)
	}
	return app.P().ID("chance").Class("chance").Body(parts...)
}

// mlpText is the MLP baseline's accuracy, or what keeps it: training, or
// a dash where it could not train.
func (l *lab) mlpText(c experiment.Chance) string {
	switch {
	case !math.IsNaN(c.MLP):
		return num(c.MLP, 3)
	case len(l.runs) > 0 && l.runs[0].graph != nil && l.runs[0].baseline == nil || l.staleBaseline():
		return tr("training…")
	}
	return "–"
}

// staleBaseline reports whether the baseline the worker last sent is of
// another state than the run's: the new one trains.
func (l *lab) staleBaseline() bool {
	return len(l.runs) > 0 && l.runs[0].baseline != nil && l.runs[0].baseline.State != l.baselineState()
}

// baselineRun is the MLP baseline of the lab's first run, nil before it.
func (l *lab) baselineRun() *protocol.Baseline {
	if len(l.runs) == 0 {
		return nil
	}
	return l.runs[0].baseline
}

// mlpTitle says what the MLP baseline is, and why it has no accuracy
// where it could not train.
func (l *lab) mlpTitle() string {
	if b := l.baselineRun(); b != nil && b.Error != "" && !l.staleBaseline() {
		why := b.Error
		if b.Say != nil {
			why = say(*b.Say)
		}
		return trf("The MLP could not train: %s", why)
	}
	return tr("An MLP with the run's hidden size, dropout and training settings, on the same split: what the nodes' features give without the edges")
}
