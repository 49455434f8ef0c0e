// Package tsne embeds points in two dimensions by exact t-SNE (van der
// Maaten & Hinton, "Visualizing Data using t-SNE", JMLR 2008), and measures
// how well labels separate in an embedding by the agreement of nearest
// neighbours. It draws Figure 4 of the paper, the edge representations of
// PDN and GAT, in the CLI and in the browser's engine worker alike.
//
// It is written here rather than taken from a library: gonum has no t-SNE,
// and the Go one that exists (danaugrs/go-tsne) draws from math/rand's
// global source, so two runs differ and two goroutines race, and it is
// unmaintained. This one is seeded (math/rand/v2's PCG), allocates nothing
// per iteration, and gives the same bits on every platform: every product
// is wrapped in float64(…) so no compiler fuses it into a multiply-add, the
// sums run in a fixed order, and exponentials are fmath.Exp's.
//
// The math, for n points x_i:
//
//	p_{j|i} = exp(−β_i ‖x_i − x_j‖²) / Σ_{k≠i} exp(−β_i ‖x_i − x_k‖²),
//
// with each precision β_i found by bisection so that the entropy
// H(P_i) = −Σ_j p_{j|i} ln p_{j|i} equals ln(perplexity);
// p_ij = (p_{j|i} + p_{i|j}) / 2n. In the embedding y, a Student t kernel
// with one degree of freedom,
//
//	q_ij = (1 + ‖y_i − y_j‖²)⁻¹ / Σ_{k≠l} (1 + ‖y_k − y_l‖²)⁻¹,
//
// and gradient descent on KL(P‖Q), whose gradient is
//
//	∂C/∂y_i = 4 Σ_j (p_ij − q_ij)(y_i − y_j)(1 + ‖y_i − y_j‖²)⁻¹,
//
// with the paper's refinements: P multiplied by 12 for the first 250
// iterations (early exaggeration), momentum 0.5 then 0.8, and per-
// coordinate gains (Jacobs' delta-bar-delta, as the authors' code).
// The start is uniform in ±10⁻⁴ (not Gaussian: math/rand's normal
// draws call math.Exp, whose amd64 assembly rounds differently).
//
// The cost is n² per iteration: a few hundred points, as Figure 4 needs,
// embed in a second natively. Callers sample larger sets first.
package tsne

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"

	"pdnexplorer/internal/fmath"
)

// Options are an embedding's settings; the zero value of a field takes its
// default.
type Options struct {
	// Perplexity is the effective number of neighbours each point's
	// Gaussian covers: 30, and at most (n−1)/3 for few points.
	Perplexity float64
	// Iterations of gradient descent: 1000.
	Iterations int
	// Seed seeds the start.
	Seed uint64
}

// Defaults of Options, as the authors' code and scikit-learn.
const (
	DefaultPerplexity = 30
	DefaultIterations = 1000
	exaggeration      = 12
	exaggerated       = 250 // iterations with P exaggerated and momentum 0.5
)

// Embed returns the two-dimensional t-SNE embedding of the n points in x,
// rows of d coordinates (x is n×d), as n rows of 2 (n×2). It panics if
// len(x) != n·d. Fewer than 2 points embed at the origin.
func Embed(x []float64, n, d int, o Options) []float64 {
	r := Start(x, n, d, o)
	for r.Step() {
	}
	return r.Y()
}

// Run is an embedding under way, an iteration at a time, so that a caller
// with other work (the browser's engine, which trains between) can spread
// its seconds: Start, Step until it reports false, then Y. The iterations
// are Embed's, so the result is the same bits.
type Run struct {
	n, it, iters            int
	lr                      float64
	p, y, grad, step, gains []float64
	num                     []float64
}

// Start computes the affinities of the n points in x (rows of d; the
// n² distances and a bisection per point, the costly part before the
// iterations) and places the start. It panics if len(x) != n·d.
func Start(x []float64, n, d int, o Options) *Run {
	if len(x) != n*d {
		panic("tsne: x is not n×d")
	}
	r := &Run{n: n, y: make([]float64, 2*n)}
	if n < 2 {
		return r
	}
	perp := o.Perplexity
	if perp <= 0 {
		perp = DefaultPerplexity
	}
	perp = min(perp, max(float64(n-1)/3, 1))
	r.iters = o.Iterations
	if r.iters <= 0 {
		r.iters = DefaultIterations
	}
	r.p = affinities(sqDistances(x, n, d), n, perp)

	rnd := rand.New(rand.NewPCG(o.Seed, 0x7453_4e45))
	for i := range r.y {
		r.y[i] = float64(float64(2*rnd.Float64())-1) * 1e-4
	}
	// The learning rate of scikit-learn's "auto": n over the exaggeration
	// and 4, at least 50.
	r.lr = max(float64(n)/exaggeration/4, 50)
	r.grad, r.step, r.gains = make([]float64, 2*n), make([]float64, 2*n), make([]float64, 2*n)
	for i := range r.gains {
		r.gains[i] = 1
	}
	r.num = make([]float64, n*n)
	return r
}

// Step runs one iteration of gradient descent; it reports whether
// iterations remain after it (false, doing nothing, once all have run).
func (r *Run) Step() bool {
	if r.it >= r.iters {
		return false
	}
	y, step, gains := r.y, r.step, r.gains
	ex, mom := 1.0, 0.8
	if r.it < exaggerated {
		ex, mom = exaggeration, 0.5
	}
	gradient(r.grad, r.num, r.p, y, r.n, ex)
	for i := range y {
		g := r.grad[i]
		if (g > 0) != (step[i] > 0) {
			gains[i] += 0.2
		} else {
			gains[i] *= 0.8
		}
		gains[i] = max(gains[i], 0.01)
		step[i] = float64(mom*step[i]) - float64(float64(r.lr*gains[i])*g)
		y[i] += step[i]
	}
	center(y, r.n)
	r.it++
	return r.it < r.iters
}

// Done reports whether every iteration has run.
func (r *Run) Done() bool { return r.it >= r.iters }

// Y is the embedding as it stands, n rows of 2: the final one once Done.
// It is the run's own slice, which further steps change.
func (r *Run) Y() []float64 { return r.y }

// sqDistances are the squared Euclidean distances between the rows of x,
// n×n.
func sqDistances(x []float64, n, d int) []float64 {
	dist := make([]float64, n*n)
	for i := 0; i < n; i++ {
		xi := x[i*d : (i+1)*d]
		for j := i + 1; j < n; j++ {
			xj := x[j*d : (j+1)*d]
			var s float64
			for k := range xi {
				v := xi[k] - xj[k]
				s += float64(v * v)
			}
			dist[i*n+j], dist[j*n+i] = s, s
		}
	}
	return dist
}

// affinities are the symmetric p_ij of the package comment, n×n, each
// row's precision found by bisection on its entropy.
func affinities(dist []float64, n int, perp float64) []float64 {
	p := make([]float64, n*n)
	target := fmath.Log(perp)
	for i := 0; i < n; i++ {
		row, pi := dist[i*n:(i+1)*n], p[i*n:(i+1)*n]
		// Distances relative to the nearest other point: the same
		// probabilities, and no row underflows to all zeros.
		near := math.Inf(1)
		for j, v := range row {
			if j != i {
				near = min(near, v)
			}
		}
		beta, lo, hi := 1.0, 0.0, math.Inf(1)
		for range 100 {
			var sum, dot float64
			for j, v := range row {
				if j == i {
					pi[j] = 0
					continue
				}
				r := v - near
				e := fmath.Exp(-float64(beta * r))
				pi[j] = e
				sum += e
				dot += float64(r * e)
			}
			// H = ln Σ + β Σ r e / Σ (the shift by near cancels).
			h := fmath.Log(sum) + float64(beta*dot)/sum
			if math.Abs(h-target) < 1e-5 {
				break
			}
			if h > target { // too flat: sharpen
				lo = beta
				if math.IsInf(hi, 1) {
					beta *= 2
				} else {
					beta = (beta + hi) / 2
				}
			} else {
				hi = beta
				beta = (beta + lo) / 2
			}
		}
		var sum float64
		for _, v := range pi {
			sum += v
		}
		for j := range pi {
			pi[j] /= sum
		}
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			v := max((p[i*n+j]+p[j*n+i])/float64(2*n), 1e-12)
			p[i*n+j], p[j*n+i] = v, v
		}
	}
	return p
}

// gradient sets grad to ∂C/∂y with P multiplied by ex, using num (n×n) for
// the kernel's (1 + ‖y_i − y_j‖²)⁻¹.
func gradient(grad, num, p, y []float64, n int, ex float64) {
	var z float64
	for i := 0; i < n; i++ {
		num[i*n+i] = 0
		for j := i + 1; j < n; j++ {
			dx, dy := y[2*i]-y[2*j], y[2*i+1]-y[2*j+1]
			v := 1 / (1 + float64(dx*dx) + float64(dy*dy))
			num[i*n+j], num[j*n+i] = v, v
			z += float64(2 * v)
		}
	}
	for i := 0; i < n; i++ {
		var gx, gy float64
		for j := 0; j < n; j++ {
			if j == i {
				continue
			}
			v := num[i*n+j]
			m := float64((float64(ex*p[i*n+j]) - v/z) * v)
			gx += float64(m * (y[2*i] - y[2*j]))
			gy += float64(m * (y[2*i+1] - y[2*j+1]))
		}
		grad[2*i], grad[2*i+1] = 4*gx, 4*gy
	}
}

// center moves the embedding's mean to the origin.
func center(y []float64, n int) {
	var mx, my float64
	for i := 0; i < n; i++ {
		mx += y[2*i]
		my += y[2*i+1]
	}
	mx, my = mx/float64(n), my/float64(n)
	for i := 0; i < n; i++ {
		y[2*i] -= mx
		y[2*i+1] -= my
	}
}

// Agreement is the k-nearest-neighbour agreement of labels among the n
// points of x (rows of d): the share of each point's k nearest other
// points (Euclidean; ties by the lower index) that carry its label,
// averaged over the points. With two labels of equal counts it is about
// 0.5 where the labels mix and 1 where they separate. It is NaN where
// some label has k points or fewer: such a point cannot have k neighbours
// of its own label, and the figure would say how many points there are,
// not how they lie (a tiny graph's few edges). It panics if len(x) != n·d
// or len(labels) != n.
func Agreement(x []float64, n, d int, labels []int, k int) float64 {
	if len(x) != n*d || len(labels) != n {
		panic("tsne: x is not n×d or labels not n")
	}
	if n < 2 || k < 1 {
		return math.NaN()
	}
	count := map[int]int{}
	for _, l := range labels {
		count[l]++
	}
	for _, c := range count {
		if c <= k {
			return math.NaN()
		}
	}
	dist := sqDistances(x, n, d)
	order := make([]int, 0, n-1)
	var total float64
	for i := 0; i < n; i++ {
		order = order[:0]
		for j := 0; j < n; j++ {
			if j != i {
				order = append(order, j)
			}
		}
		row := dist[i*n : (i+1)*n]
		slices.SortFunc(order, func(a, b int) int {
			if c := cmp.Compare(row[a], row[b]); c != 0 {
				return c
			}
			return cmp.Compare(a, b)
		})
		same := 0
		for _, j := range order[:k] {
			if labels[j] == labels[i] {
				same++
			}
		}
		total += float64(same) / float64(k)
	}
	return total / float64(n)
}
