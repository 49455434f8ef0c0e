package datasets

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/input"
	"pdnexplorer/internal/numtext"
)

// The class builder: the one place a graph read from files gets its
// classes (Labels, C, ClassNames) and the one rule for a node without one.
// Every reader hands it the class cells it found, one a node, and the
// nodes its format marks unlabelled in its own way; internal/rules fails
// on a reader that sets a graph's classes anywhere else.
//
// A class cell means "no class" (IsNoClass) when, trimmed, it is one of
// pandas' default missing values (naValues: '', NA, NaN, null, None, …),
// as read_csv reads them, or -1, the class PyG's and DGL's label arrays
// give an unlabelled node. A format's own mark counts too: GraphML data
// missing for the class key that declares no <default> (a default is a
// class), OGB's nan, a bundle's label -1 with the split "unlabelled". A
// measurement cut into classes by quantile (Columns.Bins) is missing where
// its cell is one of naValues; -1 is a number there.
//
// A node without a class keeps its place in the graph (its edges carry
// messages) with the label NoClass and the split Unlabelled: never a class,
// never trained, validated or tested on, never drawn by ShotSplit, counted
// in no class, quantile, homophily or edge kind. A note says how many.

// NoClass is the label of a node without a class, as PyG's y has it.
const NoClass = -1

// naValues are the cells pandas' read_csv reads as missing by default
// (its na_values when keep_default_na is true).
var naValues = []string{"", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN", "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null"}

// MissingValues are the cells read as a missing value (IsMissing), in
// order: the exported script (pyg's run_pyg.py) is given this list to read
// a bundle's labels by the same rule.
func MissingValues() []string { return slices.Clone(naValues) }

// IsMissing reports whether a cell, trimmed of spaces, says its value is
// missing: one of pandas' default missing values.
func IsMissing(cell string) bool { return slices.Contains(naValues, strings.TrimSpace(cell)) }

// IsNoClass reports whether a class cell says its node has no class: a
// missing value (IsMissing) or the number -1.
func IsNoClass(cell string) bool {
	if IsMissing(cell) {
		return true
	}
	v, err := numtext.ParseFloat(strings.TrimSpace(cell))
	return err == nil && v == NoClass
}

// classCells is what a reader hands the class builder.
type classCells struct {
	file, column string   // where the cells are, for notes and errors
	cells        []string // each node's class cell, in node order
	// none marks the nodes the format itself says have no class, whatever
	// their cell (GraphML data left out with no default); nil if none.
	none []bool
	// numbered says the cells are class numbers 0..C-1, kept as they are
	// (a bundle's label, OGB's node-label: their names and splits refer to
	// them), where other cells name classes, numbered in order.
	numbered   bool
	minClasses int      // numbered: at least this many classes (meta.json's classes)
	names      []string // numbered: the classes' names, where the format has them
	namesFile  string   // numbered: the file names come from (meta.json), for messages
	namesKey   string   // and its key (class_names), if it is JSON
	// bins, above 0, says the cells are a measurement, cut by quantile into
	// this many classes; commaPoint, that its numbers may write their
	// point as a comma (a file of semicolons).
	bins       int
	commaPoint bool
	// at is where cell i is (line, column), for a cell the class builder
	// refuses; nil, or 0, 0, where the reader does not know.
	at func(i int) (line, col int)
}

// noClass reports whether node i has no class.
func (cc classCells) noClass(i int) bool {
	switch {
	case cc.none != nil && cc.none[i]:
		return true
	case cc.bins > 0:
		return IsMissing(cc.cells[i])
	}
	return IsNoClass(cc.cells[i])
}

// unlabelled counts the nodes without a class.
func (cc classCells) unlabelled() int {
	n := 0
	for i := range cc.cells {
		if cc.noClass(i) {
			n++
		}
	}
	return n
}

// labelled returns the class each node that has one names (cc.key).
func (cc classCells) labelled() []string {
	var out []string
	numbers := cc.decimals()
	for i, c := range cc.cells {
		if !cc.noClass(i) {
			out = append(out, numberKey(classKey(c), numbers))
		}
	}
	return out
}

// decimals reports whether every class a node has is a decimal number: a
// column of numbers, whose classes are numbers (1 and 1.0 one class, as
// pandas reads such a column).
func (cc classCells) decimals() bool {
	any := false
	for i, c := range cc.cells {
		if cc.noClass(i) {
			continue
		}
		if _, err := numtext.ParseFloat(classKey(c)); err != nil {
			return false
		}
		any = true
	}
	return any
}

// numberKey is a class's key in a column of numbers: the number as Go
// writes it shortest (1.0 and 1 are 1; 2e1 is 20); key as it is otherwise.
func numberKey(key string, numbers bool) string {
	if !numbers {
		return key
	}
	v, err := numtext.ParseFloat(key)
	if err != nil {
		return key
	}
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// classKey is the class a cell names: trimmed, its invisible characters
// (zero-width spaces and joiners, a byte-order mark, soft hyphens:
// Unicode's format characters) left out, in Unicode's composed form (NFC).
// "café" typed as one letter é and as e with a combining accent, or with
// a zero-width space a copy and paste brought, is one class, as a reader
// of the legend sees it; respelled says a cell was not already so written.
func classKey(cell string) string {
	t := strings.TrimSpace(cell)
	if isPlain(t) {
		return t
	}
	return norm.NFC.String(strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, t))
}

// isPlain says s is ASCII, which classKey leaves as it is.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// respelled counts the cells with a class whose text classKey changed
// beyond trimming.
func (cc classCells) respelled() int {
	n := 0
	for i, c := range cc.cells {
		if !cc.noClass(i) && classKey(c) != strings.TrimSpace(c) {
			n++
		}
	}
	return n
}

// distinct counts the different classes the cells name.
func (cc classCells) distinct() int {
	vs := cc.labelled()
	slices.Sort(vs)
	return len(slices.Compact(vs))
}

// wholeNumbers reports whether every cell with a class is a whole number.
func (cc classCells) wholeNumbers() bool {
	for _, v := range cc.labelled() {
		if _, err := numtext.ParseInt(v); err != nil {
			return false
		}
	}
	return true
}

// classes numbers the classes: labels[i] is node i's class, NoClass if it
// has none, and names the classes in the order of their numbers. Named
// cells are numbered by their values, in numeric order when all are whole
// numbers, else in name order; numbered cells keep their numbers; a
// measurement is cut into bins by quantile, each named by its range.
func (cc classCells) classes() (names []string, labels []int) {
	switch {
	case cc.bins > 0:
		return cc.binned()
	case cc.numbered:
		return cc.numbers()
	}
	numbers := cc.decimals()
	names = cc.labelled()
	slices.SortFunc(names, func(a, b string) int {
		if numbers {
			x, _ := numtext.ParseFloat(a)
			y, _ := numtext.ParseFloat(b)
			return cmp.Compare(x, y)
		}
		return strings.Compare(a, b)
	})
	names = slices.Compact(names)
	at := make(map[string]int, len(names))
	for i, n := range names {
		at[n] = i
	}
	labels = make([]int, len(cc.cells))
	for i, v := range cc.cells {
		labels[i] = NoClass
		if !cc.noClass(i) {
			labels[i] = at[numberKey(classKey(v), numbers)]
		}
	}
	return names, labels
}

// numbers reads numbered cells, which the reader has checked.
func (cc classCells) numbers() (names []string, labels []int) {
	c := cc.minClasses
	labels = make([]int, len(cc.cells))
	for i, v := range cc.cells {
		labels[i] = NoClass
		if !cc.noClass(i) {
			labels[i], _ = numtext.ParseInt(strings.TrimSpace(v))
			c = max(c, labels[i]+1)
		}
	}
	if len(cc.names) >= c {
		return cc.names[:c], labels // the labels decide the classes
	}
	return nil, labels
}

// binned cuts the measurement into cc.bins classes at its quantiles
// (QuantileBins, pandas' qcut), the missing cells left out, as Geom-GCN
// binned Chameleon's and Squirrel's traffic: equal values share a class,
// and classes are about equal in size. Each class is named by the range of
// its values.
func (cc classCells) binned() (names []string, labels []int) {
	var vals []float64
	var at []int // the node of each value
	for i, cell := range cc.cells {
		if !cc.noClass(i) {
			v, _ := numberCell(cell, cc.commaPoint) // measureProblem read each already
			vals, at = append(vals, v), append(at, i)
		}
	}
	labels = make([]int, len(cc.cells))
	for i := range labels {
		labels[i] = NoClass
	}
	if len(vals) == 0 {
		return nil, labels
	}
	bins := QuantileBins(vals, cc.bins)
	lo, hi := make([]float64, cc.bins), make([]float64, cc.bins)
	for k := range lo {
		lo[k], hi[k] = math.Inf(1), math.Inf(-1)
	}
	used := 0
	for j, l := range bins {
		labels[at[j]] = l
		lo[l], hi[l] = min(lo[l], vals[j]), max(hi[l], vals[j])
		used = max(used, l+1)
	}
	for k := range used {
		names = append(names, fmtNum(lo[k])+"–"+fmtNum(hi[k]))
	}
	return names, labels
}

// numberCell reads a cell as a number: a decimal, or, where decimalComma,
// one comma for the point.
func numberCell(cell string, decimalComma bool) (float64, error) {
	cell = strings.TrimSpace(cell)
	v, err := numtext.ParseFloat(cell)
	if err != nil && decimalComma && strings.Count(cell, ",") == 1 && !strings.Contains(cell, ".") {
		return numtext.ParseFloat(strings.Replace(cell, ",", ".", 1))
	}
	return v, err
}

// setClasses is the class builder: it gives g, whose N nodes and splits
// are set (nil splits: every node a test node until a split is drawn),
// its labels, classes and class names from cc, puts the nodes without a
// class in the Unlabelled split and says how many there are. It refuses
// cells that leave fewer than two classes once those nodes are out (one
// class leaves nothing to learn), naming how many have none.
func setClasses(g *Graph, cc classCells) error {
	if err := cc.namesOnOneLine(); err != nil {
		return err
	}
	if !cc.numbered && cc.bins == 0 {
		if err := cc.numbersThroughout(); err != nil {
			return err
		}
	}
	names, labels := cc.classes()
	none := 0
	for _, l := range labels {
		if l == NoClass {
			none++
		}
	}
	c := len(names)
	if cc.numbered {
		c = cc.minClasses
		for _, l := range labels {
			c = max(c, l+1)
		}
	}
	if err := cc.enoughClasses(labels, none); err != nil {
		return err
	}
	if err := cc.namesEachOnce(c); err != nil {
		return err
	}
	if g.Splits == nil {
		g.Splits = make([]Split, len(labels))
		for i := range g.Splits {
			g.Splits[i] = Test
		}
	}
	for i, l := range labels {
		if l == NoClass {
			g.Splits[i] = Unlabelled
		}
	}
	g.Labels, g.C = labels, c
	g.ClassNames = names
	if !cc.numbered && cc.bins == 0 {
		g.ClassNames = namesUnlessNumbers(names)
	}
	if none > 0 {
		g.Notes = append(g.Notes, phrase.New("%s: %s nodes have no class (empty, NA, -1…): they stay in the graph, not trained or tested on", cc.where(), numtext.Group(none)))
	}
	if n := cc.respelled(); n > 0 && !cc.numbered && cc.bins == 0 {
		g.Notes = append(g.Notes, phrase.New("%s: %s class names were written with invisible characters or in Unicode's decomposed form (e and a combining accent for é): each was read as the class it spells", cc.where(), numtext.Group(n)))
	}
	return nil
}

// numbersThroughout refuses a column of class numbers with a few cells
// that are no plain decimal number ("0x1", "１", "−1" with a Unicode minus,
// "?", "unknown"): each would be a class of its own, as pandas would read
// the column as text, where the writer most likely meant a number or no
// class. A column is of numbers when its classes are numbers but for
// fewer than there are numbers.
func (cc classCells) numbersThroughout() error {
	var numbers, odd []string
	count := map[string]int{}
	first := -1 // the first node of a class that is no number
	for i, c := range cc.cells {
		if cc.noClass(i) {
			continue
		}
		key := classKey(c)
		if count[key]++; count[key] > 1 {
			continue
		}
		if _, err := numtext.ParseFloat(key); err == nil {
			numbers = append(numbers, key)
		} else {
			odd = append(odd, key)
			if first < 0 {
				first = i
			}
		}
	}
	if len(odd) == 0 || len(numbers) < 2 || len(odd) >= len(numbers) {
		return nil
	}
	slices.Sort(odd)
	var shown []phrase.Text
	for _, o := range odd[:min(len(odd), 3)] {
		if count[o] == 1 {
			shown = append(shown, phrase.New("%s (1 node)", strconv.Quote(o)))
		} else {
			shown = append(shown, phrase.New("%s (%s nodes)", strconv.Quote(o), numtext.Group(count[o])))
		}
	}
	list := phrase.List(", ", shown)
	if len(odd) > 3 {
		list = phrase.New("%s and %d more", list, len(odd)-3)
	}
	e := &BundleError{File: cc.file, Column: cc.column}
	if cc.at != nil {
		e.Line, e.Col = cc.at(first)
	}
	if len(odd) == 1 {
		e.Msg = phrase.New("holds class numbers, but also %s, which is not a plain decimal number and would be a class of its own: write a class as a number (1, not 0x1, １ or −1), or leave a node without a class empty (or NA)", list)
		return e
	}
	e.Msg = phrase.New("holds class numbers, but also %s, which are not plain decimal numbers and would each be a class of its own: write a class as a number (1, not 0x1, １ or −1), or leave a node without a class empty (or NA)", list)
	return e
}

// namesOnOneLine refuses a class name holding a control character (a
// line break a quoted cell or an XML character reference brought, a tab):
// a class's name is shown on one line, in notes, the legend and messages,
// and one holding a line break would split the note it is in.
func (cc classCells) namesOnOneLine() error {
	refuse := func(name string) phrase.Text {
		i := strings.IndexFunc(name, unicode.IsControl)
		r, _ := utf8.DecodeRuneInString(name[i:])
		return phrase.New("the class name %s holds %s, a control character: a class's name is shown on one line (in notes, the legend and messages): take it out (a line break in a quoted cell joins two lines into one), save it, and open it again", quote(name), input.RuneName(r))
	}
	for i, c := range cc.cells {
		if cc.noClass(i) || !hasControl(classKey(c)) {
			continue
		}
		line, col := 0, 0
		if cc.at != nil {
			line, col = cc.at(i)
		}
		return &BundleError{File: cc.file, Line: line, Col: col, Column: cc.column, Msg: refuse(classKey(c))}
	}
	for _, name := range cc.names {
		if hasControl(classKey(name)) {
			return &BundleError{File: cc.namesFile, Key: cc.namesKey, Msg: refuse(classKey(name))}
		}
	}
	return nil
}

// where names the cells' file and column, for a message.
func (cc classCells) where() string {
	if cc.column == "" {
		return cc.file
	}
	return cc.file + ", column " + plainOrQuoted(cc.column)
}

// enoughClasses refuses labels that leave no class, or only one, once the
// nodes without a class are out. A file of one class and no unlabelled
// node is the reader's to judge (a bundle may hold one).
func (cc classCells) enoughClasses(labels []int, none int) error {
	if none == 0 {
		return nil
	}
	seen := map[int]bool{}
	for _, l := range labels {
		if l != NoClass {
			seen[l] = true
		}
	}
	switch len(seen) {
	case 0:
		return &BundleError{File: cc.file, Column: cc.column, Msg: phrase.New("no node has a class (all %s are empty, NA, -1 or the format's mark for none): one class leaves nothing to learn, and there is none", numtext.Group(none))}
	case 1:
		return &BundleError{File: cc.file, Column: cc.column, Msg: phrase.New("holds one class for every node that has one (%s nodes have none): one class leaves nothing to learn", numtext.Group(none))}
	}
	return nil
}

// namesEachOnce refuses names, given for c numbered classes, that leave a
// class without a name or give two classes one: a class shown by a name
// another shares, or by its number among names, could not be told apart.
// Names beyond c are refused as well: they name no class the labels
// hold, and a name left out without a word may be the one shifted (a
// class dropped from the list's middle).
func (cc classCells) namesEachOnce(c int) error {
	if !cc.numbered || cc.names == nil {
		return nil
	}
	if len(cc.names) != c {
		return &BundleError{File: cc.namesFile, Key: cc.namesKey, Msg: phrase.New("names %d classes, and %s's labels hold %d (0 to %d): name every class, in the order of their numbers, or leave the names out", len(cc.names), cc.file, c, c-1)}
	}
	first := map[string]int{} // by classKey: names spelled alike are one name
	for k, name := range cc.names[:c] {
		name = classKey(name)
		if name == "" {
			return &BundleError{File: cc.namesFile, Key: cc.namesKey, Msg: phrase.New("gives class %d no name: name every class, or leave the names out", k)}
		}
		if j, twice := first[name]; twice {
			return &BundleError{File: cc.namesFile, Key: cc.namesKey, Msg: phrase.New("names classes %d and %d both %s, so the two could not be told apart: give each class a name of its own", j, k, quote(name))}
		}
		first[name] = k
	}
	return nil
}

// Unlabelled counts g's nodes without a class.
func (g *Graph) Unlabelled() int {
	n := 0
	for _, l := range g.Labels {
		if l == NoClass {
			n++
		}
	}
	return n
}

// ClassCounts counts g's nodes in each class; the nodes without one count
// in none.
func (g *Graph) ClassCounts() []int {
	counts := make([]int, g.C)
	for _, l := range g.Labels {
		if l >= 0 && l < g.C {
			counts[l]++
		}
	}
	return counts
}
