package pdn

import (
	"math"
	"math/rand/v2"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/fmath"
	"pdnexplorer/pdn/internal/kernels"
)

func init() {
	register(experiment.DMGI, model{cost: dmgiCost,
		build: func(g *datasets.Graph, m experiment.Model, rnd *rand.Rand, _ uint64) network {
			return newDMGI(g, m, rnd)
		}})
}

// DMGI's settings, its authors' code's defaults (main.py), which its
// paper's experiments use: 64 dimensions, the consensus regulariser's
// weight α = 0.001 (reg_coef), the semi-supervised term's γ = 0.1
// (sup_coef); its dropout of 0.5, learning rate 0.0005 and weight decay
// 0.0001 are the model row's own settings (experiment.Models).
const (
	DMGIDim   = 64
	dmgiAlpha = 0.001
	dmgiGamma = 0.1
)

// streamDMGI is the weight seed's stream of DMGI's corruption, the rows'
// permutation drawn each training step.
const streamDMGI = 0x646d6769

// dmgi is DMGI (Park, Kim, Han and Yu, "Unsupervised Attributed Multiplex
// Network Embedding", AAAI 2020), with its semi-supervised term on, as the
// PDN paper trains it among the supervised baselines. For each layer r (a
// column of the edge features: the edges where it is not 0, weighted by
// it), a one-layer GCN encoder of its own weights W_r (64×F, no bias, as
// the authors' code's default),
//
//	h_r = ReLU(Â_r·drop(X)·W_rᵀ),  Â_r = D^{-1/2}(A_r + I)D^{-1/2},
//
// and the same over the corrupted features X̃ (X's rows permuted, one
// permutation for every layer, drawn afresh each step), h̃_r. The summary
// s_r = σ(mean_i h_r,i), and a bilinear discriminator shared by the
// layers (the universal discriminator) scores every node's patch against
// it, D(h, s) = hᵀ·M·s + b. The consensus embedding H (N×64) is learned
// beside them, held to the layers' mean (no attention: the code's
// default). The loss is
//
//	Σ_r BCE_r + α·(‖H − mean_r h_r‖² − ‖H − mean_r h̃_r‖²) + γ·CE(H·W_cᵀ + b_c),
//
// BCE_r the mean binary cross-entropy of the 2N scores (real patches 1,
// corrupted 0), CE the training nodes' cross-entropy of a logistic
// regression on H; the logits are that regression's (labelWeight gives the
// trainer γ, auxLoss the rest). The authors stop at a patience of 20 on
// the loss and restore the best epoch; here the epochs row decides, as for
// every model. The initialisations are the code's: Glorot-uniform W_r, M
// and W_c (M as a tensor of 1×64×64), zero biases, Glorot-normal H (as a
// tensor of 1×N×64). Every product is rounded before it is added and
// summed in a fixed order; exponentials and logs are fmath's: the same
// bits natively and in the browser.
type dmgi struct {
	g          *datasets.Graph
	n, f, d    int
	x          []float64 // the node features, N×F, dense
	shuf       []float64 // X̃
	layers     []*dmgiLayer
	disc, bias *tensor // M (d×d, row-major: M_jk), b
	h          *tensor // H, N×d
	head       *dense  // the regression on H, C×d
	drop       *dropout
	perm       []int
	permRnd    *rand.PCG
	rows       []int
	logits     []float64
	mean, neg  []float64 // mean_r h_r and mean_r h̃_r, N×d
	gh         []float64
	gs, gmc    []float64 // d
	aux        float64
	ones       []float64
}

// dmgiLayer is one layer's encoder and what its last training pass left.
type dmgiLayer struct {
	enc       *conv
	xd, xn    []float64 // the encoder's inputs: drop(X), drop(X̃)
	bd, bn    []float64 // their buffers
	hp, hn    []float64 // h_r, h̃_r
	gp, gn    []float64 // their gradients
	s, mc     []float64 // s_r and M·s_r
	pos, negs []float64 // the scores
}

func newDMGI(g *datasets.Graph, cfg experiment.Model, rnd *rand.Rand) *dmgi {
	n, f, d := g.N, g.F, DMGIDim
	m := &dmgi{g: g, n: n, f: f, d: d, x: denseFeatures(g), shuf: make([]float64, n*f),
		disc: newTensor(d * d), bias: newTensor(1), h: newTensor(n * d),
		drop: newDropout(cfg.Dropout, n*f), perm: make([]int, n), rows: g.Nodes(datasets.Train),
		logits: make([]float64, n*g.C), mean: make([]float64, n*d), neg: make([]float64, n*d),
		gh: make([]float64, n*d), gs: make([]float64, d), gmc: make([]float64, d)}
	for l := range g.D {
		norm := newGCNNorm(newAdjacency(g.N, g.Src, g.Dst))
		w := make([]float64, g.E())
		for e := range w {
			w[e] = g.EdgeX[e*g.D+l] // 0: not an edge of this layer
		}
		norm.forward(w)
		m.layers = append(m.layers, &dmgiLayer{enc: newConv(rnd, n, f, d, norm, false),
			bd: make([]float64, n*f), bn: make([]float64, n*f),
			hp: make([]float64, n*d), hn: make([]float64, n*d), gp: make([]float64, n*d), gn: make([]float64, n*d),
			s: make([]float64, d), mc: make([]float64, d), pos: make([]float64, n), negs: make([]float64, n)})
	}
	// nn.Bilinear(d, d, 1)'s weight, 1×d×d: fan-in d·d, fan-out d.
	m.disc.uniform(rnd, math.Sqrt(6/float64(d*d+d)))
	// H, 1×N×d: Glorot-normal, fan-in N·d, fan-out d.
	std := math.Sqrt(2 / float64(n*d+d))
	for i := range m.h.val {
		m.h.val[i] = std * rnd.NormFloat64()
	}
	m.head = newLinear(rnd, d, g.C)
	m.head.w.glorot(rnd, d, g.C)
	clear(m.head.b.val)
	return m
}

func (m *dmgi) params() []*tensor {
	var ps []*tensor
	for _, l := range m.layers {
		ps = append(ps, l.enc.w)
	}
	return append(ps, m.disc, m.bias, m.h, m.head.w, m.head.b)
}

func (m *dmgi) reseed(seed uint64) {
	m.drop.reseed(seed)
	m.permRnd = rand.NewPCG(seed, streamDMGI)
}

func (m *dmgi) streams() []*rand.PCG           { return []*rand.PCG{m.drop.rnd, m.permRnd} }
func (m *dmgi) lossRows() (rows, labels []int) { return m.rows, m.g.Labels }
func (m *dmgi) labelWeight() float64           { return dmgiGamma }
func (m *dmgi) auxLoss() float64               { return m.aux }

func (m *dmgi) setPacer(pc *pacer) {
	m.head.pc = pc
	for _, l := range m.layers {
		l.enc.pc = pc
	}
}

// edgeWeights is 1 for every edge: DMGI weighs no edge.
func (m *dmgi) edgeWeights() []float64 {
	if m.ones == nil {
		m.ones = ones(m.g.E())
	}
	return m.ones
}

// forward returns the regression's logits on H; training, it runs the
// encoders, real and corrupted, and sets the loss beside the labels'.
func (m *dmgi) forward(training bool) []float64 {
	m.head.forward(m.logits, m.h.val, m.n)
	if !training {
		return m.logits
	}
	n, f, d := m.n, m.f, m.d
	for i := range m.perm {
		m.perm[i] = i
	}
	rand.New(m.permRnd).Shuffle(n, func(i, j int) { m.perm[i], m.perm[j] = m.perm[j], m.perm[i] })
	for i, p := range m.perm {
		copy(m.shuf[i*f:(i+1)*f], m.x[p*f:(p+1)*f])
	}
	clear(m.mean)
	clear(m.neg)
	var bce float64
	for _, l := range m.layers {
		l.xd = m.drop.apply(l.bd, m.x, true)
		l.xn = m.drop.apply(l.bn, m.shuf, true)
		l.enc.forward(l.hp, l.xd, n)
		kernels.Relu(l.hp, l.hp)
		l.enc.forward(l.hn, l.xn, n)
		kernels.Relu(l.hn, l.hn)
		// s = σ(mean_i h_i), then M·s.
		clear(l.s)
		for i := range n {
			for j, v := range l.hp[i*d : (i+1)*d] {
				l.s[j] += v
			}
		}
		for j, v := range l.s {
			l.s[j] = fmath.Sigmoid(v / float64(n))
		}
		for j := range d {
			var s float64
			for k, v := range m.disc.val[j*d : (j+1)*d] {
				s += float64(v * l.s[k])
			}
			l.mc[j] = s
		}
		for i := range n {
			l.pos[i] = dot(l.hp[i*d:(i+1)*d], l.mc) + m.bias.val[0]
			l.negs[i] = dot(l.hn[i*d:(i+1)*d], l.mc) + m.bias.val[0]
			bce += softplus(-l.pos[i]) + softplus(l.negs[i])
		}
		kernels.AddTo(m.mean, l.hp)
		kernels.AddTo(m.neg, l.hn)
	}
	inv := 1 / float64(len(m.layers))
	var reg float64
	for i, hv := range m.h.val {
		m.mean[i] *= inv
		m.neg[i] *= inv
		a, b := hv-m.mean[i], hv-m.neg[i]
		reg += float64(a*a) - float64(b*b)
	}
	m.aux = bce/float64(2*n) + float64(dmgiAlpha*reg)
	return m.logits
}

func dot(a, b []float64) float64 {
	var s float64
	for i, v := range a {
		s += float64(v * b[i])
	}
	return s
}

// softplus is log(1 + eˣ), computed where it does not overflow.
func softplus(x float64) float64 { return max(x, 0) + fmath.Log(1+fmath.Exp(-math.Abs(x))) }

// backward takes glogits, the labels' gradient, already weighed by γ (the
// trainer's labelWeight), and adds the gradient of the rest of the loss
// (auxLoss) to every parameter's.
func (m *dmgi) backward(glogits []float64) {
	n, d := m.n, m.d
	m.head.backward(m.gh, m.h.val, glogits, n)
	inv := 1 / float64(len(m.layers))
	for i, hv := range m.h.val {
		m.h.grad[i] += m.gh[i] + float64(2*dmgiAlpha*(m.neg[i]-m.mean[i]))
		// ∂/∂h_r and ∂/∂h̃_r of the regulariser, for every layer alike:
		// held in mean and neg from here on.
		m.mean[i], m.neg[i] = -2*dmgiAlpha*inv*(hv-m.mean[i]), 2*dmgiAlpha*inv*(hv-m.neg[i])
	}
	scale := 1 / float64(2*n)
	for _, l := range m.layers {
		copy(l.gp, m.mean)
		copy(l.gn, m.neg)
		clear(m.gmc)
		var gb float64
		for i := range n {
			dp := (fmath.Sigmoid(l.pos[i]) - 1) * scale
			dn := fmath.Sigmoid(l.negs[i]) * scale
			gb += dp + dn
			hp, hn := l.hp[i*d:(i+1)*d], l.hn[i*d:(i+1)*d]
			gp, gn := l.gp[i*d:(i+1)*d], l.gn[i*d:(i+1)*d]
			for j, c := range l.mc {
				gp[j] += float64(dp * c)
				gn[j] += float64(dn * c)
				m.gmc[j] += float64(dp*hp[j]) + float64(dn*hn[j])
			}
		}
		m.bias.grad[0] += gb
		// ∂M_jk += gmc_j·s_k; ∂s = Mᵀ·gmc; through σ and the mean.
		clear(m.gs)
		for j, gj := range m.gmc {
			row := m.disc.val[j*d : (j+1)*d]
			grow := m.disc.grad[j*d : (j+1)*d]
			for k, sk := range l.s {
				grow[k] += float64(gj * sk)
				m.gs[k] += float64(row[k] * gj)
			}
		}
		for k, sk := range l.s {
			m.gs[k] = float64(m.gs[k]*float64(sk*(1-sk))) / float64(n)
		}
		for i := range n {
			kernels.AddTo(l.gp[i*d:(i+1)*d], m.gs)
		}
		kernels.ReluBackward(l.gp, l.gp, l.hp)
		kernels.ReluBackward(l.gn, l.gn, l.hn)
		l.enc.backward(nil, l.xd, l.gp, n)
		l.enc.backward(nil, l.xn, l.gn, n)
		clear(l.enc.b.grad) // no bias: the conv's is 0 and not learned
	}
}

// dmgiCost is the layers' encoders, each over the real and the corrupted
// features, the discriminator and the consensus embedding with its
// regression.
func dmgiCost(s Shape, m experiment.Model) []Part {
	n, e, f, c := float64(s.N), float64(s.E), float64(s.F), float64(s.C)
	layers, d := float64(max(s.D, 1)), float64(DMGIDim)
	ep, b, w, t := convCost(n, e, f, d, Work{Dense: n * f}, false, false)
	enc := Part{What: phrase.New("DMGI's encoders, a layer each"),
		EpochWork: ep.Times(2 * layers).Plus(Work{Dense: layers * 2 * n * f, Gather: layers * 8 * n * d}),
		// Each layer's inputs and outputs both ways, its Â; the features
		// (dense, and permuted).
		Bytes: layers*(2*b+f64*(2*n*f+4*n*d)+4*(n+4*e)+f64*(5*n+6*e)) + f64*2*n*f,
		// Scratch: each layer's Wᵀ, and the vector kernels' pooled
		// transpose of a W for the product with the dense features
		// (kernels' transposes, shared by the layers).
		Weights: layers * (w - d), Scratch: layers*t + f*d, Fields: []string{"nodes", "edges", "edge-features", "node-features"}}
	disc := Part{What: phrase.New("DMGI's discriminator and consensus embedding"),
		EpochWork: Work{Dense: layers*(8*n*d+2*d*d) + 6*n*d + 3*n*d*c, Exp: layers * 6 * n},
		Bytes:     f64 * (3*n*d + n*c + 2*d + n), Weights: d*d + 1 + n*d + (d+1)*c, Scratch: d * c,
		Fields: []string{"nodes"}}
	if s.NNZ > 0 {
		enc.Bytes += f64 * n * f // the dense copy
	}
	return []Part{enc, disc}
}
