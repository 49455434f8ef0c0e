package pdn

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"pdnexplorer/datasets"
)

// featherGraph is a graph of n nodes over the given edges with f features
// per node, dense, drawn from seed, each column weighted by decay^j so
// that the features' spectrum falls off (the SVD's power iterations then
// settle well within their 20); every other value is 0, so that its
// sparse form is sparse.
func featherGraph(seed uint64, n, f int, decay float64, src, dst []int32) *datasets.Graph {
	rnd := rand.New(rand.NewPCG(seed, 7))
	g := &datasets.Graph{N: n, F: f, C: 2, X: make([]float64, n*f), Src: src, Dst: dst}
	for i := range n {
		for j := range f {
			if (i+j)%2 == 0 {
				g.X[i*f+j] = math.Pow(decay, float64(j)) * rnd.NormFloat64()
			}
		}
		g.Labels = append(g.Labels, i%2)
		g.Splits = append(g.Splits, datasets.Train)
	}
	return g
}

// ring returns the edges of a ring over n nodes with a chord from every
// third node to the node n/2 on, so that degrees differ.
func ring(n int) (src, dst []int32) {
	for i := range n {
		src, dst = append(src, int32(i)), append(dst, int32((i+1)%n))
		if i%3 == 0 && i < (i+n/2)%n {
			src, dst = append(src, int32(i)), append(dst, int32(i+n/2))
		}
	}
	return src, dst
}

// featherSparse is g with its node features held sparse.
func featherSparse(g *datasets.Graph) *datasets.Graph {
	s := *g
	s.X, s.XS = nil, datasets.SparseOf(g.X, g.N, g.F)
	return &s
}

func featherEmbedding(t *testing.T, g *datasets.Graph, seed uint64) []float64 {
	t.Helper()
	return embedWhole(t, g, newFeather(g, seed))
}

// On features too few to reduce, the embedding is FEATHER-N's definition,
// computed here the plain way: P = D⁻¹A as a dense matrix, Φ's cosines and
// sines at numpy's linspace(0.01, 2.5, 25), and the blocks PΦ … P⁵Φ side
// by side, the features' columns outer and the points inner; a node
// without edges has a row of zeros. Sparse features give the same bits as
// dense ones.
func TestFeatherIsItsDefinition(t *testing.T) {
	// A triangle with a tail, a single edge, and node 6 alone.
	src, dst := []int32{0, 0, 1, 2, 4}, []int32{1, 2, 2, 3, 5}
	const n, f = 7, 3
	g := featherGraph(1, n, f, 1, src, dst)
	got := featherEmbedding(t, g, 1)

	p := mat.NewDense(n, n, nil)
	deg := make([]float64, n)
	for e := range src {
		deg[src[e]]++
		deg[dst[e]]++
	}
	for e := range src {
		u, v := int(src[e]), int(dst[e])
		p.Set(u, v, 1/deg[u])
		p.Set(v, u, 1/deg[v])
	}
	const pts = FeatherEvalPoints
	phi := mat.NewDense(n, 2*f*pts, nil)
	for i := range n {
		for j := range f {
			for k := range pts {
				theta := 0.01 + (2.5-0.01)*float64(k)/(pts-1)
				x := theta * g.X[i*f+j]
				phi.Set(i, j*pts+k, math.Cos(x))
				phi.Set(i, f*pts+j*pts+k, math.Sin(x))
			}
		}
	}
	d := featherDim(f)
	if d != 2*f*pts*FeatherOrder {
		t.Fatalf("dim %d", d)
	}
	power := mat.DenseCopyOf(phi)
	for s := range FeatherOrder {
		var next mat.Dense
		next.Mul(p, power)
		power = &next
		for i := range n {
			for c := range 2 * f * pts {
				want, have := power.At(i, c), got[i*d+s*2*f*pts+c]
				if math.Abs(want-have) > 1e-13 {
					t.Fatalf("P^%d Φ [%d][%d] = %v, want %v", s+1, i, c, have, want)
				}
			}
		}
	}
	for c := range d {
		if got[6*d+c] != 0 {
			t.Fatalf("the node without edges has %v in column %d", got[6*d+c], c)
		}
	}
	if !sameFloats(featherEmbedding(t, featherSparse(g), 1), got) {
		t.Error("sparse features give other bits than dense ones")
	}
}

// The points are numpy's linspace(0.01, 2.5, 25), to the bit: start plus
// t times the step, the last the end itself.
func TestFeatherThetas(t *testing.T) {
	want := []float64{0.01, 0.11375, 0.2175, 0.32125, 0.425, 0.52875, 0.6325, 0.73625, 0.84, 0.94375, 1.0475, 1.15125,
		1.255, 1.35875, 1.4625, 1.56625, 1.67, 1.77375, 1.8775, 1.98125, 2.085, 2.18875, 2.2925, 2.39625, 2.5}
	for k, th := range featherThetas {
		if math.Abs(th-want[k]) > 1e-15 {
			t.Errorf("θ_%d = %v, want %v", k, th, want[k])
		}
	}
	if featherThetas[0] != 0.01 || featherThetas[FeatherEvalPoints-1] != 2.5 {
		t.Errorf("the points run from %v to %v", featherThetas[0], featherThetas[FeatherEvalPoints-1])
	}
}

// Features wider than 64 are reduced to R = X·V, V their 64 leading right
// singular vectors (TruncatedSVD's transform): R's columns are orthogonal,
// their norms X's leading singular values, and RRᵀ is X's best rank-64
// approximation's XXᵀ. Dense and sparse features reduce alike.
func TestFeatherReducesBySVD(t *testing.T) {
	const n, f = 120, 90
	src, dst := ring(n)
	g := featherGraph(2, n, f, 0.93, src, dst)
	reduced := func(g *datasets.Graph) []float64 {
		m := newFeather(g, 3)
		for m.st == featherReduce {
			m.reduceStep()
		}
		return m.red
	}
	r := mat.NewDense(n, FeatherReduction, reduced(g))
	var full mat.SVD
	if !full.Factorize(mat.NewDense(n, f, g.X), mat.SVDThin) {
		t.Fatal("gonum's SVD failed")
	}
	sv := full.Values(nil)
	var gram mat.Dense
	gram.Mul(r.T(), r)
	for j := range FeatherReduction {
		for k := range FeatherReduction {
			want := 0.0
			if j == k {
				want = sv[j] * sv[j]
			}
			if math.Abs(gram.At(j, k)-want) > 1e-9*sv[0]*sv[0] {
				t.Fatalf("(RᵀR)[%d][%d] = %v, want %v", j, k, gram.At(j, k), want)
			}
		}
	}
	rs := mat.NewDense(n, FeatherReduction, reduced(featherSparse(g)))
	var diff mat.Dense
	diff.Sub(r, rs)
	if d := mat.Norm(&diff, math.Inf(1)); d > 1e-9*sv[0] {
		t.Errorf("dense and sparse features reduce %v apart", d)
	}
}

// The embedding has the same bits however its set-up is cut: at once, or
// one step at a time (a deadline already past), the share done rising to 1.
func TestFeatherSameBitsHoweverCut(t *testing.T) {
	const n, f = 80, 70
	src, dst := ring(n)
	g := featherSparse(featherGraph(4, n, f, 0.9, src, dst))
	// pieces: the steps before the last, and the last.
	sameEmbeddingHoweverCut(t, FeatherSVDIters+(FeatherOrder+1)*n/featherRows+1, func() embedder { return newFeather(g, 5) })
}

// Two cliques joined by one edge: every node's embedding is nearer to
// those of its own clique than to any of the other's, the walks averaging
// each clique's features together.
func TestFeatherTellsCliquesApart(t *testing.T) {
	const k = 8
	var src, dst []int32
	for c := range 2 {
		for i := range k {
			for j := i + 1; j < k; j++ {
				src, dst = append(src, int32(c*k+i)), append(dst, int32(c*k+j))
			}
		}
	}
	src, dst = append(src, 0), append(dst, k)
	g := featherGraph(6, 2*k, 4, 1, src, dst)
	z := featherEmbedding(t, g, 1)
	d := len(z) / g.N
	dist := func(u, v int) float64 {
		var s float64
		for c := range d {
			s += (z[u*d+c] - z[v*d+c]) * (z[u*d+c] - z[v*d+c])
		}
		return s
	}
	for u := range 2 * k {
		far, near := math.Inf(1), 0.0
		for v := range 2 * k {
			switch {
			case v == u:
			case u/k == v/k:
				near = max(near, dist(u, v))
			default:
				far = min(far, dist(u, v))
			}
		}
		if near >= far {
			t.Errorf("node %d: its clique as far as %v, the other as near as %v", u, near, far)
		}
	}
}

func sameFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}
