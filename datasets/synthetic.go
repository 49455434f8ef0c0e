package datasets

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distmv"
	"gonum.org/v1/gonum/stat/distuv"

	"pdnexplorer/edgekind"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/fmath"
)

// Streams of the data seed. Each part of the generator draws from its own
// stream, so that moving one parameter (σD, say) leaves the parts it does not
// touch (the nodes, the edges) exactly as they were.
const (
	streamFeatures = iota + 1
	streamLabels
	streamEdges
	streamEdgeFeatures
	streamSplit
)

func stream(seed uint64, s uint64) *rand.PCG {
	return rand.NewPCG(seed, 0x9e3779b97f4a7c15^s)
}

// Synthetic generates the paper's synthetic graph (§5.1) from d:
//
//  1. Node features X ∈ ℝ^{N×F}, N = C·n, are rows of N(0, R), where R is a
//     random correlation matrix whose eigenvalues are proportional to
//     half-normal draws (they sum to F, as a correlation matrix's must).
//  2. A target ỹ = Xw + ε with w ~ N(0, I_F) and ε ~ N(0, σF²) is binned at
//     its quantiles into C classes of exactly n nodes.
//  3. Each pair of nodes of one class is an edge with probability P, each
//     pair of nodes of two classes with probability Q.
//  4. Edge features are D independent draws of N(0, 1) on intra-class edges
//     and of N(0, σD²) on inter-class edges.
//  5. A random 80% of the nodes are for training, the rest for testing.
//
// Every draw comes from d.Seed. Edges take time proportional to the number
// made, not to N².
func Synthetic(d experiment.Data) (*Graph, error) {
	if err := d.Validate(); err != nil {
		return nil, err
	}
	g, err := syntheticNodes(d)
	if err != nil {
		return nil, err
	}
	g.D = d.EdgeFeatures
	g.Src, g.Dst, g.Kind = blockEdges(g.Labels, d.Classes, d.P, d.Q, stream(d.Seed, streamEdges))
	g.EdgeX = edgeFeatures(g.Kind, d.EdgeFeatures, d.SigmaD, stream(d.Seed, streamEdgeFeatures))
	g.Meta["p"], g.Meta["q"] = d.P, d.Q
	g.Meta["edge_features"], g.Meta["sigma_d"] = d.EdgeFeatures, d.SigmaD
	return g, g.Check()
}

// syntheticNodes is the synthetic graph's nodes without edges: their
// features, classes and split (steps 1, 2 and 5), each from its own
// stream of d.Seed, which every generator of the explorer shares.
func syntheticNodes(d experiment.Data) (*Graph, error) {
	n, f := d.Nodes(), d.NodeFeatures
	g := &Graph{N: n, F: f, C: d.Classes}
	x, err := correlatedFeatures(n, f, stream(d.Seed, streamFeatures))
	if err != nil {
		return nil, err
	}
	g.X = x
	g.Labels = quantileLabels(g.X, n, f, d.Classes, d.SigmaF, stream(d.Seed, streamLabels))
	g.Splits = randomSplit(n, 0.8, stream(d.Seed, streamSplit))
	g.Meta = map[string]any{
		"name": "synthetic", "generator": "pdn-www21 §5.1",
		"classes": d.Classes, "per_class": d.PerClass,
		"node_features": d.NodeFeatures, "sigma_f": d.SigmaF, "seed": d.Seed,
	}
	return g, nil
}

// correlatedFeatures draws n rows of N(0, R) with R a random correlation
// matrix whose spectrum is proportional to f half-normal draws.
func correlatedFeatures(n, f int, src rand.Source) ([]float64, error) {
	std := distuv.Normal{Mu: 0, Sigma: 1, Src: src}
	eig := make([]float64, f)
	for i := range eig {
		eig[i] = math.Abs(std.Rand())
	}
	floats.Scale(float64(f)/floats.Sum(eig), eig)
	r := randomCorrelation(eig, std)
	mvn, ok := distmv.NewNormal(make([]float64, f), r, src)
	if !ok {
		return nil, phrase.Errorf("synthetic: the feature correlation matrix is not positive definite; try another seed")
	}
	x := make([]float64, n*f)
	for i := 0; i < n; i++ {
		mvn.Rand(x[i*f : (i+1)*f])
	}
	return x, nil
}

// randomCorrelation returns a random correlation matrix with eigenvalues eig
// (which must sum to len(eig)): Q diag(eig) Qᵀ for a Haar-random orthogonal
// Q, turned to unit diagonal by the Givens rotations of Davies & Higham
// (2000), which keep the eigenvalues. This is scipy.stats.random_correlation;
// gonum has no such distribution, hence the hand-written rotation step.
func randomCorrelation(eig []float64, std distuv.Normal) *mat.SymDense {
	f := len(eig)
	g := mat.NewDense(f, f, nil)
	for i := 0; i < f; i++ {
		for j := 0; j < f; j++ {
			g.Set(i, j, std.Rand())
		}
	}
	var qr mat.QR
	qr.Factorize(g)
	var q, r mat.Dense
	qr.QTo(&q)
	qr.RTo(&r)
	for j := 0; j < f; j++ { // sign fix makes Q Haar-distributed
		if r.At(j, j) < 0 {
			for i := 0; i < f; i++ {
				q.Set(i, j, -q.At(i, j))
			}
		}
	}
	var m mat.Dense
	m.Mul(&q, mat.NewDiagDense(f, eig))
	m.Mul(&m, q.T())
	raw := m.RawMatrix()
	for i := 0; i < f-1; i++ {
		aii := m.At(i, i)
		if aii == 1 {
			continue
		}
		j := i + 1
		for ; j < f-1; j++ { // a partner on the other side of 1
			if (m.At(j, j) < 1) == (aii > 1) {
				break
			}
		}
		c, s := givensToOne(aii, m.At(j, j), m.At(i, j))
		// m ← Gᵀ m G with G the rotation in the (i, j) plane.
		blas64.Rot(blas64.Vector{N: f, Inc: 1, Data: raw.Data[i*raw.Stride:]},
			blas64.Vector{N: f, Inc: 1, Data: raw.Data[j*raw.Stride:]}, c, -s)
		blas64.Rot(blas64.Vector{N: f, Inc: raw.Stride, Data: raw.Data[i:]},
			blas64.Vector{N: f, Inc: raw.Stride, Data: raw.Data[j:]}, c, -s)
	}
	out := mat.NewSymDense(f, nil)
	for i := 0; i < f; i++ {
		out.SetSym(i, i, 1)
		for j := i + 1; j < f; j++ {
			out.SetSym(i, j, (m.At(i, j)+m.At(j, i))/2)
		}
	}
	return out
}

// givensToOne returns the rotation (c, s) that sets the first diagonal entry
// of [[aii, aij], [aij, ajj]] to 1 (Davies & Higham, 2000).
func givensToOne(aii, ajj, aij float64) (c, s float64) {
	aiid, ajjd := aii-1, ajj-1
	if ajjd == 0 {
		return 0, 1
	}
	dd := math.Sqrt(max(aij*aij-aiid*ajjd, 0))
	t := (aij + math.Copysign(dd, aij)) / ajjd
	c = 1 / math.Sqrt(1+t*t)
	if c == 0 {
		return 0, 1
	}
	return c, c * t
}

// quantileLabels bins ỹ = Xw + ε at its C-quantiles: the k-th n nodes in
// order of ỹ form class k.
func quantileLabels(x []float64, n, f, classes int, sigmaF float64, src rand.Source) []int {
	std := distuv.Normal{Mu: 0, Sigma: 1, Src: src}
	noise := distuv.Normal{Mu: 0, Sigma: sigmaF, Src: src}
	w := make([]float64, f)
	for i := range w {
		w[i] = std.Rand()
	}
	y := make([]float64, n)
	for i := range y {
		y[i] = floats.Dot(x[i*f:(i+1)*f], w) + noise.Rand()
	}
	order := make([]int, n)
	floats.Argsort(y, order)
	labels := make([]int, n)
	for rank, node := range order {
		labels[node] = rank * classes / n
	}
	return labels
}

// blockEdges draws a stochastic block model: probability p inside a class,
// q between two classes. It visits only the pairs that become edges, by
// skipping a geometric number of pairs between them (Batagelj & Brandes,
// 2005). gonum's gen.Gnp does this for one whole graph; a block model needs
// it per block with its own probability, hence this version.
func blockEdges(labels []int, classes int, p, q float64, src rand.Source) (srcs, dsts []int32, kinds []edgekind.Kind) {
	members := make([][]int32, classes)
	for i, l := range labels {
		members[l] = append(members[l], int32(i))
	}
	rnd := rand.New(src)
	add := func(u, v int32, k edgekind.Kind) {
		srcs, dsts, kinds = append(srcs, min(u, v)), append(dsts, max(u, v)), append(kinds, k)
	}
	for a := 0; a < classes; a++ {
		ma := members[a]
		skipPairs(len(ma)*(len(ma)-1)/2, p, rnd, func(k int) {
			i, j := trianglePair(k)
			add(ma[i], ma[j], KindIntra)
		})
		for b := a + 1; b < classes; b++ {
			mb := members[b]
			skipPairs(len(ma)*len(mb), q, rnd, func(k int) {
				add(ma[k/len(mb)], mb[k%len(mb)], KindInter)
			})
		}
	}
	sortEdges(srcs, dsts, kinds)
	return srcs, dsts, kinds
}

// skipPairs calls emit for each index in 0..m-1 chosen independently with
// probability p, in increasing order, in time proportional to the number
// chosen.
func skipPairs(m int, p float64, rnd *rand.Rand, emit func(int)) {
	if p <= 0 || m <= 0 {
		return
	}
	if p >= 1 {
		for k := 0; k < m; k++ {
			emit(k)
		}
		return
	}
	lq := fmath.Log(1 - p)
	for k := -1; ; {
		k += 1 + int(fmath.Log(1-rnd.Float64())/lq)
		if k >= m || k < 0 {
			return
		}
		emit(k)
	}
}

// trianglePair maps k = i(i-1)/2 + j, 0 ≤ j < i, to (i, j).
func trianglePair(k int) (i, j int) {
	i = int((1 + math.Sqrt(1+8*float64(k))) / 2)
	for i*(i-1)/2 > k { // guard against rounding
		i--
	}
	for (i+1)*i/2 <= k {
		i++
	}
	return i, k - i*(i-1)/2
}

func sortEdges(srcs, dsts []int32, kinds []edgekind.Kind) {
	idx := make([]int, len(srcs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		return cmp.Or(cmp.Compare(srcs[a], srcs[b]), cmp.Compare(dsts[a], dsts[b]))
	})
	s2, d2, k2 := slices.Clone(srcs), slices.Clone(dsts), slices.Clone(kinds)
	for to, from := range idx {
		srcs[to], dsts[to], kinds[to] = s2[from], d2[from], k2[from]
	}
}

// edgeFeatures draws N(0, 1) features for intra-class edges and N(0, σD²)
// for inter-class ones.
func edgeFeatures(kinds []edgekind.Kind, d int, sigmaD float64, src rand.Source) []float64 {
	std := distuv.Normal{Mu: 0, Sigma: 1, Src: src}
	out := make([]float64, len(kinds)*d)
	for e, k := range kinds {
		s := 1.0
		if k == KindInter {
			s = sigmaD
		}
		for j := 0; j < d; j++ {
			out[e*d+j] = s * std.Rand()
		}
	}
	return out
}

// randomSplit puts a random share of the nodes in training, the rest in test.
func randomSplit(n int, train float64, src rand.Source) []Split {
	perm := rand.New(src).Perm(n)
	nTrain := int(math.Round(train * float64(n)))
	out := make([]Split, n)
	for rank, node := range perm {
		if rank >= nTrain {
			out[node] = Test
		}
	}
	return out
}

// String summarises the graph for logs and errors.
func (g *Graph) String() string {
	if none := g.Unlabelled(); none > 0 {
		return fmt.Sprintf("%d nodes (%d without a class), %d edges, %d classes, F=%d, D=%d", g.N, none, g.E(), g.C, g.F, g.D)
	}
	return fmt.Sprintf("%d nodes, %d edges, %d classes, F=%d, D=%d", g.N, g.E(), g.C, g.F, g.D)
}
