package experiment

import (
	"flag"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/numtext"
)

// Encode writes every field as a URL query ("lab=graph&…&classes=3&…"),
// in the table's order, so that a link fixes the whole run and its view
// even if the defaults change later.
func (e Experiment) Encode() string {
	return e.encode(true)
}

// EncodeRun is Encode without the view: what the engine is sent, so that
// a change of view never looks like a new run to it.
func (e Experiment) EncodeRun() string {
	return e.encode(false)
}

// EncodeShort writes the lab and only the fields that differ from the
// state the lab opens with (ForLab): the same state today in far fewer
// characters, as a QR code on a projector wants (a code of fewer modules
// scans from further away), but read against today's defaults.
func (e Experiment) EncodeShort() string {
	start := ForLab(e.View.Lab)
	if e.View.Tour != NoTour {
		// A link naming a step starts from the step's state (DecodeInto).
		start, _ = Decode("lab=" + url.QueryEscape(e.View.Lab) + "&tour=" + url.QueryEscape(e.View.Tour) + "&step=" + strconv.Itoa(e.View.Step))
	}
	keep := map[string]bool{"lab": true}
	if e.View.Tour != NoTour {
		keep["tour"], keep["step"] = true, true
	}
	for _, p := range Params {
		if p.Get(&e) != p.Get(&start) {
			keep[p.Name] = true
		}
	}
	// A row left out at its start may still open otherwise: the graph's
	// recipe gives a row the link leaves out its own value (data=cora's
	// dropout 0.9), so the rows the short link would open to another value
	// are written too, until it opens to e.
	for range Params {
		short := e.encodeIf(func(p Param) bool { return keep[p.Name] })
		d, _ := Decode(short)
		differ := false
		for _, p := range Params {
			if p.Get(&d) != p.Get(&e) && !keep[p.Name] {
				keep[p.Name], differ = true, true
			}
		}
		if !differ {
			return short
		}
	}
	return e.Encode()
}

func (e Experiment) encode(view bool) string {
	return e.encodeIf(func(p Param) bool { return view || p.Group != GroupView })
}

// encodeIf writes the fields of the rows keep keeps.
func (e Experiment) encodeIf(keep func(Param) bool) string {
	codings.Add(1)
	var b strings.Builder
	for _, p := range Params {
		if !keep(p) {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('&')
		}
		b.WriteString(p.Name)
		b.WriteByte('=')
		b.WriteString(escapeValue(p.Get(&e)))
	}
	return b.String()
}

// escapeValue escapes a value for a link that Decode reads back: a space
// becomes %20, never the '+' of a query string, which a link keeps as a
// plus sign (a column named "page type" reads back as itself).
func escapeValue(v string) string {
	return strings.ReplaceAll(url.QueryEscape(v), "+", "%20")
}

// Decode reads a query written by Encode, as found in a permalink. It never
// fails as a whole: a missing field keeps its default, and a field that is
// unknown, malformed, out of range or repeated keeps its default (or its
// first value) and is reported in the returned error, one line per field,
// at most MaxReported lines.
//
// Values are unescaped as a path is, so a '+' typed into a link, as in
// lr=1e+2, stays a plus sign; Encode never writes a space.
func Decode(query string) (Experiment, error) {
	var probs Problems
	e := DecodeInto(query, &probs)
	return e, probs.Err()
}

// DecodeInto is Decode that adds its problems to probs, for a caller that
// reads more than the experiment from the same link.
func DecodeInto(query string, probs *Problems) Experiment {
	e, _ := decodeInto(query, probs, ReaderOf)
	return e
}

// DecodeLink is Decode that also returns the link's pairs that name what
// this version of the explorer lacks, as the link gave them: a row it
// does not know, or a choice its row does not offer (a lab, a model, a
// graph). A later version may read them, so the page keeps them in its
// address (EncodeKeeping) for the version that can, rather than
// replacing them with its defaults. A value this version knows to be
// wrong (out of its row's range, results of other runs, a row its lab
// does not read) is not among them: the address drops it, as said, and
// it blocks nothing.
func DecodeLink(query string) (Experiment, []string, error) {
	var probs Problems
	e, lacked := decodeInto(query, &probs, ReaderOf)
	var unread []string
	for _, kv := range strings.Split(strings.TrimLeft(query, "#?"), "&") {
		if k := linkKey(kv); kv != "" && lacked[k] {
			unread = append(unread, kv)
		}
	}
	return e, unread, probs.Err()
}

// lacksChoice reports whether v names a choice row p does not offer (of a
// list, any of its items): a value of a version that has more.
func (p Param) lacksChoice(v string) bool {
	if len(p.Choices) == 0 {
		return false
	}
	for _, item := range strings.Split(v, ",") {
		if item != "" && !slices.Contains(p.Choices, item) {
			return true
		}
	}
	return false
}

// linkKey is the row a link's pair k=v names: its name in the table
// where k is one of its names, else k as the link gave it.
func linkKey(kv string) string {
	k, _, _ := strings.Cut(kv, "=")
	if u, err := url.PathUnescape(k); err == nil {
		k = u
	}
	if p, ok := LinkRow(k); ok {
		return p.Name
	}
	return k
}

// EncodeKeeping is Encode with the pairs unread (DecodeLink's) kept as
// the link gave them, in place of the rows they name: the address of a
// state that also holds what this version could not read.
func (e Experiment) EncodeKeeping(unread []string) string {
	return KeepUnread(e.Encode(), unread)
}

// KeepUnread is link (an encoding of a state: Encode, EncodeShort) with
// the pairs unread in place of the rows they name: every link the page
// gives out of a state (its address, Share's link, QR code and embed)
// carries what this version could not read.
func KeepUnread(link string, unread []string) string {
	if len(unread) == 0 {
		return link
	}
	named := map[string]bool{}
	for _, kv := range unread {
		named[linkKey(kv)] = true
	}
	var out []string
	for _, kv := range strings.Split(link, "&") {
		if kv != "" && !named[linkKey(kv)] {
			out = append(out, kv)
		}
	}
	return strings.Join(append(out, unread...), "&")
}

// DecodeRun is Decode of a run's state as the engine is sent it
// (EncodeEngine): a row given that the run (its model on its graph) does
// not read is refused as a link's row its lab does not read, and keeps
// the table's default (or its graph's recipe's). The worker reads every
// state the page sends it so.
func DecodeRun(state string) (Experiment, error) {
	var probs Problems
	e, _ := decodeInto(state, &probs, func(Experiment) Reader { return EngineReader() })
	return e, probs.Err()
}

// decodeInto is DecodeInto, whose rows reader reads; it also returns the
// rows the link gave whose name or choice this version lacks (DecodeLink),
// but for those given twice.
func decodeInto(query string, probs *Problems, reader func(Experiment) Reader) (Experiment, map[string]bool) {
	codings.Add(1)
	e := Default()
	pairs := strings.Split(strings.TrimLeft(query, "#?"), "&")
	step := stepPairs(pairs)
	// The lab's defaults, then the tour step's rows, are the start the
	// link's own rows change: a short link to a step opens the step's
	// state, as Next and Back do, in the step's lab (linkStep.lab). Rows
	// either sets are the lab's or the step's choice, so the graph's
	// recipe leaves them alone.
	fixed := applyLabDefaults(&e, append(slices.Clone(step.pairs), pairs...))
	for _, kv := range step.pairs {
		k, v, _ := strings.Cut(kv, "=")
		if p, ok := Lookup(k); ok && p.Set(&e, v) == nil {
			fixed[k] = true
		}
	}
	start := e // before the link's own rows: what a row the link does not get keeps
	var n notes
	seen := map[string]bool{}    // rows the link gives whose value the state holds
	named := map[string]bool{}   // rows the link names, taken or not
	twice := map[string]bool{}   // rows the link names more than once
	refused := map[string]bool{} // rows the link gave that it does not get
	lacked := map[string]bool{}  // rows whose name or choice this version lacks
	for _, kv := range pairs {
		if kv == "" {
			continue
		}
		k, v, _ := strings.Cut(kv, "=")
		k, kerr := url.PathUnescape(k)
		v, verr := url.PathUnescape(v)
		p, ok := LinkRow(k)
		if ok {
			k = p.Name
		}
		switch {
		case kerr != nil || verr != nil:
			n.now(phrase.Errorf("%s is not a valid link parameter (a %% must start an escape like %%2C)", Quote(kv)))
		case !ok:
			n.now(phrase.Errorf("%s: unknown parameter, not used by this version", Quote(k)))
			refused[k], lacked[k] = true, true
		case named[k]:
			n.twice(p, &e, seen[k])
			refused[k], twice[k] = true, true
		default:
			named[k] = true
			if err := step.lab(k, v); err != nil {
				n.keeps(p, &e, err)
				refused[k] = true
				continue
			}
			if stepBeyond(&e, k, v) {
				seen[k] = true
				continue // stepWithinTour makes it the last
			}
			if err := p.Set(&e, v); err != nil {
				n.keeps(p, &e, err)
				refused[k] = true
				lacked[k] = p.lacksChoice(v)
				continue
			}
			seen[k] = true
		}
	}
	given := maps.Clone(seen)
	hideOffered(&e, reader(e), &n)
	refuseHidden(&e, start, seen, &n)
	refuseUnread(&e, start, reader(e), seen, fixed, &n)
	// The recipe of the graph the state ends with, once every row the
	// link does not get is back at its start: a refused data=cora changes
	// no dropout.
	e.ApplyRecipe(func(name string) bool { return seen[name] || fixed[name] })
	refuseConflicts(&e, start, seen, &n)
	for k := range given {
		if !seen[k] {
			refused[k] = true // hidden, not read, or in conflict
		}
	}
	keepResultsOfTheirRuns(&e, refused, twice, seen, &n)
	stepWithinTour(&e, &n)
	for _, say := range n {
		probs.Add(say())
	}
	for k := range twice {
		delete(lacked, k)
	}
	return e, lacked
}

// notes are what decoding a link says, in the order it finds it. A note
// that names the value a row keeps is put in words once the state is
// whole, so that it names the value in force: the lab's start, after its
// defaults and the tour step, with the recipe of the graph the state ends
// with, never the table's default or a value the row had on the way.
type notes []func() error

// now says err.
func (n *notes) now(err error) { *n = append(*n, func() error { return err }) }

// keeps says err of row p, and the value p keeps in e once decoded.
func (n *notes) keeps(p Param, e *Experiment, err error) {
	*n = append(*n, func() error { return phrase.Errorf("%w; it keeps %s", err, kept(p, e)) })
}

// twice says that the link gives row p again: the first value stands,
// if the state took it (first), else the value p keeps.
func (n *notes) twice(p Param, e *Experiment, first bool) {
	if first {
		n.now(phrase.Errorf("%s: given more than once; using the first, %s", p.Name, kept(p, e)))
		return
	}
	n.keeps(p, e, phrase.Errorf("%s: given more than once", p.Name))
}

// kept is the value of row p in e as a message says it: "none" for an
// empty one (results, hide, edits), where the message would end in
// "it keeps " and a blank.
func kept(p Param, e *Experiment) any {
	if v := p.Get(e); v != "" {
		return v
	}
	return phrase.New("none")
}

// keepResultsOfTheirRuns drops the link's results when a row they were
// trained with did not come through (refused, unknown, hidden, not read,
// in conflict: the state holds another value than the link's), or came
// twice (the first value was taken, and the results may be of the
// other): the results stand for the runs of the link's state, which this
// state would give to other runs (a sweep's results over gcn alone spread
// over pdn and gcn). A refused row that no lab's runs depend on (the
// language, the pace) leaves them.
func keepResultsOfTheirRuns(e *Experiment, refused, twice, taken map[string]bool, n *notes) {
	if e.View.Results == "" || refused["results"] {
		return
	}
	var lost, again []string
	for k := range refused {
		p, ok := Lookup(k)
		switch {
		case ok && !resultsDependOn(p):
		case twice[k] && taken[k]:
			again = append(again, k)
		default:
			lost = append(lost, k)
		}
	}
	slices.Sort(lost)
	slices.Sort(again)
	switch {
	case len(lost) > 0:
		n.now(phrase.Errorf("results: left out: they were trained with the link's %s, which this page did not take, so here they would stand for other runs", strings.Join(lost, ", ")))
	case len(again) > 0:
		n.now(phrase.Errorf("results: left out: the link gives %s more than once, and this page took the first value of each; the results may be of runs with another, so here they could stand for other runs", strings.Join(again, ", ")))
	default:
		return
	}
	e.View.Results = ""
}

// resultsDependOn reports whether some lab's runs trained to their end
// (Lab.Trains) change with row p: every engine row, and the view rows
// that say which runs (the sweep's models, scenario and reps), found by
// setting each to another value, not listed by hand.
func resultsDependOn(p Param) bool {
	if p.Group != GroupView {
		return true
	}
	dependOnce.Do(func() {
		dependOn = map[string]bool{}
		for _, q := range Params {
			if q.Group == GroupView {
				dependOn[q.Name] = changesTrainedRuns(q)
			}
		}
	})
	return dependOn[p.Name]
}

var (
	dependOnce sync.Once
	dependOn   map[string]bool
)

// changesTrainedRuns reports whether setting view row p to another value
// (another choice, its bounds) changes the runs a lab trains to their end.
func changesTrainedRuns(p Param) bool {
	for _, l := range Labs {
		if l.Trains == nil || p.Name == "results" || p.Name == "lab" {
			continue
		}
		e := ForLab(l.Name)
		before := encodeRuns(l.Trains(e))
		tries := slices.Clone(p.Choices)
		if p.MaxLen > 0 && len(p.Choices) > 1 {
			tries = []string{p.Choices[len(p.Choices)-2] + "," + p.Choices[len(p.Choices)-1]}
		}
		tries = append(tries, num(p.Min), num(p.Max))
		for _, v := range tries {
			x := e
			if p.Set(&x, v) == nil && encodeRuns(l.Trains(x)) != before {
				return true
			}
		}
	}
	return false
}

func encodeRuns(runs []Run) string {
	var b strings.Builder
	for _, r := range runs {
		b.WriteString(r.Exp.EncodeRun())
		b.WriteByte('\n')
	}
	return b.String()
}

// refuseUnread keeps at its start every row the link gives (a key present
// with a value other than the start's) that the lab does not read
// (Reader.Unread), and says why: the cheb model's hops, a rate without a
// perturbation, the compare lab's model. A row at its start is no one's
// concern, since Encode writes every row. The start of a row the lab's
// defaults leave open is the recipe's of the link's graph, as the link
// would have it without the key.
func refuseUnread(e *Experiment, start Experiment, r Reader, seen, fixed map[string]bool, n *notes) {
	base := start
	base.ApplyRecipeOf(e.Data.Recipe(), func(name string) bool { return fixed[name] })
	var refused []Refusal
	*e, refused = resetUnread(*e, base, r, func(name string) bool { return seen[name] })
	for _, u := range refused {
		p, _ := Lookup(u.Row)
		n.keeps(p, e, phrase.Errorf("%s: %s", u.Row, u.Why))
		seen[u.Row] = false
	}
}

// refuseConflicts keeps at its start a row the link gives whose value
// conflicts with another's (Experiment.Conflicts: restart-epochs not below
// epochs), the row itself first, then the row it stays under, then the
// row it waits on, until no conflict is left, and says so naming both.
// A conflict among rows the link does not give is the start's own, which
// no lab's defaults or tour step hold (TestEveryStartIsWhole), and is said.
func refuseConflicts(e *Experiment, start Experiment, seen map[string]bool, n *notes) {
	for range Params {
		cs := e.Conflicts()
		if len(cs) == 0 {
			return
		}
		c := cs[0]
		i := slices.IndexFunc(c.Rows(), func(row string) bool { return seen[row] })
		if i < 0 {
			n.now(c.Err)
			return
		}
		p, _ := Lookup(c.Rows()[i])
		p.copyField(e, &start)
		seen[p.Name] = false
		n.keeps(p, e, phrase.Errorf("%s: %w", p.Name, c.Err))
	}
}

// hideOffered leaves out of the link's hide row every row its lab does
// not offer (Reader.Offers: a row it does not read, or one its runs set
// themselves), naming it: hide=attach in the XOR lab, which has no such
// control, would hide nothing without a word.
func hideOffered(e *Experiment, r Reader, n *notes) {
	if !r.Lab || e.View.Hide == "" {
		return
	}
	var keep []string
	for _, name := range strings.Split(e.View.Hide, ",") {
		p, _ := Lookup(name)
		if why, ok := r.Offers(p); !ok {
			n.now(phrase.Errorf("hide: %s: %s, so it has no control to hide; left out", name, why))
			continue
		}
		keep = append(keep, name)
	}
	e.View.Hide = strings.Join(keep, ",")
}

// stepBeyond takes a link's step beyond every tour's end as it stands,
// for stepWithinTour to make the tour's last and say so (the row's range
// would make it the first); it reports whether it did.
func stepBeyond(e *Experiment, key, value string) bool {
	p, _ := Lookup("step")
	k, err := numtext.ParseInt(strings.TrimSpace(value))
	if key != p.Name || err != nil || float64(k) <= p.Max {
		return false
	}
	e.View.Step = k
	return true
}

// refuseHidden keeps the rows the link hides (hide) at start, where the
// link also sets them, and says so: a class given the link cannot change
// what its teacher hid, by the link either.
func refuseHidden(e *Experiment, start Experiment, seen map[string]bool, n *notes) {
	for _, name := range strings.Split(e.View.Hide, ",") {
		p, ok := Lookup(name)
		if !ok || !seen[name] || p.Get(e) == p.Get(&start) {
			continue
		}
		*n = append(*n, func() error {
			return phrase.Errorf("%s: hidden by this link's hide row, so it keeps %s", name, kept(p, e))
		})
		p.copyField(e, &start)
		seen[name] = false
	}
}

// linkStep is the tour step a link names: the tour, the step's number
// and the rows of its state; no pairs for a link that names none.
type linkStep struct {
	tour  string
	k     int
	pairs []string
}

// stepPairs is the tour step a link names (tour=NAME and step=K, each the
// first of its kind).
func stepPairs(pairs []string) linkStep {
	var tour, step string
	for _, kv := range pairs {
		k, v, _ := strings.Cut(kv, "=")
		switch {
		case k == "tour" && tour == "":
			tour = v
		case k == "step" && step == "":
			step = v
		}
	}
	t, ok := TourNamed(tour)
	k, err := numtext.ParseInt(step)
	if !ok || err != nil || k < 1 {
		return linkStep{}
	}
	k = min(k, len(t.Steps))
	return linkStep{tour: t.Name, k: k, pairs: strings.Split(t.stepState(k), "&")}
}

// lab refuses a link's lab row (key) that names another lab than the
// step's: the step's panel, rows and claims are its lab's (step 2 of the
// paper's tour is the compare lab's card), so the link opens the step in
// its own lab, and says so.
func (s linkStep) lab(key, value string) error {
	if key != "lab" {
		return nil
	}
	for _, kv := range s.pairs {
		if k, v, _ := strings.Cut(kv, "="); k == "lab" && v != strings.TrimSpace(value) {
			return phrase.Errorf("lab: step %d of the %s tour is in the %s lab, so the link opens it there", s.k, s.tour, v)
		}
	}
	return nil
}

// renamed maps keys that links once used to the rows that hold them now:
// the data row was called graph before real graphs joined the generators.
var renamed = map[string]string{"graph": "data"}

// RenamedRows are the keys links once used, each with the row it names now.
func RenamedRows() map[string]string { return maps.Clone(renamed) }

// LinkRow is the row a link's key names, as every reader of a link's rows
// reads it (the page's link, pdn claims -with, a shard's state): by its
// name, or by the name links once gave it (renamed: graph= for data=).
func LinkRow(key string) (Param, bool) {
	if now, ok := renamed[key]; ok {
		key = now
	}
	return Lookup(key)
}

// stepWithinTour holds the step row to its tour's length, which the
// row's range (the longest tour's) cannot: a step beyond the end is
// reported and becomes the last, so the link says what the page shows.
func stepWithinTour(e *Experiment, notes *notes) {
	t, ok := TourNamed(e.View.Tour)
	if n := len(t.Steps); ok && e.View.Step > n {
		notes.now(phrase.Errorf("step: %d is beyond the %s tour's %d steps; using its last, %d", e.View.Step, t.Name, n, n))
		e.View.Step = n
	}
}

// applyLabDefaults gives e the defaults of the lab the first lab=NAME of
// pairs names, if it is one, and returns the rows it set; a bad lab is
// reported with the rest.
func applyLabDefaults(e *Experiment, pairs []string) map[string]bool {
	set := map[string]bool{}
	for _, kv := range pairs {
		if k, v, _ := strings.Cut(kv, "="); k == "lab" {
			l, _ := LabNamed(v)
			for _, d := range strings.Split(l.Defaults, "&") {
				if k, v, ok := strings.Cut(d, "="); ok {
					p, _ := Lookup(k)
					if err := p.Set(e, v); err != nil {
						panic("experiment: bad lab default " + d + ": " + err.Error())
					}
					set[k] = true
				}
			}
			return set
		}
	}
	return set
}

// codings counts the states written and read (encodeIf, decodeInto).
var codings atomic.Uint64

// Codings is how many states have been written or read as text since the
// program started. Each costs a pass over every row of the table: the
// page's tests hold its renders to none (a render draws a state worked
// out when the state changed).
func Codings() uint64 { return codings.Load() }

// ForLab returns the state a lab opens with: the table's defaults, then
// the lab's own.
func ForLab(lab string) Experiment {
	e, _ := Decode("lab=" + url.QueryEscape(lab))
	return e
}

// fieldFlag adapts one row of the table to flag.Value.
type fieldFlag struct {
	p Param
	e *Experiment
}

func (f fieldFlag) String() string {
	if f.e == nil {
		return f.p.Default
	}
	return f.p.Get(f.e)
}

// Row names the row the flag sets: a command asks which of its flags are
// rows (RowFlag), and which of those its reader reads.
func (f fieldFlag) Row() string { return f.p.Name }

// RowFlag reports the row a flag of RegisterFlags sets (or a flag that
// wraps one and says its Row), and whether it is one.
func RowFlag(f *flag.Flag) (string, bool) {
	r, ok := f.Value.(interface{ Row() string })
	if !ok {
		return "", false
	}
	return r.Row(), true
}

func (f fieldFlag) Set(s string) error {
	if err := f.p.Set(f.e, s); err == nil {
		return nil
	}
	// The flag package already names the flag and the value.
	t := strings.TrimSpace(s)
	if !utf8.ValidString(t) {
		return phrase.Errorf("the text is not UTF-8; want %s", f.p.Want())
	}
	if f.p.valid != nil {
		// A free-text row says what in the text is wrong (which edit).
		if why := f.p.valid(t); why != nil {
			return phrase.Errorf("%w; want %s", why, f.p.RangeText())
		}
	}
	return phrase.Errorf("want %s", f.p.Want())
}

// RegisterFlags binds the rows of the given groups (all rows the engine
// reads when none are given; the view's are no flags) to flags of fs that
// write into e.
func RegisterFlags(fs *flag.FlagSet, e *Experiment, groups ...string) {
	for _, p := range Params {
		if len(groups) > 0 && !contains(groups, p.Group) || len(groups) == 0 && p.Group == GroupView {
			continue
		}
		registerParam(fs, e, p)
	}
}

// RegisterNamed binds the named rows of the table to flags of fs.
func RegisterNamed(fs *flag.FlagSet, e *Experiment, names ...string) {
	for _, n := range names {
		p, ok := Lookup(n)
		if !ok {
			panic("experiment: no parameter " + n)
		}
		registerParam(fs, e, p)
	}
}

func registerParam(fs *flag.FlagSet, e *Experiment, p Param) {
	usage := p.Usage
	if p.Symbol != "" {
		usage = p.Symbol + ": " + usage
	}
	fs.Var(fieldFlag{p, e}, p.Name, usage+" ("+p.Range()+")")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
