package app

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// maxNotices is how many notices show at once; older ones give way.
const maxNotices = 4

// maxNoticeLen bounds one notice, whatever the engine or a link sends.
const maxNoticeLen = 1200

// Board holds the notices the shell shows above the lab: problems with a
// link, the engine's refusals and warnings, news of an update. A lab adds
// to it; the shell renders it.
type Board struct {
	notices []notice
	// changed asks the shell to render again; nil in tests of a lab alone.
	changed func()
}

// notice is a message above the lab. One from the engine is about the
// last state the lab sent, so a new state takes it away.
type notice struct {
	text       string
	fromEngine bool
}

// Add shows msg, unless it is already showing.
func (b *Board) Add(msg string, fromEngine bool) {
	if r := []rune(msg); len(r) > maxNoticeLen {
		msg = string(r[:maxNoticeLen]) + "…"
	}
	for _, n := range b.notices {
		if n.text == msg {
			return
		}
	}
	b.notices = append(b.notices, notice{msg, fromEngine})
	if len(b.notices) > maxNotices {
		b.notices = b.notices[len(b.notices)-maxNotices:]
	}
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
		b.notices = kept
		b.touch()
	}
}

// Dismiss removes the i-th notice.
func (b *Board) Dismiss(i int) {
	if i >= 0 && i < len(b.notices) {
		b.notices = append(b.notices[:i], b.notices[i+1:]...)
		b.touch()
	}
}

// Remove removes the notice msg, if it shows: a question the user has
// answered.
func (b *Board) Remove(msg string) {
	for i, n := range b.notices {
		if n.text == msg {
			b.Dismiss(i)
			return
		}
	}
}

// Texts returns the notices' texts, oldest first.
func (b *Board) Texts() []string {
	out := make([]string, len(b.notices))
	for i, n := range b.notices {
		out[i] = n.text
	}
	return out
}

func (b *Board) touch() {
	if b.changed != nil {
		b.changed()
	}
}

// render shows the notices, each with a button to dismiss it.
func (b *Board) render() app.UI {
	return app.Div().Class("notices").Body(
		app.Range(b.notices).Slice(func(i int) app.UI {
			return app.Div().Class("notice").Body(
				app.Span().Text(b.notices[i].text),
				app.Button().Class("dismiss").Title(tr("Dismiss")).Text("×").OnClick(func(ctx app.Context, e app.Event) { b.Dismiss(i) }),
			)
		}),
	)
}
