package app

import (
	"fmt"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/numtext"
	"pdnexplorer/wasm/protocol"
)

// readFiles reads the files of a FileList (from a file input or a drop)
// into JS buffers, which the page passes on to its workers and never
// copies into its Go memory (protocol.File.Buffer), and hands them to
// done on the UI's goroutine, or what is wrong with them. It refuses more
// than protocol.MaxFileBytes before reading a byte, so the limit costs no
// memory.
func readFiles(ctx app.Context, list app.Value, done func([]protocol.File, error)) {
	n := list.Get("length").Int()
	if n == 0 {
		return
	}
	total := 0
	for i := 0; i < n; i++ {
		total += list.Index(i).Get("size").Int()
	}
	if total > protocol.MaxFileBytes {
		done(nil, phrase.Errorf("the files hold %s; the explorer opens up to %s", phrase.Bytes(total), phrase.Bytes(protocol.MaxFileBytes)))
		return
	}
	files, left := make([]protocol.File, n), n
	for i := 0; i < n; i++ {
		f := list.Index(i)
		var then, fail app.Func
		release := func() { then.Release(); fail.Release() }
		then = app.FuncOf(func(_ app.Value, args []app.Value) any {
			files[i] = protocol.File{Name: pathOf(f), Buffer: app.Window().Get("Uint8Array").New(args[0])}
			release()
			if left--; left == 0 {
				ctx.Dispatch(func(app.Context) { done(files, nil) })
			}
			return nil
		})
		fail = app.FuncOf(func(_ app.Value, args []app.Value) any {
			release()
			ctx.Dispatch(func(app.Context) { done(nil, phrase.Errorf("%s could not be read", f.Get("name").String())) })
			return nil
		})
		f.Call("arrayBuffer").Call("then", then, fail)
	}
}

// pathOf is a picked file's path within the folder it was picked or
// dropped in (an OGB folder's raw/edge.csv.gz), else its name.
func pathOf(f app.Value) string {
	if p := f.Get("webkitRelativePath"); p.Truthy() && p.String() != "" {
		return p.String()
	}
	return f.Get("name").String()
}

// openFiles sends the user's files to the engine; the graph lab switches
// to data=local when the engine says it read them.
func (c *GraphLab) openFiles(ctx app.Context, list app.Value) {
	// The files come back through the lab's own context, not the input's
	// or the drop's: go-app drops a dispatch whose element is no longer
	// mounted, and a training lab redraws the card holding the input many
	// times a second, so the answer was lost in most tries while a run
	// trained or was paused.
	if c.ctx != nil {
		ctx = c.ctx
	}
	readFiles(ctx, list, func(files []protocol.File, err error) {
		if err != nil {
			c.page.board.Add(phrase.New("Your graph was not opened: %s", phrase.Of(err)), false)
			return
		}
		c.opening = true
		c.page.engine.Load(c.handle(), files, c.st.Data)
	})
}

// handle is the lab's run's handle on the engine, nil before it has one:
// its worker reads the files first.
func (c *GraphLab) handle() *Handle {
	if len(c.runs) == 0 {
		return nil
	}
	return c.runs[0].engine
}

// onLoaded switches the lab to the graph the engine read from the user's
// files, and says what it holds.
func (c *GraphLab) onLoaded(l protocol.Loaded) {
	if !c.opening && c.st.Data.Graph != experiment.GraphLocal {
		return // another lab's files, or a worker's answer already taken
	}
	c.opening, c.columns = false, nil
	from := c.st.Data.Recipe()
	if c.loaded != nil && c.st.Data.Graph == experiment.GraphLocal {
		from = c.loaded.Recipe
	}
	c.loaded = &l
	// One notice for the graph, with every note the reader made under it:
	// the board shows each of them, however many (see Board).
	c.page.board.AddList(openedWords(l, c.st.Data.Shots), l.Notes, false)
	next := c.st
	next.Data.Graph = experiment.GraphLocal
	next.Data.IDColumn, next.Data.Target, next.Data.Bins = l.IDColumn, l.Target, l.Bins // the columns the reader used
	c.arrive(&next)                                                                     // another graph: the edits of the one before go
	next.FollowRecipe(from, l.Recipe)                                                   // the features decide the defaults, not where the files came from
	c.page.board.Add(recipeWords(l.Recipe), false)
	// The generator's rows go back to their start, and say so: your own
	// graph does not read them.
	next = c.settle(c.st, next)
	c.page.save(next)
	c.adopt(next, protocol.OpRegenerate)
}

// openedWords says what a graph read from files holds; shots is the
// nodes per class a split drawn for it takes.
func openedWords(l protocol.Loaded, shots int) phrase.Text {
	edgeFeatures := phrase.New("its own %d edge features", l.EdgeFeatures)
	if l.EdgeFeatures == 0 {
		edgeFeatures = phrase.New("no edge features of its own, so the 11 tie-strength scores")
	}
	split := phrase.New("its own split")
	if l.Resplit {
		split = phrase.New("no split, so up to %d labelled nodes per class, drawn with the seed (a class keeps one node to test on)", shots)
	}
	if len(l.EdgeNames) > 0 {
		edgeFeatures = phrase.New("its own %d edge features (%s)", l.EdgeFeatures, listedText(l.EdgeNames, 6))
	}
	classes := phrase.New("%d classes", l.Classes)
	if len(l.ClassNames) > 0 {
		classes = phrase.New("%s (%s)", classes, listedText(l.ClassNames, 6))
	}
	if l.ClassColumn != "" {
		classes = phrase.New("%s from the column %s", classes, l.ClassColumn)
	}
	if l.Unlabelled > 0 {
		classes = phrase.New("%s (%s nodes have no class: they stay in the graph, not trained or tested on)", classes, numtext.Group(l.Unlabelled))
	}
	return phrase.New("Opened %s: %s nodes, %s edges, %s, %s node features, %s, %s. It stays in this page: a link to it opens without it.",
		l.Name, numtext.Group(l.Nodes), numtext.Group(l.Edges), classes, numtext.Group(l.Features), edgeFeatures, split)
}

// recipeWords says which defaults a graph read from files starts from.
func recipeWords(recipe string) phrase.Text {
	if recipe == experiment.RecipeBagOfWords {
		return phrase.New("Its node features are bag-of-words, so it starts from weight decay 0.005, dropout 0.9 and self-loops that weigh the mean of each node's learned edge weights, where you have not set them.")
	}
	return phrase.New("Its node features are not bag-of-words, so it starts from the paper's Appendix A settings (no weight decay, dropout 0.5) where you have not set them.")
}

// recipe is the family of defaults the lab's graph starts from: the
// shipped graph's, or that of the files read.
func (c *GraphLab) recipe() string {
	if c.st.Data.Graph == experiment.GraphLocal && c.loaded != nil {
		return c.loaded.Recipe
	}
	return c.st.Data.Recipe()
}

// listedText is names joined by commas, at most n of them, and how many
// more.
func listedText(names []string, n int) phrase.Text {
	out := strings.Join(names[:min(n, len(names))], ", ")
	if len(names) > n {
		return phrase.New("%s and %d more", out, len(names)-n)
	}
	return asIs(out)
}

// chooseColumn reads the files again with col as the class column (a
// measurement cut into bins classes by quantile, for bins above 0), and
// keeps the choice in the state (target=col, bins=K), so a re-opened
// folder needs no second answer.
func (c *GraphLab) chooseColumn(col string, bins int) {
	d := c.st.Data
	d.Target, d.Bins = col, bins
	c.columns, c.opening = nil, true
	c.page.engine.Reload(c.handle(), d)
}

// renderColumns says which columns of one's own node table the files
// opened next are read with (a link's id-column, target or bins, or a
// column chosen before), and offers to let the reader find them instead;
// nothing when the state names none. A link's bins=5 was otherwise a row no
// control showed, and no way to clear it.
func (c *GraphLab) renderColumns() app.UI {
	named := columnsText(c.st.Data)
	if named == "" {
		return nil
	}
	return app.P().ID("open-columns").Class("note").Body(
		app.Text(trf("Your files are read with %s, from the link or a column you chose. ", named)),
		app.Button().ID("forget-columns").Class("small").Text(tr("Let the reader choose")).
			OnClick(func(app.Context, app.Event) { c.forgetColumns() }),
	)
}

// columnsText names the columns d holds as a link does: id-column=id,
// target=mature, bins=5.
func columnsText(d experiment.Data) string {
	var parts []string
	for _, name := range []string{"id-column", "target", "bins"} {
		p, _ := experiment.Lookup(name)
		if v := p.Get(&experiment.Experiment{Data: d}); v != p.Default {
			parts = append(parts, name+"="+v)
		}
	}
	return strings.Join(parts, ", ")
}

// forgetColumns drops the columns the state names, so that the reader
// finds them: the files in use, if any, are read again without them (the
// chooser asks where the files leave the class open), and files opened
// later are read so.
func (c *GraphLab) forgetColumns() {
	d := c.st.Data
	d.IDColumn, d.Target, d.Bins = "", "", 0
	if c.st.Data.Graph == experiment.GraphLocal && c.loaded != nil {
		c.columns, c.opening = nil, true
		c.page.engine.Reload(c.handle(), d)
		return
	}
	next := c.st
	next.Data = d
	c.page.save(next)
	c.adopt(next, protocol.OpSet)
}

// chooserColumns and chooserButtons bound what the chooser shows, so
// that a file of 1,400 columns (a NetworkX GraphML's words) keeps it
// inside the screen: the first columns of the sample, and the candidate
// columns as buttons, or as a list to pick from when there are many.
const (
	chooserColumns = 8
	chooserButtons = 6
)

// renderChooser shows the node table's header, its first rows and, for
// each column that could be the class, the classes it gives, as buttons
// (or a list when there are many).
func (c *GraphLab) renderChooser() app.UI {
	t := c.columns
	if t == nil {
		return nil
	}
	shown := min(len(t.Header), chooserColumns)
	head := make([]app.UI, 0, shown+1)
	for _, h := range t.Header[:shown] {
		head = append(head, app.Th().Text(h))
	}
	if more := len(t.Header) - shown; more > 0 {
		head = append(head, app.Th().Text(trf("and %d more", more)))
	}
	rows := []app.UI{app.Tr().Body(head...)}
	for _, r := range t.Sample {
		cells := make([]app.UI, 0, shown)
		for _, v := range r[:min(len(r), shown)] {
			cells = append(cells, app.Td().Text(v))
		}
		rows = append(rows, app.Tr().Body(cells...))
	}
	lead, ask := tr(" does not say which column holds the classes. Its first rows:"), tr("Which column is the class? The link keeps your choice (target=…).")
	if len(t.Choices) > 0 && t.Choices[0].Bins > 0 {
		lead, ask = tr(" holds measurements (a count, a page's traffic) where the classes should be. Its first rows:"),
			tr("Cut them into classes of about equal size at their quantiles, as Geom-GCN did for Wikipedia's traffic? The link keeps the choice (bins=…).")
	}
	return app.Div().ID("column-chooser").Class("chooser").Body(
		app.P().Body(app.Strong().Text(t.File), app.Text(lead)),
		dataTable("", "runs", rows...),
		app.P().Text(ask),
		c.renderChoices(t.Choices),
	)
}

// choiceWords says what choosing a column gives: its classes and counts.
func choiceWords(ch protocol.ClassChoice) string {
	counts := make([]string, 0, 6)
	for k, name := range ch.Classes[:min(6, len(ch.Classes))] {
		counts = append(counts, fmt.Sprintf("%s %s", name, numtext.Group(ch.Counts[k])))
	}
	if ch.Bins > 0 {
		return trf("%s cut into %d classes by quantile (%s)", ch.Column, len(ch.Classes), strings.Join(counts, ", "))
	}
	return trf("%s: %d classes (%s)", ch.Column, len(ch.Classes), strings.Join(counts, ", "))
}

// renderChoices offers the candidate columns: a button each, or, when
// there are more than chooserButtons, a list and one button.
func (c *GraphLab) renderChoices(choices []protocol.ClassChoice) app.UI {
	if len(choices) <= chooserButtons {
		buttons := make([]app.UI, len(choices))
		for i, ch := range choices {
			col, bins := ch.Column, ch.Bins
			buttons[i] = app.Button().ID(fmt.Sprintf("choose-column-%d", i)).Class("small choice").
				Text(choiceWords(ch)).OnClick(func(app.Context, app.Event) { c.chooseColumn(col, bins) })
		}
		return app.Div().Class("open-buttons").Body(buttons...)
	}
	opts := make([]app.UI, len(choices))
	for i, ch := range choices {
		opts[i] = app.Option().Value(ch.Column).Text(choiceWords(ch))
	}
	return app.Div().Class("open-buttons").Body(
		app.Label().For("choose-column-list").Class("visually-hidden").Text(tr("Which column is the class?")),
		app.Select().ID("choose-column-list").Class("choice").Body(opts...),
		app.Button().ID("choose-column").Class("small").Text(tr("Use this column")).OnClick(func(ctx app.Context, e app.Event) {
			if v := app.Window().GetElementByID("choose-column-list").Get("value"); v.Truthy() {
				c.chooseColumn(v.String(), 0) // a list holds class columns only
			}
		}),
	)
}

// renderOpen is the card to open one's own graph: a file picker, a folder
// picker and the page itself as a drop target, with the formats and the
// limit stated before anything is chosen.
func (c *GraphLab) renderOpen() app.UI {
	pick := func(id, label string, folder bool) app.UI {
		in := app.Input().ID(id).Type("file").Class("visually-hidden").Multiple(true).
			OnChange(func(ctx app.Context, e app.Event) {
				c.openFiles(ctx, ctx.JSSrc().Get("files"))
				ctx.JSSrc().Set("value", "") // the same files again are a new choice
			})
		if folder {
			in = in.Attr("webkitdirectory", true)
		} // no accept filter: edge lists come as .edgelist, .el, .dat or with no extension at all
		return app.Label().For(id).Class("button small").Body(app.Text(label), in)
	}
	var now app.UI = app.P().Class("note").Text(tr("Drop the files anywhere on this lab, or:"))
	if c.st.Data.Graph == experiment.GraphLocal && c.loaded != nil {
		now = app.P().Class("note").Body(app.Text(tr("Now training ")), app.Strong().Text(c.loaded.Name),
			app.Text(trf(": %s nodes, %s edges.", numtext.Group(c.loaded.Nodes), numtext.Group(c.loaded.Edges))))
	}
	return app.FieldSet().ID("open-graph").Class("open-graph").Body(
		app.Legend().Text(tr("Your own graph")),
		app.P().Class("note").Text(trf("%s; as files, a folder or one .zip, up to %s. Read in the engine's worker; nothing leaves your machine. Before it trains, the engine says whether a browser can afford the model on your graph.",
			trf("Open %s", tr(experiment.GraphFormats)), say(megabytesText(protocol.MaxFileBytes)))),
		now,
		c.renderColumns(),
		c.renderChooser(),
		app.Div().Class("open-buttons").Body(pick("open-files", tr("Open files…"), false), pick("open-folder", tr("Open a folder…"), true)),
	)
}

// onDrop opens the files dropped on the lab.
func (c *GraphLab) onDrop(ctx app.Context, e app.Event) {
	e.PreventDefault()
	c.dragging = false
	if dt := e.Get("dataTransfer"); dt.Truthy() {
		c.openFiles(ctx, dt.Get("files"))
	}
}

// onDragOver lets the lab take a drop of files, and shows it will.
func (c *GraphLab) onDragOver(ctx app.Context, e app.Event) {
	if dt := e.Get("dataTransfer"); !dt.Truthy() || !strings.Contains(dt.Get("types").Call("join", ",").String(), "Files") {
		return
	}
	e.PreventDefault()
	c.dragging = true
}
