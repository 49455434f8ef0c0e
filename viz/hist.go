package viz

import (
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
	c := newCanvas(w, h, title)
	p := plot{left: padLeft, right: float64(w - padRight), top: padTop, bottom: float64(h - padBottom), x0: 0, x1: 1, y0: 0}
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
	p.y1 = niceCeil(math.Max(top, 0.01))
	c.Rect(0, 0, w, h, `fill="#ffffff"`)
	frame(c, p, Axes{Title: title, XLabel: xlabel}, w, h)
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
		lx, ly := w-padRight-110, padTop+4+14*g
		c.Rect(lx, ly-5, 14, 10, `fill="`+gr.Color+`"`)
		c.Text(lx+20, ly+4, gr.Name, `font-size="11"`, `fill="#222"`)
	}
	return c.inline()
}

// Bars draws one bar per labelled value in [0, 1]: the linear PDN's
// attention over its inputs, or the multi-scale PDN's weight per hop.
func Bars(w, h int, title, xlabel string, labels []string, values []float64, color string) string {
	c := newCanvas(w, h, title)
	p := plot{left: padLeft, right: float64(w - padRight), top: padTop, bottom: float64(h - padBottom), x0: 0, x1: 1, y0: 0, y1: 1}
	top := 0.0
	for _, v := range values {
		top = math.Max(top, v)
	}
	p.y1 = niceCeil(math.Max(top, 0.01))
	c.Rect(0, 0, w, h, `fill="#ffffff"`)
	c.Text(padLeft, 16, title, `font-size="13"`, `font-weight="600"`, `fill="#222"`)
	for i := 0; i <= 4; i++ {
		y := p.y1 * float64(i) / 4
		yy := p.py(y)
		c.buf.WriteString(`<line x1="` + f1(p.left) + `" y1="` + f1(yy) + `" x2="` + f1(p.right) + `" y2="` + f1(yy) + `" stroke="#e4e4e4"/>`)
		c.Text(int(p.left)-4, int(yy)+4, tickLabel(y), `font-size="10"`, `text-anchor="end"`, `fill="#555"`)
	}
	n := max(1, len(values))
	slot := (p.right - p.left) / float64(n)
	for i, v := range values {
		x := p.left + float64(i)*slot + slot*0.15
		y := p.py(math.Max(0, v))
		c.buf.WriteString(`<rect class="bar" data-label="` + labels[i] + `" x="` + f1(x) + `" y="` + f1(y) + `" width="` + f1(slot*0.7) +
			`" height="` + f1(p.bottom-y) + `" fill="` + color + `"/>`)
		if n <= 24 {
			c.Text(int(x+slot*0.35), h-padBottom+14, labels[i], `font-size="10"`, `text-anchor="middle"`, `fill="#555"`)
		}
	}
	c.buf.WriteString(`<rect x="` + f1(p.left) + `" y="` + f1(p.top) + `" width="` + f1(p.right-p.left) + `" height="` + f1(p.bottom-p.top) + `" fill="none" stroke="#999"/>`)
	c.Text((w+padLeft)/2, h-4, xlabel, `font-size="11"`, `text-anchor="middle"`, `fill="#333"`)
	return c.inline()
}
