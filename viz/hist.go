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
