// Command pdn generates the paper's synthetic graphs, trains PDN and its
// baselines on them (or on a graph bundle) and runs the paper's experiments
// from the command line.
//
//	pdn gen     -out DIR [synthetic flags]
//	pdn train   [-data DIR | synthetic flags] [-model pdn] [-epochs 200] [-json] …
//	pdn sweep   -scenario K -out DIR [-reps 10] [-models pdn,gcn,…]
//	pdn xor     [-json]
//	pdn runtime [-json]
//	pdn degree  -out DIR [-json]
//	pdn table4  -out DIR [-datasets cora,citeseer,DIR…] [-reps 10] [-models …] [-pyg PYTHON]
//	pdn attention -out DIR [-datasets cora,citeseer,DIR…] [-reps 10]
//	pdn tsne    -out DIR [-json] [state rows…]
//
// Bad flags or bad data print one line naming the flag, or the file, line
// and column, and the allowed range, and exit with status 2; a run that
// cannot finish (it diverged, the disk is full) exits with status 1.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"unicode/utf8"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/pdn"
)

// usageError is a mistake of the caller: exit status 2. It says itself as
// the error it wraps does (TestErrorWrappersSayThemselves).
type usageError struct{ error }

func (e usageError) Phrase() phrase.Text { return phrase.Of(e.error) }

// runner is a parsed command, ready to do its work.
type runner func(stdout, stderr io.Writer) error

// command is one subcommand: its name, one line of help, and parse, which
// reads its flags and returns the work to do. Parsing does no work and
// touches no file, so it can be fuzzed on its own.
type command struct {
	name, summary string
	parse         func(args []string, stderr io.Writer) (runner, error)
}

// commands is the one table of subcommands: dispatch, help and the
// message for an unknown command all read it.
var commands = []command{
	{"gen", "write a graph bundle: a generated graph, or a shipped one with its split", parseGen},
	{"train", "train a model and report its accuracy", parseTrain},
	{"sweep", "run one of the paper's synthetic scenarios (Figure 3)", parseSweep},
	{"xor", "the XOR proposition (§4.1.1): which pathfinders learn it", parseXOR},
	{"runtime", "PDN's epoch time over GCN's (Appendix E, Figure 6)", parseRuntime},
	{"degree", "learned edge weight against degree, GAT and PDN (§4.2)", parseDegree},
	{"table4", "PDN and the baselines on real graphs, seeded 100-shot splits (Table 4)", parseTable4},
	{"merge", "join the shards of sweeps and table4 runs made with -shard i/n into the files one machine writes", parseMerge},
	{"claims", "check every finding the explorer states over its seeds, as the page shows it beside each run", parseClaims},
	{"structure", "what a learned graph is worth: its homophily over the epochs, accuracy under perturbation, and PDN's graph given to GCN, SGC and APPNP", parseStructure},
	{"attention", "the linear PDN's attention over the tie-strength scores (Figure 8) and the multi-scale PDN's hop weights (Figure 7)", parseAttention},
	{"tsne", "PDN's and GAT's hidden edge representations embedded by t-SNE, and how well the kinds of edge separate (Figure 4)", parseTsne},
	{"multiplex", "PDN over a generated multiplex graph's layers against GCN over their union and over each layer alone, and the weight it gives each layer (§5.2)", parseMultiplex},
}

func main() {
	err := run(os.Args[1:], os.Stdout, os.Stderr)
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "pdn:", oneLine(err))
	}
	os.Exit(exitCode(err))
}

// exitCode is 0 for success or help, 2 for the caller's mistakes (bad
// flags, bad data, a run too large for this machine), 1 for anything else
// (a run that diverged, a full disk).
func exitCode(err error) int {
	var (
		ue usageError
		be *datasets.BundleError
		ce *pdn.CostError
		ge *pdn.GraphError
		ie *pdn.InputError
		de *pdn.DivergedError
		co *datasets.ColumnsError
		nc *datasets.NoColumnsError
	)
	switch {
	case err == nil || errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ue), errors.As(err, &be), errors.As(err, &ce), errors.As(err, &ge), errors.As(err, &ie), errors.As(err, &co), errors.As(err, &nc):
		return 2
	case errors.As(err, &de) && de.Scale.MaxX > 1e6 || errors.As(err, &de) && de.Scale.MaxEdge > 1e6:
		return 2 // the data, not the run, are at fault
	}
	return 1
}

// labRuns are the runs the explorer's lab called lab makes of e: the
// CLI's lessons train the very models the page's labs show.
func labRuns(lab string, e experiment.Experiment) []experiment.Run {
	l, ok := experiment.LabNamed(lab)
	if !ok {
		panic("pdn: no lab " + lab)
	}
	return l.Runs(e)
}

// labRun is the run called name of the lab called lab.
func labRun(lab, name string, e experiment.Experiment) experiment.Run {
	for _, r := range labRuns(lab, e) {
		if r.Name == name {
			return r
		}
	}
	panic("pdn: the " + lab + " lab has no run " + name)
}

// oneLine joins the lines of err (errors.Join gives one per bad field).
func oneLine(err error) string {
	return strings.ReplaceAll(err.Error(), "\n", "; ")
}

func usage() string {
	var b strings.Builder
	b.WriteString("usage: pdn <command> [flags]\n\ncommands:\n")
	for _, c := range commands {
		fmt.Fprintf(&b, "  %-10s%s\n", c.name, c.summary)
	}
	b.WriteString("\nRun 'pdn <command> -h' for the flags of a command.")
	return b.String()
}

func commandNames() string {
	names := make([]string, len(commands))
	for i, c := range commands {
		names[i] = c.name
	}
	return strings.Join(names, ", ")
}

// lookup returns the command named name.
func lookup(name string) (command, bool) {
	for _, c := range commands {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

func run(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprintln(stderr, usage())
		return usageError{errors.New("no command given; want one of " + commandNames())}
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		fmt.Fprintln(stdout, usage())
		return nil
	}
	c, ok := lookup(args[0])
	if !ok {
		return usageError{fmt.Errorf("unknown command %s; want one of %s", quoteArg(args[0]), commandNames())}
	}
	if err := pdn.CheckVectors(); err != nil {
		return usageError{err}
	}
	if note := pdn.BuildNote(); note != "" {
		fmt.Fprintln(stderr, "note: "+note)
	}
	work, err := c.parse(args[1:], stderr)
	if err != nil {
		return err
	}
	return work(stdout, stderr)
}

// parse parses args with fs, turning every failure into a one-line usage
// error; -h prints the flags to stderr.
func parse(fs *flag.FlagSet, args []string, stderr io.Writer) error {
	if err := parseWithArgs(fs, args, stderr); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("unexpected argument %s", quoteArg(fs.Arg(0)))}
	}
	return nil
}

// parseWithArgs is parse for a command that takes arguments after its
// flags. A flag given twice is refused, naming it: the flag package would
// keep the last without a word (-epochs 5 -epochs 10 trains 10).
func parseWithArgs(fs *flag.FlagSet, args []string, stderr io.Writer) error {
	fs.SetOutput(io.Discard)
	if parsing != nil {
		parsing(fs)
	}
	restore := onceEach(fs)
	err := fs.Parse(args)
	twice := restore()
	if twice != "" {
		return usageError{fmt.Errorf("flag -%s: given twice; give it once", twice)}
	}
	if errors.Is(err, flag.ErrHelp) {
		printHelp(fs, stderr)
		return err
	}
	if err != nil {
		// The flag package repeats the argument whole; a pasted megabyte
		// must still give a message that fits on a line.
		return usageError{errors.New(shortenValue(strings.ReplaceAll(err.Error(), "\n", " ")))}
	}
	return checkFolders(fs)
}

// helpReaders are the readers of the commands whose lab or runs set some
// rows themselves, by command: their help lists those rows apart, as not
// read (given, each is refused by name: unreadFlags).
var helpReaders = map[string]func() experiment.Reader{
	"xor":       xorReader,
	"sweep":     func() experiment.Reader { return commandReader("sweep", "sweep") },
	"degree":    func() experiment.Reader { return commandReader("degree", "degree") },
	"attention": attentionReader,
	"tsne":      tsneReader,
	"multiplex": multiplexReader,
	"structure": func() experiment.Reader { return commandReader("structure", "structure") },
	"table4":    func() experiment.Reader { return table4Reader(nil, nil) },
}

// printHelp prints fs's flags, as flag's PrintDefaults does, but the rows
// the command never reads (experiment.Reader.Offers), which follow in a
// list of their own, each with why.
func printHelp(fs *flag.FlagSet, w io.Writer) {
	var r *experiment.Reader
	if mk, ok := helpReaders[fs.Name()]; ok {
		reader := mk()
		r = &reader
	}
	shown := flag.NewFlagSet(fs.Name(), flag.ContinueOnError)
	var unread []string
	fs.VisitAll(func(f *flag.Flag) {
		if row, ok := experiment.RowFlag(f); ok && r != nil {
			p, _ := experiment.Lookup(row)
			if why, offered := r.Offers(p); !offered {
				unread = append(unread, fmt.Sprintf("  -%s: %s", f.Name, why))
				return
			}
		}
		shown.Var(f.Value, f.Name, f.Usage)
		shown.Lookup(f.Name).DefValue = f.DefValue
	})
	shown.SetOutput(w)
	shown.PrintDefaults()
	if len(unread) > 0 {
		fmt.Fprintf(w, "Not read by %s (given, each is refused):\n%s\n", r.Name, strings.Join(unread, "\n"))
	}
}

// parsing, when a test sets it, is shown each command's flags as they are
// parsed: the tests that give every command each of its flags read them.
var parsing func(fs *flag.FlagSet)

// onceEach makes every flag of fs refuse a second value while fs parses;
// restore puts the flags back as they were and names the first flag given
// twice, "" for none.
func onceEach(fs *flag.FlagSet) (restore func() (twice string)) {
	var first string
	given := map[string]bool{}
	var undo []func()
	fs.VisitAll(func(f *flag.Flag) {
		v := f.Value
		set := func(s string) error {
			if given[f.Name] {
				if first == "" {
					first = f.Name
				}
				return errTwice
			}
			given[f.Name] = true
			return v.Set(s)
		}
		if b, ok := v.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			f.Value = onceBool{onceValue{v, set}}
		} else {
			f.Value = onceValue{v, set}
		}
		undo = append(undo, func() { f.Value = v })
	})
	return func() string {
		for _, u := range undo {
			u()
		}
		return first
	}
}

// errTwice stops the flag package at a flag given a second time.
var errTwice = errors.New("given twice")

// onceValue is a flag's value that refuses a second Set (onceEach).
type onceValue struct {
	flag.Value
	set func(string) error
}

func (o onceValue) Set(s string) error { return o.set(s) }

// onceBool is onceValue for a flag that takes no value (-json).
type onceBool struct{ onceValue }

func (onceBool) IsBoolFlag() bool { return true }

// rowFlagSet reports whether the flag of fs named name is a row of the
// state table (experiment.RowFlag) given on the command line.
func rowFlagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) {
		if row, ok := experiment.RowFlag(f); ok && row == name {
			set = true
		}
	})
	return set
}

// unreadFlags refuses the row flags given that the command, its reader r,
// does not read in state e: experiment.Reader's rule, from the model,
// state and lab tables, the same a link and the worker follow. Each is
// named, with why and what reads it: a usage error. Then the rows in
// conflict (conflictFlags).
func unreadFlags(fs *flag.FlagSet, e experiment.Experiment, r experiment.Reader) error {
	var errs []error
	for _, u := range r.Unread(e, func(name string) bool { return rowFlagSet(fs, name) }) {
		errs = append(errs, fmt.Errorf("flag -%s: %s", u.Row, u.Why))
	}
	if len(errs) > 0 {
		return usageError{errors.Join(errs...)}
	}
	return conflictFlags(fs, e)
}

// conflictFlags refuses the rows of e that conflict (experiment.Conflicts:
// -restart-epochs at or above -epochs while there are restarts), naming
// the flag given of the rows that would settle it, and the conflict names
// both rows, as a link's and a control's refusal do.
func conflictFlags(fs *flag.FlagSet, e experiment.Experiment) error {
	var errs []error
	for _, c := range e.Conflicts() {
		name := c.Row
		for _, row := range c.Rows() {
			if flagSet(fs, row) {
				name = row
				break
			}
		}
		errs = append(errs, fmt.Errorf("flag -%s: %w", name, c.Err))
	}
	if len(errs) > 0 {
		return usageError{errors.Join(errs...)}
	}
	return nil
}

// commandReader is the reader of a command that trains one run of e (a
// model on a graph: train, gen), or of a lab's runs (lab != ""), named
// as the command; dir, a folder of one's own graph, makes e's graph local.
func commandReader(command, lab string) experiment.Reader {
	r := experiment.RunReader(phrase.New("pdn %s", command))
	if lab != "" {
		l, _ := experiment.LabNamed(lab)
		r = asCommand(l.Reader())
		r.Name = phrase.New("pdn %s", command)
	}
	return r
}

// asCommand is a lab's reader as a command reads a state: it opens no
// files later, so it reads a file's columns (target, id-column, bins)
// only where its runs' graph is files of one's own, as pdn train does,
// where the page's lab keeps them for the next files it opens.
func asCommand(r experiment.Reader) experiment.Reader {
	r.OpensFiles = false
	return r
}

// withDir is e with its graph local where a folder of one's own is given.
func withDir(e experiment.Experiment, dir string) experiment.Experiment {
	if dir != "" {
		e.Data.Graph = experiment.GraphLocal
	}
	return e
}

// shortenValue shortens the flag package's "invalid value "V" for flag
// -N: reason" by its value, keeping the reason whole: a pasted value of
// 101 edits must not hide "101 edits; at most 100".
func shortenValue(msg string) string {
	const head = `invalid value "`
	rest, ok := strings.CutPrefix(msg, head)
	i := strings.Index(rest, `" for flag -`)
	if !ok || i < 0 || i <= 80 {
		return shorten(msg)
	}
	cut := 80
	for cut > 0 && !utf8.RuneStart(rest[cut]) {
		cut--
	}
	value := strings.ToValidUTF8(rest[:cut], "\uFFFD") + fmt.Sprintf("… (%d bytes)", i)
	return head + value + shorten(rest[i:])
}

// shorten makes a message valid UTF-8 and cuts it to about 300 bytes,
// saying how long it was.
func shorten(msg string) string {
	msg = strings.ToValidUTF8(msg, "\uFFFD")
	if len(msg) <= 300 {
		return msg
	}
	cut := 300
	for cut > 0 && !utf8.RuneStart(msg[cut]) {
		cut--
	}
	return msg[:cut] + fmt.Sprintf("… (%d bytes)", len(msg))
}

// maxWorkers is the most runs a command trains at once (-workers).
const maxWorkers = 64

// defaultWorkers is -workers' default: a run a core, within its range.
func defaultWorkers() int { return min(runtime.NumCPU(), maxWorkers) }

// printJSON writes v as one JSON line, the last of a command's -json output.
func printJSON(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(w, string(b))
	return err
}
