package viz

import (
	"fmt"
	"math"
	"strings"
)

// Mark is a labelled point of a Heatmap, at (X, Y) in the unit square.
type Mark struct {
	X, Y  float64
	Label string
}

// heatStops is a dark-to-bright scale (viridis' ends and middle), readable
// in grey and under the common colour-vision deficiencies.
var heatStops = [][3]float64{{0x44, 0x01, 0x54}, {0x21, 0x91, 0x8c}, {0xfd, 0xe7, 0x25}}

// heatLevels is how many steps the heatmap's colour takes from 0 to 1.
const heatLevels = 32

// HeatColor returns the colour of v in [0, 1] on the heatmap's scale.
func HeatColor(v float64) string {
	if math.IsNaN(v) {
		return "#cccccc"
	}
	v = clamp(v, 0, 1)
	seg := math.Min(v*float64(len(heatStops)-1), float64(len(heatStops)-1)-1e-9)
	i, t := int(seg), seg-math.Floor(seg)
	var c [3]int
	for k := range c {
		c[k] = int(math.Round(heatStops[i][k]*(1-t) + heatStops[i+1][k]*t))
	}
	return fmt.Sprintf("#%02x%02x%02x", c[0], c[1], c[2])
}

// Heatmap draws a function of two variables over the unit square, sampled
// on an n×n grid (values[j·n+i] at x = i/(n−1), y = j/(n−1), y upwards),
// coloured from dark (0) to bright (1), with labelled marks (a label's
// lines split at \n) and a scale.
// It is TF Playground's decision surface for the XOR lab's pathfinder.
func Heatmap(w, h int, title, xlabel, ylabel string, n int, values []float64, marks []Mark) string {
	c := newCanvas(w, h, title)
	t := typeFor(w, h)
	c.Rect(0, 0, w, h, `fill="#ffffff"`)
	t.title(c, title, w)
	top := t.legendTop(title, w) + t.f(4)
	// The scale takes 34 units right of the square and its labels' width.
	side := math.Min(float64(w)-t.f(padLeft)-34-t.f(12), float64(h)-top-t.f(padBottom))
	left := t.f(padLeft)
	cell := side / float64(n)
	// One path per colour level, not a rect per cell: a page redraws this
	// several times a second, and its cost goes with the elements.
	paths := map[string]*strings.Builder{}
	var order []string
	for j := range n {
		for i := range n {
			v := math.NaN()
			if j*n+i < len(values) {
				v = math.Round(values[j*n+i]*heatLevels) / heatLevels
			}
			col := HeatColor(v)
			b := paths[col]
			if b == nil {
				b = &strings.Builder{}
				paths[col] = b
				order = append(order, col)
			}
			// Cells overlap by a hair so no seam shows between them.
			fmt.Fprintf(b, "M%s %sh%sv%sh-%sz", f1(left+float64(i)*cell), f1(top+float64(n-1-j)*cell), f1(cell+1), f1(cell+1), f1(cell+1))
		}
	}
	for _, col := range order {
		c.Path(paths[col].String(), `fill="`+col+`"`)
	}
	at := func(x, y float64) (float64, float64) {
		return left + cell/2 + x*(side-cell), top + cell/2 + (1-y)*(side-cell)
	}
	// A corner's label takes at most half the square each way; where the
	// square is too small for its labels at the size asked (three heatmaps
	// side by side on a projector) the marks go unlabelled rather than
	// their labels run into each other: the lab's table of the states
	// holds the same numbers.
	labelled := true
	for _, m := range marks {
		lines := markLines(m.Label, t.f(11), side/2-t.f(12))
		high := t.f(18) + t.f(13)*float64(len(lines)-1) + t.f(4)
		for _, line := range lines {
			labelled = labelled && textWidth(line, t.f(11)) <= side/2-t.f(12)
		}
		labelled = labelled && high <= side/2
	}
	for _, m := range marks {
		x, y := at(m.X, m.Y)
		c.Circle(int(x), int(y), 5, `fill="none"`, `stroke="#ffffff"`, `stroke-width="2"`)
		c.Circle(int(x), int(y), 7, `fill="none"`, `stroke="#000000"`, `stroke-width="1"`)
		// The label sits inside the square, beside its corner, a line per
		// part, so the labels of neighbouring corners never meet.
		anchor, dx := `text-anchor="start"`, t.n(10)
		if m.X > 0.5 {
			anchor, dx = `text-anchor="end"`, -t.n(10)
		}
		lines := markLines(m.Label, t.f(11), side/2-t.f(12))
		dy := t.n(18)
		if m.Y < 0.5 {
			dy = -t.n(8) - t.n(13)*(len(lines)-1)
		}
		for k, line := range lines {
			if !labelled {
				break
			}
			c.Text(int(x)+dx, int(y)+dy+t.n(13)*k, line, t.size(11), anchor, `fill="#ffffff"`, `stroke="#000000"`, `stroke-width="3"`, `paint-order="stroke"`)
		}
	}
	c.Rect(int(left), int(top), int(side), int(side), `fill="none"`, `stroke="#999"`)
	c.Text(int(left+side/2), int(top+side+t.f(24)), xlabel, t.size(11), `text-anchor="middle"`, `fill="#333"`)
	c.Text(int(left-t.f(8)), int(top+side/2), ylabel, t.size(11), `text-anchor="end"`, `fill="#333"`)
	for _, v := range []float64{0, 1} {
		x, y := at(v, v)
		c.Text(int(x), int(top+side+t.f(12)), tickLabel(v), t.size(10), `text-anchor="middle"`, `fill="#555"`)
		c.Text(int(left-t.f(4)), int(y+t.f(4)), tickLabel(v), t.size(10), `text-anchor="end"`, `fill="#555"`)
	}
	heatScale(c, t, int(left+side)+16, top, side)
	return c.inline()
}

// markLines are a mark's label's lines (split at \n), each line wider
// than across split again at its " · ", so that the labels of two corners
// side by side never meet.
func markLines(label string, size, across float64) []string {
	var lines []string
	for _, line := range strings.Split(label, "\n") {
		if textWidth(line, size) <= across {
			lines = append(lines, line)
			continue
		}
		lines = append(lines, strings.Split(line, " · ")...)
	}
	return lines
}

// heatScale draws HeatColor's scale from 0 to 1 at x, side high from
// top, bright at the top.
func heatScale(c canvas, t typeset, x int, top, side float64) {
	steps := 20
	for k := range steps {
		c.Rect(x, int(top+side*float64(k)/float64(steps)), 14, int(side/float64(steps)+1.5), `fill="`+HeatColor(1-float64(k)/float64(steps-1))+`"`)
	}
	c.Text(x+18, int(top+t.f(8)), "1", t.size(10), `fill="#555"`)
	c.Text(x+18, int(top+side), "0", t.size(10), `fill="#555"`)
}
