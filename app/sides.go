package app

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/experiment"
	"pdnexplorer/viz"
	"pdnexplorer/wasm/protocol"
)

// Up to four runs share the two cores with the page, so the page asks
// each for fewer snapshots and redraws the figures less often than the
// graph lab does: the main thread keeps its frames while four workers
// train.
const (
	sideSnapshotMs = 150
	sidesRedraw    = 500 * time.Millisecond
)

// sideSpec is one run of a lab that trains several models side by side:
// its name in data-run, its heading, and the experiment it trains.
type sideSpec struct {
	Name, Title string
	Exp         experiment.Experiment
}

// side is the live state of one such run.
type side struct {
	sideSpec
	run      *Run
	gen      int
	graph    *protocol.Graph
	snap     protocol.Snapshot
	snapped  bool
	hist     history
	running  bool
	progress *protocol.Progress

	weights []float32    // the latest snapshot's, for the small graph view
	mini    painter      // that view's canvas
	strokes []viz.Stroke // what it draws
}

// sideEvent is an event of one side, queued for the UI.
type sideEvent struct {
	s   *side
	ev  protocol.Event
	f32 []float32
}

// multiLab is what the labs that train models side by side share: the
// state table's rows and their controls, one engine run per model (each on
// its own worker, so two train at once on two cores), the toolbar that
// drives them all, and the permalink. A lab embeds it, gives it the runs a
// state makes (specs) and the rows it shows (show), and draws its own
// figures in redraw.
type multiLab struct {
	Engine *Engine
	Board  *Board

	st experiment.Experiment
	controls
	sides []*side

	lab    string // its name in the URL
	specs  func(experiment.Experiment) []sideSpec
	show   func(experiment.Param) bool
	redraw func()      // the lab's figures, from the sides
	minis  *miniGraphs // a small learned-graph view per run, if the lab shows them

	ctx                    app.Context
	queued                 []sideEvent
	lastDraw               time.Time
	unlisten, unlistenHash func()
}

// mount reads the permalink and starts a run per spec. A link that names
// no lab gets this lab's defaults.
func (m *multiLab) mount(ctx app.Context) {
	m.ctx = ctx
	h := strings.TrimPrefix(currentHash(), "#")
	if labInHash(h) != m.lab {
		h = "lab=" + m.lab + "&" + h
	}
	st, err := experiment.Decode(h)
	m.st = st
	m.controls.init(&m.st, m.setParam)
	reportLinkProblems(m.Board, err)
	m.openSides()
	m.unlisten = app.Window().AddEventListener("keydown", m.onKey)
	m.unlistenHash = app.Window().AddEventListener("hashchange", func(ctx app.Context, e app.Event) { m.applyHash(currentHash()) })
	saveHash(m.st)
}

// dismount ends the runs.
func (m *multiLab) dismount() {
	m.closeSides()
	if m.unlisten != nil {
		m.unlisten()
	}
	if m.unlistenHash != nil {
		m.unlistenHash()
	}
}

func (m *multiLab) openSides() {
	for _, sp := range m.specs(m.st) {
		s := &side{sideSpec: sp}
		s.run = m.Engine.Open(func(ev protocol.Event, f32 []float32) { m.enqueue(s, ev, f32) })
		// One layout at most serves every run (see miniGraphs): the other
		// workers make none.
		s.run.Send(protocol.Command{Op: protocol.OpSet, State: sp.Exp.EncodeRun(), Layout: m.layoutFor(len(m.sides)), Every: sideSnapshotMs})
		m.sides = append(m.sides, s)
	}
	m.redraw()
}

func (m *multiLab) closeSides() {
	for _, s := range m.sides {
		s.run.Close()
		s.mini.release()
	}
	m.sides, m.queued = nil, nil
}

// enqueue keeps an event for the UI; one dispatch takes all that came in
// meanwhile, so four runs' snapshots cost the page one render, not four.
func (m *multiLab) enqueue(s *side, ev protocol.Event, f32 []float32) {
	m.queued = append(m.queued, sideEvent{s, ev, f32})
	if len(m.queued) == 1 {
		m.ctx.Dispatch(func(app.Context) { m.flush() })
	}
}

// flush applies the queued events, then redraws the figures if they are
// due: at once when a run stops, else no more often than sidesRedraw.
func (m *multiLab) flush() {
	q := m.queued
	m.queued = nil
	stopped := false
	for _, e := range q {
		stopped = m.onEvent(e.s, e.ev, e.f32) || stopped
	}
	if stopped || time.Since(m.lastDraw) >= sidesRedraw {
		m.lastDraw = time.Now()
		m.redraw()
	}
}

// onEvent applies one event to its side; it reports whether the side's
// figures must be drawn now (a stopped run, a new graph).
func (m *multiLab) onEvent(s *side, ev protocol.Event, f32 []float32) bool {
	switch ev.Kind {
	case protocol.KindGraph:
		s.gen, s.graph, s.snapped, s.progress, s.weights = ev.Gen, ev.Graph, false, nil, nil
		s.hist.reset()
		if m.minis != nil && s == m.sides[0] {
			m.minis.forget(ev.Graph)
		}
		return true
	case protocol.KindLayout:
		return m.onLayout(s, ev, f32)
	case protocol.KindSnapshot:
		if ev.Gen != s.gen || ev.Snap == nil {
			return false
		}
		w, _, _ := ev.Snap.Split(f32)
		s.hist.add(*ev.Snap, w, s.graph)
		s.snap, s.snapped, s.running, s.weights = *ev.Snap, true, ev.Snap.Running, w
		if s.progress != nil && (s.progress.Phase == protocol.PhaseSetup || ev.Snap.Epoch > s.progress.Epoch || !ev.Snap.Running) {
			s.progress = nil
		}
		if ev.Snap.Warning != "" {
			m.Board.Add(s.Title+": "+ev.Snap.Warning, true)
		}
		return !ev.Snap.Running
	case protocol.KindProgress:
		if ev.Gen == s.gen && ev.Progress != nil {
			s.progress, s.running = ev.Progress, ev.Progress.Running
		}
	case protocol.KindError:
		m.Board.Add(s.Title+": "+ev.Error, true)
		if ev.Field != "" {
			m.engineErr[ev.Field] = ev.Error
		}
	}
	return false
}

// running reports whether any side trains.
func (m *multiLab) running() bool {
	for _, s := range m.sides {
		if s.running {
			return true
		}
	}
	return false
}

// sendAll sends op to every side.
func (m *multiLab) sendAll(op string) {
	for _, s := range m.sides {
		s.run.Send(protocol.Command{Op: op})
	}
}

func (m *multiLab) togglePlay() {
	if m.running() {
		m.sendAll(protocol.OpPause)
	} else {
		m.sendAll(protocol.OpStart)
	}
}

// setParam applies one control's value: every side gets the new state, or
// new sides where the runs themselves change (the compare lab's models).
func (m *multiLab) setParam(name, value string) {
	next, _, changed := m.apply(m.st, name, value)
	if !changed {
		return
	}
	m.adopt(next, protocol.OpSet)
}

// adopt makes next the state, tells the engine and writes the permalink.
func (m *multiLab) adopt(next experiment.Experiment, op string) {
	m.st = next
	saveHash(m.st)
	m.Board.ClearEngine()
	clear(m.engineErr)
	specs := m.specs(m.st)
	if !sameRuns(specs, m.sides) {
		m.closeSides()
		m.openSides()
		return
	}
	for i, sp := range specs {
		s := m.sides[i]
		if op == protocol.OpRegenerate || sp.Exp.EncodeRun() != s.Exp.EncodeRun() {
			s.sideSpec = sp
			s.run.Send(protocol.Command{Op: op, State: sp.Exp.EncodeRun(), Layout: m.layoutFor(i), Every: sideSnapshotMs})
		}
	}
	m.redraw()
}

// sameRuns reports whether specs name the runs the sides are.
func sameRuns(specs []sideSpec, sides []*side) bool {
	if len(specs) != len(sides) {
		return false
	}
	for i := range specs {
		if specs[i].Name != sides[i].Name {
			return false
		}
	}
	return true
}

func (m *multiLab) applyHash(h string) {
	if strings.TrimPrefix(h, "#") == m.st.Encode() {
		return // the page wrote it
	}
	st, err := experiment.Decode(h)
	if st.View.Lab != m.st.View.Lab {
		return // another lab: the shell replaces this one
	}
	reportLinkProblems(m.Board, err)
	clear(m.fieldErr)
	clear(m.typed)
	m.adopt(st, protocol.OpSet)
}

// regenerate draws a new graph from the next data seed, for every side.
func (m *multiLab) regenerate() {
	next := m.st
	next.Data.Seed = nextSeed(m.st.Data.Seed)
	m.adopt(next, protocol.OpRegenerate)
}

// onKey maps the same keys as the graph lab.
func (m *multiLab) onKey(ctx app.Context, e app.Event) {
	if typing(e) {
		return
	}
	switch e.Get("key").String() {
	case " ", "k":
		m.togglePlay()
	case "s", "ArrowRight":
		m.sendAll(protocol.OpStep)
	case "r":
		m.sendAll(protocol.OpReset)
	case "g":
		m.regenerate()
	default:
		return
	}
	e.PreventDefault()
}

// renderToolbar drives every side at once and shows each one's epoch.
func (m *multiLab) renderToolbar() app.UI {
	playLabel := "▶ Train all"
	if m.running() {
		playLabel = "❚❚ Pause"
	}
	return app.Div().Class("toolbar").Body(
		app.Button().ID("play").Class("primary").Title("Train every model, or pause them (Space)").Text(playLabel).
			OnClick(func(ctx app.Context, e app.Event) { m.togglePlay() }),
		app.Button().ID("step").Title("Train each model one epoch (S)").Text("Step").
			OnClick(func(ctx app.Context, e app.Event) { m.sendAll(protocol.OpStep) }),
		app.Button().ID("reset").Title("Back to epoch 0, same initial weights (R)").Text("Reset").
			OnClick(func(ctx app.Context, e app.Event) { m.sendAll(protocol.OpReset) }),
		app.Button().ID("regenerate").Title("A new graph from the next data seed (G)").Text("New graph").
			OnClick(func(ctx app.Context, e app.Event) { m.regenerate() }),
		app.Button().ID("copy-link").Title("Copy the link to this exact state").Text("Copy link").OnClick(func(ctx app.Context, e app.Event) { copyLink(m.Board) }),
		app.Div().Class("stats").Title("epoch · test accuracy of each run").Body(app.Range(m.sides).Slice(func(i int) app.UI {
			s := m.sides[i]
			return app.Div().Class("stat").Body(
				app.Span().Class("label").Text(s.Title+": epoch · test acc."),
				app.Span().Class("value").Body(
					runMetric(s, "epoch", float64(s.snap.Epoch), fmt.Sprintf("%d", s.snap.Epoch)),
					app.Text(" · "),
					runMetric(s, "test-accuracy", float64(s.snap.TestAcc), s.figure(float64(s.snap.TestAcc), 3)),
				),
			)
		})),
		m.renderProgress(),
	)
}

// renderProgress shows the sides whose epoch or set-up takes a while.
func (m *multiLab) renderProgress() app.UI {
	var parts []app.UI
	for _, s := range m.sides {
		p := s.progress
		if p == nil {
			continue
		}
		label := fmt.Sprintf("%s: epoch %d, %.0f%%", s.Title, p.Epoch+1, 100*p.Done)
		if p.Phase == protocol.PhaseSetup {
			label = fmt.Sprintf("%s: preparing, %.0f%%", s.Title, 100*p.Done)
			if p.Restarts != nil {
				label = fmt.Sprintf("%s: trying %d initialisations, %.0f%%", s.Title, len(p.Restarts.Seeds), 100*p.Done)
			}
		}
		parts = append(parts, app.Span().Body(
			app.Progress().Max(1).Value(fmt.Sprintf("%.3f", p.Done)).Aria("label", label), app.Text(" "+label)))
	}
	if len(parts) == 0 {
		return app.Div().ID("progress").Class("progress idle").Aria("hidden", "true")
	}
	return app.Div().ID("progress").Class("progress").Body(parts...)
}

// figure formats a side's figure: a dash before its first snapshot.
func (s *side) figure(x float64, digits int) string {
	if !s.snapped {
		return "–"
	}
	return num(x, digits)
}

// runMetric is a figure of one side, named by data-metric and data-run.
func runMetric(s *side, name string, value float64, text string) app.UI {
	if !s.snapped {
		value = math.NaN()
	}
	return app.Span().Class("metric").DataSet("metric", name).DataSet("run", s.Name).DataSet("value", plain(value)).Text(text)
}

// summaryTable is the runs side by side: a row per side, a column per
// figure, each cell a metric named by its column.
func (m *multiLab) summaryTable(id string, cols []summaryCol) app.UI {
	head := []app.UI{app.Th().Scope("col").Text("model")}
	for _, c := range cols {
		head = append(head, app.Th().Scope("col").Text(c.Title))
	}
	rows := []app.UI{app.Tr().Body(head...)}
	for _, s := range m.sides {
		cells := []app.UI{app.Th().Scope("row").Text(s.Title)}
		for _, c := range cols {
			v := c.Value(s)
			cells = append(cells, app.Td().Body(runMetric(s, c.Metric, v, s.figure(v, c.Digits))))
		}
		rows = append(rows, app.Tr().Body(cells...))
	}
	return app.Table().ID(id).Class("runs").Body(app.TBody().Body(rows...))
}

// summaryCol is one column of summaryTable.
type summaryCol struct {
	Title, Metric string
	Digits        int
	Value         func(*side) float64
}

// sideColor is run i's colour in the overlaid charts: the sweep's, which
// tell models apart.
func sideColor(i int) string { return viz.SweepColors[i%len(viz.SweepColors)] }

// epochsOf is the longest run's epochs, for a shared x axis.
func (m *multiLab) epochsOf() float64 {
	e := 1
	for _, s := range m.sides {
		e = max(e, s.Exp.Train.Epochs)
	}
	return float64(e)
}
