package app

import (
	"slices"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/experiment"
	"pdnexplorer/i18n"
	"pdnexplorer/i18n/phrase"
)

// WorkerURL is the engine worker's bootstrap script, relative to the page so
// that the site works at any path.
const WorkerURL = "web/worker.js"

// ReaderURL starts the reader of the user's files: the same script, which
// runs the worker's program built with the readers (web/reader.wasm), a
// download the page makes only when files are opened.
const ReaderURL = WorkerURL + "?reader=1"

// Shell is the page: the title, the navigation between labs, the notices,
// the tour, and the one lab the address names (#lab=NAME). It opens the
// one engine connection the labs share, and it alone owns the address and
// the keys: one hashchange and one keydown listener for the whole page.
// It reads the address once per change and gives the lab on view its
// state; it turns keys into commands and gives the lab those that are its
// own. No lab listens to the window.
type Shell struct {
	app.Compo

	// Dial connects to the engine. Nil means the Web Worker at WorkerURL;
	// tests set a fake.
	Dial func(EventFunc) Conn
	// DialReader starts the reader of the user's files. Nil means the Web
	// Worker at ReaderURL; tests set a fake.
	DialReader func(EventFunc) Conn

	ctx     app.Context
	engine  *Engine
	board   Board
	st      experiment.Experiment // the state the address holds
	written string                // the address as the page last wrote it
	// unread are the pairs of the link followed last that this version
	// could not use (experiment.DecodeLink), kept in the address for a
	// version that can; followed is the state that link opened.
	unread   []string
	keptSaid phrase.Text // the notice that tells of unread, zero when none shows
	followed experiment.Experiment
	lab      string // the lab on view
	room     room
	tour     tourPanel
	share    share
	spoken   string // the lang row the page was last drawn in

	installable bool
	updated     bool // a new version is installed and waits for a reload

	// keys are the commands of the keys pressed since the page last
	// applied them (see onKeyDown); frame applies them.
	keys      []command
	scheduled bool
	listeners []func() // remove the window listeners
}

// room is a lab as the shell sees it: a component that takes the state
// the address holds and the keyboard's commands. Every lab's core (lab)
// implements both.
type room interface {
	app.Composer
	// show makes st the lab's state; err says what the address held that
	// could not be used. The shell calls it once per change of the address.
	show(st experiment.Experiment, err error)
	// do carries out a command and reports whether the lab must be drawn
	// again.
	do(cmd command) bool
	// relabel draws the lab's figures again in the page's language.
	relabel()
	// verdictOf is the verdict of the claim called id in the lab's runs;
	// false where the lab's state is not the claim's.
	verdictOf(id string) (experiment.Verdict, bool)
}

// OnMount opens the engine, shows the lab the address names and starts
// listening to the address and the keys.
func (c *Shell) OnMount(ctx app.Context) {
	c.ctx = ctx
	c.board.changed = func() { ctx.Dispatch(func(app.Context) {}) }
	dial, dialReader := c.Dial, c.DialReader
	if dial == nil {
		dial = func(f EventFunc) Conn { return dialWorker(WorkerURL+threadsQuery(), f) }
	}
	if dialReader == nil {
		dialReader = func(f EventFunc) Conn { return dialWorker(ReaderURL, f) }
	}
	c.engine = NewEngine(dial, dialReader)
	c.follow(currentHash())
	c.listen("hashchange", func(app.Value) {
		repairLocation()
		ctx.Dispatch(func(app.Context) { c.follow(currentHash()) })
	})
	c.listen("keydown", c.onKeyDown)
}

// OnPreRender draws, on the server, the lab of the state the request's
// query holds (a permalink's form, as "lab=xor"): the site's builder puts
// each lab so drawn in the entry page, which shows the lab's layout before
// the page's program has loaded. Nothing is opened: the runs start when
// the page mounts the shell.
func (c *Shell) OnPreRender(ctx app.Context) {
	c.ctx = ctx
	if u := ctx.Page().URL(); u != nil {
		c.follow(u.RawQuery)
	}
}

// listen adds a listener of the window for the shell's lifetime: a plain
// JavaScript one, which renders nothing by itself (go-app's would render
// the whole page after every event).
func (c *Shell) listen(event string, f func(e app.Value)) {
	fn := app.FuncOf(func(_ app.Value, args []app.Value) any {
		if len(args) > 0 {
			f(args[0])
		}
		return nil
	})
	app.Window().Call("addEventListener", event, fn)
	c.listeners = append(c.listeners, func() {
		app.Window().Call("removeEventListener", event, fn)
		fn.Release()
	})
}

// follow reads the address once for all it holds: the lab (a new one if
// it changed), projector mode, the tour, and the lab's own state, which
// the lab on view is given. An address the page wrote itself is not read
// again.
func (c *Shell) follow(hash string) {
	hash = strings.TrimPrefix(hash, "#")
	if c.room != nil && hash == c.written {
		return
	}
	st, unread, err := experiment.DecodeLink(hash)
	c.unread, c.followed = unread, st
	relabel := st.View.Lang != c.spoken
	if relabel && !speak(st.View.Lang) {
		c.fetchLanguage(st.View.Lang, hash)
		if c.room == nil {
			return // the first view waits for its words, its notices' too
		}
		relabel = false // relabelled when the words come
	}
	if relabel {
		c.spoken = st.View.Lang
	}
	if c.room == nil || st.View.Lab != c.lab {
		c.open(st.View.Lab)
	}
	c.save(st)
	c.tour.read(st.View)
	c.tour.focus(c.ctx)
	c.room.show(st, err)
	c.sayKept()
	if relabel {
		c.room.relabel() // the figures' words too; the runs train on
	}
}

// OnNav follows the address after a navigation go-app made itself (it
// takes a click on any link of the page and writes the address by
// pushState, which fires no hashchange).
func (c *Shell) OnNav(ctx app.Context) {
	if c.room != nil {
		c.follow(currentHash())
	}
}

// hashLink opens a state of this page (href "#…") as the address bar
// would, through the shell's one hashchange listener. It is a button that
// looks like a link, not a link: go-app takes every link's click itself,
// writes the address by pushState and skips a link it thinks it visited
// last, so a second click on a sweep's cell opened nothing.
func hashLink(href string) app.HTMLButton {
	return app.Button().Class("link").DataSet("href", href).OnClick(func(ctx app.Context, e app.Event) {
		app.Window().Get("location").Set("hash", href)
	})
}

// fetchLanguage fetches the catalogue the lang row asks for, then speaks
// it and follows hash (a first view) or relabels the lab on view, unless
// another language was asked for meanwhile. A catalogue that cannot be
// fetched leaves the page in the words it had, and says so.
func (c *Shell) fetchLanguage(row, hash string) {
	code := spokenCode(row)
	loadLanguage(code, func(err error) {
		c.ctx.Dispatch(func(app.Context) {
			if c.room != nil && c.st.View.Lang != row {
				return // another language since
			}
			c.spoken = row
			if !speak(row) {
				l, _ := i18n.Lookup(code)
				c.board.Add(phrase.New("The words of %s could not be fetched (%s); the page speaks on as it did.", l.Name, phrase.Of(err)), false)
			}
			if c.room == nil {
				c.follow(hash)
				return
			}
			c.room.relabel()
			c.ctx.Dispatcher().Dispatch(app.Dispatch{Mode: app.Update, Source: c.room, Function: func(app.Context) {}})
		})
	})
}

// open replaces the lab on view: the old one ends its runs as it goes.
func (c *Shell) open(name string) {
	p := &page{engine: c.engine, board: &c.board, save: c.save, verdicts: c.verdictsChanged}
	c.lab, c.room = name, rooms[name](p)
}

// save writes st into the address without a navigation, so that the
// address is always the permalink, and keeps it as the page's state. The
// link's pairs this version could not use stay in it as the link gave
// them (a newer version, once installed, reads them on reload), until
// the reader sets the row one names.
func (c *Shell) save(st experiment.Experiment) {
	c.unread = slices.DeleteFunc(c.unread, func(kv string) bool {
		p, ok := experiment.LinkRow(strings.SplitN(kv, "=", 2)[0])
		return ok && p.Get(&st) != p.Get(&c.followed)
	})
	c.sayKept()
	c.st, c.written = st, st.EncodeKeeping(c.unread)
	if h := app.Window().Get("history"); h.Truthy() {
		h.Call("replaceState", nil, "", "#"+c.written)
	}
}

// sayKept tells which of the link's pairs this version cannot use and the
// address keeps, and only while it keeps them: the notice said before
// goes once the reader sets the row a pair names, or follows a link
// without it (Back returns to the address that keeps them).
func (c *Shell) sayKept() {
	var now phrase.Text
	if len(c.unread) > 0 {
		now = phrase.New("This version of the explorer cannot use %s from the link; the address keeps it as given, so a newer version opens it (reload once one is installed).", strings.Join(c.unread, "&"))
	}
	if now.String() == c.keptSaid.String() {
		return
	}
	if !c.keptSaid.IsZero() {
		c.board.Remove(c.keptSaid)
	}
	if !now.IsZero() {
		c.board.Add(now, false)
	}
	c.keptSaid = now
}

// navigate opens a link by the address, so that Back returns, keeping
// projector mode if it is on.
func (c *Shell) navigate(link string) {
	if c.st.View.Present == 1 {
		link += "&present=1"
	}
	app.Window().Get("location").Set("hash", link)
}

func currentHash() string {
	u := app.Window().URL()
	if u == nil {
		return ""
	}
	return u.EscapedFragment()
}

// onKeyDown turns a key into a command, unless it is typed into a field.
// The key's default (a scroll) is prevented at once; the command waits for
// the next animation frame, where every command that came meanwhile is
// applied together (coalesce), so a storm of presses costs the page a
// turn a frame and renders only what changed.
func (c *Shell) onKeyDown(e app.Value) {
	if typing(e) {
		return
	}
	cmd, ok := commandOf(e.Get("key").String(), walking(e))
	if !ok || (cmd == cmdTourNext || cmd == cmdTourBack) && !c.tour.active() {
		return
	}
	e.Call("preventDefault")
	c.ctx.Dispatcher().Dispatch(app.Dispatch{Mode: app.Next, Source: c, Function: func(app.Context) { c.queue(cmd) }})
}

// queue keeps a command for the next frame.
func (c *Shell) queue(cmd command) {
	c.keys = append(c.keys, cmd)
	if c.scheduled {
		return
	}
	c.scheduled = true
	var frame app.Func
	frame = app.FuncOf(func(app.Value, []app.Value) any {
		frame.Release()
		c.ctx.Dispatcher().Dispatch(app.Dispatch{Mode: app.Next, Source: c, Function: func(app.Context) { c.applyKeys() }})
		return nil
	})
	if raf := app.Window().Get("requestAnimationFrame"); !raf.Truthy() {
		frame.Release()
		c.applyKeys() // no browser: at once
		return
	}
	app.Window().Call("requestAnimationFrame", frame)
}

// applyKeys applies the commands queued since the last frame, and renders
// the lab if one of them changed it.
func (c *Shell) applyKeys() {
	cmds := coalesce(c.keys)
	c.keys, c.scheduled = nil, false
	if c.apply(cmds...) && c.room != nil {
		c.ctx.Dispatcher().Dispatch(app.Dispatch{Mode: app.Update, Source: c.room, Function: func(app.Context) {}})
	}
}

// apply carries out commands, the shell's own (projector mode, the tour)
// and the lab's; it reports whether the lab must be drawn again.
func (c *Shell) apply(cmds ...command) bool {
	render := false
	for _, cmd := range cmds {
		switch cmd {
		case cmdPresent:
			c.togglePresent()
		case cmdTourNext:
			c.nextStep()
		case cmdTourBack:
			c.walkTour(-1)
		default:
			if c.room != nil {
				render = c.room.do(cmd) || render
			}
		}
	}
	return render
}

// togglePresent switches projector mode by the address, so the lab keeps
// the row in its permalink and Back returns.
func (c *Shell) togglePresent() {
	st := c.st
	st.View.Present = 1 - st.View.Present
	c.rewrite(st)
}

// rewrite opens st, the state on view with a row of the page's own
// changed (its language, projector mode, the tour ended), by the address,
// so Back returns: the link's pairs this version cannot use stay in it,
// as the reader set none of their rows. It is the one place the page
// writes a state of its own as a new address (internal/rules).
func (c *Shell) rewrite(st experiment.Experiment) {
	app.Window().Get("location").Set("hash", experiment.KeepUnread(st.Encode(), c.unread))
}

// goTo opens another lab as it starts, by the address, so that Back
// returns.
func (c *Shell) goTo(name string) {
	if name != c.lab {
		c.navigate("lab=" + name)
	}
}

// choice is one entry of a menu: its value and what it says.
type choice struct{ Name, Title string }

func presetChoices() []choice {
	out := make([]choice, len(experiment.Presets))
	for i, p := range experiment.Presets {
		out[i] = choice{p.Name, tr(p.Title)}
	}
	return out
}

func tourChoices() []choice {
	out := make([]choice, len(experiment.Tours))
	for i, t := range experiment.Tours {
		out[i] = choice{t.Name, tr(t.Title)}
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

// renderLabMenu is the labs as one menu, which a phone shows in place of
// the row of buttons: the lab on view is always the one it shows.
func (c *Shell) renderLabMenu() app.UI {
	return app.Select().ID("lab-menu").Class("lab-link").Aria("label", tr("Labs")).Body(
		app.Range(experiment.Labs).Slice(func(i int) app.UI {
			l := experiment.Labs[i]
			return app.Option().Value(l.Name).Text(tr(l.Title)).Selected(l.Name == c.lab)
		}),
	).OnChange(func(ctx app.Context, e app.Event) { c.goTo(ctx.JSSrc().Get("value").String()) })
}

// openPreset opens a named situation, keeping projector mode if it is on.
func (c *Shell) openPreset(name string) {
	for _, p := range experiment.Presets {
		if p.Name == name {
			c.navigate(p.Link)
		}
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
	lost := tr("The lab opens again as it is now; the epochs trained so far start over.")
	if c.st.Data.Graph == experiment.GraphLocal {
		lost = tr("The lab opens again as it is now; the epochs trained so far start over, and your own graph's files must be opened again.")
	}
	return app.Div().ID("update").Class("update").Role("status").Body(
		app.Span().Body(app.Strong().Text(tr("A new version of the explorer is installed. ")), app.Text(lost)),
		app.Button().ID("update-reload").Class("primary").Text(tr("Reload into it")).
			OnClick(func(ctx app.Context, e app.Event) { ctx.Reload() }),
		app.Button().Class("dismiss").Title(tr("Later: the new version opens next time")).Text(tr("Later")).
			OnClick(func(ctx app.Context, e app.Event) { c.updated = false }),
	)
}

// OnDismount stops listening and stops the engine.
func (c *Shell) OnDismount() {
	for _, remove := range c.listeners {
		remove()
	}
	if c.engine != nil {
		c.engine.Close()
	}
}

// Render lays out the shell around the lab; embedded (embed=1), the lab
// alone, under a line that opens the explorer.
func (c *Shell) Render() app.UI {
	var view app.UI = app.Div().Class("placeholder").Text(tr("Starting…"))
	if c.room != nil {
		view = c.room
	}
	if c.st.View.Embed == 1 {
		return app.Div().Class("explorer embed").Body(c.renderEmbedBar(), c.board.render(), view)
	}
	present := c.st.View.Present == 1
	class, presentLabel := "explorer", tr("Projector")
	if present {
		class, presentLabel = "explorer present", tr("Leave projector")
	}
	if c.tour.active() {
		class += " touring"
	}
	return app.Div().Class(class).Body(
		app.Header().Body(
			app.Div().Class("title").Body(
				app.H1().Text(tr("PDN Explorer")),
				app.P().Class("tagline").Text(tr("A Pathfinder Discovery Network learns the graph its messages travel on. Watch it drop the edges between classes as its accuracy climbs.")),
			),
			app.Nav().Class("labs").Aria("label", tr("Labs")).Body(
				app.Range(experiment.Labs).Slice(func(i int) app.UI {
					l := experiment.Labs[i]
					b := app.Button().ID("lab-" + l.Name).Class("lab-link").Text(tr(l.Title)).
						OnClick(func(ctx app.Context, e app.Event) { c.goTo(l.Name) })
					if l.Name == c.lab {
						b = b.Aria("current", "page").Class("current")
					}
					return b
				}),
				c.renderLabMenu(),
				app.If(!c.tour.active(), app.Button().ID("start-here").Class("lab-link start").Title(tr("The paper's tour: six steps through its findings, each a run to watch")).
					Text(tr("Start here")).OnClick(func(ctx app.Context, e app.Event) { c.startTour("paper") })),
				choiceMenu("preset", tr("Presets…"), tr("Presets: the paper's situations, one click away"), presetChoices(), c.openPreset),
				choiceMenu("tours", tr("Tours…"), tr("Guided tours: a few steps through the paper's lessons"), tourChoices(), c.startTour),
				app.Button().ID("present").Class("lab-link").Title(tr("Projector mode: large type, the controls folded away (P)")).
					Aria("pressed", present).Text(presentLabel).OnClick(func(ctx app.Context, e app.Event) { c.togglePresent() }),
				app.Button().ID("share").Class("lab-link").Title(tr("The link to this state, its QR code, the code to embed the lab, and a printed handout")).
					Aria("expanded", c.share.open).Text(tr("Share")).OnClick(func(ctx app.Context, e app.Event) { c.share.open = !c.share.open }),
				c.renderLanguages(),
			),
		),
		c.renderShare(),
		c.renderUpdate(),
		c.board.render(),
		c.renderTour(),
		view,
		c.renderHandout(),
		app.Footer().Body(
			app.P().Text(tr("Rozemberczki, Englert, Kapoor, Blais and Perozzi: Pathfinder Discovery Networks for Neural Message Passing, WWW 2021. Training runs in a Web Worker of this page; nothing leaves your machine.")),
		),
	)
}
