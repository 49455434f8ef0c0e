package app

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/edgekind"
	"pdnexplorer/experiment"
	"pdnexplorer/internal/numtext"
	"pdnexplorer/tiestrength"
	"pdnexplorer/wasm/protocol"
)

// maxChangedListed is how many changed predictions the editor names, and
// maxEdgeChoices how many of a node's edges its menu offers (the heaviest,
// and the one chosen): a hub's thousands would cost every render and help
// nobody choose.
const (
	maxChangedListed = 8
	maxEdgeChoices   = 100
)

// Looks an added edge's features may copy.
const (
	lookKind  = "kind"
	lookIntra = "intra"
	lookInter = "inter"
)

// editor is the card "Edit the graph": with a node selected, an edge to
// add from it, or one of its edges to remove or to give other features;
// the edits so far, each undoable; and what the last edit changed. Edits
// are the state's edits row, so they travel in the link, and the engine
// carries the model on over the edited graph (pdn.Trainer.Regraph), so
// the weights and predictions shown after an edit are the same model's
// forward pass over the new graph.
type editor struct {
	to, look string
	toErr    string
	// ends is the edge chosen among the selected node's, for ok.
	ends [2]int
	ok   bool
	// feature is the feature the slider sets.
	feature int
	// sentGen is the graph's generation when an edit went to the engine,
	// before the predictions then, while it is under way (pending).
	sentGen int
	before  []float32
	pending bool
	// changed are the nodes whose predicted class the last edit changed,
	// counted says it has been counted.
	changed []predChange
	counted bool
	// incident caches the selected node's edges (all, not only drawn).
	incident    []int
	incidentFor [2]int // node and graph generation
}

type predChange struct{ node, from, to int }

// forgetGraph lets go of what the editor held of the graph before another
// arrived: the edge chosen, the node typed, an edit under way and what the
// last edit changed (whose classes were that graph's).
func (ed *editor) forgetGraph() {
	*ed = editor{look: ed.look, feature: ed.feature}
}

// selectionChanged follows a new selected node: the trace asks for it,
// and the editor lets its edge go.
func (c *GraphLab) selectionChanged() {
	c.followTrace()
	c.chooseEdge("")
	c.ed.toErr = ""
}

// chooseEdge makes the edge "u-v" the one the editor changes ("" for
// none) and asks the engine for its features.
func (c *GraphLab) chooseEdge(value string) {
	a, b, ok := strings.Cut(value, "-")
	u, errU := numtext.ParseInt(a)
	v, errV := numtext.ParseInt(b)
	ok = ok && errU == nil && errV == nil
	if ok == c.ed.ok && (!ok || c.ed.ends == [2]int{u, v}) {
		return
	}
	c.ed.ends, c.ed.ok = [2]int{u, v}, ok
	if len(c.runs) == 0 {
		return
	}
	cmd := protocol.Command{Op: protocol.OpEdge}
	if ok {
		cmd.Ends = []int{u, v}
	}
	c.one().engine.Send(cmd)
}

// edits is the state's edit list, read once a list (a render reads no
// state as text): a copy, for the caller to change.
func (c *GraphLab) edits() experiment.Edits {
	if !c.editsRead.done || c.editsRead.text != c.st.Data.Edits {
		es, _ := experiment.ParseEdits(c.st.Data.Edits)
		c.editsRead.text, c.editsRead.list, c.editsRead.done = c.st.Data.Edits, es, true
	}
	return slices.Clone(c.editsRead.list)
}

// makeEdit adds e to the list (experiment.Edits.Then) and sends it.
func (c *GraphLab) makeEdit(e experiment.Edit) {
	c.setEdits(c.edits().Then(e))
}

// setEdits makes es the state's edits; the predictions now are kept to
// tell what the edit changes.
func (c *GraphLab) setEdits(es experiment.Edits) {
	r := c.one()
	c.ed.sentGen, c.ed.before, c.ed.pending, c.ed.counted = r.gen, slices.Clone(r.pred), true, false
	c.setParam(experiment.EditsRow, es.String())
}

// edgeTaken follows the engine's answer to an edit: the first snapshot
// of the edited graph tells which predictions changed; a refusal ends it.
func (c *GraphLab) edgeTaken(r *run, ev protocol.Event) {
	switch {
	case !c.ed.pending:
	case ev.Kind == protocol.KindError && ev.Field == experiment.EditsRow:
		c.ed.pending = false
	case ev.Kind == protocol.KindSnapshot && ev.Gen > c.ed.sentGen && ev.Gen == r.gen:
		c.ed.pending, c.ed.counted, c.ed.changed = false, true, nil
		if len(c.ed.before) != len(r.pred) {
			return
		}
		for i := range r.pred {
			if r.pred[i] != c.ed.before[i] {
				c.ed.changed = append(c.ed.changed, predChange{i, int(c.ed.before[i]), int(r.pred[i])})
			}
		}
	}
}

// incidentEdges are the selected node's edges in the graph, heaviest
// first, computed once per node and graph.
func (c *GraphLab) incidentEdges(node int) []int {
	r := c.one()
	if c.ed.incidentFor == [2]int{node, r.gen} && c.ed.incident != nil {
		return c.ed.incident
	}
	var es []int
	for e := range r.graph.Src {
		if int(r.graph.Src[e]) == node || int(r.graph.Dst[e]) == node {
			es = append(es, e)
		}
	}
	c.ed.incident, c.ed.incidentFor = es, [2]int{node, r.gen}
	return es
}

// edgeIndex is the index of edge u–v in the run's graph, -1 for none.
func edgeIndex(g *protocol.Graph, u, v int) int { return experiment.EdgeAt(g.Src, g.Dst, u, v) }

// exampleEdge is the graph's first edge whose ends share a class (intra)
// or do not, other than skip: the edge "make it look intra-class" copies.
func exampleEdge(g *protocol.Graph, intra bool, skip int) int {
	kind := edgekind.Inter
	if intra {
		kind = edgekind.Intra
	}
	return experiment.ExampleEdge(g.Src, g.Dst, g.Labels, kind, skip)
}

// addEdge adds the edge from the selected node to the one typed, with the
// look chosen, or says why it cannot.
func (c *GraphLab) addEdge() {
	g, from := c.one().graph, c.insp.selected
	to, err := numtext.ParseInt(strings.TrimSpace(c.ed.to))
	switch {
	case g == nil || from < 0:
		return
	case err != nil || to < 0 || to >= g.Nodes:
		c.ed.toErr = trf("Type a node number from 0 to %d.", g.Nodes-1)
		return
	case to == from:
		c.ed.toErr = tr("An edge joins two different nodes.")
		return
	case edgeIndex(g, from, to) >= 0:
		c.ed.toErr = trf("Nodes %d and %d are joined already: choose the edge below to change it.", from, to)
		return
	}
	e := experiment.Edit{Op: experiment.EditAdd, U: from, V: to}
	if c.ed.look == lookIntra || c.ed.look == lookInter {
		ex := exampleEdge(g, c.ed.look == lookIntra, -1)
		if ex < 0 {
			c.ed.toErr = tr("The graph has no edge of that kind to copy.")
			return
		}
		e.From, e.HasFrom = [2]int{int(g.Src[ex]), int(g.Dst[ex])}, true
	}
	c.ed.toErr, c.ed.to = "", ""
	c.makeEdit(e)
	c.chooseEdge(fmt.Sprintf("%d-%d", from, to))
}

// lookLike gives the chosen edge the features of the graph's first edge
// of the kind named.
func (c *GraphLab) lookLike(intra bool) {
	g := c.one().graph
	at := edgeIndex(g, c.ed.ends[0], c.ed.ends[1])
	ex := exampleEdge(g, intra, at)
	if at < 0 || ex < 0 {
		return
	}
	c.makeEdit(experiment.Edit{Op: experiment.EditSet, U: c.ed.ends[0], V: c.ed.ends[1],
		From: [2]int{int(g.Src[ex]), int(g.Dst[ex])}, HasFrom: true})
}

// slideFeature sets the chosen edge's feature to the value at slider
// position pos of sliderSteps, over the feature's range across the
// graph's edges. The edge, the feature and the range are read now, not
// when the slider was drawn: go-app keeps the slider's first handler.
func (c *GraphLab) slideFeature(pos int) {
	st := c.one().snap.Edge
	if st == nil || st.Ends != c.ed.ends || len(st.Features) == 0 {
		return
	}
	k := min(c.ed.feature, len(st.Features)-1)
	lo, hi := float64(st.Lo[k]), float64(st.Hi[k])
	c.setFeature(k, lo+float64(pos)/sliderSteps*(hi-lo), lo, hi, float64(st.Features[k]))
}

// setFeature sets feature k of the chosen edge to x, in [lo, hi], unless
// it holds that value already (now): an edit that changes nothing is not
// an edit, and the list and the link would keep it as one. A feature
// whose range is one value offers no slider (renderFeatureSlider).
func (c *GraphLab) setFeature(k int, x, lo, hi, now float64) {
	// Four significant digits keep the link short; the ends of the range
	// stay exact, so the value is never outside it.
	if x = numtext.RoundSignificant(x, 4); x <= lo || x >= hi {
		x = min(max(x, lo), hi)
	}
	if float32(x) == float32(now) {
		return
	}
	c.makeEdit(experiment.Edit{Op: experiment.EditSet, U: c.ed.ends[0], V: c.ed.ends[1], Feature: k, Value: x})
}

// removeEdge removes the chosen edge.
func (c *GraphLab) removeEdge() {
	c.makeEdit(experiment.Edit{Op: experiment.EditRemove, U: c.ed.ends[0], V: c.ed.ends[1]})
	c.chooseEdge("")
}

// takeBack drops edit i of the list.
func (c *GraphLab) takeBack(i int) {
	es := c.edits()
	if i < 0 || i >= len(es) {
		return
	}
	c.setEdits(slices.Delete(es, i, i+1))
}

// renderEditor is the card.
func (c *GraphLab) renderEditor() app.UI {
	r := c.one()
	body := []app.UI{app.H2().Text(tr("Edit the graph"))}
	switch sel := c.insp.selected; {
	case r.graph == nil:
		body = append(body, app.P().Class("placeholder").Text(tr("The graph is on its way…")))
	case sel < 0:
		body = append(body, app.P().Class("note").Text(tr("Select a node in the graph (click or tap it, or focus the graph and press →) to add an edge from it, or to remove or change one of its edges.")))
	default:
		body = append(body, c.renderAddEdge(sel), c.renderChangeEdge(sel))
	}
	body = append(body, c.renderChanged(), c.renderEditList(),
		app.P().Class("note").Text(tr("After an edit the same model, with the weights it has learned so far, reads the edited graph at once: its weight for every edge and its prediction for every node are its forward pass over the new graph. "+
			"Play trains on from there; Reset trains the edited graph from the start. The edits travel in the link.")))
	return app.Div().ID("edit").Class("card wide editor").Body(body...)
}

// renderAddEdge is the form that adds an edge from node sel.
func (c *GraphLab) renderAddEdge(sel int) app.UI {
	g := c.one().graph
	looks := []struct{ value, words string }{
		{lookKind, tr("the first edge of its kind")},
		{lookIntra, tr("an intra-class edge")},
		{lookInter, tr("an inter-class edge")},
	}
	return app.Div().Class("edit-add").Body(
		app.Label().For("edit-to").Text(trf("Add an edge from node %d to node ", sel)),
		app.Input().ID("edit-to").Type("number").Min(0).Max(g.Nodes-1).Step(1).Value(c.ed.to).
			OnInput(func(ctx app.Context, e app.Event) { c.ed.to = ctx.JSSrc().Get("value").String() }).
			OnKeyDown(func(ctx app.Context, e app.Event) {
				if e.Get("key").String() == "Enter" {
					c.addEdge()
				}
			}),
		app.Label().For("edit-look").Text(tr(" with the features of ")),
		app.Select().ID("edit-look").Body(app.Range(looks).Slice(func(i int) app.UI {
			return app.Option().Value(looks[i].value).Text(looks[i].words).Selected(looks[i].value == c.ed.look)
		})).OnChange(func(ctx app.Context, e app.Event) { c.ed.look = ctx.JSSrc().Get("value").String() }),
		app.Button().ID("edit-add").Text(tr("Add edge")).OnClick(func(ctx app.Context, e app.Event) { c.addEdge() }),
		app.If(c.ed.toErr != "", app.P().ID("edit-to-error").Class("field-error").Aria("live", "polite").Text(c.ed.toErr)),
	)
}

// renderChangeEdge is the choice of one of node sel's edges and what can
// be done to it.
func (c *GraphLab) renderChangeEdge(sel int) app.UI {
	r := c.one()
	g := r.graph
	es := slices.Clone(c.incidentEdges(sel))
	weight := func(e int) float32 {
		if e < len(r.weights) {
			return r.weights[e]
		}
		return float32(math.NaN())
	}
	slices.SortStableFunc(es, func(a, b int) int { return cmp.Compare(weight(b), weight(a)) })
	chosen := ""
	if c.ed.ok {
		chosen = fmt.Sprintf("%d-%d", c.ed.ends[0], c.ed.ends[1])
	}
	opts := []app.UI{app.Option().Value("").Text(tr("choose one of its edges…")).Selected(chosen == "")}
	label := tr("Or change one of its edges ")
	if len(es) > maxEdgeChoices {
		label = trf("Or change one of its %d heaviest edges (of %d) ", maxEdgeChoices, len(es))
		if at := edgeIndex(g, c.ed.ends[0], c.ed.ends[1]); c.ed.ok && at >= 0 && !slices.Contains(es[:maxEdgeChoices], at) {
			es[maxEdgeChoices-1] = at // the chosen edge stays on offer
		}
		es = es[:maxEdgeChoices]
	}
	for _, e := range es {
		o := other(g, e, sel)
		value := fmt.Sprintf("%d-%d", sel, o)
		words := trf("to node %d · %s", o, kindName(g, e))
		if w := weight(e); !math.IsNaN(float64(w)) {
			words += tr(" · weight ") + num(float64(w), 3)
		}
		opts = append(opts, app.Option().Value(value).Text(words).Selected(value == chosen))
	}
	out := []app.UI{
		app.Label().For("edit-edge").Text(label),
		app.Select().ID("edit-edge").Body(opts...).
			OnChange(func(ctx app.Context, e app.Event) { c.chooseEdge(ctx.JSSrc().Get("value").String()) }),
	}
	if c.ed.ok {
		out = append(out, c.renderEdgeTools(g))
	}
	return app.Div().Class("edit-edge").Body(out...)
}

// renderEdgeTools are the chosen edge's weight and the ways to change it.
func (c *GraphLab) renderEdgeTools(g *protocol.Graph) app.UI {
	r := c.one()
	at := edgeIndex(g, c.ed.ends[0], c.ed.ends[1])
	if at < 0 {
		return app.P().Class("note").Text(tr("That edge is no longer in the graph."))
	}
	alpha := app.Text(tr("no learned weight for this model"))
	if at < len(r.weights) {
		w := float64(r.weights[at])
		alpha = metric("edit-alpha", "", w, num(w, 3))
	}
	out := []app.UI{
		app.P().Body(app.Strong().Text(trf("Edge %d–%d", c.ed.ends[0], c.ed.ends[1])),
			app.Text(trf(" (%s): its weight α is ", kindName(g, at))), alpha, app.Text(".")),
		app.Div().Class("edit-buttons").Body(
			app.Button().ID("edit-remove").Text(tr("Remove it")).OnClick(func(ctx app.Context, e app.Event) { c.removeEdge() }),
			app.Button().ID("edit-intra").Text(tr("Make it look intra-class")).
				Title(tr("Give it the features of the graph's first intra-class edge")).
				OnClick(func(ctx app.Context, e app.Event) { c.lookLike(true) }),
			app.Button().ID("edit-inter").Text(tr("Make it look inter-class")).
				Title(tr("Give it the features of the graph's first inter-class edge")).
				OnClick(func(ctx app.Context, e app.Event) { c.lookLike(false) }),
		),
	}
	return app.Div().Class("edit-tools").Body(append(out, c.renderFeatureSlider(at))...)
}

// featureNames are the d edge features by name, as the attention lab
// names them: the tie-strength scores in the page's language, a graph's
// own features by its files' names, else by number.
func (c *GraphLab) featureNames(d int) []string {
	if g := c.one().graph; g != nil && len(g.Inputs) == d {
		return scoreLabels(g.Inputs, tiestrength.Label)
	}
	out := make([]string, d)
	for i := range out {
		out[i] = trf("feature %d", i)
	}
	return out
}

// renderFeatureSlider sets one feature of the chosen edge within the
// range it spans over the graph's edges.
func (c *GraphLab) renderFeatureSlider(at int) app.UI {
	st := c.one().snap.Edge
	switch {
	case st == nil || st.Ends != c.ed.ends || st.Index != at:
		return app.P().Class("placeholder").Text(tr("Asking the engine for the edge's features…"))
	case len(st.Features) == 0:
		return app.P().Class("note").Text(tr("This graph's edges have no features to set."))
	}
	d := len(st.Features)
	k := min(c.ed.feature, d-1)
	lo, hi, x := float64(st.Lo[k]), float64(st.Hi[k]), float64(st.Features[k])
	names := c.featureNames(d)
	feats := make([]app.UI, d)
	for i := range feats {
		feats[i] = app.Option().Value(strconv.Itoa(i)).Text(names[i]).Selected(i == k)
	}
	choose := []app.UI{
		app.Label().For("edit-feature").Text(tr("Set ")),
		app.Select().ID("edit-feature").Body(feats...).OnChange(func(ctx app.Context, e app.Event) {
			c.ed.feature, _ = numtext.ParseInt(ctx.JSSrc().Get("value").String())
		}),
	}
	var set []app.UI
	if !(hi > lo) {
		// Every edge holds the one value: a slider would span nothing,
		// and each move would add an edit that changes nothing.
		set = []app.UI{app.Span().ID("edit-value-fixed").Class("edit-range").Text(trf(": every edge of the graph has %s at %s, so there is nothing to set.", names[k], strconv.FormatFloat(x, 'g', 4, 64)))}
	} else {
		set = []app.UI{
			app.Label().For("edit-value").Class("visually-hidden").Text(trf("Value of %s", names[k])),
			// The range in sliderSteps positions (see positionSlider).
			positionSlider("edit-value", int(math.Round((x-lo)/(hi-lo)*sliderSteps)), sliderSteps).
				OnChange(func(ctx app.Context, e app.Event) {
					pos, _ := numtext.ParseInt(ctx.JSSrc().Get("value").String())
					c.slideFeature(pos)
				}),
			app.Span().Class("edit-range").Text(trf("%s (from %s to %s, the range over the graph's edges)", num(x, 3), num(lo, 2), num(hi, 2))),
		}
	}
	return app.Div().Class("edit-feature").Body(append(append(choose, set...),
		app.P().Class("note").Body(app.Text(tr("Its features: ")), strip(tr("the edge's features"), st.Features)))...)
}

// renderChanged says what the last edit changed.
func (c *GraphLab) renderChanged() app.UI {
	if !c.ed.counted {
		return app.Div()
	}
	n := len(c.ed.changed)
	out := []app.UI{app.Text(tr("The last edit changed the predicted class of ")), metric("edit-changed-predictions", "", float64(n), strconv.Itoa(n)),
		app.Text(pick(n == 1, tr(" node"), tr(" nodes")))}
	if n > 0 {
		list := ": "
		for i, ch := range c.ed.changed[:min(n, maxChangedListed)] {
			if i > 0 {
				list += ", "
			}
			list += trf("node %d from %s to %s", ch.node, className(c.one().graph, ch.from), className(c.one().graph, ch.to))
		}
		if n > maxChangedListed {
			list += trf(" and %d more", n-maxChangedListed)
		}
		out = append(out, app.Text(list))
	}
	out = append(out, app.Text("."))
	return app.P().ID("edit-changed").Aria("live", "polite").Body(out...)
}

// renderEditList lists the edits, each one undoable.
func (c *GraphLab) renderEditList() app.UI {
	es := c.edits()
	if len(es) == 0 {
		return app.P().ID("edit-list").Class("note").Text(tr("No edits yet: the graph is as its rows draw it."))
	}
	items := make([]app.UI, len(es))
	for i, e := range es {
		items[i] = app.Li().Body(app.Span().Text(editWords(e)+" "),
			app.Button().Class("small").ID(fmt.Sprintf("edit-undo-%d", i)).Text(tr("take back")).
				Aria("label", tr("Take back: ")+editWords(e)).
				OnClick(func(ctx app.Context, ev app.Event) { c.takeBack(i) }))
	}
	return app.Div().Class("edit-list").Body(
		app.H3().Text(trf("Edits (%d)", len(es))),
		app.Ol().ID("edit-list").Body(items...),
		app.Button().ID("edit-undo").Text(tr("Undo the last edit")).OnClick(func(ctx app.Context, e app.Event) { c.takeBack(len(c.edits()) - 1) }),
		app.Button().ID("edit-clear").Text(tr("Clear all edits")).OnClick(func(ctx app.Context, e app.Event) { c.setEdits(nil) }),
	)
}

// editWords says what an edit does.
func editWords(e experiment.Edit) string {
	from := ""
	if e.HasFrom {
		from = trf("the features of edge %d–%d", e.From[0], e.From[1])
	}
	switch {
	case e.Op == experiment.EditRemove:
		return trf("Removed edge %d–%d", e.U, e.V)
	case e.Op == experiment.EditAdd && e.HasFrom:
		return trf("Added edge %d–%d with %s", e.U, e.V, from)
	case e.Op == experiment.EditAdd:
		return trf("Added edge %d–%d with the features of the first edge of its kind", e.U, e.V)
	case e.HasFrom:
		return trf("Gave edge %d–%d %s", e.U, e.V, from)
	}
	return trf("Set feature %d of edge %d–%d to %s", e.Feature, e.U, e.V, strconv.FormatFloat(e.Value, 'g', -1, 64))
}
