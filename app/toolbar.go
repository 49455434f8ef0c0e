package app

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/wasm/protocol"
)

// renderToolbar drives the lab's runs (play or pause, step, reset, a new
// graph, the link) and shows their numbers and the progress of a long
// epoch; under lies what the lab adds (the graph lab's scrubber). On a
// phone it keeps to Play, Step, Reset, the epoch and the test accuracy
// (each run's, where several train), and the rest opens with a button
// under it (renderToolbarMore).
func (l *lab) renderToolbar(under ...app.UI) app.UI {
	one := len(l.runs) <= 1
	play, playTitle, stepTitle := tr("▶ Play"), tr("Play or pause (Space)"), tr("Train one epoch (S)")
	if !one {
		play, playTitle, stepTitle = tr("▶ Train all"), tr("Train every model, or pause them (Space)"), tr("Train each model one epoch (S)")
	}
	if l.running() {
		play = tr("❚❚ Pause")
	}
	class := "toolbar"
	if l.toolbarOpen {
		class += " open"
	}
	return app.Div().ID("toolbar").Class(class).Body(append([]app.UI{
		app.Button().ID("play").Class("primary").Title(playTitle).Text(play).
			OnClick(func(ctx app.Context, e app.Event) { l.do(cmdPlay) }),
		app.Button().ID("step").Title(stepTitle).Text(tr("Step")).
			OnClick(func(ctx app.Context, e app.Event) { l.do(cmdStep) }),
		app.Button().ID("reset").Title(tr("Back to epoch 0, same initial weights (R)")).Text(tr("Reset")).
			OnClick(func(ctx app.Context, e app.Event) { l.do(cmdReset) }),
		app.Button().ID("regenerate").Title(tr("A new graph from the next data seed (G)")).Text(tr("New graph")).
			OnClick(func(ctx app.Context, e app.Event) { l.do(cmdNewGraph) }),
		app.Button().ID("copy-link").Title(tr("Copy the link to this exact state")).Text(tr("Copy link")).
			OnClick(func(ctx app.Context, e app.Event) { copyLink(l.page.board) }),
		l.renderSpeed(),
		l.renderNumbers(),
		l.renderProgress(),
	}, under...)...)
}

// renderToolbarMore is the button that opens, on a phone, what its
// sticky toolbar leaves out: the pace, the numbers beyond the epoch and
// the test accuracy (each still in the page, folded), and what the lab
// puts under the toolbar (the graph lab's scrubber). It lies under the
// toolbar, in the row a phone keeps out of it (renderFoldRow), where the
// styles show it: in the toolbar it pushed the runs' numbers of a lab of
// four runs onto four lines, and it did not fit beside Arabic's Pause.
// The toolbar took a quarter of the screen after training and pushed the
// graph below it.
func (l *lab) renderToolbarMore() app.UI {
	label := tr("More ▾")
	if l.toolbarOpen {
		label = tr("Less ▴")
	}
	return app.Button().ID("toolbar-more").Class("fold toolbar-more").Aria("expanded", l.toolbarOpen).Aria("controls", "toolbar").
		Title(tr("Show or hide the pace and the run's other numbers")).Text(label).
		OnClick(func(ctx app.Context, e app.Event) { l.toolbarOpen = !l.toolbarOpen })
}

// renderSpeed is the pace menu: as fast as the machine goes, or a few
// epochs a second to talk over (experiment.Speeds; - and + step it).
func (l *lab) renderSpeed() app.UI {
	speeds := experiment.Speeds
	if !slices.Contains(speeds, l.st.View.Speed) {
		speeds = append(slices.Clone(speeds), l.st.View.Speed) // a link's own pace
	}
	opts := make([]app.UI, len(speeds))
	for i, v := range speeds {
		label := tr("Full speed")
		if v > 0 {
			label = say(rateText(v))
		}
		opts[i] = app.Option().Value(strconv.FormatFloat(v, 'g', -1, 64)).Selected(v == l.st.View.Speed).Text(label)
	}
	return app.Select().ID("speed").Aria("label", tr("Speed")).Title(tr("Epochs a second while training, so that you can talk over the run (- and +); the pace changes no result")).
		Body(opts...).OnChange(func(ctx app.Context, e app.Event) { l.change(ctx, "speed", ctx.JSSrc().Get("value").String()) })
}

// nextSpeed is the pace one step slower or faster than v in
// experiment.Speeds (0, as fast as it goes, is the fastest).
func nextSpeed(v float64, faster bool) string {
	speeds := experiment.Speeds
	i := slices.Index(speeds, v)
	switch {
	case i < 0:
		i = 0
	case faster:
		i = max(i-1, 0)
	default:
		i = min(i+1, len(speeds)-1)
	}
	return strconv.FormatFloat(speeds[i], 'g', -1, 64)
}

// renderNumbers are the runs' headline numbers: the epoch, accuracies,
// loss and speed of one run, or each run's epoch and test accuracy.
func (l *lab) renderNumbers() app.UI {
	if len(l.runs) == 1 {
		r := l.runs[0]
		return app.Div().Class("stats").Body(
			stat(tr("Epoch"), "epoch", metric("epoch", "", float64(r.snap.Epoch), fmt.Sprintf("%d / %d", r.snap.Epoch, r.Exp.Train.Epochs))),
			stat(tr("Test acc."), "test-acc", l.metricOf(r, "test-accuracy", float64(r.snap.TestAcc), 3)),
			// More: a phone's toolbar folds them away (renderToolbarMore).
			stat(tr("Train acc."), "train-acc", l.metricOf(r, "train-accuracy", float64(r.snap.TrainAcc), 3)).Class("more"),
			stat(tr("Loss"), "loss", l.metricOf(r, "loss", float64(r.snap.Loss), 4)).Class("minor more"),
			stat(tr("Epochs/s"), "rate", l.metricOf(r, "epochs-per-second", float64(r.snap.EpochsPerSec), 1)).Class("minor more"),
			threadsStat(r),
		)
	}
	class := "stats runs"
	if len(l.runs) > manyRuns {
		class += " many" // a phone shows their accuracies alone, three to a row
	}
	return app.Div().Class(class).Title(tr("epoch · test accuracy of each run")).Body(app.Range(l.runs).Slice(func(i int) app.UI {
		r := l.runs[i]
		epoch := float64(r.snap.Epoch)
		if !r.snapped {
			epoch = math.NaN()
		}
		return app.Div().Class("stat").Body(
			app.Span().Class("label").Body(
				app.Span().Class("long").Text(tr(r.Title)+tr(": epoch · test acc.")),
				app.Span().Class("short").Text(r.Name)), // a projector's toolbar keeps to one line a run
			app.Span().Class("value").Body(
				app.Span().Class("run-epoch").Body(metric("epoch", r.Name, epoch, strconv.Itoa(r.snap.Epoch)), app.Text(" · ")),
				l.metricOf(r, "test-accuracy", float64(r.snap.TestAcc), 3),
			),
		)
	}))
}

// manyRuns is the most runs a phone's toolbar shows with their epochs:
// the multiplex lab's six (its runs share their epochs) keep to two rows
// with their accuracies alone.
const manyRuns = 4

// stat is one of a run's numbers in the toolbar, with its label; id names
// it for the page's styles and tests.
func stat(label, id string, value app.HTMLSpan) app.HTMLDiv {
	return app.Div().Class("stat").Body(app.Span().Class("label").Text(label), value.ID(id).Class("value"))
}

// threadsStat shows how many threads the run's engine splits its
// products across, and why one where it is one: the page is not
// cross-origin isolated (web/worker.js).
func threadsStat(r *run) app.HTMLDiv {
	n := r.snap.Threads
	value := math.NaN() // not yet told
	text := "–"
	if r.snapped && n > 0 {
		value, text = float64(n), strconv.Itoa(n)
	}
	why := tr("The threads this run's engine splits its work across")
	if n == 1 {
		why = tr("One thread: this page is not cross-origin isolated (an embed in a page that is not, or the first visit to a host that sends no isolation headers), the browser has two cores or fewer (one is left to the page), the page trains several runs at once, or its address asks for one")
	}
	return stat(tr("Threads"), "threads", metric("threads", "", value, text)).Class("minor more").Title(why)
}

// renderProgress shows how far an epoch longer than a moment, or a slow
// set-up, has got, for each run that has one: on a large model the first
// epoch can take a second, and the page must show it is working.
func (l *lab) renderProgress() app.UI {
	var parts []app.UI
	for _, r := range l.runs {
		if r.progress == nil {
			continue
		}
		label := progressLabel(r)
		if len(l.runs) > 1 {
			label = tr(r.Title) + ": " + label
		}
		parts = append(parts, app.Span().Class("one").Body(
			app.Progress().Max(1).Value(strconv.FormatFloat(r.progress.Done, 'f', 3, 64)).Aria("label", label),
			app.Span().Text(" "+label)))
	}
	if len(parts) == 0 {
		return app.Div().ID("progress").Class("progress idle").Aria("hidden", "true")
	}
	return app.Div().ID("progress").Class("progress").Body(parts...)
}

// progressLabel says what a run's long epoch or set-up is doing.
func progressLabel(r *run) string {
	p := r.progress
	if p.Phase == protocol.PhaseSetup {
		if p.Restarts != nil {
			return trf("Trying %d initialisations: %.0f%%", len(p.Restarts.Seeds), 100*p.Done)
		}
		return trf("Preparing the model (%s): %.0f%%", r.Exp.Model.Kind, 100*p.Done)
	}
	label := trf("Training epoch %d: %.0f%%", p.Epoch+1, 100*p.Done)
	if rate := float64(r.snap.EpochsPerSec); rate > 0 {
		label += epochTime(1 / rate)
	} else if sec := float64(r.snap.SecondsPerEpoch); sec >= 0.1 {
		label += trf(" · about %s an epoch, estimated", say(epochTimeText(sec)))
	}
	if !p.Running {
		label += tr(" · paused inside the epoch; Play or Step goes on")
	}
	return label
}

// epochTime says how long an epoch takes, after the words before it.
func epochTime(sec float64) string { return trf(" · %s an epoch", say(epochTimeText(sec))) }

// copyLink puts the permalink on the clipboard.
func copyLink(b *Board) {
	copyText(b, app.Window().Get("location").Get("href").String(), msg("Link copied: %s"))
}

// copyText puts text on the clipboard and says so, with what was copied:
// says is the key of the words, with a %s for the text.
func copyText(b *Board, text, says string) {
	if clip := app.Window().Get("navigator").Get("clipboard"); clip.Truthy() {
		clip.Call("writeText", text)
	}
	b.Add(phrase.New(says, text), false)
}
