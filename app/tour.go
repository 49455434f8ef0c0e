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
		want = t.tour.Steps[t.step-1].Focus
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
	// the next frames.
	for _, d := range []time.Duration{50 * time.Millisecond, 400 * time.Millisecond} {
		ctx.After(d, func(app.Context) {
			if t.focused != want {
				return
			}
			if el := app.Window().GetElementByID(want); el.Truthy() && !el.Get("classList").Call("contains", tourFocusClass).Bool() {
				el.Get("classList").Call("add", tourFocusClass)
				el.Call("scrollIntoView", map[string]any{"block": "nearest", "behavior": "smooth"})
			}
		})
	}
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
	app.Window().Get("location").Set("hash", st.Encode())
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
		app.Div().Class("tour-nav").Body(
			app.Button().ID("tour-back").Title(tr("The step before (B or Page Up)")).Text(tr("← Back")).Disabled(k == 1).
				OnClick(func(ctx app.Context, e app.Event) { c.walkTour(-1) }),
			next,
			app.Button().ID("tour-end").Title(tr("Leave the tour; the lab stays as it is")).Text(tr("End tour")).
				OnClick(func(ctx app.Context, e app.Event) { c.endTour() }),
		),
	)
}
