package pdn

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"slices"
	"testing"

	"pdnexplorer/datasets"
)

func aaneEmbedding(t *testing.T, g *datasets.Graph, seed uint64) []float64 {
	t.Helper()
	return embedWhole(t, g, newAANE(g, seed))
}

// aaneStart is AANE's H before its first update: the SVD's.
func aaneStart(g *datasets.Graph, seed uint64) []float64 {
	m := newAANE(g, seed)
	for m.h == nil {
		m.svdStep()
	}
	return slices.Clone(m.h)
}

// python is the interpreter the comparisons with Python run, or a skip
// when it has no scipy.
func python(t *testing.T) string {
	t.Helper()
	py := os.Getenv("PDN_PYTHON")
	if py == "" {
		py = "python3"
	}
	if err := exec.Command(py, "-c", "import scipy, numpy").Run(); err != nil {
		t.Skipf("%s has no scipy", py)
	}
	return py
}

// runPython runs script with in as JSON on its stdin and decodes its
// stdout's JSON into out.
func runPython(t *testing.T, py, script string, in, out any) {
	t.Helper()
	b, _ := json.Marshal(in)
	cmd := exec.Command(py, "-c", script)
	cmd.Stdin = bytes.NewReader(b)
	cmd.Stderr = os.Stderr
	res, err := cmd.Output()
	if err != nil {
		t.Fatalf("python: %v", err)
	}
	if err := json.Unmarshal(res, out); err != nil {
		t.Fatal(err)
	}
}

// aaneAuthors is AANE's updates as its authors' AANE_fun (Python) makes
// them, from the H it is given in place of its svds: the features' rows
// scaled to unit length, S = ÂÂᵀ formed, each row solved by
// numpy.linalg.solve.
const aaneAuthors = `import json, sys, numpy as np
from scipy import sparse
d = json.load(sys.stdin)
n, f, D = d["n"], d["f"], d["d"]
lambd, rho = d["lambda"], d["rho"]
net = sparse.coo_matrix((np.ones(len(d["src"])), (d["src"], d["dst"])), shape=(n, n))
net = sparse.csc_matrix(net + net.T)
attri = sparse.csc_matrix(np.array(d["x"]).reshape(n, f))
with np.errstate(divide="ignore"):
    attri = attri.transpose() * sparse.diags(np.ravel(np.power(attri.power(2).sum(1), -0.5)))
sa = (attri.transpose() * attri).toarray()
h = np.array(d["h"]).reshape(n, D)
z = h.copy()
u = np.zeros((n, D))
nexidx = np.split(net.indices, net.indptr[1:-1])
w = np.split(net.data, net.indptr[1:-1])
def update(a, b, target):
    xtx = np.dot(b.T, b) * 2 + rho * np.eye(D)
    sums = sa.dot(b) * 2
    for i in range(n):
        neighbor = b[nexidx[i], :]
        normi_j = np.linalg.norm(neighbor - a[i, :], axis=1)
        nzidx = normi_j != 0
        if np.any(nzidx):
            normi_j = (lambd * w[i][nzidx]) / normi_j[nzidx]
            a[i, :] = np.linalg.solve(xtx + normi_j.sum() * np.eye(D), sums[i, :] + (neighbor[nzidx, :] * normi_j.reshape((-1, 1))).sum(0) + rho * target[i, :])
        else:
            a[i, :] = np.linalg.solve(xtx, sums[i, :] + rho * target[i, :])
update(h, z, z - u)
for _ in range(d["iters"] - 1):
    update(z, h, h + u)
    u = u + h - z
    update(h, z, z - u)
print(json.dumps(h.ravel().tolist()))`

// From the same start, AANE's updates are its authors' code's, to
// rounding: on dense features with a row of zeros, and on a graph whose
// nodes 0 and 1 have the same features (a distance of 0 is left out of a
// row's sum only where it is exactly 0, which the start avoids here).
func TestAANEIsItsAuthorsCode(t *testing.T) {
	py := python(t)
	const n, f = 60, 40
	src, dst := ring(n)
	g := featherGraph(3, n, f, 0.95, src, dst)
	clear(g.X[5*f : 6*f]) // a node without features
	copy(g.X[f:2*f], g.X[:f])
	h0 := aaneStart(g, 2)
	var want []float64
	runPython(t, py, aaneAuthors, map[string]any{"n": n, "f": f, "d": min(AANEDim, n), "lambda": AANELambda, "rho": AANERho,
		"iters": AANEIters, "src": g.Src, "dst": g.Dst, "x": g.X, "h": h0}, &want)
	for _, gg := range []*datasets.Graph{g, featherSparse(g)} {
		got := aaneEmbedding(t, gg, 2)
		var worst, scale float64
		for i := range got {
			worst, scale = max(worst, math.Abs(got[i]-want[i])), max(scale, math.Abs(want[i]))
		}
		t.Logf("largest difference %.3g, largest value %.3g", worst, scale)
		if worst > 1e-9*scale {
			t.Errorf("differs from the authors' updates by %.3g (values up to %.3g)", worst, scale)
		}
	}
}

// AANE's start is the subspace of the d leading left singular vectors of
// A's 10·d columns of highest degree that scipy's svds finds on Cora: every
// principal angle between the two subspaces has a cosine of at least
// 0.98 (the 128th and 129th singular values are 0.16% apart), and the
// singular values agree to 10⁻³.
func TestAANEStartsWhereSvdsDoes(t *testing.T) {
	py := python(t)
	if testing.Short() {
		t.Skip("an SVD of Cora's adjacency")
	}
	g, err := datasets.Builtin("cora")
	if err != nil {
		t.Fatal(err)
	}
	m := newAANE(g, 1)
	m.adj = newAdjacency(g.N, g.Src, g.Dst)
	run := newSVDRun(m.topColumns(), m.d, aaneSVDIts, m.rnd)
	for !run.step() {
	}
	const script = `import json, sys, numpy as np
from scipy import sparse
from scipy.sparse.linalg import svds
d = json.load(sys.stdin)
n, D = d["n"], d["d"]
net = sparse.coo_matrix((np.ones(len(d["src"])), (d["src"], d["dst"])), shape=(n, n))
net = sparse.csc_matrix(net + net.T)
sumcol = net.sum(0)
u, s, _ = svds(net[:, sorted(range(n), key=lambda k: sumcol[0, k], reverse=True)[0:min(10 * D, n)]], D)
ours = np.array(d["u"]).reshape(n, D)
cos = np.linalg.svd(u.T @ ours, compute_uv=False)
print(json.dumps({"cos": float(cos.min()), "s": sorted(s.tolist(), reverse=True)}))`
	var res struct {
		Cos float64
		S   []float64
	}
	runPython(t, py, script, map[string]any{"n": g.N, "d": m.d, "src": g.Src, "dst": g.Dst, "u": run.u.RawMatrix().Data}, &res)
	t.Logf("smallest cosine of a principal angle %.6f; σ_1 %v, σ_d %v (svds %v, %v)", res.Cos, run.s[0], run.s[m.d-1], res.S[0], res.S[m.d-1])
	if res.Cos < 0.98 {
		t.Errorf("smallest cosine of a principal angle %v, want ≥ 0.98", res.Cos)
	}
	for k, s := range res.S {
		if math.Abs(run.s[k]-s) > 1e-3*s {
			t.Errorf("σ_%d = %v, svds %v", k+1, run.s[k], s)
		}
	}
}

func TestAANESameBitsHoweverCut(t *testing.T) {
	const n, f = 80, 50
	src, dst := ring(n)
	g := featherSparse(featherGraph(4, n, f, 0.9, src, dst))
	whole := sameEmbeddingHoweverCut(t, aaneSVDIts+aaneSteps*(n/aaneRows+1), func() embedder { return newAANE(g, 5) })
	if other := aaneEmbedding(t, g, 6); sameFloats(other, whole) {
		t.Error("another seed gave the same embedding")
	}
}

// Two cliques joined by an edge, whose nodes' features are the five words
// of their clique and one drawn from all: every node lies nearer (in
// cosine) to each node of its clique than to any of the other.
func TestAANETellsCliquesApart(t *testing.T) {
	const k, f = 10, 30
	g := wordCliques(k, f)
	z := aaneEmbedding(t, g, 1)
	d := len(z) / g.N
	cos := func(u, v int) float64 {
		var uv, uu, vv float64
		for c := range d {
			uv, uu, vv = uv+z[u*d+c]*z[v*d+c], uu+z[u*d+c]*z[u*d+c], vv+z[v*d+c]*z[v*d+c]
		}
		return uv / math.Sqrt(uu*vv)
	}
	for u := range g.N {
		near, far := math.Inf(1), math.Inf(-1)
		for v := range g.N {
			switch {
			case v == u:
			case u/k == v/k:
				near = min(near, cos(u, v))
			default:
				far = max(far, cos(u, v))
			}
		}
		if near <= far {
			t.Errorf("node %d: its clique as far as cosine %.3f, the other as near as %.3f", u, near, far)
		}
	}
}
