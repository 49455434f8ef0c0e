package force

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"pdnexplorer/viz"
)

// planted returns a graph of classes×n nodes in which each pair of nodes
// of one class is joined with probability pIn and of two classes with
// pOut, as the paper's synthetic graphs are.
func planted(classes, n int, pIn, pOut float64) (labels []int, src, dst []int32, inter []bool) {
	rng := rand.New(rand.NewPCG(3, 4))
	for k := 0; k < classes; k++ {
		for i := 0; i < n; i++ {
			labels = append(labels, k)
		}
	}
	for u := range labels {
		for v := u + 1; v < len(labels); v++ {
			p := pIn
			if labels[u] != labels[v] {
				p = pOut
			}
			if rng.Float64() < p {
				src, dst = append(src, int32(u)), append(dst, int32(v))
				inter = append(inter, labels[u] != labels[v])
			}
		}
	}
	return labels, src, dst, inter
}

// settle runs f until it is cold (at most a bound of steps).
func settle(t *testing.T, f *Layout, w []float64) {
	t.Helper()
	for i := 0; f.Step(w); i++ {
		if i > 1000 {
			t.Fatal("the layout never cooled")
		}
	}
}

// TestForceSeparatesByWeight checks the lesson the learned layout is for:
// with every edge pulling alike, classes joined by many inter-class edges
// are drawn on top of each other; once the inter-class edges weigh a tenth
// of the others (as a trained pathfinder leaves them), the same layout,
// warmed up again, pulls the classes apart.
func TestForceSeparatesByWeight(t *testing.T) {
	labels, src, dst, inter := planted(3, 150, 0.06, 0.03)
	f := New(len(labels), src, dst, 1)
	settle(t, f, nil)
	alike := viz.OwnCentreShare(f.Positions(nil), labels)
	w := make([]float64, len(src))
	for e := range w {
		w[e] = 0.4
		if inter[e] {
			w[e] = 0.04
		}
	}
	f.Heat(Start / 2)
	settle(t, f, w)
	learned := viz.OwnCentreShare(f.Positions(nil), labels)
	t.Logf("own-centroid share: alike %.3f, learned %.3f", alike, learned)
	if learned < 0.9 || learned-alike < 0.2 {
		t.Errorf("own-centroid share: every edge alike %.3f, inter-class edges at a tenth %.3f; want the latter ≥ 0.9 and 0.2 above", alike, learned)
	}
}

// TestForceBadWeights checks that no weight makes a position non-finite
// or sends a node out of view.
func TestForceBadWeights(t *testing.T) {
	labels, src, dst, _ := planted(2, 40, 0.2, 0.05)
	for _, tc := range []struct {
		name string
		w    func(e int) float64
	}{
		{"zero", func(int) float64 { return 0 }},
		{"NaN", func(int) float64 { return math.NaN() }},
		{"infinite", func(e int) float64 { return []float64{math.Inf(1), 1}[e%2] }},
		{"huge", func(int) float64 { return 1e300 }},
		{"negative", func(e int) float64 { return -float64(e) }},
		{"tiny", func(int) float64 { return 1e-300 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := make([]float64, len(src))
			for e := range w {
				w[e] = tc.w(e)
			}
			f := New(len(labels), src, dst, 2)
			settle(t, f, w)
			for i, v := range f.Positions(nil) {
				if !finite(float64(v)) || math.Abs(float64(v)) > 10 {
					t.Fatalf("coordinate %d = %v", i, v)
				}
			}
		})
	}
}

// TestForceDegenerate checks graphs without nodes or edges, and weights of
// the wrong length.
func TestForceDegenerate(t *testing.T) {
	for _, n := range []int{0, 1, 2, 5} {
		f := New(n, nil, nil, 1)
		settle(t, f, []float64{1, 2, 3})
		if got := len(f.Positions(nil)); got != 2*n {
			t.Errorf("n=%d: %d coordinates", n, got)
		}
	}
}

// A layout is run until it cools; Heat makes it move again when the
// weights change.
func ExampleLayout() {
	src, dst := []int32{0, 1, 2}, []int32{1, 2, 0} // a triangle
	f := New(3, src, dst, 1)
	steps := 0
	for f.Step([]float64{1, 1, 1}) {
		steps++
	}
	p := f.Positions(nil)
	fmt.Printf("cold after %d steps; sides %.2f %.2f %.2f\n", steps,
		math.Hypot(float64(p[0]-p[2]), float64(p[1]-p[3])),
		math.Hypot(float64(p[2]-p[4]), float64(p[3]-p[5])),
		math.Hypot(float64(p[4]-p[0]), float64(p[5]-p[1])))
	// Output: cold after 128 steps; sides 0.57 0.57 0.57
}
