package pdn

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os/exec"
	"testing"

	"gonum.org/v1/gonum/mat"

	"pdnexplorer/datasets"
)

// teneGraph is a triangle with a tail, a single edge and a node alone, with
// f non-negative features a node (the absolute values of featherGraph's,
// half of them 0): text counts, as TENE factorises them.
func teneGraph(f int) *datasets.Graph {
	src, dst := []int32{0, 0, 1, 2, 4}, []int32{1, 2, 2, 3, 5}
	g := featherGraph(2, 7, f, 1, src, dst)
	for i, v := range g.X {
		g.X[i] = math.Abs(v)
	}
	return g
}

// teneFirst is the factors the embedder draws from seed, in its order, as
// dense matrices: M, U, Q (n×32), V (f×32) and C (32×32).
func teneFirst(seed uint64, n, f int) (m, u, q, v, c *mat.Dense) {
	rnd := rand.New(rand.NewPCG(seed, streamTENE))
	draw := func(r int) *mat.Dense {
		x := mat.NewDense(r, TENEDim, nil)
		for i := range r {
			for j := range TENEDim {
				x.Set(i, j, rnd.Float64())
			}
		}
		return x
	}
	return draw(n), draw(n), draw(n), draw(f), draw(TENEDim)
}

// sameWithin fails t where got and want differ by more than tol relative
// to the larger of 1 and want.
func sameWithin(t *testing.T, got, want []float64, tol float64, what string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	worst := 0.0
	for i, w := range want {
		worst = max(worst, math.Abs(got[i]-w)/math.Max(1, math.Abs(w)))
	}
	t.Logf("%s: within %.2g", what, worst)
	if worst > tol {
		t.Errorf("%s: within %.2g, want %.2g", what, worst, tol)
	}
}

// The embedding is Karate Club's TENE computed the plain way, with dense
// matrices: X = Δ⁻¹(A + I) over the graph with a loop at every node (δ =
// d + 2), the factors drawn as the embedder draws them, and 200 times the
// five multiplicative updates in Karate Club's order, each factor held at
// 10⁻¹⁵ or above; [M | Q]. Sparse features give what dense ones do, to
// rounding (their sums group the products otherwise).
func TestTENEIsItsDefinition(t *testing.T) {
	const f, seed = 5, 3
	g := teneGraph(f)
	n := g.N
	got := embedWhole(t, g, newTENE(g, seed))

	x := mat.NewDense(n, n, nil)
	deg := make([]float64, n)
	for e := range g.Src {
		x.Set(int(g.Src[e]), int(g.Dst[e]), 1)
		x.Set(int(g.Dst[e]), int(g.Src[e]), 1)
		deg[g.Src[e]]++
		deg[g.Dst[e]]++
	}
	for i := range n {
		x.Set(i, i, 1)
		for j := range n {
			x.Set(i, j, x.At(i, j)/(deg[i]+2))
		}
	}
	tt := mat.NewDense(n, f, g.X)
	m, u, q, v, c := teneFirst(seed, n, f)
	ratio := func(dst, num, den *mat.Dense) {
		r, k := dst.Dims()
		for i := range r {
			for j := range k {
				dst.Set(i, j, math.Max(dst.At(i, j)*(num.At(i, j)/den.At(i, j)), TENELower))
			}
		}
	}
	for range TENEIters {
		var num, den, gram, tmp mat.Dense
		num.Mul(x, u)
		gram.Mul(u.T(), u)
		den.Mul(m, &gram)
		ratio(m, &num, &den)

		num.Reset()
		den.Reset()
		gram.Reset()
		num.Mul(tt.T(), q)
		gram.Mul(q.T(), q)
		den.Mul(v, &gram)
		ratio(v, &num, &den)

		num.Reset()
		den.Reset()
		gram.Reset()
		num.Mul(q.T(), u)
		gram.Mul(u.T(), u)
		den.Mul(c, &gram)
		ratio(c, &num, &den)

		num.Reset()
		den.Reset()
		gram.Reset()
		num.Mul(x.T(), m)
		tmp.Mul(q, c)
		tmp.Scale(TENEAlpha, &tmp)
		num.Add(&num, &tmp)
		var cc mat.Dense
		gram.Mul(m.T(), m)
		cc.Mul(c.T(), c)
		cc.Scale(TENEAlpha, &cc)
		gram.Add(&gram, &cc)
		den.Mul(u, &gram)
		ratio(u, &num, &den)

		num.Reset()
		den.Reset()
		gram.Reset()
		tmp.Reset()
		num.Mul(u, c.T())
		num.Scale(TENEAlpha, &num)
		tmp.Mul(tt, v)
		tmp.Scale(TENEBeta, &tmp)
		num.Add(&num, &tmp)
		gram.Mul(v.T(), v)
		den.Mul(q, &gram)
		den.Scale(TENEBeta, &den)
		tmp.Scale(TENEAlpha, q)
		den.Add(&tmp, &den)
		ratio(q, &num, &den)
	}
	want := make([]float64, 0, n*2*TENEDim)
	for i := range n {
		want = append(append(want, m.RawRowView(i)...), q.RawRowView(i)...)
	}
	sameWithin(t, got, want, 1e-9, "the embedding against dense products")
	sameWithin(t, embedWhole(t, g, newTENE(featherSparse(g), seed)), got, 1e-9, "sparse features against dense")
	if m0 := rand.New(rand.NewPCG(seed, streamTENE)).Float64(); got[0] == m0 {
		t.Error("M never moved")
	}
}

// On a graph and a start given to it, Karate Club's TENE (its fit, the
// graph made by networkx with the loops Karate Club adds, X by its
// _create_base_matrix), re-expressed in numpy where karateclub is not
// installed, ends where the embedder does. Skipped where no Python with
// numpy, scipy and networkx is at hand (PDN_PYTHON names one).
func TestTENEMatchesKarateClub(t *testing.T) {
	py := peerPython(t, "numpy, scipy, networkx", "runs TENE's 200 iterations in numpy")
	const script = `import json, sys, numpy as np, networkx as nx
from scipy import sparse
d = json.load(sys.stdin)
n = d["n"]
g = nx.Graph(); g.add_nodes_from(range(n)); g.add_edges_from(zip(d["src"], d["dst"]))
g.add_edges_from((i, i) for i in range(n))
A = nx.adjacency_matrix(g, nodelist=range(n))
Dinv = sparse.coo_matrix(([1.0 / g.degree[i] for i in range(n)], (np.arange(n), np.arange(n))), shape=(n, n))
X = Dinv.dot(A)
T = np.array(d["t"]).reshape(n, d["f"])
M, U, Q, V, C = (np.array(d[k]) for k in ("m", "u", "q", "v", "c"))
al, be, lo = d["alpha"], d["beta"], d["lower"]
for _ in range(d["iters"]):
    M = M * (X.dot(U) / M.dot(U.T.dot(U))); M[M < lo] = lo
    V = V * (T.T.dot(Q) / V.dot(Q.T.dot(Q))); V[V < lo] = lo
    C = C * (Q.T.dot(U) / C.dot(U.T.dot(U))); C[C < lo] = lo
    U = U * ((X.T.dot(M) + al * Q.dot(C)) / U.dot(M.T.dot(M) + al * C.T.dot(C))); U[U < lo] = lo
    Q = Q * ((al * U.dot(C.T) + be * T.dot(V)) / (al * Q + be * Q.dot(V.T.dot(V)))); Q[Q < lo] = lo
print(json.dumps(np.concatenate([M, Q], axis=1).ravel().tolist()))`
	const f, seed = 6, 5
	g := teneGraph(f)
	g.Src, g.Dst = append(g.Src, 3, 5), append(g.Dst, 4, 6) // one graph
	m, u, q, v, c := teneFirst(seed, g.N, f)
	in := map[string]any{"n": g.N, "f": f, "src": g.Src, "dst": g.Dst, "t": g.X, "iters": TENEIters,
		"alpha": TENEAlpha, "beta": TENEBeta, "lower": TENELower}
	for name, x := range map[string]*mat.Dense{"m": m, "u": u, "q": q, "v": v, "c": c} {
		r, _ := x.Dims()
		rows := make([][]float64, r)
		for i := range rows {
			rows[i] = x.RawRowView(i)
		}
		in[name] = rows
	}
	b, _ := json.Marshal(in)
	cmd := exec.Command(py, "-c", script)
	cmd.Stdin = bytes.NewReader(b)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("numpy: %v", err)
	}
	var want []float64
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatal(err)
	}
	sameWithin(t, embedWhole(t, g, newTENE(g, seed)), want, 1e-9, "the embedding against numpy's")
}

// The embedding has the same bits however its set-up is cut: at once, or
// one update at a time (a deadline already past), the share done rising
// to 1; sparse features and dense alike.
func TestTENESameBitsHoweverCut(t *testing.T) {
	const n, f = 120, 40
	src, dst := ring(n)
	dense := featherGraph(4, n, f, 0.9, src, dst)
	for _, g := range []*datasets.Graph{dense, featherSparse(dense)} {
		sameEmbeddingHoweverCut(t, 1+TENEIters*teneUpdates, func() embedder { return newTENE(g, 5) })
	}
}

// On two cliques joined by two edges, whose features (a constant and
// noise) say nothing of them, the structure's half of every node's
// embedding, M's row, lies nearer its own clique's than the other's, and
// by far on average: M·Uᵀ approximates X, whose rows within a clique are
// nearly equal. The text's half, Q's row, follows the features, here noise.
func TestTENESeparatesCliques(t *testing.T) {
	const k = 10
	g := cliqueRing(2, k)
	g.F = 3
	rnd := rand.New(rand.NewPCG(1, 2))
	for range g.N {
		g.X = append(g.X, 1, rnd.Float64(), rnd.Float64())
	}
	x := embedWhole(t, g, newTENE(g, 1))
	var m []float64
	for i := range g.N {
		m = append(m, x[i*2*TENEDim:][:TENEDim]...)
	}
	eachNearerItsClique(t, m, TENEDim, k)
	within, across := meanDistances(m, TENEDim, k)
	t.Logf("M: mean distance within a clique %.3f, across %.3f", within, across)
	if within >= across/3 {
		t.Errorf("M: mean distance within a clique %.3f, across %.3f", within, across)
	}
}
