package datasets

import (
	"errors"
	"math"
	"slices"
	"strconv"

	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/numtext"
)

// chooseMeasure finds the column of a measured target, which Columns.Bins
// bins into classes: the one named, else the first named as classes are
// (MUSAE Wikipedia's target.csv: id,target, the monthly traffic).
func (nt *nodeTable) chooseMeasure(named string, id int) (int, error) {
	c := -1
	if named != "" {
		var err error
		if c, err = nt.column(named, "target"); err != nil {
			return 0, err
		}
		if c == id {
			return 0, &BundleError{File: nt.file, Column: nt.header[c], Msg: phrase.New("is the column of node ids; the class must be another (target)")}
		}
	} else {
		var rest []int
		for k := range nt.header {
			if k != id {
				rest = append(rest, k)
			}
		}
		var ok bool
		if c, ok = nt.byName(rest, classNames); !ok {
			if len(rest) != 1 {
				return 0, &BundleError{File: nt.file, Line: 1, Msg: phrase.New("which column holds the measurement to bin? name it with -target (target in a link): the columns are %s", someOf(nt.quotedHeader()))}
			}
			c = rest[0]
		}
	}
	return c, nt.measureProblem(c)
}

// measureProblem says why column c cannot be binned into nt.bins classes:
// a cell that is no finite number (a missing one, IsMissing, is a node
// without a class), or fewer distinct values than bins.
func (nt *nodeTable) measureProblem(c int) error {
	distinct := map[float64]bool{}
	cc := nt.classCells(c)
	for i, r := range nt.rows {
		if cc.noClass(i) {
			continue
		}
		v, err := nt.number(r[c])
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return &BundleError{File: nt.file, Line: i + 1 + boolInt(nt.named), Column: nt.header[c],
				Msg: phrase.New("holds %s, which is no number: bins=%d cuts a column of numbers into classes", quote(r[c]), nt.bins)}
		}
		distinct[v] = true
	}
	if len(distinct) == 0 {
		return &BundleError{File: nt.file, Column: nt.header[c],
			Msg: phrase.New("no node has a class (all %s are empty, NA, -1 or the format's mark for none): one class leaves nothing to learn, and there is none", numtext.Group(len(nt.rows)))}
	}
	if len(distinct) < nt.bins {
		return &BundleError{File: nt.file, Column: nt.header[c],
			Msg: phrase.New("holds %s different values, fewer than the %d classes bins asks for; allowed: bins from 2 to %d here", numtext.Group(len(distinct)), nt.bins, len(distinct))}
	}
	if nt.bins < 2 {
		return &BundleError{File: nt.file, Column: nt.header[c], Msg: phrase.New("bins=%d makes one class, which leaves nothing to learn; allowed: 2 to 20", nt.bins)}
	}
	return nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func fmtNum(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }

// QuantileBins numbers each of vals by its quantile bin of k, as pandas'
// qcut(vals, k, duplicates="drop") labels them: the edges are the
// quantiles at j/k, j = 0..k, interpolated linearly between the sorted
// values (numpy's default: rank (n−1)·j/k), and a value's bin is the
// interval (e_j, e_{j+1}] it lies in, the first one closed at its low end.
// Equal edges are one (a run of ties makes one bin); bins are numbered 0..
// without gaps.
func QuantileBins(vals []float64, k int) []int {
	sorted := slices.Clone(vals)
	slices.Sort(sorted)
	var inner []float64 // the edges between the least and the greatest value
	for j := 1; j < k; j++ {
		h := float64(len(sorted)-1) * float64(j) / float64(k)
		lo := int(h)
		e := sorted[lo]
		if lo+1 < len(sorted) {
			e += (h - float64(lo)) * (sorted[lo+1] - sorted[lo])
		}
		if e > sorted[0] && e < sorted[len(sorted)-1] && (len(inner) == 0 || e > inner[len(inner)-1]) {
			inner = append(inner, e)
		}
	}
	out := make([]int, len(vals))
	for i, v := range vals {
		out[i], _ = slices.BinarySearch(inner, v) // the first edge at or above v
	}
	return out
}

// binsNote says how a measurement was binned: into how many classes, of
// how many nodes each (counts, the nodes without a value left out), at the
// least and the most.
func binsNote(column string, counts []int) phrase.Text {
	return phrase.New("the column %s, a measurement, was cut by quantile into %d classes of %s to %s nodes (bins)",
		plainOrQuoted(column), len(counts), numtext.Group(slices.Min(counts)), numtext.Group(slices.Max(counts)))
}

// defaultBins is the classes a measurement is offered cut into, as
// Geom-GCN cut Wikipedia's traffic.
const defaultBins = 5

// measureChoice is the error of a class column that holds measurements:
// problem, as a ColumnsError offering the column cut by quantile into
// defaultBins classes (the page's chooser shows it as a button), where
// its values allow as many.
func (nt *nodeTable) measureChoice(c int, problem error) error {
	var be *BundleError
	if !errors.As(problem, &be) {
		return problem
	}
	cut := *nt
	cut.bins = defaultBins
	if cut.measureProblem(c) != nil {
		return problem
	}
	names, labels := cut.classes(c)
	counts := make([]int, len(names))
	for _, l := range labels {
		if l != NoClass {
			counts[l]++
		}
	}
	e := &ColumnsError{File: nt.file, Header: nt.header, Msg: phrase.New("column %s: %s", plainOrQuoted(nt.header[c]), be.Msg)}
	e.Sample = append(e.Sample, nt.rows[:min(5, len(nt.rows))]...)
	e.Choices = []ClassChoice{{Column: nt.header[c], Classes: names, Counts: counts, Bins: defaultBins}}
	return e
}
