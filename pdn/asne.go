package pdn

import (
	"math/rand/v2"
	"time"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
)

func init() {
	register(experiment.ASNE, model{cost: func(s Shape, _ experiment.Model) []Part { return asneCost(s) },
		build: func(g *datasets.Graph, _ experiment.Model, _ *rand.Rand, seed uint64) network {
			return embedNetOf(experiment.ASNE, g, seed, newASNE)
		}})
}

// ASNE's settings, Karate Club's defaults (its ASNE, in the release the
// paper ran, which calls gensim 3's Doc2Vec): 128 dimensions
// (dimensions), 100 epochs (epochs) at a learning rate of 0.05
// (learning_rate), subsampling at 10⁻⁴ (down_sampling), every token kept
// (min_count = 1); the rest gensim's Doc2Vec defaults, as MUSAE's (dbow).
const (
	ASNEDim    = 128
	ASNEEpochs = 100
	asneRate   = 0.05
	asneSample = 1e-4
)

// streamASNE is the weight seed's stream of ASNE's vectors, subsampling
// and negatives.
const streamASNE = 0x5a20

// asne is ASNE, attributed social network embedding (Liao, He, Zhang and
// Chua, TKDE 2018), as Karate Club's ASNE makes it: where the paper trains
// a neural network on a node's structural and attribute embeddings, Karate
// Club's factorises the concatenation of the adjacency and feature
// matrices implicitly, as a document model (gensim's Doc2Vec in PV-DBOW,
// dbow) over one document a node, which holds a token for each of its
// neighbours (in the order of the graph's edges, as NetworkX lists them)
// and then one for each of its features (its non-zero columns,
// ascending). The embedding is the document vectors.
//
// Where this departs from Karate Club: gensim's four threads update at
// once (Hogwild), here one does, in order, from the weight seed; and the
// embedding's columns are standardised, as DeepWalk's and MUSAE's are,
// before the classifier. Made in pieces, a few documents at a time: the
// same bits however it is cut.
type asne struct {
	g     *datasets.Graph
	seed  uint64
	model *dbow
	emb   []float64
}

func newASNE(g *datasets.Graph, seed uint64) *asne { return &asne{g: g, seed: seed} }

func (m *asne) dim() int { return ASNEDim }

func (m *asne) embedding() []float64 { return m.emb }

// asneDocs is how many documents a piece trains between two looks at the
// deadline: about a millisecond on Cora.
const asneDocs = 64

// prepare trains the document model until done or the deadline passes,
// and reports whether the embedding is done.
func (m *asne) prepare(deadline time.Time) bool {
	if m.emb != nil {
		return true
	}
	if m.model == nil {
		m.model = newDBOW(newASNECorpus(m.g), ASNEDim, ASNEEpochs, asneRate, asneSample, rand.NewPCG(m.seed, streamASNE))
		if time.Now().After(deadline) {
			return false
		}
	}
	for !m.model.done() {
		m.model.run(asneDocs)
		if time.Now().After(deadline) && !m.model.done() {
			return false
		}
	}
	m.emb = make([]float64, len(m.model.docs))
	for i, x := range m.model.docs {
		m.emb[i] = float64(x)
	}
	standardise(m.emb, m.g.N, ASNEDim)
	m.model = nil
	return true
}

// preparing is the share of the epochs' documents trained.
func (m *asne) preparing() float64 {
	switch {
	case m.emb != nil:
		return 1
	case m.model == nil:
		return 0
	}
	return m.model.share()
}

// asneCorpus is ASNE's documents: tokens 0…N−1 are the neighbours, N + j
// feature j.
type asneCorpus struct {
	adj   *adjacency
	feats [][]int32
	f     int
}

func newASNECorpus(g *datasets.Graph) *asneCorpus {
	return &asneCorpus{adj: newAdjacency(g.N, g.Src, g.Dst), feats: featureTokens(g), f: g.F}
}

func (c *asneCorpus) docs() int   { return len(c.feats) }
func (c *asneCorpus) tokens() int { return len(c.feats) + c.f }

func (c *asneCorpus) doc(v int, buf []int32) []int32 {
	buf = append(buf, c.adj.col[c.adj.rowPtr[v]:c.adj.rowPtr[v+1]]...)
	n := int32(len(c.feats))
	for _, j := range c.feats[v] {
		buf = append(buf, n+j)
	}
	return buf
}

func (c *asneCorpus) counts() (tok, lens []float64) {
	tok, lens = make([]float64, c.tokens()), make([]float64, c.docs())
	var buf []int32
	for v := range c.docs() {
		buf = c.doc(v, buf[:0])
		for _, t := range buf {
			tok[t]++
		}
		lens[v] = float64(len(buf))
	}
	return tok, lens
}

// asneCost is ASNE's document model, then its regression: each epoch
// reads every node's neighbours and features, at most 2E + the features'
// non-zeros tokens (subsampling keeps fewer), each a step against six
// targets of 128 dimensions, at 20 units a target and dimension: on Cora
// its set-up took 26 s natively beside other jobs, and at MUSAE's 8 units
// the estimate read 0.14 of it where HOPE's read 0.31 in the same hour
// (its scores take the kernels' scalar path, whose vector one is 64
// dimensions').
func asneCost(s Shape) []Part {
	n, e := float64(s.N), float64(s.E)
	steps := ASNEEpochs * (2*e + s.inputs())
	d, targets := float64(ASNEDim), float64(dbowNegative+1)
	tok := n + float64(s.F)
	return []Part{
		{What: phrase.New("ASNE's document model"), SetupWork: Work{Dense: steps * targets * 20 * d, Exp: steps * targets},
			// The document and output vectors, the tokens' counts,
			// probabilities and noise table, the features' tokens and the
			// adjacency; the embedding.
			Bytes:  4*n*d + tok*(4*d+8*3+16) + 4*s.inputs() + 8*(n+2*e) + f64*n*d,
			Fields: []string{"nodes", "node-features", "edges"}},
		logRegCost(s, d),
	}
}
