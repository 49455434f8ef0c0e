package app

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/viz"
	"pdnexplorer/wasm/protocol"
)

// StructureLab measures the graphs the models learn as graph-structure
// learning research does (OpenGSL, GSLB), beyond the paper: the models
// row's runs train side by side, live, with the homophily of each learned
// graph over the epochs beside test accuracy and the learned adjacency as
// a matrix; a pool of workers then trains the robustness curves (each
// model at each rate of four perturbations) and the transfer table (PDN's
// learned graph, frozen, given to GCN, SGC and APPNP), each run to its end,
// as the sweep lab's runs (runPool).
type StructureLab struct {
	app.Compo
	lab

	// side trains the robustness runs, then the transfer and the
	// induction runs, on the pool (experiment.SideRuns); key is the state
	// they are of.
	side                    runPool
	robust, transfr, induct []experiment.Run
	key                     string

	homophily, test, matrix     string
	robustCharts                []string
	transferBars, inductionBars string
}

func init() {
	addRoom("structure", func(p *page) room {
		c := &StructureLab{}
		c.init(p, "structure", c)
		return c
	})
}

// The lab's hooks (see lab.go).
var (
	_ Releaser     = (*StructureLab)(nil)
	_ EditFollower = (*StructureLab)(nil)
	_ PoolHolder   = (*StructureLab)(nil)
)

// Release frees the pool's workers as the lab goes.
func (c *StructureLab) Release() { c.side.halt() }

// sideKey is what the side runs' results depend on: the runs' rows and
// the models.
func sideKey(e experiment.Experiment) string {
	return e.EncodeRun() + "|" + strings.Join(e.View.Models, ",")
}

// FollowEdit drops the results when the user changes what they are of.
func (c *StructureLab) FollowEdit(before experiment.Experiment, next *experiment.Experiment) {
	if sideKey(before) != sideKey(*next) {
		forgetResults(next)
	}
}

// follow makes the state's side runs the pool's, with the results its
// link carries (the results row, which the pool reads as the sweep lab's
// does): a new state stops the runs under way.
func (c *StructureLab) follow() {
	key := sideKey(c.st)
	if key == c.key && c.side.holds(c.st.View.Results) {
		return
	}
	c.side.halt()
	c.key = key
	c.robust, c.transfr, c.induct = experiment.RobustnessRuns(c.st), experiment.TransferRuns(c.st), experiment.InductionRuns(c.st)
	runs := slices.Concat(c.robust, c.transfr, c.induct) // experiment.SideRuns, in its order
	c.side = newPool(&c.lab, runs)
	c.side.progressed = func() { c.draw(newSnapshot) }
	c.side.finished = func(int, protocol.Event, int) { c.draw(newSnapshot) }
	c.side.askEstimate(func() { c.draw(drawNow) })
}

// trainHere clears the results the link brought and trains them here.
func (c *StructureLab) trainHere() {
	c.side.forgetLinked()
	c.launchSide()
	c.draw(drawNow)
}

// toggleSide runs, pauses or resumes the robustness, transfer and
// induction runs.
func (c *StructureLab) toggleSide() {
	switch {
	case c.side.playing:
		c.side.hold()
	case c.side.sched.Done() < len(c.side.runs):
		c.launchSide()
	}
	c.draw(drawNow)
}

// launchSide starts the runs, or says first how long they will take where
// that is long (runPool.launch).
func (c *StructureLab) launchSide() {
	c.side.launch(func(left time.Duration, runs int) phrase.Text {
		return phrase.New("The robustness curves and the transfer and induction tables will take about %s on %d workers in this browser (the engine's estimate for their %d runs). Press Run robustness, transfer and induction again to start them; pdn structure trains them faster on the command line.",
			durationText(left), sweepWorkers(), runs)
	})
}

// Pool is the pool that trains the robustness, transfer and induction runs, whose
// results decide the lab's claims on them (PoolHolder).
func (c *StructureLab) Pool() *runPool { return &c.side }

func (c *StructureLab) draw(ch change) {
	if ch&newState != 0 {
		c.follow()
	}
	if !c.due(ch, severalRedraw) {
		return
	}
	var lines []viz.HomophilyLine
	input := math.NaN()
	for i, r := range c.runs {
		lines = append(lines, viz.HomophilyLine{Name: tr(r.Title), Color: runColor(i), Epoch: r.hist.epoch, Learned: r.hist.learned})
		if r.snapped {
			input = float64(r.snap.InputHomophily)
		}
	}
	c.homophily = viz.HomophilyChart(tr, chartW, chartH, c.epochs(), input, lines...)
	c.test = c.testCurves()
	c.matrix = c.drawMatrix()
	res := c.side.results()
	c.robustCharts = c.robustCharts[:0]
	// The curves side by side in a card as wide as the views (.figure-grid).
	legibleInColumns("#robustness .figure-grid", len(experiment.Perturbations), 420, 8, func() {
		for _, p := range experiment.Perturbations {
			c.robustCharts = append(c.robustCharts, viz.RobustnessChart(tr, chartW, chartH, p, c.st.View.Models, c.robust, res[:len(c.robust)]))
		}
	})
	c.transferBars = viz.TransferBars(tr, chartW, chartH, c.transfr, c.transferResults(res))
	c.inductionBars = ""
	if len(c.induct) > 0 {
		c.inductionBars = viz.InductionBars(tr, chartW, chartH, c.induct, c.inductionResults(res))
	}
}

// transferResults are the transfer runs' part of the pool's results res.
func (c *StructureLab) transferResults(res []experiment.Result) []experiment.Result {
	return res[len(c.robust) : len(c.robust)+len(c.transfr)]
}

// inductionResults are the induction runs' part of the pool's results res.
func (c *StructureLab) inductionResults(res []experiment.Result) []experiment.Result {
	return res[len(c.robust)+len(c.transfr):]
}

// matrixRun is the run whose graph the matrix view draws: the first that
// learns its edges (PDN), else the first.
func (c *StructureLab) matrixRun() *run {
	for _, r := range c.runs {
		if experiment.LearnsEdges(r.Exp.Model.Kind) {
			return r
		}
	}
	if len(c.runs) > 0 {
		return c.runs[0]
	}
	return nil
}

func (c *StructureLab) drawMatrix() string {
	r := c.matrixRun()
	if r == nil || r.graph == nil || len(r.graph.Src) == 0 {
		return ""
	}
	w := r.weights
	if len(w) != len(r.graph.Src) {
		w = nil // before its first snapshot: the input graph
	}
	return viz.AdjacencyMatrix(chartW, chartW*3/4, trf("The graph %s propagates over, nodes ordered by class", tr(r.Title)), r.graph.Nodes, max(c.classes(), 1), r.graph.Src, r.graph.Dst, r.graph.Labels, w)
}

// Render lays the lab out.
func (c *StructureLab) Render() app.UI {
	noMatrix := ""
	if c.matrix == "" {
		noMatrix = tr("The graph appears here once it is drawn.")
	}
	views := []app.UI{
		c.card("homophily-curves", tr("Homophily of the learned graph"), c.homophily, "", app.P().Text(tr("The share of each model's edge weight on edges that join two nodes of one class, as it trains; the dashed line is the input graph's share of such edges. GCN propagates over the input as it is; PDN learns its own weights; GAT's attention moves a little. OpenGSL found that a more homophilous learned graph does not always mean a more accurate model: compare these curves with the test accuracy."))),
		c.testCard(c.test),
		app.Div().ID("summary").Class("card").Body(
			app.H2().Text(tr("Side by side")),
			c.runsTable("runs-table", []column{
				epochColumn,
				testColumn,
				{Title: tr("input homophily"), Metric: "input-homophily", Digits: 3, Value: func(r *run) float64 { return float64(r.snap.InputHomophily) }},
				{Title: tr("learned homophily"), Metric: "learned-homophily", Digits: 3, Value: func(r *run) float64 { return float64(r.snap.LearnedHomophily) }},
			}),
		),
		c.card("matrix-view", tr("The learned graph as a matrix"), c.matrix, noMatrix, app.P().Text(tr("Each cell is the mean weight of the edges between the nodes it covers, darkest for 0 and brightest for 1, nodes ordered by class; white cells hold no edge. A graph that keeps its weight within the classes is bright in the blocks on the diagonal. A large graph's cells each cover many nodes; above 3,000 nodes each cell is a pair of classes."))),
	}
	views = append(views, c.renderSide()...)
	return c.layOut("structure-lab", nil, app.Div().Body(app.Aside().Class("controls").Body(c.renderModels(tr("each trains in a worker of its own."))), c.render(c.visible)), views...)
}

// renderSide is the robustness curves and the transfer table, with the
// button that trains them on the pool.
func (c *StructureLab) renderSide() []app.UI {
	done, all := 0, len(c.side.runs)
	if c.side.sched != nil {
		done = c.side.sched.Done()
	}
	label := tr("Run robustness, transfer and induction")
	switch {
	case c.side.playing:
		label = tr("Pause")
	case done > 0 && done < all:
		label = tr("Resume")
	}
	bar := app.Div().ID("side-bar").Class("sweep-bar").Body(
		app.Button().ID("side-run").Class("primary").Text(label).Disabled(all > 0 && done == all).OnClick(func(app.Context, app.Event) { c.toggleSide() }),
		app.Progress().ID("side-progress").Max(max(1, all)).Value(strconv.Itoa(done)).Aria("label", tr("runs done")),
		app.Span().Class("note").Text(trf("%d of %d runs done, each to its end on a graph of its own, on %d workers", done, all, sweepWorkers())),
		c.side.renderLinkedCount("note"),
		app.Span().Class("note").Body(app.Text(tr("Time left")+": "), app.Span().ID("side-left").Text(c.side.sayTimeLeft())),
	)
	var charts []app.UI
	for i, p := range experiment.Perturbations {
		if i < len(c.robustCharts) {
			charts = append(charts, app.Div().Class("figure").DataSet("perturb", p.Name).Body(chartOr(c.robustCharts[i], "")))
		}
	}
	out := []app.UI{
		app.Div().ID("robustness").Class("card wide").Body(
			app.H2().Text(tr("Robustness")),
			bar,
			c.side.renderFromLink(c.trainHere),
			app.Div().Class("figure-grid").Body(charts...),
			c.robustTable(),
			app.P().Class("explain").Text(tr("Test accuracy as the graph is shaken, as GSLB measures it: random edges added, edges added between classes (an attacker who knows the classes), edges dropped, node features masked, each at a share of the graph's edges (or features). An added edge takes the features of an edge of its kind drawn from the graph, so it looks like the graph's own.")),
		),
		app.Div().ID("transfer").Class("card").Body(
			app.H2().Text(tr("Transfer")),
			app.Div().Class("figure").Body(chartOr(c.transferBars, "")),
			c.transferTable(),
			app.P().Class("explain").Text(tr("PDN's learned edge weights, frozen, given to GCN, SGC and APPNP as the graph they propagate over, beside the same models on the input graph: does the learned graph help models that did not learn it? (OpenGSL's generalisability.)")),
		),
	}
	if len(c.induct) > 0 {
		out = append(out, app.Div().ID("induction").Class("card wide").Body(
			app.H2().Text(tr("Induction")),
			app.Div().Class("figure").Body(chartOr(c.inductionBars, "")),
			c.inductionTable(),
			app.P().Class("explain").Text(tr("The pathfinder a PDN learns on this graph, frozen and applied to graphs it never saw, drawn from the same rows at the next seeds: GCN over the weights it gives them, beside a PDN trained on each and GCN over its input edges. The paper states this induction (§1) and never shows it.")),
		))
	}
	return out
}

// robustTable is the curves' numbers: a row per perturbation and rate, a
// column per model.
func (c *StructureLab) robustTable() app.UI {
	res := c.side.results()
	head := []app.UI{app.Th().Scope("col").Text(tr("perturbation")), app.Th().Scope("col").Text(tr("rate"))}
	for _, m := range c.st.View.Models {
		head = append(head, app.Th().Scope("col").Text(m))
	}
	rows := []app.UI{app.Tr().Body(head...)}
	for _, p := range experiment.Perturbations {
		accs := make([][]float64, len(c.st.View.Models))
		for k, m := range c.st.View.Models {
			accs[k] = experiment.RobustAcc(c.robust, res[:len(c.robust)], p, m)
		}
		for i, rate := range p.Rates {
			cells := []app.UI{app.Th().Scope("row").Text(tr(p.Title)), app.Td().Text(strconv.FormatFloat(100*rate, 'f', 0, 64) + "%")}
			for k, m := range c.st.View.Models {
				v := accs[k][i]
				cells = append(cells, app.Td().Body(metric("robust-accuracy", m, v, num(v, 3)).DataSet("x", rate).DataSet("perturb", p.Name)))
			}
			rows = append(rows, app.Tr().Body(cells...))
		}
	}
	return dataTable("robust-table", "runs", rows...)
}

// transferTable is each transfer model's accuracy over each graph.
func (c *StructureLab) transferTable() app.UI {
	res := c.side.results()
	rows := []app.UI{app.Tr().Body(app.Th().Scope("col").Text(tr("model")), app.Th().Scope("col").Text(tr("input graph")), app.Th().Scope("col").Text(tr("PDN's learned graph")))}
	for _, m := range experiment.TransferModels {
		cells := []app.UI{app.Th().Scope("row").Text(m)}
		for _, from := range []string{experiment.FromInput, experiment.FromPDN} {
			v := experiment.TransferAcc(c.transfr, c.transferResults(res), m, from)
			cells = append(cells, app.Td().Body(metric("transfer-accuracy", m, v, num(v, 3)).DataSet("graph", from)))
		}
		rows = append(rows, app.Tr().Body(cells...))
	}
	return dataTable("transfer-table", "runs", rows...)
}

// inductionTable is the induction runs' numbers: a row per graph the
// pathfinder never saw, its accuracy under each run and the mean weight the
// frozen pathfinder gives its edges within and between classes.
func (c *StructureLab) inductionTable() app.UI {
	res := c.side.results()
	if len(res) < len(c.robust)+len(c.transfr)+len(c.induct) {
		return nil
	}
	res = c.inductionResults(res)
	var head []app.UI
	for _, name := range []string{tr("data seed"), tr("pathfinder from the first graph"), tr("PDN trained on this graph"), tr("GCN on the input graph"),
		tr("its weight within classes"), tr("its weight between classes")} {
		head = append(head, app.Th().Scope("col").Text(name))
	}
	rows := []app.UI{app.Tr().Body(head...)}
	for i := 0; i+2 < len(c.induct); i += 3 {
		seed := c.induct[i].Exp.Data.Seed
		cells := []app.UI{app.Th().Scope("row").Text(strconv.FormatUint(seed, 10))}
		for k := range 3 {
			r, v := c.induct[i+k], math.NaN()
			if res[i+k].Done {
				v = res[i+k].Acc
			}
			cells = append(cells, app.Td().Body(metric("induction-accuracy", r.Title, v, num(v, 3)).DataSet("seed", seed)))
		}
		induced := res[i]
		// A link carries accuracies alone: weights only where trained here.
		at := len(c.robust) + len(c.transfr) + i
		linked := at < len(c.side.linked) && c.side.linked[at]
		for _, w := range []float64{induced.WIntra, induced.WInter} {
			if !induced.Done || linked {
				w = math.NaN()
			}
			cells = append(cells, app.Td().Text(num(w, 3)))
		}
		rows = append(rows, app.Tr().Body(cells...))
	}
	return dataTable("induction-table", "runs", rows...)
}
