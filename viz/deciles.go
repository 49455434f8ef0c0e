package viz

import (
	"html"
	"math"
	"strings"
)

// DecileGroup is one distribution in [0, 1] given by its deciles: the 0th,
// 10th, …, 100th percentiles, lowest first (any other count draws its
// name alone).
type DecileGroup struct {
	Name, Color string
	Deciles     []float64
}

// DecileStrips draws each group as a strip across a shared axis from 0 to
// 1, one under the other with its name above it: a line from the least to
// the greatest value, a light box over the middle 80% (10th to 90th
// percentile), a darker one over the middle 40% (30th to 70th), a tick at
// every decile and a black bar at the median. Two strips that overlap are
// two distributions alike; a strip far left of the other weighs less. The
// figure is w units wide, its axis where the histogram's of the same width
// is, and as tall as its text at the legibility in force needs: a row
// never shrinks under its name.
func DecileStrips(w int, title, xlabel string, groups ...DecileGroup) string {
	t := typeFor(w, 0)
	label, strip := t.f(17), t.f(26)
	rowH := label + strip + t.f(6)
	top := t.legendTop(title, w) + t.f(4)
	h := int(math.Ceil(top + rowH*float64(max(len(groups), 1)) + t.f(padBottom)))
	c := newCanvas(w, h, title)
	c.Rect(0, 0, w, h, `fill="#ffffff"`)
	t.title(c, title, w)
	p := plot{left: t.f(padLeft), right: float64(w) - t.f(padRight), top: top, bottom: float64(h) - t.f(padBottom), x0: 0, x1: 1}
	xt, _, _ := niceTicks(0, 1, 4)
	for _, x := range xt {
		xx := p.px(x)
		c.buf.WriteString(`<line x1="` + f1(xx) + `" y1="` + f1(p.top) + `" x2="` + f1(xx) + `" y2="` + f1(p.bottom) + `" stroke="#e4e4e4"/>`)
		c.Text(int(xx), int(p.bottom+t.f(14)), tickLabel(x), t.size(10), `text-anchor="middle"`, `fill="#555"`)
	}
	for k, g := range groups {
		row := top + float64(k)*rowH
		c.Text(int(p.left), int(row+t.f(13)), g.Name, t.size(11), `fill="#222"`)
		if len(g.Deciles) == 11 {
			decileStrip(c, p, g, row+label+strip/2, strip-t.f(6))
		}
	}
	c.buf.WriteString(`<line x1="` + f1(p.left) + `" y1="` + f1(p.bottom) + `" x2="` + f1(p.right) + `" y2="` + f1(p.bottom) + `" stroke="#999"/>`)
	c.Text(int((float64(w)+p.left)/2), h-t.n(4), xlabel, t.size(11), `text-anchor="middle"`, `fill="#333"`)
	return c.inline()
}

// decileStrip draws one group's strip centred at y, boxH high.
func decileStrip(c canvas, p plot, g DecileGroup, y, boxH float64) {
	q := g.Deciles
	x := func(v float64) float64 { return p.px(math.Max(0, math.Min(1, v))) }
	vals := make([]string, len(q))
	for i, v := range q {
		vals[i] = f3(v)
	}
	c.buf.WriteString(`<g class="deciles" data-group="` + html.EscapeString(g.Name) + `" data-deciles="` + strings.Join(vals, " ") + `">`)
	line := func(x0, y0, x1, y1 float64, attrs string) {
		c.buf.WriteString(`<line x1="` + f1(x0) + `" y1="` + f1(y0) + `" x2="` + f1(x1) + `" y2="` + f1(y1) + `" ` + attrs + `/>`)
	}
	box := func(lo, hi float64, opacity string) {
		c.buf.WriteString(`<rect x="` + f1(x(lo)) + `" y="` + f1(y-boxH/2) + `" width="` + f1(math.Max(1, x(hi)-x(lo))) + `" height="` + f1(boxH) +
			`" fill="` + g.Color + `" fill-opacity="` + opacity + `" stroke="` + g.Color + `"/>`)
	}
	line(x(q[0]), y, x(q[10]), y, `stroke="`+g.Color+`" stroke-width="1.5"`)
	box(q[1], q[9], "0.2")
	box(q[3], q[7], "0.45")
	for _, v := range q {
		line(x(v), y-boxH/2, x(v), y+boxH/2, `stroke="`+g.Color+`"`)
	}
	line(x(q[5]), y-boxH/2-2, x(q[5]), y+boxH/2+2, `stroke="#000000" stroke-width="3"`)
	c.buf.WriteString(`</g>`)
}
