package viz

import (
	"math"
	"slices"
)

// coreShare is the share of a cloud of nodes drawn at its true relative
// distances; the farthest nodes beyond it are drawn in towards the cloud,
// so that a few stragglers of a force layout neither shrink the rest to a
// dot nor sit pinned to the frame.
const coreShare = 0.9

// coreSpread bounds the drawn core's radius by the median distance: see
// squash.
const coreSpread = 3.0

// Arrange returns the positions (x₀, y₀, x₁, y₁, …) to draw. byClass
// gives each class a region of its own, so inter-class edges are the long
// lines between regions: the regions' centres sit evenly on a circle of radius
// 1 and class k's nodes fill a disc around centre k: centred on the class's
// median, scaled so that coreShare of them keep their relative distances,
// the rest drawn in radially (see squash). Otherwise all nodes are squashed
// as one cloud. Nodes without a class (a negative label) fill a smaller
// disc in the middle. Non-finite positions are drawn at their cloud's centre.
func Arrange(byClass bool, pos []float32, labels []int) []float32 {
	n := min(len(labels), len(pos)/2)
	out := make([]float32, 2*n)
	if !byClass {
		all := make([]int, n)
		for i := range all {
			all[i] = i
		}
		squash(out, pos, all, 0, 0, 1)
		return out
	}
	classes := 0
	for _, l := range labels[:n] {
		classes = max(classes, l+1)
	}
	members := make([][]int, classes)
	var none []int // the nodes without a class, drawn in the middle
	for i, l := range labels[:n] {
		if l >= 0 {
			members[l] = append(members[l], i)
		} else {
			none = append(none, i)
		}
	}
	// Regions of radius r around centres on the unit circle: neighbouring
	// centres lie 2·sin(π/C) apart, and r leaves a gap between the discs.
	r := 0.8 * math.Sin(math.Pi/float64(max(classes, 2)))
	for k, idx := range members {
		a := 2*math.Pi*float64(k)/float64(classes) - math.Pi/2
		cx, cy := 0.0, 0.0
		if classes > 1 {
			cx, cy = math.Cos(a), math.Sin(a)
		}
		squash(out, pos, idx, cx, cy, r)
	}
	squash(out, pos, none, 0, 0, r/2)
	return out
}

// squash writes the nodes idx of pos into out, in a disc of radius r around
// (cx, cy): a node at distance d from the cloud's median is drawn at
// distance r·ρ′(d/R), where R is the coreShare quantile of the distances
// (at most coreSpread times their median),
// ρ′(ρ) = 0.85ρ up to ρ = 1 and 0.85 + 0.15(1 − e^{1−ρ}) beyond, which never
// reaches 1.
func squash(out, pos []float32, idx []int, cx, cy, r float64) {
	if len(idx) == 0 {
		return
	}
	xs, ys := make([]float64, 0, len(idx)), make([]float64, 0, len(idx))
	for _, i := range idx {
		x, y := float64(pos[2*i]), float64(pos[2*i+1])
		if finite(x) && finite(y) {
			xs, ys = append(xs, x), append(ys, y)
		}
	}
	mx, my := median(xs), median(ys)
	ds := make([]float64, len(xs))
	for j := range xs {
		ds[j] = math.Hypot(xs[j]-mx, ys[j]-my)
	}
	slices.Sort(ds)
	R := 1.0
	if len(ds) > 0 {
		// At most coreSpread times the median distance: a real graph's small
		// components drift far from the rest in a force layout, and where
		// they are more than a tenth of a class they would set R and shrink
		// the class's core to a dot.
		R = min(ds[min(len(ds)-1, int(coreShare*float64(len(ds))))], coreSpread*ds[len(ds)/2])
	}
	if !(R > 0) {
		R = 1
	}
	for _, i := range idx {
		dx, dy := float64(pos[2*i])-mx, float64(pos[2*i+1])-my
		d := math.Hypot(dx, dy)
		if !finite(d) || d == 0 {
			out[2*i], out[2*i+1] = float32(cx), float32(cy)
			continue
		}
		rho := d / R
		if rho <= 1 {
			rho *= 0.85
		} else {
			rho = 0.85 + 0.15*(1-math.Exp(1-rho))
		}
		out[2*i] = float32(cx + r*rho*dx/d)
		out[2*i+1] = float32(cy + r*rho*dy/d)
	}
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// median of xs (which it sorts); 0 for none.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	return xs[len(xs)/2]
}

// OwnCentreShare is the share of nodes drawn nearer the centre (mean
// position) of their own class than that of any other: about 1/C for C
// classes drawn on top of each other, 1 for classes drawn apart. Nodes
// with a negative label or a non-finite position are left out; NaN if
// none is left.
func OwnCentreShare(pos []float32, labels []int) float64 {
	n := min(len(labels), len(pos)/2)
	type centre struct{ x, y, n float64 }
	var cs []centre
	ok := func(i int) bool {
		return labels[i] >= 0 && finite(float64(pos[2*i])) && finite(float64(pos[2*i+1]))
	}
	for i := 0; i < n; i++ {
		if !ok(i) {
			continue
		}
		for len(cs) <= labels[i] {
			cs = append(cs, centre{})
		}
		c := &cs[labels[i]]
		c.x, c.y, c.n = c.x+float64(pos[2*i]), c.y+float64(pos[2*i+1]), c.n+1
	}
	own, all := 0, 0
	for i := 0; i < n; i++ {
		if !ok(i) {
			continue
		}
		all++
		best, bd := -1, math.Inf(1)
		for k, c := range cs {
			if c.n == 0 {
				continue
			}
			if d := math.Hypot(float64(pos[2*i])-c.x/c.n, float64(pos[2*i+1])-c.y/c.n); d < bd {
				best, bd = k, d
			}
		}
		if best == labels[i] {
			own++
		}
	}
	if all == 0 {
		return math.NaN()
	}
	return float64(own) / float64(all)
}
