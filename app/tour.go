package app

import (
	"strconv"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/experiment"
)

// tourFocusClass marks the element a tour step points at.
const tourFocusClass = "tour-focus"

// tourPanel is the guided tour the link names (tour=NAME&step=K): the
// step's sentences and the buttons to walk on. It lives in the shell, so it
// stays while the labs under it change.
type tourPanel struct {
	tour    experiment.Tour
	step    int  // 1-based; 0 when no tour is under way
	present bool // projector mode, kept from step to step
	focused string
}

// read takes the tour and step from a link's view rows; a step beyond the
// tour's end shows its last.
func (t *tourPanel) read(v experiment.View) {
	t.present = v.Present == 1
	tour, ok := experiment.TourNamed(v.Tour)
	if !ok {
		t.tour, t.step = experiment.Tour{}, 0
		return
	}
	t.tour, t.step = tour, min(v.Step, len(tour.Steps))
}

func (t *tourPanel) active() bool { return t.step > 0 }

// walk moves by delta steps along the tour under way.
func (t *tourPanel) walk(delta int) { t.goTo(t.tour, t.step+delta) }

// goTo opens step k of tour, keeping projector mode.
func (t *tourPanel) goTo(tour experiment.Tour, k int) {
	if k >= 1 && k <= len(tour.Steps) {
		openLink(tour.StepLink(k), t.present)
	}
}

// end leaves the tour where it is: the lab and its state stay.
func (t *tourPanel) end() {
	st, _ := experiment.Decode(currentHash())
	st.View.Tour, st.View.Step = experiment.NoTour, 1
	app.Window().Get("location").Set("hash", st.Encode())
}

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
	if want == "" {
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

// render draws the panel, or nothing when no tour is under way. The
// buttons read the step when pressed: go-app keeps an element's first
// handler across renders, so a handler must not hold a step of its own.
func (t *tourPanel) render() app.UI {
	if !t.active() {
		return app.Div().ID("tour").Class("tour idle").Aria("hidden", "true")
	}
	n, k := len(t.tour.Steps), t.step
	s := t.tour.Steps[k-1]
	next := app.Button().ID("tour-next").Class("primary").Title("The next step (N or Page Down)").Text("Next →").
		OnClick(func(ctx app.Context, e app.Event) { t.next() })
	if k == n {
		next = next.Title("End the tour here").Text("Finish")
	}
	return app.Section().ID("tour").Class("tour").Aria("label", "Guided tour").Aria("live", "polite").Body(
		app.P().Class("tour-where").Body(
			app.Text(t.tour.Title+" · step "),
			app.Span().DataSet("metric", "tour-step").DataSet("value", strconv.Itoa(k)).Text(strconv.Itoa(k)),
			app.Text(" of "+strconv.Itoa(n)),
		),
		app.H2().Text(s.Title),
		app.P().Class("tour-text").Text(s.Text),
		app.Div().Class("tour-nav").Body(
			app.Button().ID("tour-back").Title("The step before (B or Page Up)").Text("← Back").Disabled(k == 1).
				OnClick(func(ctx app.Context, e app.Event) { t.walk(-1) }),
			next,
			app.Button().ID("tour-end").Title("Leave the tour; the lab stays as it is").Text("End tour").
				OnClick(func(ctx app.Context, e app.Event) { t.end() }),
		),
	)
}

// next goes on to the next step, or ends the tour after its last.
func (t *tourPanel) next() {
	if t.step == len(t.tour.Steps) {
		t.end()
		return
	}
	t.walk(1)
}

// onKey walks the tour by N and B, or by a presentation clicker's Page
// Down and Page Up; it reports whether the key was the tour's.
func (t *tourPanel) onKey(key string) bool {
	if !t.active() {
		return false
	}
	switch key {
	case "n", "PageDown":
		t.walk(1)
	case "b", "PageUp":
		t.walk(-1)
	default:
		return false
	}
	return true
}
