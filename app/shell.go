package app

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/experiment"
)

// WorkerURL is the engine worker's bootstrap script, relative to the page so
// that the site works at any path.
const WorkerURL = "web/worker.js"

// Shell is the page: the title, the navigation between labs, the notices,
// and the one lab the URL names (#lab=NAME). It opens the one engine
// connection the labs share.
type Shell struct {
	app.Compo

	// Dial connects to the engine. Nil means the Web Worker at WorkerURL;
	// tests set a fake.
	Dial func(EventFunc) Conn

	engine      *Engine
	board       Board
	lab         string
	view        app.Composer // the lab shown
	installable bool
	present     bool // projector mode, from the link
	updated     bool // a new version is installed and waits for a reload
	tour        tourPanel
	unlisten    func()
	unlistenKey func()
}

// OnMount opens the engine and shows the lab the link names.
func (c *Shell) OnMount(ctx app.Context) {
	c.board.changed = func() { ctx.Dispatch(func(app.Context) {}) }
	dial := c.Dial
	if dial == nil {
		dial = func(f EventFunc) Conn { return dialWorker(WorkerURL, f) }
	}
	c.engine = NewEngine(dial)
	c.follow(ctx)
	c.unlisten = app.Window().AddEventListener("hashchange", func(ctx app.Context, e app.Event) { c.follow(ctx) })
	c.unlistenKey = app.Window().AddEventListener("keydown", func(ctx app.Context, e app.Event) {
		if typing(e) {
			return
		}
		key := e.Get("key").String()
		switch {
		case key == "p":
			c.togglePresent()
		case c.tour.onKey(key):
		default:
			return
		}
		e.PreventDefault()
	})
}

// follow reads the link once for what the shell shows: the lab (a new one
// if it changed), projector mode and the tour.
func (c *Shell) follow(ctx app.Context) {
	st, _ := experiment.Decode(currentHash())
	if c.view == nil || st.View.Lab != c.lab {
		c.show(st.View.Lab)
	}
	c.present = st.View.Present == 1
	c.tour.read(st.View)
	c.tour.focus(ctx)
}

// openLink opens a link by the address, so that Back returns, keeping
// projector mode if it is on.
func openLink(link string, present bool) {
	if present {
		link += "&present=1"
	}
	app.Window().Get("location").Set("hash", link)
}

// togglePresent switches projector mode by the address, so the lab keeps
// the row in its permalink and Back returns.
func (c *Shell) togglePresent() {
	st, _ := experiment.Decode(currentHash())
	st.View.Present = 1 - st.View.Present
	app.Window().Get("location").Set("hash", st.Encode())
}

// show replaces the lab on view: the old one ends its runs as it goes.
func (c *Shell) show(name string) {
	l := labNamed(name)
	c.lab, c.view = l.Name, l.New(c.engine, &c.board)
}

// labInHash returns the lab a URL fragment names, read by the state
// table like the rest of the link: the default for none or a bad one, which
// the lab itself reports with the rest of its state.
func labInHash(h string) string {
	st, _ := experiment.Decode(h)
	return st.View.Lab
}

// goTo opens another lab, by changing the address, so that Back returns.
func (c *Shell) goTo(name string) {
	if name == c.lab {
		return
	}
	app.Window().Get("location").Set("hash", "lab="+name)
}

// choice is one entry of a menu: its value and what it says.
type choice struct{ Name, Title string }

func presetChoices() []choice {
	out := make([]choice, len(experiment.Presets))
	for i, p := range experiment.Presets {
		out[i] = choice{p.Name, p.Title}
	}
	return out
}

func tourChoices() []choice {
	out := make([]choice, len(experiment.Tours))
	for i, t := range experiment.Tours {
		out[i] = choice{t.Name, t.Title}
	}
	return out
}

// choiceMenu is a select whose first option is its title: choosing an
// entry calls choose with its name, and the menu goes back to its title.
func choiceMenu(id, title, label string, choices []choice, choose func(string)) app.UI {
	return app.Select().ID(id).Class("lab-link").Aria("label", label).Body(
		app.Option().Value("").Text(title).Selected(true),
		app.Range(choices).Slice(func(i int) app.UI { return app.Option().Value(choices[i].Name).Text(choices[i].Title) }),
	).OnChange(func(ctx app.Context, e app.Event) {
		choose(ctx.JSSrc().Get("value").String())
		ctx.JSSrc().Set("value", "")
	})
}

// openPreset opens a named situation, keeping projector mode if it is on.
func (c *Shell) openPreset(name string) {
	for _, p := range experiment.Presets {
		if p.Name == name {
			openLink(p.Link, c.present)
		}
	}
}

// startTour opens the first step of the tour called name.
func (c *Shell) startTour(name string) {
	if t, ok := experiment.TourNamed(name); ok {
		c.tour.goTo(t, 1)
	}
}

// OnAppInstallChange shows or hides the install button.
func (c *Shell) OnAppInstallChange(ctx app.Context) {
	c.installable = ctx.IsAppInstallable()
}

// OnAppUpdate tells the user that a new version has been installed, and
// offers to reload into it.
func (c *Shell) OnAppUpdate(ctx app.Context) {
	c.updated = ctx.AppUpdateAvailable()
}

// renderUpdate is the banner of a new version: the link holds the whole
// state of the lab, so a reload opens the new version on the same state;
// only the epochs trained so far (and a graph opened from files) are
// not in it.
func (c *Shell) renderUpdate() app.UI {
	if !c.updated {
		return app.Div().ID("update").Class("update idle").Aria("hidden", "true")
	}
	lost := "The lab opens again as it is now; the epochs trained so far start over."
	if st, _ := experiment.Decode(currentHash()); st.Data.Graph == experiment.GraphLocal {
		lost = "The lab opens again as it is now; the epochs trained so far start over, and your own graph's files must be opened again."
	}
	return app.Div().ID("update").Class("update").Role("status").Body(
		app.Span().Body(app.Strong().Text("A new version of the explorer is installed. "), app.Text(lost)),
		app.Button().ID("update-reload").Class("primary").Text("Reload into it").
			OnClick(func(ctx app.Context, e app.Event) { ctx.Reload() }),
		app.Button().Class("dismiss").Title("Later: the new version opens next time").Text("Later").
			OnClick(func(ctx app.Context, e app.Event) { c.updated = false }),
	)
}

// OnDismount stops the engine.
func (c *Shell) OnDismount() {
	if c.unlisten != nil {
		c.unlisten()
	}
	if c.unlistenKey != nil {
		c.unlistenKey()
	}
	if c.engine != nil {
		c.engine.Close()
	}
}

// Render lays out the shell around the lab.
func (c *Shell) Render() app.UI {
	var view app.UI = app.Div().Class("placeholder").Text("Starting…")
	if c.view != nil {
		view = c.view
	}
	class, presentLabel := "explorer", "Projector"
	if c.present {
		class, presentLabel = "explorer present", "Leave projector"
	}
	return app.Div().Class(class).Body(
		app.Header().Body(
			app.Div().Class("title").Body(
				app.H1().Text("PDN Explorer"),
				app.P().Class("tagline").Text("A Pathfinder Discovery Network learns the graph its messages travel on. Watch it drop the edges between classes as its accuracy climbs."),
			),
			app.Nav().Class("labs").Aria("label", "Labs").Body(
				app.Range(labs).Slice(func(i int) app.UI {
					l := labs[i]
					b := app.Button().ID("lab-" + l.Name).Class("lab-link").Text(l.Title).
						OnClick(func(ctx app.Context, e app.Event) { c.goTo(l.Name) })
					if l.Name == c.lab {
						b = b.Aria("current", "page").Class("current")
					}
					return b
				}),
				choiceMenu("preset", "Presets…", "Presets: the paper's situations, one click away", presetChoices(), c.openPreset),
				choiceMenu("tours", "Tours…", "Guided tours: a few steps through the paper's lessons", tourChoices(), c.startTour),
				app.Button().ID("present").Class("lab-link").Title("Projector mode: large type, the controls folded away (P)").
					Aria("pressed", c.present).Text(presentLabel).OnClick(func(ctx app.Context, e app.Event) { c.togglePresent() }),
				app.If(c.installable, app.Button().ID("install").Class("lab-link").Title("Install the explorer as an app that works offline").Text("Install").
					OnClick(func(ctx app.Context, e app.Event) { ctx.ShowAppInstallPrompt() })),
			),
		),
		c.renderUpdate(),
		c.board.render(),
		c.tour.render(),
		view,
		app.Footer().Body(
			app.P().Text("Rozemberczki, Englert, Kapoor, Blais and Perozzi: Pathfinder Discovery Networks for Neural Message Passing, WWW 2021. Training runs in a Web Worker of this page; nothing leaves your machine."),
		),
	)
}
