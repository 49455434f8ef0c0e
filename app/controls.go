package app

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/numtext"
)

// groupTitles names the control groups, in order.
var groupTitles = []struct{ group, title string }{
	{experiment.GroupData, msg("Graph (§5.1)")},
	{experiment.GroupModel, msg("Model")},
	{experiment.GroupTrain, msg("Training")},
}

// sizeChoices are the pathfinder shapes the paper uses, offered by name.
var sizeChoices = []string{"none", "2", "16", "32,16"}

// controls are the inputs of the state table's rows, shared by the labs:
// each lab embeds one and says which rows it shows. A bad value is kept
// in its box with what is wrong with it until it is mended.
type controls struct {
	// fieldErr is what is wrong with a value typed into a control, and
	// typed that value; engineErr is what the engine said of a field about
	// the last state it was sent (messages, said in the page's language
	// when drawn); dragging holds slider values shown while dragging.
	fieldErr, engineErr map[string]phrase.Text
	typed, dragging     map[string]string

	st  *experiment.Experiment // the lab's state
	set func(name, value string)
	// models are the models the lab trains: a row none of them reads is
	// hidden (nil: every row shows).
	models func() []experiment.Model
	// more, if set, is the button under the controls that shows the rows
	// beyond the lab's story, or folds them again.
	more func() app.UI
}

// init points the controls at the lab's state and its setter.
func (c *controls) init(st *experiment.Experiment, set func(name, value string)) {
	c.fieldErr, c.engineErr = map[string]phrase.Text{}, map[string]phrase.Text{}
	c.typed, c.dragging = map[string]string{}, map[string]string{}
	c.st, c.set = st, set
}

// apply validates one control's new value against st: next is st with
// it, changed says whether it differs; a bad value is kept beside its
// control and changes nothing, and so is one that leaves two rows in
// conflict (experiment.Conflicts: epochs no longer above the restarts'
// epochs), the state table's one rule for them.
func (c *controls) apply(st experiment.Experiment, name, value string) (next experiment.Experiment, p experiment.Param, changed bool) {
	delete(c.dragging, name)
	p, ok := experiment.Lookup(name)
	if !ok {
		return st, p, false
	}
	next = st
	next.Model.EdgeHidden = append([]int(nil), st.Model.EdgeHidden...)
	next.View.Models = append([]string(nil), st.View.Models...)
	if err := p.Set(&next, value); err != nil {
		c.fieldErr[name], c.typed[name] = phrase.Of(err), value
		return st, p, false
	}
	if cs := next.Conflicts(); len(cs) > len(st.Conflicts()) {
		c.fieldErr[name], c.typed[name] = phrase.Of(cs[0].Err), value
		return st, p, false
	}
	delete(c.fieldErr, name)
	delete(c.typed, name)
	return next, p, p.Get(&next) != p.Get(&st)
}

// render draws one control per row of the state table that show keeps
// (all the engine reads when show is nil), in groups, then the lab's extra
// parts.
func (c *controls) render(show func(experiment.Param) bool, extra ...app.UI) app.UI {
	if c.st == nil {
		return app.Aside().Class("controls") // before the lab mounts
	}
	groups := make([]app.UI, 0, len(groupTitles))
	var idle []string
	var models []experiment.Model // read once: the sweep's are many
	if c.models != nil {
		models = c.models()
	}
	for _, g := range groupTitles {
		var rows []app.UI
		for _, p := range experiment.Params {
			if p.Group != g.group || !p.Applies(c.st.Data) || show != nil && !show(p) {
				continue
			}
			if models != nil && !matters(p, models) {
				idle = append(idle, tr(p.Label))
				continue
			}
			if p.Idle(*c.st) {
				continue // it waits on another row (a rate on a perturbation)
			}
			rows = append(rows, c.control(p))
		}
		title := tr(g.title)
		switch {
		case g.group != experiment.GroupData:
		case c.st.Data.Graph == experiment.GraphLocal:
			title = tr("Graph (your own)")
		case c.st.Data.Real():
			title = tr("Graph (Table 4)") // not §5.1's generator
		}
		if len(rows) > 0 {
			groups = append(groups, app.FieldSet().Body(append([]app.UI{app.Legend().Text(title)}, rows...)...))
		}
	}
	if len(idle) > 0 {
		groups = append(groups, app.P().ID("idle-rows").Class("note").Text(trf("Hidden, as they change nothing for %s now: %s.", modelNames(models), strings.Join(idle, tr(", ")))))
	}
	if c.more != nil {
		groups = append(groups, c.more())
	}
	return app.Aside().ID("controls").Class("controls").Body(append(groups, extra...)...)
}

// matters reports whether one of the models reads p.
func matters(p experiment.Param, models []experiment.Model) bool {
	for _, m := range models {
		if p.Matters(m) {
			return true
		}
	}
	return false
}

// modelNames names the models, each once, for the note on the rows they
// do not read.
func modelNames(models []experiment.Model) string {
	var names []string
	for _, m := range models {
		if !slices.Contains(names, m.Kind) {
			names = append(names, m.Kind)
		}
	}
	return strings.Join(names, tr(", "))
}

// control draws the input that fits p: a select for choices, a log₂ slider
// where the paper sweeps powers of two, a plain slider for short ranges, a
// number box otherwise (always beside sliders, for exact values).
func (c *controls) control(p experiment.Param) app.UI {
	id := "ctl-" + p.Name
	value := p.Get(c.st)
	// In words first; the paper's symbol and the link's (and the CLI's)
	// name for it after, for readers of the paper and of links.
	code := p.Name
	if p.Symbol != "" {
		code = p.Symbol + " · " + p.Name
	}
	var input app.UI
	switch {
	case p.Choices != nil:
		input = c.selectControl(id, p, value, p.Choices)
	case p.MaxLen > 0:
		input = c.selectControl(id, p, value, withCurrent(sizeChoices, value))
	default:
		input = c.numberControls(id, p, value)
	}
	row := app.Div().Class("control").Title(tr(p.Usage)+" ("+say(p.RangeText())+")").Body(
		app.Label().For(id).Body(app.Span().Class("words").Text(tr(p.Label)), app.Span().Class("code").Text(code)),
		input,
	)
	msg, bad := c.fieldErr[p.Name]
	if !bad {
		msg, bad = c.engineErr[p.Name]
	}
	if bad {
		return app.Div().Class("control-wrap invalid").Body(row, app.P().Class("field-error").Text(say(msg)))
	}
	if note := rowNote(p, c.st.Data); note != "" {
		return app.Div().Class("control-wrap").Body(row, app.P().ID("note-"+p.Name).Class("note").Text(note))
	}
	return row
}

// rowNote is what a row's control says of the graph beyond its value:
// with Q above P the generator draws more edges between classes than
// within, a heterophilic graph, which the paper never drew.
func rowNote(p experiment.Param, d experiment.Data) string {
	if p.Name != "q" || d.Graph != experiment.GraphSynthetic && d.Graph != experiment.GraphXOR || d.Q <= d.P {
		return ""
	}
	intra, inter := d.ExpectedEdges()
	return trf("Q above P: more edges between classes than within (about %.0f against %.0f), a heterophilic graph, which the paper's generator never drew.", inter, intra)
}

func withCurrent(choices []string, v string) []string {
	for _, c := range choices {
		if c == v {
			return choices
		}
	}
	return append(append([]string(nil), choices...), v)
}

// rowOf is the row whose control fired an event, read from the element's
// id when the event comes: go-app keeps an element's first handler while
// later renders give the element to another row (All controls, or a
// model that reads other rows, shifts the rows), so a handler that held
// its row set the wrong one.
func rowOf(ctx app.Context) (experiment.Param, bool) {
	id := ctx.JSSrc().Get("id").String()
	return experiment.Lookup(strings.TrimSuffix(strings.TrimPrefix(id, "ctl-"), "-slider"))
}

// setFrom sets the row of the control that fired to value(p), p its row.
func (c *controls) setFrom(ctx app.Context, value func(p experiment.Param) string) {
	if p, ok := rowOf(ctx); ok {
		c.change(ctx, p.Name, value(p))
	}
}

// change sets row name to value from the control that fired, then puts
// that control back to what the state holds: the one way a control of
// the page changes a row (a test fails on a handler that calls setParam).
// go-app writes an element's value or checked only when its render
// changes, and a change the state refused (a sixth model, the last model
// unticked) renders as before: the box kept the user's tick while the
// state, the link and the runs held another set.
func (c *controls) change(ctx app.Context, name, value string) {
	c.set(name, value)
	c.putBack(ctx.JSSrc(), name)
}

// putBack makes el, a control of row name, show the state's value: a
// checkbox of a list row (its value one of the row's choices) is ticked
// when the list holds its choice, a slider is at the value's position, a
// menu or a box holds the value. A value typed that the row refused stays
// in its box, beside what is wrong with it.
func (c *controls) putBack(el app.Value, name string) {
	p, ok := experiment.Lookup(name)
	if !ok || !el.Truthy() {
		return
	}
	held := p.Get(c.st)
	switch {
	case el.Get("type").String() == "checkbox":
		el.Set("checked", slices.Contains(strings.Split(held, ","), el.Get("value").String()))
	case strings.HasPrefix(el.Get("id").String(), layerSliderID):
		// One layer's slider of the layers row (the multiplex lab's).
		i, _ := numtext.ParseInt(strings.TrimPrefix(el.Get("id").String(), layerSliderID))
		if parts := strings.Split(held, ","); i < len(parts) {
			el.Set("value", parts[i])
		}
	case el.Get("type").String() == "range":
		v, _ := numtext.ParseFloat(held)
		el.Set("value", strconv.Itoa(newSliderScale(p, sliderKind(p) == "log").position(v)))
	case el.Get("tagName").String() == "SELECT":
		// A menu without the value among its choices would show none:
		// it keeps what it showed.
		if shown := el.Get("value").String(); shown != held {
			if el.Set("value", held); el.Get("value").String() != held {
				el.Set("value", shown)
			}
		}
	default:
		if _, kept := c.typed[name]; !kept {
			el.Set("value", held)
		}
	}
}

func (c *controls) selectControl(id string, p experiment.Param, value string, choices []string) app.UI {
	return app.Select().ID(id).OnChange(func(ctx app.Context, e app.Event) {
		c.setFrom(ctx, func(experiment.Param) string { return ctx.JSSrc().Get("value").String() })
	}).Body(app.Range(choices).Slice(func(i int) app.UI {
		return app.Option().Value(choices[i]).Text(choiceText(choices[i])).Selected(choices[i] == value)
	}))
}

// choiceText is how a menu shows a row's choice: "none" (no hidden
// layer, no perturbation) in the page's language, as a word is; the
// others are names and sizes (gcn, add-edges, 32,16), as a link writes
// them.
func choiceText(v string) string {
	if v == "none" {
		return tr("none")
	}
	return v
}

// sliderKind tells how a numeric parameter slides: "log" (log₂ scale),
// "linear", or "" for none (seeds, epochs, weight decay).
func sliderKind(p experiment.Param) string {
	switch {
	case p.Log:
		return "log"
	case p.Max-p.Min <= 10 && p.Name != "weight-decay":
		return "linear"
	}
	return ""
}

func (c *controls) numberControls(id string, p experiment.Param, value string) app.UI {
	shown := value
	if d, ok := c.dragging[p.Name]; ok {
		shown = d
	}
	if t, ok := c.typed[p.Name]; ok {
		shown = t // what the user typed stays, beside what is wrong with it
	}
	// A text box, not type=number: a browser empties a number box that
	// holds what it cannot read (1e400, "3,5"), and the message would then
	// quote "" instead of what the user typed.
	box := app.Input().ID(id).Type("text").Attr("inputmode", "decimal").Attr("autocomplete", "off").
		Attr("spellcheck", "false").Value(shown).
		OnChange(func(ctx app.Context, e app.Event) {
			c.setFrom(ctx, func(experiment.Param) string { return ctx.JSSrc().Get("value").String() })
		})
	kind := sliderKind(p)
	if kind == "" {
		return box
	}
	v, _ := numtext.ParseFloat(value)
	sc := newSliderScale(p, kind == "log")
	// The row and its scale are read when the slider moves (rowOf).
	toValue := func(p experiment.Param, s string) string {
		pos, err := numtext.ParseFloat(s)
		if err != nil {
			return s
		}
		return newSliderScale(p, sliderKind(p) == "log").value(pos)
	}
	slider := positionSlider(id+"-slider", sc.position(v), sc.steps).Attr("aria-label", tr(p.Label)).
		OnInput(func(ctx app.Context, e app.Event) {
			if p, ok := rowOf(ctx); ok {
				c.dragging[p.Name] = toValue(p, ctx.JSSrc().Get("value").String())
			}
		}).
		OnChange(func(ctx app.Context, e app.Event) {
			c.setFrom(ctx, func(p experiment.Param) string { return toValue(p, ctx.JSSrc().Get("value").String()) })
		})
	return app.Div().Class("slider").Body(slider, box)
}

// sliderSteps is the most steps a slider has: its positions run 0..100
// by 1 at most, within a range input's defaults (0..100 by 1). go-app sets
// an element's attributes in no fixed order, and a browser clamps and
// rounds a range's value to whatever min, max and step it has at that
// moment, so a slider of [0, 1] by 0.01 given its value 0.5 before its
// step showed its knob at 0. Within the defaults no order moves the knob.
const sliderSteps = 100

// sliderScale maps a parameter's range onto the slider's positions,
// linearly or on a log₂ scale.
type sliderScale struct {
	lo, hi float64 // the range, in log₂ for a log scale
	steps  int     // positions 0..steps
	log    bool
	whole  bool
}

// newSliderScale gives a short range of whole numbers a position each,
// any other range sliderSteps.
func newSliderScale(p experiment.Param, log bool) sliderScale {
	sc := sliderScale{lo: p.Min, hi: p.Max, steps: sliderSteps, log: log, whole: p.Whole()}
	if log {
		sc.lo, sc.hi = math.Log2(p.Min), math.Log2(p.Max)
	} else if sc.whole && p.Max-p.Min <= sliderSteps {
		sc.steps = int(p.Max - p.Min)
	}
	return sc
}

// position is the slider position nearest v, within 0..steps.
func (sc sliderScale) position(v float64) int {
	if sc.log {
		v = math.Log2(v)
	}
	if !(sc.hi > sc.lo) || math.IsNaN(v) {
		return 0
	}
	t := (v - sc.lo) / (sc.hi - sc.lo)
	return int(math.Round(float64(sc.steps) * math.Max(0, math.Min(1, t))))
}

// value is the parameter's value at a slider position, as text: whole
// numbers rounded, others to 4 significant digits.
func (sc sliderScale) value(pos float64) string {
	x := sc.lo + (sc.hi-sc.lo)*pos/float64(sc.steps)
	if sc.log {
		x = math.Exp2(x)
	}
	if sc.whole {
		return strconv.Itoa(int(math.Round(x)))
	}
	return strconv.FormatFloat(x, 'g', 4, 64)
}

// toggleModel adds or removes a model from the models row.
func (c *lab) toggleModel(kind string, on bool) {
	c.setParam("models", c.toggled(kind, on))
}

// toggled is the models row with kind added or removed.
func (c *lab) toggled(kind string, on bool) string {
	models := slices.DeleteFunc(slices.Clone(c.st.View.Models), func(m string) bool { return m == kind })
	if on {
		models = append(models, kind)
	}
	return strings.Join(models, ",")
}

// renderModels is the models row as a set of checkboxes, with a note on
// what a model costs.
func (c *lab) renderModels(note string) app.UI {
	p, _ := experiment.Lookup("models")
	groups := make([]app.UI, 0, len(experiment.ModelGroups)+2)
	groups = append(groups, app.Legend().Text(tr("Models")))
	for _, g := range experiment.ModelGroups {
		var boxes []app.UI
		for _, m := range experiment.Models {
			if m.Group == g.Name {
				boxes = append(boxes, c.modelBox(m.Name))
			}
		}
		groups = append(groups, app.Div().Class("model-group").DataSet("group", g.Name).Body(
			app.P().Class("model-group-heading").Text(tr(g.Heading)),
			app.Div().Class("model-choices").Body(boxes...)))
	}
	var msg app.UI = app.P().Class("note").Text(trf("Pick %g to %g models; %s", p.Min, p.Max, note))
	if e, bad := c.fieldErr["models"]; bad {
		msg = app.P().Class("field-error").Text(say(e))
	}
	return app.FieldSet().ID("models").Class("models").Body(append(groups, msg)...)
}

// modelBox is the checkbox of model kind.
func (c *lab) modelBox(k string) app.UI {
	on := slices.Contains(c.st.View.Models, k)
	return app.Label().Class("model-choice").Body(
		app.Input().Type("checkbox").ID("model-"+k).Value(k).Checked(on).
			OnChange(func(ctx app.Context, e app.Event) {
				c.change(ctx, "models", c.toggled(k, ctx.JSSrc().Get("checked").Bool()))
			}),
		app.Text(" "+k))
}

// positionSlider is a range input over the positions 0..steps by 1 at
// pos, steps at most sliderSteps, so that its value survives its
// attributes landing in any order.
func positionSlider(id string, pos, steps int) app.HTMLInput {
	steps = min(steps, sliderSteps)
	return app.Input().ID(id).Type("range").Attr("min", "0").Attr("max", strconv.Itoa(steps)).Attr("step", "1").
		Value(strconv.Itoa(min(max(pos, 0), steps)))
}
