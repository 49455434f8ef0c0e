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

// hopeOp's products are those of the matrix (A+I)², formed densely.
func TestHOPEOperator(t *testing.T) {
	g := smallGraph(5, 30, 50, 3, 2, 2)
	a := mat.NewDense(g.N, g.N, nil)
	for i := range g.N {
		a.Set(i, i, 1)
	}
	for e := range g.Src {
		a.Set(int(g.Src[e]), int(g.Dst[e]), 1)
		a.Set(int(g.Dst[e]), int(g.Src[e]), 1)
	}
	var s mat.Dense
	s.Mul(a, a)
	rnd := rand.New(rand.NewPCG(1, 1))
	x := mat.NewDense(g.N, 4, nil)
	for i := range g.N {
		for j := range 4 {
			x.Set(i, j, rnd.NormFloat64())
		}
	}
	op := &hopeOp{adj: newAdjacency(g.N, g.Src, g.Dst)}
	got, gotT := mat.NewDense(g.N, 4, nil), mat.NewDense(g.N, 4, nil)
	op.mul(got, x)
	op.mulT(gotT, x)
	var want mat.Dense
	want.Mul(&s, x)
	if !mat.EqualApprox(got, &want, 1e-12) || !mat.EqualApprox(gotT, &want, 1e-12) {
		t.Errorf("S·X differs from the dense product")
	}
}

// HOPE's embedding is the same however prepare is cut, its two halves
// are equal (S is symmetric and positive semi-definite), and on a ring of
// cliques each clique's nodes lie nearer each other than the others'.
func TestHOPEEmbedding(t *testing.T) {
	const k = 8
	g := cliqueRing(10, k)
	x := sameEmbeddingHoweverCut(t, 3, func() embedder { return newHOPE(g, 3) })
	d := newHOPE(g, 3).dim()
	top := 0.0
	for _, v := range x {
		top = max(top, math.Abs(v))
	}
	for i := range g.N {
		for j := range d / 2 {
			if l, r := x[i*d+j], x[i*d+d/2+j]; math.Abs(l-r) > 1e-6*top {
				t.Fatalf("node %d, column %d: left %v, right %v", i, j, l, r)
			}
		}
	}
	within, across := meanDistances(x, d, k)
	t.Logf("mean distance within a clique %v, across %v", within, across)
	if within >= across/3 {
		t.Errorf("mean distance within a clique %v, across %v", within, across)
	}
}

// On Cora and Citeseer, HOPE's singular values are those of Karate Club's
// HOPE, scipy's svds of S = (A+I)² in single precision, to a millionth:
// 40 power iterations reach what ARPACK converges to. Skipped where no
// Python with scipy and networkx is at hand (PDN_PYTHON names one).
func TestHOPEMatchesKarateClub(t *testing.T) {
	py := peerPython(t, "scipy, networkx", "embeds Cora and Citeseer")
	const script = `import json, sys, numpy as np, networkx as nx
from scipy import sparse
from scipy.sparse.linalg import svds
d = json.load(sys.stdin)
g = nx.Graph(); g.add_nodes_from(range(d["n"])); g.add_edges_from(zip(d["src"], d["dst"]))
g.add_edges_from((i, i) for i in range(d["n"]))
a = nx.adjacency_matrix(g, nodelist=range(d["n"]))
s = sparse.csr_matrix(a.dot(a), dtype=np.float64)
print(json.dumps(np.sort(svds(s, k=64, tol=1e-14, random_state=0)[1])[::-1].tolist()))`
	for _, name := range []string{"cora", "citeseer"} {
		g, err := datasets.Builtin(name)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(map[string]any{"n": g.N, "src": g.Src, "dst": g.Dst})
		cmd := exec.Command(py, "-c", script)
		cmd.Stdin = bytes.NewReader(b)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("scipy: %v", err)
		}
		var want []float64
		if err := json.Unmarshal(out, &want); err != nil {
			t.Fatal(err)
		}
		m := newHOPE(g, 1)
		m.svd = newSVDRun(m.op, m.rank(), hopeIters, rand.New(rand.NewPCG(1, streamHOPE)))
		for !m.svd.step() {
		}
		worst := 0.0
		for j, w := range want {
			worst = max(worst, math.Abs(m.svd.s[j]-w)/w)
		}
		t.Logf("%s: the 64 singular values within %.2g of scipy's (the first %v, the 64th %v)", name, worst, want[0], want[63])
		if worst > 1e-6 {
			t.Errorf("%s: singular values within %.2g of scipy's, want 1e-6", name, worst)
		}
	}
}
