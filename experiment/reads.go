package experiment

import (
	"slices"
	"strings"

	"pdnexplorer/i18n/phrase"
)

// Who reads a row. A state is read by a Reader: the engine's one run (a
// model on a graph: pdn train, the worker), a lab (the rows it offers and
// the runs it makes: the page, a link, the CLI's lessons) or a command.
// A row is read when
//
//   - a view row: every lab reads CommonViews, a lab its own Views, the
//     engine none;
//   - an engine row: the reader does not set it itself (Lab.Sets), one of
//     its runs reads it, and the reader takes it from the state (Lab.Rows,
//     Lab.Hide). A run reads a model row when its model does (the model
//     table's ModelKind.Rows, as Param.Models), a data row when its graph
//     does (Param.Graphs), and any row only when the row it waits on
//     allows (Param.Needs: restart-epochs needs restarts above 0, a
//     perturbation a rate above 0, a rate a perturbation).
//
// A row given that its reader does not read is refused by name, saying why
// and what would read it (Reader.Unread): on the command line a usage
// error, in a link a notice (the row keeps the lab's start), in a state
// the worker is sent an error event. The page never makes such a state
// (Lab.Settle), and sends each run the engine's form of it (EncodeEngine).

// Reader is who reads a state's rows: the engine's one run, a lab, or a
// command of the CLI.
type Reader struct {
	// Name says who it is, as a message names it: "the compare lab",
	// "pdn xor".
	Name phrase.Text
	// Rows are the engine's rows it takes from the state, nil for every
	// one.
	Rows []string
	// Views are the view rows it reads beyond CommonViews; a reader
	// without a lab (Lab == false) reads none.
	Views []string
	Lab   bool
	// OpensFiles says it keeps the rows that choose a file's columns
	// (target, id-column, bins: Param.Columns) for the next files it
	// opens, whatever graph its runs train now: the page's labs do (a link
	// cannot carry files, so its columns wait for them). A command of the
	// CLI opens no file later: it reads the columns only where its runs'
	// graph is files of one's own, as a run does (pdn xor, degree and
	// claims have none: graph xor does not read them).
	OpensFiles bool
	// ShowsEdges says it shows the graph's edges and their features, as
	// the page's worker sends them to every lab: it reads the rows that
	// change only those (Param.EdgeOnly) whatever its model reads.
	ShowsEdges bool
	// Sets are the engine's rows it sets itself in its runs, each with
	// why: it takes them from no state.
	Sets map[string]phrase.Text
	// Runs are the runs it makes of a state, nil for the state itself,
	// one run.
	Runs func(Experiment) []Experiment
}

// RunReader is the reader of one run, a model on a graph, named name: pdn
// train.
func RunReader(name phrase.Text) Reader { return Reader{Name: name} }

// EngineReader is the reader of the page's engine (the worker): one run,
// whose graph the page shows.
func EngineReader() Reader { return Reader{Name: phrase.New("the engine"), ShowsEdges: true} }

// Reader is the lab's reader: the rows it offers, the views it reads, the
// rows its runs set and the runs it makes.
func (l Lab) Reader() Reader {
	var rows []string
	for _, p := range Params {
		if p.Group != GroupView && !slices.Contains(l.Hide, p.Name) && (l.Rows == nil || slices.Contains(l.Rows, p.Name)) {
			rows = append(rows, p.Name)
		}
	}
	return Reader{
		Name: phrase.New("the %s lab", l.Name), Rows: rows, Views: l.Views, Lab: true, OpensFiles: true, ShowsEdges: true, Sets: l.Sets,
		Runs: func(e Experiment) []Experiment {
			var out []Experiment
			for _, r := range l.Runs(e) {
				out = append(out, r.Exp)
			}
			if l.Trains != nil { // and what its pool trains (the transfer table's PDN reads the pathfinder's rows)
				for _, r := range l.Trains(e) {
					out = append(out, r.Exp)
				}
			}
			return out
		},
	}
}

// ReaderOf is the reader of the lab e names.
func ReaderOf(e Experiment) Reader {
	l, _ := LabNamed(e.View.Lab)
	return l.Reader()
}

// Refusal is a row given that its reader does not read: the row, and why,
// with what would read it.
type Refusal struct {
	Row string
	Why phrase.Text
}

// Unread returns the rows given (given(name)) that r does not read in state
// e, in the table's order, each with why.
func (r Reader) Unread(e Experiment, given func(name string) bool) []Refusal {
	runs := r.runsOf(e)
	var out []Refusal
	for _, p := range Params {
		if !given(p.Name) {
			continue
		}
		if why, ok := r.reads(p, e, runs); !ok {
			out = append(out, Refusal{Row: p.Name, Why: why})
		}
	}
	return out
}

// Offers reports whether r takes row p from a state at all, whatever the
// state, and if not, why: an engine row it lists (Rows) and does not set
// itself (Sets). A link's hide row names only rows its lab offers.
func (r Reader) Offers(p Param) (phrase.Text, bool) {
	if why, ok := r.Sets[p.Name]; ok {
		return phrase.New("%s sets it itself: %s", r.Name, why), false
	}
	if p.Group == GroupView || r.Rows != nil && !slices.Contains(r.Rows, p.Name) {
		return phrase.New("%s does not read it (%s)", r.Name, labsReading(p)), false
	}
	return phrase.Text{}, true
}

// Reads reports whether r reads row p in state e, and if not, why.
func (r Reader) Reads(p Param, e Experiment) (phrase.Text, bool) {
	return r.reads(p, e, r.runsOf(e))
}

func (r Reader) runsOf(e Experiment) []Experiment {
	if r.Runs == nil {
		return []Experiment{e}
	}
	return r.Runs(e)
}

// reads is Reads of state e, whose runs r makes are runs.
func (r Reader) reads(p Param, e Experiment, runs []Experiment) (phrase.Text, bool) {
	if p.Group == GroupView {
		if !r.Lab || !slices.Contains(CommonViews, p.Name) && !slices.Contains(r.Views, p.Name) {
			return phrase.New("%s does not read it (%s)", r.Name, labsReading(p)), false
		}
		return needs(p, e)
	}
	if why, ok := r.Sets[p.Name]; ok {
		return phrase.New("%s sets it itself: %s", r.Name, why), false
	}
	if r.OpensFiles && p.Columns() {
		// The page's lab keeps the columns for the next files it opens (a
		// link cannot carry files: target=, id-column= and bins= are for
		// them), whatever graph its runs train now.
		return phrase.Text{}, true
	}
	if r.ShowsEdges && (r.Rows == nil || slices.Contains(r.Rows, p.Name)) &&
		slices.ContainsFunc(runs, func(run Experiment) bool { return (p.EdgeOnly || p.onlyEdges(run)) && p.Applies(run.Data) }) {
		return needs(p, e) // its views show the graph's edges, whatever its models read
	}
	if len(runs) > 0 && !slices.ContainsFunc(runs, func(run Experiment) bool { _, ok := runReads(p, run); return ok }) {
		return runsUnread(p, runs), false
	}
	if r.Rows != nil && !slices.Contains(r.Rows, p.Name) {
		return phrase.New("%s does not read it (%s)", r.Name, labsReading(p)), false
	}
	return phrase.Text{}, true
}

// runReads reports whether one run, a model on a graph, reads the engine's
// row p, and if not, why: its graph (Param.Graphs), its model
// (Param.Models) or the row p waits on (Param.Needs).
func runReads(p Param, run Experiment) (phrase.Text, bool) {
	switch {
	case !p.Applies(run.Data):
		return phrase.New("graph %s does not read it (%s)", graphWord(run.Data.Graph), readers(p.Graphs)), false
	case p.Group == GroupModel && !p.ReadByModel(run.Model):
		return modelUnread(p, []string{run.Model.Kind}), false
	case p.EdgeOnly && !readsEdgeFeatures(run.Model.Kind):
		return phrase.New("model %s reads no edge features, so it trains the same whatever this is (%s)", run.Model.Kind, readers(edgeFeatureModels())), false
	case p.onlyEdges(run) && !UsesGraph(run.Model.Kind):
		return phrase.New("model %s passes no messages along the graph's edges, so it trains the same whatever this is (%s)", run.Model.Kind, readers(ModelsWhere(func(m ModelKind) bool { return m.Graph }))), false
	}
	return needs(p, run)
}

// onlyEdges reports whether p, in run, changes only the graph's edges
// (Param.Edges, Param.EdgesWhen).
func (p Param) onlyEdges(run Experiment) bool {
	return p.Edges || p.EdgesWhen != nil && p.EdgesWhen(&run)
}

// needs reports whether the row p waits on (Param.Needs) lets e read it,
// and if not, why.
func needs(p Param, e Experiment) (phrase.Text, bool) {
	if p.Needs != nil && !p.Needs.Holds(&e) {
		q, _ := Lookup(p.Needs.Row)
		return phrase.New("read only when %s; %s is %s", p.Needs.When, q.Name, q.Get(&e)), false
	}
	return phrase.Text{}, true
}

// runsUnread says why none of runs reads p: the models they train, where
// none of them does; else the reason of the first run whose model reads it
// (its graph, or the row p waits on).
func runsUnread(p Param, runs []Experiment) phrase.Text {
	var kinds []string
	for _, run := range runs {
		if p.Group != GroupModel || p.ReadByModel(run.Model) {
			why, _ := runReads(p, run)
			return why
		}
		if !slices.Contains(kinds, run.Model.Kind) {
			kinds = append(kinds, run.Model.Kind)
		}
	}
	return modelUnread(p, kinds)
}

// modelUnread says that the models kinds do not read p, and which do;
// where one model fixes what p sets itself (ModelKind.Fixed), at what.
func modelUnread(p Param, kinds []string) phrase.Text {
	if len(kinds) > 1 {
		return phrase.New("none of the models %s reads it (%s)", strings.Join(kinds, ", "), readers(p.Models))
	}
	m, _ := ModelNamed(kinds[0])
	if v, ok := m.Fixed[p.Name]; ok {
		symbol := p.Symbol
		if symbol == "" {
			symbol = p.Name
		}
		return phrase.New("model %s does not read it (its %s is fixed at %s; %s)", kinds[0], symbol, num(v), readers(p.Models))
	}
	return phrase.New("model %s does not read it (%s)", kinds[0], readers(p.Models))
}

// readers says which models or graphs read a row: "only gcn reads it".
func readers(names []string) phrase.Text {
	if len(names) == 1 {
		return phrase.New("only %s reads it", graphWord(names[0]))
	}
	return phrase.New("only %s read it", strings.Join(names, ", "))
}

// graphWord names a graph in a message: local as the files it is.
func graphWord(name string) phrase.Text {
	if name == GraphLocal {
		return phrase.New("local (your own files)")
	}
	return phrase.New("%s", name)
}

// setBy reports whether r sets row p itself (Reader.Sets).
func setBy(r Reader, p Param) bool {
	_, ok := r.Sets[p.Name]
	return ok
}

// labsReading says which labs read p, for a reader that does not.
func labsReading(p Param) phrase.Text {
	var names []string
	for _, l := range Labs {
		r := l.Reader()
		if p.Group == GroupView && (slices.Contains(CommonViews, p.Name) || slices.Contains(r.Views, p.Name)) ||
			p.Group != GroupView && slices.Contains(r.Rows, p.Name) && !setBy(r, p) {
			names = append(names, l.Name)
		}
	}
	switch len(names) {
	case 0:
		return phrase.New("no lab reads it")
	case 1:
		return phrase.New("the %s lab reads it", names[0])
	}
	return phrase.New("the %s labs read it", strings.Join(names, ", "))
}

// EncodeEngine is EncodeRun of the run e (a model on a graph) as the
// engine is sent it (ForEngine).
func (e Experiment) EncodeEngine() string { return e.ForEngine().EncodeRun() }

// ForEngine is the run e (a model on a graph) with every row it does not
// read back at the value it has when no one gives it (the table's
// default, or its graph's recipe's): the engine refuses a state that sets
// a row it does not read, and takes every run a lab makes in this form,
// whatever rows the lab's other runs read (the compare lab's GCN beside a
// PDN of 32 pathfinder neurons).
func (e Experiment) ForEngine() Experiment {
	base := Default()
	base.ApplyRecipeOf(e.Data.Recipe(), func(string) bool { return false })
	e, _ = resetUnread(e, base, EngineReader(), func(string) bool { return true })
	return e
}

// resetUnread puts the first row given that r does not read in e, and
// that differs from base, back at base's value, then the next, until none
// is left, and returns the state and what it put back, and why. One at a
// time, in the table's order: a row put back decides whether the rows
// after it are read (the XOR lab's graph, then its nodes per class; a
// perturbation without a rate, then the rate).
func resetUnread(e, base Experiment, r Reader, given func(string) bool) (Experiment, []Refusal) {
	var all []Refusal
	differs := func(name string) bool {
		p, _ := Lookup(name)
		return given(name) && p.Get(&e) != p.Get(&base)
	}
	first := map[string]phrase.Text{} // why a row was first refused: before the rows put back changed it
	for range Params {
		refused := r.Unread(e, differs)
		if len(refused) == 0 {
			break
		}
		for _, u := range refused {
			if _, ok := first[u.Row]; !ok {
				first[u.Row] = u.Why
			}
		}
		u := refused[0]
		p, _ := Lookup(u.Row)
		p.copyField(&e, &base)
		all = append(all, Refusal{Row: u.Row, Why: first[u.Row]})
	}
	return e, all
}

// Settle is next, the state one change of a control made of prev, as a
// page holds it: a perturbation chosen at rate 0 takes its first rate
// (Perturbations), so that the run perturbs; and every row the lab read
// in prev that the change left unread (the model switched, the
// perturbation set to none) goes back to its start, start's value (with
// the recipe of next's graph where the lab does not set the row), so that
// no state the page makes sets a row no one reads.
func (l Lab) Settle(prev, next, start Experiment) Experiment {
	e, _ := l.SettleSaid(prev, next, start)
	return e
}

// SettleSaid is Settle, and the rows it put back at their start, each
// with why the lab does not read it now, for the page to say.
func (l Lab) SettleSaid(prev, next, start Experiment) (Experiment, []Refusal) {
	if next.Data.Perturb != prev.Data.Perturb && next.Data.PerturbRate == 0 {
		if pt, ok := PerturbationNamed(next.Data.Perturb); ok {
			next.Data.PerturbRate = pt.FirstRate()
		}
	}
	r := l.Reader()
	prevRuns := r.runsOf(prev)
	wasRead := func(name string) bool {
		p, _ := Lookup(name)
		_, ok := r.reads(p, prev, prevRuns)
		return ok
	}
	return resetUnread(next, l.base(start, next.Data), r, wasRead)
}

// Tidy is e, a state made for the lab from another's (the sweep's run
// opened in the compare lab), with every row the lab does not read back at
// its start: start's value, with the recipe of e's graph where the lab
// does not set the row. Its link opens without a notice.
func (l Lab) Tidy(e, start Experiment) Experiment {
	e, _ = resetUnread(e, l.base(start, e.Data), l.Reader(), func(string) bool { return true })
	return e
}

// base is the state a row of the lab holds when no one gives it: start's
// value, or the recipe of d's graph where the lab's defaults leave the
// row to it.
func (l Lab) base(start Experiment, d Data) Experiment {
	fixed := l.defaultRows()
	start.ApplyRecipeOf(d.Recipe(), func(name string) bool { return fixed[name] })
	return start
}

// defaultRows are the rows the lab's Defaults set.
func (l Lab) defaultRows() map[string]bool {
	out := map[string]bool{}
	for _, kv := range strings.Split(l.Defaults, "&") {
		if k, _, ok := strings.Cut(kv, "="); ok {
			out[k] = true
		}
	}
	return out
}

// readsEdgeFeatures says model kind reads the edges' own features.
func readsEdgeFeatures(kind string) bool {
	m, ok := ModelNamed(kind)
	return ok && m.EdgeFeatures
}

// edgeFeatureModels are the models that read the edges' own features.
func edgeFeatureModels() []string {
	var out []string
	for _, m := range Models {
		if m.EdgeFeatures {
			out = append(out, m.Name)
		}
	}
	return out
}
