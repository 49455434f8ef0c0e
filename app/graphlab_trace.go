package app

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/experiment"
	"pdnexplorer/viz"
	"pdnexplorer/wasm/protocol"
)

// nodeTrace is the view "How this node is updated": one node's update
// through the model's two layers with its numbers, a step at a time. The
// engine sends the node's trace (pdn.Trace) with every snapshot while it
// is open, so it follows training, and the scrubber rewinds it with the
// snapshots it came with.
type nodeTrace struct {
	open bool
	node int // the node the engine traces, -1 for none
	step int // the step shown, 0..len(traceSteps)-1
}

// traceSteps are the view's steps, in the order of the computation.
// traceHoodPx is the most the node's neighbourhood is shown wide
// (web/app.css, .trace-hood svg).
const traceHoodPx = 240

var traceSteps = []string{
	msg("1 · The learned weight of each edge"),
	msg("2 · Each neighbour's message to layer 1"),
	msg("3 · The sum and the activation"),
	msg("4 · Layer 2 and the softmax"),
}

// followTrace asks the engine for the selected node's update while the
// view is open, and for none once it is closed or nothing is selected.
func (c *GraphLab) followTrace() {
	want := -1
	if c.trace.open {
		want = c.insp.selected
	}
	if want == c.trace.node || len(c.runs) == 0 {
		return
	}
	c.trace.node = want
	c.one().engine.Send(protocol.Command{Op: protocol.OpTrace, Node: want})
}

// toggleTrace opens or closes the view.
func (c *GraphLab) toggleTrace() {
	c.trace.open = !c.trace.open
	c.followTrace()
	if c.trace.open && c.ctx != nil {
		// The view opens below the graph: bring it on screen, under the
		// toolbar, once it has drawn.
		c.ctx.After(100*time.Millisecond, func(app.Context) {
			if el := app.Window().GetElementByID("node-trace"); el.Truthy() {
				bringIntoView(el)
			}
		})
	}
}

// moveStep shows the step before (-1) or after (+1).
func (c *GraphLab) moveStep(d int) {
	c.trace.step = min(max(c.trace.step+d, 0), len(traceSteps)-1)
}

// renderTraceButton is the inspector's way into the view.
func (c *GraphLab) renderTraceButton() app.UI {
	if c.insp.selected < 0 {
		return app.Div()
	}
	label := tr("How this node is updated")
	if c.trace.open {
		label = tr("Close the node's update")
	}
	return app.Button().ID("trace-open").Aria("expanded", strconv.FormatBool(c.trace.open)).Text(label).
		OnClick(func(ctx app.Context, e app.Event) { c.toggleTrace() })
}

// renderTrace is the view, once open.
func (c *GraphLab) renderTrace() app.UI {
	if !c.trace.open || c.insp.selected < 0 {
		return app.Div()
	}
	r := c.one()
	t := r.snap.Trace
	var body []app.UI
	switch {
	case r.snap.TraceError != nil:
		body = []app.UI{app.P().Class("empty").Text(say(*r.snap.TraceError))}
	case (t == nil || t.Node != c.insp.selected) && r.frames != nil && r.frames.rewound():
		// A frame from before the trace was opened holds no update, and
		// nothing is being asked while the views are rewound.
		body = []app.UI{app.P().ID("trace-none").Class("empty").Text(tr("This epoch's snapshot was kept before the node's update was asked for, so it holds none: move the slider to a later epoch, or back to Live."))}
	case t == nil || t.Node != c.insp.selected:
		body = []app.UI{app.P().Class("placeholder").Text(tr("Asking the engine for the node's update…"))}
	default:
		body = c.traceBody(r, t)
	}
	return app.Div().ID("node-trace").Class("card wide").Body(append([]app.UI{
		app.H2().Text(trf("How node %d is updated · epoch %d", c.insp.selected, r.snap.Epoch)),
	}, body...)...)
}

// shareSentence says what the two shares shown mean, read from them: the
// model's weights lower the share from other classes, raise it, or leave
// it about where GCN's are (within half a point). Where no weight could
// move the share it says why instead, never that the weights failed to: a
// node without edges hears only itself, a node without a class has no
// other classes, and a node whose neighbours are all of its class hears
// none of another (GCN's share, every weight positive, is then 0). A model
// that learns no weight over edges (GCN) has the graph's share whatever it
// trains; before the first epoch a model that learns them has its initial
// ones: it says so, not that anything was learned.
func shareSentence(t *protocol.Trace, kind string, epoch int) string {
	switch d := float64(t.InterShare) - float64(t.InterShareGCN); {
	case !hasEdges(t):
		return tr("It has no edges: its update reads only its own features, through its self-loop, so no learned weight can change it.")
	case t.Label < 0 || math.IsNaN(d):
		return tr("It has no class, so none of its messages comes from another class: there is no share for the weights to move.")
	case t.InterShareGCN == 0:
		return tr("All of its neighbours are of its own class: no message comes from another class, whatever the weights.")
	case !experiment.WeighsEdges(kind):
		return tr("GCN weighs each edge as the graph gives it: this share is the graph's own, and training does not move it.")
	case epoch == 0:
		return tr("At epoch 0 nothing is learned yet: these are the weights the model starts from. Train a few epochs to see where learning moves the share.")
	case d < -0.005:
		return tr("Here the learned weights lower it, weighing the edges from other classes down; GCN's stays what the graph gives.")
	case d > 0.005:
		return tr("Here the learned weights raise it: they weigh the edges from other classes up, not down.")
	}
	return tr("Here the learned weights leave it about where GCN has it: they do not yet tell the classes apart.")
}

// hasEdges reports whether the traced node has an edge, listed or summed.
func hasEdges(t *protocol.Trace) bool { return len(t.Edges) > 0 || t.Rest.Edges > 0 }

// traceBody is the trace's share of messages from other classes, the
// neighbourhood and the step shown.
func (c *GraphLab) traceBody(r *run, t *protocol.Trace) []app.UI {
	kind := r.Exp.Model.Kind
	share := app.P().Class("trace-share").Body(
		app.Text(tr("Share of its message from other classes: ")),
		app.Strong().Body(metric("inter-class-message-share", kind, float64(t.InterShare), num(float64(t.InterShare), 3))),
		app.Text(trf(" with %s's weights; ", kind)),
		metric("inter-class-message-share", "gcn", float64(t.InterShareGCN), num(float64(t.InterShareGCN), 3)),
		app.Text(tr(" with every α = 1, as GCN has it. ")+shareSentence(t, kind, r.snap.Epoch)))
	ns := make([]viz.Neighbour, len(t.Edges))
	for k, e := range t.Edges {
		ns[k] = viz.Neighbour{Name: strconv.Itoa(e.Neighbour), Class: e.Label, Weight: float64(e.Norm)}
	}
	var hood string
	legibleWithin(traceHoodPx, func() {
		hood = viz.Neighbourhood(220, trf("Node %d and its heaviest neighbours", t.Node), strconv.Itoa(t.Node), t.Label, ns)
	})
	step := c.trace.step
	nav := app.Div().Class("trace-nav").Body(
		app.Button().ID("trace-prev").Text(tr("← Previous")).Disabled(step == 0).OnClick(func(ctx app.Context, e app.Event) { c.moveStep(-1) }),
		app.Span().ID("trace-step").Aria("live", "polite").Text(tr(traceSteps[step])),
		app.Button().ID("trace-next").Text(tr("Next →")).Disabled(step == len(traceSteps)-1).OnClick(func(ctx app.Context, e app.Event) { c.moveStep(1) }),
	)
	var content app.UI
	switch step {
	case 0:
		content = c.traceWeights(t)
	case 1:
		content = traceMessages(t)
	case 2:
		content = traceActivation(t)
	default:
		content = traceSoftmax(t, r.graph)
	}
	more := ""
	if t.Rest.Edges > 0 {
		more = trf(" The %d lighter edges are summed as one row (together â = %s).", t.Rest.Edges, num(float64(t.Rest.Norm), 3))
	}
	return []app.UI{share,
		app.Div().Class("trace").Body(
			app.Div().Class("trace-hood").Body(app.Raw(hood),
				app.P().Class("note").Text(tr("Each edge is as wide as its normalised weight â; dashed edges join other classes.")+more)),
			app.Div().Class("trace-step").Body(nav, content)),
	}
}

// traceWeights is step 1: each edge's features, the pathfinder's hidden
// units and weight α, the degrees, â, and â with every α = 1.
func (c *GraphLab) traceWeights(t *protocol.Trace) app.UI {
	rows := []app.UI{app.Tr().Body(app.Th().Text(tr("neighbour")), app.Th().Text(tr("features z")), app.Th().Text(tr("hidden units")),
		app.Th().Text("α"), app.Th().Text("d_j"), app.Th().Text("â"), app.Th().Text(tr("â (α = 1)")))}
	for _, e := range t.Edges {
		rows = append(rows, app.Tr().Body(
			app.Td().Body(app.Raw(viz.Swatch(viz.ClassColor(e.Label))), app.Text(fmt.Sprintf(" %d", e.Neighbour))),
			app.Td().Body(strip("features", e.Features)),
			app.Td().Body(strip(tr("the pathfinder's hidden units"), e.PathHidden)),
			app.Td().Body(metric("trace-alpha", strconv.Itoa(e.Neighbour), float64(e.Alpha), num(float64(e.Alpha), 3))),
			app.Td().Text(num(float64(e.Degree), 2)),
			app.Td().Body(metric("trace-norm", strconv.Itoa(e.Neighbour), float64(e.Norm), num(float64(e.Norm), 3))),
			app.Td().Text(num(float64(e.NormGCN), 3)),
		))
	}
	if !hasEdges(t) {
		return app.P().ID("trace-no-edges").Text(trf("Node %d has no edges, so there is no edge to weigh: its self-loop alone carries its own features, with weight â = %s, and they are all it hears.", t.Node, num(float64(t.Self), 3)))
	}
	if t.Attention {
		return traceAttention(t, rows)
	}
	var formula app.UI = app.Div()
	if len(t.Edges) > 0 {
		e := t.Edges[0]
		formula = mathML(fmt.Sprintf(`<math display="block"><msub><mover><mi>a</mi><mo>^</mo></mover><mrow><mi>i</mi><mi>j</mi></mrow></msub><mo>=</mo>`+
			`<mfrac><msub><mi>α</mi><mrow><mi>i</mi><mi>j</mi></mrow></msub><msqrt><msub><mi>d</mi><mi>i</mi></msub><msub><mi>d</mi><mi>j</mi></msub></msqrt></mfrac><mo>=</mo>`+
			`<mfrac><mn>%s</mn><msqrt><mn>%s</mn><mo>·</mo><mn>%s</mn></msqrt></mfrac><mo>=</mo><mn>%s</mn></math>`,
			num(float64(e.Alpha), 3), num(float64(t.Degree), 2), num(float64(e.Degree), 2), num(float64(e.Norm), 3)))
	}
	return app.Div().Body(
		app.P().Text(trf("The pathfinder reads each edge's features z and gives it a weight α = σ(MLP(z)). The degrees d = 1 + Σα normalise it; node %d's is %s, and its own self-loop weighs â = 1/d = %s.",
			t.Node, num(float64(t.Degree), 2), num(float64(t.Self), 3))),
		formula,
		dataTable("", "runs trace-table", rows...),
	)
}

// traceAttention is step 1 for GAT: its attention, averaged over the
// heads, with the table of rows.
func traceAttention(t *protocol.Trace, rows []app.UI) app.UI {
	var formula app.UI = app.Div()
	if len(t.Edges) > 0 {
		formula = mathML(fmt.Sprintf(`<math display="block"><msubsup><mi>α</mi><mrow><mi>i</mi><mi>j</mi></mrow><mi>h</mi></msubsup><mo>=</mo>`+
			`<msub><mi>softmax</mi><mrow><mi>j</mi><mo>∈</mo><mi>N</mi><mo>(</mo><mi>i</mi><mo>)</mo><mo>∪</mo><mo>{</mo><mi>i</mi><mo>}</mo></mrow></msub>`+
			`<mi>LeakyReLU</mi><mo>(</mo><msup><mi>a</mi><mi>h</mi></msup><mo>·</mo><mo>[</mo><msup><mi>W</mi><mi>h</mi></msup><msub><mi>x</mi><mi>i</mi></msub><mo>‖</mo><msup><mi>W</mi><mi>h</mi></msup><msub><mi>x</mi><mi>j</mi></msub><mo>]</mo><mo>)</mo>`+
			`<mo>,</mo><mspace width="1em"/><mfrac><mn>1</mn><mi>H</mi></mfrac><munder><mo>∑</mo><mi>h</mi></munder><msubsup><mi>α</mi><mrow><mi>i</mi><mi>j</mi></mrow><mi>h</mi></msubsup><mo>=</mo><mn>%s</mn></math>`,
			num(float64(t.Edges[0].Alpha), 3)))
	}
	return app.Div().Body(
		app.P().Text(trf(tr("GAT learns its weights from the nodes, not the edges: each of its heads scores every neighbour, and the node itself, and a softmax over the neighbourhood turns the scores into weights that sum to 1, so no degree normalises them. "+
			"The table gives α averaged over the heads (â is the same number); node %d's own weight is %s."), t.Node, num(float64(t.Self), 3))),
		formula,
		dataTable("", "runs trace-table", rows...),
	)
}

// pick is yes when b holds, else no.
func pick(b bool, yes, no string) string {
	if b {
		return yes
	}
	return no
}

// traceMessages is step 2: each neighbour's message â_ij x_j W₁ᵀ.
func traceMessages(t *protocol.Trace) app.UI {
	rows := []app.UI{app.Tr().Body(app.Th().Text("from"), app.Th().Text("â"), app.Th().Text(tr("message (one bar per hidden unit)")), app.Th().Text(tr("unit 1")))}
	add := func(name string, class int, norm protocol.Num, msg []protocol.Num) {
		rows = append(rows, app.Tr().Body(app.Td().Body(app.Raw(viz.Swatch(viz.ClassColor(class))), app.Text(" "+name)),
			app.Td().Text(num(float64(norm), 3)), app.Td().Body(strip("message", msg)), app.Td().Text(first(msg))))
	}
	add(trf("%d (itself)", t.Node), t.Label, t.Self, t.Msg1)
	for _, e := range t.Edges {
		add(strconv.Itoa(e.Neighbour), e.Label, e.Norm, e.Msg1)
	}
	if t.Rest.Edges > 0 {
		add(trf("%d more", t.Rest.Edges), t.Label, t.Rest.Norm, t.Rest.Msg1)
	}
	formula, words := `<math display="block"><msubsup><mi>m</mi><mi>j</mi><mn>1</mn></msubsup><mo>=</mo><msub><mover><mi>a</mi><mo>^</mo></mover><mrow><mi>i</mi><mi>j</mi></mrow></msub><mo>·</mo><msub><mi>x</mi><mi>j</mi></msub><msubsup><mi>W</mi><mn>1</mn><mo>⊤</mo></msubsup></math>`,
		tr("Each neighbour sends its features through the layer's weights W₁, scaled by its normalised weight: a neighbour the pathfinder weighs down is barely heard.")
	if t.Attention {
		formula, words = `<math display="block"><msubsup><mi>m</mi><mi>j</mi><mn>1</mn></msubsup><mo>=</mo><munder><mo>‖</mo><mi>h</mi></munder><msubsup><mi>α</mi><mrow><mi>i</mi><mi>j</mi></mrow><mi>h</mi></msubsup><msup><mi>W</mi><mi>h</mi></msup><msub><mi>x</mi><mi>j</mi></msub></math>`,
			tr("Each head sends the neighbour's features through its own weights, scaled by its own attention, and the heads' outputs sit side by side: a neighbour the heads attend little to is barely heard.")
	}
	return app.Div().Body(
		mathML(formula),
		app.P().Text(words),
		dataTable("", "runs trace-table", rows...),
	)
}

// traceActivation is step 3: the messages' sum with the bias, and the
// ReLU, with the first unit's numbers substituted.
func traceActivation(t *protocol.Trace) app.UI {
	var sum float64
	terms := ""
	add := func(x protocol.Num) {
		if len(terms) > 0 {
			terms += `<mo>+</mo>`
		}
		terms += `<mn>` + num(float64(x), 3) + `</mn>`
		sum += float64(x)
	}
	if len(t.Msg1) > 0 {
		add(t.Msg1[0])
		for _, e := range t.Edges {
			add(e.Msg1[0])
		}
		if len(t.Rest.Msg1) > 0 {
			add(t.Rest.Msg1[0])
		}
	}
	act, keeps := "ReLU", tr("the ReLU keeps what is positive")
	if t.Attention {
		act, keeps = "ELU", tr("GAT's ELU keeps what is positive and squashes what is negative towards −1")
	}
	unit := ""
	if len(t.Pre1) > 0 {
		unit = fmt.Sprintf(`<math display="block"><msub><mi>h</mi><mrow><mi>i</mi><mo>,</mo><mn>1</mn></mrow></msub><mo>=</mo><mi>%s</mi><mo>(</mo>%s<mo>+</mo><mn>%s</mn><mo>)</mo><mo>=</mo><mi>%s</mi><mo>(</mo><mn>%s</mn><mo>)</mo><mo>=</mo><mn>%s</mn></math>`,
			act, terms, num(float64(t.Bias1[0]), 3), act, num(float64(t.Pre1[0]), 3), num(float64(t.Hidden[0]), 3))
	}
	return app.Div().Body(
		mathML(`<math display="block"><msub><mi>h</mi><mi>i</mi></msub><mo>=</mo><mi>`+act+`</mi><mo>(</mo><msub><mo>∑</mo><mi>j</mi></msub><msubsup><mi>m</mi><mi>j</mi><mn>1</mn></msubsup><mo>+</mo><msub><mi>b</mi><mn>1</mn></msub><mo>)</mo></math>`),
		app.P().Text(tr("The messages, the node's own among them, are summed with the bias; ")+keeps+tr(". The first hidden unit, with its numbers:")),
		mathML(unit),
		app.Div().Class("trace-bars").Body(
			app.P().Text(tr("Before the ReLU")), strip(tr("before the activation"), t.Pre1),
			app.P().Text(tr("The layer's output h")), strip(tr("the layer's output"), t.Hidden)),
	)
}

// traceSoftmax is step 4: layer 2's messages, the logits and the softmax.
func traceSoftmax(t *protocol.Trace, g *protocol.Graph) app.UI {
	cells := []app.UI{app.Tr().Body(app.Th().Text(tr("class")), app.Th().Text(tr("own")), app.Th().Text(tr("neighbours")), app.Th().Text(tr("bias")), app.Th().Text(tr("logit")), app.Th().Text(tr("probability")))}
	for k := range t.Logits {
		var nb float64
		for _, e := range t.Edges {
			nb += float64(e.Msg2[k])
		}
		if k < len(t.Rest.Msg2) {
			nb += float64(t.Rest.Msg2[k])
		}
		label := fmt.Sprintf(" %d", k)
		if k == t.Pred {
			label += tr(" (predicted)")
		}
		cells = append(cells, app.Tr().Body(
			app.Td().Body(app.Raw(viz.Swatch(viz.ClassColor(k))), app.Text(label)),
			app.Td().Text(num(float64(t.Msg2[k]), 3)), app.Td().Text(num(nb, 3)), app.Td().Text(num(float64(t.Bias2[k]), 3)),
			app.Td().Text(num(float64(t.Logits[k]), 3)),
			app.Td().Body(metric("trace-probability", strconv.Itoa(k), float64(t.Prob[k]), num(float64(t.Prob[k]), 3))),
		))
	}
	verdict := ": right."
	switch {
	case t.Label < 0:
		verdict = tr(": no class to check it against.")
	case t.Pred != t.Label:
		verdict = ": wrong."
	}
	weight := `<msub><mover><mi>a</mi><mo>^</mo></mover><mrow><mi>i</mi><mi>j</mi></mrow></msub>`
	if t.Attention {
		weight = `<msubsup><mi>α</mi><mrow><mi>i</mi><mi>j</mi></mrow><mn>2</mn></msubsup>`
	}
	return app.Div().Body(
		mathML(`<math display="block"><msub><mi>z</mi><mi>i</mi></msub><mo>=</mo><msub><mo>∑</mo><mi>j</mi></msub>`+weight+`<msub><mi>h</mi><mi>j</mi></msub><msubsup><mi>W</mi><mn>2</mn><mo>⊤</mo></msubsup><mo>+</mo><msub><mi>b</mi><mn>2</mn></msub><mo>,</mo><mspace width="1em"/><msub><mi>p</mi><mi>i</mi></msub><mo>=</mo><mi>softmax</mi><mo>(</mo><msub><mi>z</mi><mi>i</mi></msub><mo>)</mo></math>`),
		app.P().Text(pick(t.Attention,
			tr("Layer 2 attends afresh, with one head of its own (its attention is not the table's of step 1), and passes the neighbours' outputs h along it, one number per class; the softmax turns the logits into probabilities."),
			tr("Layer 2 passes the neighbours' outputs h along the same weights â, one number per class; the softmax turns the logits into probabilities."))),
		dataTable("", "runs trace-table", cells...),
		app.P().Body(app.Text(trf("Node %d is of %s; the model predicts ", t.Node, className(g, t.Label))),
			metric("trace-prediction", "", float64(t.Pred), className(g, t.Pred)), app.Text(verdict)),
	)
}

// strip is a vector as a small bar strip, or a dash for none.
func strip(label string, xs []protocol.Num) app.UI {
	if len(xs) == 0 {
		return app.Text("–")
	}
	vs := make([]float64, len(xs))
	for i, x := range xs {
		vs[i] = float64(x)
	}
	return app.Span().Class("strip").Body(app.Raw(viz.Strip(min(4*len(vs), 128), 22, label, vs)))
}

// first is a vector's first value, or a dash.
func first(xs []protocol.Num) string {
	if len(xs) == 0 || math.IsNaN(float64(xs[0])) {
		return "–"
	}
	return num(float64(xs[0]), 3)
}
