package viz

import (
	"math"
	"strings"
	"testing"
)

// A node without a class (label -1) is drawn grey, in the middle of the
// class layout, and in a block of its own in the adjacency matrix, at
// every size: never a class colour, never an index out of range.
func TestNodesWithoutAClass(t *testing.T) {
	if ClassColor(-1) != NoClassColor || ClassColor(0) == NoClassColor {
		t.Errorf("ClassColor(-1) = %s", ClassColor(-1))
	}
	for _, n := range []int{10, MatrixBlockAbove + 10} {
		labels := make([]int, n)
		src, dst := make([]int32, n), make([]int32, n)
		for i := range labels {
			labels[i] = i % 3
			if i%5 == 4 {
				labels[i] = -1
			}
			src[i], dst[i] = int32(i), int32((i+1)%n)
		}
		svg := AdjacencyMatrix(400, 300, "m", n, 3, src, dst, labels, nil)
		if !strings.Contains(svg, "<svg") {
			t.Errorf("%d nodes: no matrix", n)
		}
		pos := make([]float32, 2*n)
		for i := range pos {
			pos[i] = float32(i % 17)
		}
		out := Arrange(true, pos, labels)
		for i, l := range labels {
			if r := math.Hypot(float64(out[2*i]), float64(out[2*i+1])); l == -1 && r > 0.5 {
				t.Fatalf("%d nodes: node %d, without a class, is drawn %.2f from the middle", n, i, r)
			}
		}
		g := NewGraph(200, 200, out, labels, src, dst, nil, nil)
		if len(g.NodeDots(50, 50)) != 4*50*50 {
			t.Errorf("%d nodes: no dots", n)
		}
	}
}
