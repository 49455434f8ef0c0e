package viz

import (
	"strings"
	"testing"
)

// The matrix view orders nodes by class: a graph whose edges within the
// classes weigh 1 and across weigh 0 is bright on the diagonal's blocks
// and dark off them, each pair of cells drawn once per colour; above
// MatrixBlockAbove nodes each cell is a pair of classes.
func TestAdjacencyMatrix(t *testing.T) {
	for _, n := range []int{8, MatrixBlockAbove + 2} {
		labels := make([]int, n)
		for i := range labels {
			labels[i] = i % 2 // the classes interleaved: the view must sort them
		}
		var src, dst []int32
		var w []float32
		for i := 0; i+2 < n; i++ {
			src, dst, w = append(src, int32(i)), append(dst, int32(i+2)), append(w, 1) // same class
			src, dst, w = append(src, int32(i)), append(dst, int32(i+1)), append(w, 0) // across
		}
		svg := AdjacencyMatrix(400, 300, "m", n, 2, src, dst, labels, w)
		bright, dark := `fill="`+HeatColor(1)+`"`, `fill="`+HeatColor(0)+`"`
		if strings.Count(svg, bright) != 2 || strings.Count(svg, dark) != 2 { // a path each, and the scale's swatch
			t.Errorf("n=%d: %d bright and %d dark paths, want one each beside the scale", n, strings.Count(svg, bright), strings.Count(svg, dark))
		}
		cells := strings.Count(svg, "M")
		if n > MatrixBlockAbove && cells != 4 {
			t.Errorf("n=%d: %d cells, want a block per pair of the 2 classes", n, cells)
		}
		if n <= MatrixBlockAbove && cells <= 4 {
			t.Errorf("n=%d: %d cells, want one per pair of joined nodes", n, cells)
		}
		if input := AdjacencyMatrix(400, 300, "m", n, 2, src, dst, labels, nil); strings.Contains(input, dark) && strings.Count(input, dark) != 1 {
			t.Errorf("n=%d: the input graph (weights 1) has dark cells", n)
		}
	}
}
