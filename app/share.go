package app

import (
	htmlesc "html" // the package's tests call their page reader html
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/experiment"
	"pdnexplorer/i18n"
	"pdnexplorer/viz"
)

// share is the shell's way out of the page: the link and its QR code (for
// thirty phones and one projector), the lab as an iframe for slides and
// course pages, and a printed handout. The QR code is drawn once per link.
type share struct {
	open          bool
	link, qr, bad string // the link the QR code draws, the code, or why none
	lang          string // the language of the code's title
}

// pageURL is the page's address without its fragment.
func pageURL() string {
	href := app.Window().Get("location").Get("href").String()
	if i := strings.IndexByte(href, '#'); i >= 0 {
		href = href[:i]
	}
	return href
}

// linkOf is the full link of st: a permalink, never an embed (a QR code
// and a handout open the explorer).
func linkOf(st experiment.Experiment, unread []string) string {
	st.View.Embed = 0
	return pageURL() + "#" + experiment.KeepUnread(st.Encode(), unread)
}

// shortLinkOf is st's link with only what differs from its lab's start
// (Experiment.EncodeShort): what the QR code holds, so that it has few
// modules and scans from the back of a room. The link shown in words
// stays the whole state, which later versions' defaults cannot change.
func shortLinkOf(st experiment.Experiment, unread []string) string {
	st.View.Embed = 0
	return pageURL() + "#" + experiment.KeepUnread(st.EncodeShort(), unread)
}

// embedCode is the iframe that embeds st's lab: its figure, its numbers
// and play, step and reset, sized by its frame. It allows the lab to be
// cross-origin isolated, so that in a course page that is isolated itself
// its engine gets threads (web/worker.js); elsewhere it runs on one.
func embedCode(st experiment.Experiment, unread []string) string {
	st.View.Embed, st.View.Present, st.View.Tour, st.View.Step = 1, 0, experiment.NoTour, 1
	title := "PDN Explorer"
	if l, ok := experiment.LabNamed(st.View.Lab); ok {
		title += ": " + tr(l.Title)
	}
	return `<iframe src="` + htmlesc.EscapeString(pageURL()+"#"+experiment.KeepUnread(st.Encode(), unread)) + `" title="` + htmlesc.EscapeString(title) +
		`" width="720" height="640" style="border:0;max-width:100%" loading="lazy" allow="cross-origin-isolated"></iframe>`
}

// code returns the QR code of link, drawn again only when link or the
// page's language (its title's) changes (the handout holds it always, so
// that printing finds it drawn).
func (s *share) code(link string) (svg, bad string) {
	if link != s.link || lang != s.lang {
		s.link, s.lang = link, lang
		var err error
		s.qr, err = viz.QR(link, tr("QR code of the link to this state"))
		s.bad = ""
		if err != nil {
			s.qr, s.bad = "", tr("This state's link is too long for a QR code; copy the link instead.")
		}
	}
	return s.qr, s.bad
}

// renderShare is the share panel: the link, its QR code, the embed code
// and Print.
func (c *Shell) renderShare() app.UI {
	if !c.share.open {
		return app.Div().ID("share-panel").Class("share idle").Aria("hidden", "true")
	}
	link := linkOf(c.st, c.unread)
	qr, bad := c.share.code(shortLinkOf(c.st, c.unread))
	embed := embedCode(c.st, c.unread)
	return app.Section().ID("share-panel").Class("share").Aria("label", tr("Share this state")).Body(
		app.Div().Class("share-qr").Body(app.If(qr != "", app.Raw(qr)), app.If(bad != "", app.P().Class("note").Text(bad))),
		app.Div().Class("share-text").Body(
			app.H2().Text(tr("Share this state")),
			app.If(c.st.Data.Graph == experiment.GraphLocal,
				app.P().ID("share-local").Class("note warning").Text(tr("This state trains a graph opened from your files, which do not travel with a link: whoever opens it, you included on another device, must open the same files again (“Your own graph”) before it trains."))),
			app.Label().For("share-link").Text(tr("Link: scan the code, or copy it")),
			app.Div().Class("share-row").Body(
				app.Input().ID("share-link").Type("text").ReadOnly(true).Value(link).Dir("ltr"),
				app.Button().ID("share-copy").Text(tr("Copy link")).OnClick(func(ctx app.Context, e app.Event) { copyText(&c.board, link, msg("Link copied: %s")) }),
			),
			app.Label().For("embed-code").Text(tr("Embed in slides or a course page: the figure, its numbers and Play, Step and Reset")),
			app.Div().Class("share-row").Body(
				app.Textarea().ID("embed-code").ReadOnly(true).Rows(3).Dir("ltr").Text(embed),
				app.Button().ID("embed-copy").Text(tr("Copy code")).OnClick(func(ctx app.Context, e app.Event) { copyText(&c.board, embed, msg("Embed code copied: %s")) }),
			),
			app.Div().Class("share-row").Body(
				app.Button().ID("print").Text(tr("Print a handout")).Title(tr("One page: the figure, the numbers, the caption, and this link with its QR code")).
					OnClick(func(ctx app.Context, e app.Event) { app.Window().Call("print") }),
				// Install lives here, not in the navigation: the browser
				// offers it seconds after the page opens, and a button
				// appearing there moved the whole page under a finger.
				app.If(c.installable, app.Button().ID("install").Title(tr("Install the explorer as an app that works offline")).Text(tr("Install")).
					OnClick(func(ctx app.Context, e app.Event) { ctx.ShowAppInstallPrompt() })),
				app.Button().ID("share-close").Text(tr("Close")).OnClick(func(ctx app.Context, e app.Event) { c.share.open = false }),
			),
		),
	)
}

// renderHandout is what a printed page adds to the lab: the state's link
// and its QR code. The screen never shows it (see the print styles).
func (c *Shell) renderHandout() app.UI {
	if c.room == nil || c.st.View.Embed == 1 {
		return app.Div().Class("handout")
	}
	link := linkOf(c.st, c.unread)
	qr, _ := c.share.code(shortLinkOf(c.st, c.unread))
	// The words are one column beside the code: as two items of the row,
	// the citation shrank to a word a line and pushed the handout onto a
	// second page.
	return app.Div().Class("handout").Aria("hidden", "true").Body(
		app.If(qr != "", app.Raw(qr)),
		app.Div().Class("handout-text").Body(
			app.P().Body(app.Text(tr("Open this state: ")), app.Span().Class("handout-link").Dir("ltr").Text(link)),
			app.P().Class("note").Text("PDN Explorer · Rozemberczki, Englert, Kapoor, Blais and Perozzi, WWW 2021"),
		),
	)
}

// renderEmbedBar is an embedded lab's one line of its own: its title and a
// link that opens the full explorer on the same state in a new tab.
func (c *Shell) renderEmbedBar() app.UI {
	title := ""
	if l, ok := experiment.LabNamed(c.lab); ok {
		title = tr(l.Title)
	}
	return app.Div().Class("embed-bar").Body(
		app.Strong().Text(title),
		app.A().ID("open-explorer").Href(linkOf(c.st, c.unread)).Target("_blank").Rel("noopener").Text(tr("Open in the explorer ↗")),
	)
}

// renderLanguages is the language menu: the browser's, then each
// language by its own name.
func (c *Shell) renderLanguages() app.UI {
	current := c.st.View.Lang
	return app.Select().ID("lang").Class("lab-link").Aria("label", tr("Language")).Body(
		app.Range(experiment.Languages).Slice(func(i int) app.UI {
			code := experiment.Languages[i]
			opt := app.Option().Value(code).Selected(code == current)
			if l, ok := i18n.Lookup(code); ok {
				return opt.Text(l.Name).Lang(code) // read in its own language
			}
			return opt.Text(tr("Browser's language"))
		}),
	).OnChange(func(ctx app.Context, e app.Event) {
		st := c.st
		st.View.Lang = ctx.JSSrc().Get("value").String()
		c.rewrite(st)
	})
}

// speak makes the page speak the language the lang row names (the
// browser's for auto): the catalogue the words come from, and the
// document's lang and dir, so that Arabic mirrors the page. It reports
// false, changing nothing, while that catalogue is not yet fetched.
func speak(row string) bool {
	code := spokenCode(row)
	if !i18n.Ready(code) {
		return false
	}
	lang = code
	doc := app.Window().Get("document")
	if !doc.Truthy() {
		return true
	}
	root := doc.Get("documentElement")
	root.Set("lang", code)
	dir := "ltr"
	if l, _ := i18n.Lookup(code); l.RTL {
		dir = "rtl"
	}
	root.Set("dir", dir)
	return true
}

// spokenCode is the language the lang row asks for: the browser's for
// auto, English for one the explorer does not speak.
func spokenCode(row string) string {
	code := row
	if code == experiment.LangAuto || code == "" {
		code = browserLanguage()
	}
	if _, ok := i18n.Lookup(code); !ok {
		code = i18n.English
	}
	return code
}

// browserLanguage is the first of the browser's languages the explorer
// speaks, English if none.
func browserLanguage() string {
	nav := app.Window().Get("navigator")
	if !nav.Truthy() {
		return i18n.English
	}
	var prefs []string
	if ls := nav.Get("languages"); ls.Truthy() {
		for i := range ls.Length() {
			prefs = append(prefs, ls.Index(i).String())
		}
	}
	if l := nav.Get("language"); l.Truthy() {
		prefs = append(prefs, l.String())
	}
	return i18n.Match(prefs)
}
