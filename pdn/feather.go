package pdn

import (
	"math"
	"math/rand/v2"
	"time"

	"gonum.org/v1/gonum/mat"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
)

func init() {
	register(experiment.FEATHER, model{cost: func(s Shape, _ experiment.Model) []Part { return featherCost(s) },
		build: func(g *datasets.Graph, _ experiment.Model, _ *rand.Rand, seed uint64) network {
			return embedNetOf(experiment.FEATHER, g, seed, newFeather)
		}})
}

// FEATHER's settings, Karate Club's FeatherNode defaults (v1.3): node
// features reduced to 64 by a truncated SVD of 20 power iterations, the
// characteristic function evaluated at 25 points from 0.01 to 2.5, over
// random walks of 1 to 5 steps.
const (
	FeatherReduction  = 64   // reduction_dimensions
	FeatherSVDIters   = 20   // svd_iterations
	FeatherThetaMin   = 0.01 // the first point, fixed in FeatherNode
	FeatherThetaMax   = 2.5  // theta_max
	FeatherEvalPoints = 25   // eval_points
	FeatherOrder      = 5    // order
)

// streamFeather is the weight seed's stream of FEATHER's truncated SVD
// (its Gaussian test matrix).
const streamFeather = 0xfea7

// feather is FEATHER-N (Rozemberczki and Sarkar, "Characteristic
// Functions on Graphs: Birds of a Feather, from Statistical Descriptors to
// Parametric Models", CIKM 2020), as Karate Club's FeatherNode makes it,
// the embedder of an embedNet. The node features X (N×F) are reduced, when
// F > FeatherReduction, to R = X·V, V the F×64 leading right singular
// vectors of X by a truncated SVD (scikit-learn's TruncatedSVD, whose
// transform FeatherNode takes; truncatedSVD); else R = X. Each reduced
// feature is evaluated at the points θ_1 … θ_25 spaced evenly over
// [0.01, 2.5] (numpy's linspace):
//
//	Φ = [cos(θ_t r_ij) | sin(θ_t r_ij)]   N × 2·r·25, column j·25 + t of each half,
//	Z = [P Φ | P² Φ | … | P⁵ Φ]           N × 10·r·25,  P = D⁻¹A,
//
// so that Z's block s holds the real and imaginary parts of the empirical
// characteristic function of each reduced feature over the nodes a random
// walk of s steps from the node ends at, weighted by the chance that it
// ends there: 16,000 columns for 64 reduced features. A node without edges
// has P's row of zeros (FeatherNode's D⁻¹ is infinite there, and scipy's
// sparse product then stores nothing). The embedding is used as it is,
// unstandardised, as Karate Club hands it to scikit-learn.
//
// It is made in pieces (prepare): the SVD a power iteration at a time,
// then Φ and each power a block of rows at a time, each sum in a fixed
// order and each product rounded before it is added (Sincos is Go's own
// code on every platform the engine runs on), so that the same seed gives
// the same bits natively and in the browser, however it is cut.
type feather struct {
	g   *datasets.Graph
	adj *adjacency
	rnd *rand.Rand
	r   int         // reduced features
	op  linOp       // X, when it is reduced
	svd *svdRun     // the reduction under way
	red []float64   // R, N×r; nil until made
	emb []float64   // Z, N×dim; Φ is made in its last block
	row int         // the next row of the current stage
	st  featherStep // the stage under way
}

// featherStep is a stage of FEATHER's set-up, in order.
type featherStep int

const (
	featherReduce featherStep = iota // the SVD's power iterations, then R
	featherPhi                       // Φ's rows, into Z's last block
	featherWalk                      // P^s Φ, stage featherWalk + s − 1
	featherDone   = featherWalk + FeatherOrder
)

func newFeather(g *datasets.Graph, seed uint64) *feather {
	return &feather{g: g, r: featherReduced(g.N, g.F), rnd: rand.New(rand.NewPCG(seed, streamFeather))}
}

// featherReduced is the number of features FEATHER keeps of n nodes' f:
// all of them up to FeatherReduction, else the SVD's: FeatherReduction, or
// n if fewer (truncatedSVD finds no more triplets than rows).
func featherReduced(n, f int) int {
	if f <= FeatherReduction {
		return f
	}
	return min(FeatherReduction, n)
}

// featherDim is the embedding's width over r reduced features.
func featherDim(r int) int { return 2 * r * FeatherEvalPoints * FeatherOrder }

func (m *feather) dim() int { return featherDim(m.r) }

func (m *feather) embedding() []float64 {
	if m.st != featherDone {
		return nil
	}
	return m.emb
}

// featherRows is how many rows a piece of Φ or of a power makes between
// two looks at the deadline: about a millisecond's work on Cora.
const featherRows = 32

// prepare makes the embedding until done or the deadline passes, and
// reports whether it is done.
func (m *feather) prepare(deadline time.Time) bool {
	for m.st != featherDone {
		switch {
		case m.st == featherReduce:
			m.reduceStep()
		case m.st == featherPhi:
			m.phiRows(featherRows)
		default:
			m.walkRows(int(m.st-featherWalk)+1, featherRows)
		}
		if m.st != featherDone && time.Now().After(deadline) {
			return false
		}
	}
	return true
}

// preparing is the share of the stages done, the reduction's by its SVD's
// steps, the others' by their rows.
func (m *feather) preparing() float64 {
	stages := float64(featherDone)
	switch {
	case m.st == featherReduce && m.svd != nil:
		return m.svd.share() / stages
	case m.st == featherReduce:
		return 0
	}
	return (float64(m.st) + float64(m.row)/float64(max(m.g.N, 1))) / stages
}

// reduceStep takes the next step of the reduction: the SVD's start, a power
// iteration, or R = X·V (or X itself when it is not reduced) and Z's
// memory.
func (m *feather) reduceStep() {
	g := m.g
	if g.F > FeatherReduction {
		if m.svd == nil {
			m.op = featureOp(g)
			m.svd = newSVDRun(m.op, m.r, FeatherSVDIters, m.rnd)
			return
		}
		if !m.svd.step() {
			return
		}
		red := mat.NewDense(g.N, m.r, nil)
		m.op.mul(red, m.svd.v)
		m.red = red.RawMatrix().Data
		m.svd, m.op = nil, nil
	} else {
		m.red = denseFeatures(g)
	}
	m.emb = make([]float64, g.N*m.dim())
	m.st, m.row = featherPhi, 0
}

// featureOp is g's node features as a linOp: sparse or dense, as g holds
// them.
func featureOp(g *datasets.Graph) linOp {
	if g.XS != nil {
		return csrOp{a: g.XS}
	}
	return denseOp{mat.NewDense(g.N, g.F, g.X)}
}

// denseFeatures is g's node features as a dense N×F matrix, row-major.
func denseFeatures(g *datasets.Graph) []float64 {
	if g.XS == nil {
		return g.X
	}
	out := make([]float64, g.N*g.F)
	for i := range g.N {
		for p := g.XS.Ptr[i]; p < g.XS.Ptr[i+1]; p++ {
			out[i*g.F+int(g.XS.Col[p])] = g.XS.Val[p]
		}
	}
	return out
}

// featherThetas are the points the characteristic function is evaluated
// at, as numpy's linspace(0.01, 2.5, 25) spaces them: start + t·step, the
// last the end itself.
var featherThetas = func() (th [FeatherEvalPoints]float64) {
	step := (FeatherThetaMax - FeatherThetaMin) / float64(FeatherEvalPoints-1)
	for t := range th {
		th[t] = float64(float64(t)*step) + FeatherThetaMin
	}
	th[FeatherEvalPoints-1] = FeatherThetaMax
	return th
}()

// block is the width of one of Z's blocks, a power's Φ.
func (m *feather) block() int { return 2 * m.r * FeatherEvalPoints }

// phiRows makes the next k rows of Φ, in Z's last block.
func (m *feather) phiRows(k int) {
	d, b, half := m.dim(), m.block(), m.r*FeatherEvalPoints
	for ; k > 0 && m.row < m.g.N; k-- {
		i := m.row
		out := m.emb[i*d+(FeatherOrder-1)*b:][:b]
		for j, x := range m.red[i*m.r : (i+1)*m.r] {
			for t, th := range featherThetas {
				s, c := math.Sincos(th * x)
				out[j*FeatherEvalPoints+t], out[half+j*FeatherEvalPoints+t] = c, s
			}
		}
		m.row++
	}
	m.next()
}

// walkRows makes the next k rows of P^s Φ, Z's block s − 1, from block
// s − 2 (P Φ from Φ, in the last block): row i is Σ_j P_ij x_j over i's
// neighbours j, in the adjacency's order, P_ij = 1/deg(i).
func (m *feather) walkRows(s, k int) {
	if m.adj == nil {
		m.adj = newAdjacency(m.g.N, m.g.Src, m.g.Dst)
	}
	d, b := m.dim(), m.block()
	from := (s - 2) * b
	if s == 1 {
		from = (FeatherOrder - 1) * b
	}
	for ; k > 0 && m.row < m.g.N; k-- {
		i := m.row
		out := m.emb[i*d+(s-1)*b:][:b]
		clear(out)
		lo, hi := m.adj.rowPtr[i], m.adj.rowPtr[i+1]
		if hi > lo {
			p := 1 / float64(hi-lo)
			for _, j := range m.adj.col[lo:hi] {
				for c, v := range m.emb[int(j)*d+from:][:b] {
					out[c] += float64(p * v)
				}
			}
		}
		m.row++
	}
	m.next()
}

// next moves to the next stage once the current one has made every row.
func (m *feather) next() {
	if m.row < m.g.N {
		return
	}
	m.st, m.row = m.st+1, 0
	if m.st == featherDone {
		m.red, m.adj = nil, nil
	}
}

// featherCost is FEATHER's reduction, characteristic functions and walks,
// then its regression over them.
func featherCost(s Shape) []Part {
	n, e := float64(s.N), float64(s.E)
	r := featherReduced(s.N, s.F)
	d, b := float64(featherDim(r)), float64(2*r*FeatherEvalPoints)
	setup, svdBytes := featureSVDCost(s, FeatherReduction, FeatherSVDIters)
	// Φ's sines and cosines (a pair costs about an exponential), and each
	// power's sums over the neighbours.
	setup.Exp += n * b / 2
	setup.Gather += FeatherOrder * 2 * e * b
	return []Part{
		{What: phrase.New("FEATHER's characteristic functions"), SetupWork: setup,
			Bytes: f64*n*d + 8*(n+2*e), SetupBytes: svdBytes, Fields: []string{"nodes", "node-features", "edges"}},
		logRegCost(s, d),
	}
}
