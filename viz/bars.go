package viz

import (
	"html"
	"math"
	"strconv"
	"strings"
)

// BarSeries is one model (or one data set) across the groups of a grouped
// bar chart: its mean in each group, the standard deviation drawn as a
// whisker, and a reference value (the paper's) drawn as a tick, NaN for none.
type BarSeries struct {
	Name      string
	Color     string
	Mean, SD  []float64
	Reference []float64
}

// GroupedBars draws a bar per series in each group, with whiskers and
// reference ticks and a legend: Table 4 (models by data set) and Figure 8
// (data sets by tie-strength score). The y axis starts at yMin (0 for
// attention, higher for accuracies that differ by a few points).
func GroupedBars(tr func(string) string, w, h int, title, ylabel string, yMin float64, groups []string, series ...BarSeries) string {
	t := typeFor(w, h)
	entries := make([]legendEntry, len(series))
	for i, s := range series {
		entries[i] = legendEntry{s.Name, s.Color, markBox}
	}
	left := t.f(padLeft + 10)
	slot := (float64(w) - t.f(padRight) - left) / float64(max(len(groups), 1))
	// The groups' names under their bars, each at most its slot wide: the
	// longest name's rows, and the note under them, decide the bottom.
	names := make([][]string, len(groups))
	rows := 1
	for g, name := range groups {
		names[g] = wrapText(name, t.f(10), slot*0.95, 2)
		rows = max(rows, len(names[g]))
	}
	// The note tells only what is drawn (bars without a spread have no
	// whiskers to explain), in as many lines as the width asks.
	var notes []string
	if hasReference(series) {
		notes = append(notes, tr("dashes: the paper's value"))
	}
	if hasSpread(series) {
		notes = append(notes, tr("whiskers: ±1 SD"))
	}
	var noteLines []string
	if len(notes) > 0 {
		noteLines = wrapText(strings.Join(notes, "; "), t.f(10), float64(w)-t.f(padRight)-t.f(8), 4)
	}
	p, h := t.plotIn(w, h, title, t.legendRows(entries, float64(w)-left-t.f(padRight)), t.f(14)+float64(rows-1+max(len(noteLines)-1, 0))*t.f(12))
	p.left, p.x0, p.x1, p.y0, p.y1 = left, 0, 1, yMin, yMin
	c := newCanvas(w, h, title)
	for _, s := range series {
		for i, m := range s.Mean {
			top := m
			if i < len(s.SD) && finite(s.SD[i]) {
				top += s.SD[i]
			}
			if i < len(s.Reference) && finite(s.Reference[i]) {
				top = math.Max(top, s.Reference[i])
			}
			if finite(top) {
				p.y1 = math.Max(p.y1, top)
			}
		}
	}
	p.y1 = yMin + niceCeil(math.Max(p.y1-yMin, 0.01))
	c.Rect(0, 0, w, h, `fill="#ffffff"`)
	t.title(c, title, w)
	yt, _, _ := niceTicks(p.y0, p.y1, 4)
	for _, y := range yt {
		if y < p.y0-1e-9 || y > p.y1+1e-9 { // the ticks' round range may pass the axis's
			continue
		}
		yy := p.py(y)
		c.buf.WriteString(`<line x1="` + f1(p.left) + `" y1="` + f1(yy) + `" x2="` + f1(p.right) + `" y2="` + f1(yy) + `" stroke="#e4e4e4"/>`)
		c.Text(int(p.left-t.f(4)), int(yy+t.f(4)), tickLabel(y), t.size(10), `text-anchor="end"`, `fill="#555"`)
	}
	bar := slot * 0.8 / float64(max(len(series), 1))
	for g, name := range groups {
		x0 := p.left + float64(g)*slot + slot*0.1
		for k, s := range series {
			if g >= len(s.Mean) || !finite(s.Mean[g]) {
				continue
			}
			x := x0 + float64(k)*bar
			y := p.py(math.Max(s.Mean[g], p.y0))
			c.Rect(int(math.Round(x)), int(math.Round(y)), max(1, int(bar)-1), max(0, int(math.Round(p.bottom-y))),
				`fill="`+html.EscapeString(s.Color)+`"`, `data-series="`+html.EscapeString(s.Name)+`"`, `data-group="`+html.EscapeString(name)+`"`, `data-value="`+strconv.FormatFloat(s.Mean[g], 'g', 6, 64)+`"`)
			mid := int(math.Round(x + bar/2))
			if g < len(s.SD) && finite(s.SD[g]) && s.SD[g] > 0 {
				lo, hi := math.Max(s.Mean[g]-s.SD[g], p.y0), math.Min(s.Mean[g]+s.SD[g], p.y1) // within the frame
				c.Line(mid, int(math.Round(p.py(lo))), mid, int(math.Round(p.py(hi))), `stroke="#222"`)
			}
			if g < len(s.Reference) && finite(s.Reference[g]) {
				ry := int(math.Round(p.py(s.Reference[g])))
				c.Line(int(math.Round(x)), ry, int(math.Round(x+bar))-1, ry, `stroke="#222"`, `stroke-width="2"`, `stroke-dasharray="2,1"`)
			}
		}
		for k, line := range names[g] {
			c.Text(int(math.Round(x0+slot*0.4)), int(p.bottom+t.f(14)+float64(k)*t.f(12)), line, t.size(10), `text-anchor="middle"`, `fill="#333"`)
		}
	}
	c.Rect(int(p.left), int(p.top), int(p.right-p.left), int(p.bottom-p.top), `fill="none"`, `stroke="#999"`)
	mid := strconv.Itoa(int(p.top+p.bottom) / 2)
	c.Text(t.n(12), int(p.top+p.bottom)/2, ylabel, t.size(11), `text-anchor="middle"`, `fill="#333"`,
		`transform="rotate(-90 `+strconv.Itoa(t.n(12))+` `+mid+`)"`)
	t.drawLegend(c, entries, p.left, t.legendTop(title, w), p.right-p.left)
	for k, line := range noteLines {
		y := float64(h-t.n(4)) - float64(len(noteLines)-1-k)*t.f(12)
		c.Text(int(float64(w)-t.f(padRight)), int(y), line, t.size(10), `text-anchor="end"`, `fill="#555"`)
	}
	return c.inline()
}

// hasSpread reports whether any series has a standard deviation to draw.
func hasSpread(series []BarSeries) bool {
	for _, s := range series {
		for _, sd := range s.SD {
			if sd > 0 {
				return true
			}
		}
	}
	return false
}

// hasReference reports whether any series has a reference value to draw.
func hasReference(series []BarSeries) bool {
	for _, s := range series {
		for _, r := range s.Reference {
			if finite(r) {
				return true
			}
		}
	}
	return false
}
