package tsne

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// clusters draws k Gaussian clusters of m points each in d dimensions,
// their centres sep apart along the axes, and returns the points and
// each one's cluster.
func clusters(k, m, d int, sep, sd float64, seed uint64) ([]float64, []int) {
	rnd := rand.New(rand.NewPCG(seed, 1))
	x := make([]float64, 0, k*m*d)
	var labels []int
	for c := 0; c < k; c++ {
		for range m {
			for j := 0; j < d; j++ {
				v := rnd.NormFloat64() * sd
				if j == c%d {
					v += sep * float64(1+c/d)
				}
				x = append(x, v)
			}
			labels = append(labels, c)
		}
	}
	return x, labels
}

// TestEmbedKeepsNeighbourhoods embeds data whose neighbourhoods are known,
// well-separated clusters, and asks that they come out separated: the 10
// nearest neighbours of a point in the embedding are of its cluster at
// least 95% of the time, as they are in the input.
func TestEmbedKeepsNeighbourhoods(t *testing.T) {
	for _, c := range []struct {
		name      string
		k, m, d   int
		sep, sd   float64
		perp      float64
		iters     int
		wantAbove float64
	}{
		{"two clusters in 10-D", 2, 60, 10, 8, 1, 0, 0, 0.95},
		{"three clusters in 10-D", 3, 50, 10, 8, 1, 0, 0, 0.95},
		{"four clusters in 10-D, perplexity 10, 500 iterations", 4, 40, 10, 8, 1, 10, 500, 0.95},
	} {
		t.Run(c.name, func(t *testing.T) {
			x, labels := clusters(c.k, c.m, c.d, c.sep, c.sd, 7)
			n := c.k * c.m
			if in := Agreement(x, n, c.d, labels, 10); in < 0.99 {
				t.Fatalf("the input's own agreement is %.3f: the clusters are not separated", in)
			}
			y := Embed(x, n, c.d, Options{Perplexity: c.perp, Iterations: c.iters, Seed: 1})
			for i, v := range y {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("y[%d] = %v", i, v)
				}
			}
			if got := Agreement(y, n, 2, labels, 10); got < c.wantAbove {
				t.Errorf("10-NN agreement in the embedding %.3f, want ≥ %.2f", got, c.wantAbove)
			}
		})
	}
}

// TestEmbedMixedStaysMixed gives the labels at random to one Gaussian
// cloud: no embedding can separate them, and agreement stays near 0.5.
func TestEmbedMixedStaysMixed(t *testing.T) {
	x, _ := clusters(1, 120, 10, 0, 1, 3)
	labels := make([]int, 120)
	for i := range labels {
		labels[i] = i % 2
	}
	y := Embed(x, 120, 10, Options{Iterations: 300, Seed: 2})
	if got := Agreement(y, 120, 2, labels, 10); got > 0.65 {
		t.Errorf("10-NN agreement of random labels %.3f, want near 0.5", got)
	}
}

// digest is a SHA-256 of the bits of y.
func digest(y []float64) string {
	h := sha256.New()
	for _, v := range y {
		binary.Write(h, binary.LittleEndian, math.Float64bits(v))
	}
	return fmt.Sprintf("%x", h.Sum(nil))[:16]
}

// TestEmbedIsDeterministic: the same inputs and seed give the same bits,
// another seed another start.
func TestEmbedIsDeterministic(t *testing.T) {
	x, _ := clusters(3, 20, 5, 6, 1, 9)
	o := Options{Iterations: 200, Seed: 4}
	a, b := Embed(x, 60, 5, o), Embed(x, 60, 5, o)
	if digest(a) != digest(b) {
		t.Fatalf("two embeddings of one seed differ: %s, %s", digest(a), digest(b))
	}
	o.Seed = 5
	if c := Embed(x, 60, 5, o); digest(c) == digest(a) {
		t.Errorf("seeds 4 and 5 gave the same embedding")
	}
}

// TestEmbedSmall: no point, one and two points.
func TestEmbedSmall(t *testing.T) {
	if y := Embed(nil, 0, 3, Options{}); len(y) != 0 {
		t.Errorf("no points gave %v", y)
	}
	if y := Embed([]float64{1, 2}, 1, 2, Options{}); y[0] != 0 || y[1] != 0 {
		t.Errorf("one point gave %v, want the origin", y)
	}
	y := Embed([]float64{0, 0, 1, 1}, 2, 2, Options{Iterations: 50, Seed: 1})
	if math.IsNaN(y[0]) || y[0] == y[2] && y[1] == y[3] {
		t.Errorf("two points gave %v", y)
	}
}

func TestAgreementByHand(t *testing.T) {
	for _, c := range []struct {
		name   string
		x      []float64
		d      int
		labels []int
		k      int
		want   float64
	}{
		{"two pairs apart, k=1", []float64{0, 0.1, 10, 10.1}, 1, []int{0, 0, 1, 1}, 1, 1},
		// A label of k points or fewer: the figure would say how many there
		// are, not how they lie.
		{"two pairs apart, k=2", []float64{0, 0.1, 10, 10.1}, 1, []int{0, 0, 1, 1}, 2, math.NaN()},
		{"three and three, k=2", []float64{0, 0.1, 0.2, 10, 10.1, 10.2}, 1, []int{0, 0, 0, 1, 1, 1}, 2, 1},
		{"alternating on a line, k=1", []float64{0, 1, 2, 3}, 1, []int{0, 1, 0, 1}, 1, 0},
		// Point 1 is as far from 0 as from 2: the tie goes to the lower index.
		{"a tie", []float64{0, 1, 2, 3}, 1, []int{0, 0, 1, 1}, 1, (1 + 1 + 0 + 1) / 4.0},
		{"k above a label's count", []float64{0, 0, 5, 5, 0, 1}, 2, []int{0, 1, 0}, 5, math.NaN()},
		{"one point", []float64{1}, 1, []int{0}, 3, math.NaN()},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := Agreement(c.x, len(c.labels), c.d, c.labels, c.k)
			if math.IsNaN(c.want) != math.IsNaN(got) || !math.IsNaN(c.want) && math.Abs(got-c.want) > 1e-12 {
				t.Errorf("Agreement = %v, want %v", got, c.want)
			}
		})
	}
}

// TestRunStepsToEmbed: a Run stepped by hand takes Iterations steps and
// ends where Embed does.
func TestRunStepsToEmbed(t *testing.T) {
	x, _ := clusters(2, 15, 4, 6, 1, 3)
	o := Options{Iterations: 120, Seed: 7}
	r, steps := Start(x, 30, 4, o), 0
	for !r.Done() {
		r.Step()
		steps++
	}
	if steps != 120 || r.Step() {
		t.Errorf("%d steps, then Step %v; want 120, then false", steps, r.Step())
	}
	if got, want := digest(r.Y()), digest(Embed(x, 30, 4, o)); got != want {
		t.Errorf("stepped %s, Embed %s", got, want)
	}
}
