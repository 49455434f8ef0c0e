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
	// The positive target and the negatives of one step, their scores,
	// and whether a target repeats among them (see scores).
	targets [1 + WalkNegatives]int32
	score   [1 + WalkNegatives]float64
	repeats bool
	// hint[b] is where to start looking for the negative drawn in bucket b
	// of cum's range (see sampleNegative).
	hint []int32
}

func newSkipGrammer(n int, ws [][]int32, rnd *rand.Rand) *skipGrammer {
	d := WalkDim
	s := &skipGrammer{n: n, ws: ws, in: make([]float64, n*d), out: make([]float64, n*d), cum: negativeTable(n, ws),
		grad: make([]float64, d), rnd: rnd}
	s.hint = negativeHints(s.cum)
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
				s.targets[0] = w[j]
				for neg := 1; neg <= WalkNegatives; neg++ {
					s.targets[neg] = s.sampleNegative()
				}
				s.scores(vc)
				if !s.repeats {
					s.trainDistinct(vc, lr)
					continue
				}
				// A target repeats: take them one by one, each score
				// after the updates before it.
				clear(s.grad)
				for neg, target := range s.targets {
					label := 0.0
					if neg == 0 {
						label = 1
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

// trainDistinct is one step of the loop in run for six distinct targets,
// whose scores are known: the gradient of vc sums the targets' terms in
// their order, each vo moves by its own, then vc by the gradient, as the
// loop does, but in one pass over the dimensions instead of seven.
func (s *skipGrammer) trainDistinct(vc []float64, lr float64) {
	d := WalkDim
	var gk [1 + WalkNegatives]float64
	if !stepSizesVec(&gk, &s.score, lr) {
		for k, sc := range s.score {
			label := 0.0
			if k == 0 {
				label = 1
			}
			gk[k] = float64(label-fmath.Sigmoid(sc)) * lr
		}
	}
	vc = vc[:d]
	o0, o1, o2, o3, o4, o5 := s.targetRows()
	if trainDistinctVec(vc, o0, o1, o2, o3, o4, o5, &gk) {
		return
	}
	for t, x := range vc {
		var g float64
		y := o0[t]
		g += float64(gk[0] * y)
		o0[t] = y + float64(gk[0]*x)
		y = o1[t]
		g += float64(gk[1] * y)
		o1[t] = y + float64(gk[1]*x)
		y = o2[t]
		g += float64(gk[2] * y)
		o2[t] = y + float64(gk[2]*x)
		y = o3[t]
		g += float64(gk[3] * y)
		o3[t] = y + float64(gk[3]*x)
		y = o4[t]
		g += float64(gk[4] * y)
		o4[t] = y + float64(gk[4]*x)
		y = o5[t]
		g += float64(gk[5] * y)
		o5[t] = y + float64(gk[5]*x)
		vc[t] = x + g
	}
}

// scores sets score[k] = vc·vo for each target k, the six dot products at
// once: each is one chain of additions that waits on the last, and six
// chains side by side run nearly six times as fast, summing each in the
// order dot does. A target's vector moves when it is trained on, so when
// a target repeats (the positive drawn again as a negative, say) the
// scores must be taken one by one instead, and repeats says so.
func (s *skipGrammer) scores(vc []float64) {
	d := WalkDim
	ts := &s.targets
	s.repeats = false
	for i := 1; i < len(ts); i++ {
		for j := 0; j < i; j++ {
			s.repeats = s.repeats || ts[i] == ts[j]
		}
	}
	if s.repeats {
		return
	}
	vc = vc[:d]
	o0, o1, o2, o3, o4, o5 := s.targetRows()
	if scoresVec(&s.score, vc, o0, o1, o2, o3, o4, o5) {
		return
	}
	var s0, s1, s2, s3, s4, s5 float64
	for t, x := range vc {
		s0 += float64(x * o0[t])
		s1 += float64(x * o1[t])
		s2 += float64(x * o2[t])
		s3 += float64(x * o3[t])
		s4 += float64(x * o4[t])
		s5 += float64(x * o5[t])
	}
	s.score = [1 + WalkNegatives]float64{s0, s1, s2, s3, s4, s5}
}

// targetRows returns the output vectors of the six targets.
func (s *skipGrammer) targetRows() (o0, o1, o2, o3, o4, o5 []float64) {
	d, ts := WalkDim, &s.targets
	row := func(k int) []float64 { return s.out[int(ts[k])*d:][:d] }
	return row(0), row(1), row(2), row(3), row(4), row(5)
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

// sampleNegative draws a node from the noise distribution: the first i
// with cum[i] ≥ x for x uniform in [0, total), as sort.SearchFloat64s
// finds it. A binary search took a quarter of DeepWalk's time; instead x's
// bucket names a node near the answer, and a step or two finds the same i.
func (s *skipGrammer) sampleNegative() int32 {
	cum := s.cum
	return negativeAt(cum, s.hint, s.rnd.Float64()*cum[len(cum)-1])
}

// negativeAt is the first i with cum[i] ≥ x, found from x's bucket's hint.
func negativeAt(cum []float64, hint []int32, x float64) int32 {
	total := cum[len(cum)-1]
	b := min(int(x/total*float64(len(hint))), len(hint)-1)
	i := int(hint[max(b, 0)])
	for i > 0 && cum[i-1] >= x {
		i--
	}
	for i < len(cum) && cum[i] < x {
		i++
	}
	return int32(i)
}

// hintsPerNode is how many buckets negativeHints makes a node. With one,
// a draw often had to step past a node, and the step's mispredicted branch
// cost more than the look-up; with eight, few draws step, and DeepWalk's
// embeddings of the default graph take 1.13 s rather than 1.44 s (the
// table, 32 bytes a node, still fits in the cache).
const hintsPerNode = 8

// negativeHints returns, for each of hintsPerNode·len(cum) buckets of
// cum's range, the first node whose cumulative count reaches the bucket's
// start.
func negativeHints(cum []float64) []int32 {
	total := cum[len(cum)-1]
	h := make([]int32, hintsPerNode*len(cum))
	for b := range h {
		h[b] = int32(sort.SearchFloat64s(cum, float64(b)/float64(len(h))*total))
	}
	return h
}
