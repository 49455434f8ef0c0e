package viz

import (
	"fmt"
	"math"
	"strings"
)

// MatrixCells is the most cells a side of the matrix view draws: a graph
// of more nodes shares each cell among several, and one of more than
// MatrixBlockAbove nodes is drawn as a block per pair of classes.
const (
	MatrixCells      = 96
	MatrixBlockAbove = 3000
)

// AdjacencyMatrix draws a graph's adjacency with its nodes ordered by
// class, each cell coloured by the mean weight of the edges in it (white
// where there are none), with a line between classes: a learned graph
// that keeps its weight within the classes is dark on the diagonal's
// blocks and pale off them. Up to MatrixCells nodes a side get a cell
// each; more share cells; above MatrixBlockAbove nodes each pair of
// classes is one block of its mean weight. weights nil draws every edge
// at 1 (the input graph). Nodes without a class (a negative label) come
// last, as a block of their own.
func AdjacencyMatrix(w, h int, title string, n, classes int, src, dst []int32, labels []int, weights []float32) string {
	c := newCanvas(w, h, title)
	t := typeFor(w, h)
	c.Rect(0, 0, w, h, `fill="#ffffff"`)
	t.title(c, title, w)
	top := t.legendTop(title, w) + t.f(4)
	side := math.Min(float64(w)-t.f(24)-t.f(60), float64(h)-top-t.f(12))
	left := t.f(24)
	// order: the nodes by class, in their order within it, those without
	// one (block classes) last.
	block := func(l int) int {
		if l < 0 || l >= classes {
			return classes
		}
		return l
	}
	count := make([]int, classes+2)
	for _, l := range labels {
		count[block(l)+1]++
	}
	blocks := classes
	if count[classes+1] > 0 {
		blocks++
	}
	for k := 1; k <= classes+1; k++ {
		count[k] += count[k-1]
	}
	start := append([]int(nil), count...)
	pos := make([]int, n)
	for i, l := range labels {
		pos[i] = count[block(l)]
		count[block(l)]++
	}
	cells, cellOf := min(n, MatrixCells), func(i int) int { return pos[i] * min(n, MatrixCells) / n }
	if n > MatrixBlockAbove {
		cells, cellOf = blocks, func(i int) int { return block(labels[i]) }
	}
	sum, cnt := make([]float64, cells*cells), make([]float64, cells*cells)
	for e := range src {
		x := 1.0
		if weights != nil {
			x = float64(weights[e])
		}
		a, b := cellOf(int(src[e])), cellOf(int(dst[e]))
		for _, k := range []int{a*cells + b, b*cells + a} {
			sum[k] += x
			cnt[k]++
		}
	}
	cell := side / float64(cells)
	paths := map[string]*strings.Builder{}
	var order []string
	for k := range sum {
		if cnt[k] == 0 {
			continue
		}
		col := HeatColor(math.Round(sum[k]/cnt[k]*heatLevels) / heatLevels)
		b := paths[col]
		if b == nil {
			b = &strings.Builder{}
			paths[col] = b
			order = append(order, col)
		}
		i, j := k%cells, k/cells
		fmt.Fprintf(b, "M%s %sh%sv%sh-%sz", f1(left+float64(i)*cell), f1(top+float64(j)*cell), f1(cell+0.5), f1(cell+0.5), f1(cell+0.5))
	}
	for _, col := range order {
		c.Path(paths[col].String(), `fill="`+col+`"`)
	}
	// The lines between classes, where each class begins.
	for k := 1; k < blocks; k++ {
		at := side * float64(start[k]) / float64(n)
		if n > MatrixBlockAbove {
			at = cell * float64(k)
		}
		c.Line(int(left+at), int(top), int(left+at), int(top+side), `stroke="#333"`, `stroke-width="1"`)
		c.Line(int(left), int(top+at), int(left+side), int(top+at), `stroke="#333"`, `stroke-width="1"`)
	}
	c.Rect(int(left), int(top), int(side), int(side), `fill="none"`, `stroke="#999"`)
	heatScale(c, t, int(left+side)+14, top, side)
	return c.inline()
}
