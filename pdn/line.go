package pdn

import (
	"math/rand/v2"
	"time"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/pdn/internal/kernels"
)

func init() {
	register(experiment.LINE, model{cost: func(s Shape, _ experiment.Model) []Part { return lineCost(s) },
		build: func(g *datasets.Graph, _ experiment.Model, _ *rand.Rand, seed uint64) network {
			return embedNetOf(experiment.LINE, g, seed, newLINE)
		}})
}

// LINE₂'s settings, its authors' (the reference implementation of Tang et
// al., whose -order defaults to 2): 5 negative samples, a learning rate
// of 0.025 falling linearly with the samples, and a million samples
// (-samples 1, in millions); 128 dimensions, the paper's and Appendix D's
// (the code's default is 100). Karate Club had no LINE when the paper
// ran; the one it has since, SecondOrderLINE, is not the paper's (its
// negatives are random pairs of nodes, its vectors start uniform in
// [0, 1), and its embedding joins the vertex and context halves of 64),
// and OpenNE's trains by Adam in batches: the authors' code defines the
// method.
const (
	LINEDim       = 128
	LINESamples   = 1_000_000
	lineRate      = 0.025
	lineNegatives = kernels.WalkTargets - 1
)

// streamLINE is the stream of the weight seed LINE draws its vectors,
// edges and negatives from.
const streamLINE = 22

// line is LINE's second-order proximity (Tang, Qu, Wang, Zhang, Yan and
// Mei, "LINE: Large-scale Information Network Embedding", WWW 2015, §4.1.2
// and §4.2): each node i has a vertex vector u_i (the embedding) and a
// context vector c_i, and for each edge, taken both ways, (i, j)
//
//	loss = −log σ(c_j·u_i) − Σ_{n=1…5} log σ(−c_{v_n}·u_i)
//
// with the negatives v_n drawn with probability ∝ degree^¾ (DeepWalk's
// noise table over the degrees). It is DeepWalk's skip-gram step with an
// edge for the pair of a window: each of LINESamples steps draws a
// directed edge uniformly (edge sampling, all weights 1 here), then the
// context vectors of j and of the negatives move by their gradient in
// turn, and u_i by the sum of its terms (kernels.SkipGramStep; one by one
// when a target repeats), at a rate ρ = 0.025·(1 − t/(T+1)), never below
// 0.025·10⁻⁴, as the authors' code has it. Vertex vectors start at
// uniform (−0.5, 0.5)/128 and context vectors at 0, in float32 as theirs.
// σ is read from word2vec's table (tabledSigmoid); the authors' code
// fills its own table at the integers −6…5 only (its 2·6·k/1000 is an
// integer division), which this does not copy. The embedding is the
// vertex vectors, each column standardised as DeepWalk's are. Made in
// pieces of samples: the same bits however it is cut.
//
// Over seeds 1–3 it reads 0.640 on Cora and 0.376 on Citeseer, the
// paper's 0.686 and 0.470: a million samples leave the vectors of graphs
// this size still growing from their small start. The number of samples
// is what moves it: 2 and 3 million read 0.737 and 0.738 on Cora (0.472
// and 0.477 on Citeseer), 5 million 0.718 (0.458), 10 million 0.688
// (0.431), and the authors' YouTube run's rate (10¹⁰ samples for 1.1
// million nodes, 8,800 a node) 0.634 (0.388). The authors' default is
// kept: no rule of theirs scales it to a graph.
type line struct {
	n        int
	src, dst []int32 // the edges, each taken both ways
	in, ctx  []float32
	noise    *noise
	next     int // samples taken
	pcg      *rand.PCG
	rnd      *rand.Rand // pcg's, for IntN
	emb      []float64  // nil until done
	targets  [1 + lineNegatives]int32
	score    [1 + lineNegatives]float32
	grad     []float32
}

func newLINE(g *datasets.Graph, seed uint64) *line {
	pcg := rand.NewPCG(seed, streamLINE)
	m := &line{n: g.N, src: g.Src, dst: g.Dst, in: make([]float32, g.N*LINEDim), ctx: make([]float32, g.N*LINEDim),
		pcg: pcg, rnd: rand.New(pcg), grad: make([]float32, LINEDim)}
	for i := range m.in {
		m.in[i] = float32((m.rnd.Float64() - 0.5) / LINEDim)
	}
	degree := make([]float64, g.N)
	for e := range g.Src {
		degree[g.Src[e]]++
		degree[g.Dst[e]]++
	}
	m.noise = noiseOf(degree)
	return m
}

// prepare takes samples until done or the deadline passes, and reports
// whether the embedding is done.
func (m *line) prepare(deadline time.Time) bool {
	for m.emb == nil {
		for range min(4096, LINESamples-m.next) {
			m.sample()
		}
		if m.next == LINESamples {
			m.emb = make([]float64, len(m.in))
			for i, v := range m.in {
				m.emb[i] = float64(v)
			}
			standardise(m.emb, m.n, LINEDim)
			m.in, m.ctx = nil, nil
			break
		}
		if time.Now().After(deadline) {
			return false
		}
	}
	return true
}

func (m *line) preparing() float64   { return float64(m.next) / LINESamples }
func (m *line) embedding() []float64 { return m.emb }
func (m *line) dim() int             { return LINEDim }

// sample is one sample: a directed edge (i, j), five negatives, and the
// step of u_i against their context vectors.
func (m *line) sample() {
	lr := float32(max(lineRate*(1-float64(m.next)/(LINESamples+1)), lineRate*1e-4))
	m.next++
	e := m.rnd.IntN(2 * len(m.src))
	i, j := m.src[e%len(m.src)], m.dst[e%len(m.src)]
	if e >= len(m.src) {
		i, j = j, i
	}
	m.targets[0] = j
	for k := 1; k <= lineNegatives; k++ {
		m.targets[k] = m.noise.draw(float64(m.pcg.Uint64()<<11>>11) / (1 << 53))
	}
	m.step(i, lr)
}

// step moves the context vectors of the targets, the edge's and the
// negatives', and the vertex vector of i, at the rate lr.
func (m *line) step(i int32, lr float32) {
	ui := m.row(m.in, i)
	repeats := false
	for a := 1; a < len(m.targets); a++ {
		for b := 0; b < a; b++ {
			repeats = repeats || m.targets[a] == m.targets[b]
		}
	}
	if !repeats {
		c := &m.targets
		kernels.SkipGramScores(&m.score, ui, m.row(m.ctx, c[0]), m.row(m.ctx, c[1]), m.row(m.ctx, c[2]), m.row(m.ctx, c[3]), m.row(m.ctx, c[4]), m.row(m.ctx, c[5]))
		var gk [1 + lineNegatives]float32
		for k, sc := range m.score {
			gk[k] = stepSize(k == 0, sc, lr)
		}
		kernels.SkipGramStep(ui, m.row(m.ctx, c[0]), m.row(m.ctx, c[1]), m.row(m.ctx, c[2]), m.row(m.ctx, c[3]), m.row(m.ctx, c[4]), m.row(m.ctx, c[5]), &gk)
		return
	}
	// A target repeats: one by one, each scored after the steps before it,
	// as the authors' code takes them all.
	clear(m.grad)
	for k, target := range m.targets {
		cj := m.row(m.ctx, target)
		gk := stepSize(k == 0, kernels.WalkDot(ui, cj), lr)
		for t := range m.grad {
			m.grad[t] += float32(gk * cj[t])
			cj[t] += float32(gk * ui[t])
		}
	}
	for t := range ui {
		ui[t] += m.grad[t]
	}
}

// row is node v's vector in the table a.
func (m *line) row(a []float32, v int32) []float32 { return a[int(v)*LINEDim:][:LINEDim] }

// lineCost is LINE's samples, then its regression; its set-up is counted
// as DeepWalk's is, six units a target and dimension.
func lineCost(s Shape) []Part {
	n, d, targets := float64(s.N), float64(LINEDim), float64(lineNegatives+1)
	return []Part{
		{What: phrase.New("LINE's edge samples and embeddings"), SetupWork: Work{Dense: LINESamples * targets * 6 * d, Exp: LINESamples * targets},
			Bytes: n * (4*2*d + f64*(d+3)), Fields: []string{"nodes"}},
		logRegCost(s, d),
	}
}
