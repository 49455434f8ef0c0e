package pdn

import (
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"testing"
	"time"

	"pdnexplorer/datasets"
)

// The helpers every embedding's tests share: graphs whose neighbourhoods
// are plain (cliques), the same bits however the set-up is cut, and the
// Python that checks a method against Karate Club's computation.

// cliqueRing is c cliques of k nodes in a ring, each joined to the next
// by one edge (from its first node to the next one's last), clique q
// being nodes qk…qk+k−1 and the class of each.
func cliqueRing(c, k int) *datasets.Graph {
	g := &datasets.Graph{N: c * k, C: c}
	for q := range c {
		for i := range k {
			g.Labels = append(g.Labels, q)
			g.Splits = append(g.Splits, datasets.Train)
			for j := i + 1; j < k; j++ {
				g.Src, g.Dst = append(g.Src, int32(q*k+i)), append(g.Dst, int32(q*k+j))
			}
		}
		g.Src, g.Dst = append(g.Src, int32(q*k)), append(g.Dst, int32((q+1)%c*k+k-1))
	}
	return g
}

// sameEmbeddingHoweverCut makes an embedding in one piece, and another
// in as many pieces as there are steps (every deadline already past), at
// least least pieces, its share done rising and none showing an embedding
// before it is done: the same bits, which it returns.
func sameEmbeddingHoweverCut(t *testing.T, least int, build func() embedder) []float64 {
	t.Helper()
	whole := build()
	if !whole.prepare(farFuture) {
		t.Fatal("not done by a deadline that never passes")
	}
	cut := build()
	pieces, last := 1, 0.0
	for !cut.prepare(time.Time{}) {
		p := cut.preparing()
		if p < last || p >= 1 {
			t.Fatalf("preparing %v before done, after %v", p, last)
		}
		last = p
		if cut.embedding() != nil {
			t.Fatal("an embedding before it is done")
		}
		pieces++
	}
	if cut.preparing() != 1 {
		t.Errorf("preparing %v once done", cut.preparing())
	}
	if pieces < least {
		t.Errorf("made in %d pieces, want at least %d", pieces, least)
	}
	sameBits(t, cut.embedding(), whole.embedding())
	return whole.embedding()
}

// meanDistances is the mean Euclidean distance between the embeddings
// (d columns) of nodes of one clique and between nodes of different
// cliques of cliqueRing(·, k).
func meanDistances(x []float64, d, k int) (within, across float64) {
	n := len(x) / d
	var nw, na float64
	for i := range n {
		for j := i + 1; j < n; j++ {
			var s float64
			for t := range d {
				dt := x[i*d+t] - x[j*d+t]
				s += dt * dt
			}
			if i/k == j/k {
				within, nw = within+math.Sqrt(s), nw+1
			} else {
				across, na = across+math.Sqrt(s), na+1
			}
		}
	}
	return within / nw, across / na
}

// eachNearerItsClique fails t for every node of twoCliques(k) whose
// embedding (d columns) lies no nearer, on average, to its own clique's
// than to the other's.
func eachNearerItsClique(t *testing.T, x []float64, d, k int) {
	t.Helper()
	if len(x) != 2*k*d {
		t.Fatalf("embedding of %d values: want %d nodes × %d", len(x), 2*k, d)
	}
	dist := func(u, v int) float64 {
		var s float64
		for t := range d {
			e := x[u*d+t] - x[v*d+t]
			s += e * e
		}
		return math.Sqrt(s)
	}
	for u := range 2 * k {
		var own, other float64
		for v := range 2 * k {
			if v == u {
				continue
			}
			if (u < k) == (v < k) {
				own += dist(u, v) / float64(k-1)
			} else {
				other += dist(u, v) / float64(k)
			}
		}
		if own >= other {
			t.Errorf("node %d: mean distance %.3f to its clique, %.3f to the other", u, own, other)
		}
	}
}

// peerPython is the Python that checks a method against its peer's
// computation (Karate Club's, scikit-learn's), PDN_PYTHON or else
// python3, given the modules it must import; the test is skipped where it
// has them not, or in -short, where what names the work it would do.
func peerPython(t *testing.T, modules, what string) string {
	t.Helper()
	py := os.Getenv("PDN_PYTHON")
	if py == "" {
		py = "python3"
	}
	if err := exec.Command(py, "-c", "import "+modules).Run(); err != nil {
		t.Skipf("%s has no %s", py, modules)
	}
	if testing.Short() {
		t.Skip(what)
	}
	return py
}

// embedWhole makes m's embedding in one piece, and checks its size.
func embedWhole(t *testing.T, g *datasets.Graph, m embedder) []float64 {
	t.Helper()
	if !m.prepare(farFuture) {
		t.Fatal("prepare stopped before a far deadline")
	}
	if got := len(m.embedding()); got != g.N*m.dim() {
		t.Fatalf("embedding of %d values, want %d×%d", got, g.N, m.dim())
	}
	return m.embedding()
}

// wordCliques is twoCliques(k) whose nodes' f features are the five words
// of their clique (columns 0–4 or 5–9) and one drawn from all, every node
// a training node: the attributed embeddings' known answer.
func wordCliques(k, f int) *datasets.Graph {
	g := twoCliques(k)
	g.F, g.C = f, 2
	rnd := rand.New(rand.NewPCG(1, 2))
	g.X = make([]float64, g.N*f)
	for i := range g.N {
		for w := range 5 {
			g.X[i*f+5*(i/k)+w] = 1
		}
		g.X[i*f+rnd.IntN(f)] = 1
		g.Labels, g.Splits = append(g.Labels, i/k), append(g.Splits, datasets.Train)
	}
	return g
}
