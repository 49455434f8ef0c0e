package viz

import (
	"html"
	"math"
	"strconv"
	"strings"
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
	c := newCanvas(w, h, title)
	t := typeFor(w, h)
	entries := make([]legendEntry, len(groups))
	for g, gr := range groups {
		entries[g] = legendEntry{gr.Name, gr.Color, markBox}
	}
	p := t.plotArea(w, h, title, t.legendRows(entries, float64(w)-t.f(padLeft)-t.f(padRight)))
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
func Bars(w, h int, title, xlabel string, labels []string, values []float64, color string) string {
	c := newCanvas(w, h, title)
	t := typeFor(w, h)
	n := max(1, len(values))
	// The labels under the bars, each at most its slot wide: the longest
	// label's rows of text decide the bottom margin.
	p := t.plotArea(w, h, title, 0)
	slot := (p.right - p.left) / float64(n)
	lines := make([][]string, len(labels))
	rows := 1
	for i, l := range labels {
		lines[i] = wrapLabel(l, int(slot/t.f(6)))
		rows = max(rows, len(lines[i]))
	}
	p.bottom -= float64(rows-1) * t.f(12)
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
		if n <= 24 {
			for k, line := range lines[i] {
				c.Text(int(x+slot*0.35), int(p.bottom+t.f(14)+float64(k)*t.f(12)), line, t.size(10), `text-anchor="middle"`, `fill="#555"`)
			}
		}
	}
	c.buf.WriteString(`<rect x="` + f1(p.left) + `" y="` + f1(p.top) + `" width="` + f1(p.right-p.left) + `" height="` + f1(p.bottom-p.top) + `" fill="none" stroke="#999"/>`)
	c.Text(int((float64(w)+p.left)/2), h-t.n(4), xlabel, t.size(11), `text-anchor="middle"`, `fill="#333"`)
	return c.inline()
}

// wrapLabel splits a label at its spaces into lines of about width
// characters (at least one word a line), at most three.
func wrapLabel(label string, width int) []string {
	words := strings.Fields(label)
	var lines []string
	for _, w := range words {
		if n := len(lines); n > 0 && len([]rune(lines[n-1]))+1+len([]rune(w)) <= width {
			lines[n-1] += " " + w
			continue
		}
		lines = append(lines, w)
	}
	if len(lines) > 3 {
		lines = append(lines[:2], strings.Join(lines[2:], " "))
	}
	if len(lines) == 0 {
		lines = []string{""}
	}
	return lines
}
