package app

import (
	"math"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/edgekind"
	"pdnexplorer/experiment"
	"pdnexplorer/viz"
	"pdnexplorer/wasm/protocol"
)

// maxDrawnEdges bounds the edges the graph view draws; larger graphs show
// an even sample of their edges, and say so.
const maxDrawnEdges = 15000

// While training runs, the views redraw no more often than the eye follows
// them: the graph view and the charts each cost the page's main thread a
// parse or a paint, and on a 2-core machine the worker needs the other core.
// The numbers in the toolbar follow every snapshot; a stopped run is drawn
// at once.
const (
	graphRedraw = 200 * time.Millisecond
	chartRedraw = 250 * time.Millisecond
)

// GraphLab is the lab of the learned graph: the controls of the state table,
// the toolbar and the live views of one run on a synthetic graph.
type GraphLab struct {
	app.Compo

	// Engine is the app's connection to the engine, Board its notices;
	// the shell hands both to every lab.
	Engine *Engine
	Board  *Board

	st  experiment.Experiment // the state table's rows: the run and its view
	run *Run
	controls

	gen     int
	graph   *protocol.Graph
	pos     []float32 // the engine's layout of graph, before Arrange
	learned []float32 // its learned layout, when the view shows it
	// separation is viz.OwnCentreShare of the drawing, NaN before one.
	separation float64
	// movedNodes says a layout came in that the view has yet to draw.
	movedNodes bool
	view       *viz.Graph
	drawIdx    []int // edges drawn, when the graph has too many
	snap       protocol.Snapshot
	snapped    bool
	weights    []float32
	pred       []float32 // the predicted class of each node
	prob       []float32 // the probability the model gives it
	hist       history

	edges, nodes                          painter      // the view's layers, canvases
	insp                                  inspector    // what is pointed at in it
	strokes                               []viz.Stroke // what it draws
	curvesSVG, histSVG, shareSVG, attnSVG string
	noWeights                             string // why the weight cards are empty, if they are
	lastGraphDraw, lastChartDraw          time.Time
	unlisten, unlistenHash                func()

	// progress is how far a long epoch or a slow set-up has got, nil when
	// there is none under way; running is whether the engine is training,
	// from the latest snapshot or progress.
	progress *protocol.Progress
	running  bool
	warned   string // the instability warning already shown

	// opening says the user's files went to the engine and the lab waits
	// for its answer; loaded is what the engine read; dragging says files
	// are held over the lab.
	opening  bool
	loaded   *protocol.Loaded
	dragging bool

	rw rewind // the run's frames, for the scrubber

	// Snapshots that arrived since the UI last caught up: each adds a point
	// to the curves, only the newest is drawn, so a slow frame never leaves
	// a backlog behind the engine.
	queued []queuedSnapshot
}

type queuedSnapshot struct {
	ev  protocol.Event
	f32 []float32
}

// history holds one point per snapshot received.
type history struct {
	epoch, loss, train, test, share []float64
	hops                            [][]float64 // the multi-scale PDN's P per snapshot
}

func (h *history) reset() { *h = history{} }

// drop removes the last point.
func (h *history) drop() {
	n := len(h.epoch) - 1
	h.epoch, h.loss, h.train, h.test, h.share, h.hops = h.epoch[:n], h.loss[:n], h.train[:n], h.test[:n], h.share[:n], h.hops[:n]
}

// until is the history up to epoch, for a view rewound to it.
func (h *history) until(epoch int) *history {
	n := 0
	for n < len(h.epoch) && h.epoch[n] <= float64(epoch) {
		n++
	}
	return &history{epoch: h.epoch[:n], loss: h.loss[:n], train: h.train[:n], test: h.test[:n], share: h.share[:n], hops: h.hops[:n]}
}

// OnMount reads the permalink, starts the engine and listens for keys.
func (c *GraphLab) OnMount(ctx app.Context) {
	st, err := experiment.Decode(currentHash())
	c.st = st
	c.edges.id, c.nodes.id = edgeCanvasID, nodeCanvasID
	c.controls.init(&c.st, c.setParam)
	c.reportLinkProblems(err)
	c.run = c.Engine.Open(func(ev protocol.Event, f32 []float32) {
		if ev.Kind == protocol.KindSnapshot {
			c.queued = append(c.queued, queuedSnapshot{ev, f32})
			if len(c.queued) == 1 {
				ctx.Dispatch(func(ctx app.Context) { c.flushSnapshots() })
			}
			return
		}
		ctx.Dispatch(func(ctx app.Context) {
			c.flushSnapshots() // keep the order of events
			c.onEvent(ev, f32)
		})
	})
	c.run.Send(protocol.Command{Op: protocol.OpSet, State: c.st.EncodeRun()})
	if c.st.View.Layout == experiment.LayoutLearned {
		c.askLayout()
	}
	c.unlisten = app.Window().AddEventListener("keydown", c.onKey)
	c.unlistenHash = app.Window().AddEventListener("hashchange", c.onHashChange)
	c.saveHash()
}

// reportLinkProblems shows what a link held that the explorer cannot use.
func (c *GraphLab) reportLinkProblems(err error) { reportLinkProblems(c.Board, err) }

func reportLinkProblems(b *Board, err error) {
	if err != nil {
		b.Add("This link has values the explorer cannot use; they were replaced by defaults: "+
			strings.ReplaceAll(err.Error(), "\n", "; "), false)
	}
}

// onHashChange applies a link typed into the address bar, or reached by
// Back or Forward, with the same validation as a link opened afresh.
func (c *GraphLab) onHashChange(ctx app.Context, e app.Event) {
	c.applyHash(currentHash())
}

func (c *GraphLab) applyHash(h string) {
	if strings.TrimPrefix(h, "#") == c.st.Encode() {
		return // the page wrote it
	}
	st, err := experiment.Decode(h)
	if st.View.Lab != c.st.View.Lab {
		return // another lab: the shell replaces this one
	}
	c.reportLinkProblems(err)
	before := c.st
	c.st = st
	c.fieldErr, c.typed = map[string]string{}, map[string]string{}
	c.saveHash() // the address bar shows what runs
	if st.EncodeRun() != before.EncodeRun() {
		c.request(protocol.OpSet)
	}
	c.applyView(before.View)
}

// applyView redraws what a change of the view's rows changes: the
// arrangement of the nodes, or which edges show. The engine is not told.
func (c *GraphLab) applyView(before experiment.View) {
	switch {
	case c.st.View.Layout != before.Layout:
		if c.st.View.Layout == experiment.LayoutLearned || before.Layout == experiment.LayoutLearned {
			c.askLayout()
		}
		c.relayout()
	case c.st.View.Threshold != before.Threshold:
		c.redrawGraph()
	case c.st.View.Present != before.Present:
		c.relayout() // the canvases' width changed: paint them afresh
	}
}

// request sends the current state to the engine with op (set or
// regenerate). What the engine said of the state before no longer holds.
func (c *GraphLab) request(op string) {
	c.Board.ClearEngine()
	clear(c.engineErr)
	c.run.Send(protocol.Command{Op: op, State: c.st.EncodeRun()})
}

// OnDismount ends the lab's run.
func (c *GraphLab) OnDismount() {
	if c.run != nil {
		c.run.Close()
	}
	if c.unlisten != nil {
		c.unlisten()
	}
	if c.unlistenHash != nil {
		c.unlistenHash()
	}
	c.edges.release()
	c.nodes.release()
}

func currentHash() string {
	u := app.Window().URL()
	if u == nil {
		return ""
	}
	return u.EscapedFragment()
}

// saveHash writes the state into the URL without a navigation, so the
// address bar is always the permalink.
func (c *GraphLab) saveHash() { saveHash(c.st) }

func saveHash(st experiment.Experiment) {
	h := app.Window().Get("history")
	if !h.Truthy() {
		return
	}
	h.Call("replaceState", nil, "", "#"+st.Encode())
}

// flushSnapshots applies the queued snapshots: every one adds its point to
// the curves, the newest redraws the views.
func (c *GraphLab) flushSnapshots() {
	q := c.queued
	c.queued = nil
	for i, s := range q {
		if s.ev.Gen != c.gen || s.ev.Snap == nil {
			continue
		}
		if i < len(q)-1 {
			w, pred, prob := s.ev.Snap.Split(s.f32)
			c.hist.add(*s.ev.Snap, w, c.graph)
			c.rw.add(*s.ev.Snap, w, pred, prob)
			continue
		}
		c.onEvent(s.ev, s.f32)
	}
}

// onEvent applies one event from the engine.
func (c *GraphLab) onEvent(ev protocol.Event, f32 []float32) {
	switch ev.Kind {
	case protocol.KindGraph:
		c.gen, c.graph, c.pos, c.learned, c.view, c.weights, c.snapped, c.progress = ev.Gen, ev.Graph, nil, nil, nil, nil, false, nil
		c.hist.reset()
		c.rw.reset()
		c.drawIdx = sampleEdges(len(ev.Graph.Src), maxDrawnEdges)
		c.insp.reset(ev.Graph, c.drawIdx)
		c.strokes = nil
	case protocol.KindLayout:
		if ev.Gen != c.gen || c.graph == nil {
			return
		}
		if ev.Layout == experiment.LayoutLearned {
			c.learned = f32
		} else {
			c.pos = f32
		}
		if c.running && time.Since(c.lastGraphDraw) < graphRedraw {
			c.movedNodes = true // drawn with the next snapshot's redraw
			return
		}
		c.relayout()
	case protocol.KindSnapshot:
		if ev.Gen != c.gen || ev.Snap == nil {
			return
		}
		c.onSnapshot(*ev.Snap, f32)
	case protocol.KindProgress:
		if ev.Gen == c.gen && ev.Progress != nil {
			c.progress, c.running = ev.Progress, ev.Progress.Running
		}
	case protocol.KindLoaded:
		if ev.Loaded != nil {
			c.onLoaded(*ev.Loaded)
		}
	case protocol.KindFile:
		if ev.File != nil {
			save(ev.File.Name, ev.File.Type, ev.File.Data)
		}
	case protocol.KindError:
		c.opening = false
		c.Board.Add(ev.Error, true)
		if ev.Field != "" {
			c.engineErr[ev.Field] = ev.Error
		}
	}
}

func (c *GraphLab) onSnapshot(s protocol.Snapshot, f32 []float32) {
	w, pred, prob := s.Split(f32)
	c.hist.add(s, w, c.graph)
	c.rw.add(s, w, pred, prob)
	if c.keepRewound(s, w, pred, prob) {
		return
	}
	c.rw.past, c.rw.pausing = 0, false
	c.snap, c.snapped, c.weights, c.pred, c.prob, c.running = s, true, w, pred, prob, s.Running
	if c.progress != nil && (c.progress.Phase == protocol.PhaseSetup || s.Epoch > c.progress.Epoch || !s.Running) {
		c.progress = nil
	}
	if s.Warning != "" && s.Warning != c.warned {
		c.warned = s.Warning
		c.Board.Add(s.Warning, true)
		c.engineErr[s.WarningField] = s.Warning
	}
	if !s.Running || time.Since(c.lastChartDraw) >= chartRedraw {
		c.redrawCharts()
	}
	switch {
	case s.Running && time.Since(c.lastGraphDraw) < graphRedraw:
	case c.movedNodes:
		c.relayout()
	default:
		c.redrawGraph()
	}
}

// add adds a snapshot's point, with weights w on graph g, to the curves;
// a snapshot of an epoch not after the last (a reset, a new model) starts
// them again.
func (h *history) add(s protocol.Snapshot, w []float32, g *protocol.Graph) {
	if n := len(h.epoch); n > 0 && float64(s.Epoch) < h.epoch[n-1] {
		h.reset()
	} else if n > 0 && float64(s.Epoch) == h.epoch[n-1] {
		h.drop() // the same epoch again (a pause): its newer snapshot stands
	}
	h.epoch = append(h.epoch, float64(s.Epoch))
	h.loss = append(h.loss, float64(s.Loss))
	h.train = append(h.train, float64(s.TrainAcc))
	h.test = append(h.test, float64(s.TestAcc))
	h.share = append(h.share, interShare(w, g))
	h.hops = append(h.hops, append([]float64(nil), s.Hops...))
}

// interShare is the share of the total learned weight that sits on
// inter-class edges; NaN without weights or edge kinds.
func interShare(w []float32, g *protocol.Graph) float64 {
	if g == nil || len(g.Kinds) != len(w) || len(w) == 0 {
		return math.NaN()
	}
	var inter, total float64
	for e, x := range w {
		total += float64(x)
		if g.Kinds[e] == edgekind.Inter {
			inter += float64(x)
		}
	}
	if total == 0 {
		return math.NaN()
	}
	return inter / total
}

// sampleEdges returns limit evenly spaced edge indices when a graph has
// more edges than a view draws, else nil.
func sampleEdges(e, limit int) []int {
	if e <= limit {
		return nil
	}
	idx := make([]int, limit)
	for i := range idx {
		idx[i] = int(int64(i) * int64(e) / int64(limit))
	}
	return idx
}

func newGraphView(g *protocol.Graph, pos []float32, idx []int) *viz.Graph {
	src, dst, kinds := g.Src, g.Dst, g.Kinds
	if idx != nil {
		src, dst = make([]int32, len(idx)), make([]int32, len(idx))
		if kinds != nil {
			kinds = make([]edgekind.Kind, len(idx))
		}
		for i, e := range idx {
			src[i], dst[i] = g.Src[e], g.Dst[e]
			if kinds != nil {
				kinds[i] = g.Kinds[e]
			}
		}
	}
	return viz.NewGraph(viewW, viewH, pos, g.Labels, src, dst, kinds, g.Test)
}

// onKey maps the keyboard shortcuts, except while typing in a field.
func (c *GraphLab) onKey(ctx app.Context, e app.Event) {
	if typing(e) {
		return
	}
	switch e.Get("key").String() {
	case " ", "k":
		c.togglePlay(ctx)
	case "s", "ArrowRight":
		c.send(protocol.OpStep)
	case "r":
		c.send(protocol.OpReset)
	case "g":
		c.regenerate(ctx)
	default:
		return
	}
	e.PreventDefault()
}

// typing reports whether a key goes to a field being typed into, or to a
// slider that moves by it (arrows, Home, End, Page Up and Down), or comes
// with a modifier: then it is no shortcut.
func typing(e app.Event) bool {
	if tag := strings.ToUpper(e.Get("target").Get("tagName").String()); tag == "INPUT" || tag == "SELECT" || tag == "TEXTAREA" {
		if t := e.Get("target").Get("type").String(); t != "range" {
			return true
		}
		switch k := e.Get("key").String(); {
		case strings.HasPrefix(k, "Arrow"), k == "Home", k == "End", strings.HasPrefix(k, "Page"):
			return true
		}
	}
	return e.Get("ctrlKey").Bool() || e.Get("metaKey").Bool() || e.Get("altKey").Bool()
}

func (c *GraphLab) send(op string) {
	c.run.Send(protocol.Command{Op: op})
}

func (c *GraphLab) togglePlay(ctx app.Context) {
	if c.running {
		c.send(protocol.OpPause)
	} else {
		c.goLive() // play resumes from the end
		c.send(protocol.OpStart)
	}
}

// regenerate draws a new graph from the next data seed.
func (c *GraphLab) regenerate(ctx app.Context) {
	next := c.st
	next.Data.Seed = nextSeed(c.st.Data.Seed)
	c.st = next
	c.saveHash()
	c.request(protocol.OpRegenerate)
}

// setParam validates and applies one control's new value; a bad value is
// reported beside its control and changes nothing.
func (c *GraphLab) setParam(name, value string) {
	next, p, changed := c.apply(c.st, name, value)
	if !changed {
		return
	}
	before := c.st.View
	c.st = next
	c.saveHash()
	if p.Group == experiment.GroupView {
		c.applyView(before)
		return
	}
	c.request(protocol.OpSet)
}

// nextSeed is the data seed after seed, within the seed row's range.
func nextSeed(seed uint64) uint64 {
	p, _ := experiment.Lookup("seed")
	if float64(seed+1) > p.Max {
		return 0
	}
	return seed + 1
}

// askLayout tells the engine which layout the view shows; for the learned
// one it lays the graph out afresh.
func (c *GraphLab) askLayout() {
	c.learned = nil
	c.run.Send(protocol.Command{Op: protocol.OpLayout, Layout: c.st.View.Layout})
}

// relayout rebuilds the graph view from the engine's positions, arranged
// as the state says. Until the learned layout comes, the view shows the
// input layout in its place.
func (c *GraphLab) relayout() {
	pos := c.pos
	if c.st.View.Layout == experiment.LayoutLearned && c.learned != nil {
		pos = c.learned
	}
	if c.graph == nil || pos == nil {
		return
	}
	c.movedNodes = false
	drawn := viz.Arrange(c.st.View.Layout == experiment.LayoutClasses, pos, c.graph.Labels)
	c.separation = viz.OwnCentreShare(drawn, c.graph.Labels)
	c.view = newGraphView(c.graph, drawn, c.drawIdx)
	c.nodes.paint(viewW, viewH, nodePaths(c.view.NodeLayers()))
	c.highlight()
	c.redrawGraph()
}

// copyLink puts the permalink on the clipboard.
func (c *GraphLab) copyLink(ctx app.Context, e app.Event) { copyLink(c.Board) }

func copyLink(b *Board) {
	href := app.Window().Get("location").Get("href").String()
	if clip := app.Window().Get("navigator").Get("clipboard"); clip.Truthy() {
		clip.Call("writeText", href)
	}
	b.Add("Link copied: "+href, false)
}
