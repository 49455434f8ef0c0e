package app

import (
	"strconv"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/experiment"
)

// tourFocusClass marks the element a tour step points at.
const tourFocusClass = "tour-focus"

// tourPanel is the guided tour the address names (tour=NAME&step=K): the
// step's sentences and the buttons to walk on. It lives in the shell, so
// it stays while the labs under it change; the shell walks it, by the
// address.
type tourPanel struct {
	tour    experiment.Tour
	step    int // 1-based; 0 when no tour is under way
	focused string
	// answers are the reader's answers to the steps' questions, by tour
	// and step: they stay in the page.
	answers map[string]int
	// answered is the step (key) whose answer was last brought on screen.
	answered string
}

// key names the step under way among the answers.
func (t *tourPanel) key() string { return t.tour.Name + "/" + strconv.Itoa(t.step) }

// answer keeps the reader's choice i for the step under way.
func (t *tourPanel) answer(i int) {
	if t.answers == nil {
		t.answers = map[string]int{}
	}
	t.answers[t.key()] = i
}

// read takes the tour and step from the address's view rows (which hold
// the step within its tour).
func (t *tourPanel) read(v experiment.View) {
	tour, ok := experiment.TourNamed(v.Tour)
	if !ok {
		t.tour, t.step = experiment.Tour{}, 0
		return
	}
	t.tour, t.step = tour, v.Step
}

func (t *tourPanel) active() bool { return t.step > 0 }

// focus marks the element the step points at, once the lab that holds it
// has drawn, and unmarks the one before.
func (t *tourPanel) focus(ctx app.Context) {
	want := ""
	if t.active() {
		want = t.tour.Steps[t.step-1].Target()
	}
	if old := t.focused; old != "" && old != want {
		if el := app.Window().GetElementByID(old); el.Truthy() {
			el.Get("classList").Call("remove", tourFocusClass)
		}
	}
	t.focused = want
	if want == "" || ctx == nil {
		return
	}
	// The lab of a new step mounts after this event: mark its element on
	// the next frames, and bring it under the toolbar again while the
	// lab's figures draw above it and push it down.
	for _, d := range []time.Duration{50 * time.Millisecond, 400 * time.Millisecond, 1200 * time.Millisecond} {
		ctx.After(d, func(app.Context) {
			if t.focused != want {
				return
			}
			el := app.Window().GetElementByID(want)
			if !el.Truthy() {
				return
			}
			if !el.Get("classList").Call("contains", tourFocusClass).Bool() {
				el.Get("classList").Call("add", tourFocusClass)
			}
			bringIntoView(el)
		})
	}
}

// bringIntoView scrolls the page so that el starts just under the sticky
// toolbar, unless it does already, within the top half of the screen.
func bringIntoView(el app.Value) {
	at := readLayoutNow(el)
	top, h := at.top, at.innerH
	under := 0.0
	if bar := app.Window().Get("document").Call("querySelector", ".lab .toolbar"); bar.Truthy() {
		under = readLayoutNow(bar).bottom
	}
	if top >= under && top <= under+(h-under)/2 {
		return
	}
	scrollPageBy(top - under - 8)
}

// startTour opens the first step of the tour called name.
func (c *Shell) startTour(name string) {
	if t, ok := experiment.TourNamed(name); ok {
		c.navigate(t.StepLink(1))
	}
}

// walkTour moves by delta steps along the tour under way.
func (c *Shell) walkTour(delta int) {
	t := c.tour
	if k := t.step + delta; t.active() && k >= 1 && k <= len(t.tour.Steps) {
		c.navigate(t.tour.StepLink(k))
	}
}

// nextStep goes on to the next step, or ends the tour after its last.
func (c *Shell) nextStep() {
	if c.tour.active() && c.tour.step == len(c.tour.tour.Steps) {
		c.endTour()
		return
	}
	c.walkTour(1)
}

// endTour leaves the tour where it is: the lab and its state stay.
func (c *Shell) endTour() {
	st := c.st
	st.View.Tour, st.View.Step = experiment.NoTour, 1
	c.rewrite(st)
}

// verdictsChanged draws the shell again when a claim's verdict in the
// lab's runs changed: a question's answer may be revealed.
func (c *Shell) verdictsChanged() {
	if c.ctx != nil && c.tour.active() {
		c.ctx.Dispatch(func(ctx app.Context) { c.showAnswer(ctx) })
	}
}

// showAnswer brings the figure that answers the step's question, with
// its verdict, back on the screen once the run decides it (the figures
// drawn while it trained may have pushed it down), once per step.
func (c *Shell) showAnswer(ctx app.Context) {
	t := &c.tour
	q := t.tour.Steps[t.step-1].Question
	if q == nil || c.room == nil || t.answered == t.key() {
		return
	}
	if v, _ := c.room.verdictOf(q.Claim); !v.Decided {
		return
	}
	t.answered = t.key()
	want := t.tour.Steps[t.step-1].Target()
	ctx.After(50*time.Millisecond, func(app.Context) {
		if el := app.Window().GetElementByID(want); el.Truthy() && t.focused == want {
			bringIntoView(el)
		}
	})
}

// renderQuestion asks the step's question: the reader picks a choice,
// presses Play, and once the step's claim is decided in the run the
// answer shows, read from the run, with the numbers it was read from
// (data-metric="question": 1 where the reader's answer was right, 0 where
// not, empty before the reveal or without an answer).
func (c *Shell) renderQuestion(q *experiment.Question) app.UI {
	if q == nil {
		return app.Div().Class("tour-question none")
	}
	t := &c.tour
	chosen, answered := t.answers[t.key()]
	var v experiment.Verdict
	if c.room != nil {
		v, _ = c.room.verdictOf(q.Claim)
	}
	choices := make([]app.UI, len(q.Choices))
	for i, ch := range q.Choices {
		choices[i] = app.Label().Class("tour-choice").Body(
			app.Input().Type("radio").Name("tour-question").ID("tour-choice-"+strconv.Itoa(i)).Checked(answered && chosen == i).
				OnChange(func(ctx app.Context, e app.Event) { c.tour.answer(i) }),
			app.Text(" "+tr(ch)))
	}
	value, outcome := "", tr("Answer, then press Play: the run gives the answer.")
	switch {
	case v.Decided:
		right := q.Right(v.Holds)
		// The claim's finding stands on the figure the step points at
		// (lab.beside); the panel keeps to the answer and its numbers, so
		// its buttons stay on a projector's screen.
		outcome = trf("The run says: %s.", tr(q.Choices[right])) + " " + say(v.Numbers)
		if answered {
			value = "0"
			if chosen == right {
				value = "1"
				outcome = tr("Right. ") + outcome
			}
		}
	case answered:
		outcome = tr("Your answer is in. Press Play: the run will tell.")
	}
	return app.Div().ID("tour-question").Class("tour-question").DataSet("metric", "question").DataSet("claim", q.Claim).DataSet("value", value).Body(
		app.P().Class("tour-ask").Text(tr(q.Ask)),
		app.Div().Role("radiogroup").Aria("label", tr(q.Ask)).Class("tour-choices").Body(choices...),
		app.P().Class("tour-outcome").Aria("live", "polite").Text(outcome),
	)
}

// renderTour draws the panel, or nothing when no tour is under way. The
// buttons read the step when pressed: go-app keeps an element's first
// handler across renders, so a handler must not hold a step of its own.
func (c *Shell) renderTour() app.UI {
	t := &c.tour
	if !t.active() {
		return app.Div().ID("tour").Class("tour idle").Aria("hidden", "true")
	}
	n, k := len(t.tour.Steps), t.step
	s := t.tour.Steps[k-1]
	next := app.Button().ID("tour-next").Class("primary").Title(tr("The next step (N or Page Down)")).Text(tr("Next →")).
		OnClick(func(ctx app.Context, e app.Event) { c.nextStep() })
	if k == n {
		next = next.Title(tr("End the tour here")).Text(tr("Finish"))
	}
	return app.Section().ID("tour").Class("tour").Aria("label", tr("Guided tour")).Aria("live", "polite").Body(
		app.P().Class("tour-where").Body(
			app.Text(tr(t.tour.Title)+tr(" · step ")),
			metric("tour-step", "", float64(k), strconv.Itoa(k)),
			app.Text(tr(" of ")+strconv.Itoa(n)),
		),
		app.H2().Text(tr(s.Title)),
		app.P().Class("tour-text").Text(tr(s.Text)),
		c.renderQuestion(s.Question),
		app.Div().Class("tour-nav").Body(
			app.Button().ID("tour-back").Title(tr("The step before (B or Page Up)")).Text(tr("← Back")).Disabled(k == 1).
				OnClick(func(ctx app.Context, e app.Event) { c.walkTour(-1) }),
			next,
			app.Button().ID("tour-end").Title(tr("Leave the tour; the lab stays as it is")).Text(tr("End tour")).
				OnClick(func(ctx app.Context, e app.Event) { c.endTour() }),
		),
	)
}
