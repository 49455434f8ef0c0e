package pdn

import (
	"math"
	"math/rand/v2"
	"time"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
)

func init() {
	register(experiment.MNE, model{cost: func(s Shape, _ experiment.Model) []Part { return mneCost(s) },
		build: func(g *datasets.Graph, _ experiment.Model, _ *rand.Rand, seed uint64) network {
			return embedNetOf(experiment.MNE, g, seed, newMNE)
		}})
}

// MNE's settings, its authors' (their code's train_model, which their
// experiments ran): common vectors of 200 dimensions and additional
// vectors of 10 a layer; 20 walks of 10 nodes from every node, a window
// of 5 and 5 negatives; the common vectors trained for 100 passes over
// the union's walks, then each layer's additional vectors and
// transformation for 20 passes over its own walks, the transformation's
// Frobenius norm held to 1000 at most.
const (
	MNEDim         = 200
	MNEAddDim      = 10
	mneWalks       = 20
	mneWalkLength  = 10
	mneNormLimit   = 1000
	mneWalkStreams = 2 // streams a stage takes: its walks, then its training
)

// mnePasses is how many passes over their walks MNE's stages take: its
// authors' 100 for the common vectors and 20 for each layer, in every
// build and on every surface. This package's tests, which train every
// model in every build (under Node among them), lower it (mne_test.go):
// at the authors' passes MNE takes 36,000 steps a node, half a minute on
// the tests' graph, where no other model takes two seconds.
var mnePasses = mneAuthors

// mneAuthors is the passes of the authors' code.
var mneAuthors = mneSchedule{base: 100, layer: 20}

// mneSchedule is the passes of MNE's common stage and of each layer's.
type mneSchedule struct{ base, layer int }

// streamMNE is the first of MNE's streams of the weight seed: the union's
// walks and training from streamMNE and streamMNE+1, layer l's from
// streamMNE+2(l+1) and the one after.
const streamMNE = 0x6d6e6500

// mne is MNE (Zhang, Qiu, Yi and Song, "Scalable Multiplex Network
// Embedding", IJCAI 2018), as its authors' code trains it. Every node n
// has a common vector b_n (200 dimensions) and, in every layer i, an
// additional vector u_n^i (10), which the layer's transformation X^i
// (10×200) carries into the common space:
//
//	v_n^i = b_n + u_n^iᵀ X^i
//
// (the paper's weight w^i is 1 in the code). Both stages are DeepWalk's
// skip-gram with negative sampling (skipGrammer): first b alone, as a
// skip-gram on uniform random walks over the union of the layers (the
// authors' 'Base' layer), for 100 passes; then each layer in turn on its
// own walks for 20 passes, b held fixed, with v_n^i as the input vector
// and fresh output vectors. A step's gradient e of v (the targets' terms
// times the rate) moves u by X^i e and X^i by u eᵀ, both read before the
// step, and X^i is scaled back to norm 1000 when it grows past it (the
// authors' code moves u by the X^i it has just moved, which adds u‖e‖²
// to every step of u: u grew without bound and the run overflowed within
// a pass on the test graphs; the loss's gradient is the one at the same
// point, and with it u stays near its start); X^i starts at 0
// and u at uniform (−0.05, 0.05), as the authors'. A node with no edge in
// a layer keeps u = 0 there, as theirs (it is in no walk of the layer).
// A node's embedding is v_n^i of every layer, concatenated (200·L
// columns: the layers' embeddings side by side, as §2 of the paper reads
// the multiplex methods), each column standardised as DeepWalk's are.
// Where this departs from the authors' code: the walks are DeepWalk's (a
// round from every node in a random order, undirected), no frequent node
// is subsampled (gensim's sample = 10⁻³ keeps every node of graphs this
// size but the busiest hubs), one thread steps in order (gensim's four
// update at once), and an edge's weight in a layer is not read. Made in
// pieces of walks: the same bits however it is cut.
type mne struct {
	n, layers int
	g         *datasets.Graph
	seed      uint64
	stage     int // 0 the common vectors, then 1…L the layers
	sg        *skipGrammer
	base      []float32 // b, N×200, once the first stage is done
	layer     *mneLayer // the layer being trained
	views     [][]float32
	emb       []float64
}

func newMNE(g *datasets.Graph, seed uint64) *mne {
	m := &mne{n: g.N, layers: g.D, g: g, seed: seed}
	ws := randomWalks(g, rand.New(rand.NewPCG(seed, streamMNE)), mneWalks, mneWalkLength)
	m.sg = newSkipGram(g.N, MNEDim, WalkWindow, ws, rand.NewPCG(seed, streamMNE+1))
	m.sg.setEpochs(mnePasses.base)
	return m
}

// mneLayer is one layer's additional vectors u (N×10) and transformation
// X (10×200), the input vectors of its skip-gram (skipInput).
type mneLayer struct {
	base, u, x []float32
	v          []float32 // scratch: the input vector of the step
	// sq is ‖X‖², kept by each step's exact increment (2uᵀXe + ‖u‖²‖e‖²,
	// in float64) and summed anew whenever X is scaled back: a pair's
	// step then reads X twice, not three times (the sum over X took a
	// third of MNE's time).
	sq float64
}

// vector is v = b + uᵀX of node c, the products summed over u's entries
// in order before b is added (as numpy's b + dot(u, X)), a row of X at a
// time.
func (l *mneLayer) vector(c int32) []float32 {
	b, u := l.base[int(c)*MNEDim:][:MNEDim], l.u[int(c)*MNEAddDim:][:MNEAddDim]
	v := l.v[:MNEDim]
	clear(v)
	for a, ua := range u {
		row := l.x[a*MNEDim:][:MNEDim]
		for t, x := range row {
			v[t] += float32(ua * x)
		}
	}
	for t, bt := range b {
		v[t] = bt + v[t]
	}
	return v
}

// update takes the step e of v, the loss's gradients at the same point:
// u += X e, X += u eᵀ (u as it was), then X back to norm mneNormLimit if
// it grew past it.
func (l *mneLayer) update(c int32, e []float32) {
	u := l.u[int(c)*MNEAddDim:][:MNEAddDim]
	e = e[:MNEDim]
	var du [MNEAddDim]float32
	var uXe, uu, ee float64
	for a, ua := range u {
		row := l.x[a*MNEDim:][:MNEDim]
		var s float32
		for t, et := range e {
			s += float32(et * row[t])
			row[t] += float32(ua * et)
		}
		du[a] = s
		uXe += float64(float64(ua) * float64(s))
		uu += float64(float64(ua) * float64(ua))
	}
	for _, et := range e {
		ee += float64(float64(et) * float64(et))
	}
	for a := range u {
		u[a] += du[a]
	}
	l.sq += float64(2*uXe) + float64(uu*ee)
	if l.sq > mneNormLimit*mneNormLimit {
		l.rescale()
	}
}

// rescale sums ‖X‖² anew and, if X is past mneNormLimit, scales it back
// to it.
func (l *mneLayer) rescale() {
	if norm := math.Sqrt(l.measure()); norm > mneNormLimit {
		for i, x := range l.x {
			l.x[i] = float32(float64(x) / (norm / mneNormLimit))
		}
		l.measure()
	}
}

// measure sums ‖X‖² into sq.
func (l *mneLayer) measure() float64 {
	var sq float64
	for _, x := range l.x {
		sq += float64(float64(x) * float64(x))
	}
	l.sq = sq
	return sq
}

// startLayer makes layer i's skip-gram: its walks (those from a node with
// an edge in it), its additional vectors uniform in (−0.05, 0.05), X = 0.
func (m *mne) startLayer(i int) {
	lg := layerGraphs(m.g)[i]
	rnd := rand.New(rand.NewPCG(m.seed, streamMNE+mneWalkStreams*uint64(i+1)))
	var ws [][]int32
	for _, w := range randomWalks(lg, rnd, mneWalks, mneWalkLength) {
		if len(w) > 1 {
			ws = append(ws, w)
		}
	}
	src := rand.NewPCG(m.seed, streamMNE+mneWalkStreams*uint64(i+1)+1)
	l := &mneLayer{base: m.base, u: make([]float32, m.n*MNEAddDim), x: make([]float32, MNEAddDim*MNEDim), v: make([]float32, MNEDim)}
	urnd := rand.New(src)
	walked := make([]bool, m.n)
	for _, w := range ws {
		for _, v := range w {
			walked[v] = true
		}
	}
	for v := range m.n {
		for a := range MNEAddDim {
			r := urnd.Float64()
			if walked[v] {
				l.u[v*MNEAddDim+a] = float32((r - 0.5) / MNEAddDim)
			}
		}
	}
	m.layer = l
	m.sg = newSkipGram(m.n, MNEDim, WalkWindow, ws, src)
	m.sg.in = nil // the layer's input vectors are l's
	m.sg.input = l
	m.sg.setEpochs(mnePasses.layer)
}

// prepare trains the stages until done or the deadline passes, and
// reports whether the embedding is done.
func (m *mne) prepare(deadline time.Time) bool {
	for m.emb == nil {
		if m.sg == nil {
			m.startLayer(m.stage - 1)
		}
		m.sg.run(16)
		if m.sg.done() {
			m.endStage()
			if m.stage > m.layers {
				m.finish()
				break
			}
		}
		if time.Now().After(deadline) {
			return false
		}
	}
	return true
}

// endStage keeps what the stage just done learned: b, or the layer's
// vectors v_n^i.
func (m *mne) endStage() {
	if m.stage == 0 {
		m.base = m.sg.in
	} else {
		v := make([]float32, m.n*MNEDim)
		for n := range int32(m.n) {
			copy(v[int(n)*MNEDim:], m.layer.vector(n))
		}
		m.views = append(m.views, v)
		m.layer = nil
	}
	m.sg = nil
	m.stage++
}

// finish joins the layers' vectors into the embedding, each column
// standardised.
func (m *mne) finish() {
	m.emb = sideBySide(m.views, m.n, MNEDim)
	m.views, m.base, m.g = nil, nil, nil
}

// preparing returns the share of the stages' passes done, each pass
// counted by its walks' nodes (the union's and the layers' are about as
// long).
func (m *mne) preparing() float64 {
	if m.emb != nil {
		return 1
	}
	p := mnePasses
	all := float64(p.base + m.layers*p.layer)
	done := 0.0
	if m.stage > 0 {
		done = float64(p.base + (m.stage-1)*p.layer)
	}
	if m.sg != nil {
		done += float64(m.sg.next) / float64(max(m.sg.reads(), 1)) * float64(m.sg.epochs)
	}
	return min(done/all, 0.999)
}

func (m *mne) embedding() []float64 { return m.emb }
func (m *mne) dim() int             { return m.layers * MNEDim }

// mneCost is MNE's stages, then its regression. A step of the common
// stage is DeepWalk's, six units a target and dimension; a layer's adds
// uᵀX, X's and u's steps and X's norm, four passes over X.
func mneCost(s Shape) []Part {
	n, L, d := float64(s.N), float64(max(s.D, 1)), float64(MNEDim)
	pairs := n * mneWalks * mneWalkLength * float64(WalkWindow+1) // a pass's centre–context pairs
	targets := float64(WalkNegatives + 1)
	pb, pl := float64(mnePasses.base), float64(mnePasses.layer)
	base := pb * pairs * targets * 6 * d
	layers := L * pl * pairs * (targets*6*d + 4*MNEAddDim*d*2)
	return []Part{
		{What: phrase.New("MNE's walks and embeddings"),
			SetupWork: Work{Dense: base + layers, Exp: (pb + L*pl) * pairs * targets},
			Bytes:     n*(4*mneWalks*mneWalkLength+4*3*d+4*L*MNEAddDim) + n*L*d*(4+f64), Fields: []string{"nodes", "edges"}},
		logRegCost(s, L*d),
	}
}
