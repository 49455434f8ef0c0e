package pdn

import (
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/pdn/internal/kernels"
)

func init() {
	register(experiment.MUSAE, model{cost: func(s Shape, _ experiment.Model) []Part { return musaeCost(s) },
		build: func(g *datasets.Graph, _ experiment.Model, _ *rand.Rand, seed uint64) network {
			return embedNetOf(experiment.MUSAE, g, seed, newMUSAE)
		}})
}

// MUSAE's settings, Karate Club's defaults (its MUSAE, in the release the
// paper ran, which calls gensim 3's Doc2Vec): 5 walks of 80 nodes from
// every node (walk_number, walk_length), scales 1 to 3 (window_size) and
// the features alone, 32 dimensions each (dimensions: 128 in all, as
// Appendix D says), 5 epochs (epochs) at a learning rate of 0.05
// (learning_rate), subsampling at 10⁻⁴ (down_sampling), every token kept
// (min_count = 1). The rest are gensim's Doc2Vec defaults: 5 negative
// samples, the rate falling to 0.0001, a document read up to its first
// 10,000 tokens kept (gensim's MAX_DOCUMENT_LEN).
const (
	MUSAEWalks   = 5
	MUSAELength  = 80
	MUSAEScales  = 3
	MUSAEDim     = 32
	MUSAEEpochs  = 5
	musaeRate    = 0.05
	musaeSample  = 1e-4
	dbowMinRate  = 0.0001
	dbowNegative = 5
	dbowMaxDoc   = 10000
)

// Streams of the weight seed MUSAE draws from: its walks, then the
// vectors, subsampling and negatives of its models, one after another.
const (
	streamMUSAEWalks = 0x5a10 + iota
	streamMUSAETrain
)

// musae is MUSAE, multi-scale attributed node embedding (Rozemberczki,
// Allen and Sarkar, Journal of Complex Networks 2021), as Karate Club's
// MUSAE makes it: Karate Club's uniform random walks (MUSAEWalks from
// each node in turn, of MUSAELength nodes; a walk from a node without
// neighbours is that node alone), and MUSAEScales + 1 document models of
// their own (gensim's Doc2Vec in PV-DBOW, dbow) whose document vectors are
// the embedding's blocks of 32 columns, side by side. The document of node
// v holds, at scale 0, v's features (a token each, the non-zero ones);
// at scale k, for every walk w and every i with i + k < |w|, in the order
// of w and i, the features of w_{i+k} and the token of node w_{i+k} where
// v = w_i, and those of w_i where v = w_{i+k} (Karate Club's
// _setup_musae_features, the source's entry before the target's). A node's
// document is read from the walks when it is trained on, never held: on
// Cora a scale's documents are 41 million tokens.
//
// Where this departs from Karate Club: gensim's four threads update at
// once (Hogwild), here one does, in order, from the weight seed; and the
// embedding's columns are standardised, as DeepWalk's and Walklets' are,
// before the classifier. Made in pieces, a few documents at a time: the
// same bits however it is cut.
type musae struct {
	g     *datasets.Graph
	walks *walkIndex
	feats [][]int32 // each node's features' tokens: its non-zero columns
	src   *rand.PCG
	scale int // the model being trained, 0…MUSAEScales; beyond when done
	model *dbow
	emb   []float64
	built bool
}

func newMUSAE(g *datasets.Graph, seed uint64) *musae {
	return &musae{g: g, src: rand.NewPCG(seed, streamMUSAETrain),
		walks: newWalkIndex(karateWalks(g, rand.New(rand.NewPCG(seed, streamMUSAEWalks)), MUSAEWalks, MUSAELength), g.N)}
}

func (m *musae) dim() int { return (MUSAEScales + 1) * MUSAEDim }

func (m *musae) embedding() []float64 {
	if m.scale <= MUSAEScales {
		return nil
	}
	return m.emb
}

// prepare trains the scales' models until done or the deadline passes,
// and reports whether the embedding is done.
func (m *musae) prepare(deadline time.Time) bool {
	for m.scale <= MUSAEScales {
		if m.model == nil {
			if m.feats == nil {
				m.feats = featureTokens(m.g)
				m.emb = make([]float64, m.g.N*m.dim())
			}
			c := &musaeCorpus{walks: m.walks, feats: m.feats, scale: m.scale, f: m.g.F}
			m.model = newDBOW(c, MUSAEDim, MUSAEEpochs, musaeRate, musaeSample, m.src)
			if time.Now().After(deadline) {
				return false
			}
		}
		for !m.model.done() {
			m.model.run(4)
			if time.Now().After(deadline) && !m.model.done() {
				return false
			}
		}
		d := m.dim()
		for v := range m.g.N {
			for t, x := range m.model.docs[v*MUSAEDim : (v+1)*MUSAEDim] {
				m.emb[v*d+m.scale*MUSAEDim+t] = float64(x)
			}
		}
		m.model = nil
		m.scale++
	}
	if !m.built {
		standardise(m.emb, m.g.N, m.dim())
		m.walks, m.feats, m.built = nil, nil, true
	}
	return true
}

// preparing is the share of the models' documents trained.
func (m *musae) preparing() float64 {
	if m.scale > MUSAEScales {
		return 1
	}
	var in float64
	if m.model != nil {
		in = m.model.share()
	}
	return (float64(m.scale) + in) / (MUSAEScales + 1)
}

// karateWalks are Karate Club's RandomWalker's walks: number uniform
// random walks of length nodes from each node in turn (all of node 0's,
// then node 1's, …); a walk that reaches a node without neighbours ends
// there.
func karateWalks(g *datasets.Graph, rnd *rand.Rand, number, length int) [][]int32 {
	adj := newAdjacency(g.N, g.Src, g.Dst)
	out := make([][]int32, 0, g.N*number)
	for start := range g.N {
		for range number {
			w := make([]int32, 1, length)
			w[0] = int32(start)
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

// walkIndex holds walks and where each node stands in them: node v's
// places, in the order of the walks and of the places in each, as the
// walk and the place.
type walkIndex struct {
	walks [][]int32
	ptr   []int32 // node v's places are places[ptr[v]:ptr[v+1]]
	walk  []int32
	pos   []int32
}

func newWalkIndex(walks [][]int32, n int) *walkIndex {
	x := &walkIndex{walks: walks, ptr: make([]int32, n+1)}
	for _, w := range walks {
		for _, v := range w {
			x.ptr[v+1]++
		}
	}
	for v := range n {
		x.ptr[v+1] += x.ptr[v]
	}
	x.walk, x.pos = make([]int32, x.ptr[n]), make([]int32, x.ptr[n])
	next := slices.Clone(x.ptr[:n])
	for wi, w := range walks {
		for p, v := range w {
			x.walk[next[v]], x.pos[next[v]] = int32(wi), int32(p)
			next[v]++
		}
	}
	return x
}

// featureTokens is each node's features as tokens: the columns of its
// non-zero values, ascending (the row of Karate Club's COO matrix).
func featureTokens(g *datasets.Graph) [][]int32 {
	out := make([][]int32, g.N)
	for i := range g.N {
		if g.XS != nil {
			for p := g.XS.Ptr[i]; p < g.XS.Ptr[i+1]; p++ {
				if g.XS.Val[p] != 0 {
					out[i] = append(out[i], g.XS.Col[p])
				}
			}
			continue
		}
		for j, v := range g.X[i*g.F : (i+1)*g.F] {
			if v != 0 {
				out[i] = append(out[i], int32(j))
			}
		}
	}
	return out
}

// musaeCorpus is MUSAE's documents at one scale: tokens 0…F−1 are the
// features, F + u node u.
type musaeCorpus struct {
	walks *walkIndex
	feats [][]int32
	scale int
	f     int
}

func (c *musaeCorpus) docs() int   { return len(c.feats) }
func (c *musaeCorpus) tokens() int { return c.f + len(c.feats) }

// partners calls visit with node v's partners at the corpus's scale, in
// its document's order: for each walk, at each i, w_{i+k} where v = w_i,
// then w_i where v = w_{i+k}.
func (c *musaeCorpus) partners(v int, visit func(u int32)) {
	x, k := c.walks, c.scale
	lo, hi := x.ptr[v], x.ptr[v+1]
	for a := lo; a < hi; {
		wi := x.walk[a]
		b := a
		for b < hi && x.walk[b] == wi {
			b++
		}
		w := x.walks[wi]
		ps := x.pos[a:b]
		// Sources at i = p (p + k < |w|), targets at i = p − k (p ≥ k);
		// merged by i, a source first.
		s, t := 0, 0
		for s < len(ps) || t < len(ps) {
			for s < len(ps) && int(ps[s])+k >= len(w) {
				s++
			}
			for t < len(ps) && int(ps[t]) < k {
				t++
			}
			switch {
			case s < len(ps) && (t >= len(ps) || int(ps[s]) <= int(ps[t])-k):
				visit(w[int(ps[s])+k])
				s++
			case t < len(ps):
				visit(w[int(ps[t])-k])
				t++
			}
		}
		a = b
	}
}

// doc appends node v's document's tokens to buf.
func (c *musaeCorpus) doc(v int, buf []int32) []int32 {
	if c.scale == 0 {
		return append(buf, c.feats[v]...)
	}
	c.partners(v, func(u int32) {
		buf = append(buf, c.feats[u]...)
		buf = append(buf, int32(c.f)+u)
	})
	return buf
}

// counts is each token's count over the documents, and each document's
// length.
func (c *musaeCorpus) counts() (tok, lens []float64) {
	tok, lens = make([]float64, c.tokens()), make([]float64, c.docs())
	for v := range c.docs() {
		if c.scale == 0 {
			for _, j := range c.feats[v] {
				tok[j]++
			}
			lens[v] = float64(len(c.feats[v]))
			continue
		}
		c.partners(v, func(u int32) {
			for _, j := range c.feats[u] {
				tok[j]++
			}
			tok[c.f+int(u)]++
			lens[v] += float64(len(c.feats[u]) + 1)
		})
	}
	return tok, lens
}

// corpus is documents of tokens, read one at a time.
type corpus interface {
	docs() int
	tokens() int
	doc(i int, buf []int32) []int32 // appends document i's tokens to buf
	counts() (tok, lens []float64)  // each token's count; each document's length
}

// dbow trains gensim's Doc2Vec in PV-DBOW (dm = 0, no word vectors
// trained) with negative sampling (Le and Mikolov, 2014): each document's
// vector d predicts each token t kept of it,
//
//	loss = −log σ(d·y_t) − Σ_{j=1…5} log σ(−d·y_{n_j}),
//
// y the tokens' output vectors, the negatives n_j drawn with probability
// ∝ count^¾ (DeepWalk's noise table), a draw equal to t dropped, as gensim
// drops it. Each step is gensim's (fast_document_dbow_neg): the output
// vectors move by their gradient one target after another, d by their sum
// after, and a target whose score is outside (−6, 6) takes no step.
// Before a document is read, each token of it is kept with probability
// min(1, (√(c/s) + 1)·s/c), c its count over the documents and s the
// sample rate × their tokens (gensim's subsampling), up to the first
// 10,000 kept (gensim's MAX_DOCUMENT_LEN); the learning rate falls
// linearly to 0.0001 over the epochs' tokens, by document (gensim moves it
// a batch of 10,000 tokens at a time). Vectors start at uniform
// (−0.5, 0.5)/dim (d; gensim 3's seeded_vector) and 0 (y), in float32 as
// gensim keeps them, every product rounded to float32 as written so that no
// platform fuses it. dim must be a multiple of 8 (the kernels' lanes).
type dbow struct {
	c           corpus
	dim, epochs int
	rate        float64
	docs, out   []float32
	keep        []float64
	lens        []float64
	noise       *noise
	total, seen float64 // the epochs' tokens, and those of the documents read
	src         *rand.PCG
	epoch, next int // the epoch and document under way
	buf, kept   []int32
	work        []float32
	targets     [kernels.WalkTargets]int32 // a step's: t, then the negatives
}

func newDBOW(c corpus, dim, epochs int, rate, sample float64, src *rand.PCG) *dbow {
	counts, lens := c.counts()
	m := &dbow{c: c, dim: dim, epochs: epochs, rate: rate, docs: make([]float32, c.docs()*dim),
		out: make([]float32, c.tokens()*dim), keep: make([]float64, len(counts)), lens: lens, src: src,
		work: make([]float32, dim)}
	var all float64
	for _, k := range counts {
		all += k
	}
	s := sample * all
	for t, k := range counts {
		m.keep[t] = 1
		if k > 0 {
			m.keep[t] = min((math.Sqrt(k/s)+1)*(s/k), 1)
		}
	}
	m.total = float64(epochs) * all
	rnd := rand.New(src)
	for i := range m.docs {
		m.docs[i] = float32((rnd.Float64() - 0.5) / float64(dim))
	}
	m.noise = noiseOf(counts)
	return m
}

func (m *dbow) done() bool { return m.epoch == m.epochs }

// share is the share of the epochs' documents trained.
func (m *dbow) share() float64 {
	return (float64(m.epoch) + float64(m.next)/float64(max(m.c.docs(), 1))) / float64(m.epochs)
}

// uniform is a number uniform in [0, 1) from the stream, as
// rand.Rand.Float64 gives it.
func (m *dbow) uniform() float64 { return float64(m.src.Uint64()<<11>>11) / (1 << 53) }

// run trains on the next k documents.
func (m *dbow) run(k int) {
	for ; k > 0 && !m.done(); k-- {
		v := m.next
		lr := float32(m.rate - (m.rate-dbowMinRate)*m.seen/m.total)
		m.seen += m.lens[v]
		m.buf = m.c.doc(v, m.buf[:0])
		m.kept = m.kept[:0]
		for _, t := range m.buf {
			if p := m.keep[t]; p >= 1 || m.uniform() < p {
				if m.kept = append(m.kept, t); len(m.kept) == dbowMaxDoc {
					break
				}
			}
		}
		d := m.docs[v*m.dim : (v+1)*m.dim]
		for _, t := range m.kept {
			m.step(d, t, lr)
		}
		if m.next++; m.next == m.c.docs() {
			m.epoch, m.next = m.epoch+1, 0
		}
	}
}

// step is one PV-DBOW step: document vector d predicts token t against
// dbowNegative negatives. With six distinct targets no target's update
// moves another's score, and d moves only after all of them: the scores
// and the step are the skip-gram's kernels (DeepWalk's), a target outside
// (−6, 6) stepping by 0. A target repeated (a negative drawn twice, or
// equal to t, which gensim drops) takes gensim's loop, one target after
// another.
func (m *dbow) step(d []float32, t int32, lr float32) {
	ts := &m.targets
	ts[0] = t
	repeats := false
	for k := 1; k < len(ts); k++ {
		ts[k] = m.noise.draw(m.uniform())
		for j := range k {
			repeats = repeats || ts[k] == ts[j]
		}
	}
	if !repeats {
		o0, o1, o2, o3, o4, o5 := m.row(0), m.row(1), m.row(2), m.row(3), m.row(4), m.row(5)
		var score, gk [kernels.WalkTargets]float32
		kernels.SkipGramScores(&score, d, o0, o1, o2, o3, o4, o5)
		for k, f := range score {
			if f > -sigmoidEdge && f < sigmoidEdge {
				gk[k] = stepSize(k == 0, f, lr)
			}
		}
		kernels.SkipGramStep(d, o0, o1, o2, o3, o4, o5, &gk)
		return
	}
	work := m.work
	clear(work)
	for k, target := range ts {
		if k > 0 && target == t {
			continue
		}
		y := m.row(k)
		f := kernels.WalkDot(d, y)
		if f <= -sigmoidEdge || f >= sigmoidEdge {
			continue
		}
		g := stepSize(k == 0, f, lr)
		for i := range work {
			work[i] += float32(g * y[i])
			y[i] += float32(g * d[i])
		}
	}
	for i := range d {
		d[i] += work[i]
	}
}

// row is target k's output vector.
func (m *dbow) row(k int) []float32 {
	v := int(m.targets[k])
	return m.out[v*m.dim : (v+1)*m.dim]
}

// musaeCost is MUSAE's walks and its scales' document models, then its
// regression. A scale's documents hold, for each of the walks' pairs k
// apart (about N·walks·length of them, fewer by k each walk), both ends'
// features and tokens; a document is read up to its first 10,000 tokens
// kept, which bounds the work (on Cora subsampling keeps 57% of that
// bound); the features' document holds the node's features. Each token
// kept is a step against six targets of 32 dimensions, counted as
// Walklets' steps are but at eight units a target and dimension, not six:
// on Cora a step took 0.86 µs natively beside other jobs (200 s in all,
// the estimate 0.31 of it, as HOPE's read in the same hour), its rows
// drawn at random from a table of 4,000 tokens. The browser refuses Cora
// (an estimate of five minutes).
func musaeCost(s Shape) []Part {
	n := float64(s.N)
	perNode := s.inputs() / max(n, 1) // a node's features
	var tokens float64
	for k := 1; k <= MUSAEScales; k++ {
		raw := 2 * MUSAEWalks * float64(MUSAELength-k) * (perNode + 1)
		tokens += n * min(raw, dbowMaxDoc)
	}
	tokens += n * min(perNode, dbowMaxDoc)
	steps := MUSAEEpochs * tokens
	d, targets := float64(MUSAEDim), float64(dbowNegative+1)
	walk := n * MUSAEWalks * MUSAELength
	tok := float64(s.F) + n
	return []Part{
		{What: phrase.New("MUSAE's walks and document models"), SetupWork: Work{Dense: steps * targets * 8 * d, Exp: steps * targets},
			// The walks and their index, the document vectors and the
			// tokens' output vectors, counts, noise table and
			// probabilities; the embedding.
			Bytes:  4*2*walk + 4*n*d + tok*(4*d+8*3+16) + f64*n*(MUSAEScales+1)*d + 4*s.inputs(),
			Fields: []string{"nodes", "node-features", "edges"}},
		logRegCost(s, (MUSAEScales+1)*d),
	}
}
