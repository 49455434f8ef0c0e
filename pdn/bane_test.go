package pdn

import (
	"math"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"pdnexplorer/datasets"
)

func baneEmbedding(t *testing.T, g *datasets.Graph, seed uint64) []float64 {
	t.Helper()
	return embedWhole(t, g, newBANE(g, seed))
}

// Â·X is Karate Club's normalised adjacency times the features, dense or
// sparse alike; its SVD's U·Σ has orthogonal columns whose norms are
// Â·X's leading singular values.
func TestBANEReducesPropagatedFeatures(t *testing.T) {
	const n, f = 90, 60
	src, dst := ring(n)
	g := featherGraph(2, n, f, 0.93, src, dst)
	var ax mat.Dense
	ax.Mul(karateDense(g), mat.NewDense(n, f, g.X))
	var full mat.SVD
	if !full.Factorize(&ax, mat.SVDThin) {
		t.Fatal("gonum's SVD failed")
	}
	sv := full.Values(nil)
	for _, g := range []*datasets.Graph{g, featherSparse(g)} {
		m := newBANE(g, 3)
		for m.st != baneRound {
			m.prepare(time.Time{})
		}
		r := mat.NewDense(n, m.k, m.red)
		var gram mat.Dense
		gram.Mul(r.T(), r)
		for j := range m.k {
			for k := range m.k {
				want := 0.0
				if j == k {
					want = sv[j] * sv[j]
				}
				if math.Abs(gram.At(j, k)-want) > 1e-9*sv[0]*sv[0] {
					t.Fatalf("sparse %v: (P̃ᵀP̃)[%d][%d] = %v, want %v", g.XS != nil, j, k, gram.At(j, k), want)
				}
			}
		}
	}
}

// The last round is Karate Club's, computed here the plain way from the
// codes it began with: G, Q and K by dense products, then 100 sweeps each
// over every row, a column at a time, none stopped early. Rows whose signs
// cycle run all 100 sweeps in the embedder too; the others stop early at
// the same codes.
func TestBANELastRoundIsKarateClubs(t *testing.T) {
	const n, f = 60, 40
	src, dst := ring(n)
	g := featherGraph(5, n, f, 0.9, src, dst)
	m := newBANE(g, 7)
	for m.rd < BANERounds-1 {
		m.prepare(time.Time{})
	}
	k := m.k
	b := mat.NewDense(n, k, append([]float64(nil), m.b...))
	p := mat.NewDense(n, k, append([]float64(nil), m.red...))
	if !m.prepare(farFuture) {
		t.Fatal("prepare stopped before a far deadline")
	}
	var btb, btp, inv, gg, kk, q mat.Dense
	btb.Mul(b.T(), b)
	for d := range k {
		btb.Set(d, d, btb.At(d, d)+BANEAlpha)
	}
	btp.Mul(b.T(), p)
	if err := inv.Inverse(&btb); err != nil {
		t.Fatal(err)
	}
	gg.Mul(&inv, &btp)
	kk.Mul(&gg, &gg)
	q.Mul(p, gg.T())
	for range BANESweeps {
		for d := range k {
			for i := range n {
				s := q.At(i, d)
				for e := range k {
					if e != d {
						s -= b.At(i, e) * kk.At(e, d)
					}
				}
				b.Set(i, d, sign(s))
			}
		}
	}
	z := m.embedding()
	for i := range n {
		for d := range k {
			if x := z[i*k+d]; x != b.At(i, d) || x*x != 1 {
				t.Fatalf("B[%d][%d] = %v, want %v", i, d, x, b.At(i, d))
			}
		}
	}
}

// The embedding has the same bits however its set-up is cut: at once, or
// one step at a time (a deadline already past), the share done rising to 1.
func TestBANESameBitsHoweverCut(t *testing.T) {
	const n, f = 300, 50
	src, dst := ring(n)
	g := featherSparse(featherGraph(4, n, f, 0.9, src, dst))
	// pieces: the steps before the last, and the last.
	sameEmbeddingHoweverCut(t, BANESVDIter+(1+BANERounds)*(n/baneRows+1)+1, func() embedder { return newBANE(g, 5) })
}

// Two cliques joined by one edge, their features drawn about two centres:
// every node's code is nearer (in Hamming distance) to its own clique's
// than to the other's.
func TestBANETellsCliquesApart(t *testing.T) {
	const k, f = 12, 40
	var src, dst []int32
	for c := range 2 {
		for i := range k {
			for j := i + 1; j < k; j++ {
				src, dst = append(src, int32(c*k+i)), append(dst, int32(c*k+j))
			}
		}
	}
	src, dst = append(src, 0), append(dst, k)
	g := featherGraph(6, 2*k, f, 1, src, dst)
	for i := range 2 * k {
		for j := range f {
			if (j < f/2) == (i < k) {
				g.X[i*f+j] += 3
			} else {
				g.X[i*f+j] -= 3
			}
		}
	}
	z := baneEmbedding(t, g, 1)
	d := len(z) / g.N
	dist := func(u, v int) (s float64) {
		for c := range d {
			s += math.Abs(z[u*d+c] - z[v*d+c])
		}
		return s
	}
	for u := range 2 * k {
		var near, far float64
		for v := range 2 * k {
			if u/k == v/k {
				near += dist(u, v) / (k - 1)
			} else {
				far += dist(u, v) / k
			}
		}
		if near >= far {
			t.Errorf("node %d: its clique %v away on average, the other %v", u, near, far)
		}
	}
}
