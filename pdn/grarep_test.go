package pdn

import (
	"bytes"
	"encoding/json"
	"math"
	"os/exec"
	"testing"

	"gonum.org/v1/gonum/mat"

	"pdnexplorer/datasets"
)

// graRepDense is GraRep's T_k for k = 2…6 computed densely from their
// definition (graRep), as the oracle of the sparse rows.
func graRepDense(g *datasets.Graph) []*mat.Dense {
	n := g.N
	hat := mat.NewDense(n, n, nil)
	deg := make([]float64, n)
	for i := range n {
		deg[i] = 2
	}
	for e := range g.Src {
		deg[g.Src[e]]++
		deg[g.Dst[e]]++
	}
	for i := range n {
		hat.Set(i, i, 1/deg[i])
	}
	for e := range g.Src {
		u, v := int(g.Src[e]), int(g.Dst[e])
		hat.Set(u, v, 1/deg[u])
		hat.Set(v, u, 1/deg[v])
	}
	pow := mat.DenseCopyOf(hat)
	var out []*mat.Dense
	for range graRepOrder {
		pow.Mul(pow, hat)
		t := mat.NewDense(n, n, nil)
		t.Apply(func(i, j int, v float64) float64 {
			if v == 0 {
				return 0
			}
			return math.Log(v) - math.Log(float64(n))
		}, pow)
		out = append(out, t)
	}
	return out
}

// nextTarget makes m's next power and its T_k.
func nextTarget(m *graRep) {
	for i := range m.n {
		m.powerRow(i)
	}
	m.target = newCSROp(m.n, m.n)
	for i := range m.n {
		m.targetRow(i)
	}
}

// Each order's sparse rows are T_k of the definition, computed densely,
// on a ring of cliques and on a random graph with nodes of degree 0.
func TestGraRepMatrices(t *testing.T) {
	for _, tc := range []struct {
		name string
		g    *datasets.Graph
	}{{"cliques", cliqueRing(3, 5)}, {"random", smallGraph(4, 40, 30, 3, 2, 2)}} {
		want := graRepDense(tc.g)
		m := newGraRep(tc.g, 1)
		m.start()
		for k := range graRepOrder {
			nextTarget(m)
			if err := m.target.a.Check(); err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			got := mat.NewDense(tc.g.N, tc.g.N, nil)
			for i := range tc.g.N {
				for p := m.target.a.Ptr[i]; p < m.target.a.Ptr[i+1]; p++ {
					got.Set(i, int(m.target.a.Col[p]), m.target.a.Val[p])
				}
			}
			if !mat.EqualApprox(got, want[k], 1e-12) {
				t.Errorf("%s: T_%d differs from the dense matrix", tc.name, k+2)
			}
		}
	}
}

// GraRep's embedding is the same however prepare is cut, and on a ring of
// cliques puts each clique's nodes nearer each other than the others'.
func TestGraRepEmbedding(t *testing.T) {
	const k = 8
	g := cliqueRing(6, k)
	x := sameEmbeddingHoweverCut(t, 3, func() embedder { return newGraRep(g, 3) })
	within, across := meanDistances(x, newGraRep(g, 3).dim(), k)
	t.Logf("mean distance within a clique %v, across %v", within, across)
	if within >= across/3 {
		t.Errorf("mean distance within a clique %v, across %v", within, across)
	}
}

// On Cora, GraRep's five matrices are Karate Club's, as scipy computes
// them from the same graph with a loop at every node (karateclub.GraRep,
// v1.3, their single precision left out): as many entries, the same sums.
// Skipped where no Python with scipy and networkx is at hand (PDN_PYTHON
// names one).
func TestGraRepMatchesKarateClub(t *testing.T) {
	py := peerPython(t, "scipy, networkx", "powers Cora's transition matrix")
	g, err := datasets.Builtin("cora")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(map[string]any{"n": g.N, "src": g.Src, "dst": g.Dst})
	const script = `import json, sys, math, numpy as np, networkx as nx
from scipy import sparse
d = json.load(sys.stdin)
g = nx.Graph(); g.add_nodes_from(range(d["n"])); g.add_edges_from(zip(d["src"], d["dst"]))
g.add_edges_from((i, i) for i in range(d["n"]))
n = d["n"]
a = nx.adjacency_matrix(g, nodelist=range(n)).astype(float)
hat = (sparse.diags([1.0 / g.degree[i] for i in range(n)]) @ a).tocsr()
p, out = hat, []
for _ in range(5):
    p = sparse.coo_matrix(p @ hat)
    s = np.log(p.data) - math.log(n)
    s = s[s < 0]
    out.append({"nnz": int(s.size), "sum": float(s.sum()), "sq": float((s * s).sum())})
    p = p.tocsr()
print(json.dumps(out))`
	cmd := exec.Command(py, "-c", script)
	cmd.Stdin = bytes.NewReader(b)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("scipy: %v", err)
	}
	var kc []struct {
		NNZ     int
		Sum, Sq float64
	}
	if err := json.Unmarshal(out, &kc); err != nil {
		t.Fatal(err)
	}
	m := newGraRep(g, 1)
	m.start()
	for k, want := range kc {
		nextTarget(m)
		var sum, sq float64
		for _, v := range m.target.a.Val {
			sum, sq = sum+v, sq+v*v
		}
		t.Logf("T_%d: ours %d entries summing to %v, scipy's %d, %v", k+2, m.target.a.NNZ(), sum, want.NNZ, want.Sum)
		if m.target.a.NNZ() != want.NNZ || math.Abs(sum-want.Sum) > 1e-9*math.Abs(want.Sum) || math.Abs(sq-want.Sq) > 1e-9*want.Sq {
			t.Errorf("T_%d: %d entries summing to %v (squares %v), scipy's %d, %v (%v)", k+2, m.target.a.NNZ(), sum, sq, want.NNZ, want.Sum, want.Sq)
		}
	}
}
