package pdn

import (
	"math"
	"math/rand/v2"
	"sort"
	"time"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/internal/fmath"
)

// DeepWalk's settings: 10 walks of 40 steps per node, window 5, 5 negative
// samples and 64 dimensions, smaller than the original's 80 steps and 128
// dimensions so that a sweep of many graphs stays fast (walks of 20 steps
// in 32 dimensions lost 10 to 20 points). Like the paper's baseline it
// sees the structure only.
const (
	WalksPerNode  = 10
	WalkLength    = 40
	WalkWindow    = 5
	WalkNegatives = 5
	WalkDim       = 64
)

// deepWalk is DeepWalk (Perozzi et al.): uniform random walks, skip-gram
// embeddings trained with negative sampling, then logistic regression on
// the embeddings, trained by the same harness as every other model. The
// embeddings are drawn once from the weight seed; only the regression
// learns. Training the embeddings is slow (seconds), so it is resumable:
// prepare does it a piece at a time, and the same bits come out however it
// is cut.
type deepWalk struct {
	g      *datasets.Graph
	rows   []int
	sg     *skipGrammer
	emb    []float64 // nil until the embeddings are trained
	lin    *dense
	logits []float64
	ones   []float64
}

func newDeepWalk(g *datasets.Graph, cfg experiment.Model, rnd *rand.Rand, seed uint64) *deepWalk {
	ws := walks(g, rand.New(rand.NewPCG(seed, streamWalks)))
	return &deepWalk{g: g, rows: g.Nodes(datasets.Train), sg: newSkipGrammer(g.N, ws, rand.New(rand.NewPCG(seed, streamWalks+1))),
		lin: newLinear(rnd, WalkDim, g.C), logits: make([]float64, g.N*g.C)}
}

// prepare trains the embeddings until done or the deadline passes, and
// reports whether they are done.
func (m *deepWalk) prepare(deadline time.Time) bool {
	if m.emb != nil {
		return true
	}
	for !m.sg.done() {
		m.sg.run(16)
		if time.Now().After(deadline) && !m.sg.done() {
			return false
		}
	}
	m.emb = m.sg.result()
	m.sg = nil
	return true
}

func (m *deepWalk) params() []*tensor { return m.lin.params() }

// preparing returns the share of the walks the embeddings have learned from.
func (m *deepWalk) preparing() float64 {
	if m.sg == nil {
		return 1
	}
	return float64(m.sg.next) / float64(max(len(m.sg.ws), 1))
}

func (m *deepWalk) reseed(uint64)                  {}
func (m *deepWalk) setPacer(pc *pacer)             { m.lin.pc = pc }
func (m *deepWalk) lossRows() (rows, labels []int) { return m.rows, m.g.Labels }

// edgeWeights is 1 for every edge: the walks treat all edges alike.
func (m *deepWalk) edgeWeights() []float64 {
	if m.ones == nil {
		m.ones = ones(m.g.E())
	}
	return m.ones
}
func (m *deepWalk) backward(glogits []float64) { m.lin.backward(nil, m.emb, glogits, m.g.N) }
func (m *deepWalk) forward(training bool) []float64 {
	m.prepare(farFuture)
	m.lin.forward(m.logits, m.emb, m.g.N)
	return m.logits
}

// walks returns WalksPerNode uniform random walks from every node.
func walks(g *datasets.Graph, rnd *rand.Rand) [][]int32 {
	adj := newAdjacency(g.N, g.Src, g.Dst)
	var out [][]int32
	for range WalksPerNode {
		for _, start := range rnd.Perm(g.N) {
			w := []int32{int32(start)}
			for len(w) < WalkLength {
				v := w[len(w)-1]
				lo, hi := adj.rowPtr[v], adj.rowPtr[v+1]
				if lo == hi {
					break
				}
				w = append(w, adj.col[lo+int32(rnd.IntN(int(hi-lo)))])
			}
			out = append(out, w)
		}
	}
	return out
}

// skipGrammer trains word2vec's skip-gram with negative sampling on the
// walks (one pass, learning rate decaying linearly from 0.025), a few
// walks at a time.
type skipGrammer struct {
	n, next     int
	ws          [][]int32
	in, out     []float64
	cum, grad   []float64
	total, seen int
	rnd         *rand.Rand
}

func newSkipGrammer(n int, ws [][]int32, rnd *rand.Rand) *skipGrammer {
	d := WalkDim
	s := &skipGrammer{n: n, ws: ws, in: make([]float64, n*d), out: make([]float64, n*d), cum: negativeTable(n, ws),
		grad: make([]float64, d), rnd: rnd}
	for i := range s.in {
		s.in[i] = (rnd.Float64() - 0.5) / float64(d)
	}
	for _, w := range ws {
		s.total += len(w)
	}
	return s
}

func (s *skipGrammer) done() bool { return s.next == len(s.ws) }

// run trains on the next k walks.
func (s *skipGrammer) run(k int) {
	d := WalkDim
	for ; k > 0 && s.next < len(s.ws); k-- {
		w := s.ws[s.next]
		s.next++
		for i, center := range w {
			lr := math.Max(0.025*(1-float64(s.seen)/float64(s.total)), 0.0001)
			s.seen++
			b := 1 + s.rnd.IntN(WalkWindow)
			for j := max(0, i-b); j <= min(len(w)-1, i+b); j++ {
				if j == i {
					continue
				}
				vc := s.in[int(center)*d : (int(center)+1)*d]
				clear(s.grad)
				for neg := 0; neg <= WalkNegatives; neg++ {
					target, label := w[j], 1.0
					if neg > 0 {
						target, label = sampleNegative(s.cum, s.rnd), 0
					}
					vo := s.out[int(target)*d : (int(target)+1)*d]
					gk := float64(label-fmath.Sigmoid(dot(vc, vo))) * lr
					for t := range s.grad {
						s.grad[t] += float64(gk * vo[t])
						vo[t] += float64(gk * vc[t])
					}
				}
				for t := range vc {
					vc[t] += s.grad[t]
				}
			}
		}
	}
}

// result returns the input vectors, each dimension standardised.
func (s *skipGrammer) result() []float64 {
	standardise(s.in, s.n, WalkDim)
	return s.in
}

// standardise scales each column of x (n×d) to mean 0 and variance 1, so
// that the regression on the embeddings is well conditioned.
func standardise(x []float64, n, d int) {
	for t := 0; t < d; t++ {
		var mean, sq float64
		for v := 0; v < n; v++ {
			mean += x[v*d+t]
		}
		mean /= float64(n)
		for v := 0; v < n; v++ {
			dv := x[v*d+t] - mean
			sq += dv * dv
		}
		sd := math.Sqrt(sq / float64(n))
		for v := 0; v < n; v++ {
			x[v*d+t] = div0(x[v*d+t]-mean, sd)
		}
	}
}

func div0(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// negativeTable returns the cumulative distribution of node counts in the
// walks raised to the power 3/4, word2vec's noise distribution.
func negativeTable(n int, ws [][]int32) []float64 {
	counts := make([]float64, n)
	for _, w := range ws {
		for _, v := range w {
			counts[v]++
		}
	}
	cum := make([]float64, n)
	var s float64
	for i, c := range counts {
		if c > 0 {
			s += fmath.Pow(c, 0.75)
		}
		cum[i] = s
	}
	return cum
}

func sampleNegative(cum []float64, rnd *rand.Rand) int32 {
	x := rnd.Float64() * cum[len(cum)-1]
	return int32(sort.SearchFloat64s(cum, x))
}
