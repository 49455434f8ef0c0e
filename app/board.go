package app

import (
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/i18n/phrase"
)

// maxNotices is how many notices show at once, the newest: a button under
// them opens the earlier ones, which stay until dismissed.
const maxNotices = 4

// maxItems is how many items of a notice's list show at once: a button
// after them opens the rest.
const maxItems = 6

// maxNoticeLen bounds one notice's text, and one item's, whatever the
// engine or a link sends.
const maxNoticeLen = 1200

// Board holds the notices the shell shows above the lab: problems with a
// link, the engine's refusals and warnings, what a graph's files held,
// news of an update. A lab adds to it; the shell renders it.
//
// Two rules hold for every notice, whoever adds it. None is ever dropped
// to make room: the board shows the newest maxNotices and, under them, a
// button that opens the earlier ones; a notice's list (each note of a
// graph opened, each value a link had wrong) shows maxItems items and a
// button that opens the rest. And a notice is a message, not words: it is
// put into the page's language each time it is drawn, so the notices on
// screen follow a change of language as every other part of the page does.
type Board struct {
	notices []notice
	// serial numbers the notices as they come.
	serial int
	// earlier says the notices before the newest maxNotices show too.
	earlier bool
	// changed asks the shell to render again; nil in tests of a lab alone.
	changed func()
}

// notice is a message above the lab, with the list it holds, if any. One
// from the engine is about the last state the lab sent, so a new state
// takes it away.
type notice struct {
	text       phrase.Text
	items      []phrase.Text
	fromEngine bool
	// open says every item of its list shows.
	open bool
	// serial is the notice's number, which its buttons name: go-app keeps
	// an element's first handler of an event unless its scope differs, and
	// the element that showed one notice shows another once the board
	// moves on.
	serial int
}

// id is what tells two notices apart: their words in English.
func (n notice) id() string {
	var b strings.Builder
	b.WriteString(n.text.String())
	for _, it := range n.items {
		b.WriteString("\n" + it.String())
	}
	return b.String()
}

// Add shows t, unless it is already showing.
func (b *Board) Add(t phrase.Text, fromEngine bool) {
	b.AddList(t, nil, fromEngine)
}

// AddList shows t with the list items under it. A notice already on the
// board is not shown twice: said again, it becomes the newest, so that
// it is not left among the earlier ones, behind their button.
func (b *Board) AddList(t phrase.Text, items []phrase.Text, fromEngine bool) {
	n := notice{text: t, items: items, fromEngine: fromEngine}
	id := n.id()
	for i, o := range b.notices {
		if o.id() == id {
			if i == len(b.notices)-1 {
				return
			}
			b.notices = append(b.notices[:i], b.notices[i+1:]...)
			break
		}
	}
	b.serial++
	n.serial = b.serial
	b.notices = append(b.notices, n)
	b.touch()
}

// ClearEngine removes what the engine said about an earlier state.
func (b *Board) ClearEngine() {
	kept := b.notices[:0]
	for _, n := range b.notices {
		if !n.fromEngine {
			kept = append(kept, n)
		}
	}
	if len(kept) != len(b.notices) {
		clear(b.notices[len(kept):])
		b.notices = kept
		b.touch()
	}
}

// Dismiss removes the i-th notice, oldest first.
func (b *Board) Dismiss(i int) {
	if i >= 0 && i < len(b.notices) {
		b.notices = append(b.notices[:i], b.notices[i+1:]...)
		b.touch()
	}
}

// Remove removes the notice t, if it shows: a question the user has
// answered.
func (b *Board) Remove(t phrase.Text) {
	id := notice{text: t}.id()
	for i, n := range b.notices {
		if n.id() == id {
			b.Dismiss(i)
			return
		}
	}
}

// Texts returns the notices in the page's language, oldest first: each
// its text, then its list's items a line each.
func (b *Board) Texts() []string {
	out := make([]string, len(b.notices))
	for i, n := range b.notices {
		s := bounded(say(n.text))
		for _, it := range n.items {
			s += "\n" + bounded(say(it))
		}
		out[i] = s
	}
	return out
}

// bounded is s cut to maxNoticeLen characters.
func bounded(s string) string {
	if r := []rune(s); len(r) > maxNoticeLen {
		return string(r[:maxNoticeLen]) + "…"
	}
	return s
}

func (b *Board) touch() {
	if b.changed != nil {
		b.changed()
	}
}

// shown is the index of the first notice the board shows.
func (b *Board) shown() int {
	if b.earlier {
		return 0
	}
	return max(0, len(b.notices)-maxNotices)
}

// render shows the notices, each with a button to dismiss it, and the
// button that opens (or folds) the earlier ones.
func (b *Board) render() app.UI {
	first := b.shown()
	body := make([]app.UI, 0, len(b.notices)-first+1)
	if hidden := len(b.notices) - maxNotices; hidden > 0 {
		label := trf("%d earlier notices", hidden)
		if hidden == 1 {
			label = tr("1 earlier notice")
		}
		if b.earlier {
			label = trf("Show only the newest %d notices", maxNotices)
		}
		body = append(body, app.Button().ID("notices-earlier").Class("small notices-earlier").Aria("expanded", b.earlier).Text(label).
			OnClick(func(ctx app.Context, e app.Event) { b.earlier = !b.earlier }))
	}
	for i := first; i < len(b.notices); i++ {
		body = append(body, b.renderNotice(i))
	}
	return app.Div().Class("notices").Aria("live", "polite").Body(body...)
}

// renderNotice is the i-th notice: its text, its list and its dismiss
// button.
func (b *Board) renderNotice(i int) app.UI {
	n := b.notices[i]
	words := []app.UI{app.Span().Text(bounded(say(n.text)))}
	if len(n.items) > 0 {
		items := n.items
		if !n.open && len(items) > maxItems {
			items = items[:maxItems-1] // the button takes the last place
		}
		lis := make([]app.UI, 0, len(items)+1)
		for _, it := range items {
			lis = append(lis, app.Li().Text(bounded(say(it))))
		}
		if more := len(n.items) - len(items); more > 0 {
			lis = append(lis, app.Li().Body(app.Button().Class("link notice-more").Text(trf("Show %d more", more)).
				OnClick(func(ctx app.Context, e app.Event) { b.openList(n.serial) }, n.serial)))
		}
		words = append(words, app.Ul().Class("notice-items").Body(lis...))
	}
	return app.Div().Class("notice").Body(
		app.Div().Class("notice-words").Body(words...),
		app.Button().Class("dismiss").Title(tr("Dismiss")).Text("×").OnClick(func(ctx app.Context, e app.Event) { b.Dismiss(b.numbered(n.serial)) }, n.serial),
	)
}

// numbered is the index of the notice numbered serial, -1 if it went.
func (b *Board) numbered(serial int) int {
	for i, n := range b.notices {
		if n.serial == serial {
			return i
		}
	}
	return -1
}

// openList shows every item of the list of the notice numbered serial.
func (b *Board) openList(serial int) {
	if i := b.numbered(serial); i >= 0 {
		b.notices[i].open = true
		b.touch()
	}
}

// asIs is words that come without a message (an older engine's error,
// a link copied): shown as they are, in every language.
func asIs(s string) phrase.Text {
	return phrase.Text{Key: "%s", Args: []phrase.Arg{{S: s}}}
}
