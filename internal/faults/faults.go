// Package faults is the table of the classes of bad input the explorer
// guards against, each with the one behaviour every surface shows and the
// one place its rule lives, and the test harness that tries every class on
// every surface.
//
// A surface is a way input reaches the explorer: a command of pdn (its
// flags and the files it reads and writes), a reader of a graph format, a
// lab's link, a control of the page, the exported script. The surfaces
// come from the tables that list them (cmd/pdn's commands, datasets'
// formats, experiment.Labs), so a command, a format or a lab added
// without its cells fails its package's faults test, as does a class added
// here: Check wants a cell for every class on every surface, each either a
// check that asserts the class's behaviour or the reason the class cannot
// arise there.
//
// Only tests import this package.
package faults

import (
	"slices"
	"strings"
	"testing"
)

// Class is one kind of bad input.
type Class struct {
	Name  string // its short name, as test names and cells give it
	Title string
	// Rule is what every surface does with it: refused naming the field,
	// or the file, line and column, and what to do; or read by a stated
	// rule and said in the notice.
	Rule string
	// Home is where the rule is implemented, once.
	Home string
}

// The classes' names.
const (
	Numbers    = "numbers"
	Unlabelled = "unlabelled"
	Text       = "text"
	Structure  = "structure"
	Special    = "special"
	Compressed = "compressed"
	Rows       = "rows"
	Link       = "link"
	Outputs    = "outputs"
	Script     = "script"
)

// Classes is the table of fault classes.
var Classes = []Class{
	{Numbers, "Number syntax",
		"a number is decimal and finite: hexadecimal (0x1p-2), octal, binary, underscores, Inf and NaN are refused naming the field, or the file, line and column, and the allowed range",
		"internal/numtext; internal/rules fails on strconv's parsers, fmt's scanners and flag's number flags anywhere else"},
	{Unlabelled, "Values that mean unlabelled or missing",
		"empty, NA, NaN, -1 and the like (pandas' missing values and the format's own convention) are never a class: the node stays in the graph, never trained or tested on, counted in the notice",
		"datasets' class builder, which every reader's classes go through"},
	{Text, "Text encodings, byte-order marks and line endings",
		"UTF-8 with or without a byte-order mark is read, and so is text that declares its encoding (a UTF-16 byte-order mark, GraphML's XML declaration); anything else, and a byte-order mark past the start (two files joined), is refused naming the file, line and byte; LF, CRLF and CR alone all end a line",
		"datasets' text decoder, which every reader opens its files through"},
	{Structure, "A file holding two graphs, repeated ids, splits that overlap, conflict or come twice",
		"refused naming the file and the lines, or read by the publisher's rule and said in the notice; what comes twice (a JSON key, a column, GraphML data, a file beside itself gzipped, a graph below a graph, a header row) is never read as its last",
		"each reader, through datasets' shared checks"},
	{Special, "Special and unreadable files",
		"pipes, devices, sockets, link loops, files without permission and folders where a file belongs are refused before any byte is read, naming the file and what it is",
		"datasets' one way of opening an input path"},
	{Compressed, "Compressed files truncated, corrupt or inflating past the limits",
		"a cut or damaged archive is said to be so, never blamed on a value read from it; a zip's files stream as a folder's do, and inflating past the limits is refused while reading; what must be held whole is held within a limit below memory",
		"datasets' text decoder and zip reader"},
	{Rows, "Rows and flags that do not apply, or are given twice",
		"a row or flag the chosen model, data, lab or command does not read, one given twice, or one whose value conflicts with another's (naming both), is refused by name, the same on the command line, in a link, in a control and in the worker; a refused row changes nothing and the notice names the value it keeps",
		"experiment's state, model and lab tables; cmd/pdn's one flag parser"},
	{Link, "Results and state carried by a link",
		"a link's results enter a lab in one place, marked from the link, not trained here; state that belongs to one graph is dropped, and said, when another graph arrives",
		"app's run pool and the lab core"},
	{Outputs, "Outputs: other files, interruptions, two runs at once, inputs",
		"a folder holding files the writer did not write is refused without -force, naming them; an interrupted run leaves the earlier results whole; a second run on the same folder fails at once naming the first; nothing is written into or around an input",
		"the one output writer; internal/rules fails on os.Create and the like anywhere else"},
	{Script, "The exported script's arguments",
		"every argument of run_pyg.py outside its range is refused with one line naming it and its range",
		"pyg/run_pyg.py's argument checks"},
}

// ClassNamed returns the class called name.
func ClassNamed(name string) (Class, bool) {
	i := slices.IndexFunc(Classes, func(c Class) bool { return c.Name == name })
	if i < 0 {
		return Class{}, false
	}
	return Classes[i], true
}

// Key names one cell: a class on a surface.
type Key struct{ Class, Surface string }

// Cell is one class on one surface: a check that asserts the class's
// behaviour there, or, where the class cannot arise, why not.
type Cell struct {
	Check func(t *testing.T)
	NA    string
}

// NA is a cell whose class cannot arise on its surface, for the reason why.
func NA(why string) Cell { return Cell{NA: why} }

// Check runs every class on every one of surfaces as a subtest named
// class/surface, and fails for a missing cell, a cell for a class or a
// surface outside the tables, and a cell that is neither a check nor a
// reason.
func Check(t *testing.T, surfaces []string, cells map[Key]Cell) {
	t.Helper()
	for k, c := range cells {
		if _, ok := ClassNamed(k.Class); !ok {
			t.Errorf("a cell for %q on %s: no such class in faults.Classes", k.Class, k.Surface)
		}
		if !slices.Contains(surfaces, k.Surface) {
			t.Errorf("a cell for %s on %q: no such surface (the surfaces are %s)", k.Class, k.Surface, strings.Join(surfaces, ", "))
		}
		if (c.Check == nil) == (c.NA == "") {
			t.Errorf("the cell for %s on %s must be a check or the reason the class cannot arise there, one of the two", k.Class, k.Surface)
		}
	}
	for _, cl := range Classes {
		for _, s := range surfaces {
			c, ok := cells[Key{cl.Name, s}]
			if !ok {
				t.Errorf("no cell for %s on %s: add its check (or why it cannot arise) to this package's faults test", cl.Name, s)
				continue
			}
			t.Run(cl.Name+"/"+s, func(t *testing.T) {
				if c.Check == nil {
					t.Logf("does not arise: %s", c.NA)
					return
				}
				c.Check(t)
			})
		}
	}
}
