package main

import (
	"errors"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"pdnexplorer/experiment"
	"pdnexplorer/internal/faults"
	"pdnexplorer/internal/numtext"
)

// commandSurface says how a command meets the fault classes: the flags
// that make it read a graph of one's own from dir (nil: it reads none),
// the flags of a small run, and whether it writes a folder.
type commandSurface struct {
	graph  func(dir string) []string
	small  []string
	writes bool
}

// commandSurfaces are every command of main.go's table; a command missing
// here fails TestEveryClassOnEveryCommand.
var commandSurfaces = map[string]commandSurface{
	"gen":       {graph: func(d string) []string { return []string{"-data", d} }, writes: true},
	"train":     {graph: func(d string) []string { return []string{"-data", d} }, small: []string{"-epochs", "1"}, writes: true},
	"sweep":     {small: []string{"-scenario", "1", "-reps", "1", "-models", "gcn", "-epochs", "1"}, writes: true},
	"xor":       {},
	"runtime":   {},
	"degree":    {small: []string{"-epochs", "1"}, writes: true},
	"tsne":      {small: []string{"-per-class", "16", "-epochs", "1"}, writes: true},
	"multiplex": {small: []string{"-per-class", "16", "-epochs", "1", "-seeds", "1"}, writes: true},
	"table4":    {graph: func(d string) []string { return []string{"-datasets", d} }, small: []string{"-reps", "1", "-models", "gcn", "-epochs", "1"}, writes: true},
	"merge":     {writes: true},
	"claims":    {},
	"structure": {graph: func(d string) []string { return []string{"-data", d} }, small: []string{"-epochs", "1", "-models", "gcn,mlp"}, writes: true},
	"attention": {graph: func(d string) []string { return []string{"-datasets", d} }, small: []string{"-reps", "1", "-epochs", "1"}, writes: true},
}

// TestEveryClassOnEveryCommand is the class × surface table's command
// line part: every class of internal/faults on every command of main.go's
// table, each cell asserting the class's one behaviour there or saying
// why the class cannot arise. A command or a class added without its
// cells fails.
func TestEveryClassOnEveryCommand(t *testing.T) {
	var names []string
	cells := map[faults.Key]faults.Cell{}
	root := t.TempDir()
	for _, c := range commands {
		names = append(names, c.name)
		s, ok := commandSurfaces[c.name]
		if !ok {
			t.Errorf("pdn %s has no row in commandSurfaces", c.name)
			continue
		}
		name := c.name
		set := func(class string, cell faults.Cell) { cells[faults.Key{Class: class, Surface: name}] = cell }
		check := func(f func(t *testing.T)) faults.Cell { return faults.Cell{Check: f} }
		set(faults.Numbers, check(func(t *testing.T) {
			numberFlagsOf(t, name)
			refusalsSayWhy(t, name)
			if name == "merge" {
				mergeNumbers(t)
			}
		}))
		set(faults.Rows, check(func(t *testing.T) {
			flagsTwiceOf(t, name)
			unreadRowsOf(t, name)
			columnsOnlyForFiles(t, name, s)
			conflictsOf(t, name)
			switch name {
			case "merge":
				mergeStateRows(t)
			case "gen":
				genLikeDrawsItsOwn(t)
			}
		}))
		switch {
		case s.graph != nil:
			g := graphCells{name: name, s: s, root: filepath.Join(root, name)}
			set(faults.Unlabelled, check(g.unlabelled))
			set(faults.Text, check(g.text))
			set(faults.Compressed, check(g.compressed))
			set(faults.Structure, check(g.structure))
			set(faults.Special, specialCell(name, s))
		case name == "merge":
			set(faults.Unlabelled, faults.NA("a shard holds results, not a graph's classes"))
			set(faults.Compressed, check(mergeZipped))
			set(faults.Text, check(mergeText))
			set(faults.Structure, check(func(t *testing.T) {
				mergeTwice(t)
				mergeEditedByHand(t)
			}))
			set(faults.Special, specialCell(name, s))
		default:
			for _, class := range []string{faults.Unlabelled, faults.Text, faults.Compressed, faults.Structure, faults.Special} {
				set(class, faults.NA("pdn "+name+" reads no file: its graphs are drawn or shipped"))
			}
		}
		if s.writes {
			set(faults.Outputs, check(func(t *testing.T) {
				usersFileRefused(t, name, root)
				outputFoldersChecked(t, name)
				bindMountedInput(t, name, s)
				if name == "merge" {
					mergePrintsOnlyWhatItWrites(t)
				}
			}))
		} else {
			set(faults.Outputs, faults.NA("pdn "+name+" writes no file (TestEveryCommandThatWritesIsListed)"))
		}
		if name == "claims" {
			set(faults.Link, check(claimsWithALinksRows))
		} else {
			set(faults.Link, faults.NA("pdn "+name+" takes flags, not a link (claims' -with is the command line's one link: its cell)"))
		}
		set(faults.Script, faults.NA("run_pyg.py's arguments are the script's own surface (pyg's cells)"))
	}
	faults.Check(t, names, cells)
}

// numberFlagsOf gives every flag of command name that holds a number
// (numtext's flags, the state table's number rows, -shard, and the text
// flags that hold numbers) a hexadecimal float, an infinity, a NaN and
// digits with an underscore: each refused, naming the flag. A flag of a
// kind this test does not know fails it, so that a new kind of flag gets
// its cell.
func numberFlagsOf(t *testing.T, name string) {
	flags, _ := commandFlags(t, name, "-h")
	args := commandRows(t)[name].args
	inText := map[string]string{"scenario": "%s", "with": "dropout=%s", "edits": "s0-1f0~%s", "shard": "%s/2", "datasets": "", "models": "", "only": "", "out": "", "export": "", "data": "", "like": "", "family": "", "folder": "", "pyg": "", "baselines": ""}
	for _, f := range flags {
		kind := fmt.Sprintf("%T", f.Value)
		format := "%s"
		switch {
		case kind == "*numtext.intFlag" || kind == "*numtext.floatFlag" || kind == "*main.shard":
			if kind == "*main.shard" {
				format = inText["shard"]
			}
		case kind == "*flag.boolValue" || kind == "main.dataFlag" || kind == "*main.dataFlag" || kind == "main.folderFlag":
			continue // a switch; a path
		case kind == "experiment.fieldFlag":
			row, _ := experiment.RowFlag(f)
			p, _ := experiment.Lookup(row)
			if p.Choices != nil || p.Form != "" && row != experiment.EditsRow {
				continue // a choice or a column's name: no number
			}
			if row == experiment.EditsRow {
				format = inText["edits"]
			}
		case kind == "*flag.stringValue":
			f, ok := inText[f.Name]
			if !ok {
				t.Errorf("pdn %s -%s: a text flag this test does not know: say whether it holds a number (inText)", name, f)
				continue
			}
			if f == "" {
				continue // a path or a list of names
			}
			format = f
		default:
			t.Errorf("pdn %s -%s: a flag of a kind (%s) this test does not know: give it its number cell", name, f.Name, kind)
			continue
		}
		whole := kind == "*numtext.intFlag"
		if kind == "experiment.fieldFlag" {
			row, _ := experiment.RowFlag(f)
			whole = wholeRow(row)
		}
		for _, bad := range []string{"0x1p-2", "0x10", "Inf", "NaN", "1_0", "1.5", "16.0"} {
			if (bad == "1.5" || bad == "16.0") && !whole {
				continue // a whole number's: a decimal takes it
			}
			v := strings.Replace(format, "%s", bad, 1)
			_, err := commandFlags(t, name, append(without(args, f.Name), "-"+f.Name, v)...)
			var ue usageError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), "-"+f.Name) || !strings.Contains(err.Error(), bad) {
				t.Errorf("pdn %s -%s %s: %v; want refused, naming the flag and the value", name, f.Name, v, err)
			}
			if whole && (err == nil || !strings.Contains(err.Error(), "want a whole number in [")) {
				t.Errorf("pdn %s -%s %s: %v; want its range said", name, f.Name, v, err)
			}
		}
		plusAsWithout(t, name, args, f, format)
		minusZeroAsZero(t, name, args, f, format)
	}
}

// wholeRow reports whether the state table's row holds one whole number.
func wholeRow(row string) bool {
	p, _ := experiment.Lookup(row)
	return p.Want().String() != p.RangeText().String()
}

// refusalsSayWhy gives every flag of command name the faults' values
// (text that is not UTF-8, a NUL, an empty value, a hexadecimal float):
// each refusal says why, never a "<nil>" where its reason should be
// (-target gr\xffoup said "flag -target: <nil>"), and a column's name
// that is not UTF-8 is said to be so.
func refusalsSayWhy(t *testing.T, name string) {
	flags, _ := commandFlags(t, name, "-h")
	args := commandRows(t)[name].args
	for _, f := range flags {
		for _, bad := range []string{"gr\xffoup", "\xff", "a\x00b", "", "0x1p-2", "\xc3"} {
			_, err := commandFlags(t, name, append(without(args, f.Name), "-"+f.Name+"="+bad)...)
			if err == nil {
				continue
			}
			if msg := err.Error(); strings.Contains(msg, "<nil>") || strings.Contains(msg, "%!") {
				t.Errorf("pdn %s -%s %q: %q; want the reason said", name, f.Name, bad, msg)
			}
			row, isRow := experiment.RowFlag(f)
			p, _ := experiment.Lookup(row)
			if isRow && p.Form == experiment.ColumnForm && !utf8.ValidString(bad) && !strings.Contains(err.Error(), "UTF-8") {
				t.Errorf("pdn %s -%s %q: %q; want it said that the text is not UTF-8", name, f.Name, bad, err)
			}
		}
	}
}

// minusZeroAsZero gives flag f of command name "-0" and "0": taken alike,
// or refused alike, as numtext reads a zero without its sign (-seed -0 was
// refused while -weight-decay -0 kept -0).
func minusZeroAsZero(t *testing.T, name string, args []string, f *flag.Flag, format string) {
	var errs [2]error
	for i, v := range []string{"0", "-0"} {
		_, errs[i] = commandFlags(t, name, append(without(args, f.Name), "-"+f.Name, strings.Replace(format, "%s", v, 1))...)
	}
	if (errs[0] == nil) != (errs[1] == nil) {
		t.Errorf("pdn %s -%s: 0 gives %v, -0 gives %v; want a zero read without its sign", name, f.Name, errs[0], errs[1])
	}
}

// conflictsOf gives command name rows whose values conflict (restart-epochs
// not below epochs while there are restarts: experiment.Conflicts) where
// it registers their flags (pdn xor's remedy flags are those rows too),
// or, for claims, by -with: refused by name, naming both rows.
func conflictsOf(t *testing.T, name string) {
	args := commandRows(t)[name].args
	want := "restart-epochs (5) is not below epochs (5)"
	if name == "claims" {
		_, err := commandFlags(t, name, "-only", "q-high", "-with", "restarts=2&restart-epochs=5&epochs=5")
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("pdn claims -with restarts=2&restart-epochs=5&epochs=5: %v; want %q", err, want)
		}
		return
	}
	flags, _ := commandFlags(t, name, append(slices.Clone(args), "-h")...)
	has := func(n string) bool { return slices.ContainsFunc(flags, func(f *flag.Flag) bool { return f.Name == n }) }
	if !has("restarts") || !has("restart-epochs") || !has("epochs") {
		return // it takes none of the rows that conflict
	}
	_, err := commandFlags(t, name, append(slices.Clone(args), "-restarts", "2", "-restart-epochs", "5", "-epochs", "5")...)
	var ue usageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "flag -restart-epochs: "+want) {
		t.Errorf("pdn %s -restarts 2 -restart-epochs 5 -epochs 5: %v; want refused naming both rows", name, err)
	}
	if _, err := commandFlags(t, name, append(slices.Clone(args), "-restarts", "2", "-restart-epochs", "4", "-epochs", "5")...); err != nil {
		t.Errorf("pdn %s -restarts 2 -restart-epochs 4 -epochs 5: %v; want taken", name, err)
	}
}

// plusAsWithout gives flag f of command name a number with a leading "+"
// and without: taken alike, or refused alike (-seed +1 as -epochs +1, as
// numtext reads every number's sign).
func plusAsWithout(t *testing.T, name string, args []string, f *flag.Flag, format string) {
	sample := map[string]string{"scenario": "1", "with": "0.5", "edits": "0.25", "shard": "1"}[f.Name]
	if sample == "" {
		if _, err := numtext.ParseFloat(f.DefValue); err != nil || strings.HasPrefix(f.DefValue, "-") {
			return // no plain number to sign
		}
		sample = f.DefValue
	}
	var errs [2]error
	for i, v := range []string{sample, "+" + sample} {
		_, errs[i] = commandFlags(t, name, append(without(args, f.Name), "-"+f.Name, strings.Replace(format, "%s", v, 1))...)
	}
	if (errs[0] == nil) != (errs[1] == nil) {
		t.Errorf("pdn %s -%s: %s gives %v, +%s gives %v; want the sign taken as every number's", name, f.Name, sample, errs[0], sample, errs[1])
	}
}

// columnsOnlyForFiles gives command name each row that chooses a file's
// columns (target, id-column, bins) without a graph of one's own: each is
// refused by name, since no graph it trains has columns (pdn xor -bins 5,
// claims -with target=x), where a lab of the page keeps them for the
// files it opens next; with a graph of one's own, the command reads them.
func columnsOnlyForFiles(t *testing.T, name string, s commandSurface) {
	values := map[string]string{"target": "label", "id-column": "node", "bins": "3"}
	args := commandRows(t)[name].args
	flags, _ := commandFlags(t, name, append(slices.Clone(args), "-h")...)
	dir := putTree(t, t.TempDir(), labelled(60, threeClasses))
	for _, row := range slices.Sorted(maps.Keys(values)) {
		p, _ := experiment.Lookup(row)
		if !p.Columns() {
			t.Fatalf("%s is no column row", row)
		}
		if name == "claims" {
			for _, id := range []string{"q-high", "xor-two", "degree-gat"} {
				_, err := commandFlags(t, name, "-only", id, "-with", row+"="+values[row])
				if err == nil || !strings.Contains(err.Error(), row+": claim "+id) || !strings.Contains(err.Error(), "does not read it") {
					t.Errorf("pdn claims -only %s -with %s=%s: %v; want refused, naming the row", id, row, values[row], err)
				}
			}
			continue
		}
		if !slices.ContainsFunc(flags, func(f *flag.Flag) bool { return f.Name == row }) {
			continue
		}
		_, err := commandFlags(t, name, append(slices.Clone(args), "-"+row, values[row])...)
		if err == nil || !strings.Contains(err.Error(), "flag -"+row+": ") || !strings.Contains(err.Error(), "does not read it") {
			t.Errorf("pdn %s -%s %s without files of one's own: %v; want refused by name", name, row, values[row], err)
		}
		if s.graph != nil && name != "table4" && name != "attention" {
			if _, err := commandFlags(t, name, append(append(slices.Clone(args), s.graph(dir)...), "-"+row, values[row])...); err != nil && strings.Contains(err.Error(), "flag -"+row) {
				t.Errorf("pdn %s -%s %s on files of one's own: %v; want read", name, row, values[row], err)
			}
		}
	}
}

// genLikeDrawsItsOwn: gen -like draws its own graph, so a -data row (a
// shipped graph or a folder) is refused by name, as its other data rows.
func genLikeDrawsItsOwn(t *testing.T) {
	dir := putTree(t, t.TempDir(), labelled(60, threeClasses))
	for _, data := range []string{"cora", dir} {
		_, err := commandFlags(t, "gen", "-like", "facebook", "-data", data, "-out", filepath.Join(t.TempDir(), "o"))
		if err == nil || !strings.Contains(err.Error(), "flag -data: pdn gen -like sets it itself") {
			t.Errorf("gen -like facebook -data %s: %v; want -data refused", data, err)
		}
	}
}

// without is args (flags and their values) without flag name's.
func without(args []string, name string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		if args[i] == "-"+name {
			i++
			continue
		}
		out = append(out, args[i])
	}
	return out
}

// graphCells are the reader classes on a command that reads a graph of
// one's own: the command given a folder whose files carry the fault.
type graphCells struct {
	name string
	s    commandSurface
	root string
}

// run runs the command on the graph files, with its small flags and a
// fresh output folder, and gives its output and exit status.
func (g graphCells) run(t *testing.T, case_ string, files map[string][]byte) (out string, code int) {
	t.Helper()
	dir := filepath.Join(g.root, case_)
	putTree(t, dir, files)
	args := append([]string{g.name}, g.s.graph(dir)...)
	args = append(args, g.s.small...)
	if g.s.writes && g.name != "train" {
		args = append(args, "-out", filepath.Join(g.root, case_+"-out"))
	}
	stdout, stderr, code := runCLI(t, args...)
	return stdout + stderr, code
}

// labelled is an edge list of n nodes and its labels file, class(i) a
// node's class.
func labelled(n int, class func(i int) string) map[string][]byte {
	var labels strings.Builder
	labels.WriteString("node,label\n")
	for i := range n {
		fmt.Fprintf(&labels, "%d,%s\n", i, class(i))
	}
	edges := ring(n, ",") + shifted(ring(n/2, ","), 0)
	return map[string][]byte{"edges.csv": []byte(edges), "labels.csv": []byte(labels.String())}
}

func threeClasses(i int) string { return []string{"a", "b", "c"}[i%3] }

// unlabelled: every 10th node's label empty, NA or -1 is no class, and
// the command says how many.
func (g graphCells) unlabelled(t *testing.T) {
	files := labelled(60, func(i int) string {
		if i%10 == 9 {
			return []string{"", "NA", "-1"}[i%3]
		}
		return threeClasses(i)
	})
	out, code := g.run(t, "unlabelled", files)
	if code != 0 || !strings.Contains(out, "6 nodes have no class") || strings.Contains(out, "4 classes") {
		t.Errorf("exit %d: %s", code, out)
	}
}

// text: class names in Latin-1 are refused at their line and byte.
func (g graphCells) text(t *testing.T) {
	files := labelled(60, func(i int) string { return []string{"caf\xe9", "th\xe9", "lait"}[i%3] })
	out, code := g.run(t, "latin1", files)
	if code != 2 || !strings.Contains(out, "labels.csv:2:") || !strings.Contains(out, "byte 0xE9 is not UTF-8") {
		t.Errorf("exit %d: %s", code, out)
	}
}

// compressed: an edge list gzip-cut in half is said to be cut short.
func (g graphCells) compressed(t *testing.T) {
	files := labelled(60, threeClasses)
	gz := gzipped(string(files["edges.csv"]) + strings.Repeat(ring(60, ","), 20))
	delete(files, "edges.csv")
	files["edges.csv.gz"] = gz[:len(gz)/2]
	out, code := g.run(t, "cut", files)
	if code != 2 || !strings.Contains(out, "edges.csv.gz") || !strings.Contains(out, "cut short") {
		t.Errorf("exit %d: %s", code, out)
	}
}

// structure: a GraphML file of two graphs is read as NetworkX reads it,
// the first, and said; a labels file naming a node twice is refused at
// the repeat's line.
func (g graphCells) structure(t *testing.T) {
	two := strings.Replace(graphML(60, false, false), "</graph>", "</graph>\n<graph edgedefault=\"undirected\"><node id=\"x\"/></graph>", 1)
	out, code := g.run(t, "two", map[string][]byte{"g.graphml": []byte(two)})
	if code != 0 || !strings.Contains(out, "holds 2 graphs: the first was read") {
		t.Errorf("two graphs: exit %d: %s", code, out)
	}
	files := labelled(60, threeClasses)
	files["labels.csv"] = append(files["labels.csv"], []byte("7,a\n")...)
	out, code = g.run(t, "twice", files)
	if code != 2 || !strings.Contains(out, `labels.csv:62:1: column node: node "7" was listed on line 9 already`) {
		t.Errorf("a node twice: exit %d: %s", code, out)
	}
}

// mergeText: a shard file with a byte that is not UTF-8 is refused at its
// line and byte.
func mergeText(t *testing.T) {
	dir := t.TempDir()
	shards := filepath.Join(dir, "s")
	if _, errOut, code := runCLI(t, "sweep", "-scenario", "1", "-reps", "1", "-models", "gcn", "-epochs", "1", "-shard", "1/2", "-out", shards); code != 0 {
		t.Fatal(errOut)
	}
	files, _ := filepath.Glob(filepath.Join(shards, "*.json"))
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	spoiled := filepath.Join(dir, "t")
	putTree(t, spoiled, map[string][]byte{filepath.Base(files[0]): []byte(strings.Replace(string(b), `"command"`, "\"comm\xe9nd\"", 1))})
	_, errOut, code := runCLI(t, "merge", "-out", filepath.Join(dir, "m"), spoiled)
	if code != 2 || !strings.Contains(errOut, ".json:1:") || !strings.Contains(errOut, "byte 0xE9 is not UTF-8") {
		t.Errorf("exit %d: %s", code, errOut)
	}
}

// mergeTwice: a shard given twice (its folder twice, or a copy) is
// refused, naming both.
func mergeTwice(t *testing.T) {
	dir := t.TempDir()
	shards := filepath.Join(dir, "s")
	for _, s := range []string{"1/2", "2/2"} {
		if _, errOut, code := runCLI(t, "sweep", "-scenario", "1", "-reps", "1", "-models", "gcn", "-epochs", "1", "-shard", s, "-out", shards); code != 0 {
			t.Fatal(errOut)
		}
	}
	copyTree(t, filepath.Join(dir, "copy"), shards)
	for _, args := range [][]string{{shards, filepath.Join(dir, "copy")}, {shards, shards}} {
		_, errOut, code := runCLI(t, append([]string{"merge", "-out", filepath.Join(dir, "m")}, args...)...)
		if code != 2 || !strings.Contains(errOut, "shard 1/2 again") {
			t.Errorf("merge %v: exit %d: %s", args, code, errOut)
		}
	}
}

// usersFileRefused: a folder holding a file the command did not write is
// refused without -force, naming it, and nothing is written there.
func usersFileRefused(t *testing.T, name, root string) {
	var args func(out string) []string
	for _, c := range writingCommandsOnce(t, root) {
		if strings.Fields(c.name)[0] == name {
			args = c.old
			break
		}
	}
	if args == nil {
		t.Fatalf("pdn %s writes, but writingCommands runs it not", name)
	}
	out := writeFolder(t, filepath.Join(root, "users-"+name), map[string]string{"notes.txt": "my thesis numbers"})
	_, errOut, code := runCLI(t, args(out)...)
	if code != 2 || !strings.Contains(errOut, `holds "notes.txt", which pdn did not write`) || !strings.Contains(errOut, "-force") {
		t.Errorf("exit %d, %q; want 2, naming notes.txt and -force", code, errOut)
	}
	if v := visible(t, out); !slices.Equal(v, []string{"notes.txt"}) {
		t.Errorf("the refused run wrote %v", v)
	}
}

// claimsWithALinksRows: -with is a link's query; a view row (the
// results a link carries, its lab) is refused by name, as a link's rows
// its lab does not read are.
func claimsWithALinksRows(t *testing.T) {
	for _, with := range []string{"results=5000", "lab=graph", "dropout=0.9&dropout=0.1", "bins=3"} {
		_, errOut, code := runCLI(t, "claims", "-only", "q-high", "-seeds", "1", "-with", with)
		row := strings.SplitN(with, "=", 2)[0]
		if code != 2 || !strings.Contains(errOut, "flag -with") || !strings.Contains(errOut, row) {
			t.Errorf("-with %s: exit %d: %s", with, code, errOut)
		}
	}
	// The rows rule holds for the claim's own rows: q-high sets per-class
	// and q, which cora does not read.
	_, errOut, code := runCLI(t, "claims", "-only", "q-high", "-seeds", "1", "-with", "data=cora")
	if code != 2 || !strings.Contains(errOut, "claim q-high's own state sets per-class and q") || !strings.Contains(errOut, "graph cora does not read it") {
		t.Errorf("-with data=cora on q-high: exit %d: %s", code, errOut)
	}
	if _, err := commandFlags(t, "claims", "-only", "bag-of-words-recipe", "-with", "data=citeseer"); err != nil {
		t.Errorf("-with data=citeseer on a claim of cora: %v; want taken", err)
	}
}

// outputFoldersChecked gives every flag of command name that names a
// folder to write (-out, -export: folderFlag) empty text and, where the
// system makes them, a named pipe, a device and a loop of links: each is
// refused by name as it is parsed, before any work, saying what it is
// (train -export "" wrote nothing without a word; -out FIFO was "a
// file"; a loop gave "mkdir: file exists").
func outputFoldersChecked(t *testing.T, name string) {
	args := commandRows(t)[name].args
	flags, _ := commandFlags(t, name, append(slices.Clone(args), "-h")...)
	checked := 0
	for _, f := range flags {
		if _, ok := f.Value.(folderFlag); !ok {
			continue
		}
		checked++
		cases := map[string]string{"": "flag -" + f.Name + ": empty; give the directory to write into"}
		maps.Copy(cases, specialFolders(t))
		for v, want := range cases {
			_, err := commandFlags(t, name, append(without(args, f.Name), "-"+f.Name, v)...)
			var ue usageError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), "flag -"+f.Name+": ") || !strings.Contains(err.Error(), want) {
				t.Errorf("pdn %s -%s %q: %v; want refused, saying %q", name, f.Name, v, err, want)
			}
		}
	}
	if checked == 0 {
		t.Errorf("pdn %s writes, but has no flag naming its folder (folderFlag)", name)
	}
}
