// Package force lays a graph out by forces in which each edge pulls with
// its own weight, so that a drawing can follow weights that change as a
// model trains. It is apart from viz because it needs gonum's Barnes–Hut
// tree, which the page's own code does not link (the worker runs it).
package force

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/spatial/barneshut"
	"gonum.org/v1/gonum/spatial/r2"
)

// Layout is a force-directed layout (Fruchterman and Reingold, 1991) in which
// each edge pulls with its own weight, so that a graph whose weights change
// as a model trains can be laid out as it goes. Every node repels every
// other with force k²/d (summed by gonum's Barnes–Hut tree); edge e pulls
// its ends together with force w_e·d²/k, where the weights are divided by
// their mean so the drawing keeps its scale as they shrink; a weak pull
// towards the origin keeps pieces that nothing joins in view. No node moves
// further in a step than the temperature, which cools by a constant factor
// each step and can be raised again (Heat) when the weights change.
//
// It is written here, not taken from gonum's graph/layout, because EadesR2
// starts from random positions on every run (the layout could not follow
// training from where it is), has no temperature (its moves are unbounded,
// so it diverges on dense graphs) and pulls by log(d), which barely tells
// a weight of 0.4 from one of 0.04 at the distances that matter.
type Layout struct {
	src, dst []int32
	pos      []r2.Vec
	bodies   []barneshut.Particle2
	disp     []r2.Vec
	k        float64 // the ideal edge length
	temp     float64
}

// The schedule: a fresh layout starts at temperature Start and cools by
// cooling each step; it is done below cold.
const (
	Start   = 0.1
	cooling = 0.97
	cold    = 0.002
	gravity = 0.05 // pull towards the origin, in units of 1/k
	theta   = 0.8  // Barnes–Hut's accuracy
)

type body struct{ p *r2.Vec }

func (b body) Coord2() r2.Vec { return *b.p }
func (b body) Mass() float64  { return 1 }

// New returns a hot layout of n nodes and the edges src[e]–dst[e],
// the nodes scattered over the unit square from seed.
func New(n int, src, dst []int32, seed uint64) *Layout {
	f := &Layout{src: src, dst: dst, pos: make([]r2.Vec, n), bodies: make([]barneshut.Particle2, n),
		disp: make([]r2.Vec, n), k: 1 / math.Sqrt(float64(max(n, 1))), temp: Start}
	r := rand.New(rand.NewPCG(seed, 0xf0ce))
	for i := range f.pos {
		f.pos[i] = r2.Vec{X: r.Float64() - 0.5, Y: r.Float64() - 0.5}
		f.bodies[i] = body{&f.pos[i]}
	}
	return f
}

// SetEdges makes src[e]–dst[e] the edges, over the same nodes where they
// are: an edited graph's layout moves on from where it was.
func (f *Layout) SetEdges(src, dst []int32) { f.src, f.dst = src, dst }

// Heat raises the temperature to at least t, so the layout moves again.
func (f *Layout) Heat(t float64) { f.temp = max(f.temp, t) }

// Hot reports whether the layout still moves.
func (f *Layout) Hot() bool { return f.temp >= cold }

// Step moves every node once, each edge pulling with its weight w[e]; with
// w nil or of the wrong length every edge pulls alike. It reports whether
// the layout is still hot afterwards.
func (f *Layout) Step(w []float64) bool {
	if !f.Hot() || len(f.pos) == 0 {
		return false
	}
	scale := 1.0
	if len(w) == len(f.src) {
		scale = meanWeight(w)
	} else {
		w = nil
	}
	f.repel()
	for e := range f.src {
		u, v := f.src[e], f.dst[e]
		pull := 1.0
		if w != nil {
			pull = w[e] / scale
		}
		if !finite(pull) || pull <= 0 {
			continue
		}
		d := r2.Sub(f.pos[v], f.pos[u])
		m := pull * math.Hypot(d.X, d.Y) / f.k // d²/k along the unit vector d/|d|
		f.disp[u] = r2.Add(f.disp[u], r2.Scale(m, d))
		f.disp[v] = r2.Sub(f.disp[v], r2.Scale(m, d))
	}
	for i := range f.pos {
		step := r2.Sub(f.disp[i], r2.Scale(gravity/f.k, f.pos[i]))
		l := math.Hypot(step.X, step.Y)
		if !finite(l) || l == 0 {
			continue
		}
		f.pos[i] = r2.Add(f.pos[i], r2.Scale(math.Min(l, f.temp)/l, step))
	}
	f.temp *= cooling
	return f.Hot()
}

// repel sets every node's displacement to the repulsion of all others.
func (f *Layout) repel() {
	plane, err := barneshut.NewPlane(f.bodies)
	if err != nil { // nodes on top of each other: no tree, no push this step
		clear(f.disp)
		return
	}
	k2 := f.k * f.k
	push := func(_, _ barneshut.Particle2, m1, m2 float64, v r2.Vec) r2.Vec {
		d2 := v.X*v.X + v.Y*v.Y
		if d2 < 1e-18 {
			return r2.Vec{}
		}
		return r2.Scale(-k2*m1*m2/d2, v) // k²/d along −v/|v|
	}
	for i, b := range f.bodies {
		f.disp[i] = plane.ForceOn(b, theta, push)
	}
}

// meanWeight is the mean of the finite positive weights, 1 if there are none.
func meanWeight(w []float64) float64 {
	var sum float64
	n := 0
	for _, x := range w {
		if finite(x) && x > 0 {
			sum += x
			n++
		}
	}
	if n == 0 || sum == 0 {
		return 1
	}
	return sum / float64(n)
}

// Positions writes the positions x₀, y₀, x₁, y₁, … into dst, grown as needed.
func (f *Layout) Positions(dst []float32) []float32 {
	dst = dst[:0]
	for _, p := range f.pos {
		dst = append(dst, float32(p.X), float32(p.Y))
	}
	return dst
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
