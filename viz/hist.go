package viz

import (
	"html"
	"math"
	"strconv"
)

// Group is one set of values for a histogram.
type Group struct {
	Name   string
	Color  string
	Values []float64
}

// Histogram draws the values of each group, all in [0, 1], in bins of equal
// width, as side-by-side bars. Each bar is the share of its own group, so
// groups of very different sizes compare by shape.
func Histogram(w, h int, title, xlabel string, bins int, groups ...Group) string {
	t := typeFor(w, h)
	entries := make([]legendEntry, len(groups))
	for g, gr := range groups {
		entries[g] = legendEntry{gr.Name, gr.Color, markBox}
	}
	p, h := t.plotIn(w, h, title, t.legendRows(entries, float64(w)-t.f(padLeft)-t.f(padRight)), 0)
	c := newCanvas(w, h, title)
	p.x0, p.x1, p.y0 = 0, 1, 0
	shares := make([][]float64, len(groups))
	top := 0.0
	for g, gr := range groups {
		shares[g] = make([]float64, bins)
		n := 0
		for _, v := range gr.Values {
			if math.IsNaN(v) {
				continue
			}
			shares[g][max(0, min(bins-1, int(v*float64(bins))))]++
			n++
		}
		for b := range shares[g] {
			if n > 0 {
				shares[g][b] /= float64(n)
			}
			top = math.Max(top, shares[g][b])
		}
	}
	p.y1 = math.Max(top, 0.01)
	c.Rect(0, 0, w, h, `fill="#ffffff"`)
	p = frame(c, t, p, Axes{Title: title, XLabel: xlabel}, w, h)
	binW := (p.right - p.left) / float64(bins)
	barW := binW * 0.9 / float64(max(1, len(groups)))
	for g, gr := range groups {
		for b, s := range shares[g] {
			if s == 0 {
				continue
			}
			x := p.left + float64(b)*binW + binW*0.05 + float64(g)*barW
			y := p.py(s)
			c.buf.WriteString(`<rect class="bar" data-group="` + gr.Name + `" data-bin="` + strconv.Itoa(b) + `" x="` + f1(x) + `" y="` + f1(y) +
				`" width="` + f1(barW) + `" height="` + f1(p.bottom-y) + `" fill="` + gr.Color + `"/>`)
		}
	}
	t.drawLegend(c, entries, p.left, t.legendTop(title, w), p.right-p.left)
	return c.inline()
}

// Bars draws one bar per labelled value in [0, 1]: the linear PDN's
// attention over its inputs, or the multi-scale PDN's weight per hop.
// Each label is written under its bar, wrapped to its slot; where a word
// of one is wider than its slot, every label is turned a quarter-turn
// less 45°, reading up to its bar, so none runs into its neighbour's.
func Bars(w, h int, title, xlabel string, labels []string, values []float64, color string) string {
	t := typeFor(w, h)
	n := max(1, len(values))
	slot := (float64(w) - t.f(padLeft) - t.f(padRight)) / float64(n)
	lines, under, turned := t.barLabels(labels, slot)
	left := t.f(padLeft)
	switch {
	case n > 24:
		lines, under, turned = nil, 0, false // too many to name
	case turned && len(labels) > 0:
		// The first label, turned, reaches left of its bar by its
		// length's run at 45°: the margin holds it.
		left = math.Max(left, textWidth(labels[0], t.f(10))*math.Sqrt2/2-slot*0.5+t.f(10))
		slot = (float64(w) - left - t.f(padRight)) / float64(n)
	}
	p, h := t.plotIn(w, h, title, 0, under)
	p.left = left
	c := newCanvas(w, h, title)
	top := 0.0
	for _, v := range values {
		top = math.Max(top, v)
	}
	c.Rect(0, 0, w, h, `fill="#ffffff"`)
	t.title(c, title, w)
	yt, _, y1 := niceTicks(0, math.Max(top, 0.01), 4)
	p.y0, p.y1 = 0, y1
	for _, y := range yt {
		yy := p.py(y)
		c.buf.WriteString(`<line x1="` + f1(p.left) + `" y1="` + f1(yy) + `" x2="` + f1(p.right) + `" y2="` + f1(yy) + `" stroke="#e4e4e4"/>`)
		c.Text(int(p.left-t.f(4)), int(yy+t.f(4)), tickLabel(y), t.size(10), `text-anchor="end"`, `fill="#555"`)
	}
	for i, v := range values {
		x := p.left + float64(i)*slot + slot*0.15
		y := p.py(math.Max(0, v))
		c.buf.WriteString(`<rect class="bar" data-label="` + html.EscapeString(labels[i]) + `" x="` + f1(x) + `" y="` + f1(y) + `" width="` + f1(slot*0.7) +
			`" height="` + f1(p.bottom-y) + `" fill="` + color + `"/>`)
		if i >= len(lines) {
			continue
		}
		mid := int(x + slot*0.35)
		if turned {
			ly := int(p.bottom + t.f(8))
			c.Text(mid, ly, lines[i][0], t.size(10), `text-anchor="end"`, `fill="#555"`,
				`transform="rotate(-45 `+strconv.Itoa(mid)+` `+strconv.Itoa(ly)+`)"`)
			continue
		}
		for k, line := range lines[i] {
			c.Text(mid, int(p.bottom+t.f(14)+float64(k)*t.f(12)), line, t.size(10), `text-anchor="middle"`, `fill="#555"`)
		}
	}
	c.buf.WriteString(`<rect x="` + f1(p.left) + `" y="` + f1(p.top) + `" width="` + f1(p.right-p.left) + `" height="` + f1(p.bottom-p.top) + `" fill="none" stroke="#999"/>`)
	c.Text(int((float64(w)+p.left)/2), h-t.n(4), xlabel, t.size(11), `text-anchor="middle"`, `fill="#333"`)
	return c.inline()
}

// barLabels are the labels under bars slot units apart, each in its
// lines, the room they need below the plot beyond a line's, and whether
// they are turned (a word wider than its slot): a turned label is one
// line, and needs its length's drop at 45°.
func (t typeset) barLabels(labels []string, slot float64) (lines [][]string, under float64, turned bool) {
	lines = make([][]string, len(labels))
	rows := 1
	for i, l := range labels {
		lines[i] = wrapText(l, t.f(10), slot*0.95, 3)
		rows = max(rows, len(lines[i]))
		for _, line := range lines[i] {
			turned = turned || textWidth(line, t.f(10)) > slot*0.95
		}
	}
	if !turned {
		return lines, float64(rows-1) * t.f(12), false
	}
	longest := 0.0
	for i, l := range labels {
		lines[i] = []string{l}
		longest = math.Max(longest, textWidth(l, t.f(10)))
	}
	return lines, math.Max(0, longest*math.Sqrt2/2-t.f(6)), true
}
