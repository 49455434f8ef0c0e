package app

import (
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/edgekind"
	"pdnexplorer/experiment"
	"pdnexplorer/internal/testwait"
	"pdnexplorer/wasm/protocol"
)

// core is a lab's core, for tests.
func (l *lab) core() *lab { return l }

// mountLab mounts the lab called name alone, on an engine of fake workers,
// with the state of link.
func mountLab(t *testing.T, name, link string) (room, *lab, *[]*fakeConn, app.ClientDispatcher) {
	t.Helper()
	conns := &[]*fakeConn{}
	e := NewEngine(func(ev EventFunc) Conn {
		f := &fakeConn{onEvent: ev}
		*conns = append(*conns, f)
		return started(f)
	}, dialFakeReader)
	newRoom, ok := rooms[name]
	if !ok {
		t.Fatalf("no component for the %s lab", name)
	}
	rm := newRoom(&page{engine: e, board: &Board{}, save: func(experiment.Experiment) {}})
	st, err := experiment.Decode(link)
	if err != nil {
		t.Fatal(err)
	}
	rm.show(st, nil)
	rm.(interface{ core() *lab }).core().unpaced = true
	rm.(interface{ core() *lab }).core().allControls = true // the tests read every control the table gives
	d := app.NewClientTester(rm)
	t.Cleanup(d.Close)
	d.Consume()
	return rm, rm.(interface{ core() *lab }).core(), conns, d
}

// playRun plays, on run i's worker, a two-node graph, a snapshot at epoch
// 3 whose test accuracy tells the runs apart, and, on the first, a layout.
func playRun(f *fakeConn, i int) {
	f.play(protocol.Event{Kind: protocol.KindGraph, Gen: 1, Graph: &protocol.Graph{Nodes: 2, Src: []int32{0}, Dst: []int32{1},
		Labels: []int{0, 1}, Kinds: []edgekind.Kind{edgekind.Inter}, Test: []bool{false, true},
		Inputs: []string{"degree-product", "jaccard"}}}, nil)
	f.play(protocol.Event{Kind: protocol.KindSnapshot, Gen: 1, Snap: &protocol.Snapshot{Epoch: 3, Epochs: 200, TestAcc: 0.5 + 0.1*protocol.Num(i),
		Weights: 1, Nodes: 2, WIntra: protocol.Num(math.NaN()), WInter: 0.25, XOR: &protocol.XOR{Mean: [4]protocol.Num{0.1, 0.8, 0.9, 0.2}, Found: true},
		Degree: []protocol.DegreeBin{{MinDegree: 2, Entries: 5, Mean: 0.4}, {MinDegree: 64, Entries: 9, Mean: 0.01}},
		Inputs: []float64{0.25, 0.75}, Hops: []float64{0.6, 0.4}}}, []float32{0.25, 0, 1, 1, 1})
	if i == 0 {
		f.play(protocol.Event{Kind: protocol.KindLayout, Gen: 1}, []float32{0, 0, 1, 1})
	}
}

// labChecks are what a lab shows beyond every lab's numbers, once its
// runs have played playRun; every lab gets TestEveryLab's checks without
// one.
var labChecks = map[string]func(t *testing.T, h string){
	"graph": func(t *testing.T, h string) {
		if !hasMetric(h, "inter-mean-weight", "", "0.25") || !strings.Contains(h, `id="rewind"`) || !strings.Contains(h, `id="export-bundle"`) {
			t.Error("the graph lab misses its graph view, scrubber or exports")
		}
	},
	"xor": func(t *testing.T, h string) {
		if !hasMetric(h, "alpha-01", "gcn", "0.8") || !hasMetric(h, "found-xor", "pdn-16", "1") || !strings.Contains(h, `id="table3"`) {
			t.Error("the XOR lab misses its state weights or Table 3")
		}
		// Table 3's headers are its own rows, in its columns: a group over
		// the three learned numbers and one over the three hand-set ones,
		// above a header for each, as many columns as each row has cells.
		t3 := between(h, `id="table3-values"`, "</table>")
		head, body := between(t3, "<thead", "</thead>"), between(t3, "<tbody", "</tbody>")
		if strings.Count(head, `colspan="3"`) != 2 || strings.Count(head, `rowspan="2"`) != 1 || strings.Count(head, "<th ") != 1+2+6 {
			t.Errorf("Table 3's header is not a group over each three columns and a header over each: %s", head)
		}
		if rows := strings.Count(body, "<tr"); rows != 4 || strings.Count(body, "<td")+strings.Count(body, "<th") != 4*7 {
			t.Errorf("Table 3's %d rows hold %d cells; want 4 of 7", rows, strings.Count(body, "<td")+strings.Count(body, "<th"))
		}
	},
	"degree": func(t *testing.T, h string) {
		if !hasMetric(h, "weight-highest-degree", "gat", "0.01") || !hasMetric(h, "weight-lowest-degree", "pdn", "0.4") {
			t.Error("the degree lab misses its bins")
		}
	},
	"compare": func(t *testing.T, h string) {
		// One layout, each run's own weights on it.
		if !hasMetric(h, "inter-share", "pdn", "1") || !hasMetric(h, "inter-mean-weight", "pdn", "0.25") ||
			!hasMetric(h, "inter-mean-weight", "gcn", "0.25") || strings.Count(h, `class="mini-canvas"`) != 2 {
			t.Error("the compare lab misses the inter-class share or a small learned-graph view per run")
		}
	},
	"structure": func(t *testing.T, h string) {
		// The matrix view of PDN's graph; the pool's tables, empty before Run.
		if !strings.Contains(h, `id="matrix-view"`) || strings.Contains(h, "The graph appears here once it is drawn.") {
			t.Error("the structure lab misses its matrix view")
		}
		if strings.Count(h, `data-metric="robust-accuracy"`) != 3*24 || strings.Count(h, `data-perturb="add-inter"`) != 1+3*6 ||
			strings.Count(h, `data-metric="transfer-accuracy"`) != 6 || strings.Count(h, `data-graph="pdn"`) != 3 {
			t.Error("the structure lab misses its robustness cells or its transfer cells")
		}
	},
	"attention": func(t *testing.T, h string) {
		if !hasMetric(h, "attention-jaccard", "linear", "0.75") || !hasMetric(h, "hop-1", "multiscale", "0.6") {
			t.Error("the attention lab misses the named attention or the hop weights")
		}
		// The most attended first, a score Figure 8's text names beside
		// what it says of it.
		jac, deg := strings.Index(h, `data-metric="attention-jaccard"`), strings.Index(h, `data-metric="attention-degree-product"`)
		if jac < 0 || deg < jac || !strings.Contains(h[deg:], "(the paper: low)") {
			t.Error("the attention lab does not rank the scores, or does not say what the paper says of the degree product")
		}
	},
}

// Every lab of the table has a component that opens one run per run of
// its state, each on its own worker, with the lab's defaults: only the
// lab's first worker lays a graph out, if the lab draws one. It offers
// exactly its rows, names each run's figures by data-run where it shows
// several, and says its keys.
func TestEveryLab(t *testing.T) {
	if len(rooms) != len(experiment.Labs) {
		t.Errorf("%d components for %d labs", len(rooms), len(experiment.Labs))
	}
	for _, row := range experiment.Labs {
		t.Run(row.Name, func(t *testing.T) {
			rm, l, conns, d := mountLab(t, row.Name, "lab="+row.Name)
			st := experiment.ForLab(row.Name)
			specs := row.Runs(st)
			if row.Queue {
				checkQueuedLab(t, rm, l, conns, d, specs)
				return
			}
			if len(*conns) != len(specs) || len(l.runs) != len(specs) {
				t.Fatalf("%d workers and %d runs for %d specs", len(*conns), len(l.runs), len(specs))
			}
			for i, f := range *conns {
				layout := protocol.LayoutNone
				if l.drawsGraph && i == 0 {
					layout = ""
				}
				if len(f.sent) != 1 || f.sent[0].Op != protocol.OpSet || f.sent[0].Layout != layout {
					t.Fatalf("worker %d got %+v", i, f.sent)
				}
				if f.sent[0].State != specs[i].Exp.EncodeEngine() {
					t.Errorf("run %s was sent %s", specs[i].Name, f.sent[0].State)
				}
				playRun(f, i)
			}
			d.Consume()
			h := app.HTMLString(rm)
			several := len(specs) > 1
			for i, r := range specs {
				name := ""
				if several {
					name = r.Name
				}
				if want := plain(float64(0.5 + 0.1*protocol.Num(i))); !hasMetric(h, "test-accuracy", name, want) {
					t.Errorf("no test-accuracy %s of %q", want, name)
				}
			}
			checkControlsAndKeys(t, h, row, l)
			checkTables(t, h)
			if check, ok := labChecks[row.Name]; ok {
				check(t, h)
			}
		})
	}
}

// tableTag is a table's opening tag.
var tableTag = regexp.MustCompile(`<table[^>]*>`)

// checkTables checks that every table of the lab is a runs table, whose
// style sets each column's header over its numbers (the structure lab's
// robustness and transfer tables had the browser's: headers centred over
// numbers set to the left).
func checkTables(t *testing.T, h string) {
	t.Helper()
	for _, tag := range tableTag.FindAllString(h, -1) {
		if !regexp.MustCompile(`class="data-table[ "]`).MatchString(tag) {
			t.Errorf("a table of another style than the runs tables': %s", tag)
		}
	}
}

// checkControlsAndKeys checks that the lab offers exactly the rows of the
// table it shows (the view's rows are each lab's own to offer), and that
// its keys line says what Space does.
func checkControlsAndKeys(t *testing.T, h string, row experiment.Lab, l *lab) {
	t.Helper()
	for _, p := range experiment.Params {
		if p.Group == experiment.GroupView {
			continue
		}
		if shown, want := strings.Contains(h, `id="ctl-`+p.Name+`"`), row.Shows(p) && p.Applies(l.st.Data) && matters(p, l.models()) && !p.Idle(l.st); shown != want {
			t.Errorf("control for %s shown %v, want %v", p.Name, shown, want)
		}
	}
	play := playWords(l)
	if w, ok := l.keyWords[cmdPlay]; ok {
		play = w
	}
	if !strings.Contains(h, "Keys: Space or K "+play) {
		t.Errorf("the keys line does not say what Space does: %q", play)
	}
}

// checkQueuedLab checks a lab whose runs are queued (the sweep's): no
// run opens before Play; Play opens a run on each worker of the pool, in
// the sweep's order, quietly; each run that ends hands its worker the
// next run not yet trained, and its result is shown.
func checkQueuedLab(t *testing.T, rm room, l *lab, conns *[]*fakeConn, d app.ClientDispatcher, specs []experiment.Run) {
	t.Helper()
	if len((*conns)[0].sent) != 0 || len(l.runs) != 0 {
		t.Fatalf("before play: %d commands, %d runs", len((*conns)[0].sent), len(l.runs))
	}
	doIn(d, rm, func() { rm.do(cmdPlay) })
	workers := sweepWorkers()
	if len(*conns) != workers {
		t.Fatalf("%d workers; want a pool of %d", len(*conns), workers)
	}
	for round := 0; round < 2; round++ {
		for i, f := range *conns {
			job := round*workers + i
			set := f.sent[len(f.sent)-2]
			if set.Op != protocol.OpSet || !set.Quiet || set.Layout != protocol.LayoutNone || set.State != specs[job].Exp.EncodeEngine() || f.sent[len(f.sent)-1].Op != protocol.OpStart {
				t.Fatalf("round %d, worker %d got %s; want run %s, quietly, then start", round, i, f.ops(), specs[job].Name)
			}
			f.play(protocol.Event{Kind: protocol.KindSnapshot, Snap: &protocol.Snapshot{Epoch: 200, Epochs: 200, TestAcc: 0.5 + 0.1*protocol.Num(job)}}, nil)
		}
		d.Consume()
	}
	h := app.HTMLString(rm)
	if !hasMetric(h, "sweep-done", "", plain(float64(2*workers))) || !hasMetric(h, "sweep-total", "", plain(float64(len(specs)))) {
		t.Errorf("the progress does not say %d of %d runs done", 2*workers, len(specs))
	}
	// Graph 1 of the first value: pdn 0.5, gcn 0.6; graph 2: 0.7 and 0.8.
	if !strings.Contains(h, `data-metric="sweep-accuracy" data-model="pdn" data-run="pdn" data-x="0.0009765625" data-value="0.6"`) {
		t.Error("the figure has no point for pdn's mean at the first value")
	}
	checkControlsAndKeys(t, h, l.row, l)
}

// A run's figures carry data-run only where the lab shows several runs.
func TestDataRunNamesRunsOfSeveral(t *testing.T) {
	rm, _, conns, d := mountLab(t, "graph", "lab=graph")
	playRun((*conns)[0], 0)
	d.Consume()
	if strings.Contains(app.HTMLString(rm), "data-run=") {
		t.Error("the graph lab's one run names itself")
	}
}

// The compare lab's models come from the state table: a bad choice (one
// model, a model twice) is refused beside the checkboxes and changes
// nothing; a good one starts a run on a worker of its own.
func TestCompareLabModels(t *testing.T) {
	rm, l, conns, d := mountLab(t, "compare", "lab=compare")
	c := rm.(*CompareLab)
	doIn(d, c, func() { c.toggleModel("pdn", false) }) // one model left: refused
	if !strings.Contains(say(l.fieldErr["models"]), "2 to 4") || len(l.runs) != 2 {
		t.Errorf("one model: error %q, %d runs", say(l.fieldErr["models"]), len(l.runs))
	}
	doIn(d, c, func() { c.setParam("models", "pdn,pdn,pdn,pdn") })
	if !strings.Contains(say(l.fieldErr["models"]), "each once") || len(l.runs) != 2 {
		t.Errorf("one model four times: error %q, %d runs", say(l.fieldErr["models"]), len(l.runs))
	}
	doIn(d, c, func() { c.toggleModel("gat", true) })
	if len(l.runs) != 3 || l.runs[2].Name != "gat" || len(*conns) != 3 || say(l.fieldErr["models"]) != "" {
		t.Fatalf("adding gat: %d runs on %d workers", len(l.runs), len(*conns))
	}
	// Changing models reopens the runs on the same workers, paused first.
	if ops := (*conns)[0].ops(); ops != "set,pause,set" {
		t.Errorf("the first worker got %s", ops)
	}
	doIn(d, c, func() { c.setParam("lr", "0.02") })
	if last := (*conns)[2].sent[len((*conns)[2].sent)-1]; last.Op != protocol.OpSet || !strings.Contains(last.State, "lr=0.02") || !strings.Contains(last.State, "model=gat") {
		t.Errorf("a new lr sent %+v", last)
	}
}

// Commands reach every run of a lab; a new graph moves the data seed and
// regenerates every run; play pauses them all once any trains.
func TestCommandsReachEveryRun(t *testing.T) {
	_, l, conns, d := mountLab(t, "xor", "lab=xor&per-class=64")
	for i, f := range *conns {
		playRun(f, i)
	}
	d.Consume()
	l.do(cmdStep)
	l.do(cmdNewGraph)
	for i, f := range *conns {
		if ops := f.ops(); ops != "set,step,regenerate" || !strings.Contains(f.sent[2].State, "seed=2&") {
			t.Errorf("worker %d got %s (%s)", i, ops, f.sent[len(f.sent)-1].State)
		}
	}
	if l.st.Data.Seed != 2 {
		t.Errorf("the state's seed is %d", l.st.Data.Seed)
	}
}

// doIn runs f as an event handler of lab c would.
func doIn(d app.ClientDispatcher, c app.Composer, f func()) {
	d.Dispatch(app.Dispatch{Mode: app.Update, Source: c, Function: func(app.Context) { f() }})
	d.Consume()
}

var metricTag = regexp.MustCompile(`<[a-z]+ [^>]*>`)

// hasMetric reports whether the page has an element with the metric of
// the run ("" for one without data-run) and the value, its attributes in
// any order.
func hasMetric(h, name, run, value string) bool {
	return slices.ContainsFunc(metricTag.FindAllString(h, -1), func(tag string) bool {
		return strings.Contains(tag, `data-metric="`+name+`"`) && strings.Contains(tag, `data-value="`+value+`"`) &&
			(run == "" && !strings.Contains(tag, "data-run=") || run != "" && strings.Contains(tag, `data-run="`+run+`"`))
	})
}

// A burst of snapshots is drawn at the lab's pace, and its last one is
// drawn once the pace allows, even when no event follows it.
func TestBurstsAreDrawnAtThePace(t *testing.T) {
	rm, l, conns, d := mountLab(t, "degree", "lab=degree")
	l.unpaced = false
	c := rm.(*DegreeLab)
	for i, f := range *conns {
		playRun(f, i) // a new graph: drawn at once
	}
	d.Consume()
	first := c.degree
	for _, f := range *conns {
		f.play(protocol.Event{Kind: protocol.KindSnapshot, Gen: 1, Snap: &protocol.Snapshot{Epoch: 4, Epochs: 200,
			Degree: []protocol.DegreeBin{{MinDegree: 2, Entries: 5, Mean: 0.3}, {MinDegree: 1024, Entries: 9, Mean: 0.001}}}}, []float32{0.5, 0, 1, 1, 1})
	}
	d.Consume()
	// The lab of several runs takes the burst when its flush pace allows,
	// then draws it when its draw pace does: neither at once.
	if c.degree != first || (!l.drawing && len(l.queued) == 0) {
		t.Fatal("a snapshot right after a draw was drawn at once, or neither its flush nor its draw was scheduled")
	}
	testwait.For(t, 50*time.Millisecond, func() bool { d.Consume(); return c.degree != first })
	if c.degree == first || l.drawing || !strings.Contains(c.degree, "<svg") {
		t.Error("the burst's last snapshot was never drawn")
	}
}

// A lab of one graph is settling (aria-busy) from its first render until
// every run's engine has sent its graph, and again from a state that
// names another graph until it comes: the intro and the chance line,
// which say the graph's counts, move the page when they come. A lab of
// many graphs (a queue) never waits for one.
func TestLabIsBusyUntilItsGraphComes(t *testing.T) {
	// go-app writes a true aria-busy as the bare attribute on the server
	// (the browser's DOM reads "true"), its attributes in any order.
	labTag, busyAttr := regexp.MustCompile(`<div( [^>]*)? class="lab [^>]*>`), regexp.MustCompile(` aria-busy(="true")?[ >]`)
	busy := func(rm room) bool { return busyAttr.MatchString(labTag.FindString(app.HTMLString(rm))) }
	for _, row := range experiment.Labs {
		t.Run(row.Name, func(t *testing.T) {
			rm, l, conns, d := mountLab(t, row.Name, "lab="+row.Name)
			if row.Queue {
				if l.settling() {
					t.Error("a queue of graphs is settling")
				}
				return
			}
			if !l.settling() || !busy(rm) {
				t.Fatal("not busy before its graph came")
			}
			for i, f := range *conns {
				playRun(f, i)
			}
			d.Consume()
			if l.settling() {
				t.Fatal("settling once every graph came")
			}
			l.runs[len(l.runs)-1].answered = false
			if !l.settling() {
				t.Error("not settling while one run's graph has not come")
			}
			doIn(d, rm, func() { rm.do(cmdNewGraph) })
			if !l.settling() {
				t.Error("not settling while a new graph comes")
			}
			for i, f := range *conns {
				playRun(f, i)
			}
			d.Consume()
			if l.settling() {
				t.Error("settling once the new graphs came")
			}
			// A row the graph does not depend on brings no graph: the lab
			// stays settled; the data seed brings another.
			doIn(d, rm, func() { l.setParam("epochs", "150") })
			if l.settling() {
				t.Error("settling after a change of epochs, which brings no graph")
			}
			doIn(d, rm, func() { l.setParam("seed", "7") })
			if !l.settling() {
				t.Error("not settling after a change of the data seed")
			}
		})
	}
}
