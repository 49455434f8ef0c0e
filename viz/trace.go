package viz

import (
	"html"
	"math"
	"strconv"
)

// Strip draws a vector as a row of bars, w×h: each value's bar up from
// the middle line if positive, down if negative, scaled by the largest
// magnitude, so that a message, a hidden layer or edge features read at a
// glance and compare by shape.
func Strip(w, h int, label string, values []float64) string {
	c := newCanvas(w, h, label)
	top := 0.0
	for _, v := range values {
		if !math.IsNaN(v) {
			top = math.Max(top, math.Abs(v))
		}
	}
	mid := float64(h) / 2
	c.buf.WriteString(`<line x1="0" y1="` + f1(mid) + `" x2="` + strconv.Itoa(w) + `" y2="` + f1(mid) + `" stroke="#bbb"/>`)
	if len(values) == 0 || top == 0 {
		return c.inline()
	}
	bw := float64(w) / float64(len(values))
	for i, v := range values {
		if math.IsNaN(v) {
			continue
		}
		bh := math.Abs(v) / top * (mid - 1)
		y, fill := mid-bh, "#0072B2"
		if v < 0 {
			y, fill = mid, "#D55E00"
		}
		c.buf.WriteString(`<rect x="` + f1(float64(i)*bw) + `" y="` + f1(y) + `" width="` + f1(math.Max(bw-0.5, 0.5)) + `" height="` + f1(bh) + `" fill="` + fill + `"/>`)
	}
	return c.inline()
}

// Neighbour is one neighbour of a node drawn by Neighbourhood: its name,
// class, and the weight of its edge (drawn as the edge's width).
type Neighbour struct {
	Name   string
	Class  int
	Weight float64
}

// Neighbourhood draws a node and its neighbours around it, w×w, each edge
// as wide as its weight (the widest at 8 px), dashed between classes, so
// that which neighbours a node listens to is one glance.
func Neighbourhood(w int, label string, name string, class int, ns []Neighbour) string {
	c := newCanvas(w, w, label)
	t := typeFor(w, w)
	mid, rad := float64(w)/2, float64(w)/2-t.f(22)
	top := 0.0
	for _, n := range ns {
		top = math.Max(top, n.Weight)
	}
	for k, n := range ns {
		a := 2*math.Pi*float64(k)/float64(len(ns)) - math.Pi/2
		x, y := mid+rad*math.Cos(a), mid+rad*math.Sin(a)
		width := 0.5
		if top > 0 {
			width = math.Max(0.5, 8*n.Weight/top)
		}
		dash := ""
		if n.Class != class {
			dash = ` stroke-dasharray="4 3"`
		}
		c.buf.WriteString(`<line x1="` + f1(mid) + `" y1="` + f1(mid) + `" x2="` + f1(x) + `" y2="` + f1(y) + `" stroke="#555" stroke-width="` + f1(width) + `"` + dash + `/>`)
		c.buf.WriteString(`<circle cx="` + f1(x) + `" cy="` + f1(y) + `" r="` + f1(t.f(11)) + `" fill="` + html.EscapeString(ClassColor(n.Class)) + `" stroke="#fff"/>`)
		c.Text(int(x), int(y+t.f(3.5)), n.Name, t.size(10), `text-anchor="middle"`, `fill="#fff"`)
	}
	c.buf.WriteString(`<circle cx="` + f1(mid) + `" cy="` + f1(mid) + `" r="` + f1(t.f(16)) + `" fill="` + html.EscapeString(ClassColor(class)) + `" stroke="#222" stroke-width="2"/>`)
	c.Text(int(mid), int(mid+t.f(4)), name, t.size(11), `text-anchor="middle"`, `fill="#fff"`, `font-weight="600"`)
	return c.inline()
}
