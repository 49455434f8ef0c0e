package app

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/numtext"
	"pdnexplorer/viz"
	"pdnexplorer/wasm/protocol"
)

// SweepLab draws the paper's Figure 3 from live training runs: every run
// of a scenario's sweep (each value, each graph, each model) trains to its
// end on a pool of workers, one per core, and each model's mean and spread
// are drawn as the results come in, beside the paper's values. The results
// travel in the link (the results row, read by the pool), so a sweep half
// done goes on from a link, and a finished one stays on screen.
type SweepLab struct {
	app.Compo
	lab
	runPool // the sweep's runs on the pool of workers, and their results

	sw    experiment.Sweep
	queue []experiment.Run // the sweep's runs, in its order
	key   string           // what the results are of (sweepKey)

	failed map[string]int
	figure string
	// links are the table's cells' links into the compare lab
	// (compareLink), by value, rep and model, kept while the state stays.
	links perState[map[[3]int]string]
}

func init() {
	addRoom("sweep", func(p *page) room {
		c := &SweepLab{}
		c.init(p, "sweep", c)
		c.keyWords = map[command]string{cmdPlay: tr("runs, pauses or resumes the sweep"), cmdStep: "", cmdReset: tr("clears the results"), cmdNewGraph: ""}
		return c
	})
}

// sweepWorkers is the size of the pool: a worker per core the browser
// reports, at least one and at most four (the page needs a core too, but
// a run that waits for it costs less than a core left idle).
func sweepWorkers() int {
	n := 2
	if hc := app.Window().Get("navigator").Get("hardwareConcurrency"); hc.Truthy() {
		n = hc.Int()
	}
	return min(max(n, 1), 4)
}

// sweepKey is what a sweep's results depend on: the runs' rows, the
// scenario, the reps and the models.
func sweepKey(e experiment.Experiment) string {
	return fmt.Sprintf("%s|%d|%d|%v", e.EncodeRun(), e.View.Scenario, e.View.Reps, e.View.Models)
}

// FollowEdit drops the results when the user changes what they are of.
func (c *SweepLab) FollowEdit(before experiment.Experiment, next *experiment.Experiment) {
	if sweepKey(before) != sweepKey(*next) {
		forgetResults(next)
	}
}

// follow makes the state's sweep the lab's: its runs, and the results its
// link carries (the pool reads them). A new sweep, or other results, stop
// the runs under way.
func (c *SweepLab) follow() {
	if sweepKey(c.st) == c.key && c.holds(c.st.View.Results) {
		return
	}
	c.stop()
	c.key, c.failed = sweepKey(c.st), nil
	sw, err := experiment.SweepOf(c.st)
	if err == nil {
		c.queue, err = sw.Runs()
	}
	if err != nil {
		c.sw, c.queue, c.runPool = experiment.Sweep{}, nil, runPool{}
		c.page.board.Add(phrase.New("This sweep cannot run: %s", phrase.Of(err)), true)
		return
	}
	c.sw = sw
	c.newPool()
	c.askEstimate(func() { c.draw(drawNow) })
}

// Drive takes the toolbar's and the keys' commands: play runs, pauses or
// resumes the sweep, reset clears it; the sweep has no step and no graph
// of its own.
func (c *SweepLab) Drive(cmd command) (done, redraw bool) {
	switch cmd {
	case cmdPlay:
		if c.playing {
			c.pause()
		} else {
			c.play()
		}
	case cmdReset:
		c.stop()
		c.failed = nil
		forgetResults(&c.st)
		est := c.est
		c.page.board.Remove(c.warned)
		c.newPool()
		c.est = est // the same runs: the engine's estimate stands
		c.save()
	case cmdStep, cmdNewGraph:
		return true, false
	default:
		return false, false
	}
	c.draw(drawNow)
	return true, true
}

// play starts the sweep, or resumes it: the runs paused go on, and each
// idle worker takes the next run not yet trained.
func (c *SweepLab) play() {
	if c.queue == nil {
		return
	}
	if c.done() == len(c.queue) {
		c.page.board.Add(phrase.New("This sweep is done. Reset clears it, to run it again."), false)
		return
	}
	c.launch(func(left time.Duration, runs int) phrase.Text {
		return phrase.New("This sweep will take about %s on %d workers in this browser (the engine's estimate for its %d runs). Press Run again to start it; pdn sweep runs it faster on the command line, and -shard splits it over machines.",
			durationText(left), sweepWorkers(), runs)
	})
}

// pause holds the runs under way where they are.
func (c *SweepLab) pause() { c.hold() }

// stop ends the runs under way, whose results are lost, and frees the
// workers for other labs.
func (c *SweepLab) stop() { c.halt() }

// newPool schedules the sweep's runs over the results the state carries:
// the pool trains each run key once, and says of each result it records.
func (c *SweepLab) newPool() {
	c.runPool = newPool(&c.lab, c.queue)
	c.progressed = func() { c.draw(newSnapshot) }
	c.finished = c.takeResult
}

// takeResult follows a run's end (the pool saved its result): an error
// counted by what it says.
func (c *SweepLab) takeResult(_ int, ev protocol.Event, shared int) {
	if ev.Kind == protocol.KindError {
		if c.failed == nil {
			c.failed = map[string]int{}
		}
		c.failed[sayFailure(ev)] += 1 + shared
	}
	c.draw(newSnapshot)
}

// LiveRuns are none: the sweep's runs are trained one after another on its
// queue (experiment.Queue), not side by side by the core.
func (c *SweepLab) LiveRuns(experiment.Experiment) []experiment.Run { return nil }

// The lab's hooks (see lab.go).
var (
	_ Driver       = (*SweepLab)(nil)
	_ EditFollower = (*SweepLab)(nil)
	_ Releaser     = (*SweepLab)(nil)
	_ LiveRunner   = (*SweepLab)(nil)
	_ PoolHolder   = (*SweepLab)(nil)
)

// Pool is the sweep's pool (PoolHolder).
func (c *SweepLab) Pool() *runPool { return &c.runPool }

// Release frees the workers as the lab goes.
func (c *SweepLab) Release() { c.stop() }

// sharedModels are the sweep's models whose runs share a key across
// values (experiment.Queue gives them one result), in the sweep's order.
func (c *SweepLab) sharedModels() []string {
	seen, shared := map[string]bool{}, map[string]bool{}
	for i, k := range c.keys {
		if seen[k] {
			_, _, m := c.sw.Place(i)
			shared[c.sw.Models[m]] = true
		}
		seen[k] = true
	}
	var out []string
	for _, m := range c.sw.Models {
		if shared[m] {
			out = append(out, m)
		}
	}
	return out
}

// done is the number of runs trained.
func (c *SweepLab) done() int {
	if c.sched == nil {
		return 0
	}
	return c.sched.Done()
}

func (c *SweepLab) draw(ch change) {
	if ch&newState != 0 {
		c.follow()
	}
	if !c.due(ch, severalRedraw) {
		return
	}
	if c.queue != nil {
		// Shown narrower than drawn, as on a phone, the figure is drawn
		// taller for its larger text (viz's typeset), its plot as tall.
		c.figure = viz.SweepFigure(tr, 760, 380, c.sw, c.results())
	}
}

// underWay says how far the runs under way have got.
func (c *SweepLab) underWay() string {
	var parts []string
	for _, s := range c.slots {
		if s.job >= 0 {
			parts = append(parts, fmt.Sprintf("%.0f%%", 100*s.done))
		}
	}
	if len(parts) == 0 || !c.playing {
		return ""
	}
	return trf("%d under way (%s of their epochs)", len(parts), strings.Join(parts, ", "))
}

// Render lays the lab out.
func (c *SweepLab) Render() app.UI {
	return app.Div().Class("lab sweep-lab"+c.foldClass()).Body(
		c.renderIntro(),
		c.renderSweepBar(),
		app.Div().Class("main").Body(
			app.Div().Body(app.Aside().Class("controls").Body(c.renderSweepRows()), c.render(c.visible)),
			app.Section().Class("views").Body(
				app.Div().ID("sweep-figure").Class("card").Body(
					app.H2().Text(tr("Test accuracy across the scenario")),
					app.Div().Class("figure").Body(chartOr(c.figure, c.emptyFigure())).
						OnClick(func(ctx app.Context, e app.Event) { c.openPoint(e.Get("target")) }),
					app.Div().Class("explain").Body(c.renderFigureNote()),
					c.renderAgreement(),
				),
				c.renderTable(),
				c.renderExports(),
			),
		),
		c.renderKeys(),
	)
}

// renderSweepBar is the sweep's toolbar: run, pause or resume; clear; the
// link; how far the sweep has got and the time left.
func (c *SweepLab) renderSweepBar() app.UI {
	play := tr("▶ Run sweep")
	switch {
	case c.playing:
		play = tr("❚❚ Pause")
	case c.done() > 0 && c.done() < len(c.queue):
		play = tr("▶ Resume")
	}
	left := c.sayTimeLeft()
	return app.Div().Class("toolbar").Body(
		app.Button().ID("play").Class("primary").Title(tr("Run, pause or resume the sweep (Space)")).Text(play).
			OnClick(func(ctx app.Context, e app.Event) { c.do(cmdPlay) }),
		app.Button().ID("reset").Title(tr("Clear the results (R)")).Text(tr("Clear")).
			OnClick(func(ctx app.Context, e app.Event) { c.do(cmdReset) }),
		app.Button().ID("copy-link").Title(tr("Copy the link to this sweep and its results")).Text(tr("Copy link")).
			OnClick(func(ctx app.Context, e app.Event) { copyLink(c.page.board) }),
		c.renderFold(),
		app.Div().Class("stats").Body(
			app.Div().Class("stat").Body(app.Span().Class("label").Text(tr("Runs done")), app.Span().Class("value").Body(
				metric("sweep-done", "", float64(c.done()), strconv.Itoa(c.done())), app.Text(" / "),
				metric("sweep-total", "", float64(len(c.queue)), strconv.Itoa(len(c.queue)))),
				app.If(c.underWay() != "", app.Span().ID("sweep-under-way").Class("label").Text(c.underWay())),
				c.renderLinkedCount("label")),
			app.Div().Class("stat").Body(app.Span().Class("label").Text(tr("Time left")), app.Span().ID("sweep-left").Class("value").Text(left)),
			// Minor: a phone's toolbar keeps to the runs and the time left.
			app.Div().Class("stat workers").Body(app.Span().Class("label").Text(tr("Workers")), app.Span().Class("value").Text(strconv.Itoa(sweepWorkers()))),
		),
		app.Progress().ID("sweep-progress").Max(max(1, len(c.queue))).Value(strconv.Itoa(c.done())).Aria("label", tr("runs done")),
	)
}

// renderSweepRows are the sweep's own rows: the scenario, the reps and the
// models.
func (c *SweepLab) renderSweepRows() app.UI {
	p, _ := experiment.Lookup("scenario")
	opts := make([]app.UI, 0, int(p.Max))
	for k := int(p.Min); k <= int(p.Max); k++ {
		s, _ := experiment.PaperScenario(k)
		q, _ := experiment.Lookup(s.Param)
		// The row as its control names it: its help line ("standard
		// deviation of inter-class edge features") ran past a phone's menu.
		label := fmt.Sprintf("%d · %s: %s", k, q.Symbol, tr(q.Label))
		opts = append(opts, app.Option().Value(strconv.Itoa(k)).Selected(k == c.st.View.Scenario).Text(label))
	}
	reps, _ := experiment.Lookup("reps")
	return app.FieldSet().Body(
		app.Legend().Text(tr("Sweep (Figure 3)")),
		app.Div().Class("control").Title(tr(p.Usage)).Body(
			app.Label().For("ctl-scenario").Text(tr("scenario")),
			app.Select().ID("ctl-scenario").Body(opts...).
				OnChange(func(ctx app.Context, e app.Event) { c.change(ctx, "scenario", ctx.JSSrc().Get("value").String()) }),
		),
		c.control(reps),
		c.renderModels(tr("every model trains on every graph, one run after another.")),
	)
}

// emptyFigure says why there is no figure, if there is none.
func (c *SweepLab) emptyFigure() string {
	if c.queue == nil {
		return tr("No sweep: see the notice above.")
	}
	return ""
}

// renderFigureNote explains the figure, and says which runs gave no
// result and why.
func (c *SweepLab) renderFigureNote() app.UI {
	parts := []app.UI{app.P().Text(tr("Each line is a model's mean test accuracy over the graphs trained so far, its bar ±1 standard deviation, " +
		"each faint dot one graph; the hollow marks are the paper's Figure 3. Rep r of each value is the graph and weights of seed r, " +
		"the very run pdn sweep trains. Click a dot, or a cell of the table, to open that run in the compare lab."))}
	if shared := c.sharedModels(); len(shared) > 0 {
		parts = append(parts, app.P().Class("note").Text(trf("Trained once a graph: %s, which do not read the edges' own features, "+
			"the one thing this scenario varies; that result stands at every value.", strings.Join(shared, ", "))))
	}
	for _, msg := range slices.Sorted(maps.Keys(c.failed)) {
		parts = append(parts, app.P().Class("note").Text(trf("%d run(s) gave no result: %s", c.failed[msg], msg)))
	}
	parts = append(parts, c.renderFromLink(c.trainHere))
	return app.Div().Body(parts...)
}

// trainHere clears the results the link brought and trains the sweep in
// this page.
func (c *SweepLab) trainHere() {
	c.forgetLinked()
	c.failed = nil
	c.play()
	c.draw(drawNow)
}

// renderAgreement says, per model, at how many points the sweep lies
// within the tolerance of the paper's Figure 3 and names each point where
// it does not (experiment.Sweep.Agreements).
func (c *SweepLab) renderAgreement() app.UI {
	if c.queue == nil {
		return app.Div()
	}
	var items []app.UI
	for _, a := range c.sw.Agreements(c.results()) {
		if a.Of == 0 {
			continue
		}
		text := trf("%s: within the paper's Figure 3 at %d of %d points trained so far", a.Model, a.Within, a.Of)
		var apart []string
		for _, p := range a.Apart {
			apart = append(apart, trf("%s = %s: ours %.3f, the paper's %.3f", c.sw.Scenario.Param, strconv.FormatFloat(p.Value, 'g', 4, 64), p.Ours, p.Paper))
		}
		if len(apart) > 0 {
			text += trf("; apart at %s", strings.Join(apart, "; "))
		}
		items = append(items, app.Li().DataSet("metric", "paper-agreement").DataSet("run", a.Model).
			DataSet("value", strconv.Itoa(a.Within)).DataSet("of", strconv.Itoa(a.Of)).Text(text+"."))
	}
	if len(items) == 0 {
		return app.Div()
	}
	return app.Div().ID("sweep-agreement").Class("explain").Body(
		app.P().Text(tr("Against the paper: a point agrees when our mean lies within twice the standard deviation of our graphs (and at least 0.05) of the paper's value, which the paper gives without a spread. "+
			"Where a preset of the compare lab stands at a point, its claim says why ours differs.")),
		app.Ul().Body(items...),
	)
}

// renderTable is the results as a table: a row per value, a cell per
// model with its mean ± SD over the graphs done and the paper's value,
// each a link to the run of the first graph in the compare lab.
func (c *SweepLab) renderTable() app.UI {
	if c.queue == nil {
		return app.Div()
	}
	pts := c.sw.Summary(c.results())
	head := []app.UI{app.Th().Scope("col").Text(c.sw.Scenario.Param)}
	for _, k := range c.sw.Models {
		head = append(head, app.Th().Scope("col").Text(k+tr(" (paper)")))
	}
	rows := []app.UI{app.Tr().Body(head...)}
	for v, x := range c.sw.Scenario.Values {
		cells := []app.UI{app.Th().Scope("row").Text(strconv.FormatFloat(x, 'g', 4, 64))}
		for m, k := range c.sw.Models {
			p := pts[m][v]
			text := "–"
			if p.N > 0 {
				text = fmt.Sprintf("%.3f ± %.3f", p.Mean, p.SD)
			}
			paper := ""
			if ref := c.sw.Scenario.Paper[k]; v < len(ref) {
				paper = fmt.Sprintf(" (%.3f)", ref[v]/100)
			}
			cells = append(cells, app.Td().Body(
				hashLink(c.compareLink(v, 0, m)).Title(tr("Open graph 1 of this value in the compare lab")).Body(
					metric("sweep-mean", k, p.Mean, text).DataSet("x", strconv.FormatFloat(x, 'g', -1, 64))),
				app.Span().Class("paper").Text(paper)))
		}
		rows = append(rows, app.Tr().Body(cells...))
	}
	return app.Div().ID("sweep-table").Class("card").Body(
		app.H2().Text(tr("The numbers")),
		dataTable("", "runs", rows...),
	)
}

// compareLink is the link to rep r of value v in the compare lab, beside
// the sweep's other models: the models row holds two to four, as the
// compare lab takes them, model m first.
func (c *SweepLab) compareLink(v, r, m int) string {
	links := c.links.of(c.st, func() map[[3]int]string { return map[[3]int]string{} })
	return kept(links, [3]int{v, r, m}, func() string { return c.compareLinkNow(v, r, m) })
}

// compareLinkNow is compareLink, worked out.
func (c *SweepLab) compareLinkNow(v, r, m int) string {
	e, err := c.sw.Exp(v, r, c.sw.Models[m])
	if err != nil {
		return ""
	}
	e.View = experiment.ForLab("compare").View
	models := []string{c.sw.Models[m]}
	for _, k := range c.sw.Models {
		if k != models[0] {
			models = append(models, k)
		}
	}
	e.View.Models = models
	compare, _ := experiment.LabNamed("compare")
	return "#" + compare.Tidy(e, experiment.ForLab("compare")).Encode() // its model is the models row's
}

// openPoint opens the run a dot of the figure names in the compare lab.
func (c *SweepLab) openPoint(target app.Value) {
	ds := target.Get("dataset")
	if !ds.Truthy() || !ds.Get("run").Truthy() || !ds.Get("x").Truthy() {
		return
	}
	m := slices.Index(c.sw.Models, ds.Get("run").String())
	x, err := numtext.ParseFloat(ds.Get("x").String())
	v := slices.Index(c.sw.Scenario.Values, x)
	rep := 1
	if r := ds.Get("rep"); r.Truthy() {
		rep, _ = numtext.ParseInt(r.String())
	}
	if m < 0 || v < 0 || err != nil || rep < 1 || rep > c.sw.Reps {
		return
	}
	app.Window().Get("location").Set("hash", c.compareLink(v, rep-1, m))
}

// renderExports offers the results as pdn sweep's CSV and the figure as
// SVG and PNG.
func (c *SweepLab) renderExports() app.UI {
	if c.queue == nil {
		return app.Div()
	}
	name := fmt.Sprintf("scenario%d", c.sw.Scenario.Number)
	return app.Div().ID("exports").Class("card").Body(
		app.H2().Text(tr("Export")),
		app.Div().Class("export-buttons").Body(
			app.Button().ID("export-sweep-csv").Text(tr("Results (CSV)")).
				OnClick(func(ctx app.Context, e app.Event) { save(name+".csv", "text/csv", csvBytes(c.sw.CSV(c.results()))) }),
			app.Button().ID("export-sweep-svg").Text(tr("Figure (SVG)")).
				OnClick(func(ctx app.Context, e app.Event) { save(name+".svg", "image/svg+xml", viz.File(c.figure)) }),
			app.Button().ID("export-sweep-png").Text(tr("Figure (PNG)")).
				OnClick(func(ctx app.Context, e app.Event) {
					svgCanvas(c.figure, func(cv app.Value) { saveCanvas(name+".png", cv) })
				}),
		),
		app.P().Class("explain").Text(tr("The CSV has pdn sweep's columns, a row per run trained: the same numbers the command line writes for these seeds.")),
	)
}
