package viz

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"pdnexplorer/edgekind"
)

// cloud returns n nodes per class, every class scattered around the same
// point (as a force layout of a graph with many inter-class edges leaves
// them), with a few far stragglers and one non-finite position.
func cloud(classes, n int) ([]float32, []int) {
	rng := rand.New(rand.NewPCG(1, 2))
	pos := make([]float32, 0, 2*classes*n)
	labels := make([]int, 0, classes*n)
	for k := 0; k < classes; k++ {
		for i := 0; i < n; i++ {
			s := 1.0
			if i%50 == 0 {
				s = 40 // a straggler
			}
			pos = append(pos, float32(s*rng.NormFloat64()), float32(s*rng.NormFloat64()))
			labels = append(labels, k)
		}
	}
	pos[2] = float32(math.NaN())
	return pos, labels
}

func TestArrange(t *testing.T) {
	for _, tc := range []struct {
		byClass bool
		classes int
	}{
		{true, 1}, {true, 2}, {true, 3}, {true, 6}, {false, 3}, {false, 1},
	} {
		pos, labels := cloud(tc.classes, 200)
		out := Arrange(tc.byClass, pos, labels)
		if len(out) != len(pos) {
			t.Fatalf("by class %v, %d classes: %d coordinates for %d", tc.byClass, tc.classes, len(out), len(pos))
		}
		for i, v := range out {
			if !finite(float64(v)) || math.Abs(float64(v)) > 2 {
				t.Fatalf("by class %v, %d classes: coordinate %d is %v", tc.byClass, tc.classes, i, v)
			}
		}
		if !tc.byClass || tc.classes < 2 {
			continue
		}
		// Every node lies in its own class's disc, and the discs are apart.
		r := 0.8 * math.Sin(math.Pi/float64(tc.classes))
		for i, k := range labels {
			a := 2*math.Pi*float64(k)/float64(tc.classes) - math.Pi/2
			if d := math.Hypot(float64(out[2*i])-math.Cos(a), float64(out[2*i+1])-math.Sin(a)); d > r*(1+1e-5) {
				t.Errorf("%d classes: node %d of class %d lies %.3f from its region's centre, past %.3f", tc.classes, i, k, d, r)
				break
			}
		}
		if 2*r >= 2*math.Sin(math.Pi/float64(tc.classes)) {
			t.Errorf("%d classes: regions of radius %.3f overlap", tc.classes, r)
		}
	}
}

// The stragglers are drawn in, not left to shrink the rest of the cloud.
func TestArrangeDrawsStragglersIn(t *testing.T) {
	pos, labels := cloud(1, 500)
	out := Arrange(false, pos, labels)
	var core, far float64
	for i := range labels {
		d := math.Hypot(float64(out[2*i]), float64(out[2*i+1]))
		if i%50 == 0 {
			far = math.Max(far, d)
		} else {
			core = math.Max(core, d)
		}
	}
	if far > 1+1e-5 || core < 0.5 {
		t.Errorf("stragglers reach %.3f (want ≤ 1), the core %.3f (want ≥ 0.5)", far, core)
	}
}

func TestNearest(t *testing.T) {
	// Four nodes at the corners of a square, edges 0–1 (intra), 1–2 (inter).
	g := NewGraph(100, 100, []float32{0, 0, 1, 0, 1, 1, 0, 1}, []int{0, 0, 1, 1},
		[]int32{0, 1}, []int32{1, 2}, []edgekind.Kind{edgekind.Intra, edgekind.Inter}, nil)
	x0, y0 := g.x[0], g.y[0]
	for _, tc := range []struct {
		name       string
		x, y, r    float64
		node, edge int
	}{
		{"on node 0", x0, y0, 5, 0, 0},
		{"near node 2", g.x[2] - 3, g.y[2] + 2, 5, 2, 1},
		{"mid edge 1–2", g.x[1], (g.y[1] + g.y[2]) / 2, 5, -1, 1},
		{"the empty middle", 50, 50, 5, -1, -1},
	} {
		if got := g.NearestNode(tc.x, tc.y, tc.r); got != tc.node {
			t.Errorf("%s: node %d, want %d", tc.name, got, tc.node)
		}
		if got := g.NearestEdge(tc.x, tc.y, tc.r, nil, 0); got != tc.edge {
			t.Errorf("%s: edge %d, want %d", tc.name, got, tc.edge)
		}
	}
	// An edge below the threshold cannot be picked.
	if got := g.NearestEdge(g.x[1], (g.y[1]+g.y[2])/2, 5, []float32{0.9, 0.1}, 0.5); got != -1 {
		t.Errorf("a hidden edge was picked: %d", got)
	}
	svg := g.Highlight([]int{2}, []int{0, 1, 7}, []float32{0.9, 0.05})
	el := elements(t, svg)
	if len(el["line"]) != 4 || len(el["circle"]) != 1 {
		t.Errorf("highlight drew %d lines and %d circles, want 4 (two edges, each outlined) and 1", len(el["line"]), len(el["circle"]))
	}
	// Each edge as thick as its weight draws it: the light one stays thin.
	_, heavy := LevelStyle(Level(float64(float32(0.9))))
	_, light := LevelStyle(Level(float64(float32(0.05))))
	for _, want := range []string{`stroke-width="` + f3(heavy) + `" class="highlight-edge" data-weight="0.900"`,
		`stroke-width="` + f3(light) + `" class="highlight-edge" data-weight="0.050"`} {
		if !strings.Contains(svg, want) {
			t.Errorf("highlight lacks %s:\n%s", want, svg)
		}
	}
}

func TestOwnCentreShare(t *testing.T) {
	nan := float32(math.NaN())
	for _, tc := range []struct {
		name   string
		pos    []float32
		labels []int
		want   float64
	}{
		{"apart", []float32{0, 0, 0, 1, 10, 0, 10, 1}, []int{0, 0, 1, 1}, 1},
		{"on top of each other", []float32{0, 0, 10, 0, 0, 1, 10, -1}, []int{0, 0, 1, 1}, 0.5},
		{"one astray", []float32{0, 0, 0, 1, 10, 0, 10, 1, 9, 0}, []int{0, 0, 1, 1, 0}, 0.8},
		{"one class", []float32{0, 0, 5, 5}, []int{2, 2}, 1},
		{"unlabelled and non-finite left out", []float32{0, 0, nan, 0, 10, 0, 3, 3}, []int{0, 0, 1, -1}, 1},
		{"short positions", []float32{0, 0, 1}, []int{0, 1}, 1},
	} {
		if got := OwnCentreShare(tc.pos, tc.labels); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	if got := OwnCentreShare(nil, nil); !math.IsNaN(got) {
		t.Errorf("no nodes: %v, want NaN", got)
	}
}

// A cloud with a fifth of its nodes drifted far off (a real graph's small
// components in a force layout) keeps its core spread out: R is bounded by
// the median distance.
func TestArrangeManyStragglers(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 3))
	n := 500
	pos, labels := make([]float32, 2*n), make([]int, n)
	for i := 0; i < n; i++ {
		x, y := rnd.NormFloat64(), rnd.NormFloat64()
		if i%5 == 0 {
			x, y = 1000+x, -1000+y
		}
		pos[2*i], pos[2*i+1] = float32(x), float32(y)
	}
	out := Arrange(false, pos, labels)
	var ds []float64
	for i := 0; i < n; i++ {
		if i%5 != 0 {
			ds = append(ds, math.Hypot(float64(out[2*i]), float64(out[2*i+1])))
		}
	}
	slices.Sort(ds)
	if q := ds[len(ds)*9/10]; q < 0.3 {
		t.Errorf("the core is drawn within %.3f of the centre, want ≥ 0.3", q)
	}
}
