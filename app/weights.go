package app

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/experiment"
)

// What the pathfinder learned, said from the run: the sentence read from
// the distribution of a run's weights on intra- and inter-class edges
// (experiment.ReadWeights, the rule pdn train and the claims read too).
// The engine sends the deciles (protocol.Spread, computed by
// lessons.WeightSpread); the page only reads them, so one run says one
// sentence on every surface. Every lab says it for each of its runs that
// learns edge weights: the graph lab under its graph, the compare lab
// under each run's view (WeightSayer), the others in a card of the core's
// (renderWeightsSaid).

// weightReading is the run's reading, WeightsNone for a model without edge
// weights or before the first snapshot.
func weightReading(r *run) experiment.WeightReading {
	return figuresOf(r).LearnedWeights()
}

// weightSentence is what run r's learned weights say, as the headline
// data-metric="weight-sentence" (data-run names the run where a lab shows
// several): its kind in data-value, its factor in data-factor, the epoch
// it was read at in data-epoch; while the run is short of its epochs, it
// says so. Nothing for a run without edge weights, or before its first
// epoch: no sentence is made up.
func weightSentence(r *run, dataRun string) app.UI {
	reading := weightReading(r)
	text, ok := reading.Sentence()
	if !ok || r.snap.Epoch == 0 {
		// Before the first epoch the weights are the initialisation's:
		// a factor read from them would be one no training found.
		return app.Span()
	}
	s := app.Span().DataSet("metric", "weight-sentence").DataSet("value", reading.Kind).DataSet("factor", plain(reading.Factor)).
		DataSet("epoch", r.snap.Epoch).Text(say(text))
	if dataRun != "" {
		s = s.DataSet("run", dataRun)
	}
	var sofar app.UI = app.Text("")
	if r.snap.Epoch < r.snap.Epochs {
		sofar = app.Span().Class("note").Text(trf(" (so far: epoch %d of %d)", r.snap.Epoch, r.snap.Epochs))
	}
	return app.Span().Body(s, sofar)
}

// renderWeightsSaid is the card in which the core says what each run's
// learned weights say, for a lab whose figures do not say it themselves
// (WeightSayer); nothing while no run has a reading.
func (l *lab) renderWeightsSaid() app.UI {
	if _, says := l.fig.(WeightSayer); says {
		return app.Div().Class("weights-said-none")
	}
	var items []app.UI
	for _, r := range l.runs {
		if weightReading(r).Kind == experiment.WeightsNone {
			continue
		}
		items = append(items, app.Li().Class("weight-sentence").Body(app.Strong().Text(tr(r.Title)+": "), weightSentence(r, l.dataRun(r))))
	}
	if len(items) == 0 {
		return app.Div().Class("weights-said-none")
	}
	return app.Section().Class("card wide weights-said").ID("weights-said").Body(
		app.H2().Text(tr("What the learned weights say")),
		app.Ul().Body(items...),
	)
}
