package main

import (
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
)

// commandFlags are the flags command name registers, as its parse meets
// them, and whether its parse of args succeeded.
func commandFlags(t *testing.T, name string, args ...string) ([]*flag.Flag, error) {
	t.Helper()
	c, ok := lookup(name)
	if !ok {
		t.Fatalf("no command %s", name)
	}
	var flags []*flag.Flag
	parsing = func(fs *flag.FlagSet) { fs.VisitAll(func(f *flag.Flag) { flags = append(flags, f) }) }
	defer func() { parsing = nil }()
	_, err := c.parse(args, io.Discard)
	return flags, err
}

// commandRows is, for each command, the arguments it needs besides the
// flag a test gives, and the reader and state its rows are read by: the
// lab it runs, or its runs (experiment.Reader). A command without a row
// here fails TestEveryCommandRefusesTheRowsItDoesNotRead.
func commandRows(t *testing.T) map[string]struct {
	args  []string
	state func() (experiment.Reader, experiment.Experiment)
} {
	dir := t.TempDir()
	out := func(name string) []string { return []string{"-out", filepath.Join(dir, name)} }
	lab := func(name string, e experiment.Experiment) func() (experiment.Reader, experiment.Experiment) {
		return func() (experiment.Reader, experiment.Experiment) { return commandReader(name, e.View.Lab), e }
	}
	one := func(name string) func() (experiment.Reader, experiment.Experiment) {
		return func() (experiment.Reader, experiment.Experiment) {
			return commandReader(name, ""), experiment.Default()
		}
	}
	xor := experiment.Default()
	xor.Data.Graph, xor.View.Lab = experiment.GraphXOR, "xor"
	sweep := experiment.Default()
	sweep.View.Lab, sweep.View.Models, sweep.View.Scenario, sweep.View.Reps = "sweep", experiment.PaperModels, 1, 1
	attention := experiment.ForLab("attention")
	tsne := experiment.Default()
	tsne.View.Lab = "degree"
	return map[string]struct {
		args  []string
		state func() (experiment.Reader, experiment.Experiment)
	}{
		"gen":     {out("gen"), one("gen")},
		"train":   {nil, one("train")},
		"sweep":   {append(out("sweep"), "-scenario", "1"), lab("sweep", sweep)},
		"xor":     {nil, func() (experiment.Reader, experiment.Experiment) { return xorReader(), xor }},
		"runtime": {nil, nil},
		"degree":  {out("degree"), lab("degree", experiment.ForLab("degree"))},
		"tsne":    {out("tsne"), lab("tsne", tsne)},
		"multiplex": {out("multiplex"), func() (experiment.Reader, experiment.Experiment) {
			return multiplexReader(), experiment.ForLab("multiplex")
		}},
		"merge":     {nil, nil},
		"claims":    {nil, nil}, // its rows come by -with: TestClaimsWithRefusesRowsItsClaimsDoNotRead
		"structure": {out("structure"), lab("structure", experiment.ForLab("structure"))},
		"attention": {out("attention"), func() (experiment.Reader, experiment.Experiment) { return attentionReader(), attention }},
		"table4": {out("table4"), func() (experiment.Reader, experiment.Experiment) {
			return table4Reader(datasets.Table4Models, []table4Graph{{name: "cora"}, {name: "citeseer"}}), experiment.Default()
		}},
	}
}

// rowValue is a value of row p other than the one e holds, which the
// command line takes (a graph by name, not local).
func rowValue(t *testing.T, p experiment.Param, e experiment.Experiment) string {
	t.Helper()
	tries := map[string][]string{"edge-hidden": {"32,16", "none"}, "layers": {"90,10"}, "layer": {"B"}, "pathfinder-rows": {"sigma-d=8"}, experiment.EditsRow: {"a0-1"}, "id-column": {"label"}, "target": {"label"}}[p.Name]
	for _, c := range p.Choices {
		if c != experiment.GraphLocal {
			tries = append(tries, c)
		}
	}
	tries = append(tries, strconv.FormatFloat(p.Max, 'f', -1, 64), strconv.FormatFloat(p.Min, 'f', -1, 64))
	for _, v := range tries {
		x := e
		if p.Set(&x, v) == nil && p.Get(&x) != p.Get(&e) {
			return v
		}
	}
	t.Fatalf("no other value for %s than %s", p.Name, p.Get(&e))
	return ""
}

// Every command, given each row flag it registers alone, refuses it
// exactly where its reader does not read it (the model, state and lab
// tables: experiment.Reader), naming the flag, and takes it otherwise:
// -hops for a model other than pdn-multiscale, -perturb without a rate,
// -init-seed where rep r has seed r, -model where a models row names them.
// unreadRowsOf is that test for command name (TestEveryClassOnEveryCommand's
// rows cells run it for every command).
func unreadRowsOf(t *testing.T, name string) {
	cr, ok := commandRows(t)[name]
	if !ok {
		t.Fatalf("command %s has no row in commandRows", name)
	}
	flags, err := commandFlags(t, name, append(slices.Clone(cr.args), "-h")...)
	if !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("%s -h: %v", name, err)
	}
	for _, f := range flags {
		row, isRow := experiment.RowFlag(f)
		if !isRow {
			continue
		}
		if cr.state == nil {
			t.Errorf("%s registers the row flag -%s but has no reader in commandRows", name, row)
			continue
		}
		r, e := cr.state()
		p, _ := experiment.Lookup(row)
		v := rowValue(t, p, e)
		if err := p.Set(&e, v); err != nil {
			t.Fatal(err)
		}
		why, reads := r.Reads(p, e)
		_, err := commandFlags(t, name, append(slices.Clone(cr.args), "-"+row, v)...)
		var ue usageError
		switch {
		case reads && err != nil:
			t.Errorf("pdn %s -%s %s: %v; the tables say it reads it", name, row, v, err)
		case !reads && (!errors.As(err, &ue) || !strings.Contains(err.Error(), "flag -"+row+": "+why.String())):
			t.Errorf("pdn %s -%s %s: %v; the tables say it does not read it: %s", name, row, v, err, why)
		}
	}
}

// flagsTwiceOf gives every flag of command name twice: each is refused,
// naming it, where the flag package would keep the second without a word
// (-epochs 5 -epochs 10). TestEveryClassOnEveryCommand's rows cells run it
// for every command.
func flagsTwiceOf(t *testing.T, name string) {
	flags, _ := commandFlags(t, name, "-h")
	if len(flags) == 0 {
		t.Errorf("%s: no flags seen", name)
	}
	for _, f := range flags {
		v := f.DefValue
		if f.Name == "shard" {
			v = "1/2" // its default is the whole job, which no value names
		}
		if row, isRow := experiment.RowFlag(f); isRow && v == "" {
			// a row whose help shows no default (-init-seed follows
			// -seed) is given the table's
			p, _ := experiment.Lookup(row)
			e := experiment.Default()
			v = p.Get(&e)
		}
		args := []string{"-" + f.Name, v, "-" + f.Name, v}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			args = []string{"-" + f.Name, "-" + f.Name}
		}
		_, stderr, code := runCLI(t, append([]string{name}, args...)...)
		if code != 2 || !strings.Contains(stderr, "flag -"+f.Name+": given twice; give it once") {
			t.Errorf("pdn %s %s: exit %d, %q", name, strings.Join(args, " "), code, stderr)
		}
	}
}

// Once each is no repeat: the flags as they were, for the command's help
// and its checks.
func TestAFlagGivenOnceIsNoRepeat(t *testing.T) {
	if _, stderr, code := runCLI(t, "train", "-epochs", "0", "-hidden", "8"); code != 2 || !strings.Contains(stderr, "flag -epochs") || strings.Contains(stderr, "twice") {
		t.Errorf("one bad flag: exit %d, %q", code, stderr)
	}
}

// The audit of 2026-11-28's rows and flags that do not apply, or come
// twice, on the command line: each refused by name, saying why (exit 2).
func TestAuditRowsThatDoNotApply(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		id   int
		args []string
		want string
	}{
		{139, []string{"train", "-graph-from", "pdn", "-model", "pdn", "-epochs", "5"}, "flag -graph-from: model pdn does not read it (only gcn, appnp, sgc read it)"},
		{139, []string{"train", "-graph-from", "pdn", "-model", "gat", "-epochs", "5"}, "flag -graph-from: model gat does not read it"},
		{139, []string{"train", "-graph-from", "pdn", "-model", "mlp", "-epochs", "5"}, "flag -graph-from: model mlp does not read it"},
		{143, []string{"train", "-model", "cheb", "-hops", "5", "-epochs", "5"}, "flag -hops: model cheb does not read it (its K is fixed at 3; only pdn-multiscale reads it)"},
		{143, []string{"train", "-model", "cheb", "-edge-hidden", "32,16", "-epochs", "5"}, "flag -edge-hidden: model cheb does not read it (only pdn reads it)"},
		{109, []string{"claims", "-with", "model=mlp", "-only", "q-high", "-seeds", "1"}, "flag -with: model: claim q-high reads the compare lab's runs, and the compare lab sets it itself"},
		{134, []string{"train", "-perturb", "drop-edges", "-epochs", "2", "-json"}, "flag -perturb: read only when perturb-rate is above 0"},
		{135, []string{"train", "-perturb", "none", "-perturb-rate", "0.5", "-epochs", "2", "-json"}, "flag -perturb-rate: read only when perturb names a perturbation; perturb is none"},
		{107, []string{"claims", "-with", "dropout=0.9&dropout=0.1", "-only", "q-high", "-seeds", "1"}, "flag -with: dropout: given twice; give each row once"},
		{110, []string{"claims", "-test", "-seeds", "2", "-only", "q-high"}, "flags -seeds and -test: both choose the seeds"},
		{102, []string{"claims", "-only", ","}, `flag -only: an empty id in ","`},
		{104, []string{"claims", "-with", "dropout=2", "-only", "q-high", "-seeds", "1"}, "flag -with: dropout: 2 is not allowed; want [0, 0.95]"},
		{113, []string{"structure", "-out", filepath.Join(dir, "st"), "-models", "pdn,pdn"}, `flag -models: "pdn,pdn" is not allowed; want 2 to 4 of`},
		{113, []string{"structure", "-out", filepath.Join(dir, "st"), "-models", "pdn"}, `flag -models: "pdn" is not allowed`},
		{0, []string{"sweep", "-scenario", "1", "-out", filepath.Join(dir, "sw"), "-models", "pdn,gcn,pdn"}, "flag -models: pdn is named twice"},
		{0, []string{"train", "-epochs", "5", "-epochs", "10"}, "flag -epochs: given twice; give it once"},
		{0, []string{"train", "-model", "gcn", "-tie-strength"}, "flag -tie-strength: model gcn does not read the edges' features (only pdn, pdn-linear read them"},
		{0, []string{"gen", "-like", "facebook", "-per-class", "64", "-out", filepath.Join(dir, "fb")}, "flag -per-class: pdn gen -like sets it itself: it draws a graph with the counts of facebook"},
		{0, []string{"gen", "-like", "facebook", "-dense", "-out", filepath.Join(dir, "fb")}, "flag -dense: gen -like writes the files a published graph comes in"},
		{136, []string{"train", "-perturb", "drop-edges", "-perturb-rate", "1", "-epochs", "2"}, "the graph has no edges: perturb drop-edges at perturb-rate 1 dropped them all, and model pdn passes messages along edges: lower perturb-rate, or use model mlp"},
	} {
		_, stderr, code := runCLI(t, c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("audit %d: pdn %s: exit %d, %q; want 2 and %q", c.id, strings.Join(c.args, " "), code, stderr, c.want)
		}
		if c.id == 104 && strings.Count(stderr, "dropout") != 1 {
			t.Errorf("audit 104: the row is named more than once: %q", stderr)
		}
	}
}

// -with sets a row in every claim's state only where each claim's lab
// reads it: a row the claim's runs do not read would change nothing there.
func TestClaimsWithRefusesRowsItsClaimsDoNotRead(t *testing.T) {
	for _, c := range []struct {
		args []string
		ok   bool
	}{
		{[]string{"-with", "hops=3", "-only", "q-high"}, false},
		{[]string{"-with", "hops=3", "-only", "fig7-first-hop"}, true},
		{[]string{"-with", "dropout=0.9&lr=0.02", "-only", "q-high"}, true},
		{[]string{"-with", "perturb-rate=0.5", "-only", "q-high"}, false},
		{[]string{"-with", "seed=3", "-only", "q-high"}, false}, // each seed of the rate is its own
		{[]string{"-with", "init-seed=3", "-only", "xor-two"}, false},
	} {
		_, err := lookupParse(t, "claims", c.args...)
		if (err == nil) != c.ok {
			t.Errorf("claims %s: %v, want accepted %v", strings.Join(c.args, " "), err, c.ok)
		}
	}
}

func lookupParse(t *testing.T, name string, args ...string) (runner, error) {
	t.Helper()
	c, _ := lookup(name)
	return c.parse(args, io.Discard)
}

// PDN_VECTORS is read in one place and refused before any command starts,
// naming the variable and its values (audit 125).
func TestVectorsVariableIsChecked(t *testing.T) {
	for _, v := range []string{"bogus", "0", "AVX2 "} {
		t.Setenv("PDN_VECTORS", v)
		_, stderr, code := runCLI(t, "train", "-epochs", "1")
		if code != 2 || !strings.Contains(stderr, "PDN_VECTORS=") || !strings.Contains(stderr, "want one of auto, scalar, avx2, avx512") {
			t.Errorf("PDN_VECTORS=%q: exit %d, %q", v, code, stderr)
		}
	}
}

// gen -dense writes sparse node features as x columns; where a graph's
// features are dense already it changes nothing, and is refused by name
// (before the folder is made, for a generator's graph), as every flag a
// run does not read is; where they are sparse, the bundle holds x columns.
func TestGenDenseOnlyForSparseFeatures(t *testing.T) {
	root := t.TempDir()
	dense := filepath.Join(root, "dense")
	if _, errOut, code := runCLI(t, "gen", "-per-class", "16", "-out", dense); code != 0 {
		t.Fatal(errOut)
	}
	sparse := putTree(t, filepath.Join(root, "sparse"), labelled(60, threeClasses))
	for _, c := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"a generator's graph", []string{"-per-class", "16"}, 2, "flag -dense: graph synthetic's node features are dense already"},
		{"the xor graph", []string{"-data", "xor"}, 2, "flag -dense: graph xor's node features are dense already"},
		{"a bundle of dense features", []string{"-data", dense}, 2, "flag -dense: the graph's node features are dense already (32 a node"},
		{"degree features, held sparse", []string{"-data", sparse}, 0, "wrote"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(root, strings.ReplaceAll(c.name, " ", "-"))
			stdout, errOut, code := runCLI(t, append(append([]string{"gen", "-dense"}, c.args...), "-out", out)...)
			if code != c.code || !strings.Contains(stdout+errOut, c.want) {
				t.Errorf("gen -dense %v: exit %d, %q; want %d and %q", c.args, code, stdout+errOut, c.code, c.want)
			}
			if _, err := os.Stat(filepath.Join(out, "features.csv")); code == 0 && err == nil {
				t.Error("-dense wrote features.csv, not x columns")
			}
		})
	}
}

// A lab's command takes every model row its lab reads at its defaults, so
// that a state of the lab's page is a command line too: the page's XOR
// and degree labs read self-loop and the pathfinder's rows, which their
// commands once had no flag for.
func TestEveryLabsCommandTakesTheModelRowsItsLabReads(t *testing.T) {
	for name, c := range commandRows(t) {
		if c.state == nil || name == "train" || name == "gen" || name == "table4" {
			continue
		}
		r, e := c.state()
		l, ok := experiment.LabNamed(e.View.Lab)
		if !ok {
			continue
		}
		flags, _ := commandFlags(t, name, "-h")
		has := map[string]bool{}
		for _, f := range flags {
			has[f.Name] = true
		}
		for _, p := range experiment.Params {
			if p.Group != experiment.GroupModel || slices.Contains(l.Hide, p.Name) {
				continue
			}
			if _, sets := r.Sets[p.Name]; sets {
				continue
			}
			if _, reads := l.Reader().Reads(p, e); reads && !has[p.Name] {
				t.Errorf("pdn %s has no -%s, which the %s lab reads at its defaults", name, p.Name, l.Name)
			}
		}
	}
}
