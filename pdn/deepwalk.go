package pdn

import (
	"math"
	"math/rand/v2"
	"time"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/fmath"
	"pdnexplorer/pdn/internal/kernels"
)

func init() {
	register(experiment.DeepWalk, model{cost: func(s Shape, _ experiment.Model) []Part { return deepWalkCost(s) },
		build: func(g *datasets.Graph, _ experiment.Model, _ *rand.Rand, seed uint64) network {
			return embedNetOf(experiment.DeepWalk, g, seed, newDeepWalk)
		}})
}

// DeepWalk's settings: 10 walks of 40 steps per node, window 5, 5 negative
// samples and 64 dimensions, smaller than the original's 80 steps and 128
// dimensions so that a sweep of many graphs stays fast (walks of 20 steps
// in 32 dimensions lost 10 to 20 points). Like the paper's baseline it
// sees the structure only.
const (
	WalksPerNode  = 10
	WalkLength    = 40
	WalkWindow    = 5
	WalkNegatives = kernels.WalkTargets - 1
	WalkDim       = kernels.WalkDim
)

// deepWalk is DeepWalk (Perozzi et al.): uniform random walks and
// skip-gram embeddings trained with negative sampling, the embedder of an
// embedNet, whose ℓ1 logistic regression then classifies (logReg). The
// embeddings are drawn once from the weight seed; only the regression
// learns. Training the embeddings is slow (seconds), so it is resumable:
// prepare does it a piece at a time, and the same bits come out however it
// is cut.
type deepWalk struct {
	sg  *skipGrammer
	emb []float64 // nil until the embeddings are trained
}

func newDeepWalk(g *datasets.Graph, seed uint64) *deepWalk {
	ws := walks(g, rand.New(rand.NewPCG(seed, streamWalks)))
	return &deepWalk{sg: newSkipGrammer(g.N, ws, rand.NewPCG(seed, streamWalks+1))}
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

// preparing returns the share of the walks the embeddings have learned from.
func (m *deepWalk) preparing() float64 {
	if m.sg == nil {
		return 1
	}
	return float64(m.sg.next) / float64(max(m.sg.reads(), 1))
}

func (m *deepWalk) embedding() []float64 { return m.emb }
func (m *deepWalk) dim() int             { return WalkDim }

// walks returns WalksPerNode uniform random walks from every node.
func walks(g *datasets.Graph, rnd *rand.Rand) [][]int32 {
	return randomWalks(g, rnd, WalksPerNode, WalkLength)
}

// randomWalks returns number uniform random walks of length nodes from
// every node, a round at a time, each round's starts in a random order; a
// walk that reaches a node without neighbours ends there.
func randomWalks(g *datasets.Graph, rnd *rand.Rand, number, length int) [][]int32 {
	adj := newAdjacency(g.N, g.Src, g.Dst)
	var out [][]int32
	for range number {
		for _, start := range rnd.Perm(g.N) {
			w := []int32{int32(start)}
			for len(w) < length {
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
// walks at a time. Like word2vec (and gensim, and PyTorch's embeddings) it
// keeps the vectors in single precision: the two tables of a 1,500-node
// graph then fit in a core's 1 MB cache, which double precision overflowed,
// and each step's six random rows of the output table came from memory
// (DeepWalk was a quarter of a sweep's time). Every operation is rounded to
// float32 as written, never fused, so the bits are the same natively, with
// or without the vector paths, and in the browser.
type skipGrammer struct {
	n, next     int
	d, window   int // the vectors' length, and the widest window
	ws          [][]int32
	in, out     []float32
	grad        []float32
	noise       *noise
	total, seen int
	src         *rand.PCG
	rnd         *rand.Rand // src's, for IntN
	// The positive target and the negatives of one step, their scores,
	// and whether a target repeats among them (see scores).
	targets [1 + WalkNegatives]int32
	score   [1 + WalkNegatives]float32
	repeats bool
	// visited, if set, is called after the steps of each centre of a
	// walk, at their rate (M2V's pull of a node's views together).
	visited func(center int32, lr float32)
	// input, if set, makes each step's input vector and takes its
	// gradient in place of the table in (MNE's layer vectors).
	input skipInput
	// epochs is how many times the walks are read, the rate falling
	// over all of them (gensim's iter); 1 but for MNE.
	epochs int
}

// skipInput is a skip-gram's input vectors made of other parameters: the
// step reads vector(center), d long, and hands update the step that the
// table's row would have taken, the targets' terms summed in their order
// and times the rate.
type skipInput interface {
	vector(center int32) []float32
	update(center int32, step []float32)
}

// newSkipGrammer is DeepWalk's skip-gram: WalkDim dimensions, windows of
// up to WalkWindow.
func newSkipGrammer(n int, ws [][]int32, src *rand.PCG) *skipGrammer {
	return newSkipGram(n, WalkDim, WalkWindow, ws, src)
}

// newSkipGram is a skip-gram of d dimensions (a multiple of 8) over the
// walks ws, each centre's window drawn from 1…window.
func newSkipGram(n, d, window int, ws [][]int32, src *rand.PCG) *skipGrammer {
	rnd := rand.New(src)
	s := &skipGrammer{n: n, d: d, window: window, ws: ws, in: make([]float32, n*d), out: make([]float32, n*d), noise: newNoise(n, ws),
		grad: make([]float32, d), src: src, rnd: rnd, epochs: 1}
	for i := range s.in {
		s.in[i] = float32((rnd.Float64() - 0.5) / float64(d))
	}
	for _, w := range ws {
		s.total += len(w)
	}
	return s
}

// setEpochs makes the skip-gram read its walks e times.
func (s *skipGrammer) setEpochs(e int) {
	s.total = s.total / s.epochs * e
	s.epochs = e
}

// reads is how many walks the skip-gram reads in all.
func (s *skipGrammer) reads() int { return len(s.ws) * s.epochs }

func (s *skipGrammer) done() bool { return s.next == s.reads() }

// run trains on the next k walks.
func (s *skipGrammer) run(k int) {
	d := s.d
	for ; k > 0 && s.next < s.reads(); k-- {
		w := s.ws[s.next%len(s.ws)]
		s.next++
		for i, center := range w {
			lr := float32(math.Max(0.025*(1-float64(s.seen)/float64(s.total)), 0.0001))
			s.seen++
			b := 1 + s.rnd.IntN(s.window)
			for j := max(0, i-b); j <= min(len(w)-1, i+b); j++ {
				if j == i {
					continue
				}
				var vc []float32
				if s.input != nil {
					vc = s.input.vector(center)
				} else {
					vc = s.in[int(center)*d : (int(center)+1)*d]
				}
				s.targets[0] = w[j]
				for neg := 1; neg <= WalkNegatives; neg++ {
					s.targets[neg] = s.sampleNegative()
				}
				s.scores(vc)
				if !s.repeats && s.input == nil {
					s.trainDistinct(vc, lr)
					continue
				}
				if !s.repeats {
					s.stepOf(vc, lr)
					s.input.update(center, s.grad)
					continue
				}
				// A target repeats: take them one by one, each score
				// after the updates before it.
				clear(s.grad)
				for neg, target := range s.targets {
					vo := s.out[int(target)*d : (int(target)+1)*d]
					gk := stepSize(neg == 0, kernels.WalkDot(vc, vo), lr)
					for t := range s.grad {
						s.grad[t] += float32(gk * vo[t])
						vo[t] += float32(gk * vc[t])
					}
				}
				if s.input != nil {
					s.input.update(center, s.grad)
					continue
				}
				for t := range vc {
					vc[t] += s.grad[t]
				}
			}
			if s.visited != nil {
				s.visited(center, lr)
			}
		}
	}
}

// stepSize is a target's step, (label − σ(score))·lr, with label 1 for the
// positive target and 0 for a negative, and σ read from word2vec's table
// (sigmoidTable) as word2vec and gensim read it: six exponentials a step
// were a fifth of the embeddings' time.
func stepSize(positive bool, score, lr float32) float32 {
	var label float32
	if positive {
		label = 1
	}
	return (label - tabledSigmoid(score)) * lr
}

// sigmoidEdge and sigmoidSteps are word2vec's MAX_EXP and EXP_TABLE_SIZE:
// σ is tabled at 1000 steps over [−6, 6] and taken as 0 or 1 outside it.
const (
	sigmoidEdge  = 6
	sigmoidSteps = 1000
)

// sigmoidTable holds σ(−6 + 12i/1000) for i = 0…1000.
var sigmoidTable = func() (t [sigmoidSteps + 1]float32) {
	for i := range t {
		t[i] = float32(fmath.Sigmoid(-sigmoidEdge + 2*sigmoidEdge*float64(i)/sigmoidSteps))
	}
	return t
}()

// tabledSigmoid is σ(x) from sigmoidTable, at the step below x; 0 for NaN.
func tabledSigmoid(x float32) float32 {
	switch {
	case x > sigmoidEdge:
		return 1
	case x >= -sigmoidEdge:
		return sigmoidTable[int((x+sigmoidEdge)*(sigmoidSteps/(2.0*sigmoidEdge)))]
	}
	return 0
}

// trainDistinct is one step of the loop in run for six distinct targets,
// whose scores are known: the gradient of vc sums the targets' terms in
// their order, each vo moves by its own, then vc by the gradient, as the
// loop does, but in one pass over the dimensions instead of seven.
func (s *skipGrammer) trainDistinct(vc []float32, lr float32) {
	d := s.d
	var gk [1 + WalkNegatives]float32
	for k, sc := range s.score {
		gk[k] = stepSize(k == 0, sc, lr)
	}
	vc = vc[:d]
	o0, o1, o2, o3, o4, o5 := s.targetRows()
	kernels.SkipGramStep(vc, o0, o1, o2, o3, o4, o5, &gk)
}

// stepOf is trainDistinct for an input vector made of other parameters
// (input): the targets move as trainDistinct moves them, and vc's step,
// summed over the targets in their order as SkipGramStep sums it, goes to
// grad, vc left as it is.
func (s *skipGrammer) stepOf(vc []float32, lr float32) {
	var gk [1 + WalkNegatives]float32
	for k, sc := range s.score {
		gk[k] = stepSize(k == 0, sc, lr)
	}
	o0, o1, o2, o3, o4, o5 := s.targetRows()
	kernels.SkipGramGrad(s.grad[:s.d], vc[:s.d], o0, o1, o2, o3, o4, o5, &gk)
}

// scores sets score[k] = vc·vo for each target k, each by kernels.WalkDot, the
// six at once. A target's vector moves when it is trained on, so when a
// target repeats (the positive drawn again as a negative, say) the scores
// must be taken one by one instead, and repeats says so.
func (s *skipGrammer) scores(vc []float32) {
	ts := &s.targets
	repeats := false // a local: the field would be stored at every test
	for i := 1; i < len(ts); i++ {
		for j := 0; j < i; j++ {
			repeats = repeats || ts[i] == ts[j]
		}
	}
	if s.repeats = repeats; repeats {
		return
	}
	o0, o1, o2, o3, o4, o5 := s.targetRows()
	kernels.SkipGramScores(&s.score, vc[:s.d], o0, o1, o2, o3, o4, o5)
}

// targetRows returns the output vectors of the six targets.
func (s *skipGrammer) targetRows() (o0, o1, o2, o3, o4, o5 []float32) {
	d, ts := s.d, &s.targets
	row := func(k int) []float32 { return s.out[int(ts[k])*d:][:d] }
	return row(0), row(1), row(2), row(3), row(4), row(5)
}

// result returns the input vectors, each dimension standardised.
func (s *skipGrammer) result() []float64 {
	x := make([]float64, len(s.in))
	for i, v := range s.in {
		x[i] = float64(v)
	}
	standardise(x, s.n, s.d)
	return x
}

// sideBySide is the multiplex embeddings' joining of their layers' views
// (each n×d, float32) into one n×(d·len(views)) embedding, view by view
// along a row, each column standardised.
func sideBySide(views [][]float32, n, d int) []float64 {
	w := d * len(views)
	x := make([]float64, n*w)
	for v, view := range views {
		for u := range n {
			for t := range d {
				x[u*w+v*d+t] = float64(view[u*d+t])
			}
		}
	}
	standardise(x, n, w)
	return x
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

// noise draws DeepWalk's negatives from word2vec's noise distribution:
// node i with probability c_i^¾ / Σ_j c_j^¾, c_i its count in the walks.
// It is Walker's alias table (in Vose's construction): slot i keeps i with
// probability prob[i] and otherwise gives alias[i], so a draw is one
// uniform number and two look-ups. The binary search it replaced (and the
// bucketed search after it) took a quarter of the embeddings' time in
// branches the processor could not predict; gonum's sampleuv.Weighted
// keeps a heap, a logarithmic walk a draw, so this is written here. A
// slot's probability and alias lie side by side: the slot a draw reads is
// random, and two tables cost two misses of the cache where one costs one.
type noise struct {
	slots []noiseSlot
}

type noiseSlot struct {
	prob  float64
	alias int32
}

func newNoise(n int, ws [][]int32) *noise {
	counts := make([]float64, n)
	for _, w := range ws {
		for _, v := range w {
			counts[v]++
		}
	}
	return noiseOf(counts)
}

// noiseOf is the noise table of nodes counted counts[i] times in a corpus;
// it takes counts over.
func noiseOf(counts []float64) *noise {
	n := len(counts)
	var total float64
	for i, c := range counts {
		if c > 0 {
			counts[i] = fmath.Pow(c, 0.75)
		}
		total += counts[i]
	}
	t := &noise{slots: make([]noiseSlot, n)}
	var small, large []int32
	for i := range counts {
		counts[i] *= float64(n) / total // the share of a slot, 1 on average
		t.slots[i].alias = int32(i)
		if counts[i] < 1 {
			small = append(small, int32(i))
		} else {
			large = append(large, int32(i))
		}
	}
	for len(small) > 0 && len(large) > 0 {
		l, g := small[len(small)-1], large[len(large)-1]
		small, large = small[:len(small)-1], large[:len(large)-1]
		t.slots[l] = noiseSlot{counts[l], g}
		counts[g] = (counts[g] + counts[l]) - 1
		if counts[g] < 1 {
			small = append(small, g)
		} else {
			large = append(large, g)
		}
	}
	// What is left holds a whole slot, up to rounding.
	for _, i := range append(small, large...) {
		t.slots[i].prob = 1
	}
	return t
}

// draw returns the node for u uniform in [0, 1).
func (t *noise) draw(u float64) int32 {
	x := u * float64(len(t.slots))
	i := min(int(x), len(t.slots)-1)
	// A conditional move, not a branch: which way it goes is a coin toss.
	slot := &t.slots[i]
	r := slot.alias
	if x-float64(i) < slot.prob {
		r = int32(i)
	}
	return r
}

// sampleNegative draws a node from the noise distribution, with the
// uniform number rand.Rand.Float64 would give from the same source,
// taken from the source itself: through rand.Rand each draw was a call
// through an interface that could not be inlined.
func (s *skipGrammer) sampleNegative() int32 {
	return s.noise.draw(float64(s.src.Uint64()<<11>>11) / (1 << 53))
}

// deepWalkCost is DeepWalk's walks and embeddings, then its regression.
func deepWalkCost(s Shape) []Part {
	n := float64(s.N)
	pairs := WalksPerNode * WalkLength * float64(WalkWindow+1) // centre–context pairs per node, both sides
	return []Part{
		{What: phrase.New("DeepWalk's walks and embeddings"), SetupWork: Work{Dense: n * pairs * (WalkNegatives + 1) * 6 * WalkDim, Exp: n * pairs * (WalkNegatives + 1)},
			Bytes: n * (4*WalksPerNode*WalkLength + f64*3*WalkDim), Fields: []string{"nodes"}},
		logRegCost(s, WalkDim),
	}
}
