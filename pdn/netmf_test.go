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

// netMFDense is NetMF's matrix log(max(M, 1)) computed densely from its
// definition (netMF), as the oracle of the sparse rows.
func netMFDense(g *datasets.Graph) *mat.Dense {
	n := g.N
	a := mat.NewDense(n, n, nil)
	for i := range n {
		a.Set(i, i, 1)
	}
	for e := range g.Src {
		a.Set(int(g.Src[e]), int(g.Dst[e]), 1)
		a.Set(int(g.Dst[e]), int(g.Src[e]), 1)
	}
	deg := make([]float64, n)
	for i := range n {
		deg[i] = mat.Sum(a.RowView(i)) + 1 // the loop counts twice
	}
	hat := mat.NewDense(n, n, nil)
	hat.Apply(func(i, j int, v float64) float64 { return v / deg[i] }, a)
	pool, pow := mat.DenseCopyOf(hat), mat.DenseCopyOf(hat)
	for range netMFOrder - 1 {
		pow.Mul(pow, hat)
		pool.Add(pool, pow)
	}
	vol := float64(g.E() + n)
	pool.Apply(func(i, j int, v float64) float64 {
		return math.Log(math.Max(vol/float64(netMFOrder*netMFNegatives)*v/deg[j], 1))
	}, pool)
	return pool
}

// The sparse rows are the matrix of the definition, computed densely, on
// two cliques and on a random graph with nodes of degree 0.
func TestNetMFMatrix(t *testing.T) {
	for _, tc := range []struct {
		name string
		g    *datasets.Graph
	}{{"cliques", cliqueRing(3, 5)}, {"random", smallGraph(4, 40, 30, 3, 2, 2)}} {
		m := newNetMF(tc.g, 1)
		for i := range tc.g.N {
			m.targetRow(i)
		}
		want := netMFDense(tc.g)
		got := mat.NewDense(tc.g.N, tc.g.N, nil)
		if err := m.target.a.Check(); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for i := range tc.g.N {
			for p := m.target.a.Ptr[i]; p < m.target.a.Ptr[i+1]; p++ {
				got.Set(i, int(m.target.a.Col[p]), m.target.a.Val[p])
			}
		}
		if !mat.EqualApprox(got, want, 1e-12) {
			t.Errorf("%s: the sparse rows differ from the dense matrix:\n%v\nwant\n%v", tc.name, mat.Formatted(got), mat.Formatted(want))
		}
	}
}

// NetMF's embedding is the same however prepare is cut, and on a ring of
// cliques puts each clique's nodes nearer each other than the others'.
func TestNetMFEmbedding(t *testing.T) {
	const k = 8
	g := cliqueRing(6, k)
	x := sameEmbeddingHoweverCut(t, 3, func() embedder { return newNetMF(g, 3) })
	within, across := meanDistances(x, netMFDim, k)
	t.Logf("mean distance within a clique %v, across %v", within, across)
	if within >= across/3 {
		t.Errorf("mean distance within a clique %v, across %v", within, across)
	}
}

// On Cora, NetMF's matrix is Karate Club's, as scipy computes it from the
// same graph with a loop at every node (karateclub.NetMF, v1.3, the
// matrix's single precision left out), and its singular values are
// scipy's (svds, to convergence) to 1e-6 for the first and 0.5% for the
// 32nd: ten power iterations of the range finder, in a flat spectrum. Skipped where no Python
// with scipy and networkx is at hand (PDN_PYTHON names one).
func TestNetMFMatchesKarateClub(t *testing.T) {
	py := peerPython(t, "scipy, networkx", "embeds Cora")
	g, err := datasets.Builtin("cora")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(map[string]any{"n": g.N, "src": g.Src, "dst": g.Dst})
	const script = `import json, sys, numpy as np, networkx as nx
from scipy import sparse
from scipy.sparse.linalg import svds
d = json.load(sys.stdin)
g = nx.Graph(); g.add_nodes_from(range(d["n"])); g.add_edges_from(zip(d["src"], d["dst"]))
g.add_edges_from((i, i) for i in range(d["n"]))
n = d["n"]
a = nx.adjacency_matrix(g, nodelist=range(n)).astype(float)
dinv = sparse.diags([1.0 / g.degree[i] for i in range(n)])
hat = dinv @ a
pool = hat + hat @ hat
m = sparse.coo_matrix((g.number_of_edges() * pool / 2) @ dinv)
m.data[m.data < 1] = 1
t = sparse.csr_matrix((np.log(m.data), (m.row, m.col)), shape=m.shape)
t.eliminate_zeros()
s = svds(t, k=32, tol=1e-12, random_state=0)[1][::-1]
print(json.dumps({"nnz": int(t.nnz), "sum": float(t.sum()), "sq": float(t.multiply(t).sum()), "s": s.tolist()}))`
	cmd := exec.Command(py, "-c", script)
	cmd.Stdin = bytes.NewReader(b)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("scipy: %v", err)
	}
	var kc struct {
		NNZ     int
		Sum, Sq float64
		S       []float64
	}
	if err := json.Unmarshal(out, &kc); err != nil {
		t.Fatal(err)
	}
	m := newNetMF(g, 1)
	var sum, sq float64
	for i := range g.N {
		m.targetRow(i)
	}
	for _, v := range m.target.a.Val {
		sum, sq = sum+v, sq+v*v
	}
	t.Logf("entries: ours %d, scipy's %d; sum %v, %v", m.target.a.NNZ(), kc.NNZ, sum, kc.Sum)
	if m.target.a.NNZ() != kc.NNZ || math.Abs(sum-kc.Sum) > 1e-9*kc.Sum || math.Abs(sq-kc.Sq) > 1e-9*kc.Sq {
		t.Errorf("the matrix: %d entries summing to %v (squares %v), scipy's %d, %v (%v)", m.target.a.NNZ(), sum, sq, kc.NNZ, kc.Sum, kc.Sq)
	}
	_, s0, _ := truncatedSVD(m.target, netMFDim, netMFIters, rand.New(rand.NewPCG(1, streamNetMF)))
	for j, want := range kc.S {
		tol := 1e-6 + 5e-3*float64(j)/float64(len(kc.S)-1)
		if math.Abs(s0[j]-want) > tol*want {
			t.Errorf("singular value %d: %v, scipy's %v", j, s0[j], want)
		}
		t.Logf("singular value %d: %v, scipy's %v", j, s0[j], want)
	}
}
