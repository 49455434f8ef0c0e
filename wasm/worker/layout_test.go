package main

import (
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/layout"
	"gonum.org/v1/gonum/spatial/r2"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/viz"
)

// Dense graphs once made Eades diverge: every node was drawn at the four
// corners of the view, and on 189,000 edges the positions became NaN and
// gonum's Barnes–Hut tree overflowed the stack. Every layout must stay
// finite and spread: few nodes on the border of the drawing.
func TestLayoutStaysFiniteAndSpread(t *testing.T) {
	for _, q := range []string{"", "classes=2&per-class=1024&p=0.0625", "classes=6&per-class=1024&p=0.035"} {
		t.Run(q, func(t *testing.T) {
			if testing.Short() && q != "" {
				t.Skip("a large layout")
			}
			e, err := experiment.Decode(q)
			if err != nil {
				t.Fatal(err)
			}
			g, err := datasets.Synthetic(e.Data)
			if err != nil {
				t.Fatal(err)
			}
			j := newLayoutJob(g, e.Data.Seed)
			// The page shows the layout as it settles, so every stage counts.
			steps := 0
			for more := true; more; steps++ {
				more = j.step()
				if steps == 5 || steps == 20 || steps == 60 || !more {
					checkSpread(t, g, j.positions(), steps)
				}
			}
			t.Logf("%d nodes, %d edges: %d updates", g.N, g.E(), steps)
		})
	}
}

// checkSpread fails unless every position is finite and, drawn, few nodes
// sit on the border and most have places of their own.
func checkSpread(t *testing.T, g *datasets.Graph, pos []float32, steps int) {
	t.Helper()
	for i, v := range pos {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			t.Fatalf("after %d updates, position %d is %v", steps, i, v)
		}
	}
	for _, byClass := range []bool{true, false} {
		checkDrawn(t, g, viz.Arrange(byClass, pos, g.Labels), fmt.Sprintf("by class %v:", byClass), steps)
	}
}

// checkDrawn checks a layout as the page draws it.
func checkDrawn(t *testing.T, g *datasets.Graph, pos []float32, layout string, steps int) {
	t.Helper()
	const w, margin = 560, 8.0
	view := viz.NewGraph(w, w, pos, g.Labels, nil, nil, nil, nil)
	border, distinct := 0, map[[2]float64]bool{}
	for i := range g.N {
		x, y := view.NodeAt(i)
		if x <= margin || x >= w-margin || y <= margin || y >= w-margin {
			border++
		}
		distinct[[2]float64{math.Round(10 * x), math.Round(10 * y)}] = true // to the view's tenth of a unit
	}
	if share := float64(border) / float64(g.N); share > 0.05 {
		t.Errorf("%s layout after %d updates: %.1f%% of %d nodes sit on the border of the view", layout, steps, 100*share, g.N)
	}
	if len(distinct) < g.N/2 {
		t.Errorf("%s layout after %d updates: only %d distinct positions for %d nodes", layout, steps, len(distinct), g.N)
	}
}

// The update that leaves a position non-finite ends the layout, and the
// last finite positions stay.
func TestLayoutKeepsLastFinitePositions(t *testing.T) {
	e := experiment.Default()
	e.Data.PerClass = 32
	g, _ := datasets.Synthetic(e.Data)
	j := newLayoutJob(g, 1)
	if !j.step() {
		t.Fatal("the layout ended after one update")
	}
	good := append([]float32(nil), j.positions()...)
	j.opt.Updater = func(_ graph.Graph, l layout.LayoutR2) bool {
		l.SetCoord2(3, r2.Vec{X: math.NaN(), Y: math.Inf(1)})
		return true
	}
	if j.step() {
		t.Error("the layout went on after a NaN position")
	}
	if j.step() {
		t.Error("the layout started again after it ended")
	}
	for i, v := range j.positions() {
		if v != good[i] {
			t.Fatalf("position %d changed from %v to %v", i, good[i], v)
		}
	}
}

// A graph of more nodes than a layout moves is laid out by a sample: every
// node gets a finite place, the others beside a laid-out node of their
// class (a neighbour where one was sampled), none farther than the spread.
func TestLargeGraphsAreLaidOutBySample(t *testing.T) {
	n := 3*maxLayoutNodes/2 + 7
	g := &datasets.Graph{N: n, Labels: make([]int, n)}
	for i := range n {
		g.Labels[i] = i % 3
		if i+3 < n {
			g.Src, g.Dst = append(g.Src, int32(i)), append(g.Dst, int32(i+3)) // within a class
		}
	}
	j := newLayoutJob(g, 1)
	if len(j.laid) != maxLayoutNodes {
		t.Fatalf("%d nodes laid out, want %d", len(j.laid), maxLayoutNodes)
	}
	for range 3 {
		j.step()
	}
	pos := j.positions()
	laid := map[int32]bool{}
	for _, v := range j.laid {
		laid[v] = true
	}
	minX, maxX, minY, maxY := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, v := range j.laid {
		x, y := float64(pos[2*v]), float64(pos[2*v+1])
		minX, maxX, minY, maxY = min(minX, x), max(maxX, x), min(minY, y), max(maxY, y)
	}
	size := max(maxX-minX, maxY-minY)
	for v := range n {
		x, y := float64(pos[2*v]), float64(pos[2*v+1])
		if math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) {
			t.Fatalf("node %d at (%v, %v)", v, x, y)
		}
		if laid[int32(v)] {
			continue
		}
		u := j.laid[j.anchor[v]]
		if g.Labels[u] != g.Labels[v] {
			t.Fatalf("node %d (class %d) drawn beside node %d of class %d", v, g.Labels[v], u, g.Labels[u])
		}
		if d := math.Hypot(x-float64(pos[2*u]), y-float64(pos[2*u+1])); d > anchorSpread*size*1.0001 {
			t.Fatalf("node %d is %g from its anchor, more than %g", v, d, anchorSpread*size)
		}
	}
	// Two in three nodes are sampled: most of the others have a sampled
	// neighbour of their class (v ± 3), and are drawn beside it.
	withNeighbour := 0
	for v := range n {
		if laid[int32(v)] {
			continue
		}
		u := int(j.laid[j.anchor[v]])
		if u == v+3 || u == v-3 {
			withNeighbour++
		}
	}
	if withNeighbour < (n-maxLayoutNodes)/2 {
		t.Errorf("only %d of %d nodes drawn beside a neighbour", withNeighbour, n-maxLayoutNodes)
	}
}
