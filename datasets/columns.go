package datasets

import (
	"cmp"
	"fmt"
	"io"
	"io/fs"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/numtext"
)

// Columns names the columns of a node table that its header leaves open:
// the node ids and the classes, each by its header's name or by its
// number from 1. Empty, a reader finds them (see nodeTable.choose).
type Columns struct {
	ID, Target string
	// Bins, above 0, reads the target as a measurement and bins it by
	// quantile into this many classes (experiment.Data.Bins).
	Bins int
}

// idNames and classNames are the header names that say what a column
// holds, most telling first: MUSAE's Twitch target.csv has both id (a
// Twitch id) and new_id (the node id its edges use), and mature beside
// partner, two yes/no columns of which mature is the published class.
var (
	idNames    = []string{"new_id", "node_id", "id", "node", "nodeid", "node id", "name", "key"}
	classNames = []string{"target", "label", "labels", "class", "classes", "y", "category", "page_type", "mature", "ml_target", "community", "group", "type", "club", "value"}
)

// nodeTable is a table of one row per node, read whole: a MUSAE
// target.csv, a labels file beside an edge list, a Planetoid .content file.
type nodeTable struct {
	file   string
	header []string
	named  bool // the header is the file's own
	rows   [][]string
	// repeats says, for each column that repeats a value, where first.
	repeats map[int]error
	// decimalComma says the file separates its fields with semicolons,
	// as spreadsheets do where a comma marks the decimals (0,123).
	decimalComma bool
	// bins, above 0, makes the class column a measurement binned into
	// this many classes by quantile (Columns.Bins).
	bins int
	// absent marks, by column, the rows whose cell the format left out
	// with no default (GraphML's data): as a class, no class.
	absent map[int][]bool
	// controls are where the cells holding a control character (a line
	// break inside quotes) are, by row and column: the class builder
	// refuses such a class name there.
	controls map[[2]int][2]int
	// lines are the line each row came on, for a reader that places a
	// cell it refuses (a Matrix Market labels file's node number).
	lines []int
	// numberIDs says the format reads ids written as numbers as the
	// numbers (format.numberIDs); exactIDs, that it keeps each id's text as
	// written (GraphML's): nodeKeys.
	numberIDs, exactIDs bool
	// bare is where the class is when the file has no header: its format
	// row's bareClass.
	bare classPlace
}

// hasControl says a cell holds a control character (a line break, a tab,
// C0 and C1 controls).
func hasControl(cell string) bool { return strings.ContainsFunc(cell, unicode.IsControl) }

// keepControls notes where row's cells that hold a control character are.
func (nt *nodeTable) keepControls(row []string, at func(c int) (line, col int)) {
	for c, cell := range row {
		if hasControl(strings.TrimSpace(cell)) {
			if nt.controls == nil {
				nt.controls = map[[2]int][2]int{}
			}
			line, col := at(c)
			nt.controls[[2]int{len(nt.rows), c}] = [2]int{line, col}
		}
	}
}

// number reads a cell as a number: a decimal, or, in a file of decimal
// commas, one comma for the point.
func (nt *nodeTable) number(cell string) (float64, error) {
	return numberCell(cell, nt.decimalComma)
}

// classCells are column c's cells as classes, in row order, for the class
// builder.
func (nt *nodeTable) classCells(c int) classCells {
	at := func(i int) (int, int) { p := nt.controls[[2]int{i, c}]; return p[0], p[1] }
	return classCells{file: nt.file, column: nt.header[c], cells: nt.values(c), none: nt.absent[c], bins: nt.bins, commaPoint: nt.decimalComma, at: at}
}

// notFeatures says which of the table's other columns are no features and
// why: a cell that is not a number, named with its line, so that a column
// dropped is never dropped without a word.
func (nt *nodeTable) notFeatures(used []int, skip ...int) []phrase.Text {
	var out []phrase.Text
	for c := range nt.header {
		if slices.Contains(used, c) || slices.Contains(skip, c) {
			continue
		}
		for i, r := range nt.rows {
			if _, err := nt.number(r[c]); err != nil {
				line := i + 1
				if nt.named {
					line++
				}
				out = append(out, phrase.New("%s: column %s holds text (%s on line %d), so it is no node feature", nt.file, plainOrQuoted(nt.header[c]), quote(r[c]), line))
				break
			}
		}
	}
	return out
}

// ColumnsError says a node table does not tell which column holds the
// classes (or the node ids), with what a person needs to choose: the
// header, the first rows and the classes each candidate would give.
type ColumnsError struct {
	File    string
	Header  []string
	Sample  [][]string
	Choices []ClassChoice
	Msg     phrase.Text
}

// ClassChoice is one column that could be the class and the classes it
// gives, with their node counts.
type ClassChoice struct {
	Column  string
	Classes []string
	Counts  []int
	// Bins, above 0, says the column is a measurement and these are the
	// classes it gives cut into Bins by quantile (Columns.Bins).
	Bins int
}

func (e *ColumnsError) Error() string { return e.Phrase().String() }

// Phrase says the error as a message: the file, what is open, and the
// columns that could be the class.
func (e *ColumnsError) Phrase() phrase.Text {
	if len(e.Choices) == 0 {
		return phrase.New("%s: %s", e.File, e.Msg)
	}
	shown := min(len(e.Choices), maxChoicesSaid)
	choices := make([]phrase.Text, shown)
	for i, c := range e.Choices[:shown] {
		choices[i] = c.Phrase()
	}
	if more := len(e.Choices) - shown; more > 0 {
		choices = append(choices, phrase.New("and %d more columns", more))
	}
	return phrase.New("%s: %s: %s", e.File, e.Msg, phrase.List("; ", choices))
}

// maxChoicesSaid bounds the candidate columns a message lists: a node table
// of 1,400 word columns offers 1,400, which the chooser lists in full.
const maxChoicesSaid = 6

// String is the choice as a message has it: its name and its classes
// with their counts, at most four.
func (c ClassChoice) String() string { return c.Phrase().String() }

// Phrase is the choice as a message.
func (c ClassChoice) Phrase() phrase.Text {
	parts := make([]string, 0, 5)
	for i := range c.Classes[:min(4, len(c.Classes))] {
		parts = append(parts, fmt.Sprintf("%s %s", plainOrQuoted(c.Classes[i]), numtext.Group(c.Counts[i])))
	}
	if len(c.Classes) > 4 {
		parts = append(parts, "…")
	}
	if c.Bins > 0 {
		return phrase.New("%s cut by quantile with -bins %d (%d classes: %s)", plainOrQuoted(c.Column), c.Bins, len(c.Classes), strings.Join(parts, ", "))
	}
	return phrase.New("%s (%d classes: %s)", plainOrQuoted(c.Column), len(c.Classes), strings.Join(parts, ", "))
}

// readNodeTable reads the node table name of a graph of the format row
// called format, the header found by isHeader. It keeps, as it reads,
// which columns could still name each node once, and stops at the row
// where none can: a file of one line repeated fifteen million times is
// refused at its second line.
func readNodeTable(fsys fs.FS, format, name string, cols Columns, isHeader func([]string) bool) (*nodeTable, error) {
	return readNodeRows(fsys, format, name, cols, isHeader, true)
}

// maxNodeColumns bounds the columns of a table of nodes: its name, its
// class and its features (MaxFeatures).
const maxNodeColumns = MaxFeatures + 2

// readNodeRows is readNodeTable; named false reads a table whose rows may
// name no node (a Matrix Market labels file of one column: node i's
// class on its line i), within the limit of cells. Without a header, the
// class is where the format's row says (bareClass).
func readNodeRows(fsys fs.FS, format, name string, cols Columns, isHeader func([]string) bool, named bool) (*nodeTable, error) {
	bare := formatNamed(format).bareClass
	t, err := openData(fsys, name, isHeader)
	if err != nil {
		return nil, err
	}
	defer t.closer.Close()
	if len(t.header) > maxNodeColumns {
		// Each column is looked at as the nodes' names, and kept: a
		// gzipped line of 8 million zeros (16 kB) held gigabytes before
		// its second line was read.
		return nil, &BundleError{File: name, Line: 1, Msg: phrase.New("holds %s columns, more than a table of nodes has: %s (a name, a class and at most %s features)",
			numtext.Group(len(t.header)), numtext.Group(maxNodeColumns), numtext.Group(MaxFeatures))}
	}
	nt := &nodeTable{file: name, header: t.header, named: t.named, repeats: map[int]error{}, decimalComma: t.r != nil && t.r.Comma == ';', bins: cols.Bins, bare: bare, numberIDs: formatNamed(format).numberIDs}
	if err := nt.columnsApart(cols); err != nil {
		return nil, err
	}
	open := map[int]map[string]int{} // columns that repeat no value yet: value → line
	lim, cells := limitsOf(fsys), 0
	if cols.ID != "" {
		c, err := nt.column(cols.ID, "id-column")
		if err != nil {
			return nil, err
		}
		open[c] = map[string]int{}
	} else {
		for c := range t.header {
			open[c] = map[string]int{}
		}
	}
	for {
		row, err := t.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if len(nt.rows) == MaxNodes {
			return nil, &BundleError{File: name, Line: t.line, Msg: phrase.New("more than %s nodes", numtext.Group(MaxNodes))}
		}
		if cells += len(row); cells > lim.cells {
			return nil, tooMany(name, t.line, 0, lim, phrase.New("more than %s cells", numtext.Group(lim.cells)))
		}
		for c, seen := range open {
			v := strings.TrimSpace(row[c])
			if first, dup := seen[v]; dup {
				nt.repeats[c] = t.errorf(c, "node %s was listed on line %d already", quote(v), first)
				delete(open, c)
				continue
			}
			seen[v] = t.line
		}
		if len(open) == 0 && named { // no column can name the nodes: blame the likeliest
			return nil, nt.idRepeat()
		}
		nt.keepControls(row, t.fieldPos)
		nt.rows = append(nt.rows, slices.Clone(row))
		nt.lines = append(nt.lines, t.line)
	}
	if len(nt.rows) == 0 {
		return nil, &BundleError{File: name, Msg: phrase.New("no nodes: want a line per node after the header")}
	}
	return nt, nil
}

// columnsApart refuses an id column and a class column that are one (by
// its name and by its number, say): one column cannot both name each node
// and hold their classes; the rows' rule (experiment's Apart) refuses the
// same text given to both before a file is read.
func (nt *nodeTable) columnsApart(cols Columns) error {
	if cols.ID == "" || cols.Target == "" {
		return nil
	}
	id, err := nt.column(cols.ID, "id-column")
	if err != nil {
		return nil // said where the column is looked for
	}
	if class, err := nt.column(cols.Target, "target"); err == nil && class == id {
		return &BundleError{File: nt.file, Line: 1, Column: nt.header[id], Msg: phrase.New("-id-column %s and -target %s (id-column and target in a link) name this one column: a column that names each node once holds no classes, and one that holds classes names no node: name the two columns apart, or leave one out (found from the file)", quote(cols.ID), quote(cols.Target))}
	}
	return nil
}

// column finds a column by its header name or its number from 1.
func (nt *nodeTable) column(name, row string) (int, error) {
	if c := slices.Index(nt.header, name); c >= 0 {
		return c, nil
	}
	if n, err := numtext.ParseInt(name); err == nil && n >= 1 && n <= len(nt.header) {
		return n - 1, nil
	}
	return 0, &BundleError{File: nt.file, Line: 1, Column: name, Msg: phrase.New("no such column (%s names it): the columns are %s, or their numbers 1 to %d",
		row, someOf(nt.quotedHeader()), len(nt.header))}
}

func (nt *nodeTable) quotedHeader() []string {
	out := make([]string, len(nt.header))
	for i, h := range nt.header {
		out[i] = plainOrQuoted(h)
	}
	return out
}

// values returns column c's cells, trimmed.
func (nt *nodeTable) values(c int) []string {
	out := make([]string, len(nt.rows))
	for i, r := range nt.rows {
		out[i] = strings.TrimSpace(r[c])
	}
	return out
}

// unique reports whether column c names each node once.
func (nt *nodeTable) unique(c int) bool {
	vs := nt.values(c)
	slices.Sort(vs)
	return len(slices.Compact(vs)) == len(vs)
}

// isPermutation reports whether column c holds the numbers 0..N−1, each once.
func (nt *nodeTable) isPermutation(c int) bool {
	seen := make([]bool, len(nt.rows))
	for _, v := range nt.values(c) {
		n, err := numtext.ParseInt(v)
		if err != nil || n < 0 || n >= len(seen) || seen[n] {
			return false
		}
		seen[n] = true
	}
	return true
}

// choose finds the id and class columns: those cols names, else the id
// is the one column numbering the nodes 0..N−1 (or the best-named, or the
// first, of those naming each node once), and the class the first column
// named as classes are (target, label, page_type, …) unless it names
// nodes, else the one column whose values make classes.
func (nt *nodeTable) choose(cols Columns) (id, class int, err error) {
	if id, err = nt.chooseID(cols.ID); err != nil {
		return 0, 0, err
	}
	class, err = nt.chooseClass(cols.Target, id)
	return id, class, err
}

func (nt *nodeTable) chooseID(named string) (int, error) {
	c, err := nt.pickID(named)
	if err == nil {
		err = nt.checkIDs(c)
	}
	return c, err
}

// pickID is the id column as its cells' text names the nodes (chooseID).
func (nt *nodeTable) pickID(named string) (int, error) {
	if named != "" {
		c, err := nt.column(named, "id-column")
		if err == nil && !nt.unique(c) {
			err = &BundleError{File: nt.file, Column: nt.header[c], Msg: phrase.New("repeats a value, so it cannot name the nodes (id-column)")}
			if where, ok := nt.repeats[c]; ok {
				err = where // the line it repeats on
			}
		}
		return c, err
	}
	var perms, uniques []int
	for c := range nt.header {
		switch {
		case nt.isPermutation(c):
			perms = append(perms, c)
		case nt.unique(c):
			uniques = append(uniques, c)
		}
	}
	if !nt.named && (len(perms) > 0 && perms[0] == 0 || len(uniques) > 0 && uniques[0] == 0) {
		// Without a header, the first column, naming each node once, as
		// edge lists' labels files and Network Repository's have it: a
		// class column numbered 0..n−1 (a class a node, in a file that
		// labels one node of each) is not taken for the nodes.
		return 0, nil
	}
	if len(perms) == 1 {
		return perms[0], nil
	}
	if c, ok := nt.byName(append(perms, uniques...), idNames); ok {
		return c, nil
	}
	if len(perms) == 0 && len(uniques) > 0 && uniques[0] == 0 {
		return 0, nil // a labels file's first column, as edge lists have it
	}
	if err := nt.namedIDRepeat(); err != nil { // an id column that repeats says so
		return 0, err
	}
	if err, ok := nt.repeats[0]; ok && !nt.named { // so does a headerless file's first column
		return 0, err
	}
	return 0, &BundleError{File: nt.file, Line: 1, Msg: phrase.New("which column names the nodes? name it with -id-column (id-column in a link): the columns are %s", someOf(nt.quotedHeader()))}
}

// namedIDRepeat is the repeat of the column named as ids are (id,
// node_id, …), the best-named first; nil if none repeats.
func (nt *nodeTable) namedIDRepeat() error {
	for _, name := range idNames {
		for c := range nt.header {
			if err, ok := nt.repeats[c]; ok && strings.EqualFold(strings.TrimSpace(nt.header[c]), name) {
				return err
			}
		}
	}
	return nil
}

// idRepeat is the repeat to blame when every column repeats a value: the
// id-named column's, else the first column's (an edge list's labels file
// has its ids first).
func (nt *nodeTable) idRepeat() error {
	if err := nt.namedIDRepeat(); err != nil {
		return err
	}
	for c := range nt.header {
		if err, ok := nt.repeats[c]; ok {
			return err
		}
	}
	return nil
}

// checkIDs refuses the id column c where a file read by pandas has a
// node without an id (a cell pandas reads as missing: the other files
// cannot name it), or where it names a node twice as the other files are
// matched to it (nodeKeys) though its text does not: "01" after "1", 7.0
// after 7. The column is chosen by its text first, as before, so that
// such a repeat is refused at its line, not met by taking another column
// for the ids.
func (nt *nodeTable) checkIDs(c int) error {
	if !nt.numberIDs || len(nt.lines) != len(nt.rows) {
		return nil
	}
	keys := nt.keysOf(c)
	vs := nt.values(c)
	first := make(map[string]int, len(vs))
	for row, v := range vs {
		if IsMissing(v) {
			return &BundleError{File: nt.file, Line: nt.lines[row], Column: nt.header[c], Msg: phrase.New("a node without an id: %s is a missing value to pandas, and the other files name a node by its id: give it one, or leave its line out", quote(v))}
		}
		k := keys.key(v)
		if at, dup := first[k]; dup && keys.numbers {
			return &BundleError{File: nt.file, Line: nt.lines[row], Column: nt.header[c], Msg: phrase.New("node %s was listed on line %d already, as %s: a whole number names one node however it is written", quote(v), nt.lines[at], quote(vs[at]))}
		}
		first[k] = row
	}
	return nil
}

// byName returns the column among cs whose header comes first in names.
func (nt *nodeTable) byName(cs []int, names []string) (int, bool) {
	best, at := -1, len(names)
	for _, c := range cs {
		if i := slices.Index(names, strings.ToLower(strings.TrimSpace(nt.header[c]))); i >= 0 && i < at {
			best, at = c, i
		}
	}
	return best, best >= 0
}

func (nt *nodeTable) chooseClass(named string, id int) (int, error) {
	if nt.bins > 0 {
		return nt.chooseMeasure(named, id)
	}
	if named != "" {
		c, err := nt.column(named, "target")
		if err != nil {
			return 0, err
		}
		if c == id {
			return 0, &BundleError{File: nt.file, Column: nt.header[c], Msg: phrase.New("is the column of node ids; the class must be another (target)")}
		}
		return c, nt.namedClassProblem(c)
	}
	var rest []int
	for c := range nt.header {
		if c != id {
			rest = append(rest, c)
		}
	}
	var namedProblem error // the problem of the best-named column
	for _, name := range classNames {
		c, ok := nt.byName(rest, []string{name})
		if !ok {
			continue
		}
		problem := nt.classProblem(c)
		if problem == nil {
			return c, nil
		}
		if nt.continuous(c) {
			return 0, nt.measureChoice(c, problem)
		}
		namedProblem = cmp.Or(namedProblem, problem)
	}
	var fits []int
	for _, c := range rest {
		if nt.classProblem(c) == nil {
			fits = append(fits, c)
		}
	}
	if c, ok := nt.plainestClass(fits, id); ok {
		return c, nil
	}
	msg := phrase.New("which column is the class? name it with -target (target in a link)")
	if len(fits) == 0 && namedProblem != nil {
		return 0, namedProblem
	}
	if len(fits) == 0 {
		msg = phrase.New("no column holds classes (between 2 and half as many values as nodes): name one with -target (target in a link), or cut a column of numbers into K classes by quantile with -bins K; the columns are %s", someOf(nt.quotedHeader()))
	}
	return 0, nt.columnsError(msg, fits)
}

// plainestClass picks the class among the columns that could be one when
// one stands out: the only one; in a file without a header, the column
// its format's row says (bareClass: the last, as Planetoid's .content
// files have it; the one after the node id, as Network Repository's
// .node_labels have it); or the only one of words among numbers (a
// .content file's class beside its 0/1 features).
func (nt *nodeTable) plainestClass(fits []int, id int) (int, bool) {
	if len(fits) == 1 {
		return fits[0], true
	}
	if !nt.named {
		at := -1
		switch nt.bare {
		case lastClass:
			at = len(nt.header) - 1
		case afterIDClass:
			at = id + 1 // a file of one column (id −1): its first
		}
		if slices.Contains(fits, at) {
			return at, true
		}
	}
	var words []int
	for _, c := range fits {
		if !nt.numericClasses(c) {
			words = append(words, c)
		}
	}
	if len(words) == 1 {
		return words[0], true
	}
	return 0, false
}

// columnsError is a ColumnsError offering the columns cs: named as classes
// are first, then columns of words, then of numbers (a bag of words' 0/1
// columns could each be a class, but seldom are).
func (nt *nodeTable) columnsError(msg phrase.Text, cs []int) *ColumnsError {
	rank := func(c int) int {
		switch {
		case slices.Contains(classNames, strings.ToLower(strings.TrimSpace(nt.header[c]))):
			return 0
		case !nt.numericClasses(c):
			return 1
		}
		return 2
	}
	cs = slices.Clone(cs)
	slices.SortStableFunc(cs, func(a, b int) int { return cmp.Compare(rank(a), rank(b)) })
	e := &ColumnsError{File: nt.file, Header: nt.header, Msg: msg}
	e.Sample = append(e.Sample, nt.rows[:min(5, len(nt.rows))]...)
	for _, c := range cs {
		names, labels := nt.classes(c)
		counts := make([]int, len(names))
		for _, l := range labels {
			if l != NoClass {
				counts[l]++
			}
		}
		e.Choices = append(e.Choices, ClassChoice{Column: nt.header[c], Classes: names, Counts: counts})
	}
	return e
}

// maxNumericClasses is how many distinct numbers a column may hold and
// still be read as classes when nothing else says it holds classes: more,
// and it is a measurement (a page's traffic, a count of days), which the
// explorer cannot classify. Whole numbers that run 0..K-1 (or 1..K), as
// class ids do, are classes however many (up to MaxClasses), and so is a
// column the user names with -target that holds no fractions.
const maxNumericClasses = 100

// measure is what a column of numbers holds that makes it no classes.
type measure int

const (
	notMeasure measure = iota
	fractions          // a value with a fraction: 0.5
	manyWholes         // many whole numbers, not a run of class ids
)

// continuous reports whether column c holds numbers that are no classes.
func (nt *nodeTable) continuous(c int) bool { return nt.measureOf(c) != notMeasure }

// measureOf says whether column c holds measurements: a fraction, or
// more distinct whole numbers than maxNumericClasses that do not run
// 0..K-1 or 1..K.
func (nt *nodeTable) measureOf(c int) measure {
	distinct := map[float64]bool{}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range nt.classCells(c).labelled() {
		f, err := numtext.ParseFloat(v)
		if err != nil {
			return notMeasure
		}
		if f != math.Trunc(f) {
			return fractions
		}
		distinct[f] = true
		lo, hi = min(lo, f), max(hi, f)
	}
	run := (lo == 0 || lo == 1) && hi-lo+1 == float64(len(distinct))
	if len(distinct) > maxNumericClasses && !run {
		return manyWholes
	}
	return notMeasure
}

// namedClassProblem says why column c, which the user named as the
// class, cannot be: whole numbers are classes then, however many.
func (nt *nodeTable) namedClassProblem(c int) error {
	if nt.measureOf(c) == fractions {
		return nt.classProblem(c)
	}
	return nt.countProblem(c)
}

// classProblem says why column c cannot be the class, nil if it can.
func (nt *nodeTable) classProblem(c int) error {
	distinct := nt.classCells(c).distinct()
	col := nt.header[c]
	other := phrase.New("choose a column of classes with -target (target in a link), or cut this one into K classes by quantile with -bins K (bins=K in a link)")
	if len(nt.header) <= 2 {
		other = phrase.New("the file has no other column that could be the class; cut this one into K classes by quantile with -bins K (bins=K in a link)")
	}
	switch nt.measureOf(c) {
	case fractions:
		return &BundleError{File: nt.file, Column: col, Msg: phrase.New("holds fractions (measurements, %s values), not classes: the explorer classifies nodes; %s", numtext.Group(distinct), other)}
	case manyWholes:
		return &BundleError{File: nt.file, Column: col, Msg: phrase.New("holds %s different whole numbers that are not class numbers 0 to K-1: measurements (a count, a page's traffic), not classes; %s, or, if they are classes, name this column as the class", numtext.Group(distinct), other)}
	}
	return nt.countProblem(c)
}

// countProblem says why column c's values, as classes, are too few or
// too many.
func (nt *nodeTable) countProblem(c int) error {
	cc := nt.classCells(c)
	none := cc.unlabelled()
	n := len(nt.rows) - none
	distinct := cc.distinct()
	col := nt.header[c]
	switch {
	case distinct == 0:
		return &BundleError{File: nt.file, Column: col, Msg: phrase.New("no node has a class (all %s are empty, NA, -1 or the format's mark for none): one class leaves nothing to learn, and there is none", numtext.Group(none))}
	case distinct < 2 && none > 0:
		return &BundleError{File: nt.file, Column: col, Msg: phrase.New("holds one class for every node that has one (%s nodes have none): one class leaves nothing to learn", numtext.Group(none))}
	case distinct < 2:
		return &BundleError{File: nt.file, Column: col, Msg: phrase.New("holds one value for every node: one class leaves nothing to learn")}
	case distinct > MaxClasses:
		return &BundleError{File: nt.file, Column: col, Msg: phrase.New("%s classes; at most %d", numtext.Group(distinct), MaxClasses)}
	case n >= 4 && distinct == n || n >= 20 && distinct > n/2:
		if cc.wholeNumbers() { // numbers: perhaps a measurement
			return &BundleError{File: nt.file, Column: col, Msg: phrase.New("holds %d values for %d nodes: it names nodes, not classes (a class needs nodes to learn from and nodes to test on); a measurement can be cut into K classes by quantile with -bins K (bins=K in a link)", distinct, n)}
		}
		return &BundleError{File: nt.file, Column: col, Msg: phrase.New("holds %d values for %d nodes: it names nodes, not classes (a class needs nodes to learn from and nodes to test on)", distinct, n)}
	}
	return nil
}

// classes numbers column c's values as the class builder does
// (classCells.classes), in row order: the classes' names in the order of
// their numbers and each row's class, NoClass where it has none.
func (nt *nodeTable) classes(c int) (names []string, labels []int) {
	return nt.classCells(c).classes()
}

// nodeKeys finds the node another file of the graph names: the one rule
// every reader of a node table's ids matches them by (the features, the
// edges), so that a node is one node however each file writes it. Where
// the format reads ids as numbers (format.numberIDs) and every id of the
// column is a number, as pandas then reads the column (int64 where all are
// whole, else float64), an id is its number (idNumber): "01", "+1" and
// " 1" are node 1 in target.csv, edges.csv and features.json, as MUSAE's
// own readers (pandas, int()) take them, and 7.0 is 7. Else an id is its
// text, trimmed, or exactly as written where the format keeps ids as
// strings (GraphML, GEXF and node-link JSON, read by NetworkX: " 1" and
// "1" are two nodes).
type nodeKeys struct {
	byKey   map[string]int
	numbers bool
	exact   bool
}

// node is the node text names, and whether there is one.
func (k nodeKeys) node(text string) (int, bool) {
	n, ok := k.byKey[k.key(text)]
	return n, ok
}

// allNumbers reports whether the ids are numbers and every cell of a
// first line is one: a line of data, not a header (a header names its
// columns), so that a node missing there is refused at line 1, not read
// as the columns' names and dropped.
func (k nodeKeys) allNumbers(cells ...string) bool {
	for _, c := range cells {
		if _, ok := idNumber(strings.TrimSpace(c)); !ok || !k.numbers {
			return false
		}
	}
	return k.numbers
}

// key is the form of text the nodes are found by.
func (k nodeKeys) key(text string) string {
	if k.exact {
		return text
	}
	text = strings.TrimSpace(text)
	if k.numbers {
		if key, ok := idNumber(text); ok {
			return key
		}
	}
	return text
}

// idNumber is the number an id text writes, as one text for each number: a
// whole number's digits without leading zeros or a plus (of any length,
// as Python's int() reads it; "-0" is 0), else a decimal's value (1.0 and
// 1e0 are 1, as float64 and Python's 1.0 == 1 have them). ok is false for
// text that is no plain decimal number.
func idNumber(text string) (string, bool) {
	digits := strings.TrimPrefix(strings.TrimPrefix(text, "+"), "-")
	if digits != "" && len(digits) >= len(text)-1 && strings.Trim(digits, "0123456789") == "" {
		digits = strings.TrimLeft(digits, "0")
		switch {
		case digits == "":
			return "0", true
		case text[0] == '-':
			return "-" + digits, true
		}
		return digits, true
	}
	v, err := numtext.ParseFloat(text)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return "", false
	}
	if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
		return strconv.FormatInt(int64(v), 10), true
	}
	return strconv.FormatFloat(v, 'g', -1, 64), true
}

// keysOf are column c's ids as nodeKeys compares them, with no nodes yet.
func (nt *nodeTable) keysOf(c int) nodeKeys {
	if nt.exactIDs {
		return nodeKeys{exact: true}
	}
	numbers := nt.numberIDs
	for _, v := range nt.values(c) {
		if !numbers {
			break
		}
		_, numbers = idNumber(v)
		numbers = numbers || IsMissing(v) // a number column to pandas still (float64), its node refused (checkIDs)
	}
	return nodeKeys{numbers: numbers}
}

// nodeIDs maps each id in column c to its node: the id's own number when
// the column numbers the nodes 0..N−1, else the row's order.
func (nt *nodeTable) nodeIDs(c int) (ids nodeKeys, order []int) {
	ids = nt.keysOf(c)
	ids.byKey = make(map[string]int, len(nt.rows))
	order = make([]int, len(nt.rows)) // node → row
	perm := nt.isPermutation(c)
	for row, v := range nt.values(c) {
		node := row
		if perm {
			node, _ = numtext.ParseInt(v)
		}
		if ids.exact {
			v = nt.rows[row][c]
		}
		ids.byKey[ids.key(v)], order[node] = node, row
	}
	return ids, order
}

// fill sets g's nodes and, through the class builder, its classes from
// the table, the nodes numbered by nodeIDs; every node with a class is a
// test node until a split is drawn.
func (nt *nodeTable) fill(g *Graph, id, class int) (ids nodeKeys, order []int, err error) {
	ids, order = nt.nodeIDs(id)
	byRow := nt.classCells(class)
	byNode := byRow
	byNode.cells = make([]string, len(order))
	if byRow.none != nil {
		byNode.none = make([]bool, len(order))
	}
	for node, row := range order {
		byNode.cells[node] = byRow.cells[row]
		if byRow.none != nil {
			byNode.none[node] = byRow.none[row]
		}
	}
	g.N = len(nt.rows)
	if err := setClasses(g, byNode); err != nil {
		return nodeKeys{}, nil, err
	}
	if nt.bins > 0 {
		g.Notes = append(g.Notes, binsNote(nt.header[class], g.ClassCounts()))
	}
	g.Meta["class_column"], g.Meta["id_column"] = nt.header[class], nt.header[id]
	return ids, order, nil
}

// namesUnlessNumbers returns names, or nil when they are just 0..C−1.
func namesUnlessNumbers(names []string) []string {
	for i, n := range names {
		if n != strconv.Itoa(i) {
			return names
		}
	}
	return nil
}

// numericClasses reports whether column c's cells, as classes, are
// numbers: every one with a class a finite number.
func (nt *nodeTable) numericClasses(c int) bool {
	for _, v := range nt.classCells(c).labelled() {
		if _, err := nt.number(v); err != nil {
			return false
		}
	}
	return true
}

// numericColumns are the columns other than skip whose every cell is a
// finite number: a labels file's node features.
func (nt *nodeTable) numericColumns(skip ...int) []int {
	var out []int
	for c := range nt.header {
		if slices.Contains(skip, c) {
			continue
		}
		ok := true
		for _, r := range nt.rows {
			if _, err := nt.number(r[c]); err != nil {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, c)
		}
	}
	return out
}

// denseFeatures sets g's node features to the columns cs, row by node.
func (nt *nodeTable) denseFeatures(g *Graph, cs []int, order []int) {
	g.F = len(cs)
	g.X = make([]float64, 0, g.N*g.F)
	for _, row := range order {
		for _, c := range cs {
			v, _ := nt.number(nt.rows[row][c])
			g.X = append(g.X, v)
		}
	}
	if g.F > 0 && density(g.X) < sparseBelow {
		g.X, g.XS = nil, SparseOf(g.X, g.N, g.F)
	}
}
