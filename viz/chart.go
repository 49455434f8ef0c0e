package viz

import (
	"math"
	"strconv"
)

// Series is one line of a chart.
type Series struct {
	Name  string
	Color string
	Dash  bool
	X, Y  []float64
}

// Axes frames a chart. When YMin == YMax the y range follows the data; when
// XMax is 0 the x range ends at the data's last x.
type Axes struct {
	Title, XLabel string
	YMin, YMax    float64
	XMax          float64
}

const (
	padLeft, padRight, padTop, padBottom = 44, 10, 26, 30
)

// plot maps data coordinates to the canvas.
type plot struct {
	x0, x1, y0, y1 float64 // data range
	left, right    float64 // canvas range
	top, bottom    float64
}

func (p plot) px(x float64) float64 {
	return p.left + (x-p.x0)/(p.x1-p.x0)*(p.right-p.left)
}

func (p plot) py(y float64) float64 {
	return p.bottom - (y-p.y0)/(p.y1-p.y0)*(p.bottom-p.top)
}

// LineChart draws series over a shared x axis, with a legend above the
// plot. Points that are NaN or infinite break the line. Long series are
// thinned to about one point per pixel.
func LineChart(w, h int, a Axes, series ...Series) string {
	t := typeFor(w, h)
	entries := make([]legendEntry, len(series))
	for i, s := range series {
		entries[i] = legendEntry{s.Name, s.Color, markLine}
		if s.Dash {
			entries[i].mark = markDash
		}
	}
	p, h := t.plotIn(w, h, a.Title, t.legendRows(entries, float64(w)-t.f(padLeft)-t.f(padRight)), 0)
	c := newCanvas(w, h, a.Title)
	p.x0, p.x1, p.y0, p.y1 = chartRange(a, series)
	c.Rect(0, 0, w, h, `fill="#ffffff"`)
	p = frame(c, t, p, a, w, h)
	for _, s := range series {
		drawSeries(c, p, s, w)
	}
	t.drawLegend(c, entries, p.left, t.legendTop(a.Title, w), p.right-p.left)
	return c.inline()
}

func chartRange(a Axes, series []Series) (x0, x1, y0, y1 float64) {
	x0, x1 = 0, a.XMax
	y0, y1 = a.YMin, a.YMax
	auto := y0 == y1
	if auto {
		y0, y1 = math.Inf(1), math.Inf(-1)
	}
	for _, s := range series {
		for i, y := range s.Y {
			if math.IsNaN(y) || math.IsInf(y, 0) {
				continue
			}
			if a.XMax == 0 {
				x1 = math.Max(x1, s.X[i])
			}
			if auto {
				y0, y1 = math.Min(y0, y), math.Max(y1, y)
			}
		}
	}
	if x1 <= x0 {
		x1 = x0 + 1
	}
	if auto {
		if math.IsInf(y0, 1) {
			y0, y1 = 0, 1
		}
		y0 = math.Min(y0, 0)
		if y1 <= y0 {
			y1 = y0 + 1
		}
	}
	return x0, x1, y0, y1
}

// niceCeil rounds x up to 1, 2 or 5 times a power of ten.
func niceCeil(x float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= x {
			return m * p
		}
	}
	return 10 * p
}

// frame draws a chart's title, its axes' round ticks and labels and its
// border, and returns the plot widened to the ticks' range.
func frame(c canvas, t typeset, p plot, a Axes, w, h int) plot {
	t.title(c, a.Title, w)
	yt, y0, y1 := niceTicks(p.y0, p.y1, 4)
	xt, x0, x1 := niceTicks(p.x0, p.x1, 4)
	p.y0, p.y1, p.x0, p.x1 = y0, y1, x0, x1
	for _, y := range yt {
		yy := p.py(y)
		c.buf.WriteString(`<line x1="` + f1(p.left) + `" y1="` + f1(yy) + `" x2="` + f1(p.right) + `" y2="` + f1(yy) + `" stroke="#e4e4e4"/>`)
		c.Text(int(p.left-t.f(4)), int(yy+t.f(4)), tickLabel(y), t.size(10), `text-anchor="end"`, `fill="#555"`)
	}
	for _, x := range xt {
		c.Text(int(p.px(x)), int(float64(h)-t.f(padBottom)+t.f(14)), tickLabel(x), t.size(10), `text-anchor="middle"`, `fill="#555"`)
	}
	c.buf.WriteString(`<rect x="` + f1(p.left) + `" y="` + f1(p.top) + `" width="` + f1(p.right-p.left) + `" height="` + f1(p.bottom-p.top) + `" fill="none" stroke="#999"/>`)
	c.Text(int((float64(w)+p.left)/2), h-t.n(4), a.XLabel, t.size(11), `text-anchor="middle"`, `fill="#333"`)
	return p
}

func tickLabel(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e6 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

func drawSeries(c canvas, p plot, s Series, w int) {
	step := max(1, len(s.Y)/w)
	dash := ""
	if s.Dash {
		dash = ` stroke-dasharray="5 3"`
	}
	var d []byte
	pen := false
	for i := 0; i < len(s.Y); i += step {
		j := i
		if i+step >= len(s.Y) {
			j = len(s.Y) - 1 // always end at the last point
		}
		y := s.Y[j]
		if math.IsNaN(y) || math.IsInf(y, 0) {
			pen = false
			continue
		}
		y = math.Max(p.y0, math.Min(p.y1, y))
		if pen {
			d = append(d, 'L')
		} else {
			d = append(d, 'M')
		}
		d = append(d, f1(p.px(s.X[j]))+" "+f1(p.py(y))...)
		pen = true
	}
	if len(d) == 0 {
		return
	}
	c.buf.WriteString(`<path class="series" data-name="` + s.Name + `" fill="none" stroke="` + s.Color + `" stroke-width="1.8"` + dash + ` d="` + string(d) + `"/>`)
}
