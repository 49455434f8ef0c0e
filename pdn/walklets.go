package pdn

import (
	"math"
	"math/rand/v2"
	"time"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/pdn/internal/kernels"
)

func init() {
	register(experiment.Walklets, model{cost: func(s Shape, _ experiment.Model) []Part { return walkletsCost(s) },
		build: func(g *datasets.Graph, _ experiment.Model, _ *rand.Rand, seed uint64) network {
			return embedNetOf(experiment.Walklets, g, seed, newWalklets)
		}})
}

// Walklets' settings, Karate Club's defaults (its Walklets, which the
// paper's Table 4 ran): 10 walks of 80 nodes from every node
// (walk_number, walk_length), skips 1 to 4 (window_size), 32 dimensions a
// skip (dimensions; 128 in all, as Appendix D says), one pass (epochs)
// at a learning rate of 0.05 (learning_rate), every node kept
// (min_count = 1). The rest are gensim's Word2Vec defaults, which Karate
// Club leaves as they are: 5 negative samples, subsampling at 10⁻³, the
// rate falling to 0.0001.
const (
	WalkletsWalks     = 10
	WalkletsLength    = 80
	WalkletsSkips     = 4
	WalkletsDim       = 32
	walkletsRate      = 0.05
	walkletsMinRate   = 0.0001
	walkletsSample    = 1e-3
	walkletsNegatives = 5
)

// Streams of the weight seed that Walklets draws from: its walks, then
// the vectors, subsampling and negatives of its skips, one after another.
const (
	streamWalkletsWalks = 20 + iota
	streamWalkletsTrain
)

// walklets is Walklets (Perozzi, Kulkarni, Chen and Skiena, "Don't Walk,
// Skip!", ASONAM 2017) as Karate Club makes it: uniform random walks, and
// for each skip k = 1…K a word2vec model of its own, trained on the
// walks read every k-th node, whose input vectors are the k-th block of
// the embedding. The corpus of skip k holds, for every walk w and every
// offset s = 0…k, the sentence w_s, w_{s+k}, w_{s+2k}, … (Karate Club's
// _select_walklets; its offset k repeats offset 0 but for the first node,
// and is kept). Karate Club calls gensim's Word2Vec with hs = 0 and
// window = 1 and no sg, so gensim's default trains it: CBOW with negative
// sampling, not skip-gram. In a sentence u_1…u_m, node u_i is predicted
// from the mean of its neighbours there,
//
//	h = (x_{u_{i−1}} + x_{u_{i+1}}) / 2     (the one that exists, at an end)
//	loss = −log σ(h·y_{u_i}) − Σ_{j=1…5} log σ(−h·y_{n_j})
//
// with x the input vectors (the embedding), y the output vectors, and the
// negatives n_j drawn with probability ∝ count^¾ (DeepWalk's noise
// table), a draw equal to u_i dropped, as gensim drops it. Each step is
// gensim's: the output vectors move by their gradient one target after
// another, h's gradient summed over the targets is added to each context
// vector, and a target whose score h·y is outside (−6, 6) takes no step.
// Before a sentence is read, each node of it is kept with probability
// min(1, (√(c/t) + 1)·t/c), c its count in the corpus and t = 10⁻³ × the
// corpus's size (gensim's subsampling of frequent words); the learning
// rate falls linearly from 0.05 to 0.0001 over the corpus (by sentence;
// gensim moves it a batch of 10,000 words at a time). Vectors start at
// uniform (−0.5, 0.5)/32 (x; gensim 3's, which the paper's Karate Club
// ran on; gensim 4 draws (−1, 1)/32) and 0 (y), in float32 as gensim
// keeps them. A later Karate Club adds use_hierarchical_softmax, true by
// default, under which gensim trains a hierarchical softmax beside the
// negatives: this is the release the paper ran, hs = 0.
//
// Where this departs from Karate Club: the walks are DeepWalk's here (a
// round of walks from every node in a random order, ten rounds), where
// Karate Club walks ten times from one node before the next; gensim's four
// threads update at once (Hogwild), here one does, in order, from the
// weight seed; and the embedding's columns are standardised, as
// DeepWalk's are, before the classifier. Made in pieces, a few sentences at
// a time: the same bits however it is cut.
//
// Over seeds 1–3 it reads 0.724 on Cora and 0.482 on Citeseer, the
// paper's 0.735 and 0.513; skip-gram in place of CBOW read 0.729 and
// 0.492, and the columns left unstandardised 0.727 and 0.494, each within
// the seeds' spread (Citeseer 0.47–0.53).
type walklets struct {
	n    int
	ws   [][]int32
	src  *rand.PCG
	skip int   // the skip being trained, 1…WalkletsSkips; beyond when done
	cb   *cbow // its model
	emb  []float64
}

func newWalklets(g *datasets.Graph, seed uint64) *walklets {
	ws := randomWalks(g, rand.New(rand.NewPCG(seed, streamWalkletsWalks)), WalkletsWalks, WalkletsLength)
	return &walklets{n: g.N, ws: ws, src: rand.NewPCG(seed, streamWalkletsTrain), skip: 1}
}

// prepare trains the skips' models until done or the deadline passes,
// and reports whether the embedding is done.
func (m *walklets) prepare(deadline time.Time) bool {
	for m.skip <= WalkletsSkips {
		if m.cb == nil {
			m.cb = newCBOW(m.n, WalkletsDim, walkletCorpus{m.ws, m.skip}, m.src)
		}
		for !m.cb.done() {
			m.cb.run(32)
			if time.Now().After(deadline) && !m.cb.done() {
				return false
			}
		}
		m.keep(m.cb.in)
		m.cb = nil
		m.skip++
	}
	if m.ws != nil {
		standardise(m.emb, m.n, m.dim())
		m.ws = nil
	}
	return true
}

// keep copies the input vectors of the skip just trained into its block
// of the embedding.
func (m *walklets) keep(in []float32) {
	d := m.dim()
	if m.emb == nil {
		m.emb = make([]float64, m.n*d)
	}
	off := (m.skip - 1) * WalkletsDim
	for v := range m.n {
		for t := range WalkletsDim {
			m.emb[v*d+off+t] = float64(in[v*WalkletsDim+t])
		}
	}
}

// preparing returns the share of the skips' sentences read.
func (m *walklets) preparing() float64 {
	done := float64(m.skip - 1)
	if m.cb != nil {
		done += float64(m.cb.next) / float64(max(m.cb.corpus.sentences(), 1))
	}
	return min(done/WalkletsSkips, 1)
}

func (m *walklets) embedding() []float64 {
	if m.skip <= WalkletsSkips {
		return nil
	}
	return m.emb
}

func (m *walklets) dim() int { return WalkletsSkips * WalkletsDim }

// walkletCorpus is the corpus of one skip k: for walk i and offset s =
// 0…k, sentence i(k+1)+s is walk i read every k-th node from its node s.
// It is read from the walks, never stored.
type walkletCorpus struct {
	ws   [][]int32
	skip int
}

func (c walkletCorpus) sentences() int { return len(c.ws) * (c.skip + 1) }

// sentence appends sentence j to buf[:0].
func (c walkletCorpus) sentence(buf []int32, j int) []int32 {
	w, s := c.ws[j/(c.skip+1)], j%(c.skip+1)
	buf = buf[:0]
	for p := s; p < len(w); p += c.skip {
		buf = append(buf, w[p])
	}
	return buf
}

// counts returns how often each of n nodes occurs in the corpus: a walk's
// node at position p once, and once more if p is a positive multiple of
// k (offset k's sentence repeats it).
func (c walkletCorpus) counts(n int) []float64 {
	counts := make([]float64, n)
	for _, w := range c.ws {
		for p, v := range w {
			counts[v]++
			if p >= c.skip && p%c.skip == 0 {
				counts[v]++
			}
		}
	}
	return counts
}

// cbow trains gensim's Word2Vec CBOW with negative sampling and a window
// of 1, one pass, on a walklet corpus (see walklets): the input vectors
// in, the output vectors out, each n×dim in float32, every product
// rounded to float32 as written so that no platform fuses it.
type cbow struct {
	n, dim      int
	corpus      walkletCorpus
	next        int // the next sentence
	in, out     []float32
	keep        []float64 // each node's probability of being kept
	noise       *noise
	total, seen float64 // the corpus's nodes, and those of the sentences read
	src         *rand.PCG
	sent        []int32
	h, work     []float32
}

func newCBOW(n, dim int, corpus walkletCorpus, src *rand.PCG) *cbow {
	counts := corpus.counts(n)
	c := &cbow{n: n, dim: dim, corpus: corpus, in: make([]float32, n*dim), out: make([]float32, n*dim),
		keep: make([]float64, n), src: src, h: make([]float32, dim), work: make([]float32, dim)}
	for _, k := range counts {
		c.total += k
	}
	t := walkletsSample * c.total
	for v, k := range counts {
		c.keep[v] = 1
		if k > 0 {
			c.keep[v] = min((math.Sqrt(k/t)+1)*(t/k), 1)
		}
	}
	rnd := rand.New(src)
	for i := range c.in {
		c.in[i] = float32((rnd.Float64() - 0.5) / float64(dim))
	}
	c.noise = noiseOf(counts)
	return c
}

func (c *cbow) done() bool { return c.next == c.corpus.sentences() }

// uniform is a number uniform in [0, 1) from the stream, as
// rand.Rand.Float64 gives it (see skipGrammer.sampleNegative).
func (c *cbow) uniform() float64 { return float64(c.src.Uint64()<<11>>11) / (1 << 53) }

// run trains on the next k sentences.
func (c *cbow) run(k int) {
	for ; k > 0 && !c.done(); k-- {
		raw := c.corpus.sentence(c.sent, c.next)
		c.next++
		lr := float32(walkletsRate - (walkletsRate-walkletsMinRate)*c.seen/c.total)
		c.seen += float64(len(raw))
		s := raw[:0] // subsampled in place
		for _, v := range raw {
			if p := c.keep[v]; p >= 1 || c.uniform() < p {
				s = append(s, v)
			}
		}
		c.sent = raw
		for i, center := range s {
			switch {
			case i > 0 && i+1 < len(s):
				c.step(center, s[i-1], s[i+1], 2, lr)
			case i > 0:
				c.step(center, s[i-1], -1, 1, lr)
			case i+1 < len(s):
				c.step(center, s[i+1], -1, 1, lr)
			}
		}
	}
}

// step is one CBOW step: center predicted from the mean of the input
// vectors of a and, if b ≥ 0, b, against walkletsNegatives negatives.
func (c *cbow) step(center, a, b int32, count int, lr float32) {
	h, work := (*vec32)(c.h), (*vec32)(c.work)
	xa := c.row(c.in, a)
	if count == 2 {
		xb := c.row(c.in, b)
		for t := range h {
			h[t] = (xa[t] + xb[t]) * 0.5
		}
	} else {
		*h = *xa
	}
	*work = vec32{}
	for k := 0; k <= walkletsNegatives; k++ {
		target, label := center, float32(1)
		if k > 0 {
			if target, label = c.noise.draw(c.uniform()), 0; target == center {
				continue
			}
		}
		y := c.row(c.out, target)
		f := kernels.WalkDot(h[:], y[:])
		if f <= -sigmoidEdge || f >= sigmoidEdge {
			continue
		}
		g := (label - tabledSigmoid(f)) * lr
		for t := range work {
			work[t] += float32(g * y[t])
			y[t] += float32(g * h[t])
		}
	}
	for t := range work {
		xa[t] += work[t]
	}
	if count == 2 {
		xb := c.row(c.in, b)
		for t := range work {
			xb[t] += work[t]
		}
	}
}

// vec32 is a vector of a skip's model: as an array, its loops need no
// bounds checks.
type vec32 = [WalkletsDim]float32

// row is node v's vector in the table m.
func (c *cbow) row(m []float32, v int32) *vec32 {
	return (*vec32)(m[int(v)*WalkletsDim:])
}

// walkletsCost is Walklets' walks and its skips' models, then its
// regression. Its set-up is counted as DeepWalk's is, six units a target
// and dimension, whose speeds it takes: in the browser, where both run Go
// loops, a node's steps cost about what DeepWalk's do (0.93 million
// target-dimensions a node against its 0.92); natively DeepWalk's vector
// kernels make its own twice as fast (Cora: 4.2 s of processor against
// 2.0).
func walkletsCost(s Shape) []Part {
	n := float64(s.N)
	// Skip k reads every walk k+1 times, offset by 0…k: about L(1 + 1/k)
	// steps a walk, each against 1 + 5 targets.
	var steps float64
	for k := 1; k <= WalkletsSkips; k++ {
		steps += WalkletsWalks * WalkletsLength * (1 + 1/float64(k))
	}
	d, targets := float64(WalkletsDim), float64(walkletsNegatives+1)
	return []Part{
		{What: phrase.New("Walklets' walks and embeddings"), SetupWork: Work{Dense: n * steps * targets * 6 * d, Exp: n * steps * targets},
			Bytes: n * (4*WalkletsWalks*WalkletsLength + 4*2*d + f64*(2+WalkletsSkips*d)), Fields: []string{"nodes"}},
		logRegCost(s, WalkletsSkips*d),
	}
}
