package app

import (
	"math"
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/viz"
)

// Chart sizes, in SVG units; the page scales them to its columns.
const (
	chartW, chartH = 520, 240
	viewW, viewH   = 560, 560 // the graph view
)

// card is a chart with its title and explanation: the chart (SVG), or,
// where it means nothing for the model, why (empty), or a placeholder
// until the engine has sent what it draws; under its title, the verdicts
// of the lab's claims that read it (beside).
func (l *lab) card(id, title, svg, empty string, explain app.UI, under ...app.UI) app.UI {
	return app.Div().ID(id).Class("card").Body(
		app.H2().Text(title),
		l.beside(id),
		app.Div().Class("figure").Body(chartOr(svg, empty)),
		app.Div().Body(under...),
		app.Div().Class("explain").Body(explain),
	)
}

// chartOr is an SVG chart, or why there is none, or a placeholder.
func chartOr(svg, empty string) app.UI {
	switch {
	case empty != "":
		return app.P().Class("empty").Text(empty)
	case svg != "":
		return app.Raw(svg)
	}
	return app.Div().Class("placeholder").Text(tr("Waiting for the engine…"))
}

// metric is a headline number: data-metric names it, data-run the run it
// is of where a lab shows several ("" for none), and data-value holds it
// plainly, so tests and tools read the page as a user sees it.
func metric(name, run string, value float64, text string) app.HTMLSpan {
	s := app.Span().Class("metric").DataSet("metric", name).DataSet("value", plain(value)).Text(text)
	if run != "" {
		s = s.DataSet("run", run)
	}
	return s
}

// num formats x, or a dash where there is no value.
func num(x float64, digits int) string {
	if math.IsNaN(x) || math.IsInf(x, 0) || x == 0 && digits > 3 {
		if x == 0 {
			return "0"
		}
		return "–"
	}
	return strconv.FormatFloat(x, 'f', digits, 64)
}

// plain writes a metric's value for data-value: the shortest exact
// decimal, or NaN where there is none.
func plain(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "NaN"
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// legend names the classes' colours, the grey of the nodes without a
// class where unlabelled counts some, and the edges' kinds.
func legend(names []string, unlabelled int) app.UI {
	items := make([]app.UI, 0, len(names)+4)
	for k, name := range names {
		items = append(items, app.Span().Class("key").Body(
			app.Raw(viz.Swatch(viz.ClassColor(k))),
			app.Text(name)))
	}
	if unlabelled > 0 {
		items = append(items, app.Span().Class("key").Body(
			app.Raw(viz.Swatch(viz.NoClassColor)),
			app.Text(trf("no class (%d nodes, not trained or tested on)", unlabelled))))
	}
	items = append(items,
		app.Span().Class("key").Body(app.Span().Class("line intra"), app.Text(tr("intra-class edge"))),
		app.Span().Class("key").Body(app.Span().Class("line inter"), app.Text(tr("inter-class edge"))),
		app.Span().Class("key").Body(app.Span().Class("swatch hollow"), app.Text(tr("test node"))))
	return app.Div().Class("legend").Body(items...)
}

// hopsChart draws the multi-scale PDN's weight of each power of Â over the
// epochs, as Figure 7 of the paper does.
func hopsChart(h *history, epochs int) string {
	k := 0
	for _, p := range h.hops {
		k = max(k, len(p))
	}
	series := make([]viz.Series, k)
	for i := range series {
		y := make([]float64, len(h.hops))
		for j, p := range h.hops {
			y[j] = math.NaN()
			if i < len(p) {
				y[j] = p[i]
			}
		}
		series[i] = viz.Series{Name: "P" + strconv.Itoa(i+1) + " (Â^" + strconv.Itoa(i+1) + ")", Color: viz.ClassColor(i), X: h.epoch, Y: y}
	}
	return viz.LineChart(chartW, chartH, viz.Axes{Title: tr("Weight of each power of Â over the epochs (Figure 7)"), XLabel: tr("epoch"), YMin: 0, YMax: 1, XMax: float64(epochs)}, series...)
}

// renderHopWeights gives the multi-scale PDN's current weight of each
// power of Â as numbers, the hop chart's text alternative.
func (l *lab) renderHopWeights(r *run) app.UI {
	if r == nil || len(r.snap.Hops) == 0 {
		return app.P().Class("drawn")
	}
	parts := []app.UI{app.Text(tr("Now: "))}
	for i, p := range r.snap.Hops {
		if i > 0 {
			parts = append(parts, app.Text(" · "))
		}
		k := strconv.Itoa(i + 1)
		parts = append(parts, app.Text("P"+k+" = "), l.metricOf(r, "hop-"+k, p, 3))
	}
	return app.P().Class("drawn").Body(parts...)
}

func maxFinite(xs []float64) float64 {
	m := 0.0
	for _, x := range xs {
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			m = math.Max(m, x)
		}
	}
	return m
}

// last is the last of xs, NaN for none.
func last(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	return xs[len(xs)-1]
}

// runColor is run i's colour in charts that overlay runs: the sweep's,
// which tell models apart.
func runColor(i int) string { return viz.SweepColors[i%len(viz.SweepColors)] }

// column is one column of a lab's runs table: its heading, its metric,
// its digits and how to read it of a run.
type column struct {
	Title, Metric string
	Digits        int
	Value         func(*run) float64
}

// The columns every lab's runs table shares: the epoch reached and the
// final test accuracy, one metric name each.
var (
	epochColumn = column{Title: msg("epoch"), Metric: "epoch-final", Digits: 0, Value: func(r *run) float64 { return float64(r.snap.Epoch) }}
	testColumn  = column{Title: msg("test acc."), Metric: "test-accuracy-final", Digits: 3, Value: func(r *run) float64 { return float64(r.snap.TestAcc) }}
)

// testCard is the card of the runs' test-accuracy curves, in the labs whose
// runs share a graph and seeds.
func (l *lab) testCard(svg string) app.UI {
	return l.card("test-curves", tr("Test accuracy"), svg, "", app.P().Text(tr("Every model trains on the same graph from the same seeds, so the curves differ by the model alone.")))
}

// runsTable is the runs side by side: a row per run, a column per figure,
// each cell a metric named by its column.
func (l *lab) runsTable(id string, cols []column) app.UI {
	head := []app.UI{app.Th().Scope("col").Text(tr("model"))}
	for _, c := range cols {
		head = append(head, app.Th().Scope("col").Text(tr(c.Title)))
	}
	rows := []app.UI{app.Tr().Body(head...)}
	for _, r := range l.runs {
		cells := []app.UI{app.Th().Scope("row").Text(tr(r.Title))}
		for _, c := range cols {
			cells = append(cells, app.Td().Body(l.metricOf(r, c.Metric, c.Value(r), c.Digits)))
		}
		rows = append(rows, app.Tr().Body(cells...))
	}
	return dataTable(id, "runs", app.TBody().Body(rows...))
}

// testCurves overlays the runs' test accuracy over the epochs.
func (l *lab) testCurves() string {
	var series []viz.Series
	for i, r := range l.runs {
		series = append(series, viz.Series{Name: tr(r.Title), Color: runColor(i), X: r.hist.epoch, Y: r.hist.test})
	}
	return viz.LineChart(chartW, chartH, viz.Axes{Title: tr("Test accuracy"), XLabel: tr("epoch"), YMin: 0, YMax: 1, XMax: l.epochs()}, series...)
}

// The formulas more than one lab explains itself with, as MathML, which
// browsers render natively, offline, without a maths library.
const (
	// softmaxFormula is the linear PDN's attention over its inputs.
	softmaxFormula = `<math><mi>p</mi><mo>=</mo><mi>softmax</mi><mo>(</mo><mi>β</mi><mo>)</mo></math>`
	// linearWeightFormula is the linear PDN's weight of an edge.
	linearWeightFormula = `<math><msub><mi>w</mi><mi>e</mi></msub><mo>=</mo><mi>σ</mi><mo>(</mo><msub><mo>∑</mo><mi>i</mi></msub><msub><mi>p</mi><mi>i</mi></msub><msub><mi>z</mi><mrow><mi>e</mi><mi>i</mi></mrow></msub><mo>)</mo></math>`
	// multiScaleFormula is the multi-scale PDN's mix of the powers of Â.
	multiScaleFormula = `<math><mover><mi>G</mi><mo>^</mo></mover><mo>=</mo><msub><mo>∑</mo><mi>i</mi></msub><msub><mi>P</mi><mi>i</mi></msub><msup><mover><mi>A</mi><mo>~</mo></mover><mi>i</mi></msup></math>`
)

// linearPDNClause says how the linear PDN weighs an edge, after lead.
func linearPDNClause(lead string) []app.UI {
	return []app.UI{app.Text(lead), mathML(softmaxFormula), app.Text(tr(" and sets ")), mathML(linearWeightFormula)}
}

// shareFormula is the inter-class share of the learned weight.
const shareFormula = `<math><mfrac><mrow><msub><mo>∑</mo><mrow><mi>e</mi><mo>∈</mo><msub><mi>E</mi><mi>inter</mi></msub></mrow></msub><msub><mi>w</mi><mi>e</mi></msub></mrow><mrow><msub><mo>∑</mo><mrow><mi>e</mi><mo>∈</mo><mi>E</mi></mrow></msub><msub><mi>w</mi><mi>e</mi></msub></mrow></mfrac></math>`

// mathML is a MathML formula, in a span that, on a phone, scrolls
// a formula wider than the screen (a math element clips nothing itself).
func mathML(formula string) app.UI {
	return app.Raw(`<span class="formula">` + formula + `</span>`)
}

// The least size of a figure's text as drawn, in pixels, by the screen
// the page is on: the one rule, which legibilityFor applies to every
// figure of every lab. A phone is a window at most phoneWidth wide (the
// width at which web/app.css lays the page out for one).
const (
	desktopMinPx   = 11
	phoneMinPx     = 12
	projectorMinPx = 16
	phoneWidth     = 700
	// phoneHeight is the tallest window a phone turned on its side has
	// (CSS pixels, 320 to 430 on today's phones): an 844×390 window is a
	// phone read at arm's length, not a desktop.
	phoneHeight = 500
)

// legibilityFor is what every figure drawn now must meet, on a window
// innerW×innerH whose lab shows its figures shown px wide (0: not laid
// out yet): 16 px as drawn on a projector, 12 on a phone (upright or
// turned), 11 on a desktop.
func legibilityFor(present bool, innerW, innerH, shown float64) viz.Legibility {
	l := viz.Legibility{MinPx: desktopMinPx, ShownPx: shown}
	switch {
	case present:
		// The first figure is held to the screen's height less the
		// toolbar's and the headings' (web/app.css, .present .views).
		l.MinPx, l.MaxShownH = projectorMinPx, max(innerH-330, 0)
	case innerW <= phoneWidth || innerH <= phoneHeight:
		l.MinPx = phoneMinPx
	}
	return l
}

// setLegibility tells every figure drawn from now on how large its text
// must read where the page is shown (viz.SetLegibility, the one place for
// all figures), at the width the lab's views show them, and reports
// whether that changed: the figures drawn before were drawn for another
// width.
func setLegibility(present bool) bool {
	w, h, shown, ok := measurePage()
	if !ok {
		return false
	}
	l := legibilityFor(present, w, h, shown)
	changed := l != viz.Legible()
	viz.SetLegibility(l)
	return changed
}

// measurePage is the window's size and the width the lab shows its
// figures at (viewsColumn), as last laid out (layout.go); ok is false off
// the browser and before the page was first laid out. Tests stand in for
// it.
var measurePage = func() (w, h, shown float64, ok bool) {
	w, h, ok = windowSize()
	if !ok {
		return 0, 0, 0, false
	}
	return w, h, viewsColumn(), true
}

// legibleInColumns draws, with draw, n figures side by side in a grid of
// columns at least minPx wide with gaps of gapPx (auto-fit, as the styles
// lay them out) inside the element sel (the views' column where it is not
// laid out yet): each is shown a column wide, not the card's width.
func legibleInColumns(sel string, n int, minPx, gapPx float64, draw func()) {
	l := viz.Legible()
	defer viz.SetLegibility(l)
	shown := l.ShownPx
	if px := figuresWidth(sel); px > 0 {
		shown = px
	}
	if shown > 0 {
		cols := max(1, min(float64(n), math.Floor((shown+gapPx)/(minPx+gapPx))))
		viz.SetLegibility(viz.Legibility{MinPx: l.MinPx, ShownPx: (shown - gapPx*(cols-1)) / cols, MaxShownH: l.MaxShownH})
	}
	draw()
}

// legibleWithin draws, with draw, figures the styles show at most px wide.
func legibleWithin(px float64, draw func()) {
	l := viz.Legible()
	defer viz.SetLegibility(l)
	if l.ShownPx <= 0 || l.ShownPx > px {
		viz.SetLegibility(viz.Legibility{MinPx: l.MinPx, ShownPx: px, MaxShownH: l.MaxShownH})
	}
	draw()
}
