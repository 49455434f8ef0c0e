package pdn

import (
	"math"

	"pdnexplorer/i18n/phrase"
	"pdnexplorer/pdn/internal/kernels"
)

// LogRegC is the downstream classifier's C, scikit-learn's default: the
// weight of the training nodes' loss against the ℓ1 norm of the weights.
const LogRegC = 1.0

// logRegSteps is how many FISTA steps the classifier takes an epoch: at
// the default 200 epochs, 2,000, where its objective no longer moves in
// the sixth digit on Cora's embeddings.
const logRegSteps = 10

// logReg is the downstream classifier of every node embedding (DeepWalk's
// and the others of Table 4): the ℓ1-regularised multinomial logistic
// regression of the paper's Appendix D, scikit-learn's
// LogisticRegression(penalty="l1", C=1) on the training nodes' embeddings,
//
//	min_{W,b}  ‖W‖₁ + C Σ_{i ∈ train} −log softmax(W x_i + b)_{y_i},
//
// the intercept b unpenalised, from W = 0 and b = 0. scikit-learn fits it
// by SAGA, whose order of samples is its own random stream; this fits the
// same convex objective by FISTA (Beck and Teboulle, 2009), which needs no
// stream: a gradient step on the loss from the extrapolated point, then
// the ℓ1 norm's proximal map (each weight moved towards 0 by 1/L, and set
// to 0 if it would cross it), with the step 1/L fixed by Böhning's bound
// on the loss's Hessian, L = C·λmax(X̃ᵀX̃)/2 for X̃ the training rows with
// a column of ones (gramMax). gonum's optimize has no proximal method for
// a non-smooth term, hence this loop.
//
// Every product is rounded before it is added (float64(…)), so that no
// platform fuses it: the same bits natively and in the browser.
type logReg struct {
	x       []float64 // N×d, the embedding; nil until set
	xt      []float64 // its training rows, gathered (len(rows)×d)
	n, d, c int
	rows    []int // the training nodes
	seq     []int // 0…len(rows)−1, and the rows' labels: z's rows
	lab     []int
	lin     *dense    // W (c×d) and b, as torch.nn.Linear holds them
	prevW   []float64 // the last iterate, for the extrapolation
	prevB   []float64
	yW, yB  []float64 // the extrapolated point the gradient is taken at
	t       float64   // FISTA's t_k
	lip     float64   // L
	z, g    []float64 // the training rows' logits and their gradient
	gw, gb  []float64 // the loss's gradient at (yW, yB)
	logits  []float64 // every node's
}

// newLogReg is the classifier of c classes over d-dimensional embeddings
// of n nodes, all of its weights 0.
func newLogReg(n, d, c int, rows, labels []int) *logReg {
	nt := len(rows)
	seq, lab := make([]int, nt), make([]int, nt)
	for k, i := range rows {
		seq[k], lab[k] = k, labels[i]
	}
	return &logReg{n: n, d: d, c: c, rows: rows, seq: seq, lab: lab,
		lin:   &dense{in: d, out: c, w: newTensor(d * c), b: newTensor(c), wt: make([]float64, d*c)},
		prevW: make([]float64, d*c), prevB: make([]float64, c), yW: make([]float64, d*c), yB: make([]float64, c),
		t: 1, z: make([]float64, nt*c), g: make([]float64, nt*c), gw: make([]float64, d*c), gb: make([]float64, c),
		logits: make([]float64, n*c)}
}

// setX takes the embedding, its training rows (X_t) and with them the
// step's bound L.
func (r *logReg) setX(x []float64) {
	r.x = x
	r.xt = r.xt[:0]
	for _, i := range r.rows {
		r.xt = append(r.xt, x[i*r.d:(i+1)*r.d]...)
	}
	r.lip = LogRegC * gramMax(x, r.rows, r.d) / 2
	r.reset()
}

// reset returns to W = 0, b = 0 and FISTA's first step.
func (r *logReg) reset() {
	for _, s := range [][]float64{r.lin.w.val, r.lin.b.val, r.prevW, r.prevB, r.yW, r.yB} {
		clear(s)
	}
	r.t = 1
}

// gramMax bounds λmax(X̃ᵀX̃) for X̃ the rows of x (d columns) with a
// column of ones: power iteration from the vector of ones, gramIters
// steps, its estimate (which approaches λmax from below) raised by a
// twentieth; Böhning's bound has slack enough beside it. Not gonum's
// EigenSym: in a build without the noasm tag it runs gonum's assembly,
// whose bits are not the browser's, and the step moves every weight.
func gramMax(x []float64, rows []int, d int) float64 {
	v, av := make([]float64, d+1), make([]float64, d+1)
	for j := range v {
		v[j] = 1
	}
	lambda := 0.0
	for range gramIters {
		clear(av)
		for _, i := range rows { // av = X̃ᵀ(X̃v), a row at a time
			xi := x[i*d : (i+1)*d]
			dot := v[d]
			for j, xv := range xi {
				dot += float64(xv * v[j])
			}
			for j, xv := range xi {
				av[j] += float64(xv * dot)
			}
			av[d] += dot
		}
		var norm float64
		for _, a := range av {
			norm += float64(a * a)
		}
		norm = math.Sqrt(norm)
		if !(norm > 0) || math.IsInf(norm, 0) {
			return 1 // rows of zeros (any step will do), or no rows
		}
		lambda = norm // ‖X̃ᵀX̃v‖ for a unit v
		for j, a := range av {
			v[j] = a / norm
		}
	}
	return lambda * 1.05
}

// gramIters is gramMax's power iteration's steps: on embeddings its
// estimate settles to a few parts in a thousand well within them.
const gramIters = 100

// lossGrad sets gw, gb to the gradient of C Σ_train −log softmax at (w, b)
// and returns the training nodes' mean loss there: the training rows'
// logits Z = X_t·wᵀ + b and the gradient Gᵀ·X_t through the engine's
// products (kernels.MulABTBias, AddATBCols, split across threads natively
// and each entry one sum in one order, so the same bits everywhere), over
// X_t, the training rows gathered once (setX).
func (r *logReg) lossGrad(w, b []float64) float64 {
	d, c, nt := r.d, r.c, len(r.rows)
	var pc *pacer // the epoch's ten steps are paced as one
	pc.mulABTKept(r.z, r.xt, w, b, nil, nt, d, c, false)
	loss := logSoftmaxNLL(r.g, r.z, c, r.seq, r.lab) // g: the mean's gradient
	scale := LogRegC * float64(nt)
	for k, v := range r.g {
		r.g[k] = float64(scale * v)
	}
	clear(r.gw)
	clear(r.gb)
	pc.addGTX(r.gw, r.g, r.xt, nil, nil, nil, nt, c, d)
	kernels.SumRowsAdd(r.gb, r.g, nt, c)
	return loss
}

// trainStep takes logRegSteps FISTA steps and returns the training nodes'
// mean loss before them.
func (r *logReg) trainStep() float64 {
	w, b := r.lin.w.val, r.lin.b.val
	var first float64
	for s := range logRegSteps {
		loss := r.lossGrad(r.yW, r.yB)
		if s == 0 {
			first = loss
		}
		copy(r.prevW, w)
		copy(r.prevB, b)
		step := 1 / r.lip
		for j, v := range r.yW {
			w[j] = softThreshold(v-float64(step*r.gw[j]), step)
		}
		for o, v := range r.yB {
			b[o] = v - float64(step*r.gb[o])
		}
		next := (1 + math.Sqrt(1+float64(4*r.t*r.t))) / 2
		mom := (r.t - 1) / next
		for j := range w {
			r.yW[j] = w[j] + float64(mom*(w[j]-r.prevW[j]))
		}
		for o := range b {
			r.yB[o] = b[o] + float64(mom*(b[o]-r.prevB[o]))
		}
		r.t = next
	}
	return first
}

// softThreshold is the ℓ1 norm's proximal map with step s: v moved s
// towards 0, or 0 where that would cross it.
func softThreshold(v, s float64) float64 {
	switch {
	case v > s:
		return v - s
	case v < -s:
		return v + s
	}
	return 0
}

// logRegCost is the classifier over d-dimensional embeddings of a graph of
// shape s: its step's bound once the embedding is made (gramMax's power
// iteration, seconds over FEATHER's 16,000 columns), then an epoch's
// logRegSteps steps over the training nodes (s.Train, or a 100-shot
// split's 100 a class where the split is not known), and every node's
// logits.
func logRegCost(s Shape, d float64) Part {
	n, c := float64(s.N), float64(s.C)
	train := min(n, 100*c) // a 100-shot split's, where the split is not known
	if s.Train > 0 {
		train = float64(s.Train)
	}
	return Part{What: phrase.New("the regression"), SetupWork: Work{Dense: gramIters * 2 * train * (d + 1)},
		EpochWork: Work{Dense: logRegSteps*4*train*d*c + n*d*c, Exp: logRegSteps * train * c},
		Bytes:     f64 * (n*c + 3*d*c + 2*train*c + train*d), Weights: (d + 1) * c, Scratch: d * c, Fields: []string{"training-nodes", "nodes"}}
}

// forward is every node's logits.
func (r *logReg) forward() []float64 {
	r.lin.forward(r.logits, r.x, r.n)
	return r.logits
}
